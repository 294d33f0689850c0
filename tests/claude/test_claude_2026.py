"""Claude Code's 2026 hook fields: each honoured natively and after ``migrate``, or named in the report.

Real projects in temporary directories, real command hooks, the CLI run as a user runs it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from hookwise.jsonc import parse as jsonc

# a Claude-style hook that records its stdin in a log next to it, then prints $REPLY (if set)
RECORDER = textwrap.dedent("""\
    import json, os, sys
    data = json.load(sys.stdin)
    log = os.path.join(os.path.dirname(os.path.abspath(__file__)), sys.argv[1] + ".log")
    with open(log, "a") as f:
        f.write(json.dumps(data) + "\\n")
    reply = os.environ.get("REPLY_" + sys.argv[1].upper())
    if reply:
        sys.stdout.write(reply)
    sys.stderr.write(os.environ.get("ERR_" + sys.argv[1].upper(), ""))
    sys.exit(int(os.environ.get("EXIT_" + sys.argv[1].upper(), "0")))
    """)


def hookwise(proj: Path, *args: str, stdin: str | None = None, env: dict[str, str] | None = None,
             ) -> subprocess.CompletedProcess[str]:
    e = dict(os.environ)
    e["HOOKWISE_TRUST_ALL"] = "1"
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "hookwise", "--project", str(proj), *args], input=stdin,
                          capture_output=True, text=True, env=e, timeout=60)


def rec(name: str, **fields: Any) -> dict[str, Any]:
    """A Claude command hook running the recorder under ``name``."""
    return {"type": "command", "command": f'{sys.executable} "$CLAUDE_PROJECT_DIR/.claude/hooks/rec.py" {name}',
            **fields}


def make(tmp_path: Path, hooks: dict[str, Any]) -> Path:
    proj = tmp_path / "proj"
    (proj / ".claude" / "hooks").mkdir(parents=True)
    (proj / ".claude" / "hooks" / "rec.py").write_text(RECORDER)
    (proj / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}, indent=2))
    return proj


def migrate(proj: Path) -> dict[str, Any]:
    r = hookwise(proj, "migrate", "--from-claude", "--json")
    assert r.returncode == 0, r.stderr
    rep: dict[str, Any] = json.loads(r.stdout)
    return rep


def written(proj: Path) -> dict[str, Any]:
    doc: dict[str, Any] = jsonc.parse((proj / ".gemini" / "settings.json").read_text())
    return doc


def fields_of(rep: dict[str, Any], i: int) -> dict[str, tuple[str, str]]:
    return {f["field"]: (f["action"], f["detail"]) for f in rep["hooks"][i]["fields"]}


# --------------------------------------------------------------------------- migrate --from-claude: the report


def test_report_names_every_2026_field(tmp_path: Path) -> None:
    proj = make(tmp_path, {
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            rec("guard", **{"if": "Bash(git push *)", "onFailure": "block", "shell": "bash"}),
            rec("bg", **{"async": True, "onFailure": "block", "once": True}),
            rec("ps", shell="powershell", asyncRewake=True),
            rec("bad", **{"if": "Bash(git *) && Edit(x)"}),
        ]}],
        "Stop": [{"hooks": [rec("stop", onFailure="block")]}],
        "UserPromptSubmit": [{"hooks": [rec("prompt", **{"if": "Bash(git *)"})]}, {"hooks": [rec("p2")]}],
    })
    rep = migrate(proj)
    st = [h["status"] for h in rep["hooks"]]
    assert st == ["migrated", "migrated", "migrated", "migrated", "migrated", "skipped", "migrated"]
    guard, bg, ps, bad, stop = (fields_of(rep, i) for i in range(5))
    assert guard["if"][0] == "carried" and guard["onFailure"][0] == "converted" and guard["shell"][0] == "carried"
    assert bg["async"][0] == "carried" and bg["onFailure"][0] == "dropped" and "async" in bg["onFailure"][1]
    assert bg["once"][0] == "dropped" and "skill frontmatter" in bg["once"][1]
    assert ps["shell"] == ("carried", ps["shell"][1]) and "pwsh" in ps["shell"][1]
    assert ps["asyncRewake"][0] == "dropped"
    assert bad["if"][0] == "carried" and "exactly one rule" in bad["if"][1]
    assert any("skips this hook" in w for w in rep["hooks"][3]["warnings"])
    assert stop["onFailure"][0] == "dropped" and "Stop" in stop["onFailure"][1]
    assert "never runs a hook with `if` on UserPromptSubmit" in rep["hooks"][5]["reason"]
    # the default timeout of a UserPromptSubmit hook is Claude Code's 30 s there
    assert fields_of(rep, 6)["timeout"] == ("added", "not set: Claude Code's default 30 s kept as 30000 ms")

    hooks = written(proj)["hooks"]
    pre = hooks["BeforeTool"][0]["hooks"]
    assert pre[0]["if"] == "Bash(git push *)" and pre[0]["failClosed"] is True and "shell" not in pre[0]
    assert pre[1]["async"] is True and "failClosed" not in pre[1] and "once" not in pre[1]
    assert pre[2]["shell"] == "powershell" and pre[2]["command"].startswith(sys.executable)
    assert pre[3]["if"] == "Bash(git *) && Edit(x)"
    assert "failClosed" not in hooks["AfterAgent"][0]["hooks"][0]
    assert hooks["BeforeAgent"][0]["hooks"][0]["timeout"] == 30_000


def test_newer_events_and_values_are_reported(tmp_path: Path) -> None:
    proj = make(tmp_path, {
        "PreModelSwitch": [{"hooks": [rec("pre")]}],
        "PostModelSwitch": [{"hooks": [rec("post")]}],
        "PostToolBatch": [{"hooks": [rec("batch")]}],
        "SessionStart": [{"matcher": "fork", "hooks": [rec("fork")]},
                         {"matcher": "startup|fork", "hooks": [rec("start")]}],
        "Notification": [{"matcher": "agent_needs_input|agent_completed", "hooks": [rec("n1")]},
                         {"matcher": "permission_prompt|agent_completed", "hooks": [rec("n2")]}],
    })
    rep = migrate(proj)
    by = {(h["sourceEvent"], h["matcherFrom"]): h for h in rep["hooks"]}
    for ev in ("PreModelSwitch", "PostModelSwitch", "PostToolBatch"):
        assert by[(ev, None)]["status"] == "skipped"
        assert by[(ev, None)]["reason"] == f"Claude Code event {ev!r} has no hookwise equivalent"
    assert by[("SessionStart", "fork")]["status"] == "skipped"
    assert "fork" in by[("SessionStart", "fork")]["reason"]
    start = by[("SessionStart", "startup|fork")]
    assert start["status"] == "migrated" and start["matcherTo"] == "startup"
    assert any("fork" in w for w in start["warnings"])
    assert by[("Notification", "agent_needs_input|agent_completed")]["status"] == "skipped"
    n2 = by[("Notification", "permission_prompt|agent_completed")]
    assert n2["status"] == "migrated" and n2["matcherTo"] == "ToolPermission"


def test_scripts_that_answer_updated_tool_output_are_flagged(tmp_path: Path) -> None:
    proj = make(tmp_path, {"PostToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/redact.py"'}]}],
        "PreCompact": [{"hooks": [rec("compact")]}]})
    (proj / ".claude" / "hooks" / "redact.py").write_text(
        'import json\nprint(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", '
        '"updatedToolOutput": {"stdout": "[redacted]"}}}))\n')
    rep = migrate(proj)
    assert any("updatedToolOutput" in w and "cannot replace a tool's result" in w for w in rep["hooks"][0]["warnings"])
    assert any("block compaction" in n for n in rep["hooks"][1]["notes"])


# --------------------------------------------------------------------------- migrate --to-claude


def test_to_claude_writes_the_fields_back(tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    gem = proj / ".gemini" / "settings.json"
    gem.parent.mkdir(parents=True)
    gem.write_text(json.dumps({"hooks": {
        "BeforeTool": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": "./guard.sh", "if": "Bash(git push *)", "failClosed": True,
             "dialect": "claude"},
            {"type": "command", "command": "./bg.sh", "async": True, "failClosed": True, "once": True},
            {"type": "command", "command": "Write-Host hi", "shell": "powershell"}]}],
        "AfterAgent": [{"hooks": [{"type": "command", "command": "./stop.sh", "failClosed": True}]}],
    }}))
    r = hookwise(proj, "migrate", "--to-claude", "--json")
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    assert fields_of(rep, 0)["failClosed"][0] == "converted"
    assert fields_of(rep, 1)["failClosed"][0] == "dropped" and fields_of(rep, 1)["once"][0] == "dropped"
    assert fields_of(rep, 3)["failClosed"][0] == "dropped"
    doc = jsonc.parse((proj / ".claude" / "settings.json").read_text())
    pre = doc["hooks"]["PreToolUse"][0]["hooks"]
    assert pre[0] == {"type": "command", "command": "./guard.sh", "if": "Bash(git push *)", "onFailure": "block"}
    assert pre[1] == {"type": "command", "command": "./bg.sh", "async": True}
    assert pre[2] == {"type": "command", "command": "Write-Host hi", "shell": "powershell"}
    assert doc["hooks"]["Stop"][0]["hooks"][0] == {"type": "command", "command": "./stop.sh"}


def test_round_trip_keeps_the_fields(tmp_path: Path) -> None:
    proj = make(tmp_path, {"PreToolUse": [{"matcher": "Bash", "hooks": [
        rec("guard", **{"if": "Bash(git push *)", "onFailure": "block", "async": False})]}]})
    migrate(proj)
    r = hookwise(proj, "migrate", "--to-claude", "--json")
    rep = json.loads(r.stdout)
    assert [h["status"] for h in rep["hooks"]] == ["duplicate"]


@pytest.mark.parametrize("value", ["warn", True, 1])
def test_unknown_on_failure_values_fail_open(tmp_path: Path, value: Any) -> None:
    proj = make(tmp_path, {"PreToolUse": [{"hooks": [rec("x", onFailure=value)]}]})
    rep = migrate(proj)
    assert fields_of(rep, 0)["onFailure"][0] == "dropped"
    assert "failClosed" not in written(proj)["hooks"]["BeforeTool"][0]["hooks"][0]
