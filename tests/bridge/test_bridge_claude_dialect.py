"""``hookwise hook`` for the agents of Claude Code's dialect, on the payloads the real agents sent.

Every recorded payload goes through the bridge to two real hooks (a contract hook and a
``"dialect": "claude"`` hook) and back; the tests compare what each hook received and what the agent
gets, field for field.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from tests.bridge.conftest import Recorder, payload, payload_names
from tests.conftest import Project, emit

from hookwise.bridge.core import answer

pytestmark = pytest.mark.usefixtures("trust_all")

#: the contract's event for each recorded event name (Codex and Qwen use Claude's names)
CONTRACT = {
    "PreToolUse": "BeforeTool",
    "PostToolUse": "AfterTool",
    "UserPromptSubmit": "BeforeAgent",
    "Stop": "AfterAgent",
    "SessionStart": "SessionStart",
    "SessionEnd": "SessionEnd",
    "Notification": "Notification",
}


def _run(agent: str, data: dict[str, Any], project: Project, event: str | None = None) -> Any:
    return answer(agent, event, json.dumps(data).encode(), env=dict(os.environ))


def _claude_never_sends(key: str, contract_event: str) -> bool:
    from hookwise.claude.dialect import CLAUDE_ONLY_ON
    from hookwise.events import HookEvent

    events = CLAUDE_ONLY_ON.get(key, None)
    return key in CLAUDE_ONLY_ON and events is not None and HookEvent(contract_event) not in events


CASES = [(a, n) for a in ("claude", "codex", "qwen") for n in payload_names(a)]


@pytest.mark.slow
@pytest.mark.parametrize(("agent", "name"), CASES)
def test_every_recorded_payload_reaches_both_dialects(
    agent: str, name: str, bridge_project: tuple[Project, Recorder, Recorder]
) -> None:
    project, contract, claude = bridge_project
    data = payload(agent, name, project)
    out = _run(agent, data, project)
    assert out.exit_code == 0 and out.stderr == ""
    assert out.stdout == ""  # two hooks that said nothing: nothing to tell the agent
    event = data["hook_event_name"]
    [seen] = contract.seen()
    assert seen["hook_event_name"] == CONTRACT[event]
    assert seen["session_id"] == data["session_id"]
    assert seen["cwd"] == data["cwd"]
    if "tool_name" in data:
        assert seen["tool_name"] == "run_shell_command"  # Bash (Claude, Codex) / Qwen's own id
        assert seen["tool_input"]["command"] == data["tool_input"]["command"]
    [as_claude] = claude.seen()
    # the Claude-dialect hook gets back what the agent sent, field for field
    for key, value in data.items():
        if key == "tool_name":
            assert as_claude[key] == "Bash"
        elif key == "tool_response" and isinstance(value, dict):
            assert value.items() <= as_claude[key].items()
        elif key == "tool_response":  # Codex sends the output as a string
            assert as_claude[key]["llmContent"] == value
        elif key == "timestamp":
            continue  # Qwen's own timestamp is kept too, hookwise's replaces it when absent
        elif _claude_never_sends(key, CONTRACT[event]):
            # the Claude dialect sends Claude's own fields only on the events Claude Code sends them
            # (hookwise.claude.dialect.CLAUDE_ONLY_ON); Codex sends `model`, `permission_mode` on
            # more
            assert key not in as_claude
        else:
            assert as_claude[key] == value, key


@pytest.mark.slow
@pytest.mark.parametrize("agent", ["claude", "codex", "qwen"])
def test_deny_reaches_the_agent_as_its_permission_decision(
    agent: str, bridge_project: tuple[Project, Recorder, Recorder]
) -> None:
    project, contract, _claude = bridge_project
    contract.answer({"decision": "deny", "reason": "no rm here"})
    out = _run(agent, payload(agent, "PreToolUse.deny", project), project)
    assert out.exit_code == 0
    assert json.loads(out.stdout) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "no rm here",
        }
    }


@pytest.mark.slow
def test_a_claude_dialect_deny_is_the_same_answer(
    bridge_project: tuple[Project, Recorder, Recorder],
) -> None:
    project, _contract, claude = bridge_project
    claude.answer(
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "claude says no",
            }
        }
    )
    out = _run("claude", payload("claude", "PreToolUse.deny", project), project)
    hso = json.loads(out.stdout)["hookSpecificOutput"]
    assert (hso["permissionDecision"], hso["permissionDecisionReason"]) == (
        "deny",
        "claude says no",
    )


@pytest.mark.slow
def test_rewritten_arguments_come_back_complete_in_the_agents_names(
    bridge_project: tuple[Project, Recorder, Recorder],
) -> None:
    project, contract, _claude = bridge_project
    contract.answer({"hookSpecificOutput": {"tool_input": {"command": "echo SAFE"}}})
    data = payload("claude", "PreToolUse", project)
    out = json.loads(_run("claude", data, project).stdout)
    assert out["hookSpecificOutput"]["updatedInput"] == {
        "command": "echo SAFE",
        "description": "scripted command",
    }
    assert "permissionDecision" not in out["hookSpecificOutput"]


@pytest.mark.slow
def test_codex_cannot_apply_a_rewrite_so_the_call_is_denied(
    bridge_project: tuple[Project, Recorder, Recorder],
) -> None:
    project, contract, _claude = bridge_project
    contract.answer({"hookSpecificOutput": {"tool_input": {"command": "echo SAFE"}}})
    out = json.loads(_run("codex", payload("codex", "PreToolUse", project), project).stdout)
    hso = out["hookSpecificOutput"]
    assert hso["permissionDecision"] == "deny"
    assert "cannot apply rewritten arguments" in hso["permissionDecisionReason"]
    assert "updatedInput" not in hso


@pytest.mark.slow
def test_ask_is_asked_in_claude_and_denied_in_codex(
    bridge_project: tuple[Project, Recorder, Recorder],
) -> None:
    project, contract, _claude = bridge_project
    contract.answer({"decision": "ask", "reason": "sure?"})
    claude_out = json.loads(
        _run("claude", payload("claude", "PreToolUse", project), project).stdout
    )
    assert claude_out["hookSpecificOutput"]["permissionDecision"] == "ask"
    assert claude_out["hookSpecificOutput"]["permissionDecisionReason"] == "sure?"
    codex_out = json.loads(_run("codex", payload("codex", "PreToolUse", project), project).stdout)
    assert codex_out["hookSpecificOutput"]["permissionDecision"] == "deny"


@pytest.mark.slow
def test_an_explicit_allow_is_said_and_an_empty_answer_says_nothing(
    bridge_project: tuple[Project, Recorder, Recorder],
) -> None:
    project, contract, _claude = bridge_project
    contract.answer({"decision": "allow", "reason": "known safe"})
    out = json.loads(_run("claude", payload("claude", "PreToolUse", project), project).stdout)
    assert out["hookSpecificOutput"]["permissionDecision"] == "allow"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "hook_answer", "expected"),
    [
        (
            "UserPromptSubmit",
            {"hookSpecificOutput": {"additionalContext": "the repo is frozen"}},
            {
                "hookSpecificOutput": {
                    "hookEventName": "UserPromptSubmit",
                    "additionalContext": "the repo is frozen",
                }
            },
        ),
        (
            "UserPromptSubmit",
            {"decision": "deny", "reason": "not that prompt"},
            {"decision": "block", "reason": "not that prompt"},
        ),
        (
            "Stop",
            {"decision": "deny", "reason": "run the tests first"},
            {"decision": "block", "reason": "run the tests first"},
        ),
        (
            "PostToolUse",
            {"decision": "deny", "reason": "output hidden"},
            {"decision": "block", "reason": "output hidden"},
        ),
        (
            "SessionStart",
            {"hookSpecificOutput": {"additionalContext": "welcome"}},
            {
                "hookSpecificOutput": {
                    "hookEventName": "SessionStart",
                    "additionalContext": "welcome",
                }
            },
        ),
        (
            "PreToolUse",
            {"continue": False, "stopReason": "enough"},
            {"continue": False, "stopReason": "enough"},
        ),
    ],
)
def test_answers_per_event(
    name: str,
    hook_answer: dict[str, Any],
    expected: dict[str, Any],
    bridge_project: tuple[Project, Recorder, Recorder],
) -> None:
    project, contract, _claude = bridge_project
    contract.answer(hook_answer)
    out = _run("claude", payload("claude", name, project), project)
    assert json.loads(out.stdout) == expected


def test_a_failing_hook_is_a_system_message(project: Project) -> None:
    project.hooks("BeforeTool", "echo broken >&2; exit 1", layer="user")
    out = _run("claude", payload("claude", "PreToolUse", project), project)
    msg = json.loads(out.stdout)["systemMessage"]
    assert msg.splitlines() == [
        "Warning: broken",  # the contract's answer of a failed hook (docs/contract.md §6)
        "hookwise: hook echo broken >&2; exit 1 (BeforeTool) failed: exit code 1: broken",
    ]


def test_an_untrusted_project_hook_is_a_system_message(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HOOKWISE_TRUST_ALL")
    project.hooks("BeforeTool", "exit 2")
    out = _run("claude", payload("claude", "PreToolUse", project), project)
    assert "not trusted" in json.loads(out.stdout)["systemMessage"]


@pytest.mark.slow
def test_claudes_own_hooks_are_not_run_twice(project: Project) -> None:
    """Claude Code runs .claude/settings.json itself: the bridge leaves it out even when hookwise's
    settings ask for Claude's files (Codex does not read them, so there they run)."""
    marker = project.root / "ran"
    (project.root / ".claude").mkdir()
    (project.root / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {"hooks": [{"type": "command", "command": f"echo x >> '{marker}'"}]}
                    ]
                }
            }
        )
    )
    project.write_settings({"hooksConfig": {"claudeSettings": True}}, layer="user")
    _run("claude", payload("claude", "PreToolUse", project), project)
    assert not marker.exists()
    _run("codex", payload("codex", "PreToolUse", project), project)
    assert marker.read_text() == "x\n"


