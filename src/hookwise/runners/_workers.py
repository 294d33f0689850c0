"""Running Python hooks off the caller's thread, so that none can hold a firing past its timeout.

A coroutine hook that calls blocking code (``time.sleep``, a synchronous HTTP
client) blocks whatever event loop it runs on; on the caller's loop nothing
could interrupt it, and the firing would wait as long as the hook does. So
hooks that may block a loop run on a *worker*: a daemon thread with its own
event loop, used by one hook call at a time. The caller waits for the answer
until the deadline and then gives up on the call (outcome ``timeout``):

* a coroutine that is merely waiting is cancelled at the deadline on its own
  loop (``asyncio.wait_for``), and the worker is reused;
* a call that blocks its worker cannot be stopped (Python cannot kill a
  thread); the worker is abandoned: it finishes the call in the background,
  its answer is discarded, and it exits instead of taking new work.

Every Python hook runs on a worker (see :mod:`hookwise.runners.python`; the one
exception is a function the host registered with ``inline=True``), plain
functions too: a function that sleeps past its timeout is abandoned like a
blocked coroutine, so a firing returns by its hooks' timeouts. A
``BaseException`` that is not an ``Exception`` raised by the hook
(``sys.exit``, ``KeyboardInterrupt``) reaches the caller as :class:`HookEscaped`,
never as itself. What no thread can stop: ``os._exit`` and C code that holds
the GIL; ``"isolate": true`` runs such a hook in a subprocess instead.
"""

from __future__ import annotations

import _thread
import contextvars
import inspect
import os
import threading
from collections.abc import Awaitable, Callable
from types import FunctionType, MethodType
from typing import Any

# asyncio is imported where it is used: importing hookwise stays cheap for the CLI

#: idle workers kept for reuse; more are started on demand and exit when not needed
MAX_IDLE = 8
#: how long past the deadline the caller waits for a coroutine to be cancelled on its own loop
#: before abandoning the worker (a call that blocks its loop ends the firing at timeout + this)
CANCEL_GRACE_S = 0.1


class HookTimeout(Exception):
    """The call did not finish before its deadline (``abandoned``: it was still running)."""

    def __init__(self, abandoned: bool) -> None:
        super().__init__("abandoned" if abandoned else "cancelled")
        self.abandoned = abandoned


class HookEscaped(Exception):
    """The hook raised a ``BaseException`` that is not an ``Exception`` (``sys.exit(0)``, ``KeyboardInterrupt``).

    Raised in the hook's worker, it would end the host (``fire`` exiting 0 = proceed even when another hook
    denied); it reaches the caller wrapped in this, and the hook's outcome is ``failed``.
    """

    def __init__(self, exc: BaseException) -> None:
        super().__init__(f"{type(exc).__name__}: {exc}")
        self.escaped = exc


class _Job:
    """One call handed to a worker: ``func(arg)`` (awaited if it returns an awaitable), or ``awaitable``."""

    __slots__ = ("func", "arg", "awaitable", "timeout", "future", "abandoned", "context")

    def __init__(
        self,
        func: Callable[[Any], Any] | None,
        arg: Any,
        awaitable: Awaitable[Any] | None,
        timeout: float,
        future: Any = None,
    ) -> None:
        self.func = func
        self.arg = arg
        self.awaitable = awaitable
        self.timeout = timeout
        #: :func:`call_async`'s ``concurrent.futures.Future``; None: :func:`call`, the answer is the worker's
        self.future = future
        self.abandoned = False
        #: the caller's context variables: a hook sees them as if it ran on the caller's thread
        self.context = contextvars.copy_context()


async def _await(aw: Awaitable[Any]) -> Any:
    return await aw


# the states of a worker's current call (changed under _guard only)
_PENDING, _RUNNING, _DONE, _GAVE_UP = range(4)
_guard = _thread.allocate_lock()  # never held while a hook runs


