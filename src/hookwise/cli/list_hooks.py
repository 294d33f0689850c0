"""``hookwise list [--json]``: every configured hook with its source, file, state and trust."""

from __future__ import annotations

import argparse
import json
from typing import Any

from hookwise.cli.main import CliContext
from hookwise.cli.render import relpath, table


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    hs = ctx.hook_system()
    rows: list[dict[str, Any]] = []
    for e in hs.entries:
        rows.append({
            "event": e.event.value,
            "name": e.display_name,
            "command": e.command,
            "matcher": e.matcher,
            "sequential": e.sequential,
            "timeout": e.timeout_ms,
            "source": e.source,
            "file": e.file,
            "enabled": e.enabled,
            "trusted": hs.is_trusted(e),
            "if": e.condition,
            "async": e.run_async,
            "once": e.once,
        })
    if args.json:
        print(json.dumps({"hooks": rows, "warnings": hs.warnings}, indent=2, ensure_ascii=False), file=ctx.stdout)
        return 0
    for w in hs.warnings:
        ctx.warn(w)
    if not rows:
        print("no hooks configured", file=ctx.stdout)
        return 0
    body = [[r["event"], r["name"] if len(r["name"]) <= 40 else r["name"][:39] + "…", r["matcher"] or "*",
             f"{r['timeout']} ms", r["source"], "yes" if r["enabled"] else "no",
             "yes" if r["trusted"] else "NO", relpath(r["file"], ctx.project_dir)] for r in rows]
    print(table(body, ["EVENT", "NAME", "MATCHER", "TIMEOUT", "SOURCE", "ENABLED", "TRUSTED", "FILE"]),
          file=ctx.stdout)
    untrusted = sum(1 for r in rows if not r["trusted"])
    if untrusted:
        print(f"\n{untrusted} hook(s) are not trusted and will be skipped; review them with `hookwise trust`.",
              file=ctx.stdout)
    return 0
