"""BeforeTool and AfterTool, end to end: ``hookwise agent`` + a scripted model + real hook scripts.

Gemini CLI's event rules (docs/agent.md; docs/contract.md §9) covered here: BeforeTool stop / block
/ ask / ``tool_input`` (merged) / systemMessage; AfterTool stop / block / additionalContext /
``tailToolCallRequest``.
"""

from __future__ import annotations

import json

import pytest

from .conftest import AgentEnv, call, say, text

NOTE = "[System] Tool input parameters were modified by a hook before execution."


def function_responses(contents: list[dict]) -> list[dict]:
    return [p["functionResponse"] for c in contents for p in c["parts"] if "functionResponse" in p]


# ---- BeforeTool ------------------------------------------------------------------------------
@pytest.mark.slow
def test_before_tool_stop_ends_the_run_without_running_the_tool(agent: AgentEnv) -> None:
    agent.hook(
        "BeforeTool",
        {"continue": False, "stopReason": "enough for today", "decision": "allow"},
        matcher="run_shell_command",
    )
    after = agent.hook("AfterAgent", None)
    agent.responses(say(text("cleaning"), call("run_shell_command", command="touch ran.txt")))
    r = agent.run("--approval-mode", "yolo")
    assert r.returncode == 0, r.stderr
    assert "Agent execution stopped: enough for today" in r.stderr_lines
    assert not (agent.root / "ran.txt").exists()
    assert len(r.records("model_call")) == 1  # the tool result never goes back to the model
    assert agent.inputs(hook=after) == []  # a stopped prompt gets no AfterAgent
    [tc] = r.records("tool_call")
    assert (
        tc["success"] is False
        and "Agent execution stopped by hook: enough for today" in tc["error"]
    )


@pytest.mark.slow
def test_before_tool_block_gives_the_model_an_error_and_the_turn_goes_on(agent: AgentEnv) -> None:
    agent.hook(
        "BeforeTool", {"decision": "deny", "reason": "not that one"}, matcher="run_shell_command"
    )
    agent.responses(
        say(call("run_shell_command", command="touch ran.txt")), say(text("ok, I won't"))
    )
    r = agent.run("--approval-mode", "yolo")
    assert r.returncode == 0, r.stderr
    assert not (agent.root / "ran.txt").exists()
    assert (
        "Error executing tool run_shell_command: Tool execution blocked: not that one"
        in r.stderr_lines
    )
    [fr] = function_responses(r.model_requests()[1])
    assert fr == {
        "name": "run_shell_command",
        "response": {"error": "Tool execution blocked: not that one"},
    }
    assert r.stdout.strip() == "ok, I won't"


@pytest.mark.slow
def test_before_tool_matcher_limits_the_hook_to_matching_tools(agent: AgentEnv) -> None:
    agent.hook(
        "BeforeTool", {"decision": "deny", "reason": "no writes"}, matcher="write_file|replace"
    )
    (agent.root / "a.txt").write_text("hello\n")
    agent.responses(say(call("read_file", file_path="a.txt")), say(text("read it")))
    r = agent.run()
    assert r.returncode == 0
    assert r.records("tool_call")[0]["success"] is True
    assert agent.inputs("BeforeTool") == []


@pytest.mark.slow
def test_before_tool_ask_is_refused_in_a_headless_run_even_in_yolo(agent: AgentEnv) -> None:
    agent.hook(
        "BeforeTool",
        {"decision": "ask", "systemMessage": "really delete?"},
        matcher="run_shell_command",
    )
    agent.responses(say(call("run_shell_command", command="touch ran.txt")), say(text("fine")))
    r = agent.run("--approval-mode", "yolo")
    assert r.returncode == 0, r.stderr
    assert not (agent.root / "ran.txt").exists()
    line = next(
        ln for ln in r.stderr_lines if ln.startswith("Error executing tool run_shell_command")
    )
    assert "a hook asked for it (really delete?)" in line and "refused" in line
    assert r.records("tool_call")[0]["success"] is False


@pytest.mark.slow
def test_before_tool_input_is_merged_over_the_model_arguments(agent: AgentEnv) -> None:
    agent.hook(
        "BeforeTool",
        {
            "hookSpecificOutput": {
                "hookEventName": "BeforeTool",
                "tool_input": {"command": "echo rewritten > out.txt"},
            }
        },
        matcher="run_shell_command",
    )
    after = agent.hook("AfterTool", None)
    agent.responses(
        say(call("run_shell_command", command="echo original > out.txt", description="write it")),
        say(text("done")),
    )
    r = agent.run("--approval-mode", "yolo")
    assert r.returncode == 0, r.stderr
    assert (agent.root / "out.txt").read_text() == "rewritten\n"
    [tc] = r.records("tool_call")
    assert tc["args"] == {
        "command": "echo rewritten > out.txt",
        "description": "write it",
    }  # merged, not replaced
    [fr] = function_responses(r.model_requests()[1])
    assert fr["response"]["output"].endswith("\n\n" + NOTE)
    assert (
        agent.inputs(hook=after)[0]["tool_input"] == tc["args"]
    )  # AfterTool sees the arguments as run


