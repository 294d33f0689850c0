"""What each telemetry record carries, built from a ``hook_call`` trace record (pure;
docs/telemetry.md).

The log record and the two metrics use Gemini CLI's names and attributes
(docs/telemetry.md) so dashboards built for Gemini CLI keep working;
hookwise adds ``source`` and ``outcome``. The span attributes live in hookwise's
own ``hookwise.*`` namespace: the GenAI conventions have no hook spans, and
their guardrail vocabulary is reserved for dedicated guardrail libraries.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from hookwise.decisions import decision_of
from hookwise.events import BLOCKING_DECISIONS
from hookwise.jsonc.codec import dumps_indented

if TYPE_CHECKING:
    pass

EVENT_NAME = "gemini_cli.hook_call"
COUNT_METRIC = "gemini_cli.hook_call.count"
LATENCY_METRIC = "gemini_cli.hook_call.latency"
LOGGER_NAME = "hookwise"

#: outcomes whose hook span gets ERROR status, with the ``error.type`` each sets (docs/contract.md
#: §6)
ERROR_OUTCOMES: dict[str, str] = {"failed": "failed", "timeout": "timeout", "not-run": "not_run"}

_PATH_SEP = re.compile(r"[/\\]")
_REDUCED: dict[str, str] = {}  # hook names recur: each is reduced once per process
#: a URL: scheme, user information (``user:pw@``), host, path, query, fragment; no nested repeats
#: (linear time)
_URL = re.compile(
    r"(?i)\b([a-z][a-z0-9+.-]{0,30}://)([^\s/?#@]*@)?([^\s/?#]*)([^\s?#]*)(\?[^\s#]*)?(#\S*)?"
)


def scrub_urls(text: str) -> str:
    """``text`` with every URL's user information, query string and fragment left out (``?…`` marks
    a query): an http hook's ``https://h/x?token=SECRET`` or a ``redis://:pw@host`` in an error
    message is never exported, whatever ``logPrompts`` says (docs/telemetry.md,
    docs/security.md)."""
    if "://" not in text:
        return text
    return _URL.sub(lambda m: m[1] + m[3] + m[4] + ("?…" if m[5] else ""), text)


def safe_error(error: str | None, log_prompts: bool) -> str | None:
    """What an outcome's error may say in telemetry: URLs scrubbed; with ``logPrompts`` off, only
    its head.

    Errors read ``<what happened>: <detail>`` where the detail is the hook's own text (its last
    stderr line, an exception's message, the start of an HTTP answer), which can quote the prompt or
    the tool input; with ``logPrompts`` off the detail is left out (``exit code 1``,
    ``raised KeyError``).
    """
    if not error:
        return None
    return scrub_urls(error if log_prompts else error.split(": ", 1)[0])  # a URL holds no ": "


def sanitize_hook_name(name: str | None) -> str:
    """Gemini CLI's reduced hook name: the first word of the name, its basename if it is a path.

    ``/usr/bin/python3 check.py`` becomes ``python3``; ``My Hook`` becomes ``My``;
    a blank name (or one ending in a path separator) becomes ``unknown-command``.
    """
    if not name:
        return "unknown-command"
    reduced = _REDUCED.get(name)
    if reduced is None:
        words = name.split()
        reduced = (_PATH_SEP.split(words[0])[-1] if words else "") or "unknown-command"
        if len(_REDUCED) > 4096:
            _REDUCED.clear()
        _REDUCED[name] = reduced
    return reduced


def _json2(value: Any) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False, default=str)``: how Gemini CLI logs inputs
    and outputs."""
    return dumps_indented(value, ensure_ascii=False, default=str)


def input_json(inp: Any) -> str:
    """A firing's input as Gemini CLI logs it: JSON indented by 2 spaces."""
    return _json2(inp)


def hook_decision(record: Mapping[str, Any]) -> str:
    """One hook's own verdict: ``block`` (exit 2), ``stop``, ``deny``, ``ask``, ``allow`` or
    ``none``."""
    return decision_of(str(record.get("outcome")), record.get("hook_output"))


class HookCall(NamedTuple):
    """Everything one hook call emits, each value computed once and shared between the records."""

    span_name: str
    span_attributes: dict[str, Any]
    #: the description of the span's ERROR status (``None``: the status stays unset)
    error_status: str | None
    body: str
    log_attributes: dict[str, Any]
    metric_attributes: dict[str, Any]
    duration_ms: float
    decision: str


