"""The Gemini CLI dialect (Gemini CLI, Tabnine CLI, TerminaI): the contract itself
(docs/contract.md).

The agent's stdin is already a contract input and its answer is the merged contract answer; what the
bridge adds is what those products lack (trust keyed on content, ``failClosed``, Claude-format
hooks, hook packages, telemetry, the trace). Hooks of the agent's own settings files are left to the
agent.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING
from hookwise.bridge.common import event_name, messages_text, not_bridged_message
from hookwise.bridge.core import BridgeAnswer, Request
from hookwise.jsonc.codec import dumps

if TYPE_CHECKING:
    from typing import Any

    from hookwise.bridge.agents import Agent
    from hookwise.result import FireResult


def to_contract(agent: Agent, event: str | None, payload: dict[str, Any]) -> Request:
    name = event_name(agent, payload, event, "hook_event_name")
    req = Request(
        agent_event=name,
        event=agent.contract_event(name),
        session_id=str(payload.get("session_id") or ""),
        transcript_path=str(payload.get("transcript_path") or ""),
        cwd=str(payload.get("cwd") or ""),
        payload=payload,
    )
    req.input = {k: v for k, v in payload.items() if k != "hook_event_name"}
    if isinstance(payload.get("tool_name"), str):
        req.agent_tool = payload["tool_name"]
    return req


def render(
    agent: Agent, req: Request, result: FireResult | None, messages: list[str]
) -> BridgeAnswer:
    if result is None:
        return _answer({"systemMessage": not_bridged_message(agent, req.agent_event)})
    out = dict(result.output)
    text = messages_text(result.system_message, messages)
    if text:
        out["systemMessage"] = text
    if not out.get("suppressOutput"):
        out.pop("suppressOutput", None)
    if out.get("continue") is True:
        del out["continue"]
    return _answer(out)


def failure(agent: Agent, req: Request, message: str, block: bool) -> BridgeAnswer:
    if block:
        return BridgeAnswer(stderr=message + " (blocked: --fail-closed)\n", exit_code=2)
    return _answer({"systemMessage": message})


def _answer(out: dict[str, Any]) -> BridgeAnswer:
    return BridgeAnswer(
        stdout=dumps(out, ensure_ascii=False, allow_nan=False) + "\n" if out else ""
    )
