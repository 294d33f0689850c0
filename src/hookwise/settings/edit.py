"""Switching hooks off and on in one settings file: its ``hooksConfig.disabled`` list
(docs/contract.md §2, §7).

The library half of ``hookwise enable / disable / enable-all / disable-all``. :func:`load_target`
finds the file of a scope (the project's ``.gemini/settings.json`` or the user's) and reads its
list; :func:`with_names` and :func:`without_names` compute the new text with the
comment-preserving editor (every other byte of the file is kept); :func:`write` replaces the file
atomically. A file that does not parse, is not an object, or is reached through a symbolic link is
never written.

Problems are exceptions from :mod:`hookwise.errors`: :class:`~hookwise.errors.EditError` (the file
cannot be edited safely), :class:`~hookwise.errors.SettingsError` (it cannot be read) and
:class:`~hookwise.errors.HookNotFoundError` (:func:`find_hook`: no layer defines that display name).
The CLI turns them into messages and exit codes.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from hookwise.core.registry import HookEntry
from hookwise.errors import EditError, HookNotFoundError, SettingsError
from hookwise.jsonc import parse as jsonc
from hookwise.jsonc.edit import append_to_array, read_text, remove_value, write_atomic
from hookwise.settings.layers import (
    SettingsLayer,
    discover_layers,
    project_settings_path,
    user_settings_path,
)

POINTER = "/hooksConfig/disabled"
SCOPES = ("project", "user")


@dataclass
class Target:
    """One settings file to edit: its scope, path, current text and ``hooksConfig.disabled``
    list."""

    scope: str
    path: str
    text: str
    disabled: list[Any]

    @property
    def label(self) -> str:
        return f"{self.scope} settings ({self.path})"


def load_target(scope: str, project_dir: str, env: Mapping[str, str] | None = None) -> Target:
    """Read the settings file of ``scope`` (``project`` or ``user``); a missing file is an empty
    one."""
    env = os.environ if env is None else env
    if scope not in SCOPES:
        raise ValueError(f"scope must be one of {SCOPES}, got {scope!r}")
    path = project_settings_path(project_dir) if scope == "project" else user_settings_path(env)
    if os.path.islink(path) or os.path.islink(os.path.dirname(path)):
        link = path if os.path.islink(path) else os.path.dirname(path)
        raise EditError(
            f"{link} is a symbolic link; hookwise does not edit settings through symlinks "
            "(edit the real file by hand)"
        )
    text = read_text(path)
    return Target(scope, path, text, _disabled_list(path, text))


def _disabled_list(path: str, text: str) -> list[Any]:
    if not text.strip(" \t\r\n\ufeff"):
        return []
    try:
        doc = jsonc.parse(text, path)
    except SettingsError as exc:
        raise EditError(
            f"{exc}\n{path} does not parse, so it was not changed; fix it first "
            "(`hookwise validate` lists every problem)"
        ) from None
    if not isinstance(doc, dict):
        raise EditError(f"{path}: the settings file is not a JSON object; not changed")
    cfg = doc.get("hooksConfig")
    if cfg is not None and not isinstance(cfg, dict):
        raise EditError(f"{path}: /hooksConfig is not an object; not changed (fix it by hand)")
    if not isinstance(cfg, dict) or "disabled" not in cfg:
        return []
    if not isinstance(cfg["disabled"], list):
        raise EditError(
            f"{path}: /hooksConfig/disabled is not an array; not changed (fix it by hand)"
        )
    return list(cfg["disabled"])


def other_disabled(
    target: Target, project_dir: str, env: Mapping[str, str] | None = None
) -> Iterator[tuple[SettingsLayer, list[Any]]]:
    """Each other settings layer (not ``target``, not extensions) with its ``hooksConfig.disabled``
    list."""
    for layer in discover_layers(project_dir, os.environ if env is None else env):
        if layer.kind == "extension" or os.path.abspath(layer.path) == os.path.abspath(target.path):
            continue
        layer.load()
        cfg = layer.data.get("hooksConfig") if layer.data else None
        names = cfg.get("disabled") if isinstance(cfg, dict) else None
        if isinstance(names, list):
            yield layer, names


def disabled_elsewhere(
    name: str, target: Target, project_dir: str, env: Mapping[str, str] | None = None
) -> list[str]:
    """Where else ``name`` is listed in ``hooksConfig.disabled`` ("user settings (path)"...)."""
    return [
        f"{layer.kind} settings ({layer.path})"
        for layer, names in other_disabled(target, project_dir, env)
        if name in names
    ]


def find_hook(name: str, entries: Iterable[HookEntry]) -> list[HookEntry]:
    """The entries whose display name is ``name``; :class:`HookNotFoundError` when there are none.

    The error's ``suggestions`` are the names of hooks that run ``name`` as their command (a named
    hook is switched by its name), else the closest display names.
    """
    entries = list(entries)
    matches = [e for e in entries if e.display_name == name]
    if matches:
        return matches
    by_command = sorted({e.name for e in entries if e.name and e.command == name})
    names = sorted({e.display_name for e in entries})
    raise HookNotFoundError(
        name, by_command or difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    )


def with_names(target: Target, names: Iterable[str]) -> str:
    """The file's text with ``names`` appended to ``hooksConfig.disabled`` (created when
    missing)."""
    text = target.text
    for n in names:
        text = append_to_array(text, POINTER, n, path=target.path)
    return text


def without_names(target: Target, name: str | None = None) -> str:
    """The file's text without ``name`` (every occurrence) in ``hooksConfig.disabled``; None empties
    it."""
    text = target.text
    for i in reversed(range(len(target.disabled))):
        if name is None or target.disabled[i] == name:
            text = remove_value(text, f"{POINTER}/{i}", path=target.path)
    return text


def write(target: Target, text: str) -> None:
    """Replace the target file atomically (its permissions are kept)."""
    write_atomic(target.path, text)
