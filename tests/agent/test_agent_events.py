"""BeforeAgent, AfterAgent, SessionStart/SessionEnd and PreCompress, end to end (headless).

Gemini CLI's event rules (docs/agent.md; docs/contract.md §9): BeforeAgent stop (message kept) /
block (message dropped) / additionalContext (this prompt only); AfterAgent stop / block = retry with
``stop_hook_active`` / cap / ``clearContext``; SessionStart context and systemMessage;
SessionEnd(exit); PreCompress(auto) when the history passes the threshold.
"""

from __future__ import annotations

import json

import pytest

from .conftest import AgentEnv, call, generate, say, text


def user_texts(contents: list[dict]) -> list[str]:
    return ["".join(p.get("text", "") for p in c["parts"]) for c in contents if c["role"] == "user"]


# ---- BeforeAgent -----------------------------------------------------------------------------
def test_before_agent_stop_keeps_the_message_and_skips_the_model(agent: AgentEnv) -> None:
    agent.hook("BeforeAgent", {"continue": False, "stopReason": "not now"})
    after = agent.hook("AfterAgent", None)
    agent.responses()  # an empty file is valid: no model call may happen
    r = agent.run(prompt="hello there")
    assert r.returncode == 0, r.stderr
    assert "Agent execution stopped: not now" in r.stderr_lines
    assert r.records("model_call") == [] and r.stdout == ""
    assert agent.inputs(hook=after) == []
    assert agent.transcript(r) == [{"role": "user", "parts": [{"text": "hello there"}]}]


def test_before_agent_block_drops_the_message(agent: AgentEnv) -> None:
    agent.hook("BeforeAgent", {"decision": "block", "reason": "prompt refused"})
    after = agent.hook("AfterAgent", None)
    agent.responses()
    r = agent.run(prompt="hello there")
    assert r.returncode == 0, r.stderr
    assert "[WARNING] Agent execution blocked: prompt refused" in r.stderr_lines
    assert r.records("model_call") == []
    assert agent.inputs(hook=after) == []
    assert agent.transcript(r) == []


def test_before_agent_context_is_in_every_request_of_the_prompt_only(agent: AgentEnv) -> None:
    agent.hook("BeforeAgent", {"hookSpecificOutput": {"additionalContext": "branch is <main>"}})
    (agent.root / "a.txt").write_text("x\n")
    agent.responses(say(call("read_file", file_path="a.txt")), say(text("done")))
    r = agent.run(prompt="read a")
    ctx = "<hook_context>branch is &lt;main&gt;</hook_context>"
    for contents in r.model_requests():  # both calls of the prompt (tool round-trip included)
        assert contents[0]["parts"] == [{"text": "read a"}, {"text": ctx}]
    assert agent.inputs("BeforeAgent")[0]["prompt"] == "read a"
    assert ctx not in json.dumps(agent.transcript(r))  # not stored for later prompts


# ---- AfterAgent ------------------------------------------------------------------------------
@pytest.mark.slow
def test_after_agent_fires_once_per_prompt_after_the_final_answer(agent: AgentEnv) -> None:
    after = agent.hook("AfterAgent", None)
    before = agent.hook("BeforeAgent", None)
    (agent.root / "a.txt").write_text("x\n")
    agent.responses(
        say(text("Reading."), call("read_file", file_path="a.txt")), say(text("It says x."))
    )
    r = agent.run(prompt="what is in a?")
    assert len(agent.inputs(hook=before)) == 1
    [inp] = agent.inputs(hook=after)
    assert inp["prompt"] == "what is in a?"
    assert inp["prompt_response"] == "Reading.\nIt says x."
    assert inp["stop_hook_active"] is False
    assert r.stdout == "Reading.\nIt says x.\n"


