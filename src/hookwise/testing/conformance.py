"""Adapter conformance: a framework adapter fires what the reference host fires (docs/adapters.md).

:func:`assert_adapter_conformance` runs one scripted conversation twice, each time with a recording
Python hook on every event: once through the reference host (:class:`hookwise.agent.AgentSession`,
docs/contract.md §11) and once through an adapter, by way of a small *driver* the adapter's author
writes::

    def drive(hooks: HookSystem, conversation: Conversation) -> None:
        # build the framework's agent with a scripted/offline model that answers conversation.turns
        # in order, one tool per conversation.tools (each returns tool.result(value)), the adapter
        # installed on `hooks`; run conversation.prompt once; then end the adapter's session.
        ...

    assert_adapter_conformance(drive)

It then asserts that both fired the same sequence of ``(event, tool_name)`` with the same input
field names, and the same values for the fields that do not depend on the host (``prompt``,
``tool_input``, ``llm_request.messages``, ``tool_response.llmContent``, ``prompt_response``,
``stop_hook_active``, ``source``, ``reason``). Documented deviations are passed as
``ignore_events`` / ``ignore_fields``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hookwise.events import HookEvent
from hookwise.runners.dialects import CLAUDE_ONLY_FIELDS

if TYPE_CHECKING:
    from hookwise.engine import HookSystem

__all__ = [
    "DEFAULT_CONVERSATION",
    "Conversation",
    "ConformanceReport",
    "Firing",
    "ScriptTool",
    "ToolCall",
    "assert_adapter_conformance",
    "record_firings",
]

#: input fields every firing has (compared by presence only through the event itself); the
#: Claude-only channel (``CLAUDE_ONLY_FIELDS``: what a host tells Claude-dialect hooks, e.g. its
#: permission mode) is host-specific too
BASE_FIELDS = frozenset({"session_id", "transcript_path", "cwd", "hook_event_name", "timestamp"})
#: fields whose values must be equal between the reference host and the adapter
COMPARED_VALUES = (
    "prompt",
    "tool_input",
    "prompt_response",
    "stop_hook_active",
    "source",
    "reason",
    "notification_type",
)


@dataclass(frozen=True)
class ScriptTool:
    """A scripted tool with one string parameter; it answers ``"<name>:<value>"``."""

    name: str
    param: str
    description: str = "a scripted tool"

    def result(self, value: Any) -> str:
        return f"{self.name}:{value}"


@dataclass(frozen=True)
class ToolCall:
    name: str
    args: dict[str, Any]


#: one model turn: answer text and/or tool calls, in order
Turn = tuple["str | ToolCall", ...]


@dataclass(frozen=True)
class Conversation:
    """A prompt and the model's scripted turns (the N-th model call answers with ``turns[N]``)."""

    prompt: str
    turns: tuple[Turn, ...]
    tools: tuple[ScriptTool, ...] = (ScriptTool("shell", "cmd"), ScriptTool("echo", "text"))

    def tool(self, name: str) -> ScriptTool:
        return next(t for t in self.tools if t.name == name)


DEFAULT_CONVERSATION = Conversation(
    prompt="list the files, then say hello",
    turns=(
        ("Let me look.", ToolCall("shell", {"cmd": "ls"})),
        (ToolCall("echo", {"text": "hello"}),),
        ("Done: the files are listed.",),
    ),
)


@dataclass(frozen=True)
class Firing:
    """One recorded firing: the event, its tool (if any), its input field names and compared
    values."""

    event: str
    tool: str | None
    fields: frozenset[str]
    values: tuple[tuple[str, Any], ...]

    def key(self) -> tuple[str, str | None]:
        return (self.event, self.tool)


