"""What one firing returns: every hook's outcome and the merged answer a host applies.

:class:`HookOutcome` is one hook call (an *invocation*'s result); :class:`FireResult`
is the *verdict* of a firing, with the helpers a host needs (``blocked``,
``stopped``, ``effective_reason``, ``additional_context``, ``tool_input_for``...).
Hook failures are data here, never exceptions.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING, Enum, dataclass, field
from hookwise.events import BLOCKING_DECISIONS, HookEvent

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any


class Outcome(str, Enum):
    """The class of one hook call's result (docs/contract.md §6)."""

    OK = "ok"
    BLOCKED = "blocked"  # exit 2 (the hook blocked on purpose)
    FAILED = "failed"  # other non-zero exit, killed by a signal, Python exception
    NOT_RUN = "not-run"  # exit 126/127 or the process could not be spawned
    TIMEOUT = "timeout"
    SKIPPED = "skipped"  # not run because it is not trusted

    def __str__(self) -> str:
        return self.value


#: outcomes that are reported as a warning (docs/contract.md §6 "never silent")
WARNING_OUTCOMES = frozenset({Outcome.FAILED, Outcome.NOT_RUN, Outcome.TIMEOUT, Outcome.SKIPPED})


@dataclass
class HookOutcome:
    """The result of one hook call.

    ``output`` is the hook's answer as interpreted by docs/contract.md §6 (``None`` when
    it gave none). ``stdout``/``stderr`` are the decoded streams (possibly
    truncated, see ``truncated``). ``exit_code`` is ``None`` for Python hooks,
    timeouts, spawn errors and deaths by signal. ``error`` explains any outcome
    other than ``ok``.
    """

    name: str
    command: str
    source: str
    event: str
    outcome: Outcome
    hook_type: str = "command"
    exit_code: int | None = None
    duration_ms: float = 0.0
    output: dict[str, Any] | None = None
    stdout: str = ""
    stderr: str = ""
    error: str | None = None
    truncated: bool = False
    signal: int | None = None
    #: warnings about this call that do not change its outcome (e.g. a persistent hook was restarted)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The ``hooks[]`` entry of ``hookwise fire --json`` (docs/contract.md §10)."""
        return {
            "name": self.name,
            "command": self.command,
            "source": self.source,
            "outcome": self.outcome.value,
            "exitCode": self.exit_code,
            "durationMs": round(self.duration_ms, 3),
            "output": self.output,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "error": self.error,
            "truncated": self.truncated,
        }


def outcome_warning(o: HookOutcome) -> str | None:
    """The one warning an outcome other than ``ok``/``blocked`` produces (docs/contract.md §6 "never silent")."""
    if o.outcome is Outcome.FAILED:
        return f"hook {o.name} ({o.event}) failed: {o.error}"
    if o.outcome is Outcome.NOT_RUN:
        return f"hook {o.name} ({o.event}) did not run: {o.error}"
    if o.outcome is Outcome.TIMEOUT:
        return f"hook {o.name} ({o.event}) {o.error}"
    if o.outcome is Outcome.SKIPPED:
        return f"hook {o.name} ({o.event}) was skipped: {o.error}"
    return None


def outcome_warnings(
    event: HookEvent, outcomes: Sequence[HookOutcome], output_cap: int
) -> list[str]:
    """The warnings a firing's outcomes produce, in plan order: each outcome's own (:func:`outcome_warning`),
    its notes, and a cut-off output."""
    warnings = []
    for o in outcomes:
        if o.outcome is not Outcome.OK:
            w = outcome_warning(o)
            if w:
                warnings.append(w)
        if o.notes:
            warnings.extend(f"{n} ({event.value})" for n in o.notes)
        if o.truncated:
            cap = (
                f"{output_cap // (1 << 20)} MiB"
                if output_cap % (1 << 20) == 0
                else f"{output_cap} bytes"
            )
            warnings.append(f"output of hook {o.name} ({event.value}) truncated at {cap}")
    return warnings


def asks_to_block(output: Mapping[str, Any] | None) -> bool:
    """The answer makes a blocking decision (``deny`` or ``block``, :data:`hookwise.events.BLOCKING_DECISIONS`)."""
    d = None if output is None else output.get("decision")
    return isinstance(d, str) and d in BLOCKING_DECISIONS  # read before the answer check: any type