def hook_call(
    *,
    event: str,
    name: str,
    hook_type: str,
    source: str,
    outcome: str,
    exit_code: int | None,
    duration_ms: float,
    output: Any,
    stdout: str,
    stderr: str,
    error: str | None,
    session: str | None,
    log_prompts: bool,
    timestamp: str,
    input_json: str | None,
) -> HookCall:
    """The span, log record and metric attributes of one hook call (docs/telemetry.md, "The
    records").

    ``duration_ms`` is the ``hook_call`` trace record's (rounded to the microsecond); ``session``
    the input's ``session_id`` when it is a non-empty string; ``input_json`` the firing's input
    as :func:`input_json` renders it (every hook of a firing shares it; needed with
    ``log_prompts`` only)."""
    name = scrub_urls(name)
    reduced = sanitize_hook_name(name)
    shown = name if log_prompts else reduced
    error = safe_error(error, log_prompts)
    success = outcome == "ok"
    ms = int(round(duration_ms))
    decision = decision_of(outcome, output)
    span: dict[str, Any] = {
        "hookwise.hook.event": event,
        "hookwise.hook.name": shown,
        "hookwise.hook.type": hook_type,
        "hookwise.hook.source": source,
        "hookwise.hook.outcome": outcome,
        "hookwise.hook.decision": decision,
        "hookwise.hook.duration_ms": duration_ms,
    }
    log: dict[str, Any] = {"event.name": EVENT_NAME, "event.timestamp": timestamp}
    metric: dict[str, Any] = {}
    if session:
        span["gen_ai.conversation.id"] = session
        log["session.id"] = metric["session.id"] = session
    log["hook_event_name"] = metric["hook_event_name"] = event
    log["hook_type"] = hook_type
    log["hook_name"] = shown
    metric["hook_name"] = reduced
    log["duration_ms"] = ms
    log["success"] = metric["success"] = success
    if exit_code is not None:
        log["exit_code"] = span["hookwise.hook.exit_code"] = exit_code
    if log_prompts:
        if input_json is None:
            raise ValueError("hook_call: input_json is needed when log_prompts is on")
        log["hook_input"] = input_json
        if output is not None:
            log["hook_output"] = _json2(output)
        log["stdout"] = stdout
        log["stderr"] = stderr
    if error:
        log["error"] = error
    log["source"] = source
    log["outcome"] = metric["outcome"] = outcome
    err = ERROR_OUTCOMES.get(outcome)
    if err is not None:
        span["error.type"] = err
    return HookCall(
        span_name=f"hook {event} {shown}",
        span_attributes=span,
        error_status=(error or outcome) if err is not None else None,
        body=f"Hook call {event}.{shown} {'succeeded' if success else 'failed'} in {ms}ms",
        log_attributes=log,
        metric_attributes=metric,
        duration_ms=duration_ms,
        decision=decision,
    )


def hook_call_from_record(
    record: Mapping[str, Any], *, log_prompts: bool, timestamp: str, input_json: str | None = None
) -> HookCall:
    """:func:`hook_call` for a ``hook_call`` trace record (docs/contract.md §10)."""
    inp = record.get("hook_input")
    session = inp.get("session_id") if isinstance(inp, dict) else None
    exit_code = record.get("exit_code")
    if log_prompts and input_json is None:
        input_json = _json2(inp)
    return hook_call(
        event=str(record.get("hook_event_name")),
        name=str(record.get("hook_name") or ""),
        hook_type=str(record.get("hook_type")),
        source=str(record.get("source")),
        outcome=str(record.get("outcome")),
        exit_code=int(exit_code) if exit_code is not None else None,
        duration_ms=float(record.get("duration_ms") or 0.0),
        output=record.get("hook_output"),
        stdout=str(record.get("stdout") or ""),
        stderr=str(record.get("stderr") or ""),
        error=str(record["error"]) if record.get("error") else None,
        session=session if isinstance(session, str) and session else None,
        log_prompts=log_prompts,
        timestamp=timestamp,
        input_json=input_json,
    )


def firing_span_name(event: str) -> str:
    return f"hooks {event}"


def firing_span_attributes(event: str, inp: Mapping[str, Any], hooks: int) -> dict[str, Any]:
    attrs: dict[str, Any] = {"hookwise.event": event, "hookwise.hooks": hooks}
    session = inp.get("session_id")
    if isinstance(session, str) and session:
        attrs["gen_ai.conversation.id"] = session
    for key, attr in (
        ("tool_name", "gen_ai.tool.name"),
        ("notification_type", "hookwise.notification_type"),
    ):
        v = inp.get(key)
        if isinstance(v, str) and v:
            attrs[attr] = v
    return attrs


def firing_result_attributes(
    decisions: Sequence[str], outcomes: Mapping[str, int]
) -> dict[str, Any]:
    """The firing's verdict from its hooks' own decisions: ``block`` when any hook blocked (exit 2,
    ``deny`` or ``block``), else ``ask`` when one asked, else ``allow`` (decisions only tighten,
    docs/contract.md §8)."""
    decision = "allow"
    if any(d in BLOCKING_DECISIONS for d in decisions):
        decision = "block"
    elif "ask" in decisions:
        decision = "ask"
    attrs: dict[str, Any] = {"hookwise.decision": decision, "hookwise.stopped": "stop" in decisions}
    for outcome, n in outcomes.items():
        attrs[f"hookwise.outcomes.{outcome}"] = n
    return attrs