def test_a_hook_that_calls_the_bridge_is_not_run(project: Project) -> None:
    project.hooks("BeforeTool", "hookwise hook claude", layer="user")
    out = _run("claude", payload("claude", "PreToolUse", project), project)
    assert "would call itself" in json.loads(out.stdout)["systemMessage"]


def test_an_event_that_is_not_bridged_says_so(project: Project) -> None:
    data = {"hook_event_name": "Setup", "session_id": "s", "cwd": str(project.root)}
    out = json.loads(_run("claude", data, project).stdout)
    assert "Setup is not bridged" in out["systemMessage"]
    data["hook_event_name"] = "NoSuchEvent"
    out = json.loads(_run("claude", data, project).stdout)
    assert "unknown Claude Code event 'NoSuchEvent'" in out["systemMessage"]


def _cli(args: list[str], stdin: str, cwd: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookwise", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=dict(os.environ),
        timeout=60,
    )


@pytest.mark.slow
def test_the_cli_answers_as_the_agent_expects(
    bridge_project: tuple[Project, Recorder, Recorder],
) -> None:
    project, contract, _claude = bridge_project
    contract.answer({"decision": "deny", "reason": "no"})
    data = payload("claude", "PreToolUse.deny", project)
    r = _cli(["hook", "claude"], json.dumps(data), project.root)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("flags", "rc", "channel"), [([], 0, "stdout"), (["--fail-closed"], 2, "stderr")]
)
def test_hookwise_own_failure_is_visible_and_blocks_only_when_fail_closed(
    project: Project, flags: list[str], rc: int, channel: str
) -> None:
    r = _cli(["hook", "claude", *flags], "not json", project.root)
    assert r.returncode == rc
    assert "stdin is not JSON" in getattr(r, channel)


