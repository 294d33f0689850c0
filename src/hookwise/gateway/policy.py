"""What hooks' answers do to MCP traffic (pure; no MCP SDK import).

- Tool names reach hooks as ``mcp__<server>__<tool>`` with ``mcp_context`` ``{server_name, tool_name}``
  (Claude's convention; Claude-dialect matchers such as ``mcp__github__.*`` apply as written).
- ``tools/list`` → BeforeToolSelection: a hook's ``toolConfig`` hides tools (mode ``NONE``: all;
  ``allowedFunctionNames``: every tool not named, by its hook name or its own name).
- ``tools/call`` → BeforeTool (deny, ask, rewrite) and AfterTool (block, ``additionalContext``,
  ``updatedToolOutput`` in the shape of :func:`tool_response`, :meth:`hookwise.FireResult.tool_output_for`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable

    from hookwise.result import FireResult


def hook_tool_name(server: str, tool: str) -> str:
    return f"mcp__{server}__{tool}"


def mcp_context(server: str, tool: str) -> dict[str, str]:
    return {"server_name": server, "tool_name": tool}


def tool_selection_request(server: str, tools: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """The ``llm_request`` of the BeforeToolSelection fired for a listing: the stable format, with the
    listed tools as ``tools: [{name, description}]`` (hook names)."""
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
