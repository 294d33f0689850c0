"""The hook system a host embeds: :class:`HookSystem`, the facade.

``fire()`` / ``fire_async()`` = plan (:mod:`hookwise.core.plan`, pure) → complete
and check the input (:func:`hookwise.events.build_input`, always) → run the plan
(:func:`hookwise.core.execute.run_plan`: one executor, one runner per hook kind
from :data:`hookwise.runners.KINDS`) → merge (:mod:`hookwise.core.merge`, pure)
→ :class:`~hookwise.result.FireResult`, with one ``hook_call`` trace record per
hook call (:mod:`hookwise.trace`). The facade holds the configuration and delegates:
monitors and the trace to :class:`hookwise.monitors.Monitors`, OpenTelemetry's on/off to
:class:`hookwise.otel_switch.TelemetrySwitch`, trust to :mod:`hookwise.trust`, ``async`` hooks
(started, run and reported) to :class:`hookwise.runners.background.Background`, registration from
code to :mod:`hookwise.registration`, the warnings of outcomes to
:func:`hookwise.result.outcome_warnings`; what runners read from it (the environment, hook
variables, the persistent pool) comes from :class:`hookwise.runners.base.HostServices`. It never
looks at a hook's kind.
"""

from __future__ import annotations

import _thread
import os
from time import time_ns as _time_ns

from hookwise._records import TYPE_CHECKING
from hookwise.core.execute import run_plan, run_plan_async
from hookwise.core.merge import merge
from hookwise.core.plan import Plan, Planner, narrows, once_key
from hookwise.core.registry import DEFAULT_TIMEOUT_MS, HookEntry, Registry
from hookwise.events import (
    EVENT_SPECS,
    HookEvent,
    assemble_input,
    build_input,
    check_input,
    iso_ms,
    parse_event,
)
from hookwise.input_errors import PayloadError
from hookwise.monitors import Monitors
from hookwise.otel_switch import TelemetrySwitch
from hookwise.result import FireResult, HookOutcome, Outcome, outcome_warnings, unanswered
from hookwise.runners import RUNNERS, Runner
from hookwise.runners._process import DEFAULT_CAP
from hookwise.runners.base import Firing, HostServices
from hookwise.settings.layers import user_dir
from hookwise.settings.load import LoadedSettings, load_settings

if (
    TYPE_CHECKING
):  # typing and collections are not imported when firing; these are for annotations only
    from collections.abc import Callable, Iterable, Mapping, Sequence
    from typing import Any

    from hookwise.monitors import AfterMonitor, BeforeMonitor, Monitor
    from hookwise.registration import PythonHook
    from hookwise.runners.background import Background
    from hookwise.telemetry.observer import HookTelemetry
    from hookwise.trust import TrustStore

_EVENTS: dict[str, HookEvent] = {e.value: e for e in HookEvent}
_MATCH_FIELD: dict[HookEvent, str | None] = {e: s.match_field for e, s in EVENT_SPECS.items()}
_OK = Outcome.OK


def _uuid4() -> str:
    """A random (version 4) UUID string, without importing :mod:`uuid`."""
    b = bytearray(os.urandom(16))
    b[6] = (b[6] & 0x0F) | 0x40
    b[8] = (b[8] & 0x3F) | 0x80
    h = b.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


_TRUST_LOCK = _thread.allocate_lock()  # creating a HookSystem's trust store


