"""Claude Code compatibility while firing: Claude-shaped inputs and Claude-style answers.

Three pure functions:

- :func:`to_claude_input` builds the stdin of a ``"dialect": "claude"`` hook:
  Claude's event name in ``hook_event_name`` (``PreToolUse``, ``Stop``...),
  Claude's tool names (``Bash``, ``Edit``, ``mcp__server__tool``) and Claude's
  parameter names in ``tool_input``.
- :func:`normalize_output` maps Claude-style answers from *any* hook onto the
  contract: ``hookSpecificOutput.permissionDecision`` allow/deny/ask/defer
  (+ ``permissionDecisionReason``), ``updatedInput``, top-level
  ``decision: approve``. An answer without those fields is returned as is.
- :func:`text_output` gives plain stdout of a Claude hook its Claude meaning
  (context for SessionStart and UserPromptSubmit).

:class:`ClaudeDialect` (``CLAUDE``) bundles the three as the strategy the runners
look up by the hook's ``dialect`` (see :mod:`hookwise.runners.dialects`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hookwise.claude.names import (
    CLAUDE_TO_GEMINI_EVENT,
    CLAUDE_TO_GEMINI_TOOL,
    GEMINI_LIFECYCLE_TO_CLAUDE,
    GEMINI_TO_CLAUDE_EVENT,
    mcp_to_gemini,
    params_to_claude,
    params_to_gemini,
    tool_to_claude,
)
from hookwise.core.interpret import Interpretation, parse_object
from hookwise.core.registry import HookEntry
from hookwise.events import HookEvent
from hookwise.result import Outcome, asks_to_block

#: Claude answer values for permissionDecision / the deprecated top-level decision -> contract
#: decision
_PERMISSION = {
    "allow": "allow",
    "approve": "allow",
    "deny": "deny",
    "block": "deny",
    "ask": "ask",
    "defer": "ask",
}
_RANK = {"allow": 0, "approve": 0, "ask": 1, "deny": 2, "block": 2}

#: events whose plain-text stdout Claude Code adds to the model's context
_TEXT_CONTEXT_EVENTS = frozenset({HookEvent.SESSION_START, HookEvent.BEFORE_AGENT})


# --------------------------------------------------------------------------- input

_E = HookEvent
_TOOL = frozenset({_E.BEFORE_TOOL, _E.AFTER_TOOL})
#: the Claude-only channel (docs/claude.md "What a Claude-dialect hook receives"): input fields
#: Claude Code sends that the contract does not have, and the events Claude sends each on (None:
#: every event). A host puts them in a firing's input like any field
#: (``fire(..., tool_use_id=...)``, ``fire --input``); a Claude-dialect hook gets them on those
#: events, and a hook of the contract's dialect never sees them
#: (:data:`hookwise.runners.dialects.CLAUDE_ONLY_FIELDS` is the same set, read without importing
#: this module).
CLAUDE_ONLY_ON: dict[str, frozenset[HookEvent] | None] = {
    "tool_use_id": _TOOL,
    "duration_ms": frozenset({_E.AFTER_TOOL}),
    "permission_mode": _TOOL | {_E.BEFORE_AGENT, _E.AFTER_AGENT, _E.NOTIFICATION},
    "prompt_id": None,
    "effort": _TOOL | {_E.AFTER_AGENT},
    "model": frozenset({_E.SESSION_START}),
    "agent_id": None,
    "agent_type": None,
    "seconds_since_last_response": frozenset({_E.SESSION_START}),
    "context_tokens": frozenset({_E.SESSION_START}),
    "prompt_cache_likely_expired": frozenset({_E.SESSION_START}),
    "estimated_cache_write_usd": frozenset({_E.SESSION_START}),
    "background_tasks": frozenset({_E.AFTER_AGENT}),
    "session_crons": frozenset({_E.AFTER_AGENT}),
    "custom_instructions": frozenset({_E.PRE_COMPRESS}),
}
#: where a Claude-dialect hook gets ``permission_mode: "default"`` when the host gave none
_PERMISSION_MODE_EVENTS = CLAUDE_ONLY_ON["permission_mode"] or frozenset()
#: fields of the contract that Claude Code never sends (left out of a Claude-dialect hook's stdin)
_NOT_CLAUDE = ("timestamp", "mcp_context", "original_request_name")
del _E


def claude_event_name(event: HookEvent, payload: Mapping[str, Any] | None = None) -> str:
    """The Claude Code name of ``event`` (AfterTool with a tool error is ``PostToolUseFailure``)."""
    if event is HookEvent.AFTER_TOOL and payload is not None and _tool_error(payload) is not None:
        return "PostToolUseFailure"
    return GEMINI_TO_CLAUDE_EVENT.get(event.value, event.value)


def _tool_error(payload: Mapping[str, Any]) -> str | None:
    resp = payload.get("tool_response")
    if not isinstance(resp, dict):
        return None
    err = resp.get("error")
    if err is None or err is False or err == "":
        return None
    if isinstance(err, dict):
        msg = err.get("message")
        return msg if isinstance(msg, str) and msg else str(err.get("type") or "error")
    return str(err)


def to_claude_input(
    event: HookEvent, payload: dict[str, Any], claude_event: str | None = None
) -> dict[str, Any]:
    """The stdin a ``"dialect": "claude"`` hook receives for ``payload``: what Claude Code sends.

    Base fields are kept; ``hook_event_name`` is Claude's name (or
    ``claude_event`` when the engine knows the hook's own Claude event, e.g.
    ``SubagentStop``); tool events get Claude tool and parameter names; Stop
    gets ``last_assistant_message``; lifecycle values use Claude's spelling.
    The Claude-only fields (:data:`CLAUDE_ONLY_ON`) stay on the events Claude
    sends them on; the contract's fields Claude never sends (``timestamp``,
    ``mcp_context``, ``original_request_name``; Stop's ``prompt``) are left out.
    """
    out = dict(payload)
    for key in _NOT_CLAUDE:
        out.pop(key, None)
    for key, events in CLAUDE_ONLY_ON.items():
        if key in out and events is not None and event not in events:
            del out[
                key
            ]  # Claude Code sends it only there; a host-provided value elsewhere is dropped
    name = claude_event_name(event, payload)
    if claude_event and claude_event not in ("PostToolUse", "PostToolUseFailure"):
        name = claude_event  # e.g. SubagentStop; for tool events success/failure decides
    out["hook_event_name"] = name
    if event in _PERMISSION_MODE_EVENTS:
        out.setdefault("permission_mode", "default")
    if event in (HookEvent.BEFORE_TOOL, HookEvent.AFTER_TOOL):
        _claude_tool_fields(event, payload, out)
    elif event is HookEvent.AFTER_AGENT:
        out.pop("prompt", None)
        if "prompt_response" in out:
            out.setdefault("last_assistant_message", out.pop("prompt_response"))
        out.setdefault("stop_hook_active", False)
    elif event is HookEvent.SESSION_END:
        reason = payload.get("reason")
        if isinstance(reason, str):
            out["reason"] = GEMINI_LIFECYCLE_TO_CLAUDE["SessionEnd"].get(reason, reason)
    elif event is HookEvent.NOTIFICATION:
        t = payload.get("notification_type")
        if isinstance(t, str):
            out["notification_type"] = GEMINI_LIFECYCLE_TO_CLAUDE["Notification"].get(t, t)
    elif event is HookEvent.PRE_COMPRESS:
        out.setdefault("custom_instructions", None)  # Claude Code sends null when none were given
    return out


def _claude_tool_fields(event: HookEvent, payload: Mapping[str, Any], out: dict[str, Any]) -> None:
    """Claude's tool and parameter names; after a tool, its error and (for hookwise's own response
    shape) ``filePath`` and ``success``. A response already in the tool's own shape (a Claude
    host's) is kept."""
    gname = payload.get("tool_name")
    if isinstance(gname, str):
        mcp = payload.get("mcp_context")
        out["tool_name"] = tool_to_claude(gname, mcp if isinstance(mcp, dict) else None)
        ti = payload.get("tool_input")
        if isinstance(ti, dict):
            out["tool_input"] = params_to_claude(gname, ti)
    if event is not HookEvent.AFTER_TOOL:
        return
    err = _tool_error(payload)
    if err is not None:
        out["error"] = err
    resp = payload.get("tool_response")
    if isinstance(resp, dict) and ("llmContent" in resp or "returnDisplay" in resp):
        r = dict(resp)
        ti2 = out.get("tool_input")
        if isinstance(ti2, dict) and isinstance(ti2.get("file_path"), str):
            r.setdefault("filePath", ti2["file_path"])
        r.setdefault("success", err is None)
        out["tool_response"] = r


