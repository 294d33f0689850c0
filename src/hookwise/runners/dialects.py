"""Hook dialects (docs/contract.md §5-§6): the shape of a hook's input and how its answer is read.

A dialect is a small strategy looked up by the hook's ``dialect`` key:
``encode_input`` (what the hook reads), ``interpret`` (the dialect's own reading
of a finished process), ``normalize_output`` (its JSON answer mapped onto the
contract's fields), ``text_output`` (the meaning of plain text on stdout at exit 0,
``None`` for the default) and ``notes`` (what the answer asked for that hookwise
cannot do). The native dialect sends the input as is; Claude-style answer fields
are understood from every hook, so it hands an answer that has them to
:data:`CLAUDE_FIELDS`. Only :data:`DIALECTS` and :data:`CLAUDE_FIELDS` name the
modules (as text); they load on first use, and no runner imports a dialect's wing.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING
from hookwise.core.registry import HookEntry
from hookwise.events import HookEvent

if TYPE_CHECKING:
    from hookwise.core.interpret import Interpretation

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, Protocol
else:
    Protocol = object  # a typing.Protocol for type checkers, a plain base class at run time


class Dialect(Protocol):
    name: str | None

    def input_key(self, entry: HookEntry) -> object:
        """Entries with equal keys get the same encoded input within one firing."""
        ...

    def encode_input(
        self, event: HookEvent, inp: dict[str, Any], entry: HookEntry
    ) -> dict[str, Any]: ...

    def normalize_output(
        self, event: HookEvent, output: dict[str, Any], inp: Mapping[str, Any] | None
    ) -> dict[str, Any]: ...

    def text_output(self, event: HookEvent, text: str) -> dict[str, Any] | None: ...

    def interpret(
        self, it: Interpretation, *, exit_code: int | None, stdout: str, stderr: str, name: str
    ) -> Interpretation:
        """The contract's reading of a finished command hook, adjusted to the dialect's own
        rules."""
        ...

    def notes(
        self, event: HookEvent, output: dict[str, Any], inp: Mapping[str, Any] | None = None
    ) -> list[str]:
        """Warnings for answer fields hookwise cannot carry out as given (never dropped silently):
        such a field is removed from ``output`` (AfterTool ``updatedToolOutput`` of the wrong shape
        for ``inp``'s result)."""
        ...


class AnswerFields(Protocol):
    """How Claude-style fields in a native hook's answer are read (see :data:`CLAUDE_FIELDS`)."""

    def normalize_output(
        self, event: HookEvent, output: dict[str, Any], inp: Mapping[str, Any] | None
    ) -> dict[str, Any]: ...

    def notes(
        self, event: HookEvent, output: dict[str, Any], inp: Mapping[str, Any] | None = None
    ) -> list[str]: ...


#: the answer fields that mark a Claude-style answer (mapped for every hook, whatever its dialect)
CLAUDE_ANSWER_KEYS = ("permissionDecision", "permissionDecisionReason", "updatedInput")


#: the Claude-only channel: input fields a host may give that only Claude-dialect hooks receive (the
#: events each goes to: ``hookwise.claude.dialect.CLAUDE_ONLY_ON``, a test compares the two)
CLAUDE_ONLY_FIELDS = frozenset(
    {
        "tool_use_id",
        "duration_ms",
        "permission_mode",
        "prompt_id",
        "effort",
        "model",
        "agent_id",
        "agent_type",
        "seconds_since_last_response",
        "context_tokens",
        "prompt_cache_likely_expired",
        "estimated_cache_write_usd",
        "background_tasks",
        "session_crons",
        "custom_instructions",
    }
)


class NativeDialect:
    """The contract's own shapes: the input as is (without the Claude-only fields), answers as given
    (Claude-style fields mapped)."""

    name: str | None = None

    def input_key(self, entry: HookEntry) -> object:
        return None

    def encode_input(
        self, event: HookEvent, inp: dict[str, Any], entry: HookEntry
    ) -> dict[str, Any]:
        if CLAUDE_ONLY_FIELDS.isdisjoint(inp):
            return inp
        return {k: v for k, v in inp.items() if k not in CLAUDE_ONLY_FIELDS}

    def normalize_output(
        self, event: HookEvent, output: dict[str, Any], inp: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        if output.get("decision") != "approve":
            hso = output.get("hookSpecificOutput")
            if not any(k in output for k in CLAUDE_ANSWER_KEYS) and not (
                isinstance(hso, dict) and any(k in hso for k in CLAUDE_ANSWER_KEYS)
            ):
                return output
        return _claude_fields().normalize_output(event, output, inp)

    def text_output(self, event: HookEvent, text: str) -> dict[str, Any] | None:
        return None

    def interpret(
        self, it: Interpretation, *, exit_code: int | None, stdout: str, stderr: str, name: str
    ) -> Interpretation:
        return it

    def notes(
        self, event: HookEvent, output: dict[str, Any], inp: Mapping[str, Any] | None = None
    ) -> list[str]:
        if not isinstance(output.get("hookSpecificOutput"), dict):
            return []
        return _claude_fields().notes(event, output, inp)


NATIVE = NativeDialect()

#: dialect name -> "module:attribute" of its strategy (loaded on first use)
DIALECTS: dict[str, str] = {
    "claude": "hookwise.claude.dialect:CLAUDE",
    # the agent bridge's relayed Claude events (settings cannot name it: schema.py allows only
    # "claude")
    "agent-claude": "hookwise.bridge.relay:VERBATIM",
    # hooks install --take-over moved out of these agents' own files (hookwise.bridge.moved)
    "agent-cursor": "hookwise.bridge.moved:CURSOR",
    "agent-agy": "hookwise.bridge.moved:AGY",
    "agent-windsurf": "hookwise.bridge.moved:WINDSURF",
    "agent-copilot": "hookwise.bridge.moved:COPILOT",
}

#: the strategy for Claude-style fields in any hook's answer ("module:attribute", loaded on first
#: use)
CLAUDE_FIELDS = "hookwise.claude.dialect:CLAUDE_FIELDS"

_loaded: dict[str | None, Dialect] = {None: NATIVE}
_strategies: dict[str, Any] = {}


def _load(ref: str) -> Any:
    """The object ``"module:attribute"`` names (imported on first use)."""
    got = _strategies.get(ref)
    if got is None:
        module, attr = ref.split(":")
        # __import__ with a fromlist returns the module itself (importlib is not on the firing path)
        got = _strategies[ref] = getattr(__import__(module, fromlist=[attr]), attr)
    return got


def _claude_fields() -> AnswerFields:
    fields: AnswerFields = _load(CLAUDE_FIELDS)
    return fields


def dialect(name: str | None) -> Dialect:
    """The strategy of dialect ``name`` (``None``: native). An unknown name is a programming
    error."""
    d = _loaded.get(name)
    if d is None:
        if name not in DIALECTS:
            raise KeyError(f"unknown hook dialect {name!r} (known: {', '.join(DIALECTS)})")
        d = _loaded[name] = _load(DIALECTS[name])
    return d
