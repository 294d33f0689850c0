"""The interactive session: a line-based prompt with confirmations and ``/`` commands.

Commands: ``/clear`` (SessionEnd(clear), fresh session, SessionStart(clear)), ``/compress``
(PreCompress(manual) and a summary), ``/hooks`` (every configured hook), ``/help``, ``/quit``.
End of input (Ctrl-D) quits too. Confirmation prompts accept ``y``/``yes``; anything else refuses.
"""

from __future__ import annotations

import json
from typing import IO, Any

from hookwise.agent.session import AgentSession
from hookwise.agent.tools import Confirmation
from hookwise.agent.ui import AgentUI

COMMANDS = {
    "/clear": "start a fresh conversation (SessionEnd clear, SessionStart clear)",
    "/compress": "summarise the conversation so far (PreCompress manual)",
    "/hooks": "list the configured hooks",
    "/help": "show these commands",
    "/quit": "end the session (also /exit or Ctrl-D)",
}


def _short(value: Any, width: int = 200) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = text.replace("\n", "\\n")
    return text if len(text) <= width else text[: width - 3] + "..."


class TerminalUI(AgentUI):
    """Everything on one stream, answers read from ``stdin``."""

    interactive = True

    def __init__(self, stdin: IO[str], stdout: IO[str]) -> None:
        self.inp = stdin
        self.out = stdout
        self._at_line_start = True

    def _write(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()
        if text:
            self._at_line_start = text.endswith("\n")

    def line(self, text: str) -> None:
        if not self._at_line_start:
            self._write("\n")
        self._write(text + "\n")

    def readline(self, prompt: str) -> str | None:
        """One line from the person (None at end of input)."""
        if not self._at_line_start:
            self._write("\n")
        self._write(prompt)
        line = self.inp.readline()
        self._at_line_start = True
        if not line:
            return None
        return line.rstrip("\r\n")

    # ---- AgentUI -----------------------------------------------------------------------------
    def text(self, text: str) -> None:
        self._write(text)

    def thought(self, text: str) -> None:
        self.line(f"(thinking) {_short(text, 300)}")

    def end_turn(self) -> None:
        if not self._at_line_start:
            self._write("\n")

    def system_message(self, event: str, message: str) -> None:
        self.line(f"[hook {event}] {message}")

    def status_line(self, line: str) -> None:
        self.line(line)

    def tool_call(self, name: str, args: dict[str, Any]) -> None:
        self.line(f"-> {name} {_short(args)}")

    def tool_done(self, name: str, args: dict[str, Any], success: bool, display: str) -> None:
        if success:
            self.line(f"   {_short(display, 120)}")

    def tool_error(self, name: str, message: str) -> None:
        self.line(f"Error executing tool {name}: {message}")

    def confirm(
        self, name: str, args: dict[str, Any], confirmation: Confirmation, hook_message: str | None
    ) -> bool:
        d = confirmation.details
        self.line(f"? {confirmation.title}")
        if confirmation.kind == "exec":
            self.line(f"  command: {d.get('command')}")
        elif confirmation.kind == "edit":
            diff = str(d.get("fileDiff") or "").rstrip("\n")
            for ln in diff.splitlines()[:40]:
                self.line(f"  {ln}")
        else:
            self.line(f"  {d.get('prompt') or _short(args)}")
        if hook_message:
            self.line(f"  a hook asks for confirmation: {hook_message}")
        answer = self.readline(f"Allow {name}? [y/N] ")
        return answer is not None and answer.strip().lower() in ("y", "yes")


def list_hooks(session: AgentSession) -> list[str]:
    """Lines describing every configured hook (``/hooks``)."""
    hs = session.hooks
    entries = list(hs.entries)
    if not entries:
        return ["No hooks configured."]
    lines = []
    for e in entries:
        state = "enabled" if e.enabled else "disabled"
        trusted = "" if hs.is_trusted(e) else ", untrusted (run `hookwise trust`)"
        matcher = f" matcher={e.matcher!r}" if e.matcher not in (None, "") else ""
        lines.append(
            f"  {e.event.value:<20} {e.display_name} [{state}{trusted}] source={e.source}{matcher}"
        )
    return [f"{len(entries)} hook(s):"] + lines


def run_interactive(session: AgentSession, ui: TerminalUI, *, source: str = "startup") -> None:
    """Run the prompt loop until /quit or end of input; SessionStart first, SessionEnd(exit)
    last."""
    ui.line("hookwise agent: interactive session " + session.session_id)
    ui.line("Type a prompt, or /help for commands.")
    session.start(source)
    try:
        while True:
            try:
                line = ui.readline("> ")
            except KeyboardInterrupt:
                ui.line("")
                break
            if line is None:
                break
            text = line.strip()
            if not text:
                continue
            if text.startswith("/"):
                cmd = text.split()[0]
                if cmd in ("/quit", "/exit"):
                    break
                if cmd == "/clear":
                    session.clear()
                elif cmd == "/compress":
                    if not session.compress("manual"):
                        ui.line("Nothing to compress.")
                elif cmd == "/hooks":
                    for ln in list_hooks(session):
                        ui.line(ln)
                elif cmd == "/help":
                    for name, desc in COMMANDS.items():
                        ui.line(f"  {name:<10} {desc}")
                else:
                    ui.line(f"Unknown command {cmd}. Commands: {', '.join(COMMANDS)}")
                continue
            try:
                session.run_prompt(line)
            except KeyboardInterrupt:
                ui.line("Interrupted.")
    finally:
        session.end("exit")