@pytest.mark.slow
def test_after_agent_block_retries_with_the_reason(agent: AgentEnv) -> None:
    after = agent.hook("AfterAgent", {"decision": "block", "reason": "add a test too"}, None)
    before = agent.hook("BeforeAgent", None)
    agent.responses(say(text("first answer")), say(text("now with a test")))
    r = agent.run(prompt="write code")
    assert r.returncode == 0, r.stderr
    assert "[WARNING] Agent execution blocked: add a test too" in r.stderr_lines
    assert [i["prompt"] for i in agent.inputs(hook=before)] == ["write code", "add a test too"]
    first, second = agent.inputs(hook=after)
    assert (first["stop_hook_active"], second["stop_hook_active"]) == (False, True)
    assert second["prompt"] == "write code"
    assert second["prompt_response"] == "first answer\nnow with a test"
    assert user_texts(r.model_requests()[1]) == ["write code", "add a test too"]
    assert r.stdout == "first answer\nnow with a test\n"


@pytest.mark.slow
def test_after_agent_retries_are_capped(agent: AgentEnv) -> None:
    after = agent.hook("AfterAgent", {"decision": "block", "reason": "again"})
    agent.responses(*[say(text(f"try {i}")) for i in range(3)])
    r = agent.run("--max-agent-retries", "2")
    assert r.returncode == 0, r.stderr
    assert len(agent.inputs(hook=after)) == 3
    assert r.stderr_lines.count("[WARNING] Agent execution blocked: again") == 3
    stop = [ln for ln in r.stderr_lines if ln.startswith("Agent execution stopped: ")]
    assert len(stop) == 1 and "--max-agent-retries" in stop[0] and "again" in stop[0]


@pytest.mark.slow
def test_after_agent_stop_with_clear_context(agent: AgentEnv) -> None:
    agent.hook(
        "AfterAgent",
        {
            "continue": False,
            "stopReason": "done here",
            "hookSpecificOutput": {"clearContext": True},
        },
    )
    agent.responses(say(text("answer")))
    r = agent.run()
    assert "Agent execution stopped: done here" in r.stderr_lines
    assert "Conversation context has been cleared." in r.stderr_lines
    assert agent.transcript(r) == []


@pytest.mark.slow
def test_after_agent_block_with_clear_context_retries_on_a_fresh_history(agent: AgentEnv) -> None:
    agent.hook(
        "AfterAgent",
        {"decision": "block", "reason": "start over", "hookSpecificOutput": {"clearContext": True}},
        None,
    )
    agent.responses(say(text("answer one")), say(text("answer two")))
    r = agent.run(prompt="question")
    second = r.model_requests()[1]
    assert second == [{"role": "user", "parts": [{"text": "start over"}]}]
    assert agent.transcript(r) == [
        {"role": "user", "parts": [{"text": "start over"}]},
        {"role": "model", "parts": [{"text": "answer two"}]},
    ]


@pytest.mark.slow
def test_after_agent_clear_context_without_stop_or_block_is_ignored(agent: AgentEnv) -> None:
    agent.hook("AfterAgent", {"hookSpecificOutput": {"clearContext": True}})
    agent.responses(say(text("kept")))
    r = agent.run(prompt="q")
    assert len(agent.transcript(r)) == 2


# ---- SessionStart / SessionEnd ---------------------------------------------------------------
@pytest.mark.slow
def test_session_start_context_and_message_headless_and_session_end_exit(agent: AgentEnv) -> None:
    start = agent.hook(
        "SessionStart",
        {"systemMessage": "welcome", "hookSpecificOutput": {"additionalContext": "use <tabs>"}},
        matcher="startup",
    )
    end = agent.hook("SessionEnd", {"systemMessage": "bye"}, matcher="exit")
    before = agent.hook("BeforeAgent", None)
    agent.responses(say(text("ok")))
    r = agent.run(prompt="fix it")
    assert r.returncode == 0, r.stderr
    assert agent.inputs(hook=start)[0]["source"] == "startup"
    assert (
        agent.inputs(hook=before)[0]["prompt"]
        == "<hook_context>use &lt;tabs&gt;</hook_context>\n\nfix it"
    )
    assert r.stderr_lines[0] == "welcome"
    assert r.stderr_lines[-1] == "bye"
    [end_input] = agent.inputs(hook=end)
    assert end_input["reason"] == "exit"
    events = [c["hook_event_name"] for c in r.hook_calls()]
    assert events[0] == "SessionStart" and events[-1] == "SessionEnd"


