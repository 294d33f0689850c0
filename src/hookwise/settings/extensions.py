"""Managing Gemini CLI extensions (docs/sources.md, "hookwise extensions").

Follows ``gemini extensions``: an extension is a folder under
``<user dir>/extensions/<name>/`` with a ``gemini-extension.json`` manifest
(``name``, ``version``) and hooks in ``hooks/hooks.json``; enablement is per
path in ``<user dir>/extensions/extension-enablement.json``
(``{"<name>": {"overrides": ["!/*", "/home/me/project/*"]}}``: a leading ``!``
disables, a trailing ``*`` covers sub-directories, the last matching rule
wins, no rule means enabled). hookwise also installs a Claude Code plugin
directory (``.claude-plugin/plugin.json``) as an extension; its hooks keep
Claude semantics and ``CLAUDE_PLUGIN_ROOT``.

Install and uninstall are atomic: the new folder is staged in a hidden
directory beside the target and renamed into place; an uninstall renames the
folder away before deleting it. An interrupted run leaves a hidden
``.staging-*`` / ``.removing-*`` directory, which discovery ignores and the next
install or uninstall removes; the previous state is never touched.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from hookwise._records import dataclass
from hookwise.errors import ExtensionError
from hookwise.settings.enablement import ENABLEMENT_FILE, Enablement

GEMINI_MANIFEST = "gemini-extension.json"
CLAUDE_MANIFEST = os.path.join(".claude-plugin", "plugin.json")
INSTALL_METADATA = (
    ".gemini-extension-install.json"  # Gemini CLI's own record of where an extension came from
)
SCOPES = ("user", "project")
#: fault injection for tests: seconds the copier sleeps after each file (so a test can kill it
#: mid-copy)
FAULT_PAUSE_ENV = "HOOKWISE_FAULT_COPY_PAUSE"


#: the longest extension name (a folder name; file systems allow 255 bytes, and names are shown in
#: lists)
MAX_NAME = 128
#: names of hookwise's own entries in the extensions folder, which no extension may take
RESERVED_NAMES = frozenset({ENABLEMENT_FILE, INSTALL_METADATA})


def name_problem(name: Any) -> str | None:
    """Why ``name`` cannot name an installed extension (its folder), or None.

    Letters, digits, ``.``, ``_`` and ``-``, starting with a letter or digit (so never an option
    such as ``-rf``, never hidden, never a path, never a line break), at most :data:`MAX_NAME`
    characters, and not one of :data:`RESERVED_NAMES` (a folder named ``extension-enablement.json``
    would break every ``extensions enable/disable``).
    """
    import re

    if not isinstance(name, str) or not name:
        return f"an extension needs a non-empty string, got {name!r}"
    if len(name) > MAX_NAME:
        return f"{len(name)} characters is too long (at most {MAX_NAME})"
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name):
        return (
            f"use letters, digits, '.', '_' or '-', starting with a letter or digit, got {name!r}"
        )
    if name.lower() in RESERVED_NAMES:
        return f"{name!r} is the name of hookwise's own file in the extensions folder"
    return None


# ---------------------------------------------------------------------- reading an extension folder


@dataclass
class ExtensionInfo:
    """What an extension folder is."""

    name: str
    path: str
    kind: str  # "gemini" | "claude-plugin"
    version: str = ""
    link: str | None = None  # the linked directory, for ``extensions link``
    source: str | None = None
    error: str | None = None  # why an installed folder cannot be used (kind "broken")


def _load_json(path: str, what: str) -> Any:
    from hookwise.errors import SettingsError
    from hookwise.jsonc import parse as jsonc

    try:
        return jsonc.read_file(path)[1]
    except SettingsError as exc:
        raise ExtensionError(f"{exc} ({what})") from None
    except OSError as exc:
        raise ExtensionError(f"{path}: cannot read {what}: {exc.strerror or exc}") from None


def inspect_dir(path: str) -> ExtensionInfo:
    """Read the manifest of an extension or Claude Code plugin directory; raise
    :class:`ExtensionError` if unusable."""
    from hookwise.claude.plugins import read_plugin
    from hookwise.errors import PluginError

    try:
        os.stat(path)
    except OSError as exc:
        raise ExtensionError(f"{path}: cannot read the directory: {exc.strerror or exc}") from None
    if not os.path.isdir(path):
        raise ExtensionError(f"{path}: not a directory")
    gm = os.path.join(path, GEMINI_MANIFEST)
    if os.path.lexists(gm):
        doc = _load_json(gm, "the extension manifest")
        if not isinstance(doc, dict):
            raise ExtensionError(f"{gm}: /: the manifest must be a JSON object")
        name = doc.get("name")
        bad = name_problem(name)
        if bad is not None:
            raise ExtensionError(
                f'{gm}: /name: not a usable extension "name" (a folder name): {bad}'
            )
        hooks = os.path.join(path, "hooks", "hooks.json")
        if os.path.lexists(hooks):
            hdoc = _load_json(hooks, "the extension's hooks")
            if not isinstance(hdoc, dict) or not isinstance(hdoc.get("hooks", {}), dict):
                raise ExtensionError(
                    f'{hooks}: /hooks: an extension hooks file needs a "hooks" object'
                )
        version = doc.get("version")
        return ExtensionInfo(str(name), path, "gemini", version if isinstance(version, str) else "")
    if os.path.lexists(os.path.join(path, CLAUDE_MANIFEST)):
        try:
            plugin = read_plugin(path, require_manifest=True)
        except PluginError as exc:
            raise ExtensionError(str(exc)) from None
        bad = name_problem(plugin.name)
        if bad is not None:
            raise ExtensionError(
                f'{os.path.join(path, CLAUDE_MANIFEST)}: /name: not a usable extension "name": '
                f"{bad}"
            )
        doc = _load_json(os.path.join(path, CLAUDE_MANIFEST), "the plugin manifest")
        version = doc.get("version") if isinstance(doc, dict) else None
        return ExtensionInfo(
            plugin.name, path, "claude-plugin", version if isinstance(version, str) else ""
        )
    raise ExtensionError(
        f"{path}: no manifest: neither {GEMINI_MANIFEST} (Gemini CLI extension) nor "
        f"{CLAUDE_MANIFEST} (Claude Code plugin) is there"
    )


def installed(root: str) -> list[ExtensionInfo]:
    """Every installed extension (hidden staging folders skipped); broken ones are listed with kind
    ``broken``."""
    out = []
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    for name in names:
        path = os.path.join(root, name)
        if name.startswith(".") or not os.path.isdir(path):
            continue
        try:
            info = inspect_dir(path)
        except ExtensionError as exc:
            info = ExtensionInfo(name, path, "broken", error=str(exc))
        info.name = name  # the folder name is what enable/disable/uninstall take
        if os.path.islink(path):
            info.link = os.path.realpath(path)
        meta = os.path.join(path, INSTALL_METADATA)
        if os.path.isfile(meta):
            try:
                with open(meta, encoding="utf-8") as f:
                    m = json.load(f)
                info.source = m.get("source") if isinstance(m, dict) else None
            except (OSError, ValueError):
                pass
        out.append(info)
    return out


# ----------------------------------------------------------------------- install / link / uninstall


def _is_git_source(src: str) -> bool:
    """A URL (``https://``, ``file://``...), ``git@host:repo`` or a ``*.git`` path that is not a
    plain directory."""
    if src.startswith("file://"):
        return True
    looks_like_git = "://" in src or src.startswith("git@") or src.endswith(".git")
    return looks_like_git and not os.path.isdir(src)


def _copy_tree(src: str, dst: str) -> None:
    """Copy ``src`` into the new directory ``dst``; ``.git`` is skipped; symlinks must stay inside
    ``src``."""
    import time

    pause = float(os.environ.get(FAULT_PAUSE_ENV, "0") or 0)
    src_real = os.path.realpath(src)
    for dirpath, dirnames, filenames in os.walk(src, followlinks=False):
        rel = os.path.relpath(dirpath, src)
        target_dir = dst if rel == "." else os.path.join(dst, rel)
        os.makedirs(target_dir, exist_ok=True)
        if rel == ".":
            dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in sorted(dirnames + filenames):
            sp = os.path.join(dirpath, name)
            tp = os.path.join(target_dir, name)
            if os.path.islink(sp):
                link = os.readlink(sp)
                try:
                    os.stat(sp)
                except OSError as exc:
                    raise ExtensionError(
                        f"{sp}: symbolic link to {link!r} cannot be followed "
                        f"({exc.strerror or exc}; a symlink loop or a missing target)"
                    ) from None
                real = os.path.realpath(sp)
                if real != src_real and not real.startswith(src_real + os.sep):
                    raise ExtensionError(
                        f"{sp}: symbolic link to {link!r} points outside the directory {src}"
                    )
                os.symlink(link, tp)
                if name in dirnames:
                    dirnames.remove(
                        name
                    )  # os.walk does not descend into links anyway; keep the copy a link
                continue
            if name in dirnames:
                continue  # created when os.walk gets there
            _copy_file(sp, tp)
            if pause:
                time.sleep(pause)


def _copy_file(src: str, dst: str) -> None:
    """Copy one file with its mode and times; a sparse file stays sparse (only its data is read and
    written: a 3 GB file of holes costs what its data costs, not 3 GB)."""
    import shutil

    st = os.lstat(src)
    sparse = hasattr(os, "SEEK_DATA") and os.path.isfile(src) and st.st_blocks * 512 < st.st_size
    if not sparse:
        shutil.copy2(src, dst, follow_symlinks=False)
        return
    with open(src, "rb") as fi, open(dst, "wb") as fo:
        _copy_data_segments(fi.fileno(), fo, st.st_size)
        fo.truncate(st.st_size)
    shutil.copystat(src, dst, follow_symlinks=False)


def _copy_data_segments(fd: int, out: Any, size: int) -> None:
    """Write the data segments of the file open as ``fd`` at the same offsets of ``out`` (holes
    skipped)."""
    pos = 0
    while pos < size:
        try:
            start = os.lseek(fd, pos, os.SEEK_DATA)
        except OSError:  # ENXIO: only a hole is left
            return
        end = os.lseek(fd, start, os.SEEK_HOLE)
        out.seek(start)
        os.lseek(fd, start, os.SEEK_SET)
        left = end - start
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                return
            out.write(chunk)
            left -= len(chunk)
        pos = end


def _clean_leftovers(root: str) -> None:
    import shutil

    try:
        names = os.listdir(root)
    except OSError:
        return
    for name in names:
        if name.startswith((".staging-", ".removing-")):
            shutil.rmtree(os.path.join(root, name), ignore_errors=True)


def _git_clone(src: str, dst: str, ref: str | None) -> None:
    """``git clone --depth 1`` through the one process driver (bounded time, output capped)."""
    import shutil

    from hookwise.runners._process import Spawn, run_one

    args = ["git", "clone", "--quiet", "--depth", "1"]
    if ref:
        args += ["--branch", ref]
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    done = run_one(Spawn([*args, "--", src, dst], os.path.dirname(dst), env, b"", 300.0))
    if done.spawn_error is not None:
        raise ExtensionError(
            f"{src}: installing from git needs the git command ({done.spawn_error})"
        )
    if done.timed_out:
        raise ExtensionError(f"{src}: git clone did not finish in 300 s")
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines() or ["git clone failed"]
        raise ExtensionError(f"{src}: git source cannot be cloned: {lines[-1]}")
    shutil.rmtree(os.path.join(dst, ".git"), ignore_errors=True)


def install(src: str, root: str, *, ref: str | None = None) -> ExtensionInfo:
    """Install ``src`` (a local directory or a git URL/path) into ``root``; atomic. Returns the
    installed extension."""
    import shutil
    import tempfile

    os.makedirs(root, exist_ok=True)
    _clean_leftovers(root)
    git = _is_git_source(src)
    if not git:
        src = os.path.abspath(os.path.expanduser(src))
        inspect_dir(src)  # no manifest / bad manifest: refuse before copying anything
    staging = tempfile.mkdtemp(prefix=".staging-", dir=root)
    try:
        content = os.path.join(staging, "content")
        if git:
            _git_clone(src, content, ref)
        else:
            _copy_tree(src, content)
        info = inspect_dir(content)
        target = os.path.join(root, info.name)
        if os.path.lexists(target):
            raise ExtensionError(
                f"{target}: an extension named {info.name!r} is already installed "
                f"(uninstall it first: hookwise extensions uninstall {info.name})"
            )
        meta = {"source": src, "type": "git" if git else "local"}
        with open(os.path.join(content, INSTALL_METADATA), "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=2)
        os.rename(content, target)  # the one step that makes it installed
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    info.path = target
    info.source = src
    return info


def link(src: str, root: str) -> ExtensionInfo:
    """Link a development directory as an extension (a symlink; edits show up without
    reinstalling)."""
    src = os.path.abspath(os.path.expanduser(src))
    info = inspect_dir(src)
    os.makedirs(root, exist_ok=True)
    target = os.path.join(root, info.name)
    if os.path.lexists(target):
        raise ExtensionError(
            f"{target}: an extension named {info.name!r} is already installed "
            f"(uninstall it first: hookwise extensions uninstall {info.name})"
        )
    tmp = os.path.join(root, f".staging-link-{os.getpid()}-{info.name}")
    os.symlink(src, tmp)
    os.rename(tmp, target)
    info.path = target
    info.link = src
    return info


def uninstall(name: str, root: str) -> str:
    """Remove an installed extension (a linked one: only the link). Returns the removed path."""
    import shutil
    import tempfile

    target = os.path.join(root, name)
    if "/" in name or name.startswith(".") or not os.path.lexists(target):
        names = ", ".join(i.name for i in installed(root)) or "none"
        raise ExtensionError(
            f"{target}: no extension named {name!r} is installed (installed: {names})"
        )
    _clean_leftovers(root)
    if os.path.islink(target):
        os.unlink(target)
    else:
        trash = tempfile.mkdtemp(prefix=".removing-", dir=root)
        os.rename(target, os.path.join(trash, name))  # gone from discovery in one step
        shutil.rmtree(trash, ignore_errors=True)
    Enablement.read(root).forget(name)
    return target


def set_enabled(name: str, root: str, enabled: bool, scope: str, project_dir: str) -> None:
    if scope not in SCOPES:
        raise ExtensionError(f"--scope {scope!r}: expected one of {', '.join(SCOPES)}")
    if not os.path.isdir(os.path.join(root, name)) or name.startswith("."):
        names = ", ".join(i.name for i in installed(root)) or "none"
        raise ExtensionError(
            f"{os.path.join(root, name)}: no extension named {name!r} is installed "
            f"(installed: {names})"
        )
    Enablement.read(root).set(name, enabled, scope, project_dir)


def enabled_here(root: str, project_dir: str) -> Mapping[str, bool]:
    en = Enablement.read(root)
    return {i.name: en.is_enabled(i.name, project_dir) for i in installed(root)}
