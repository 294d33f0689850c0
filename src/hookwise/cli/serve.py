"""``hookwise serve``: answer hook requests of many agents over HTTP (docs/fleet.md).

Prints ``hookwise serve: listening on ADDRESS`` on stdout once it accepts requests; SIGTERM or
Ctrl-C stops it gracefully (requests in flight finish, persistent hooks stop, telemetry is flushed).
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import signal
import sys
import threading

from hookwise.cli.base import CliContext, UsageError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--root",
        metavar="DIR",
        action="append",
        default=[],
        help="serve the projects under DIR (repeatable; required)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8765, help="TCP port (default 8765; 0: any)")
    parser.add_argument(
        "--socket",
        metavar="PATH",
        nargs="?",
        const="",
        help="listen on a Unix socket (mode 0600) instead of TCP; without PATH the default one, "
        "where `hookwise hook` looks first ($HOOKWISE_SOCKET, else under $XDG_RUNTIME_DIR or "
        "~/.cache/hookwise)",
    )
    parser.add_argument(
        "--token-file",
        metavar="FILE",
        help="require 'Authorization: Bearer <token>' with the token in FILE "
        "(required to bind a non-loopback address)",
    )
    parser.add_argument(
        "--fail-closed",
        action="store_true",
        help="block (instead of allow with a warning) when a request's project is unknown or its "
        "hooks overrun",
    )
    parser.add_argument(
        "--audit",
        action="store_true",
        help="run hooks and record their decisions, but never block, rewrite or stop",
    )
    parser.add_argument(
        "--max-body",
        type=int,
        default=None,
        metavar="BYTES",
        help="largest request body accepted (default 4 MiB)",
    )
    parser.add_argument("--verbose", action="store_true", help="log every request on stderr")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _read_token(path: str, ctx: CliContext) -> bytes:
    try:
        with open(path, "rb") as f:
            token = f.read().strip()
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise UsageError(f"--token-file {path}: {exc.strerror or exc}") from exc
    if not token:
        raise UsageError(f"--token-file {path}: the file is empty")
    if mode & 0o077:
        ctx.warn(f"--token-file {path}: readable by other users (chmod 600 it)")
    return token


def _config(args: argparse.Namespace, ctx: CliContext) -> object:
    from hookwise.serve.app import DEFAULT_BODY_CAP, ServeConfig

    if not args.root:
        raise UsageError("serve needs at least one --root DIR (the projects it may serve)")
    for r in args.root:
        if not os.path.isdir(r):
            raise UsageError(f"--root {r}: not a directory")
    if args.socket is None and not _is_loopback(args.host) and args.token_file is None:
        raise UsageError(
            f"--host {args.host} is not a loopback address: pass --token-file FILE (bearer token) "
            "or serve on --socket PATH"
        )
    options: dict[str, object] = {}
    if ctx.claude_settings:
        options["claude_settings"] = True
    if ctx.plugin_dirs:
        options["plugin_dirs"] = ctx.plugin_dirs
    if ctx.profile:
        options["profile"] = ctx.profile
    if ctx.trace:
        options["trace"] = ctx.trace
    return ServeConfig(
        roots=[os.path.abspath(r) for r in args.root],
        token=_read_token(args.token_file, ctx) if args.token_file else None,
        fail_closed=args.fail_closed,
        audit=args.audit,
        body_cap=args.max_body if args.max_body is not None else DEFAULT_BODY_CAP,
        system_options=options,
    )


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    from hookwise.serve.app import ServeConfig, Service
    from hookwise.serve.http import Server

    config = _config(args, ctx)
    assert isinstance(config, ServeConfig)
    if args.socket == "":
        from hookwise.bridge.client import default_socket  # where `hookwise hook` looks

        args.socket = default_socket(os.environ)
        os.makedirs(os.path.dirname(args.socket), mode=0o700, exist_ok=True)
    logging.basicConfig(
        stream=ctx.stderr,
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="hookwise serve: %(message)s",
    )
    service = Service(config)
    try:
        server = Server(service, host=args.host, port=args.port, socket_path=args.socket)
    except OSError as exc:
        where = args.socket or f"{args.host}:{args.port}"
        raise UsageError(f"cannot listen on {where}: {exc.strerror or exc}") from exc
    stopping = threading.Event()

    def stop(signum: int, frame: object) -> None:
        if not stopping.is_set():
            stopping.set()
            threading.Thread(target=server.drain, name="hookwise-drain").start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(f"hookwise serve: listening on {server.address}", file=ctx.stdout, flush=True)
    server.serve_forever()
    if not stopping.is_set():  # serve_forever ended on its own
        server.drain()
    for t in threading.enumerate():
        if t.name == "hookwise-drain":
            t.join()
    _flush_telemetry()
    print("hookwise serve: stopped", file=ctx.stderr)
    sys.stderr.flush()
    return 0


def _flush_telemetry() -> None:
    if "hookwise.telemetry.observer" in sys.modules:
        from hookwise.telemetry.observer import HookTelemetry

        HookTelemetry.drain_all()