def escape_context(text: str) -> str:
    """Escape additional context so it cannot open or close a tag: ``<`` → ``&lt;``, ``>`` → ``&gt;``."""
    return text.replace("<", "&lt;").replace(">", "&gt;")


def hook_context_block(text: str) -> str:
    """``<hook_context>escaped text</hook_context>``."""
    return f"<hook_context>{escape_context(text)}</hook_context>"


@dataclass
class FireResult:
    """The verdict of one firing: the merged output plus every hook's outcome.

    ``output`` is the merged answer in wire form (keys ``decision``, ``continue``,
    ``reason``, ``stopReason``, ``systemMessage``, ``suppressOutput``,
    ``hookSpecificOutput``); it is empty when no hook answered, which every
    host treats as "proceed".
    """

    event: HookEvent
    input: dict[str, Any]
    output: dict[str, Any] = field(default_factory=dict)
    hooks: list[HookOutcome] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: audit mode (:mod:`hookwise.decisions`): the merged answer the hooks gave, not applied; else None
    audit: dict[str, Any] | None = None

    # ---- decisions -------------------------------------------------------------------------
    @property
    def decision(self) -> str:
        """``deny``/``block`` when blocked, ``ask`` when a hook asked, otherwise ``allow``."""
        d = self.output.get("decision")
        if d in BLOCKING_DECISIONS or d == "ask":
            return str(d)
        return "allow"

    @property
    def blocked(self) -> bool:
        """A hook said ``deny`` or ``block``."""
        return self.output.get("decision") in BLOCKING_DECISIONS

    @property
    def asked(self) -> bool:
        """A hook said ``ask`` (and none blocked)."""
        return self.output.get("decision") == "ask"

    @property
    def stopped(self) -> bool:
        """A hook said ``continue: false``: the host stops the agent."""
        return self.output.get("continue") is False

    @property
    def proceed(self) -> bool:
        """Neither blocked nor stopped."""
        return not (self.blocked or self.stopped)

    @property
    def exit_code(self) -> int:
        """CLI exit status for this result: 3 stop, 2 blocked, else 0 (docs/contract.md §10)."""
        if self.stopped:
            return 3
        if self.blocked:
            return 2
        return 0

    # ---- texts -----------------------------------------------------------------------------
    @property
    def reason(self) -> str | None:
        r = self.output.get("reason")
        return r if isinstance(r, str) and r else None

    @property
    def stop_reason(self) -> str | None:
        r = self.output.get("stopReason")
        return r if isinstance(r, str) and r else None

    @property
    def effective_reason(self) -> str:
        """``stopReason`` if set, else ``reason``, else ``No reason provided``."""
        return self.stop_reason or self.reason or "No reason provided"

    @property
    def system_message(self) -> str | None:
        m = self.output.get("systemMessage")
        return m if isinstance(m, str) and m else None

    @property
    def suppress_output(self) -> bool:
        return bool(self.output.get("suppressOutput"))

    @property
    def hook_specific(self) -> dict[str, Any]:
        h = self.output.get("hookSpecificOutput")
        return h if isinstance(h, dict) else {}

    @property
    def additional_context(self) -> str | None:
        """The merged ``additionalContext``, escaped (``<``/``>``), or None."""
        c = self.hook_specific.get("additionalContext")
        if isinstance(c, str) and c:
            return escape_context(c)
        return None

    @property
    def hook_context(self) -> str | None:
        """``<hook_context>…</hook_context>`` for the model, or None when there is no context."""
        c = self.additional_context
        return None if c is None else f"<hook_context>{c}</hook_context>"

    # ---- event-specific --------------------------------------------------------------------
    @property
    def tool_input(self) -> dict[str, Any] | None:
        """BeforeTool: the merged ``hookSpecificOutput.tool_input`` (over the original arguments), or None."""
        t = self.hook_specific.get("tool_input")
        return t if isinstance(t, dict) else None

    @property
    def tool_input_changed(self) -> bool:
        """BeforeTool: a hook rewrote the tool's arguments."""
        t = self.tool_input
        return t is not None and t != self.input.get("tool_input")

    def tool_input_for(self, original: dict[str, Any]) -> dict[str, Any]:
        """BeforeTool: the arguments the tool should run with (hook changes merged over ``original``)."""
        t = self.tool_input
        if t is None:
            return dict(original)
        return {**original, **t}

    def tool_output_for(self, original: dict[str, Any]) -> dict[str, Any] | None:
        """AfterTool: the tool result the model should get instead of ``original`` (a hook's
        ``hookSpecificOutput.updatedToolOutput``, the later hook in plan order winning, merged over
        ``original``), or None to keep it. Values of the wrong shape were dropped, with a warning, before."""
        t = self.hook_specific.get("updatedToolOutput")
        if not isinstance(t, dict) or not t:
            return None
        out = {**original, **{k: v for k, v in t.items() if k in original}}
        return None if out == original else out

    @property
    def llm_request(self) -> dict[str, Any] | None:
        """BeforeModel: the hook's ``llm_request`` (stable format), or None."""
        r = self.hook_specific.get("llm_request")
        return r if isinstance(r, dict) else None

    @property
    def llm_response(self) -> dict[str, Any] | None:
        """BeforeModel (synthetic answer) / AfterModel (replacement chunk): ``llm_response``, or None."""
        r = self.hook_specific.get("llm_response")
        return r if isinstance(r, dict) else None

    @property
    def tool_config(self) -> dict[str, Any] | None:
        """BeforeToolSelection: the merged ``{mode, allowedFunctionNames}``, or None for "no change"."""
        c = self.hook_specific.get("toolConfig")
        return c if isinstance(c, dict) else None

    @property
    def clear_context(self) -> bool:
        """AfterAgent: a hook asked to clear the conversation (``clearContext: true``)."""
        return (
            self.event is HookEvent.AFTER_AGENT and self.hook_specific.get("clearContext") is True
        )

    @property
    def tail_tool_call(self) -> dict[str, Any] | None:
        """AfterTool: ``tailToolCallRequest`` ``{name, args}`` if a hook asked for one."""
        t = self.hook_specific.get("tailToolCallRequest")
        return t if isinstance(t, dict) else None

    if not TYPE_CHECKING:  # (type checkers keep seeing FireResult's declared attributes only)

        def __getattr__(self, name):
            """The input of a result made by :func:`unanswered`, assembled when first read."""
            parts = self.__dict__.get("_input_parts")
            if name != "input" or parts is None:
                raise AttributeError(f"'FireResult' object has no attribute {name!r}")
            from hookwise.events import assemble_input, iso_ms

            event, data, session_id, transcript_path, cwd, ns = parts
            inp = self.input = assemble_input(
                event, data, session_id, transcript_path, cwd, iso_ms(ns)
            )
            del self._input_parts
            return inp

    # ---- reporting -------------------------------------------------------------------------
    @property
    def failed_hooks(self) -> list[HookOutcome]:
        return [h for h in self.hooks if h.outcome in WARNING_OUTCOMES]

    def to_json(self) -> dict[str, Any]:
        """The object printed by ``hookwise fire --json`` (docs/contract.md §10)."""
        hso = self.output.get("hookSpecificOutput")
        if isinstance(hso, dict):
            import copy

            hso = copy.deepcopy(hso)
        return {
            "event": self.event.value,
            "decision": self.decision,
            "continue": not self.stopped,
            "reason": self.reason,
            "stopReason": self.stop_reason,
            "systemMessage": self.system_message,
            "suppressOutput": self.suppress_output,
            "hookSpecificOutput": hso if isinstance(hso, dict) else None,
            "hooks": [h.to_json() for h in self.hooks],
            "warnings": list(self.warnings),
            **({"audit": self.audit} if self.audit is not None else {}),
        }


def unanswered(
    event: HookEvent,
    input_parts: tuple[HookEvent, dict[str, Any], str, str, str, int],
    warnings: list[str] | None = None,
) -> FireResult:
    """The result of a firing no hook ran for (nothing to merge), made at the cost of a check.

    ``input_parts`` are :func:`hookwise.events.assemble_input`'s arguments for the input the
    firing checked, the timestamp as nanoseconds: the input dict is assembled (and the time
    formatted) only when ``result.input`` is first read. In every other way it is the
    ``FireResult(event, input, warnings=warnings)`` it stands for.
    """
    r: FireResult = object.__new__(FireResult)
    # one attribute at a time: assigning ``r.__dict__`` whole costs as much again (it gives up the
    # instance's inline attribute storage)
    r.event = event
    r.output = {}
    r.hooks = []
    r.warnings = [] if warnings is None else warnings
    r._input_parts = input_parts  # type: ignore[attr-defined]
    return r
