"""``hookwise install`` / ``uninstall`` as a user runs them: byte-for-byte round trips on
real-looking hook files of every agent (comments, other keys, existing hooks), idempotence,
refusals, ``--take-over``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import Project

from hookwise.bridge.agents import AGENTS

#: a file each agent might already have: comments where the format allows them, other keys, own
#: hooks
EXISTING: dict[str, str] = {
    "claude": """{
  // team settings
  "permissions": { "allow": ["Bash(ls)"] },
  "hooks": {
    "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./guard.sh" } ] } ] // guard
  },
  "model": "opus"
}
""",  # noqa: E501 (a user's file, verbatim)
    "codex": (
        '{\n  "hooks": {\n    "Stop": [{"hooks": [{"type": "command", "command": "notify-send '
        'done"}]}]\n  }\n}\n'
    ),
    "gemini": """{
  /* Gemini settings */
  "general": {"vimMode": true},
  "hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [{"type": "command", "command": "lint"}]}]}
}
""",  # noqa: E501 (a user's file, verbatim)
    "qwen": '{\n\t"model": {"name": "qwen3"},\n\t"hooks": {}\n}\n',
    "tabnine": '{"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": "true"}]}]}}\n',
    "terminai": '{\r\n  "ui": {"theme": "dark"}\r\n}\r\n',
    "cursor": (
        '{\n  "version": 1,\n  "hooks": {\n    "beforeShellExecution": [ { "command": '
        '"./audit.sh" } ]\n  }\n}\n'
    ),
    "copilot": "",
    "copilot-pascal": "",
    "agy": (
        '{\n  "hooks": {\n    "Stop": [ { "name": "notify", '
        '"hooks": [ { "type": "command", "command": "say done" } ] } ]\n  }\n}\n'
    ),
    "windsurf": (
        '{\n  "hooks": {\n    "post_cascade_response": [ { "command": "log.sh" } ]\n  }\n}\n'
    ),
    "goose": "",
    "continue": '{\n  // Continue reads Claude-format hooks\n  "hooks": {}\n}\n',
}


def test_every_agent_has_a_sample_file() -> None:
    assert set(EXISTING) == set(AGENTS)


def _hookwise(project: Path, *args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """The CLI as a user runs it; ``--user`` lines go through the same functions in this process
    (the round trips of both scopes are alike, and a process per step would double the file's run
    time)."""
    env = {**os.environ, "HOME": str(home)}
    if "--user" in args and "--dry-run" not in args:
        return _in_process(project, args, env)
    return subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def _in_process(
    project: Path, args: tuple[str, ...], env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    from hookwise.bridge import install

    command, agent = args[0], AGENTS[args[1]]
    if command == "install":
        change = install.plan_install(agent, str(project), env, user=True)
    else:
        change = install.plan_uninstall(agent, str(project), env, user=True)
    if change.changed:
        install.apply(change, env)
    out = "Nothing to change" if not change.changed else "changed"
    return subprocess.CompletedProcess(list(args), 0, out, "")


def _file(project: Project, agent: str, user: bool = False) -> Path:
    a = AGENTS[agent]
    return (project.home / a.user_file) if user else (project.root / a.project_file)


@pytest.mark.slow
@pytest.mark.parametrize("agent", sorted(AGENTS))
@pytest.mark.parametrize("user", [False, True], ids=["project", "user"])
def test_install_then_uninstall_gives_back_every_byte(
    agent: str, user: bool, project: Project
) -> None:
    path = _file(project, agent, user)
    original = EXISTING[agent]
    if original:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(original.encode())
    scope = ["--user"] if user else []
    r = _hookwise(project.root, "install", agent, *scope, home=project.home)
    assert r.returncode == 0, r.stderr
    installed = path.read_text()
    assert installed != original
    doc = json.loads(_uncomment(installed))
    for ev in AGENTS[agent].bridged_events:
        assert "hookwise hook " + agent in json.dumps(doc["hooks"][ev]), ev
    # twice: nothing changes
    r = _hookwise(project.root, "install", agent, *scope, home=project.home)
    assert r.returncode == 0 and "Nothing to change" in r.stdout
    assert path.read_text() == installed
    r = _hookwise(project.root, "uninstall", agent, *scope, home=project.home)
    assert r.returncode == 0, r.stderr
    if original:
        assert path.read_bytes() == original.encode()
    else:
        assert not path.exists()  # the file install created is removed again


def _uncomment(text: str) -> str:
    from hookwise.jsonc.parse import strip_comments

    return strip_comments(text)


@pytest.mark.slow
def test_dry_run_prints_the_diff_and_writes_nothing(project: Project) -> None:
    path = _file(project, "cursor")
    r = _hookwise(project.root, "install", "cursor", "--dry-run", home=project.home)
    assert r.returncode == 0
    assert r.stdout.startswith("--- /dev/null\n+++ ")
    assert (
        '+  "version": 1,' in r.stdout and "hookwise hook cursor beforeShellExecution" in r.stdout
    )
    assert not path.exists()


def test_copilot_entries_carry_the_event(project: Project) -> None:
    _hookwise(project.root, "install", "copilot", home=project.home)
    doc = json.loads(_file(project, "copilot").read_text())
    assert doc["version"] == 1
    assert doc["hooks"]["preToolUse"] == [
        {"type": "command", "bash": "hookwise hook copilot preToolUse", "timeoutSec": 600}
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("agent", "text", "message"),
    [
        ("codex", '{"$schema": "x", "hooks": {}}', "refuses unknown root keys"),
        ("claude", '{"hooks": []}', "/hooks is not an object"),
        ("claude", '{"hooks": {"Stop": {}}}', "/hooks/Stop is not an array"),
        ("claude", '{"hooks": {', "does not parse"),
        ("cursor", '{"version": 2}', "version 1 files only"),
    ],
)
def test_a_file_that_cannot_be_edited_safely_is_refused(
    project: Project, agent: str, text: str, message: str
) -> None:
    path = _file(project, agent)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    r = _hookwise(project.root, "install", agent, home=project.home)
    assert r.returncode == 1 and message in r.stderr, r.stderr
    assert path.read_text() == text


def test_codex_install_says_how_to_trust_the_hooks(project: Project) -> None:
    r = _hookwise(project.root, "install", "codex", home=project.home)
    assert "/hooks" in r.stdout and "trust" in r.stdout


@pytest.mark.slow
def test_take_over_and_back(project: Project) -> None:
    path = _file(project, "claude")
    path.parent.mkdir(parents=True)
    path.write_text(EXISTING["claude"])
    r = _hookwise(project.root, "install", "claude", "--take-over", home=project.home)
    assert r.returncode == 0, r.stderr
    doc = json.loads(_uncomment(path.read_text()))
    assert "./guard.sh" not in json.dumps(doc)  # only hookwise's entries are left
    assert doc["permissions"] == {"allow": ["Bash(ls)"]} and doc["model"] == "opus"
    store = path.parent / "hookwise-takeover.claude.json"
    assert json.loads(store.read_text())["original"] == EXISTING["claude"]
    r = _hookwise(project.root, "uninstall", "claude", home=project.home)
    assert r.returncode == 0 and "byte for byte" in r.stdout
    assert path.read_text() == EXISTING["claude"]
    assert not store.exists()


@pytest.mark.slow
def test_take_over_after_the_file_changed_restores_by_content(project: Project) -> None:
    path = _file(project, "claude")
    path.parent.mkdir(parents=True)
    path.write_text(EXISTING["claude"])
    _hookwise(project.root, "install", "claude", "--take-over", home=project.home)
    path.write_text(path.read_text().replace('"opus"', '"sonnet"'))
    r = _hookwise(project.root, "uninstall", "claude", home=project.home)
    assert r.returncode == 0 and "changed since install" in r.stdout
    doc = json.loads(_uncomment(path.read_text()))
    assert doc["model"] == "sonnet"
    assert doc["hooks"] == {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]
    }


@pytest.mark.slow
def test_taken_over_hooks_run_through_the_bridge(project: Project) -> None:
    """The moved hook runs under hookwise (once trusted) and keeps its Claude meaning."""
    from hookwise.bridge.core import answer

    guard = project.root / "guard.py"
    guard.write_text(
        "import json, sys\n"
        "d = json.load(sys.stdin)\n"
        "assert d['tool_name'] == 'Bash'\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse',"
        " 'permissionDecision': 'deny', 'permissionDecisionReason': 'guarded'}}))\n"
    )
    path = _file(project, "claude")
    path.parent.mkdir(parents=True)
    settings: dict[str, Any] = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [{"type": "command", "command": f"{sys.executable} {guard}"}],
                }
            ]
        }
    }
    path.write_text(json.dumps(settings))
    _hookwise(project.root, "install", "claude", "--take-over", home=project.home)
    call = {
        "hook_event_name": "PreToolUse",
        "session_id": "s1",
        "cwd": str(project.root),
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
    }
    env = {**os.environ, "HOME": str(project.home)}
    out = json.loads(
        answer("claude", None, json.dumps(call), project=str(project.root), env=env).stdout
    )
    assert "not trusted" in out["systemMessage"]  # a project file's hooks need hookwise's trust
    env["HOOKWISE_TRUST_ALL"] = "1"
    out = json.loads(
        answer("claude", None, json.dumps(call), project=str(project.root), env=env).stdout
    )
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert out["hookSpecificOutput"]["permissionDecisionReason"] == "guarded"


def test_take_over_is_refused_where_hookwise_cannot_run_the_format(project: Project) -> None:
    r = _hookwise(project.root, "install", "copilot-pascal", "--take-over", home=project.home)
    assert r.returncode == 1 and "--take-over is not available for GitHub Copilot" in r.stderr


def test_fail_closed_entries(project: Project) -> None:
    r = _hookwise(project.root, "install", "claude", "--fail-closed", home=project.home)
    assert r.returncode == 0, r.stderr
    doc = json.loads(_file(project, "claude").read_text())
    assert doc["hooks"]["PreToolUse"] == [
        {
            "hooks": [
                {
                    "type": "command",
                    "command": "hookwise hook claude --fail-closed",
                    "onFailure": "block",
                }
            ]
        }
    ]
    r = _hookwise(project.root, "uninstall", "claude", home=project.home)
    assert r.returncode == 0 and not _file(project, "claude").exists()


TAKE_OVER = sorted(a.name for a in AGENTS.values() if a.config == "groups" and not a.own_file)


@pytest.mark.parametrize("agent", TAKE_OVER)
def test_take_over_and_back_for_every_agent_that_allows_it(agent: str, project: Project) -> None:
    from hookwise.bridge import install

    path = _file(project, agent)
    path.parent.mkdir(parents=True, exist_ok=True)
    original = (
        EXISTING[agent]
        or '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}\n'
    )
    path.write_bytes(original.encode())
    env = {**os.environ, "HOME": str(project.home)}
    a = AGENTS[agent]
    install.apply(install.plan_install(a, str(project.root), env, take_over=True), env)
    doc = json.loads(_uncomment(path.read_text()))
    assert all(install.ours(g, a) for items in doc["hooks"].values() for g in items)
    install.apply(install.plan_uninstall(a, str(project.root), env), env)
    assert path.read_bytes() == original.encode()
    assert not (path.parent / f"hookwise-takeover.{agent}.json").exists()


def test_install_says_when_the_agent_switched_hooks_off(project: Project) -> None:
    path = _file(project, "claude")
    path.parent.mkdir(parents=True)
    path.write_text('{"disableAllHooks": true}\n')
    r = _hookwise(project.root, "install", "claude", home=project.home)
    assert r.returncode == 0 and "disableAllHooks: true" in r.stdout


def test_codex_home_moves_the_user_file(project: Project, tmp_path: Path) -> None:
    from hookwise.bridge import install

    codex_home = tmp_path / "codex-home"
    env = {**os.environ, "HOME": str(project.home), "CODEX_HOME": str(codex_home)}
    change = install.plan_install(AGENTS["codex"], str(project.root), env, user=True)
    install.apply(change, env)
    assert change.path == str(codex_home / "hooks.json") and (codex_home / "hooks.json").exists()
