"""Windsurf (Cascade) hooks: ``.windsurf/hooks.json``, snake_case events (docs/agents.md; from its
docs).

Payload: ``agent_action_name`` (the event), ``trajectory_id``, ``execution_id``, ``timestamp`` and
``tool_info`` (``command_line``/``cwd``, ``file_path``/``edits``,
``mcp_server_name``/``mcp_tool_name``/ ``mcp_tool_arguments``, ``user_prompt``). There is no JSON
answer: a pre-hook blocks with exit 2, and what it prints on stderr is shown (``show_output``). A
``tool_info`` field hookwise does not know is named in a warning.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING
from hookwise.bridge.common import (
    contract_tool,
    event_name,
    messages_text,
    not_bridged_message,
    tool_response,
)
from hookwise.bridge.core import BridgeAnswer, Request
from hookwise.errors import PayloadError

if TYPE_CHECKING:
    from typing import Any

    from hookwise.bridge.agents import Agent
    from hookwise.result import FireResult

#: event suffix -> (contract tool, {tool_info field: contract parameter})
_TOOLS: dict[str, tuple[str, dict[str, str]]] = {
    "run_command": ("run_shell_command", {"command_line": "command", "cwd": "dir_path"}),
    "read_code": ("read_file", {"file_path": "file_path"}),
    "write_code": ("replace", {"file_path": "file_path", "edits": "edits"}),
}
KNOWN_INFO = frozenset(
    {
        "command_line",
        "cwd",
        "file_path",
        "edits",
        "mcp_server_name",
        "mcp_tool_name",
        "mcp_tool_arguments",
        "mcp_result",
        "user_prompt",
        "response",
        "output",
        "exit_code",
    }
)


def to_contract(agent: Agent, event: str | None, payload: dict[str, Any]) -> Request:
    name = event_name(agent, payload, event, "agent_action_name")
    raw = payload.get("tool_info")
    info: dict[str, Any] = raw if isinstance(raw, dict) else {}
    req = Request(
        agent_event=name,
        event=agent.contract_event(name),
        session_id=str(payload.get("trajectory_id") or ""),
        cwd=str(info.get("cwd") or ""),
        payload=payload,
    )
    if req.event is None:
        return req
    inp: dict[str, Any] = {"execution_id": payload.get("execution_id")}
    kind = name.split("_", 1)[1] if "_" in name else name
    if kind in _TOOLS:
        tool, fields = _TOOLS[kind]
        inp["tool_name"] = tool
        inp["tool_input"] = {p: info[f] for f, p in fields.items() if f in info}
    elif kind == "mcp_tool_use":
        server, mcp_tool = info.get("mcp_server_name"), info.get("mcp_tool_name")
        if not isinstance(mcp_tool, str):
            raise PayloadError(f"{name}: tool_info has no mcp_tool_name")
        inp["tool_name"], inp["tool_input"], _ = contract_tool(
            agent, f"mcp__{server}__{mcp_tool}", info.get("mcp_tool_arguments")
        )
        inp["mcp_context"] = {"server_name": server, "tool_name": mcp_tool}
    elif kind == "user_prompt":
        inp["prompt"] = str(info.get("user_prompt") or "")
    if req.event == "AfterTool":
        inp["tool_response"] = tool_response(info.get("output", info.get("mcp_result")))
    tname = inp.get("tool_name")
    req.agent_tool = tname if isinstance(tname, str) else None
    req.input = {k: v for k, v in inp.items() if v is not None}
    return req


def render(
    agent: Agent, req: Request, result: FireResult | None, messages: list[str]
) -> BridgeAnswer:
    info = req.payload.get("tool_info")
    unknown = sorted(k for k in info if k not in KNOWN_INFO) if isinstance(info, dict) else []
    notes = list(messages)
    if unknown:
        notes.insert(
            0, "Windsurf sent tool_info fields hookwise does not know: " + ", ".join(unknown)
        )
    if result is None:
        return BridgeAnswer(stderr=not_bridged_message(agent, req.agent_event) + "\n")
    text = messages_text(result.system_message, notes)
    pre = req.agent_event.startswith("pre_")
    if pre and req.event == "BeforeTool" and result.tool_input_changed:
        reason = f"hookwise: a hook rewrote the arguments, and {agent.product} cannot apply them"
        return BridgeAnswer(stderr=_join(reason, text), exit_code=2)
    if pre and (result.blocked or result.stopped or result.asked):
        reason = result.reason or result.stop_reason or "Blocked by a hookwise hook"
        return BridgeAnswer(stderr=_join(reason, text), exit_code=2)
    return BridgeAnswer(stderr=text + "\n" if text else "")


def _join(*parts: str) -> str:
    return "\n".join(p for p in parts if p) + "\n"


def failure(agent: Agent, req: Request, message: str, block: bool) -> BridgeAnswer:
    return BridgeAnswer(stderr=message + "\n", exit_code=2 if block else 0)
