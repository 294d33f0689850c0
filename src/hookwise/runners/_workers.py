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
import os
import sys
from _collections_abc import Awaitable as _Awaitable

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from typing import Any

# asyncio and inspect are imported where they are used: a ``hookwise fire`` whose Python hooks are
# plain functions needs neither (asyncio alone, with the ssl it loads, costs several times the whole
# firing; inspect ~60 M instructions); threading is imported with the first worker

_copy_context = contextvars.copy_context

#: the types of a plain function and of a bound method (without importing :mod:`types`)
_FUNCTION = type(lambda: None)
_METHOD = type((lambda: None).__get__(0))
#: ``co_flags`` bits of a coroutine function and of a generator-based coroutine
#: (``@types.coroutine``)
_CO_COROUTINE = 0x80
_CO_ITERABLE_COROUTINE = 0x100

#: idle workers kept for reuse at most (a burst of concurrent firings, e.g. ``hookwise serve`` at 64
#: clients: a worker started per call costs more than the call); more are started on demand and end
#: after their call
MAX_IDLE = 64
#: idle workers kept however long they wait; the ones above this end after :data:`IDLE_EXIT_S`
#: without work
KEEP_IDLE = 8
IDLE_EXIT_S = 5.0
#: how long past the deadline the caller waits for a coroutine to be cancelled on its own loop
#: before abandoning the worker (a call that blocks its loop ends the firing at timeout + this)
CANCEL_GRACE_S = 0.1


class HookTimeout(Exception):
    """The call did not finish before its deadline (``abandoned``: it was still running)."""

    def __init__(self, abandoned: bool) -> None:
        super().__init__("abandoned" if abandoned else "cancelled")
        self.abandoned = abandoned


class HookEscaped(Exception):
    """The hook raised a ``BaseException`` that is not an ``Exception`` (``sys.exit(0)``,
    ``KeyboardInterrupt``).

    Raised in the hook's worker, it would end the host (``fire`` exiting 0 = proceed even when
    another hook denied); it reaches the caller wrapped in this, and the hook's outcome is
    ``failed``.
    """

    def __init__(self, exc: BaseException) -> None:
        super().__init__(f"{type(exc).__name__}: {exc}")
        self.escaped = exc


class _Job:
    """One :func:`call_async` call: ``func(arg)`` (awaited if it returns an awaitable), answered on
    ``future``."""

    __slots__ = ("func", "arg", "timeout", "future", "abandoned", "context")

    def __init__(self, func: Callable[[Any], Any], arg: Any, timeout: float, future: Any) -> None:
        self.func = func
        self.arg = arg
        self.timeout = timeout
        #: a ``concurrent.futures.Future``: the call's answer
        self.future = future
        self.abandoned = False
        #: the caller's context variables: a hook sees them as if it ran on the caller's thread
        self.context = contextvars.copy_context()


async def _await(aw: Awaitable[Any]) -> Any:
    return await aw