class HookSystem(HostServices):
    """Every configured hook of a project, ready to fire.

    :param project_dir: the project (default: the current directory). Hooks run
        there, ``$GEMINI_PROJECT_DIR`` is it, and ``<project>/.gemini/settings.json``
        is the project settings layer.
    :param trace: a file to append one JSON line per hook call to (docs/contract.md §10).
    :param trust_all: trust every project/extension hook; ``None`` reads
        ``HOOKWISE_TRUST_ALL=1`` from the environment.
    :param env: the environment used to find the settings layers and given to
        hooks (default ``os.environ`` at construction).
    :param claude_settings: also load hooks from ``.claude/`` settings (``None``:
        as ``hooksConfig.claudeSettings`` says).
    :param cwd: the ``cwd`` field of inputs (default: the project dir).
    :param plugin_dirs: Claude Code plugin directories whose hooks to load (docs/sources.md).
    :param profile: a product profile (``gemini``, ``tabnine``, ``terminai``); ``None`` detects it.
    :param adjust_entries: given the loaded settings, returns the hook entries to use instead of
        ``settings.entries`` (the agent bridge leaves out the hooks the agent runs itself;
        docs/agents.md).
    """

    def __init__(
        self,
        project_dir: str | os.PathLike[str] | None = None,
        *,
        trace: str | os.PathLike[str] | None = None,
        trust_all: bool | None = None,
        session_id: str | None = None,
        transcript_path: str = "",
        env: Mapping[str, str] | None = None,
        claude_settings: bool | None = None,
        cwd: str | os.PathLike[str] | None = None,
        output_cap: int = DEFAULT_CAP,
        plugin_dirs: Sequence[str | os.PathLike[str]] = (),
        profile: str | None = None,
        adjust_entries: Callable[[LoadedSettings], list[HookEntry]] | None = None,
    ) -> None:
        self.project_dir = os.path.abspath(
            os.fspath(project_dir) if project_dir is not None else os.getcwd()
        )
        self.cwd = os.path.abspath(os.fspath(cwd)) if cwd is not None else self.project_dir
        self.env: dict[str, str] = dict(os.environ if env is None else env)
        self.session_id = session_id or _uuid4()
        self.transcript_path = transcript_path
        self.trust_all = (
            (self.env.get("HOOKWISE_TRUST_ALL") == "1") if trust_all is None else trust_all
        )
        self.output_cap = output_cap
        self._claude_settings = claude_settings
        self._plugin_dirs = [os.fspath(d) for d in plugin_dirs]
        self._profile = profile
        self._adjust_entries = adjust_entries
        self._runtime: list[HookEntry] = []
        self._spent: set[tuple[str, str, str | None, str, str]] = (
            set()
        )  # ``once`` hooks that ran (once_key)
        #: ``async`` hooks still running or not yet reported (made with the first one)
        self._background: Background | None = None
        self._watch = Monitors()
        if trace is not None:
            from hookwise.trace import TraceWriter

            self._watch.trace = TraceWriter(os.fspath(trace))
        self._telemetry = TelemetrySwitch(self._watch)
        #: hook ``type`` -> runner (:data:`hookwise.runners.KINDS`); replace entries to run hooks
        #: differently
        self.runners: dict[str, Runner] = dict(RUNNERS)
        self._user_dir = user_dir(self.env)
        self._trust_store: TrustStore | None = None  # created when a hook first needs trust
        self.settings: LoadedSettings
        self.warnings: list[str] = []
        self.reload()

    # ---- configuration ---------------------------------------------------------------------
    def reload(self) -> None:
        """Re-read every settings layer (runtime hooks are kept; persistent hooks restart when next
        fired)."""
        self.close()
        loaded = load_settings(
            self.project_dir, self.env, self._claude_settings, self._plugin_dirs, self._profile
        )
        if self._adjust_entries is not None:
            loaded.entries = self._adjust_entries(loaded)
        self.settings = loaded
        self.warnings = list(loaded.warnings)
        self._registry = Registry([*self._runtime, *loaded.entries])
        self._planner = Planner(self._registry.for_event)
        self._plans = self._planner.cache  # fire() looks its plan up here first
        self._sanitized: dict[str, str] | None = None  # computed when a hook first needs it
        self.warnings.extend(
            self._telemetry.configure(loaded.telemetry, self.env, self.project_dir, self)
        )

    @property
    def telemetry(self) -> HookTelemetry | None:
        """The OpenTelemetry observer of this system's firings (``None`` when telemetry is off)."""
        return self._telemetry.observer

    @telemetry.setter
    def telemetry(self, observer: HookTelemetry | None) -> None:
        self._telemetry.set_by_host(observer, self)

    @property
    def entries(self) -> list[HookEntry]:
        """Every configured hook, disabled ones included, runtime hooks first."""
        return list(self._registry.all)

    def register(
        self,
        event: str | HookEvent,
        func: PythonHook,
        *,
        name: str,
        matcher: str | None = None,
        timeout_ms: int = DEFAULT_TIMEOUT_MS,
        sequential: bool = False,
        inline: bool = False,
    ) -> HookEntry:
        """Register an in-process Python hook (source ``runtime``). Returns its entry (for
        :meth:`unregister`).

        ``func(input)`` gets the same input dict a command hook reads on stdin and
        returns the same answer as a dict, or None for no opinion; it may be a
        coroutine function. An exception makes the outcome ``failed`` (``SystemExit``
        and ``KeyboardInterrupt`` too: a hook cannot end the host). Every function
        runs on a worker thread with its own loop: at the timeout the firing goes on
        with outcome ``timeout``, even if the hook blocks (docs/hook-types.md).

        ``inline=True`` (a plain function of the host's own, trusted code; no settings file can ask
        for it) calls ``func`` on the firing's thread instead, without the worker's hand-off: a few
        microseconds instead of tens, but a call that overruns its timeout cannot be abandoned. The
        firing waits for it, then discards its answer (outcome ``timeout``, with a warning).
        docs/hook-types.md "inline".
        """
        from hookwise.registration import python_hook

        entry = python_hook(
            event,
            func,
            name=name,
            matcher=matcher,
            timeout_ms=timeout_ms,
            sequential=sequential,
            inline=inline,
        )
        self._runtime.append(entry)
        self._registry.add(entry)
        self._planner.invalidate()
        return entry

    def hook(
        self,
        event: str | HookEvent,
        *,
        name: str | None = None,
        matcher: str | None = None,
        timeout_ms: int = DEFAULT_TIMEOUT_MS,
        sequential: bool = False,
        inline: bool = False,
    ) -> Callable[[PythonHook], PythonHook]:
        """Decorator form of :meth:`register` (the name defaults to the function's name)."""
        from hookwise.registration import decorator

        return decorator(
            self.register,
            event,
            name=name,
            matcher=matcher,
            timeout_ms=timeout_ms,
            sequential=sequential,
            inline=inline,
        )

    def unregister(self, entry: HookEntry) -> None:
        self._runtime = [e for e in self._runtime if e is not entry]
        self._registry.remove(entry)
        self._planner.invalidate()

    # ---- trust -----------------------------------------------------------------------------
    @property
    def trust_store(self) -> TrustStore:
        """The user's trust store (``trusted_hooks.json``); user and system hooks never need it."""
        store = self._trust_store
        if store is None:
            from hookwise.trust import TrustStore

            with _TRUST_LOCK:
                store = self._trust_store
                if store is None:
                    store = self._trust_store = TrustStore(self._user_dir, self.project_dir)
        return store

    @trust_store.setter
    def trust_store(self, store: TrustStore) -> None:
        self._trust_store = store

    def is_trusted(self, entry: HookEntry) -> bool:
        return self.trust_all or not entry.needs_trust or self.trust_store.is_trusted(entry)

    def untrusted(self) -> list[HookEntry]:
        """Enabled project/extension hooks that would be skipped (de-duplicated by identity)."""
        # relayed: the Claude events the agent bridge passes on under their own name
        # (docs/agents.md)
        return self.trust_store.untrusted([*self._registry.all, *self.settings.relayed])

    def trust(self, entries: Iterable[HookEntry]) -> list[HookEntry]:
        """Record ``entries`` as trusted; returns the ones that were not trusted before."""
        return self.trust_store.trust(entries)

    def has_hooks(self, event: str | HookEvent, value: str | None = None) -> bool:
        """Would firing ``event`` (with ``value`` for its matcher field) run any hook? Cheap (plan
        cache); hosts use it to skip building an expensive input when nothing listens."""
        ev = _EVENTS.get(event) if isinstance(event, str) else event  # type: ignore[call-overload]
        if ev is None:
            ev = parse_event(event)
        return bool(self._planner.plan(ev, value))

    def planned(self, event: str | HookEvent, value: str | None = None) -> tuple[HookEntry, ...]:
        """The hooks a firing of ``event`` would consider (before ``if``/``once``/``async``), in
        plan order."""
        ev = _EVENTS.get(event) if isinstance(event, str) else event  # type: ignore[call-overload]
        if ev is None:
            ev = parse_event(event)
        return self._planner.plan(ev, value).entries

    # ---- monitoring ------------------------------------------------------------------------
    def add_monitor(
        self,
        callback: Monitor | None = None,
        *,
        before: BeforeMonitor | None = None,
        after: AfterMonitor | None = None,
    ) -> Callable[[], None]:
        """Observe firings; returns a function that undoes this call.

        ``callback(record)`` gets every trace record (``hook_call`` per hook call,
        and whatever the host records). ``before(event, entries, input)`` is called
        when a firing that matched hooks starts running them, ``after(event,
        entries, input, outcomes)`` when they are done (``outcomes[i]`` is
        ``entries[i]``'s; empty when running them raised). A monitor that raises becomes a warning
        of the firing; it never changes the verdict.
        """
        return self._watch.add(callback, before, after)

    def trace_record(self, record: dict[str, Any]) -> None:
        """Append a record (``hook_call``, ``tool_call``, ``model_call``…) to the trace and the
        monitors."""
        self._watch.record(record)

    # ---- firing ----------------------------------------------------------------------------
    def _plan(
        self, event: str | HookEvent, payload: Mapping[str, Any] | None, fields: dict[str, Any]
    ) -> tuple[HookEvent, dict[str, Any], Plan]:
        """The event, the given fields (as a dict of this firing's own) and the plan; nothing
        checked yet."""
        try:  # a HookEvent is a str: found by its value too
            ev = _EVENTS[event]  # type: ignore[index]
        except (KeyError, TypeError):
            ev = parse_event(event)
        data = fields if payload is None else _given(payload, fields)
        mf = _MATCH_FIELD[ev]
        value = data.get(mf) if mf is not None else None
        if value is not None and value.__class__ is not str and not isinstance(value, str):
            value = None
        return ev, data, self._planner.plan(ev, value)

    def _unmatched(self, ev: HookEvent, data: dict[str, Any]) -> FireResult:
        """The result of a firing no hook matched: the input checked (docs/contract.md §5),
        assembled only when the host reads it; reports of finished background hooks included."""
        check_input(ev, data)
        bg = self._background
        late = bg.collect() if bg is not None and bg.pending else None
        parts = (ev, data, self.session_id, self.transcript_path, self.cwd, _time_ns())
        return unanswered(ev, parts, late or None)

    def build_input(self, event: HookEvent, data: Mapping[str, Any]) -> dict[str, Any]:
        """The full input of a firing: base fields filled in, ``None`` values dropped, types
        checked."""
        return build_input(
            event,
            data,
            session_id=self.session_id,
            transcript_path=self.transcript_path,
            cwd=self.cwd,
        )

    def fire(
        self, event: str | HookEvent, payload: Mapping[str, Any] | None = None, /, **fields: Any
    ) -> FireResult:
        """Fire ``event`` with ``payload``/``fields`` as its input; block until every hook has
        answered."""
        # _plan and _unmatched, written out: a firing that matches nothing costs a few function
        # calls in all (docs/performance.md, "Fast paths"); fire_async calls them
        try:  # a HookEvent is a str: found by its value too
            ev = _EVENTS[event]  # type: ignore[index]
        except (KeyError, TypeError):
            ev = parse_event(event)
        data = fields if payload is None else _given(payload, fields)
        mf = _MATCH_FIELD[ev]
        value = data.get(mf) if mf is not None else None
        if value is not None and value.__class__ is not str and not isinstance(value, str):
            value = None
        plan = self._plans.get((ev, value))
        if plan is None:
            plan = self._planner.plan(ev, value)
        if (
            not plan.entries
        ):  # no hook matched: the input checked all the same (docs/contract.md §5)
            check_input(ev, data)
            bg = self._background
            late = bg.collect() if bg is not None and bg.pending else None
            parts = (ev, data, self.session_id, self.transcript_path, self.cwd, _time_ns())
            return unanswered(ev, parts, late or None)
        check_input(ev, data)  # build_input, written out
        inp = assemble_input(
            ev, data, self.session_id, self.transcript_path, self.cwd, iso_ms(_time_ns())
        )
        if not self._watch.calls and not narrows(plan):
            # no call monitors, no `if`, `once` or `async` hook: _to_run, _run and _finish have
            # nothing to do
            return self._result(ev, inp, run_plan(Firing(ev, self), plan, inp, self.runners))
        return self._planned(ev, inp, plan)

    def _planned(self, ev: HookEvent, inp: dict[str, Any], plan: Plan) -> FireResult:
        """The result of a firing that matched ``plan``, with ``if``/``once``/``async`` hooks or
        call monitors."""
        todo = self._to_run(ev, inp, plan)
        if isinstance(todo, FireResult):
            return todo
        plan, extra = todo
        outcomes, notes = self._run(ev, plan, inp)
        return self._finish(ev, inp, plan, outcomes, extra, notes)

    def _run(
        self, ev: HookEvent, plan: Plan, inp: dict[str, Any]
    ) -> tuple[list[HookOutcome], list[str] | None]:
        """Run ``plan``; with call monitors, their ``before`` first (its notes come back, for
        ``after``) and, when running raises, their ``after`` without outcomes. ``None`` for the
        notes: there are no call monitors."""
        if not self._watch.calls:
            return run_plan(Firing(ev, self), plan, inp, self.runners), None
        notes = self._watch.before(ev, plan, inp)
        try:
            return run_plan(Firing(ev, self), plan, inp, self.runners), notes
        except BaseException:
            self._watch.after(
                ev, plan, inp, [], notes
            )  # monitors see the firing end, without outcomes
            raise

    async def fire_async(
        self, event: str | HookEvent, payload: Mapping[str, Any] | None = None, /, **fields: Any
    ) -> FireResult:
        """Like :meth:`fire`, for asyncio hosts: processes are driven in a worker thread."""
        ev, data, plan = self._plan(event, payload, fields)
        if not plan:
            return self._unmatched(ev, data)
        inp = self.build_input(ev, data)
        todo = self._to_run(ev, inp, plan)
        if isinstance(todo, FireResult):
            return todo
        plan, extra = todo
        notes = self._watch.before(ev, plan, inp)
        try:
            outcomes = await run_plan_async(Firing(ev, self), plan, inp, self.runners)
        except BaseException:
            self._watch.after(
                ev, plan, inp, [], notes
            )  # monitors see the firing end, without outcomes
            raise
        return self._finish(ev, inp, plan, outcomes, extra, notes)

    def _to_run(
        self, ev: HookEvent, inp: dict[str, Any], plan: Plan
    ) -> tuple[Plan, list[HookOutcome]] | FireResult:
        """The hooks of a matched plan to run now and the visibly skipped ones (:meth:`_narrow`), or
        the firing's result when none is left to run."""
        if not narrows(plan):
            return plan, []
        plan, extra = self._narrow(ev, inp, plan)
        if not plan:
            return self._result(ev, inp, extra) if extra else self._quiet(ev, inp)
        return plan, extra

    def _finish(
        self,
        ev: HookEvent,
        inp: dict[str, Any],
        plan: Plan,
        outcomes: list[HookOutcome],
        extra: list[HookOutcome],
        notes: list[str] | None = None,
    ) -> FireResult:
        """A firing's result once its plan ran: ``once`` hooks noted, the call monitors' ``after``
        run (when ``notes`` holds what their ``before`` said), the outcomes merged."""
        self._ran(plan, outcomes)
        if notes is not None:
            notes = self._watch.after(ev, plan, inp, outcomes, notes)
        return self._result(ev, inp, outcomes + extra, notes or ())

    # ---- if / once / async (docs/claude.md "The `if` filter", "async, once, shell, onFailure") ---
    def _quiet(self, ev: HookEvent, inp: dict[str, Any]) -> FireResult:
        """The result of a firing that ran no hook (reports of finished background hooks
        included)."""
        bg = self._background
        late = bg.collect() if bg is not None and bg.pending else []
        return FireResult(ev, inp, warnings=late) if late else FireResult(ev, inp)

    def _narrow(
        self, ev: HookEvent, inp: dict[str, Any], plan: Plan
    ) -> tuple[Plan, list[HookOutcome]]:
        """The hooks of ``plan`` to run now and the ones skipped visibly
        (:func:`hookwise.narrowing.narrow`)."""
        from hookwise.narrowing import narrow

        return narrow(
            ev,
            inp,
            plan,
            project_dir=self.project_dir,
            env=self.env,
            spent=self._spent,
            background=self._background_hooks,
        )

    def _background_hooks(self) -> Background:
        """This system's ``async`` hooks (:class:`hookwise.runners.background.Background`, made on
        first use)."""
        if self._background is None:
            from hookwise.runners.background import Background

            self._background = Background(self._run, self._ran, self._watch)
        return self._background

    def _ran(self, plan: Plan, outcomes: list[HookOutcome]) -> list[HookOutcome]:
        """Note the ``once`` hooks that succeeded (they do not run again in this session)."""
        # one outcome per entry (run_plan checks it); zip(strict=True) would cost more than the
        # whole loop
        for e, o in zip(plan.entries, outcomes):  # noqa: B905
            if e.once and o.outcome is Outcome.OK:
                self._spent.add(once_key(e))
        return outcomes

    @property
    def background_running(self) -> int:
        """How many ``async`` hooks are still running in the background."""
        return self._background.running if self._background is not None else 0

    def wait_background(self, timeout: float | None = None) -> list[str]:
        """Wait for the ``async`` hooks still running; the reports of every finished one not
        reported yet."""
        return self._background.wait(timeout) if self._background is not None else []

    def run_entry(
        self, entry: HookEntry, payload: Mapping[str, Any] | None = None, /, **fields: Any
    ) -> HookOutcome:
        """Run one configured hook on an input, outside planning (for diagnostics and tests).

        The input is completed like a firing's; trust still applies (an untrusted
        project hook comes back ``skipped``). The hook's own answer is returned as
        its :class:`HookOutcome`; nothing is merged.
        """
        inp = self.build_input(entry.event, {**(payload or {}), **fields})
        (outcome,) = run_plan(Firing(entry.event, self), Plan((entry,), True), inp, self.runners)
        return outcome

    def close(self) -> None:
        """Wait for ``async`` hooks still running, stop persistent hooks' processes, close http
        hooks' kept-alive connections (idempotent; the hook system stays usable and starts what it
        needs again).

        Reports of background hooks that nobody collected are added to :attr:`warnings`.
        """
        background = getattr(self, "_background", None)
        if background is not None and background.running:
            self.warnings.extend(background.wait())
        self.release_runners(getattr(self, "runners", {}))

    def __enter__(self) -> HookSystem:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def after_model_per_response(self) -> bool:
        """``hooksConfig.afterModel: "response"``: hosts fire AfterModel once per complete
        response."""
        return self.settings.hooks_config.get("afterModel") == "response"

    # ---- audit mode and decision records (hookwise.decisions, docs/fleet.md) ---------------------
    #: audit mode whatever the settings say (``hookwise serve --audit``)
    audit_forced: bool = False
    _policy: tuple[LoadedSettings, str] | None = None

    @property
    def audit(self) -> bool:
        """Hooks run and are recorded, nothing is enforced: ``hooksConfig.mode: "audit"`` (user and
        system settings only) or :attr:`audit_forced`."""
        return self.audit_forced or self.settings.hooks_config.get("mode") == "audit"

    @property
    def policy_version(self) -> str:
        """A short hash of the settings files the hooks were loaded from (decision records carry
        it)."""
        loaded = self.settings
        cached = self._policy
        if cached is None or cached[0] is not loaded:
            from hookwise.decisions import policy_version

            cached = self._policy = (loaded, policy_version(loaded.layers))
        return cached[1]

    def decision_context(self) -> dict[str, Any]:
        """What a decision record says about this system: project, policy version, audit mode."""
        return {
            "project": self.project_dir,
            "policy_version": self.policy_version,
            "audit": self.audit,
        }

    # ---- result ----------------------------------------------------------------------------
    def _result(
        self,
        ev: HookEvent,
        inp: dict[str, Any],
        outcomes: list[HookOutcome],
        notes: Sequence[str] = (),
    ) -> FireResult:
        outputs = []
        clean = True  # every outcome ok, without notes or a cut-off output: no warnings to make
        for o in outcomes:
            out = o.output
            if out:
                outputs.append(out)
            if o.outcome is not _OK or o.notes or o.truncated:
                clean = False
        merged = merge(ev, outputs, inp)
        warnings = [] if clean else outcome_warnings(ev, outcomes, self.output_cap)
        if notes:
            warnings.extend(notes)
        bg = self._background
        if bg is not None and bg.pending:
            warnings.extend(bg.collect())
        result = FireResult(ev, inp, merged, outcomes, warnings)
        if self.audit:
            from hookwise.decisions import audited

            result = audited(result)
        if self._watch.recording:
            result.warnings.extend(self._watch.record_calls(ev, inp, outcomes))
        return result


def _given(payload: Mapping[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """A firing's payload and fields as a dict of its own (fields win)."""
    if isinstance(payload, dict) or _is_mapping(payload):
        return {**payload, **fields} if fields else dict(payload)
    raise PayloadError(f"the event input must be a JSON object, got {type(payload).__name__}")


def _is_mapping(value: object) -> bool:
    from collections.abc import Mapping  # loaded only for an input that is not a dict

    return isinstance(value, Mapping)
