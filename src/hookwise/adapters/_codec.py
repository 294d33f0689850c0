"""Framework messages <-> the google-genai-shaped dicts that :mod:`hookwise.host.llm_format` speaks.

Every adapter translates its framework's request into a list of :class:`Entry` (role + text, or no
text for tool calls/results), builds a request dict with :func:`request_dict`, lets the verdict
helpers apply a hook's ``llm_request`` to it, then reads the result back with :func:`edited_entries`
and :func:`config_changes`. The positional message merge of the contract (docs/contract.md §13.2)
keeps every original entry in place, so entry ``i`` of the result always stands for the framework's
message ``i`` (its text possibly replaced) and entries past the end are new messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hookwise.host import llm_format as fmt

GENERATION_KEYS = fmt.GENERATION_KEYS
#: a part with no text: stands for a tool call or a tool result (hooks do not see it, merges keep
#: it)
_OPAQUE = {"functionResponse": {"name": "", "response": {}}}


@dataclass(frozen=True)
class Entry:
    """One framework message as hooks see it: ``role`` is ``user``/``model``; ``text`` None = no
    text."""

    role: str
    text: str | None


@dataclass(frozen=True)
class Edited:
    """One message after a BeforeModel rewrite: ``source`` is the original index (None: a new
    message)."""

    source: int | None
    role: str
    text: str | None
    changed: bool


def request_dict(
    model: str, entries: list[Entry], config: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A google-genai-shaped request for ``entries`` (``config``: stable generation keys set on the
    request)."""
    contents = []
    for e in entries:
        parts: list[dict[str, Any]] = [{"text": e.text}] if e.text else [dict(_OPAQUE)]
        contents.append({"role": e.role, "parts": parts})
    cfg = {k: v for k, v in (config or {}).items() if k in GENERATION_KEYS and v is not None}
    return {"model": model, "contents": contents, "config": cfg}


def llm_request(
    model: str, entries: list[Entry], config: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The ``llm_request`` hooks receive (stable format, docs/contract.md §12)."""
    return fmt.to_llm_request(request_dict(model, entries, config))


def _text(entry: dict[str, Any]) -> str | None:
    parts = entry.get("parts") if isinstance(entry, dict) else None
    if not isinstance(parts, list):
        return None
    text = "".join(
        p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)
    )
    return text or None


def edited_entries(original: dict[str, Any], rewritten: dict[str, Any]) -> list[Edited]:
    """The framework messages after a rewrite, in order (see the module docstring)."""
    before = fmt.request_contents(original)
    after = fmt.request_contents(rewritten)
    out: list[Edited] = []
    for i, entry in enumerate(after):
        role = entry.get("role") if isinstance(entry, dict) else "user"
        role = role if role in ("user", "model", "system") else "user"
        text = _text(entry) if isinstance(entry, dict) else str(entry)
        if i < len(before):
            old = before[i]
            changed = text != _text(old) or role != old.get("role")
            out.append(Edited(i, role, text, changed))
        else:
            out.append(Edited(None, role, text, True))
    return out


def config_changes(original: dict[str, Any], rewritten: dict[str, Any]) -> dict[str, Any]:
    """Generation keys a rewrite changed: ``{key: new value}`` (None = removed)."""
    a = original.get("config") or {}
    b = rewritten.get("config") or {}
    return {k: b.get(k) for k in GENERATION_KEYS if a.get(k) != b.get(k)}


def settings_after(
    settings: Mapping[str, Any],
    names: Mapping[str, str],
    original: dict[str, Any],
    rewritten: dict[str, Any],
) -> dict[str, Any]:
    """A framework's model-settings dict after a rewrite: every generation key the rewrite changed
    set under its framework name ``names[key]``, or removed when the rewrite removed it."""
    out = dict(settings)
    for key, value in config_changes(original, rewritten).items():
        if value is None:
            out.pop(names[key], None)
        else:
            out[names[key]] = value
    return out


def model_changed(original: dict[str, Any], rewritten: dict[str, Any]) -> str | None:
    m = rewritten.get("model")
    return m if isinstance(m, str) and m and m != original.get("model") else None


def response_chunk(
    text: str,
    calls: list[tuple[str, dict[str, Any]]] | None = None,
    *,
    finish_reason: str | None = "STOP",
    usage: dict[str, int] | None = None,
) -> dict[str, Any]:
    """A google-genai-shaped response chunk: ``text`` then one ``functionCall`` part per call."""
    parts: list[dict[str, Any]] = [{"text": text}] if text else []
    parts += [{"functionCall": {"name": n, "args": a}} for n, a in (calls or [])]
    cand: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
    if finish_reason:
        cand["finishReason"] = finish_reason
    chunk: dict[str, Any] = {"candidates": [cand]}
    if usage:
        chunk["usageMetadata"] = dict(usage)
    return chunk


def parts_text(parts: list[dict[str, Any]]) -> str:
    """The answer text of response parts (thoughts excluded)."""
    return "".join(
        p["text"] for p in parts if isinstance(p.get("text"), str) and not p.get("thought")
    )


def usage(prompt: int | None, candidates: int | None) -> dict[str, int] | None:
    """``usageMetadata`` from token counts (None when the framework reports none)."""
    if prompt is None and candidates is None:
        return None
    p, c = prompt or 0, candidates or 0
    return {"promptTokenCount": p, "candidatesTokenCount": c, "totalTokenCount": p + c}
