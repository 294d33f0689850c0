"""Real agent CLIs, offline, with ``hookwise install <agent>``: one prompt each against a scripted
fake model (tests/bridge/fake_model.py), and assertions on what really happened — the tool ran or
not, the model's next request carries the denial or the added context, a rewritten argument reached
the tool.

The CLIs come from the npm registry, installed once into a cache outside the repository
(``$HOOKWISE_AGENTS_CACHE``, else ``~/.cache/hookwise/agents-e2e``). Without node, npm, the registry
or a package, the tests skip with the reason.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.bridge.fake_model import FakeModel

pytestmark = pytest.mark.slow

#: the pinned packages (the versions whose hook payloads are in tests/bridge/payloads)
PACKAGES = {
    "claude": ("@anthropic-ai/claude-code@2.1.197", "claude"),
    "codex": ("@openai/codex@0.171.0", "codex"),
    "gemini": ("@google/gemini-cli@0.61.0", "gemini"),
    "qwen": ("@qwen-code/qwen-code@0.15.10", "qwen"),
    "copilot": ("@github/copilot@1.0.102", "copilot"),
}

DENY = "NO-RM-BY-HOOKWISE"
CONTEXT = "CONTEXT-FROM-HOOKWISE"

#: hookwise hooks (contract format, in the project's .gemini/settings.json): deny `rm`, rewrite a
#: command that says REWRITE-ME, add context to the prompt
GUARD = f"""
import json, sys
d = json.load(sys.stdin)
cmd = d["tool_input"].get("command", "")
if "rm " in cmd:
    print(json.dumps({{"decision": "deny", "reason": "{DENY}"}}))
elif "REWRITE-ME" in cmd:
    new = {{"command": "echo REWRITTEN > rewritten.txt"}}
    print(json.dumps({{"hookSpecificOutput": {{"tool_input": new}}}}))
"""
KEEP_GOING = "KEEP-GOING-BY-HOOKWISE"
REPLACED = "OUTPUT-REPLACED-BY-HOOKWISE"
#: the first time the agent wants to stop, a hook blocks the stop (once: a marker file remembers)
STOPPER = f"""
import json, os, sys
json.load(sys.stdin)
marker = os.path.join(os.path.dirname(__file__), "stopped-once")
if not os.path.exists(marker):
    open(marker, "w").close()
    print(json.dumps({{"decision": "deny", "reason": "{KEEP_GOING}"}}))
"""
CONTEXTER = f"""
import json
print(json.dumps({{"hookSpecificOutput": {{"additionalContext": "{CONTEXT}"}}}}))
"""

SCRIPT = [
    {"shell": "echo BAD > denied.txt; rm -rf nothing"},
    {"shell": "echo REWRITE-ME > original.txt"},
    {"text": "all done"},
]


@pytest.fixture(scope="session")
def agents_cache() -> Path:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("node and npm are needed to run the real agents")
    cache = Path(
        os.environ.get("HOOKWISE_AGENTS_CACHE")
        or Path.home() / ".cache" / "hookwise" / "agents-e2e"
    )
    bins = cache / "node_modules" / ".bin"
    missing = [pkg for pkg, exe in PACKAGES.values() if not (bins / exe).exists()]
    if missing:
        cache.mkdir(parents=True, exist_ok=True)
        try:
            r = subprocess.run(
                [npm, "install", "--no-audit", "--no-fund", "--prefix", str(cache), *missing],
                capture_output=True,
                text=True,
                timeout=600,
            )
        except subprocess.TimeoutExpired:
            pytest.skip("npm install of the agents timed out")
        if r.returncode != 0:
            pytest.skip(f"npm install of the agents failed: {r.stderr[-500:]}")
    return cache


def _agent_bin(cache: Path, agent: str) -> str:
    exe = cache / "node_modules" / ".bin" / PACKAGES[agent][1]
    if not exe.exists():
        pytest.skip(f"{PACKAGES[agent][0]} is not installed in {cache}")
    return str(exe)


@pytest.fixture
def agent_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    return home


@pytest.fixture
def agent_project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    (proj / ".gemini" / "hooks").mkdir(parents=True)
    (proj / ".gemini" / "hooks" / "guard.py").write_text(GUARD)
    (proj / ".gemini" / "hooks" / "context.py").write_text(CONTEXTER)
    (proj / ".gemini" / "hooks" / "stop.py").write_text(STOPPER)
    subprocess.run(["git", "init", "-q", str(proj)], check=True, timeout=30)
    return proj


def _hookwise_settings(proj: Path, path: Path | None = None) -> None:
    """hookwise's hooks for the run (python = this interpreter)."""
    py = sys.executable
    settings = {
        "hooks": {
            "BeforeTool": [
                {"hooks": [{"type": "command", "command": f'{py} "{proj}/.gemini/hooks/guard.py"'}]}
            ],
            "BeforeAgent": [
                {
                    "hooks": [
                        {"type": "command", "command": f'{py} "{proj}/.gemini/hooks/context.py"'}
                    ]
                }
            ],
            "AfterAgent": [
                {"hooks": [{"type": "command", "command": f'{py} "{proj}/.gemini/hooks/stop.py"'}]}
            ],
        }
    }
    (path or proj / ".gemini" / "settings.json").write_text(json.dumps(settings, indent=2))


