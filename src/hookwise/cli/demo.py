"""``hookwise demo``: a scripted agent session against example hooks (no model key, no network).

It sets up a throwaway project (``VERSION``, ``CHANGES.md``, four command hooks in
``.gemini/hooks/`` wired up in ``.gemini/settings.json``), then runs the reference agent with a
scripted model. In the session the hooks visibly

* add context to the prompt (BeforeAgent ``project-context``),
* block a dangerous shell command (BeforeTool ``shell-guard``),
* rewrite a tool's input to keep a secret out of a file (BeforeTool ``secret-redactor``),
* stop the agent before it publishes (BeforeTool ``release-gate``).

At the end each of those is checked; the exit status is 1 if one did not happen (for example
because the hooks could not run), so the demo doubles as a smoke test.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sys
import tempfile
from importlib import resources
from typing import IO, Any

from hookwise.agent.models import ScriptedModel
from hookwise.agent.session import AgentOptions, AgentSession, TurnStatus
from hookwise.agent.ui import AgentUI
from hookwise.cli.base import CliContext, UsageError
from hookwise.errors import ModelError
from hookwise.events import BLOCKING_DECISIONS

PROMPT = (
    "Clean out the old build, then write release notes for the current version and publish them."
)
NOTES = "notes/RELEASE-1.4.2.md"
SECRET = "3f9c2a7be41d8c06a5e2"
HOOKS = {  # name -> (event, matcher, script)
    "project-context": ("BeforeAgent", None, "project_context.py"),
    "shell-guard": ("BeforeTool", "run_shell_command", "shell_guard.py"),
    "release-gate": ("BeforeTool", "run_shell_command", "release_gate.py"),
    "secret-redactor": ("BeforeTool", "write_file|replace", "secret_redactor.py"),
}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--dir",
        metavar="DIR",
        help="set the demo up in DIR (new or empty) and keep it, to look at or replay",
    )
    parser.add_argument("--keep", action="store_true", help="keep the temporary demo directory")


def settings_document(python: str) -> dict[str, Any]:
    """The demo project's ``.gemini/settings.json``."""
    groups: dict[tuple[str, str | None], list[dict[str, Any]]] = {}
    for name, (event, matcher, script) in HOOKS.items():
        groups.setdefault((event, matcher), []).append(
            {
                "type": "command",
                "name": name,
                "timeout": 10000,
                "command": f'{python} "$GEMINI_PROJECT_DIR/.gemini/hooks/{script}"',
            }
        )
    hooks: dict[str, list[dict[str, Any]]] = {}
    for (event, matcher), entries in groups.items():
        definition: dict[str, Any] = {"hooks": entries}
        if matcher:
            definition = {"matcher": matcher, **definition}
        hooks.setdefault(event, []).append(definition)
    return {"hooks": hooks}


def set_up(base: str) -> tuple[str, str, str]:
    """Create ``base/project``, ``base/home`` and the responses file; returns their paths."""
    data = resources.files("hookwise") / "demo"
    project = os.path.join(base, "project")
    home = os.path.join(base, "home")
    hooks_dir = os.path.join(project, ".gemini", "hooks")
    os.makedirs(hooks_dir)
    os.makedirs(home)
    for entry in (data / "project").iterdir():
        if entry.is_file():
            with open(os.path.join(project, entry.name), "w", encoding="utf-8") as fh:
                fh.write(entry.read_text(encoding="utf-8"))
    for _event, _matcher, script in HOOKS.values():
        with open(os.path.join(hooks_dir, script), "w", encoding="utf-8") as fh:
            fh.write((data / "hooks" / script).read_text(encoding="utf-8"))
    with open(os.path.join(project, ".gemini", "settings.json"), "w", encoding="utf-8") as fh:
        json.dump(settings_document(shlex.quote(sys.executable)), fh, indent=2)
        fh.write("\n")
    responses = os.path.join(base, "session.responses.jsonl")
    with open(responses, "w", encoding="utf-8") as fh:
        fh.write((data / "session.responses.jsonl").read_text(encoding="utf-8"))
    return project, home, responses


