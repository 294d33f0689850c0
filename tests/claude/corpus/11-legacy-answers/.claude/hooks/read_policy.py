#!/usr/bin/env python3
"""Old-style answers: top-level decision approve/block (deprecated in Claude Code, still
honoured)."""

import json
import sys

path = json.load(sys.stdin)["tool_input"].get("file_path", "")
if path.endswith(".env") or "/.env" in path:
    print(json.dumps({"decision": "block", "reason": "Reading .env files is not allowed"}))
elif path.endswith(".md"):
    print(json.dumps({"decision": "approve", "reason": "Documentation is always safe to read"}))