@pytest.mark.slow
def test_before_tool_malformed_tool_input_is_a_warning_and_ignored(agent: AgentEnv) -> None:
    bad = agent.hook(
        "BeforeTool",
        {"hookSpecificOutput": {"tool_input": "rm -rf /"}},
        matcher="run_shell_command",
    )
    agent.responses(
        say(call("run_shell_command", command="echo kept > out.txt")), say(text("done"))
    )
    r = agent.run("--approval-mode", "yolo")
    assert r.returncode == 0, r.stderr
    assert (agent.root / "out.txt").read_text() == "kept\n"
    assert any(
        # a wrong-typed answer field fails the hook (one validator for every answer:
        # docs/contract.md §6)
        ln.startswith(f"[WARNING] hook {bad} (BeforeTool) failed")
        and "tool_input" in ln
        and "ignored" in ln
        for ln in r.stderr_lines
    )
    [fr] = function_responses(r.model_requests()[1])
    assert NOTE not in fr["response"]["output"]


@pytest.mark.slow
def test_before_tool_input_that_fails_validation_fails_the_call(agent: AgentEnv) -> None:
    agent.hook(
        "BeforeTool",
        {"hookSpecificOutput": {"tool_input": {"command": 42}}},
        matcher="run_shell_command",
    )
    agent.responses(say(call("run_shell_command", command="touch ran.txt")), say(text("done")))
    r = agent.run("--approval-mode", "yolo")
    assert not (agent.root / "ran.txt").exists()
    [fr] = function_responses(r.model_requests()[1])
    assert fr["response"]["error"].startswith(
        "Tool parameter modification by hook failed validation:"
    )


@pytest.mark.slow
def test_before_tool_system_message_goes_to_stderr(agent: AgentEnv) -> None:
    agent.hook("BeforeTool", {"systemMessage": "guard looked at it"})
    (agent.root / "a.txt").write_text("x")
    agent.responses(say(call("read_file", file_path="a.txt")), say(text("done")))
    r = agent.run()
    assert "guard looked at it" in r.stderr_lines
    assert r.stdout.strip() == "done"


# ---- AfterTool -------------------------------------------------------------------------------
@pytest.mark.slow
def test_after_tool_stop_ends_the_run_after_the_tool_ran(agent: AgentEnv) -> None:
    agent.hook("AfterTool", {"continue": False, "stopReason": "saw enough"})
    agent.responses(say(call("run_shell_command", command="touch ran.txt")))
    r = agent.run("--approval-mode", "yolo")
    assert r.returncode == 0, r.stderr
    assert (agent.root / "ran.txt").exists()
    assert "Agent execution stopped: saw enough" in r.stderr_lines
    assert len(r.records("model_call")) == 1


@pytest.mark.slow
def test_after_tool_block_hides_the_result_from_the_model(agent: AgentEnv) -> None:
    (agent.root / "secret.txt").write_text("TOP-SECRET-VALUE\n")
    agent.hook("AfterTool", {"decision": "deny", "reason": "output withheld"}, matcher="read_file")
    agent.responses(say(call("read_file", file_path="secret.txt")), say(text("ok")))
    r = agent.run()
    assert r.returncode == 0
    second = r.records("model_call")[1]["request_text"]
    assert "TOP-SECRET-VALUE" not in second
    [fr] = function_responses(r.model_requests()[1])
    assert fr["response"] == {"error": "output withheld"}
    assert "Error executing tool read_file: output withheld" in r.stderr_lines


@pytest.mark.slow
def test_after_tool_context_is_appended_to_the_result(agent: AgentEnv) -> None:
    (agent.root / "a.txt").write_text("content\n")
    agent.hook("AfterTool", {"hookSpecificOutput": {"additionalContext": "file is <generated>"}})
    agent.responses(say(call("read_file", file_path="a.txt")), say(text("ok")))
    r = agent.run()
    [fr] = function_responses(r.model_requests()[1])
    assert (
        fr["response"]["output"]
        == "content\n\n\n<hook_context>file is &lt;generated&gt;</hook_context>"
    )
    inp = agent.inputs("AfterTool")[0]
    assert inp["tool_response"] == {
        "llmContent": "content\n",
        "returnDisplay": "Read 1 line(s) from a.txt",
    }


@pytest.mark.slow
def test_after_tool_context_then_modification_note_order(agent: AgentEnv) -> None:
    (agent.root / "a.txt").write_text("A\n")
    (agent.root / "b.txt").write_text("B\n")
    agent.hook("BeforeTool", {"hookSpecificOutput": {"tool_input": {"file_path": "b.txt"}}})
    agent.hook("AfterTool", {"hookSpecificOutput": {"additionalContext": "ctx"}})
    agent.responses(say(call("read_file", file_path="a.txt")), say(text("ok")))
    r = agent.run()
    [fr] = function_responses(r.model_requests()[1])
    assert fr["response"]["output"] == "B\n\n\n<hook_context>ctx</hook_context>\n\n" + NOTE


