"""The stable hook format (docs/contract.md §13), both directions. Pure functions, no processes."""

from __future__ import annotations

import copy

import pytest

from hookwise.host import llm_format as fmt

FC = {"functionCall": {"name": "read_file", "args": {"file_path": "a"}}}
FR = {"functionResponse": {"name": "read_file", "response": {"output": "x"}}}


def test_request_to_hook_format() -> None:
    request = {
        "model": "gemini-2.5-pro",
        "contents": [
            "plain string",
            {"role": "user", "parts": [{"text": "a"}, {"text": "b"}]},
            {"role": "model", "parts": [{"text": "think", "thought": True}, {"text": "!"}, FC]},
            {"role": "user", "parts": [FR]},  # no text: skipped
            {"role": "system", "parts": [{"text": "sys"}]},
            {"role": "tool", "parts": [{"text": "t"}]},
            {"text": "bare part"},  # skipped
        ],
        "config": {
            "temperature": 0.5,
            "topK": 3,
            "tools": [{"functionDeclarations": []}],
            "systemInstruction": "hidden",
        },
    }
    assert fmt.to_llm_request(request) == {
        "model": "gemini-2.5-pro",
        "messages": [
            {"role": "user", "content": "plain string"},
            {"role": "user", "content": "ab"},
            {"role": "model", "content": "think!"},
            {"role": "system", "content": "sys"},
            {"role": "user", "content": "t"},
        ],
        "config": {"temperature": 0.5, "topK": 3},
    }


def test_request_defaults() -> None:
    assert fmt.to_llm_request({"contents": []}) == {
        "model": "gemini-2.5-flash",
        "messages": [],
        "config": {},
    }


def test_positional_merge_rewrites_in_order_and_keeps_non_text_parts() -> None:
    base = [
        {"role": "user", "parts": [{"text": "first"}]},
        {"role": "model", "parts": [{"text": "calling"}, FC]},
        {"role": "user", "parts": [FR]},
        {"role": "model", "parts": [{"text": "answer"}]},
    ]
    merged = fmt.merge_messages(
        base, [{"role": "user", "content": "FIRST"}, {"role": "model", "content": "CALLING"}]
    )
    assert merged == [
        {"role": "user", "parts": [{"text": "FIRST"}]},
        {"role": "model", "parts": [{"text": "CALLING"}, FC]},
        {"role": "user", "parts": [FR]},  # produced no message: untouched, consumed nothing
        {"role": "model", "parts": [{"text": "answer"}]},  # hook messages ran out: kept
    ]


def test_positional_merge_appends_extra_messages_and_wraps_bare_parts() -> None:
    base = ["s", {"text": "bare"}]
    merged = fmt.merge_messages(
        base, [{"role": "model", "content": "m1"}, {"role": "user", "content": "m2"}]
    )
    assert merged == [
        {"role": "model", "parts": [{"text": "m1"}]},
        {"role": "user", "parts": [{"text": "bare"}]},
        {"role": "user", "parts": [{"text": "m2"}]},
    ]
    assert fmt.merge_messages([], [{"role": "user", "content": "x"}]) == [
        {"role": "user", "parts": [{"text": "x"}]}
    ]
    assert fmt.merge_messages(["s"], []) == ["s"]


def test_apply_request_model_and_config() -> None:
    request = {
        "model": "m1",
        "contents": [{"role": "user", "parts": [{"text": "q"}]}],
        "config": {"temperature": 0.9, "topP": 0.5, "toolConfig": {"x": 1}},
    }
    before = copy.deepcopy(request)
    out = fmt.apply_llm_request(
        request, {"model": "m2", "config": {"temperature": 0.1}, "toolConfig": {"mode": "NONE"}}
    )
    assert out["model"] == "m2"
    assert out["config"] == {
        "temperature": 0.1,
        "toolConfig": {"x": 1},
    }  # topP unset; other keys kept
    assert out["contents"] == request["contents"]
    assert request == before  # pure


@pytest.mark.parametrize(
    "bad",
    [
        "text",
        {"messages": "x"},
        {"messages": [1]},
        {"messages": [{"content": "no role"}]},
        {"messages": [{"role": "user"}]},
        {"model": 3},
        {"config": []},
        {"config": {"temperature": "hot"}},
        {"config": {"topK": True}},
    ],
)
def test_malformed_requests_raise(bad: object) -> None:
    with pytest.raises(fmt.LlmFormatError):
        fmt.apply_llm_request({"contents": []}, bad)