def from_claude_input(payload: Mapping[str, Any]) -> tuple[HookEvent, dict[str, Any]]:
    """The firing a Claude Code hook's stdin stands for: the hookwise event and its input.

    The reverse of :func:`to_claude_input`: Gemini tool and parameter names (an MCP tool's server
    and name in ``mcp_context``), Stop's ``last_assistant_message`` as ``prompt_response`` (Claude
    sends no prompt: ``""``), ``permission_prompt`` as ``ToolPermission``; the Claude-only fields
    stay, for Claude-dialect hooks. Raises :class:`~hookwise.errors.PayloadError` for an event
    hookwise has no equivalent of.
    """
    name = payload.get("hook_event_name")
    target = CLAUDE_TO_GEMINI_EVENT.get(name) if isinstance(name, str) else None
    if target is None:
        from hookwise.errors import PayloadError

        raise PayloadError(
            f"Claude Code event {name!r} has no hookwise equivalent: it never fires here"
        )
    event = HookEvent(target)
    data = {k: v for k, v in payload.items() if k != "hook_event_name"}
    if event in (HookEvent.BEFORE_TOOL, HookEvent.AFTER_TOOL):
        _gemini_tool_fields(data)
    elif event is HookEvent.AFTER_AGENT:
        data["prompt_response"] = data.pop("last_assistant_message", "")
        data.setdefault("prompt", "")
    elif event is HookEvent.NOTIFICATION:
        t = data.get("notification_type")
        data["notification_type"] = "ToolPermission" if t == "permission_prompt" else t
    return event, data


