"""Antigravity CLI (``agy``): hooks in ``.agents/hooks.json`` and ``~/.gemini/config/hooks.json``
(docs/agents.md).

Every fact here is *reported* by integrators, not taken from a vendor reference or a run: named hook
groups, camelCase payloads (``hookEventName``, ``conversationId``, ``transcriptPath``,
``toolCall {name, args}``), answers ``decision`` allow/deny/ask/force_ask + ``reason``,
``injectSteps`` for context, and ``{}`` (or bad output) read as a deny. So the bridge always answers
with an explicit decision, and a payload field it does not know is named in a warning (a wrong guess
fails loudly).
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
from hookwise.jsonc.codec import dumps

if TYPE_CHECKING:
    from typing import Any

    from hookwise.bridge.agents import Agent
    from hookwise.result import FireResult

#: the payload fields hookwise knows; others are named in a warning
KNOWN_FIELDS = frozenset(
    {
        "hookEventName",
        "conversationId",
        "transcriptPath",
        "cwd",
        "workspaceRoots",
        "timestamp",
        "toolCall",
        "toolResult",
        "prompt",
        "response",
    }
)


def to_contract(agent: Agent, event: str | None, payload: dict[str, Any]) -> Request:
    name = event_name(agent, payload, event, "hookEventName")
    roots = payload.get("workspaceRoots")
    cwd = payload.get("cwd") or (roots[0] if isinstance(roots, list) and roots else "")
    req = Request(
        agent_event=name,
        event=agent.contract_event(name),
        session_id=str(payload.get("conversationId") or ""),
        transcript_path=str(payload.get("transcriptPath") or ""),
        cwd=str(cwd or ""),
        payload=payload,
    )
    if req.event is None:
        return req
    inp: dict[str, Any] = {}
    if req.event in ("BeforeTool", "AfterTool"):
        call = payload.get("toolCall")
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            raise PayloadError(f"{name}: the payload has no toolCall.name")
        req.agent_tool = call["name"]
        inp["tool_name"], inp["tool_input"], mcp = contract_tool(
            agent, call["name"], call.get("args")
        )
        if mcp is not None:
            inp["mcp_context"] = mcp
        if req.event == "AfterTool":
            inp["tool_response"] = tool_response(payload.get("toolResult"))
    elif req.event == "BeforeAgent":
        inp["prompt"] = str(payload.get("prompt") or "")
    elif req.event == "AfterAgent":
        inp.update(prompt="", prompt_response=str(payload.get("response") or ""))
        inp["stop_hook_active"] = False
    req.input = inp
    return req


def _unknown_fields(req: Request) -> list[str]:
    unknown = sorted(k for k in req.payload if k not in KNOWN_FIELDS)
    if not unknown:
        return []
    return [
        "agy sent payload fields hookwise does not know: "
        + ", ".join(unknown)
        + " (docs/agents.md: agy's format is reported, not documented; please report)"
    ]


def render(
    agent: Agent, req: Request, result: FireResult | None, messages: list[str]
) -> BridgeAnswer:
    notes = [*_unknown_fields(req), *messages]
    if result is None:
        return _answer({"decision": "allow"}, not_bridged_message(agent, req.agent_event))
    if result.tool_input_changed and req.event == "BeforeTool":
        reason = (
            f"a hook rewrote the arguments, and {agent.product} cannot apply rewritten arguments"
        )
        out: dict[str, Any] = {"decision": "deny", "reason": reason}
    elif result.blocked or result.stopped:
        reason = result.reason or result.stop_reason or "Blocked by a hookwise hook"
        out = {"decision": "block" if req.event == "AfterAgent" else "deny", "reason": reason}
    elif result.asked:
        out = {"decision": "ask", "reason": result.reason or "A hookwise hook asks"}
    else:
        out = {"decision": "allow"}  # explicit: agy reads {} as a deny
    context = result.hook_specific.get("additionalContext")
    if isinstance(context, str) and context and req.event == "BeforeAgent":
        out["injectSteps"] = [{"type": "text", "text": context}]
    return _answer(out, messages_text(result.system_message, notes))


def failure(agent: Agent, req: Request, message: str, block: bool) -> BridgeAnswer:
    if block:
        return _answer({"decision": "deny", "reason": message}, message)
    return _answer({"decision": "allow"}, message)


def _answer(out: dict[str, Any], message: str = "") -> BridgeAnswer:
    return BridgeAnswer(
        stdout=dumps(out, ensure_ascii=False, allow_nan=False) + "\n",
        stderr=message + "\n" if message else "",
    )
