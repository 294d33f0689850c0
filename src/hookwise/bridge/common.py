"""Pieces every agent dialect shares: tool names, tool results, warnings as one message."""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from hookwise.bridge.agents import Agent
    from hookwise.result import FireResult


#: the contract tools whose parameters Claude Code names differently
#: (hookwise.claude.names.PARAMS_TO_GEMINI; a test keeps the two alike)
RENAMED_PARAMS_TOOLS = frozenset(
    {
        "read_file",
        "write_file",
        "replace",
        "glob",
        "grep_search",
        "search_file_content",
        "list_directory",
    }
)


def contract_tool(
    agent: Agent, tool: str, args: Any
) -> tuple[str, dict[str, Any], dict[str, Any] | None]:
    """The contract's ``(tool_name, tool_input, mcp_context)`` for an agent's tool call.

    Names come from the agent's row (``Bash`` -> ``run_shell_command``); Claude-style MCP names
    ``mcp__server__tool`` become ``mcp_server_tool`` with an ``mcp_context``; other names stay.
    Claude's parameter names are renamed to the contract's where they differ. A shell command given
    as an argv list (Codex's ``shell``) becomes one command line.
    """
    name = dict(agent.tools).get(tool, tool)
    mcp = None
    if name.startswith("mcp__") and name.count("__") >= 2:
        server, _, rest = name[5:].partition("__")
        mcp = {"server_name": server, "tool_name": rest}
        name = f"mcp_{server}_{rest}"
    if isinstance(args, str):  # a JSON text (Copilot, Cursor's MCP calls)
        args = _json_object(args)
    inp: dict[str, Any] = dict(args) if isinstance(args, dict) else {}
    if name == "run_shell_command" and isinstance(inp.get("command"), list):
        import shlex

        inp["command"] = shlex.join(str(w) for w in inp["command"])
    if agent.claude_params and name in RENAMED_PARAMS_TOOLS:
        from hookwise.claude.names import (
            params_to_gemini,
        )  # imports re: only when a rename can apply

        inp = params_to_gemini(name, inp, None)
    return name, inp, mcp


def _json_object(text: str) -> dict[str, Any]:
    from hookwise.jsonc.codec import loads

    try:
        v = loads(text)
    except ValueError:
        return {"input": text}
    return v if isinstance(v, dict) else {"input": v}


def tool_response(resp: Any, error: Any = None) -> dict[str, Any]:
    """The contract's ``tool_response`` (``llmContent``, ``returnDisplay``, ``error``) for an
    agent's tool result; the agent's own fields are kept beside them (Claude's
    ``stdout``/``stderr``...)."""
    if isinstance(resp, dict):
        out = dict(resp)
        out.setdefault("llmContent", _text_of(resp))
        out.setdefault("returnDisplay", "")
    elif isinstance(resp, str):
        out = {"llmContent": resp, "returnDisplay": ""}
    elif resp is None:
        out = {"llmContent": "", "returnDisplay": ""}
    else:
        from hookwise.jsonc.codec import dumps

        out = {"llmContent": dumps(resp), "returnDisplay": ""}
    if error is not None and error != "":
        out["error"] = error if isinstance(error, (str, dict)) else str(error)
    return out


def _text_of(resp: dict[str, Any]) -> str:
    if isinstance(resp.get("stdout"), str):
        err = resp.get("stderr")
        return str(resp["stdout"]) + (f"\n{err}" if isinstance(err, str) and err else "")
    for key in ("output", "content", "text", "result", "textResultForLlm"):
        if isinstance(resp.get(key), str):
            return str(resp[key])
    from hookwise.jsonc.codec import dumps

    return str(dumps(resp, ensure_ascii=False))


def explicit_allow(result: FireResult) -> bool:
    """A hook said ``allow`` (merging alone says ``allow`` whenever no hook objected)."""
    return any(
        h.output is not None and h.output.get("decision") in ("allow", "approve")
        for h in result.hooks
    )


def messages_text(system_message: str | None, warnings: list[str]) -> str:
    """One text for the agent's message channel: the hooks' ``systemMessage`` and hookwise's
    warnings."""
    parts = [system_message] if system_message else []
    parts.extend(f"hookwise: {w}" for w in warnings)
    return "\n".join(parts)


def not_bridged_message(agent: Agent, agent_event: str) -> str:
    if agent.knows(agent_event):
        return (
            f"hookwise: {agent.product} event {agent_event} is not bridged (docs/agents.md); "
            "no hook ran"
        )
    return (
        f"hookwise: unknown {agent.product} event {agent_event!r}; no hook ran (hookwise knows: "
        + ", ".join(agent.bridged_events)
        + ")"
    )


def event_name(agent: Agent, payload: dict[str, Any], event: str | None, *keys: str) -> str:
    """The agent's name for the event: the first of ``keys`` the payload sets, else the one the
    installed command gave (``hookwise hook AGENT EVENT``); :class:`~hookwise.errors.PayloadError`
    when neither does."""
    for key in keys:
        name = payload.get(key)
        if name:
            break
    else:
        name = event
    if not isinstance(name, str) or not name:
        from hookwise.errors import PayloadError

        raise PayloadError(
            f"the payload does not name its event ({keys[0]}); give it on the command line: "
            f"hookwise hook {agent.name} EVENT"
        )
    return name
