"""The framework-neutral half of every adapter: firing, reporting, per-run state and the keyword
arguments.

A :class:`HookBridge` owns the :class:`~hookwise.HookSystem` an adapter fires through and the
behaviour every adapter shares (docs/adapters.md, docs/contract.md §12):

* ``ask="deny" | "native" | approve``: what a hook's ``ask`` does (default ``"deny"``, as in a
  headless run; ``"native"``: the framework's own human-in-the-loop, after a Notification; a
  callable ``approve(tool_name, args, reason) -> bool`` decides inline, after a Notification);
* ``on_message(kind, text)``: ``stop`` / ``block`` (the reason), ``warning`` and ``system`` lines,
  also logged to the ``hookwise`` logger; without ``on_message`` the ``stop``, ``block`` and
  ``warning`` lines are printed to stderr (as ``hookwise fire`` does), since many programs send
  logging elsewhere;
* ``tool_aliases``: framework tool name -> the name hooks see (``original_request_name`` keeps the
  native one);
* ``session_id``: the session id hooks see;
* ``seams="configured" | "all"``: which framework seams the adapter registers. ``"configured"`` (the
  default) registers a seam only when a hook is configured for an event it serves
  (:data:`RUN_EVENTS`, :data:`TOOL_EVENTS`, ...), so an adapter with no hook configured costs the
  framework nothing; each adapter says when it decides (docs/adapters.md "Cost"). ``"all"``
  registers every seam, so hooks added later (``register``, ``reload``) fire on their next call.

The framework modules translate their objects, fire through :meth:`HookBridge.fire` (sync seams) or
:meth:`HookBridge.afire` (async seams) and hand the :class:`~hookwise.result.FireResult` to the
verdict helpers of :mod:`hookwise.host.verdicts`, which the reference host uses too. Nothing here
imports a framework.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import sys
import weakref
from collections.abc import Awaitable, Callable, Collection, Generator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeVar, Union

from hookwise.events import HookEvent
from hookwise.host import verdicts
from hookwise.result import FireResult

if TYPE_CHECKING:
    from hookwise.engine import HookSystem

logger = logging.getLogger("hookwise")

MessageKind = Literal["stop", "block", "warning", "system"]
MESSAGE_KINDS: tuple[str, ...] = ("stop", "block", "warning", "system")
OnMessage = Callable[[str, str], None]
Approve = Callable[[str, dict[str, Any], str], bool]
AskPolicy = Union[Literal["deny", "native"], Approve]
SeamPolicy = Literal["configured", "all"]

#: events whose hooks need a run's state (the prompt, its context, the answer texts, a stop, tool
#: verdicts): a hook for any of them makes an adapter register the seam that starts a run
RUN_EVENTS: frozenset[HookEvent] = frozenset(
    {
        HookEvent.SESSION_START,
        HookEvent.BEFORE_AGENT,
        HookEvent.AFTER_AGENT,
        HookEvent.BEFORE_MODEL,
        HookEvent.BEFORE_TOOL_SELECTION,
        HookEvent.AFTER_MODEL,
        HookEvent.BEFORE_TOOL,
        HookEvent.AFTER_TOOL,
    }
)
#: the events :meth:`HookBridge.check_served` looks at (PreCompress: only ADK fires it, and ADK
#: chooses per run)
_CHECKED: tuple[HookEvent, ...] = (
    *sorted(RUN_EVENTS),
    HookEvent.NOTIFICATION,
    HookEvent.SESSION_END,
)
#: events served around each model call
MODEL_EVENTS: frozenset[HookEvent] = frozenset(
    {HookEvent.BEFORE_MODEL, HookEvent.BEFORE_TOOL_SELECTION, HookEvent.AFTER_MODEL}
)
#: events served around each tool call (BeforeToolSelection too: a call to a tool it removed is
#: refused there). Notification fires only when a BeforeTool hook asks, so it needs no seam of its
#: own.
TOOL_EVENTS: frozenset[HookEvent] = frozenset(
    {HookEvent.BEFORE_TOOL, HookEvent.AFTER_TOOL, HookEvent.BEFORE_TOOL_SELECTION}
)

#: returned by :meth:`HookBridge.confirm` when the framework's own approval flow must surface the
#: call
NATIVE = "native"

T = TypeVar("T")


@dataclass(frozen=True)
class Fire:
    """A step of an adapter's seam logic: "fire this event and send me the FireResult"."""

    event: HookEvent
    fields: dict[str, Any]
    seen: set[str] | None = None


