"""Claude events the contract lacks (``PermissionRequest``, ``PermissionDenied``,
``SubagentStart``…) passed by ``hookwise hook`` to the Claude-format hooks configured under their
own name (hookwise.bridge.relay).

The payloads: the base fields are those the real agents sent for the same tool call
(tests/bridge/payloads/<agent>/PreToolUse.json); the event's own fields (``permission_suggestions``,
``agent_type``) come from Claude Code's documentation. Claude Code 2.1.197 under ``-p`` never fires
``PermissionRequest`` (seen: headless, no permission dialog is shown, so the call is denied without
it). Hooks are real subprocesses; settings are real files.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.bridge.conftest import payload
from tests.conftest import Project

from hookwise.bridge.agents import AGENTS
from hookwise.bridge.core import answer
from hookwise.bridge.relay import RELAYS
from hookwise.claude.names import CLAUDE_EVENTS_WITHOUT_EQUIVALENT, RELAYED_EVENTS
from hookwise.runners.dialects import DIALECTS

#: a hook that logs its stdin and answers with argv[1] (a JSON text), exits with argv[2] (stderr:
#: argv[3])
HOOK = """import json, os, sys
data = sys.stdin.read()
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), sys.argv[4] + ".log"), "a") as f:
    f.write(data.strip() + "\\n")
if sys.argv[1] != "-":
    print(sys.argv[1])
if sys.argv[3] != "-":
    sys.stderr.write(sys.argv[3])
