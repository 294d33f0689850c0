"""Hooks registered from code (:meth:`hookwise.HookSystem.register` and its decorator form,
``hook``).

A Python function becomes a hook entry of kind ``python`` and source ``runtime``, checked as a hook
read from settings is: the event name, a name to show, and a matcher that cannot hang a firing
(docs/sources.md); ``inline=True`` is for plain functions only. Imported with the first
registration, never by a firing.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING
from hookwise.core.plan import matcher_warning
from hookwise.core.registry import RUNTIME, HookEntry, PythonSpec
from hookwise.events import EVENT_SPECS, HookEvent, parse_event

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from typing import Any

    PythonHook = Callable[
        [dict[str, Any]], "dict[str, Any] | None | Awaitable[dict[str, Any] | None]"
    ]
    Register = Callable[..., HookEntry]


def python_hook(
    event: str | HookEvent,
    func: PythonHook,
    *,
    name: str,
    matcher: str | None,
    timeout_ms: int,
    sequential: bool,
    inline: bool,
) -> HookEntry:
    """The entry of ``func`` as a ``runtime`` Python hook; ``TypeError`` / ``ValueError`` name what
    is wrong."""
    ev = parse_event(event)
    if not callable(func):
        raise TypeError(f"hook {name!r}: func must be callable")
    if not name:
        raise ValueError("a Python hook needs a name")
    if inline and _is_async(func):
        raise ValueError(
            f"hook {name!r}: inline=True is for plain functions; a coroutine function needs an "
            "event loop and runs on a worker"
        )
    refused = matcher_warning(matcher, EVENT_SPECS[ev].matcher)
    if refused is not None:  # a matcher that could hang a firing (docs/sources.md)
        raise ValueError(f"hook {name!r}: {refused.split('; its definition')[0]}")
    return HookEntry(
        event=ev,
        name=name,
        type="python",
        matcher=matcher,
        sequential=sequential,
        timeout_ms=int(timeout_ms),
        source=RUNTIME,
        spec=PythonSpec(func=func, inline=bool(inline)),
    )


def _is_async(func: Any) -> bool:
    """A coroutine function (the worker module, and with it threading and inspect, loads here)."""
    from hookwise.runners._workers import is_async

    return is_async(func)


def decorator(
    register: Register,
    event: str | HookEvent,
    *,
    name: str | None,
    matcher: str | None,
    timeout_ms: int,
    sequential: bool,
    inline: bool,
) -> Callable[[PythonHook], PythonHook]:
    """``@hs.hook(event)``: registers the function (named after it unless ``name`` is given),
    returns it as is."""

    def deco(func: PythonHook) -> PythonHook:
        register(
            event,
            func,
            name=name or str(getattr(func, "__name__", "python-hook")),
            matcher=matcher,
            timeout_ms=timeout_ms,
            sequential=sequential,
            inline=inline,
        )
        return func

    return deco
