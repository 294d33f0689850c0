"""BeforeModel, BeforeToolSelection and AfterModel, end to end (headless).

Gemini CLI's event rules (docs/agent.md; docs/contract.md §9): BeforeModel stop / block (+ synthetic
``llm_response``) / ``llm_response`` alone skips the model / ``llm_request`` applied;
BeforeToolSelection ``toolConfig`` applied (and decisions ignored); AfterModel per chunk /
replace / deny discards the chunk and stops the stream / stop.
"""

from __future__ import annotations

import pytest

from .conftest import AgentEnv, call, chunk, say, stream, text, thought


def synthetic(s: str) -> dict:
    return {"candidates": [{"content": {"role": "model", "parts": [s]}}]}


# ---- BeforeModel -----------------------------------------------------------------------------
@pytest.mark.slow
def test_before_model_stop_skips_the_model(agent: AgentEnv) -> None:
    agent.hook("BeforeModel", {"continue": False, "stopReason": "model budget spent"})
    after = agent.hook("AfterAgent", None)
    agent.responses()
    r = agent.run()
    assert r.returncode == 0, r.stderr
    assert "Agent execution stopped: model budget spent" in r.stderr_lines
    assert r.records("model_call") == []
    assert agent.inputs(hook=after) == []


@pytest.mark.slow
def test_before_model_block_without_response_ends_the_turn(agent: AgentEnv) -> None:
    agent.hook("BeforeModel", {"decision": "block", "reason": "offline"})
    after = agent.hook("AfterAgent", None)
    agent.responses()
    r = agent.run()
    assert r.returncode == 0, r.stderr
    assert "[WARNING] Agent execution blocked: offline" in r.stderr_lines
    assert r.records("model_call") == []
    assert agent.inputs(hook=after)[0]["prompt_response"] == "[no response text]"


@pytest.mark.slow
def test_before_model_block_with_a_synthetic_response(agent: AgentEnv) -> None:
    agent.hook(
        "BeforeModel",
        {
            "decision": "deny",
            "reason": "cached",
            "hookSpecificOutput": {"llm_response": synthetic("from the cache")},
        },
    )
    agent.responses()
    r = agent.run()
    assert r.returncode == 0, r.stderr
    assert "[WARNING] Agent execution blocked: cached" in r.stderr_lines
    assert r.stdout == "from the cache\n"
    assert r.records("model_call") == []


@pytest.mark.slow
def test_before_model_llm_response_alone_skips_the_model(agent: AgentEnv) -> None:
    agent.hook(
        "BeforeModel", {"hookSpecificOutput": {"llm_response": synthetic("answered by a hook")}}
    )
    after_model = agent.hook("AfterModel", None)
    agent.responses()
    r = agent.run()
    assert r.returncode == 0, r.stderr
    assert r.stdout == "answered by a hook\n"
    assert not any("blocked" in ln for ln in r.stderr_lines)
    assert r.records("model_call") == []
    assert agent.inputs(hook=after_model) == []


@pytest.mark.slow
def test_before_model_malformed_llm_response_is_a_warning_and_the_model_is_called(
    agent: AgentEnv,
) -> None:
    bad = agent.hook(
        "BeforeModel", {"hookSpecificOutput": {"llm_response": {"text": "no candidates"}}}
    )
    agent.responses(say(text("real answer")))
    r = agent.run()
    assert r.returncode == 0, r.stderr
    assert r.stdout == "real answer\n"
    assert any(
        ln.startswith(f"[WARNING] BeforeModel hook {bad} returned an unusable llm_response")
        for ln in r.stderr_lines
    )


@pytest.mark.slow
def test_before_model_llm_request_rewrites_messages_model_and_config(agent: AgentEnv) -> None:
    (agent.root / "a.txt").write_text("x\n")
    agent.hook(
        "BeforeModel",
        None,
        {
            "hookSpecificOutput": {
                "llm_request": {
                    "model": "gemini-2.5-pro",
                    "config": {"temperature": 0.1},
                    "messages": [{"role": "user", "content": "read a, politely"}],
                }
            }
        },
    )
    after_model = agent.hook("AfterModel", None)
    agent.responses(say(call("read_file", file_path="a.txt")), say(text("done")))
    r = agent.run(prompt="read a")
    assert r.returncode == 0, r.stderr
    first, second = r.records("model_call")
    assert first["model"] == "gemini-2.5-flash" and second["model"] == "gemini-2.5-pro"
    contents = r.model_requests()[1]
    assert contents[0] == {"role": "user", "parts": [{"text": "read a, politely"}]}
    # function call and response parts survive the positional merge
    assert (
        "functionCall" in contents[1]["parts"][0] and "functionResponse" in contents[2]["parts"][0]
    )
    sent = agent.inputs(hook=after_model)[-1]["llm_request"]
    assert sent["model"] == "gemini-2.5-pro" and sent["config"] == {"temperature": 0.1}
    assert sent["messages"] == [{"role": "user", "content": "read a, politely"}]


