"""The ADK adapter and Claude Code's dialect (issue 21): a PreCompress block stops ADK's compaction,
and a Claude-dialect hook gets ADK's function call id as ``tool_use_id`` (rows of docs/claude.md's
table, column "adapters")."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("google.adk", reason="hookwise[adk] is not installed (needs Python 3.11+)")
pytestmark = pytest.mark.filterwarnings(
    "ignore:The `plugins` argument is deprecated:DeprecationWarning"
)

from google.adk.runners import InMemoryRunner  # noqa: E402

from ._kit import Hooks  # noqa: E402
from .test_adk import Run, call, say  # noqa: E402


def test_a_pre_compress_block_stops_adk_compaction(hooks: Hooks) -> None:
    """row: output PreCompact decision block (ADK compacts: its summarizer is not asked)."""
    from google.adk.apps import App
    from google.adk.apps.app import EventsCompactionConfig
    from google.adk.apps.base_events_summarizer import BaseEventsSummarizer

    summarized: list[int] = []

    class CountingSummarizer(BaseEventsSummarizer):  # type: ignore[misc]
        async def maybe_summarize_events(self, *, events: list[Any]) -> Any:
            summarized.append(len(events))
            return None

    hooks.on("PreCompress", {"decision": "block", "reason": "NO-COMPACT"})
    r = Run(hooks, [say("a"), say("b")])
    app = App(
        name="compacting",
        root_agent=r.runner.agent,
        plugins=[r.plugin],
        events_compaction_config=EventsCompactionConfig(
            compaction_interval=1, overlap_size=0, summarizer=CountingSummarizer()
        ),
    )
    r.runner = InMemoryRunner(app=app)
    r.prompt("one")
    r.prompt("two")
    assert hooks.log("PreCompress")  # ADK wanted to compact: the hook was asked
    assert summarized == []  # and blocked it every time
    assert any("NO-COMPACT" in t for t in r.messages.of("warning"))


def test_claude_dialect_hooks_get_the_call_id_as_tool_use_id(hooks: Hooks) -> None:
    """row: stdin tool_use_id (ADK's function_call_id, the same before and after the call)."""
    hooks.on("BeforeTool", {}, dialect="claude")
    hooks.on("AfterTool", {}, dialect="claude")
    r = Run(hooks, [call("echo", {"text": "hi"}, "call-7"), say("done")])
    r.prompt("go")
    pre = hooks.log("PreToolUse")
    post = hooks.log("PostToolUse")
    assert [p["tool_use_id"] for p in pre + post] == ["call-7", "call-7"]
    assert pre[0]["tool_name"] == "echo" and pre[0]["permission_mode"] == "default"
