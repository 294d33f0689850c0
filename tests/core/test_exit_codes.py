"""Every row of docs/contract.md §6 (what a hook's answer means), each with a real hook process."""

from __future__ import annotations

import os
import stat
import sys
import time

import pytest
from tests.conftest import Project, emit

from hookwise import HookSystem, Outcome

pytestmark = pytest.mark.usefixtures("trust_all")


def fire_one(project: Project, command: str | dict, **kw: object) -> tuple:
    hook = (
        command
        if isinstance(command, dict)
        else {"type": "command", "command": command, "name": "h"}
    )
    project.hooks("BeforeTool", hook)
    hs = HookSystem(project.root, **kw)  # type: ignore[arg-type]
    r = hs.fire("BeforeTool", tool_name="run_shell_command", tool_input={"command": "ls"})
    return r, r.hooks[0]


def test_exit0_json_object_is_the_answer(project: Project) -> None:
    r, h = fire_one(project, emit({"decision": "deny", "reason": "nope"}))
    assert h.outcome is Outcome.OK and h.exit_code == 0
    assert h.output == {"decision": "deny", "reason": "nope"}
    assert r.blocked and r.reason == "nope" and r.warnings == []


def test_exit0_text_is_allow_with_system_message(project: Project) -> None:
    r, h = fire_one(project, emit("just a log line"))
    assert h.outcome is Outcome.OK
    assert h.output == {"decision": "allow", "systemMessage": "just a log line"}
    assert not r.blocked and r.system_message == "just a log line"


def test_exit0_log_line_before_json_is_text(project: Project) -> None:
    r, h = fire_one(project, emit('starting\n{"decision": "deny"}'))
    assert h.output == {"decision": "allow", "systemMessage": 'starting\n{"decision": "deny"}'}
    assert not r.blocked


@pytest.mark.parametrize("text", ["42", "true", "null", "[1, 2]", '"plain"'])
def test_exit0_non_object_json_is_text(project: Project, text: str) -> None:
    r, h = fire_one(project, emit(text))
    assert h.outcome is Outcome.OK
    assert h.output == {"decision": "allow", "systemMessage": text}


@pytest.mark.parametrize("text", ['{"a": NaN}', '{"decision": "deny"', "[1, 2"])
def test_exit0_output_that_starts_like_json_but_does_not_parse_is_failed(
    project: Project, text: str
) -> None:
    r, h = fire_one(project, emit(text))
    assert h.outcome is Outcome.FAILED and h.output is None
    assert h.error is not None and "starts like JSON but does not parse (" in h.error


def test_exit0_double_encoded_json_object(project: Project) -> None:
    r, h = fire_one(project, emit('"{\\"decision\\": \\"deny\\", \\"reason\\": \\"inner\\"}"'))
    assert h.output == {"decision": "deny", "reason": "inner"}
    assert r.blocked


def test_exit0_nothing_is_no_output(project: Project) -> None:
    r, h = fire_one(project, "true")
    assert h.outcome is Outcome.OK and h.output is None
    assert r.output == {} and r.decision == "allow"


def test_exit0_stderr_json_used_when_stdout_empty(project: Project) -> None:
    r, h = fire_one(project, emit(stderr='{"decision": "deny", "reason": "from stderr"}'))
    assert h.output == {"decision": "deny", "reason": "from stderr"} and r.blocked


def test_exit2_json_non_blocking_decision_becomes_deny(project: Project) -> None:
    r, h = fire_one(project, emit({"decision": "allow", "reason": "said allow"}, exit=2))
    assert h.outcome is Outcome.BLOCKED and h.exit_code == 2
    assert h.output == {"decision": "deny", "reason": "said allow"}
    assert r.blocked and r.warnings == []


def test_exit2_json_without_reason_gets_stderr_reason(project: Project) -> None:
    r, h = fire_one(project, emit({"systemMessage": "x"}, exit=2, stderr="why not"))
    assert (
        h.output is not None and h.output["decision"] == "deny" and h.output["reason"] == "why not"
    )


def test_exit2_stderr_text_is_the_reason(project: Project) -> None:
    r, h = fire_one(project, emit(exit=2, stderr="dangerous command"))
    assert h.outcome is Outcome.BLOCKED
    assert h.output == {"decision": "deny", "reason": "dangerous command"}
    assert r.effective_reason == "dangerous command"


def test_exit2_stdout_text_when_no_stderr(project: Project) -> None:
    r, h = fire_one(project, emit("stdout reason", exit=2))
    assert h.output == {"decision": "deny", "reason": "stdout reason"}


def test_exit2_nothing_still_blocks(project: Project) -> None:
    r, h = fire_one(project, {"type": "command", "command": "exit 2", "name": "quiet-guard"})
    assert h.outcome is Outcome.BLOCKED
    assert h.output == {"decision": "deny", "reason": "Blocked by hook quiet-guard"}
    assert r.blocked


