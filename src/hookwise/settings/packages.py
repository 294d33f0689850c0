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
the group. Reading every ``entry_points.txt`` still costs about a millisecond in
a venv with a hundred distributions, so the answer is remembered per ``sys.path``
directory in ``$XDG_CACHE_HOME/hookwise/entry-points.json`` (``~/.cache/...``),
keyed by the directory's modification time: installing, upgrading or removing a
distribution adds or removes a ``*.dist-info`` directory there, which changes it,
and the directory is read again. (Editing an installed ``entry_points.txt`` by
hand changes only its own directory: delete the cache file after doing that.)
The cache is a hint: an unreadable or malformed file is read again from the
directories, and one that cannot be written is simply not written.
"""

from __future__ import annotations

import os
import stat
import sys

from hookwise._records import TYPE_CHECKING
from hookwise.core.registry import PACKAGE
from hookwise.jsonc.codec import dumps, loads

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

GROUP = "hookwise.hooks"
SOURCE = PACKAGE  # the source label of its hooks (core/registry.py: SOURCES)
CACHE_FILE = "entry-points.json"
_CACHE_VERSION = 1


def cache_path() -> str:
    """Where the per-directory answers are kept: ``$XDG_CACHE_HOME/hookwise/entry-points.json``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "hookwise", CACHE_FILE)


def _declares_group(directory: str) -> bool:
    """Whether some ``*.dist-info``/``*.egg-info`` in ``directory`` has an ``entry_points.txt`` naming the group."""
    try:
        names = os.listdir(directory)
    except OSError:
        return False
    for n in names:
        if n.endswith((".dist-info", ".egg-info")):
            try:
                with open(
                    os.path.join(directory, n, "entry_points.txt"),
                    encoding="utf-8",
                    errors="replace",
                ) as f:
                    if GROUP in f.read():
                        return True
            except OSError:
                continue
    return False


def _read_cache(path: str) -> dict[str, list[Any]]:
    try:
        with open(path, encoding="utf-8") as f:
            data = loads(f.read())
    except (OSError, ValueError):
        return {}
    if (
        not isinstance(data, dict)
        or data.get("version") != _CACHE_VERSION
        or not isinstance(data.get("dirs"), dict)
    ):
        return {}
    return {
        k: v
        for k, v in data["dirs"].items()
        if isinstance(v, list) and len(v) == 2 and isinstance(v[0], int) and isinstance(v[1], bool)
    }


def _write_cache(path: str, dirs: dict[str, list[Any]]) -> None:
    """Replace the cache file atomically, without fsync (a lost cache costs one more reading)."""
    from hookwise.atomic import write_atomic
    from hookwise.errors import WriteError

    live = {k: v for k, v in dirs.items() if os.path.isdir(k)}  # forget directories that are gone
    try:
        write_atomic(
            path,
            dumps({"version": _CACHE_VERSION, "dirs": live}, sort_keys=True),
            mode=0o600,
            durable=False,
        )
    except WriteError:
        pass  # a hint only: without it the next start reads the directories again


def _may_declare_group(paths: list[str]) -> bool:
    """False only when no distribution on ``paths`` can declare :data:`GROUP` (cheap: no metadata import)."""
    where = cache_path()
    cache = _read_cache(where)
    changed = False
    answer = False
    for d in paths:
        try:
            base = os.path.abspath(d or ".")  # "" (the current directory) fails when it was deleted
            st = os.stat(base)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode):
            answer = True  # a zip or egg on sys.path: only importlib.metadata can tell
            break
        hit = cache.get(base)
        if hit is not None and hit[0] == st.st_mtime_ns:
            found = bool(hit[1])
        else:  # the time is taken before reading: a change made while reading shows up as a new time
            found = _declares_group(base)
            cache[base] = [st.st_mtime_ns, found]
            changed = True
        if found:
            answer = True
            break
    if changed:
        _write_cache(where, cache)
    return answer


def installed_paths(project_dir: str | None = None) -> list[str]:
    """The :data:`sys.path` entries where installed distributions may be: without the ones a cloned project
    controls (docs/security.md).

    ``python -m hookwise`` and a host script run from a project put the current directory (or the
    script's) first on :data:`sys.path`; a repository holding ``evil-1.0.dist-info/entry_points.txt``
    would otherwise contribute hooks at user trust and have its module imported before any approval.
    Left out: ``""``, the current directory, and every directory inside the project except a
    ``site-packages``/``dist-packages`` one (a virtual environment the user made in the project).
    """
    try:
        here = os.getcwd()  # already the real path
    except OSError:
        here = ""
    roots = {os.path.abspath(project_dir), os.path.realpath(project_dir)} if project_dir else set()
    out = []
    for d in sys.path:
        a = os.path.abspath(d) if d else ""
        if not a or a == here or _controlled_by(a, roots):
            continue
        out.append(d)
    return out


def _controlled_by(path: str, roots: set[str]) -> bool:
    """Whether ``path`` is one of ``roots`` or inside one, and not a ``site-packages``/``dist-packages``."""
    for root in roots:
        if path == root or path.startswith(root + os.sep):
            parts = path[len(root) :].split(os.sep)
            return "site-packages" not in parts and "dist-packages" not in parts
    return False


def discover(
    paths: list[str] | None = None, project_dir: str | None = None
) -> list[tuple[str, str, str, Callable[[], Any]]]:
    """``(distribution, entry point name, value, load)`` for every ``hookwise.hooks`` entry point, sorted.

    ``paths`` defaults to :func:`installed_paths` (``sys.path`` without what ``project_dir`` controls)."""
    if paths is None:
        if not _may_declare_group(
            sys.path
        ):  # the common case, answered from the cache: no package at all
            return []
        search = installed_paths(project_dir)
    else:
        search = paths
    if not _may_declare_group(search):
        return []
    from importlib.metadata import distributions

    found: dict[tuple[str, str], tuple[str, str, str, Callable[[], Any]]] = {}
    for dist in distributions(path=search):
        name = str(dist.metadata["Name"] or "?")
        for ep in dist.entry_points:
            if (
                ep.group == GROUP and (name, ep.name) not in found
            ):  # the first on sys.path wins, like imports
                found[(name, ep.name)] = (name, ep.name, ep.value, ep.load)
    return [found[k] for k in sorted(found)]


def load_section(
    dist: str, ep_name: str, value: str, load: Callable[[], Any]
) -> tuple[Any, str | None]:
    """The hooks section an entry point names, or ``(None, warning)``; never raises for the package's faults."""
    where = f"hook package {dist} (entry point {ep_name} = {value})"
    try:
        obj = load()
    except BaseException as exc:  # noqa: BLE001 - a package's import-time SystemExit must not end the host
        if isinstance(exc, KeyboardInterrupt):
            raise
        return (
            None,
            f"{where}: importing it raised {type(exc).__name__}: {exc}; its hooks were not loaded",
        )
    if callable(obj) and not isinstance(obj, dict):
        try:
            obj = obj()
        except BaseException as exc:  # noqa: BLE001
            if isinstance(exc, KeyboardInterrupt):
                raise
            return (
                None,
                f"{where}: calling it raised {type(exc).__name__}: {exc}; its hooks were not loaded",
            )
    if not isinstance(obj, dict):
        return None, (
            f"{where}: expected a hooks section (an object keyed by event name) or a function returning "
            f"one, got {type(obj).__name__}; its hooks were not loaded"
        )
    return obj, None
