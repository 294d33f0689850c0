#!/usr/bin/env python3
"""A tiny stand-in for black/ruff format: strip trailing blanks, end with one newline."""

import os
import sys

path = sys.argv[1]
if not os.path.isabs(path):
    path = os.path.join(os.environ.get("CLAUDE_PROJECT_DIR", "."), path)
with open(path) as f:
    lines = [ln.rstrip() for ln in f.read().splitlines()]
with open(path, "w") as f:
    f.write("\n".join(lines).rstrip("\n") + "\n")
