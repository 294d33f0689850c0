"""Where a user's files are: the Gemini CLI user directory that user settings, trust and extensions live in.

It sits below both ``settings/`` (the user layer) and ``claude/`` (a plugin's data directory,
Claude Code's own directory beside it), so neither package imports the other for it.
"""

from __future__ import annotations

import os

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping


def user_dir(env: Mapping[str, str] | None = None) -> str:
    """The user's gemini directory: ``$GEMINI_CLI_HOME/.gemini``, else ``~/.gemini``."""
    env = os.environ if env is None else env
    home = env.get("GEMINI_CLI_HOME") or env.get("HOME") or os.path.expanduser("~")
    return os.path.join(home, ".gemini")
