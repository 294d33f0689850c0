"""GitHub Copilot CLI's camelCase hooks (``.github/hooks/*.json``, ``version: 1``; docs/agents.md).

Its payloads do not name their event (the installed command does:
``hookwise hook copilot preToolUse``) and use camelCase fields: ``sessionId``, ``toolName``,
``toolArgs`` (an object, or a JSON text), ``toolResult {resultType, textResultForLlm}``, ``prompt``,
``transcriptPath``. Only ``preToolUse`` answers decide (``permissionDecision`` allow/deny/ask +
``permissionDecisionReason``; rewritten arguments as ``modifiedArgs``);
``agentStop``/``subagentStop`` can block with ``decision: "block"``. hookwise's warnings go to
stderr (Copilot's hook log), with exit 0.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING
from hookwise.bridge.common import (
    contract_tool,
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

_SESSION_END = {"complete": "exit", "user_exit": "exit", "abort": "other", "error": "other"}


def to_contract(agent: Agent, event: str | None, payload: dict[str, Any]) -> Request:
    if not event:
        raise PayloadError(
            "Copilot's payloads do not name their event: the command must give it "
            "(hookwise hook copilot preToolUse); reinstall with `hookwise install copilot`"
        )
    req = Request(
        agent_event=event,
        event=agent.contract_event(event),
        session_id=str(payload.get("sessionId") or ""),
        transcript_path=str(payload.get("transcriptPath") or ""),
        cwd=str(payload.get("cwd") or ""),
        payload=payload,
    )
    if event.startswith("subagent"):
        req.context = "sub-agent"
    if req.event is None:
        return req
    inp: dict[str, Any] = {}
    if req.event in ("BeforeTool", "AfterTool"):
        tool = payload.get("toolName")
        if not isinstance(tool, str) or not tool:
            raise PayloadError(f"{event}: the payload has no toolName")
        req.agent_tool = tool
        inp["tool_name"], inp["tool_input"], mcp = contract_tool(
            agent, tool, payload.get("toolArgs")
        )
        if mcp is not None:
            inp["mcp_context"] = mcp
        if req.event == "AfterTool":
            result = payload.get("toolResult")
            err = None
            if isinstance(result, dict) and result.get("resultType") not in (None, "success"):
                err = str(result.get("textResultForLlm") or result.get("resultType"))
            inp["tool_response"] = tool_response(result, err)
    elif req.event == "BeforeAgent":
        inp["prompt"] = str(payload.get("prompt") or "")
    elif req.event == "AfterAgent":
        inp.update(prompt="", prompt_response="")
        inp["stop_hook_active"] = payload.get("stop_hook_active") is True
    elif req.event == "SessionStart":
        src = str(payload.get("source") or "startup")
        inp["source"] = "startup" if src == "new" else src
        if isinstance(payload.get("initialPrompt"), str):
            inp["initial_prompt"] = payload["initialPrompt"]
    elif req.event == "SessionEnd":
        r = str(payload.get("reason") or "other")
        inp["reason"] = _SESSION_END.get(r, r)
    elif req.event == "PreCompress":
        inp["trigger"] = str(payload.get("trigger") or "auto")
    req.input = inp
    return req


def render(
    agent: Agent, req: Request, result: FireResult | None, messages: list[str]
) -> BridgeAnswer:
    if result is None:
        return BridgeAnswer(stderr=not_bridged_message(agent, req.agent_event) + "\n")
    out: dict[str, Any] = {}
    if req.event == "BeforeTool":
        _pre_tool(req, result, out)
    elif req.event == "AfterAgent" and result.blocked:
        out = {"decision": "block", "reason": result.reason or "Blocked by a hookwise hook"}
    context = result.hook_specific.get("additionalContext")
    if isinstance(context, str) and context:
        out["additionalContext"] = context
    text = messages_text(result.system_message, messages)
    return BridgeAnswer(
        stdout=dumps(out, ensure_ascii=False, allow_nan=False) + "\n" if out else "",
        stderr=text + "\n" if text else "",
    )


def _pre_tool(req: Request, result: FireResult, out: dict[str, Any]) -> None:
    if result.blocked:
        out["permissionDecision"] = "deny"
        out["permissionDecisionReason"] = result.reason or "Blocked by a hookwise hook"
        return
    if result.asked:
        out["permissionDecision"] = "ask"
    elif explicit_allow(result):
        out["permissionDecision"] = "allow"
    if result.reason and out:
        out["permissionDecisionReason"] = result.reason
    if result.tool_input_changed:
        out["modifiedArgs"] = result.tool_input_for(req.input.get("tool_input") or {})


def failure(agent: Agent, req: Request, message: str, block: bool) -> BridgeAnswer:
    if block and req.agent_event in ("preToolUse", "?"):
        out = {"permissionDecision": "deny", "permissionDecisionReason": message}
        return BridgeAnswer(stdout=dumps(out, ensure_ascii=False) + "\n", stderr=message + "\n")
    if block:
        return BridgeAnswer(stderr=message + " (blocked: --fail-closed)\n", exit_code=2)
    return BridgeAnswer(stderr=message + "\n")
