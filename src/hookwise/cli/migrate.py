"""``hookwise migrate (--from-claude | --to-claude) [--dry-run] [--scope project|user] [--json]``.

``--from-claude`` reads Claude Code's settings of one scope and appends the
equivalent hooks (``"dialect": "claude"``) to the matching hookwise settings
file; ``--to-claude`` does the reverse. Scopes never mix:

=========  ========================================  ===================================
scope      Claude Code files (read in this order)    hookwise file
=========  ========================================  ===================================
project    ``<project>/.claude/settings.json``,      ``<project>/.gemini/settings.json``
           ``.claude/settings.local.json``
user       ``~/.claude/settings.json``               ``~/.gemini/settings.json``
=========  ========================================  ===================================

(``~`` is ``$GEMINI_CLI_HOME`` when set, as for every hookwise user file.)

The target is edited in place: existing hooks, comments and other keys are
kept byte for byte, hooks already there are not added again, and the write is
atomic. The report lists every hook of the sources with what happened to each
of its fields. A second run adds nothing and says so; ``--dry-run`` prints the
diff it would write and writes nothing.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
from collections.abc import Sequence
from typing import Any

from hookwise.claude.convert import PluginRoot, runtime_plugin_root
from hookwise.claude.migrate import (
    MigrationPlan,
    apply_plan,
    format_report,
    plan_from_claude,
    plan_to_claude,
)
from hookwise.cli.base import CliContext, UsageError
from hookwise.errors import EditError, SettingsError
from hookwise.jsonc import parse as jsonc
from hookwise.jsonc.edit import read_text, write_atomic
from hookwise.settings.layers import (
    claude_user_dir,
    project_settings_path,
    user_settings_path,
)


def configure(parser: argparse.ArgumentParser) -> None:
    way = parser.add_mutually_exclusive_group(required=True)
    way.add_argument(
        "--from-claude",
        action="store_true",
        help=(
            "Claude Code settings (.claude/settings.json, settings.local.json) → hookwise settings"
        ),
    )
    way.add_argument(
        "--to-claude",
        action="store_true",
        help="hookwise settings → Claude Code settings (.claude/settings.json)",
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="print the report and the diff; write nothing"
    )
    parser.add_argument(
        "--scope",
        choices=("project", "user"),
        default="project",
        help="project (default): the project's files; user: ~/.claude ↔ ~/.gemini",
    )
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")


def _check_not_symlink(path: str) -> None:
    for p in (path, os.path.dirname(path)):
        if os.path.islink(p):
            raise UsageError(
                f"{p} is a symbolic link; hookwise does not edit settings through symlinks "
                "(edit the real file by hand)"
            )


def _read_source(path: str) -> tuple[str, Any]:
    try:
        text, doc = jsonc.read_file(path)
    except SettingsError as exc:
        raise UsageError(
            f"{exc}\n{path} does not parse, so nothing was migrated; fix it first"
        ) from None
    return text, doc


def _read_target(path: str) -> tuple[str, Any]:
    _check_not_symlink(path)
    try:
        text = read_text(path)
    except SettingsError as exc:
        raise UsageError(f"{exc}; not changed") from None
    if not text.strip(" \t\r\n\ufeff"):
        return text, {}
    try:
        doc = jsonc.parse(text, path)
    except SettingsError as exc:
        raise UsageError(
            f"{exc}\n{path} does not parse, so it was not changed; fix it first"
        ) from None
    if not isinstance(doc, dict):
        raise UsageError(f"{path}: the settings file is not a JSON object; not changed")
    hooks = doc.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise UsageError(f"{path}: /hooks is not an object; not changed (fix it by hand)")
    if isinstance(hooks, dict):
        for ev, defs in hooks.items():
            if not isinstance(defs, list):
                raise UsageError(
                    f"{path}: /hooks/{ev} is not an array; not changed (fix it by hand)"
                )
    return text, doc


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    env = os.environ
    project = ctx.project_dir
    if args.from_claude:
        if args.scope == "project":
            candidates = [
                os.path.join(project, ".claude", "settings.json"),
                os.path.join(project, ".claude", "settings.local.json"),
            ]
            target = project_settings_path(project)
        else:
            candidates = [os.path.join(claude_user_dir(env), "settings.json")]
            target = user_settings_path(env)
        present = [p for p in candidates if os.path.exists(p)]
        if not present:
            raise UsageError(
                "no Claude Code settings found (looked for " + " and ".join(candidates) + ")"
            )
        sources = [(p, *_read_source(p)) for p in present]
        text, doc = _read_target(target)

        def roots_for(path: str) -> Sequence[PluginRoot]:
            # where ${CLAUDE_PLUGIN_ROOT} resolves when the migrated hook runs (the command text is
            # kept as written)
            return runtime_plugin_root(project, env)

        plan = plan_from_claude(sources, target, doc, roots_for)
    else:
        if args.scope == "project":
            source = project_settings_path(project)
            target = os.path.join(project, ".claude", "settings.json")
            existing_paths = [target, os.path.join(project, ".claude", "settings.local.json")]
        else:
            source = user_settings_path(env)
            target = os.path.join(claude_user_dir(env), "settings.json")
            existing_paths = [target]
        if not os.path.exists(source):
            raise UsageError(f"no hookwise settings found at {source}")
        stext, sdoc = _read_source(source)
        text, _doc = _read_target(target)
        existing = [(p, *_read_source(p)) for p in existing_paths if os.path.exists(p)]

        def roots_for(path: str) -> Sequence[PluginRoot]:
            # where ${CLAUDE_PLUGIN_ROOT} resolves when the migrated hook runs (the command text is
            # kept as written)
            return runtime_plugin_root(project, env)

        plan = plan_to_claude(source, stext, sdoc, target, existing, roots_for)
    return _finish(plan, text, target, args, ctx)


def _finish(
    plan: MigrationPlan, text: str, target: str, args: argparse.Namespace, ctx: CliContext
) -> int:
    new_text = text
    if plan.additions:
        try:
            new_text = apply_plan(text, plan, target)
        except (EditError, SettingsError) as exc:
            raise UsageError(f"{exc}; {target} was not changed") from None
    diff = "".join(
        difflib.unified_diff(
            text.splitlines(keepends=True),
            new_text.splitlines(keepends=True),
            fromfile=target,
            tofile=target,
        )
    )
    if diff and not diff.endswith("\n"):
        diff += "\n"
    written = False
    if plan.additions and not args.dry_run:
        try:
            write_atomic(target, new_text)
        except (EditError, OSError) as exc:
            raise UsageError(f"cannot write {target}: {exc}") from None
        written = True
    n = sum(len(a.definition["hooks"]) for a in plan.additions)
    if not plan.hooks:
        summary = "No hooks found in " + " and ".join(plan.sources) + "; nothing to migrate."
    elif not plan.additions:
        summary = f"Nothing to change: {target} already has every hook that can be migrated."
    elif args.dry_run:
        summary = f"Dry run: would add {n} hook(s) to {target}; nothing was written."
    else:
        summary = f"Added {n} hook(s) to {target}. Review them with `hookwise list`."
    if args.json:
        out = plan.to_json()
        out.update(
            {
                "dryRun": bool(args.dry_run),
                "written": written,
                "added": n if plan.additions else 0,
                "diff": diff,
                "summary": summary,
            }
        )
        print(json.dumps(out, indent=2, ensure_ascii=False), file=ctx.stdout)
        return 0
    print(format_report(plan, relative_to=ctx.project_dir), file=ctx.stdout)
    if args.dry_run and diff:
        print(diff, end="", file=ctx.stdout)
    print(summary, file=ctx.stdout)
    return 0
