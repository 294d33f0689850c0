"""A hook's answer can never take the host down (core/answer.py; docs/hook-types.md "Malformed answers").

Any JSON value in any field of any answer, from a Python hook or a command hook
(Gemini or Claude dialect), on any event: ``HookSystem.fire`` returns a result in
which that hook is ``ok``/``blocked`` or ``failed``, and the result can be printed
and encoded. Never an exception.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faults._stats import counted
from hookwise import HookSystem
from hookwise.core.answer import FIELDS, SPECIFIC_FIELDS, check_answer
from hookwise.events import HookEvent

pytestmark = pytest.mark.slow  # property runs; tests/core/test_answers.py keeps the quick tier

#: examples per property (Python hooks are cheap; command hooks start a process per example)
PY_EXAMPLES = 400
CMD_EXAMPLES = 60

_text = st.text(st.characters(), max_size=12)  # lone surrogates included
_json = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        _text,
        st.sampled_from(["allow", "deny", "block", "ask", "approve", "AUTO", "ANY", "NONE"]),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_text, inner, max_size=3)),
    max_leaves=6,
)
_fields = list(FIELDS) + ["permissionDecision", "updatedInput", "extra"]
_specific = list(SPECIFIC_FIELDS) + [
    "permissionDecision",
    "permissionDecisionReason",
    "updatedInput",
]


@st.composite
def answers(draw: st.DrawFn) -> dict[str, Any]:
    out: dict[str, Any] = draw(st.dictionaries(st.sampled_from(_fields), _json, max_size=4))
    if draw(st.booleans()):
        out["hookSpecificOutput"] = draw(
            st.one_of(_json, st.dictionaries(st.sampled_from(_specific), _json, max_size=4))
        )
    return out


def _assert_sound(hs: HookSystem, event: HookEvent, result: Any) -> None:
    outcomes = [h.outcome.value for h in result.hooks]
    assert outcomes and all(o in ("ok", "blocked", "failed") for o in outcomes), outcomes
    json.dumps(result.to_json(), ensure_ascii=False).encode("utf-8")  # printable, encodable
    _ = (result.blocked, result.stopped, result.effective_reason, result.exit_code)


@settings(
    max_examples=PY_EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(event=st.sampled_from(list(HookEvent)), answer=answers())
@counted("property examples")
def test_any_python_answer_is_a_result_or_failed(
    tmp_path_factory: Any, event: HookEvent, answer: dict[str, Any]
) -> None:
    hs = HookSystem(tmp_path_factory.mktemp("p"), trust_all=True)
    hs.register(event, lambda inp: answer, name="any")
    _assert_sound(hs, event, hs.fire(event, _payload(event)))


@settings(
    max_examples=CMD_EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    event=st.sampled_from([HookEvent.BEFORE_TOOL, HookEvent.AFTER_TOOL, HookEvent.BEFORE_AGENT]),
    answer=answers(),
    dialect=st.sampled_from([None, "claude"]),
    exit_code=st.sampled_from([0, 2]),
)
@counted("property examples")
def test_any_command_answer_is_a_result_or_failed(
    tmp_path: Path,
    event: HookEvent,
    answer: dict[str, Any],
    dialect: str | None,
    exit_code: int,
) -> None:
    text = json.dumps(
        answer
    )  # ASCII: lone surrogates travel as \ud800 escapes, as a hook writes them
    hook: dict[str, Any] = {
        "type": "command",
        "name": "any",
        "command": f"printf '%s' {shlex.quote(text)}; exit {exit_code}",
    }
    if dialect:
        hook["dialect"] = dialect
    settings_dir = tmp_path / ".gemini"
    settings_dir.mkdir(exist_ok=True)
    (settings_dir / "settings.json").write_text(
        json.dumps({"hooks": {event.value: [{"hooks": [hook]}]}})
    )
    hs = HookSystem(tmp_path, trust_all=True)
    _assert_sound(hs, event, hs.fire(event, _payload(event)))


_FULL: dict[str, Any] = {
    "tool_name": "run_shell_command",
    "tool_input": {"command": "ls"},
    "tool_response": {"llmContent": "ok"},
    "prompt": "hi",
    "prompt_response": "ok",
    "stop_hook_active": False,
    "llm_request": {"messages": []},
    "llm_response": {"candidates": []},
    "source": "startup",
    "reason": "exit",
    "trigger": "auto",
    "notification_type": "ToolPermission",
    "message": "m",
    "details": {},
}


def _payload(event: HookEvent) -> dict[str, Any]:
    """Every field the event requires (docs/contract.md §3)."""
    from hookwise.events import REQUIRED

    return {k: _FULL[k] for k in REQUIRED[event]}


@settings(max_examples=PY_EXAMPLES, deadline=None, database=None)
@given(answer=answers())
def test_the_validator_is_total(answer: dict[str, Any]) -> None:
    out, err = check_answer(answer)
    assert (out is None) != (err is None)
    if out is not None:
        json.dumps(out, ensure_ascii=False).encode("utf-8")
