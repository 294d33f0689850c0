"""Everything that starts a process or a thread for a hook: one runner per hook kind, one process driver.

:data:`RUNNERS` is the one table of hook kinds: a hook's ``type`` names its
runner. Every runner takes planned hooks (:class:`~hookwise.core.registry.HookEntry`)
and their input and returns exactly one :class:`~hookwise.result.HookOutcome` per
hook, in order; the plan executor (:mod:`hookwise.core.execute`) never looks at
the kind. Adding a kind is one module with a class that has the :class:`Runner`
shape (subclass :class:`~hookwise.runners.base.PerHookRunner` and write ``run_one``
for a kind that runs one hook at a time), plus one row here (a :class:`Deferred`
row, so that its module is imported only when a hook of that kind runs); settings
learn the new ``type`` from the schema (:mod:`hookwise.settings.schema`).

- ``command`` (:mod:`.command`): shell commands, one-shot or ``persistent``;
- ``python`` (:mod:`.python`): functions registered from code or named in settings (``callable``);
- ``http`` (:mod:`.http`): a POST of the input to a URL (docs/hook-types.md).

Modules: ``_process`` (the one process driver: spawn, signal, pidfd, cleanup),
``_direct`` (exec without ``bash -c`` when bash would only exec), ``_reaper``
(leftover processes), ``_workers`` (worker threads for Python hooks),
``persistent`` (long-lived hook processes, on ``_process``), ``env``
(environment sanitising), ``dialects`` (the hook's input/answer shape),
``base`` (the :class:`~hookwise.runners.base.Firing` runners get, outcome building).
"""

from __future__ import annotations

import sys

from hookwise._records import TYPE_CHECKING
from hookwise.core.registry import HookEntry
from hookwise.result import HookOutcome
from hookwise.runners.base import Firing
from hookwise.runners.command import CommandRunner

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, Protocol
else:
    Protocol = object  # a typing.Protocol for type checkers, a plain base class at run time


class Runner(Protocol):
    """One kind of hook.

    ``run`` gets the firing, the planned hooks of this kind (all with the same
    input) and returns one outcome per hook in the same order; hook failures
    are outcomes, never exceptions. A runner whose work proceeds in the
    background once started (processes, requests) sets ``background`` and calls
    ``during()`` once everything is started; one that works on the calling
    thread calls it when done. ``run_async`` is the same for asyncio hosts and
    must never block the caller's loop. A runner that keeps something per hook system (the http runner's
    kept-alive connections) may also define ``release(host)``: :meth:`HookSystem.close
    <hookwise.engine.HookSystem.close>` calls it with the hook system.
    """

    kind: str
    background: bool

    def run(
        self,
        firing: Firing,
        entries: Sequence[HookEntry],
        inp: dict[str, Any],
        during: Callable[[], None] | None = None,
    ) -> list[HookOutcome]: ...

    async def run_async(
        self, firing: Firing, entries: Sequence[HookEntry], inp: dict[str, Any]
    ) -> list[HookOutcome]: ...


class Deferred:
    """A runner whose module is imported when it first runs a hook, so that a firing loads only the kinds it
    uses (the start-up of ``hookwise fire``, docs/performance.md). ``kind`` and ``background`` are given here;
    ``tests/engine/test_tables.py`` checks them against the runner's class."""

    def __init__(self, kind: str, module: str, name: str, *, background: bool) -> None:
        self.kind = kind
        self.background = background
        self.module = module
        self.name = name
        self._runner: Runner | None = None

    @property
    def runner(self) -> Runner:
        """The runner itself (its module imported now if it was not yet)."""
        runner = self._runner
        if runner is None:
            __import__(self.module)
            runner = self._runner = getattr(sys.modules[self.module], self.name)()
        return runner

    def run(
        self,
        firing: Firing,
        entries: Sequence[HookEntry],
        inp: dict[str, Any],
        during: Callable[[], None] | None = None,
    ) -> list[HookOutcome]:
        return self.runner.run(firing, entries, inp, during)

    async def run_async(
        self, firing: Firing, entries: Sequence[HookEntry], inp: dict[str, Any]
    ) -> list[HookOutcome]:
        return await self.runner.run_async(firing, entries, inp)

    def release(self, host: Any) -> None:
        """What :meth:`HookSystem.close <hookwise.engine.HookSystem.close>` calls: passed on to a runner that
        was used and keeps something per hook system."""
        release = getattr(self._runner, "release", None)
        if release is not None:
            release(host)


#: hook ``type`` -> its runner: the one table of hook kinds
RUNNERS: dict[str, Runner] = {
    "command": CommandRunner(),
    "python": Deferred("python", "hookwise.runners.python", "PythonRunner", background=False),
    "http": Deferred("http", "hookwise.runners.http", "HttpRunner", background=False),
}
