"""``install --take-over`` for Cursor, agy and Windsurf: the agent's file keeps only hookwise's
entries (every other byte stays), ``uninstall`` gives the original back byte for byte, and the
bridge runs the moved hooks in their own format: the agent's stdin as it came, the answer read as
the agent reads it, merged with the contract hooks' answers. Copilot's take-over is refused with the
reason. Hooks are real subprocesses."""

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
from hookwise.bridge.core import answer
from hookwise.jsonc.parse import strip_comments

#: a hook of the agent's own: logs its stdin, prints the answer file's text, exits with the exit
#: file's code
OWN_HOOK = """import os, sys
here = os.path.dirname(os.path.abspath(__file__))
name = sys.argv[1]
with open(os.path.join(here, name + ".log"), "a") as f:
    f.write(sys.stdin.read().strip() + "\\n")
answer = os.path.join(here, name + ".answer")
if os.path.exists(answer):
    sys.stdout.write(open(answer).read())
code = os.path.join(here, name + ".exit")
if os.path.exists(code):
    sys.stderr.write("stopped by " + name)
    sys.exit(int(open(code).read()))
"""

ORIGINAL: dict[str, str] = {
    "cursor": """{
  // team hooks
  "version": 1,
  "hooks": {
    "beforeShellExecution": [ { "command": "PY own.py shell" } ], // the guard
    "beforeReadFile": [ { "command": "PY own.py read" } ],
    "stop": [ { "command": "PY own.py stop" } ]
  },
  "x-team": {"owner": "infra"}
}
""",
    "agy": """{
  "hooks": {
    "PreToolUse": [ { "name": "guard", "hooks": [ { "type": "command", "command": "PY own.py tool" } ] } ],
    "PreInvocation": [ { "name": "ctx", "hooks": [ { "type": "command", "command": "PY own.py prompt" } ] } ]
  },
  "other": [1, 2, 3]
}
""",  # noqa: E501 (a user's file, verbatim)
    "windsurf": (
        '{\r\n  "hooks": {\r\n    "pre_run_command": [ { "command": "PY own.py run", '
        '"show_output": true } ],\r\n    "post_cascade_response": [ { "command": "PY own.py after" '
        '} ]\r\n  },\r\n  "settings": {"x": true}\r\n}\r\n'
    ),
}


def _hookwise(project: Project, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(project.home)}
    return subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project.root), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def _setup(project: Project, agent: str) -> tuple[Path, str]:
    (project.root / "own.py").write_text(OWN_HOOK)
    path = AGENTS[agent].config_path(str(project.root), {"HOME": str(project.home)})
    original = ORIGINAL[agent].replace("PY", sys.executable)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_bytes(original.encode())
    return Path(path), original


def _own(project: Project, name: str, answer_: Any = None, exit: int | None = None) -> None:
    if answer_ is not None:
        (project.root / f"{name}.answer").write_text(
            answer_ if isinstance(answer_, str) else json.dumps(answer_)
        )
    if exit is not None:
        (project.root / f"{name}.exit").write_text(str(exit))


