"""Monitoring around the plan executor: records, before/after, undo; a broken monitor never changes
the verdict."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from tests.conftest import Project, emit

from hookwise import HookSystem
from hookwise.core.registry import HookEntry
from hookwise.events import HookEvent
from hookwise.result import HookOutcome
from hookwise.testing import FakeRunner


def test_before_and_after_see_the_plan_and_each_outcome(project: Project) -> None:
    project.hooks(
        "BeforeTool", emit({"decision": "deny", "reason": "r"}), emit({"systemMessage": "m"})
    )
    hs = HookSystem(project.root, trust_all=True)
    seen: list[Any] = []

    def before(ev: HookEvent, entries: Sequence[HookEntry], inp: dict[str, Any]) -> None:
        seen.append(("before", ev, len(entries), inp["tool_name"]))

    def after(
        ev: HookEvent,
        entries: Sequence[HookEntry],
        inp: dict[str, Any],
        outcomes: Sequence[HookOutcome],
    ) -> None:
        seen.append(
            (
                "after",
                [
                    (e.display_name, o.name, o.outcome.value)
                    for e, o in zip(entries, outcomes, strict=True)
                ],
            )
        )

    records: list[dict[str, Any]] = []
    undo = hs.add_monitor(records.append, before=before, after=after)
    result = hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert result.blocked
    assert seen[0] == ("before", HookEvent.BEFORE_TOOL, 2, "t")
    assert [(a, b) for a, b, _ in seen[1][1]] == [(h.name, h.name) for h in result.hooks]
    assert [r["type"] for r in records] == ["hook_call", "hook_call"]
    asyncio.run(hs.fire_async("BeforeTool", tool_name="t", tool_input={}))
    assert len(seen) == 4 and len(records) == 4
    hs.fire(
        "AfterAgent", prompt="p", prompt_response="r", stop_hook_active=False
    )  # no hook matched: the executor does not run
    assert len(seen) == 4
    undo()
    hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert len(seen) == 4 and len(records) == 4


def test_a_monitor_that_raises_is_a_warning(project: Project) -> None:
    project.hooks("BeforeTool", emit({"decision": "deny", "reason": "r"}))
    hs = HookSystem(project.root, trust_all=True)

    def broken(*args: Any) -> None:
        raise RuntimeError("monitor bug")

    hs.add_monitor(before=broken, after=broken)
    result = hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert result.blocked and len(result.hooks) == 1
    assert sum("monitor bug" in w for w in result.warnings) == 2


def test_a_fake_runner_stands_in_for_processes(project: Project) -> None:
    project.hooks("BeforeTool", {"type": "command", "command": "never-run", "name": "guard"})
    hs = HookSystem(project.root, trust_all=True)
    fake = FakeRunner({"guard": {"decision": "deny", "reason": "fake"}})
    hs.runners["command"] = fake
    result = hs.fire("BeforeTool", tool_name="t", tool_input={"a": 1})
    assert result.blocked and result.reason == "fake"
    assert fake.calls[0][0] == "guard" and fake.calls[0][1]["tool_input"] == {"a": 1}
