"""Configured hooks: :class:`HookEntry` (one hook of one definition) and the per-event index.

An entry keeps its true source label (``system``, ``user``, ``project``,
``extension``, ``runtime``), the file and JSON pointer it came from, and whether
it is enabled. The :class:`Registry` groups enabled entries by event in layer
order (runtime first) so that planning an event touches only its own entries.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING, dataclass, field
from hookwise.events import HookEvent

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

DEFAULT_TIMEOUT_MS = 60_000

#: source labels in merge order (docs/contract.md §1); runtime hooks run first
SOURCE_ORDER: dict[str, int] = {
    "runtime": 0,
    "system": 1,
    "user": 1,
    "project": 1,
    "extension": 2,
    "plugin": 2,
    "package": 2,
}
#: sources whose hooks run only once trusted, with a sanitized environment (docs/contract.md §7); package hooks
#: run at user trust (the user installed the package)
UNTRUSTED_SOURCES = frozenset({"project", "extension", "plugin"})


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
    source: str = "project"
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
