#!/usr/bin/env python3
"""Log searches with Claude's parameter names (path, glob)."""

import json
import os
import sys

d = json.load(sys.stdin)
ti = d["tool_input"]
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], ".claude", "search.log"), "a") as f:
    f.write(
        f"{d['tool_name']} path={ti.get('path')} glob={ti.get('glob')} "
        f"pattern={ti.get('pattern')}\n"
    )
