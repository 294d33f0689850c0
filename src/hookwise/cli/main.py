"""Argument parsing and dispatch for ``hookwise [--project DIR] [--trace FILE] COMMAND ...``.

Each command lives in its own module under :mod:`hookwise.cli` exposing
``configure(parser)`` (adds its arguments) and ``run(args, ctx) -> int``. Only
the module of the command being run is imported, so start-up stays fast.

argparse loads only when needed: a well-formed ``hookwise fire`` is read by
:func:`hookwise.cli.fire.parse_fast` from the same flag table its parser is
built from (anything unusual, ``--help`` included, goes through argparse).

Exit codes: 0 success, 1 usage or user-fixable error, 2 blocked, 3 stopped
(``fire``), 130 interrupted, 70 internal error.
"""

from __future__ import annotations

import os
import sys

from hookwise._records import TYPE_CHECKING
from hookwise.cli.base import COMMANDS, GLOBAL_OPTIONS, CliContext, UsageError, option_dest

#: commands whose well-formed lines are parsed without argparse (their module's ``parse_fast``)
FAST_COMMANDS = ("fire", "hook")

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import Any


#: global option -> (takes a value, repeatable), from :data:`GLOBAL_OPTIONS`
_TAKES = {flag: (metavar is not None, many) for flag, metavar, many, _ in GLOBAL_OPTIONS}


def _command_name(argv: Sequence[str]) -> str | None:
    i = 0
    while i < len(argv):
        a = argv[i]
        name, eq, _ = a.partition("=")
        spec = _TAKES.get(name)
        if spec is not None and (spec[0] or not eq):
            i += 1 if eq or not spec[0] else 2
            continue
        if a.startswith("-"):
            return None
        return a if a in COMMANDS else None
    return None


def _parse_fast(argv: Sequence[str]) -> argparse.Namespace | None:
    """The arguments of a well-formed ``[global options] fire|hook ...`` without argparse, else None."""

    values: dict[str, Any] = {"version": None}
    for flag, (takes, many) in _TAKES.items():
        values[option_dest(flag)] = [] if many else (None if takes else False)
    i = 0
    while i < len(argv) and argv[i] not in FAST_COMMANDS:
        name, eq, value = argv[i].partition("=")
        spec = _TAKES.get(name)
        if spec is None or (not spec[0] and eq):
            return None
        takes, many = spec
        if takes and not eq:
            if i + 1 >= len(argv):
                return None
            i += 1
            value = argv[i]
        if takes and value.startswith("-"):
            return None
        if many:
            values[option_dest(name)].append(value)
        else:
            values[option_dest(name)] = value if takes else True
        i += 1
    if i >= len(argv):
        return None
    command = argv[i]
    module = COMMANDS[command][0]
    __import__(module)
    own = sys.modules[module].parse_fast(argv[i + 1 :])
    if own is None:
        return None
    ns: argparse.Namespace = _Arguments(command=command, _module=module, **values, **own)  # type: ignore[assignment]
    return ns  # the same attributes argparse would set


class _Arguments:
    """The attributes argparse would have set (``argparse.Namespace`` without importing argparse)."""

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)


