"""Claude Code's dialect as the real CLI (2.1.332) behaves, checked on real hooks (issue 21).

Each test names the rows of the table in docs/claude.md ("Claude Code's reference, row by row") it covers:
``row: <kind> <name>``. Projects are real directories, hooks real processes, the CLI is run as a user
runs it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from hookwise.claude.names import CLAUDE_EVENTS_WITHOUT_EQUIVALENT, CLAUDE_TO_GEMINI_EVENT

#: a Claude-dialect hook: appends its stdin (one JSON line) to ``<name>.log`` beside it, then prints the
#: environment's ``OUT_<NAME>`` and exits with ``EXIT_<NAME>`` (stderr: ``ERR_<NAME>``)
RECORDER = textwrap.dedent("""\
    import json, os, sys
    name = sys.argv[1]
    data = json.load(sys.stdin)
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, name + ".log"), "a") as f:
        f.write(json.dumps(data) + "\\n")
    sys.stdout.write(os.environ.get("OUT_" + name.upper(), ""))
    sys.stderr.write(os.environ.get("ERR_" + name.upper(), ""))
    sys.exit(int(os.environ.get("EXIT_" + name.upper(), "0")))
    """)


def hook(name: str, **fields: Any) -> dict[str, Any]:
    return {
        "type": "command",
        "command": f'{sys.executable} "$CLAUDE_PROJECT_DIR/.claude/hooks/rec.py" {name}',
        **fields,
    }


def claude_project(tmp_path: Path, hooks: dict[str, Any]) -> Path:
    proj = tmp_path / "proj"
    (proj / ".claude" / "hooks").mkdir(parents=True)
    (proj / ".claude" / "hooks" / "rec.py").write_text(RECORDER)
    (proj / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}, indent=2))
    return proj


def seen(proj: Path, name: str) -> list[dict[str, Any]]:
    log = proj / ".claude" / "hooks" / f"{name}.log"
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines()]


def hookwise(
    proj: Path, *args: str, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    e = dict(os.environ)
    e["HOOKWISE_TRUST_ALL"] = "1"
    e.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(proj), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=e,
        timeout=60,
    )


# --------------------------------------------------------------------------- item 1: matcher values


def test_claude_matcher_values_load_natively_and_migrate(tmp_path: Path) -> None:
    """row: matcher SessionStart fork; row: matcher SessionStart compact; row: matcher Notification
    agent_needs_input; row: matcher Notification agent_completed; row: matcher tool without equivalent."""
    proj = claude_project(
        tmp_path,
        {
            "SessionStart": [
                {"matcher": "fork", "hooks": [hook("fork")]},
                {"matcher": "compact", "hooks": [hook("compact")]},
            ],
            "Notification": [
                {"matcher": "agent_needs_input|agent_completed", "hooks": [hook("agent")]}
            ],
            "PreToolUse": [{"matcher": "Task", "hooks": [hook("task")]}],
        },
    )
    listed = hookwise(proj, "--claude-settings", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    loaded = {(h["event"], h["matcher"]) for h in json.loads(listed.stdout)["hooks"]}
    assert loaded == {
        ("SessionStart", "fork"),
        ("SessionStart", "compact"),
        ("Notification", "agent_needs_input|agent_completed"),
        ("BeforeTool", "^Task$"),
    }
    # one warning per hook whose values hookwise's own hosts never send (fork, agent_*, Task), none for "compact"
    warned = [w for w in json.loads(listed.stdout)["warnings"] if "kept in the matcher" in w]
    assert len(warned) == 3 and not any("'compact'" in w for w in warned)
    for source in ("fork", "compact"):
        fired = hookwise(proj, "--claude-settings", "fire", "SessionStart", "--source", source)
        assert fired.returncode == 0, fired.stderr
        assert [s["source"] for s in seen(proj, source)] == [source]
    note = hookwise(
        proj,
        "--claude-settings",
        "fire",
        "Notification",
        "--notification-type",
        "agent_completed",
        "--json",
    )
    assert note.returncode == 0, note.stderr
    assert [s["notification_type"] for s in seen(proj, "agent")] == ["agent_completed"]

    mig = hookwise(proj, "migrate", "--from-claude", "--json")
    assert mig.returncode == 0, mig.stderr
    rep = json.loads(mig.stdout)
    assert [h["status"] for h in rep["hooks"]] == ["migrated"] * 4
    assert rep["counts"]["skipped"] == 0


# --------------------------------------------------------------------------- item 6: events that never fire


#: every hook event of Claude Code's reference (hooks reference and CHANGELOG to 2.1.332; PreModelSwitch and
#: PostModelSwitch since 2.1.251)
REFERENCE_EVENTS = (
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "PermissionRequest",
    "PermissionDenied",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "SessionStart",
    "SessionEnd",
    "Setup",
    "PreCompact",
    "PostCompact",
    "Notification",
    "MessageDisplay",
    "TaskCreated",
    "TaskCompleted",
    "TeammateIdle",
    "InstructionsLoaded",
    "ConfigChange",
    "CwdChanged",
    "DirectoryAdded",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "Elicitation",
    "ElicitationResult",
    "PreModelSwitch",
    "PostModelSwitch",
)


def test_every_event_of_the_reference_has_a_row_in_the_name_table() -> None:
    """row: every event."""
    rows = set(CLAUDE_TO_GEMINI_EVENT) | set(CLAUDE_EVENTS_WITHOUT_EQUIVALENT)
    assert set(REFERENCE_EVENTS) <= rows, set(REFERENCE_EVENTS) - rows
    assert not set(CLAUDE_TO_GEMINI_EVENT) & set(CLAUDE_EVENTS_WITHOUT_EQUIVALENT)


def test_hooks_on_events_that_never_fire_here_are_listed_and_counted(tmp_path: Path) -> None:
    """row: event PreModelSwitch; row: event PostModelSwitch; row: event PostCompact."""
    proj = claude_project(
        tmp_path,
        {
            "PreModelSwitch": [{"hooks": [hook("pre")]}],
            "PostModelSwitch": [{"hooks": [hook("post")]}],
            "PostCompact": [{"hooks": [hook("after")]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": [hook("bash")]}],
        },
    )
    listed = hookwise(proj, "--claude-settings", "list", "--json")
    never = [w for w in json.loads(listed.stdout)["warnings"] if "never fires here" in w]
    assert len(never) == 3 and all(".claude/settings.json" in w for w in never)
    text = hookwise(proj, "migrate", "--from-claude", "--dry-run")
    assert text.returncode == 0, text.stderr
    assert "1 migrated, 0 already present, 3 not migrated (3 on events that never fire here)." in (
        text.stdout
    )
    rep = json.loads(hookwise(proj, "migrate", "--from-claude", "--json").stdout)
    assert rep["counts"] == {"migrated": 1, "duplicate": 0, "skipped": 3, "neverFires": 3}
    assert {h["reason"] for h in rep["hooks"] if h["status"] == "skipped"} == {
        f"Claude Code event {e!r} never fires here: it has no hookwise equivalent"
        for e in ("PreModelSwitch", "PostModelSwitch", "PostCompact")
    }
