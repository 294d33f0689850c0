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
    GEMINI_LIFECYCLE_TO_CLAUDE,
    GEMINI_TO_CLAUDE_EVENT,
    params_to_claude,
    params_to_gemini,
    tool_to_claude,
)
from hookwise.core.interpret import Interpretation, parse_object
from hookwise.core.registry import HookEntry
from hookwise.events import HookEvent
from hookwise.result import Outcome

#: Claude answer values for permissionDecision / the deprecated top-level decision -> contract decision
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

#: input fields Claude Code added in 2026 that hookwise has no source for: a host may put them in a
#: firing's input (``tool_use_id``, ``duration_ms``, ``model``, ``permission_mode``, ``agent_id``,
#: ``agent_type``) and a Claude-dialect hook gets them; these three only on the events Claude sends them
CLAUDE_ONLY_ON: dict[str, frozenset[HookEvent]] = {
    "tool_use_id": frozenset({HookEvent.BEFORE_TOOL, HookEvent.AFTER_TOOL}),
    "duration_ms": frozenset({HookEvent.AFTER_TOOL}),
    "model": frozenset({HookEvent.SESSION_START}),
}


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
    """The stdin a ``"dialect": "claude"`` hook receives for ``payload``.

    Base fields are kept; ``hook_event_name`` is Claude's name (or
    ``claude_event`` when the engine knows the hook's own Claude event, e.g.
    ``SubagentStop``); tool events get Claude tool and parameter names; Stop
    gets ``last_assistant_message``; lifecycle values use Claude's spelling.
    Fields hookwise adds (``timestamp``, ``mcp_context``) stay, as extra fields
    are harmless to Claude hooks.
    """
    out = dict(payload)
    for key, events in CLAUDE_ONLY_ON.items():
        if key in out and event not in events:
            del out[
                key
            ]  # Claude Code sends it only there; a host-provided value elsewhere is dropped
    name = claude_event_name(event, payload)
    if claude_event and claude_event not in ("PostToolUse", "PostToolUseFailure"):
        name = claude_event  # e.g. SubagentStop; for tool events success/failure decides
    out["hook_event_name"] = name
    out.setdefault("permission_mode", "default")
    if event in (HookEvent.BEFORE_TOOL, HookEvent.AFTER_TOOL):
        gname = payload.get("tool_name")
        if isinstance(gname, str):
            mcp = payload.get("mcp_context")
            out["tool_name"] = tool_to_claude(gname, mcp if isinstance(mcp, dict) else None)
            ti = payload.get("tool_input")
            if isinstance(ti, dict):
                out["tool_input"] = params_to_claude(gname, ti)
        if event is HookEvent.AFTER_TOOL:
            err = _tool_error(payload)
            if err is not None:
                out["error"] = err
            resp = payload.get("tool_response")
            if isinstance(resp, dict):
                r = dict(resp)
                ti2 = out.get("tool_input")
                if isinstance(ti2, dict) and isinstance(ti2.get("file_path"), str):
                    r.setdefault("filePath", ti2["file_path"])
                r.setdefault("success", err is None)
                out["tool_response"] = r
    elif event is HookEvent.AFTER_AGENT:
        if "prompt_response" in payload:
            out.setdefault("last_assistant_message", payload["prompt_response"])
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
        out.setdefault("custom_instructions", "")
    return out


# --------------------------------------------------------------------------- output


def claude_interpretation(
    it: Interpretation, *, exit_code: int | None, stdout: str, stderr: str, name: str
) -> Interpretation:
    """Adjust the contract's reading of a finished command hook (docs/contract.md §6) for a Claude-dialect hook.

    Two rules of Claude Code's hooks reference differ from the contract's table:

    - exit 0 with stdout that starts with ``{`` and ends with ``}`` but does not parse
      is a hook error in Claude Code (not text): outcome ``failed`` here, so a
      ``failClosed`` (``onFailure: "block"``) hook blocks on it;
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
            "JSON (Claude Code reports this as a hook error); ignored",
        )
    if exit_code == 2 and it.is_json and it.output is not None:
        own = parse_object(out) or {}
        reason: Any = None
        if own.get("decision") in ("block", "deny"):
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
    event: HookEvent, output: Mapping[str, Any] | None, dialect: str | None
) -> list[str]:
    """Warnings for Claude Code answers that hookwise cannot carry out (never dropped silently).

    - PostToolUse ``updatedToolOutput`` / ``updatedMCPToolOutput``: an AfterTool hook
      cannot replace a tool's result in hookwise (nor in Gemini CLI); the model gets
      the original result.
    - PreCompact ``decision: block`` or exit 2: PreCompress is informational in
      hookwise; compression goes ahead.
    """
    if not output:
        return []
    notes: list[str] = []
    hso = output.get("hookSpecificOutput")
    if event is HookEvent.AFTER_TOOL and isinstance(hso, dict):
        for key in ("updatedToolOutput", "updatedMCPToolOutput"):
            if key in hso:
                notes.append(
                    f"its answer has hookSpecificOutput.{key}, which hookwise ignores: an AfterTool "
                    "hook cannot replace a tool's result, so the model gets the original result"
                )
    if (
        event is HookEvent.PRE_COMPRESS
        and dialect == "claude"
        and output.get("decision") in ("block", "deny")
    ):
        notes.append(
            "it asked to block compaction, which hookwise cannot do (PreCompress is informational); "
            "compression goes ahead"
        )
    return notes


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
            reason = output.get("reason") if output.get("decision") in ("block", "deny") else None
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
    """For a Claude-dialect hook's plain-text stdout at exit 0: its meaning, or None for the default.

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


# --------------------------------------------------------------------------- the strategy the runners use


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

    def notes(self, event: HookEvent, output: Mapping[str, Any]) -> list[str]:
        return answer_notes(event, output, self.name)


CLAUDE = ClaudeDialect()


class ClaudeFields:
    """Claude-style fields in the answer of a hook of any dialect (``runners.dialects.CLAUDE_FIELDS``)."""

    def normalize_output(
        self, event: HookEvent, output: dict[str, Any], inp: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        return normalize_output(event, output, None, payload=inp)

    def notes(self, event: HookEvent, output: Mapping[str, Any]) -> list[str]:
        return answer_notes(event, output, None)


CLAUDE_FIELDS = ClaudeFields()
