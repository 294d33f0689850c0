"""The runner of in-process Python hooks (``type: "python"``: registered from code, or ``callable`` in settings).

One body for both entry points: :meth:`PythonRunner.run` (``fire``) calls a
plain function inline on the caller's thread — the fast path — and hands a
coroutine function to a worker (:mod:`hookwise.runners._workers`), abandoned at
its deadline; :meth:`PythonRunner.run_async` (``fire_async``) runs every hook on
a worker so that none can block the host's loop. Either way the answer goes
through :func:`_settle`: a raised exception is ``failed``, an overrun
``timeout`` (its answer discarded), anything else :func:`interpret_python`.
"""

from __future__ import annotations

import sys
import time

from hookwise._records import TYPE_CHECKING
from hookwise.core.interpret import Interpretation, interpret_python
from hookwise.core.registry import HookEntry
from hookwise.result import HookOutcome, Outcome
from hookwise.runners.base import Firing, PerHookRunner, check_answer, finish

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


class PythonRunner(PerHookRunner):
    """Calls ``entry.func(input)``; one outcome per entry, in order."""

    kind = "python"
    #: runs on the calling thread: the executor runs it while background runners wait
    background = False

    def run_one(self, firing: Firing, entry: HookEntry, inp: dict[str, Any]) -> HookOutcome:
        func = _func(firing, entry)
        if isinstance(func, HookOutcome):
            return func
        inp, d = _shape(firing, entry, func, inp)
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
        return _settle(firing, entry, t0, value, None, d, inp)

    async def run_one_async(
        self, firing: Firing, entry: HookEntry, inp: dict[str, Any]
    ) -> HookOutcome:
        func = _func(firing, entry)
        if isinstance(func, HookOutcome):
            return func
        inp, d = _shape(firing, entry, func, inp)
        t0 = time.perf_counter()
        try:  # on a worker, never on the caller's loop: a hook that blocks cannot stall the host
            from hookwise.runners import _workers

            value = await _workers.call_async(func, inp, entry.timeout_ms / 1000.0)
        except Exception as exc:
            return _settle(firing, entry, t0, None, exc)
        return _settle(firing, entry, t0, value, None, d, inp)


def _func(firing: Firing, entry: HookEntry) -> Callable[[dict[str, Any]], Any] | HookOutcome:
    """The hook's function: registered from code, or imported from its settings ``callable`` (docs/hook-types.md).

    A ``callable`` that cannot be imported, or is not callable, is a ``not-run``
    outcome naming the cause. A project's (extension's) module is looked up in
    its directory first; the executor has already checked the hook is trusted.
    """
    if entry.func is not None:
        return entry.func
    spec = entry.extra.get(
        "callable", entry.command
    )  # the loader keeps "callable" as the hook's command
    if not isinstance(spec, str) or not spec:
        raise ValueError(f"Python hook {entry.display_name!r} has no function")
    from hookwise.runners import callable as _callable

    host = firing.host
    root = (
        host.project_dir
        if entry.source == "project"
        else entry.extension_dir
        if entry.source == "extension"
        else None
    )
    func, why = _callable.load(spec, root)
    if func is None:
        return finish(entry, firing.event, Interpretation(Outcome.NOT_RUN, None, why))
    return func


def _shape(
    firing: Firing, entry: HookEntry, func: Any, inp: dict[str, Any]
) -> tuple[dict[str, Any], Any]:
    """The input in the hook's dialect (its own, or the one ``@hookwise.hook(dialect=...)`` gave the function),
    and that dialect's strategy when answers need normalising (settings hooks and dialect hooks), else None."""
    name = entry.dialect
    authoring = sys.modules.get("hookwise.authoring")
    if name is None and authoring is not None and isinstance(func, authoring.HookFunction):
        name = func.dialect
    from hookwise.runners.dialects import NATIVE, dialect

    if name is None and entry.func is not None:
        # a function registered from code: the contract's input (never the Claude-only fields), its answer as is
        return NATIVE.encode_input(firing.event, inp, entry), None

    d = dialect(name)
    return d.encode_input(firing.event, inp, entry), d


def _raised(entry: HookEntry, exc: Exception) -> Interpretation:
    """:class:`hookwise.authoring.Block` blocks like exit code 2; any other exception is ``failed``."""
    authoring = sys.modules.get("hookwise.authoring")
    if authoring is not None and isinstance(exc, authoring.Block):
        return Interpretation(
            Outcome.BLOCKED,
            {"decision": "deny", "reason": exc.reason or f"Blocked by hook {entry.display_name}"},
            None,
        )
    error = f"raised {type(exc).__name__}: {exc}"
    if (
        entry.func is None
    ):  # a settings hook answers like its command form would (exit 1 + text: a warning message)
        return Interpretation(Outcome.FAILED, {"systemMessage": f"Warning: {error}"}, error)
    return Interpretation(Outcome.FAILED, None, error)


def _settle(
    firing: Firing,
    entry: HookEntry,
    t0: float,
    value: Any,
    exc: Exception | None,
    d: Any = None,
    inp: dict[str, Any] | None = None,
) -> HookOutcome:
    """The outcome of one call: what it returned or raised, and how long it took."""
    from hookwise.runners import _workers

    elapsed = (time.perf_counter() - t0) * 1000
    if isinstance(exc, _workers.HookTimeout):
        it = Interpretation(Outcome.TIMEOUT, None, _workers.timeout_text(entry.timeout_ms, exc))
    elif exc is not None:
        it = _raised(entry, exc)
    elif elapsed > entry.timeout_ms:
        it = Interpretation(
            Outcome.TIMEOUT,
            None,
            f"took {elapsed:.0f} ms, over its timeout of "
            f"{entry.timeout_ms} ms (its answer was discarded)",
        )
    else:
        it = interpret_python(entry.display_name, value)
        if d is not None and it.output is not None:
            it = Interpretation(
                it.outcome, d.normalize_output(firing.event, it.output, inp), it.error, True
            )
    return check_answer(finish(entry, firing.event, it, None, elapsed), firing.event, entry, inp)
