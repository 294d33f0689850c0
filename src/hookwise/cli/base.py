"""What every command module shares: the command table, the global options, the context, the usage
error.

Commands import these from here, never from :mod:`hookwise.cli.main` (which imports the commands'
parsers): no command module and the entry point import each other.
"""

from __future__ import annotations

import sys

from hookwise._records import TYPE_CHECKING, dataclass, field

if TYPE_CHECKING:
    from typing import IO, Any

    from hookwise.engine import HookSystem

#: command -> (module, one-line help). Order is the order of ``hookwise --help``.
COMMANDS: dict[str, tuple[str, str]] = {
    "fire": (
        "hookwise.cli.fire",
        "run one event through the configured hooks and print the merged result",
    ),
    "list": (
        "hookwise.cli.list_hooks",
        "list every configured hook with its source, state and trust",
    ),
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
    "extensions": (
        "hookwise.cli.extensions",
        "list, install, link, uninstall, enable or disable extensions",
    ),
    "demo": (
        "hookwise.cli.demo",
        "run a scripted agent session against the example hooks (no key needed)",
    ),
    "trace": (
        "hookwise.cli.trace",
        "report on a --trace file or telemetry outfile (text, or one HTML page)",
    ),
    "hook": ("hookwise.cli.hook", "answer one hook call of a coding agent (docs/agents.md)"),
    "install": ("hookwise.cli.install", "make a coding agent call hookwise for its hooks"),
    "uninstall": ("hookwise.cli.install", "remove what `hookwise install` wrote"),
    "agents": ("hookwise.cli.agents", "coding agents on this machine and when their hooks fired"),
    "serve": ("hookwise.cli.serve", "answer the hooks of many agents as a local HTTP service"),
    "mcp": ("hookwise.cli.mcp", "front an MCP server with hooks (an MCP proxy on stdio or HTTP)"),
}


class UsageError(Exception):
    """Bad command-line input: printed as ``hookwise: error: ...``, exit 1."""


@dataclass
class CliContext:
    """What every command gets besides its own arguments."""

    project_dir: str
    trace: str | None
    claude_settings: bool = False
    plugin_dirs: list[str] = field(default_factory=list)
    profile: str | None = None
    stdout: IO[str] = field(default_factory=lambda: sys.stdout)
    stderr: IO[str] = field(default_factory=lambda: sys.stderr)
    stdin: IO[str] = field(default_factory=lambda: sys.stdin)

    def hook_system(self, **kwargs: Any) -> HookSystem:
        """A :class:`hookwise.HookSystem` for the project, with ``--trace`` applied."""
        from hookwise.engine import HookSystem

        if self.claude_settings:
            kwargs.setdefault("claude_settings", True)
        if self.plugin_dirs:
            kwargs.setdefault("plugin_dirs", self.plugin_dirs)
        if self.profile:
            kwargs.setdefault("profile", self.profile)
        return HookSystem(self.project_dir, trace=self.trace, **kwargs)

    def warn(self, message: str) -> None:
        print(f"hookwise: warning: {message}", file=self.stderr)


#: the global options, one row each: (flag, metavar or None for a switch, repeatable, help). The
#: argparse parser (:func:`hookwise.cli.parser.build_parser`) and the fast reader of a ``fire``
#: command line (:func:`hookwise.cli.main._parse_fast`) are both built from it; the attribute is the
#: flag without ``--``, with ``_`` for ``-`` (a list for a repeatable option).
GLOBAL_OPTIONS: tuple[tuple[str, str | None, bool, str], ...] = (
    ("--project", "DIR", False, "project directory (default: the current directory)"),
    ("--trace", "FILE", False, "append one JSON line per hook call to FILE"),
    (
        "--claude-settings",
        None,
        False,
        "also load hooks from .claude/ settings files (Claude Code format)",
    ),
    (
        "--plugin-dir",
        "DIR",
        True,
        "load the hooks of a Claude Code plugin directory (repeatable)",
    ),
    (
        "--profile",
        "NAME",
        False,
        "product profile: gemini, tabnine or terminai (default: detected from the project)",
    ),
)


def option_dest(flag: str) -> str:
    """The attribute a flag sets (argparse's rule): ``--plugin-dir`` -> ``plugin_dir``."""
    return flag[2:].replace("-", "_")
