#!/usr/bin/env python3
"""Exec-form hook: refuse pushes to the protected branch (argv: --branch NAME)."""

import json
import sys

branch = sys.argv[sys.argv.index("--branch") + 1]
cmd = json.load(sys.stdin)["tool_input"]["command"]
if cmd.startswith("git push") and branch in cmd.split():
    print(f"Pushing to {branch} is not allowed from the agent", file=sys.stderr)
    sys.exit(2)
