"""How one hook call becomes a :class:`~hookwise.result.HookOutcome`: once, with ``failClosed`` applied.

Pure: every runner and the plan executor build outcomes here (docs/contract.md §6, §7).
"""

from __future__ import annotations

from hookwise.core.answer import check_answer
from hookwise.core.interpret import Interpretation, fail_closed_output
from hookwise.core.registry import HookEntry
from hookwise.events import HookEvent
from hookwise.result import HookOutcome, Outcome


def finish(
    entry: HookEntry,
    event: HookEvent,
    it: Interpretation,
    exit_code: int | None = None,
    duration_ms: float = 0.0,
    stdout: str = "",
    stderr: str = "",
    truncated: bool = False,
) -> HookOutcome:
    """The outcome of one hook call from its interpretation (answer checked, fail-closed applied, §6)."""
    output, malformed = check_answer(it.output, it.encodable)
    if malformed is not None:  # one validator for every kind's answer (core/answer.py)
        it = Interpretation(Outcome.FAILED, None, malformed)
    if entry.fail_closed and it.outcome in (Outcome.FAILED, Outcome.NOT_RUN, Outcome.TIMEOUT):
        output = fail_closed_output(entry.display_name, it.outcome, it.error, output)
    return HookOutcome(
        name=entry.display_name,
        command=entry.target,
        source=entry.source,
        event=event.value,
        outcome=it.outcome,
        hook_type=entry.type,
        exit_code=exit_code,
        duration_ms=duration_ms,
        output=output,
        stdout=stdout,
        stderr=stderr,
        error=it.error,
        truncated=truncated,
    )


def skipped(entry: HookEntry, event: HookEvent, why: str | None = None) -> HookOutcome:
    """The outcome of a hook that was not run: ``why`` (an ``if`` rule that does not parse), by default
    because it is not trusted (docs/contract.md §7)."""
    if why is None:
        where = entry.file or entry.source
        why = (
            f"not trusted: {entry.source} hook from {where} has not been approved (run `hookwise trust`)"
            + (f"; it would run: {entry.command}" if entry.command and entry.name else "")
        )
    return HookOutcome(
        name=entry.display_name,
        command=entry.target,
        source=entry.source,
        event=event.value,
        outcome=Outcome.SKIPPED,
        hook_type=entry.type,
        error=why,
    )