def _parse(args_list: list[str]) -> argparse.Namespace | int:
    """The parsed command line, or the exit status when there is nothing to run (usage error, help)."""
    only = _command_name(args_list)
    args = _parse_fast(args_list) if only in FAST_COMMANDS else None
    if args is not None:
        return args
    from hookwise.cli.parser import build_parser

    try:
        parser = build_parser(only)
    except ImportError as exc:  # a command whose module is missing or needs an extra
        print(f"hookwise: error: {exc}", file=sys.stderr)
        return 1
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else 1
    if not getattr(args, "command", None):
        parser.print_help(sys.stderr)
        return 1
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parse(list(sys.argv[1:] if argv is None else argv))
    if isinstance(args, int):
        return args
    ctx = _context(args)
    if isinstance(ctx, str):
        print(f"hookwise: error: {ctx}", file=sys.stderr)
        return 1
    __import__(args._module)  # importlib itself is not needed for this (start-up time)
    mod = sys.modules[args._module]
    try:
        return int(mod.run(args, ctx))
    except UsageError as exc:
        print(f"hookwise: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("hookwise: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:  # programming errors: say so clearly, keep the traceback available
        return _failed(exc)


def _context(args: argparse.Namespace) -> CliContext | str:
    """The context the global options describe, or what is wrong with them."""
    try:
        project = args.project or os.getcwd()
    except (
        OSError
    ):  # the current directory was deleted: only --project can say where the project is
        return "the current directory no longer exists; pass --project DIR"
    if not os.path.isdir(project):
        return f"--project {project}: not a directory"
    for d in args.plugin_dir:
        if not os.path.isdir(d):
            return f"--plugin-dir {d}: not a directory"
    if args.profile is not None:
        from hookwise.settings.profiles import PROFILES

        if args.profile not in PROFILES:
            return (
                f"--profile {args.profile}: unknown profile (expected one of {', '.join(PROFILES)})"
            )
    return CliContext(
        project_dir=os.path.abspath(project),
        trace=args.trace,
        claude_settings=bool(args.claude_settings),
        plugin_dirs=[os.path.abspath(d) for d in args.plugin_dir],
        profile=args.profile,
    )


def _failed(exc: Exception) -> int:
    """The exit status of a command that raised: 1 for hookwise's own errors, 70 for a bug."""
    from hookwise.errors import HookwiseError

    if isinstance(exc, HookwiseError):
        print(f"hookwise: error: {exc}", file=sys.stderr)
        return 1
    if os.environ.get("HOOKWISE_DEBUG"):
        raise exc
    print(
        f"hookwise: internal error: {type(exc).__name__}: {exc} (set HOOKWISE_DEBUG=1 for a traceback)",
        file=sys.stderr,
    )
    return 70


#: the young generation's collection threshold of the ``hookwise`` program (see :func:`console`)
_GC_YOUNG_THRESHOLD = 20_000


def console() -> int:
    """The ``hookwise`` program (scripts/hookwise, ``python -m hookwise``): :func:`main` in a process that ends next.

    After the command, every object still alive is left to the process exit: :func:`gc.freeze` keeps the
    interpreter's last collections from walking them (about 2 ms of every run). Nothing of hookwise's waits
    for those collections: its files are written unbuffered or flushed and closed explicitly, exit handlers
    (telemetry's last export, persistent hooks) still run, and Python never promises finalizers of objects
    still alive at exit. Only for the program: :func:`main` itself leaves the garbage collector alone.

    When the command loaded neither :mod:`threading` nor :mod:`atexit` (a plain ``fire``: no telemetry, no
    persistent or background hook), nothing can be waiting for the interpreter's shutdown: no other thread,
    no exit handler. The process then ends right after flushing its output (:func:`os._exit`), skipping the
    tear-down of every module (about 1.5 ms of a ``fire``). Otherwise it exits the ordinary way.
    """
    import gc

    # The imports of a command make tens of thousands of objects that all live to the end (modules, classes,
    # functions, tables) and almost no garbage: at the default threshold (700) the young generation is
    # collected about fifty times for nothing, ~4 % of a ``fire``'s instructions. A larger first threshold
    # keeps collections rare; long-running commands (agent, serve, mcp) still collect, just in larger steps.
    gc.set_threshold(_GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    if sys.argv[1:2] == [
        "hook"
    ]:  # an agent's hook call: a warm service answers it first (docs/agents.md)
        from hookwise.bridge.client import forward

        served = forward(sys.argv[2:])
        if served is not None:
            os._exit(served)  # written with os.write; nothing else was loaded that could wait
    from hookwise.runners import _process

    _process.SPAWN_HERE = (
        True  # a process of our own: no other thread changes directory (see _process.SPAWN_HERE)
    )
    status = main()
    gc.freeze()
    if "threading" not in sys.modules and "atexit" not in sys.modules:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):  # a closed or broken stream: let the ordinary exit report it
            return status
        os._exit(status)
    return status
