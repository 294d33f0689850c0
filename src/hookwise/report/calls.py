"""Reading hook calls from trace files and summarising them per hook (pure except
:func:`read_calls`).

Two inputs are understood, line by line: ``--trace`` records (docs/contract.md §10
``{"type": "hook_call", ...}``) and the JSON lines of a telemetry ``outfile``
(the ``gemini_cli.hook_call`` log records; spans and metrics there are skipped).
"""

from __future__ import annotations

import calendar
import json
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from hookwise.errors import HookwiseError
from hookwise.events import BLOCKING_DECISIONS
from hookwise.telemetry.records import hook_decision  # pure: imports no OpenTelemetry

#: outcome classes in the order reports show them (docs/contract.md §6)
OUTCOMES = ("ok", "blocked", "failed", "not-run", "timeout", "skipped")


@dataclass
class Call:
    """One hook call as the report sees it."""

    index: int
    event: str
    hook: str
    source: str
    hook_type: str
    outcome: str
    duration_ms: float
    start_ms: float | None  # epoch milliseconds when the firing began (None: unknown)
    decision: str  # block / deny / ask / allow / stop / none
    exit_code: int | None = None
    error: str | None = None
    input: Any = None
    output: Any = None
    stderr: str = ""
    bad_duration: bool = (
        False  # the record's duration_ms was not a finite number >= 0: counted as 0
    )

    @property
    def blocks(self) -> bool:
        return self.decision in BLOCKING_DECISIONS


_SECONDS: dict[
    str, int | None
] = {}  # "2025-01-31T12:34:56" -> epoch seconds (a trace repeats them a lot)


def _epoch_ms(iso: Any) -> float | None:
    """``2025-01-31T12:34:56.789Z`` → epoch milliseconds (UTC), or ``None``."""
    if not isinstance(iso, str) or len(iso) < 19:
        return None
    head = iso[:19]
    base = _SECONDS.get(head, -1)
    if base == -1:
        try:
            base = calendar.timegm(time.strptime(head, "%Y-%m-%dT%H:%M:%S"))
        except ValueError:
            base = None
        if len(_SECONDS) > 100_000:
            _SECONDS.clear()
        _SECONDS[head] = base
    if base is None:
        return None
    frac = 0.0
    rest = iso[19:]
    if rest.startswith("."):
        digits = ""
        for ch in rest[1:]:
            if not ch.isdigit():
                break
            digits += ch
        frac = float("0." + digits) if digits else 0.0
    return (base + frac) * 1000.0


def _decision(outcome: str, output: Any) -> str:
    return hook_decision({"outcome": outcome, "hook_output": output})


def _maybe_json(v: Any) -> Any:
    if isinstance(v, str):
        try:
            return json.loads(v)
        except ValueError:
            return v
    return v


def _duration(v: Any) -> tuple[float, bool]:
    """A record's ``duration_ms`` and whether it was unusable: a finite number >= 0 (also as a
    numeric string); anything else (``NaN``, ``"slow"``, ``null``, ``-1``) counts as 0 and is
    flagged, never a crash."""
    if v is None:
        return 0.0, False
    try:
        d = float(v) if isinstance(v, (int, float, str)) and not isinstance(v, bool) else -1.0
    except ValueError:
        d = -1.0
    if d != d or d in (float("inf"), float("-inf")) or d < 0:
        return 0.0, True
    return d, False


def call_from_trace(i: int, r: Mapping[str, Any]) -> Call:
    inp = r.get("hook_input")
    outcome = str(r.get("outcome") or ("ok" if r.get("success") else "failed"))
    duration, bad = _duration(r.get("duration_ms"))
    return Call(
        index=i,
        event=str(r.get("hook_event_name") or "?"),
        hook=str(r.get("hook_name") or "?"),
        source=str(r.get("source") or ""),
        hook_type=str(r.get("hook_type") or ""),
        outcome=outcome,
        duration_ms=duration,
        start_ms=_epoch_ms(inp.get("timestamp")) if isinstance(inp, dict) else None,
        decision=_decision(outcome, r.get("hook_output")),
        exit_code=r.get("exit_code"),
        error=r.get("error"),
        input=inp,
        output=r.get("hook_output"),
        stderr=str(r.get("stderr") or ""),
        bad_duration=bad,
    )


def call_from_log(i: int, r: Mapping[str, Any]) -> Call | None:
    """A telemetry outfile line holding a ``gemini_cli.hook_call`` log record (else ``None``)."""
    a = r.get("attributes")
    if not isinstance(a, dict) or a.get("event.name") != "gemini_cli.hook_call":
        return None
    inp = _maybe_json(a.get("hook_input"))
    out = _maybe_json(a.get("hook_output"))
    outcome = str(a.get("outcome") or ("ok" if a.get("success") else "failed"))
    duration, bad = _duration(a.get("duration_ms"))
    start = _epoch_ms(inp.get("timestamp")) if isinstance(inp, dict) else None
    if start is None:
        end = _epoch_ms(a.get("event.timestamp") or r.get("timestamp"))
        start = end - duration if end is not None else None
    return Call(
        index=i,
        event=str(a.get("hook_event_name") or "?"),
        hook=str(a.get("hook_name") or "?"),
        source=str(a.get("source") or ""),
        hook_type=str(a.get("hook_type") or ""),
        outcome=outcome,
        duration_ms=duration,
        start_ms=start,
        decision=_decision(outcome, out),
        exit_code=a.get("exit_code"),
        error=a.get("error"),
        input=inp,
        output=out,
        stderr=str(a.get("stderr") or ""),
        bad_duration=bad,
    )


