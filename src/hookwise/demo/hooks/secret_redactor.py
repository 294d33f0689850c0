"""BeforeTool hook (matcher write_file|replace): keep secrets out of files the agent writes.

If the content being written contains something that looks like a token or key, the hook
rewrites the tool's input (``hookSpecificOutput.tool_input``) with the secret replaced by
``[REDACTED]`` and says so in a system message. The write then goes ahead with the clean text.
"""

from __future__ import annotations

import json
import re
import sys

#: well-known token shapes, and any value written after "token:", "password=", "api_key:" ...
TOKENS = re.compile(
    r"\b(ghp_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|AKIA[0-9A-Z]{16}|xox[baprs]-[A-Za-z0-9-]{10,})"
)
ASSIGNED = re.compile(r"(?i)((?:token|secret|password|api[_-]?key)\s*[:=]\s*)([^\s'\"]{8,})")


def main() -> int:
    data = json.load(sys.stdin)
    tool_input = data.get("tool_input", {})
    key = "content" if data.get("tool_name") == "write_file" else "new_string"
    text = tool_input.get(key)
    if not isinstance(text, str):
        return 0
    clean, count = TOKENS.subn("[REDACTED]", text)
    clean, more = ASSIGNED.subn(lambda m: m.group(1) + "[REDACTED]", clean)
    count += more
    if not count:
        return 0
    print(
        json.dumps(
            {
                "systemMessage": (
                    f"secret-redactor: removed {count} secret(s) from {tool_input.get('file_path')}"
                ),
                "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": {key: clean}},
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
