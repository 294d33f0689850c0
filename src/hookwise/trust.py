"""Trust of project and extension hooks (docs/contract.md §7).

A hook's trust key is its identity (``name:command``) plus a SHA-256 over every
file its command names: each word of the expanded command that resolves
(symlinks followed) to an existing file inside the project directory (inside
the extension's directory for an extension hook). Editing the script, or
swapping it for a symlink, changes the key, so the hook is asked about again.

The store is ``<user dir>/trusted_hooks.json``, in Gemini CLI's own shape: an
object mapping a directory to a list of keys. hookwise's keys carry a
``|sha256:`` suffix, so the two tools can share the file without one's entry
ever trusting a hook for the other.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable, Mapping

from hookwise._records import TYPE_CHECKING
from hookwise.core.expand import expand_command
from hookwise.core.registry import HookEntry

if TYPE_CHECKING:
    from typing import Any

STORE_NAME = "trusted_hooks.json"


def _inside(path: str, root: str) -> bool:
    root = root.rstrip(os.sep) + os.sep
    return path.startswith(root)


#: files are hashed in full up to this size (hook scripts and even compiled hooks are far smaller)
MAX_HASHED_BYTES = 64 << 20


class FileHasher:
    """SHA-256 of files, cached by (device, inode, size, mtime) so unchanged files are hashed once."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[tuple[int, int, int, int], str]] = {}
        self._lock = threading.Lock()

    def digest(self, path: str) -> str | None:
        try:
            st = os.stat(path)
        except OSError:
            return None
        sig = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        with self._lock:
            hit = self._cache.get(path)
        if hit is not None and hit[0] == sig:
            return hit[1]
        import hashlib  # here, not at the top: loading OpenSSL costs ~3 ms of CLI start-up

        h = hashlib.sha256()
        left = MAX_HASHED_BYTES
        try:
            with open(path, "rb") as f:
                while left > 0:
                    chunk = f.read(min(1 << 16, left))
                    if not chunk:
                        break
                    h.update(chunk)
                    left -= len(chunk)
                if left <= 0 and f.read(1):
                    # a huge file (a planted symlink to a disk image must not stall every firing): the key
                    # covers its first MAX_HASHED_BYTES plus its size and modification time
                    h.update(f"\0size={st.st_size}\0mtime={st.st_mtime_ns}".encode())
        except OSError:
            return None
        d = h.hexdigest()
        with self._lock:
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[path] = (sig, d)
        return d


def command_words(command: str) -> list[str]:
    """The words of a shell command (quotes removed); falls back to splitting on white space."""
    import shlex  # not on the path of a firing without project hooks

    try:
        words = shlex.split(command, comments=False, posix=True)
    except ValueError:
        words = command.split()
    out = []
    for w in words:
        out.append(w)
        if "=" in w:  # VAR=path or --opt=path
            out.append(w.split("=", 1)[1])
    return out


def named_files(command: str, root: str, cwd: str) -> list[tuple[str, str]]:
    """``(word, real path)`` for every word of ``command`` that names an existing file under ``root``.

    A word counts when its own path or its resolved target lies inside ``root``,
    so a script swapped for a symlink pointing elsewhere still changes the key.
    """
    root_real = os.path.realpath(root)
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for w in command_words(command):
        if not w or w.startswith("-") and "=" not in w:
            continue
        p = w if os.path.isabs(w) else os.path.join(cwd, w)
        p = os.path.normpath(p)
        try:
            if not os.path.lexists(p):
                continue
        except (OSError, ValueError):
            continue
        real = os.path.realpath(p)
        if not (_inside(p, root) or _inside(p, root_real) or _inside(real, root_real)):
            continue
        if not os.path.isfile(real) or real in seen:
            continue
        seen.add(real)
        out.append((w, real))
    return out


