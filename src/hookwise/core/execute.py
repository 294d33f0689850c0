"""The plan executor (docs/contract.md §4): the one loop that runs a firing's hooks, for ``fire``
and ``fire_async``.

Module-level and stateless: it gets the firing, the plan, the input and the
runner table (``{type: runner}``, see :mod:`hookwise.runners`), and returns one
outcome per planned hook, in plan order. It knows nothing of processes; hook
kinds are the runners' business.

* Untrusted hooks (docs/contract.md §7) are not given to a runner: their outcome is ``skipped``.
* Parallel: the hooks of each kind go to their runner together, with the same
  input. Kinds that work in the background (processes) start first; the others
  run on the calling thread while they wait (``during``). ``fire_async`` gathers
  the kinds' ``run_async`` instead.
* Sequential: one hook at a time, each seeing the input as rewritten by the
  previous one (:func:`hookwise.core.chain.next_input`).

Outcomes are placed by index and checked one for one: a runner that returns
too few or too many is a bug and raises, never a dropped or misplaced outcome.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING
from hookwise.core.interpret import Interpretation
from hookwise.core.outcome import finish, skipped
from hookwise.core.plan import Plan
from hookwise.core.registry import HookEntry
from hookwise.result import HookOutcome, Outcome

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any

    from hookwise.runners import Runner
    from hookwise.runners.base import Firing


def run_plan(
    firing: Firing, plan: Plan, inp: dict[str, Any], runners: Mapping[str, Runner]
) -> list[HookOutcome]:
    """Run every hook of ``plan``; one outcome per hook, in plan order."""
    if plan.sequential:
        from hookwise.core.chain import next_input  # only sequential firings chain inputs

        outcomes: list[HookOutcome] = []
        cur = inp
        for e in plan.entries:
            o = _refused(firing, e, runners)
            if o is None:
                o = _single(e, runners[e.type].run(firing, [e], cur))
            outcomes.append(o)
            cur = next_input(firing.event, cur, o)
        return outcomes
    if len(plan.entries) == 1:  # one hook: no kinds to order, nothing to run during it
        (e,) = plan.entries
        if e.type in runners and firing.host.is_trusted(e):  # not refused: _refused, written out
            outs = runners[e.type].run(firing, plan.entries, inp)
            return [outs[0] if len(outs) == 1 else _single(e, outs)]
        return [_refusal(firing, e, runners)]
    results, groups = _split(firing, plan.entries, runners)
    kinds = sorted(
        groups, key=lambda k: not runners[k].background
    )  # background kinds first (stable)
    if kinds:
        _run_kinds(firing, plan, inp, runners, kinds, groups, results, 0)
    return _complete(plan.entries, results)


def _run_kinds(
    firing: Firing,
    plan: Plan,
    inp: dict[str, Any],
    runners: Mapping[str, Runner],
    kinds: list[str],
    groups: dict[str, list[int]],
    results: list[HookOutcome | None],
    j: int,
) -> None:
    """Run kind ``j``; the kinds after it run as its ``during`` (while its background work
    proceeds).

    A module-level function, not a closure that calls itself: such a closure is a reference cycle,
    and every firing's objects would then wait for the garbage collector instead of being freed when
    it returns."""
    idx = groups[kinds[j]]
    during: Callable[[], None] | None = None
    if j + 1 < len(kinds):
        during = lambda: _run_kinds(firing, plan, inp, runners, kinds, groups, results, j + 1)  # noqa: E731
    outs = runners[kinds[j]].run(firing, [plan.entries[i] for i in idx], inp, during)
    _place(results, idx, outs)


async def run_plan_async(
    firing: Firing, plan: Plan, inp: dict[str, Any], runners: Mapping[str, Runner]
) -> list[HookOutcome]:
    """:func:`run_plan` for asyncio hosts: the same rules, the runners' ``run_async``."""
    if plan.sequential:
        from hookwise.core.chain import next_input

        outcomes: list[HookOutcome] = []
        cur = inp
        for e in plan.entries:
            o = _refused(firing, e, runners)
            if o is None:
                o = _single(e, await runners[e.type].run_async(firing, [e], cur))
            outcomes.append(o)
            cur = next_input(firing.event, cur, o)
        return outcomes
    import asyncio

    results, groups = _split(firing, plan.entries, runners)
    kinds = list(groups)
    outs = await asyncio.gather(
        *(runners[k].run_async(firing, [plan.entries[i] for i in groups[k]], inp) for k in kinds)
    )
    for k, out in zip(kinds, outs, strict=True):
        _place(results, groups[k], out)
    return _complete(plan.entries, results)


def _refused(firing: Firing, entry: HookEntry, runners: Mapping[str, Runner]) -> HookOutcome | None:
    """The outcome of a hook that is not handed to a runner (untrusted, or a kind without one), else
    None."""
    if not firing.host.is_trusted(entry):
        return skipped(entry, firing.event)
    if entry.type not in runners:
        known = ", ".join(sorted(runners))
        return finish(
            entry,
            firing.event,
            Interpretation(
                Outcome.NOT_RUN, None, f"hook type {entry.type!r} has no runner (known: {known})"
            ),
        )
    return None


def _refusal(firing: Firing, entry: HookEntry, runners: Mapping[str, Runner]) -> HookOutcome:
    """The outcome of a hook that :func:`_refused` refuses."""
    o = _refused(firing, entry, runners)
    if o is None:
        raise RuntimeError(f"internal error: hook {entry.display_name} was not refused")
    return o


def _split(
    firing: Firing,
    entries: Sequence[HookEntry],
    runners: Mapping[str, Runner],
) -> tuple[list[HookOutcome | None], dict[str, list[int]]]:
    """Refused hooks' outcomes in place; the others' indices grouped by kind (plan order kept)."""
    results: list[HookOutcome | None] = [None] * len(entries)
    groups: dict[str, list[int]] = {}
    for i, e in enumerate(entries):
        refused = _refused(firing, e, runners)
        if refused is not None:
            results[i] = refused
        else:
            groups.setdefault(e.type, []).append(i)
    return results, groups


def _place(results: list[HookOutcome | None], idx: list[int], outs: Sequence[HookOutcome]) -> None:
    if len(outs) != len(idx):
        raise RuntimeError(
            f"internal error: a runner returned {len(outs)} outcomes for {len(idx)} hooks"
        )
    for i, o in zip(idx, outs, strict=True):
        results[i] = o


def _single(entry: HookEntry, outs: Sequence[HookOutcome]) -> HookOutcome:
    if len(outs) != 1:
        raise RuntimeError(
            f"internal error: a runner returned {len(outs)} outcomes for hook {entry.display_name}"
        )
    return outs[0]


def _complete(entries: Sequence[HookEntry], results: list[HookOutcome | None]) -> list[HookOutcome]:
    out: list[HookOutcome] = []
    for e, r in zip(entries, results, strict=True):
        if r is None:
            raise RuntimeError(f"internal error: no outcome for hook {e.display_name}")
        out.append(r)
    return out
