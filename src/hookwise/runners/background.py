"""Hooks that run in the background (``"async": true``, docs/claude.md "async, once, shell, onFailure").

The firing that starts such a hook does not wait for it. Each one runs on a
daemon thread of its own (its process still has its timeout), as a firing of its
own that the call monitors see; what it has to report (its outcome when not
``ok``, an answer it could not apply) is kept as warning lines until the host
collects them: the next firing's warnings, or :meth:`Background.wait` when the
host closes. :class:`Background` is made by :class:`hookwise.HookSystem` with its
first ``async`` hook.
"""

from __future__ import annotations

import _thread

from hookwise._records import TYPE_CHECKING
from hookwise.core.plan import Plan
from hookwise.result import Outcome, asks_to_block, outcome_warning

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable
    from typing import Any

    from hookwise.core.registry import HookEntry
    from hookwise.events import HookEvent
    from hookwise.monitors import Monitors
    from hookwise.result import HookOutcome

    #: runs a plan as a firing: its outcomes and the call monitors' notes (``HookSystem._run``)
    RunPlan = Callable[
        [HookEvent, Plan, dict[str, Any]], tuple[list[HookOutcome], "list[str] | None"]
    ]
    #: notes the ``once`` hooks of a plan that succeeded (``HookSystem._ran``)
    NoteRan = Callable[[Plan, list[HookOutcome]], list[HookOutcome]]


def report_lines(o: HookOutcome, ev: HookEvent) -> list[str]:
    """What to report about a finished background hook: its answer cannot act any more, so what it says,
    asks for or fails at becomes warning lines (never dropped silently)."""
    lines = []
    w = outcome_warning(o)
    if w:
        lines.append(f"{w} (async)")
    out = o.output or {}
    if o.outcome is Outcome.BLOCKED or asks_to_block(out) or out.get("continue") is False:
        lines.append(
            f"async hook {o.name} ({ev.value}) asked to block or stop, which a hook running in the "
            "background cannot do: the firing had already gone ahead; its answer was ignored"
        )
    msg = out.get("systemMessage")
    if isinstance(msg, str) and msg.strip() and o.outcome is Outcome.OK:
        lines.append(f"async hook {o.name} ({ev.value}): {msg.strip()}")
    lines.extend(f"{n} ({ev.value}, async)" for n in o.notes)
    return lines


class Background:
    """The background hooks of one hook system: started, then collected.

    ``run`` runs a plan as a firing and ``ran`` notes its ``once`` hooks: the hook system's own, so an
    ``async`` hook is run, monitored and spent like any other (:meth:`start_async`).
    """

    def __init__(self, run: RunPlan, ran: NoteRan, watch: Monitors) -> None:
        self._run, self._ran, self._watch = run, ran, watch
        self._lock = _thread.allocate_lock()
        self._threads: list[threading.Thread] = []
        self._reports: list[str] = []
        #: a hook is running or has reports not collected yet (read without the lock: a cheap hint)
        self.pending = False

    def start_async(self, ev: HookEvent, inp: dict[str, Any], plan: Plan) -> Plan:
        """Start the ``async`` hooks of ``plan`` on threads of their own; the plan of the others."""
        now = []
        for e in plan.entries:
            if e.run_async:
                self.start(e.display_name, self._job(e, ev, inp))
            else:
                now.append(e)
        return Plan(tuple(now), plan.sequential)

    def _job(self, e: HookEntry, ev: HookEvent, inp: dict[str, Any]) -> Callable[[], list[str]]:
        """The job of an ``async`` hook, run in the caller's context (a host's current span stays its parent)."""
        import contextvars

        ctx = contextvars.copy_context()
        return lambda: ctx.run(self._run_hook, e, ev, inp)

    def _run_hook(self, entry: HookEntry, ev: HookEvent, inp: dict[str, Any]) -> list[str]:
        """Run one ``async`` hook to completion; the lines to report about it (its answer cannot act)."""
        plan = Plan((entry,), True)
        outcomes, notes = self._run(
            ev, plan, inp
        )  # a firing of its own for the call monitors (telemetry)
        (o,) = self._ran(plan, outcomes)
        watch = self._watch
        lines = (
            []
            if notes is None
            else [f"{n} (async)" for n in watch.after(ev, plan, inp, outcomes, notes)]
        )
        lines.extend(report_lines(o, ev))
        if watch.recording:
            lines.extend(watch.record_calls(ev, inp, [o], "async "))
        return lines

    def start(self, name: str, job: Callable[[], list[str]]) -> None:
        """Run ``job`` on a thread of its own; the lines it returns are reported later."""

        def work() -> None:
            try:
                lines = job()
            except Exception as exc:  # a bug here is a visible report, never a lost hook
                lines = [f"background hook {name} could not be run: {type(exc).__name__}: {exc}"]
            with self._lock:
                self._reports.extend(lines)
                self.pending = True

        import threading

        t = threading.Thread(target=work, name=f"hookwise-async-{name}"[:60], daemon=True)
        with self._lock:
            self._threads = [x for x in self._threads if x.is_alive()]
            self._threads.append(t)
            self.pending = True
        t.start()

    def collect(self) -> list[str]:
        """The reports of the background hooks that have finished since the last call."""
        with self._lock:
            out, self._reports = self._reports, []
            self.pending = any(t.is_alive() for t in self._threads)
        return out

    @property
    def running(self) -> int:
        with self._lock:
            return sum(1 for t in self._threads if t.is_alive())

    def wait(self, timeout: float | None = None) -> list[str]:
        """Wait for the running background hooks (each is bounded by its own timeout), then :meth:`collect`."""
        with self._lock:
            threads = list(self._threads)
        for t in threads:
            t.join(timeout)
        return self.collect()
