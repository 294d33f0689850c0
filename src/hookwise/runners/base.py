"""What every runner shares: the :class:`Firing` it is given and the one way an answer becomes a :class:`HookOutcome`.

A runner (see :mod:`hookwise.runners`) gets a :class:`Firing` (the event and
the host's settings: project, cwd, session, environments, output cap) and
planned :class:`~hookwise.core.registry.HookEntry` objects, and returns one
outcome per entry, built with :func:`hookwise.core.outcome.finish` (re-exported
here for the runners).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from hookwise.core.outcome import finish, skipped
from hookwise.core.registry import HookEntry
from hookwise.events import HookEvent


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

    def persistent_pool(self) -> Any:
        """The host's :class:`~hookwise.runners.persistent.PersistentPool` (created on first use)."""
        ...


class Firing:
    """One firing as runners see it: the event and the host."""

    __slots__ = ("event", "host")

    def __init__(self, event: HookEvent, host: Host) -> None:
        self.event = event
        self.host = host


__all__ = ["Firing", "Host", "finish", "skipped"]