def _gemini_tool_fields(data: dict[str, Any]) -> None:
    tool = data.get("tool_name")
    if not isinstance(tool, str):
        return
    if tool.startswith("mcp__") and tool.count("__") >= 2:
        server, _, mcp_tool = tool[5:].partition("__")
        data["mcp_context"] = {"server_name": server, "tool_name": mcp_tool}
        data["tool_name"] = mcp_to_gemini(tool)
    else:
        data["tool_name"] = CLAUDE_TO_GEMINI_TOOL.get(tool) or tool
    ti = data.get("tool_input")
    if isinstance(ti, dict):
        data["tool_input"] = params_to_gemini(data["tool_name"], ti, None)


# --------------------------------------------------------------------------- output


def claude_interpretation(
    it: Interpretation, *, exit_code: int | None, stdout: str, stderr: str, name: str
) -> Interpretation:
    """Adjust the contract's reading of a finished command hook (docs/contract.md §6) for a
    Claude-dialect hook.

    Two rules differ from the contract's table:

    - exit 0 with stdout that starts with ``{`` and ends with ``}`` but does not parse:
      outcome ``failed``, so a ``failClosed`` (``onFailure: "block"``) hook blocks on it. A
      deliberate difference: the real Claude Code CLI reads it as plain-text success
      (docs/claude.md, "A deliberate difference");
    - exit 2 blocks with the reason of the JSON's own blocking decision (``decision:
      block`` + ``reason``, or ``permissionDecision: deny`` + ``permissionDecisionReason``)
      when it makes one, and with stderr otherwise.
    """
    out = stdout.strip()
    if (
        exit_code == 0
        and it.outcome is Outcome.OK
        and not it.is_json
        and out.startswith("{")
        and out.endswith("}")
    ):
        return Interpretation(
            Outcome.FAILED,
            None,
            "its output starts with { and ends with } but is not valid "
            "JSON (Claude Code would read it as plain text; hookwise counts it as a failure); "
            "ignored",
        )
    if exit_code == 2 and it.is_json and it.output is not None:
        own = parse_object(out) or {}
        reason: Any = None
        if asks_to_block(own):
            reason = own.get("reason")
        hso = own.get("hookSpecificOutput")
        if (
            not (isinstance(reason, str) and reason)
            and isinstance(hso, dict)
            and hso.get("permissionDecision") == "deny"
        ):
            reason = hso.get("permissionDecisionReason")
        if not (isinstance(reason, str) and reason):
            reason = stderr.strip() or f"Blocked by hook {name}"
        output = dict(it.output)
        output["reason"] = reason
        return Interpretation(it.outcome, output, it.error, True)
    return it


