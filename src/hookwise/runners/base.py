"""What every runner shares: the :class:`Firing` it is given and the one way an answer becomes a :class:`HookOutcome`.

A runner (see :mod:`hookwise.runners`) gets a :class:`Firing` (the event and
the host's settings: project, cwd, session, environments, output cap) and
planned :class:`~hookwise.core.registry.HookEntry` objects, and returns one
outcome per entry. :func:`finish` is where an interpretation becomes that
outcome, fail-closed applied (docs/contract.md §6).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from hookwise.core.interpret import Interpretation, fail_closed_output
from hookwise.core.registry import HookEntry
from hookwise.events import HookEvent
from hookwise.result import HookOutcome, Outcome


class Host(Protocol):
    """What runners read from the hook system that fires (a :class:`~hookwise.HookSystem`)."""

    project_dir: str
    cwd: str
    session_id: str
    output_cap: int
    direct_spawn: bool

    def env_for(self, entry: HookEntry) -> Mapping[str, str]:
        """The base environment of ``entry``'s process (sanitised for project/extension hooks)."""
        ...

    def is_trusted(self, entry: HookEntry) -> bool: ...

    def extra_vars(self, session_id: str) -> Mapping[str, str]:
        """Variables besides ``GEMINI_*`` (a product profile's names, ``CLAUDE_PLUGIN_ROOT``; docs/sources.md)."""
        ...

    def persistent_pool(self) -> Any:
        """The host's :class:`~hookwise.runners.persistent.PersistentPool` (created on first use)."""
        ...


class Firing:
    """One firing as runners see it: the event and the host."""

    __slots__ = ("event", "host")

    def __init__(self, event: HookEvent, host: Host) -> None:
        self.event = event
        self.host = host


def finish(entry: HookEntry, event: HookEvent, it: Interpretation, exit_code: int | None = None,
           duration_ms: float = 0.0, stdout: str = "", stderr: str = "", truncated: bool = False) -> HookOutcome:
    """The outcome of one hook call from its interpretation (fail-closed applied, docs/contract.md §6)."""
    output = it.output
    if entry.fail_closed and it.outcome in (Outcome.FAILED, Outcome.NOT_RUN, Outcome.TIMEOUT):
        output = fail_closed_output(entry.display_name, it.outcome, it.error, output)
    return HookOutcome(
        name=entry.display_name, command=entry.command, source=entry.source, event=event.value,
        outcome=it.outcome, hook_type=entry.type, exit_code=exit_code, duration_ms=duration_ms, output=output,
        stdout=stdout, stderr=stderr, error=it.error, truncated=truncated,
    )


def skipped(entry: HookEntry, event: HookEvent) -> HookOutcome:
    """The outcome of a hook that was not run because it is not trusted (docs/contract.md §7)."""
    where = entry.file or entry.source
    return HookOutcome(
        name=entry.display_name, command=entry.command, source=entry.source, event=event.value,
        outcome=Outcome.SKIPPED, hook_type=entry.type,
        error=f"not trusted: {entry.source} hook from {where} has not been approved (run `hookwise trust`)"
              + (f"; it would run: {entry.command}" if entry.type == "command" and entry.name else ""),
    )
