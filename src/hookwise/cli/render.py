"""Human-readable rendering of firings and hook lists (CLI only)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from hookwise.result import FireResult, HookOutcome, Outcome

MARK = {
    Outcome.OK: "ok",
    Outcome.BLOCKED: "BLOCKED",
    Outcome.FAILED: "FAILED",
    Outcome.NOT_RUN: "NOT RUN",
    Outcome.TIMEOUT: "TIMEOUT",
    Outcome.SKIPPED: "SKIPPED",
}


def _short(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _verdict(result: FireResult) -> str:
    if result.stopped:
        return "STOP"
    if result.blocked:
        return result.decision.upper()
    if result.asked:
        return "ASK"
    return "ALLOW" if result.output else "ALLOW (no hook answered)"


#: the input fields a firing's headline names (the first one present)
_TARGETS = ("tool_name", "source", "reason", "trigger", "notification_type")
#: the merged hookSpecificOutput fields the text output shows
_SHOWN = (
    "additionalContext",
    "tool_input",
    "toolConfig",
    "llm_request",
    "llm_response",
    "tailToolCallRequest",
    "clearContext",
)


def render_fire(result: FireResult) -> str:
    """The default (non-JSON) output of ``hookwise fire``."""
    lines = [_headline(result)]
    if not result.hooks:
        lines.append("  no hook matched")
    width = max((len(h.name) for h in result.hooks), default=0)
    width = min(max(width, 8), 40)
    for h in result.hooks:
        detail = _hook_detail(h)
        lines.append(
            f"  {_short(h.name, width):<{width}}  {MARK[h.outcome]:<8} {h.duration_ms:8.1f} ms"
            + (f"  {_short(detail, 100)}" if detail else "")
        )
    if result.stopped:
        lines.append(f"stop reason: {result.effective_reason}")
    elif result.reason:
        lines.append(f"reason: {result.reason}")
    if result.system_message:
        lines.append(f"system message: {result.system_message}")
    hso = result.hook_specific
    for key in _SHOWN:
        if key in hso:
            import json

            val = (
                hso[key] if isinstance(hso[key], str) else json.dumps(hso[key], ensure_ascii=False)
            )
            lines.append(f"{key}: {_short(str(val), 200)}")
    return "\n".join(lines)


def _headline(result: FireResult) -> str:
    """``Event (target): verdict [n failed — see warnings]``."""
    target = next((result.input.get(k) for k in _TARGETS if result.input.get(k)), None)
    head = result.event.value + (f" ({target})" if isinstance(target, str) and target else "")
    verdict = _verdict(result)
    failed = result.failed_hooks
    if failed:
        counts: dict[str, int] = {}
        for h in failed:
            counts[h.outcome.value] = counts.get(h.outcome.value, 0) + 1
        verdict += " [" + ", ".join(f"{n} {k}" for k, n in counts.items()) + " — see warnings]"
    return f"{head}: {verdict}"


def _hook_detail(h: HookOutcome) -> str:
    """What one hook said (its decision and why), after its error when it did not run cleanly."""
    detail = ""
    if h.output:
        d = h.output.get("decision")
        why = (
            h.output.get("reason")
            or h.output.get("stopReason")
            or h.output.get("systemMessage")
            or ""
        )
        if h.output.get("continue") is False:
            detail = "stop" + (f": {why}" if why else "")
        elif d:
            detail = str(d) + (f": {why}" if why else "")
        elif why:
            detail = str(why)
    if h.error and h.outcome is not Outcome.OK:
        detail = h.error if not detail else f"{h.error}; {detail}"
    return detail


def table(rows: Sequence[Sequence[str]], headers: Sequence[str]) -> str:
    """A plain left-aligned text table."""
    widths = [len(h) for h in headers]
    for r in rows:
        for i, cell in enumerate(r):
            widths[i] = max(widths[i], len(cell))
    fmt = "  ".join("{:<" + str(w) + "}" for w in widths)
    out = [fmt.format(*headers).rstrip(), fmt.format(*("-" * w for w in widths)).rstrip()]
    out.extend(fmt.format(*r).rstrip() for r in rows)
    return "\n".join(out)


def relpath(path: str | None, start: str) -> str:
    if not path:
        return "-"
    try:
        rel = os.path.relpath(path, start)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel
