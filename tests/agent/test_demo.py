"""``hookwise demo``: the README's main job, run as a user runs it (no key, no network)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookwise.cli.demo import HOOKS, settings_document


def run_demo(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("GEMINI_API_KEY", None)
    env.pop("HOOKWISE_TRUST_ALL", None)  # the demo trusts the hooks it wrote itself, nothing else
    return subprocess.run(
        [sys.executable, "-m", "hookwise", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(cwd),
        timeout=60,
    )


@pytest.mark.slow
def test_demo_shows_every_hook_doing_its_job(tmp_path: Path) -> None:
    trace = tmp_path / "demo-trace.jsonl"
    r = run_demo("--trace", str(trace), "demo", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout
    assert "hook  BeforeTool shell-guard: DENY" in out
    assert "rewrote the tool input" in out and "secret-redactor: removed 1 secret(s)" in out
    assert "added context: Project facts" in out
    assert "Agent execution stopped: release-gate: publishing is a human's job" in out
    assert out.count("[ok]") == 4 and "[FAILED]" not in out
    kinds = {json.loads(line)["type"] for line in trace.read_text().splitlines()}
    assert kinds == {"hook_call", "model_call", "tool_call"}
    assert not Path(
        out.split("project  ")[1].split()[0]
    ).parent.exists()  # the throwaway project is removed


@pytest.mark.slow
def test_demo_dir_is_kept_and_replayable(tmp_path: Path) -> None:
    base = tmp_path / "demo"
    r = run_demo("demo", "--dir", str(base), cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    project = base / "project"
    notes = (project / "notes" / "RELEASE-1.4.2.md").read_text()
    assert "[REDACTED]" in notes and "3f9c2a7be41d8c06a5e2" not in notes
    settings = json.loads((project / ".gemini" / "settings.json").read_text())
    assert {
        h["name"] for defs in settings["hooks"].values() for d in defs for h in d["hooks"]
    } == set(HOOKS)
    assert "Replay the session yourself" in r.stdout

    # the replay through `hookwise agent` tells the same story
    (project / "notes" / "RELEASE-1.4.2.md").unlink()
    env = dict(os.environ, HOOKWISE_TRUST_ALL="1", GEMINI_CLI_HOME=str(base / "home"))
    env.pop("GEMINI_API_KEY", None)
    replay = subprocess.run(
        [
            sys.executable,
            "-m",
            "hookwise",
            "agent",
            "-p",
            "release it",
            "--responses",
            str(base / "session.responses.jsonl"),
            "--approval-mode",
            "yolo",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(project),
        timeout=60,
    )
    assert replay.returncode == 0, replay.stderr
    assert (
        "Error executing tool run_shell_command: Tool execution blocked: shell-guard:"
        in replay.stderr
    )
    assert replay.stderr.splitlines()[-1].startswith("Agent execution stopped: release-gate:")
    assert "[REDACTED]" in (project / "notes" / "RELEASE-1.4.2.md").read_text()


def test_demo_refuses_a_non_empty_dir(tmp_path: Path) -> None:
    (tmp_path / "x").write_text("keep me")
    r = run_demo("demo", "--dir", str(tmp_path), cwd=tmp_path)
    assert r.returncode == 1 and "must be a new or empty directory" in r.stderr
    assert (tmp_path / "x").read_text() == "keep me"


def test_demo_settings_quote_the_interpreter() -> None:
    doc = settings_document("'/path with space/python3'")
    cmd = doc["hooks"]["BeforeAgent"][0]["hooks"][0]["command"]
    assert (
        cmd == "'/path with space/python3' \"$GEMINI_PROJECT_DIR/.gemini/hooks/project_context.py\""
    )
    assert doc["hooks"]["BeforeTool"][0]["matcher"] == "run_shell_command"
