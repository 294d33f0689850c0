"""The plan executor, tested without processes (FakeRunner): ordering, kinds, trust, chaining, one
outcome per hook."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from hookwise.core.execute import run_plan, run_plan_async
from hookwise.core.plan import Plan
from hookwise.core.registry import CommandSpec, HookEntry
from hookwise.events import HookEvent
from hookwise.result import HookOutcome, Outcome
from hookwise.runners.base import Firing
from hookwise.testing import FakeAnswer, FakeHost, FakeRunner

E = HookEvent


def entry(name: str, kind: str = "command", source: str = "user", **kw: Any) -> HookEntry:
    return HookEntry(
        event=kw.pop("event", E.BEFORE_AGENT),
        name=name,
        type=kind,
        source=source,
        spec=CommandSpec(f"cmd-{name}"),
        **kw,
    )


def both(firing: Firing, plan: Plan, inp: dict[str, Any], runners: Any) -> list[list[HookOutcome]]:
    """The outcomes of the sync and the async executor for the same plan."""
    return [
        run_plan(firing, plan, inp, runners),
        asyncio.run(run_plan_async(firing, plan, inp, runners)),
    ]


def test_outcomes_are_in_plan_order_across_kinds() -> None:
    entries = (entry("p1", "python"), entry("c1"), entry("p2", "python"), entry("c2"))
    runners = {
        "command": FakeRunner(
            {"c1": {"systemMessage": "c1"}, "c2": {"systemMessage": "c2"}}, background=True
        ),
        "python": FakeRunner(
            {"p1": {"systemMessage": "p1"}, "p2": {"systemMessage": "p2"}}, kind="python"
        ),
    }
    for outcomes in both(
        Firing(E.BEFORE_AGENT, FakeHost()), Plan(entries, False), {"prompt": "x"}, runners
    ):
        assert [o.name for o in outcomes] == ["p1", "c1", "p2", "c2"]
        assert [(o.output or {}).get("systemMessage") for o in outcomes] == ["p1", "c1", "p2", "c2"]
        assert [o.hook_type for o in outcomes] == ["python", "command", "python", "command"]
    # parallel: one batch per kind, each with its hooks in plan order
    assert runners["command"].batches[0] == ["c1", "c2"]
    assert runners["python"].batches[0] == ["p1", "p2"]


def test_inline_kinds_run_during_the_background_kinds() -> None:
    order: list[str] = []

    class Recording(FakeRunner):
        def run(
            self,
            firing: Firing,
            entries: Sequence[HookEntry],
            inp: dict[str, Any],
            during: Callable[[], None] | None = None,
        ) -> list[HookOutcome]:
            order.append(f"start {self.kind}")
            out = super().run(firing, entries, inp, during)
            order.append(f"end {self.kind}")
            return out

    runners = {
        "python": Recording(kind="python"),
        "command": Recording(kind="command", background=True),
    }
    run_plan(
        Firing(E.BEFORE_AGENT, FakeHost()),
        Plan((entry("p", "python"), entry("c")), False),
        {},
        runners,
    )
    assert order == ["start command", "start python", "end python", "end command"]


def test_untrusted_hooks_are_skipped_without_reaching_a_runner() -> None:
    runner = FakeRunner()
    host = FakeHost(trusted=lambda e: e.name != "bad")
    plan = Plan((entry("good"), entry("bad", source="project")), False)
    for outcomes in both(Firing(E.BEFORE_AGENT, host), plan, {}, {"command": runner}):
        assert [o.outcome for o in outcomes] == [Outcome.OK, Outcome.SKIPPED]
        assert "not trusted" in (outcomes[1].error or "")
    assert [name for name, _ in runner.calls] == ["good", "good"]


def test_a_kind_without_a_runner_is_a_visible_not_run() -> None:
    plan = Plan((entry("h", "carrier-pigeon"), entry("c")), False)
    for outcomes in both(Firing(E.BEFORE_AGENT, FakeHost()), plan, {}, {"command": FakeRunner()}):
        assert outcomes[0].outcome is Outcome.NOT_RUN
        assert "carrier-pigeon" in (outcomes[0].error or "")
        assert outcomes[1].outcome is Outcome.OK


class Dropping(FakeRunner):
    """A broken runner: loses the last outcome of every batch."""

    def run(
        self,
        firing: Firing,
        entries: Sequence[HookEntry],
        inp: dict[str, Any],
        during: Callable[[], None] | None = None,
    ) -> list[HookOutcome]:
        return super().run(firing, entries, inp, during)[:-1]


@pytest.mark.parametrize("sequential", [False, True])
def test_a_runner_that_drops_an_outcome_is_an_error_not_a_shorter_list(sequential: bool) -> None:
    plan = Plan((entry("a"), entry("b")), sequential)
    firing = Firing(E.BEFORE_AGENT, FakeHost())
    with pytest.raises(RuntimeError, match="outcomes for"):
        run_plan(firing, plan, {}, {"command": Dropping()})
    with pytest.raises(RuntimeError, match="outcomes for"):
        asyncio.run(run_plan_async(firing, plan, {}, {"command": Dropping()}))


def test_sequential_chain_feeds_each_hook_the_rewritten_input() -> None:
    def answers(e: HookEntry, inp: dict[str, Any]) -> Any:
        return {
            "hookSpecificOutput": {
                "tool_input": {
                    e.name: inp["tool_input"].get("n", 0) + 1,
                    "n": inp["tool_input"].get("n", 0) + 1,
                }
            }
        }

    plan = Plan(
        (
            entry("a", event=E.BEFORE_TOOL),
            entry("b", "python", event=E.BEFORE_TOOL),
            entry("c", event=E.BEFORE_TOOL),
        ),
        True,
    )
    inp = {"tool_name": "t", "tool_input": {"keep": 1}}
    for outcomes in both(
        Firing(E.BEFORE_TOOL, FakeHost()),
        plan,
        inp,
        {"command": FakeRunner(answers), "python": FakeRunner(answers, kind="python")},
    ):
        assert [
            o.output["hookSpecificOutput"]["tool_input"]["n"] for o in outcomes if o.output
        ] == [1, 2, 3]
    assert inp == {
        "tool_name": "t",
        "tool_input": {"keep": 1},
    }  # the caller's input is never modified


def test_a_failed_hook_does_not_rewrite_the_chain_and_fail_closed_applies() -> None:
    seen: list[dict[str, Any]] = []

    def answers(e: HookEntry, inp: dict[str, Any]) -> Any:
        seen.append(inp)
        if e.name == "a":
            return FakeAnswer(
                {"hookSpecificOutput": {"additionalContext": "ctx"}}, Outcome.FAILED, "boom", 1
            )
        return None

    plan = Plan((entry("a", fail_closed=True), entry("b")), True)
    outcomes = run_plan(
        Firing(E.BEFORE_AGENT, FakeHost()), plan, {"prompt": "p"}, {"command": FakeRunner(answers)}
    )
    assert seen[1] == {"prompt": "p"}
    assert (
        outcomes[0].output is not None and outcomes[0].output.get("decision") == "deny"
    )  # fail-closed


def test_an_empty_plan_runs_nothing() -> None:
    runner = FakeRunner()
    for outcomes in both(
        Firing(E.BEFORE_AGENT, FakeHost()), Plan((), False), {}, {"command": runner}
    ):
        assert outcomes == []
    assert runner.calls == []