@pytest.mark.slow
def test_an_unknown_agent_is_a_usage_error(project: Project) -> None:
    r = _cli(["hook", "nosuchagent"], "{}", project.root)
    assert r.returncode == 1 and "unknown agent 'nosuchagent'" in r.stderr


def test_a_broken_settings_file_is_named_in_the_agents_channel(project: Project) -> None:
    path = project.write_settings('{"hooks": {', layer="user")
    out = json.loads(_run("claude", payload("claude", "PreToolUse", project), project).stdout)
    assert str(path) in out["systemMessage"] and "skipped" in out["systemMessage"]


def test_pre_compact_block_stops_compaction(project: Project) -> None:
    project.hooks("PreCompress", emit({"decision": "deny", "reason": "not now"}), layer="user")
    data = {
        "hook_event_name": "PreCompact",
        "session_id": "s",
        "cwd": str(project.root),
        "trigger": "manual",
    }
    assert json.loads(_run("claude", data, project).stdout) == {
        "decision": "block",
        "reason": "not now",
    }


def test_trace_records_the_bridged_call(
    bridge_project: tuple[Project, Recorder, Recorder],
) -> None:
    project, _contract, _claude = bridge_project
    trace = project.root / "trace.jsonl"
    data = payload("claude", "PreToolUse", project)
    r = _cli(["--trace", str(trace), "hook", "claude"], json.dumps(data), project.root)
    assert r.returncode == 0, r.stderr
    records = [json.loads(line) for line in trace.read_text().splitlines()]
    calls = [x for x in records if x.get("hook_event_name") == "BeforeTool"]
    assert len(calls) == 2 and {
        c["hook_input"]["tool_name"] for c in calls if "hook_input" in c
    } <= {
        "run_shell_command",
        "Bash",
    }


