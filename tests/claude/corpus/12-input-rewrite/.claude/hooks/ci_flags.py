#!/usr/bin/env python3
"""Rewrite `npm test` to run in CI mode (updatedInput), allowing it without a prompt."""

import json
import sys

d = json.load(sys.stdin)
cmd = d["tool_input"]["command"]
if cmd.strip() == "npm test":
    print(
        json.dumps(
            {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "allow",
                    "permissionDecisionReason": "npm test runs in CI mode",
                    "updatedInput": {**d["tool_input"], "command": "npm test -- --ci"},
                }
            }
        )
    )
