"""``hookwise doctor [--dry-run | --yes]``: run every configured hook once and say what is wrong
with it.

Hooks are programs: running them may have side effects even on a harmless
input, so doctor asks first. ``--dry-run`` lists what would run; ``--yes`` runs.
Exit status: 0 when every hook could run (warnings allowed), 1 when any hook
could not run or timed out (or when nothing was confirmed).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import uuid

from hookwise.cli.base import CliContext
from hookwise.settings.doctor import (
    ERROR,
    SKIPPED,
    WARNING,
    HookCheck,
    make_sandbox,
    plan_checks,
    run_checks,
)

_TAG = {"ok": "ok     ", WARNING: "WARN   ", ERROR: "ERROR  ", SKIPPED: "skipped"}


def configure(parser: argparse.ArgumentParser) -> None:
    g = parser.add_mutually_exclusive_group()
    g.add_argument(
        "--dry-run",
        action="store_true",
        help="list the hooks and inputs that would run; run nothing",
    )
    g.add_argument(
        "--yes",
        "-y",
        action="store_true",
        help="run every hook (they may have side effects) without asking",
    )


def _label(c: HookCheck) -> str:
    e = c.entry
    where = f"{e.source}: {e.file}" if e.file else e.source
    return f"{e.event.value} {e.display_name!r} ({where})"


def _input_summary(c: HookCheck) -> str:
    keys = {
        k: v
        for k, v in c.input.items()
        if k in ("tool_name", "source", "reason", "trigger", "notification_type")
    }
    if "tool_input" in c.input:
        keys["tool_input"] = c.input["tool_input"]
    return json.dumps(keys, ensure_ascii=False) if keys else "{...}"


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    sandbox = make_sandbox()
    try:
        hs = ctx.hook_system(
            cwd=sandbox,
            transcript_path=os.path.join(sandbox, "transcript.jsonl"),
            session_id=f"hookwise-doctor-{uuid.uuid4().hex[:8]}",
        )
        for w in hs.warnings:
            ctx.warn(w)
        checks = plan_checks(hs.entries, sandbox, hs.is_trusted)
        if not checks:
            print("No command hooks configured.", file=ctx.stdout)
            return 0
        runnable = [c for c in checks if c.status != SKIPPED]
        if runnable and (args.dry_run or not args.yes):
            print(
                f"doctor would run {len(runnable)} hook(s), each once, in the project dir "
                f"{hs.project_dir}, on a synthetic input whose paths point into a temporary "
                "sandbox:",
                file=ctx.stdout,
            )
            for c in checks:
                if c.status == SKIPPED:
                    print(f"  skip  {_label(c)}: {c.summary}", file=ctx.stdout)
                else:
                    print(
                        (
                            f"  run   {_label(c)}\n        $ {c.entry.command}\n        input "
                            f"{_input_summary(c)}"
                        ),
                        file=ctx.stdout,
                    )
            if args.dry_run:
                return 0
            if not _confirm(ctx, len(runnable)):
                print(
                    "Hooks are programs and may have side effects (write files, call services) "
                    "even on a harmless input. Re-run with --yes to run them, or --dry-run to only "
                    "list them.",
                    file=ctx.stderr,
                )
                return 1
        run_checks(hs, checks)
        return _report(checks, ctx)
    finally:
        shutil.rmtree(sandbox, ignore_errors=True)


def _confirm(ctx: CliContext, n: int) -> bool:
    stdin = ctx.stdin
    if not (hasattr(stdin, "isatty") and stdin.isatty()):
        return False
    print(
        f"Run these {n} hook(s) now? They may have side effects. [y/N] ",
        end="",
        file=ctx.stderr,
        flush=True,
    )
    answer = stdin.readline().strip().lower()
    return answer in ("y", "yes")


def _report(checks: list[HookCheck], ctx: CliContext) -> int:
    for c in checks:
        ms = (
            f" {c.outcome.duration_ms:.0f} ms"
            if c.outcome is not None and c.status != SKIPPED
            else ""
        )
        print(f"{_TAG[c.status]} {_label(c)}{ms}: {c.summary}", file=ctx.stdout)
    errors = sum(c.status == ERROR for c in checks)
    warns = sum(c.status == WARNING for c in checks)
    ok = sum(c.status == "ok" for c in checks)
    skipped = sum(c.status == SKIPPED for c in checks)
    print(
        f"{ok} ok, {warns} with warnings, {errors} could not run, {skipped} skipped",
        file=ctx.stderr,
    )
    return 1 if errors else 0
