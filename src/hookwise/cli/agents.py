"""``hookwise agents``: the coding agents on this machine, where hookwise is installed in each, and
when each bridged event last fired (docs/agents.md)."""

from __future__ import annotations

import os

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

    from hookwise.cli.base import CliContext


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--all", action="store_true", help="list every known agent, found or not")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    from hookwise.bridge.machine import render, survey

    reports = survey(ctx.project_dir, os.environ)
    if args.json:
        from hookwise.jsonc.codec import dumps_indented

        shown = [r.to_json() for r in reports if args.all or r.present]
        print(dumps_indented({"agents": shown}, ensure_ascii=False), file=ctx.stdout)
    else:
        print(render(reports, args.all), file=ctx.stdout)
    return 0
