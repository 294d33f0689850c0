"""What each agent sends ``hookwise serve`` and what it wants back: one row per agent
(:data:`AGENTS`).

A dialect turns the request body (the JSON the agent's hook would get on stdin) into a
:class:`Request` (the contract's event and fields, and the ``cwd`` that names the project), and
a :class:`~hookwise.result.FireResult` into the JSON answer the agent reads (what a command hook
of that agent prints on stdout). Pure: no I/O.

- ``claude``: Claude Code's ``type: "http"`` hook body (``hook_event_name: PreToolUse``, ``Bash``,
  Claude's parameter names) → the contract's event, tool and parameter names; the answer is
  Claude's (``hookSpecificOutput.permissionDecision``, ``updatedInput``, ``decision: block``...),
  made by the bridge's Claude dialect (:func:`hookwise.bridge.claude.answer_object`) with one
  difference: a rewrite no hook allowed answers ``ask``.
- ``gemini``: the contract itself (Gemini CLI's stdin and answer), e.g. from a one-line ``curl``
  command hook.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from hookwise.bridge.agents import AGENTS as BRIDGED
from hookwise.bridge.claude import answer_object as claude_answer
from hookwise.bridge.core import Request as BridgeRequest
from hookwise.claude.names import (
    CLAUDE_TO_GEMINI_EVENT,
    CLAUDE_TO_GEMINI_TOOL,
    GEMINI_LIFECYCLE_TO_CLAUDE,
    params_to_gemini,
)
from hookwise.events import HookEvent

if TYPE_CHECKING:
    from hookwise.result import FireResult


@dataclass
class Request:
    """One hook request, read by a dialect: the firing to make, or why there is none."""

    event: str | None  #: the contract's event name; None: the agent's event has no equivalent
    payload: dict[str, Any]  #: the firing's input fields (contract names)
    cwd: str | None  #: the directory that names the project
    #: what the agent calls the event (``PreToolUse``); for its answer
    agent_event: str = ""
    #: the tool's arguments as the agent sent them (for a rewrite in the agent's own names)
    agent_tool_input: dict[str, Any] = field(default_factory=dict)
    #: the request body as received (the agent's own tool name and ``tool_response``)
    body: dict[str, Any] = field(default_factory=dict)


class Dialect(Protocol):
    """One agent's wire format (a row of :data:`AGENTS`)."""

    name: str

    def read(self, body: dict[str, Any]) -> Request: ...

    def answer(self, result: FireResult, req: Request) -> dict[str, Any]: ...

    def notice(self, req: Request, message: str, *, block: bool) -> dict[str, Any]:
        """The answer when no hook ran (unknown project, no equivalent event, timeout): ``message``
        shown, and the action blocked when ``block``."""
        ...


def _messages(result: FireResult) -> str | None:
    parts = [m for m in (result.system_message, *result.warnings) if m]
    return "\n".join(parts) if parts else None


# --------------------------------------------------------------------------- gemini (the contract)


class GeminiDialect:
    """The contract's own stdin and answer (docs/contract.md): the merged output, warnings
    visible."""

    name = "gemini"

    def read(self, body: dict[str, Any]) -> Request:
        event = body.get("hook_event_name")
        cwd = body.get("cwd")
        payload = {k: v for k, v in body.items() if k != "hook_event_name"}
        return Request(
            event if isinstance(event, str) and event in _EVENT_NAMES else None,
            payload,
            cwd if isinstance(cwd, str) else None,
            str(event),
        )

    def answer(self, result: FireResult, req: Request) -> dict[str, Any]:
        out = dict(result.output)
        msg = _messages(result)
        if msg:
            out["systemMessage"] = msg
        return out

    def notice(self, req: Request, message: str, *, block: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"systemMessage": message}
        if block:
            out["decision"] = "deny"
            out["reason"] = message
        return out


_EVENT_NAMES = frozenset(e.value for e in HookEvent)


# --------------------------------------------------------------------------- claude

#: Claude lifecycle value -> the contract's (where they differ)
_CLAUDE_LIFECYCLE_IN: dict[str, dict[str, str]] = {
    ev: {c: g for g, c in table.items()} for ev, table in GEMINI_LIFECYCLE_TO_CLAUDE.items()
}
_LIFECYCLE_FIELD = {
    "SessionStart": "source",
    "SessionEnd": "reason",
    "PreCompact": "trigger",
    "Notification": "notification_type",
}


