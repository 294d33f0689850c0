"""The JSON a hook reads and writes, as types: one TypedDict per event input, and the answer.

These types describe the wire format of docs/contract.md §3 (inputs) and §6/§8 (answers). They
are for type checkers and editors; at run time an input is a plain ``dict``. A Python hook can be
annotated with them::

    from hookwise.wire import BeforeToolInput, HookOutput

    def guard(event: BeforeToolInput) -> HookOutput | None:
        if "rm -rf" in event["tool_input"].get("command", ""):
            return {"decision": "deny", "reason": "no recursive deletes"}
        return None

The words that travel in that JSON are written once: decisions in :mod:`hookwise.events`
(``DECISIONS``, ``BLOCKING_DECISIONS``; ``Decision`` below must list the same words), tool-calling
modes and lifecycle values here. ``tests/engine/test_tables.py`` checks that the input types name
exactly the fields of :data:`hookwise.events.EVENT_SPECS` and that the words agree.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict, Union

#: every decision word a hook may answer with (the words themselves: hookwise.events.DECISIONS)
Decision = Literal["allow", "deny", "block", "ask", "approve"]

ToolMode = Literal["AUTO", "ANY", "NONE"]
SessionStartSource = Literal["startup", "resume", "clear"]
SessionEndReason = Literal["exit", "clear", "logout", "prompt_input_exit", "other"]
PreCompressTrigger = Literal["manual", "auto"]

JsonObject = dict[str, Any]


class BaseInput(TypedDict):
    """The fields every event's input carries."""

    session_id: str
    transcript_path: str
    cwd: str
    hook_event_name: str
    timestamp: str


class ToolResponse(TypedDict, total=False):
    llmContent: Any
    returnDisplay: Any
    error: Any


class _ToolOptional(TypedDict, total=False):
    mcp_context: JsonObject
    original_request_name: str


class BeforeToolInput(BaseInput, _ToolOptional):
    tool_name: str
    tool_input: JsonObject


class AfterToolInput(BaseInput, _ToolOptional):
    tool_name: str
    tool_input: JsonObject
    tool_response: ToolResponse


class BeforeAgentInput(BaseInput):
    prompt: str


class AfterAgentInput(BaseInput):
    prompt: str
    prompt_response: str
    stop_hook_active: bool


class BeforeModelInput(BaseInput):
    llm_request: JsonObject


class AfterModelInput(BaseInput):
    llm_request: JsonObject
    llm_response: JsonObject


class BeforeToolSelectionInput(BaseInput):
    llm_request: JsonObject


class SessionStartInput(BaseInput):
    source: SessionStartSource


class SessionEndInput(BaseInput):
    reason: SessionEndReason


class PreCompressInput(BaseInput):
    trigger: PreCompressTrigger


class NotificationInput(BaseInput):
    notification_type: str
    message: str
    details: JsonObject


HookInput = Union[
    BeforeToolInput,
    AfterToolInput,
    BeforeAgentInput,
    AfterAgentInput,
    BeforeModelInput,
    AfterModelInput,
    BeforeToolSelectionInput,
    SessionStartInput,
    SessionEndInput,
    PreCompressInput,
    NotificationInput,
]

#: event name -> its input type (a test checks it against hookwise.events.EVENT_SPECS)
INPUT_TYPES: dict[str, type] = {
    "BeforeTool": BeforeToolInput,
    "AfterTool": AfterToolInput,
    "BeforeAgent": BeforeAgentInput,
    "AfterAgent": AfterAgentInput,
    "BeforeModel": BeforeModelInput,
    "AfterModel": AfterModelInput,
    "BeforeToolSelection": BeforeToolSelectionInput,
    "SessionStart": SessionStartInput,
    "SessionEnd": SessionEndInput,
    "PreCompress": PreCompressInput,
    "Notification": NotificationInput,
}


class FunctionCallingConfig(TypedDict, total=False):
    mode: ToolMode
    allowedFunctionNames: list[str]


class ToolConfig(TypedDict, total=False):
    functionCallingConfig: FunctionCallingConfig


class TailToolCallRequest(TypedDict):
    name: str
    args: JsonObject


class HookSpecificOutput(TypedDict, total=False):
    """The event-specific part of an answer; which keys count depends on the event (contract §8)."""

    hookEventName: str
    additionalContext: str  # BeforeAgent, AfterTool, AfterAgent, SessionStart
    tool_input: JsonObject  # BeforeTool: merged over the model's arguments
    tailToolCallRequest: TailToolCallRequest  # AfterTool
    llm_request: JsonObject  # BeforeModel
    llm_response: (
        JsonObject  # BeforeModel (answers instead of the model), AfterModel (replaces the chunk)
    )
    toolConfig: ToolConfig  # BeforeToolSelection


#: A hook's answer (every key optional); ``None`` or ``{}`` means "no opinion". The functional form
#: is needed because ``continue`` is a Python keyword.
HookOutput = TypedDict(
    "HookOutput",
    {
        "decision": Decision,
        "reason": str,
        "continue": bool,
        "stopReason": str,
        "systemMessage": str,
        "suppressOutput": bool,
        "clearContext": bool,
        "hookSpecificOutput": HookSpecificOutput,
    },
    total=False,
)
