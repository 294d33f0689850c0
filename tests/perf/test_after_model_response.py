"""``hooksConfig.afterModel: "response"``: the agent fires AfterModel once per complete response."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HOOK = """import json, sys
d = json.load(sys.stdin)
with open(sys.argv[1], "a") as f:
    f.write(json.dumps(d["llm_response"]) + "\\n")
mode = sys.argv[2]
if mode == "deny":
    print(json.dumps({"decision": "deny", "reason": "no"}))
elif mode == "replace":
    print(json.dumps({"hookSpecificOutput": {"llm_response": {"candidates": [
        {"content": {"role": "model", "parts": ["REPLACED"]}}]}}}))
"""


def chunk(text: str, finish: str | None = None) -> dict[str, Any]:
    cand: dict[str, Any] = {"content": {"role": "model", "parts": [{"text": text}]}, "index": 0}
    if finish:
        cand["finishReason"] = finish
    return {"candidates": [cand]}


def run_agent(
    tmp_path: Path, mode: str, after_model: str | None
) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]]]:
    project = tmp_path / "p"
    (project / ".gemini").mkdir(parents=True)
    (project / "hook.py").write_text(HOOK)
    log = tmp_path / "calls.jsonl"
    settings: dict[str, Any] = {
        "hooks": {
            "AfterModel": [
                {
                    "hooks": [
                        {
                            "type": "command",
                            "name": "am",
                            "command": (
                                f'{sys.executable} "$GEMINI_PROJECT_DIR/hook.py" {log} {mode}'
                            ),
                        }
                    ]
                }
            ]
        }
    }
    if after_model:
        settings["hooksConfig"] = {"afterModel": after_model}
    (project / ".gemini" / "settings.json").write_text(json.dumps(settings))
    responses = tmp_path / "responses.jsonl"
    line = {
        "method": "generateContentStream",
        "response": [chunk("Hello "), chunk("brave "), chunk("world", finish="STOP")],
    }
    responses.write_text(json.dumps(line) + "\n")
    env = {**os.environ, "HOOKWISE_TRUST_ALL": "1"}
    env.pop("GEMINI_API_KEY", None)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "hookwise",
            "--project",
            str(project),
            "agent",
            "-p",
            "hi",
            "--responses",
            str(responses),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    calls = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
    return proc, calls


@pytest.fixture(autouse=True)
def _needs_agent() -> None:
    pytest.importorskip("hookwise.cli.agent")


@pytest.mark.slow
def test_default_fires_per_chunk(tmp_path: Path) -> None:
    proc, calls = run_agent(tmp_path, "allow", None)
    assert proc.returncode == 0, proc.stderr
    assert [c.get("text") for c in calls] == ["Hello ", "brave ", "world"]
    assert "Hello brave world" in proc.stdout


@pytest.mark.slow
def test_response_mode_fires_once_with_the_whole_response(tmp_path: Path) -> None:
    proc, calls = run_agent(tmp_path, "allow", "response")
    assert proc.returncode == 0, proc.stderr
    assert len(calls) == 1 and calls[0]["text"] == "Hello brave world"
    assert calls[0]["candidates"][0].get("finishReason") == "STOP"
    assert "Hello brave world" in proc.stdout


@pytest.mark.slow
def test_response_mode_deny_discards_the_response(tmp_path: Path) -> None:
    proc, calls = run_agent(tmp_path, "deny", "response")
    assert proc.returncode == 0, proc.stderr
    assert len(calls) == 1 and "Hello" not in proc.stdout and "no" in proc.stderr


@pytest.mark.slow
def test_response_mode_replacement(tmp_path: Path) -> None:
    proc, calls = run_agent(tmp_path, "replace", "response")
    assert proc.returncode == 0, proc.stderr
    assert len(calls) == 1 and "REPLACED" in proc.stdout and "Hello" not in proc.stdout