def _values(inp: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    out: list[tuple[str, Any]] = [(k, inp[k]) for k in COMPARED_VALUES if k in inp]
    req = inp.get("llm_request")
    if isinstance(req, dict):
        out.append(("llm_request.messages", req.get("messages")))
    resp = inp.get("tool_response")
    if isinstance(resp, dict):
        out.append(("tool_response.llmContent", resp.get("llmContent")))
    return tuple(out)


def record_firings(hooks: HookSystem) -> list[Firing]:
    """Register a recording Python hook on every event of ``hooks``; returns the (growing) list of
    firings."""
    firings: list[Firing] = []

    def make(event: HookEvent) -> Callable[[dict[str, Any]], None]:
        def record(inp: dict[str, Any]) -> None:
            firings.append(
                Firing(
                    event.value,
                    inp.get("tool_name"),
                    frozenset(set(inp) - BASE_FIELDS - CLAUDE_ONLY_FIELDS),
                    _values(inp),
                )
            )

        return record

    for ev in HookEvent:
        hooks.register(ev, make(ev), name=f"conformance-{ev.value}")
    return firings


@dataclass
class ConformanceReport:
    reference: list[Firing]
    adapter: list[Firing]
    problems: list[str] = field(default_factory=list)

    def table(self) -> str:
        rows = []
        for i in range(max(len(self.reference), len(self.adapter))):
            a = self.reference[i].key() if i < len(self.reference) else None
            b = self.adapter[i].key() if i < len(self.adapter) else None
            rows.append(f"{i:3d}  {'' if a == b else '!'} reference={a}  adapter={b}")
        return "\n".join(rows)


def _reference_run(hooks: HookSystem, conversation: Conversation) -> None:
    from hookwise.agent.models import ScriptedModel, ScriptLine
    from hookwise.agent.session import AgentSession
    from hookwise.agent.tools import Tool, ToolRegistry, ToolResult

    def tool(t: ScriptTool) -> Tool:
        def run(_ctx: Any, args: dict[str, Any]) -> ToolResult:
            text = t.result(args.get(t.param))
            return ToolResult(llm_content=text, return_display=text)

        schema = {
            "type": "object",
            "properties": {t.param: {"type": "string"}},
            "required": [t.param],
        }
        return Tool(t.name, t.description, schema, "read", run)

    lines = []
    for n, turn in enumerate(conversation.turns, start=1):
        parts: list[dict[str, Any]] = []
        for item in turn:
            if isinstance(item, ToolCall):
                parts.append({"functionCall": {"name": item.name, "args": dict(item.args)}})
            else:
                parts.append({"text": item})
        chunk = {
            "candidates": [
                {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
            ]
        }
        lines.append(ScriptLine(n, "generateContentStream", [chunk]))
    session = AgentSession(
        hooks, ScriptedModel(lines), tools=ToolRegistry([tool(t) for t in conversation.tools])
    )
    prefix = session.start()
    session.run_prompt(
        conversation.prompt if prefix is None else f"{prefix}\n\n{conversation.prompt}"
    )
    session.end()


def assert_adapter_conformance(
    driver: Callable[[HookSystem, Conversation], None],
    *,
    conversation: Conversation = DEFAULT_CONVERSATION,
    ignore_events: Collection[str] = (),
    ignore_fields: Mapping[str, Collection[str]] | None = None,
    settings: Mapping[str, Any] | None = None,
    root: str | None = None,
) -> ConformanceReport:
    """Run ``conversation`` through the reference host and through ``driver``; assert they fire
    alike.

    ``ignore_events``: events left out of the comparison (an adapter's documented deviations, e.g.
    ``PreCompress``); ``ignore_fields``: ``{event: {field, ...}}`` left out of the field and value
    comparison. ``settings``: a project settings object (e.g. ``{"hooks": {...}}`` with command
    hooks that deny, rewrite or add context) written for both runs, so the comparison covers what
    hooks change. ``root``: a scratch directory (default: a new temporary one). Raises
    :class:`AssertionError` listing every difference; returns the report otherwise.
    """
    from hookwise.engine import HookSystem
    from hookwise.testing.tester import HookTester

    ignored = {str(e) for e in ignore_events}
    skip_fields = {str(k): set(v) for k, v in (ignore_fields or {}).items()}

    def run(which: str, go: Callable[[HookSystem, Conversation], None], base: str) -> list[Firing]:
        tester = HookTester(f"{base}/{which}")
        if settings is not None:
            tester.settings(settings)
        hooks = HookSystem(
            str(tester.project_dir),
            trust_all=True,
            env=tester.env,
            session_id=f"conformance-{which}",
        )
        firings = record_firings(hooks)
        try:
            go(hooks, conversation)
        finally:
            hooks.close()
        return [f for f in firings if f.event not in ignored]

    with tempfile.TemporaryDirectory(prefix="hookwise-conformance-") as tmp:
        base = root or tmp
        ref = run("reference", _reference_run, base)
        got = run("adapter", driver, base)
    report = ConformanceReport(ref, got)
    if [f.key() for f in ref] != [f.key() for f in got]:
        report.problems.append("the (event, tool) sequences differ:\n" + report.table())
    else:
        for i, (a, b) in enumerate(zip(ref, got, strict=True)):
            skip = skip_fields.get(a.event, set())
            fa, fb = a.fields - skip, b.fields - skip
            if fa != fb:
                report.problems.append(
                    f"firing {i} {a.key()}: input fields differ: only in the reference "
                    f"{sorted(fa - fb)}, only in the adapter {sorted(fb - fa)}"
                )
            va = {k: v for k, v in a.values if k not in skip}
            vb = {k: v for k, v in b.values if k not in skip}
            for k in sorted(set(va) | set(vb)):
                if va.get(k) != vb.get(k):
                    report.problems.append(
                        f"firing {i} {a.key()}: {k} differs: reference {va.get(k)!r}, "
                        f"adapter {vb.get(k)!r}"
                    )
    if report.problems:
        raise AssertionError(
            "adapter does not conform to the reference host:\n" + "\n".join(report.problems)
        )
    return report
