"""Translation between model requests/responses and the hook-facing stable format.

Requests and responses are plain dicts in google-genai's JSON shape (camelCase:
``contents``/``parts``/``functionCall``/``candidates``/``finishReason``...). Hooks see
the stable, SDK-neutral format of docs/contract.md §13 instead:

* ``LLMRequest``
  ``{"model", "messages": [{"role", "content"}], "config": {temperature, maxOutputTokens, topP,
  topK}}``
* ``LLMResponse``
  ``{"text", "candidates": [{"content": {"role": "model", "parts": [str]}, "finishReason", "index",
  "safetyRatings"}], "usageMetadata"}``
* ``toolConfig``  ``{"mode": "AUTO"|"ANY"|"NONE", "allowedFunctionNames": [str]}``

Every function here is pure. The ``apply_*``/``*_from_hook`` functions validate the whole hook
value first and raise :class:`LlmFormatError` without changing anything when it is malformed, so
a host can warn and ignore it (never half-apply it).
"""

from __future__ import annotations

import copy
import math
from typing import Any

from hookwise.errors import LlmFormatError

DEFAULT_MODEL = "gemini-2.5-flash"
#: the generation parameters the stable format exposes
GENERATION_KEYS = ("temperature", "maxOutputTokens", "topP", "topK")
TOOL_MODES = ("AUTO", "ANY", "NONE")


# ---------------------------------------------------------------------------------------------
# parts and contents
# ---------------------------------------------------------------------------------------------
def _is_text_part(part: Any) -> bool:
    return isinstance(part, dict) and isinstance(part.get("text"), str)


def _content_parts(entry: Any) -> list[Any] | None:
    if isinstance(entry, dict) and isinstance(entry.get("parts"), list):
        return list(entry["parts"])
    return None


def _entry_text(entry: Any) -> str | None:
    """The text a contents entry contributes to ``messages`` (None: it produces no message)."""
    if isinstance(entry, str):
        return entry
    parts = _content_parts(entry)
    if parts is None:
        return None
    text = "".join(p["text"] for p in parts if _is_text_part(p))
    return text or None


def _hook_role(role: Any) -> str:
    """Role of a contents entry as hooks see it: model and system stay, everything else is user."""
    return role if role in ("model", "system") else "user"


def request_contents(request: dict[str, Any]) -> list[Any]:
    """The request's ``contents`` normalised to a list."""
    contents = request.get("contents")
    if contents is None:
        return []
    if isinstance(contents, list):
        return contents
    return [contents]


# ---------------------------------------------------------------------------------------------
# request: model request -> LLMRequest (§12.1), LLMRequest -> model request (§12.2)
# ---------------------------------------------------------------------------------------------
def to_llm_request(request: dict[str, Any]) -> dict[str, Any]:
    """The ``llm_request`` hooks receive for ``request`` (docs/contract.md §13.1)."""
    messages: list[dict[str, Any]] = []
    for entry in request_contents(request):
        text = _entry_text(entry)
        if text is None:
            continue
        role = "user" if isinstance(entry, str) else _hook_role(entry.get("role"))
        messages.append({"role": role, "content": text})
    cfg = request.get("config")
    config: dict[str, Any] = {}
    if isinstance(cfg, dict):
        for key in GENERATION_KEYS:
            if cfg.get(key) is not None:
                config[key] = cfg[key]
    model = request.get("model")
    return {
        "model": model if isinstance(model, str) and model else DEFAULT_MODEL,
        "messages": messages,
        "config": config,
    }


def _check_number(value: Any, where: str) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise LlmFormatError(f"{where} must be a number, got {value!r}")


def validate_llm_request(hook_request: Any) -> None:
    """Raise :class:`LlmFormatError` when a hook's ``llm_request`` cannot be applied."""
    if not isinstance(hook_request, dict):
        raise LlmFormatError(f"llm_request must be an object, got {type(hook_request).__name__}")
    model = hook_request.get("model")
    if model is not None and not isinstance(model, str):
        raise LlmFormatError(f"llm_request.model must be a string, got {model!r}")
    messages = hook_request.get("messages")
    if messages is not None and messages is not False:
        if not isinstance(messages, list):
            raise LlmFormatError("llm_request.messages must be a list")
        for i, m in enumerate(messages):
            if not isinstance(m, dict):
                raise LlmFormatError(f"llm_request.messages[{i}] must be an object")
            if not isinstance(m.get("role"), str):
                raise LlmFormatError(f"llm_request.messages[{i}].role must be a string")
            if "content" not in m:
                raise LlmFormatError(f"llm_request.messages[{i}] has no content")
    config = hook_request.get("config")
    if config is not None:
        if not isinstance(config, dict):
            raise LlmFormatError("llm_request.config must be an object")
        for key in GENERATION_KEYS:
            _check_number(config.get(key), f"llm_request.config.{key}")


def _message_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if content is None:
        return ""
    # the spec converts non-strings with the default string conversion; JSON text is the honest
    # analogue
    import json

    return json.dumps(content, ensure_ascii=False)