class _Worker:
    """A daemon thread given one call at a time (with an event loop of its own once a hook returns
    an awaitable).

    The hand-off of :func:`call` is two raw locks of the worker's own, made once, and no other lock:
    the caller stores the call on the worker and releases ``go`` as the last thing before it waits
    on ``done``; the worker stores the answer and releases ``done`` as the last thing before it
    waits on ``go`` again. Every other step of the hand-off (the worker's fields, the idle list) is
    one operation under the GIL, so each call costs the two thread switches and nothing else that
    blocks: no per-call object but the copy of the caller's context, no third lock (a queue plus a
    ``concurrent.futures.Future`` per call cost several locks, a Condition and their allocations; a
    guard lock around a state field, two ``with`` blocks per call). The caller, not the worker, puts
    the worker back among the idle ones once it has read the answer, so the worker is waiting again
    (the GIL given up) as soon as it has answered.

    Giving up (the caller's deadline passed) is the flag ``quit``, read by the worker right after it
    takes ``go`` (a call whose deadline passed before it started never starts) and right after it
    releases ``done`` (a worker whose answer came too late ends instead of waiting for work that
    never comes). The caller sets ``quit`` *before* its last look at ``done`` (:func:`_give_up`), so
    either the worker sees it, or the caller sees the answer and wakes the worker to end; a given-up
    worker is never reused.
    """

    __slots__ = (
        "go",
        "done",
        "func",
        "arg",
        "awaitable",
        "timeout",
        "context",
        "job",
        "quit",
        "value",
        "error",
        "loop",
    )

    def __init__(self) -> None:
        self.go = _thread.allocate_lock()
        self.go.acquire()  # released once per call
        self.done = _thread.allocate_lock()
        self.done.acquire()  # released once per answer of call()
        #: the current call of call(): func(arg) in context, or awaitable, within timeout
        self.func: Callable[[Any], Any] | None = None
        self.arg: Any = None
        self.awaitable: Awaitable[Any] | None = None
        self.timeout = 0.0
        self.context: contextvars.Context | None = None
        #: the current call of call_async() (answered on its own Future), else None
        self.job: _Job | None = None
        #: the caller gave up on the current call (or the worker is not needed): end after it
        self.quit = False
        self.value: Any = None
        self.error: BaseException | None = None
        #: the worker's event loop, made for the first awaitable a hook returns (plain functions
        #: need none)
        self.loop: Any = None
        _start_thread(self._main, "hookwise-python-hook")

    def end(self) -> None:
        """Let the idle worker's thread end."""
        self.quit = True
        self.go.release()

    def _main(self) -> None:
        try:
            self._serve()
        finally:
            try:
                if self.loop is not None:
                    self.loop.close()
            except Exception:  # pragma: no cover - a hook left the loop in a bad state
                pass

    def _serve(self) -> None:
        go, done = self.go, self.done
        while True:
            if not go.acquire(True, IDLE_EXIT_S) and not self._stay():
                return
            if self.quit:  # ended, or the caller gave up before the call started: never start it
                return
            job = self.job
            if job is not None:  # call_async: the answer goes to the call's own Future
                self.job = None
                self._run_future(job)
                if job.abandoned or not _release(self):
                    return
                continue
            try:
                value = (
                    self.context.run(self.func, self.arg)  # type: ignore[union-attr, arg-type]
                    if self.func is not None
                    else self.awaitable
                )
                if value is not None and value.__class__ is not dict and is_awaitable(value):
                    value = self._wait(value, self.timeout)
                self.value = value
            except BaseException as exc:  # handed to the caller, never raised here
                self.error = _caught(exc)
            done.release()
            if self.quit:  # the caller gave up meanwhile: the answer is discarded
                return

    def _stay(self) -> bool:
        """Idle for :data:`IDLE_EXIT_S`: True once ``go`` is taken (work came), False to end (more
        than :data:`KEEP_IDLE` workers were idle, and this one was taken out of the idle list before
        a caller took it; ``list.remove`` is atomic under the GIL, like the callers' ``pop``)."""
        go = self.go
        while True:
            if len(_idle) > KEEP_IDLE:
                try:
                    _idle.remove(self)
                except (
                    ValueError
                ):  # a caller took it meanwhile (or has not put it back yet): go comes
                    go.acquire()
                    return True
                return False
            if go.acquire(True, IDLE_EXIT_S):
                return True

    def _wait(self, value: Awaitable[Any], timeout: float) -> Any:
        import asyncio

        if self.loop is None:  # on the worker's own thread: the loop is this thread's current one
            self.loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self.loop)
        try:
            return self.loop.run_until_complete(asyncio.wait_for(_await(value), timeout))
        except asyncio.TimeoutError:
            raise HookTimeout(False) from None

    def _run_future(self, job: _Job) -> None:
        fut = job.future
        if not fut.set_running_or_notify_cancel():
            return
        try:
            value = job.context.run(job.func, job.arg)
            if value is not None and value.__class__ is not dict and is_awaitable(value):
                value = self._wait(value, job.timeout)
        except BaseException as exc:  # handed to the caller, never raised here
            fut.set_exception(_caught(exc))
        else:
            fut.set_result(value)


def _caught(exc: BaseException) -> Exception:
    """What the caller of a hook that raised ``exc`` gets: an ``Exception`` as is;
    ``CancelledError`` (the hook's own, never the caller's cancellation) as a ``RuntimeError``;
    ``SystemExit``, ``KeyboardInterrupt`` and the like wrapped in :class:`HookEscaped`, never the
    host's end."""
    asyncio = sys.modules.get("asyncio")  # without asyncio loaded no CancelledError exists
    if asyncio is not None and isinstance(exc, asyncio.CancelledError):
        return RuntimeError("the hook raised CancelledError")
    if isinstance(exc, Exception):
        return exc
    return HookEscaped(exc)


#: idle workers; ``list.pop`` and ``list.append`` are atomic under the GIL, so taking and returning
#: one needs no lock (two racing returns may leave MAX_IDLE + 1 idle for a while, which is harmless)
_idle: list[_Worker] = []


def _start_thread(target: Callable[[], None], name: str) -> None:
    """Run ``target`` on a new daemon :class:`threading.Thread` named ``name``.

    Always a :mod:`threading` thread, started from the caller's thread: if :mod:`threading` were
    first imported on a raw worker (a hook importing ``logging``, or asyncio for an awaitable),
    threading would take that worker for the main thread and the interpreter's exit would wait for
    it forever."""
    import threading

    threading.Thread(target=target, name=name, daemon=True).start()