def _env(home: Path, extra: dict[str, str]) -> dict[str, str]:
    """A clean environment: the agent's own variables, hookwise and node on PATH, nothing of the
    caller's."""
    node_dir = os.path.dirname(shutil.which("node") or "/usr/bin/node")
    path = os.pathsep.join(
        dict.fromkeys([os.path.dirname(sys.executable), node_dir, "/usr/bin", "/bin"])
    )
    env = {
        "HOME": str(home),
        "GEMINI_CLI_HOME": str(home),
        "PATH": path,
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "NO_COLOR": "1",
        "CI": "1",
        "HOOKWISE_TRUST_ALL": "1",  # the project's hookwise hooks are trusted for the run (CI)
    }
    env.update(extra)
    return env


def _install(proj: Path, home: Path, agent: str, *flags: str) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(proj), "install", agent, *flags],
        capture_output=True,
        text=True,
        env=_env(home, {}),
        timeout=60,
    )
    assert r.returncode == 0, r.stderr


def _run(cmd: list[str], proj: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd,
        cwd=proj,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def model() -> Iterator[FakeModel]:
    with FakeModel(SCRIPT) as m:
        yield m


def _later_requests_say(model: FakeModel, text: str, turn: int) -> bool:
    return any(text in r["text"] for r in model.main_requests() if r["turn"] >= turn)


def _diagnose(r: subprocess.CompletedProcess[str], model: FakeModel) -> str:
    turns = [(q["api"], q["turn"], q["side"]) for q in model.requests]
    return (
        f"rc={r.returncode}\nstdout={r.stdout[-2000:]}\nstderr={r.stderr[-2000:]}\nrequests={turns}"
    )


def test_claude_code(
    agents_cache: Path, agent_home: Path, agent_project: Path, model: FakeModel
) -> None:
    exe = _agent_bin(agents_cache, "claude")
    _hookwise_settings(agent_project)
    # Claude Code only: a hook replaces the rewritten command's output (updatedToolOutput)
    settings_path = agent_project / ".gemini" / "settings.json"
    settings = json.loads(settings_path.read_text())
    replacer = agent_project / ".gemini" / "hooks" / "replace.py"
    replacer.write_text(
        "import json, sys\n"
        "d = json.load(sys.stdin)\n"
        "if 'REWRITTEN' in d['tool_input'].get('command', ''):\n"
        "    print(json.dumps({'hookSpecificOutput': {'updatedToolOutput': {'llmContent': '"
        + REPLACED
        + "'}}}))\n"
    )
    settings["hooks"]["AfterTool"] = [
        {"hooks": [{"type": "command", "command": f'{sys.executable} "{replacer}"'}]}
    ]
    settings_path.write_text(json.dumps(settings))
    _install(agent_project, agent_home, "claude")
    extra = {
        "ANTHROPIC_BASE_URL": model.url,
        "ANTHROPIC_API_KEY": "dummy",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "IS_SANDBOX": "1",  # --dangerously-skip-permissions refuses to run as root without it
    }
    r = _run(
        [exe, "--dangerously-skip-permissions", "-p", "go"], agent_project, _env(agent_home, extra)
    )
    why = _diagnose(r, model)
    assert r.returncode == 0, why
    _assert_guarded(agent_project, model, why, rewrite_applied=True)
    assert _later_requests_say(model, REPLACED, 2), why  # the model got the replaced output


def test_codex(agents_cache: Path, agent_home: Path, agent_project: Path, model: FakeModel) -> None:
    exe = _agent_bin(agents_cache, "codex")
    _hookwise_settings(agent_project)
    _install(agent_project, agent_home, "codex")
    codex_home = agent_home / ".codex"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text(
        'model = "gpt-5.1-codex"\nmodel_provider = "fake"\n\n'
        f'[model_providers.fake]\nname = "fake"\nbase_url = "{model.url}/v1"\n'
        'env_key = "FAKE_MODEL_API_KEY"\nwire_api = "responses"\n\n'
        f'[projects."{os.path.realpath(agent_project)}"]\ntrust_level = "trusted"\n'
    )
    extra = {"CODEX_HOME": str(codex_home), "FAKE_MODEL_API_KEY": "dummy"}
    cmd = [
        exe,
        "exec",
        "--dangerously-bypass-approvals-and-sandbox",
        "--dangerously-bypass-hook-trust",  # Codex's own hook review (install tells the user)
        "--skip-git-repo-check",
        "go",
    ]
    r = _run(cmd, agent_project, _env(agent_home, extra))
    why = _diagnose(r, model)
    assert r.returncode == 0, why
    _assert_guarded(agent_project, model, why, rewrite_applied=False)
    assert _later_requests_say(model, "cannot apply rewritten arguments", 2), why


def test_gemini_cli_take_over(
    agents_cache: Path, agent_home: Path, agent_project: Path, model: FakeModel
) -> None:
    """Gemini runs its own settings' hooks: with --take-over they run under hookwise instead."""
    exe = _agent_bin(agents_cache, "gemini")
    _hookwise_settings(agent_project)  # Gemini's own project hooks
    _install(agent_project, agent_home, "gemini", "--take-over")
    settings = (agent_project / ".gemini" / "settings.json").read_text()
    assert "guard.py" not in settings and "hookwise hook gemini" in settings
    (agent_home / ".gemini").mkdir()
    (agent_home / ".gemini" / "settings.json").write_text(
        json.dumps(
            {
                "security": {"auth": {"selectedType": "gemini-api-key"}},
                "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
                "privacy": {"usageStatisticsEnabled": False},
                "telemetry": {"enabled": False},
            }
        )
    )
    extra = {
        "GEMINI_API_KEY": "dummy",
        "GOOGLE_GEMINI_BASE_URL": model.url,
        "GEMINI_CLI_TRUST_WORKSPACE": "true",
    }
    r = _run([exe, "--approval-mode", "yolo", "-p", "go"], agent_project, _env(agent_home, extra))
    why = _diagnose(r, model)
    assert r.returncode == 0, why
    _assert_guarded(agent_project, model, why, rewrite_applied=True)


def test_qwen_code(
    agents_cache: Path, agent_home: Path, agent_project: Path, model: FakeModel
) -> None:
    exe = _agent_bin(agents_cache, "qwen")
    _hookwise_settings(agent_project)
    _install(agent_project, agent_home, "qwen")
    (agent_home / ".qwen").mkdir()
    (agent_home / ".qwen" / "settings.json").write_text(
        json.dumps(
            {
                "security": {"auth": {"selectedType": "openai"}},
                "general": {"enableAutoUpdate": False},
                "memory": {"enableManagedAutoMemory": False},
                "privacy": {"usageStatisticsEnabled": False},
                "telemetry": {"enabled": False},
            }
        )
    )
    extra = {
        "OPENAI_API_KEY": "dummy",
        "OPENAI_BASE_URL": model.url + "/v1",
        "OPENAI_MODEL": "fake-model",
    }
    cmd = [exe, "--auth-type", "openai", "--approval-mode", "yolo", "go"]
    r = _run(cmd, agent_project, _env(agent_home, extra))
    why = _diagnose(r, model)
    assert r.returncode == 0, why
    _assert_guarded(agent_project, model, why, rewrite_applied=False)
    assert _later_requests_say(model, "cannot apply rewritten arguments", 2), why


@pytest.mark.parametrize("mode", ["copilot", "copilot-pascal"])
def test_copilot_cli(
    mode: str, agents_cache: Path, agent_home: Path, agent_project: Path, model: FakeModel
) -> None:
    """Both hook modes: camelCase events (payloads without their event) and PascalCase
    (Claude's)."""
    exe = _agent_bin(agents_cache, "copilot")
    _hookwise_settings(agent_project)
    _install(agent_project, agent_home, mode)
    extra = {
        "COPILOT_OFFLINE": "true",
        "COPILOT_PROVIDER_BASE_URL": model.url + "/v1",
        "COPILOT_PROVIDER_TYPE": "openai",
        "COPILOT_PROVIDER_API_KEY": "dummy",
        "COPILOT_MODEL": "gpt-4.1",
        # exactly "true": also trusts the folder, which loads its hooks
        "COPILOT_ALLOW_ALL": "true",
        "COPILOT_AUTO_UPDATE": "false",
        "COPILOT_HOME": str(agent_home / ".copilot"),
    }
    r = _run([exe, "--allow-all-tools", "-p", "go"], agent_project, _env(agent_home, extra))
    why = _diagnose(r, model)
    assert r.returncode == 0, why
    _assert_guarded(agent_project, model, why, rewrite_applied=True)


def _assert_guarded(proj: Path, model: FakeModel, why: str, *, rewrite_applied: bool) -> None:
    # the prompt's added context reached the model
    assert any(CONTEXT in r["text"] for r in model.main_requests()), why
    # the denied call did not run, and the model was told why
    assert not (proj / "denied.txt").exists(), why
    assert _later_requests_say(model, DENY, 1), why
    # the rewritten call ran with hookwise's arguments (or, where the agent cannot apply them, not
    # at all)
    assert not (proj / "original.txt").exists(), why
    assert (proj / "rewritten.txt").exists() is rewrite_applied, why
    # the first stop was blocked: the agent went on, and the model was told why
    assert (proj / ".gemini" / "hooks" / "stopped-once").exists(), why
    assert _later_requests_say(model, KEEP_GOING, 2), why


#: a Copilot hook of the team's own (camelCase format, in another .github/hooks file): denies `rm`
COPILOT_OWN_GUARD = f"""
import json, sys
d = json.load(sys.stdin)
args = d.get("toolArgs")
args = json.loads(args) if isinstance(args, str) else args or {{}}
if "rm " in str(args.get("command", "")):
    print(json.dumps({{"permissionDecision": "deny", "permissionDecisionReason": "TEAM-{DENY}"}}))
"""


def test_copilot_cli_take_over(
    agents_cache: Path, agent_home: Path, agent_project: Path, model: FakeModel
) -> None:
    """Copilot's own hook, moved by `install copilot --take-over`, still guards the real CLI:
    hookwise runs it in Copilot's format (its file's hooks are emptied), and uninstall gives the
    file back."""
    exe = _agent_bin(agents_cache, "copilot")
    guard = agent_project / "team_guard.py"
    guard.write_text(COPILOT_OWN_GUARD)
    team = agent_project / ".github" / "hooks" / "team.json"
    team.parent.mkdir(parents=True)
    original = json.dumps(
        {
            "version": 1,
            "hooks": {"preToolUse": [{"type": "command", "bash": f'{sys.executable} "{guard}"'}]},
        },
        indent=2,
    )
    team.write_text(original)
    _install(agent_project, agent_home, "copilot", "--take-over")
    assert json.loads(team.read_text())["hooks"] == {}
    extra = {
        "COPILOT_OFFLINE": "true",
        "COPILOT_PROVIDER_BASE_URL": model.url + "/v1",
        "COPILOT_PROVIDER_TYPE": "openai",
        "COPILOT_PROVIDER_API_KEY": "dummy",
        "COPILOT_MODEL": "gpt-4.1",
        "COPILOT_ALLOW_ALL": "true",
        "COPILOT_AUTO_UPDATE": "false",
        "COPILOT_HOME": str(agent_home / ".copilot"),
    }
    r = _run([exe, "--allow-all-tools", "-p", "go"], agent_project, _env(agent_home, extra))
    why = _diagnose(r, model)
    assert r.returncode == 0, why
    assert not (agent_project / "denied.txt").exists(), why  # the moved hook denied the rm call
    assert _later_requests_say(model, f"TEAM-{DENY}", 1), why
    assert (agent_project / "original.txt").exists(), (
        why
    )  # no hookwise hook here: the next call ran
    r = subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(agent_project), "uninstall", "copilot"],
        capture_output=True,
        text=True,
        env=_env(agent_home, {}),
        timeout=60,
    )
    assert r.returncode == 0 and team.read_text() == original, r.stdout + r.stderr
