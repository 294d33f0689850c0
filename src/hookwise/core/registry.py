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


@dataclass(eq=False)
class HookEntry:
    """One configured hook.

    ``type`` names the runner of the hook (a row of :data:`hookwise.runners.RUNNERS`):
    ``command`` (a shell command), ``http`` (a POST to ``extra["url"]``; ``command``
    holds the URL) or ``python`` (a function registered from code, held by ``func``,
    or named in settings by ``callable``, which ``command`` then holds).
    ``extra["package"]`` names the distribution of a hook from a hook package (source
    ``package``). ``condition``, ``run_async``, ``once`` and ``shell`` are the hook
    keys ``if``, ``async``, ``once`` and ``shell`` (docs/claude.md). ``pointer`` is the JSON
    pointer of the hook object inside ``file`` (``/hooks/BeforeTool/0/hooks/1``).
    ``definition`` is the index of the definition within the whole event list, used to
    apply the definition-level ``sequential`` flag.
    """

    event: HookEvent
    command: str = ""
    name: str = ""
    type: str = "command"
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
    func: Callable[..., Any] | None = None
    extension_dir: str | None = None
    persistent: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    #: ``if``: one Claude Code permission rule (``Bash(git push *)``); the hook runs only for tool calls it
    #: matches, never on other events, and an ``if`` that does not parse skips the hook (docs/claude.md)
    condition: str | None = None
    #: ``async``: started in the background; the firing does not wait and its answer cannot block
    run_async: bool = False
    #: ``once``: runs until its first ``ok`` outcome in this HookSystem (session), then no more
    once: bool = False
    #: ``shell``: None or "bash" (``bash -c``), or "powershell" (``pwsh -NoProfile -Command``)
    shell: str | None = None

    @property
    def identity(self) -> str:
        """``name:command`` — the de-duplication key (docs/contract.md §2)."""
        return f"{self.name}:{self.command}"

    @property
    def display_name(self) -> str:
        """The name if set, else the command (what ``hooksConfig.disabled`` lists)."""
        return (
            self.name
            or self.command
            or ("unknown-hook" if self.type == "python" else "unknown-command")
        )

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
