"""The runner of in-process Python hooks (``type: "python"``, registered from code).

One body for both entry points: :meth:`PythonRunner.run` (``fire``) calls a
plain function inline on the caller's thread — the fast path — and hands a
coroutine function to a worker (:mod:`hookwise.runners._workers`), abandoned at
its deadline; :meth:`PythonRunner.run_async` (``fire_async``) runs every hook on
a worker so that none can block the host's loop. Either way the answer goes
through :func:`_settle`: a raised exception is ``failed``, an overrun
``timeout`` (its answer discarded), anything else :func:`interpret_python`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from hookwise.core.interpret import Interpretation, interpret_python
from hookwise.core.registry import HookEntry
from hookwise.result import HookOutcome, Outcome
from hookwise.runners.base import Firing, PerHookRunner, finish


class PythonRunner(PerHookRunner):
    """Calls ``entry.func(input)``; one outcome per entry, in order."""

    kind = "python"
    #: runs on the calling thread: the executor runs it while background runners wait
    background = False

    def run_one(self, firing: Firing, entry: HookEntry, inp: dict[str, Any]) -> HookOutcome:
        func = _func(entry)
        t0 = time.perf_counter()
        try:
            from inspect import isawaitable

            from hookwise.runners import _workers

            timeout = entry.timeout_ms / 1000.0
            if _workers.is_async(func):  # may block a loop: on a worker, abandoned at the deadline
                value = _workers.call(func, inp, timeout)
            else:  # the fast path: inline on the caller's thread
                value = func(inp)
                if isawaitable(value):
                    value = _workers.call(None, None, timeout, awaitable=value)
        except Exception as exc:  # a hook's bug is its outcome, not ours
            return _settle(firing, entry, t0, None, exc)
        return _settle(firing, entry, t0, value, None)

    async def run_one_async(self, firing: Firing, entry: HookEntry, inp: dict[str, Any]) -> HookOutcome:
        func = _func(entry)
        t0 = time.perf_counter()
        try:  # on a worker, never on the caller's loop: a hook that blocks cannot stall the host
            from hookwise.runners import _workers

            value = await _workers.call_async(func, inp, entry.timeout_ms / 1000.0)
        except Exception as exc:
            return _settle(firing, entry, t0, None, exc)
        return _settle(firing, entry, t0, value, None)


def _func(entry: HookEntry) -> Callable[[dict[str, Any]], Any]:
    if entry.func is None:
        raise ValueError(f"Python hook {entry.display_name!r} has no function")
    return entry.func


def _settle(firing: Firing, entry: HookEntry, t0: float, value: Any, exc: Exception | None) -> HookOutcome:
    """The outcome of one call: what it returned or raised, and how long it took."""
    from hookwise.runners import _workers

    elapsed = (time.perf_counter() - t0) * 1000
    if isinstance(exc, _workers.HookTimeout):
        it = Interpretation(Outcome.TIMEOUT, None, _workers.timeout_text(entry.timeout_ms, exc))
    elif exc is not None:
        it = Interpretation(Outcome.FAILED, None, f"raised {type(exc).__name__}: {exc}")
    elif elapsed > entry.timeout_ms:
        it = Interpretation(Outcome.TIMEOUT, None, f"took {elapsed:.0f} ms, over its timeout of "
                                                   f"{entry.timeout_ms} ms (its answer was discarded)")
    else:
        it = interpret_python(entry.display_name, value)
    return finish(entry, firing.event, it, None, elapsed)
