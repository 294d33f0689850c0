"""Audit mode and decision records (docs/fleet.md).

- **Audit mode** (``hooksConfig.mode: "audit"`` in user or system settings, or ``hookwise serve
  --audit``): hooks run and their decisions are recorded, but nothing blocks, rewrites or stops.
  :func:`audited` turns a firing's result into the one a host applies: the merged answer moves to
  :attr:`~hookwise.result.FireResult.audit` and a warning says what would have happened.
- **Decision record**: one OpenTelemetry log record (``hookwise.decision``) per firing that ran
  hooks, beside the ``gemini_cli.hook_call`` records: event, agent, project, session, each hook's
  name, source, outcome and decision, the merged decision and reason, the policy version (a hash of
  the settings files that produced the plan), duration, audit or not; the trace id is the log
  record's own (its context is the firing's span). :func:`decision_record` builds it (pure).

The agent a firing is for is a context variable (:data:`AGENT`) that ``hookwise serve``, the MCP
gateway and the bridge set around a firing.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from hookwise.result import FireResult, HookOutcome
    from hookwise.settings.layers import SettingsLayer

#: which agent the current firing is for (``claude``, ``gemini``, ``mcp``...); "" when not said
AGENT: ContextVar[str] = ContextVar("hookwise_agent", default="")

DECISION_EVENT = "hookwise.decision"

#: the merged answer's effect -> how the audit warning words it
_WOULD = {
    "deny": "denied",
    "block": "blocked",
    "ask": "asked the user",
    "stop": "stopped the agent",
}


def policy_version(layers: Iterable[SettingsLayer]) -> str:
    """A short hash of the settings files that produced a plan (path and content of each one
    present)."""
    import hashlib

    h = hashlib.sha256()
    for layer in layers:
        if layer.exists:
            h.update(layer.path.encode("utf-8", "surrogateescape") + b"\0")
            h.update(layer.text.encode("utf-8", "surrogateescape") + b"\0")
    return h.hexdigest()[:16]


def merged_decision(output: Mapping[str, Any]) -> str:
    """``stop``, ``deny``/``block``, ``ask`` or ``allow`` for a merged answer."""
    if output.get("continue") is False:
        return "stop"
    d = output.get("decision")
    return str(d) if d in ("deny", "block", "ask") else "allow"


def _effects(result: FireResult) -> list[str]:
    out = []
    d = merged_decision(result.output)
    if d in _WOULD:
        reason = result.stop_reason if d == "stop" else result.reason
        out.append(_WOULD[d] + (f" ({reason})" if reason else ""))
    if result.tool_input_changed:
        out.append("rewritten the tool's input")
    hso = result.hook_specific
    for key, what in (
        ("additionalContext", "added context"),
        ("llm_request", "changed the model request"),
        ("llm_response", "replaced the model response"),
        ("toolConfig", "restricted the tools"),
        ("tailToolCallRequest", "requested a tail tool call"),
    ):
        if key in hso:
            out.append(what)
    return out


def audited(result: FireResult) -> FireResult:
    """The result a host applies in audit mode: nothing enforced, ``audit`` = what the hooks
    decided.

    Only the hooks' ``systemMessage`` stays (it informs, it enforces nothing); every other field of
    the merged answer is withheld and named in one warning."""
    from hookwise.result import FireResult

    would = dict(result.output)
    kept = {"systemMessage": would["systemMessage"]} if "systemMessage" in would else {}
    effects = _effects(result)
    warnings = list(result.warnings)
    if effects:
        warnings.append(
            f"audit mode: the {result.event.value} hooks would have {', '.join(effects)}; "
            "nothing was enforced"
        )
    return FireResult(result.event, result.input, kept, result.hooks, warnings, audit=would)


def decision_of(outcome: str, output: Any) -> str:
    """A hook's decision from its call's outcome and answer: ``deny``, ``block``, ``ask``,
    ``allow``, ``stop`` or ``none`` (telemetry's ``hook_decision`` attribute)."""
    if outcome == "blocked":
        return "block"
    if not isinstance(output, dict):
        return "none"
    if output.get("continue") is False:
        return "stop"
    d = output.get("decision")
    if d in ("deny", "block", "ask", "allow"):
        return str(d)
    if d == "approve":
        return "allow"
    return "none"


def decision_record(
    event: str,
    inp: Mapping[str, Any],
    outcomes: Sequence[HookOutcome],
    merged: Mapping[str, Any],
    context: Mapping[str, Any],
    duration_ms: float,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(body, attributes)`` of one firing's decision record."""
    hooks = [
        {
            "name": o.name,
            "source": o.source,
            "type": o.hook_type,
            "outcome": o.outcome.value,
            "decision": decision_of(o.outcome.value, o.output),
        }
        for o in outcomes
    ]
    reason = merged.get("stopReason") if merged.get("continue") is False else merged.get("reason")
    session = inp.get("session_id")
    attrs: dict[str, Any] = {
        "event.name": DECISION_EVENT,
        "hook_event_name": event,
        "agent": str(context.get("agent") or AGENT.get() or "hookwise"),
        "project": str(context.get("project") or ""),
        "session.id": session if isinstance(session, str) else "",
        "decision": merged_decision(merged),
        "reason": reason if isinstance(reason, str) else "",
        "policy.version": str(context.get("policy_version") or ""),
        "audit": bool(context.get("audit")),
        "duration_ms": round(duration_ms, 3),
        "hook_count": len(hooks),
        "hook_names": [h["name"] for h in hooks],
        "hook_sources": [h["source"] for h in hooks],
        "hook_outcomes": [h["outcome"] for h in hooks],
        "hook_decisions": [h["decision"] for h in hooks],
    }
    tool = inp.get("tool_name")
    if isinstance(tool, str):
        attrs["tool_name"] = tool
    body = {k: attrs[k] for k in ("hook_event_name", "agent", "project", "decision", "reason")}
    body["hooks"] = hooks
    return body, attrs
