"""Every rule of docs/contract.md §8, each with real hook processes (plus the pure merge for the
edge cases)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.conftest import Project, emit

from _tiers import first_quick
from hookwise import HookSystem
from hookwise.core.merge import merge
from hookwise.events import HookEvent

pytestmark = pytest.mark.usefixtures("trust_all")


def fire(project: Project, event: str, outputs: list[Any], **payload: Any):
    cmds = [
        {"type": "command", "name": f"h{i}", "command": o if isinstance(o, str) else emit(o)}
        for i, o in enumerate(outputs)
    ]
    project.hooks(event, *cmds)
    return HookSystem(project.root).fire(event, payload)


TOOL = {"tool_name": "write_file", "tool_input": {"file_path": "a.txt", "content": "x"}}

#: the fields each event requires (a firing without them is a host bug: PayloadError)
REQUIRED_INPUT: dict[str, dict[str, Any]] = {
    "BeforeTool": {"tool_name": "t", "tool_input": {}},
    "AfterTool": {"tool_name": "t", "tool_input": {}, "tool_response": {}},
    "BeforeAgent": {"prompt": "p"},
    "AfterAgent": {"prompt": "p", "prompt_response": "r", "stop_hook_active": False},
    "BeforeModel": {"llm_request": {}},
    "AfterModel": {"llm_request": {}, "llm_response": {}},
    "BeforeToolSelection": {"llm_request": {}},
    "SessionStart": {"source": "startup"},
    "SessionEnd": {"reason": "exit"},
    "PreCompress": {"trigger": "manual"},
    "Notification": {"notification_type": "ToolPermission", "message": "m", "details": {}},
}


@pytest.mark.parametrize(
    "decisions,expected",
    [
        (["allow", "deny"], "deny"),
        (["deny", "allow"], "deny"),
        (["ask", "block"], "block"),
        (["block", "ask"], "block"),
        (["allow", "ask"], "ask"),
        (["ask", "allow"], "ask"),
        (["allow", "approve"], "allow"),
        ([None, None], "allow"),
    ],
)
@pytest.mark.parametrize(
    "event",
    first_quick(  # the quick tier: every pair on BeforeTool
        [
            "BeforeTool",
            "AfterTool",
            "BeforeAgent",
            "AfterAgent",
            "BeforeModel",
            "AfterModel",
            "SessionStart",
            "SessionEnd",
            "PreCompress",
            "Notification",
        ]
    ),
)
def test_decisions_only_tighten_for_every_event(
    project: Project, event: str, decisions: list[Any], expected: str
) -> None:
    outs = [{"decision": d} if d else {} for d in decisions]
    r = fire(project, event, outs, **REQUIRED_INPUT[event])
    assert r.decision == expected


#: a complete input for each event (every required field, docs/contract.md §3)
REQUIRED_INPUT: dict[str, dict[str, Any]] = {
    "BeforeTool": {"tool_name": "t", "tool_input": {}},
    "AfterTool": {"tool_name": "t", "tool_input": {}, "tool_response": {"llmContent": ""}},
    "BeforeAgent": {"prompt": "p"},
    "AfterAgent": {"prompt": "p", "prompt_response": "r", "stop_hook_active": False},
    "BeforeModel": {"llm_request": {}},
    "AfterModel": {"llm_request": {}, "llm_response": {}},
    "SessionStart": {"source": "startup"},
    "SessionEnd": {"reason": "exit"},
    "PreCompress": {"trigger": "manual"},
    "Notification": {"notification_type": "ToolPermission", "message": "m", "details": {}},
}


def test_continue_false_wins_over_block_and_stop_reasons_join(project: Project) -> None:
    r = fire(
        project,
        "BeforeTool",
        [
            {"decision": "block", "reason": "r1"},
            {"continue": False, "stopReason": "stop one"},
            {"continue": False, "stopReason": "stop two"},
            {"stopReason": "ignored without continue:false"},
        ],
        **TOOL,
    )
    assert r.stopped and r.blocked
    assert r.stop_reason == "stop one\nstop two"
    assert r.effective_reason == "stop one\nstop two"
    assert r.exit_code == 3


def test_texts_join_with_newlines_in_plan_order(project: Project) -> None:
    slow_first = emit(
        {"reason": "A", "systemMessage": "m1", "hookSpecificOutput": {"additionalContext": "c1"}},
        sleep=0.4,
    )
    r = fire(
        project,
        "AfterTool",
        [
            slow_first,
            {
                "reason": "B",
                "systemMessage": "m2",
                "hookSpecificOutput": {"additionalContext": "c2"},
            },
        ],
        tool_name="t",
        tool_input={},
        tool_response={},
    )
    assert r.reason == "A\nB"
    assert r.system_message == "m1\nm2"
    assert r.hook_specific["additionalContext"] == "c1\nc2"


def test_hook_specific_output_merges_in_plan_order(project: Project) -> None:
    r = fire(
        project,
        "AfterTool",
        [
            {
                "hookSpecificOutput": {
                    "a": 1,
                    "b": 1,
                    "tailToolCallRequest": {"name": "x", "args": {}},
                }
            },
            {"hookSpecificOutput": {"b": 2}},
        ],
        tool_name="t",
        tool_input={},
        tool_response={},
    )
    assert r.hook_specific["a"] == 1 and r.hook_specific["b"] == 2
    assert r.tail_tool_call == {"name": "x", "args": {}}


def test_clear_context_sticks_once_true(project: Project) -> None:
    r = fire(
        project,
        "AfterAgent",
        [
            {"decision": "block", "reason": "again", "hookSpecificOutput": {"clearContext": True}},
            {"hookSpecificOutput": {"clearContext": False}},
        ],
        prompt="p",
        prompt_response="r",
        stop_hook_active=False,
    )
    assert r.clear_context and r.blocked


def test_tool_input_objects_merge_over_the_original(project: Project) -> None:
    r = fire(
        project,
        "BeforeTool",
        [
            {"hookSpecificOutput": {"tool_input": {"content": "first", "mode": "a"}}},
            {"hookSpecificOutput": {"tool_input": {"content": "second"}}},
        ],
        **TOOL,
    )
    assert r.tool_input == {"file_path": "a.txt", "content": "second", "mode": "a"}
    assert r.tool_input_changed
    assert r.tool_input_for(TOOL["tool_input"]) == {
        "file_path": "a.txt",
        "content": "second",
        "mode": "a",
    }


def test_additional_context_is_escaped(project: Project) -> None:
    r = fire(
        project,
        "BeforeAgent",
        [{"hookSpecificOutput": {"additionalContext": "</hook_context><b>x</b>"}}],
        prompt="p",
    )
    assert r.additional_context == "&lt;/hook_context&gt;&lt;b&gt;x&lt;/b&gt;"
    assert (
        r.hook_context == "<hook_context>&lt;/hook_context&gt;&lt;b&gt;x&lt;/b&gt;</hook_context>"
    )


@pytest.mark.parametrize("event", ["BeforeModel", "AfterModel"])
def test_model_events_later_value_wins_but_block_wins(project: Project, event: str) -> None:
    r = fire(
        project,
        event,
        [
            {"decision": "block", "hookSpecificOutput": {"llm_request": {"model": "m1"}}},
            {
                "decision": "allow",
                "hookSpecificOutput": {
                    "llm_request": {"model": "m2"},
                    "llm_response": {"text": "t2", "candidates": []},
                },
            },
        ],
        llm_request={"model": "orig", "messages": []},
        llm_response={"text": "", "candidates": []},
    )
    assert r.blocked
    assert r.llm_request == {"model": "m2"}
    assert r.llm_response == {"text": "t2", "candidates": []}


@pytest.mark.parametrize(
    "configs,expected",
    [
        (
            [
                {"mode": "ANY", "allowedFunctionNames": ["tool1", "tool2"]},
                {"mode": "NONE", "allowedFunctionNames": []},
            ],
            {"mode": "NONE", "allowedFunctionNames": []},
        ),
        (
            [
                {"mode": "AUTO", "allowedFunctionNames": ["tool1"]},
                {"mode": "ANY", "allowedFunctionNames": ["tool3", "tool2"]},
            ],
            {"mode": "ANY", "allowedFunctionNames": ["tool1", "tool2", "tool3"]},
        ),
        (
            [
                {"mode": "AUTO", "allowedFunctionNames": ["tool2"]},
                {"mode": "AUTO", "allowedFunctionNames": ["tool1"]},
            ],
            {"mode": "AUTO", "allowedFunctionNames": ["tool1", "tool2"]},
        ),
    ],
)
def test_tool_selection_merge(
    project: Project, configs: list[Any], expected: dict[str, Any]
) -> None:
    outs = [
        {"decision": "deny", "continue": False, "hookSpecificOutput": {"toolConfig": c}}
        for c in configs
    ]
    r = fire(project, "BeforeToolSelection", outs, llm_request={"model": "m", "messages": []})
    assert r.tool_config == expected
    assert not r.blocked and not r.stopped  # decisions and continue are ignored for this event


def test_tool_selection_without_tool_config_is_no_change(project: Project) -> None:
    r = fire(
        project,
        "BeforeToolSelection",
        [{}, "plain text"],
        llm_request={"model": "m", "messages": []},
    )
    assert r.tool_config is None


@pytest.mark.parametrize(
    "event,payload",
    [
        ("Notification", {"notification_type": "ToolPermission", "message": "m", "details": {}}),
        ("SessionEnd", {"reason": "exit"}),
        ("PreCompress", {"trigger": "manual"}),
    ],
)
def test_simple_merge_later_wins(project: Project, event: str, payload: dict[str, Any]) -> None:
    r = fire(
        project, event, [{"systemMessage": "first", "x": 1}, {"systemMessage": "second"}], **payload
    )
    assert r.system_message == "second"
    assert r.output["x"] == 1


def test_pure_merge_is_empty_without_outputs() -> None:
    assert merge(HookEvent.BEFORE_TOOL, []) == {}
    assert merge(HookEvent.BEFORE_TOOL, [{"continue": False}]) == {
        "continue": False,
        "suppressOutput": False,
    }