@pytest.mark.slow
def test_after_tool_tail_call_replaces_the_call_and_answers_the_original(agent: AgentEnv) -> None:
    (agent.root / "a.txt").write_text("first\n")
    (agent.root / "b.txt").write_text("second\n")
    agent.hook(
        "AfterTool",
        {
            "hookSpecificOutput": {
                "tailToolCallRequest": {"name": "read_file", "args": {"file_path": "b.txt"}}
            }
        },
        None,
        matcher="list_directory",
    )
    before = agent.hook("BeforeTool", None)
    agent.responses(
        say({"functionCall": {"name": "list_directory", "args": {"dir_path": "."}, "id": "c1"}}),
        say(text("ok")),
    )
    r = agent.run()
    assert r.returncode == 0, r.stderr
    assert [t["name"] for t in r.records("tool_call")] == ["list_directory", "read_file"]
    [fr] = function_responses(r.model_requests()[1])
    assert fr == {"id": "c1", "name": "list_directory", "response": {"output": "second\n"}}
    tail_input = agent.inputs("BeforeTool", hook=before)[1]
    assert (
        tail_input["tool_name"] == "read_file"
        and tail_input["original_request_name"] == "list_directory"
    )
    assert "original_request_name" not in agent.inputs("BeforeTool", hook=before)[0]


@pytest.mark.slow
def test_after_tool_tail_call_to_an_unknown_tool_is_an_error_result(agent: AgentEnv) -> None:
    agent.hook(
        "AfterTool",
        {"hookSpecificOutput": {"tailToolCallRequest": {"name": "no_such_tool", "args": {}}}},
    )
    agent.responses(say(call("list_directory", dir_path=".")), say(text("ok")))
    r = agent.run()
    assert r.returncode == 0
    [fr] = function_responses(r.model_requests()[1])
    assert (
        fr["name"] == "list_directory"
        and 'Tool "no_such_tool" not found' in fr["response"]["error"]
    )


# ---- tools without hooks: bad calls are results, not crashes ---------------------------------
@pytest.mark.slow
def test_unknown_tool_and_bad_arguments_are_error_results(agent: AgentEnv) -> None:
    before = agent.hook("BeforeTool", None)
    agent.responses(
        say(call("delete_everything", path="/"), call("read_file", path="a.txt")),
        say(text("sorry")),
    )
    r = agent.run()
    assert r.returncode == 0, r.stderr
    frs = function_responses(r.model_requests()[1])
    assert 'Tool "delete_everything" not found in registry' in frs[0]["response"]["error"]
    assert (
        frs[1]["response"]["error"]
        == "Invalid parameters for read_file: params must have required property 'file_path'"
    )
    assert agent.inputs(hook=before) == []  # unknown tools and invalid arguments never reach hooks
    assert [t["success"] for t in r.records("tool_call")] == [False, False]
    assert r.stdout.strip() == "sorry"


@pytest.mark.slow
def test_paths_outside_the_project_are_refused(agent: AgentEnv) -> None:
    agent.responses(
        say(
            call("read_file", file_path="../outside.txt"),
            call("read_file", file_path="/etc/hostname"),
        ),
        say(text("no")),
    )
    (agent.tmp / "outside.txt").write_text("nope")
    r = agent.run()
    frs = function_responses(r.model_requests()[1])
    assert all("outside the project directory" in f["response"]["error"] for f in frs)


@pytest.mark.slow
def test_confirmation_needed_by_the_approval_mode_is_refused_headless(agent: AgentEnv) -> None:
    agent.responses(
        say(
            call("write_file", file_path="x.txt", content="x"),
            call("run_shell_command", command="touch ran.txt"),
        ),
        say(text("ok")),
    )
    r = agent.run()  # approval mode default: both need confirmation
    assert not (agent.root / "x.txt").exists() and not (agent.root / "ran.txt").exists()
    frs = function_responses(r.model_requests()[1])
    assert "needs confirmation in approval mode default" in frs[0]["response"]["error"]
    assert "auto_edit or yolo" in frs[0]["response"]["error"]
    assert "--approval-mode yolo" in frs[1]["response"]["error"]

    agent.responses(
        say(
            call("write_file", file_path="x.txt", content="x"),
            call("run_shell_command", command="touch ran.txt"),
        ),
        say(text("ok")),
    )
    r = agent.run("--approval-mode", "auto_edit")
    assert (agent.root / "x.txt").read_text() == "x" and not (agent.root / "ran.txt").exists()
    assert json.loads(
        r.records("model_call")[1]["request_text"]
    )  # the run went on to the next call
