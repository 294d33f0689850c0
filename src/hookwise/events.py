"""The eleven hook events and everything that varies by event, in one table.

Every other module that needs a per-event rule (how the matcher is tested, how
outputs are merged, what a sequential chain rewrites, which input fields exist)
reads it from :data:`EVENT_SPECS`. :func:`build_input` completes and type-checks
the input of a firing (:data:`FIELD_TYPES`). A test checks that the table covers every
member of :class:`HookEvent`.
"""

from __future__ import annotations

import time

from hookwise._records import TYPE_CHECKING, Enum, dataclass

if TYPE_CHECKING:
    from collections.abc import Mapping


class HookEvent(str, Enum):
    """A lifecycle point. Values are the wire names used in settings files and inputs."""

    BEFORE_TOOL = "BeforeTool"
    AFTER_TOOL = "AfterTool"
    BEFORE_AGENT = "BeforeAgent"
    AFTER_AGENT = "AfterAgent"
    BEFORE_MODEL = "BeforeModel"
    AFTER_MODEL = "AfterModel"
    BEFORE_TOOL_SELECTION = "BeforeToolSelection"
    SESSION_START = "SessionStart"
    SESSION_END = "SessionEnd"
    PRE_COMPRESS = "PreCompress"
    NOTIFICATION = "Notification"

    def __str__(self) -> str:
        return self.value


class MatcherKind(str, Enum):
    """How a definition's ``matcher`` is tested for an event."""

    TOOL = "tool"  # regex search on the tool name, exact fallback when the regex is invalid
    EXACT = "exact"  # one name or names separated by "|", each compared exactly
    NONE = "none"  # the matcher is ignored


class MergeKind(str, Enum):
    """How the outputs of one firing are merged (docs/contract.md §8)."""

    OR = "or"
    REPLACE = "replace"  # BeforeModel / AfterModel: later llm_request/llm_response wins
    TOOL_SELECTION = "tool_selection"
    SIMPLE = "simple"  # shallow merge, later wins


class ChainKind(str, Enum):
    """What a successful hook in a sequential chain rewrites in the next hook's input (docs/contract.md §4)."""

    NONE = "none"
    PROMPT_CONTEXT = "prompt_context"  # BeforeAgent: additionalContext appended to prompt
    LLM_REQUEST = "llm_request"  # BeforeModel: llm_request merged
    TOOL_INPUT = "tool_input"  # BeforeTool: tool_input merged


@dataclass(frozen=True)
class EventSpec:
    """Everything about one event that the engine and the CLI need."""

    event: HookEvent
    matcher: MatcherKind
    match_field: str | None  # input field the matcher is tested against
    merge: MergeKind
    chain: ChainKind
    fields: tuple[str, ...]  # event-specific input fields (beyond the base fields)
    required: tuple[str, ...]  # of those, the ones a firing must carry
    description: str


#: every decision word a hook may answer with (``approve`` and ``block`` are the older spellings)
DECISIONS: tuple[str, ...] = ("allow", "deny", "block", "ask", "approve")
#: the decisions that block the action (docs/contract.md §8: any of them wins)
BLOCKING_DECISIONS: frozenset[str] = frozenset({"deny", "block"})

BASE_FIELDS: tuple[str, ...] = (
    "session_id",
    "transcript_path",
    "cwd",
    "hook_event_name",
    "timestamp",
)