#: seam logic written once for sync and async frameworks: a generator that yields :class:`Fire`
#: (answered with a FireResult) or any other operation (answered by the framework's ``call`` /
#: ``acall``).
Steps = Generator[Any, Any, T]

_LOG_LEVEL = {
    "stop": logging.WARNING,
    "block": logging.WARNING,
    "warning": logging.WARNING,
    "system": logging.INFO,
}


@dataclass
class TurnState:
    """What one run (one user prompt, with its AfterAgent retries) of a framework agent
    remembers."""

    prompt: str = ""
    context: str | None = None  # this prompt's BeforeAgent <hook_context> (never persisted)
    texts: list[str] = field(default_factory=list)  # answer texts, for AfterAgent prompt_response
    stop: str | None = None  # a hook stopped the run (reason)
    blocked: bool = False  # BeforeAgent blocked the prompt
    retries: int = 0
    stop_hook_active: bool = False
    tool_config: dict[str, Any] | None = None  # live SDK toolConfig from BeforeToolSelection
    verdicts: dict[str, verdicts.ToolVerdict] = field(
        default_factory=dict
    )  # BeforeTool verdicts by call id
    notified: set[str] = field(default_factory=set)  # call ids whose Notification was fired
    extra: dict[str, Any] = field(default_factory=dict)  # framework-specific per-run data


def build_hooks(
    hooks: HookSystem | str | os.PathLike[str], session_id: str | None = None
) -> HookSystem:
    """``hooks`` itself, or a :class:`HookSystem` for the project directory ``hooks``."""
    if isinstance(hooks, (str, os.PathLike)):
        from hookwise.engine import HookSystem

        system = HookSystem(hooks)
    elif callable(getattr(hooks, "fire", None)):
        system = hooks
    else:
        raise TypeError(
            f"hooks must be a HookSystem or a project directory, got {type(hooks).__name__}"
        )
    if session_id is not None:
        system.session_id = session_id
    return system


