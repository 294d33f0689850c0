"""The hand-off of a Python hook to its worker thread (``hookwise.runners._workers``).

The hand-off has no lock besides the worker's two (``go``, ``done``): giving up at the deadline is a
flag the worker reads. These tests drive the races that design has to get right with real threads:
answers that arrive right at the deadline, workers that must end rather than wait forever, and a
fork.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

import pytest

from hookwise.runners import _workers


def _hook_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name == "hookwise-python-hook")


def _spin(arg: tuple[int, float]) -> int:
    """Busy for ``seconds`` holding the GIL (odd ``n``) or sleeping without it (even ``n``); returns
    ``n``."""
    n, seconds = arg
    if n % 2 == 0:
        time.sleep(seconds)
        return n
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass
    return n


def test_answers_at_the_deadline_are_never_crossed_or_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hooks that finish right around their deadline: each call gets its own answer or a timeout,
    never another call's answer; workers given up on end instead of waiting forever; the next call
    still works."""
    monkeypatch.setattr(_workers, "CANCEL_GRACE_S", 0.0)  # the deadline is the timeout itself
    answered = timed_out = 0
    for n in range(600):
        duration = (n % 7) * 40e-6  # 0 .. 240 us, against a timeout of 100 us
        try:
            got = _workers.call(_spin, (n, duration), 100e-6)
        except _workers.HookTimeout as exc:
            assert exc.abandoned
            timed_out += 1
        else:
            assert got == n
            answered += 1
    assert answered and timed_out
    monkeypatch.setattr(_workers, "CANCEL_GRACE_S", 0.1)
    assert _workers.call(_spin, (-1, 0.0), 5.0) == -1
    deadline = time.monotonic() + 10
    while _hook_threads() > _workers.MAX_IDLE + 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _hook_threads() <= _workers.MAX_IDLE + 1  # the given-up workers ended
    assert len(_workers._idle) <= _workers.MAX_IDLE + 1


def test_concurrent_callers_each_get_their_own_answer() -> None:
    """Many threads calling at once share the idle workers without a lock and never swap answers."""
    errors: list[str] = []

    def caller(k: int) -> None:
        for i in range(200):
            n = k * 1000 + i
            got = _workers.call(_spin, (n, 0.0), 5.0)
            if got != n:
                errors.append(f"{n} got {got}")

    threads = [threading.Thread(target=caller, args=(k,)) for k in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert len(_workers._idle) <= _workers.MAX_IDLE + len(threads)


def test_a_call_given_up_before_it_started_never_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deadline that passes before the worker took the call: the call is never started.

    With a timeout of 0 the caller gives up without letting go of the GIL, so the woken worker finds
    the flag set before it can start the call (unless the OS stops the caller for a whole switch
    interval right there, hence the small allowance)."""
    monkeypatch.setattr(_workers, "CANCEL_GRACE_S", 0.0)
    ran: list[int] = []
    answered = 0
    for n in range(100):
        try:
            _workers.call(ran.append, n, 0.0)
            answered += 1
        except _workers.HookTimeout:
            pass
    time.sleep(0.3)
    assert len(ran) - answered <= 5


def test_base_exception_and_context_still_cross_the_hand_off() -> None:
    import contextvars

    var: contextvars.ContextVar[str] = contextvars.ContextVar("who", default="none")
    var.set("caller")

    def hook(_: object) -> str:
        seen = var.get()
        var.set("hook")  # the hook's change stays in its copy of the context
        return seen

    assert _workers.call(hook, None, 5.0) == "caller"
    assert var.get() == "caller"
    with pytest.raises(_workers.HookEscaped):
        _workers.call(lambda _: sys.exit(3), None, 5.0)
    assert _workers.call(lambda x: x + 1, 1, 5.0) == 2


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_starts_its_own_workers() -> None:
    """The parent's idle workers are threads the child does not have: the child forgets them."""
    assert _workers.call(lambda x: x, 1, 5.0) == 1
    assert _workers._idle  # the parent keeps an idle worker
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 1
        try:
            ok = not _workers._idle and _workers.call(lambda x: x * 2, 21, 5.0) == 42
            code = 0 if ok else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def test_a_burst_keeps_its_workers_for_reuse_and_the_surplus_ends_when_idle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Concurrent firings reuse idle workers instead of starting one per call; once the burst is
    over, the workers above KEEP_IDLE end after IDLE_EXIT_S without work."""
    while (
        _workers._idle
    ):  # start from no idle worker (earlier tests' wait with the default timeout)
        _workers._idle.pop().end()
    monkeypatch.setattr(_workers, "IDLE_EXIT_S", 0.2)
    monkeypatch.setattr(_workers, "KEEP_IDLE", 2)
    barrier = threading.Barrier(12)

    def caller() -> None:
        barrier.wait()
        for i in range(3):
            assert _workers.call(_spin, (2 * i, 0.02), 5.0) == 2 * i

    threads = [threading.Thread(target=caller) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(_workers._idle) > 2  # kept for reuse (the default cap is MAX_IDLE = 64)
    deadline = time.monotonic() + 10
    while len(_workers._idle) > 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(_workers._idle) <= 2
    while _hook_threads() > 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _hook_threads() <= 2
    assert _workers.call(_spin, (8, 0.0), 5.0) == 8  # the kept ones still work


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs signal.pthread_kill")
def test_ctrl_c_while_waiting_ends_the_worker() -> None:
    """A KeyboardInterrupt that reaches the caller while it waits for the hook: the worker is not
    reused and ends once the hook returns (it does not wait for work forever)."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("SIGINT reaches the main thread only")
    ran_on: list[threading.Thread] = []
    main = threading.main_thread().ident
    assert main is not None

    def hook(_: object) -> None:
        ran_on.append(threading.current_thread())
        time.sleep(0.05)
        signal.pthread_kill(main, signal.SIGINT)
        time.sleep(0.1)

    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            _workers.call(hook, None, 5.0)
    finally:
        signal.signal(signal.SIGINT, old)
    ran_on[0].join(5)
    assert not ran_on[0].is_alive()