class _Worker:
    """A daemon thread with its own event loop, given one call at a time.

    The hand-off of :func:`call` is two raw locks of the worker's own, made once: the caller stores the job
    and releases ``go``; the worker stores the answer and releases ``done``, which the caller waits on until
    its deadline. (A queue plus a ``concurrent.futures.Future`` per call cost several locks, a Condition and
    their allocations: a third of a Python hook's cost.) The caller, not the worker, puts the worker back among
    the idle ones once it has read the answer, so the worker is waiting again (the GIL given up) as soon as it
    has answered. A worker whose call the caller gave up on (:data:`_GAVE_UP`) never answers and exits.
    """

    def __init__(self) -> None:
        import asyncio

        self.go = _thread.allocate_lock()
        self.go.acquire()  # released once per job
        self.done = _thread.allocate_lock()
        self.done.acquire()  # released once per answer of call()
        self.job: _Job | None = None
        self.state = _PENDING
        self.value: Any = None
        self.error: BaseException | None = None
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._main, name="hookwise-python-hook", daemon=True)
        self.thread.start()

    def start(self, job: _Job | None) -> None:
        """Give the (idle) worker its next job; None: end."""
        self.job = job
        self.state = _PENDING
        self.go.release()

    def _main(self) -> None:
        import asyncio

        asyncio.set_event_loop(self.loop)
        try:
            while self._next():
                pass
        finally:
            try:
                self.loop.close()
            except Exception:  # pragma: no cover - a hook left the loop in a bad state
                pass

    def _next(self) -> bool:
        """Wait for a job and run it; False when the worker ends."""
        self.go.acquire()
        job = self.job
        if job is None:
            return False
        if job.future is not None:  # call_async: the answer goes to the call's own Future
            self._run_future(job)
            return not job.abandoned and _release(self)
        with _guard:
            if (
                self.state == _GAVE_UP
            ):  # the deadline passed before the call started: never start it
                return False
            self.state = _RUNNING
        value, error = self._call(job)
        with _guard:
            if self.state == _GAVE_UP:  # abandoned while it ran: the answer is discarded
                return False
            self.value, self.error, self.state = value, error, _DONE
        self.done.release()
        return True

    def _call(self, job: _Job) -> tuple[Any, BaseException | None]:
        """Run ``job``: ``(value, None)``, or ``(None, what the caller is to raise)``."""
        try:
            value = job.context.run(job.func, job.arg) if job.func is not None else job.awaitable
            if value is not None and value.__class__ is not dict and inspect.isawaitable(value):
                value = self._wait(value, job.timeout)
        except BaseException as exc:  # handed to the caller, never raised here
            return None, _caught(exc)
        return value, None

    def _wait(self, value: Awaitable[Any], timeout: float) -> Any:
        import asyncio

        try:
            return self.loop.run_until_complete(asyncio.wait_for(_await(value), timeout))
        except asyncio.TimeoutError:
            raise HookTimeout(False) from None

    def _run_future(self, job: _Job) -> None:
        fut = job.future
        if not fut.set_running_or_notify_cancel():
            return
        value, error = self._call(job)
        if error is None:
            fut.set_result(value)
        else:
            fut.set_exception(error)


def _caught(exc: BaseException) -> BaseException:
    """What the caller of a hook that raised ``exc`` gets: an ``Exception`` as is; ``CancelledError`` (the
    hook's own, never the caller's cancellation) as a ``RuntimeError``; ``SystemExit``, ``KeyboardInterrupt``
    and the like wrapped in :class:`HookEscaped`, never the host's end."""
    import asyncio

    if isinstance(exc, asyncio.CancelledError):
        return RuntimeError("the hook raised CancelledError")
    if isinstance(exc, Exception):
        return exc
    return HookEscaped(exc)


_idle: list[_Worker] = []
_lock = threading.Lock()


def _after_fork_in_child() -> None:
    """A forked child has none of the parent's threads: forget their workers."""
    global _lock, _guard
    _idle.clear()
    _lock = threading.Lock()
    _guard = _thread.allocate_lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _acquire() -> _Worker:
    with _lock:
        if _idle:
            return _idle.pop()
    return _Worker()


def _release(worker: _Worker) -> bool:
    """Put a worker back in the idle list; False when it should exit instead."""
    with _lock:
        if len(_idle) < MAX_IDLE:
            _idle.append(worker)
            return True
    return False