def _after_fork_in_child() -> None:
    """A forked child has none of the parent's threads: forget their workers."""
    _idle.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _acquire() -> _Worker:
    try:
        return _idle.pop()
    except IndexError:
        return _Worker()


def _release(worker: _Worker) -> bool:
    """Put a worker back in the idle list; False when it should end instead."""
    if len(_idle) < MAX_IDLE:
        _idle.append(worker)
        return True
    return False


def _abandon(job: _Job) -> None:
    job.abandoned = True  # the worker exits once the call returns
    job.future.cancel()


def _give_up(worker: _Worker) -> bool:
    """The caller's deadline passed: True when the call is abandoned, False when it answered just
    now.

    ``quit`` is set before the last look at ``done``: a worker that answers after that look sees it
    and ends; one that answered before it is woken here to end (its ``go`` is held: it took it for
    this call). Either way the worker is not reused."""
    worker.quit = True
    if not worker.done.acquire(False):
        return True
    worker.go.release()
    return False


def is_awaitable(value: object) -> bool:
    """:func:`inspect.isawaitable` without importing :mod:`inspect`: a coroutine, a generator-based
    coroutine, or anything with ``__await__``."""
    if isinstance(value, _Awaitable):  # coroutines, futures, tasks, any __await__
        return True
    code = getattr(value, "gi_code", None)  # a generator decorated with @types.coroutine
    return code is not None and bool(code.co_flags & _CO_ITERABLE_COROUTINE)


def is_async(func: Callable[..., Any]) -> bool:
    """``func`` is a coroutine function (or a callable object whose ``__call__`` is one)."""
    kind = type(func)
    if kind is _METHOD:
        func, kind = func.__func__, type(func.__func__)  # type: ignore[attr-defined]
    if (
        kind is _FUNCTION and "_is_coroutine_marker" not in func.__dict__
    ):  # its code says (3.12's mark: below)
        return bool(func.__code__.co_flags & _CO_COROUTINE)
    import inspect  # a partial, a marked function, a callable object: inspect's rules

    if inspect.iscoroutinefunction(func):
        return True
    # a function's or a method's own type is never called as a coroutine: asked once, not twice
    return (
        kind is not _FUNCTION and kind is not _METHOD and inspect.iscoroutinefunction(kind.__call__)
    )


def call(
    func: Callable[[Any], Any] | None,
    arg: Any,
    timeout: float,
    awaitable: Awaitable[Any] | None = None,
) -> Any:
    """Run ``func(arg)`` (awaiting its result if awaitable), or just ``awaitable``, on a worker.

    Blocks the calling thread at most ``timeout`` + :data:`CANCEL_GRACE_S` seconds; raises
    :class:`HookTimeout` after that, and whatever the hook raised otherwise.
    """
    if timeout < 0.0:
        timeout = 0.0
    try:
        worker = _idle.pop()
    except IndexError:
        worker = _Worker()
    worker.func, worker.arg, worker.awaitable, worker.timeout = func, arg, awaitable, timeout
    worker.context = _copy_context()
    done, wait = worker.done, timeout + CANCEL_GRACE_S
    # the last step before waiting: the worker wakes to a caller about to let go of the GIL
    worker.go.release()
    try:
        answered = done.acquire(True, wait)
    except BaseException:  # KeyboardInterrupt while waiting: the worker is not reused, and ends
        _give_up(worker)
        raise
    if not answered and _give_up(worker):
        worker.arg = worker.context = None
        raise HookTimeout(True)
    value, error = worker.value, worker.error
    worker.value = worker.error = worker.arg = worker.context = worker.awaitable = None
    if worker.quit:  # given up, then answered just now: the answer counts, the worker ends
        pass
    elif len(_idle) < MAX_IDLE:
        _idle.append(worker)
    else:
        worker.end()
    if error is not None:
        raise error
    return value


async def call_async(func: Callable[[Any], Any], arg: Any, timeout: float) -> Any:
    """Like :func:`call`, for a caller on an event loop: the caller's loop is never blocked."""
    import asyncio
    import concurrent.futures  # here, not at the top: it pulls in logging (~4 ms of CLI start-up)

    job = _Job(func, arg, max(timeout, 0.0), concurrent.futures.Future())
    worker = _acquire()
    worker.job = job
    worker.go.release()
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

    import threading

    ctx = (
        contextvars.copy_context()
    )  # the caller's context (e.g. its current span) goes with the work
    threading.Thread(target=ctx.run, args=(target,), name="hookwise-fire", daemon=True).start()
    return await fut
