"""Hook packages: hooks contributed by installed distributions through the ``hookwise.hooks`` entry points.

An entry point names a hooks section (the object a settings file's ``hooks``
key holds) or a zero-argument callable returning one::

    [project.entry-points."hookwise.hooks"]
    secrets = "acme_guards.hooks:SECTION"

Its hooks carry the source label ``package`` and the distribution's name, run
at user trust (the user installed them) and are disabled by name like any hook.
A package that fails to import, or names something that is not a hooks section,
is one warning; the other hooks load.

Finding them must not slow down every start: :mod:`importlib.metadata` is
imported only when some installed distribution's ``entry_points.txt`` mentions
the group (a directory listing per ``sys.path`` entry decides that).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

GROUP = "hookwise.hooks"
SOURCE = "package"


def _may_declare_group(paths: list[str]) -> bool:
    """False only when no distribution on ``paths`` can declare :data:`GROUP` (cheap: no metadata import)."""
    for d in paths:
        base = d or "."
        try:
            names = os.listdir(base)
        except NotADirectoryError:
            return True  # a zip or egg on sys.path: only importlib.metadata can tell
        except OSError:
            continue
        for n in names:
            if n.endswith((".dist-info", ".egg-info")):
                try:
                    with open(os.path.join(base, n, "entry_points.txt"), encoding="utf-8", errors="replace") as f:
                        if GROUP in f.read():
                            return True
                except OSError:
                    continue
    return False


def discover(paths: list[str] | None = None) -> list[tuple[str, str, str, Callable[[], Any]]]:
    """``(distribution, entry point name, value, load)`` for every ``hookwise.hooks`` entry point, sorted."""
    search = list(sys.path) if paths is None else paths
    if not _may_declare_group(search):
        return []
    from importlib.metadata import distributions

    found: dict[tuple[str, str], tuple[str, str, str, Callable[[], Any]]] = {}
    for dist in distributions(path=search):
        name = str(dist.metadata["Name"] or "?")
        for ep in dist.entry_points:
            if ep.group == GROUP and (name, ep.name) not in found:  # the first on sys.path wins, like imports
                found[(name, ep.name)] = (name, ep.name, ep.value, ep.load)
    return [found[k] for k in sorted(found)]


def load_section(dist: str, ep_name: str, value: str, load: Callable[[], Any]) -> tuple[Any, str | None]:
    """The hooks section an entry point names, or ``(None, warning)``; never raises for the package's faults."""
    where = f"hook package {dist} (entry point {ep_name} = {value})"
    try:
        obj = load()
    except BaseException as exc:  # noqa: BLE001 - a package's import-time SystemExit must not end the host
        if isinstance(exc, KeyboardInterrupt):
            raise
        return None, f"{where}: importing it raised {type(exc).__name__}: {exc}; its hooks were not loaded"
    if callable(obj) and not isinstance(obj, dict):
        try:
            obj = obj()
        except BaseException as exc:  # noqa: BLE001
            if isinstance(exc, KeyboardInterrupt):
                raise
            return None, f"{where}: calling it raised {type(exc).__name__}: {exc}; its hooks were not loaded"
    if not isinstance(obj, dict):
        return None, (f"{where}: expected a hooks section (an object keyed by event name) or a function returning "
                      f"one, got {type(obj).__name__}; its hooks were not loaded")
    return obj, None
