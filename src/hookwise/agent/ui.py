"""How an agent session talks to a person: the UI seam, its headless implementation, and run
statistics."""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, Any

from hookwise.agent.tools import Confirmation
from hookwise.host import verdicts  # the wording shared with the framework adapters


@dataclass
class Stats:
    model_calls: int = 0
    tool_calls: int = 0
    hook_calls: int = 0

    def to_json(self) -> dict[str, int]:
        return {
            "modelCalls": self.model_calls,
            "toolCalls": self.tool_calls,
            "hookCalls": self.hook_calls,
        }


class AgentUI:
    """Where a session reports what happens. The base class is silent; subclasses print.

    ``interactive`` decides whether confirmations can be asked (:meth:`confirm`).
    """

    interactive = False

    def text(self, text: str) -> None:
        """Answer text from the model, as it streams."""

    def thought(self, text: str) -> None:
        """A thought part from the model."""

    def end_turn(self) -> None:
        """A model turn ended (text printed so far may need a newline)."""

    def system_message(self, event: str, message: str) -> None:
        """A hook's ``systemMessage``."""

    def status_line(self, line: str) -> None:
        """Print one status line; the wording below (docs/contract.md §11) is shared by every UI."""

    def warning(self, message: str) -> None:
        """Something went wrong but the session goes on (hook failures, ignored hook output)."""
        self.status_line(f"[WARNING] {message}")

    def stopped(self, reason: str) -> None:
        """``Agent execution stopped: <reason>``."""
        self.status_line(verdicts.stopped_line(reason))

    def blocked(self, reason: str) -> None:
        """``[WARNING] Agent execution blocked: <reason>``."""
        self.status_line(f"[WARNING] {verdicts.blocked_line(reason)}")

    def info(self, message: str) -> None:
        """A neutral status line (compression, context cleared...)."""
        self.status_line(message)

    def tool_call(self, name: str, args: dict[str, Any]) -> None:
        """The model asked for a tool call."""

    def tool_done(self, name: str, args: dict[str, Any], success: bool, display: str) -> None:
        """A tool call finished (``display`` is the result or error text for people)."""

    def tool_error(self, name: str, message: str) -> None:
        """A tool call failed, was refused or blocked:
        ``Error executing tool <name>: <message>``."""

    def confirm(
        self, name: str, args: dict[str, Any], confirmation: Confirmation, hook_message: str | None
    ) -> bool:
        """Ask the person whether the call may run. Non-interactive UIs never get asked."""
        return False


class HeadlessUI(AgentUI):
    """``-p`` runs: the answer on stdout, everything else on stderr (docs/contract.md §11)."""

    def __init__(self, stdout: IO[str], stderr: IO[str], *, collect: bool = False) -> None:
        self.out = stdout
        self.err = stderr
        self.collect = (
            collect  # json output: keep the answer for the final object instead of printing
        )
        self.answer: list[str] = []
        self.messages: list[str] = []
        self._at_line_start = True

    def _err(self, line: str) -> None:
        self.messages.append(line)
        print(line, file=self.err, flush=True)

    def text(self, text: str) -> None:
        if not text:
            return
        self.answer.append(text)
        if not self.collect:
            self.out.write(text)
            self.out.flush()
            self._at_line_start = text.endswith("\n")

    def end_turn(self) -> None:
        if not self.collect and not self._at_line_start:
            self.out.write("\n")
            self.out.flush()
            self._at_line_start = True

    def system_message(self, event: str, message: str) -> None:
        self._err(message)

    def status_line(self, line: str) -> None:
        self._err(line)

    def tool_error(self, name: str, message: str) -> None:
        self._err(f"Error executing tool {name}: {message}")


# ---------------------------------------------------------------------------------------------
# transcripts
# ---------------------------------------------------------------------------------------------
