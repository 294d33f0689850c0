"""``hookwise mcp [--name NAME] -- <server command…>`` (or ``--url URL``): an MCP proxy with hooks.

An MCP client starts this in place of the server; every tool listing and call goes through the
project's hooks (docs/mcp.md). Needs the ``mcp`` extra (``pip install 'hookwise[mcp]'``).
"""

from __future__ import annotations

import argparse

from hookwise.cli.base import CliContext, UsageError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--name",
        help="the server's name in hook tool names mcp__<name>__<tool> (default: the name the "
        "server gives itself)",
    )
    parser.add_argument("--url", help="front a Streamable HTTP server at URL instead of a command")
    parser.add_argument(
        "server", nargs=argparse.REMAINDER, help="-- then the MCP server's command and arguments"
    )


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    command = [c for c in args.server if c != "--"] if args.server else []
    if args.server and args.server[0] == "--":
        command = list(args.server[1:])
    if bool(command) == bool(args.url):
        raise UsageError("mcp needs the server's command after -- , or --url URL (one of them)")
    try:
        import anyio

        from hookwise.gateway import proxy
    except ImportError as exc:
        raise UsageError(
            f"hookwise mcp needs the mcp extra: pip install 'hookwise[mcp]' ({exc})"
        ) from exc
    proxy.configure_logging()
    system = ctx.hook_system()
    for w in system.warnings:
        ctx.warn(w)
    try:
        anyio.run(proxy.run, system, args.name, command or None, args.url)
    except Exception as exc:  # the server could not be started or reached: say so, not a traceback
        leaf = _leaf(exc)
        if not isinstance(leaf, OSError) and not type(leaf).__module__.startswith("http"):
            raise
        what = args.url or " ".join(command)
        raise UsageError(f"mcp: cannot reach the MCP server {what}: {leaf}") from exc
    return 0


def _leaf(exc: BaseException) -> BaseException:
    """The first real error inside (nested) exception groups (anyio's task groups raise them)."""
    inner = getattr(exc, "exceptions", None)
    while isinstance(inner, tuple) and inner:
        exc = inner[0]
        inner = getattr(exc, "exceptions", None)
    return exc
