#!/usr/bin/env python3
"""Do not let Claude stop before it said the tests pass (once; stop_hook_active avoids loops)."""

import json
import sys

data = json.load(sys.stdin)
if data.get("stop_hook_active"):
    sys.exit(0)
if "tests pass" not in data.get("last_assistant_message", ""):
    print(
        json.dumps(
            {
                "decision": "block",
                "reason": "Run the test suite and report the result before stopping.",
            }
        )
    )