class TrustStore:
    """Reads and writes ``trusted_hooks.json``; computes trust keys."""

    def __init__(
        self, user_dir: str, project_dir: str, values: Mapping[str, str] | None = None
    ) -> None:
        self.path = os.path.join(user_dir, STORE_NAME)
        self.project_dir = project_dir
        self.values = dict(values or {})
        self.hasher = FileHasher()
        self._data: dict[str, Any] = {}
        self._sig: tuple[int, int] | None = None
        self._lock = threading.Lock()

    # ---- keys ------------------------------------------------------------------------------
    def scope(self, entry: HookEntry) -> str:
        """The directory a hook's trust is recorded under (project dir, or the extension's dir)."""
        if entry.source in ("extension", "plugin") and entry.extension_dir:
            return entry.extension_dir
        return self.project_dir

    def key(self, entry: HookEntry) -> str:
        root = self.scope(entry)
        expanded = expand_command(
            entry.command,
            {
                **self.values,
                "GEMINI_PROJECT_DIR": self.project_dir,
                "CLAUDE_PROJECT_DIR": self.project_dir,
            },
        )
        import hashlib

        h = hashlib.sha256()
        if (
            entry.type == "python"
        ):  # a settings python hook: the files of its module (docs/hook-types.md)
            from hookwise.runners.callable import module_files

            files = [
                (entry.command, os.path.realpath(f)) for f in module_files(entry.command, root)
            ]
        elif (
            entry.type == "http"
        ):  # the URL is in the identity; what is sent along is in the key too
            files = []
            h.update(
                json.dumps(
                    [entry.extra.get("headers"), entry.extra.get("allowedEnvVars")], sort_keys=True
                ).encode("utf-8", "surrogateescape")
            )
        else:
            files = named_files(expanded, root, self.project_dir)
        for word, real in files:
            d = self.hasher.digest(real) or "unreadable"
            rel = os.path.relpath(real, os.path.realpath(root))
            h.update(f"{word}\0{rel}\0{d}\n".encode("utf-8", "surrogateescape"))
        return f"{entry.identity}|sha256:{h.hexdigest()}"

    # ---- store -----------------------------------------------------------------------------
    def _load(self) -> dict[str, Any]:
        try:
            st = os.stat(self.path)
        except OSError:
            self._data, self._sig = {}, None
            return self._data
        sig = (st.st_mtime_ns, st.st_size)
        if sig == self._sig:
            return self._data
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError):
            data = {}
        self._data = data if isinstance(data, dict) else {}
        self._sig = sig
        return self._data

    def trusted_keys(self, scope: str) -> set[str]:
        with self._lock:
            keys = self._load().get(scope)
        return {k for k in keys if isinstance(k, str)} if isinstance(keys, list) else set()

    def is_trusted(self, entry: HookEntry) -> bool:
        if not entry.needs_trust:
            return True
        return self.key(entry) in self.trusted_keys(self.scope(entry))

    def trust(self, entries: Iterable[HookEntry]) -> list[HookEntry]:
        """Record every entry as trusted (keys of other tools and projects are kept). Returns those added."""
        from hookwise.atomic import write_atomic

        added = []
        with self._lock:
            self._sig = None
            data = dict(self._load())
            for e in entries:
                if not e.needs_trust:
                    continue
                scope = self.scope(e)
                keys = data.get(scope)
                keys = list(keys) if isinstance(keys, list) else []
                k = self.key(e)
                if k not in keys:
                    keys.append(k)
                    added.append(e)
                data[scope] = keys
            if added:
                # who may run what is private: the store is 0600 in a 0700 directory (docs/sources.md, "Trust")
                directory = os.path.dirname(self.path)
                try:
                    st = os.stat(directory)
                    if st.st_uid == os.getuid() and st.st_mode & 0o077:
                        os.chmod(directory, 0o700)
                except OSError:
                    pass  # missing: write_atomic creates it 0700
                write_atomic(
                    self.path, json.dumps(data, indent=2, ensure_ascii=False) + "\n", mode=0o600
                )
            self._sig = None
        return added
