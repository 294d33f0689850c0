"""What each telemetry record carries, built from a ``hook_call`` trace record (pure; docs/telemetry.md).

The log record and the two metrics use Gemini CLI's names and attributes
(docs/telemetry.md) so dashboards built for Gemini CLI keep working;
hookwise adds ``source`` and ``outcome``. The span attributes live in hookwise's
own ``hookwise.*`` namespace: the GenAI conventions have no hook spans, and
their guardrail vocabulary is reserved for dedicated guardrail libraries.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

EVENT_NAME = "gemini_cli.hook_call"
COUNT_METRIC = "gemini_cli.hook_call.count"
LATENCY_METRIC = "gemini_cli.hook_call.latency"
LOGGER_NAME = "hookwise"

#: outcomes whose hook span gets ERROR status, with the ``error.type`` each sets (docs/contract.md §6)
ERROR_OUTCOMES: dict[str, str] = {"failed": "failed", "timeout": "timeout", "not-run": "not_run"}

_PATH_SEP = re.compile(r"[/\\]")


def sanitize_hook_name(name: str | None) -> str:
    """Gemini CLI's reduced hook name: the first word of the name, its basename if it is a path.

    ``/usr/bin/python3 check.py`` becomes ``python3``; ``My Hook`` becomes ``My``;
    a blank name (or one ending in a path separator) becomes ``unknown-command``.
    """
    if not name or not name.strip():
        return "unknown-command"
    first = name.split()[0]
    return _PATH_SEP.split(first)[-1] or "unknown-command"


def _json2(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def input_json(inp: Any) -> str:
    """A firing's input as Gemini CLI logs it: JSON indented by 2 spaces."""
    return _json2(inp)


def hook_decision(record: Mapping[str, Any]) -> str:
    """One hook's own verdict: ``block`` (exit 2), ``stop``, ``deny``, ``ask``, ``allow`` or ``none``."""
    if record.get("outcome") == "blocked":
        return "block"
    out = record.get("hook_output")
    if not isinstance(out, dict):
        return "none"
    if out.get("continue") is False:
        return "stop"
    d = out.get("decision")
    if d in ("deny", "block", "ask", "allow"):
        return str(d)
    if d == "approve":
        return "allow"
    return "none"


def log_body(record: Mapping[str, Any], hook_name: str) -> str:
    """Gemini CLI's body: ``Hook call BeforeTool.check succeeded in 12ms``."""
    verb = "succeeded" if record.get("success") else "failed"
    ms = int(round(float(record.get("duration_ms") or 0)))
    return f"Hook call {record.get('hook_event_name')}.{hook_name} {verb} in {ms}ms"


def log_attributes(record: Mapping[str, Any], *, log_prompts: bool, timestamp: str,
                   input_json: str | None = None) -> dict[str, Any]:
    """The attributes of the ``gemini_cli.hook_call`` log record for one ``hook_call`` trace record.

    ``input_json``: the firing's input already rendered by :func:`input_json` (every hook of a
    firing shares it)."""
    name = str(record.get("hook_name") or "")
    inp = record.get("hook_input")
    attrs: dict[str, Any] = {
        "event.name": EVENT_NAME,
        "event.timestamp": timestamp,
    }
    session = inp.get("session_id") if isinstance(inp, dict) else None
    if isinstance(session, str) and session:
        attrs["session.id"] = session
    attrs.update({
        "hook_event_name": str(record.get("hook_event_name")),
        "hook_type": str(record.get("hook_type")),
        "hook_name": name if log_prompts else sanitize_hook_name(name),
        "duration_ms": int(round(float(record.get("duration_ms") or 0))),
        "success": bool(record.get("success")),
    })
    if record.get("exit_code") is not None:
        attrs["exit_code"] = int(record["exit_code"])
    if log_prompts:
        attrs["hook_input"] = input_json if input_json is not None else _json2(inp)
        if record.get("hook_output") is not None:
            attrs["hook_output"] = _json2(record["hook_output"])
        attrs["stdout"] = str(record.get("stdout") or "")
        attrs["stderr"] = str(record.get("stderr") or "")
    if record.get("error"):
        attrs["error"] = str(record["error"])
    attrs["source"] = str(record.get("source"))
    attrs["outcome"] = str(record.get("outcome"))
    return attrs


