"""The sequential chain rewrite (docs/contract.md §4) as a pure function."""

from __future__ import annotations

from typing import Any

import pytest

from hookwise.core.chain import next_input
from hookwise.events import EVENT_SPECS, ChainKind, HookEvent
from hookwise.result import HookOutcome, Outcome

E = HookEvent


def outcome(hso: Any, result: Outcome = Outcome.OK) -> HookOutcome:
    return HookOutcome("h", "", "user", "x", result, output={"hookSpecificOutput": hso})


def test_prompt_context_is_appended_after_a_blank_line() -> None:
    cur = {"prompt": "hello"}
    assert (
        next_input(E.BEFORE_AGENT, cur, outcome({"additionalContext": "ctx"}))["prompt"]
        == "hello\n\nctx"
    )
    assert cur == {"prompt": "hello"}


def test_llm_request_and_tool_input_merge_over_the_current_value() -> None:
    cur = {"llm_request": {"model": "m", "config": {}}}
    out = next_input(E.BEFORE_MODEL, cur, outcome({"llm_request": {"model": "n"}}))
    assert out["llm_request"] == {"model": "n", "config": {}}
    cur2: dict[str, Any] = {"tool_input": "not an object"}
    assert next_input(E.BEFORE_TOOL, cur2, outcome({"tool_input": {"a": 1}}))["tool_input"] == {
        "a": 1
    }


@pytest.mark.parametrize("result", [o for o in Outcome if o is not Outcome.OK])
def test_only_ok_outcomes_chain(result: Outcome) -> None:
    cur = {"prompt": "p"}
    assert next_input(E.BEFORE_AGENT, cur, outcome({"additionalContext": "c"}, result)) is cur


@pytest.mark.parametrize("event", [e for e in HookEvent if EVENT_SPECS[e].chain is ChainKind.NONE])
def test_events_without_a_chain_never_change_the_input(event: HookEvent) -> None:
    cur = {"prompt": "p", "tool_input": {}, "llm_request": {}}
    hso = {"additionalContext": "c", "tool_input": {"a": 1}, "llm_request": {"m": 1}}
    assert next_input(event, cur, outcome(hso)) is cur


def test_wrong_shapes_are_ignored() -> None:
    cur = {"prompt": "p"}
    assert next_input(E.BEFORE_AGENT, cur, outcome("not an object")) is cur
    assert next_input(E.BEFORE_AGENT, cur, outcome({"additionalContext": 3})) is cur
    assert next_input(E.BEFORE_TOOL, cur, outcome({"tool_input": [1]})) is cur
