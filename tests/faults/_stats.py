"""Counters for the reliability closing note: printed at the end of a pytest run.

Every reliability area records what it exercised (``record("property examples", 1)``);
``summary()`` is printed once by whichever area's conftest runs
``pytest_terminal_summary`` first.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

COUNTS: Counter[str] = Counter()
_lock = threading.Lock()
_printed = False


def record(kind: str, n: int = 1) -> None:
    with _lock:
        COUNTS[kind] += n


def counted(kind: str) -> Callable[[F], F]:
    """Decorator (under ``@given``): count every example the test function runs."""

    def deco(func: F) -> F:
        @wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            record(kind)
            return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return deco


def terminal_summary(terminalreporter: Any) -> None:
    global _printed
    if _printed or not COUNTS:
        return
    _printed = True
    terminalreporter.section("hookwise reliability counts")
    for kind in sorted(COUNTS):
        terminalreporter.write_line(f"{kind}: {COUNTS[kind]}")
