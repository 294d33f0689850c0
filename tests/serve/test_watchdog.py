"""The request deadline watchdog: due actions run once, cancelled ones never, queues stay short."""

from __future__ import annotations

import threading
import time

from hookwise.serve.watchdog import Watchdog


def test_due_actions_run_once_and_cancelled_ones_never() -> None:
    dog = Watchdog()
    fired: list[str] = []
    done = threading.Event()
    slow = dog.arm(0.05, lambda: (fired.append("slow"), done.set()))
    quick = dog.arm(0.05, lambda: fired.append("quick"))
    assert dog.cancel(quick)
    assert done.wait(5)
    time.sleep(0.1)
    assert fired == ["slow"]
    assert not dog.cancel(slow)  # too late: it ran
    dog.stop()


def test_an_earlier_deadline_of_another_length_wakes_the_watchdog() -> None:
    dog = Watchdog()
    done = threading.Event()
    dog.arm(60.0, lambda: None)
    t0 = time.monotonic()
    dog.arm(0.05, done.set)
    assert done.wait(5) and time.monotonic() - t0 < 2
    dog.stop()


def test_requests_that_end_in_order_leave_no_queue_behind() -> None:
    dog = Watchdog()
    tickets = [dog.arm(30.0, lambda: None) for _ in range(1000)]
    for t in tickets:
        dog.cancel(t)
    assert sum(len(q) for q in dog._queues.values()) == 0
    dog.stop()