def _claude_tool(name: str) -> tuple[str, dict[str, Any] | None]:
    """Claude's tool name → the contract's, and the ``mcp_context`` of an MCP tool."""
    if name.startswith("mcp__"):
        server, _, tool = name[5:].partition("__")
        return f"mcp_{server}_{tool}", {"server_name": server, "tool_name": tool}
    mapped = CLAUDE_TO_GEMINI_TOOL.get(name)
    return (mapped or name), None


def _claude_response(body: dict[str, Any]) -> dict[str, Any]:
    resp = body.get("tool_response")
    if isinstance(resp, dict) and "llmContent" in resp:
        return resp
    from hookwise.jsonc.codec import dumps

    text = resp if isinstance(resp, str) else dumps(resp)
    err = body.get("error")
    return {"llmContent": text, "returnDisplay": text, "error": err if err else None}


class ClaudeDialect:
    """Claude Code's hook body and answer (its hooks reference; docs/fleet.md)."""

    name = "claude"

    def read(self, body: dict[str, Any]) -> Request:
        cev = body.get("hook_event_name")
        cwd = body.get("cwd")
        req = Request(
            CLAUDE_TO_GEMINI_EVENT.get(cev) if isinstance(cev, str) else None,
            {},
            cwd if isinstance(cwd, str) else None,
            cev if isinstance(cev, str) else "",
            body=body,
        )
        p = req.payload
        for key in ("session_id", "transcript_path", "cwd"):
            if isinstance(body.get(key), str):
                p[key] = body[key]
        if req.event in ("BeforeTool", "AfterTool"):
            self._read_tool(body, req)
        elif req.event == "BeforeAgent":
            p["prompt"] = str(body.get("prompt") or "")
        elif req.event == "AfterAgent":
            p["prompt"] = str(body.get("prompt") or "")
            p["prompt_response"] = str(body.get("last_assistant_message") or "")
            p["stop_hook_active"] = bool(body.get("stop_hook_active"))
        elif req.agent_event in _LIFECYCLE_FIELD:
            key = _LIFECYCLE_FIELD[req.agent_event]
            value = str(body.get(key) or "")
            p[key] = _CLAUDE_LIFECYCLE_IN.get(str(req.event), {}).get(value, value)
            if req.agent_event == "Notification":
                p["message"] = str(body.get("message") or "")
        return req

    @staticmethod
    def _read_tool(body: dict[str, Any], req: Request) -> None:
        name = body.get("tool_name")
        tool, mcp = _claude_tool(name if isinstance(name, str) else "")
        ti = body.get("tool_input")
        req.agent_tool_input = dict(ti) if isinstance(ti, dict) else {}
        req.payload["tool_name"] = tool
        req.payload["tool_input"] = params_to_gemini(tool, req.agent_tool_input, None)
        if mcp is not None:
            req.payload["mcp_context"] = mcp
        if req.event == "AfterTool":
            req.payload["tool_response"] = _claude_response(body)

    def answer(self, result: FireResult, req: Request) -> dict[str, Any]:
        """The bridge's Claude answer (one code path, :func:`hookwise.bridge.claude.answer_object`),
        with a rewrite no hook allowed answered ``ask``."""
        tool = req.body.get("tool_name")
        bridged = BridgeRequest(
            agent_event=req.agent_event,
            event=req.event,
            input=req.payload,
            agent_tool=tool if isinstance(tool, str) else None,
            payload=req.body,
        )
        return claude_answer(
            BRIDGED["claude"], bridged, result, list(result.warnings), rewrite_asks=True
        )

    def notice(self, req: Request, message: str, *, block: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"systemMessage": message}
        if not block:
            return out
        if req.event == "BeforeTool":
            out["hookSpecificOutput"] = {
                "hookEventName": req.agent_event,
                "permissionDecision": "deny",
                "permissionDecisionReason": message,
            }
        elif req.agent_event in ("PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"):
            out["decision"] = "block"
            out["reason"] = message
        else:
            out["continue"] = False
            out["stopReason"] = message
        return out


#: agent -> its dialect; the agents the bridge adds are served by :mod:`hookwise.serve.app` beside
#: these
AGENTS: dict[str, Dialect] = {"claude": ClaudeDialect(), "gemini": GeminiDialect()}
