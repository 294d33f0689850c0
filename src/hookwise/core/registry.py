"""Configured hooks: :class:`HookEntry` (one hook of one definition) and the per-event index.

An entry keeps its true source label (a row of :data:`SOURCES`: ``runtime``,
``system``, ``user``, ``project``, ``extension``, ``plugin``, ``package``), the
file and JSON pointer it came from, and whether it is enabled. The :class:`Registry`
groups enabled entries by event in layer order (runtime first) so that planning an
event touches only its own entries.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING, dataclass, field
from hookwise.events import HookEvent

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

DEFAULT_TIMEOUT_MS = 60_000


@dataclass(frozen=True)
class Source:
    """One place hooks come from (docs/sources.md): the ``source`` label its hooks carry and what follows from it.

    ``order``        run order: runtime hooks first, then the settings layers, then extensions, plugins, packages
    ``trusted``      its hooks run without ``hookwise trust``, in the full environment (docs/contract.md §7)
    ``settings``     a settings file: may set keys besides hooks (a key's ``Origin`` names these labels)
    ``in_files``     its hooks are written in files (every source but hooks registered from code)
    ``own_dir``      its hooks live in a directory of their own (``extension_dir``): trust is recorded under it
                     and the words of a command are resolved in it
    ``switched_by``  whose ``hooksConfig.disabled`` reaches its hooks: ``system`` (only the system settings),
                     ``user`` (user and system settings), ``any`` (a project's too), ``""`` (no file)
    ``module_root``  where a ``python`` hook's own module is looked up: ``project`` (the project directory),
                     ``own`` (its ``extension_dir``), ``""`` (``sys.path`` only)
    """

    label: str
    order: int
    trusted: bool
    settings: bool
    in_files: bool
    own_dir: bool
    switched_by: str
    module_root: str


RUNTIME, SYSTEM, USER, PROJECT = "runtime", "system", "user", "project"
EXTENSION, PLUGIN, PACKAGE = "extension", "plugin", "package"

#: every source, in run order (docs/sources.md; tests/core/test_sources.py checks the code and the docs read it).
#: System defaults and system overrides are both ``system``; Claude Code's files load as ``user`` / ``project``;
#: Tabnine's and TerminaI's files are profiles of the same layers (settings/profiles.py).
SOURCES: dict[str, Source] = {
    s.label: s
    for s in (
        Source(RUNTIME, 0, True, False, False, False, "", ""),
        Source(SYSTEM, 1, True, True, True, False, SYSTEM, ""),
        Source(USER, 1, True, True, True, False, USER, ""),
        Source(PROJECT, 1, False, True, True, False, "any", PROJECT),
        Source(EXTENSION, 2, False, False, True, True, "any", "own"),
        Source(PLUGIN, 2, False, False, True, True, "any", ""),
        Source(PACKAGE, 2, True, False, True, False, USER, ""),
    )
}
#: source labels in merge order (docs/contract.md §1); runtime hooks run first
SOURCE_ORDER: dict[str, int] = {s.label: s.order for s in SOURCES.values()}
#: sources whose hooks run only once trusted, with a sanitized environment (docs/contract.md §7); package hooks
#: run at user trust (the user installed the package)
UNTRUSTED_SOURCES = frozenset(s.label for s in SOURCES.values() if not s.trusted)
#: sources whose hooks live in a directory of their own (trust scope, where a command's words resolve)
OWN_DIR_SOURCES = frozenset(s.label for s in SOURCES.values() if s.own_dir)


@dataclass(frozen=True)
class KindSpec:
    """What a hook of one kind runs: the values of its kind's own keys, typed (one subclass per kind).

    ``target`` is what the hook runs in one line (its command, URL or function reference): the second half of
    its identity and its display name when it has no name. A kind defines its spec next to its runner; the
    three built-in kinds' specs are here because :class:`HookEntry` readers across the package use them.
    """

    @property
    def target(self) -> str:
        return ""


@dataclass(frozen=True)
class CommandSpec(KindSpec):
    """``"type": "command"``: a shell command, its shell (None = bash, or ``"powershell"``), ``persistent``."""

    command: str = ""
    shell: str | None = None
    persistent: bool = False

    @property
    def target(self) -> str:
        return self.command


@dataclass(frozen=True)
class HttpSpec(KindSpec):
    """``"type": "http"``: the URL the input is POSTed to, its headers, the variables headers may use."""

    url: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    allowed_env: tuple[str, ...] = ()

    @property
    def target(self) -> str:
        return self.url


@dataclass(frozen=True)
class PythonSpec(KindSpec):
    """``"type": "python"``: a ``"package.module:function"`` reference (settings), or a function (code)."""

    callable: str = ""
    func: Callable[..., Any] | None = None
    isolate: bool = False  # run in a subprocess of its own (runners/_isolated.py)
    #: call ``func`` on the firing's own thread (``HookSystem.register(..., inline=True)``): set from code
    #: only, no settings key has it, and the runner honours it for a registered function only
    inline: bool = False

    @property
    def target(self) -> str:
        return self.callable


@dataclass(eq=False)
class HookEntry:
    """One configured hook.

    ``type`` names the hook's kind (a row of :data:`hookwise.runners.KINDS`) and ``spec`` holds
    what that kind runs (:class:`CommandSpec`, :class:`HttpSpec`, :class:`PythonSpec` or a new
    kind's own spec); everything else is what every hook has. ``extra`` holds where a hook came
    from beyond its layer (``plugin``, ``origin``, ``package``, ``claude_event``), never what it
    runs. ``condition``, ``run_async`` and ``once`` are the hook keys ``if``, ``async`` and
    ``once`` (docs/claude.md). ``pointer`` is the JSON pointer of the hook object inside ``file``
    (``/hooks/BeforeTool/0/hooks/1``).
    """

    event: HookEvent
    name: str = ""
    type: str = "command"
    spec: KindSpec = field(default_factory=CommandSpec)
    description: str = ""
    matcher: str | None = None
    sequential: bool = False
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    source: str = PROJECT
    file: str | None = None
    pointer: str = ""
    env: dict[str, str] = field(default_factory=dict)
    fail_closed: bool = False
    dialect: str | None = None
    enabled: bool = True
    extension_dir: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: ``if``: one Claude Code permission rule (``Bash(git push *)``); the hook runs only for tool calls it
    #: matches, never on other events, and an ``if`` that does not parse skips the hook (docs/claude.md)
    condition: str | None = None
    #: ``async``: started in the background; the firing does not wait and its answer cannot block
    run_async: bool = False
    #: ``once``: runs until its first ``ok`` outcome in this HookSystem (session), then no more
    once: bool = False

    @property
    def target(self) -> str:
        """What the hook runs, in one line (:attr:`KindSpec.target`)."""
        return self.spec.target

    @property
    def command(self) -> str:
        """A command hook's shell command; empty for every other kind."""
        spec = self.spec
        return spec.command if isinstance(spec, CommandSpec) else ""

    @property
    def func(self) -> Callable[..., Any] | None:
        """A Python hook registered from code: its function."""
        spec = self.spec
        return spec.func if isinstance(spec, PythonSpec) else None

    @property
    def identity(self) -> str:
        """``name:target`` — the de-duplication key (docs/contract.md §2)."""
        return f"{self.name}:{self.spec.target}"

    @property
    def display_name(self) -> str:
        """The name if set, else what it runs (what ``hooksConfig.disabled`` lists)."""
        return self.name or self.spec.target or f"unknown-{self.type}-hook"

    @property
    def needs_trust(self) -> bool:
        """Project, extension and plugin hooks run only once trusted (docs/contract.md §7)."""
        return self.source in UNTRUSTED_SOURCES

    @property
    def sanitized_env(self) -> bool:
        """Project, extension and plugin hooks get a sanitized environment by default."""
        return self.source in UNTRUSTED_SOURCES

    @property
    def switched_by(self) -> str:
        """Whose ``hooksConfig.disabled`` reaches this hook (:attr:`Source.switched_by`; ``user`` for a label
        that is not a row)."""
        row = SOURCES.get(self.source)
        return USER if row is None else row.switched_by

    def module_dir(self, project_dir: str) -> str | None:
        """Where a ``python`` hook's own module is looked up besides ``sys.path`` (:attr:`Source.module_root`):
        the project, the extension's directory, or None."""
        row = SOURCES.get(self.source)
        root = "" if row is None else row.module_root
        if root == PROJECT:
            return project_dir
        return self.extension_dir if root == "own" else None

    @property
    def own_dir(self) -> str | None:
        """The directory of its own an extension's or plugin's hook lives in (trust scope), else None."""
        return self.extension_dir if self.source in OWN_DIR_SOURCES else None


class Registry:
    """Enabled entries grouped by event, in layer order (runtime first, stable)."""

    def __init__(self, entries: Iterable[HookEntry] = ()) -> None:
        self.all: list[HookEntry] = list(entries)
        self._by_event: dict[HookEvent, list[HookEntry]] = {}
        self._rebuild()

    def _rebuild(self) -> None:
        by: dict[HookEvent, list[HookEntry]] = {}
        for e in sorted(self.all, key=lambda e: SOURCE_ORDER.get(e.source, 99)):
            if e.enabled:
                by.setdefault(e.event, []).append(e)
        self._by_event = by

    def for_event(self, event: HookEvent) -> list[HookEntry]:
        """Enabled entries for ``event`` (do not mutate the list)."""
        return self._by_event.get(event, [])

    def add(self, entry: HookEntry) -> None:
        self.all.append(entry)
        self._rebuild()

    def remove(self, entry: HookEntry) -> None:
        self.all = [e for e in self.all if e is not entry]
        self._rebuild()
