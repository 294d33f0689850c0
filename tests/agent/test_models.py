"""The scripted model and the live model (against a fake client: the API is off this machine)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookwise.agent.models import GeminiModel, ScriptedModel, parse_responses
from hookwise.errors import ModelError, ResponsesFileError

CHUNK = {
    "candidates": [
        {"content": {"role": "model", "parts": [{"text": "hi"}]}, "finishReason": "STOP"}
    ]
}


def lines(*objs: Any) -> str:
    return "".join(json.dumps(o) + "\n" for o in objs)


def test_replays_in_strict_order() -> None:
    text = lines(
        {"method": "generateContentStream", "response": [CHUNK, CHUNK]},
        {"method": "generateContent", "response": CHUNK},
    )
    model = ScriptedModel(parse_responses(text))
    assert list(model.stream({})) == [CHUNK, CHUNK]
    assert model.generate({}) == CHUNK
    with pytest.raises(
        ModelError, match=r"ran out: model call 3 \(generateContent\) has no line \(the file has 2"
    ):
        model.generate({})


def test_call_kind_must_match() -> None:
    model = ScriptedModel(
        parse_responses(lines({"method": "generateContent", "response": CHUNK})), path="f.jsonl"
    )
    with pytest.raises(
        ModelError,
        match="f.jsonl, line 1: model call 1 is a generateContentStream call but this "
        "line is for generateContent",
    ):
        list(model.stream({}))


def test_replayed_chunks_are_copies() -> None:
    model = ScriptedModel(
        parse_responses(lines({"method": "generateContentStream", "response": [CHUNK]}))
    )
    got = list(model.stream({}))
    got[0]["candidates"].clear()
    assert model.lines[0].chunks[0] == CHUNK


def test_blank_lines_and_empty_files() -> None:
    assert parse_responses("") == []
    parsed = parse_responses("\n" + lines({"method": "generateContent", "response": CHUNK}) + "\n")
    assert [p.line for p in parsed] == [2]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("[1]", "each line must be a JSON object"),
        ('{"method": "generateContent", "response": {"candidates": []}, "x": NaN}', "invalid JSON"),
        ('{"method": "generateContent"}', 'missing "response"'),
        ('{"response": {}}', "unknown method None"),
        ('{"method": "generateContentStream", "response": {}}', "must be a list of chunks"),
        ('{"method": "generateContentStream", "response": []}', "at least one chunk"),
        (
            (
                '{"method": "generateContent", "response": {"candidates": [{"content": '
                '{"parts": [{"text": 1}]}}]}}'
            ),
            "parts[0].text must be a string",
        ),
        (
            (
                '{"method": "generateContent", "response": {"candidates": [{"content": '
                '{"parts": [{"functionCall": {}}]}}]}}'
            ),
            "functionCall needs a non-empty string name",
        ),
        (
            '{"method": "generateContent", "response": {"candidates": [{"finishReason": 1}]}}',
            "finishReason must be",
        ),
        ('{"method": "embedContent", "response": {}}', "never called by hookwise agent"),
    ],
)
def test_bad_lines_name_the_line(line: str, message: str) -> None:
    with pytest.raises(ResponsesFileError) as err:
        parse_responses(
            lines({"method": "generateContent", "response": CHUNK}) + line + "\n", "r.jsonl"
        )
    assert err.value.line == 2
    assert str(err.value).startswith("responses file r.jsonl, line 2: ")
    assert message in str(err.value)


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(ResponsesFileError, match="no such file"):
        ScriptedModel.from_file(str(tmp_path / "missing.jsonl"))
    bad = tmp_path / "bin.jsonl"
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ResponsesFileError, match="not UTF-8"):
        ScriptedModel.from_file(str(bad))


# ---- the live model, against a fake client ---------------------------------------------------
class FakeResponse:
    """Stands in for google-genai's GenerateContentResponse (a pydantic model with model_dump)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def model_dump(self, *, mode: str, by_alias: bool, exclude_none: bool) -> dict[str, Any]:
        assert (mode, by_alias, exclude_none) == ("json", True, True)
        return self.data


class FakeModels:
    def __init__(self, fail: Exception | None = None) -> None:
        self.calls: list[dict[str, Any]] = []
        self.fail = fail

    def generate_content_stream(self, *, model: str, contents: Any, config: Any) -> Any:
        self.calls.append(
            {"kind": "stream", "model": model, "contents": contents, "config": config}
        )
        if self.fail:
            raise self.fail
        yield FakeResponse(
            {"candidates": [{"content": {"role": "model", "parts": [{"text": "a"}]}}]}
        )
        yield {
            "candidates": [
                {"content": {"role": "model", "parts": [{"text": "b"}]}, "finishReason": "STOP"}
            ]
        }

    def generate_content(self, *, model: str, contents: Any, config: Any) -> Any:
        self.calls.append(
            {"kind": "generate", "model": model, "contents": contents, "config": config}
        )
        return FakeResponse(CHUNK)


