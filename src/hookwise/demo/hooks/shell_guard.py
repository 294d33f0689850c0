"""BeforeTool hook (matcher run_shell_command): deny shell commands that are dangerous.

Reads the hook input on stdin; prints a ``deny`` decision with a reason for a command that pipes
a download into a shell, deletes from the filesystem root or the home directory, uses sudo, or
force-pushes. Anything else gets no answer (the call proceeds).
"""

from __future__ import annotations

import json
import re
import sys

RULES = [
    (
        r"\b(curl|wget)\b[^|]*\|\s*(sudo\s+)?(ba|z|da)?sh\b",
        "piping a download into a shell runs code nobody reviewed",
    ),
    (
        r"\brm\s+-[a-zA-Z]*[rR][a-zA-Z]*\s+(/|~|\$HOME)(\s|$)",
        "recursive delete of / or the home directory",
    ),
    (r"(^|[;&|]\s*)sudo\b", "commands run by the agent never get root"),
    (r"\bgit\s+push\b.*(--force|-f\b)", "force-pushing rewrites shared history"),
]


def main() -> int:
    data = json.load(sys.stdin)
    command = str(data.get("tool_input", {}).get("command", ""))
    for pattern, why in RULES:
        if re.search(pattern, command):
            print(json.dumps({"decision": "deny", "reason": f"shell-guard: {why}: {command!r}"}))
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
