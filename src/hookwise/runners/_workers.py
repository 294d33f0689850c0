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
import queue
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


class _NotYet(Exception):
    """A :class:`_Slot`'s deadline passed (never confused with a ``TimeoutError`` the hook raised)."""


class _Slot:
    """A one-shot result a worker hands to a waiting thread: the part of ``concurrent.futures.Future`` that
    :func:`call` uses, on one raw lock (a Future builds a Condition per call: about half a Python hook's cost).
    """

    __slots__ = ("_ready", "_state", "_value", "_error")

    _PENDING, _RUNNING, _DONE, _CANCELLED = range(4)
    _guard = _thread.allocate_lock()  # state changes only: never held while a hook runs

    def __init__(self) -> None:
        self._ready = _thread.allocate_lock()
        self._ready.acquire()  # released once, when the result is in
        self._state = self._PENDING
        self._value: Any = None
        self._error: BaseException | None = None

    def set_running_or_notify_cancel(self) -> bool:
        with self._guard:
            if self._state == self._CANCELLED:
                return False
            self._state = self._RUNNING
            return True

    def cancel(self) -> bool:
        with self._guard:
            if self._state != self._PENDING:
                return self._state == self._CANCELLED
            self._state = self._CANCELLED
        self._ready.release()
        return True

    def cancelled(self) -> bool:
        return self._state == self._CANCELLED

    def done(self) -> bool:
        return self._state in (self._DONE, self._CANCELLED)

    def _finish(self, value: Any, error: BaseException | None) -> None:
        self._value, self._error = value, error
        with self._guard:
            self._state = self._DONE
        self._ready.release()

    def set_result(self, value: Any) -> None:
        self._finish(value, None)

    def set_exception(self, error: BaseException) -> None:
        self._finish(None, error)

    def result(self, timeout: float = 0.0) -> Any:
        """The value (or raise the hook's exception); :class:`_NotYet` when not done by ``timeout``."""
        if not self._ready.acquire(True, timeout):
            raise _NotYet
        self._ready.release()  # stays readable: a second result() returns at once
        if self._state == self._CANCELLED:
            raise HookTimeout(True)
        if self._error is not None:
            raise self._error
        return self._value


class _Job:
    __slots__ = ("func", "arg", "awaitable", "timeout", "future", "abandoned", "context")

    def __init__(
        self,
        func: Callable[[Any], Any] | None,
        arg: Any,
        awaitable: Awaitable[Any] | None,
        timeout: float,
        light: bool = False,
    ) -> None:
        self.func = func
        self.arg = arg
        self.awaitable = awaitable
        self.timeout = timeout
        self.future: Any
        if light:
            self.future = _Slot()
        else:
            import concurrent.futures  # here, not at the top: it pulls in logging (~4 ms of CLI start-up)

            self.future = concurrent.futures.Future()
        self.abandoned = False
        #: the caller's context variables: a hook sees them as if it ran on the caller's thread
        self.context = contextvars.copy_context()


async def _await(aw: Awaitable[Any]) -> Any:
    return await aw


class _Worker:
    def __init__(self) -> None:
        import asyncio

        self.jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._main, name="hookwise-python-hook", daemon=True)
        self.thread.start()

    def _main(self) -> None:
        import asyncio

        asyncio.set_event_loop(self.loop)
        try:
            while True:
                job = self.jobs.get()
                if job is None:
                    return
                self._run(job)
                if job.abandoned or not _release(self):
                    return
        finally:
            try:
                self.loop.close()
            except Exception:  # pragma: no cover - a hook left the loop in a bad state
                pass

    def _run(self, job: _Job) -> None:
        import asyncio

        fut = job.future
        if not fut.set_running_or_notify_cancel():
            return
        try:
            value = job.context.run(job.func, job.arg) if job.func is not None else job.awaitable
            if inspect.isawaitable(value):
                try:
                    value = self.loop.run_until_complete(
                        asyncio.wait_for(_await(value), job.timeout)
                    )
                except asyncio.TimeoutError:
                    raise HookTimeout(False) from None
        except (
            asyncio.CancelledError
        ):  # raised by the hook itself: must not look like the caller's cancellation
            fut.set_exception(RuntimeError("the hook raised CancelledError"))
        except Exception as exc:  # handed to the caller, never raised here
            fut.set_exception(exc)
        except (
            BaseException
        ) as exc:  # SystemExit, KeyboardInterrupt... from the hook: never the host's
            fut.set_exception(HookEscaped(exc))
        else:
            fut.set_result(value)


_idle: list[_Worker] = []
_lock = threading.Lock()


def _after_fork_in_child() -> None:
    """A forked child has none of the parent's threads: forget their workers."""
    global _lock
    _idle.clear()
    _lock = threading.Lock()


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


def _submit(
    func: Callable[[Any], Any] | None,
    arg: Any,
    awaitable: Awaitable[Any] | None,
    timeout: float,
    light: bool = False,
) -> _Job:
    job = _Job(func, arg, awaitable, max(timeout, 0.0), light)
    _acquire().jobs.put(job)
    return job


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
    job = _submit(func, arg, awaitable, timeout, light=True)
    try:
        return job.future.result(max(timeout, 0.0) + CANCEL_GRACE_S)
    except _NotYet:
        if job.future.done() and not job.future.cancelled():
            return job.future.result()
        _abandon(job)
        raise HookTimeout(True) from None


async def call_async(func: Callable[[Any], Any], arg: Any, timeout: float) -> Any:
    """Like :func:`call`, for a caller on an event loop: the caller's loop is never blocked."""
    import asyncio

    job = _submit(func, arg, None, timeout)
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
