"""The two test tiers: the quick one (``pytest -m "not slow"``) and the full suite (what CI runs).

A parametrized family whose cases cost seconds keeps one case (or a few) in the quick tier and marks
the others ``slow``: the quick tier still runs the code path, the full suite runs every case.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from _pytest.mark import ParameterSet

_TESTS = Path(__file__).resolve().parent


def _slow(value: Any) -> Any:
    """The case marked slow; a tuple is a case of several arguments, as ``parametrize`` reads it."""
    if isinstance(value, ParameterSet):
        return pytest.param(*value.values, marks=[*value.marks, pytest.mark.slow], id=value.id)
    if isinstance(value, tuple):
        return pytest.param(*value, marks=pytest.mark.slow)
    return pytest.param(value, marks=pytest.mark.slow)


def quick_where(values: Iterable[Any], keep: Callable[[Any], bool]) -> list[Any]:
    """``values`` for ``parametrize`` (or fixture ``params``), those ``keep`` refuses marked
    slow."""
    return [value if keep(value) else _slow(value) for value in values]


def first_quick(values: Iterable[Any]) -> list[Any]:
    """``values`` with every case after the first marked slow."""
    return [value if i == 0 else _slow(value) for i, value in enumerate(values)]


def package_modules(root: Path) -> set[str]:
    """Every module of the package whose ``__init__.py`` is in ``root``, by file (nothing
    imported)."""
    names = set()
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        names.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def is_quick_run(config: pytest.Config) -> bool:
    """The quick tier over the whole tree: ``-m "not slow"`` and no narrowing of the selection."""
    markexpr = (config.getoption("markexpr", "") or "").replace(" ", "")
    narrowed = config.getoption("keyword", "") or config.getoption("lf", False)
    here = config.invocation_params.dir
    whole = all((here / a).resolve() == _TESTS for a in config.args)
    return markexpr == "notslow" and not narrowed and whole and bool(config.args)
