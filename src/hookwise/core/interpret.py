"""What a hook's answer means (docs/contract.md §6). Pure functions, one table.

| exit            | out          | meaning                                             | outcome   |
|-----------------|--------------|-----------------------------------------------------|-----------|
| 0               | JSON object  | that object                                         | ok        |
| 0               | text         | {decision: allow, systemMessage: text}              | ok        |
| 0               | nothing      | no output                                           | ok        |
| 2               | JSON object  | that object, a non-blocking decision becomes deny   | blocked   |
| 2               | text/nothing | {decision: deny, reason: stderr|stdout|default}     | blocked   |
| other non-zero  | JSON object  | that object, plus a warning                         | failed    |
| other non-zero  | text/nothing | {systemMessage: "Warning: <text>"}, not blocking    | failed    |
| 126, 127, spawn | —            | no output; the hook did not run                     | not-run   |
| timeout         | —            | no output                                           | timeout   |
| signal          | —            | no output                                           | failed    |

``out`` is the trimmed stdout, or the trimmed stderr when stdout is empty.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING, dataclass
from hookwise.jsonc.codec import compact_text, dumps
from hookwise.jsonc.parse import loads_strict
from hookwise.result import Outcome, asks_to_block

if TYPE_CHECKING:
    from typing import Any


@dataclass
class Interpretation:
    outcome: Outcome
    output: dict[str, Any] | None
    error: str | None
    is_json: bool = False  # the output is the hook's own JSON object (not a text fallback)
    #: the output is known to be JSON whose every string encodes (ASCII): the answer check need not look again
    encodable: bool = False


def parse_object(text: str) -> dict[str, Any] | None:
    """``text`` as a JSON object (or a JSON string holding one), else None. Strict JSON only."""
    if not text or text[0] not in '{"':
        return None
    try:
        value = loads_strict(text)
        if isinstance(value, str):
            value = loads_strict(value)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _too_deep(text: str) -> bool:
    """``text`` is JSON that Python's parser gives up on only because of its nesting depth."""
    try:
        loads_strict(text)
    except RecursionError:
        return True
    except ValueError:
        return False
    return False


def json_error(out: str) -> str | None:
    """Why ``out``, which starts like JSON (``{`` or ``[``), does not parse (with the position); else None.

    Output that starts like JSON and fails to parse is a crashed serializer or a
    truncated write, not text: a malformed answer (docs/contract.md §6).
    """
    if out[:1] not in ("{", "["):
        return None
    try:
        loads_strict(out)
    except RecursionError:
        return None  # too deep: reported by the caller
    except ValueError as exc:
        line, col, msg = (getattr(exc, k, None) for k in ("lineno", "colno", "msg"))
        where = f"line {line} column {col}: {msg}" if line is not None else str(exc)
        return f"its output starts like JSON but does not parse ({where}); the answer was ignored"
    return None


def last_line(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    s = lines[-1].strip() if lines else ""
    return s if len(s) <= 300 else s[:297] + "..."


def signal_name(num: int) -> str:
    import signal as _signal

    try:
        return _signal.Signals(num).name
    except ValueError:
        return f"signal {num}"


def interpret(
    name: str,
    *,
    exit_code: int | None,
    signal: int | None = None,
    stdout: str = "",
    stderr: str = "",
    timed_out: bool = False,
    timeout_ms: int = 0,
    spawn_error: str | None = None,
) -> Interpretation:
    """Apply the exit-code table to one finished command hook."""
    if spawn_error is not None:
        return Interpretation(Outcome.NOT_RUN, None, spawn_error)
    if timed_out:
        return Interpretation(Outcome.TIMEOUT, None, f"timed out after {timeout_ms} ms")
    if exit_code is None:
        sig = signal_name(signal) if signal is not None else "a signal"
        return Interpretation(Outcome.FAILED, None, f"killed by {sig}")
    out_s, err_s = stdout.strip(), stderr.strip()
    out = out_s or err_s
    obj = parse_object(out) if out else None
    if obj is None and exit_code not in (2, 126, 127) and out[:1] == "{" and _too_deep(out):
        return Interpretation(
            Outcome.FAILED,
            None,
            "its JSON output is nested too deeply to read; the answer was ignored",
        )
    if exit_code == 0:
        return _exit_zero(obj, out)
    if exit_code == 2:
        return _exit_two(name, obj, out_s, err_s)
    if exit_code in (126, 127):
        why = "command not found" if exit_code == 127 else "not executable"
        detail = last_line(stderr)
        error = f"exit code {exit_code} ({why})" + (f": {detail}" if detail else "")
        return Interpretation(Outcome.NOT_RUN, None, error)
    detail = last_line(stderr) or last_line(stdout)
    error = f"exit code {exit_code}" + (f": {detail}" if detail else "")
    if obj is not None:
        return Interpretation(Outcome.FAILED, obj, error, True)
    if out:
        return Interpretation(Outcome.FAILED, {"systemMessage": f"Warning: {out}"}, error)
    return Interpretation(Outcome.FAILED, None, error)


def _exit_zero(obj: dict[str, Any] | None, out: str) -> Interpretation:
    """Exit 0: a JSON answer, plain text (a message, allow), or nothing."""
    if obj is not None:
        return Interpretation(Outcome.OK, obj, None, True)
    broken = json_error(out)
    if broken is not None:  # starts like JSON but does not parse: malformed, never a silent allow
        return Interpretation(Outcome.FAILED, None, broken)
    if out:
        return Interpretation(Outcome.OK, {"decision": "allow", "systemMessage": out}, None)
    return Interpretation(Outcome.OK, None, None)


def _exit_two(name: str, obj: dict[str, Any] | None, out_s: str, err_s: str) -> Interpretation:
    """Exit 2: a block; the reason from a JSON answer's ``reason``, else stderr, else stdout."""
    if obj is not None:
        obj = dict(obj)
        if not asks_to_block(obj):
            obj["decision"] = "deny"
        if not (isinstance(obj.get("reason"), str) and obj["reason"]):
            obj["reason"] = (err_s if out_s and err_s else "") or f"Blocked by hook {name}"
        return Interpretation(Outcome.BLOCKED, obj, None, True)
    return Interpretation(
        Outcome.BLOCKED,
        {"decision": "deny", "reason": err_s or out_s or f"Blocked by hook {name}"},
        None,
    )


def interpret_python(name: str, value: Any) -> Interpretation:
    """A Python hook's return value: a dict, or None for "no opinion"."""
    if value is None:
        return Interpretation(Outcome.OK, None, None)
    if isinstance(value, dict):
        try:
            text = compact_text(value, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as exc:
            return Interpretation(
                Outcome.FAILED,
                None,
                f"returned a dict that is not JSON-serialisable: {_why(value, exc)}",
            )
        return Interpretation(Outcome.OK, value, None, False, text.isascii())
    return Interpretation(
        Outcome.FAILED, None, f"returned {type(value).__name__}, expected a dict or None"
    )


def _why(value: dict[str, Any], exc: Exception) -> Exception:
    """What :func:`dumps` says about ``value`` (a cycle is "Circular reference detected", not a recursion)."""
    if not isinstance(exc, RecursionError):
        return exc
    try:
        dumps(value, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as again:
        return again
    return exc  # pragma: no cover - dumps fails wherever compact_text does


def fail_closed_output(
    name: str, outcome: Outcome, error: str | None, output: dict[str, Any] | None
) -> dict[str, Any]:
    """The block a ``failClosed`` hook produces when it failed, did not run or timed out."""
    base = dict(output) if output else {}
    base["decision"] = "deny"
    base["reason"] = f"Hook {name} failed closed ({outcome.value}: {error or 'no detail'})"
    return base