@pytest.mark.parametrize("fail_closed", [False, True])
def test_a_crash_inside_hookwise_is_said_and_blocks_only_when_fail_closed(
    project: Project, fail_closed: bool
) -> None:
    def broken(*args: Any) -> Any:
        raise RuntimeError("settings service down")

    data = json.dumps(payload("claude", "PreToolUse", project))
    out = answer(
        "claude", None, data, env=dict(os.environ), systems=broken, fail_closed=fail_closed
    )
    if fail_closed:
        assert out.exit_code == 2 and "settings service down" in out.stderr
    else:
        msg = json.loads(out.stdout)["systemMessage"]
        assert out.exit_code == 0 and "internal error: RuntimeError: settings service down" in msg


def test_a_replaced_tool_output_comes_back_in_the_tools_own_shape(
    bridge_project: tuple[Project, Recorder, Recorder],
) -> None:
    """Claude Code applies updatedToolOutput only in the tool's shape (Bash: stdout, stderr...)."""
    project, contract, claude = bridge_project
    data = payload("claude", "PostToolUse", project)
    contract.answer({"hookSpecificOutput": {"updatedToolOutput": {"llmContent": "REPLACED"}}})
    out = json.loads(_run("claude", data, project).stdout)
    assert out["hookSpecificOutput"]["updatedToolOutput"] == {
        **data["tool_response"],
        "stdout": "REPLACED",
    }
    contract.answer({})
    claude.answer(
        {
            "hookSpecificOutput": {
                "hookEventName": "PostToolUse",
                "updatedToolOutput": {"stdout": "C"},
            }
        }
    )
    out = json.loads(_run("claude", data, project).stdout)
    assert out["hookSpecificOutput"]["updatedToolOutput"] == {
        **data["tool_response"],
        "stdout": "C",
    }


def test_a_replaced_output_the_agent_cannot_apply_is_said(
    bridge_project: tuple[Project, Recorder, Recorder],
) -> None:
    project, contract, _claude = bridge_project
    contract.answer({"hookSpecificOutput": {"updatedToolOutput": {"llmContent": "REPLACED"}}})
    out = json.loads(_run("codex", payload("codex", "PostToolUse", project), project).stdout)
    assert "updatedToolOutput" not in json.dumps(out.get("hookSpecificOutput", {}))
    assert (
        "which Codex CLI cannot apply: the model gets the original output" in out["systemMessage"]
    )
