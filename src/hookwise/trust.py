"""Trust of project and extension hooks (docs/contract.md §7).

A hook's trust key is its identity (``name:target``) plus a SHA-256 over its
*trust material*, which its kind declares (:meth:`HookKind.trust_material
<hookwise.runners.kind.HookKind.trust_material>`): labelled lines (``env``, ``shell``,
headers, sent variables) and the contents of every file that runs (for a command,
each word of the expanded command, also glued to an operator or a redirection,
that resolves, symlinks followed, to an existing file inside the project directory,
or the extension's directory for an extension hook). Editing the script, an
``env`` value or a header, or swapping the script for a symlink, changes the key,
so the hook is asked about again. :func:`review` prints exactly that material.

The store is ``<user dir>/trusted_hooks.json``, in Gemini CLI's own shape: an
object mapping a directory to a list of keys. hookwise's keys carry a
``|sha256:`` suffix, so the two tools can share the file without one's entry
ever trusting a hook for the other.
"""

from __future__ import annotations

import _thread
import os

from hookwise._records import TYPE_CHECKING
from hookwise.core.registry import HookEntry
from hookwise.jsonc.codec import dumps_indented, loads
from hookwise.runners.kind import Material, visible

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

STORE_NAME = "trusted_hooks.json"
#: hooks declined "never for this project" in the agent's trust offer (same shape: directory ->
#: keys)
DECLINED_NAME = "hookwise_declined_hooks.json"


def _inside(path: str, root: str) -> bool:
    root = root.rstrip(os.sep) + os.sep
    return path.startswith(root)


#: files are hashed in full up to this size (hook scripts and even compiled hooks are far smaller)
MAX_HASHED_BYTES = 64 << 20


_SHA256: list[Any] = []


def _sha256() -> Any:
    """A SHA-256 object: the interpreter's own implementation when it has one (``import hashlib``
    loads OpenSSL, ~3 ms of a CLI start-up), else hashlib's."""
    if not _SHA256:
        import sys

        try:  # by version: a failed import would search the whole sys.path first
            if sys.version_info >= (3, 12):
                from _sha2 import sha256  # type: ignore[import-not-found]
            else:
                from _sha256 import sha256  # type: ignore[import-not-found,no-redef]
        except ImportError:  # an interpreter built without them
            from hashlib import sha256  # type: ignore[assignment]
        _SHA256.append(sha256)
    return _SHA256[0]()


