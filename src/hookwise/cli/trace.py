"""``hookwise trace report FILE [--html OUT]``: per-hook statistics of a ``--trace`` file or
telemetry outfile, as text and as one self-contained HTML page (docs/telemetry.md)."""

from __future__ import annotations

import argparse
import os

from hookwise.cli.base import CliContext, UsageError


def configure(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="verb", metavar="VERB")
    rep = verbs.add_parser(
        "report",
        help="per hook: calls, outcomes, blocks, p50/p95/max duration, slowest calls",
        description="Summarise the hook calls of a --trace file (JSON lines) or of a "
        "telemetry outfile.",
    )
    rep.add_argument("file", metavar="FILE", help="a --trace file or a telemetry outfile")
    rep.add_argument(
        "--html",
        metavar="OUT",
        help="also write one self-contained HTML page with the table and a timeline of the session",
    )
    rep.add_argument(
        "--top", type=int, default=10, metavar="N", help="how many slowest calls to list (10)"
    )


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    if getattr(args, "verb", None) != "report":
        raise UsageError("trace needs a verb: hookwise trace report FILE [--html OUT]")
    from hookwise.report.calls import Reading, read_calls, text_report

    reading = Reading()
    calls = read_calls(args.file, reading)
    for msg in reading.skipped:  # a partial last line (a killed process) must not hide the rest
        ctx.warn(msg)
    if reading.skipped and not reading.readable:
        print(f"hookwise: error: {args.file}: no line is readable JSON", file=ctx.stderr)
        return 1
    ctx.stdout.write(text_report(calls, args.file, max(0, args.top)))
    if args.html:
        from hookwise.atomic import write_atomic
        from hookwise.report.html import render

        out = os.path.abspath(args.html)
        if os.path.isdir(out):
            raise UsageError(f"--html {args.html}: is a directory")
        if not os.path.isdir(os.path.dirname(out)):
            raise UsageError(f"--html {args.html}: directory {os.path.dirname(out)} does not exist")
        write_atomic(out, render(calls, args.file))
        print(f"wrote {args.html}", file=ctx.stderr)
    return 0
