"""``hookwise agents`` on a machine built in a temporary HOME: three agents installed, hookwise in
two of them, events fired through ``hookwise hook`` (the state file), flags for events that never
fired."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.bridge.conftest import payload
from tests.conftest import Project


def _machine(project: Project) -> tuple[dict[str, str], Path]:
    bindir = project.home / "bin"
    bindir.mkdir()
    for exe in ("claude", "codex", "gemini"):
        (bindir / exe).write_text("#!/bin/sh\nexit 0\n")
        (bindir / exe).chmod(0o755)
    for d in (".claude", ".codex", ".gemini"):
        (project.home / d).mkdir(exist_ok=True)
    env = {**os.environ, "HOME": str(project.home), "PATH": str(bindir)}
    return env, bindir


def _hookwise(
    project: Project, env: dict[str, str], *args: str, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project.root), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


@pytest.mark.slow
def test_agents_on_a_machine_with_three_agents(project: Project) -> None:
    env, _bindir = _machine(project)
    assert _hookwise(project, env, "install", "claude").returncode == 0
    assert _hookwise(project, env, "install", "codex", "--user").returncode == 0
    # four Claude sessions: each fires SessionStart and UserPromptSubmit, never PreToolUse
    for i in range(4):
        for name in ("SessionStart", "UserPromptSubmit"):
            data = payload("claude", name, project)
            data["session_id"] = f"session-{i}"
            r = _hookwise(
                project,
                {**env, "CLAUDE_CODE_ENTRYPOINT": "sdk-cli"},
                "hook",
                "claude",
                stdin=json.dumps(data),
            )
            assert r.returncode == 0, r.stderr
    sub = payload("claude", "PreToolUse", project)
    sub["agent_id"] = "a1"
    _hookwise(project, env, "hook", "claude", stdin=json.dumps(sub))
    r = _hookwise(project, env, "agents")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    print(out)  # the acceptance note quotes it
    assert (
        "Claude Code (claude)" in out
        and "Codex CLI (codex)" in out
        and "Gemini CLI (gemini)" in out
    )
    assert "Cursor" not in out  # not on this machine
    assert f"hookwise:   project: {project.root}/.claude/settings.json" in out
    assert f"hookwise:   user: {project.home}/.codex/hooks.json" in out
    assert (
        "Gemini CLI (gemini)\n  on PATH:" in out
        and "not installed (hookwise install gemini)" in out
    )
    assert "sessions:   5" in out
    assert "UserPromptSubmit       headless" in out and "(4x)" in out
    assert "PreToolUse             sub-agent" in out
    assert "PostToolUse            never fired" in out
    data = json.loads(_hookwise(project, env, "agents", "--json").stdout)
    claude = next(a for a in data["agents"] if a["agent"] == "claude")
    assert claude["events"]["SessionStart"]["headless"]["count"] == 4
    assert claude["sessions"] == 5
    codex = next(a for a in data["agents"] if a["agent"] == "codex")
    assert codex["installed"] == [{"scope": "user", "path": f"{project.home}/.codex/hooks.json"}]


@pytest.mark.slow
def test_an_event_never_seen_after_sessions_is_flagged(project: Project) -> None:
    env, _bindir = _machine(project)
    _hookwise(project, env, "install", "codex")
    for i in range(3):
        data = payload("codex", "SessionStart", project)
        data["session_id"] = f"s{i}"
        _hookwise(project, env, "hook", "codex", stdin=json.dumps(data))
    out = _hookwise(project, env, "agents").stdout
    assert "! PreToolUse never fired in 3 sessions" in out


@pytest.mark.slow
def test_all_lists_every_agent(project: Project) -> None:
    env = {**os.environ, "HOME": str(project.home), "PATH": str(project.home)}
    out = _hookwise(project, env, "agents", "--all").stdout
    assert out.count("not installed (hookwise install") == 13


def test_sessions_that_never_reached_hookwise_are_flagged(project: Project) -> None:
    """Codex skips project hooks it was not told to trust, silently: its own sessions show it."""
    env, _bindir = _machine(project)
    _hookwise(project, env, "install", "codex")
    installed = project.root / ".codex" / "hooks.json"
    old = installed.stat().st_mtime - 100
    os.utime(installed, (old, old))
    day = project.home / ".codex" / "sessions" / "2026" / "11" / "27"
    day.mkdir(parents=True)
    (day / "rollout-2026-11-27T04-04-23-x.jsonl").write_text("{}\n")
    out = _hookwise(project, env, "agents").stdout
    assert (
        "! 1 Codex CLI session(s) since hookwise was installed, and no hook call reached hookwise"
        in out
    )
    assert "/hooks" in out  # how to trust them on Codex's side
