"""What hooks' answers do to MCP traffic (pure; no MCP SDK import).

- Tool names reach hooks as ``mcp__<server>__<tool>`` with ``mcp_context``
  ``{server_name, tool_name}`` (Claude's convention; Claude-dialect matchers such as
  ``mcp__github__.*`` apply as written).
- ``tools/list`` → BeforeToolSelection: a hook's ``toolConfig`` hides tools (mode ``NONE``: all;
  ``allowedFunctionNames``: every tool not named, by its hook name or its own name).
- ``tools/call`` → BeforeTool (deny, ask, rewrite) and AfterTool (block, ``additionalContext``,
  ``updatedToolOutput`` in the shape of :func:`tool_response`,
  :meth:`hookwise.FireResult.tool_output_for`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hookwise.result import hook_context_block

if TYPE_CHECKING:
    from collections.abc import Iterable

    from hookwise.result import FireResult

#: the key of the gateway's confirmation question in an ``input_required`` round
CONFIRM = "hookwise_confirm"


def safe_name(name: str) -> str:
    """A server name usable in ``mcp__<server>__<tool>`` (letters, digits, ``-`` and ``_``)."""
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name).strip("_")


def hook_tool_name(server: str, tool: str) -> str:
    return f"mcp__{server}__{tool}"


def mcp_context(server: str, tool: str) -> dict[str, str]:
    return {"server_name": server, "tool_name": tool}


def tool_selection_request(server: str, tools: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """The ``llm_request`` of the BeforeToolSelection fired for a listing: the stable format, with
    the listed tools as ``tools: [{name, description}]`` (hook names)."""
    return {
        "model": f"mcp:{server}",
        "messages": [],
        "config": {},
        "tools": [{"name": hook_tool_name(server, n), "description": d} for n, d in tools],
    }


def hidden_tools(server: str, names: Iterable[str], result: FireResult) -> set[str]:
    """The tools (their own names) that the hooks' merged ``toolConfig`` does not allow."""
    cfg = result.tool_config
    names = list(names)
    if cfg is None:
        return set()
    if cfg.get("mode") == "NONE":
        return set(names)
    allowed = cfg.get("allowedFunctionNames")
    if not isinstance(allowed, list):
        return set()
    ok = {a for a in allowed if isinstance(a, str)}
    return {n for n in names if n not in ok and hook_tool_name(server, n) not in ok}


def tool_response(texts: list[str], is_error: bool) -> dict[str, Any]:
    """The AfterTool ``tool_response`` of an MCP result (its text contents joined)."""
    text = "\n".join(texts)
    return {"llmContent": text, "returnDisplay": text, "error": text if is_error else None}


def text_result(message: str, *, error: bool = True) -> dict[str, Any]:
    """A ``tools/call`` result (wire form) holding one text."""
    return {"content": [{"type": "text", "text": message}], "isError": error}


def after_result(
    result: dict[str, Any], after: FireResult, response: dict[str, Any]
) -> dict[str, Any] | None:
    """The ``tools/call`` result (wire form) the AfterTool hooks' answer makes of ``result``, or
    None when it stays as it is: stop/block replace it by the reason, ``updatedToolOutput`` by its
    ``llmContent``, ``additionalContext`` is appended as one more text."""
    if after.stopped:
        return text_result(f"stopped by a hook: {after.effective_reason}")
    if after.blocked:
        return text_result(after.reason or "the tool's result was withheld by a hook")
    new = after.tool_output_for(response)  # a hook's updatedToolOutput, in the response's shape
    out: dict[str, Any] | None = None
    if new is not None:
        text = new.get("llmContent")
        out = text_result(
            text if isinstance(text, str) else str(text), error=bool(new.get("error"))
        )
    if after.additional_context:
        base = out if out is not None else result
        content = base.get("content")
        block = hook_context_block(after.hook_specific["additionalContext"])
        extra = {"type": "text", "text": block}
        out = dict(base, content=[*(content if isinstance(content, list) else []), extra])
    return out