@pytest.mark.slow
def test_session_start_context_alone_is_a_prompt(agent: AgentEnv) -> None:
    agent.hook(
        "SessionStart", {"hookSpecificOutput": {"additionalContext": "do the nightly check"}}
    )
    agent.responses(say(text("checked")))
    r = agent.run(prompt=None)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "checked\n"


@pytest.mark.slow
def test_resume_fires_session_start_resume_with_the_saved_history(agent: AgentEnv) -> None:
    start = agent.hook("SessionStart", None)
    agent.responses(say(text("first")))
    first = agent.run(prompt="one")
    agent.responses(say(text("second")))
    r = agent.run("--resume", prompt="two")
    assert r.returncode == 0, r.stderr
    assert [i["source"] for i in agent.inputs(hook=start)] == ["startup", "resume"]
    sid = agent.inputs(hook=start)[0]["session_id"]
    assert agent.inputs(hook=start)[1]["session_id"] == sid
    assert user_texts(r.model_requests()[0]) == ["one", "two"]
    assert agent.inputs(hook=start)[1]["transcript_path"].endswith(f"session-{sid}.json")
    assert first.returncode == 0


# ---- PreCompress (auto) ----------------------------------------------------------------------
@pytest.mark.slow
def test_pre_compress_auto_fires_only_when_compressing(agent: AgentEnv) -> None:
    pre = agent.hook("PreCompress", None, matcher="auto")
    agent.responses(say(text("a long answer " * 20)))
    agent.run(prompt="first")
    assert agent.inputs(hook=pre) == []  # under the threshold: no compression, no PreCompress
    agent.responses(generate(text("summary of the first exchange")), say(text("short")))
    r = agent.run("--resume", "--compress-threshold", "10", prompt="second")
    assert r.returncode == 0, r.stderr
    [inp] = agent.inputs(hook=pre)
    assert inp["trigger"] == "auto"
    calls = r.records("model_call")
    assert len(calls) == 2
    assert (
        "Summarize the conversation" in calls[0]["request_text"]
    )  # the summary request (generateContent)
    assert user_texts(r.model_requests()[1]) == [
        "<state_snapshot>\nsummary of the first exchange\n</state_snapshot>",
        "second",
    ]
    assert any(ln.startswith("Chat history compressed") for ln in r.stderr_lines)


# ---- fields the matrix says are ignored ------------------------------------------------------
@pytest.mark.slow
def test_fields_that_an_event_does_not_honour_change_nothing(agent: AgentEnv) -> None:
    """ask on AfterTool/BeforeAgent/AfterAgent, additionalContext on BeforeTool/AfterAgent, and any
    decision on SessionStart/SessionEnd/PreCompress/Notification have no effect."""
    ignored = {"decision": "ask", "hookSpecificOutput": {"additionalContext": "IGNORED-CONTEXT"}}
    agent.hook("SessionStart", {"continue": False, "decision": "block", "reason": "ignored"})
    agent.hook("BeforeAgent", {"decision": "ask"})
    agent.hook("BeforeTool", {"hookSpecificOutput": {"additionalContext": "IGNORED-CONTEXT"}})
    agent.hook("AfterTool", {"decision": "ask"})
    agent.hook("AfterAgent", ignored)
    agent.hook("SessionEnd", {"continue": False, "decision": "block"})
    (agent.root / "a.txt").write_text("x\n")
    agent.responses(say(call("read_file", file_path="a.txt")), say(text("fine")))
    r = agent.run(prompt="read a")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "fine\n"
    assert not any(
        ln.startswith(("Agent execution", "[WARNING] Agent execution", "Error executing"))
        for ln in r.stderr_lines
    )
    assert "IGNORED-CONTEXT" not in json.dumps(r.model_requests())
    assert [t["success"] for t in r.records("tool_call")] == [True]
