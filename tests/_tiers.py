"""The two test tiers: the quick one (``pytest -m "not slow"``) and the full suite (what CI runs).

A parametrized family whose cases cost seconds keeps one case (or a few) in the quick tier and marks
the others ``slow``: the quick tier still runs the code path, the full suite runs every case.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest
from _pytest.mark import ParameterSet


def _slow(value: Any) -> Any:
    """The case marked slow; a tuple is a case of several arguments, as ``parametrize`` reads it."""
    if isinstance(value, ParameterSet):
        return pytest.param(*value.values, marks=[*value.marks, pytest.mark.slow], id=value.id)
    if isinstance(value, tuple):
        return pytest.param(*value, marks=pytest.mark.slow)
    return pytest.param(value, marks=pytest.mark.slow)


def quick_where(values: Iterable[Any], keep: Callable[[Any], bool]) -> list[Any]:
    """``values`` for ``parametrize`` (or fixture ``params``), those ``keep`` refuses marked slow."""
    return [value if keep(value) else _slow(value) for value in values]


def first_quick(values: Iterable[Any]) -> list[Any]:
    """``values`` with every case after the first marked slow."""
    return [value if i == 0 else _slow(value) for i, value in enumerate(values)]
