"""``hookwise enable NAME | disable NAME | enable-all | disable-all [--scope project|user]``.

Edits ``hooksConfig.disabled`` in one settings file (the project's
``.gemini/settings.json`` by default, the user's with ``--scope user``) and
nothing else: every other byte of the file is kept (comments, key order,
indentation, other tools' keys) and the write is atomic. A file that does not
parse is never written; the message says where it is broken.

Names are display names (the hook's ``name``, else its command), as in
``hookwise list``. Hooks from the system settings can only be switched off by
the system settings (docs/contract.md §7), which this command does not edit.
"""

from __future__ import annotations

import argparse
import os

from hookwise.cli.base import CliContext, UsageError
from hookwise.core.registry import SYSTEM, USER, HookEntry
from hookwise.errors import EditError, HookNotFoundError, SettingsError
from hookwise.settings import edit
from hookwise.settings.edit import Target
from hookwise.settings.load import load_settings


def configure(parser: argparse.ArgumentParser) -> None:
    if parser.prog.split()[-1] in ("enable", "disable"):
        parser.add_argument(
            "name", metavar="NAME", help="the hook's display name (its name, else its command)"
        )
    parser.add_argument(
        "--scope",
        choices=edit.SCOPES,
        default="project",
        help="which settings file to edit (default: project, i.e. <project>/.gemini/settings.json)",
    )


def _entries(ctx: CliContext) -> list[HookEntry]:
    loaded = load_settings(
        ctx.project_dir, os.environ, claude_settings=True if ctx.claude_settings else None
    )
    return loaded.entries


def _disabled_elsewhere(name: str, target: Target, ctx: CliContext) -> list[str]:
    return edit.disabled_elsewhere(name, target, ctx.project_dir, os.environ)


def _unknown(exc: HookNotFoundError, entries: list[HookEntry]) -> UsageError:
    if any(e.name and e.command == exc.name for e in entries):
        return UsageError(
            f"no hook is named {exc.name!r}: the hook that runs this command is named "
            + " / ".join(repr(n) for n in exc.suggestions)
            + " (hooks are enabled and disabled by name when they have one)"
        )
    msg = str(exc)
    if not entries:
        msg += "; no hooks are configured"
    return UsageError(msg + "; `hookwise list` shows every hook")


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    try:
        target = edit.load_target(args.scope, ctx.project_dir, os.environ)
    except SettingsError as exc:
        raise UsageError(f"{exc}; not changed") from None
    except EditError as exc:
        raise UsageError(str(exc)) from None
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
    try:
        matches = edit.find_hook(name, entries)
    except HookNotFoundError as exc:
        if name not in target.disabled:
            raise _unknown(exc, entries) from None
        matches = []
    if matches and all(e.switched_by == SYSTEM for e in matches):
        raise UsageError(
            f"{name!r} is a system hook ({matches[0].file}); only hooksConfig.disabled in the "
            "system settings can switch it off, and hookwise does not edit those"
        )
    if target.scope == "project" and matches and all(not e.needs_trust for e in matches):
        raise UsageError(
            f"{name!r} is one of your user hooks ({matches[0].file}); a project file cannot switch it "
            "off (a cloned repository could do the same to your guards, docs/security.md): use "
            "--scope user to switch it off everywhere"
        )
    if name in target.disabled:
        print(f"Hook {name!r} is already disabled in {target.label}.", file=ctx.stdout)
        return 0
    edit.write(target, edit.with_names(target, [name]))
    print(
        f"Disabled hook {name!r}: added it to hooksConfig.disabled in {target.label}.",
        file=ctx.stdout,
    )
    if any(e.switched_by == SYSTEM for e in matches):
        ctx.warn(
            f"a system hook is also named {name!r}; it stays enabled (only the system settings can "
            "disable it)"
        )
    if target.scope == "project" and any(not e.needs_trust for e in matches):
        ctx.warn(f"a user hook is also named {name!r}; it stays enabled (use --scope user)")
    return 0


def _enable(name: str, target: Target, ctx: CliContext) -> int:
    if name in target.disabled:
        edit.write(target, edit.without_names(target, name))
        print(
            f"Enabled hook {name!r}: removed it from hooksConfig.disabled in {target.label}.",
            file=ctx.stdout,
        )
        for where in _disabled_elsewhere(name, target, ctx):
            ctx.warn(f"{name!r} is still disabled by the {where}" + _hint(name, where))
        return 0
    elsewhere = _disabled_elsewhere(name, target, ctx)
    if not elsewhere:
        entries = _entries(ctx)
        try:
            edit.find_hook(name, entries)
        except HookNotFoundError as exc:
            raise _unknown(exc, entries) from None
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
    edit.write(target, edit.without_names(target))
    names = [str(n) for n in target.disabled]
    print(
        f"Enabled {len(names)} hook name(s) by emptying hooksConfig.disabled in {target.label}: "
        + ", ".join(names),
        file=ctx.stdout,
    )
    _other_lists(target, ctx)
    return 0


def _other_lists(target: Target, ctx: CliContext) -> None:
    for layer, names in edit.other_disabled(target, ctx.project_dir, os.environ):
        if names:
            hint = (
                f" (`hookwise enable-all --scope {layer.kind}`)"
                if layer.kind in ("user", "project")
                else ""
            )
            ctx.warn(
                f"the {layer.kind} settings ({layer.path}) still disable: "
                + ", ".join(str(n) for n in names)
                + hint
            )


def _disable_all(target: Target, ctx: CliContext) -> int:
    entries = _entries(ctx)
    if not entries:
        print("No hooks configured.", file=ctx.stdout)
        return 0
    # a file switches off hooks of its own trust or less: a project file only project/extension/plugin hooks
    reachable = [
        e
        for e in entries
        if e.switched_by in (USER, "any") and (target.scope == USER or e.needs_trust)
    ]
    names: list[str] = []
    for e in reachable:
        if e.display_name not in names:
            names.append(e.display_name)
    missing = [n for n in names if n not in target.disabled]
    system = sorted({e.display_name for e in entries if e not in reachable and e.switched_by})
    if not missing:
        print(f"All hooks are already disabled in {target.label}.", file=ctx.stdout)
    else:
        edit.write(target, edit.with_names(target, missing))
        print(
            f"Disabled {len(missing)} hook(s) by adding them to hooksConfig.disabled in {target.label}: "
            + ", ".join(missing),
            file=ctx.stdout,
        )
    if system:
        who = "the system settings" if target.scope == "user" else "your user and system settings"
        ctx.warn(f"these hooks stay enabled (only {who} can disable them): " + ", ".join(system))
    return 0
