"""Cursor's hooks (``.cursor/hooks.json``, ``version: 1``; docs/agents.md; from Cursor's
documentation).

Per-kind events: ``beforeShellExecution {command, cwd}``,
``beforeMCPExecution {tool_name, tool_input}``, ``beforeReadFile {file_path, content}``,
``afterShellExecution {command, output}``, ``afterMCPExecution``,
``afterFileEdit {file_path, edits}``, ``beforeSubmitPrompt {prompt}``,
``stop {status, loop_count}``, plus common fields (``conversation_id``, ``generation_id``,
``hook_event_name``, ``workspace_roots``). Answers: ``permission`` allow/deny/ask with
``user_message`` (the person) and ``agent_message`` (the model); ``continue`` for a prompt;
``followup_message`` to keep the agent going after ``stop``. Cursor blocks the action on an answer
that is not valid JSON, so every before-answer is explicit JSON.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING
from hookwise.bridge.common import (
    contract_tool,
    event_name,
    explicit_allow,
    messages_text,
    not_bridged_message,
    tool_response,
)
from hookwise.bridge.core import BridgeAnswer, Request
from hookwise.errors import PayloadError
from hookwise.jsonc.codec import dumps

if TYPE_CHECKING:
    from typing import Any

    from hookwise.bridge.agents import Agent
    from hookwise.result import FireResult

#: Cursor event -> (contract tool, payload field holding its main argument, contract parameter)
_TOOLS: dict[str, tuple[str, str, str]] = {
    "beforeShellExecution": ("run_shell_command", "command", "command"),
    "afterShellExecution": ("run_shell_command", "command", "command"),
    "beforeReadFile": ("read_file", "file_path", "file_path"),
    "afterFileEdit": ("replace", "file_path", "file_path"),
}
_PERMISSION_EVENTS = frozenset({"beforeShellExecution", "beforeMCPExecution", "beforeReadFile"})


def to_contract(agent: Agent, event: str | None, payload: dict[str, Any]) -> Request:
    name = event_name(agent, payload, event, "hook_event_name")
    roots = payload.get("workspace_roots")
    cwd = payload.get("cwd") or (roots[0] if isinstance(roots, list) and roots else "")
    req = Request(
        agent_event=name,
        event=agent.contract_event(name),
        session_id=str(payload.get("conversation_id") or ""),
        transcript_path=str(payload.get("transcript_path") or ""),
        cwd=str(cwd or ""),
        payload=payload,
    )
    if req.event is None:
        return req
    inp: dict[str, Any] = {"generation_id": payload.get("generation_id")}
    if req.event in ("BeforeTool", "AfterTool"):
        _tool_input(agent, name, payload, inp)
        req.agent_tool = str(inp["tool_name"])
    elif req.event == "BeforeAgent":
        inp["prompt"] = str(payload.get("prompt") or "")
    elif req.event == "AfterAgent":
        inp.update(prompt="", prompt_response="", stop_hook_active=bool(payload.get("loop_count")))
    elif req.event == "SessionStart":
        inp["source"] = "startup"
    elif req.event == "SessionEnd":
        inp["reason"] = str(payload.get("reason") or "other")
    elif req.event == "PreCompress":
        inp["trigger"] = str(payload.get("trigger") or "auto")
    req.input = {k: v for k, v in inp.items() if v is not None}
    return req


def _tool_input(agent: Agent, name: str, payload: dict[str, Any], inp: dict[str, Any]) -> None:
    if name in ("beforeMCPExecution", "afterMCPExecution"):
        tool = payload.get("tool_name")
        if not isinstance(tool, str) or not tool:
            raise PayloadError(f"{name}: the payload has no tool_name")
        inp["tool_name"], inp["tool_input"], _ = contract_tool(
            agent, tool, payload.get("tool_input")
        )
        inp["tool_name"] = tool if tool.startswith("mcp_") else f"mcp_{tool}"
        inp["mcp_context"] = {
            "tool_name": tool,
            "url": payload.get("url") or payload.get("command"),
        }
        if name == "afterMCPExecution":
            inp["tool_response"] = tool_response(payload.get("result_json"))
        return
    tool, field, param = _TOOLS[name]
    value = payload.get(field)
    if not isinstance(value, str):
        raise PayloadError(f"{name}: the payload has no {field}")
    inp["tool_name"] = tool
    inp["tool_input"] = {param: value}
    if name == "beforeReadFile" and isinstance(payload.get("content"), str):
        inp["tool_input"]["content"] = payload["content"]
    if name == "afterFileEdit":
        inp["tool_input"]["edits"] = payload.get("edits") or []
        inp["tool_response"] = tool_response("")
    if name == "afterShellExecution":
        inp["tool_response"] = tool_response(payload.get("output"))


def render(
    agent: Agent, req: Request, result: FireResult | None, messages: list[str]
) -> BridgeAnswer:
    if result is None:
        return _answer(_neutral(req.agent_event, not_bridged_message(agent, req.agent_event)))
    text = messages_text(result.system_message, messages)
    name = req.agent_event
    if name in _PERMISSION_EVENTS:
        out = _permission(agent, req, result)
    elif name == "beforeSubmitPrompt":
        out = {"continue": not (result.blocked or result.stopped)}
        if result.blocked or result.stopped:
            text = "\n".join(t for t in (result.reason or result.stop_reason, text) if t)
    elif name == "stop" and result.blocked:
        out = {"followup_message": result.reason or "Continue: a hookwise hook asked for more"}
    else:
        out = {}
    if text:
        out["user_message"] = (
            text if "user_message" not in out else out["user_message"] + "\n" + text
        )
    return _answer(out)


def _permission(agent: Agent, req: Request, result: FireResult) -> dict[str, Any]:
    if result.tool_input_changed:
        msg = f"a hook rewrote the arguments, and {agent.product} cannot apply rewritten arguments"
        return {"permission": "deny", "user_message": msg, "agent_message": msg}
    if result.blocked or result.stopped:
        reason = result.reason or result.stop_reason or "Blocked by a hookwise hook"
        return {"permission": "deny", "user_message": reason, "agent_message": reason}
    if result.asked:
        return {"permission": "ask", "user_message": result.reason or "A hookwise hook asks"}
    out: dict[str, Any] = {
        "permission": "allow"
    }  # explicit: Cursor reads a broken answer as a block
    if explicit_allow(result) and result.reason:
        out["agent_message"] = result.reason
    return out


def _neutral(event: str, message: str) -> dict[str, Any]:
    if event in _PERMISSION_EVENTS:
        return {"permission": "allow", "user_message": message}
    if event == "beforeSubmitPrompt":
        return {"continue": True, "user_message": message}
    return {"user_message": message}


def failure(agent: Agent, req: Request, message: str, block: bool) -> BridgeAnswer:
    out = _neutral(req.agent_event, message)
    if block:
        if "permission" in out:
            out["permission"] = "deny"
            out["agent_message"] = message
        if "continue" in out:
            out["continue"] = False
    return _answer(out)


def _answer(out: dict[str, Any]) -> BridgeAnswer:
    # validated: strict JSON (no NaN/Infinity), an object, one line
    return BridgeAnswer(stdout=dumps(out, ensure_ascii=False, allow_nan=False) + "\n")
