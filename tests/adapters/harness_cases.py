"""Tool-call cases that the ADK and the OpenAI Agents adapters answer alike, written once.

Both framework modules drive their framework through a ``Run`` harness with one surface (``Run(hooks, script,
**adapter_options)``, ``prompt``, ``tools.calls``, ``request_text``, ``messages``) and script their offline model
with ``call`` and ``say``. Each module provides them as its ``kit`` fixture and imports these tests, which pytest
collects and runs in that module, with that module's fixtures: once inside ADK's Runner, once inside the Agents
SDK's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from hookwise.host import verdicts

from ._kit import Hooks

__all__ = [
    "test_before_tool_deny_skips_the_tool",
    "test_before_tool_rewrite_runs_with_merged_args_and_notes_it",
    "test_ask_with_an_approve_callback",
    "test_ask_deny_refuses_without_surfacing",
    "test_after_tool_context_is_appended",
    "test_after_tool_block_hides_the_result",
    "test_after_tool_tail_calls_are_capped",
    "test_hook_failure_warns_and_proceeds",
    "test_fail_closed_hook_denies",
    "test_tool_aliases_apply_gemini_matchers",
]


@dataclass(frozen=True)
class Kit:
    """A framework module's harness: its ``Run`` class and the two steps of its scripted model."""

    Run: Callable[..., Any]
    call: Callable[..., Any]
    say: Callable[..., Any]


def test_before_tool_deny_skips_the_tool(hooks: Hooks, kit: Kit) -> None:
    hooks.on("BeforeTool", {"decision": "deny", "reason": "no shells"}, matcher="shell")
    r = kit.Run(hooks, [kit.call("shell", {"cmd": "rm -rf /"}, "c1"), kit.say("ok")])
    r.prompt("clean up")
    assert r.tools.calls["shell"] == 0
    assert "Tool execution blocked: no shells" in r.request_text(1)
    assert hooks.log("BeforeTool")[0]["tool_input"] == {"cmd": "rm -rf /"}


def test_before_tool_rewrite_runs_with_merged_args_and_notes_it(hooks: Hooks, kit: Kit) -> None:
    hooks.on(
        "BeforeTool", {"hookSpecificOutput": {"tool_input": {"cmd": "ls -la"}}}, matcher="shell"
    )
    r = kit.Run(hooks, [kit.call("shell", {"cmd": "ls"}, "c1"), kit.say("ok")])
    r.prompt("list")
    assert r.tools.args == [("shell", {"cmd": "ls -la"})]
    assert "shell:ls -la" in r.request_text(1)
    assert json.dumps(verdicts.MODIFIED_NOTE)[1:-1] in r.request_text(1)


@pytest.mark.parametrize("ok", [True, False])
def test_ask_with_an_approve_callback(hooks: Hooks, kit: Kit, ok: bool) -> None:
    hooks.on("BeforeTool", {"decision": "ask", "systemMessage": "really?"}, matcher="shell")
    hooks.on("Notification", {})
    seen: list[tuple[str, dict[str, Any], str]] = []

    def approve(name: str, args: dict[str, Any], reason: str) -> bool:
        seen.append((name, args, reason))
        return ok

    r = kit.Run(hooks, [kit.call("shell", {"cmd": "ls"}, "c1"), kit.say("ok")], ask=approve)
    r.prompt("list")
    assert seen == [("shell", {"cmd": "ls"}, "really?")]
    assert r.tools.calls["shell"] == (1 if ok else 0)
    assert [n["notification_type"] for n in hooks.log("Notification")] == ["ToolPermission"]
    if not ok:
        assert verdicts.CANCELLED in r.request_text(1)


def test_ask_deny_refuses_without_surfacing(hooks: Hooks, kit: Kit) -> None:
    hooks.on("BeforeTool", {"decision": "ask"}, matcher="shell")
    hooks.on("Notification", {})
    r = kit.Run(hooks, [kit.call("shell", {"cmd": "ls"}, "c1"), kit.say("ok")])
    r.prompt("list")
    assert r.tools.calls["shell"] == 0
    assert "a headless run cannot ask" in r.request_text(1)
    assert hooks.log("Notification") == []


def test_after_tool_context_is_appended(hooks: Hooks, kit: Kit) -> None:
    hooks.on(
        "AfterTool",
        {"hookSpecificOutput": {"additionalContext": "file list is partial"}},
        matcher="shell",
    )
    r = kit.Run(hooks, [kit.call("shell", {"cmd": "ls"}, "c1"), kit.say("ok")])
    r.prompt("list")
    assert "shell:ls\\n\\n<hook_context>file list is partial</hook_context>" in r.request_text(1)
    assert hooks.log("AfterTool")[0]["tool_response"]["llmContent"] == "shell:ls"


def test_after_tool_block_hides_the_result(hooks: Hooks, kit: Kit) -> None:
    hooks.on("AfterTool", {"decision": "block", "reason": "contains secrets"}, matcher="shell")
    r = kit.Run(hooks, [kit.call("shell", {"cmd": "cat .env"}, "c1"), kit.say("ok")])
    r.prompt("show env")
    assert r.tools.calls["shell"] == 1
    assert "contains secrets" in r.request_text(1) and "shell:cat .env" not in r.request_text(1)


@pytest.mark.slow
def test_after_tool_tail_calls_are_capped(hooks: Hooks, kit: Kit) -> None:
    hooks.on(
        "AfterTool",
        {"hookSpecificOutput": {"tailToolCallRequest": {"name": "echo", "args": {"text": "x"}}}},
    )
    r = kit.Run(hooks, [kit.call("echo", {"text": "a"}, "c1"), kit.say("ok")])
    r.prompt("loop")
    assert r.tools.calls["echo"] == 1 + verdicts.MAX_TAIL_CALLS
    assert any("nested" in w for w in r.messages.of("warning"))


def test_hook_failure_warns_and_proceeds(hooks: Hooks, kit: Kit) -> None:
    hooks.on("BeforeTool", {"__exit__": 1}, matcher="shell")
    r = kit.Run(hooks, [kit.call("shell", {"cmd": "ls"}, "c1"), kit.say("ok")])
    r.prompt("go")
    assert r.tools.calls["shell"] == 1
    assert r.messages.of("warning")


def test_fail_closed_hook_denies(hooks: Hooks, kit: Kit) -> None:
    hooks.on("BeforeTool", {"__exit__": 1}, matcher="shell", failClosed=True)
    r = kit.Run(hooks, [kit.call("shell", {"cmd": "ls"}, "c1"), kit.say("ok")])
    r.prompt("go")
    assert r.tools.calls["shell"] == 0
    assert "Tool execution blocked" in r.request_text(1)


def test_tool_aliases_apply_gemini_matchers(hooks: Hooks, kit: Kit) -> None:
    hooks.on("BeforeTool", {"decision": "deny", "reason": "aliased"}, matcher="run_shell_command")
    r = kit.Run(
        hooks,
        [kit.call("shell", {"cmd": "ls"}, "c1"), kit.say("ok")],
        tool_aliases={"shell": "run_shell_command"},
    )
    r.prompt("go")
    assert r.tools.calls["shell"] == 0
    fired = hooks.log("BeforeTool")[0]
    assert (fired["tool_name"], fired["original_request_name"]) == ("run_shell_command", "shell")
