"""Atomic file writes that never follow a symlink.

The new content goes to a temporary file in the same directory, is flushed to
disk, and replaces the target with one ``os.replace``: a crash at any point
leaves either the old file or the new one, never a mix. A target (or parent
directory) that is a symlink is refused, so a write cannot be redirected to
another file through a planted link.
"""

from __future__ import annotations

import os
import stat
import tempfile

from .errors import HookwiseError


class UnsafePathError(HookwiseError):
    """A file hookwise was asked to write is reached through a symlink."""


def check_no_symlink(path: str) -> None:
    """Raise :class:`UnsafePathError` if ``path`` or its parent directory is a symlink."""
    if os.path.islink(path):
        raise UnsafePathError(f"{path} is a symlink; refusing to write through it (replace it with a real file)")
    parent = os.path.dirname(os.path.abspath(path))
    if os.path.islink(parent):
        raise UnsafePathError(f"{parent} is a symlink; refusing to write {os.path.basename(path)} through it")


def write_atomic(path: str, text: str, *, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``text`` atomically (creating the parent directory when missing)."""
    check_no_symlink(path)
    parent = os.path.dirname(os.path.abspath(path))
    os.makedirs(parent, exist_ok=True)
    check_no_symlink(path)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = None
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=parent)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dfd = os.open(parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass
