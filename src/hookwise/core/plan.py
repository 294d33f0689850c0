"""Matching and planning (docs/contract.md §3-§4): which hooks run for a firing, in what order, and
how.

Pure functions over entries and the firing's match value; no clock, no I/O.
Matchers are compiled once per entry and plans are cached per (event, match
value), so a firing that matches nothing costs a dictionary lookup.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING, dataclass
from hookwise.core.registry import HookEntry
from hookwise.events import EVENT_SPECS, HookEvent, MatcherKind

if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Collection, Mapping, Sequence
    from typing import Any, Protocol

    from hookwise.core.rules import PermissionRule

    class CallMatches(Protocol):
        def __call__(
            self, rule: PermissionRule, payload: Mapping[str, Any], *, project_dir: str, home: str
        ) -> bool: ...

    Predicate = Callable[[str | None], bool]


#: the characters that make a tool matcher more than a literal name (a literal's regex search is a
#: substring test)
REGEX_SYNTAX = frozenset(".^$*+?{}[]\\|()")


def _always(value: str | None) -> bool:
    return True


def _never(value: str | None) -> bool:
    return False


def compile_matcher(matcher: str | None, kind: MatcherKind) -> Predicate:
    """A predicate over the firing's match value (tool name, source, reason, trigger, notification
    type).

    ``None``, ``""`` and ``"*"`` match everything, and so does a firing without a
    match value. Tool matchers are a regex *search*, run by the linear-time
    matcher (:mod:`hookwise.core.matching`); an invalid regex is compared exactly,
    and one that matcher cannot bound matches nothing (loaders skip its
    definition with a warning: :func:`matcher_warning`). Exact matchers are one
    name or ``a|b|c``, compared case-sensitively.
    """
    if matcher is None or kind is MatcherKind.NONE:
        return _always
    m = matcher.strip()
    if m in ("", "*"):
        return _always
    if kind is not MatcherKind.TOOL:
        from hookwise.core.matching import exact_names

        names = exact_names(m)
        return lambda v: v is None or v in names
    if is_literal(m):  # what re.search(m, v) finds, as a substring test
        return lambda v: v is None or v == "" or m in v
    import re

    from hookwise.core.matching import Unbounded, compile_regex

    try:
        search = compile_regex(m).search
    except re.error:
        return lambda v: v is None or v == m
    except Unbounded:
        return _never
    return lambda v: v is None or v == "" or search(v)


def is_literal(matcher: str) -> bool:
    """``matcher`` has no regular-expression syntax: as a regex it matches exactly where it
    occurs."""
    return REGEX_SYNTAX.isdisjoint(matcher)


def matcher_warning(matcher: str | None, kind: MatcherKind) -> str | None:
    """Why a tool matcher cannot be matched in bounded time (its definition is skipped), else
    None."""
    if (
        matcher is None
        or kind is not MatcherKind.TOOL
        or matcher.strip() in ("", "*")
        or is_literal(matcher.strip())
    ):
        return None
    from hookwise.core.matching import unbounded

    why = unbounded(matcher.strip())
    if why is None:
        return None
    return (
        f"matcher {matcher.strip()!r} cannot be matched in bounded time: {why}; "
        'its definition is skipped (see docs/sources.md, "Matchers that cannot hang a firing")'
    )


def matcher_regex(pattern: str) -> re.Pattern[str]:
    """``re.compile`` without the FutureWarning some odd patterns (``[[a]``) raise (for validity
    checks only)."""
    import re
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return re.compile(pattern)


def matcher_is_valid_regex(matcher: str) -> bool:
    import re

    try:
        matcher_regex(matcher)
    except (re.error, RecursionError, OverflowError):
        return False
    return True


@dataclass(frozen=True)
class Plan:
    """The hooks of one firing, de-duplicated, in plan order; ``sequential`` for the whole
    firing."""

    entries: tuple[HookEntry, ...]
    sequential: bool

    def __bool__(self) -> bool:
        return bool(self.entries)


EMPTY_PLAN = Plan((), False)


def narrows(plan: Plan) -> bool:
    """A hook of ``plan`` has ``if``, ``once`` or ``async``: the firing narrows the plan before it
    runs (hookwise.narrowing); otherwise the plan runs as it is."""
    # a loop, not any(<generator>): every firing with a hook asks, and the generator costs more
    for e in plan.entries:  # noqa: SIM110
        if e.condition is not None or e.once or e.run_async:
            return True
    return False


def dedupe(entries: Sequence[HookEntry]) -> list[HookEntry]:
    """Drop entries whose identity (``name:command``) an earlier entry has (first kept)."""
    seen: set[str] = set()
    out = []
    for e in entries:
        key = (
            e.identity
        )  # docs/contract.md §2/§4: name:command (a Python hook's command part is empty)
        if key in seen:
            continue
        seen.add(key)
        out.append(e)
    return out


def make_plan(
    entries: Sequence[HookEntry], predicates: Sequence[Predicate], value: str | None
) -> Plan:
    """Match, de-duplicate and decide parallel vs sequential (pure)."""
    matched = [e for e, p in zip(entries, predicates, strict=True) if p(value)]
    if not matched:
        return EMPTY_PLAN
    kept = dedupe(matched)
    return Plan(tuple(kept), any(e.sequential for e in kept))


class Planner:
    """Per-event compiled matchers and a bounded plan cache."""

    CACHE_LIMIT = 512

    def __init__(self, by_event: Callable[[HookEvent], list[HookEntry]]) -> None:
        self._by_event = by_event
        self._compiled: dict[HookEvent, tuple[list[HookEntry], list[Predicate]]] = {}
        #: the plans made so far, by ``(event, value)``: read it (``HookSystem.fire`` looks a plan
        #: up here before calling :meth:`plan`), never write it. One dict for the planner's life,
        #: emptied in place.
        self.cache: dict[tuple[HookEvent, str | None], Plan] = {}

    def invalidate(self) -> None:
        self._compiled.clear()
        self.cache.clear()

    def plan(self, event: HookEvent, value: str | None) -> Plan:
        key = (event, value)
        p = self.cache.get(key)
        if p is not None:
            return p
        comp = self._compiled.get(event)
        if comp is None:
            entries = list(self._by_event(event))
            kind = EVENT_SPECS[event].matcher
            comp = (entries, [compile_matcher(e.matcher, kind) for e in entries])
            self._compiled[event] = comp
        p = make_plan(comp[0], comp[1], value)
        if len(self.cache) >= self.CACHE_LIMIT:
            self.cache.clear()
        self.cache[key] = p
        return p


#: events whose hooks may carry an ``if`` rule (tool events); elsewhere such a hook never runs
CONDITION_EVENTS = frozenset({HookEvent.BEFORE_TOOL, HookEvent.AFTER_TOOL})


def condition_error(entry: HookEntry) -> str | None:
    """Why ``entry``'s ``if`` rule cannot be used (does not parse), or None."""
    if entry.condition is None:
        return None
    from hookwise.core.rules import rule_error

    err = rule_error(entry.condition)
    return (
        None
        if err is None
        else f"its `if` rule {entry.condition!r} {err}; the hook is skipped until it is fixed"
    )


def once_key(entry: HookEntry) -> tuple[str, str, str | None, str, str]:
    """What identifies a ``once`` hook across reloads of the same settings (event, source, file,
    pointer, identity)."""
    return (entry.event.value, entry.source, entry.file, entry.pointer, entry.identity)


def select(
    plan: Plan,
    event: HookEvent,
    inp: Mapping[str, Any],
    *,
    project_dir: str,
    home: str,
    spent: Collection[tuple[str, str, str | None, str, str]] = (),
    matches: CallMatches | None = None,
) -> tuple[Plan, list[tuple[HookEntry, str]]]:
    """The hooks of ``plan`` that run for this input: ``if`` rules evaluated, spent ``once`` hooks
    removed.

    ``matches`` evaluates a parsed ``if`` rule on the input (the host's translation of
    tool names: the engine passes :func:`hookwise.claude.conditions.call_matches`); without
    it, a hook with an ``if`` rule is kept (it only ever narrows a hook, never hides a call).

    Returns the narrowed plan and the hooks skipped visibly, with the reason (an
    ``if`` rule that does not parse). A hook whose ``if`` does not match, an ``if``
    on an event other than BeforeTool/AfterTool, and a ``once`` hook that already
    ran are left out silently, as a hook whose matcher does not match.
    """
    if not any(e.condition is not None or e.once for e in plan.entries):
        return plan, []
    from hookwise.core.rules import parse_rule

    kept: list[HookEntry] = []
    skipped: list[tuple[HookEntry, str]] = []
    for e in plan.entries:
        if e.once and once_key(e) in spent:
            continue
        if e.condition is not None:
            err = condition_error(e)
            if err is not None:
                skipped.append((e, err))
                continue
            if event not in CONDITION_EVENTS:
                continue
            rule = parse_rule(e.condition)
            if matches is not None and not matches(rule, inp, project_dir=project_dir, home=home):
                continue
        kept.append(e)
    if len(kept) == len(plan.entries):
        return plan, skipped
    return Plan(tuple(kept), plan.sequential), skipped