class HookBridge:
    """One adapter instance's hooks, reporting and options (see the module docstring)."""

    def __init__(
        self,
        hooks: HookSystem | str | os.PathLike[str],
        *,
        framework: str,
        ask: AskPolicy = "deny",
        on_message: OnMessage | None = None,
        tool_aliases: dict[str, str] | None = None,
        session_id: str | None = None,
        max_agent_retries: int = verdicts.DEFAULT_MAX_AGENT_RETRIES,
        seams: SeamPolicy = "configured",
    ) -> None:
        if seams not in ("configured", "all"):
            raise ValueError(f'seams must be "configured" or "all", got {seams!r}')
        if not (ask in ("deny", "native") or callable(ask)):
            raise ValueError(
                'ask must be "deny", "native" or a callable approve(tool_name, args, reason), '
                f"got {ask!r}"
            )
        if on_message is not None and not callable(on_message):
            raise TypeError("on_message must be a callable on_message(kind, text)")
        self.hooks = build_hooks(hooks, session_id)
        self.framework = framework
        self.ask: AskPolicy = ask
        self.on_message = on_message
        self.aliases: dict[str, str] = dict(tool_aliases or {})
        self._native = {v: k for k, v in self.aliases.items()}
        self.max_agent_retries = max_agent_retries
        self.seam_policy: SeamPolicy = seams
        self._has_hooks: Callable[[HookEvent, str | None], bool] | None = getattr(
            self.hooks, "has_hooks", None
        )
        self._untrusted_reported: set[str] = set()
        self._unsupported_reported: set[tuple[str, str]] = set()
        self._served: frozenset[HookEvent] | None = None  # set by choose_seams
        self._served_hint = ""
        self._unserved_reported: set[HookEvent] = set()
        self.session_started = False
        self._owner: weakref.ref[Any] | None = None
        self._finalizer: weakref.finalize[..., Any] | None = None
        for w in (
            getattr(self.hooks, "warnings", None) or ()
        ):  # settings problems, as `hookwise agent` shows them
            self.warn(w)

    # ---- reporting ---------------------------------------------------------------------------
    @property
    def session_id(self) -> str:
        return str(self.hooks.session_id)

    def message(self, kind: MessageKind, text: str) -> None:
        """Send one line to ``on_message`` (or, without one, a warning/stop/block line to stderr)
        and the ``hookwise`` logger (when logging is configured: unconfigured logging would print
        the line again)."""
        to_stderr = self.on_message is None and kind != "system"
        if not to_stderr or logger.hasHandlers():
            logger.log(_LOG_LEVEL[kind], "%s: %s", kind, text)
        if self.on_message is not None:
            self.on_message(kind, text)
        elif to_stderr:
            print(f"hookwise: {kind}: {text}", file=sys.stderr, flush=True)

    def warn(self, text: str) -> None:
        self.message("warning", text)

    def stopped(self, reason: str) -> None:
        self.message("stop", reason)

    def blocked(self, reason: str) -> None:
        self.message("block", reason)

    def report(self, result: FireResult, seen: set[str] | None = None) -> FireResult:
        """Report a firing's warnings and system message (as the reference host does); returns
        it."""
        # also when no hook matched: a firing carries the reports of ``async`` hooks that finished
        # since the last one
        for w in verdicts.warnings_to_show(
            result, self._untrusted_reported, seen
        ):  # untrusted: once per adapter
            self.warn(w)
        msg = verdicts.system_message_to_show(result)
        if msg is not None:
            self.message("system", msg)
        return result

    def unsupported(self, result: FireResult, fields: dict[str, str]) -> None:
        """Warn (once per adapter) about each field of ``fields`` ({name: why}) that a hook set."""
        if not result.output:
            return
        hso = result.hook_specific
        for name, why in fields.items():
            present = (
                name in hso
                if name not in ("continue", "decision")
                else (
                    result.stopped
                    if name == "continue"
                    else result.output.get("decision") is not None
                )
            )
            if present:
                self.warn_unsupported(result.event, name, why)

    def warn_unsupported(self, event: HookEvent, name: str, why: str) -> None:
        """Warn once per adapter that a hook's output field ``name`` cannot be honoured here."""
        if (event.value, name) not in self._unsupported_reported:
            self._unsupported_reported.add((event.value, name))
            self.warn(
                f"{event.value} hook output {name!r} is not supported by the {self.framework} "
                f"adapter ({why}); it was ignored"
            )

    # ---- firing ------------------------------------------------------------------------------
    def wants(self, event: HookEvent, value: str | None = None) -> bool:
        """Does any hook listen to ``event`` (for ``value``)? Lets adapters skip translating
        inputs."""
        has = self._has_hooks
        return True if has is None else bool(has(event, value))

    # ---- which seams to register ---------------------------------------------------------------
    def listens(self, events: Iterable[HookEvent]) -> bool:
        """Must a seam serving ``events`` be registered now? Always with ``seams="all"``; otherwise
        when a hook is configured for one of them (for any tool)."""
        return self.seam_policy == "all" or any(self.wants(e) for e in events)

    def seams(self, table: Mapping[str, Collection[HookEvent]]) -> frozenset[str]:
        """The seams of ``table`` ({seam: the events it serves}) to register now
        (:meth:`listens`)."""
        if self.seam_policy == "all":
            return frozenset(table)
        live = {
            e for e in frozenset().union(*table.values()) if self.wants(e)
        }  # each event asked once
        return frozenset(name for name, events in table.items() if not live.isdisjoint(events))

    def choose_seams(
        self,
        table: Mapping[str, Collection[HookEvent]],
        *,
        always: Collection[HookEvent] = (),
        hint: str = "",
    ) -> frozenset[str]:
        """:meth:`seams`, for an adapter that registers them once: remembers which events they serve
        (with ``always``, the events served without a seam) so :meth:`check_served` can name hooks
        added later for the others; ``hint`` says how to serve those."""
        seams = self.seams(table)
        served = set(always).union(*(table[s] for s in seams))
        if HookEvent.BEFORE_TOOL in served:  # Notification fires when a BeforeTool hook asks
            served.add(HookEvent.NOTIFICATION)
        self._served = frozenset(served)
        self._served_hint = hint
        return seams

    def check_served(self) -> None:
        """Warn once per event that has hooks now although none of the seams :meth:`choose_seams`
        registered serves it (the hooks were configured after the adapter chose its seams: they
        cannot fire)."""
        served = self._served
        if served is None or self.seam_policy == "all":
            return
        for event in _CHECKED:
            if event not in served and event not in self._unserved_reported and self.wants(event):
                self._unserved_reported.add(event)
                self.warn(
                    f"{event.value} hooks were configured after the {self.framework} adapter chose "
                    f"which of its seams to register, so they do not fire here; {self._served_hint}"
                )

    def fire(self, event: HookEvent, *, seen: set[str] | None = None, **fields: Any) -> FireResult:
        return self.report(self.hooks.fire(event, **fields), seen)

    async def afire(
        self, event: HookEvent, *, seen: set[str] | None = None, **fields: Any
    ) -> FireResult:
        return self.report(await self.hooks.fire_async(event, **fields), seen)

    def drive(self, steps: Steps[T], call: Callable[[Any], Any] | None = None) -> T:
        """Run seam logic on a sync seam: fires with :meth:`fire`, other operations with
        ``call``."""
        try:
            op = next(steps)
            while True:
                if isinstance(op, Fire):
                    res: Any = self.fire(op.event, seen=op.seen, **op.fields)
                else:
                    assert call is not None, f"no call for {op!r}"
                    res = call(op)
                op = steps.send(res)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]

    async def adrive(
        self, steps: Steps[T], acall: Callable[[Any], Awaitable[Any]] | None = None
    ) -> T:
        """Run seam logic on an async seam: fires with :meth:`afire`, other operations with
        ``acall``."""
        try:
            op = next(steps)
            while True:
                if isinstance(op, Fire):
                    res: Any = await self.afire(op.event, seen=op.seen, **op.fields)
                else:
                    assert acall is not None, f"no call for {op!r}"
                    res = await acall(op)
                op = steps.send(res)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]

    # ---- names -------------------------------------------------------------------------------
    def hook_name(self, native: str) -> str:
        """The tool name hooks see for a framework tool."""
        return self.aliases.get(native, native)

    def native_name(self, hook_name: str) -> str:
        """The framework tool for a name a hook used (tail calls, allowedFunctionNames)."""
        return self._native.get(hook_name, hook_name)

    def model_text(self, text: str, native: str) -> str:
        """``text`` as the model reads it about its call to ``native``: a hook wrote about the tool
        under the alias it sees (``tool_aliases``); the model called it by its own name."""
        alias = self.hook_name(native)
        return text.replace(alias, native) if alias != native and text else text

    def tool_fields(
        self, native: str, original: str | None = None, call_id: str | None = None
    ) -> dict[str, Any]:
        """``tool_name`` / ``original_request_name`` input fields for a framework tool, and the
        framework's call id as Claude Code's ``tool_use_id`` (the Claude-only channel: only
        Claude-dialect hooks see it)."""
        name = self.hook_name(native)
        orig = original if original is not None else (native if name != native else None)
        fields = {"tool_name": name, "original_request_name": orig}
        if call_id:
            fields["tool_use_id"] = call_id
        return fields

    # ---- lifecycle ---------------------------------------------------------------------------
    def end_with(self, owner: object) -> None:
        """End the hook session (SessionEnd, ``reason: "exit"``) when ``owner`` (the adapter object
        a user holds) is garbage-collected or the process exits without its ``close()``."""
        self._owner = weakref.ref(owner)

    def _end_unclosed(self) -> None:
        if self.session_started:
            try:
                self.end_session()
            except Exception as exc:  # at exit nothing may raise; say it instead
                print(f"hookwise: warning: SessionEnd failed: {exc}", file=sys.stderr)

    def session_start_fields(self, source: str = "startup") -> dict[str, Any]:
        self.session_started = True
        owner = self._owner() if self._owner is not None else None
        if owner is not None and (self._finalizer is None or not self._finalizer.alive):
            self._finalizer = weakref.finalize(owner, self._end_unclosed)
        return {"source": source}

    def session_start_steps(self, source: str = "startup") -> Steps[str | None]:
        """SessionStart, once per session (skipped when no hook listens): its ``<hook_context>``, or
        None."""
        if self.session_started:
            return None
        fields = self.session_start_fields(source)
        if not self.wants(HookEvent.SESSION_START):
            return None
        start = yield Fire(HookEvent.SESSION_START, fields)
        return start.hook_context  # type: ignore[no-any-return]

    def _ended(self) -> None:
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None

    def end_session(self, reason: str = "exit") -> None:
        """Fire SessionEnd (skipped when no hook listens)."""
        self._ended()
        self.check_served()
        if self.wants(HookEvent.SESSION_END):
            self.fire(HookEvent.SESSION_END, reason=reason)

    async def aend_session(self, reason: str = "exit") -> None:
        """:meth:`end_session` on an async seam."""
        self._ended()
        self.check_served()
        if self.wants(HookEvent.SESSION_END):
            await self.afire(HookEvent.SESSION_END, reason=reason)

    # ---- ask ---------------------------------------------------------------------------------
    def notification_fields(
        self, name: str, args: dict[str, Any], hook_text: str | None
    ) -> dict[str, Any]:
        """Notification input before an approval (docs/contract.md §11: fired before every
        confirmation)."""
        return {
            "notification_type": "ToolPermission",
            "message": f"Tool {name} requires confirmation"
            + (f": {hook_text}" if hook_text else ""),
            "details": {"type": "hook", "title": name, "tool_name": name, "tool_input": args},
        }

    def ask_mode(self) -> str:
        return self.ask if isinstance(self.ask, str) else "approve"

    def decide_after_notification(
        self, name: str, args: dict[str, Any], hook_text: str | None
    ) -> str | None:
        """``ask`` as a callable: call it. Returns the refusal text, or None when the call may
        run."""
        approve = self.ask
        assert callable(approve)
        try:
            ok = bool(approve(name, args, hook_text or ""))
        except Exception as exc:  # an approve callback that fails refuses (never an allow)
            self.warn(
                f"the approve callback raised {type(exc).__name__}: {exc}; the call was refused"
            )
            return verdicts.CANCELLED
        return None if ok else verdicts.CANCELLED

    def confirm_steps(
        self, name: str, args: dict[str, Any], hook_text: str | None, notify: bool = True
    ) -> Steps[str | None]:
        """A hook asked to confirm ``name``: the refusal text, None to run, or :data:`NATIVE` (the
        framework's own approval must surface the call). Fires Notification first unless
        ``ask="deny"`` (or ``notify`` is False: already fired for this call)."""
        if self.ask == "deny":
            return verdicts.ask_refused(self.native_name(name), hook_text)
        if notify:
            yield Fire(HookEvent.NOTIFICATION, self.notification_fields(name, args, hook_text))
        if self.ask == "native":
            return NATIVE
        return self.decide_after_notification(name, args, hook_text)

    def confirm(self, name: str, args: dict[str, Any], hook_text: str | None) -> str | None:
        """:meth:`confirm_steps` on a sync seam."""
        return self.drive(self.confirm_steps(name, args, hook_text))

    async def aconfirm(self, name: str, args: dict[str, Any], hook_text: str | None) -> str | None:
        """:meth:`confirm_steps` on an async seam."""
        return await self.adrive(self.confirm_steps(name, args, hook_text))

    # ---- verdicts with the run's state -----------------------------------------------------------
    def before_agent(self, turn: TurnState, result: FireResult) -> verdicts.PromptVerdict:
        v = verdicts.before_agent(result)
        if v.kind == "stop":
            turn.stop = v.reason
            self.stopped(v.reason)
        elif v.kind == "block":
            turn.blocked = True
            self.blocked(v.reason)
        else:
            turn.context = v.context
        return v

    def after_agent(self, turn: TurnState, result: FireResult) -> verdicts.AnswerVerdict:
        v = verdicts.after_agent(result, turn.retries, self.max_agent_retries, "max_agent_retries")
        if v.kind == "stop":
            turn.stop = v.reason
            self.stopped(v.reason)
        elif v.kind in ("retry", "capped"):
            self.blocked(v.reason)
            turn.retries += 1
            turn.stop_hook_active = True
            if v.kind == "capped":
                turn.stop = v.stop_message
                self.stopped(v.stop_message)
        return v

    def after_agent_fields(self, turn: TurnState) -> dict[str, Any]:
        return {
            "prompt": turn.prompt,
            "prompt_response": verdicts.answer_text(turn.texts),
            "stop_hook_active": turn.stop_hook_active,
        }

    def before_model(
        self, turn: TurnState, result: FireResult, request: dict[str, Any]
    ) -> verdicts.ModelVerdict:
        v = verdicts.before_model(result, request, self.warn)
        if v.kind == "stop":
            turn.stop = v.reason
            self.stopped(v.reason)
        elif v.blocked:
            self.blocked(v.reason)
        return v

    def tool_selection(self, turn: TurnState, result: FireResult) -> dict[str, Any] | None:
        cfg = verdicts.tool_selection(result, self.warn)
        turn.tool_config = cfg  # per model call, like the reference host's per-request toolConfig
        return cfg

    def after_model(
        self, turn: TurnState, result: FireResult, chunk: dict[str, Any]
    ) -> verdicts.ResponseVerdict:
        v = verdicts.after_model(result, chunk, self.warn)
        if v.kind == "stop":
            turn.stop = v.reason
            self.stopped(v.reason)
        elif v.kind == "deny":
            self.blocked(v.reason)
        return v

    def selection_allows(self, sdk_tool_config: dict[str, Any] | None, native: str) -> bool:
        """Does a BeforeToolSelection ``toolConfig`` allow the framework tool ``native`` (by its
        hook name or its own name)?"""
        from hookwise.host import llm_format as fmt

        if fmt.function_call_allowed(sdk_tool_config, self.hook_name(native)) is None:
            return True
        return (
            native != self.hook_name(native)
            and fmt.function_call_allowed(sdk_tool_config, native) is None
        )

    def refused_by_selection(self, turn: TurnState, native: str) -> str | None:
        """The refusal text for a call to a tool BeforeToolSelection removed (None: allowed)."""
        if turn.tool_config is None:  # no BeforeToolSelection answer for this model call
            return None
        from hookwise.host import llm_format as fmt

        if self.selection_allows(turn.tool_config, native):
            return None
        why = fmt.function_call_allowed(turn.tool_config, self.hook_name(native))
        return self.model_text(verdicts.tool_refused_by_selection(why or "not allowed"), native)

    def before_tool(
        self, turn: TurnState, result: FireResult, args: dict[str, Any], call_id: str | None = None
    ) -> verdicts.ToolVerdict:
        v = verdicts.before_tool(result, args, self.warn)
        native = self.native_name(str(result.input.get("tool_name") or ""))
        if v.message and native:
            v = dataclasses.replace(v, message=self.model_text(v.message, native))
        if v.kind == "stop":
            turn.stop = v.reason
            self.stopped(v.reason)
        if call_id is not None:
            turn.verdicts[call_id] = v
        return v

    def after_tool(self, turn: TurnState, result: FireResult) -> verdicts.ResultVerdict:
        v = verdicts.after_tool(result, self.warn)
        native = self.native_name(str(result.input.get("tool_name") or ""))
        if v.kind == "hide" and native:
            v = dataclasses.replace(v, reason=self.model_text(v.reason, native))
        if v.kind == "stop":
            turn.stop = v.reason
            self.stopped(v.reason)
        return v


_Closable = TypeVar("_Closable", bound="SessionLifecycle")


class SessionLifecycle:
    """``close()`` / ``aclose()`` / ``with`` for an adapter object that owns a :class:`HookBridge`
    as ``bridge``: each ends the hook session (SessionEnd, ``reason: "exit"``)."""

    bridge: HookBridge

    def close(self) -> None:
        """End the session: fire SessionEnd (``reason: "exit"``)."""
        self.bridge.end_session()

    async def aclose(self) -> None:
        """:meth:`close` for asyncio hosts."""
        await self.bridge.aend_session()

    def __enter__(self: _Closable) -> _Closable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
