"""``hookwise install AGENT`` / ``hookwise uninstall AGENT``: make an agent call hookwise for its
hooks.

Project scope by default (``--user`` for the user's file); ``--dry-run`` prints the diff and writes
nothing; ``--take-over`` moves the agent's own hooks under hookwise (docs/agents.md).
"""

from __future__ import annotations

import os

from hookwise._records import TYPE_CHECKING
from hookwise.cli.base import UsageError

if TYPE_CHECKING:
    import argparse

    from hookwise.cli.base import CliContext


def configure(p: argparse.ArgumentParser) -> None:
    from hookwise.bridge.agents import AGENTS

    p.add_argument("agent", metavar="AGENT", help="one of: " + ", ".join(AGENTS))
    p.add_argument("--user", action="store_true", help="the user's hook file, not the project's")
    p.add_argument("--dry-run", action="store_true", help="print the change; write nothing")
    if p.prog.endswith("install") and not p.prog.endswith("uninstall"):
        p.add_argument(
            "--take-over",
            action="store_true",
            help="move the agent's own hooks under hookwise (uninstall puts them back)",
        )
        p.add_argument(
            "--command",
            dest="program",
            metavar="PROGRAM",
            default="hookwise",
            help="how the agent runs hookwise (default: `hookwise`, found on the agent's PATH)",
        )
        p.add_argument(
            "--fail-closed",
            action="store_true",
            help="entries call `hookwise hook --fail-closed`: hookwise's own failure blocks",
        )


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    from hookwise.bridge import install
    from hookwise.bridge.agents import AGENTS
    from hookwise.errors import EditError

    agent = AGENTS.get(args.agent)
    if agent is None:
        raise UsageError(f"unknown agent {args.agent!r} (known: {', '.join(AGENTS)})")
    try:
        if args.command == "install":
            change = install.plan_install(
                agent,
                ctx.project_dir,
                os.environ,
                user=args.user,
                take_over=args.take_over,
                program=args.program,
                fail_closed=args.fail_closed,
            )
        else:
            change = install.plan_uninstall(agent, ctx.project_dir, os.environ, user=args.user)
        if not args.dry_run and change.changed:
            install.apply(change, os.environ)
    except EditError as exc:
        print(f"hookwise: error: {exc}", file=ctx.stderr)
        return 1
    _report(args, change, ctx)
    return 0


def _report(args: argparse.Namespace, change: object, ctx: CliContext) -> None:
    from hookwise.bridge.install import Change

    assert isinstance(change, Change)
    verb = "Installed hookwise in" if args.command == "install" else "Removed hookwise from"
    if args.dry_run:
        print(change.diff() or "Nothing to change", file=ctx.stdout, end="")
        if change.store is not None:
            what = "write" if change.store[1] is not None else "remove"
            print(f"(would {what} {change.store[0]})", file=ctx.stdout)
    elif not change.changed:
        print(f"Nothing to change in {change.path}", file=ctx.stdout)
    else:
        gone = " (file removed: it held only hookwise's entries)" if change.delete else ""
        print(f"{verb} {change.path} for {change.agent.product}{gone}", file=ctx.stdout)
    for note in change.notes:
        print(f"note: {note}", file=ctx.stdout)
