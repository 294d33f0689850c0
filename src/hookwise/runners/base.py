"""What every runner shares: the :class:`Firing` it is given and the one way an answer becomes a :class:`HookOutcome`.

A runner (see :mod:`hookwise.runners`) gets a :class:`Firing` (the event and
the host's settings: project, cwd, session, environments, output cap) and
planned :class:`~hookwise.core.registry.HookEntry` objects, and returns one
outcome per entry, built with :func:`hookwise.core.outcome.finish` (re-exported
here for the runners).
"""

from __future__ import annotations

import _thread

from hookwise._records import TYPE_CHECKING
from hookwise.core.outcome import finish, skipped
from hookwise.core.registry import HookEntry
from hookwise.events import HookEvent
from hookwise.result import HookOutcome

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any, Protocol

    from hookwise.runners.persistent import PersistentPool
else:
    Protocol = object  # a typing.Protocol for type checkers, a plain base class at run time


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


_HOST_LOCK = (
    _thread.allocate_lock()
)  # creating a host's persistent-hook pool or its sanitised environment


class HostServices:
    """The :class:`Host` services of a hook system (:class:`hookwise.HookSystem` is built on it): the environment
    a hook's process starts from, the hook variables besides ``GEMINI_*`` and the persistent-hook pool.

    It reads the system's ``env``, ``project_dir`` and ``settings`` (their redaction policy and hook
    variables); the system clears ``_sanitized`` when it reloads its settings.
    """

    env: dict[str, str]
    project_dir: str
    settings: Any  # hookwise.settings.load.LoadedSettings (the runners never import settings/)
    _sanitized: dict[str, str] | None = None  # computed when a hook first needs it
    _pool: PersistentPool | None = None  # created on first use

    #: run a command without ``bash -c`` when bash would only exec it (see :mod:`hookwise.runners._direct`)
    direct_spawn: bool = True

    def env_for(self, entry: HookEntry) -> dict[str, str]:
        """The base environment of ``entry``'s process: sanitised for project/extension hooks (docs/contract.md §7)."""
        red = self.settings.redaction
        if not (red.enabled_for_untrusted if entry.sanitized_env else red.enabled_for_trusted):
            return self.env
        env = self._sanitized
        if env is None:
            with (
                _HOST_LOCK
            ):  # one sanitised copy per configuration (persistent hooks compare it by identity)
                env = self._sanitized
                if env is None:
                    from hookwise.runners.env import is_strict, sanitize

                    env = self._sanitized = sanitize(
                        self.env, red.allowed, red.blocked, is_strict(self.env)
                    )
        return env

    def extra_vars(self, session_id: str) -> dict[str, str]:
        """Hook variables besides ``GEMINI_*``: the profile's names and ``CLAUDE_PLUGIN_ROOT`` (docs/sources.md)."""
        vars_: dict[str, str] = self.settings.hook_vars(self.project_dir, session_id, self.env)
        return vars_

    def persistent_pool(self) -> PersistentPool:
        """The processes of this system's persistent hooks (created on first use, stopped by ``close``)."""
        with _HOST_LOCK:
            pool = self._pool
            if pool is None:
                import weakref

                from hookwise.runners.persistent import PersistentPool

                pool = self._pool = PersistentPool()
                weakref.finalize(self, pool.close)
        return pool

    def release_runners(self, runners: Mapping[str, object]) -> None:
        """Stop the persistent hooks' processes and let each runner free what it keeps for this host (http
        keep-alive); idempotent, the host starts what it needs again."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()
        for runner in runners.values():
            release = getattr(runner, "release", None)
            if release is not None:
                release(self)


#: AfterTool answer fields hookwise applies only in the tool result's shape (docs/claude.md, updatedToolOutput)
_TOOL_OUTPUT_KEYS = ("updatedToolOutput", "updatedMCPToolOutput")


def check_answer(
    o: HookOutcome, event: HookEvent, entry: HookEntry, inp: Mapping[str, Any] | None
) -> HookOutcome:
    """An AfterTool answer's ``updatedToolOutput`` checked against the tool's result: one of the wrong shape
    is dropped from the answer, with a warning (every hook kind; the Claude module loads only then)."""
    out = o.output
    if out is not None and event is HookEvent.AFTER_TOOL:
        hso = out.get("hookSpecificOutput")
        if isinstance(hso, dict) and any(k in hso for k in _TOOL_OUTPUT_KEYS):
            from hookwise.runners.dialects import dialect

            d = dialect(entry.dialect)
            o.notes.extend(f"hook {o.name}: {n}" for n in d.notes(event, out, inp))
    return o


class Firing:
    """One firing as runners see it: the event and the host."""

    __slots__ = ("event", "host")

    def __init__(self, event: HookEvent, host: Host) -> None:
        self.event = event
        self.host = host


class PerHookRunner:
    """A runner written one hook at a time: a subclass defines :meth:`run_one` (and may define
    :meth:`run_one_async`); the batch entry points of the runner protocol come from here."""

    kind = ""
    background = False

    def run_one(self, firing: Firing, entry: HookEntry, inp: dict[str, Any]) -> HookOutcome:
        raise NotImplementedError

    async def run_one_async(
        self, firing: Firing, entry: HookEntry, inp: dict[str, Any]
    ) -> HookOutcome:
        """Default: :meth:`run_one` on a thread of its own (never on the caller's loop)."""
        from hookwise.runners._workers import in_thread

        outcome: HookOutcome = await in_thread(self.run_one, firing, entry, inp)
        return outcome

    def run(
        self,
        firing: Firing,
        entries: Sequence[HookEntry],
        inp: dict[str, Any],
        during: Callable[[], None] | None = None,
    ) -> list[HookOutcome]:
        out = [self.run_one(firing, e, inp) for e in entries]
        if during is not None:
            during()
        return out

    async def run_async(
        self, firing: Firing, entries: Sequence[HookEntry], inp: dict[str, Any]
    ) -> list[HookOutcome]:
        import asyncio

        return list(await asyncio.gather(*(self.run_one_async(firing, e, inp) for e in entries)))


__all__ = ["Firing", "Host", "PerHookRunner", "finish", "skipped"]