@pytest.mark.slow
def test_before_model_input_is_the_stable_format(agent: AgentEnv) -> None:
    hook = agent.hook("BeforeModel", None)
    agent.hook("BeforeAgent", {"hookSpecificOutput": {"additionalContext": "ctx"}})
    agent.responses(say(text("hi")))
    agent.run(prompt="hello")
    [inp] = agent.inputs(hook=hook)
    assert inp["llm_request"] == {
        "model": "gemini-2.5-flash",
        "config": {},
        "messages": [{"role": "user", "content": "hello<hook_context>ctx</hook_context>"}],
    }


@pytest.mark.slow
def test_before_model_malformed_llm_request_is_ignored_whole(agent: AgentEnv) -> None:
    agent.hook(
        "BeforeModel",
        {
            "hookSpecificOutput": {
                "llm_request": {"model": "gemini-2.5-pro", "messages": "not a list"}
            }
        },
    )
    agent.responses(say(text("hi")))
    r = agent.run(prompt="hello")
    assert r.records("model_call")[0]["model"] == "gemini-2.5-flash"  # not half-applied
    assert any("unusable llm_request" in ln and "ignored" in ln for ln in r.stderr_lines)


# ---- BeforeToolSelection ---------------------------------------------------------------------
@pytest.mark.slow
def test_tool_selection_none_refuses_every_function_call(agent: AgentEnv) -> None:
    agent.hook("BeforeToolSelection", {"hookSpecificOutput": {"toolConfig": {"mode": "NONE"}}})
    before_tool = agent.hook("BeforeTool", None)
    agent.responses(say(call("list_directory", dir_path=".")), say(text("ok")))
    r = agent.run()
    assert r.returncode == 0, r.stderr
    [tc] = r.records("tool_call")
    assert tc["success"] is False and "toolConfig mode NONE" in tc["error"]
    assert agent.inputs(hook=before_tool) == []


@pytest.mark.slow
def test_tool_selection_allowed_names_and_ignored_decisions(agent: AgentEnv) -> None:
    agent.hook(
        "BeforeToolSelection",
        {
            "continue": False,
            "decision": "block",
            "hookSpecificOutput": {
                "toolConfig": {"mode": "ANY", "allowedFunctionNames": ["read_file"]}
            },
        },
    )
    (agent.root / "a.txt").write_text("x\n")
    agent.responses(
        say(call("list_directory", dir_path="."), call("read_file", file_path="a.txt")),
        say(text("ok")),
    )
    r = agent.run()
    assert r.returncode == 0, r.stderr
    assert not any(
        ln.startswith("Agent execution") for ln in r.stderr_lines
    )  # decisions are dropped
    assert [t["success"] for t in r.records("tool_call")] == [False, True]
    assert "allowedFunctionNames" in r.records("tool_call")[0]["error"]


@pytest.mark.slow
def test_tool_selection_malformed_tool_config_is_a_warning(agent: AgentEnv) -> None:
    agent.hook("BeforeToolSelection", {"hookSpecificOutput": {"toolConfig": "NONE"}})
    agent.responses(say(call("list_directory", dir_path=".")), say(text("ok")))
    r = agent.run()
    assert r.records("tool_call")[0]["success"] is True
    # a wrong-typed answer field fails the hook, visibly (one validator for every answer:
    # docs/contract.md §6)
    assert any("failed" in ln and "toolConfig" in ln and "ignored" in ln for ln in r.stderr_lines)


