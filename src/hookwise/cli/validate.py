"""``hookwise validate [--json]``: check every settings layer, report all problems, exit 1 on
errors."""

from __future__ import annotations

import argparse
import json
import os

from hookwise.cli.base import CliContext
from hookwise.settings.validate import validate_project


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object: {valid, errors, warnings, files, problems: [...]}",
    )


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    report = validate_project(
        ctx.project_dir,
        os.environ,
        claude_settings=True if ctx.claude_settings else None,
        plugin_dirs=ctx.plugin_dirs,
        profile=ctx.profile,
    )
    if args.json:
        print(json.dumps(report.to_json(), indent=2), file=ctx.stdout)
        return 0 if report.ok else 1
    for p in report.problems:
        print(str(p), file=ctx.stdout)
    n_err, n_warn = len(report.errors), len(report.warnings)
    files = len(
        set(report.files) | {p.path for p in report.problems}
    )  # a plugin file that did not load too
    where = f"{files} settings file{'s' if files != 1 else ''}"
    if not files:
        print(
            "no settings files found (looked for the system, user, project and extension layers)",
            file=ctx.stderr,
        )
        return 0
    if n_err or n_warn:
        print(
            f"{n_err} error{'s' if n_err != 1 else ''}, {n_warn} "
            f"warning{'s' if n_warn != 1 else ''} in {where}",
            file=ctx.stderr,
        )
    else:
        print(f"ok: {where} checked, no problems", file=ctx.stderr)
    return 0 if report.ok else 1
