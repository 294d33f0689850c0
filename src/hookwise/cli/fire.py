"""``hookwise fire EVENT``: run one event through the configured hooks and print the merged result."""

from __future__ import annotations

import sys

from hookwise._records import TYPE_CHECKING
from hookwise.cli.base import CliContext, UsageError
from hookwise.jsonc.codec import dumps_indented

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import Any
from hookwise.events import (
    EVENT_SPECS,
    PRE_COMPRESS_TRIGGERS,
    SESSION_END_REASONS,
    SESSION_START_SOURCES,
    HookEvent,
    parse_event,
)
from hookwise.input_errors import PayloadError, UnknownEventError

DEFAULTS: dict[HookEvent, dict[str, Any]] = {
    HookEvent.BEFORE_TOOL: {"tool_input": {}},
    HookEvent.AFTER_TOOL: {
        "tool_input": {},
        "tool_response": {"llmContent": "", "returnDisplay": ""},
    },
    HookEvent.BEFORE_AGENT: {"prompt": ""},
    HookEvent.AFTER_AGENT: {"prompt": "", "prompt_response": "", "stop_hook_active": False},
    HookEvent.BEFORE_MODEL: {
        "llm_request": {"model": "gemini-2.5-flash", "messages": [], "config": {}}
    },
    HookEvent.AFTER_MODEL: {
        "llm_request": {"model": "gemini-2.5-flash", "messages": [], "config": {}},
        "llm_response": {"text": "", "candidates": []},
    },
    HookEvent.BEFORE_TOOL_SELECTION: {
        "llm_request": {"model": "gemini-2.5-flash", "messages": [], "config": {}}
    },
    HookEvent.SESSION_START: {"source": "startup"},
    HookEvent.SESSION_END: {"reason": "exit"},
    HookEvent.PRE_COMPRESS: {"trigger": "manual"},
    HookEvent.NOTIFICATION: {
        "notification_type": "ToolPermission",
        "message": "Tool requires confirmation",
        "details": {},
    },
}

#: how a flag's value goes into the input: as text, as a JSON object, or ``true`` when given
TEXT, JSON, SWITCH = "text", "json", "switch"

#: every flag of ``fire`` after the event, one row each: (flag, metavar or None for a switch, input field or
#: None, how its value goes in, allowed values or None, refused for an event without the field, help).
#: argparse's dest is the flag without ``--`` and with ``_`` for ``-``. :func:`configure`,
#: :func:`parse_fast` and :func:`build_payload` all read this table.
FLAGS: tuple[tuple[str, str | None, str | None, str, tuple[str, ...] | None, bool, str], ...] = (
    (
        "--input",
        "FILE",
        None,
        TEXT,
        None,
        False,
        "a JSON object with the event input ('-' for stdin)",
    ),
    ("--tool", "NAME", "tool_name", TEXT, None, True, "tool_name (BeforeTool, AfterTool)"),
    ("--tool-input", "JSON", "tool_input", JSON, None, False, "tool_input, a JSON object"),
    (
        "--tool-response",
        "JSON",
        "tool_response",
        JSON,
        None,
        True,
        "tool_response, a JSON object (AfterTool)",
    ),
    ("--prompt", "TEXT", "prompt", TEXT, None, False, "prompt (BeforeAgent, AfterAgent)"),
    (
        "--prompt-response",
        "TEXT",
        "prompt_response",
        TEXT,
        None,
        True,
        "prompt_response (AfterAgent)",
    ),
    (
        "--stop-hook-active",
        None,
        "stop_hook_active",
        SWITCH,
        None,
        False,
        "stop_hook_active: true (AfterAgent)",
    ),
    (
        "--source",
        "S",
        "source",
        TEXT,
        SESSION_START_SOURCES,
        True,
        "SessionStart source: " + "/".join(SESSION_START_SOURCES),
    ),
    (
        "--reason",
        "R",
        "reason",
        TEXT,
        SESSION_END_REASONS,
        True,
        "SessionEnd reason: " + "/".join(SESSION_END_REASONS),
    ),
    (
        "--trigger",
        "T",
        "trigger",
        TEXT,
        PRE_COMPRESS_TRIGGERS,
        True,
        "PreCompress trigger: " + "/".join(PRE_COMPRESS_TRIGGERS),
    ),
    (
        "--llm-request",
        "JSON",
        "llm_request",
        JSON,
        None,
        False,
        "llm_request, a JSON object (model events)",
    ),
    (
        "--llm-response",
        "JSON",
        "llm_response",
        JSON,
        None,
        True,
        "llm_response, a JSON object (AfterModel)",
    ),
    (
        "--notification-type",
        "T",
        "notification_type",
        TEXT,
        None,
        True,
        "notification_type (Notification)",
    ),
    ("--message", "TEXT", "message", TEXT, None, False, "message (Notification)"),
    ("--details", "JSON", "details", JSON, None, False, "details, a JSON object (Notification)"),
    (
        "--session-id",
        "ID",
        "session_id",
        TEXT,
        None,
        False,
        "session_id (default: a new random id)",
    ),
    ("--json", None, None, SWITCH, None, False, "print the result as one JSON object"),
    (
        "--wait-async",
        None,
        None,
        SWITCH,
        None,
        False,
        "wait for async hooks before answering (default: answer at once, stop them at exit)",
    ),
)
_FLAG_TABLE = {row[0]: row[1] is not None for row in FLAGS}