E = HookEvent
EVENT_SPECS: dict[HookEvent, EventSpec] = {
    E.BEFORE_TOOL: EventSpec(
        E.BEFORE_TOOL,
        MatcherKind.TOOL,
        "tool_name",
        MergeKind.OR,
        ChainKind.TOOL_INPUT,
        ("tool_name", "tool_input", "mcp_context", "original_request_name"),
        ("tool_name", "tool_input"),
        "before a tool runs: allow, deny, ask, rewrite its arguments, or stop the agent",
    ),
    E.AFTER_TOOL: EventSpec(
        E.AFTER_TOOL,
        MatcherKind.TOOL,
        "tool_name",
        MergeKind.OR,
        ChainKind.NONE,
        ("tool_name", "tool_input", "tool_response", "mcp_context", "original_request_name"),
        ("tool_name", "tool_input", "tool_response"),
        "after a tool ran: hide its result, add context, request a tail tool call, or stop",
    ),
    E.BEFORE_AGENT: EventSpec(
        E.BEFORE_AGENT,
        MatcherKind.NONE,
        None,
        MergeKind.OR,
        ChainKind.PROMPT_CONTEXT,
        ("prompt",),
        ("prompt",),
        "when a user prompt arrives: block it, stop, or add context for this turn",
    ),
    E.AFTER_AGENT: EventSpec(
        E.AFTER_AGENT,
        MatcherKind.NONE,
        None,
        MergeKind.OR,
        ChainKind.NONE,
        ("prompt", "prompt_response", "stop_hook_active"),
        ("prompt", "prompt_response", "stop_hook_active"),
        "after the agent's final answer: retry with a reason, clear context, or stop",
    ),
    E.BEFORE_MODEL: EventSpec(
        E.BEFORE_MODEL,
        MatcherKind.NONE,
        None,
        MergeKind.REPLACE,
        ChainKind.LLM_REQUEST,
        ("llm_request",),
        ("llm_request",),
        "before every model call: rewrite the request, answer instead of the model, or stop",
    ),
    E.AFTER_MODEL: EventSpec(
        E.AFTER_MODEL,
        MatcherKind.NONE,
        None,
        MergeKind.REPLACE,
        ChainKind.NONE,
        ("llm_request", "llm_response"),
        ("llm_request", "llm_response"),
        "for every streamed model chunk: replace it, discard it, or stop",
    ),
    E.BEFORE_TOOL_SELECTION: EventSpec(
        E.BEFORE_TOOL_SELECTION,
        MatcherKind.NONE,
        None,
        MergeKind.TOOL_SELECTION,
        ChainKind.NONE,
        ("llm_request",),
        ("llm_request",),
        "before the model chooses tools: restrict the tool-calling mode and allowed names",
    ),
    E.SESSION_START: EventSpec(
        E.SESSION_START,
        MatcherKind.EXACT,
        "source",
        MergeKind.OR,
        ChainKind.NONE,
        ("source",),
        ("source",),
        "when a session starts, resumes or is cleared: add context, show a message",
    ),
    E.SESSION_END: EventSpec(
        E.SESSION_END,
        MatcherKind.EXACT,
        "reason",
        MergeKind.SIMPLE,
        ChainKind.NONE,
        ("reason",),
        ("reason",),
        "when a session ends or is cleared (result is informational)",
    ),
    E.PRE_COMPRESS: EventSpec(
        E.PRE_COMPRESS,
        MatcherKind.EXACT,
        "trigger",
        MergeKind.SIMPLE,
        ChainKind.NONE,
        ("trigger",),
        ("trigger",),
        "before the history is compressed (result is informational)",
    ),
    E.NOTIFICATION: EventSpec(
        E.NOTIFICATION,
        MatcherKind.EXACT,
        "notification_type",
        MergeKind.SIMPLE,
        ChainKind.NONE,
        ("notification_type", "message", "details"),
        ("notification_type", "message", "details"),
        "before a confirmation prompt is shown (result is informational)",
    ),
}
del E

EVENT_NAMES: tuple[str, ...] = tuple(e.value for e in HookEvent)

# Allowed values of the enumerated input fields (used by the CLI to check shortcuts).
SESSION_START_SOURCES = ("startup", "resume", "clear", "compact", "fork")
SESSION_END_REASONS = ("exit", "clear", "logout", "prompt_input_exit", "other")
PRE_COMPRESS_TRIGGERS = ("manual", "auto")

# Claude Code event names and the hookwise event they correspond to (for messages and migration).
CLAUDE_EVENT_NAMES: dict[str, str] = {
    "PreToolUse": "BeforeTool",
    "PostToolUse": "AfterTool",
    "PostToolUseFailure": "AfterTool",
    "UserPromptSubmit": "BeforeAgent",
    "Stop": "AfterAgent",
    "SubagentStop": "AfterAgent",
    "SessionStart": "SessionStart",
    "SessionEnd": "SessionEnd",
    "PreCompact": "PreCompress",
    "Notification": "Notification",
}


def parse_event(name: str | HookEvent) -> HookEvent:
    """Return the :class:`HookEvent` for a wire name; raise :class:`UnknownEventError` otherwise.

    The error message suggests the hookwise name when a Claude Code name or a
    differently-cased name was given.
    """
    if isinstance(name, HookEvent):
        return name
    try:
        return HookEvent(name)
    except ValueError:
        from hookwise.input_errors import UnknownEventError

        raise UnknownEventError(name, suggest_event(name)) from None


def suggest_event(name: str) -> str | None:
    """The event a mistyped or Claude-named event most likely means, or None."""
    if name in CLAUDE_EVENT_NAMES:
        return CLAUDE_EVENT_NAMES[name]
    lowered = name.lower().replace("_", "").replace("-", "")
    for ev in EVENT_NAMES:
        if ev.lower() == lowered:
            return ev
    import difflib

    close = difflib.get_close_matches(name, EVENT_NAMES, n=1, cutoff=0.6)
    return close[0] if close else None


