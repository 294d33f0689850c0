#!/usr/bin/env python3
"""BeforeTool guard for run_shell_command.

Denies commands that destroy data or run code fetched from the network, and
rewrites `git push --force` to the safer `--force-with-lease`. Reads the
event on stdin, answers with one JSON object on stdout.
"""

import json
import re
import sys

DENY = [
    (
        r"\brm\s+(-[a-zA-Z]*r[a-zA-Z]*f|-[a-zA-Z]*f[a-zA-Z]*r|--recursive\s+--force|--force\s+--recursive)\b[^;&|]*\s(/|~|\$HOME|\*)(\s|$)",
        "recursive forced delete of /, ~ or *",
    ),
    (r"\b(curl|wget)\b[^|;&]*\|\s*(ba|z|da)?sh\b", "piping a download into a shell"),
    (r"\bmkfs(\.\w+)?\b", "formatting a filesystem"),
    (r"\bdd\b[^;&|]*\bof=/dev/", "writing raw to a device"),
    (r":\(\)\s*\{\s*:\|:&\s*\};:", "fork bomb"),
    (r"\bchmod\s+(-R\s+)?777\b", "making files world-writable"),
    (r"\bgit\s+reset\s+--hard\s+origin/", "discarding local commits"),
]


def main() -> int:
    event = json.load(sys.stdin)
    command = str(event.get("tool_input", {}).get("command", ""))
    for pattern, why in DENY:
        if re.search(pattern, command):
            print(
                json.dumps(
                    {
                        "decision": "deny",
                        "reason": f"shell-guard: refused ({why}): {command}",
                        "systemMessage": f"shell-guard blocked a dangerous command ({why})",
                    }
                )
            )
            return 0
    if (
        re.search(r"\bgit\s+push\b.*\s(--force|-f)(\s|$)", command)
        and "--force-with-lease" not in command
    ):
        safer = re.sub(r"\s(--force|-f)(?=\s|$)", " --force-with-lease", command)
        print(
            json.dumps(
                {
                    "decision": "allow",
                    "systemMessage": "shell-guard: rewrote --force to --force-with-lease",
                    "hookSpecificOutput": {
                        "hookEventName": "BeforeTool",
                        "tool_input": {"command": safer},
                    },
                }
            )
        )
        return 0
    print(json.dumps({"decision": "allow"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
