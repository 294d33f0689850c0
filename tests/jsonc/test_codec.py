"""hookwise.jsonc.codec gives what json gives: the same values, the same text, the same errors."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.jsonc import codec

P = settings(max_examples=300, deadline=None, database=None)

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text())
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=6), inner, max_size=4),
    ),
    max_leaves=20,
)
# texts near JSON: fragments glued together, so that most are almost valid
pieces = st.sampled_from(
    [
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        '"a"',
        '"\\u00e9"',
        '"\\ud800"',
        "1",
        "-0.5e3",
        "true",
        "null",
        "NaN",
        "-Infinity",
        " ",
        "\n",
        "\t",
        "\ufeff",
        "x",
        '"',
        "01",
        "1.",
        '"\\q"',
    ]
)
texts = st.one_of(
    st.text(max_size=20),
    st.lists(pieces, max_size=10).map("".join),
    values.map(lambda v: json.dumps(v)),
)


def outcome(fn: Any, *args: Any, **kwargs: Any) -> tuple[str, Any]:
    try:
        value = fn(*args, **kwargs)
    except Exception as exc:
        return type(exc).__name__, str(exc)
    return "ok", value


def same(a: Any, b: Any) -> bool:
    """Equal, counting NaN equal to NaN (json.loads('NaN') twice gives two NaNs)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


@pytest.mark.slow
@P
@given(text=texts)
def test_loads_is_json_loads(text: str) -> None:
    want, got = outcome(json.loads, text), outcome(codec.loads, text)
    assert want[0] == got[0] and (
        same(want[1], got[1]) if want[0] == "ok" else want[1] == got[1]
    ), (want, got)


@pytest.mark.slow
@P
@given(text=texts)
def test_loads_with_parse_constant_is_json_loads(text: str) -> None:
    def reject(name: str) -> Any:
        raise ValueError(f"{name} is not valid JSON")

    want, got = (
        outcome(json.loads, text, parse_constant=reject),
        outcome(codec.loads, text, parse_constant=reject),
    )
    assert want[0] == got[0] and (
        same(want[1], got[1]) if want[0] == "ok" else want[1] == got[1]
    ), (want, got)


def test_decode_errors_are_json_decode_errors_with_positions() -> None:
    for text in ("", "  ", "[1,", "1 2", "\ufeff{}", '{"a" 1}'):
        with pytest.raises(json.JSONDecodeError) as got:
            codec.loads(text)
        with pytest.raises(json.JSONDecodeError) as want:
            json.loads(text)
        assert (got.value.msg, got.value.pos) == (want.value.msg, want.value.pos)


@pytest.mark.slow
@P
@given(
    value=values,
    ensure_ascii=st.booleans(),
    allow_nan=st.booleans(),
    sort_keys=st.booleans(),
    separators=st.sampled_from([(", ", ": "), (",", ":")]),
)
def test_dumps_is_json_dumps(
    value: Any, ensure_ascii: bool, allow_nan: bool, sort_keys: bool, separators: tuple[str, str]
) -> None:
    kw = {
        "ensure_ascii": ensure_ascii,
        "allow_nan": allow_nan,
        "sort_keys": sort_keys,
        "separators": separators,
    }
    assert outcome(codec.dumps, value, **kw) == outcome(json.dumps, value, **kw)


@pytest.mark.slow
@P
@given(value=values, ensure_ascii=st.booleans())
def test_dumps_indented_is_json_dumps_with_indent_2(value: Any, ensure_ascii: bool) -> None:
    want = outcome(json.dumps, value, indent=2, ensure_ascii=ensure_ascii)
    assert outcome(codec.dumps_indented, value, ensure_ascii=ensure_ascii) == want


INPUT_KW: dict[str, Any] = {"ensure_ascii": False, "separators": (",", ":"), "allow_nan": False}
#: long strings: plain ones (copied as they are) and ones with one character JSON escapes or keeps
LONG = [
    "x" * 2000 + tail
    for tail in (
        "",
        '"',
        "\\",
        "\n",
        "\t",
        "\x01",
        "\x1f",
        " ",
        "\x7f",
        "\u00e9",
        "\u2028",
        "\ud800",
    )
] + ["a" * 1023 + "\x00", "b" * 1024, "c" * 1025, ""]


@pytest.mark.parametrize("text", LONG)
def test_dumps_input_is_compact_strict_json_dumps(text: str) -> None:
    for value in (text, {"tool_input": {"content": text, text: [text, 1, None]}}):
        assert outcome(codec.dumps_input, value) == outcome(json.dumps, value, **INPUT_KW)


def test_dumps_input_refuses_what_json_refuses() -> None:
    cycle: list[Any] = ["x" * 2000]
    cycle.append(cycle)
    for value in (cycle, {"a": Unusual()}, {1j: "x"}, ["x" * 2000, float("nan")], float("inf")):
        assert outcome(codec.dumps_input, value) == outcome(json.dumps, value, **INPUT_KW)


@P
@given(value=values)
def test_dumps_input_is_json_dumps_on_any_value(value: Any) -> None:
    assert outcome(codec.dumps_input, value) == outcome(json.dumps, value, **INPUT_KW)


class Unusual:
    def __repr__(self) -> str:
        return "Unusual()"


def test_what_json_refuses_or_converts_is_refused_or_converted_alike() -> None:
    cycle: list[Any] = []
    cycle.append(cycle)
    cases: list[tuple[Any, dict[str, Any]]] = [
        ({"a": Unusual()}, {}),
        ({"a": Unusual()}, {"default": repr}),
        (cycle, {}),
        ({1: "int key"}, {}),
        ({True: 1, None: 2, 1.5: 3}, {}),
        (float("inf"), {"allow_nan": False}),
        ([float("nan")], {}),
    ]
    for value, kw in cases:
        assert outcome(codec.dumps, value, **kw) == outcome(json.dumps, value, **kw)
        if (
            "allow_nan" not in kw
        ):  # dumps_indented always allows them, as json.dumps does by default
            assert outcome(codec.dumps_indented, value, **kw) == outcome(
                json.dumps, value, indent=2, **kw
            )


@pytest.mark.slow
def test_errors_are_raised_in_a_process_that_never_imported_json() -> None:
    """The C scanner of Python < 3.12 raises its errors through ``json.decoder`` and fails when it
    is not loaded."""
    code = (
        "import sys\nfor m in [m for m in sys.modules if m.split('.')[0] == 'json']:\n    del "
        "sys.modules[m]\nfrom hookwise.jsonc import codec\n"
        "try:\n    codec.loads('{\"a\": [1,}')\nexcept ValueError as exc:\n"
        "    print(type(exc).__name__, exc.pos, exc.msg)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert out.returncode == 0, out.stderr
    try:
        json.loads('{"a": [1,}')
    except json.JSONDecodeError as exc:
        assert out.stdout.strip() == f"JSONDecodeError {exc.pos} {exc.msg}"
