"""The reference host (``hookwise agent``) and Claude Code's dialect (issue 21): Claude-only input
fields, ``updatedToolOutput``, a PreCompact block, SessionStart after a compaction. Rows of
docs/claude.md's table are named as ``row: <kind> <name>`` (column "reference host")."""

from __future__ import annotations

import json
from typing import Any

from tests.agent.conftest import AgentEnv, call, generate, say, text

#: a hook that appends its stdin to ``<name>.log`` beside it and prints the environment's
#: ``OUT_<NAME>``
RECORD = """
import json, os, sys
name = os.path.basename(__file__)[:-3]
data = json.load(sys.stdin)
with open(os.path.join(os.path.dirname(__file__), name + ".log"), "a") as f:
    f.write(json.dumps(data) + "\\n")
sys.stdout.write({out!r})
sys.exit({code})
"""


def record(
    agent: AgentEnv,
    event: str,
    name: str,
    *,
    dialect: str | None = "claude",
    out: Any = "",
    code: int = 0,
    matcher: str | None = None,
) -> None:
    """A hook named ``name`` on ``event`` (Claude dialect unless ``dialect`` is None) answering
    ``out``."""
    body = out if isinstance(out, str) else json.dumps(out)
    agent.script(event, RECORD.format(out=body, code=code), name=name, matcher=matcher)
    if dialect:
        for d in agent.settings["hooks"][event]:
            for h in d["hooks"]:
                if h["name"] == name:
                    h["dialect"] = dialect
        agent.save_settings()


def log(agent: AgentEnv, name: str) -> list[dict[str, Any]]:
    p = agent.hooks_dir / f"{name}.log"
    return [json.loads(x) for x in p.read_text().splitlines()] if p.exists() else []


def test_claude_only_fields_reach_claude_dialect_hooks_only(agent: AgentEnv) -> None:
    """row: stdin tool_use_id; row: stdin duration_ms; row: stdin permission_mode; row: stdin
    prompt_id."""
    for event in ("BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent"):
        record(agent, event, f"claude_{event.lower()}")
    record(agent, "AfterTool", "native_after", dialect=None)
    agent.responses(say(call("run_shell_command", command="echo hi")), say(text("done")))
    r = agent.run("--approval-mode", "yolo")
    assert r.returncode == 0, r.stderr
    (ups,) = log(agent, "claude_beforeagent")
    (pre,) = log(agent, "claude_beforetool")
    (post,) = log(agent, "claude_aftertool")
    (stop,) = log(agent, "claude_afteragent")
    assert [x["hook_event_name"] for x in (ups, pre, post, stop)] == [
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "Stop",
    ]
    assert pre["tool_use_id"].startswith("toolu_") and pre["tool_use_id"] == post["tool_use_id"]
    assert isinstance(post["duration_ms"], int) and "duration_ms" not in pre
    assert {x["permission_mode"] for x in (ups, pre, post, stop)} == {"bypassPermissions"}
    assert len({x["prompt_id"] for x in (ups, pre, post, stop)}) == 1
    (native,) = log(agent, "native_after")
    assert not {"tool_use_id", "duration_ms", "permission_mode", "prompt_id"} & set(native)


def _function_response(r: Any) -> Any:
    """The functionResponse the model got for the first tool call (in its second request)."""
    for content in r.model_requests()[1]:
        for part in content.get("parts", []):
            if "functionResponse" in part:
                return part["functionResponse"]["response"]
    raise AssertionError("no functionResponse in the second request")


def test_updated_tool_output_replaces_the_result_later_hook_wins(agent: AgentEnv) -> None:
    """row: output updatedToolOutput (object of the result's shape; two hooks: the later one
    wins)."""
    first = {
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "updatedToolOutput": {"llmContent": "FIRST"},
        }
    }
    second = {
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "updatedToolOutput": {"llmContent": "REDACTED"},
        }
    }
    record(agent, "AfterTool", "first", out=first)
    record(
        agent, "AfterTool", "second", dialect=None, out=second
    )  # a hookwise extension in Gemini's dialect
    agent.settings["hooks"]["AfterTool"] = [
        {
            "sequential": True,
            "hooks": [h for d in agent.settings["hooks"]["AfterTool"] for h in d["hooks"]],
        }
    ]
    agent.save_settings()
    agent.responses(say(call("run_shell_command", command="echo SECRET")), say(text("done")))
    r = agent.run("--approval-mode", "yolo")
    assert r.returncode == 0, r.stderr
    assert "SECRET" not in json.dumps(_function_response(r)) and "REDACTED" in json.dumps(
        _function_response(r)
    )


