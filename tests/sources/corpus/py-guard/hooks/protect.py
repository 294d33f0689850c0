"""Blocks Write/Edit of .env files: exit 2 with the reason on stderr (Claude Code's blocking exit
code)."""

import json
import os
import sys

data = json.load(sys.stdin)
path = data.get("tool_input", {}).get("file_path", "")
here = os.path.dirname(os.path.abspath(__file__))
if os.environ.get("CLAUDE_PLUGIN_ROOT") != os.path.dirname(here):
    print(
        (
            f"CLAUDE_PLUGIN_ROOT is {os.environ.get('CLAUDE_PLUGIN_ROOT')!r}, expected "
            f"{os.path.dirname(here)!r}"
        ),
        file=sys.stderr,
    )
    sys.exit(1)
if os.path.basename(path).startswith(".env"):
    print(f"py-guard: {path} holds secrets; not writing it", file=sys.stderr)
    sys.exit(2)
sys.exit(0)
