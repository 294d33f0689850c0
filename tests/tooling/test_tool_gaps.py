"""Tool gaps found while checking hookwise against the real Claude Code CLI (issue 21, items 9-12).

Each test runs the program as a user runs it (a real process, real files) and failed before its fix:

- a deleted working directory does not matter when ``--project`` exists (item 9);
- ``validate --plugin-dir`` exits 1 on a broken plugin file (item 10);
- ``trace report`` skips a partial line with a warning naming it, and reports the rest (item 11);
- a missing required input field is a ``PayloadError`` (API) and exit 1 naming the field (CLI, item
  12).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.conftest import Project, emit

from _tiers import first_quick
from hookwise import HookSystem, PayloadError
from hookwise.events import EVENT_SPECS, HookEvent

#: runs the hookwise program (``cli.main.console``, as the installed script does) from a directory
#: it deletes first: argv[1] is that directory, the rest are hookwise's arguments
_FROM_A_DELETED_DIR = (
    "import os, sys\n"
    "d = sys.argv[1]\n"
    "os.chdir(d)\n"
    "os.rmdir(d)\n"
    "sys.argv = ['hookwise', *sys.argv[2:]]\n"
    "from hookwise.cli.main import console\n"
    "sys.exit(console())\n"
)


def _hookwise(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookwise", *args],
        capture_output=True,
        text=True,
        input=stdin,
        env=os.environ.copy(),
        timeout=60,
    )


# --------------------------------------------------------------------------- item 9


def test_fire_from_a_deleted_directory_runs_the_hooks_of_the_project(
    project: Project, tmp_path: Path
) -> None:
    project.hooks("BeforeTool", emit({"decision": "deny", "reason": "guarded"}), layer="user")
    gone = tmp_path / "gone"
    gone.mkdir()
    out = subprocess.run(
        [sys.executable, "-c", _FROM_A_DELETED_DIR, str(gone), "--project", str(project.root)]
        + ["fire", "BeforeTool", "--tool", "run_shell_command", "--json"],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=60,
    )
    assert not gone.exists()
    assert out.returncode == 2, out.stderr
    data = json.loads(out.stdout)
    assert data["decision"] == "deny" and data["reason"] == "guarded"
    assert [h["outcome"] for h in data["hooks"]] == ["ok"]


# --------------------------------------------------------------------------- item 10


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("hooks/hooks.json", '{"hooks": {"PreToolUse": [ {"hooks": ['),
        (".claude-plugin/plugin.json", '{"name": '),
    ],
    ids=["broken-hooks.json", "broken-plugin.json"],
)
@pytest.mark.parametrize("as_json", first_quick([False, True]), ids=["text", "json"])
def test_validate_plugin_dir_with_a_broken_file_exits_1(
    project: Project, tmp_path: Path, path: str, text: str, as_json: bool
) -> None:
    plugin = tmp_path / "plugin"
    (plugin / "hooks").mkdir(parents=True)
    (plugin / "hooks" / "hooks.json").write_text('{"hooks": {}}')
    (plugin / path).parent.mkdir(parents=True, exist_ok=True)
    (plugin / path).write_text(text)
    args = ["--project", str(project.root), "--plugin-dir", str(plugin), "validate"]
    out = _hookwise(*args, *(["--json"] if as_json else []))
    assert out.returncode == 1, (out.stdout, out.stderr)
    shown = out.stdout + out.stderr
    assert str(plugin / path) in shown and "error" in shown


# --------------------------------------------------------------------------- item 11


def _record(name: str, outcome: str = "ok") -> str:
    return json.dumps(
        {
            "type": "hook_call",
            "hook_event_name": "BeforeTool",
            "hook_name": name,
            "hook_type": "command",
            "source": "project",
            "hook_input": {},
            "hook_output": {},
            "exit_code": 0,
            "stdout": "",
            "stderr": "",
            "duration_ms": 3,
            "success": outcome == "ok",
            "outcome": outcome,
            "error": None,
        }
    )


def test_trace_report_skips_a_partial_last_line(tmp_path: Path) -> None:
    trace = tmp_path / "killed.jsonl"
    whole = _record("guard")
    trace.write_text(
        f"{whole}\n{_record('scan')}\n{whole[: len(whole) // 2]}"
    )  # cut short by a kill
    out = _hookwise("trace", "report", str(trace))
    assert out.returncode == 0, out.stderr
    assert "2 hook calls of 2 hooks" in out.stdout
    assert f"{trace}:3: not a JSON line" in out.stderr and "skipped" in out.stderr


def test_trace_report_of_no_readable_line_exits_1(tmp_path: Path) -> None:
    trace = tmp_path / "garbage.jsonl"
    trace.write_text('{"type": "hook_c\n')
    out = _hookwise("trace", "report", str(trace))
    assert out.returncode == 1
    assert f"{trace}:1: not a JSON line" in out.stderr and "no line is readable" in out.stderr


# --------------------------------------------------------------------------- item 12


@pytest.mark.parametrize("event", list(HookEvent), ids=str)
def test_every_required_field_is_checked(project: Project, event: HookEvent) -> None:
    """Without a hook too (the firing's input is always checked): each required field, left out, is
    named."""
    hs = HookSystem(project.root)
    for missing in EVENT_SPECS[event].required:
        with pytest.raises(PayloadError, match=f"'{missing}' is required for {event.value}"):
            hs.fire(event, {f: _VALUES[f] for f in EVENT_SPECS[event].required if f != missing})


_VALUES: dict[str, object] = {
    "tool_name": "run_shell_command",
    "tool_input": {},
    "tool_response": {},
    "prompt": "p",
    "prompt_response": "r",
    "stop_hook_active": False,
    "llm_request": {},
    "llm_response": {},
    "source": "startup",
    "reason": "exit",
    "trigger": "manual",
    "notification_type": "ToolPermission",
    "message": "m",
    "details": {},
}


def test_before_tool_without_tool_name_raises(project: Project) -> None:
    project.hooks("BeforeTool", emit({"decision": "allow"}), layer="user")
    hs = HookSystem(project.root)
    with pytest.raises(PayloadError, match="'tool_name' is required"):
        hs.fire("BeforeTool")
    with pytest.raises(PayloadError, match="'tool_name' is required"):
        hs.fire("BeforeTool", tool_name=None, tool_input={})  # None means "not given"


def test_cli_input_without_a_required_field_exits_1_naming_it(project: Project) -> None:
    out = _hookwise(
        "--project",
        str(project.root),
        "fire",
        "AfterAgent",
        "--input",
        "-",
        stdin='{"prompt": "p", "prompt_response": "r", "stop_hook_active": null}',
    )
    assert out.returncode == 1
    assert "stop_hook_active" in out.stderr and "required" in out.stderr
