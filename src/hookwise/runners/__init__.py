"""Everything that starts a process or a thread for a hook: one runner per hook kind, one process driver.

:data:`KINDS` is the one table of hook kinds: a hook's ``type`` names its
:class:`~hookwise.runners.kind.HookKind`, the one owner of everything about the kind
(settings keys, typed spec, run, trust material, display, Claude Code conversion).
Every kind's runner takes planned hooks (:class:`~hookwise.core.registry.HookEntry`)
and their input and returns exactly one :class:`~hookwise.result.HookOutcome` per
hook, in order; the plan executor (:mod:`hookwise.core.execute`) never looks at
the kind. Adding a kind is one module with a :class:`HookKind` subclass (with
:class:`~hookwise.runners.base.PerHookRunner` for a kind that runs one hook at a
time) plus one row here (a :class:`LazyKind` row, so that its module is imported only
when settings name a hook of it); settings, ``validate``, ``list``, ``trust``, migration
and the JSON Schema read it from this table. What running its hooks needs is imported
when the first one runs.

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
from hookwise.runners.command import CommandKind
from hookwise.runners.kind import HookKind

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any, Protocol

    from hookwise.core.registry import KindSpec
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


def spec_from_keys(kind: HookKind, hook: Mapping[str, Any]) -> KindSpec:
    """The spec of a hook object already checked by the settings schema: its kind's own keys, defaults filled."""
    values: dict[str, Any] = {}
    for row in kind.keys:
        if row.attr:
            v = hook.get(row.name, row.default)
            values[row.attr] = type(v)(v) if isinstance(v, (dict, list)) else v
    return kind.make_spec(values)


class LazyKind:
    """A row of :data:`KINDS` whose module is imported when a hook of the kind is first read or run, so that a
    firing loads only the kinds its settings use (``hookwise fire`` start-up, docs/performance.md). Every
    member is the kind's own (:class:`~hookwise.runners.kind.HookKind`); only ``name`` is known before."""

    def __init__(self, name: str, module: str, cls: str) -> None:
        self.name = name
        self.module = module
        self.cls = cls
        self._kind: HookKind | None = None

    @property
    def loaded(self) -> bool:
        return self._kind is not None

    @property
    def kind(self) -> HookKind:
        """The kind itself (its module imported now if it was not yet)."""
        kind = self._kind
        if kind is None:
            __import__(self.module)  # not importlib: it is not on the firing path
            kind = self._kind = getattr(sys.modules[self.module], self.cls)()
            # what every firing calls, found directly from now on (not through __getattr__)
            self.run, self.run_async = kind.run, kind.run_async
        return kind

    def __getattr__(self, member: str) -> Any:
        return getattr(self.kind, member)

    def release(self, host: Any) -> None:
        """What :meth:`HookSystem.close <hookwise.engine.HookSystem.close>` calls: passed on to a kind that was
        used and keeps something per hook system (the http kind's connections)."""
        release = getattr(self._kind, "release", None)
        if release is not None:
            release(host)


def resolve_kind(row: HookKind | LazyKind) -> HookKind:
    """The :class:`~hookwise.runners.kind.HookKind` of a row of :data:`KINDS` (imported now if lazy)."""
    return row.kind if isinstance(row, LazyKind) else row


def loaded(row: HookKind | LazyKind) -> bool:
    return not isinstance(row, LazyKind) or row.loaded


#: hook ``type`` -> its kind: the one table of hook kinds (settings keys, spec, run, trust material, display,
#: Claude Code conversion; :class:`~hookwise.runners.kind.HookKind`). The command kind is always loaded; the
#: others are :class:`LazyKind` rows (their module imported when a hook of theirs is read or run).
KINDS: dict[str, HookKind] = {
    "command": CommandKind(),
    "python": LazyKind("python", "hookwise.runners.python", "PythonKind"),  # type: ignore[dict-item]
    "http": LazyKind("http", "hookwise.runners.http", "HttpKind"),  # type: ignore[dict-item]
}
#: the running half of :data:`KINDS` (the same objects): what :attr:`HookSystem.runners` starts from
RUNNERS: dict[str, Runner] = KINDS  # type: ignore[assignment]
