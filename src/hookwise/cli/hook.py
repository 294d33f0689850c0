"""``hookwise hook AGENT [EVENT]``: the command an agent's hook configuration calls
(docs/agents.md).

Reads the agent's hook call on stdin, fires the project's hooks, and prints the answer in the
agent's format (stdout, stderr, exit status): :func:`hookwise.bridge.core.answer` does the work;
this module is the process edge. A well-formed line is parsed without argparse (:func:`parse_fast`),
as ``fire`` is.
"""

from __future__ import annotations

import os
import sys

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import Any

    from hookwise.cli.base import CliContext


def configure(p: argparse.ArgumentParser) -> None:
    from hookwise.bridge.agents import AGENTS

    p.add_argument("agent", metavar="AGENT", help="one of: " + ", ".join(AGENTS))
    p.add_argument(
        "event",
        metavar="EVENT",
        nargs="?",
        help="the agent's event, for agents whose payload does not name it (Copilot)",
    )
    p.add_argument(
        "--fail-closed",
        action="store_true",
        help="when hookwise itself cannot answer (bad stdin, a crash), block instead of warning",
    )


def parse_fast(argv: Sequence[str]) -> dict[str, Any] | None:
    """``AGENT [EVENT] [--fail-closed]`` without argparse; anything else returns None (argparse)."""
    words: list[str] = []
    fail_closed = False
    for a in argv:
        if a == "--fail-closed":
            fail_closed = True
        elif a.startswith("-"):
            return None
        else:
            words.append(a)
    if not 1 <= len(words) <= 2:
        return None
    return {
        "agent": words[0],
        "event": words[1] if len(words) == 2 else None,
        "fail_closed": fail_closed,
    }


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    from hookwise.bridge.core import answer

    data = _stdin()
    fail_closed = bool(args.fail_closed) or os.environ.get("HOOKWISE_FAIL_CLOSED") == "1"
    served = None if ctx.trace else _served(args, data, fail_closed)  # a trace is written here
    if served is not None:
        out_s, err_s, code = served
        ctx.stdout.write(out_s)
        ctx.stderr.write(err_s)
        return code
    out = answer(
        args.agent,
        args.event,
        data,
        project=args.project,
        env=os.environ,
        fail_closed=fail_closed,
        trace=ctx.trace,
    )
    if out.stdout:
        ctx.stdout.write(out.stdout)
    if out.stderr:
        ctx.stderr.write(out.stderr)
    return out.exit_code


def _stdin() -> bytes:
    """The agent's payload: what the fast path of ``console`` already read, else ``sys.stdin``."""
    from hookwise.bridge.client import taken_stdin

    data = taken_stdin()
    if data is not None:
        return data
    try:
        return sys.stdin.buffer.read()
    except (OSError, ValueError, AttributeError):
        return b""


def _served(args: Any, data: bytes, fail_closed: bool) -> tuple[str, str, int] | None:
    """The answer of a running ``hookwise serve`` on its Unix socket (docs/fleet.md), or None: run
    here.

    Skipped with ``--project`` (the service finds the project from the payload), ``--trace`` and
    ``HOOKWISE_SERVE=off``."""
    if args.project or os.environ.get("HOOKWISE_SERVE") == "off":
        return None
    from hookwise.bridge import client

    if client.asked:  # the fast path of ``console`` asked already and got no usable answer
        return None

    sock = client.default_socket(os.environ)
    if not os.path.exists(sock):
        return None
    path = f"/bridge/{args.agent}" + (f"/{args.event}" if args.event else "")
    reply = client.exchange(sock, path, data, fail_closed)
    got = None if reply is None else client.parse_reply(reply)
    if got is None:
        return None
    out, err, code = got
    return out.decode("utf-8"), err.decode("utf-8"), code
