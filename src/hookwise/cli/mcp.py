"""``hookwise mcp [--name NAME] -- <server command…>`` (or ``--url URL``): an MCP proxy with hooks.

An MCP client starts this in place of the server; every tool listing and call goes through the
project's hooks (docs/mcp.md). Needs the ``mcp`` extra (``pip install 'hookwise[mcp]'``).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from hookwise.cli.base import CliContext, UsageError
from hookwise.cli.serve import _is_loopback, _read_token

if TYPE_CHECKING:
    from hookwise.engine import HookSystem


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--name",
        help="the server's name in hook tool names mcp__<name>__<tool> (default: the name the "
        "server gives itself)",
    )
    parser.add_argument("--url", help="front a Streamable HTTP server at URL instead of a command")
    parser.add_argument(
        "--listen",
        metavar="HOST:PORT",
        help="serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (e.g. 127.0.0.1:8766)",
    )
    parser.add_argument(
        "--token-file",
        metavar="FILE",
        help="with --listen: require 'Authorization: Bearer <token>' with the token in FILE "
        "(required to listen on a non-loopback address)",
    )
    parser.add_argument(
        "server", nargs=argparse.REMAINDER, help="-- then the MCP server's command and arguments"
    )


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    command = [c for c in args.server if c != "--"] if args.server else []
    if args.server and args.server[0] == "--":
        command = list(args.server[1:])
    if bool(command) == bool(args.url):
        raise UsageError("mcp needs the server's command after -- , or --url URL (one of them)")
    listen = _listen(args.listen) if args.listen else None
    if args.token_file and listen is None:
        raise UsageError("--token-file goes with --listen HOST:PORT")
    if listen is not None and not _is_loopback(listen[0]) and not args.token_file:
        raise UsageError(
            f"--listen {args.listen}: not a loopback address: pass --token-file FILE (bearer token)"
        )
    token = _read_token(args.token_file, ctx) if args.token_file else None
    system = ctx.hook_system()
    for w in system.warnings:
        ctx.warn(w)
    try:
        if listen is not None:
            _serve_http(system, args.name, command, args.url, listen, token)
        else:
            _serve(system, args.name, command, args.url)
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


def _listen(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--listen {value}: expected HOST:PORT, e.g. 127.0.0.1:8766")
    return host, int(port)


def _sdk() -> Any:
    try:
        from hookwise.gateway import proxy
    except ImportError as exc:
        raise UsageError(
            f"hookwise mcp --url/--listen needs the mcp extra: pip install 'hookwise[mcp]' ({exc})"
        ) from exc
    return proxy


def _serve_http(
    system: HookSystem,
    name: str | None,
    command: list[str],
    url: str | None,
    listen: tuple[str, int],
    token: bytes | None,
) -> None:
    proxy = _sdk()
    import anyio

    proxy.configure_logging()
    anyio.run(proxy.serve_http, system, name, command or None, url, listen, token)


def _serve(system: HookSystem, name: str | None, command: list[str], url: str | None) -> None:
    """A command: the raw stdio relay (standard library); a URL: the SDK gateway."""
    from hookwise.gateway import relay

    relay.configure_logging()
    if command:
        relay.run(system, name, command)
        return
    proxy = _sdk()
    import anyio

    anyio.run(proxy.run, system, name, None, url)
