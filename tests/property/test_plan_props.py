"""Matching and planning never crash; de-duplication is idempotent and order-preserving
(docs/contract.md §3-§4)."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from faults._stats import counted
from hookwise.core.plan import Planner, compile_matcher, dedupe, make_plan
from hookwise.core.registry import CommandSpec, HookEntry, PythonSpec
from hookwise.events import EVENT_SPECS, HookEvent, MatcherKind

from .conftest import EXAMPLES, events

P = settings(max_examples=EXAMPLES, deadline=None, database=None)
pytestmark = pytest.mark.filterwarnings(
    "ignore::FutureWarning"
)  # "possible nested set" in drawn regexes

regexish = st.lists(
    st.sampled_from(
        [
            "a",
            "b",
            "_",
            ".",
            "*",
            "+",
            "?",
            "|",
            "(",
            ")",
            "[",
            "]",
            "^",
            "$",
            "\\",
            "{",
            "}",
            "2",
            ",",
            "-",
            "read_file",
            "Shell",
            " ",
            "mcp__",
        ]
    ),
    max_size=12,
).map("".join)
matchers = st.one_of(st.none(), st.just(""), st.just("*"), st.text(max_size=12), regexish)
values = st.one_of(
    st.none(),
    st.just(""),
    st.text(max_size=12),
    st.sampled_from(
        [
            "read_file",
            "write_file",
            "run_shell_command",
            "startup",
            "resume",
            "auto",
            "manual",
            "ToolPermission",
        ]
    ),
)
kinds = st.sampled_from(list(MatcherKind))


@pytest.mark.slow
@P
@given(matcher=matchers, kind=kinds, value=values)
@example(
    matcher="0?+", kind=MatcherKind.TOOL, value="0"
)  # a possessive repeat: refused, matches nothing
@example(matcher="0?+", kind=MatcherKind.TOOL, value=None)
@counted("property examples")
def test_compile_matcher_is_total(
    matcher: str | None, kind: MatcherKind, value: str | None
) -> None:
    pred = compile_matcher(matcher, kind)
    got = pred(value)
    assert isinstance(got, bool)
    if kind is MatcherKind.TOOL and matcher is not None and _refused(matcher.strip()):
        assert (
            got is False
        )  # a tool matcher the linear matcher cannot bound matches nothing (plan.py)
    elif (
        matcher is None or matcher.strip() in ("", "*") or kind is MatcherKind.NONE or value is None
    ):
        assert got is True
    elif kind is MatcherKind.EXACT:
        assert got == (value in {p.strip() for p in matcher.strip().split("|")})
    elif kind is MatcherKind.TOOL and value:
        try:
            rx = re.compile(matcher.strip())
        except (re.error, RecursionError, OverflowError):
            assert got == (value == matcher.strip())
        else:
            assert got == (rx.search(value) is not None)


def _refused(m: str) -> bool:
    """``m`` is a regex (not a literal, not invalid) that the linear matcher refuses
    (core/matching.py)."""
    from hookwise.core.matching import Unbounded, compile_regex
    from hookwise.core.plan import is_literal

    if m in ("", "*") or is_literal(m):
        return False
    try:
        compile_regex(m)
    except Unbounded:
        return True
    except (re.error, RecursionError, OverflowError):
        return False
    return False


names = st.sampled_from(["", "a", "b", "c"])
commands = st.sampled_from(["", "x.sh", "y.sh", "echo 1"])


@st.composite
def entries(draw: st.DrawFn, event: HookEvent | None = None) -> list[HookEntry]:
    ev = event or draw(events)
    out = []
    for _ in range(draw(st.integers(0, 8))):
        typ = draw(st.sampled_from(["command", "python"]))
        out.append(
            HookEntry(
                event=ev,
                name=draw(names),
                type=typ,
                spec=CommandSpec(draw(commands))
                if typ == "command"
                else PythonSpec(func=lambda i: None),
                matcher=draw(matchers),
                sequential=draw(st.booleans()),
                source=draw(st.sampled_from(["runtime", "user", "project", "system", "extension"])),
            )
        )
    return out


@pytest.mark.slow
@P
@given(es=entries())
@counted("property examples")
def test_dedupe_is_idempotent_and_keeps_first_occurrence_in_order(es: list[HookEntry]) -> None:
    once = dedupe(es)
    assert dedupe(once) == once
    assert [
        e for e in es if any(e is k for k in once)
    ] == once  # order kept: a subsequence of the input

    def key(
        e: HookEntry,
    ) -> str:  # the de-duplication key (docs/contract.md §4: identity name:command)
        return e.identity if e.type != "python" else f"{e.name}:"

    kept = [key(e) for e in once]
    assert len(kept) == len(set(kept))
    assert set(kept) == {key(e) for e in es}  # nothing is lost but duplicates
    for e in once:  # the first occurrence is the one kept
        assert next(x for x in es if key(x) == key(e)) is e


@pytest.mark.slow
@P
@given(data=st.data(), event=events)
@counted("property examples")
def test_planning_is_pure_and_consistent(data: st.DataObject, event: HookEvent) -> None:
    es = data.draw(entries(event))
    value = data.draw(values)
    kind = EVENT_SPECS[event].matcher
    preds = [compile_matcher(e.matcher, kind) for e in es]
    plan = make_plan(es, preds, value)
    assert make_plan(es, preds, value) == plan  # deterministic
    matched = [e for e, p in zip(es, preds, strict=True) if p(value)]
    assert list(plan.entries) == dedupe(matched)
    assert plan.sequential == any(e.sequential for e in plan.entries)
    planner = Planner(lambda ev: es if ev is event else [])
    assert planner.plan(event, value) == plan
    assert planner.plan(event, value) == plan  # cached: same answer
