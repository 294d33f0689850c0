#!/usr/bin/env python3
"""BeforeAgent: give the model the team's conventions and the current branch with every prompt."""

import json
import os
import subprocess
import sys


def branch(project: str) -> str:
    try:
        out = subprocess.run(
            ["git", "-C", project, "rev-parse", "--abbrev-ref", "HEAD"],
            capture_output=True,
            text=True,
            timeout=2,
        )
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return out.stdout.strip() or "unknown"


def main() -> int:
    event = json.load(sys.stdin)
    project = os.environ.get("GEMINI_PROJECT_DIR", event.get("cwd", "."))
    notes_path = os.path.join(project, "CONVENTIONS.md")
    try:
        with open(notes_path, encoding="utf-8") as f:
            notes = f.read().strip()
    except OSError:
        notes = ""
    context = f"Current git branch: {branch(project)}."
    if notes:
        context += "\nTeam conventions:\n" + notes
    print(
        json.dumps(
            {"hookSpecificOutput": {"hookEventName": "BeforeAgent", "additionalContext": context}}
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