def test_updated_tool_output_of_the_wrong_shape_is_dropped_with_a_warning(agent: AgentEnv) -> None:
    """row: output updatedToolOutput (a plain string: dropped, with a warning)."""
    record(
        agent,
        "AfterTool",
        "stringy",
        out={
            "hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": "REPLACED"}
        },
    )
    agent.responses(say(call("run_shell_command", command="echo REAL-OUTPUT")), say(text("done")))
    r = agent.run("--approval-mode", "yolo")
    assert r.returncode == 0, r.stderr
    assert "REAL-OUTPUT" in json.dumps(_function_response(r))
    assert "updatedToolOutput was dropped: it is a string" in r.stderr


def test_a_pre_compact_block_stops_the_compression(agent: AgentEnv) -> None:
    """row: exit PreCompact 2 / output PreCompact decision block; row: event PreCompact."""
    record(agent, "PreCompress", "guard", out={"decision": "block", "reason": "NO-COMPACT"})
    agent.responses(say(text("a long answer " * 20)))
    agent.run(prompt="first")
    agent.responses(say(text("short")))
    r = agent.run("--resume", "--compress-threshold", "10", prompt="second")
    assert r.returncode == 0, r.stderr
    assert [x["hook_event_name"] for x in log(agent, "guard")] == ["PreCompact"]
    assert "Compression blocked by a PreCompress hook: NO-COMPACT" in r.stderr
    assert len(r.records("model_call")) == 1  # no summary request
    assert not any(ln.startswith("Chat history compressed") for ln in r.stderr_lines)


def test_session_start_compact_follows_a_compression_with_the_model(agent: AgentEnv) -> None:
    """row: matcher SessionStart compact; row: stdin model (SessionStart after a compaction)."""
    record(agent, "SessionStart", "after", matcher="compact")
    agent.responses(say(text("a long answer " * 20)))
    agent.run(prompt="first")
    assert log(agent, "after") == []  # a startup SessionStart does not match "compact"
    agent.responses(generate(text("summary")), say(text("short")))
    r = agent.run("--resume", "--compress-threshold", "10", prompt="second")
    assert r.returncode == 0, r.stderr
    (start,) = log(agent, "after")
    assert start["source"] == "compact" and isinstance(start["model"], str) and start["model"]
    assert "permission_mode" not in start


def test_a_stop_block_continues_with_stop_hook_active(agent: AgentEnv) -> None:
    """row: output Stop decision block (the agent continues; the next Stop has stop_hook_active:
    true)."""
    agent.script(
        "AfterAgent",
        """
        import json, os, sys
        data = json.load(sys.stdin)
        with open(os.path.join(os.path.dirname(__file__), "stop.log"), "a") as f:
            f.write(json.dumps(data) + "\\n")
        if not data["stop_hook_active"]:
            print(json.dumps({"decision": "block", "reason": "KEEP-GOING"}))
        """,
        name="stop",
    )
    for d in agent.settings["hooks"]["AfterAgent"]:
        d["hooks"][0]["dialect"] = "claude"
    agent.save_settings()
    agent.responses(say(text("first done")), say(text("second done")))
    r = agent.run()
    assert r.returncode == 0, r.stderr
    first, second = log(agent, "stop")
    assert (first["stop_hook_active"], first["last_assistant_message"]) == (False, "first done")
    assert second["stop_hook_active"] is True and second["last_assistant_message"].endswith(
        "second done"
    )
    assert "KEEP-GOING" in json.dumps(r.model_requests()[1])
    assert "second done" in r.stdout
