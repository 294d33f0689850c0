"""``hookwise trust [--all]``: review untrusted project and extension hooks and approve them."""

from __future__ import annotations

import argparse
import os
from typing import Any

from hookwise.cli.base import CliContext
from hookwise.cli.render import relpath
from hookwise.core.registry import HookEntry
from hookwise.trust import named_files


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--all", action="store_true", help="approve every untrusted hook without asking")


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    hs = ctx.hook_system(trust_all=False)
    for w in hs.warnings:
        ctx.warn(w)
    pending = hs.untrusted()
    if not pending:
        print("every project and extension hook is trusted", file=ctx.stdout)
        return 0
    approved = []
    for e in pending:
        describe(e, hs, ctx)
        if args.all:
            approved.append(e)
            continue
        print("  trust this hook? [y/N] ", end="", file=ctx.stdout, flush=True)
        answer = ctx.stdin.readline()
        if not answer:
            print("", file=ctx.stdout)
        if answer.strip().lower() in ("y", "yes"):
            approved.append(e)
    added = hs.trust(approved)
    for e in added:
        print(f"trusted: {e.display_name} ({e.event.value}, {e.source})", file=ctx.stdout)
    left = len(pending) - len(approved)
    if left:
        print(f"{left} hook(s) left untrusted; they are skipped until approved", file=ctx.stdout)
    return 0


def describe(e: HookEntry, hs: Any, ctx: CliContext) -> None:
    """What an untrusted hook would run: where it is from, its command as written, and the scripts it names."""
    scope = hs.trust_store.scope(e)
    origin = e.extra.get("plugin") or (
        os.path.basename(e.extension_dir) if e.extension_dir else None
    )
    label = f"{e.source} {origin!r}" if origin else e.source
    trusted = "" if hs.is_trusted(e) else " [untrusted]"
    print(
        f"{label} hook {e.display_name!r} ({e.event.value}{', matcher ' + repr(e.matcher) if e.matcher else ''}) "
        f"from {relpath(e.file, ctx.project_dir)}{trusted}",
        file=ctx.stdout,
    )
    if e.type == "http":  # docs/hook-types.md: trust covers the URL and what is sent along
        files: list[tuple[str, str]] = []
        print(f"  url:     {e.command}", file=ctx.stdout)
        for k, v in (e.extra.get("headers") or {}).items():
            print(f"  header:  {k}: {v}", file=ctx.stdout)
        if e.extra.get("allowedEnvVars"):
            print(
                f"  sends:   {', '.join(e.extra['allowedEnvVars'])} (environment variables, in headers)",
                file=ctx.stdout,
            )
    elif e.type == "python":
        from hookwise.runners.callable import module_files

        files = [(e.command, f) for f in module_files(e.command, scope)]
        print(f"  callable: {e.command}", file=ctx.stdout)
    else:
        files = named_files(
            e.command.replace("$GEMINI_PROJECT_DIR", scope).replace("$CLAUDE_PROJECT_DIR", scope),
            scope,
            hs.project_dir,
        )
        print(f"  command: {e.command}", file=ctx.stdout)
    for _word, real in files:
        print(f"  script:  {relpath(real, ctx.project_dir)}", file=ctx.stdout)
