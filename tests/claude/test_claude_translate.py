"""The pure translations: matchers, tool and parameter names, commands, inputs and answers."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from hookwise.claude.convert import (
    PluginRoot,
    convert_claude_document,
    exec_form_to_shell,
    resolve_plugin_root,
)
from hookwise.claude.dialect import normalize_output, text_output, to_claude_input
from hookwise.claude.matchers import translate_matcher_from_claude, translate_matcher_to_claude
from hookwise.claude.names import (
    CLAUDE_EVENTS_WITHOUT_EQUIVALENT,
    GEMINI_TO_CLAUDE_EVENT,
    mcp_to_claude,
)
from hookwise.events import CLAUDE_EVENT_NAMES, HookEvent

E = HookEvent


@pytest.mark.parametrize(
    ("event", "matcher", "expected"),
    [
        ("PreToolUse", "Bash", "^run_shell_command$"),
        ("PreToolUse", "Edit|MultiEdit|Write", "^(replace|write_file)$"),
        ("PreToolUse", "Read, Grep, Glob, LS", "^(read_file|grep_search|glob|list_directory)$"),
        (
            "PostToolUse",
            "WebFetch|WebSearch|TodoWrite",
            "^(web_fetch|google_web_search|write_todos)$",
        ),
        ("PreToolUse", "mcp__github__create_issue", "^mcp_github_create_issue$"),
        ("PreToolUse", "mcp__memory__.*", "mcp_memory_.*"),
        ("PreToolUse", "mcp__.*__write.*", "mcp_.*_write.*"),
        ("PreToolUse", "^(Edit|Write)$", "^(replace|write_file)$"),
        ("PreToolUse", "Notebook.*|Bash", "Notebook.*|run_shell_command"),
        ("PreToolUse", r"\bBash\b", r"\brun_shell_command\b"),
        ("PreToolUse", "[B]ash|Read", "[B]ash|read_file"),
        ("PreToolUse", "*", "*"),
        ("PreToolUse", "", ""),
        ("PreToolUse", None, None),
        ("SessionStart", "startup|resume", "startup|resume"),
        ("SessionStart", "startup|compact", "startup|compact"),
        ("SessionStart", "fork", "fork"),
        ("Notification", "agent_needs_input|agent_completed", "agent_needs_input|agent_completed"),
        ("PreToolUse", "Task", "^Task$"),
        ("PreToolUse", "mcp__filesystem", "^mcp_filesystem$"),
        ("SessionEnd", "other|prompt_input_exit", "other|prompt_input_exit|exit"),
        ("SessionEnd", "clear|logout|resume", "clear|logout|resume"),
        ("SessionEnd", "bypass_permissions_disabled", "bypass_permissions_disabled"),
        ("SessionStart", "clear", "clear"),
        ("PreCompact", "manual", "manual"),
        ("PreCompact", "auto", "auto"),
        ("Notification", "permission_prompt|idle_prompt", "ToolPermission|idle_prompt"),
        ("Stop", "anything", None),
    ],
)
def test_matchers_from_claude(event: str, matcher: str | None, expected: str | None) -> None:
    assert translate_matcher_from_claude(event, matcher).value == expected


@pytest.mark.parametrize(
    ("event", "matcher"),
    [
        ("PreToolUse", "Task"),
        ("PreToolUse", "Task|NotebookEdit"),
        ("PreToolUse", "mcp__filesystem"),
        ("SessionStart", "fork"),
        ("SessionStart", "compact|fork"),
        ("Notification", "idle_prompt"),
        ("Notification", "agent_needs_input|agent_completed"),
        ("SessionEnd", "no_such_reason"),
    ],
)
def test_values_hookwise_does_not_send_are_kept_with_one_warning(event: str, matcher: str) -> None:
    """Issue 21 item 1: never a dropped hook; the value stays in the matcher, with one warning."""
    res = translate_matcher_from_claude(event, matcher)
    assert not res.matches_nothing and res.value is not None and len(res.warnings) == 1


def test_matcher_warnings_name_what_was_lost() -> None:
    res = translate_matcher_from_claude("PreToolUse", "Bash|Task")
    assert res.value == "^(run_shell_command|Task)$"
    assert any("'Task' has no Gemini CLI equivalent; kept" in w for w in res.warnings)
    assert any(
        "not a Claude Code built-in" in n
        for n in translate_matcher_from_claude("PreToolUse", "MyTool").notes
    )


@pytest.mark.parametrize(
    ("event", "matcher", "expected"),
    [
        ("BeforeTool", "^run_shell_command$", "Bash"),
        ("BeforeTool", "^(replace|write_file)$", "Edit|Write"),
        ("BeforeTool", "write_file|replace", "Write|Edit"),
        ("BeforeTool", "mcp_memory_.*", "mcp__memory__.*"),
        ("BeforeTool", "^mcp_github_create_issue$", "mcp__github__create_issue"),
        ("AfterTool", "read_.*", "read_.*"),
        ("SessionEnd", "exit|logout", "prompt_input_exit|logout"),
        ("Notification", "ToolPermission", "permission_prompt"),
        ("BeforeAgent", "x", None),
    ],
)
def test_matchers_to_claude(event: str, matcher: str, expected: str | None) -> None:
    assert translate_matcher_to_claude(event, matcher).value == expected


def test_mcp_names_use_the_server_name_when_known() -> None:
    assert mcp_to_claude("mcp_my_server_do_it", "my_server") == "mcp__my_server__do_it"
    assert mcp_to_claude("mcp_github_create_issue") == "mcp__github__create_issue"


def test_every_claude_event_is_either_mapped_or_reported() -> None:
    assert not set(CLAUDE_EVENT_NAMES) & set(CLAUDE_EVENTS_WITHOUT_EQUIVALENT)
    assert set(CLAUDE_EVENT_NAMES) >= {
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "UserPromptSubmit",
        "Stop",
        "SubagentStop",
        "SessionStart",
        "SessionEnd",
        "PreCompact",
        "Notification",
    }
    for gemini in GEMINI_TO_CLAUDE_EVENT:
        HookEvent(gemini)


def test_unknown_and_unmapped_events_are_reported_per_hook() -> None:
    doc = {
        "hooks": {
            "PermissionRequest": [{"hooks": [{"type": "command", "command": "a"}]}],
            "Bogus": [{"hooks": [{"type": "command", "command": "b"}]}],
            "BeforeTool": [{"hooks": [{"type": "command", "command": "c"}]}],
            "PostCompact": [],
        }
    }
    conv, findings = convert_claude_document(
        doc, file="f", text=json.dumps(doc), plugin_roots=[PluginRoot("/", None)]
    )
    reasons = [c.report.reason for c in conv]
    assert all(c.hook is None for c in conv)
    assert "no hookwise equivalent" in reasons[0]
    assert "unknown Claude Code event 'Bogus'" in reasons[1]
    assert "hookwise event name" in reasons[2]
    assert any("PostCompact" in f for f in findings)


# --------------------------------------------------------------------------- commands


@pytest.mark.parametrize(
    "arg",
    [
        "plain",
        "with space",
        'quo"te',
        "dollar $HOME",
        "back`tick`",
        "semi;colon",
        "it's",
        "back\\slash",
    ],
)
def test_exec_form_passes_every_argument_unchanged(tmp_path: Path, arg: str) -> None:
    cmd = exec_form_to_shell("printf", ["%s|", arg, "${CLAUDE_PROJECT_DIR}/x y"])
    out = subprocess.run(
        ["bash", "-c", cmd],
        capture_output=True,
        text=True,
        check=True,
        env={"CLAUDE_PROJECT_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert out.stdout == f"{arg}|{tmp_path}/x y|"


def test_plugin_root_prefers_the_directory_that_has_the_scripts(tmp_path: Path) -> None:
    (tmp_path / ".claude" / "scripts").mkdir(parents=True)
    (tmp_path / ".claude" / "scripts" / "a.sh").write_text("")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "b.sh").write_text("")
    inner = PluginRoot(str(tmp_path / ".claude"), "${GEMINI_PROJECT_DIR}/.claude")
    outer = PluginRoot(str(tmp_path), "${GEMINI_PROJECT_DIR}")
    assert resolve_plugin_root("${CLAUDE_PLUGIN_ROOT}/scripts/a.sh", [inner, outer]) == (
        inner,
        True,
    )
    assert resolve_plugin_root('"$CLAUDE_PLUGIN_ROOT/tools/b.sh" x', [inner, outer]) == (
        outer,
        True,
    )
    assert resolve_plugin_root("${CLAUDE_PLUGIN_ROOT}/missing.sh", [inner, outer]) == (inner, False)


def _convert(
    hook: dict[str, Any], tmp_path: Path, event: str = "PreToolUse", native: bool = False
) -> Any:
    doc = {"hooks": {event: [{"matcher": "Bash", "hooks": [hook]}]}}
    roots = [
        PluginRoot(str(tmp_path / ".claude"), "${GEMINI_PROJECT_DIR}/.claude"),
        PluginRoot(str(tmp_path), "${GEMINI_PROJECT_DIR}"),
    ]
    conv, _ = convert_claude_document(
        doc, file="s.json", text=json.dumps(doc), plugin_roots=roots, native=native
    )
    return conv[0]


def test_migration_keeps_plugin_root_bytes_and_native_loading_resolves_it(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "a.sh").write_text('source "$CLAUDE_PLUGIN_ROOT/lib.sh"\n')
    (tmp_path / ".claude" / "b.sh").write_text("echo hi\n")
    a = _convert({"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/a.sh"}, tmp_path)
    assert (
        a.hook["command"] == "${CLAUDE_PLUGIN_ROOT}/a.sh"
    )  # every byte kept; resolved when the hook runs
    assert any("will resolve to" in n and ".claude" in n for n in a.report.notes)
    b = _convert({"type": "command", "command": "bash ${CLAUDE_PLUGIN_ROOT}/b.sh"}, tmp_path)
    assert b.hook["command"] == "bash ${CLAUDE_PLUGIN_ROOT}/b.sh"
    native = _convert(
        {"type": "command", "command": "bash ${CLAUDE_PLUGIN_ROOT}/b.sh"}, tmp_path, native=True
    )
    assert native.hook["command"] == "bash '" + str(tmp_path / ".claude") + "'/b.sh"
    assert native.env == {"CLAUDE_PLUGIN_ROOT": str(tmp_path / ".claude")}
    missing = _convert({"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/nope.sh"}, tmp_path)
    assert any("will fail" in w for w in missing.report.warnings)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({"timeout": 30}, 30000),
        ({"timeout": 1.5}, 1500),
        ({}, 600000),
        ({"timeout": "10"}, 600000),
    ],
)
def test_timeouts_are_converted_to_milliseconds(
    tmp_path: Path, raw: dict[str, Any], expected: int
) -> None:
    c = _convert({"type": "command", "command": "x", **raw}, tmp_path)
    assert c.hook["timeout"] == expected


def test_project_dir_both_spellings(tmp_path: Path) -> None:
    c = _convert(
        {
            "type": "command",
            "command": '"$CLAUDE_PROJECT_DIR"/a ${CLAUDE_PROJECT_DIR}/b $CLAUDE_PROJECT_DIRX',
        },
        tmp_path,
    )
    assert (
        c.hook["command"] == '"$GEMINI_PROJECT_DIR"/a ${GEMINI_PROJECT_DIR}/b $CLAUDE_PROJECT_DIRX'
    )
    assert any("CLAUDE_PROJECT_DIRX" in w for w in c.report.warnings)


def test_dropped_fields_are_listed_with_reasons(tmp_path: Path) -> None:
    c = _convert(
        {
            "type": "command",
            "command": "x",
            "async": True,
            "if": "Bash(git *)",
            "once": True,
            "statusMessage": "Checking",
            "shell": "powershell",
            "weird": 1,
        },
        tmp_path,
    )
    actions = {f.field: f.action for f in c.report.fields}
    assert actions == {
        "type": "carried",
        "command": "carried",
        "shell": "carried",
        "timeout": "added",
        "statusMessage": "converted",
        "async": "carried",
        "if": "carried",
        "once": "dropped",
        "weird": "dropped",
        "dialect": "added",
    }
    assert c.hook["description"] == "Checking"
    assert c.hook["command"] == "x" and c.hook["shell"] == "powershell"
    assert c.hook["if"] == "Bash(git *)" and c.hook["async"] is True and "once" not in c.hook


@pytest.mark.parametrize("htype", ["prompt", "agent", "mcp_tool"])
def test_non_command_handlers_are_not_migrated(tmp_path: Path, htype: str) -> None:
    c = _convert({"type": htype, "url": "http://x", "prompt": "p"}, tmp_path)
    assert (
        c.hook is None and c.report.status == "skipped" and "only command hooks" in c.report.reason
    )


def test_http_handlers_are_carried(tmp_path: Path) -> None:
    c = _convert(
        {
            "type": "http",
            "url": "https://h.example/x",
            "headers": {"A": "$T"},
            "allowedEnvVars": ["T"],
            "timeout": 5,
            "statusMessage": "Asking",
        },
        tmp_path,
    )
    assert c.hook == {
        "type": "http",
        "url": "https://h.example/x",
        "headers": {"A": "$T"},
        "allowedEnvVars": ["T"],
        "timeout": 5000,
        "description": "Asking",
        "dialect": "claude",
    }
    bad = _convert({"type": "http", "url": "ftp://x"}, tmp_path)
    assert (
        bad.hook is None
        and bad.report.status == "skipped"
        and "http:// or https://" in bad.report.reason
    )


# --------------------------------------------------------------------------- Claude-shaped input


def test_claude_input_for_tools() -> None:
    inp = {
        "session_id": "s",
        "cwd": "/p",
        "hook_event_name": "BeforeTool",
        "timestamp": "t",
        "tool_name": "grep_search",
        "tool_input": {"pattern": "x", "dir_path": "src", "include": "*.py"},
    }
    out = to_claude_input(E.BEFORE_TOOL, inp)
    assert out["hook_event_name"] == "PreToolUse" and out["tool_name"] == "Grep"
    assert out["tool_input"] == {"pattern": "x", "path": "src", "glob": "*.py"}
    assert inp["tool_name"] == "grep_search"  # the firing's input is not modified
    mcp = to_claude_input(
        E.BEFORE_TOOL,
        {
            "tool_name": "mcp_my_srv_go",
            "tool_input": {},
            "mcp_context": {"server_name": "my_srv", "tool_name": "go"},
        },
    )
    assert mcp["tool_name"] == "mcp__my_srv__go"


def test_claude_input_after_a_failed_tool() -> None:
    inp = {
        "tool_name": "write_file",
        "tool_input": {"file_path": "a"},
        "tool_response": {
            "llmContent": "",
            "returnDisplay": "",
            "error": {"type": "x", "message": "denied"},
        },
    }
    out = to_claude_input(E.AFTER_TOOL, inp)
    assert out["hook_event_name"] == "PostToolUseFailure" and out["error"] == "denied"
    ok = to_claude_input(
        E.AFTER_TOOL,
        {
            "tool_name": "write_file",
            "tool_input": {"file_path": "a"},
            "tool_response": {"llmContent": "ok", "returnDisplay": "ok"},
        },
    )
    assert ok["hook_event_name"] == "PostToolUse" and ok["tool_response"]["filePath"] == "a"
    assert ok["tool_response"]["success"] is True


@pytest.mark.parametrize(
    ("event", "inp", "expected"),
    [
        (E.BEFORE_AGENT, {"prompt": "p"}, {"hook_event_name": "UserPromptSubmit", "prompt": "p"}),
        (
            E.AFTER_AGENT,
            {"prompt": "p", "prompt_response": "r", "stop_hook_active": True},
            {"hook_event_name": "Stop", "last_assistant_message": "r", "stop_hook_active": True},
        ),
        (
            E.SESSION_END,
            {"reason": "exit"},
            {"hook_event_name": "SessionEnd", "reason": "prompt_input_exit"},
        ),
        (
            E.NOTIFICATION,
            {"notification_type": "ToolPermission", "message": "m", "details": {}},
            {"hook_event_name": "Notification", "notification_type": "permission_prompt"},
        ),
        (E.PRE_COMPRESS, {"trigger": "auto"}, {"hook_event_name": "PreCompact", "trigger": "auto"}),
        (
            E.SESSION_START,
            {"source": "startup"},
            {"hook_event_name": "SessionStart", "source": "startup"},
        ),
    ],
)
def test_claude_input_for_other_events(
    event: HookEvent, inp: dict[str, Any], expected: dict[str, Any]
) -> None:
    out = to_claude_input(event, inp)
    assert expected.items() <= out.items()


def test_subagent_stop_hooks_can_be_told_their_own_event() -> None:
    out = to_claude_input(
        E.AFTER_AGENT, {"prompt": "p", "prompt_response": "r"}, claude_event="SubagentStop"
    )
    assert out["hook_event_name"] == "SubagentStop"


# --------------------------------------------------------------------------- Claude-style answers


def test_answers_without_claude_fields_are_returned_as_is() -> None:
    out = {"decision": "deny", "reason": "x", "hookSpecificOutput": {"additionalContext": "c"}}
    assert normalize_output(E.BEFORE_TOOL, out, None) is out


@pytest.mark.parametrize(
    ("pd", "decision"),
    [("allow", "allow"), ("deny", "deny"), ("ask", "ask"), ("defer", "ask"), ("Deny", "deny")],
)
def test_permission_decisions(pd: str, decision: str) -> None:
    out = normalize_output(
        E.BEFORE_TOOL,
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": pd,
                "permissionDecisionReason": "why",
            }
        },
        None,
    )
    assert out["decision"] == decision and out["reason"] == "why"
    if decision == "ask":
        assert out["systemMessage"] == "why"


def test_the_stricter_decision_wins() -> None:
    out = normalize_output(
        E.BEFORE_TOOL,
        {"decision": "deny", "reason": "r", "hookSpecificOutput": {"permissionDecision": "allow"}},
        "claude",
    )
    assert out["decision"] == "deny" and out["reason"] == "r"
    out = normalize_output(
        E.BEFORE_TOOL,
        {"decision": "allow", "hookSpecificOutput": {"permissionDecision": "ask"}},
        "claude",
    )
    assert out["decision"] == "ask"


def test_unknown_permission_decision_is_visible_not_an_allow() -> None:
    out = normalize_output(
        E.BEFORE_TOOL, {"hookSpecificOutput": {"permissionDecision": "nope"}}, "claude"
    )
    assert "decision" not in out and "unknown permissionDecision 'nope'" in out["systemMessage"]


def test_approve_is_allow() -> None:
    assert normalize_output(E.BEFORE_TOOL, {"decision": "approve"}, None)["decision"] == "allow"


def test_updated_input_with_the_tools_own_parameter_names() -> None:
    answer = {
        "hookSpecificOutput": {
            "permissionDecision": "allow",
            "updatedInput": {"pattern": "y", "path": "lib", "glob": "*.md"},
        }
    }
    payload = {"tool_name": "grep_search", "tool_input": {"pattern": "x", "dir_path": "src"}}
    out = normalize_output(E.BEFORE_TOOL, answer, "claude", payload=payload)
    assert out["hookSpecificOutput"]["tool_input"] == {
        "pattern": "y",
        "dir_path": "lib",
        "include": "*.md",
    }
    # a hook not written for Claude already speaks the tool's names
    out2 = normalize_output(E.BEFORE_TOOL, answer, None, payload=payload)
    assert out2["hookSpecificOutput"]["tool_input"] == {
        "pattern": "y",
        "path": "lib",
        "glob": "*.md",
    }
    # an explicit tool_input wins over updatedInput
    both = {"hookSpecificOutput": {"tool_input": {"a": 1}, "updatedInput": {"b": 2}}}
    assert normalize_output(E.BEFORE_TOOL, both, "claude")["hookSpecificOutput"]["tool_input"] == {
        "a": 1
    }


def test_plain_text_is_context_for_session_start_and_prompts() -> None:
    assert text_output(E.SESSION_START, "ctx\n", "claude") == {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "ctx"}
    }
    assert text_output(E.BEFORE_AGENT, "ctx", "claude") is not None
    assert text_output(E.BEFORE_TOOL, "ctx", "claude") is None
    assert text_output(E.SESSION_START, "ctx", None) is None