sys.exit(int(sys.argv[2]))
"""


def test_the_relay_tables_agree() -> None:
    assert set(RELAYS) == RELAYED_EVENTS
    assert set(CLAUDE_EVENTS_WITHOUT_EQUIVALENT) >= RELAYED_EVENTS
    assert "agent-claude" in DIALECTS
    for a in AGENTS.values():
        assert set(a.relayed) <= set(RELAYS), a.name
        for ev in a.relayed:  # an event the agent has and the contract lacks
            assert a.knows(ev) and a.contract_event(ev) is None, (a.name, ev)
    assert AGENTS["claude"].relayed and AGENTS["codex"].relayed and AGENTS["qwen"].relayed


class Hooks:
    """Claude-format hooks in a file hookwise reads: ``.claude/settings.json`` (hookwise's
    ``hooksConfig.claudeSettings`` on), for the agents that do not read that file themselves."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.script = project.root / "hook.py"
        self.script.write_text(HOOK)
        self.events: dict[str, list[dict[str, Any]]] = {}
        project.write_settings({"hooksConfig": {"claudeSettings": True}}, layer="user")

    def add(
        self,
        event: str,
        name: str,
        answer: dict[str, Any] | None = None,
        *,
        exit: int = 0,
        stderr: str = "-",
        matcher: str = "*",
        **extra: Any,
    ) -> None:
        out = "-" if answer is None else json.dumps(answer)
        cmd = f"{sys.executable} {self.script} '{out}' {exit} '{stderr}' {name}"
        hook = {"type": "command", "command": cmd, "name": name, **extra}
        self.events.setdefault(event, []).append({"matcher": matcher, "hooks": [hook]})
        path = self.project.root / ".claude" / "settings.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps({"hooks": self.events}, indent=2))

    def seen(self, name: str) -> list[dict[str, Any]]:
        log = self.project.root / f"{name}.log"
        return [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []


def _permission_request(agent: str, project: Project) -> dict[str, Any]:
    data = payload(agent, "PreToolUse", project)
    data["hook_event_name"] = "PermissionRequest"
    data.pop("tool_use_id", None)
    data["permission_mode"] = "default"
    data["permission_suggestions"] = [
        {"type": "addRules", "rules": [{"toolName": "Bash"}], "behavior": "allow"}
    ]
    return data


def _call(agent: str, data: dict[str, Any], **kw: Any) -> Any:
    env = {**os.environ, **kw.pop("env", {})}
    out = answer(agent, None, json.dumps(data).encode(), env=env, **kw)
    assert out.exit_code == 0 and out.stderr == "", out
    return json.loads(out.stdout) if out.stdout else {}


def _decision(out: dict[str, Any]) -> dict[str, Any]:
    hso = out["hookSpecificOutput"]
    assert hso["hookEventName"] == "PermissionRequest"
    return dict(hso["decision"])


@pytest.mark.usefixtures("trust_all")
@pytest.mark.parametrize("agent", ["codex", "qwen"])
def test_a_permission_request_reaches_the_hooks_of_its_name_and_deny_wins(
    agent: str, project: Project
) -> None:
    hooks = Hooks(project)
    hooks.add(
        "PermissionRequest", "yes", {"hookSpecificOutput": {"decision": {"behavior": "allow"}}}
    )
    deny = {"decision": {"behavior": "deny", "message": "not on Fridays", "interrupt": True}}
    hooks.add("PermissionRequest", "no", {"hookSpecificOutput": deny})
    hooks.add("PreToolUse", "pre")  # another event: not run for a PermissionRequest
    data = _permission_request(agent, project)
    out = _call(agent, data)
    assert _decision(out) == {"behavior": "deny", "message": "not on Fridays", "interrupt": True}
    # the agent's payload as Claude Code would send it: Qwen's tool id run_shell_command is Claude's
    # Bash
    claude = {**data, "tool_name": "Bash"}
    assert hooks.seen("yes") == [claude] and hooks.seen("no") == [claude]
    assert hooks.seen("pre") == []
    assert (
        "systemMessage" not in out
    )  # nothing went wrong, and the never-fires warning is not said here


@pytest.mark.usefixtures("trust_all")
def test_an_allow_carries_the_rewrite_where_the_agent_applies_it(project: Project) -> None:
    """Claude Code runs its own .claude/ files: the hook moved by ``install --take-over`` is
    relayed."""
    hooks = Hooks(project)
    rewrite = {"command": "echo safer", "description": "rewritten"}
    allow = {"decision": {"behavior": "allow", "updatedInput": rewrite}}
    hooks.add("PermissionRequest", "rw", {"hookSpecificOutput": allow}, matcher="Bash")
    data = _permission_request("claude", project)
    assert (
        _call("claude", data) == {}
    )  # Claude Code runs .claude/settings.json itself: no double run
    assert hooks.seen("rw") == []
    r = subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project.root), "install", "claude"]
        + ["--take-over"],
        capture_output=True,
        text=True,
        env={**os.environ, "HOME": str(project.home)},
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    doc = json.loads((project.root / ".claude" / "settings.json").read_text())
    assert doc["hooks"]["PermissionRequest"] == [
        {"hooks": [{"type": "command", "command": "hookwise hook claude"}]}
    ]  # install writes the relayed events too
    out = _call("claude", data, project=str(project.root))
    assert _decision(out) == {"behavior": "allow", "updatedInput": rewrite}
    assert hooks.seen("rw") == [data]
    # Codex cannot apply rewritten arguments: the call is denied, never run unchanged
    (project.root / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks.events}))
    (project.root / ".claude" / "hookwise-takeover.claude.json").unlink()
    out = _call("codex", _permission_request("codex", project))
    assert _decision(out)["behavior"] == "deny"
    assert "cannot apply rewritten arguments" in _decision(out)["message"]


@pytest.mark.usefixtures("trust_all")
def test_failures_are_said_and_deny_only_when_they_should(project: Project) -> None:
    hooks = Hooks(project)
    hooks.add("PermissionRequest", "exit2", exit=2, stderr="blocked by policy", matcher="Bash")
    data = _permission_request("codex", project)
    assert _decision(_call("codex", data)) == {"behavior": "deny", "message": "blocked by policy"}

    hooks.events.clear()
    hooks.add("PermissionRequest", "broken", exit=1, stderr="boom")
    out = _call("codex", data)
    assert "hookSpecificOutput" not in out  # a failed hook is no decision: the agent asks as usual
    assert "hook broken (PermissionRequest) failed" in out["systemMessage"]

    hooks.events.clear()
    hooks.add("PermissionRequest", "closed", exit=1, stderr="boom", onFailure="block")
    out = _call("codex", data)
    assert _decision(out)["behavior"] == "deny" and "failed closed" in _decision(out)["message"]

    hooks.events.clear()
    hooks.add("PermissionRequest", "garbage", "{not json}")  # type: ignore[arg-type]
    hooks.events["PermissionRequest"][0]["hooks"][0]["command"] = (
        f"{sys.executable} {hooks.script} '{{not json}}' 0 - garbage"
    )
    (project.root / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks.events}))
    out = _call("codex", data)
    assert "hook garbage (PermissionRequest) failed" in out["systemMessage"]


