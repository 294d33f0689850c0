"""``hookwise agent`` as a command: bad input, output formats, the trace, and a responses file in
Gemini CLI's own format (thoughts, thought signatures, function calls, multi-chunk streams)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from hookwise.cli.main import main

from .conftest import AgentEnv, call, chunk, generate, say, stream, text, thought

# A two-call session shaped exactly like Gemini CLI's recorded fake responses.
GEMINI_CLI_SESSION = [
    {
        "method": "generateContentStream",
        "response": [
            {
                "candidates": [
                    {
                        "content": {
                            "parts": [
                                {
                                    "text": (
                                        "**Locating the file**\n\nI should read notes.txt "
                                        "first.\n\n"
                                    ),
                                    "thought": True,
                                }
                            ],
                            "role": "model",
                        },
                        "index": 0,
                    }
                ],
                "usageMetadata": {
                    "promptTokenCount": 9120,
                    "totalTokenCount": 9120,
                    "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 9120}],
                },
            },
            {
                "candidates": [
                    {
                        "content": {
                            "parts": [
                                {"text": "**Planning**\n\nThen summarise it.\n\n", "thought": True}
                            ],
                            "role": "model",
                        },
                        "index": 0,
                    }
                ],
                "usageMetadata": {"promptTokenCount": 9120, "totalTokenCount": 9120},
            },
            {
                "candidates": [
                    {
                        "content": {
                            "parts": [{"text": "I will read `notes.txt`.\n"}],
                            "role": "model",
                        },
                        "index": 0,
                    }
                ],
                "usageMetadata": {
                    "promptTokenCount": 9120,
                    "candidatesTokenCount": 9,
                    "totalTokenCount": 9201,
                    "thoughtsTokenCount": 72,
                },
            },
            {
                "candidates": [
                    {
                        "content": {
                            "parts": [
                                {
                                    "functionCall": {
                                        "name": "read_file",
                                        "args": {"file_path": "notes.txt"},
                                    },
                                    "thoughtSignature": "c2lnbmF0dXJlLW9uZQ==",
                                }
                            ],
                            "role": "model",
                        },
                        "index": 0,
                    }
                ],
                "usageMetadata": {
                    "promptTokenCount": 9120,
                    "candidatesTokenCount": 30,
                    "totalTokenCount": 9222,
                },
            },
            {
                "candidates": [
                    {
                        "content": {"parts": [{"text": ""}], "role": "model"},
                        "finishReason": "STOP",
                        "index": 0,
                    }
                ],
                "usageMetadata": {
                    "promptTokenCount": 9120,
                    "candidatesTokenCount": 30,
                    "totalTokenCount": 9222,
                    "cachedContentTokenCount": 8000,
                },
            },
        ],
    },
    {
        "method": "generateContentStream",
        "response": [
            {
                "candidates": [
                    {"content": {"parts": [{"text": "The notes "}], "role": "model"}, "index": 0}
                ]
            },
            {
                "candidates": [
                    {
                        "content": {"parts": [{"text": "say: buy milk.\n"}], "role": "model"},
                        "index": 0,
                    }
                ]
            },
            {
                "candidates": [
                    {
                        "content": {
                            "parts": [{"text": "", "thoughtSignature": "c2lnbmF0dXJlLXR3bw=="}],
                            "role": "model",
                        },
                        "finishReason": "STOP",
                        "index": 0,
                    }
                ],
                "usageMetadata": {
                    "promptTokenCount": 9300,
                    "candidatesTokenCount": 12,
                    "totalTokenCount": 9312,
                },
            },
        ],
    },
]


@pytest.mark.slow
def test_gemini_cli_responses_file_replays_in_order(agent: AgentEnv) -> None:
    (agent.root / "notes.txt").write_text("buy milk\n")
    after_model = agent.hook("AfterModel", None)
    agent.responses(*[json.dumps(line, separators=(",", ":")) for line in GEMINI_CLI_SESSION])
    r = agent.run(prompt="what do my notes say?")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "I will read `notes.txt`.\nThe notes say: buy milk.\n"
    assert len(agent.inputs(hook=after_model)) == 8  # one per chunk, thought-only chunks included
    [tc] = r.records("tool_call")
    assert tc == {
        "type": "tool_call",
        "name": "read_file",
        "args": {"file_path": "notes.txt"},
        "success": True,
        "error": None,
    }
    contents = r.model_requests()[1]
    model_turn = contents[1]
    assert model_turn["role"] == "model"
    assert model_turn["parts"][0] == {
        "text": "**Locating the file**\n\nI should read notes.txt first.\n\n"
        "**Planning**\n\nThen summarise it.\n\n",
        "thought": True,
    }
    assert model_turn["parts"][1] == {"text": "I will read `notes.txt`.\n"}
    assert model_turn["parts"][2]["thoughtSignature"] == "c2lnbmF0dXJlLW9uZQ=="
    assert contents[2]["parts"][0]["functionResponse"]["response"] == {"output": "buy milk\n"}
    # the trace is in the order things happened
    kinds = [(x["type"], x.get("hook_event_name") or x.get("name")) for x in r.trace]
    assert kinds.index(("model_call", None)) < kinds.index(("tool_call", "read_file"))
    assert [k for k in kinds if k[0] != "hook_call"] == [
        ("model_call", None),
        ("tool_call", "read_file"),
        ("model_call", None),
    ]


@pytest.mark.slow
def test_json_output_has_the_answer_and_stats(agent: AgentEnv) -> None:
    agent.hook("BeforeTool", None)
    agent.responses(
        say(text("Listing."), call("list_directory", dir_path=".")), say(text(" Done."))
    )
    r = agent.run("--output-format", "json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["response"] == "Listing. Done."
    assert out["status"] == "completed"
    assert out["stats"] == {"modelCalls": 2, "toolCalls": 1, "hookCalls": 1}
    assert isinstance(out["session_id"], str) and out["session_id"]


@pytest.mark.slow
def test_trace_records_in_order_with_args_as_executed(agent: AgentEnv) -> None:
    agent.hook("BeforeTool", {"hookSpecificOutput": {"tool_input": {"dir_path": "sub"}}})
    (agent.root / "sub").mkdir()
    agent.responses(say(call("list_directory", dir_path=".")), say(text("ok")))
    r = agent.run()
    types = [x["type"] for x in r.trace]
    assert types == ["model_call", "hook_call", "tool_call", "model_call"]
    assert r.records("tool_call")[0]["args"] == {"dir_path": "sub"}
    assert r.records("model_call")[0] == {
        "type": "model_call",
        "model": "gemini-2.5-flash",
        "request_text": json.dumps([{"role": "user", "parts": [{"text": "go"}]}]),
    }


@pytest.mark.slow
def test_piped_stdin_is_a_headless_prompt(agent: AgentEnv) -> None:
    hook = agent.hook("BeforeAgent", None)
    agent.responses(say(text("ok")))
    r = agent.run(prompt="and this", stdin="piped text\n")
    assert r.returncode == 0, r.stderr
    assert agent.inputs(hook=hook)[0]["prompt"] == "piped text\n\nand this"


# ---- bad input -------------------------------------------------------------------------------
@pytest.mark.slow
def test_malformed_responses_files_are_reported_with_their_line_before_the_session(
    agent: AgentEnv,
) -> None:
    start = agent.hook("SessionStart", None)
    good = json.dumps(say(text("ok")))
    cases = {
        "{not json": "line 2: invalid JSON at column 2",
        json.dumps(
            {"method": "generateText", "response": {}}
        ): "line 2: unknown method 'generateText'",
        json.dumps(
            {"method": "generateContent", "response": {"usageMetadata": {}}}
        ): "line 2: response has no candidates",
        json.dumps(
            {
                "method": "generateContentStream",
                "response": [{"candidates": [{"content": {"parts": "x"}}]}],
            }
        ): "line 2: response[0].candidates[0].content.parts must be a list",
        json.dumps(
            {"method": "countTokens", "response": {"totalTokens": 3}}
        ): "line 2: method 'countTokens' is never called",
    }
    for bad, message in cases.items():
        agent.responses(good, bad)
        r = agent.run()
        assert r.returncode == 1, bad
        assert f"responses file {agent.responses_path}, {message}" in r.stderr, r.stderr
        assert (
            agent.inputs(hook=start) == []
        )  # nothing fired: the file is checked before the session starts


@pytest.mark.slow
def test_exhausted_script_is_an_error_after_a_clean_session_end(agent: AgentEnv) -> None:
    end = agent.hook("SessionEnd", None)
    agent.responses(say(call("list_directory", dir_path=".")))
    r = agent.run()
    assert r.returncode == 1
    assert (
        "ran out: model call 2 (generateContentStream) has no line (the file has 1 call)"
        in r.stderr
    )
    assert len(agent.inputs(hook=end)) == 1


@pytest.mark.slow
def test_call_kind_mismatch_is_an_error(agent: AgentEnv) -> None:
    agent.responses(generate(text("a summary")))
    r = agent.run()
    assert r.returncode == 1
    assert (
        "model call 1 is a generateContentStream call but this line is for generateContent"
        in r.stderr
    )


@pytest.mark.slow
def test_no_model_configured_names_both_ways(agent: AgentEnv) -> None:
    r = agent.run(responses=False)
    assert r.returncode == 1
    assert (
        "--responses FILE" in r.stderr
        and "GEMINI_API_KEY" in r.stderr
        and "hookwise[gemini]" in r.stderr
    )


def test_missing_responses_file(agent: AgentEnv, tmp_path: Path) -> None:
    code = main(
        [
            "--project",
            str(agent.root),
            "agent",
            "-p",
            "x",
            "--responses",
            str(tmp_path / "nope.jsonl"),
        ]
    )
    assert code == 1


@pytest.mark.slow
def test_bad_numbers_are_usage_errors(agent: AgentEnv) -> None:
    r = agent.run("--max-turns", "0")
    assert r.returncode == 1 and "--max-turns must be at least 1" in r.stderr


@pytest.mark.slow
def test_max_turns_stops_a_runaway_model(agent: AgentEnv) -> None:
    agent.responses(*[say(call("list_directory", dir_path="."))] * 3)
    r = agent.run("--max-turns", "2")
    assert r.returncode == 0
    assert any(
        ln.startswith("Agent execution stopped: the model made 2 calls") for ln in r.stderr_lines
    )


def test_in_process_run_with_string_streams(agent: AgentEnv, monkeypatch: object) -> None:
    agent.responses(stream(chunk(thought("t")), chunk(text("in process"), finish="STOP")))
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = out, err, io.StringIO("")
    try:
        code = main(
            [
                "--project",
                str(agent.root),
                "agent",
                "-p",
                "x",
                "--responses",
                str(agent.responses_path),
            ]
        )
    finally:
        sys.stdout, sys.stderr, sys.stdin = old
    assert code == 0, err.getvalue()
    assert out.getvalue() == "in process\n"


@pytest.mark.slow
def test_json_output_reports_a_model_error(agent: AgentEnv) -> None:
    agent.responses()
    r = agent.run("--output-format", "json")
    assert r.returncode == 1
    out = json.loads(r.stdout)
    assert out["status"] == "error" and "ran out" in out["error"]


@pytest.mark.slow
def test_calls_after_a_stop_are_recorded_as_not_run(agent: AgentEnv) -> None:
    agent.hook("BeforeTool", {"continue": False, "stopReason": "halt"}, matcher="list_directory")
    agent.responses(say(call("list_directory", dir_path="."), call("read_file", file_path="x")))
    r = agent.run()
    assert r.returncode == 0
    assert [(t["name"], t["success"]) for t in r.records("tool_call")] == [
        ("list_directory", False),
        ("read_file", False),
    ]
    assert "stopped before this call ran" in r.records("tool_call")[1]["error"]


@pytest.mark.slow
def test_untrusted_project_hooks_do_not_run_and_are_reported_once(agent: AgentEnv) -> None:
    guard = agent.hook("BeforeTool", {"decision": "deny", "reason": "would block"})
    agent.responses(
        say(call("list_directory", dir_path=".")),
        say(call("list_directory", dir_path=".")),
        say(text("ok")),
    )
    r = agent.run(trust_all=False)
    assert r.returncode == 0, r.stderr
    assert agent.inputs(hook=guard) == []
    assert [t["success"] for t in r.records("tool_call")] == [True, True]
    # one notice, up front (before the first prompt): the hook, then the command it would run (the
    # review screen of `hookwise trust`)
    mentions = [i for i, ln in enumerate(r.stderr_lines) if guard in ln]
    first = mentions[0]
    assert f"project hook {guard} (BeforeTool)" in r.stderr_lines[first], r.stderr
    assert "command: " in r.stderr_lines[first + 1] and guard in r.stderr_lines[first + 1]
    assert f"file:    .gemini/hooks/{guard}.json" in r.stderr_lines[mentions[-1]]
    assert "not trusted and will be skipped" in r.stderr_lines[first - 1]
    assert "hookwise trust" in r.stderr_lines[mentions[-1] + 1]
    assert r.stderr.count("skipped") == 1