def answer_notes(
    event: HookEvent,
    output: dict[str, Any] | None,
    dialect: str | None,
    payload: Mapping[str, Any] | None = None,
) -> list[str]:
    """Check the answers hookwise carries out only in a given shape; a value it cannot apply is
    dropped from ``output`` (in place) and named in the returned warnings, never dropped silently.

    - AfterTool ``hookSpecificOutput.updatedToolOutput`` (PostToolUse's, also a hookwise extension
      for any hook): kept when it has the shape of the tool's result in ``payload`` (see
      :func:`tool_output_problem`); ``updatedMCPToolOutput`` counts as one for an MCP tool, as in
      Claude Code, and is dropped elsewhere.
    - PreCompact ``decision: block`` or exit 2 needs nothing here: hosts that compress honour it
      (:attr:`hookwise.FireResult.blocked` on PreCompress).
    """
    if not output or event is not HookEvent.AFTER_TOOL:
        return []
    hso = output.get("hookSpecificOutput")
    if not isinstance(hso, dict):
        return []
    notes: list[str] = []
    tool = payload.get("tool_name") if payload is not None else None
    if "updatedMCPToolOutput" in hso:
        mcp_value = hso.pop("updatedMCPToolOutput")
        if isinstance(tool, str) and tool.startswith("mcp_") and "updatedToolOutput" not in hso:
            hso["updatedToolOutput"] = mcp_value
        else:
            notes.append(
                "its hookSpecificOutput.updatedMCPToolOutput was dropped: it replaces the result "
                "of an MCP tool only (use updatedToolOutput, which works for every tool)"
                if "updatedToolOutput" not in hso
                else (
                    "its hookSpecificOutput.updatedMCPToolOutput was dropped: "
                    "updatedToolOutput wins"
                )
            )
    if "updatedToolOutput" in hso:
        resp = payload.get("tool_response") if payload is not None else None
        why = tool_output_problem(hso["updatedToolOutput"], resp)
        if why is not None:
            del hso["updatedToolOutput"]
            notes.append(
                f"its hookSpecificOutput.updatedToolOutput was dropped: {why}; the model gets the "
                "tool's own result"
            )
    return notes


#: keys a Claude-dialect hook sees in ``tool_response`` beyond the host's own (docs/claude.md)
_VIEW_KEYS = {"filePath": str, "success": bool}
_JSON_TYPES: tuple[tuple[type | tuple[type, ...], str], ...] = (
    (bool, "true or false"),
    (str, "a string"),
    ((int, float), "a number"),
    (dict, "an object"),
    (list, "an array"),
)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return next((name for t, name in _JSON_TYPES if isinstance(value, t)), type(value).__name__)


