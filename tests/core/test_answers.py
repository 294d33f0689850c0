"""Malformed answers are visible failures, never a crash or a silent allow (issue 20 items 9 and
15)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookwise import HookSystem


def _project(tmp_path: Path, *hooks: dict[str, Any]) -> Path:
    proj = tmp_path / "proj"
    (proj / ".gemini").mkdir(parents=True, exist_ok=True)
    (proj / ".gemini" / "settings.json").write_text(
        json.dumps({"hooks": {"BeforeTool": [{"hooks": list(hooks)}]}})
    )
    return proj


def _fire(proj: Path, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "GEMINI_CLI_HOME": str(home),
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(tmp_path / "none.json"),
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(tmp_path / "none2.json"),
        "HOOKWISE_TRUST_ALL": "1",
    }
    return subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(proj), "fire", "BeforeTool"]
        + ["--tool", "run_shell_command", *extra],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def _cmd(stdout: str, name: str = "h", **keys: Any) -> dict[str, Any]:
    import shlex

    return {
        "type": "command",
        "name": name,
        "command": f"printf '%s' {shlex.quote(stdout)}",
        **keys,
    }


# --------------------------------------------------------------------------- item 9


def test_wrongly_typed_decision_is_failed_not_a_crash(tmp_path: Path) -> None:
    proj = _project(tmp_path, _cmd('{"decision": []}'))
    r = _fire(proj, tmp_path, "--json")
    assert r.returncode == 0, r.stderr
    hook = json.loads(r.stdout)["hooks"][0]
    assert hook["outcome"] == "failed" and "`decision` must be a string" in hook["error"]
    assert "hook h (BeforeTool) failed" in r.stderr
    result = HookSystem(proj, trust_all=True).fire(
        "BeforeTool", tool_name="x", tool_input={}
    )  # the Python API
    assert [h.outcome.value for h in result.hooks] == ["failed"]


def test_wrongly_typed_answer_of_a_fail_closed_hook_blocks(tmp_path: Path) -> None:
    proj = _project(tmp_path, _cmd('{"continue": "no"}', failClosed=True))
    r = _fire(proj, tmp_path, "--json")
    assert r.returncode == 2
    assert "failed closed" in json.loads(r.stdout)["reason"]


@pytest.mark.parametrize("json_mode", [False, True])
def test_lone_surrogate_in_reason_keeps_the_deny(tmp_path: Path, json_mode: bool) -> None:
    proj = _project(tmp_path, _cmd('{"decision": "deny", "reason": "bad \\ud800 byte"}'))
    r = _fire(proj, tmp_path, *(["--json"] if json_mode else []))
    assert r.returncode == 2, r.stderr
    assert "internal error" not in r.stderr
    if json_mode:
        assert json.loads(r.stdout)["reason"] == "bad \ufffd byte"


def test_python_hook_answer_with_a_surrogate_and_a_list_decision() -> None:
    hs = HookSystem(".", trust_all=True)
    hs.register("BeforeTool", lambda i: {"decision": "deny", "reason": "x\udc80"}, name="a")
    hs.register("BeforeTool", lambda i: {"decision": {"deny": 1}}, name="b")
    result = hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert result.blocked and result.effective_reason == "x\ufffd"
    assert [h.outcome.value for h in result.hooks] == ["blocked", "failed"] or [
        h.outcome.value for h in result.hooks
    ] == ["ok", "failed"]


# --------------------------------------------------------------------------- item 15


@pytest.mark.parametrize(
    "stdout",
    ['{"decision": "deny", "reason": ', '  [{"decision": "deny"}', '{"decision": "deny"}}', "{x}"],
)
def test_output_that_starts_like_json_but_does_not_parse_is_malformed(
    tmp_path: Path, stdout: str
) -> None:
    proj = _project(tmp_path, _cmd(stdout))
    r = _fire(proj, tmp_path, "--json")
    hook = json.loads(r.stdout)["hooks"][0]
    assert hook["outcome"] == "failed", hook
    assert "starts like JSON but does not parse (line 1 column" in hook["error"]
    assert r.stderr.count("does not parse") == 1  # one warning
    result = HookSystem(proj, trust_all=True).fire("BeforeTool", tool_name="x", tool_input={})
    assert [h.outcome.value for h in result.hooks] == ["failed"]


@pytest.mark.parametrize("keys", [{"failClosed": True}, {"dialect": "claude", "failClosed": True}])
def test_truncated_json_blocks_a_fail_closed_hook(tmp_path: Path, keys: dict[str, Any]) -> None:
    proj = _project(tmp_path, _cmd('{"decision": "allow", "reason": "trunc', **keys))
    r = _fire(proj, tmp_path)
    assert r.returncode == 2, r.stderr


def test_plain_text_keeps_its_meaning(tmp_path: Path) -> None:
    proj = _project(tmp_path, _cmd("all good {not json}"), _cmd("[1, 2]", name="arr"))
    r = _fire(proj, tmp_path, "--json")
    out = json.loads(r.stdout)
    assert [h["outcome"] for h in out["hooks"]] == ["ok", "ok"]
    assert out["decision"] == "allow" and "all good {not json}" in out["systemMessage"]
