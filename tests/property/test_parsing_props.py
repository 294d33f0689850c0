"""Output parsing never crashes and always lands in the contract's table (docs/contract.md §6)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faults._stats import counted
from hookwise.claude.dialect import normalize_output
from hookwise.core.interpret import interpret, interpret_python, parse_object
from hookwise.errors import SettingsError
from hookwise.jsonc import parse as jsonc
from hookwise.result import Outcome

from .conftest import EXAMPLES, events, hook_outputs, json_values

P = settings(max_examples=EXAMPLES, deadline=None, database=None)

# text a hook could print: JSON-ish fragments, garbage, replacement characters, deep nesting
fragments = st.sampled_from(
    [
        "{",
        "}",
        "[",
        "]",
        '"',
        "\\",
        ":",
        ",",
        "NaN",
        "Infinity",
        "true",
        "null",
        "1e999",
        '"decision"',
        '"deny"',
        "\ufffd",
        "\x00",
        "\n",
        " ",
        '{"a":',
        '"{\\"x\\":1}"',
    ]
)
hook_text = st.one_of(
    st.text(max_size=200),
    st.lists(fragments, max_size=60).map("".join),
    json_values.map(json.dumps),
    st.integers(0, 3000).map(lambda n: '{"a":' * n + "1" + "}" * n),
)
exit_codes = st.one_of(
    st.integers(0, 3), st.sampled_from([126, 127, 128, 255]), st.integers(-300, 300)
)


@pytest.mark.slow
@P
@given(
    stdout=hook_text,
    stderr=hook_text,
    exit_code=st.one_of(st.none(), exit_codes),
    signal=st.one_of(st.none(), st.integers(-5, 70)),
    timed_out=st.booleans(),
    spawn_error=st.one_of(st.none(), st.text(min_size=1, max_size=20)),
)
@counted("property examples")
def test_interpret_is_total(
    stdout: str,
    stderr: str,
    exit_code: int | None,
    signal: int | None,
    timed_out: bool,
    spawn_error: str | None,
) -> None:
    it = interpret(
        "h",
        exit_code=exit_code,
        signal=signal,
        stdout=stdout,
        stderr=stderr,
        timed_out=timed_out,
        timeout_ms=100,
        spawn_error=spawn_error,
    )
    assert isinstance(it.outcome, Outcome)
    assert it.output is None or isinstance(it.output, dict)
    json.dumps(it.output)  # whatever it kept is sendable JSON
    if it.outcome not in (Outcome.OK, Outcome.BLOCKED):
        assert it.error, "every outcome other than ok/blocked explains itself"
    if spawn_error is not None:
        assert it.outcome is Outcome.NOT_RUN and it.output is None
    elif timed_out:
        assert it.outcome is Outcome.TIMEOUT and it.output is None
    elif exit_code is None:
        assert it.outcome is Outcome.FAILED and it.output is None
    elif exit_code == 2:
        assert it.outcome is Outcome.BLOCKED
        assert it.output is not None and it.output["decision"] in ("deny", "block")
    elif exit_code in (126, 127):
        assert it.outcome is Outcome.NOT_RUN and it.output is None
    elif exit_code != 0:
        assert it.outcome is Outcome.FAILED
        if it.output is not None and not it.is_json:
            assert "decision" not in it.output  # a failure's text never allows or blocks


@pytest.mark.slow
@P
@given(text=hook_text)
@counted("property examples")
def test_parse_object_accepts_only_objects(text: str) -> None:
    value = parse_object(text)
    assert value is None or isinstance(value, dict)
    if value is not None:
        assert json.loads(json.dumps(value, allow_nan=False)) == value  # strict JSON round-trip


@pytest.mark.slow
@P
@given(obj=st.dictionaries(st.text(max_size=10), json_values, max_size=5), double=st.booleans())
@counted("property examples")
def test_a_printed_object_is_read_back(obj: dict[str, Any], double: bool) -> None:
    text = json.dumps(obj)
    if double:
        text = json.dumps(text)  # double-encoded answers are accepted (docs/contract.md §6)
    it = interpret("h", exit_code=0, stdout=text + "\n")
    assert it.outcome is Outcome.OK and it.output == obj and it.is_json


@pytest.mark.slow
@P
@given(
    value=st.one_of(
        json_values,
        st.builds(object),
        st.sets(st.integers(), max_size=2),
        st.floats(),
        st.dictionaries(st.text(max_size=5), st.floats(), max_size=3),
    )
)
@counted("property examples")
def test_interpret_python_is_total(value: Any) -> None:
    it = interpret_python("h", value)
    assert it.outcome in (Outcome.OK, Outcome.FAILED)
    if it.outcome is Outcome.OK:
        assert it.output is None or isinstance(it.output, dict)
        json.dumps(it.output, allow_nan=False)
    else:
        assert it.error and it.output is None


@pytest.mark.slow
@P
@given(event=events, output=hook_outputs(), dialect=st.sampled_from([None, "claude"]))
@counted("property examples")
def test_normalize_output_is_total(event: Any, output: dict[str, Any], dialect: str | None) -> None:
    before = json.dumps(output, sort_keys=True)
    out = normalize_output(
        event, output, dialect, {"tool_name": "run_shell_command", "tool_input": {}}
    )
    assert isinstance(out, dict)
    assert json.dumps(output, sort_keys=True) == before  # the hook's own object is not mutated


@pytest.mark.slow
@P
@given(
    text=st.one_of(
        st.text(max_size=300),
        st.lists(
            st.sampled_from(
                [
                    "{",
                    "}",
                    "[",
                    "]",
                    '"',
                    "//",
                    "/*",
                    "*/",
                    "\n",
                    ":",
                    ",",
                    '"hooks"',
                    "1",
                    "NaN",
                    "\\",
                    "\ufeff",
                ]
            ),
            max_size=80,
        ).map("".join),
    )
)
@counted("property examples")
def test_jsonc_parse_raises_only_settings_errors(text: str) -> None:
    try:
        jsonc.parse(text, "/p/settings.json")
    except SettingsError as exc:
        assert str(exc).startswith("/p/settings.json")
    stripped = jsonc.strip_comments(text)
    assert len(stripped) == len(text)
    assert [i for i, c in enumerate(stripped) if c == "\n"] == [
        i for i, c in enumerate(text) if c == "\n"
    ]


@pytest.mark.slow
@P
@given(
    text=st.text(max_size=200),
    ptr=st.lists(st.one_of(st.text(max_size=5), st.integers(0, 5).map(str)), max_size=4).map(
        lambda t: jsonc.pointer(*t)
    ),
)
@counted("property examples")
def test_jsonc_locate_is_total(text: str, ptr: str) -> None:
    line, col = jsonc.locate(text, ptr)
    assert line >= 1 and col >= 1
