"""The one check every hook answer passes before it counts (docs/contract.md §6; docs/hook-types.md).

A hook's answer comes from outside: a command's stdout, an http body, a Python
function's return value, a dialect's translation of any of them. Whatever it
holds, it must not take the host down: ``{"decision": []}`` once raised
``TypeError`` out of ``HookSystem.fire()``, and a lone surrogate in ``reason``
made ``hookwise fire`` crash instead of printing the deny. So every outcome is
built through :func:`check_answer` (called by :func:`hookwise.core.outcome.finish`):

* each field the merge reads has one expected JSON type (:data:`FIELDS`,
  :data:`SPECIFIC_FIELDS`, :data:`TOOL_CONFIG_FIELDS`); ``null`` means absent;
  any other type makes the answer malformed: outcome ``failed``, one warning
  naming the field, and ``failClosed`` blocks;
* every string, key or value, at any depth, has lone surrogates replaced by
  U+FFFD, so the answer (a deny included) can always be printed and encoded;
* values that are not JSON (a Python hook returning a set or NaN) never get
  here: :func:`hookwise.core.interpret.interpret_python` refuses them first.

Unknown fields are kept as they are (hosts and dialects may read them).
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING
from hookwise.jsonc.codec import compact_text

if TYPE_CHECKING:  # typing (and the re and enum it imports) is not loaded when firing
    from typing import Any

#: top-level answer fields and the JSON type each must have (None = absent)
FIELDS: dict[str, type] = {
    "decision": str,
    "continue": bool,
    "reason": str,
    "stopReason": str,
    "systemMessage": str,
    "suppressOutput": bool,
    "hookSpecificOutput": dict,
}
#: fields of ``hookSpecificOutput`` that the merge reads
SPECIFIC_FIELDS: dict[str, type] = {
    "additionalContext": str,
    "clearContext": bool,
    "tool_input": dict,
    "toolConfig": dict,
    "llm_request": dict,
    "llm_response": dict,
    "hookEventName": str,
}
#: fields of ``hookSpecificOutput.toolConfig``
TOOL_CONFIG_FIELDS: dict[str, type] = {"mode": str, "allowedFunctionNames": list}

_JSON_NAMES = {str: "a string", bool: "true or false", dict: "an object", list: "an array"}


def json_kind(value: Any) -> str:
    """The JSON name of ``value``'s type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _type_error(obj: dict[str, Any], table: dict[str, type], where: str) -> str | None:
    if len(obj) < len(
        table
    ):  # a short answer (the usual one): its own fields looked up, no error found
        for key, value in obj.items():
            want = table.get(key)
            if want is not None and value is not None and not isinstance(value, want):
                break
        else:
            return None
    for key, want in table.items():  # the first wrong field in the table's order is the one named
        value = obj.get(key)
        if value is None or isinstance(value, want):
            continue
        return f"answer field `{where}{key}` must be {_JSON_NAMES[want]}, got {json_kind(value)}"
    return None


def answer_error(output: dict[str, Any]) -> str | None:
    """Why ``output`` is not a well-formed answer (the first wrongly typed field), or None."""
    err = _type_error(output, FIELDS, "")
    if err is not None:
        return err
    hso = output.get("hookSpecificOutput")
    if not isinstance(hso, dict):
        return None
    err = _type_error(hso, SPECIFIC_FIELDS, "hookSpecificOutput.")
    if err is not None:
        return err
    config = hso.get("toolConfig")
    if isinstance(config, dict):
        err = _type_error(config, TOOL_CONFIG_FIELDS, "hookSpecificOutput.toolConfig.")
        names = config.get("allowedFunctionNames")
        if err is None and isinstance(names, list) and not all(isinstance(n, str) for n in names):
            err = "answer field `hookSpecificOutput.toolConfig.allowedFunctionNames` must hold strings"
    return err


def _clean_text(s: str) -> str:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (JSON "\ud800", or a Python hook's str)
        return "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in s)
    return s


def clean(value: Any, depth: int = 0) -> Any:
    """``value`` with lone surrogates in every string (keys too) replaced by U+FFFD; shared when clean."""
    if isinstance(value, str):
        return _clean_text(value)
    if depth > 200:
        return value
    if isinstance(value, dict):
        out = {
            _clean_text(k) if isinstance(k, str) else k: clean(v, depth + 1)
            for k, v in value.items()
        }
        return value if _same(out, value) else out
    if isinstance(value, list):
        items = [clean(v, depth + 1) for v in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    return value


def _same(out: dict[Any, Any], value: dict[Any, Any]) -> bool:
    if list(out) != list(value):
        return False
    return all(out[k] is value[k] for k in out)


def check_answer(
    output: dict[str, Any] | None, encodable: bool = False
) -> tuple[dict[str, Any] | None, str | None]:
    """``(answer, error)``: the answer with its text made encodable, or ``(None, why)`` when malformed.

    ``encodable``: the caller already knows every string of ``output`` encodes (nothing to replace)."""
    if output is None:
        return None, None
    if not isinstance(output, dict):
        return None, f"its answer must be a JSON object, got {json_kind(output)}"
    err = answer_error(output)
    if err is not None:
        return None, err + "; the answer was ignored"
    return (output if encodable or _encodable(output) else clean(output)), None


def _encodable(value: dict[str, Any]) -> bool:
    """Every string of ``value`` (keys too) encodes as UTF-8, so :func:`clean` would return it as is: one
    pass of the C encoder instead of a Python walk (False also when it cannot tell: :func:`clean` decides)."""
    try:
        text = compact_text(value)
    except (TypeError, ValueError, RecursionError):
        return False
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