def test_response_to_hook_format() -> None:
    chunk = {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [{"text": "t", "thought": True}, {"text": "a"}, FC, {"text": "b"}],
                },
                "finishReason": "STOP",
                "index": 0,
                "safetyRatings": [{"category": "HARM", "probability": "LOW", "blocked": False}],
            }
        ],
        "usageMetadata": {
            "promptTokenCount": 1,
            "candidatesTokenCount": 2,
            "totalTokenCount": 3,
            "thoughtsTokenCount": 9,
        },
    }
    assert fmt.to_llm_response(chunk) == {
        "text": "ab",
        "candidates": [
            {
                "content": {"role": "model", "parts": ["t", "a", "b"]},
                "finishReason": "STOP",
                "index": 0,
                "safetyRatings": [{"category": "HARM", "probability": "LOW"}],
            }
        ],
        "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 2, "totalTokenCount": 3},
    }
    only_call = fmt.to_llm_response({"candidates": [{"content": {"parts": [FC]}}]})
    assert only_call == {"text": "", "candidates": [{"content": {"role": "model", "parts": []}}]}
    assert fmt.to_llm_response({"candidates": []}) == {"candidates": []}


def test_response_from_hook_format() -> None:
    out = fmt.from_llm_response(
        {
            "text": "ignored",
            "candidates": [
                {"content": {"role": "model", "parts": ["x", "y"]}, "finishReason": "STOP"}
            ],
            "usageMetadata": {"a": 1},
        }
    )
    assert out == {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": "x"}, {"text": "y"}]},
                "finishReason": "STOP",
            }
        ],
        "usageMetadata": {"a": 1},
    }
    assert (
        fmt.synthetic_chunk({"candidates": [{"content": {"parts": ["z"]}}]})["candidates"][0][
            "finishReason"
        ]
        == "STOP"
    )


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        {"text": "no candidates"},
        {"candidates": {}},
        {"candidates": [1]},
        {"candidates": [{}]},
        {"candidates": [{"content": {"parts": [{"text": "not a string"}]}}]},
        {"candidates": [], "usageMetadata": 1},
    ],
)
def test_malformed_responses_raise(bad: object) -> None:
    with pytest.raises(fmt.LlmFormatError):
        fmt.from_llm_response(bad)


def test_modified_response_needs_parts_in_the_first_candidate() -> None:
    assert fmt.modified_response({"candidates": [{"content": {"parts": ["x"]}}]})
    assert not fmt.modified_response({"candidates": [{"content": {"parts": []}}]})
    assert fmt.modified_response(
        {"text": "malformed"}
    )  # reported by from_llm_response, not silently skipped


def test_tool_config_both_ways() -> None:
    assert fmt.tool_config_from_hook({"mode": "ANY", "allowedFunctionNames": ["a"]}) == {
        "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["a"]}
    }
    assert fmt.tool_config_from_hook({"mode": "AUTO", "allowedFunctionNames": []}) == {
        "functionCallingConfig": {"mode": "AUTO", "allowedFunctionNames": []}
    }
    assert fmt.tool_config_from_hook({}) is None
    assert fmt.tool_config_to_hook({"functionCallingConfig": {"mode": "NONE"}}) == {"mode": "NONE"}
    for bad in ("NONE", {"mode": "SOMETIMES"}, {"allowedFunctionNames": "a"}):
        with pytest.raises(fmt.LlmFormatError):
            fmt.tool_config_from_hook(bad)


def test_function_call_allowed() -> None:
    assert fmt.function_call_allowed(None, "x") is None
    assert fmt.function_call_allowed({"functionCallingConfig": {"mode": "NONE"}}, "x")
    assert fmt.function_call_allowed(
        {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["y"]}}, "x"
    )
    assert (
        fmt.function_call_allowed(
            {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["x"]}}, "x"
        )
        is None
    )
    assert (
        fmt.function_call_allowed(
            {"functionCallingConfig": {"mode": "AUTO", "allowedFunctionNames": []}}, "x"
        )
        is None
    )
