"""Claude Code's dialect as the real CLI (2.1.332) behaves, checked on real hooks (issue 21).

Each test names the rows of the table in docs/claude.md ("Claude Code's reference, row by row") it
covers: ``row: <kind> <name>``. Projects are real directories, hooks real processes, the CLI is run
as a user runs it.
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

from _tiers import first_quick
from hookwise.claude.names import CLAUDE_EVENTS_WITHOUT_EQUIVALENT, CLAUDE_TO_GEMINI_EVENT

#: a Claude-dialect hook: appends its stdin (one JSON line) to ``<name>.log`` beside it, then prints
#: the environment's ``OUT_<NAME>`` and exits with ``EXIT_<NAME>`` (stderr: ``ERR_<NAME>``)
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
    agent_needs_input; row: matcher Notification agent_completed; row: matcher tool without
    equivalent."""
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
    # one warning per hook whose values hookwise's own hosts never send (fork, agent_*, Task), none
    # for "compact"
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


# ------------------------------------------------------------------- item 6: events that never fire


#: every hook event of Claude Code's reference (hooks reference and CHANGELOG to 2.1.332;
#: PreModelSwitch and PostModelSwitch since 2.1.251)
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
    never = [w for w in json.loads(listed.stdout)["warnings"] if "never fires" in w]
    assert len(never) == 3 and all(".claude/settings.json" in w for w in never)
    # PostCompact fires through the agent bridge (docs/agents.md): the hook is listed, marked
    # bridge-only
    assert sum("fires only through the agent bridge" in w for w in never) == 1
    (row,) = [r for r in json.loads(listed.stdout)["hooks"] if r.get("bridgeOnly")]
    assert row["event"] == "PostCompact"
    text = hookwise(proj, "migrate", "--from-claude", "--dry-run")
    assert text.returncode == 0, text.stderr
    assert "1 migrated, 0 already present, 3 not migrated (3 on events that never fire here)." in (
        text.stdout
    )
    rep = json.loads(hookwise(proj, "migrate", "--from-claude", "--json").stdout)
    assert rep["counts"] == {"migrated": 1, "duplicate": 0, "skipped": 3, "neverFires": 3}
    assert {h["reason"] for h in rep["hooks"] if h["status"] == "skipped"} == {
        f"Claude Code event {e!r} never fires here: it has no hookwise equivalent"
        for e in ("PreModelSwitch", "PostModelSwitch")
    } | {
        "Claude Code event 'PostCompact' never fires in a host: it has no hookwise equivalent; it "
        "fires only through the agent bridge (`hookwise hook <agent>`, docs/agents.md)"
    }


# --------------------------------------------------------------------- acceptance 2: recorded stdin

PAYLOADS = Path(__file__).parent / "payloads"


def _payload_files() -> list[Path]:
    return sorted(PAYLOADS.glob("*.json"))


@pytest.mark.parametrize("path", _payload_files(), ids=lambda p: p.stem)
def test_recorded_stdin_goes_through_the_claude_dialect_and_back(
    tmp_path: Path, path: Path
) -> None:
    """row: every stdin field of every event hookwise fires (the payloads Claude Code 2.1.332 really
    sent).

    The payload becomes a firing (``from_claude_input``), the firing runs a real Claude-dialect hook
    loaded from ``.claude/settings.json``, and the hook's stdin is the payload again, field for
    field.
    """
    from hookwise import HookSystem
    from hookwise.claude.dialect import from_claude_input
    from hookwise.errors import PayloadError

    sample = json.loads(path.read_text())
    claude_event = sample["hook_event_name"]
    if claude_event in CLAUDE_EVENTS_WITHOUT_EQUIVALENT:  # PostCompact: a row "never fires here"
        with pytest.raises(PayloadError, match="never fires here"):
            from_claude_input(sample)
        return
    proj = claude_project(tmp_path, {claude_event: [{"hooks": [hook("rec")]}]})
    event, fields = from_claude_input(sample)
    with HookSystem(proj, claude_settings=True, trust_all=True) as hs:
        result = hs.fire(event, fields)
    assert [o.outcome for o in result.hooks] == ["ok"], result.warnings
    assert seen(proj, "rec") == [sample]


def test_gemini_dialect_hooks_see_exactly_the_contract_input(tmp_path: Path) -> None:
    """row: stdin tool_use_id, duration_ms, permission_mode, prompt_id, effort (the Claude-only
    channel)."""
    from hookwise import HookSystem
    from hookwise.claude.dialect import from_claude_input

    sample = json.loads((PAYLOADS / "PostToolUse.json").read_text())
    proj = claude_project(tmp_path, {"PostToolUse": [{"hooks": [hook("claude")]}]})
    gem = proj / ".gemini" / "settings.json"
    gem.parent.mkdir()
    gem.write_text(
        json.dumps({"hooks": {"AfterTool": [{"hooks": [hook("gemini")]}]}}).replace(
            "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"
        )
    )
    event, fields = from_claude_input(sample)
    with HookSystem(proj, claude_settings=True, trust_all=True) as hs:
        hs.fire(event, fields)
    (native,) = seen(proj, "gemini")
    (claude,) = seen(proj, "claude")
    claude_only = {"tool_use_id", "duration_ms", "permission_mode", "prompt_id", "effort"}
    assert claude_only <= set(claude) and not claude_only & set(native)
    assert set(native) == {
        "session_id",
        "transcript_path",
        "cwd",
        "hook_event_name",
        "timestamp",
        "tool_name",
        "tool_input",
        "tool_response",
    }
    assert native["tool_name"] == "run_shell_command" and native["hook_event_name"] == "AfterTool"


def test_the_claude_only_channel_is_one_set() -> None:
    from hookwise.claude.dialect import CLAUDE_ONLY_ON
    from hookwise.runners.dialects import CLAUDE_ONLY_FIELDS

    assert set(CLAUDE_ONLY_ON) == CLAUDE_ONLY_FIELDS


# --------------------------------------------------------------------------- item 3: async hooks


@pytest.mark.slow  # waits out a 2 s background hook
def test_fire_answers_at_once_and_stops_async_hooks_at_exit(tmp_path: Path) -> None:
    """row: hook async (hookwise fire: the answer comes at once; background hooks stopped as it
    exits)."""
    import time

    proj = claude_project(
        tmp_path,
        {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {
                            "type": "command",
                            "async": True,
                            "command": 'touch "$CLAUDE_PROJECT_DIR/started"; sleep 2; '
                            'touch "$CLAUDE_PROJECT_DIR/finished"',
                        },
                        hook("sync"),
                    ],
                }
            ]
        },
    )
    r = hookwise(
        proj,
        "--claude-settings",
        "fire",
        "BeforeTool",
        "--tool",
        "run_shell_command",
        "--json",
        env={"OUT_SYNC": json.dumps({"decision": "block", "reason": "no"})},
    )
    assert r.returncode == 2, r.stderr
    assert not (proj / "finished").exists()  # the answer did not wait for the async hook
    assert "still running when hookwise fire answered" in r.stderr
    time.sleep(2.5)
    assert not (
        proj / "finished"
    ).exists()  # stopped as hookwise fire exited, as Claude Code cancels it


# --------------------------------------------------------------------- item 8: what already matches


@pytest.mark.parametrize(
    ("stdout", "code", "reason"),
    first_quick(  # the quick tier: the deny JSON at exit 2; the full suite: the whole table
        [
            (  # a deny JSON gives the reason even with exit 2; stderr is dropped
                {
                    "hookSpecificOutput": {
                        "permissionDecision": "deny",
                        "permissionDecisionReason": "JSON-REASON",
                    }
                },
                "2",
                "JSON-REASON",
            ),
            ({"decision": "block", "reason": "JSON-REASON"}, "2", "JSON-REASON"),
            (  # an allow JSON with exit 2 still blocks, with stderr
                {"hookSpecificOutput": {"permissionDecision": "allow"}},
                "2",
                "STDERR-REASON",
            ),
            (None, "2", "STDERR-REASON"),  # no JSON
            ("PLAIN-STDOUT", "2", "STDERR-REASON"),  # plain text
            (  # deny JSON at exit 0
                {
                    "hookSpecificOutput": {
                        "permissionDecision": "deny",
                        "permissionDecisionReason": "JSON-REASON",
                    }
                },
                "0",
                "JSON-REASON",
            ),
            ({"decision": "block", "reason": "JSON-REASON"}, "0", "JSON-REASON"),
        ]
    ),
    ids=[
        "deny-exit2",
        "block-exit2",
        "allow-exit2",
        "stderr-exit2",
        "text-exit2",
        "deny-exit0",
        "block-exit0",
    ],
)
def test_exit_2_and_deny_reasons_match_claude(
    tmp_path: Path, stdout: Any, code: str, reason: str
) -> None:
    """row: exit 2 (reason: the JSON's deny/block reason, else stderr); row: exit 0 JSON deny/block
    (Q1 of the ground truth: the tool is blocked in every case)."""
    proj = claude_project(tmp_path, {"PreToolUse": [{"matcher": "Bash", "hooks": [hook("g")]}]})
    out = stdout if stdout is None or isinstance(stdout, str) else json.dumps(stdout)
    env = {"EXIT_G": code, "ERR_G": "STDERR-REASON", "OUT_G": out or ""}
    r = hookwise(
        proj,
        "--claude-settings",
        "fire",
        "BeforeTool",
        "--tool",
        "run_shell_command",
        "--tool-input",
        '{"command": "echo REAL-OUTPUT"}',
        "--json",
        env=env,
    )
    assert r.returncode == 2, r.stderr
    assert json.loads(r.stdout)["reason"] == reason


# --------------------------------------------------------------------------- item 4: the shapes


@pytest.mark.parametrize(
    ("hso", "tool", "kept", "warning"),
    [
        (
            {"updatedToolOutput": {"llmContent": "R"}},
            "run_shell_command",
            {"llmContent": "R"},
            None,
        ),
        (
            {"updatedToolOutput": {"llmContent": "R", "success": True}},
            "x",
            {"llmContent": "R", "success": True},
            None,
        ),
        ({"updatedToolOutput": "R"}, "run_shell_command", None, "it is a string"),
        ({"updatedToolOutput": {}}, "run_shell_command", None, "an empty object"),
        ({"updatedToolOutput": {"stdout": "R"}}, "run_shell_command", None, "no key 'stdout'"),
        (
            {"updatedToolOutput": {"llmContent": 3}},
            "run_shell_command",
            None,
            "'llmContent' is a number",
        ),
        (
            {"updatedMCPToolOutput": {"llmContent": "R"}},
            "mcp_docs_search",
            {"llmContent": "R"},
            None,
        ),
        ({"updatedMCPToolOutput": {"llmContent": "R"}}, "run_shell_command", None, "MCP tool only"),
        (
            {"updatedToolOutput": {"llmContent": "A"}, "updatedMCPToolOutput": {"llmContent": "B"}},
            "mcp_docs_search",
            {"llmContent": "A"},
            "updatedToolOutput wins",
        ),
    ],
    ids=[
        "object",
        "view-keys",
        "string",
        "empty",
        "claude-shape",
        "wrong-type",
        "mcp",
        "mcp-on-bash",
        "both",
    ],
)
def test_updated_tool_output_shapes(
    hso: dict[str, Any], tool: str, kept: Any, warning: str | None
) -> None:
    """row: output updatedToolOutput; row: output updatedMCPToolOutput (kept, or dropped with a
    warning)."""
    from hookwise.claude.dialect import answer_notes
    from hookwise.events import HookEvent

    output = {"hookSpecificOutput": dict(hso)}
    inp = {
        "tool_name": tool,
        "tool_input": {},
        "tool_response": {"llmContent": "REAL", "returnDisplay": "REAL"},
    }
    notes = answer_notes(HookEvent.AFTER_TOOL, output, "claude", inp)
    assert output["hookSpecificOutput"].get("updatedToolOutput") == kept
    assert "updatedMCPToolOutput" not in output["hookSpecificOutput"]
    if warning is None:
        assert notes == []
    else:
        assert len(notes) == 1 and warning in notes[0], notes


# ---------------------------------------------------------------- item 7: the deliberate difference


@pytest.mark.parametrize("native", [True, False], ids=["native", "migrated"])
def test_json_cut_short_fails_and_on_failure_block_blocks(tmp_path: Path, native: bool) -> None:
    """row: exit 0 + output that starts like JSON and does not parse (Claude Code: silent success;
    hookwise: `failed` with a warning, and a block under onFailure: "block")."""
    proj = claude_project(
        tmp_path,
        {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [hook("guard", onFailure="block"), hook("open")]}
            ]
        },
    )
    if not native:
        assert hookwise(proj, "migrate", "--from-claude").returncode == 0
        (proj / ".claude" / "settings.json").unlink()
    cut = '{"decision": "deny", "reason": '
    r = hookwise(
        proj,
        *(["--claude-settings"] if native else []),
        "fire",
        "BeforeTool",
        "--tool",
        "run_shell_command",
        "--json",
        env={"OUT_GUARD": cut, "OUT_OPEN": cut},
    )
    res = json.loads(r.stdout)
    assert r.returncode == 2 and res["decision"] == "deny", res
    assert [h["outcome"] for h in res["hooks"]] == ["failed", "failed"]
    assert sum("starts like JSON but does not parse" in w for w in res["warnings"]) == 2
