"""Request deadlines for ``hookwise serve`` without handing each firing to another thread.

A firing runs on its request's own thread (a hand-off to a pool costs more than the firing of a
python hook). :meth:`Watchdog.arm` registers a deadline; if the firing has not finished by then,
the watchdog thread calls the given function (which sends the request's timeout answer), and the
firing's own answer is dropped when it comes. Deadlines of one length are kept in one FIFO queue,
so arming and cancelling are O(1) and the watchdog sleeps until the earliest head.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable


class Ticket:
    """One armed deadline."""

    __slots__ = ("deadline", "action", "done", "queue")

    def __init__(self, deadline: float, action: Callable[[], None], queue: deque[Ticket]) -> None:
        self.deadline = deadline
        self.action = action
        self.done = False
        self.queue = queue


class Watchdog:
    """One thread that runs each armed action whose deadline passed before it was cancelled."""

    def __init__(self) -> None:
        self._queues: dict[float, deque[Ticket]] = {}
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopped = False
        #: when the watchdog thread wakes next (inf: not until notified)
        self._wake_at = float("inf")

    def arm(self, delay: float, action: Callable[[], None]) -> Ticket:
        with self._cond:
            q = self._queues.get(delay)
            if q is None:
                q = self._queues[delay] = deque()
            ticket = Ticket(time.monotonic() + delay, action, q)
            q.append(ticket)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="hookwise-serve-watchdog", daemon=True
                )
                self._thread.start()
            elif ticket.deadline < self._wake_at:
                # only when it would sleep past this deadline: waking it on every request costs more
                # than the firing of a python hook
                self._cond.notify()
        return ticket

    def cancel(self, ticket: Ticket) -> bool:
        """Cancel ``ticket``; False when its action already ran (or is running)."""
        with self._cond:
            if ticket.done:
                return False
            ticket.done = True
            q = ticket.queue
            while q and q[0].done:  # requests mostly end in order: the queue stays short
                q.popleft()
            return True

    def _due(self) -> tuple[list[Ticket], float | None]:
        """Pop the tickets whose deadline passed; how long to sleep until the next (None: none
        armed)."""
        now = time.monotonic()
        due: list[Ticket] = []
        wake: float | None = None
        for q in self._queues.values():
            while q and (q[0].done or q[0].deadline <= now):
                t = q.popleft()
                if not t.done:
                    t.done = True
                    due.append(t)
            if q and (wake is None or q[0].deadline < wake):
                wake = q[0].deadline
        return due, None if wake is None else max(0.0, wake - now)

    def _run(self) -> None:
        while True:
            with self._cond:
                if self._stopped:
                    return
                due, sleep = self._due()
                if not due:
                    self._wake_at = float("inf") if sleep is None else time.monotonic() + sleep
                    self._cond.wait(sleep)
                    continue
            for t in due:
                try:
                    t.action()
                except Exception:  # a broken connection: the request is gone anyway
                    pass

    def stop(self) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify()
