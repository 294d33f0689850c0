"""``hookwise fire`` / ``list`` / ``--trace`` as a user runs them (docs/contract.md §10)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from tests.conftest import Project, emit

pytestmark = pytest.mark.usefixtures("trust_all")

FIRE_FIELDS = {
    "event",
    "decision",
    "continue",
    "reason",
    "stopReason",
    "systemMessage",
    "suppressOutput",
    "hookSpecificOutput",
    "hooks",
    "warnings",
}
HOOK_FIELDS = {
    "name",
    "command",
    "source",
    "outcome",
    "exitCode",
    "durationMs",
    "output",
    "stdout",
    "stderr",
    "error",
    "truncated",
}
TRACE_FIELDS = {
    "type",
    "hook_event_name",
    "hook_name",
    "hook_type",
    "source",
    "hook_input",
    "hook_output",
    "exit_code",
    "stdout",
    "stderr",
    "duration_ms",
    "success",
    "outcome",
    "error",
}


def hookwise(
    project: Project, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project.root), *args],
        capture_output=True,
        text=True,
        input=stdin,
        env=os.environ.copy(),
        timeout=60,
    )


def test_fire_json_has_every_field(project: Project) -> None:
    project.hooks(
        "BeforeTool",
        {
            "type": "command",
            "name": "rw",
            "command": emit(
                {
                    "decision": "allow",
                    "systemMessage": "hi",
                    "hookSpecificOutput": {"tool_input": {"command": "ls -l"}},
                }
            ),
        },
        {"type": "command", "name": "warn", "command": "exit 1"},
    )
    out = hookwise(
        project,
        "fire",
        "BeforeTool",
        "--tool",
        "run_shell_command",
        "--tool-input",
        '{"command": "ls", "dir": "."}',
        "--json",
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == FIRE_FIELDS
    assert (
        data["event"] == "BeforeTool" and data["decision"] == "allow" and data["continue"] is True
    )
    assert data["hookSpecificOutput"]["tool_input"] == {"command": "ls -l", "dir": "."}
    assert all(set(h) == HOOK_FIELDS for h in data["hooks"])
    assert [h["outcome"] for h in data["hooks"]] == ["ok", "failed"]
    assert data["hooks"][0]["source"] == "project" and data["hooks"][1]["exitCode"] == 1
    assert len(data["warnings"]) == 1 and "warn" in data["warnings"][0]


@pytest.mark.parametrize(
    "answer,code",
    [
        ({"decision": "allow"}, 0),
        ({"decision": "ask"}, 0),
        ({"decision": "deny"}, 2),
        ({"decision": "block"}, 2),
        ({"continue": False, "stopReason": "s"}, 3),
        ({"continue": False, "decision": "deny"}, 3),
    ],
)
def test_fire_exit_codes(project: Project, answer: dict[str, Any], code: int) -> None:
    project.hooks("AfterAgent", emit(answer))
    out = hookwise(project, "fire", "AfterAgent", "--prompt", "p", "--prompt-response", "r")
    assert out.returncode == code, out.stdout + out.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    "args,message",
    [
        (["fire", "BeforeTool", "--tool", "t", "--bogus"], "unrecognized arguments: --bogus"),
        (
            ["fire", "BeforeTool", "--tool", "t", "--tool-input", "{oops"],
            "--tool-input: not valid JSON",
        ),
        (
            ["fire", "BeforeTool", "--tool", "t", "--tool-input", "[1]"],
            "--tool-input: expected a JSON object",
        ),
        (["fire", "NoSuchEvent"], "unknown event 'NoSuchEvent'"),
        (["fire", "PreToolUse"], "did you mean 'BeforeTool'"),
        (
            ["fire", "BeforeTool", "--input", "/no/such/file.json"],
            "--input /no/such/file.json: no such file",
        ),
        (["fire", "BeforeTool"], "needs a tool name: --tool NAME"),
        (
            ["fire", "SessionStart", "--source", "boot"],
            "--source 'boot': expected one of startup, resume, clear",
        ),
        (["fire", "SessionStart", "--tool", "x"], "--tool does not apply to SessionStart"),
        (["nosuchcommand"], "invalid choice"),
    ],
)
def test_fire_usage_errors_exit_1(project: Project, args: list[str], message: str) -> None:
    out = hookwise(project, *args)
    assert out.returncode == 1
    assert message in out.stderr
    assert "Traceback" not in out.stderr


def test_fire_input_from_stdin_and_file(project: Project) -> None:
    project.hooks(
        "BeforeTool",
        project.script(
            "echo.py",
            """
        d = json.load(sys.stdin)
        said = d["tool_name"] + ":" + d["cwd"] + ":" + d["session_id"]
        print(json.dumps({"systemMessage": said}))
    """,
        ),
    )
    out = hookwise(
        project,
        "fire",
        "BeforeTool",
        "--input",
        "-",
        "--json",
        stdin='{"tool_name": "read_file", "tool_input": {}, "session_id": "s1"}',
    )
    assert json.loads(out.stdout)["systemMessage"] == f"read_file:{project.root}:s1"
    f = project.root / "in.json"
    f.write_text('{"tool_name": "glob", "tool_input": {}}')
    out = hookwise(
        project, "fire", "BeforeTool", "--input", str(f), "--tool", "grep_search", "--json"
    )
    assert json.loads(out.stdout)["systemMessage"].startswith(
        "grep_search:"
    )  # flags win over the file
    bad = project.root / "bad.json"
    bad.write_text("[]")
    out = hookwise(project, "fire", "BeforeTool", "--input", str(bad))
    assert out.returncode == 1 and "must be a JSON object" in out.stderr


def test_fire_readable_output_shows_outcome_and_time(project: Project) -> None:
    project.hooks(
        "BeforeTool", {"type": "command", "name": "guard", "command": emit(exit=2, stderr="nope")}
    )
    out = hookwise(project, "fire", "BeforeTool", "--tool", "run_shell_command")
    assert out.returncode == 2
    assert "BeforeTool (run_shell_command): DENY" in out.stdout
    assert (
        "guard" in out.stdout
        and "BLOCKED" in out.stdout
        and " ms" in out.stdout
        and "nope" in out.stdout
    )


def test_trace_file_gets_one_json_line_per_hook_call(project: Project) -> None:
    project.hooks("BeforeTool", emit({"decision": "allow"}), "exit 1")
    trace = project.root / "trace.jsonl"
    for _ in range(2):
        hookwise(project, "--trace", str(trace), "fire", "BeforeTool", "--tool", "t")
    lines = trace.read_text().splitlines()
    assert len(lines) == 4
    records = [json.loads(line) for line in lines]
    assert all(set(r) == TRACE_FIELDS and r["type"] == "hook_call" for r in records)
    assert [r["outcome"] for r in records] == ["ok", "failed", "ok", "failed"]
    assert records[0]["hook_input"]["tool_name"] == "t" and records[1]["exit_code"] == 1
    assert records[0]["success"] is True and records[1]["success"] is False


def test_list_json_and_table(project: Project) -> None:
    project.write_settings(
        {
            "hooks": {
                "BeforeTool": [
                    {
                        "matcher": "write_file",
                        "sequential": True,
                        "hooks": [
                            {"type": "command", "name": "scan", "command": "true", "timeout": 1234}
                        ],
                    }
                ]
            },
            "hooksConfig": {"disabled": ["scan"]},
        }
    )
    out = hookwise(project, "list", "--json")
    data = json.loads(out.stdout)
    assert data["warnings"] == []
    assert data["hooks"] == [
        {
            "event": "BeforeTool",
            "name": "scan",
            "command": "true",
            "matcher": "write_file",
            "sequential": True,
            "timeout": 1234,
            "source": "project",
            "file": str(project.settings_path()),
            "enabled": False,
            "trusted": True,
            "if": None,
            "async": False,
            "once": False,
            "type": "command",
            "package": None,
        }
    ]
    table = hookwise(project, "list").stdout
    assert (
        "scan" in table
        and "write_file" in table
        and "1234 ms" in table
        and ".gemini/settings.json" in table
    )


def test_python_m_and_console_script_agree(project: Project) -> None:
    import sysconfig

    # the script pip installed for this interpreter (not whatever `hookwise` PATH finds first)
    candidates = [
        os.path.join(d, "hookwise")
        for d in (sysconfig.get_path("scripts"), os.path.dirname(sys.executable))
    ]
    exe = next((c for c in candidates if os.path.isfile(c)), None)
    assert exe is not None, (
        f"no hookwise console script in {candidates} (is the package installed?)"
    )
    out = subprocess.run([exe, "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.startswith("hookwise ")
