"""BeforeTool hook (matcher run_shell_command): stop the agent before it publishes anything.

``git push`` and ``git tag`` are where a person takes over: the hook answers
``continue: false`` with a stop reason, which ends the agent's run.
"""

from __future__ import annotations

import json
import re
import sys


def main() -> int:
    data = json.load(sys.stdin)
    command = str(data.get("tool_input", {}).get("command", ""))
    if re.search(r"\bgit\s+(push|tag)\b", command):
        print(
            json.dumps(
                {
                    "continue": False,
                    "stopReason": (
                        "release-gate: publishing is a human's job; the notes are ready for review"
                    ),
                }
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