def test_other_nonzero_json_is_used_with_warning(project: Project) -> None:
    r, h = fire_one(project, emit({"decision": "deny", "reason": "json on exit 1"}, exit=1))
    assert h.outcome is Outcome.FAILED and h.exit_code == 1
    assert h.output == {"decision": "deny", "reason": "json on exit 1"}
    assert r.blocked
    assert len(r.warnings) == 1 and "h" in r.warnings[0] and "BeforeTool" in r.warnings[0]


@pytest.mark.parametrize("code", [1, 3, 255])
def test_other_nonzero_text_is_a_non_blocking_warning(project: Project, code: int) -> None:
    r, h = fire_one(project, emit(exit=code, stderr="boom happened"))
    assert h.outcome is Outcome.FAILED
    assert h.output == {"systemMessage": "Warning: boom happened"}
    assert not r.blocked and r.decision == "allow"
    assert r.warnings == [f"hook h (BeforeTool) failed: exit code {code}: boom happened"]


def test_other_nonzero_nothing_is_failed_without_output(project: Project) -> None:
    r, h = fire_one(project, "exit 5")
    assert h.outcome is Outcome.FAILED and h.output is None and not r.blocked
    assert "exit code 5" in r.warnings[0]


def test_command_not_found_is_not_run(project: Project) -> None:
    r, h = fire_one(project, "definitely-not-a-command-xyz --flag")
    assert h.outcome is Outcome.NOT_RUN and h.exit_code == 127 and h.output is None
    assert not r.blocked
    assert "command not found" in r.warnings[0] and "did not run" in r.warnings[0]


def test_not_executable_is_not_run(project: Project) -> None:
    script = project.root / "guard.sh"
    script.write_text('#!/bin/sh\necho \'{"decision":"deny"}\'\n')
    os.chmod(script, 0o644)
    r, h = fire_one(project, "$GEMINI_PROJECT_DIR/guard.sh")
    assert h.outcome is Outcome.NOT_RUN and h.exit_code == 126
    assert not r.blocked and "not executable" in r.warnings[0]


def test_missing_interpreter_is_not_run(project: Project) -> None:
    script = project.root / "guard.py"
    script.write_text("#!/nonexistent/python9\nprint('{}')\n")
    os.chmod(script, os.stat(script).st_mode | stat.S_IXUSR)
    r, h = fire_one(project, "$GEMINI_PROJECT_DIR/guard.py")
    assert h.outcome is Outcome.NOT_RUN and not r.blocked


def test_timeout_ignores_partial_output(project: Project) -> None:
    hook = {
        "type": "command",
        "name": "slow",
        "timeout": 300,
        "command": emit({"decision": "deny"}).replace("; exit 0", "; sleep 30"),
    }
    t0 = time.monotonic()
    r, h = fire_one(project, hook)
    assert time.monotonic() - t0 < 3.3
    assert h.outcome is Outcome.TIMEOUT and h.output is None and h.exit_code is None
    assert not r.blocked
    assert r.warnings == ["hook slow (BeforeTool) timed out after 300 ms"]


def test_killed_by_signal_is_failed(project: Project) -> None:
    r, h = fire_one(project, emit({"decision": "deny"}).replace("exit 0", "kill -9 $$"))
    assert h.outcome is Outcome.FAILED and h.output is None and h.exit_code is None
    assert "SIGKILL" in (h.error or "") and not r.blocked


@pytest.mark.parametrize(
    "command,outcome",
    [
        ("exit 1", Outcome.FAILED),
        ("no-such-command-abc", Outcome.NOT_RUN),
        ("sleep 20", Outcome.TIMEOUT),
    ],
)
def test_fail_closed_turns_failures_into_blocks(
    project: Project, command: str, outcome: Outcome
) -> None:
    hook = {
        "type": "command",
        "name": "guard",
        "command": command,
        "failClosed": True,
        "timeout": 300,
    }
    r, h = fire_one(project, hook)
    assert h.outcome is outcome
    assert r.blocked and "guard" in r.effective_reason and outcome.value in r.effective_reason
    assert r.warnings  # still reported


def test_output_cap_truncates_and_says_so(project: Project) -> None:
    r, h = fire_one(project, f"{sys.executable} -c \"print('x' * 300000)\"", output_cap=100_000)
    assert h.truncated and len(h.stdout) == 100_000
    assert any("truncated" in w for w in r.warnings)


def test_invalid_utf8_is_replaced(project: Project) -> None:
    r, h = fire_one(project, "printf '\\xff\\xfeok'")
    assert h.outcome is Outcome.OK and "\ufffd" in h.stdout and h.stdout.endswith("ok")


def test_hook_that_exits_without_reading_stdin_is_normal(project: Project) -> None:
    project.hooks(
        "BeforeTool", {"type": "command", "command": emit({"decision": "allow"}), "name": "h"}
    )
    hs = HookSystem(project.root)
    r = hs.fire("BeforeTool", tool_name="write_file", tool_input={"content": "x" * 5_000_000})
    assert r.hooks[0].outcome is Outcome.OK and r.decision == "allow"
