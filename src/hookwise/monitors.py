"""Who watches a hook system's firings: the ``--trace`` file, record monitors and call monitors.

:class:`Monitors` is held by :class:`hookwise.HookSystem` (``add_monitor``, ``trace_record``):
record monitors get every trace record (``hook_call`` per hook call, and what the host records);
call monitors get ``before(event, entries, input)`` when a firing that matched hooks starts running
them and ``after(event, entries, input, outcomes)`` when they are done. A monitor or a trace file
that fails becomes a warning line of the firing; it never changes the verdict.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from hookwise.core.plan import Plan
    from hookwise.core.registry import HookEntry
    from hookwise.events import HookEvent
    from hookwise.result import HookOutcome
    from hookwise.trace import TraceWriter

    #: gets every trace record (``hook_call``, ``tool_call``, ``model_call``...)
    Monitor = Callable[[dict[str, Any]], None]
    #: ``before(event, entries, input)``: a firing with hooks is about to run them
    BeforeMonitor = Callable[[HookEvent, Sequence[HookEntry], dict[str, Any]], None]
    #: ``after(event, entries, input, outcomes)``: they ran; ``outcomes[i]`` belongs to
    #: ``entries[i]``
    AfterMonitor = Callable[
        [HookEvent, Sequence[HookEntry], dict[str, Any], Sequence[HookOutcome]], None
    ]


class Monitors:
    """The trace file and the monitors of one hook system."""

    def __init__(self, trace: TraceWriter | None = None) -> None:
        self.trace = trace
        self.records: list[Monitor] = []
        self.calls: list[tuple[BeforeMonitor | None, AfterMonitor | None]] = []

    @property
    def recording(self) -> bool:
        """Something wants a record of every hook call (a trace file or a record monitor)."""
        return self.trace is not None or bool(self.records)

    def add(
        self,
        callback: Monitor | None = None,
        before: BeforeMonitor | None = None,
        after: AfterMonitor | None = None,
    ) -> Callable[[], None]:
        """Add a record monitor and/or a call monitor; returns a function that removes them."""
        pair = (before, after) if before is not None or after is not None else None
        if callback is not None:
            self.records.append(callback)
        if pair is not None:
            self.calls.append(pair)

        def remove() -> None:
            if callback is not None and callback in self.records:
                self.records.remove(callback)
            if pair is not None and pair in self.calls:
                self.calls.remove(pair)

        return remove

    def record(self, record: dict[str, Any]) -> None:
        """Append ``record`` to the trace and hand it to every record monitor."""
        if self.trace is not None:
            self.trace.write(record)
        for m in list(self.records):
            m(record)

    def record_calls(
        self, ev: HookEvent, inp: dict[str, Any], outcomes: Sequence[HookOutcome], what: str = ""
    ) -> list[str]:
        """One ``hook_call`` record per outcome; the warning when recording fails (then it
        stops)."""
        from hookwise.trace import hook_call_record

        for o in outcomes:
            try:
                self.record(hook_call_record(inp, o))
            except Exception as exc:  # the verdict must survive a broken trace file or monitor
                return [
                    f"could not record {what}hook {o.name} ({ev.value}) in the trace: "
                    f"{type(exc).__name__}: {exc}"
                ]
        return []

    def before(self, ev: HookEvent, plan: Plan, inp: dict[str, Any]) -> list[str]:
        """Call every ``before``; the notes of those that raised."""
        notes = []
        for before, _ in list(self.calls):
            if before is not None:
                try:
                    before(ev, plan.entries, inp)
                except Exception as exc:  # the verdict must survive a broken monitor
                    notes.append(f"a monitor failed before {ev.value}: {type(exc).__name__}: {exc}")
        return notes

    def after(
        self,
        ev: HookEvent,
        plan: Plan,
        inp: dict[str, Any],
        outcomes: list[HookOutcome],
        notes: list[str],
    ) -> list[str]:
        """Call every ``after``; ``notes`` with those of the ones that raised added."""
        for _, after in list(self.calls):
            if after is not None:
                try:
                    after(ev, plan.entries, inp, outcomes)
                except Exception as exc:
                    notes.append(f"a monitor failed after {ev.value}: {type(exc).__name__}: {exc}")
        return notes