def tool_output_problem(value: Any, tool_response: Any) -> str | None:
    """Why ``value`` cannot replace ``tool_response`` (None: it can).

    As in Claude Code, the replacement must have the shape of the tool's own result: an object (a
    plain string is refused) whose keys are keys of the result the hook received (``filePath`` and
    ``success`` included), each of the same JSON type. Keys it leaves out keep the tool's values.
    """
    if not isinstance(value, dict):
        return f"it is {_json_type(value)}, not an object with the shape of the tool's result"
    if not value:
        return "it is an empty object"
    if not isinstance(tool_response, dict):
        return "the firing has no tool_response to replace"
    for k, v in value.items():
        if k in tool_response:
            want = _json_type(tool_response[k])
        elif k in _VIEW_KEYS:
            want = _json_type(_VIEW_KEYS[k]())
        else:
            keys = ", ".join(sorted(tool_response))
            return f"the tool's result has no key {k!r} (its keys: {keys})"
        got = _json_type(v)
        if got != want and want != "null":
            return f"{k!r} is {got}; the tool's result has {want} there"
    return None


def normalize_output(
    event: HookEvent,
    output: dict[str, Any],
    dialect: str | None,
    payload: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Map Claude-style answer fields onto the contract's (applied to every hook's JSON answer).

    - ``hookSpecificOutput.permissionDecision``: allow → ``decision: allow``,
      deny → ``deny``, ask → ``ask``, defer → ``ask`` (a person decides: an
      interactive host asks, a headless one refuses). Combined with a
      top-level ``decision`` the stricter wins.
    - ``permissionDecisionReason`` → ``reason`` (if none); for ask also the
      ``systemMessage`` shown in the confirmation prompt.
    - ``updatedInput`` → ``hookSpecificOutput.tool_input`` (merged over the
      tool's arguments like every hookwise rewrite); for a Claude-dialect hook
      its Claude parameter names are turned back into the tool's names (needs
      ``payload``, the firing's input, for the tool name).
    - top-level ``decision: approve`` → ``allow``; ``block`` already blocks.
    - An unknown ``permissionDecision`` is kept out of the decision and named in
      ``systemMessage``, so it is visible and never taken for an allow.

    - Stop (AfterAgent) ``hookSpecificOutput.additionalContext`` from a Claude-dialect
      hook → ``decision: block`` with the context as ``reason``: the agent continues with
      it, as Claude Code continues the turn (AfterAgent ignores additionalContext otherwise).

    Returns ``output`` itself when it has none of these fields.
    """
    hso = output.get("hookSpecificOutput")
    if event is HookEvent.AFTER_AGENT and dialect == "claude" and isinstance(hso, dict):
        ctx = hso.get("additionalContext")
        if isinstance(ctx, str) and ctx.strip():
            output = dict(output)
            reason = output.get("reason") if asks_to_block(output) else None
            output["decision"] = "block"
            output["reason"] = f"{reason}\n{ctx}" if isinstance(reason, str) and reason else ctx
            return output
    has_perm = isinstance(hso, dict) and ("permissionDecision" in hso or "updatedInput" in hso)
    if not has_perm and output.get("decision") != "approve":
        return output
    out = dict(output)
    if out.get("decision") == "approve":
        out["decision"] = "allow"
    if not isinstance(hso, dict):
        return out
    h = dict(hso)
    out["hookSpecificOutput"] = h
    pd = h.get("permissionDecision")
    if pd is not None:
        mapped = _PERMISSION.get(pd.lower()) if isinstance(pd, str) else None
        if mapped is None:
            note = f"unknown permissionDecision {pd!r} ignored (expected allow, deny, ask or defer)"
            sm = out.get("systemMessage")
            out["systemMessage"] = f"{sm}\n{note}" if isinstance(sm, str) and sm else note
        else:
            cur = out.get("decision")
            if not isinstance(cur, str) or _RANK.get(mapped, 0) >= _RANK.get(cur, -1):
                out["decision"] = mapped
            reason = h.get("permissionDecisionReason")
            if isinstance(reason, str) and reason:
                if not (isinstance(out.get("reason"), str) and out["reason"]):
                    out["reason"] = reason
                if mapped == "ask" and not (
                    isinstance(out.get("systemMessage"), str) and out["systemMessage"]
                ):
                    out["systemMessage"] = reason
    upd = h.get("updatedInput")
    if isinstance(upd, dict) and "tool_input" not in h:
        tool = payload.get("tool_name") if payload is not None else None
        if dialect == "claude" and isinstance(tool, str):
            orig = payload.get("tool_input") if payload is not None else None
            h["tool_input"] = params_to_gemini(tool, upd, orig if isinstance(orig, dict) else None)
        else:
            h["tool_input"] = dict(upd)
    return out


def text_output(event: HookEvent, text: str, dialect: str | None) -> dict[str, Any] | None:
    """For a Claude-dialect hook's plain-text stdout at exit 0: its meaning, or None for the
    default.

    Claude Code adds plain stdout of SessionStart and UserPromptSubmit hooks to
    the model's context; for other events the default (a system message) applies.
    """
    if dialect != "claude" or event not in _TEXT_CONTEXT_EVENTS:
        return None
    text = text.strip()
    if not text:
        return None
    return {
        "hookSpecificOutput": {
            "hookEventName": GEMINI_TO_CLAUDE_EVENT.get(event.value, event.value),
            "additionalContext": text,
        }
    }


# --------------------------------------------------------------------- the strategy the runners use


class ClaudeDialect:
    """``"dialect": "claude"``: Claude-shaped input on stdin, Claude-style answers understood.

    The runners look dialects up by name (:func:`hookwise.runners.dialects.dialect`);
    this module loads only when a firing has a Claude-dialect hook (or a hook
    answered with Claude-style fields).
    """

    name = "claude"

    def input_key(self, entry: HookEntry) -> object:
        """Entries with the same key get the same encoded input within a firing."""
        return entry.extra.get("claude_event")

    def encode_input(
        self, event: HookEvent, inp: dict[str, Any], entry: HookEntry
    ) -> dict[str, Any]:
        claude_event = entry.extra.get("claude_event")
        return to_claude_input(
            event, inp, claude_event=claude_event if isinstance(claude_event, str) else None
        )

    def normalize_output(
        self, event: HookEvent, output: dict[str, Any], inp: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        return normalize_output(event, output, self.name, payload=inp)

    def text_output(self, event: HookEvent, text: str) -> dict[str, Any] | None:
        return text_output(event, text, self.name)

    def interpret(
        self, it: Interpretation, *, exit_code: int | None, stdout: str, stderr: str, name: str
    ) -> Interpretation:
        return claude_interpretation(
            it, exit_code=exit_code, stdout=stdout, stderr=stderr, name=name
        )

    def notes(
        self, event: HookEvent, output: dict[str, Any], inp: Mapping[str, Any] | None = None
    ) -> list[str]:
        return answer_notes(event, output, self.name, inp)


CLAUDE = ClaudeDialect()


class ClaudeFields:
    """Claude-style fields in the answer of a hook of any dialect
    (``runners.dialects.CLAUDE_FIELDS``)."""

    def normalize_output(
        self, event: HookEvent, output: dict[str, Any], inp: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        return normalize_output(event, output, None, payload=inp)

    def notes(
        self, event: HookEvent, output: dict[str, Any], inp: Mapping[str, Any] | None = None
    ) -> list[str]:
        return answer_notes(event, output, None, inp)


CLAUDE_FIELDS = ClaudeFields()