def _short(value: Any, width: int = 110) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = text.replace("\n", "\\n")
    return text if len(text) <= width else text[: width - 3] + "..."


def describe_hook_output(output: Any) -> str:
    """One line saying what a hook answered."""
    if not isinstance(output, dict) or not output:
        return "no objection"
    raw = output.get("hookSpecificOutput")
    hso: dict[str, Any] = raw if isinstance(raw, dict) else {}
    said = []
    if output.get("continue") is False:
        said.append(f"STOP ({output.get('stopReason') or output.get('reason') or 'no reason'})")
    if output.get("decision") in BLOCKING_DECISIONS:
        said.append(f"DENY ({output.get('reason') or 'no reason'})")
    elif output.get("decision") == "ask":
        said.append("ASK")
    if isinstance(hso.get("tool_input"), dict):
        said.append(f"rewrote the tool input ({', '.join(hso['tool_input'])})")
    if "additionalContext" in hso:
        said.append(f"added context: {_short(hso['additionalContext'], 80)}")
    return "; ".join(said) or "no objection"


class DemoUI(AgentUI):
    """Narrates the session on one stream."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self._line_open = False

    def _print(self, text: str) -> None:
        if self._line_open:
            self.out.write("\n")
            self._line_open = False
        self.out.write(text + "\n")
        self.out.flush()

    def hook_call(self, record: dict[str, Any]) -> None:
        if record.get("type") != "hook_call":
            return
        outcome = record.get("outcome")
        mark = "" if outcome in ("ok", "blocked") else f" [{outcome}: {record.get('error')}]"
        self._print(
            f"   hook  {record.get('hook_event_name')} {record.get('hook_name')}: "
            f"{describe_hook_output(record.get('hook_output'))}{mark}"
        )

    def text(self, text: str) -> None:
        if not self._line_open:
            self.out.write("  model  ")
        self.out.write(text.replace("\n", " ").rstrip() + ("" if text.endswith("\n") else " "))
        self._line_open = True
        if text.endswith("\n"):
            self.out.write("\n")
            self._line_open = False
        self.out.flush()

    def thought(self, text: str) -> None:
        self._print(f"  thinks {_short(text)}")

    def end_turn(self) -> None:
        if self._line_open:
            self.out.write("\n")
            self._line_open = False

    def system_message(self, event: str, message: str) -> None:
        self._print(f"   note  {message}")

    def status_line(self, line: str) -> None:
        self._print(line)

    def tool_call(self, name: str, args: dict[str, Any]) -> None:
        self._print(f"   tool  {name} {_short(args)}")

    def tool_done(self, name: str, args: dict[str, Any], success: bool, display: str) -> None:
        self._print(f"         {'-> ' if success else 'xx '}{_short(display)}")


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    out = ctx.stdout
    if args.dir:
        base = os.path.abspath(args.dir)
        if os.path.exists(base) and (not os.path.isdir(base) or os.listdir(base)):
            raise UsageError(f"--dir {args.dir}: must be a new or empty directory")
        os.makedirs(base, exist_ok=True)
        keep = True
    else:
        base = tempfile.mkdtemp(prefix="hookwise-demo-")
        keep = bool(args.keep)
    try:
        return _run_demo(base, keep, ctx, out)
    finally:
        if not keep:
            shutil.rmtree(base, ignore_errors=True)


def _run_demo(base: str, keep: bool, ctx: CliContext, out: IO[str]) -> int:
    from hookwise.engine import HookSystem

    project, home, responses = set_up(base)
    env = dict(os.environ)
    env.pop("GEMINI_API_KEY", None)
    # a self-contained demo: no user or system hooks of this machine take part
    env["GEMINI_CLI_HOME"] = home
    env["GEMINI_CLI_SYSTEM_DEFAULTS_PATH"] = os.path.join(base, "no-system-defaults.json")
    env["GEMINI_CLI_SYSTEM_SETTINGS_PATH"] = os.path.join(base, "no-system-settings.json")
    hs = HookSystem(
        project, trace=ctx.trace, trust_all=True, env=env
    )  # the demo wrote these hooks itself
    ui = DemoUI(out)
    records: list[dict[str, Any]] = []
    hs.add_monitor(records.append)
    hs.add_monitor(ui.hook_call)
    model = ScriptedModel.from_file(responses)
    session = AgentSession(hs, model, ui, AgentOptions(approval_mode="yolo"))

    print(
        (
            "hookwise demo: a scripted agent session with four command hooks (no model key, no "
            "network)"
        ),
        file=out,
    )
    print(f"  project  {project}", file=out)
    print("  hooks    in .gemini/settings.json, scripts in .gemini/hooks/:", file=out)
    for name, (event, matcher, script) in HOOKS.items():
        print(f"             {name:<16} {event:<12} {matcher or '':<20} {script}", file=out)
    print(
        (
            "  model    scripted replay of session.responses.jsonl; approval mode yolo, so "
            "only hooks say no"
        ),
        file=out,
    )
    for w in hs.warnings:
        ui.warning(w)
    print(f"\n  user   {PROMPT}", file=out)
    status = TurnStatus.COMPLETED
    try:
        session.start()
        status = session.run_prompt(PROMPT)
    except ModelError as exc:
        print(f"hookwise: error: {exc}", file=ctx.stderr)
        return 1
    finally:
        session.end()

    checks = _checks(project, records, status)
    print("\nWhat the hooks did:", file=out)
    for ok, text in checks:
        print(f"  [{'ok' if ok else 'FAILED'}] {text}", file=out)
    if keep:
        print(f"\nThe demo project is kept in {base}. Replay the session yourself:", file=out)
        print(
            f"  cd {shlex.quote(project)} && HOOKWISE_TRUST_ALL=1 "
            f"GEMINI_CLI_HOME={shlex.quote(home)} hookwise agent -p {shlex.quote(PROMPT)} "
            f"--responses {shlex.quote(responses)} --approval-mode yolo",
            file=out,
        )
    else:
        print(
            "\nRun `hookwise demo --dir DIR` to keep the project, its hooks and the script.",
            file=out,
        )
    return 0 if all(ok for ok, _ in checks) else 1


def _checks(
    project: str, records: list[dict[str, Any]], status: TurnStatus
) -> list[tuple[bool, str]]:
    def output_of(name: str) -> list[dict[str, Any]]:
        return [
            r.get("hook_output") or {}
            for r in records
            if r.get("type") == "hook_call" and r.get("hook_name") == name
        ]

    denied = any(o.get("decision") == "deny" for o in output_of("shell-guard"))
    notes_path = os.path.join(project, NOTES)
    try:
        with open(notes_path, encoding="utf-8") as fh:
            notes = fh.read()
    except OSError:
        notes = ""
    redacted = "[REDACTED]" in notes and SECRET not in notes
    context_sent = any(
        r.get("type") == "model_call"
        and "<hook_context>Project facts" in str(r.get("request_text"))
        for r in records
    )
    stopped = status is TurnStatus.STOPPED and any(
        o.get("continue") is False for o in output_of("release-gate")
    )
    return [
        (
            context_sent,
            "project-context added the project's facts to every model request of the prompt",
        ),
        (
            denied,
            "shell-guard blocked `curl ... | sh`; the model got the reason as the tool's error",
        ),
        (
            redacted,
            f"secret-redactor rewrote write_file's content: {NOTES} has [REDACTED], not the token",
        ),
        (stopped, "release-gate stopped the agent before `git push`"),
    ]
