"""Models behind one interface: a scripted model (Gemini CLI's fake-responses files) and the live
API.

Both take a request dict in google-genai's JSON shape
(``{"model", "contents": [...], "config": {...}}``) and give response chunks in the same shape
(``{"candidates": [{"content": {"role": "model", "parts": [...]}, "finishReason"}],
"usageMetadata"}``)::

    model = ScriptedModel.from_file("responses.jsonl")
    for chunk in model.stream(request):      # generateContentStream
        ...
    answer = model.generate(request)         # generateContent (used for compression summaries)

A responses file is JSON Lines, one line per model call, in call order::

    {"method": "generateContentStream", "response": [chunk, chunk, ...]}
    {"method": "generateContent", "response": chunk}

The whole file is checked before a session starts; a bad line is reported with its number.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from hookwise.errors import ModelError, ResponsesFileError

STREAM = "generateContentStream"
GENERATE = "generateContent"
#: methods Gemini CLI's fake content generator knows but this agent never calls
UNUSED_METHODS = ("countTokens", "embedContent")


class Model(Protocol):
    """What the agent loop needs from a model."""

    name: str

    def stream(self, request: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """``generateContentStream``: the response chunks, in order."""
        ...

    def generate(self, request: dict[str, Any]) -> dict[str, Any]:
        """``generateContent``: one whole response."""
        ...


# ---------------------------------------------------------------------------------------------
# scripted model
# ---------------------------------------------------------------------------------------------
@dataclass
class ScriptLine:
    """One model call of a responses file."""

    line: int  # 1-based line number in the file
    method: str
    chunks: list[dict[str, Any]]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _check_part(part: Any, where: str) -> None:
    if not isinstance(part, dict):
        raise ValueError(f"{where} must be an object")
    if "text" in part and not isinstance(part["text"], str):
        raise ValueError(f"{where}.text must be a string")
    if "thought" in part and not isinstance(part["thought"], bool):
        raise ValueError(f"{where}.thought must be true or false")
    fc = part.get("functionCall")
    if fc is not None:
        if not isinstance(fc, dict) or not isinstance(fc.get("name"), str) or not fc["name"]:
            raise ValueError(f"{where}.functionCall needs a non-empty string name")
        if "args" in fc and not isinstance(fc["args"], dict):
            raise ValueError(f"{where}.functionCall.args must be an object")


def check_chunk(chunk: Any, where: str) -> None:
    """Raise ``ValueError`` when ``chunk`` is not a usable GenerateContentResponse JSON object."""
    if not isinstance(chunk, dict):
        raise ValueError(f"{where} must be an object (a GenerateContentResponse)")
    cands = chunk.get("candidates")
    if cands is None:
        raise ValueError(f"{where} has no candidates")
    if not isinstance(cands, list):
        raise ValueError(f"{where}.candidates must be a list")
    for i, cand in enumerate(cands):
        cw = f"{where}.candidates[{i}]"
        if not isinstance(cand, dict):
            raise ValueError(f"{cw} must be an object")
        if "finishReason" in cand and not isinstance(cand["finishReason"], str):
            raise ValueError(f"{cw}.finishReason must be a string")
        content = cand.get("content")
        if content is None:
            continue
        if not isinstance(content, dict):
            raise ValueError(f"{cw}.content must be an object")
        parts = content.get("parts", [])
        if not isinstance(parts, list):
            raise ValueError(f"{cw}.content.parts must be a list")
        for j, part in enumerate(parts):
            _check_part(part, f"{cw}.content.parts[{j}]")
    usage = chunk.get("usageMetadata")
    if usage is not None and not isinstance(usage, dict):
        raise ValueError(f"{where}.usageMetadata must be an object")


def parse_responses(text: str, path: str = "<responses>") -> list[ScriptLine]:
    """Parse and check a whole responses file; raise :class:`ResponsesFileError` at the first bad
    line."""
    lines: list[ScriptLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw, parse_constant=_reject_constant)
        except json.JSONDecodeError as exc:
            raise ResponsesFileError(
                path, number, f"invalid JSON at column {exc.colno}: {exc.msg}"
            ) from None
        except ValueError as exc:
            raise ResponsesFileError(path, number, f"invalid JSON: {exc}") from None
        if not isinstance(obj, dict):
            raise ResponsesFileError(
                path, number, 'each line must be a JSON object with "method" and "response"'
            )
        method = obj.get("method")
        if method in UNUSED_METHODS:
            raise ResponsesFileError(
                path,
                number,
                f"method {method!r} is never called by hookwise agent "
                f"(it makes only {STREAM} and {GENERATE} calls); remove this line",
            )
        if method not in (STREAM, GENERATE):
            raise ResponsesFileError(
                path, number, f"unknown method {method!r} (expected {STREAM!r} or {GENERATE!r})"
            )
        if "response" not in obj:
            raise ResponsesFileError(path, number, 'missing "response"')
        response = obj["response"]
        try:
            if method == STREAM:
                if not isinstance(response, list):
                    raise ValueError(f"a {STREAM} response must be a list of chunks")
                if not response:
                    raise ValueError(f"a {STREAM} response must have at least one chunk")
                for k, chunk in enumerate(response):
                    check_chunk(chunk, f"response[{k}]")
                chunks = response
            else:
                check_chunk(response, "response")
                chunks = [response]
        except ValueError as exc:
            raise ResponsesFileError(path, number, str(exc)) from None
        lines.append(ScriptLine(number, method, chunks))
    return lines


class ScriptedModel:
    """Replays a responses file in strict order: the N-th model call takes the N-th line."""

    def __init__(
        self, lines: list[ScriptLine], *, path: str = "<responses>", name: str = "scripted"
    ) -> None:
        self.lines = lines
        self.path = path
        self.name = name
        self.calls = 0

    @classmethod
    def from_file(cls, path: str, *, name: str = "scripted") -> ScriptedModel:
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except FileNotFoundError:
            raise ResponsesFileError(path, None, "no such file") from None
        except UnicodeDecodeError as exc:
            raise ResponsesFileError(path, None, f"not UTF-8 text ({exc.reason})") from None
        except OSError as exc:
            raise ResponsesFileError(path, None, exc.strerror or str(exc)) from None
        return cls(parse_responses(text, path), path=path, name=name)

    @property
    def remaining(self) -> int:
        return len(self.lines) - self.calls

    def _next(self, method: str) -> ScriptLine:
        n = self.calls + 1
        if self.calls >= len(self.lines):
            raise ModelError(
                f"responses file {self.path} ran out: model call {n} ({method}) has no line "
                f"(the file has {len(self.lines)} call{'s' if len(self.lines) != 1 else ''})"
            )
        line = self.lines[self.calls]
        if line.method != method:
            raise ModelError(
                f"responses file {self.path}, line {line.line}: model call {n} is a {method} call "
                f"but this line is for {line.method}"
            )
        self.calls += 1
        return line

    def stream(self, request: dict[str, Any]) -> Iterator[dict[str, Any]]:
        line = self._next(STREAM)
        for chunk in line.chunks:
            yield copy.deepcopy(chunk)

    def generate(self, request: dict[str, Any]) -> dict[str, Any]:
        return copy.deepcopy(self._next(GENERATE).chunks[0])


# ---------------------------------------------------------------------------------------------
# live model (google-genai)
# ---------------------------------------------------------------------------------------------
GEMINI_EXTRA_HINT = "the live model needs the google-genai SDK: pip install 'hookwise[gemini]'"


def _sdk_types() -> Any | None:
    try:
        from google.genai import types
    except ImportError:
        return None
    return types


def to_sdk_request(request: dict[str, Any]) -> tuple[Any, Any]:
    """``(contents, config)`` for the SDK: google-genai types when it is installed, else the
    dicts."""
    contents = copy.deepcopy(request.get("contents") or [])
    config = copy.deepcopy(request.get("config") or {})
    types = _sdk_types()
    if types is None:
        return contents, config
    return (
        [types.Content.model_validate(c) for c in contents],
        types.GenerateContentConfig.model_validate(config),
    )


def from_sdk_response(response: Any) -> dict[str, Any]:
    """A response chunk dict (camelCase JSON shape) from an SDK response object or dict."""
    if isinstance(response, dict):
        return copy.deepcopy(response)
    dump = getattr(response, "model_dump", None)
    if callable(dump):
        out = dump(mode="json", by_alias=True, exclude_none=True)
        if isinstance(out, dict):
            return out
    raise ModelError(
        f"the Gemini SDK returned an unexpected response object: {type(response).__name__}"
    )


class GeminiModel:
    """The live Gemini API through google-genai (imported lazily).

    ``client`` may be given (any object with ``models.generate_content_stream`` and
    ``models.generate_content``); tests use a fake one.
    """

    def __init__(self, name: str, *, api_key: str | None = None, client: Any = None) -> None:
        self.name = name
        if client is None:
            try:
                from google import genai
            except ImportError:
                raise ModelError(GEMINI_EXTRA_HINT) from None
            client = genai.Client(api_key=api_key)
        self._client = client

    def _call_failed(self, exc: Exception) -> ModelError:
        return ModelError(f"Gemini API call failed ({self.name}): {type(exc).__name__}: {exc}")

    def stream(self, request: dict[str, Any]) -> Iterator[dict[str, Any]]:
        contents, config = to_sdk_request(request)
        try:
            it = self._client.models.generate_content_stream(
                model=request.get("model") or self.name, contents=contents, config=config
            )
            for chunk in it:
                yield from_sdk_response(chunk)
        except ModelError:
            raise
        except Exception as exc:
            raise self._call_failed(exc) from exc

    def generate(self, request: dict[str, Any]) -> dict[str, Any]:
        contents, config = to_sdk_request(request)
        try:
            resp = self._client.models.generate_content(
                model=request.get("model") or self.name, contents=contents, config=config
            )
        except Exception as exc:
            raise self._call_failed(exc) from exc
        return from_sdk_response(resp)
