"""The Claude Code dialect of agent hooks: Claude Code, Codex CLI, Qwen Code, Copilot (PascalCase),
Goose, Continue (docs/agents.md).

Stdin: ``hook_event_name`` (Goose: ``event``), ``tool_name``/``tool_input``/``tool_response``,
``session_id``, ``transcript_path``, ``cwd`` and Claude's other fields, which are kept in the
firing's input so that Claude-dialect hooks receive them. Answers:
``hookSpecificOutput.permissionDecision`` (PreToolUse), ``decision: "block"`` + ``reason`` (the
other events that can block), ``hookSpecificOutput.additionalContext``, ``updatedInput``,
``continue``/``stopReason``, and ``systemMessage`` for every warning (never silent).
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

#: fields a contract input builds itself from the agent's (the rest of the payload is carried as is)
_CONSUMED = frozenset(
    {"hook_event_name", "event", "tool_name", "tool_input", "tool_response", "error"}
)

#: what each agent cannot take in a PreToolUse answer (docs/agents.md). Codex 0.171 and Qwen Code
#: 0.15 run the original arguments when a hook answers ``updatedInput`` (seen with the real CLIs,
#: tests/bridge/test_real_agents.py), so a rewrite is a deny there; Codex 0.171 also reports a hook
#: that answers ``ask`` or ``allow`` as failed and runs the call, so ``ask`` is a deny and ``allow``
#: is not sent
_UNSUPPORTED: dict[str, frozenset[str]] = {
    "codex": frozenset({"allow", "ask", "rewrite"}),
    "qwen": frozenset({"rewrite"}),
}

#: agents that read ``additionalContext`` at the top level of the answer, not in
#: ``hookSpecificOutput`` (Copilot's PascalCase mode, seen with the real CLI: the nested one does
#: not reach the model)
_TOP_LEVEL_CONTEXT = frozenset({"copilot-pascal"})

#: Claude events whose ``hookSpecificOutput.additionalContext`` reaches the model
_CONTEXT_EVENTS = frozenset(
    {"PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "SessionStart"}
)

#: contract events whose block is a top-level ``decision: "block"`` in Claude's dialect
_BLOCK_EVENTS = frozenset({"AfterTool", "BeforeAgent", "AfterAgent", "PreCompress"})

_SESSION_END = {"prompt_input_exit": "exit"}
_NOTIFICATION = {"permission_prompt": "ToolPermission"}


def to_contract(agent: Agent, event: str | None, payload: dict[str, Any]) -> Request:
    name = event_name(agent, payload, event, "hook_event_name", "event")
    req = Request(
        agent_event=name,
        event=agent.contract_event(name),
        session_id=_str(payload.get("session_id")),
        transcript_path=_str(payload.get("transcript_path")),
        cwd=_str(payload.get("cwd")),
        payload=payload,
    )
    if payload.get("agent_id") or payload.get("agent_type") or name.startswith("Subagent"):
        req.context = "sub-agent"
    if req.event is None:
        return req
    inp = {k: v for k, v in payload.items() if k not in _CONSUMED}
    _EVENT_INPUT.get(req.event, _nothing)(agent, req, payload, inp)
    req.input = inp
    return req


def _str(v: Any) -> str:
    return v if isinstance(v, str) else ""


def _nothing(agent: Agent, req: Request, payload: dict[str, Any], inp: dict[str, Any]) -> None:
    return None


def _tool(agent: Agent, req: Request, payload: dict[str, Any], inp: dict[str, Any]) -> None:
    tool = payload.get("tool_name")
    if not isinstance(tool, str) or not tool:
        raise PayloadError(f"{req.agent_event}: the payload has no tool_name")
    req.agent_tool = tool
    name, args, mcp = contract_tool(agent, tool, payload.get("tool_input"))
    inp["tool_name"] = name
    inp["tool_input"] = args
    if mcp is not None:
        inp["mcp_context"] = mcp
    if req.event == "AfterTool":
        err = payload.get("error") if req.agent_event == "PostToolUseFailure" else None
        inp["tool_response"] = tool_response(payload.get("tool_response"), err)


def _stop(agent: Agent, req: Request, payload: dict[str, Any], inp: dict[str, Any]) -> None:
    inp.setdefault("prompt", "")
    last = payload.get("last_assistant_message")
    inp["prompt_response"] = last if isinstance(last, str) else ""
    inp["stop_hook_active"] = payload.get("stop_hook_active") is True


def _prompt(agent: Agent, req: Request, payload: dict[str, Any], inp: dict[str, Any]) -> None:
    inp["prompt"] = _str(payload.get("prompt"))


def _session_end(agent: Agent, req: Request, payload: dict[str, Any], inp: dict[str, Any]) -> None:
    r = _str(payload.get("reason")) or "other"
    inp["reason"] = _SESSION_END.get(r, r)


def _session_start(
    agent: Agent, req: Request, payload: dict[str, Any], inp: dict[str, Any]
) -> None:
    inp["source"] = _str(payload.get("source")) or "startup"


def _notification(agent: Agent, req: Request, payload: dict[str, Any], inp: dict[str, Any]) -> None:
    t = _str(payload.get("notification_type"))
    inp["notification_type"] = _NOTIFICATION.get(t, t)
    inp["message"] = _str(payload.get("message"))
    inp.setdefault("details", {})


def _compact(agent: Agent, req: Request, payload: dict[str, Any], inp: dict[str, Any]) -> None:
    inp["trigger"] = _str(payload.get("trigger")) or "manual"


_EVENT_INPUT = {
    "BeforeTool": _tool,
    "AfterTool": _tool,
    "BeforeAgent": _prompt,
    "AfterAgent": _stop,
    "SessionStart": _session_start,
    "SessionEnd": _session_end,
    "Notification": _notification,
    "PreCompress": _compact,
}


# --------------------------------------------------------------------------- answers


def render(
    agent: Agent, req: Request, result: FireResult | None, messages: list[str]
) -> BridgeAnswer:
    if result is None:
        return _answer({"systemMessage": not_bridged_message(agent, req.agent_event)})
    return _answer(answer_object(agent, req, result, messages))


def answer_object(
    agent: Agent,
    req: Request,
    result: FireResult,
    messages: list[str],
    *,
    rewrite_asks: bool = False,
) -> dict[str, Any]:
    """The answer's JSON object. ``rewrite_asks``: a rewrite that no hook allowed also answers
    ``permissionDecision: ask`` (``hookwise serve``'s ``/hooks/claude``: Claude applies
    ``updatedInput`` only with a decision, and a rewrite alone must never skip the prompt); without
    it (the bridge), a rewrite is sent without a decision, as the hook that rewrote would have sent
    it."""
    out: dict[str, Any] = {}
    hso: dict[str, Any] = {}
    notes = list(messages)
    if req.event == "BeforeTool":
        _pre_tool(agent, req, result, hso, notes)
        if rewrite_asks and "updatedInput" in hso:
            hso.setdefault("permissionDecision", "ask")
    elif req.event == "AfterTool" and agent.output_replacement:
        _post_tool(req, result, out, hso)
    if req.event in _BLOCK_EVENTS and result.blocked and "decision" not in out:
        out["decision"] = "block"
        out["reason"] = result.reason or "Blocked by a hookwise hook"
    context = result.hook_specific.get("additionalContext")
    if isinstance(context, str) and context and req.agent_event in _CONTEXT_EVENTS:
        hso["additionalContext"] = context
        if agent.name in _TOP_LEVEL_CONTEXT:
            out["additionalContext"] = context
    if result.stopped:
        out["continue"] = False
        out["stopReason"] = result.stop_reason or result.reason or "Stopped by a hookwise hook"
    if hso:
        out["hookSpecificOutput"] = {"hookEventName": req.agent_event, **hso}
    text = messages_text(result.system_message, notes)
    if text:
        out["systemMessage"] = text
    if result.suppress_output:
        out["suppressOutput"] = True
    return out


def _pre_tool(
    agent: Agent, req: Request, result: FireResult, hso: dict[str, Any], notes: list[str]
) -> None:
    cannot = _UNSUPPORTED.get(agent.name, frozenset())
    reason = result.reason
    if result.tool_input_changed and "rewrite" in cannot:
        hso["permissionDecision"] = "deny"
        hso["permissionDecisionReason"] = (
            f"a hook rewrote the arguments of {req.agent_tool}, and {agent.product} cannot apply "
            "rewritten arguments; the call is denied rather than run unchanged"
        )
        return
    if result.blocked:
        hso["permissionDecision"] = "deny"
        hso["permissionDecisionReason"] = reason or "Blocked by a hookwise hook"
    elif result.asked and "ask" not in cannot:
        hso["permissionDecision"] = "ask"
        if reason:
            hso["permissionDecisionReason"] = reason
    elif result.asked:
        hso["permissionDecision"] = "deny"
        hso["permissionDecisionReason"] = (
            f"a hook asked for confirmation, which {agent.product} cannot show to a hook's caller: "
            + (reason or "denied")
        )
    elif explicit_allow(result) and "allow" not in cannot:
        hso["permissionDecision"] = "allow"
        if reason:
            hso["permissionDecisionReason"] = reason
    if result.tool_input_changed and not result.blocked:
        hso["updatedInput"] = _agent_args(agent, req, result)


def _post_tool(req: Request, result: FireResult, out: dict[str, Any], hso: dict[str, Any]) -> None:
    """A hook's ``updatedToolOutput``, in the shape of the agent's own ``tool_response`` (Claude
    Code applies only that shape: Bash's
    ``{stdout, stderr, interrupted, isImage, noOutputExpected}``)."""
    original = req.input.get("tool_response")
    if not isinstance(original, dict):
        return
    new = result.tool_output_for(original)
    mine = req.payload.get("tool_response")
    if new is None or not isinstance(mine, dict):
        return
    replaced = {k: new.get(k, v) for k, v in mine.items()}
    if (
        new.get("llmContent") != original.get("llmContent")
        and replaced == mine
        and "stdout" in mine
    ):
        replaced["stdout"] = new["llmContent"]  # a contract hook replaced the text the model reads
        if "stderr" in mine:
            replaced["stderr"] = ""
    if replaced != mine:
        hso["updatedToolOutput"] = replaced


def _agent_args(agent: Agent, req: Request, result: FireResult) -> dict[str, Any]:
    """The rewritten arguments, complete (Claude replaces the whole input), in the agent's parameter
    names."""
    merged = result.tool_input_for(req.input.get("tool_input") or {})
    if agent.claude_params:
        from hookwise.claude.names import params_to_claude

        merged = params_to_claude(str(req.input.get("tool_name")), merged)
    return merged


def failure(agent: Agent, req: Request, message: str, block: bool) -> BridgeAnswer:
    """hookwise could not answer: a block (exit 2, the reason on stderr) or a visible warning."""
    if block:
        return BridgeAnswer(stderr=message + " (blocked: --fail-closed)\n", exit_code=2)
    return _answer({"systemMessage": message})


def _answer(out: dict[str, Any]) -> BridgeAnswer:
    return BridgeAnswer(
        stdout=dumps(out, ensure_ascii=False, allow_nan=False) + "\n" if out else ""
    )