def _dest(flag: str) -> str:
    return flag[2:].replace("-", "_")


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "event", metavar="EVENT", help="one of: " + ", ".join(e.value for e in HookEvent)
    )
    for flag, metavar, *_, help_text in FLAGS:
        if metavar is None:
            p.add_argument(flag, action="store_true", help=help_text)
        else:
            p.add_argument(flag, metavar=metavar, help=help_text)


def parse_fast(argv: Sequence[str]) -> dict[str, Any] | None:
    """The namespace argparse would build from ``argv`` (after ``fire``), when it is plainly well-formed.

    Only exact flags of :data:`FLAGS`, ``--flag value`` / ``--flag=value`` and
    one event are read here; anything else (help, abbreviations, a value that
    looks like an option, a missing or second event) returns None, and argparse
    parses the line and reports what is wrong, exactly as before.
    """
    out: dict[str, Any] = {
        _dest(flag): (None if takes else False) for flag, takes in _FLAG_TABLE.items()
    }
    event: str | None = None
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if not arg.startswith("-"):
            if event is not None:
                return None
            event = arg
            continue
        flag, eq, value = arg.partition("=")
        takes = _FLAG_TABLE.get(flag)
        if takes is None or (eq and not takes):
            return None
        if takes and not eq:
            if i >= len(argv) or (argv[i].startswith("-") and argv[i] != "-"):
                return None
            value = argv[i]
            i += 1
        out[_dest(flag)] = value if takes else True
    if event is None:
        return None
    out["event"] = event
    return out


def _json_flag(flag: str, text: str) -> dict[str, Any]:
    from hookwise.jsonc.parse import loads_strict

    try:
        value = loads_strict(text)
    except ValueError as exc:
        raise UsageError(f"{flag}: not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise UsageError(f"{flag}: expected a JSON object, got {type(value).__name__}")
    return value


def read_input(path: str, stdin: Any) -> dict[str, Any]:
    """The ``--input`` object (``-`` reads standard input)."""
    from hookwise.jsonc.parse import loads_strict

    where = "--input -" if path == "-" else f"--input {path}"
    try:
        if path == "-":
            text = stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except FileNotFoundError:
        raise UsageError(f"{where}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{where}: cannot read: {exc}") from None
    try:
        value = loads_strict(text)
    except ValueError as exc:
        raise UsageError(f"{where}: not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise UsageError(f"{where}: the input must be a JSON object, got {type(value).__name__}")
    return value


def _check_flags(event: HookEvent, given: list[str], data: dict[str, Any]) -> None:
    """Refuse a flag whose field the event's input lacks (when its row says so), then a value not allowed."""
    fields = EVENT_SPECS[event].fields
    for flag, _metavar, key, _kind, _choices, checked, _help in FLAGS:
        if checked and flag in given and key not in fields:
            raise UsageError(f"{flag} does not apply to {event.value}")
    for flag, _metavar, key, _kind, choices, _checked, _help in FLAGS:
        if choices is not None and key in fields and key in data and data[key] not in choices:
            raise UsageError(f"{flag} {data[key]!r}: expected one of {', '.join(choices)}")


def build_payload(event: HookEvent, args: argparse.Namespace, stdin: Any) -> dict[str, Any]:
    data: dict[str, Any] = dict(DEFAULTS[event])
    if args.input:
        given = read_input(args.input, stdin)
        if "hook_event_name" in given and given["hook_event_name"] != event.value:
            raise UsageError(
                f"--input: hook_event_name is {given['hook_event_name']!r} but the event fired is "
                f"{event.value!r}"
            )
        data.update(given)
    given_flags = []
    for flag, _metavar, key, kind, _choices, _checked, _help in FLAGS:
        value = getattr(args, _dest(flag))
        if key is None or value is None or value is False:  # not an input field, or not given
            continue
        given_flags.append(flag)
        data[key] = _json_flag(flag, value) if kind == JSON else True if kind == SWITCH else value
    _check_flags(event, given_flags, data)
    if event in (HookEvent.BEFORE_TOOL, HookEvent.AFTER_TOOL) and not data.get("tool_name"):
        raise UsageError(f"{event.value} needs a tool name: --tool NAME (or tool_name in --input)")
    return data


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    try:
        event = parse_event(args.event)
    except UnknownEventError as exc:
        raise UsageError(str(exc)) from None
    payload = build_payload(event, args, ctx.stdin if args.input == "-" else sys.stdin)
    hs = ctx.hook_system()
    for w in hs.warnings:
        ctx.warn(w)
    try:
        result = hs.fire(event, payload)
    except PayloadError as exc:
        raise UsageError(str(exc)) from None
    # `async` hooks (docs/claude.md): the answer comes at once, with the reports of those already finished;
    # those still running are stopped as the program exits, as Claude Code cancels them at the end of `-p`
    result.warnings.extend(hs.wait_background(None if args.wait_async else 0))
    running = hs.background_running
    if running:
        result.warnings.append(
            f"{running} async hook{'s' if running != 1 else ''} still running when hookwise fire answered: "
            "stopped as it exits (as Claude Code cancels background hooks at the end of a -p session); "
            "no outcome is reported for them"
        )
    if args.json:
        print(dumps_indented(result.to_json(), ensure_ascii=False), file=ctx.stdout)
    else:
        from hookwise.cli.render import render_fire

        print(render_fire(result), file=ctx.stdout)
    for w in result.warnings:
        ctx.warn(w)
    if (
        running
    ):  # the answer is out first; then the processes of the async hooks still running are stopped
        from hookwise.runners import _reaper

        ctx.stdout.flush()
        _reaper.signal_runs_of_this_process(_reaper.SIGTERM)
    return int(result.exit_code)
