"""``hookwise hook`` for the agents covered by documented (or, for Copilot and Gemini CLI, recorded)
payloads: their stdin in, real hooks in a temporary project, their answer out, field for field."""

from __future__ import annotations

import importlib
import json
import os
from typing import Any

import pytest
from tests.bridge.conftest import Recorder, payload, payload_names
from tests.conftest import Project

from hookwise.bridge.agents import AGENTS, FAMILIES
from hookwise.bridge.core import answer
from hookwise.bridge.install import STYLES

pytestmark = pytest.mark.usefixtures("trust_all")


def _run(agent: str, data: dict[str, Any], event: str | None = None, **kw: Any) -> Any:
    return answer(agent, event, json.dumps(data).encode(), env=dict(os.environ), **kw)


def test_the_agents_table_is_closed_and_complete() -> None:
    for agent in AGENTS.values():
        assert agent.family in FAMILIES and agent.config in STYLES, agent.name
        mod = importlib.import_module(f"hookwise.bridge.{agent.family}")
        assert all(callable(getattr(mod, f)) for f in ("to_contract", "render", "failure"))
        assert agent.bridged_events, agent.name
        names = [n for n, _ in agent.events]
        assert len(names) == len(set(names)), agent.name
    assert set(FAMILIES) == {a.family for a in AGENTS.values()}


# --------------------------------------------------------------------------- Copilot (recorded)


@pytest.mark.slow
@pytest.mark.parametrize("name", payload_names("copilot"))
def test_copilot_recorded_payloads(
    name: str, bridge_project: tuple[Project, Recorder, Recorder]
) -> None:
    project, contract, claude = bridge_project
    data = payload("copilot", name, project)
    event = name.split(".")[0]
    out = _run("copilot", data, event)
    assert (out.exit_code, out.stdout, out.stderr) == (0, "", "")
    [seen] = contract.seen()
    assert seen["hook_event_name"] == AGENTS["copilot"].contract_event(event)
    assert seen["session_id"] == data["sessionId"]
    if "toolName" in data:
        assert seen["tool_name"] == "run_shell_command"
        assert seen["tool_input"] == data["toolArgs"]
        assert claude.seen()[0]["tool_name"] == "Bash"


@pytest.mark.slow
def test_copilot_deny_rewrite_and_missing_event(
    bridge_project: tuple[Project, Recorder, Recorder],
) -> None:
    project, contract, _claude = bridge_project
    data = payload("copilot", "preToolUse.deny", project)
    contract.answer({"decision": "deny", "reason": "no rm"})
    out = json.loads(_run("copilot", data, "preToolUse").stdout)
    assert out == {"permissionDecision": "deny", "permissionDecisionReason": "no rm"}
    contract.answer({"hookSpecificOutput": {"tool_input": {"command": "echo SAFE"}}})
    out = json.loads(_run("copilot", data, "preToolUse").stdout)
    assert out == {"modifiedArgs": {"command": "echo SAFE"}}
    missing = _run("copilot", data, None)
    assert "do not name their event" in missing.stderr and missing.exit_code == 0


# --------------------------------------------------------------------------- Gemini CLI (recorded)


@pytest.mark.slow
@pytest.mark.parametrize("name", payload_names("gemini"))
def test_gemini_recorded_payloads_run_taken_over_hooks(name: str, project: Project) -> None:
    """Gemini runs its own settings' hooks; the bridge runs them only once taken over."""
    from hookwise.bridge import install

    rec = Recorder(project, "gemini-own")
    hooks = {
        ev: [{"hooks": [{"type": "command", "command": rec.command, "name": "own"}]}]
        for ev in (
            "BeforeTool",
            "AfterTool",
            "BeforeAgent",
            "AfterAgent",
            "BeforeModel",
            "AfterModel",
            "BeforeToolSelection",
            "SessionStart",
            "SessionEnd",
            "PreCompress",
        )
    }
    project.write_settings({"hooks": hooks})
    data = payload("gemini", name, project)
    env = {**os.environ, "HOME": str(project.home)}
    assert _run("gemini", data, project=str(project.root)).stdout == ""
    assert rec.seen() == []  # Gemini runs them itself: not twice
    install.apply(
        install.plan_install(AGENTS["gemini"], str(project.root), env, take_over=True), env
    )
    guard = name.split(".")[0] == "BeforeTool"
    rec.answer({"decision": "deny", "reason": "taken over"} if guard else {})
    out = answer("gemini", None, json.dumps(data), project=str(project.root), env=env)
    [seen] = rec.seen()
    assert {k: v for k, v in seen.items() if k != "timestamp"} == {
        k: v for k, v in data.items() if k != "timestamp"
    }
    if guard:
        assert json.loads(out.stdout)["decision"] == "deny"


# --------------------------------------------------------------------------- Cursor (documented)

CURSOR_BASE = {"conversation_id": "c1", "generation_id": "g1", "workspace_roots": []}


def _cursor(project: Project, event: str, **fields: Any) -> dict[str, Any]:
    return {
        **CURSOR_BASE,
        "hook_event_name": event,
        "workspace_roots": [str(project.root)],
        **fields,
    }


@pytest.mark.slow
@pytest.mark.parametrize(
    ("event", "fields", "tool", "tool_input"),
    [
        (
            "beforeShellExecution",
            {"command": "rm -rf x", "cwd": "."},
            "run_shell_command",
            {"command": "rm -rf x"},
        ),
        (
            "beforeReadFile",
            {"file_path": "/p/.env", "content": "K=V"},
            "read_file",
            {"file_path": "/p/.env", "content": "K=V"},
        ),
        (
            "beforeMCPExecution",
            {"tool_name": "search", "tool_input": '{"q": 1}', "url": "http://x"},
            "mcp_search",
            {"q": 1},
        ),
    ],
)
def test_cursor_before_events(
    event: str,
    fields: dict[str, Any],
    tool: str,
    tool_input: dict[str, Any],
    bridge_project: tuple[Project, Recorder, Recorder],
) -> None:
    project, contract, _claude = bridge_project
    data = _cursor(project, event, **fields)
    out = json.loads(_run("cursor", data).stdout)
    assert out == {"permission": "allow"}  # explicit: Cursor blocks on an answer it cannot read
    [seen] = contract.seen()
    assert (seen["hook_event_name"], seen["tool_name"], seen["tool_input"]) == (
        "BeforeTool",
        tool,
        tool_input,
    )
    contract.answer({"decision": "deny", "reason": "not here"})
    out = json.loads(_run("cursor", data).stdout)
    assert out == {"permission": "deny", "user_message": "not here", "agent_message": "not here"}
    contract.answer({"decision": "ask", "reason": "sure?"})
    assert json.loads(_run("cursor", data).stdout) == {"permission": "ask", "user_message": "sure?"}


@pytest.mark.slow
def test_cursor_prompt_stop_and_after_events(
    bridge_project: tuple[Project, Recorder, Recorder],
) -> None:
    project, contract, _claude = bridge_project
    prompt = _cursor(project, "beforeSubmitPrompt", prompt="deploy", attachments=[])
    assert json.loads(_run("cursor", prompt).stdout) == {"continue": True}
    contract.answer({"decision": "deny", "reason": "frozen"})
    assert json.loads(_run("cursor", prompt).stdout) == {
        "continue": False,
        "user_message": "frozen",
    }
    stop = _cursor(project, "stop", status="completed", loop_count=0)
    assert json.loads(_run("cursor", stop).stdout) == {"followup_message": "frozen"}
    after = _cursor(project, "afterShellExecution", command="ls", output="a\nb")
    _run("cursor", after)
    seen = contract.seen()[-1]
    assert seen["tool_response"]["llmContent"] == "a\nb" and seen["hook_event_name"] == "AfterTool"
    edit = _cursor(
        project,
        "afterFileEdit",
        file_path="/p/a.py",
        edits=[{"old_string": "a", "new_string": "b"}],
    )
    _run("cursor", edit)
    assert contract.seen()[-1]["tool_input"]["edits"] == [{"old_string": "a", "new_string": "b"}]


def test_cursor_failure_is_valid_json_and_blocks_only_when_fail_closed(project: Project) -> None:
    bad = answer("cursor", "beforeShellExecution", b"{not json", env=dict(os.environ))
    assert (
        json.loads(bad.stdout)["permission"] == "allow"
        and "not JSON" in json.loads(bad.stdout)["user_message"]
    )
    closed = answer(
        "cursor", "beforeShellExecution", b"{not json", env=dict(os.environ), fail_closed=True
    )
    assert json.loads(closed.stdout)["permission"] == "deny"


# --------------------------------------------------------------------------- agy (reported)


@pytest.mark.slow
def test_agy_answers_explicitly_and_names_unknown_fields(
    bridge_project: tuple[Project, Recorder, Recorder],
) -> None:
    project, contract, _claude = bridge_project
    data = {
        "hookEventName": "PreToolUse",
        "conversationId": "c1",
        "cwd": str(project.root),
        "toolCall": {"name": "run_shell_command", "args": {"command": "ls"}},
    }
    out = _run("agy", data)
    assert json.loads(out.stdout) == {"decision": "allow"}  # agy reads {} as a deny
    assert out.stderr == ""
    contract.answer({"decision": "deny", "reason": "nope"})
    assert json.loads(_run("agy", data).stdout) == {"decision": "deny", "reason": "nope"}
    data["surprise"] = 1
    assert "fields hookwise does not know: surprise" in _run("agy", data).stderr
    prompt = {
        "hookEventName": "PreInvocation",
        "conversationId": "c1",
        "prompt": "hi",
        "cwd": str(project.root),
    }
    contract.answer({"hookSpecificOutput": {"additionalContext": "ctx"}})
    assert json.loads(_run("agy", prompt).stdout)["injectSteps"] == [
        {"type": "text", "text": "ctx"}
    ]


# --------------------------------------------------------------------------- Windsurf (documented)


