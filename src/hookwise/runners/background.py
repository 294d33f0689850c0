"""Hooks that run in the background (``"async": true``, docs/claude.md "async, once, shell, onFailure").

The firing that starts such a hook does not wait for it. Each one runs on a
daemon thread of its own (its process still has its timeout); what it has to
report (its outcome when not ``ok``, an answer it could not apply) is kept as
warning lines until the host collects them: the next firing's warnings, or
:meth:`Background.wait` when the host closes.
"""

from __future__ import annotations

import _thread

from hookwise._records import TYPE_CHECKING
from hookwise.result import Outcome, asks_to_block, outcome_warning

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable

    from hookwise.events import HookEvent
    from hookwise.result import HookOutcome


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
    """The background hooks of one hook system: started, then collected."""

    def __init__(self) -> None:
        self._lock = _thread.allocate_lock()
        self._threads: list[threading.Thread] = []
        self._reports: list[str] = []
        #: a hook is running or has reports not collected yet (read without the lock: a cheap hint)
        self.pending = False

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
