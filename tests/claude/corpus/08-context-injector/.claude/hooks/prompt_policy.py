#!/usr/bin/env python3
"""Block prompts that paste secrets; otherwise say nothing."""

import json
import re
import sys

data = json.load(sys.stdin)
assert data["hook_event_name"] == "UserPromptSubmit", data
if re.search(r"(?i)password\s*[:=]", data.get("prompt", "")):
    print(
        json.dumps(
            {"decision": "block", "reason": "Your prompt seems to contain a password; rephrase it."}
        )
    )
