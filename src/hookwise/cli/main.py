"""Argument parsing and dispatch for ``hookwise [--project DIR] [--trace FILE] COMMAND ...``.

Each command lives in its own module under :mod:`hookwise.cli` exposing
``configure(parser)`` (adds its arguments) and ``run(args, ctx) -> int``. Only
the module of the command being run is imported, so start-up stays fast.

Exit codes: 0 success, 1 usage or user-fixable error, 2 blocked, 3 stopped
(``fire``), 130 interrupted, 70 internal error.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO, Any

#: command -> (module, one-line help). Order is the order of ``hookwise --help``.
COMMANDS: dict[str, tuple[str, str]] = {
    "fire": ("hookwise.cli.fire", "run one event through the configured hooks and print the merged result"),
    "list": ("hookwise.cli.list_hooks", "list every configured hook with its source, state and trust"),
    "trust": ("hookwise.cli.trust", "review and approve untrusted project/extension hooks"),
    "enable": ("hookwise.cli.toggle", "enable a hook by name (edits hooksConfig.disabled)"),
    "disable": ("hookwise.cli.toggle", "disable a hook by name (edits hooksConfig.disabled)"),
    "enable-all": ("hookwise.cli.toggle", "enable every hook"),
    "disable-all": ("hookwise.cli.toggle", "disable every hook"),
    "validate": ("hookwise.cli.validate", "check every settings layer and report all problems"),
    "doctor": ("hookwise.cli.doctor", "run every hook once on a synthetic input and diagnose it"),
    "test": ("hookwise.cli.run_cases", "run *.hooktest.json hook test cases"),
    "migrate": ("hookwise.cli.migrate", "migrate hooks from or to Claude Code settings"),
    "agent": ("hookwise.cli.agent", "run the reference agent host"),
    "demo": ("hookwise.cli.demo", "run a scripted agent session against the example hooks (no key needed)"),
}


class UsageError(Exception):
    """Bad command-line input: printed as ``hookwise: error: ...``, exit 1."""


@dataclass
class CliContext:
    """What every command gets besides its own arguments."""

    project_dir: str
    trace: str | None
    claude_settings: bool = False
    stdout: IO[str] = field(default_factory=lambda: sys.stdout)
    stderr: IO[str] = field(default_factory=lambda: sys.stderr)
    stdin: IO[str] = field(default_factory=lambda: sys.stdin)

    def hook_system(self, **kwargs: Any) -> Any:
        """A :class:`hookwise.HookSystem` for the project, with ``--trace`` applied."""
        from hookwise.engine import HookSystem

        if self.claude_settings:
            kwargs.setdefault("claude_settings", True)
        return HookSystem(self.project_dir, trace=self.trace, **kwargs)

    def warn(self, message: str) -> None:
        print(f"hookwise: warning: {message}", file=self.stderr)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # exit 1, not argparse's 2 (2 means "blocked")
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(1)


class _VersionAction(argparse.Action):
    """``--version``: read from the installed metadata only when asked (it costs start-up time)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        from hookwise import __version__

        print(f"hookwise {__version__}")
        raise SystemExit(0)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full parser; when ``only`` is given, only that command's module is imported."""
    parser = _Parser(prog="hookwise", description="A runtime for AI-agent lifecycle hooks (Gemini CLI contract).")
    parser.add_argument("--version", action=_VersionAction, nargs=0, help="print the version and exit")
    parser.add_argument("--project", metavar="DIR", help="project directory (default: the current directory)")
    parser.add_argument("--trace", metavar="FILE", help="append one JSON line per hook call to FILE")
    parser.add_argument("--claude-settings", action="store_true",
                        help="also load hooks from .claude/ settings files (Claude Code format)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (module, help_text) in COMMANDS.items():
        if only is not None and name != only:
            continue  # the command is known: building the other parsers costs ~10 ms of start-up (gettext)
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=module)
        if only == name:
            importlib.import_module(module).configure(p)
        elif only is None:
            try:
                importlib.import_module(module).configure(p)
            except ImportError:
                pass  # shown in --help; running it reports the missing module
    return parser


def _command_name(argv: Sequence[str]) -> str | None:
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--project", "--trace"):
            i += 2
            continue
        if a.startswith("--project=") or a.startswith("--trace=") or a == "--claude-settings":
            i += 1
            continue
        if a.startswith("-"):
            return None
        return a if a in COMMANDS else None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    only = _command_name(args_list)
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
    project = args.project or os.getcwd()
    if not os.path.isdir(project):
        print(f"hookwise: error: --project {project}: not a directory", file=sys.stderr)
        return 1
    ctx = CliContext(project_dir=os.path.abspath(project), trace=args.trace,
                     claude_settings=bool(args.claude_settings))
    mod = importlib.import_module(args._module)
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
        from hookwise.errors import HookwiseError

        if isinstance(exc, HookwiseError):
            print(f"hookwise: error: {exc}", file=sys.stderr)
            return 1
        if os.environ.get("HOOKWISE_DEBUG"):
            raise
        print(f"hookwise: internal error: {type(exc).__name__}: {exc} (set HOOKWISE_DEBUG=1 for a traceback)",
              file=sys.stderr)
        return 70
