"""Which hooks of a matched plan run now: ``if`` rules, spent ``once`` hooks and ``async`` hooks
(docs/claude.md, "The `if` filter" and "async, once, shell, onFailure").

:class:`hookwise.HookSystem` imports it only for a plan that has such a hook. The rules are
:func:`hookwise.core.plan.select` (pure); an ``if`` rule is read in Claude's tool names by the
Claude wing (:func:`hookwise.claude.conditions.call_matches`, loaded with the first rule); a rule
that does not parse is a ``skipped`` outcome, shown; ``async`` hooks start on threads of their own
(:class:`hookwise.runners.background.Background`) and report at a later firing.
"""

from __future__ import annotations

import os

from hookwise._records import TYPE_CHECKING
from hookwise.core.outcome import skipped
from hookwise.core.plan import Plan, select

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Mapping
    from typing import Any

    from hookwise.events import HookEvent
    from hookwise.result import HookOutcome
    from hookwise.runners.background import Background


def narrow(
    ev: HookEvent,
    inp: dict[str, Any],
    plan: Plan,
    *,
    project_dir: str,
    env: Mapping[str, str],
    spent: Collection[tuple[str, str, str | None, str, str]],
    background: Callable[[], Background],
) -> tuple[Plan, list[HookOutcome]]:
    """The plan of the hooks to run now, and the outcomes of the hooks skipped visibly (an ``if``
    rule that does not parse). ``spent``: the ``once`` hooks that already ran; ``background()``: the
    system's background hooks, made with the first ``async`` hook."""
    home = env.get("HOME") or os.path.expanduser("~")
    plan, bad = select(
        plan, ev, inp, project_dir=project_dir, home=home, spent=spent, matches=_call_matches
    )
    extra = [skipped(e, ev, why) for e, why in bad]
    if any(e.run_async for e in plan.entries):
        plan = background().start_async(ev, inp, plan)
    return plan, extra


def _call_matches(rule: Any, payload: Mapping[str, Any], *, project_dir: str, home: str) -> bool:
    """An ``if`` rule on a tool input, in Claude's tool names (the Claude wing loads with the first
    rule)."""
    from hookwise.claude.conditions import call_matches

    return call_matches(rule, payload, project_dir=project_dir, home=home)
