"""Atomic file writes that never follow a symlink.

The new content goes to a temporary file in the same directory, is flushed to
disk, and replaces the target with one ``os.replace``: a crash at any point
leaves either the old file or the new one, never a mix. A target (or parent
directory) that is a symlink is refused, so a write cannot be redirected to
another file through a planted link. Settings edits, the trust store, session
transcripts and JUnit reports all go through :func:`write_atomic`.
"""

from __future__ import annotations

import itertools
import os
import stat

from hookwise.errors import WriteError


def write_atomic(path: str, text: str, *, mode: int | None = None, durable: bool = True) -> None:
    """Write ``text`` (UTF-8, line endings as given) to ``path`` atomically.

    A temporary file is written in the same directory, fsynced and renamed over
    ``path`` (``os.replace``), so a crash leaves either the old or the new file.
    The file's permission bits are kept (a new file gets 0666 minus the umask).
    The parent directory is created when missing (``.gemini/``). Symlinks are
    never written through: if ``path`` or its directory is a symlink, raise
    :class:`WriteError` naming it. ``mode`` forces the file's permission bits (the
    trust store is written 0600) and a missing directory is then created 0700.
    ``durable=False`` skips the fsyncs, for files whose loss costs nothing (caches):
    the rename is still atomic.
    """
    path = os.path.abspath(path)
    directory = os.path.dirname(path)
    data = text.encode("utf-8")  # fails before anything is written
    if os.path.islink(directory):
        raise WriteError(
            f"{directory} is a symbolic link (to {os.readlink(directory)}); refusing to write "
            f"{os.path.basename(path)} through it. Edit the real file instead."
        )
    if os.path.islink(path):
        raise WriteError(
            f"{path} is a symbolic link (to {os.readlink(path)}); refusing to write through it. "
            f"Edit the real file instead."
        )
    if os.path.isdir(path):
        raise WriteError(f"{path} is a directory; cannot write a file there")
    try:
        if not os.path.isdir(directory):
            os.makedirs(directory, mode=0o700 if mode is not None else 0o777, exist_ok=True)
        if mode is None:
            try:
                mode = stat.S_IMODE(os.stat(path).st_mode)
            except FileNotFoundError:
                mode = 0o666 & ~_umask()
        fd, tmp = _temp_file(directory, os.path.basename(path))
    except OSError as exc:
        raise WriteError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise WriteError(
                f"cannot write {path}: {exc.strerror or exc}; the file was not changed"
            ) from None
        raise
    if not durable:
        return
    try:
        dfd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


_serial = itertools.count()


def _temp_file(directory: str, name: str) -> tuple[int, str]:
    """A new file ``.<name>.<pid>-<n>.tmp`` in ``directory``, created exclusively, readable by its
    owner only (what :func:`tempfile.mkstemp` does, without importing :mod:`tempfile` and its
    dependencies on every start that writes a cache)."""
    while True:
        tmp = os.path.join(directory, f".{name}.{os.getpid()}-{next(_serial)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600), tmp
        except FileExistsError:
            continue


def _umask() -> int:
    """The process umask, read without changing it when the OS allows (no window for other
    threads)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
