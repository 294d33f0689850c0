"""Write a hook once, run it two ways: ``@hookwise.hook(EVENT)`` (docs/hook-types.md).

The decorated function takes the hook input (a :class:`HookInput` mapping) and
returns the answer as a dict, or None for "no opinion"; raising
:class:`Block` blocks the way exit code 2 does. The same object is

- a ``python`` hook: ``{"type": "python", "callable": "guard:check"}`` in settings
  runs it in process (µs instead of a process start), and
- a command hook: ``guard.run()`` under ``if __name__ == "__main__":`` reads the
  input from stdin, writes the answer to stdout and exits with the code the
  contract gives that answer (0, 2 for :class:`Block`, 1 for an exception), so
  ``python3 guard.py`` answers exactly as the in-process hook does.

``dialect="claude"``: the function gets Claude-shaped input (``PreToolUse``,
``Bash``...) and may answer the Claude way (``permissionDecision``...), under
both ways of running.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from typing import IO, Any, NoReturn, TypedDict

from hookwise.events import HookEvent, parse_event

Answer = dict[str, Any] | None


class HookInput(TypedDict, total=False):
    """The input of a hook (docs/contract.md §3); which fields are present depends on the event."""

    session_id: str
    transcript_path: str
    cwd: str
    hook_event_name: str
    timestamp: str
    tool_name: str
    tool_input: dict[str, Any]
    tool_response: dict[str, Any]
    mcp_context: dict[str, Any]
    original_request_name: str
    prompt: str
    prompt_response: str
    stop_hook_active: bool
    llm_request: dict[str, Any]
    llm_response: dict[str, Any]
    source: str
    reason: str
    trigger: str
    notification_type: str
    message: str
    details: dict[str, Any]
    # Claude-shaped input (dialect="claude") also carries these
    tool_use_id: str
    permission_mode: str
    last_assistant_message: str


HookFn = Callable[[HookInput], "Answer | Awaitable[Answer]"]


class Block(Exception):  # noqa: N818 - it is an answer, not an error
    """Raise from a hook function to block, like a command hook exiting with code 2 (the message is
    the reason)."""

    def __init__(self, reason: str = "") -> None:
        super().__init__(reason)
        self.reason = reason


class HookFunction:
    """A hook function plus its event and dialect; callable like the function it wraps."""

    def __init__(self, func: HookFn, event: HookEvent, dialect: str | None, name: str) -> None:
        self.func = func
        self.event = event
        self.dialect = dialect
        self.name = name
        self.__name__ = getattr(func, "__name__", name)
        self.__doc__ = getattr(func, "__doc__", None)
        self.__wrapped__ = func

    def __call__(self, inp: HookInput) -> Answer | Awaitable[Answer]:
        return self.func(inp)

    def __repr__(self) -> str:
        return (
            f"<hook {self.name} ({self.event.value}{', ' + self.dialect if self.dialect else ''})>"
        )

    def main(
        self,
        stdin: IO[str] | None = None,
        stdout: IO[str] | None = None,
        stderr: IO[str] | None = None,
    ) -> int:
        """Run as a command hook once: read the input, write the answer; returns the exit code."""
        import json

        stdin = sys.stdin if stdin is None else stdin
        stdout = sys.stdout if stdout is None else stdout
        stderr = sys.stderr if stderr is None else stderr
        try:
            inp = json.loads(stdin.read() or "{}")
        except ValueError as exc:
            print(f"{self.name}: the input on stdin is not JSON: {exc}", file=stderr)
            return 1
        if not isinstance(inp, dict):
            print(f"{self.name}: the input on stdin must be a JSON object", file=stderr)
            return 1
        if self.dialect == "claude":
            inp = _as_claude(inp)
        try:
            value = self.func(inp)  # type: ignore[arg-type]
            if hasattr(value, "__await__"):
                import asyncio

                async def wait() -> Any:
                    return await value  # type: ignore[misc]

                value = asyncio.run(wait())
        except Block as b:
            print(b.reason or f"Blocked by hook {self.name}", file=stderr)
            return 2
        except Exception as exc:
            print(f"raised {type(exc).__name__}: {exc}", file=stderr)
            return 1
        if value is None:
            return 0
        if not isinstance(value, dict):
            print(f"returned {type(value).__name__}, expected a dict or None", file=stderr)
            return 1
        try:
            text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as exc:
            print(f"returned a dict that is not JSON-serialisable: {exc}", file=stderr)
            return 1
        print(text, file=stdout)
        return 0

    def run(self) -> NoReturn:
        """``if __name__ == "__main__": guard.run()``: this file is a command hook."""
        sys.stdout.flush()
        sys.exit(self.main())


def _as_claude(inp: dict[str, Any]) -> dict[str, Any]:
    """Claude-shaped input for a Claude-dialect function, whichever shape arrived on stdin."""
    name = inp.get("hook_event_name")
    try:
        ev = HookEvent(name) if isinstance(name, str) else None
    except ValueError:
        ev = None
    if ev is None:  # already Claude-shaped (or no event name): leave it
        return inp
    from hookwise.claude.dialect import to_claude_input

    return to_claude_input(ev, inp)


def hook(
    event: str | HookEvent, *, dialect: str | None = None, name: str | None = None
) -> Callable[[HookFn], HookFunction]:
    """Mark ``func`` as a hook of ``event``; see the module docstring."""
    ev = parse_event(event)
    if dialect not in (None, "claude"):
        raise ValueError(f"unknown dialect {dialect!r} (the only one is 'claude')")

    def deco(func: HookFn) -> HookFunction:
        if not callable(func):
            raise TypeError("@hookwise.hook decorates a function")
        return HookFunction(func, ev, dialect, name or str(getattr(func, "__name__", "hook")))

    return deco