def _message_role(message: dict[str, Any]) -> str:
    role = message.get("role")
    return role if isinstance(role, str) and role else "user"


def merge_messages(base: list[Any], messages: list[dict[str, Any]]) -> list[Any]:
    """Positional merge of hook ``messages`` into ``base`` contents (docs/contract.md §13.2)."""
    if not messages:
        return copy.deepcopy(base)
    if not base:
        return [{"role": _message_role(m), "parts": [{"text": _message_text(m)}]} for m in messages]
    out: list[Any] = []
    i = 0
    for entry in base:
        if isinstance(entry, str):
            if i < len(messages):
                m = messages[i]
                i += 1
                out.append({"role": _message_role(m), "parts": [{"text": _message_text(m)}]})
            else:
                out.append({"role": "user", "parts": [{"text": entry}]})
            continue
        parts = _content_parts(entry)
        if parts is None:
            if isinstance(entry, dict):  # a bare part
                out.append({"role": "user", "parts": [copy.deepcopy(entry)]})
            continue
        if _entry_text(entry) is not None and i < len(messages):
            m = messages[i]
            i += 1
            new = copy.deepcopy(entry)
            new["role"] = _message_role(m)
            new["parts"] = [{"text": _message_text(m)}] + [
                copy.deepcopy(p) for p in parts if not _is_text_part(p)
            ]
            out.append(new)
        else:
            out.append(copy.deepcopy(entry))
    for m in messages[i:]:
        out.append({"role": _message_role(m), "parts": [{"text": _message_text(m)}]})
    return out


def apply_llm_request(request: dict[str, Any], hook_request: Any) -> dict[str, Any]:
    """A new model request with a BeforeModel hook's ``llm_request`` applied (docs/contract.md
    §13.2).

    Raises :class:`LlmFormatError` (and changes nothing) when ``hook_request`` is malformed.
    """
    validate_llm_request(hook_request)
    out = copy.deepcopy(request)
    messages = hook_request.get("messages")
    if messages:
        out["contents"] = merge_messages(request_contents(request), messages)
    model = hook_request.get("model")
    if model:
        out["model"] = model
    config = hook_request.get("config")
    if isinstance(config, dict):
        live = dict(out.get("config") or {})
        for key in GENERATION_KEYS:
            if config.get(key) is None:
                live.pop(key, None)
            else:
                live[key] = config[key]
        out["config"] = live
    return out


# ---------------------------------------------------------------------------------------------
# response: chunk -> LLMResponse (§12.3), LLMResponse -> chunk (§12.4)
# ---------------------------------------------------------------------------------------------
def chunk_parts(chunk: dict[str, Any]) -> list[dict[str, Any]]:
    """The parts of a chunk's first candidate (empty when it has none)."""
    cands = chunk.get("candidates")
    if not isinstance(cands, list) or not cands or not isinstance(cands[0], dict):
        return []
    content = cands[0].get("content")
    if not isinstance(content, dict) or not isinstance(content.get("parts"), list):
        return []
    return [p for p in content["parts"] if isinstance(p, dict)]


def to_llm_response(chunk: dict[str, Any]) -> dict[str, Any]:
    """The ``llm_response`` AfterModel hooks receive for one chunk (docs/contract.md §13.3)."""
    out: dict[str, Any] = {}
    raw = chunk.get("candidates")
    cands: list[Any] = raw if isinstance(raw, list) else []
    first_parts = None
    if cands and isinstance(cands[0], dict):
        content = cands[0].get("content")
        if isinstance(content, dict) and isinstance(content.get("parts"), list):
            first_parts = content["parts"]
    if first_parts:
        out["text"] = "".join(
            p["text"] for p in first_parts if _is_text_part(p) and not p.get("thought")
        )
    candidates: list[dict[str, Any]] = []
    for cand in cands:
        if not isinstance(cand, dict):
            continue
        content = cand.get("content")
        parts = content.get("parts") if isinstance(content, dict) else None
        c: dict[str, Any] = {
            "content": {
                "role": "model",
                "parts": [p["text"] for p in (parts or []) if _is_text_part(p)],
            }
        }
        if cand.get("finishReason") is not None:
            c["finishReason"] = cand["finishReason"]
        if cand.get("index") is not None:
            c["index"] = cand["index"]
        ratings = cand.get("safetyRatings")
        if isinstance(ratings, list):
            c["safetyRatings"] = [
                {
                    "category": str(r.get("category", "")),
                    "probability": str(r.get("probability", "")),
                }
                for r in ratings
                if isinstance(r, dict)
            ]
        candidates.append(c)
    out["candidates"] = candidates
    usage = chunk.get("usageMetadata")
    if isinstance(usage, dict):
        out["usageMetadata"] = {
            k: usage[k]
            for k in ("promptTokenCount", "candidatesTokenCount", "totalTokenCount")
            if usage.get(k) is not None
        }
    return out


