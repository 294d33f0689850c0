#!/usr/bin/env python3
"""Log MCP tool calls; deny pushes to GitHub from hooks-protected sessions."""

import json
import os
import sys

tag = sys.argv[1]
data = json.load(sys.stdin)
tool = data["tool_name"]
if not tool.startswith("mcp__"):
    print(f"expected a Claude MCP tool name, got {tool}", file=sys.stderr)
    sys.exit(1)
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], ".claude", "mcp.log"), "a") as f:
    f.write(f"{tag} {data['hook_event_name']} {tool}\n")
if tag == "github-write" and tool.endswith("push_files"):
    print(
        json.dumps(
            {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "ask",
                    "permissionDecisionReason": "Pushing files to GitHub needs a human",
                }
            }
        )
    )