@pytest.mark.usefixtures("trust_all")
def test_a_timeout_is_said(project: Project) -> None:
    hooks = Hooks(project)
    hooks.add("PermissionRequest", "slow", timeout=1)
    hooks.events["PermissionRequest"][0]["hooks"][0]["command"] = (
        f"{sys.executable} -c 'import time; time.sleep(10)'"
    )
    (project.root / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks.events}))
    out = _call("codex", _permission_request("codex", project))
    assert "timed out" in out["systemMessage"] and "hookSpecificOutput" not in out


def test_an_untrusted_project_hook_does_not_run_and_is_said(project: Project) -> None:
    hooks = Hooks(project)
    hooks.add(
        "PermissionRequest", "yes", {"hookSpecificOutput": {"decision": {"behavior": "allow"}}}
    )
    env = {"HOOKWISE_TRUST_ALL": "0"}
    out = _call("codex", _permission_request("codex", project), env=env)
    assert "hookSpecificOutput" not in out and "not trusted" in out["systemMessage"]
    assert hooks.seen("yes") == []
    r = subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project.root), "trust", "--all"],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=60,
    )
    assert r.returncode == 0 and "(PermissionRequest, project)" in r.stdout, r.stdout + r.stderr
    out = _call("codex", _permission_request("codex", project), env=env)
    assert _decision(out) == {"behavior": "allow"}


@pytest.mark.usefixtures("trust_all")
def test_matchers_and_the_other_relayed_answers(project: Project) -> None:
    hooks = Hooks(project)
    hooks.add("PermissionRequest", "edits", {"continue": False}, matcher="Edit|Write")
    hooks.add("PermissionDenied", "retry", {"hookSpecificOutput": {"retry": True}}, matcher="Bash")
    hooks.add("SubagentStart", "ctx1", {"hookSpecificOutput": {"additionalContext": "one"}})
    hooks.add(
        "SubagentStart",
        "ctx2",
        {"hookSpecificOutput": {"additionalContext": "two"}, "systemMessage": "hello"},
        matcher="Explore",
    )
    hooks.add("SubagentStart", "other", {"continue": False}, matcher="Plan")
    data = _permission_request("qwen", project)
    assert _call("qwen", data) == {}  # the Edit|Write hook does not match Bash
    assert hooks.seen("edits") == []
    data["hook_event_name"] = "PermissionDenied"
    out = _call("qwen", data)
    assert out == {"hookSpecificOutput": {"hookEventName": "PermissionDenied", "retry": True}}
    start = {
        "hook_event_name": "SubagentStart",
        "session_id": "s1",
        "cwd": str(project.root),
        "agent_id": "a1",
        "agent_type": "Explore",
    }
    out = _call("qwen", start)
    assert out == {
        "hookSpecificOutput": {"hookEventName": "SubagentStart", "additionalContext": "one\ntwo"},
        "systemMessage": "hello",
    }
    assert hooks.seen("other") == []


@pytest.mark.usefixtures("trust_all")
def test_the_trace_records_relayed_calls(project: Project, tmp_path: Path) -> None:
    hooks = Hooks(project)
    hooks.add(
        "PermissionRequest", "yes", {"hookSpecificOutput": {"decision": {"behavior": "allow"}}}
    )
    trace = tmp_path / "trace.jsonl"
    data = _permission_request("codex", project)
    _call("codex", data, trace=str(trace))
    (rec,) = [json.loads(x) for x in trace.read_text().splitlines()]
    assert rec["hook_event_name"] == "PermissionRequest" and rec["hook_input"] == data
    assert rec["outcome"] == "ok" and rec["hook_name"] == "yes"


@pytest.mark.usefixtures("trust_all")
def test_an_event_neither_bridged_nor_relayed_says_so(project: Project) -> None:
    data = {"hook_event_name": "Setup", "session_id": "s", "cwd": str(project.root)}
    assert "Setup is not bridged" in _call("claude", data)["systemMessage"]
    data["hook_event_name"] = "PermissionDenied"  # relayed by Claude Code; Codex has no such event
    assert "unknown Codex CLI event 'PermissionDenied'" in _call("codex", data)["systemMessage"]
    data["hook_event_name"] = "Interrupt"  # a Codex event neither bridged nor relayed
    assert "Interrupt is not bridged" in _call("codex", data)["systemMessage"]