@pytest.mark.slow
def test_windsurf_blocks_with_exit_2_and_says_why(
    bridge_project: tuple[Project, Recorder, Recorder],
) -> None:
    project, contract, _claude = bridge_project
    data = {
        "agent_action_name": "pre_run_command",
        "trajectory_id": "t1",
        "execution_id": "e1",
        "timestamp": "2026-01-01T00:00:00Z",
        "tool_info": {"command_line": "rm -rf /", "cwd": str(project.root)},
    }
    out = _run("windsurf", data)
    assert (out.exit_code, out.stdout, out.stderr) == (0, "", "")
    [seen] = contract.seen()
    assert (seen["tool_name"], seen["tool_input"]["command"]) == ("run_shell_command", "rm -rf /")
    contract.answer({"decision": "deny", "reason": "never"})
    out = _run("windsurf", data)
    assert (out.exit_code, out.stderr) == (2, "never\n")
    mcp = {
        **data,
        "agent_action_name": "pre_mcp_tool_use",
        "tool_info": {
            "mcp_server_name": "gh",
            "mcp_tool_name": "create_issue",
            "mcp_tool_arguments": {"t": 1},
            "x": 1,
        },
    }
    out = _run("windsurf", mcp)
    assert contract.seen()[-1]["tool_name"] == "mcp_gh_create_issue"
    assert "tool_info fields hookwise does not know: x" in out.stderr


# --------------------------------------------------------------- Claude-dialect agents (documented)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("agent", "data"),
    [
        (
            "goose",
            {
                "event": "PreToolUse",
                "session_id": "s",
                "tool_name": "developer__shell",
                "tool_input": {"command": "rm x"},
            },
        ),
        (
            "continue",
            {
                "hook_event_name": "PreToolUse",
                "session_id": "s",
                "tool_name": "Bash",
                "tool_input": {"command": "rm x"},
            },
        ),
        (
            "copilot-pascal",
            {
                "hook_event_name": "PreToolUse",
                "session_id": "s",
                "tool_name": "bash",
                "tool_input": {"command": "rm x"},
            },
        ),
    ],
)
def test_claude_dialect_agents(
    agent: str, data: dict[str, Any], bridge_project: tuple[Project, Recorder, Recorder]
) -> None:
    project, contract, _claude = bridge_project
    data["cwd"] = str(project.root)
    contract.answer({"decision": "deny", "reason": "no"})
    out = json.loads(_run(agent, data).stdout)
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    [seen] = contract.seen()
    assert (seen["tool_name"], seen["tool_input"]) == ("run_shell_command", {"command": "rm x"})


def test_gemini_runs_claude_format_hooks_it_lacks(project: Project) -> None:
    """Gemini CLI does not read .claude/: with hooksConfig.claudeSettings the bridge runs those
    hooks there, with their Claude meaning (Claude's names in, Claude's answer understood)."""
    guard = project.root / "guard.sh"
    guard.write_text(
        '#!/bin/sh\ngrep -q \'"tool_name":"Bash"\' && '
        'echo \'{"hookSpecificOutput": {"permissionDecision": "deny", '
        '"permissionDecisionReason": "claude guard"}}\'\nexit 0\n'
    )
    guard.chmod(0o755)
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"matcher": "Bash", "hooks": [{"type": "command", "command": str(guard)}]}
                    ]
                }
            }
        )
    )
    project.write_settings({"hooksConfig": {"claudeSettings": True}})
    data = payload("gemini", "BeforeTool.deny", project)
    out = json.loads(_run("gemini", data, project=str(project.root)).stdout)
    assert (out["decision"], out["reason"]) == ("deny", "claude guard")


def test_copilot_pascal_context_is_top_level(
    bridge_project: tuple[Project, Recorder, Recorder],
) -> None:
    project, contract, _claude = bridge_project
    contract.answer({"hookSpecificOutput": {"additionalContext": "ctx"}})
    data = {
        "hook_event_name": "UserPromptSubmit",
        "session_id": "s",
        "cwd": str(project.root),
        "prompt": "go",
    }
    out = json.loads(_run("copilot-pascal", data).stdout)
    assert (
        out["additionalContext"] == "ctx"
    )  # what Copilot reads (seen); the nested copy is Claude's place


def _blocks(out: Any) -> bool:
    if out.exit_code == 2:
        return True
    doc = json.loads(out.stdout) if out.stdout else {}
    hso = doc.get("hookSpecificOutput") or {}
    return "deny" in (
        doc.get("permission"),
        doc.get("decision"),
        doc.get("permissionDecision"),
        hso.get("permissionDecisionDecision"),
        hso.get("permissionDecision"),
    )


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_every_agent_says_hookwise_failed_and_blocks_only_when_fail_closed(agent: str) -> None:
    tool_event = next(
        e for e in AGENTS[agent].bridged_events if AGENTS[agent].contract_event(e) == "BeforeTool"
    )
    for fail_closed in (False, True):
        out = answer(agent, tool_event, b"{broken", env=dict(os.environ), fail_closed=fail_closed)
        if out.stdout:
            assert isinstance(
                json.loads(out.stdout), dict
            )  # always valid JSON (Cursor blocks otherwise)
        assert "stdin is not JSON" in out.stdout + out.stderr
        assert _blocks(out) is fail_closed, (agent, fail_closed, out)