# ---- AfterModel ------------------------------------------------------------------------------
@pytest.mark.slow
def test_after_model_fires_per_chunk_with_the_chunk(agent: AgentEnv) -> None:
    hook = agent.hook("AfterModel", None)
    agent.responses(
        stream(
            chunk(thought("hmm")), chunk(text("Hel")), chunk(text("lo"), finish="STOP", usage=True)
        )
    )
    r = agent.run()
    assert r.stdout == "Hello\n"
    inputs = agent.inputs(hook=hook)
    assert [i["llm_response"] for i in inputs] == [
        {"text": "", "candidates": [{"content": {"role": "model", "parts": ["hmm"]}, "index": 0}]},
        {
            "text": "Hel",
            "candidates": [{"content": {"role": "model", "parts": ["Hel"]}, "index": 0}],
        },
        {
            "text": "lo",
            "candidates": [
                {"content": {"role": "model", "parts": ["lo"]}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {
                "promptTokenCount": 10,
                "candidatesTokenCount": 5,
                "totalTokenCount": 15,
            },
        },
    ]
    assert inputs[0]["llm_request"]["messages"] == [{"role": "user", "content": "go"}]


@pytest.mark.slow
def test_after_model_replaces_a_chunk_and_keeps_its_function_calls(agent: AgentEnv) -> None:
    agent.hook(
        "AfterModel", {"hookSpecificOutput": {"llm_response": synthetic("[redacted]")}}, None
    )
    agent.responses(
        say(text("the password is hunter2"), call("list_directory", dir_path=".")),
        say(text("listed")),
    )
    r = agent.run()
    assert r.returncode == 0, r.stderr
    assert r.stdout == "[redacted]\nlisted\n"
    assert "hunter2" not in r.records("model_call")[1]["request_text"]
    assert r.records("tool_call")[0]["name"] == "list_directory"


@pytest.mark.slow
def test_after_model_deny_discards_the_chunk_and_stops_the_stream(agent: AgentEnv) -> None:
    agent.hook("AfterModel", None, {"decision": "deny", "reason": "unsafe output"})
    after_agent = agent.hook("AfterAgent", None)
    agent.responses(
        stream(
            chunk(text("safe part. ")),
            chunk(text("UNSAFE PART")),
            chunk(call("run_shell_command", command="touch ran.txt"), finish="STOP"),
        )
    )
    r = agent.run("--approval-mode", "yolo")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "safe part. \n"
    assert "[WARNING] Agent execution blocked: unsafe output" in r.stderr_lines
    assert not (agent.root / "ran.txt").exists() and r.records("tool_call") == []
    assert len(agent.inputs("AfterModel")) == 2  # the rest of the stream was abandoned
    assert len(agent.inputs(hook=after_agent)) == 1
    assert agent.transcript(r) == [
        {"role": "user", "parts": [{"text": "go"}]}
    ]  # the turn is not recorded


@pytest.mark.slow
def test_after_model_stop_ends_the_run(agent: AgentEnv) -> None:
    agent.hook("AfterModel", {"continue": False, "stopReason": "halt"})
    after_agent = agent.hook("AfterAgent", None)
    agent.responses(stream(chunk(text("one")), chunk(text("two"), finish="STOP")))
    r = agent.run()
    assert "Agent execution stopped: halt" in r.stderr_lines
    assert "two" not in r.stdout and "one" not in r.stdout
    assert agent.inputs(hook=after_agent) == []


@pytest.mark.slow
def test_after_model_echoed_response_changes_nothing(agent: AgentEnv) -> None:
    agent.script(
        "AfterModel",
        """
        import json, sys
        d = json.load(sys.stdin)
        print(json.dumps({"hookSpecificOutput": {"llm_response": d["llm_response"]}}))
    """,
    )
    agent.responses(say(text("reading"), call("list_directory", dir_path=".")), say(text("ok")))
    r = agent.run()
    assert r.returncode == 0, r.stderr
    assert r.stdout == "reading\nok\n"
    assert r.records("tool_call")[0]["success"] is True


@pytest.mark.slow
def test_after_model_malformed_llm_response_is_a_warning(agent: AgentEnv) -> None:
    agent.hook(
        "AfterModel",
        {"hookSpecificOutput": {"llm_response": {"candidates": [{"content": {"parts": [1]}}]}}},
    )
    agent.responses(say(text("original")))
    r = agent.run()
    assert r.stdout == "original\n"
    assert any("unusable llm_response" in ln for ln in r.stderr_lines)


@pytest.mark.slow
def test_a_failing_after_model_hook_warns_once_per_response(agent: AgentEnv) -> None:
    name = agent.hook("AfterModel", {"$exit": 1, "$stderr": "boom"})
    agent.responses(stream(chunk(text("a")), chunk(text("b")), chunk(text("c"), finish="STOP")))
    r = agent.run()
    assert r.stdout == "abc\n"  # fail open
    warnings = [ln for ln in r.stderr_lines if ln.startswith("[WARNING]") and name in ln]
    assert len(warnings) == 1, r.stderr