def test_list_says_they_fire_through_the_bridge_only(project: Project) -> None:
    hooks = Hooks(project)
    hooks.add("PermissionRequest", "yes", matcher="Bash")
    run = [sys.executable, "-m", "hookwise", "--project", str(project.root), "list"]
    r = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "PermissionRequest*" in r.stdout and "fires only through the agent bridge" in r.stdout
    assert "never fires in a host" in r.stderr  # an in-process host is still told
    r = subprocess.run([*run, "--json"], capture_output=True, text=True, timeout=60)
    (row,) = json.loads(r.stdout)["hooks"]
    assert row["event"] == "PermissionRequest" and row["bridgeOnly"] is True


@pytest.mark.usefixtures("trust_all")
def test_an_if_rule_narrows_a_relayed_hook_as_in_claude_code(project: Project) -> None:
    """A hook that allows only what its ``if`` rule names must never allow anything else."""
    hooks = Hooks(project)
    allow = {"hookSpecificOutput": {"decision": {"behavior": "allow"}}}
    hooks.add("PermissionRequest", "git", allow, matcher="Bash", **{"if": "Bash(git *)"})
    hooks.add("PermissionRequest", "bad", allow, **{"if": "Bash(git *"})
    data = _permission_request("codex", project)
    data["tool_input"] = {"command": "rm -rf build"}
    out = _call("codex", data)
    assert "hookSpecificOutput" not in out and hooks.seen("git") == []
    assert "hook bad (PermissionRequest) was skipped" in out["systemMessage"]
    data["tool_input"] = {"command": "git status"}
    assert _decision(_call("codex", data)) == {"behavior": "allow"}
    assert [d["tool_input"] for d in hooks.seen("git")] == [{"command": "git status"}]
    assert hooks.seen("bad") == []


@pytest.mark.usefixtures("trust_all")
def test_a_plugins_hook_is_relayed_to_claude_code_with_its_root(project: Project) -> None:
    """A Claude plugin named in hookwise's settings: Claude Code does not run it itself, the bridge
    does, with ``CLAUDE_PLUGIN_ROOT`` set and substituted as for every plugin hook."""
    plugin = project.root / "tools" / "guard-plugin"
    (plugin / "hooks").mkdir(parents=True)
    (plugin / "deny.py").write_text(
        "import json, os, sys\n"
        "json.load(sys.stdin)\n"
        "msg = 'denied by ' + os.path.basename(os.environ['CLAUDE_PLUGIN_ROOT'])\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PermissionRequest',"
        " 'decision': {'behavior': 'deny', 'message': msg}}}))\n"
    )
    hook = {"type": "command", "command": f"{sys.executable} ${{CLAUDE_PLUGIN_ROOT}}/deny.py"}
    doc = {"hooks": {"PermissionRequest": [{"matcher": "Bash", "hooks": [hook]}]}}
    (plugin / "hooks" / "hooks.json").write_text(json.dumps(doc))
    project.write_settings({"hooksConfig": {"claudePlugins": ["tools/guard-plugin"]}}, layer="user")
    out = _call("claude", _permission_request("claude", project), project=str(project.root))
    assert _decision(out) == {"behavior": "deny", "message": "denied by guard-plugin"}


@pytest.mark.usefixtures("trust_all")
def test_notification_variants_map_to_the_contracts_notification(project: Project) -> None:
    """Claude's newer notification types have the same meaning as the contract's Notification: they
    map there with their own type (a matcher can name it); only permission_prompt is renamed
    ToolPermission."""
    log = project.root / "seen.jsonl"
    hook = {"type": "command", "command": f"cat >> '{log}'; echo >> '{log}'"}
    project.hooks("Notification", hook, matcher="idle_prompt|agent_needs_input", layer="user")
    for kind in ("idle_prompt", "agent_needs_input", "auth_success"):
        data = {
            "hook_event_name": "Notification",
            "session_id": "s1",
            "cwd": str(project.root),
            "message": "waiting",
            "notification_type": kind,
        }
        assert _call("claude", data) == {}
    seen = [json.loads(x)["notification_type"] for x in log.read_text().splitlines()]
    assert seen == ["idle_prompt", "agent_needs_input"]