def _abandon(job: _Job) -> None:
    job.abandoned = True  # the worker exits once the call returns
    job.future.cancel()


def is_async(func: Callable[..., Any]) -> bool:
    """``func`` is a coroutine function (or a callable object whose ``__call__`` is one)."""
    if inspect.iscoroutinefunction(func):
        return True
    kind = type(
        func
    )  # a function's or a method's own type is never called as a coroutine: asked once, not twice
    return (
        kind is not FunctionType
        and kind is not MethodType
        and inspect.iscoroutinefunction(kind.__call__)
    )


def call(
    func: Callable[[Any], Any] | None,
    arg: Any,
    timeout: float,
    awaitable: Awaitable[Any] | None = None,
) -> Any:
    """Run ``func(arg)`` (awaiting its result if awaitable), or just ``awaitable``, on a worker.

    Blocks the calling thread at most ``timeout`` + :data:`CANCEL_GRACE_S` seconds; raises :class:`HookTimeout`
    after that, and whatever the hook raised otherwise.
    """
    timeout = max(timeout, 0.0)
    worker = _acquire()
    worker.start(_Job(func, arg, awaitable, timeout))
    if not worker.done.acquire(True, timeout + CANCEL_GRACE_S):
        with _guard:
            answered = worker.state == _DONE
            if not answered:
                worker.state = (
                    _GAVE_UP  # the worker never answers now: it ends once the call returns
                )
        if not answered:
            raise HookTimeout(True)
        worker.done.acquire()  # it answered just now (released right after the state changed)
    value, error = worker.value, worker.error
    worker.value = worker.error = worker.job = None
    if not _release(worker):
        worker.start(None)
    if error is not None:
        raise error
    return value


async def call_async(func: Callable[[Any], Any], arg: Any, timeout: float) -> Any:
    """Like :func:`call`, for a caller on an event loop: the caller's loop is never blocked."""
    import asyncio
    import concurrent.futures  # here, not at the top: it pulls in logging (~4 ms of CLI start-up)

    job = _Job(func, arg, None, max(timeout, 0.0), concurrent.futures.Future())
    _acquire().start(job)
    wrapped = asyncio.wrap_future(job.future)
    try:
        return await asyncio.wait_for(wrapped, max(timeout, 0.0) + CANCEL_GRACE_S)
    except asyncio.TimeoutError:
        if job.future.done() and not job.future.cancelled():
            return job.future.result()
        _abandon(job)
        raise HookTimeout(True) from None
    except asyncio.CancelledError:
        _abandon(job)
        raise


def timeout_text(timeout_ms: int, exc: HookTimeout) -> str:
    """The ``error`` of a Python hook that timed out."""
    if exc.abandoned:
        return f"timed out after {timeout_ms} ms (it was still running and was abandoned)"
    return f"timed out after {timeout_ms} ms"


async def in_thread(func: Callable[..., Any], *args: Any) -> Any:
    """Run ``func(*args)`` on a thread of its own and await the result.

    Unlike ``asyncio.to_thread`` (the loop's default executor: a handful of
    threads), concurrent firings never queue behind each other: a firing whose
    hooks hang until their timeout cannot delay the firings started after it.
    """
    import asyncio

    loop = asyncio.get_running_loop()
    fut: asyncio.Future[Any] = loop.create_future()

    def deliver(ok: bool, value: Any) -> None:
        if fut.cancelled():
            return
        if ok:
            fut.set_result(value)
        else:
            fut.set_exception(value)

    def target() -> None:
        try:
            value = func(*args)
        except BaseException as exc:  # handed to the awaiting task
            ok, value = False, exc
        else:
            ok = True
        try:
            loop.call_soon_threadsafe(deliver, ok, value)
        except RuntimeError:  # the loop was closed meanwhile: nobody is waiting
            pass

    import contextvars

    ctx = (
        contextvars.copy_context()
    )  # the caller's context (e.g. its current span) goes with the work
    threading.Thread(target=ctx.run, args=(target,), name="hookwise-fire", daemon=True).start()
    return await fut
