"""``hookwise agent``: the reference agent host (docs/contract.md §11).

Headless when a prompt is given with ``-p`` or piped on stdin (the answer on stdout, hook
messages, warnings and stop/block lines on stderr); otherwise, on a terminal, an interactive
session. The model is ``--responses FILE`` (a scripted replay of Gemini CLI's fake-responses
format) or, with ``GEMINI_API_KEY`` set, the live Gemini API.

Exit status: 0 when the session ran to its end (hooks that blocked or stopped the agent
included); 1 for a malformed or exhausted responses file, no model, or bad flags; 70 for an
internal error.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from hookwise.agent.models import GEMINI_EXTRA_HINT, GeminiModel, Model, ScriptedModel
from hookwise.agent.session import AgentOptions, AgentSession, TurnStatus
from hookwise.agent.tools import APPROVAL_MODES
from hookwise.agent.transcripts import TranscriptStore
from hookwise.agent.ui import HeadlessUI
from hookwise.cli.base import CliContext, UsageError
from hookwise.errors import ModelError
from hookwise.host import llm_format as fmt

SYSTEM_INSTRUCTION = (
    "You are a careful software agent working in the project directory {project}. Use the tools to "
    "inspect and change files and to run commands; paths are relative to the project directory. "
    "Keep answers short."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-p",
        "--prompt",
        metavar="PROMPT",
        help="run headless with this prompt (piped stdin is added before it)",
    )
    parser.add_argument(
        "--responses",
        metavar="FILE",
        help="replay scripted model answers (Gemini CLI fake-responses JSON Lines)",
    )
    parser.add_argument(
        "--model",
        metavar="NAME",
        default=fmt.DEFAULT_MODEL,
        help=f"model name (default {fmt.DEFAULT_MODEL})",
    )
    parser.add_argument(
        "--approval-mode",
        choices=APPROVAL_MODES,
        default="default",
        help="default: ask before edits and shell commands; auto_edit: ask before shell "
        "commands; yolo: ask for nothing (a hook's ask still applies)",
    )
    parser.add_argument(
        "--trace",
        dest="agent_trace",
        metavar="FILE",
        help="append hook_call, tool_call and model_call records to FILE (JSON Lines)",
    )
    parser.add_argument(
        "--output-format",
        choices=("text", "json"),
        default="text",
        help="json: print one object with the answer and statistics (headless only)",
    )
    parser.add_argument(
        "--max-agent-retries",
        type=int,
        default=8,
        metavar="N",
        help="AfterAgent retries before the agent is stopped (default 8)",
    )
    parser.add_argument(
        "--compress-threshold",
        type=int,
        default=100_000,
        metavar="TOKENS",
        help="compress the history when its estimated tokens (characters/4) pass this "
        "(default 100000)",
    )
    parser.add_argument(
        "--max-turns",
        type=int,
        default=100,
        metavar="N",
        help="model calls allowed for one prompt (default 100)",
    )
    parser.add_argument(
        "--shell-timeout",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="timeout of one run_shell_command call (default 120)",
    )
    parser.add_argument(
        "--resume",
        nargs="?",
        const="latest",
        metavar="SESSION_ID",
        help="continue a saved session (default: the latest of this project); "
        "fires SessionStart with source resume",
    )


def build_model(args: argparse.Namespace, env: dict[str, str] | os._Environ[str]) -> Model:
    """The scripted model (checked whole) or the live one; ModelError/UsageError otherwise."""
    if args.responses:
        return ScriptedModel.from_file(args.responses, name=args.model)
    key = env.get("GEMINI_API_KEY")
    if key:
        return GeminiModel(args.model, api_key=key)
    raise UsageError(
        "no model configured: pass --responses FILE to replay a scripted session, or set "
        f"GEMINI_API_KEY to use the live Gemini API ({GEMINI_EXTRA_HINT})"
    )


def _check_numbers(args: argparse.Namespace) -> None:
    for flag, value, low in (
        ("--max-agent-retries", args.max_agent_retries, 0),
        ("--compress-threshold", args.compress_threshold, 0),
        ("--max-turns", args.max_turns, 1),
    ):
        if value < low:
            raise UsageError(f"{flag} must be at least {low}, got {value}")
    if not args.shell_timeout > 0:
        raise UsageError(
            f"--shell-timeout must be a positive number of seconds, got {args.shell_timeout}"
        )


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    _check_numbers(args)
    if args.agent_trace:
        ctx.trace = args.agent_trace
    stdin_tty = _isatty(ctx.stdin)
    interactive = args.prompt is None and stdin_tty
    if args.output_format == "json" and interactive:
        raise UsageError("--output-format json needs a headless run (-p PROMPT or a piped prompt)")
    model = build_model(
        args, os.environ
    )  # the responses file is checked whole before anything fires

    piped = "" if stdin_tty else ctx.stdin.read()
    hs = ctx.hook_system()
    from hookwise.settings.layers import user_dir

    transcripts = TranscriptStore(user_dir(hs.env), hs.project_dir)
    history: list[dict[str, Any]] = []
    source = "startup"
    if args.resume:
        sid = transcripts.latest() if args.resume == "latest" else args.resume
        if sid is None:
            raise UsageError(f"--resume: no saved session for this project (in {transcripts.dir})")
        try:
            history = transcripts.load(sid)
        except ValueError as exc:
            raise UsageError(f"--resume: {exc}") from None
        hs.session_id = sid
        source = "resume"
    options = AgentOptions(
        model_name=args.model,
        approval_mode=args.approval_mode,
        interactive=interactive,
        max_agent_retries=args.max_agent_retries,
        compress_threshold=args.compress_threshold,
        max_turns=args.max_turns,
        shell_timeout_s=args.shell_timeout,
        system_instruction=SYSTEM_INSTRUCTION.format(project=hs.project_dir),
    )

    if interactive:
        from hookwise.agent.interactive import TerminalUI, run_interactive

        ui = TerminalUI(ctx.stdin, ctx.stdout)
        for w in hs.warnings:
            ui.warning(w)
        session = AgentSession(hs, model, ui, options, transcripts=transcripts)
        session.history = history
        session.review_untrusted(ask=ui.readline)  # before SessionStart and the first prompt
        try:
            run_interactive(session, ui, source=source)
        except ModelError as exc:
            print(f"hookwise: error: {exc}", file=ctx.stderr)
            return 1
        return 0

    hui = HeadlessUI(ctx.stdout, ctx.stderr, collect=args.output_format == "json")
    for w in hs.warnings:
        hui.warning(w)
    session = AgentSession(hs, model, hui, options, transcripts=transcripts)
    session.history = history
    session.review_untrusted()  # headless: one notice up front, never a question
    status: TurnStatus | None = None
    error: str | None = None
    try:
        context = session.start(source)
        prompt = "\n\n".join(p for p in (piped.strip("\n"), args.prompt or "") if p.strip())
        if context:
            prompt = f"{context}\n\n{prompt}" if prompt else context
        if not prompt:
            raise UsageError("no prompt: pass -p PROMPT or pipe one on stdin")
        status = session.run_prompt(prompt)
    except ModelError as exc:
        error = str(exc)
        print(f"hookwise: error: {error}", file=ctx.stderr)
    finally:
        session.end("exit")
    if args.output_format == "json":
        out: dict[str, Any] = {
            "session_id": session.session_id,
            "response": "".join(hui.answer),
            "status": status.value if status is not None else "error",
            "stats": session.stats.to_json(),
            "messages": hui.messages,
        }
        if error is not None:
            out["error"] = error
        print(json.dumps(out, ensure_ascii=False, indent=2), file=ctx.stdout)
    return 1 if error is not None else 0


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


__all__ = ["build_model", "configure", "run"]
