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
from hookwise.errors import PayloadError, UnknownEventError
from hookwise.events import (
    EVENT_SPECS,
    PRE_COMPRESS_TRIGGERS,
    SESSION_END_REASONS,
    SESSION_START_SOURCES,
    HookEvent,
    parse_event,
)

JSON_FLAGS = {
    "tool_input": "--tool-input",
    "tool_response": "--tool-response",
    "llm_request": "--llm-request",
    "llm_response": "--llm-response",
    "details": "--details",
}

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

CHOICES = {
    "source": SESSION_START_SOURCES,
    "reason": SESSION_END_REASONS,
    "trigger": PRE_COMPRESS_TRIGGERS,
}


#: every flag of ``fire`` after the event: (flag, metavar or None for a switch, help); argparse's dest is the
#: flag without ``--`` and with ``_`` for ``-``. :func:`configure` and :func:`parse_fast` both read this table.
FLAGS: tuple[tuple[str, str | None, str], ...] = (
    ("--input", "FILE", "a JSON object with the event input ('-' for stdin)"),
    ("--tool", "NAME", "tool_name (BeforeTool, AfterTool)"),
    ("--tool-input", "JSON", "tool_input, a JSON object"),
    ("--tool-response", "JSON", "tool_response, a JSON object (AfterTool)"),
    ("--prompt", "TEXT", "prompt (BeforeAgent, AfterAgent)"),
    ("--prompt-response", "TEXT", "prompt_response (AfterAgent)"),
    ("--stop-hook-active", None, "stop_hook_active: true (AfterAgent)"),
    ("--source", "S", "SessionStart source: " + "/".join(SESSION_START_SOURCES)),
    ("--reason", "R", "SessionEnd reason: " + "/".join(SESSION_END_REASONS)),
    ("--trigger", "T", "PreCompress trigger: " + "/".join(PRE_COMPRESS_TRIGGERS)),
    ("--llm-request", "JSON", "llm_request, a JSON object (model events)"),
    ("--llm-response", "JSON", "llm_response, a JSON object (AfterModel)"),
    ("--notification-type", "T", "notification_type (Notification)"),
    ("--message", "TEXT", "message (Notification)"),
    ("--details", "JSON", "details, a JSON object (Notification)"),
    ("--session-id", "ID", "session_id (default: a new random id)"),
    ("--json", None, "print the result as one JSON object"),
    (
        "--wait-async",
        None,
        "wait for async hooks before answering (default: answer at once, stop them at exit)",
    ),
)
_FLAG_TABLE = {flag: metavar is not None for flag, metavar, _ in FLAGS}


def _dest(flag: str) -> str:
    return flag[2:].replace("-", "_")


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "event", metavar="EVENT", help="one of: " + ", ".join(e.value for e in HookEvent)
    )
    for flag, metavar, help_text in FLAGS:
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
    simple = {
        "tool_name": args.tool,
        "prompt": args.prompt,
        "prompt_response": args.prompt_response,
        "source": args.source,
        "reason": args.reason,
        "trigger": args.trigger,
        "notification_type": args.notification_type,
        "message": args.message,
        "session_id": args.session_id,
    }
    for key, value in simple.items():
        if value is not None:
            data[key] = value
    for key, flag in JSON_FLAGS.items():
        value = getattr(args, key)
        if value is not None:
            data[key] = _json_flag(flag, value)
    if args.stop_hook_active:
        data["stop_hook_active"] = True
    fields = EVENT_SPECS[event].fields
    for key, flag in (
        ("tool_name", "--tool"),
        ("prompt_response", "--prompt-response"),
        ("source", "--source"),
        ("reason", "--reason"),
        ("trigger", "--trigger"),
        ("tool_response", "--tool-response"),
        ("llm_response", "--llm-response"),
        ("notification_type", "--notification-type"),
    ):
        if (
            getattr(args, key if key != "tool_name" else "tool", None) is not None
            and key not in fields
        ):
            raise UsageError(f"{flag} does not apply to {event.value}")
    for key, allowed in CHOICES.items():
        if key in fields and key in data and data[key] not in allowed:
            raise UsageError(f"--{key} {data[key]!r}: expected one of {', '.join(allowed)}")
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