class FakeClient:
    def __init__(self, fail: Exception | None = None) -> None:
        self.models = FakeModels(fail)


REQUEST = {
    "model": "gemini-2.5-pro",
    "contents": [{"role": "user", "parts": [{"text": "q"}]}],
    "config": {
        "temperature": 0.2,
        "tools": [{"functionDeclarations": [{"name": "read_file", "parametersJsonSchema": {}}]}],
        "toolConfig": {
            "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["read_file"]}
        },
    },
}


@pytest.mark.slow
def test_live_model_streams_through_the_client() -> None:
    client = FakeClient()
    model = GeminiModel("gemini-2.5-flash", client=client)
    chunks = list(model.stream(REQUEST))
    assert [c["candidates"][0]["content"]["parts"][0]["text"] for c in chunks] == ["a", "b"]
    assert model.generate(REQUEST) == CHUNK
    call = client.models.calls[0]
    assert call["model"] == "gemini-2.5-pro"
    try:
        from google.genai import types  # noqa: F401
    except (
        ImportError
    ):  # without the SDK the dicts go through as they are (the SDK accepts dicts too)
        assert call["contents"] == REQUEST["contents"] and call["config"] == REQUEST["config"]
    else:  # with the SDK they are converted to its types
        assert call["config"].tool_config.function_calling_config.allowed_function_names == [
            "read_file"
        ]
        assert call["contents"][0].parts[0].text == "q"


def test_live_model_errors_are_model_errors() -> None:
    model = GeminiModel("m", client=FakeClient(fail=RuntimeError("quota exceeded")))
    with pytest.raises(
        ModelError, match="Gemini API call failed \\(m\\): RuntimeError: quota exceeded"
    ):
        list(model.stream(REQUEST))


def test_live_model_without_the_sdk_names_the_extra() -> None:
    try:
        import google.genai  # noqa: F401
    except ImportError:
        with pytest.raises(ModelError, match=r"pip install 'hookwise\[gemini\]'"):
            GeminiModel("m", api_key="k")
    else:
        pytest.skip("google-genai is installed")


def test_sdk_types_round_trip() -> None:
    types = pytest.importorskip("google.genai.types")
    from hookwise.agent.models import from_sdk_response, to_sdk_request

    contents, config = to_sdk_request(REQUEST)
    assert isinstance(config, types.GenerateContentConfig) and config.temperature == 0.2
    resp = types.GenerateContentResponse.model_validate(
        {
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [
                            {"text": "t", "thought": True},
                            {"functionCall": {"name": "f", "args": {"a": 1}}},
                        ],
                    },
                    "finishReason": "STOP",
                }
            ],
            "usageMetadata": {"totalTokenCount": 3},
        }
    )
    assert from_sdk_response(resp) == {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [
                        {"text": "t", "thought": True},
                        {"functionCall": {"name": "f", "args": {"a": 1}}},
                    ],
                },
                "finishReason": "STOP",
            }
        ],
        "usageMetadata": {"totalTokenCount": 3},
    }


@pytest.mark.slow
def test_agent_uses_the_live_model_with_a_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With GEMINI_API_KEY and no --responses, `hookwise agent` asks for the live model."""
    import argparse

    from hookwise.cli.agent import build_model

    args = argparse.Namespace(responses=None, model="gemini-2.5-flash")
    try:
        import google.genai  # noqa: F401
    except ImportError:
        with pytest.raises(ModelError, match="hookwise\\[gemini\\]"):
            build_model(args, {"GEMINI_API_KEY": "k"})
    else:
        assert isinstance(build_model(args, {"GEMINI_API_KEY": "k"}), GeminiModel)


def test_agent_session_with_the_live_model_class_and_a_fake_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`hookwise agent` with GEMINI_API_KEY: the whole loop through GeminiModel, the API replaced by
    a fake."""
    import io
    import sys

    import hookwise.cli.agent as agent_cli
    from hookwise.cli.main import main

    client = FakeClient()
    monkeypatch.setattr(
        agent_cli,
        "GeminiModel",
        lambda name, api_key=None: GeminiModel(name, api_key=api_key, client=client),
    )
    monkeypatch.setenv("GEMINI_API_KEY", "test-key")
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code = main(["--project", str(tmp_path), "agent", "-p", "hello", "--model", "gemini-2.5-pro"])
    assert code == 0, err.getvalue()
    assert out.getvalue() == "ab\n"
    [call] = client.models.calls
    assert call["model"] == "gemini-2.5-pro"
    contents = call["contents"]
    first = (
        contents[0]
        if isinstance(contents[0], dict)
        else contents[0].model_dump(by_alias=True, exclude_none=True)
    )
    assert first == {"role": "user", "parts": [{"text": "hello"}]}