def metric_attributes(record: Mapping[str, Any]) -> dict[str, Any]:
    """Attributes of ``gemini_cli.hook_call.count`` / ``.latency`` (the name is always reduced)."""
    attrs: dict[str, Any] = {}
    inp = record.get("hook_input")
    session = inp.get("session_id") if isinstance(inp, dict) else None
    if isinstance(session, str) and session:
        attrs["session.id"] = session
    attrs.update({
        "hook_event_name": str(record.get("hook_event_name")),
        "hook_name": sanitize_hook_name(str(record.get("hook_name") or "")),
        "success": bool(record.get("success")),
        "outcome": str(record.get("outcome")),
    })
    return attrs


def hook_span_name(record: Mapping[str, Any], *, log_prompts: bool) -> str:
    name = str(record.get("hook_name") or "")
    return f"hook {record.get('hook_event_name')} {name if log_prompts else sanitize_hook_name(name)}"


def hook_span_attributes(record: Mapping[str, Any], *, log_prompts: bool) -> dict[str, Any]:
    """Attributes of the span of one hook call."""
    name = str(record.get("hook_name") or "")
    attrs: dict[str, Any] = {
        "hookwise.hook.event": str(record.get("hook_event_name")),
        "hookwise.hook.name": name if log_prompts else sanitize_hook_name(name),
        "hookwise.hook.type": str(record.get("hook_type")),
        "hookwise.hook.source": str(record.get("source")),
        "hookwise.hook.outcome": str(record.get("outcome")),
        "hookwise.hook.decision": hook_decision(record),
        "hookwise.hook.duration_ms": float(record.get("duration_ms") or 0.0),
    }
    inp = record.get("hook_input")
    session = inp.get("session_id") if isinstance(inp, dict) else None
    if isinstance(session, str) and session:
        attrs["gen_ai.conversation.id"] = session
    if record.get("exit_code") is not None:
        attrs["hookwise.hook.exit_code"] = int(record["exit_code"])
    err = ERROR_OUTCOMES.get(str(record.get("outcome")))
    if err is not None:
        attrs["error.type"] = err
    return attrs


def firing_span_name(event: str) -> str:
    return f"hooks {event}"


def firing_span_attributes(event: str, inp: Mapping[str, Any], hooks: int) -> dict[str, Any]:
    attrs: dict[str, Any] = {"hookwise.event": event, "hookwise.hooks": hooks}
    session = inp.get("session_id")
    if isinstance(session, str) and session:
        attrs["gen_ai.conversation.id"] = session
    for key, attr in (("tool_name", "gen_ai.tool.name"), ("notification_type", "hookwise.notification_type")):
        v = inp.get(key)
        if isinstance(v, str) and v:
            attrs[attr] = v
    return attrs


def firing_result_attributes(decisions: Sequence[str], outcomes: Mapping[str, int]) -> dict[str, Any]:
    """The firing's verdict from its hooks' own decisions: ``block`` when any hook blocked (exit 2, ``deny``
    or ``block``), else ``ask`` when one asked, else ``allow`` (decisions only tighten, docs/contract.md §8)."""
    decision = "allow"
    if any(d in ("deny", "block") for d in decisions):
        decision = "block"
    elif "ask" in decisions:
        decision = "ask"
    attrs: dict[str, Any] = {"hookwise.decision": decision, "hookwise.stopped": "stop" in decisions}
    for outcome, n in outcomes.items():
        attrs[f"hookwise.outcomes.{outcome}"] = n
    return attrs
