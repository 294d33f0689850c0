"""Merging is total, deterministic and order-of-completion independent; decisions only tighten
(docs/contract.md §8)."""

from __future__ import annotations

import asyncio
import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faults._stats import counted
from hookwise import HookSystem
from hookwise.core.merge import merge
from hookwise.events import HookEvent
from hookwise.result import FireResult

from .conftest import EXAMPLES, events, hook_outputs

P = settings(max_examples=EXAMPLES, deadline=None, database=None)
RANK = {"allow": 0, "ask": 1, "deny": 2, "block": 2}
DECIDING = [e for e in HookEvent if e is not HookEvent.BEFORE_TOOL_SELECTION]


def rank(merged: dict[str, Any]) -> int:
    return RANK.get(merged.get("decision", "allow"), 0) if merged else 0


@pytest.mark.slow
@P
@given(event=events, outputs=st.lists(hook_outputs(), max_size=6))
@counted("property examples")
def test_merge_is_total_deterministic_and_pure(
    event: HookEvent, outputs: list[dict[str, Any]]
) -> None:
    snapshot = copy.deepcopy(outputs)
    inp = {"tool_input": {"a": 1}}
    first = merge(event, outputs, inp)
    assert outputs == snapshot and inp == {"tool_input": {"a": 1}}  # inputs untouched
    assert merge(event, copy.deepcopy(outputs), inp) == first
    json.dumps(first)  # still JSON
    result = FireResult(event, inp, first)
    _ = (
        result.blocked,
        result.stopped,
        result.effective_reason,
        result.hook_context,
        result.tool_input,
        result.tool_config,
        result.to_json(),
        result.exit_code,
    )  # every accessor works on any merge


@pytest.mark.slow
@P
@given(
    event=st.sampled_from(DECIDING),
    outputs=st.lists(hook_outputs(), max_size=5),
    extra=hook_outputs(),
    pos=st.integers(0, 5),
)
@counted("property examples")
def test_decisions_only_tighten(
    event: HookEvent, outputs: list[dict[str, Any]], extra: dict[str, Any], pos: int
) -> None:
    before = merge(event, outputs)
    more = list(outputs)
    more.insert(min(pos, len(more)), extra)
    after = merge(event, more)
    assert rank(after) >= rank(before)
    if before.get("continue") is False:
        assert after.get("continue") is False  # a stop is never undone
    if any(o.get("decision") in ("deny", "block") for o in more):
        assert after.get("decision") in ("deny", "block")


@pytest.mark.slow
@P
@given(event=st.sampled_from(DECIDING), outputs=st.lists(hook_outputs(), min_size=1, max_size=5))
@counted("property examples")
def test_blocking_is_independent_of_order(event: HookEvent, outputs: list[dict[str, Any]]) -> None:
    shuffled = list(outputs)
    random.Random(0).shuffle(shuffled)
    a, b = merge(event, outputs), merge(event, shuffled)
    assert (a.get("decision") in ("deny", "block")) == (b.get("decision") in ("deny", "block"))
    assert rank(a) == rank(b)
    assert a.get("continue") == b.get("continue")


@pytest.fixture(scope="module")
def hs(tmp_path_factory: pytest.TempPathFactory) -> HookSystem:
    return HookSystem(
        tmp_path_factory.mktemp("merge-project"),
        env={
            "GEMINI_CLI_HOME": str(tmp_path_factory.mktemp("home")),
            "GEMINI_CLI_SYSTEM_SETTINGS_PATH": "/nonexistent/s.json",
            "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": "/nonexistent/d.json",
        },
    )


@pytest.mark.slow
@settings(max_examples=60, deadline=None, database=None)
@given(
    event=events,
    outputs=st.lists(hook_outputs(), min_size=1, max_size=5),
    delays=st.lists(st.integers(0, 4), min_size=5, max_size=5),
)
@counted("property examples")
def test_engine_merges_in_plan_order_whatever_the_completion_order(
    hs: HookSystem, event: HookEvent, outputs: list[dict[str, Any]], delays: list[int]
) -> None:
    """Python hooks on workers finish in a drawn order; the merged result is the plan-order
    merge."""
    registered = []
    for i, out in enumerate(outputs):

        async def hook(
            _: dict[str, Any], out: dict[str, Any] = out, d: int = delays[i]
        ) -> dict[str, Any]:
            await asyncio.sleep(d / 1000)
            return copy.deepcopy(out)

        registered.append(hs.register(event, hook, name=f"h{i}"))
    try:
        payload = {  # the event's required fields (docs/contract.md §3), whatever it is
            "tool_name": "t",
            "tool_input": {"a": 1},
            "tool_response": {"llmContent": ""},
            "prompt": "p",
            "prompt_response": "r",
            "stop_hook_active": False,
            "llm_request": {},
            "llm_response": {},
            "source": "startup",
            "reason": "exit",
            "trigger": "manual",
            "notification_type": "ToolPermission",
            "message": "m",
            "details": {},
        }
        got = asyncio.run(hs.fire_async(event, payload))
        ok_outputs = [h.output for h in got.hooks if h.output]
        assert [h.name for h in got.hooks] == [f"h{i}" for i in range(len(outputs))]
        assert got.output == merge(event, ok_outputs, got.input)
        again = hs.fire(event, payload)
        assert again.output == got.output
    finally:
        for e in registered:
            hs.unregister(e)


def test_no_settings_leak_into_the_module_project(hs: HookSystem, tmp_path: Path) -> None:
    assert all(e.source == "runtime" for e in hs.entries) or not hs.entries


def _reference_common_fields(outputs: list[dict[str, Any]], merged: dict[str, Any]) -> None:
    """The common fields as merged before they were read in one pass: the decisions, then the
    texts."""
    decision, blocked, stopped, stop_reasons = None, False, False, []
    for o in outputs:
        d = o.get("decision")
        if d in ("deny", "block"):
            decision, blocked = d, True
        elif d == "ask" and not blocked:
            decision = "ask"
        if o.get("continue") is False:
            stopped = True
            sr = o.get("stopReason")
            if isinstance(sr, str) and sr:
                stop_reasons.append(sr)
    if decision is not None:
        merged["decision"] = decision
    elif not stopped:
        merged["decision"] = "allow"
    else:
        merged.pop("decision", None)
    merged["continue"] = not stopped
    if stop_reasons:
        merged["stopReason"] = "\n".join(stop_reasons)
    else:
        merged.pop("stopReason", None)
    texts = {
        k: [o[k] for o in outputs if isinstance(o.get(k), str) and o[k]]
        for k in ("reason", "systemMessage")
    }
    for k, parts in texts.items():
        if parts:
            merged[k] = "\n".join(parts)
    merged["suppressOutput"] = any(o.get("suppressOutput") for o in outputs)


@pytest.mark.slow
@P
@given(outputs=st.lists(hook_outputs(), max_size=6), prefill=st.booleans())
@counted("property examples")
def test_common_fields_in_one_pass_are_the_two_passes(
    outputs: list[dict[str, Any]], prefill: bool
) -> None:
    """The one-pass merge of the common fields (with its shortcut for an answer holding no text
    field) writes what the decisions pass and the texts pass wrote, in the same key order, over a
    merged dict prefilled as the REPLACE merge prefills it or empty as the OR merge starts."""
    from hookwise.core.merge import _common_fields

    start: dict[str, Any] = {}
    if prefill:
        for o in outputs:
            start.update({k: v for k, v in o.items() if k != "hookSpecificOutput"})
    got, want = dict(start), dict(start)
    _common_fields(outputs, got)
    _reference_common_fields(outputs, want)
    assert list(got.items()) == list(want.items())
