"""The pure record builders of hookwise.telemetry.records (no OpenTelemetry needed): the indented
JSON that ``hook_input``/``hook_output`` carry is exactly ``json.dumps(..., indent=2)``, and Gemini
CLI's reduced names."""

from __future__ import annotations

import enum
import json
from typing import Any

import pytest

from hookwise.telemetry import records


class _Color(str, enum.Enum):
    RED = "red"


class _Opaque:
    def __str__(self) -> str:
        return "<opaque>"


VALUES: list[Any] = [
    {},
    [],
    (),
    "",
    0,
    -1,
    10**40,
    1.5,
    -0.0,
    1e16,
    1e-7,
    3.141592653589793,
    True,
    False,
    None,
    "plain",
    "üñïçødé ✓ 漢字",
    'quote " backslash \\ slash /',
    "\n\t\r\b\f\x00\x1f\x7f",
    "\u2028\u2029",
    "\ud800",
    {"a": {}, "b": [], "c": [{}], "d": [[[]]], "e": {"f": {"g": [1, [2, [3, {}]]]}}},
    {
        "session_id": "s",
        "tool_input": {"command": "ls -la", "n": [1, 2.5, None, True, False]},
        "ü": "ß",
    },
    [1, "two", 3.0, [4, {"five": 5}], (6, 7)],
    {"tuple": (1, (2, 3)), "empty tuple": ()},
    # what only json.dumps renders (the fallback): non-string keys, subclasses, non-finite floats,
    # `default=str`
    {1: "int key", None: "none key", False: "bool key", 2.5: "float key"},
    {"color": _Color.RED},
    [_Color.RED],
    {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")},
    {"obj": _Opaque()},
    {"set": {1}},
    {"bytes": b"x"},
]


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_indented_json_is_json_dumps(value: Any) -> None:
    assert records.input_json(value) == json.dumps(value, indent=2, ensure_ascii=False, default=str)


def test_indented_json_of_a_cycle_fails_like_json_dumps() -> None:
    cycle: dict[str, Any] = {}
    cycle["self"] = cycle
    with pytest.raises(ValueError, match="Circular reference"):
        records.input_json(cycle)


@pytest.mark.parametrize(
    ("name", "reduced"),
    [
        ("/usr/bin/python3 check.py --token x", "python3"),
        ("My Hook", "My"),
        ("C:\\hooks\\guard.exe -v", "guard.exe"),
        ("", "unknown-command"),
        ("   ", "unknown-command"),
        ("dir/", "unknown-command"),
        ("plain", "plain"),
    ],
)
def test_reduced_hook_names(name: str, reduced: str) -> None:
    assert records.sanitize_hook_name(name) == reduced
    assert records.sanitize_hook_name(name) == reduced  # the second time from the cache
