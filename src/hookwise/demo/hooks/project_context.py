"""BeforeAgent hook: give the model facts about the project with every prompt.

Reads the VERSION file of the project (the hook runs in the project directory) and adds it,
with the project's conventions, as ``additionalContext``: the agent sees it for this prompt.
"""

from __future__ import annotations

import json
import sys


def main() -> int:
    json.load(sys.stdin)
    try:
        with open("VERSION", encoding="utf-8") as fh:
            version = fh.read().strip()
    except OSError:
        version = "unknown"
    context = (
        f"Project facts: the current version is {version} (from VERSION). "
        "Release notes go in notes/RELEASE-<version>.md. Publishing needs a human."
    )
    print(
        json.dumps(
            {"hookSpecificOutput": {"hookEventName": "BeforeAgent", "additionalContext": context}}
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