def from_llm_response(response: Any) -> dict[str, Any]:
    """A model response chunk built from a hook's ``llm_response`` (docs/contract.md §13.4).

    Raises :class:`LlmFormatError` when it is malformed (no ``candidates`` list, a candidate
    without ``content.parts``, a part that is not a string).
    """
    if not isinstance(response, dict):
        raise LlmFormatError(f"llm_response must be an object, got {type(response).__name__}")
    cands = response.get("candidates")
    if not isinstance(cands, list):
        raise LlmFormatError("llm_response.candidates must be a list")
    out_cands: list[dict[str, Any]] = []
    for i, cand in enumerate(cands):
        where = f"llm_response.candidates[{i}]"
        if not isinstance(cand, dict):
            raise LlmFormatError(f"{where} must be an object")
        content = cand.get("content")
        if not isinstance(content, dict) or not isinstance(content.get("parts"), list):
            raise LlmFormatError(f"{where}.content.parts must be a list")
        for j, p in enumerate(content["parts"]):
            if not isinstance(p, str):
                raise LlmFormatError(f"{where}.content.parts[{j}] must be a string")
        c: dict[str, Any] = {
            "content": {"role": "model", "parts": [{"text": s} for s in content["parts"]]}
        }
        for key in ("finishReason", "index", "safetyRatings"):
            if cand.get(key) is not None:
                c[key] = copy.deepcopy(cand[key])
        out_cands.append(c)
    out: dict[str, Any] = {"candidates": out_cands}
    usage = response.get("usageMetadata")
    if usage is not None:
        if not isinstance(usage, dict):
            raise LlmFormatError("llm_response.usageMetadata must be an object")
        out["usageMetadata"] = copy.deepcopy(usage)
    return out


def modified_response(response: Any) -> bool:
    """AfterModel: does ``llm_response`` count as a replacement (first candidate has parts)?
    (docs/contract.md §13.4)"""
    if not isinstance(response, dict):
        return True  # malformed: let from_llm_response report it
    cands = response.get("candidates")
    if not isinstance(cands, list) or not cands:
        return True
    first = cands[0]
    if not isinstance(first, dict):
        return True
    content = first.get("content")
    if not isinstance(content, dict) or not isinstance(content.get("parts"), list):
        return True
    return bool(content["parts"])


def synthetic_chunk(response: Any) -> dict[str, Any]:
    """BeforeModel: a hook's ``llm_response`` as the model's answer; candidates get ``STOP`` if
    unfinished."""
    chunk = from_llm_response(response)
    for cand in chunk["candidates"]:
        cand.setdefault("finishReason", "STOP")
    return chunk


# ---------------------------------------------------------------------------------------------
# tool config (§12.5)
# ---------------------------------------------------------------------------------------------
def tool_config_from_hook(tool_config: Any) -> dict[str, Any] | None:
    """SDK ``toolConfig`` for a hook's ``{mode, allowedFunctionNames}``; None means "no change".

    Raises :class:`LlmFormatError` when it is malformed.
    """
    if not isinstance(tool_config, dict):
        raise LlmFormatError(f"toolConfig must be an object, got {type(tool_config).__name__}")
    mode = tool_config.get("mode")
    names = tool_config.get("allowedFunctionNames")
    if mode is not None and mode not in TOOL_MODES:
        raise LlmFormatError(
            f"toolConfig.mode must be one of {', '.join(TOOL_MODES)}, got {mode!r}"
        )
    if names is not None and (
        not isinstance(names, list) or not all(isinstance(n, str) for n in names)
    ):
        raise LlmFormatError("toolConfig.allowedFunctionNames must be a list of strings")
    if not mode and not names:
        return None
    fcc: dict[str, Any] = {}
    if mode:
        fcc["mode"] = mode
    if names is not None:
        fcc["allowedFunctionNames"] = list(names)
    return {"functionCallingConfig": fcc}


def tool_config_to_hook(sdk_tool_config: Any) -> dict[str, Any]:
    """``{mode, allowedFunctionNames}`` from an SDK ``toolConfig`` (unused by firings, kept for
    symmetry)."""
    out: dict[str, Any] = {}
    if isinstance(sdk_tool_config, dict):
        fcc = sdk_tool_config.get("functionCallingConfig")
        if isinstance(fcc, dict):
            if fcc.get("mode") is not None:
                out["mode"] = fcc["mode"]
            if fcc.get("allowedFunctionNames") is not None:
                out["allowedFunctionNames"] = list(fcc["allowedFunctionNames"])
    return out


def function_call_allowed(sdk_tool_config: Any, name: str) -> str | None:
    """Why a function call is not allowed by the request's ``toolConfig`` (None: allowed).

    The API enforces the tool config on a real model; the agent checks it too so that a scripted
    model (which replays whatever the file says) honours BeforeToolSelection hooks.
    """
    cfg = tool_config_to_hook(sdk_tool_config)
    mode = cfg.get("mode")
    if mode == "NONE":
        return "function calling is disabled for this request (toolConfig mode NONE)"
    allowed = cfg.get("allowedFunctionNames")
    if mode in ("ANY", "AUTO", None) and allowed and name not in allowed:
        return f"{name!r} is not in the request's allowedFunctionNames ({', '.join(allowed)})"
    return None