# --------------------------------------------------------------------------- the input of a firing

#: input fields and the JSON type each must have (checked before any hook runs)
FIELD_TYPES: dict[str, type | tuple[type, ...]] = {
    "session_id": str,
    "transcript_path": str,
    "cwd": str,
    "timestamp": str,
    "tool_name": str,
    "tool_input": dict,
    "tool_response": dict,
    "mcp_context": dict,
    "original_request_name": str,
    "prompt": str,
    "prompt_response": str,
    "stop_hook_active": bool,
    "llm_request": dict,
    "llm_response": dict,
    "source": str,
    "reason": str,
    "trigger": str,
    "notification_type": str,
    "message": str,
    "details": dict,
}

#: per event, the input fields a firing must carry (``EventSpec.required``), checked with ``in`` only
REQUIRED: dict[HookEvent, tuple[str, ...]] = {e: spec.required for e, spec in EVENT_SPECS.items()}

_TYPE_NAMES: dict[object, str] = {str: "a string", dict: "an object", bool: "true or false"}


_second: tuple[int, str] = (-1, "")  # the last whole second and its text: formatted once per second
_milli: tuple[int, str] = (
    -1,
    "",
)  # the last millisecond and its whole text: firings within one share it


def iso_ms(ns: int) -> str:
    """``ns`` (nanoseconds since the epoch) as UTC ``2025-01-31T12:34:56.789Z`` (no datetime import: CLI start-up
    stays fast)."""
    global _second, _milli
    ms = ns // 1_000_000
    cached = _milli
    if cached[0] == ms:
        return cached[1]
    sec = ms // 1000
    whole = _second
    if whole[0] != sec:
        whole = _second = (sec, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(sec)))
    text = f"{whole[1]}.{ms % 1000:03d}Z"
    _milli = (ms, text)
    return text


def now_iso() -> str:
    """The current UTC time as :func:`iso_ms` writes it."""
    return iso_ms(time.time_ns())


#: the fields every input gets from the hook system (a required one of them is never missing)
BASE_INPUT_FIELDS = frozenset(
    {"session_id", "transcript_path", "cwd", "hook_event_name", "timestamp"}
)


def check_input(event: HookEvent, data: Mapping[str, object]) -> None:
    """Raise :class:`~hookwise.errors.PayloadError` naming the first field of ``data`` of the wrong type,
    then the first field ``event`` requires that is missing.

    Every firing checks its input, whether or not a hook matches (a host's bug must surface);
    ``None`` values are left out of an input, so they are not checked, and count as missing.
    """
    types = FIELD_TYPES
    for k, v in data.items():
        want = types.get(k)
        # an unknown field, one left out, or the exact type: nothing to check
        if want is None or v is None or v.__class__ is want:
            continue
        # a subclass of the type, or true/false for a field that is not a bool
        if not isinstance(v, want) or v.__class__ is bool:
            _wrong_type(k, want, v)
    for k in REQUIRED[event]:  # a host bug (a field left out) must surface, not fire an empty input
        if data.get(k) is None and k not in BASE_INPUT_FIELDS:
            from hookwise.input_errors import PayloadError

            raise PayloadError(f"input field {k!r} is required for {event.value} and is missing")


def _wrong_type(key: str, want: type | tuple[type, ...], value: object) -> None:
    from hookwise.input_errors import PayloadError

    raise PayloadError(
        f"input field {key!r} must be {_TYPE_NAMES.get(want, want)}, got {type(value).__name__}"
    )


def assemble_input(
    event: HookEvent,
    data: Mapping[str, object],
    session_id: str,
    transcript_path: str,
    cwd: str,
    timestamp: str,
) -> dict[str, object]:
    """The full input of a firing from checked ``data``: base fields first, ``None`` values dropped,
    ``hook_event_name`` always the event's."""
    inp: dict[str, object] = {
        "session_id": session_id,
        "transcript_path": transcript_path,
        "cwd": cwd,
        "hook_event_name": event.value,
        "timestamp": timestamp,
    }
    for k, v in data.items():
        if v is not None:
            inp[k] = v
    inp["hook_event_name"] = event.value
    return inp


def build_input(
    event: HookEvent, data: Mapping[str, object], *, session_id: str, transcript_path: str, cwd: str
) -> dict[str, object]:
    """The full input of a firing: base fields filled in, ``None`` values dropped, types checked.

    Raises :class:`~hookwise.errors.PayloadError` naming the first field of the wrong type.
    """
    check_input(event, data)
    return assemble_input(event, data, session_id, transcript_path, cwd, now_iso())