@dataclass
class Reading:
    """What a lenient read of a trace skipped: one message per malformed line, and how many lines
    were readable JSON (a trace written by a process that was killed ends with a partial line)."""

    skipped: list[str] = field(default_factory=list)
    readable: int = 0


def parse_lines(
    lines: Iterable[str], path: str = "<trace>", reading: Reading | None = None
) -> Iterator[Call]:
    """The hook calls of ``lines``. A line that is not JSON raises :class:`HookwiseError`, or, with
    ``reading``, is noted there (with its line number) and skipped."""
    n = 0
    for lineno, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        try:
            r = json.loads(line)
        except json.JSONDecodeError as exc:
            msg = (
                f"{path}:{lineno}: not a JSON line ({exc.msg}); is this a --trace file or a "
                "telemetry outfile?"
            )
            if reading is None:
                raise HookwiseError(msg) from None
            reading.skipped.append(msg.replace("?", "? (line skipped)", 1))
            continue
        if reading is not None:
            reading.readable += 1
        if not isinstance(r, dict):
            continue
        if r.get("type") == "hook_call":
            yield call_from_trace(n, r)
            n += 1
        elif "attributes" in r:
            c = call_from_log(n, r)
            if c is not None:
                yield c
                n += 1


def read_calls(path: str, reading: Reading | None = None) -> list[Call]:
    """Every hook call of a trace file or telemetry outfile, in file order (see
    :func:`parse_lines`)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return list(parse_lines(fh, path, reading))
    except FileNotFoundError:
        raise HookwiseError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise HookwiseError(f"{path}: is a directory") from None
    except PermissionError:
        raise HookwiseError(f"{path}: permission denied") from None


def percentile(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile of an ascending list (0 for an empty one)."""
    if not sorted_values:
        return 0.0
    k = max(0, min(len(sorted_values) - 1, int(-(-p * len(sorted_values) // 100)) - 1))
    return sorted_values[k]


@dataclass
class HookStats:
    event: str
    hook: str
    source: str
    calls: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    blocks: int = 0
    durations: list[float] = field(default_factory=list)

    @property
    def p50(self) -> float:
        return percentile(self.durations, 50)

    @property
    def p95(self) -> float:
        return percentile(self.durations, 95)

    @property
    def max(self) -> float:
        return self.durations[-1] if self.durations else 0.0


def summarise(calls: Iterable[Call]) -> list[HookStats]:
    """Per (event, hook, source): counts, outcomes, blocks and sorted durations; busiest first."""
    by_key: dict[tuple[str, str, str], HookStats] = {}
    for c in calls:
        key = (c.event, c.hook, c.source)
        s = by_key.get(key)
        if s is None:
            s = by_key[key] = HookStats(c.event, c.hook, c.source)
        s.calls += 1
        s.outcomes[c.outcome] = s.outcomes.get(c.outcome, 0) + 1
        s.blocks += c.blocks
        s.durations.append(c.duration_ms)
    for s in by_key.values():
        s.durations.sort()
    return sorted(by_key.values(), key=lambda s: (-s.calls, s.event, s.hook))


def slowest(calls: list[Call], n: int = 10) -> list[Call]:
    return sorted(calls, key=lambda c: -c.duration_ms)[:n]


def _outcome_text(outcomes: Mapping[str, int]) -> str:
    order = [o for o in OUTCOMES if o in outcomes] + sorted(
        o for o in outcomes if o not in OUTCOMES
    )
    return " ".join(f"{o}={outcomes[o]}" for o in order)


def _ms(v: float) -> str:
    return f"{v:.1f}" if v < 100 else f"{v:.0f}"


def text_report(calls: list[Call], path: str, top: int = 10) -> str:
    """The plain-text report: one row per hook, then the slowest calls."""
    stats = summarise(calls)
    if not calls:
        return f"{path}: no hook calls\n"
    rows = [
        ("hook", "event", "source", "calls", "blocks", "p50 ms", "p95 ms", "max ms", "outcomes")
    ]
    for s in stats:
        rows.append(
            (
                s.hook,
                s.event,
                s.source,
                str(s.calls),
                str(s.blocks),
                _ms(s.p50),
                _ms(s.p95),
                _ms(s.max),
                _outcome_text(s.outcomes),
            )
        )
    widths = [min(40, max(len(r[i]) for r in rows)) for i in range(len(rows[0]) - 1)]
    numeric = {3, 4, 5, 6, 7}
    lines = [f"{len(calls)} hook calls of {len(stats)} hooks in {path}", ""]
    bad = sum(c.bad_duration for c in calls)
    if bad:
        lines[1:1] = [f"note: {bad} call(s) have no valid duration_ms (counted as 0 ms)"]
    for r in rows:
        cells = [
            (
                r[i][: widths[i]].rjust(widths[i])
                if i in numeric
                else r[i][: widths[i]].ljust(widths[i])
            )
            for i in range(len(widths))
        ]
        lines.append("  ".join(cells) + "  " + r[-1])
    lines += ["", f"slowest calls (top {min(top, len(calls))}):"]
    for c in slowest(calls, top):
        what = ""
        if isinstance(c.input, dict) and isinstance(c.input.get("tool_name"), str):
            what = f" tool={c.input['tool_name']}"
        at = (
            time.strftime(" %H:%M:%S", time.gmtime(c.start_ms / 1000))
            if c.start_ms is not None
            else ""
        )
        lines.append(
            f"  {_ms(c.duration_ms):>8} ms  {c.event} {c.hook} [{c.outcome}"
            + (f", {c.decision}" if c.decision != "none" else "")
            + f"]{what}{at}"
            + (f"  {c.error}" if c.error and c.outcome != "ok" else "")
        )
    return "\n".join(lines) + "\n"
