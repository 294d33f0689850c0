"""``hookwise enable NAME | disable NAME | enable-all | disable-all [--scope project|user]``.

Edits ``hooksConfig.disabled`` in one settings file (the project's
``.gemini/settings.json`` by default, the user's with ``--scope user``) and
nothing else: every other byte of the file is kept (comments, key order,
indentation, other tools' keys) and the write is atomic. A file that does not
parse is never written; the message says where it is broken.

Names are display names (the hook's ``name``, else its command), as in
``hookwise list``. Hooks from the system settings can only be switched off by
the system settings (CONTRACT §7), which this command does not edit.
"""

from __future__ import annotations

import argparse
import difflib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hookwise.cli.main import CliContext, UsageError
from hookwise.core.registry import HookEntry
from hookwise.errors import EditError, SettingsError
from hookwise.jsonc import parse as jsonc
from hookwise.jsonc.edit import append_to_array, read_text, remove_value, write_atomic
from hookwise.settings.layers import SettingsLayer, discover_layers, project_settings_path, user_settings_path
from hookwise.settings.load import load_settings

POINTER = "/hooksConfig/disabled"


def configure(parser: argparse.ArgumentParser) -> None:
    if parser.prog.split()[-1] in ("enable", "disable"):
        parser.add_argument("name", metavar="NAME", help="the hook's display name (its name, else its command)")
    parser.add_argument("--scope", choices=("project", "user"), default="project",
                        help="which settings file to edit (default: project, i.e. <project>/.gemini/settings.json)")


@dataclass
class Target:
    scope: str
    path: str
    text: str
    disabled: list[Any]

    @property
    def label(self) -> str:
        return f"{self.scope} settings ({self.path})"


def _load_target(scope: str, ctx: CliContext) -> Target:
    path = project_settings_path(ctx.project_dir) if scope == "project" else user_settings_path(os.environ)
    if os.path.islink(path) or os.path.islink(os.path.dirname(path)):
        link = path if os.path.islink(path) else os.path.dirname(path)
        raise UsageError(f"{link} is a symbolic link; hookwise does not edit settings through symlinks "
                         "(edit the real file by hand)")
    text = read_text(path)
    disabled: list[Any] = []
    if text.strip(" \t\r\n\ufeff"):
        try:
            doc = jsonc.parse(text, path)
        except SettingsError as exc:
            raise UsageError(f"{exc}\n{path} does not parse, so it was not changed; fix it first "
                             "(`hookwise validate` lists every problem)") from None
        if not isinstance(doc, dict):
            raise UsageError(f"{path}: the settings file is not a JSON object; not changed")
        cfg = doc.get("hooksConfig")
        if cfg is not None and not isinstance(cfg, dict):
            raise UsageError(f"{path}: /hooksConfig is not an object; not changed (fix it by hand)")
        if isinstance(cfg, dict) and "disabled" in cfg:
            if not isinstance(cfg["disabled"], list):
                raise UsageError(f"{path}: /hooksConfig/disabled is not an array; not changed (fix it by hand)")
            disabled = list(cfg["disabled"])
    return Target(scope, path, text, disabled)


def _entries(ctx: CliContext) -> list[HookEntry]:
    loaded = load_settings(ctx.project_dir, os.environ, claude_settings=True if ctx.claude_settings else None)
    return loaded.entries


def _other_disabled(target: Target, ctx: CliContext) -> Iterator[tuple[SettingsLayer, list[Any]]]:
    """Each other settings layer (not ``target``, not extensions) with its ``hooksConfig.disabled`` list."""
    for layer in discover_layers(ctx.project_dir, os.environ):
        if layer.kind == "extension" or os.path.abspath(layer.path) == os.path.abspath(target.path):
            continue
        layer.load()
        cfg = layer.data.get("hooksConfig") if layer.data else None
        names = cfg.get("disabled") if isinstance(cfg, dict) else None
        if isinstance(names, list):
            yield layer, names


def _disabled_elsewhere(name: str, target: Target, ctx: CliContext) -> list[str]:
    """Where else ``name`` is listed in ``hooksConfig.disabled`` (other settings layers)."""
    return [f"{layer.kind} settings ({layer.path})" for layer, names in _other_disabled(target, ctx)
            if name in names]


def _unknown(name: str, entries: list[HookEntry]) -> UsageError:
    by_command = sorted({e.name for e in entries if e.name and e.command == name})
    if by_command:
        return UsageError(f"no hook is named {name!r}: the hook that runs this command is named "
                          + " / ".join(repr(n) for n in by_command)
                          + " (hooks are enabled and disabled by name when they have one)")
    names = sorted({e.display_name for e in entries})
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    msg = f"no hook named {name!r}"
    if close:
        msg += " (did you mean " + ", ".join(repr(c) for c in close) + "?)"
    elif not names:
        msg += "; no hooks are configured"
    return UsageError(msg + "; `hookwise list` shows every hook")


def _write(target: Target, text: str) -> None:
    write_atomic(target.path, text)


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    try:
        target = _load_target(args.scope, ctx)
    except SettingsError as exc:
        raise UsageError(f"{exc}; not changed") from None
    command = args.command
    try:
        if command == "disable":
            return _disable(args.name, target, ctx)
        if command == "enable":
            return _enable(args.name, target, ctx)
        if command == "enable-all":
            return _enable_all(target, ctx)
        return _disable_all(target, ctx)
    except EditError as exc:
        raise UsageError(str(exc)) from None


def _disable(name: str, target: Target, ctx: CliContext) -> int:
    entries = _entries(ctx)
    matches = [e for e in entries if e.display_name == name]
    if not matches and name not in target.disabled:
        raise _unknown(name, entries)
    if matches and all(e.source == "system" for e in matches):
        raise UsageError(f"{name!r} is a system hook ({matches[0].file}); only hooksConfig.disabled in the "
                         "system settings can switch it off, and hookwise does not edit those")
    if name in target.disabled:
        print(f"Hook {name!r} is already disabled in {target.label}.", file=ctx.stdout)
        return 0
    _write(target, append_to_array(target.text, POINTER, name, path=target.path))
    print(f"Disabled hook {name!r}: added it to hooksConfig.disabled in {target.label}.", file=ctx.stdout)
    if any(e.source == "system" for e in matches):
        ctx.warn(f"a system hook is also named {name!r}; it stays enabled (only the system settings can "
                 "disable it)")
    if target.scope == "project" and any(e.source == "user" for e in matches):
        ctx.warn(f"{name!r} is one of your user hooks; this switches it off for this project only")
    return 0


def _enable(name: str, target: Target, ctx: CliContext) -> int:
    if name in target.disabled:
        text = target.text
        for i in reversed([i for i, n in enumerate(target.disabled) if n == name]):
            text = remove_value(text, f"{POINTER}/{i}", path=target.path)
        _write(target, text)
        print(f"Enabled hook {name!r}: removed it from hooksConfig.disabled in {target.label}.", file=ctx.stdout)
        for where in _disabled_elsewhere(name, target, ctx):
            ctx.warn(f"{name!r} is still disabled by the {where}" + _hint(name, where))
        return 0
    elsewhere = _disabled_elsewhere(name, target, ctx)
    if not elsewhere:
        entries = _entries(ctx)
        if not any(e.display_name == name for e in entries):
            raise _unknown(name, entries)
    print(f"Hook {name!r} is already enabled in {target.label}.", file=ctx.stdout)
    for where in elsewhere:
        ctx.warn(f"but the {where} disables it" + _hint(name, where))
    return 0


def _hint(name: str, where: str) -> str:
    for scope in ("user", "project"):
        if where.startswith(scope + " "):
            return f"; run `hookwise enable {name} --scope {scope}`"
    return "; hookwise does not edit the system settings"


def _enable_all(target: Target, ctx: CliContext) -> int:
    if not target.disabled:
        print(f"No hooks are disabled in {target.label}.", file=ctx.stdout)
        _other_lists(target, ctx)
        return 0
    text = target.text
    for i in reversed(range(len(target.disabled))):
        text = remove_value(text, f"{POINTER}/{i}", path=target.path)
    _write(target, text)
    names = [str(n) for n in target.disabled]
    print(f"Enabled {len(names)} hook name(s) by emptying hooksConfig.disabled in {target.label}: "
          + ", ".join(names), file=ctx.stdout)
    _other_lists(target, ctx)
    return 0


def _other_lists(target: Target, ctx: CliContext) -> None:
    for layer, names in _other_disabled(target, ctx):
        if names:
            hint = (f" (`hookwise enable-all --scope {layer.kind}`)" if layer.kind in ("user", "project")
                    else "")
            ctx.warn(f"the {layer.kind} settings ({layer.path}) still disable: "
                     + ", ".join(str(n) for n in names) + hint)


def _disable_all(target: Target, ctx: CliContext) -> int:
    entries = _entries(ctx)
    if not entries:
        print("No hooks configured.", file=ctx.stdout)
        return 0
    names: list[str] = []
    for e in entries:
        if e.source not in ("system", "runtime") and e.display_name not in names:
            names.append(e.display_name)
    missing = [n for n in names if n not in target.disabled]
    system = sorted({e.display_name for e in entries if e.source == "system"})
    if not missing:
        print(f"All hooks are already disabled in {target.label}.", file=ctx.stdout)
    else:
        text = target.text
        for n in missing:
            text = append_to_array(text, POINTER, n, path=target.path)
        _write(target, text)
        print(f"Disabled {len(missing)} hook(s) by adding them to hooksConfig.disabled in {target.label}: "
              + ", ".join(missing), file=ctx.stdout)
    if system:
        ctx.warn("system hooks stay enabled (only the system settings can disable them): "
                 + ", ".join(system))
    return 0
