"""Every firing completes and checks its input, whether or not a hook matches (docs/contract.md
§5)."""

from __future__ import annotations

import asyncio

import pytest
from tests.conftest import Project, emit

from hookwise import HookSystem, PayloadError


@pytest.mark.parametrize("with_hook", [False, True])
def test_wrong_field_types_are_rejected_with_or_without_hooks(
    project: Project, with_hook: bool
) -> None:
    if with_hook:
        project.hooks("BeforeTool", emit({"decision": "allow"}))
    hs = HookSystem(project.root, trust_all=True)
    with pytest.raises(PayloadError, match="tool_name"):
        hs.fire("BeforeTool", tool_name=123)
    with pytest.raises(PayloadError, match="tool_input"):
        asyncio.run(hs.fire_async("BeforeTool", tool_name="t", tool_input=[1]))


def test_a_firing_that_matches_no_hook_has_the_base_fields(project: Project) -> None:
    project.hooks("BeforeTool", emit({"decision": "deny"}), matcher="write_file")
    hs = HookSystem(project.root, session_id="s-1", transcript_path="/t.jsonl")
    for result in (
        hs.fire("BeforeTool", tool_name="read_file", tool_input={"p": 1}),
        asyncio.run(hs.fire_async("BeforeTool", {"tool_name": "read_file", "tool_input": {}})),
    ):
        assert result.hooks == [] and result.proceed
        inp = result.input
        assert inp["session_id"] == "s-1" and inp["transcript_path"] == "/t.jsonl"
        assert inp["cwd"] == str(project.root) and inp["hook_event_name"] == "BeforeTool"
        assert inp["timestamp"].endswith("Z") and inp["tool_name"] == "read_file"


def test_timestamps_are_iso_utc_with_milliseconds() -> None:
    import re
    import time

    from hookwise.events import now_iso

    before = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
    stamps = [now_iso() for _ in range(3)]
    after = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
    for s in stamps:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", s), s
        assert before <= s[:19] <= after
    assert stamps == sorted(stamps)


def test_an_unmatched_result_is_the_result_it_stands_for(project: Project) -> None:
    """The no-match result assembles its input when first read: the same value, the firing's
    time."""
    import time

    from hookwise.events import HookEvent, iso_ms
    from hookwise.result import FireResult

    project.hooks("BeforeTool", emit({"decision": "deny"}), matcher="write_file")
    hs = HookSystem(project.root, session_id="s-1")
    before = iso_ms(time.time_ns())
    result = hs.fire("BeforeTool", {"tool_name": "read_file", "prompt": None}, tool_input={"a": 1})
    hs.session_id = "changed later"  # the input is the firing's, not the system's state when read
    after = iso_ms(time.time_ns())
    inp = result.input
    assert before <= inp["timestamp"] <= after
    assert inp == {
        "session_id": "s-1",
        "transcript_path": "",
        "cwd": str(project.root),
        "hook_event_name": "BeforeTool",
        "timestamp": inp["timestamp"],
        "tool_name": "read_file",
        "tool_input": {"a": 1},
    }
    assert list(inp)[:5] == ["session_id", "transcript_path", "cwd", "hook_event_name", "timestamp"]
    assert result.input is inp  # assembled once
    assert type(result) is FireResult and result == FireResult(HookEvent.BEFORE_TOOL, inp)
    assert (result.output, result.hooks, result.warnings, result.decision) == ({}, [], [], "allow")
    assert "input=" in repr(result)
    with pytest.raises(AttributeError):
        result.no_such_attribute  # noqa: B018


def _reference_check(event: object, data: dict[str, object]) -> str | None:
    """The input check written plainly (every field, then every required one): the message it
    raises, or None."""
    from hookwise.events import FIELD_TYPES, REQUIRED

    for k, v in data.items():
        want = FIELD_TYPES.get(k)
        if want is None or v is None:
            continue
        if not isinstance(v, want) or (v.__class__ is bool and want is not bool):
            return f"input field {k!r}"
    for k in REQUIRED[event]:  # type: ignore[index]
        if data.get(k) is None:
            return f"input field {k!r} is required"
    return None


class _Str(str):
    pass


class _Dict(dict):  # type: ignore[type-arg]
    pass


def test_the_usual_input_shortcut_decides_as_the_whole_check() -> None:
    """check_input first tries the usual input (exactly the required fields, each of its exact
    type): every near miss (a field None, missing, of a subclass, of another type, true for a
    string, one field more) is decided as the field-by-field check decides it."""
    from hookwise.events import EVENT_SPECS, FIELD_TYPES, check_input

    samples: dict[object, list[object]] = {
        str: ["x", _Str("x"), True, 1, None, {}],
        dict: [{}, _Dict(), [], "x", None, False],
        bool: [True, False, 1, "x", None],
    }
    for event, spec in EVENT_SPECS.items():
        usual = {k: samples[FIELD_TYPES[k]][0] for k in spec.required}
        cases = [usual, {**usual, "extra_field": 1}, {**usual, "mcp_context": None}]
        for k in spec.required:
            cases.append({f: v for f, v in usual.items() if f != k})
            cases.extend({**usual, k: other} for other in samples[FIELD_TYPES[k]][1:])
        for data in cases:
            want = _reference_check(event, data)
            if want is None:
                check_input(event, data)
            else:
                with pytest.raises(PayloadError, match=want):
                    check_input(event, data)
