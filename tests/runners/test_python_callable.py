"""``"type": "python"`` hooks from settings and ``@hookwise.hook`` (docs/hook-types.md).

The same decorated function, declared as a python hook and run as a command
hook (``python3 guard.py`` through ``guard.run()``), gives the same
``hookwise fire --json`` answer for every kind of answer.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import Project

import hookwise
from hookwise import HookSystem, Outcome

GUARD = """
import hookwise

@hookwise.hook("BeforeTool")
def answer(inp):
    kind = inp["tool_input"].get("kind")
    if kind == "allow":
        return {"decision": "allow", "systemMessage": "fine"}
    if kind == "deny":
        return {"decision": "deny", "reason": "not this one"}
    if kind == "ask":
        return {"decision": "ask", "reason": "are you sure?"}
    if kind == "rewrite":
        return {"hookSpecificOutput": {"tool_input": {"command": "ls -l"}}}
    if kind == "context":
        return {"hookSpecificOutput": {"additionalContext": "the repo is read-only"}}
    if kind == "stop":
        return {"continue": False, "stopReason": "enough for today"}
    if kind == "block":
        raise hookwise.Block("blocked like exit 2")
    if kind == "fail":
        raise RuntimeError("the guard's own bug")
    return None


@hookwise.hook("BeforeTool", dialect="claude")
def claude_answer(inp):
    assert inp["hook_event_name"] == "PreToolUse", inp
    command = inp["tool_input"].get("command", "")
    if inp["tool_name"] == "Bash" and command.startswith("git push"):
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                       "permissionDecisionReason": "no pushes"}}
    if command == "ask":
        return {"hookSpecificOutput": {"permissionDecision": "ask",
                                       "permissionDecisionReason": "check"}}
    if command == "rewrite":
        return {"hookSpecificOutput": {"permissionDecision": "allow",
                                       "updatedInput": {"command": "ls -la"}}}
    if command == "block":
        raise hookwise.Block("claude exit 2")
    return None


if __name__ == "__main__":
    import sys
    (claude_answer if sys.argv[1:] == ["claude"] else answer).run()