class FileHasher:
    """SHA-256 of files, cached by (device, inode, size, mtime) so unchanged files are hashed
    once."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[tuple[int, int, int, int], str]] = {}
        self._lock = _thread.allocate_lock()

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
        h = _sha256()
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
                    # a huge file (a planted symlink to a disk image must not stall every firing):
                    # the key covers its first MAX_HASHED_BYTES plus its size and modification time
                    h.update(f"\0size={st.st_size}\0mtime={st.st_mtime_ns}".encode())
        except OSError:
            return None
        d: str = h.hexdigest()
        with self._lock:
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[path] = (sig, d)
        return d


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
        self._lock = _thread.allocate_lock()
        #: keys trusted for this session only (the agent's offer): never written anywhere
        self.session_keys: set[str] = set()

    # ---- keys ------------------------------------------------------------------------------
    def scope(self, entry: HookEntry) -> str:
        """The directory a hook's trust is recorded under (project dir, or the extension's dir)."""
        return entry.own_dir or self.project_dir

    def material(self, entry: HookEntry) -> Material:
        """What trusting ``entry`` approves, as its kind declares it (:meth:`HookKind.trust_material
        <hookwise.runners.kind.HookKind.trust_material>`): the review screen prints it, the key
        hashes it."""
        from hookwise.runners import KINDS

        kind = KINDS.get(entry.type)
        if kind is None:  # no kind, nothing it could run is known: never matches a stored key
            return Material([("unknown kind", entry.type)], [("", "")])
        values = {
            **self.values,
            "GEMINI_PROJECT_DIR": self.project_dir,
            "CLAUDE_PROJECT_DIR": self.project_dir,
        }
        return kind.trust_material(entry, self.scope(entry), values)

    def key(self, entry: HookEntry) -> str:
        """``name:target|sha256:<digest of the material>`` (labelled lines, then each file's
        content)."""
        m = self.material(entry)
        h = _sha256()
        for (
            label,
            text,
        ) in m.lines:  # a leading NUL: never the start of a file record (a path has no NUL)
            h.update(f"\0{label}\0{text}\n".encode("utf-8", "surrogateescape"))
        root = os.path.realpath(self.scope(entry))
        for word, real in m.files:
            d = (self.hasher.digest(real) or "unreadable") if real else "none"
            rel = os.path.relpath(real, root) if real else ""
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
                data = loads(f.read())
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
        key = self.key(entry)
        return key in self.session_keys or key in self.trusted_keys(self.scope(entry))

    def untrusted(self, entries: Iterable[HookEntry]) -> list[HookEntry]:
        """The ``entries`` that need trust and do not have it, de-duplicated by identity."""
        seen: set[str] = set()
        out = []
        for e in entries:
            if e.needs_trust and e.identity not in seen and not self.is_trusted(e):
                seen.add(e.identity)
                out.append(e)
        return out

    def trust_for_session(self, entries: Iterable[HookEntry]) -> None:
        """Trust ``entries`` for as long as this store lives (one session); nothing is recorded."""
        self.session_keys.update(self.key(e) for e in entries if e.needs_trust)

    def _declined_path(self) -> str:
        return os.path.join(os.path.dirname(self.path), DECLINED_NAME)

    def declined(self, entry: HookEntry) -> bool:
        """True when the user chose "never for this project" for this hook as it is now."""
        try:
            with open(self._declined_path(), encoding="utf-8") as f:
                data = loads(f.read())
        except (OSError, ValueError):
            return False
        keys = data.get(self.scope(entry)) if isinstance(data, dict) else None
        return isinstance(keys, list) and self.key(entry) in keys

    def decline(self, entries: Iterable[HookEntry]) -> None:
        """Record ``entries`` as declined for their project (or extension); a changed hook is asked
        about again."""
        from hookwise.atomic import write_atomic

        path = self._declined_path()
        with self._lock:
            try:
                with open(path, encoding="utf-8") as f:
                    data = loads(f.read())
            except (OSError, ValueError):
                data = {}
            data = data if isinstance(data, dict) else {}
            for e in entries:
                keys = data.get(self.scope(e))
                keys = list(keys) if isinstance(keys, list) else []
                if self.key(e) not in keys:
                    keys.append(self.key(e))
                data[self.scope(e)] = keys
            write_atomic(path, dumps_indented(data, ensure_ascii=False) + "\n", mode=0o600)

    def trust(self, entries: Iterable[HookEntry]) -> list[HookEntry]:
        """Record every entry as trusted (keys of other tools and projects are kept). Returns those
        added."""
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
                # who may run what is private: the store is 0600 in a 0700 directory
                # (docs/sources.md, "Trust")
                directory = os.path.dirname(self.path)
                try:
                    st = os.stat(directory)
                    if st.st_uid == os.getuid() and st.st_mode & 0o077:
                        os.chmod(directory, 0o700)
                except OSError:
                    pass  # missing: write_atomic creates it 0700
                write_atomic(self.path, dumps_indented(data, ensure_ascii=False) + "\n", mode=0o600)
            self._sig = None
        return added


def review(entry: HookEntry, store: TrustStore, project_dir: str, trusted: bool) -> list[str]:
    """The review screen of one hook: where it is from, then exactly its trust material, every
    control character made visible (``hookwise trust`` and the agent's trust offer print this)."""
    from hookwise.runners import KINDS

    origin = entry.extra.get("plugin") or (
        os.path.basename(entry.extension_dir) if entry.extension_dir else None
    )
    label = f"{entry.source} {visible(str(origin))!r}" if origin else entry.source
    matcher = f", matcher {visible(entry.matcher)!r}" if entry.matcher else ""
    where = _rel(entry.file, project_dir) if entry.file else entry.source
    state = "" if trusted else " [untrusted]"
    name = visible(entry.name) if entry.name else "(no name)"
    event = (
        (entry.extra.get("claude_event") or entry.extra.get("agent_event"))
        if "relay" in entry.extra
        else entry.event.value
    )  # docs/agents.md
    out = [f"{label} hook {name} ({event}{matcher}) from {visible(where)}{state}"]
    kind = KINDS.get(entry.type)
    what, target = kind.display(entry) if kind is not None else (entry.type, entry.target)
    m = store.material(entry)
    width = max(len(w) for w in (what, *(lbl for lbl, _ in m.lines), "file"))
    out.append(f"  {what + ':':{width + 1}} {visible(target)}")
    out.extend(f"  {lbl + ':':{width + 1}} {visible(text)}" for lbl, text in m.lines)
    out.extend(
        f"  {'file:':{width + 1}} {visible(_rel(real, project_dir))}"
        for _w, real in m.files
        if real
    )
    return out


def _rel(path: str, base: str) -> str:
    try:
        rel = os.path.relpath(path, base)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel
