"""``hookwise migrate`` and native ``.claude/`` loading, run as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from hookwise import HookSystem
from hookwise.jsonc import parse as jsonc

GUARD = textwrap.dedent("""\
    #!/usr/bin/env python3
    import json, sys
    d = json.load(sys.stdin)
    assert d["hook_event_name"] == "PreToolUse", d
    if d["tool_name"] == "Bash" and "rm -rf" in d["tool_input"]["command"]:
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
              "permissionDecision": "deny", "permissionDecisionReason": "rm -rf is not allowed"}}))
    """)

CLAUDE_SETTINGS = {
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py"',
                        "timeout": 5,
                    }
                ],
            }
        ],
    }
}


def hookwise(
    proj: Path,
    *args: str,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
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


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    p = tmp_path / "my project"
    (p / ".claude" / "hooks").mkdir(parents=True)
    (p / ".claude" / "hooks" / "guard.py").write_text(GUARD)
    (p / ".claude" / "settings.json").write_text(json.dumps(CLAUDE_SETTINGS, indent=2))
    return p


def fire_rm(proj: Path, *pre: str) -> tuple[int, dict[str, Any]]:
    r = hookwise(
        proj,
        *pre,
        "fire",
        "BeforeTool",
        "--tool",
        "run_shell_command",
        "--tool-input",
        '{"command": "rm -rf /"}',
        "--json",
    )
    return r.returncode, json.loads(r.stdout)


# --------------------------------------------------------------------------- acceptance 2


@pytest.mark.slow
def test_claude_guard_blocks_natively_with_the_flag(proj: Path) -> None:
    code, res = fire_rm(proj, "--claude-settings")
    assert code == 2 and res["decision"] == "deny" and res["reason"] == "rm -rf is not allowed"
    code, res = fire_rm(proj)
    assert code == 0 and res["hooks"] == []  # not loaded unless switched on


@pytest.mark.slow
def test_claude_guard_blocks_natively_with_the_setting(proj: Path) -> None:
    (proj / ".gemini").mkdir()
    (proj / ".gemini" / "settings.json").write_text('{"hooksConfig": {"claudeSettings": true}}')
    code, res = fire_rm(proj)
    assert code == 2 and res["decision"] == "deny"
    hs = HookSystem(str(proj), trust_all=True)
    [entry] = hs.entries
    assert entry.dialect == "claude" and entry.source == "project" and entry.timeout_ms == 5000
    assert (
        entry.file == str(proj / ".claude" / "settings.json")
        and entry.pointer == "/hooks/PreToolUse/0/hooks/0"
    )
    assert entry.matcher == "^run_shell_command$"
    ok = hs.fire("BeforeTool", tool_name="run_shell_command", tool_input={"command": "ls"})
    assert not ok.blocked and [h.outcome.value for h in ok.hooks] == ["ok"]


@pytest.mark.slow
def test_claude_guard_blocks_after_migration(proj: Path) -> None:
    r = hookwise(proj, "migrate", "--from-claude")
    assert r.returncode == 0, r.stderr
    written = json.loads((proj / ".gemini" / "settings.json").read_text())
    assert written == {
        "hooks": {
            "BeforeTool": [
                {
                    "matcher": "^run_shell_command$",
                    "hooks": [
                        {
                            "type": "command",
                            "command": 'python3 "$GEMINI_PROJECT_DIR/.claude/hooks/guard.py"',
                            "timeout": 5000,
                            "dialect": "claude",
                        }
                    ],
                }
            ]
        }
    }
    code, res = fire_rm(proj)
    assert code == 2 and res["reason"] == "rm -rf is not allowed"


# --------------------------------------------------------------------------- editing rules


EXISTING = """\
// team hooks -- keep this comment
{
    "general": { "vimMode": true },   /* unrelated key */
    "hooks": {
        "BeforeTool": [
            { "matcher": "write_file", "hooks": [ { "type": "command", "command": "./lint.sh" } ] }
        ]
    }
}
"""


@pytest.mark.slow
def test_existing_file_is_kept_byte_for_byte(proj: Path) -> None:
    target = proj / ".gemini" / "settings.json"
    target.parent.mkdir()
    target.write_text(EXISTING)
    dry = hookwise(proj, "migrate", "--from-claude", "--dry-run")
    assert dry.returncode == 0 and target.read_text() == EXISTING
    assert "+++ " in dry.stdout and '+                        "dialect": "claude"' in dry.stdout
    r = hookwise(proj, "migrate", "--from-claude")
    assert r.returncode == 0, r.stderr
    new = target.read_text()
    assert new.startswith(
        '// team hooks -- keep this comment\n{\n    "general": { "vimMode": true },   '
        "/* unrelated key */\n"
    )
    assert (
        '{ "matcher": "write_file", "hooks": [ { "type": "command", "command": "./lint.sh" } ] },'
        in new
    )
    doc = jsonc.parse(new)
    assert doc["general"] == {"vimMode": True}
    assert [d["matcher"] for d in doc["hooks"]["BeforeTool"]] == [
        "write_file",
        "^run_shell_command$",
    ]
    again = hookwise(proj, "migrate", "--from-claude")
    assert "Nothing to change" in again.stdout and target.read_text() == new
    assert "1 already present" in again.stdout


@pytest.mark.slow
def test_local_settings_are_read_after_the_shared_ones(proj: Path) -> None:
    (proj / ".claude" / "settings.local.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Bash",
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": (
                                        'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py"'
                                    ),
                                },
                                {"type": "command", "command": "echo local"},
                            ],
                        }
                    ]
                }
            }
        )
    )
    r = hookwise(proj, "migrate", "--from-claude", "--json")
    rep = json.loads(r.stdout)
    assert [h["status"] for h in rep["hooks"]] == ["migrated", "duplicate", "migrated"]
    assert rep["sources"][1].endswith("settings.local.json")
    cmds = [
        h["command"]
        for d in json.loads((proj / ".gemini" / "settings.json").read_text())["hooks"]["BeforeTool"]
        for h in d["hooks"]
    ]
    assert cmds == ['python3 "$GEMINI_PROJECT_DIR/.claude/hooks/guard.py"', "echo local"]


@pytest.mark.slow
def test_user_scope_reads_and_writes_only_user_files(proj: Path, tmp_path: Path) -> None:
    home = Path(os.environ["GEMINI_CLI_HOME"])
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "Stop": [{"hooks": [{"type": "command", "command": "say done", "timeout": 2}]}]
                }
            }
        )
    )
    r = hookwise(proj, "migrate", "--from-claude", "--scope", "user")
    assert r.returncode == 0, r.stderr
    assert not (proj / ".gemini").exists()
    user = json.loads((home / ".gemini" / "settings.json").read_text())
    assert user == {
        "hooks": {
            "AfterAgent": [
                {
                    "hooks": [
                        {
                            "type": "command",
                            "command": "say done",
                            "timeout": 2000,
                            "dialect": "claude",
                        }
                    ]
                }
            ]
        }
    }


def test_native_user_hooks_are_user_hooks(proj: Path) -> None:
    home = Path(os.environ["GEMINI_CLI_HOME"])
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "settings.json").write_text(
        json.dumps(
            {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo user-stop"}]}]}}
        )
    )
    hs = HookSystem(str(proj), claude_settings=True)
    sources = {(e.event.value, e.source) for e in hs.entries}
    assert sources == {("AfterAgent", "user"), ("BeforeTool", "project")}
    assert all(e.dialect == "claude" for e in hs.entries)
    [user] = [e for e in hs.entries if e.source == "user"]
    assert user.timeout_ms == 600_000 and hs.is_trusted(user)


# --------------------------------------------------------------------------- the reverse


@pytest.mark.slow
def test_to_claude(proj: Path) -> None:
    (proj / ".claude" / "settings.json").write_text('{\n  // mine\n  "model": "opus"\n}\n')
    gem = proj / ".gemini" / "settings.json"
    gem.parent.mkdir()
    gem.write_text(
        json.dumps(
            {
                "hooks": {
                    "BeforeTool": [
                        {
                            "matcher": "write_file|replace",
                            "sequential": True,
                            "hooks": [
                                {
                                    "name": "secrets",
                                    "type": "command",
                                    "command": "$GEMINI_PROJECT_DIR/scan.sh",
                                    "timeout": 1500,
                                    "failClosed": True,
                                    "description": "Scanning",
                                }
                            ],
                        }
                    ],
                    "BeforeModel": [{"hooks": [{"type": "command", "command": "./model.sh"}]}],
                    "SessionEnd": [
                        {
                            "matcher": "exit",
                            "hooks": [
                                {"type": "command", "command": "./bye.sh", "dialect": "claude"}
                            ],
                        }
                    ],
                }
            }
        )
    )
    r = hookwise(proj, "migrate", "--to-claude", "--json")
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    assert [h["status"] for h in rep["hooks"]] == ["migrated", "skipped", "migrated"]
    assert "no Claude Code equivalent" in rep["hooks"][1]["reason"]
    fields = {f["field"]: f["action"] for f in rep["hooks"][0]["fields"]}
    assert fields == {
        "type": "carried",
        "command": "converted",
        "timeout": "converted",
        "description": "converted",
        "name": "dropped",
        "failClosed": "converted",
    }
    assert any("written for hookwise" in w for w in rep["hooks"][0]["warnings"])
    assert any("sequential" in f for f in rep["findings"])
    text = (proj / ".claude" / "settings.json").read_text()
    assert text.startswith('{\n  // mine\n  "model": "opus",')
    doc = jsonc.parse(text)
    assert doc["hooks"] == {
        "PreToolUse": [
            {
                "matcher": "Write|Edit",
                "hooks": [
                    {
                        "type": "command",
                        "command": "$CLAUDE_PROJECT_DIR/scan.sh",
                        "timeout": 1.5,
                        "statusMessage": "Scanning",
                        "onFailure": "block",
                    }
                ],
            }
        ],
        "SessionEnd": [
            {"matcher": "prompt_input_exit", "hooks": [{"type": "command", "command": "./bye.sh"}]}
        ],
    }
    again = hookwise(proj, "migrate", "--to-claude")
    assert "Nothing to change" in again.stdout


# --------------------------------------------------------------------------- errors and warnings


@pytest.mark.slow
def test_no_claude_settings_is_an_error(tmp_path: Path) -> None:
    r = hookwise(tmp_path, "migrate", "--from-claude")
    assert (
        r.returncode == 1
        and "no Claude Code settings found" in r.stderr
        and "settings.local.json" in r.stderr
    )


@pytest.mark.slow
def test_needs_a_direction(tmp_path: Path) -> None:
    r = hookwise(tmp_path, "migrate")
    assert r.returncode == 1 and "--from-claude" in r.stderr


@pytest.mark.slow
def test_broken_source_names_file_line_and_column(proj: Path) -> None:
    (proj / ".claude" / "settings.json").write_text('{\n  "hooks": {,}\n}')
    r = hookwise(proj, "migrate", "--from-claude")
    assert r.returncode == 1 and "settings.json:2:" in r.stderr and not (proj / ".gemini").exists()


@pytest.mark.slow
def test_broken_target_is_not_touched(proj: Path) -> None:
    target = proj / ".gemini" / "settings.json"
    target.parent.mkdir()
    target.write_text('{"hooks": [}')
    r = hookwise(proj, "migrate", "--from-claude")
    assert r.returncode == 1 and "was not changed" in r.stderr
    assert target.read_text() == '{"hooks": [}'


def test_native_warnings_point_at_the_claude_file(proj: Path) -> None:
    (proj / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Bash",
                            "hooks": [
                                {"type": "command", "command": "true", "if": "Bash(git *"},
                                {"type": "prompt", "prompt": "is this safe?"},
                            ],
                        }
                    ],
                    "SubagentStart": [{"hooks": [{"type": "command", "command": "true"}]}],
                }
            },
            indent=2,
        )
    )
    hs = HookSystem(str(proj), claude_settings=True, trust_all=True)
    path = str(proj / ".claude" / "settings.json")
    assert len(hs.entries) == 1
    joined = "\n".join(hs.warnings)
    assert (
        f"{path}:7:" in joined
        and "/hooks/PreToolUse/0/hooks/0: `if` rule 'Bash(git *' must end with ')'" in joined
    )
    assert "/hooks/PreToolUse/0/hooks/1: prompt (LLM) hooks cannot run" in joined
    assert "SubagentStart' never fires in a host" in joined


def test_disable_all_hooks_is_honoured_natively(proj: Path) -> None:
    (proj / ".claude" / "settings.local.json").write_text('{"disableAllHooks": true}')
    hs = HookSystem(str(proj), claude_settings=True, trust_all=True)
    assert hs.entries == [] and any("disableAllHooks" in w for w in hs.warnings)


def test_a_project_disable_all_hooks_keeps_the_users_claude_hooks(proj: Path) -> None:
    """disableAllHooks in a project file switches off the project's hooks only
    (docs/security.md)."""
    user = Path(os.environ["GEMINI_CLI_HOME"]) / ".claude" / "settings.json"
    user.parent.mkdir(parents=True, exist_ok=True)
    guard = {"type": "command", "command": "echo guard"}
    user.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [guard]}]}}))
    (proj / ".claude" / "settings.local.json").write_text('{"disableAllHooks": true}')
    hs = HookSystem(str(proj), claude_settings=True, trust_all=True)
    assert [(e.source, e.command) for e in hs.entries] == [("user", "echo guard")]
    assert any("this project's Claude Code hooks are not loaded" in w for w in hs.warnings)
    user.write_text('{"disableAllHooks": true}')
    hs.reload()
    assert hs.entries == []


def test_broken_claude_file_is_a_warning_natively(proj: Path) -> None:
    (proj / ".claude" / "settings.local.json").write_text("{oops")
    hs = HookSystem(str(proj), claude_settings=True, trust_all=True)
    assert len(hs.entries) == 1
    assert any("settings.local.json:1:2" in w and "skipped" in w for w in hs.warnings)


@pytest.mark.slow
def test_project_dir_inside_command_substitution(proj: Path) -> None:
    (proj / "branch").write_text("main\n")
    (proj / ".claude" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "UserPromptSubmit": [
                        {
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": 'echo "branch: $(cat "$CLAUDE_PROJECT_DIR/branch")"',
                                }
                            ]
                        }
                    ]
                }
            }
        )
    )
    r = hookwise(proj, "--claude-settings", "fire", "BeforeAgent", "--prompt", "hi", "--json")
    assert json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] == "branch: main"


@pytest.mark.slow
def test_settings_without_hooks_say_so(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text('{"model": "opus"}')
    r = hookwise(tmp_path, "migrate", "--from-claude")
    assert (
        r.returncode == 0 and "No hooks found" in r.stdout and not (tmp_path / ".gemini").exists()
    )


@pytest.mark.slow
def test_json_report_gives_every_field_a_pointer(proj: Path) -> None:
    rep = json.loads(hookwise(proj, "migrate", "--from-claude", "--dry-run", "--json").stdout)
    [hook] = rep["hooks"]
    assert {f["pointer"] for f in hook["fields"]} >= {
        "/hooks/PreToolUse/0/hooks/0/timeout",
        "/hooks/PreToolUse/0/hooks/0/command",
    }
    assert (
        rep["written"] is False
        and rep["dryRun"] is True
        and rep["added"] == 1
        and rep["diff"].startswith("---")
    )