"""

KINDS = ["allow", "deny", "ask", "rewrite", "context", "stop", "block", "fail", "none"]
#: per-hook fields that say how the hook ran, not what it answered
RUN_FIELDS = ("command", "exitCode", "durationMs", "stdout", "stderr", "error")


def cli(project: Project, *args: str, trust_all: bool = True) -> tuple[int, dict[str, Any]]:
    env = {k: v for k, v in os.environ.items() if k != "HOOKWISE_TRUST_ALL"}
    if trust_all:
        env["HOOKWISE_TRUST_ALL"] = "1"
    out = subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project.root), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert out.stdout.strip(), out.stderr
    return out.returncode, json.loads(out.stdout)


def answer_only(data: dict[str, Any]) -> dict[str, Any]:
    data = dict(data)
    data.pop("warnings")
    data["hooks"] = [{k: v for k, v in h.items() if k not in RUN_FIELDS} for h in data["hooks"]]
    return data


def write_guard(project: Project) -> None:
    (project.root / "guard.py").write_text(GUARD)


@pytest.mark.slow
@pytest.mark.parametrize("dialect", [None, "claude"])
def test_python_hook_and_its_command_form_answer_alike(
    project: Project, dialect: str | None
) -> None:
    write_guard(project)
    func = "claude_answer" if dialect else "answer"
    as_python = {"type": "python", "callable": f"guard:{func}", "name": "guard"}
    as_command = {
        "type": "command",
        "command": f"{sys.executable} guard.py" + (" claude" if dialect else ""),
        "name": "guard",
    }
    if dialect:
        as_command["dialect"] = "claude"
    tool_inputs = (
        [{"command": c} for c in ("git push origin", "ask", "rewrite", "block", "ls")]
        if dialect
        else [{"kind": k, "command": "ls"} for k in KINDS]
    )
    seen = set()
    for tool_input in tool_inputs:
        results = []
        for hook in (as_python, as_command):
            project.hooks("BeforeTool", hook)
            code, data = cli(
                project,
                "fire",
                "BeforeTool",
                "--tool",
                "run_shell_command",
                "--tool-input",
                json.dumps(tool_input),
                "--json",
            )
            results.append((code, data))
        (pcode, pdata), (ccode, cdata) = results
        assert pdata["hooks"][0]["command"] == f"guard:{func}"
        assert (pcode, answer_only(pdata)) == (ccode, answer_only(cdata)), tool_input
        assert len(pdata["warnings"]) == len(cdata["warnings"])
        for pw, cw in zip(pdata["warnings"], cdata["warnings"], strict=True):
            assert pw.split(": ", 1)[0] == cw.split(": ", 1)[0]  # same hook, same outcome class
            assert pw.rsplit(": ", 1)[1] == cw.rsplit(": ", 1)[1]  # same cause
        seen.add((pcode, pdata["hooks"][0]["outcome"], pdata["decision"]))
    if dialect is None:  # every answer kind really came out
        assert seen == {
            (0, "ok", "allow"),
            (2, "ok", "deny"),
            (0, "ok", "ask"),
            (3, "ok", "allow"),
            (2, "blocked", "deny"),
            (0, "failed", "allow"),
        }
    else:
        assert seen == {
            (2, "ok", "deny"),
            (0, "ok", "ask"),
            (0, "ok", "allow"),
            (2, "blocked", "deny"),
        }


def test_python_hook_runs_in_process(project: Project) -> None:
    write_guard(project)
    project.hooks("BeforeTool", {"type": "python", "callable": "guard:answer"})
    with HookSystem(project.root, trust_all=True) as hs:
        r = hs.fire(
            "BeforeTool",
            tool_name="run_shell_command",
            tool_input={"kind": "rewrite", "command": "ls"},
        )
        o = r.hooks[0]
        assert (o.outcome, o.hook_type, o.name, o.exit_code) == (
            Outcome.OK,
            "python",
            "guard:answer",
            None,
        )
        assert r.output["hookSpecificOutput"]["tool_input"] == {
            "kind": "rewrite",
            "command": "ls -l",
        }
        assert hs.fire("BeforeTool", tool_name="t", tool_input={"kind": "block"}).blocked


def test_the_decorated_function_is_still_a_function() -> None:
    @hookwise.hook("BeforeTool", name="g")
    def g(inp: hookwise.HookInput) -> dict[str, Any] | None:
        return {"decision": "deny"} if inp.get("tool_name") == "x" else None

    assert g({"tool_name": "x"}) == {"decision": "deny"} and g({}) is None
    assert (g.event, g.dialect, g.name, g.__name__) == (
        hookwise.HookEvent.BEFORE_TOOL,
        None,
        "g",
        "g",
    )
    with pytest.raises(hookwise.UnknownEventError):
        hookwise.hook("PreToolUse")
    with pytest.raises(ValueError, match="unknown dialect"):
        hookwise.hook("BeforeTool", dialect="cursor")


@pytest.mark.parametrize(
    "stdin,code,stdout,stderr",
    [
        ('{"tool_name": "x"}', 2, "", "no x\n"),
        ('{"tool_name": "y"}', 0, '{"decision": "allow"}\n', ""),
        ('{"tool_name": "z"}', 0, "", ""),
        ('{"tool_name": "boom"}', 1, "", "raised KeyError: 'boom'\n"),
        ('{"tool_name": "bad"}', 1, "", "returned int, expected a dict or None\n"),
        ("not json", 1, "", "g: the input on stdin is not JSON"),
        ("[1]", 1, "", "g: the input on stdin must be a JSON object\n"),
    ],
)
def test_main_maps_answers_to_exit_codes(stdin: str, code: int, stdout: str, stderr: str) -> None:
    @hookwise.hook("BeforeTool")
    def g(inp: hookwise.HookInput) -> Any:
        name = inp.get("tool_name")
        if name == "x":
            raise hookwise.Block("no x")
        if name == "boom":
            raise KeyError("boom")
        if name == "bad":
            return 42
        return {"decision": "allow"} if name == "y" else None

    out, err = io.StringIO(), io.StringIO()
    assert g.main(io.StringIO(stdin), out, err) == code
    assert out.getvalue() == stdout and err.getvalue().startswith(stderr)


# ---------------------------------------------------------------- trust


def test_project_module_is_imported_only_once_trusted_and_a_change_re_asks(
    project: Project,
) -> None:
    marker = project.root / "imported.txt"
    mod = project.root / "pguard.py"
    mod.write_text(
        textwrap.dedent(f"""
        open({str(marker)!r}, "a").write("x")
        def check(inp):
            return {{"decision": "deny", "reason": "v1"}}
    """)
    )
    project.hooks("BeforeTool", {"type": "python", "callable": "pguard:check", "name": "pg"})
    hs = HookSystem(project.root)
    r = hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert r.hooks[0].outcome is Outcome.SKIPPED and not marker.exists()
    assert [e.display_name for e in hs.untrusted()] == ["pg"]
    hs.trust(hs.untrusted())
    r = hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert r.hooks[0].outcome is Outcome.OK and r.reason == "v1" and marker.read_text() == "x"
    mod.write_text(mod.read_text().replace("v1", "v2-changed"))
    r = hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert r.hooks[0].outcome is Outcome.SKIPPED  # a changed module re-asks, like a changed script
    hs.trust(hs.untrusted())
    r = hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert r.hooks[0].outcome is Outcome.OK and r.reason == "v2-changed"  # and the new code runs
    sys.modules.pop("pguard", None)


def test_project_package_module_counts_its_package_files(project: Project) -> None:
    pkg = project.root / "hookpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "rules.py").write_text("def check(inp):\n    return {'systemMessage': 'pkg'}\n")
    project.hooks("BeforeTool", {"type": "python", "callable": "hookpkg.rules:check"})
    hs = HookSystem(project.root)
    hs.trust(hs.untrusted())
    assert hs.fire("BeforeTool", tool_name="t", tool_input={}).hooks[0].outcome is Outcome.OK
    (pkg / "__init__.py").write_text("# changed\n")
    assert hs.fire("BeforeTool", tool_name="t", tool_input={}).hooks[0].outcome is Outcome.SKIPPED
    for name in ("hookpkg.rules", "hookpkg"):
        sys.modules.pop(name, None)


def test_user_hook_imports_from_the_installed_packages_not_the_project(
    project: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "uguard_mod.py").write_text(
        "def check(inp):\n    return {'systemMessage': 'installed'}\n"
    )
    (project.root / "uguard_mod.py").write_text(
        "def check(inp):\n    return {'systemMessage': 'project'}\n"
    )
    monkeypatch.syspath_prepend(str(lib))
    project.hooks("BeforeTool", {"type": "python", "callable": "uguard_mod:check"}, layer="user")
    r = HookSystem(project.root).fire("BeforeTool", tool_name="t", tool_input={})
    assert r.output.get("systemMessage") == "installed"
    sys.modules.pop("uguard_mod", None)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "files,spec,cause",
    [
        ({}, "no_such_mod_x:check", "module 'no_such_mod_x' not found"),
        (
            {"raising_mod_x.py": "raise ValueError('bad config')\n"},
            "raising_mod_x:check",
            "importing module 'raising_mod_x' raised ValueError: bad config",
        ),
        (
            {"exiting_mod_x.py": "import sys\nsys.exit(3)\n"},
            "exiting_mod_x:check",
            "importing module 'exiting_mod_x' raised SystemExit: 3",
        ),
        (
            {"dep_mod_x.py": "import not_installed_dep_x\n"},
            "dep_mod_x:check",
            (
                "importing module 'dep_mod_x' raised ModuleNotFoundError: No module named "
                "'not_installed_dep_x'"
            ),
        ),
        (
            {"attr_mod_x.py": "X = 1\n"},
            "attr_mod_x:check",
            "module 'attr_mod_x' has no attribute 'check'",
        ),
        (
            {"attr2_mod_x.py": "check = 42\n"},
            "attr2_mod_x:check",
            "'attr2_mod_x:check' is not callable (it is int)",
        ),
    ],
)
def test_a_broken_python_hook_is_one_warning(
    project: Project, files: dict[str, str], spec: str, cause: str
) -> None:
    for name, text in files.items():
        (project.root / name).write_text(text)
    project.hooks(
        "BeforeTool",
        {"type": "python", "callable": spec, "name": "broken"},
        {"type": "command", "command": 'echo \'{"systemMessage": "other ran"}\''},
    )
    with HookSystem(project.root, trust_all=True) as hs:
        r = hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert [o.outcome for o in r.hooks] == [Outcome.NOT_RUN, Outcome.OK]
    assert r.warnings == [f"hook broken (BeforeTool) did not run: {cause}"] or r.warnings[
        0
    ].startswith(f"hook broken (BeforeTool) did not run: {cause}")
    assert r.output.get("systemMessage") == "other ran" and not r.blocked
    project.hooks(
        "BeforeTool", {"type": "python", "callable": spec, "name": "broken", "failClosed": True}
    )
    with HookSystem(project.root, trust_all=True) as hs:
        assert hs.fire("BeforeTool", tool_name="t", tool_input={}).blocked


@pytest.mark.parametrize(
    "spec,message",
    [
        ("guard", "must name a module and a function separated by a colon"),
        ("guard:", 'is not "package.module:function"'),
        ("a-b:c", 'is not "package.module:function"'),
        (42, '"callable" must be a non-empty string'),
    ],
)
def test_malformed_callable_is_reported_at_load(project: Project, spec: Any, message: str) -> None:
    project.hooks("BeforeTool", {"type": "python", "callable": spec})
    hs = HookSystem(project.root)
    assert hs.entries == []
    assert (
        len(hs.warnings) == 1
        and message in hs.warnings[0]
        and "/hooks/BeforeTool/0/hooks/0" in hs.warnings[0]
    )


def test_python_hook_over_its_timeout_is_a_timeout(project: Project) -> None:
    (project.root / "slow_mod_x.py").write_text(
        "import time\ndef check(inp):\n    time.sleep(0.3)\n    return {'decision': 'deny'}\n"
    )
    project.hooks("BeforeTool", {"type": "python", "callable": "slow_mod_x:check", "timeout": 100})
    with HookSystem(project.root, trust_all=True) as hs:
        r = hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert r.hooks[0].outcome is Outcome.TIMEOUT and not r.blocked


def test_fire_async_runs_settings_python_hooks(project: Project) -> None:
    import asyncio

    write_guard(project)
    project.hooks("BeforeTool", {"type": "python", "callable": "guard:answer"})
    with HookSystem(project.root, trust_all=True) as hs:
        r = asyncio.run(hs.fire_async("BeforeTool", tool_name="t", tool_input={"kind": "deny"}))
    assert r.blocked and r.reason == "not this one"


@pytest.mark.slow
def test_list_shows_python_and_http_hooks(project: Project) -> None:
    project.hooks(
        "BeforeTool",
        {"type": "python", "callable": "guard:answer"},
        {"type": "http", "url": "http://127.0.0.1:9/x", "name": "remote"},
    )
    code, data = cli(project, "list", "--json")
    assert code == 0
    assert [(h["name"], h.get("callable"), h.get("url")) for h in data["hooks"]] == [
        ("guard:answer", "guard:answer", None),
        ("remote", None, "http://127.0.0.1:9/x"),
    ]
    assert all("command" not in h for h in data["hooks"])  # no kind but command has a command


@pytest.fixture(autouse=True)
def _forget_guard_module() -> Any:
    yield
    for name in ("guard", "slow_mod_x"):
        sys.modules.pop(name, None)


@pytest.mark.slow
def test_trust_prompt_shows_the_callable_and_its_module(project: Project) -> None:
    write_guard(project)
    project.hooks(
        "BeforeTool",
        {"type": "python", "callable": "guard:answer", "name": "g"},
        {
            "type": "http",
            "url": "https://policy.example/x",
            "headers": {"A": "Bearer $T"},
            "allowedEnvVars": ["T"],
            "name": "h",
        },
    )
    env = {k: v for k, v in os.environ.items() if k != "HOOKWISE_TRUST_ALL"}
    out = subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project.root), "trust"],
        input="y\ny\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "  callable: guard:answer\n  file:     guard.py\n" in out.stdout
    assert "  url:    https://policy.example/x\n  header: A: Bearer $T\n  sends:  T\n" in out.stdout
    assert (
        "trusted: g (BeforeTool, project)" in out.stdout
        and "trusted: h (BeforeTool, project)" in out.stdout
    )
