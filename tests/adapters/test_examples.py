"""The adapter examples run as a user runs them, against the example project's real hooks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_example(name: str, home: Path) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKWISE_", "GEMINI_"))}
    env.update(
        GEMINI_CLI_HOME=str(home),
        GEMINI_CLI_SYSTEM_SETTINGS_PATH=str(home / "none.json"),
        GEMINI_CLI_SYSTEM_DEFAULTS_PATH=str(home / "none-defaults.json"),
    )
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "adapters" / name)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=str(home),
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.slow
def test_langchain_example(_isolated_gemini_home: Path) -> None:
    pytest.importorskip("langchain.agents")
    out = run_example("langchain_example.py", _isolated_gemini_home)
    assert "Tool execution blocked: shell-guard" in out
    assert "shell would run: git push --force-with-lease" in out and "would run: rm" not in out


@pytest.mark.slow
def test_pydantic_ai_example(_isolated_gemini_home: Path) -> None:
    pytest.importorskip("pydantic_ai")
    out = run_example("pydantic_ai_example.py", _isolated_gemini_home)
    assert "Tool execution blocked: shell-guard" in out and "<hook_context>" in out
    assert "shell would run: git push --force-with-lease" in out and "would run: rm" not in out


@pytest.mark.slow
def test_adk_example(_isolated_gemini_home: Path) -> None:
    pytest.importorskip("google.adk")
    out = run_example("adk_example.py", _isolated_gemini_home)
    assert "Tool execution blocked: shell-guard" in out and "<hook_context>" in out
    assert "git push --force-with-lease origin main" in out and "agent: Pushed safely." in out


@pytest.mark.slow
def test_openai_agents_example(_isolated_gemini_home: Path) -> None:
    pytest.importorskip("agents")
    out = run_example("openai_agents_example.py", _isolated_gemini_home)
    assert "Tool execution blocked: shell-guard" in out and "<hook_context>" in out
    assert "git push --force-with-lease origin main" in out and "agent: Pushed safely." in out


@pytest.mark.slow
def test_agent_framework_example(_isolated_gemini_home: Path) -> None:
    pytest.importorskip("agent_framework")
    out = run_example("agent_framework_example.py", _isolated_gemini_home)
    assert "Tool execution blocked: shell-guard" in out and "[model] context: True" in out
    assert "shell would run: git push --force-with-lease" in out and "would run: rm" not in out
    assert "answer: Cleaned up" in out


@pytest.mark.slow
def test_crewai_example(_isolated_gemini_home: Path) -> None:
    pytest.importorskip("crewai.hooks")
    out = run_example("crewai_example.py", _isolated_gemini_home)
    assert "[hookwise block] shell-guard" in out and "[model] context: True" in out
    assert "Tool execution blocked by hook. Tool: shell" in out
    assert "shell would run: git push --force-with-lease" in out and "would run: rm" not in out
    assert "answer: Cleaned up" in out
