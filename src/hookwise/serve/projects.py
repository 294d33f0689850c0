"""Which project a request belongs to, and one :class:`~hookwise.engine.HookSystem` per project.

A request names its project by a directory (the payload's ``cwd``). It is served only when that
directory is inside one of the roots the service was started with (symbolic links resolved, so a
link cannot lead outside); the project is the nearest directory from there up to the root that
holds ``.gemini/``, ``.claude/`` or ``.git``, else the directory itself.

Each project has its own hook system, built like the CLI builds one (trust exactly as
``hookwise fire``). Before a request the settings files it was loaded from are checked (``stat``:
modification time and size; at most every :data:`CHECK_INTERVAL_S`); when one changed, a new
system replaces it and the old one is closed (its persistent hooks stopped) once its in-flight
requests are done.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hookwise.engine import HookSystem

#: a directory holding one of these is a project
PROJECT_MARKERS = (".gemini", ".claude", ".git")
#: hook systems kept at once (the least recently used one is closed beyond this)
MAX_PROJECTS = 256
#: seconds between two checks of a project's settings files (a ``stat`` each)
CHECK_INTERVAL_S = 0.2
#: a python hook's module files are looked at (``stat``, to import an edited module again) at most
#: this often, like the settings files (docs/fleet.md: an edit takes effect within this window;
#: trust is still checked on every firing, so only code that was trusted when it was imported runs)
MODULE_RECHECK_S = CHECK_INTERVAL_S

Fingerprint = tuple[tuple[str, int, int], ...]


def _fingerprint(paths: Sequence[str]) -> Fingerprint:
    out = []
    for p in paths:
        try:
            st = os.stat(p)
        except OSError:
            out.append((p, -1, -1))
        else:
            out.append((p, st.st_mtime_ns, st.st_size))
    return tuple(out)


def settings_files(system: HookSystem) -> list[str]:
    """The settings files a hook system was loaded from (missing ones too: creating one changes the
    plan)."""
    return [layer.path for layer in system.settings.layers]


@dataclass
class Project:
    """A project's current hook system and what is needed to tell when it is stale."""

    directory: str
    system: HookSystem
    fingerprint: Fingerprint
    version: str
    files: list[str] = field(default_factory=list)
    inflight: int = 0
    retired: bool = False
    checked: float = 0.0  #: when the settings files were last found unchanged (``time.monotonic``)
    #: event -> seconds a request may wait for its hooks (computed on first use)
    limits: dict[str, float] = field(default_factory=dict)


class Projects:
    """The projects under ``roots`` and their hook systems (thread-safe)."""

    def __init__(self, roots: Sequence[str], factory: Callable[[str], HookSystem]) -> None:
        self.roots = [os.path.realpath(r) for r in roots]
        self._factory = factory
        self._lock = threading.Lock()
        self._projects: OrderedDict[str, Project] = OrderedDict()
        self._resolved: dict[str, tuple[str | None, float]] = {}  # cwd -> (project, when)

    def resolve(self, cwd: str | None) -> str | None:
        """The project directory of a request's ``cwd``, or None when it is outside every root
        (remembered for :data:`CHECK_INTERVAL_S` per ``cwd``: the walk costs a third of a
        request)."""
        if not cwd:
            return None
        now = time.monotonic()
        hit = self._resolved.get(cwd)
        if hit is not None and now - hit[1] < CHECK_INTERVAL_S:
            return hit[0]
        found = self._resolve(cwd)
        if len(self._resolved) >= MAX_PROJECTS * 16:
            self._resolved.clear()
        self._resolved[cwd] = (found, now)
        return found

    def _resolve(self, cwd: str) -> str | None:
        if not os.path.isabs(cwd):
            return None
        real = os.path.realpath(cwd)
        root = next((r for r in self.roots if real == r or real.startswith(r + os.sep)), None)
        if root is None or not os.path.isdir(real):
            return None
        d = real
        while True:
            if any(os.path.exists(os.path.join(d, m)) for m in PROJECT_MARKERS):
                return d
            if d == root:
                return real
            d = os.path.dirname(d)

    def acquire(
        self, directory: str, flavor: str = "", build: Callable[[], HookSystem] | None = None
    ) -> Project:
        """The project's up-to-date hook system, counted in flight until :meth:`release`.

        ``flavor`` keeps a separate system per bridged agent (its own entries and profile), made by
        ``build`` (default: the factory)."""
        key = f"{directory}\0{flavor}" if flavor else directory
        with self._lock:
            proj = self._projects.get(key)
            if proj is not None:
                proj.inflight += 1
                self._projects.move_to_end(key)
        if proj is not None:
            now = time.monotonic()
            if now - proj.checked < CHECK_INTERVAL_S:
                return proj
            if proj.fingerprint == _fingerprint(proj.files):  # stat outside the lock
                proj.checked = now
                return proj
            self.release(proj)
            with self._lock:
                if self._projects.get(key) is proj:
                    self._retire(self._projects.pop(key))
        with self._lock:
            proj = self._projects.get(key) or self._load(key, directory, build)
            proj.inflight += 1
            return proj

    def release(self, proj: Project) -> None:
        with self._lock:
            proj.inflight -= 1
            close = proj.retired and proj.inflight == 0
        if close:
            proj.system.close()

    def _load(self, key: str, directory: str, build: Callable[[], HookSystem] | None) -> Project:
        system = build() if build is not None else self._factory(directory)
        files = settings_files(system)
        proj = Project(directory, system, _fingerprint(files), system.policy_version, files)
        self._projects[key] = proj
        while len(self._projects) > MAX_PROJECTS:
            _, old = self._projects.popitem(last=False)
            self._retire(old)
        return proj

    def _retire(self, proj: Project) -> None:
        proj.retired = True
        if proj.inflight == 0:
            proj.system.close()

    def close(self) -> None:
        """Retire every project (their persistent hooks stop once their requests are done)."""
        with self._lock:
            projects = list(self._projects.values())
            self._projects.clear()
            for p in projects:
                p.retired = True
        for p in projects:
            if p.inflight == 0:
                p.system.close()

    def all(self) -> list[Project]:
        with self._lock:
            return list(self._projects.values())