def _seen(project: Project, name: str) -> list[dict[str, Any]]:
    log = project.root / f"{name}.log"
    return [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []


def _call(agent: str, data: dict[str, Any], project: Project, trust: bool = True, **kw: Any) -> Any:
    env = {**os.environ, "HOME": str(project.home), "HOOKWISE_TRUST_ALL": "1" if trust else "0"}
    return answer(agent, None, json.dumps(data).encode(), project=str(project.root), env=env, **kw)


@pytest.mark.parametrize("agent", ["cursor", "agy", "windsurf"])
def test_take_over_and_back_byte_for_byte(agent: str, project: Project) -> None:
    path, original = _setup(project, agent)
    r = _hookwise(project, "install", agent, "--take-over")
    assert r.returncode == 0, r.stderr
    assert "took over" in r.stdout
    installed = path.read_text()
    doc = json.loads(strip_comments(installed))
    for ev in AGENTS[agent].installed_events:  # only hookwise's entries are left
        assert f"hookwise hook {agent}" in json.dumps(doc["hooks"][ev])
        assert "own.py" not in json.dumps(doc["hooks"][ev])
    if (
        agent == "windsurf"
    ):  # an event hookwise does not bridge: its hook stays where Windsurf runs it
        assert doc["hooks"]["post_cascade_response"] == [
            {"command": f"{sys.executable} own.py after"}
        ]
    else:
        assert "own.py" not in installed
    other = {"cursor": "x-team", "agy": "other", "windsurf": "settings"}[agent]
    assert doc[other] == json.loads(strip_comments(original))[other]
    store = path.parent / f"hookwise-takeover.{agent}.json"
    assert json.loads(store.read_text())["original"] == original
    r = _hookwise(project, "install", agent, "--take-over")
    assert r.returncode == 0 and path.read_text() == installed  # twice: nothing changes
    r = _hookwise(project, "uninstall", agent)
    assert r.returncode == 0 and "byte for byte" in r.stdout, r.stdout + r.stderr
    assert path.read_bytes() == original.encode()
    assert not store.exists()


def test_changed_after_take_over_gives_the_hooks_back_by_value(project: Project) -> None:
    path, _ = _setup(project, "cursor")
    _hookwise(project, "install", "cursor", "--take-over")
    path.write_text(path.read_text().replace('"infra"', '"platform"'))
    r = _hookwise(project, "uninstall", "cursor")
    assert r.returncode == 0 and "changed since install" in r.stdout
    doc = json.loads(strip_comments(path.read_text()))
    assert doc["x-team"] == {"owner": "platform"}
    assert doc["hooks"]["beforeShellExecution"] == [{"command": f"{sys.executable} own.py shell"}]
    assert "hookwise" not in path.read_text()


TEAM = """{
  "version": 1,
  "hooks": {
    "preToolUse": [
      {"type": "command", "bash": "PY own.py pre", "timeoutSec": 30, "env": {"TEAM": "infra"}}
    ],
    "agentStop": [ {"type": "command", "bash": "PY own.py stop"} ]
  },
  "x-note": "kept"
}
"""
#: a file with an event hookwise does not bridge: left to Copilot
MIXED = '{"version": 1, "hooks": {"errorOccurred": [{"type": "command", "bash": "log.sh"}]}}\n'


def _copilot_files(project: Project) -> tuple[Path, Path, str]:
    (project.root / "own.py").write_text(OWN_HOOK)
    folder = project.root / ".github" / "hooks"
    folder.mkdir(parents=True)
    team = TEAM.replace("PY", sys.executable)
    (folder / "team.json").write_text(team)
    (folder / "mixed.json").write_text(MIXED)
    return folder / "team.json", folder / "mixed.json", team


def test_copilot_take_over_and_back_byte_for_byte(project: Project) -> None:
    team, mixed, original = _copilot_files(project)
    r = _hookwise(project, "install", "copilot", "--take-over")
    assert r.returncode == 0, r.stderr
    assert "mixed.json left to" in r.stdout and "errorOccurred" in r.stdout
    doc = json.loads(team.read_text())
    assert doc["hooks"] == {} and doc["x-note"] == "kept" and doc["version"] == 1
    assert mixed.read_text() == MIXED
    store = project.root / ".github" / "hookwise-takeover.copilot.json"  # not in the hooks folder
    assert json.loads(store.read_text())["files"] == {"team.json": original}
    own = project.root / ".github" / "hooks" / "hookwise.json"
    assert "hookwise hook copilot preToolUse" in own.read_text()
    r = _hookwise(project, "uninstall", "copilot")
    assert r.returncode == 0 and "byte for byte" in r.stdout, r.stdout + r.stderr
    assert team.read_text() == original and mixed.read_text() == MIXED
    assert not store.exists() and not own.exists()


def test_moved_copilot_hooks_run_in_copilots_format(project: Project) -> None:
    from tests.bridge.conftest import payload

    _copilot_files(project)
    assert _hookwise(project, "install", "copilot", "--take-over").returncode == 0
    env = {**os.environ, "HOME": str(project.home), "HOOKWISE_TRUST_ALL": "1"}
    pre = payload("copilot", "preToolUse", project)

    def call(event: str, data: dict[str, Any]) -> Any:
        return answer(
            "copilot", event, json.dumps(data).encode(), project=str(project.root), env=env
        )

    assert call("preToolUse", pre).stdout == ""  # it said nothing: no decision
    assert _seen(project, "pre") == [pre] and _seen(project, "stop") == []
    _own(project, "pre", {"permissionDecision": "deny", "permissionDecisionReason": "not here"})
    out = json.loads(call("preToolUse", pre).stdout)
    assert out == {"permissionDecision": "deny", "permissionDecisionReason": "not here"}
    _own(project, "pre", {"permissionDecision": "allow", "modifiedArgs": {"command": "echo SAFE"}})
    out = json.loads(call("preToolUse", pre).stdout)
    assert out["permissionDecision"] == "allow" and out["modifiedArgs"] == {"command": "echo SAFE"}
    _own(project, "stop", {"decision": "block", "reason": "tests first"})
    out = json.loads(call("agentStop", payload("copilot", "agentStop", project)).stdout)
    assert out == {"decision": "block", "reason": "tests first"}


def test_copilot_pascal_take_over_is_refused_with_the_reason(project: Project) -> None:
    r = _hookwise(project, "install", "copilot-pascal", "--take-over")
    assert r.returncode == 1
    assert "--take-over is not available for GitHub Copilot CLI (PascalCase" in r.stderr
    assert "hookwise install copilot --take-over" in r.stderr


def _cursor_call(project: Project, event: str, **fields: Any) -> dict[str, Any]:
    return {
        "conversation_id": "c1",
        "generation_id": "g1",
        "hook_event_name": event,
        "workspace_roots": [str(project.root)],
        **fields,
    }


def test_moved_cursor_hooks_run_in_cursors_format(project: Project, tmp_path: Path) -> None:
    _setup(project, "cursor")
    assert _hookwise(project, "install", "cursor", "--take-over").returncode == 0
    shell = _cursor_call(project, "beforeShellExecution", command="rm -rf x", cwd=".")
    out = _call("cursor", shell, project)
    assert json.loads(out.stdout) == {"permission": "allow"}
    assert _seen(project, "shell") == [shell]  # Cursor's own payload, as it came
    assert _seen(project, "read") == []  # another Cursor event (the same contract event): not run
    _own(project, "shell", {"permission": "deny", "agent_message": "no rm here"})
    # a contract hook that allows: the moved hook's deny wins
    project.hooks("BeforeTool", 'echo \'{"decision": "allow"}\'', layer="user")
    trace = tmp_path / "trace.jsonl"
    out = json.loads(_call("cursor", shell, project, trace=str(trace)).stdout)
    assert out == {
        "permission": "deny",
        "user_message": "no rm here",
        "agent_message": "no rm here",
    }
    records = [json.loads(x) for x in trace.read_text().splitlines()]
    assert {r["hook_event_name"] for r in records} == {"BeforeTool", "beforeShellExecution"}
    moved = next(r for r in records if r["hook_event_name"] == "beforeShellExecution")
    assert moved["hook_input"] == shell and moved["hook_output"]["decision"] == "deny"
    # exit 2 is a deny too; stop's followup_message keeps the agent going
    _own(project, "read", exit=2)
    read = _cursor_call(project, "beforeReadFile", file_path="/p/.env", content="K=V")
    out = json.loads(_call("cursor", read, project).stdout)
    assert out["permission"] == "deny" and "stopped by read" in out["agent_message"]
    _own(project, "stop", {"followup_message": "run the tests first"})
    stop = _cursor_call(project, "stop", status="completed", loop_count=0)
    assert json.loads(_call("cursor", stop, project).stdout) == {
        "followup_message": "run the tests first"
    }


def test_moved_hooks_are_project_hooks_that_need_trust(project: Project) -> None:
    _setup(project, "cursor")
    _hookwise(project, "install", "cursor", "--take-over")
    _own(project, "shell", {"permission": "deny"})
    shell = _cursor_call(project, "beforeShellExecution", command="ls", cwd=".")
    out = json.loads(_call("cursor", shell, project, trust=False).stdout)
    assert out["permission"] == "allow" and "not trusted" in out["user_message"]
    assert _seen(project, "shell") == []


def test_moved_agy_hooks_run_in_agys_format(project: Project) -> None:
    _setup(project, "agy")
    assert _hookwise(project, "install", "agy", "--take-over").returncode == 0
    tool = {
        "hookEventName": "PreToolUse",
        "conversationId": "c1",
        "cwd": str(project.root),
        "toolCall": {"name": "run_shell_command", "args": {"command": "ls"}},
    }
    out = json.loads(_call("agy", tool, project).stdout)
    assert out["decision"] == "deny" and "agy reads as a deny" in out["reason"]  # it said nothing
    assert _seen(project, "tool") == [tool]
    _own(project, "tool", {"decision": "allow"})
    assert json.loads(_call("agy", tool, project).stdout) == {"decision": "allow"}
    _own(project, "prompt", {"injectSteps": [{"type": "text", "text": "team rules"}]})
    prompt = {"hookEventName": "PreInvocation", "conversationId": "c1", "prompt": "hi"}
    prompt["cwd"] = str(project.root)
    out = json.loads(_call("agy", prompt, project).stdout)
    assert out["injectSteps"] == [{"type": "text", "text": "team rules"}]
    _own(project, "tool", exit=1)  # a hook that fails: agy reads it as a deny, so does the bridge
    out = _call("agy", tool, project)
    assert json.loads(out.stdout)["decision"] == "deny" and "failed" in out.stderr


def test_moved_windsurf_hooks_block_with_exit_2_only(project: Project) -> None:
    _setup(project, "windsurf")
    assert _hookwise(project, "install", "windsurf", "--take-over").returncode == 0
    run = {
        "agent_action_name": "pre_run_command",
        "trajectory_id": "t1",
        "execution_id": "e1",
        "timestamp": "2026-01-01T00:00:00Z",
        "tool_info": {"command_line": "rm -rf /", "cwd": str(project.root)},
    }
    _own(project, "run", {"decision": "deny"})  # JSON: Windsurf reads none, so this is no block
    out = _call("windsurf", run, project)
    assert (out.exit_code, out.stderr) == (0, "")
    assert _seen(project, "run") == [run]
    _own(project, "run", exit=2)
    out = _call("windsurf", run, project)
    assert out.exit_code == 2 and "stopped by run" in out.stderr


def test_hookwise_trust_approves_the_moved_hooks(project: Project) -> None:
    _setup(project, "cursor")
    _hookwise(project, "install", "cursor", "--take-over")
    _own(project, "shell", {"permission": "deny", "agent_message": "guarded"})
    shell = _cursor_call(project, "beforeShellExecution", command="ls", cwd=".")
    env = {"HOOKWISE_TRUST_ALL": "0"}
    r = subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project.root), "trust", "--all"],
        capture_output=True,
        text=True,
        env={**os.environ, "HOME": str(project.home), **env},
        timeout=60,
    )
    assert r.returncode == 0 and "own.py shell" in r.stdout, r.stdout + r.stderr
    out = json.loads(_call("cursor", shell, project, trust=False).stdout)
    assert out["permission"] == "deny" and out["agent_message"] == "guarded"


def test_take_over_of_the_users_file_and_back(project: Project) -> None:
    (project.root / "own.py").write_text(OWN_HOOK)
    path = Path(AGENTS["cursor"].config_path(str(project.root), {"HOME": str(project.home)}, True))
    original = ORIGINAL["cursor"].replace("PY", sys.executable)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(original)
    r = _hookwise(project, "install", "cursor", "--user", "--take-over")
    assert r.returncode == 0 and "took over" in r.stdout, r.stderr
    assert "own.py" not in path.read_text()
    # a user file's moved hooks are user hooks: they run without hookwise trust
    _own(project, "shell", {"permission": "deny", "agent_message": "user guard"})
    shell = _cursor_call(project, "beforeShellExecution", command="ls", cwd=".")
    assert json.loads(_call("cursor", shell, project, trust=False).stdout)["permission"] == "deny"
    r = _hookwise(project, "uninstall", "cursor", "--user")
    assert r.returncode == 0 and path.read_text() == original
