#!/usr/bin/env python3
"""Block destructive shell commands (Claude Code PreToolUse hook)."""

import json
import re
import sys

data = json.load(sys.stdin)
if data.get("hook_event_name") != "PreToolUse" or data.get("tool_name") != "Bash":
    print(
        f"unexpected input: {data.get('hook_event_name')} {data.get('tool_name')}", file=sys.stderr
    )
    sys.exit(1)
command = data.get("tool_input", {}).get("command", "")
PATTERNS = [r"\brm\s+-[a-z]*r[a-z]*f", r"git\s+push\s+.*--force", r"\bmkfs\b", r":\(\)\s*\{"]
for p in PATTERNS:
    if re.search(p, command):
        print(
            json.dumps(
                {
                    "hookSpecificOutput": {
                        "hookEventName": "PreToolUse",
                        "permissionDecision": "deny",
                        "permissionDecisionReason": f"Blocked dangerous command matching {p}",
                    }
                }
            )
        )
        sys.exit(0)
sys.exit(0)
