"""The full argparse parser of ``hookwise`` (loaded only when a command line needs it)."""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any

from hookwise.cli.base import COMMANDS, GLOBAL_OPTIONS


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # exit 1, not argparse's 2 (2 means "blocked")
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise SystemExit(1)


class _VersionAction(argparse.Action):
    """``--version``: read from the installed metadata only when asked (it costs start-up time)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        from hookwise import __version__

        print(f"hookwise {__version__}")
        raise SystemExit(0)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full parser; when ``only`` is given, only that command's module is imported."""
    parser = _Parser(
        prog="hookwise", description="A runtime for AI-agent lifecycle hooks (Gemini CLI contract)."
    )
    parser.add_argument(
        "--version", action=_VersionAction, nargs=0, help="print the version and exit"
    )
    for flag, metavar, many, help_text in GLOBAL_OPTIONS:
        if metavar is None:
            parser.add_argument(flag, action="store_true", help=help_text)
        elif many:
            parser.add_argument(flag, metavar=metavar, action="append", default=[], help=help_text)
        else:
            parser.add_argument(flag, metavar=metavar, help=help_text)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (module, help_text) in COMMANDS.items():
        if only is not None and name != only:
            # the command is known: building the other parsers costs ~10 ms of start-up (gettext)
            continue
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
