"""The framework-neutral adapter core: verdicts, the bridge's options, import hygiene, the
conformance kit."""

from __future__ import annotations

import subprocess
import sys
import time
from typing import Any

import pytest
from tests.conftest import Project

from hookwise import HookSystem
from hookwise.adapters import EXTRAS, AgentStopped, require
from hookwise.adapters import _codec as codec
from hookwise.adapters._bridge import NATIVE, HookBridge, TurnState
from hookwise.events import HookEvent
from hookwise.host import verdicts
from hookwise.result import FireResult
from hookwise.testing.conformance import assert_adapter_conformance


def result(event: HookEvent, output: dict[str, Any], **inp: Any) -> FireResult:
    return FireResult(event, inp, output)


def test_import_hookwise_and_the_core_import_no_framework() -> None:
    code = (
        "import sys, hookwise, hookwise.adapters, hookwise.adapters._bridge, "
        "hookwise.adapters._codec, hookwise.testing.conformance\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('langchain', 'langchain_core', 'langgraph', 'pydantic_ai', 'google', 'agents', 'openai', "
        "'pydantic')]\nprint(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_require_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(
        EXTRAS, "nothere", ("nothere-extra", "nothere-dist", "hookwise_no_such_module_xyz")
    )
    with pytest.raises(ImportError, match=r'pip install "hookwise\[nothere-extra\]"'):
        require("nothere")


def test_agent_stopped_carries_the_reason() -> None:
    err = AgentStopped("quota")
    assert err.reason == "quota" and "quota" in str(err)


def test_before_tool_verdicts() -> None:
    warn: list[str] = []
    v = verdicts.before_tool(
        result(HookEvent.BEFORE_TOOL, {"decision": "deny", "reason": "no"}), {"a": 1}, warn.append
    )
    assert (v.kind, v.message) == ("deny", "Tool execution blocked: no")
    v = verdicts.before_tool(
        result(HookEvent.BEFORE_TOOL, {"continue": False, "stopReason": "s"}), {}, warn.append
    )
    assert (v.kind, v.message, v.reason) == ("stop", "Agent execution stopped by hook: s", "s")
    v = verdicts.before_tool(
        result(HookEvent.BEFORE_TOOL, {"hookSpecificOutput": {"tool_input": {"b": 2}}}),
        {"a": 1},
        warn.append,
    )
    assert (v.kind, v.args, v.modified) == ("run", {"a": 1, "b": 2}, True)
    v = verdicts.before_tool(
        result(HookEvent.BEFORE_TOOL, {"decision": "ask", "systemMessage": "sure?"}),
        {},
        warn.append,
    )
    assert (v.kind, v.hook_text) == ("ask", "sure?")
    assert warn == []


def test_after_agent_cap() -> None:
    blocked = result(HookEvent.AFTER_AGENT, {"decision": "block", "reason": "again"})
    assert verdicts.after_agent(blocked, 0, 2).kind == "retry"
    assert verdicts.after_agent(blocked, 1, 2).kind == "retry"
    capped = verdicts.after_agent(blocked, 2, 2)
    assert capped.kind == "capped" and "giving up after 2 retries" in capped.stop_message


def test_model_facing_text_places_context_before_the_note() -> None:
    assert (
        verdicts.model_facing_text("out", "<hook_context>c</hook_context>", True)
        == "out\n\n<hook_context>c</hook_context>" + verdicts.MODIFIED_NOTE
    )


def test_codec_round_trip_keeps_positions() -> None:
    entries = [codec.Entry("user", "hi"), codec.Entry("model", None), codec.Entry("user", None)]
    req = codec.request_dict("m", entries, {"temperature": 0.5})
    assert codec.llm_request("m", entries, {"temperature": 0.5})["messages"] == [
        {"role": "user", "content": "hi"}
    ]
    v = verdicts.before_model(
        result(
            HookEvent.BEFORE_MODEL,
            {
                "hookSpecificOutput": {
                    "llm_request": {
                        "messages": [
                            {"role": "user", "content": "HI"},
                            {"role": "user", "content": "extra"},
                        ],
                        "config": {"temperature": 0.1},
                    }
                }
            },
        ),
        req,
        lambda w: None,
    )
    edited = codec.edited_entries(req, v.request)
    assert [(e.source, e.text, e.changed) for e in edited] == [
        (0, "HI", True),
        (1, None, False),
        (2, None, False),
        (None, "extra", True),
    ]
    assert codec.config_changes(req, v.request) == {"temperature": 0.1}


def test_bridge_ask_policies_and_messages(tmp_path: Any) -> None:
    seen: list[tuple[str, str]] = []
    hooks = HookSystem(tmp_path, trust_all=True)
    b = HookBridge(hooks, framework="test", on_message=lambda k, t: seen.append((k, t)))
    assert "a headless run cannot ask" in (b.confirm("shell", {}, "why") or "")
    assert HookBridge(hooks, framework="t", ask="native").confirm("shell", {}, None) == NATIVE
    assert (
        HookBridge(hooks, framework="t", ask=lambda n, a, r: True).confirm("shell", {}, None)
        is None
    )
    assert (
        HookBridge(hooks, framework="t", ask=lambda n, a, r: False).confirm("shell", {}, None)
        == verdicts.CANCELLED
    )
    with pytest.raises(ValueError, match="ask must be"):
        HookBridge(hooks, framework="t", ask="maybe")  # type: ignore[arg-type]
    turn = TurnState()
    b.before_agent(turn, result(HookEvent.BEFORE_AGENT, {"continue": False, "stopReason": "bye"}))
    assert turn.stop == "bye" and seen == [("stop", "bye")]
    b.unsupported(
        result(HookEvent.AFTER_AGENT, {"hookSpecificOutput": {"clearContext": True}}),
        {"clearContext": "no history"},
    )
    assert seen[-1][0] == "warning" and "'clearContext'" in seen[-1][1]


def test_tool_aliases(tmp_path: Any) -> None:
    b = HookBridge(HookSystem(tmp_path), framework="t", tool_aliases={"shell": "run_shell_command"})
    assert b.tool_fields("shell") == {
        "tool_name": "run_shell_command",
        "original_request_name": "shell",
    }
    assert b.native_name("run_shell_command") == "shell"


def test_the_reference_host_conforms_to_itself() -> None:
    from hookwise.testing.conformance import _reference_run

    report = assert_adapter_conformance(_reference_run)
    assert [f.event for f in report.reference][:3] == ["SessionStart", "BeforeAgent", "BeforeModel"]


def test_conformance_reports_a_missing_firing() -> None:
    from hookwise.testing.conformance import _reference_run

    def lossy(hooks: HookSystem, conv: Any) -> None:
        hooks.unregister(next(e for e in hooks.entries if e.name == "conformance-AfterTool"))
        _reference_run(hooks, conv)

    with pytest.raises(AssertionError, match="sequences differ"):
        assert_adapter_conformance(lossy)


def test_has_hooks_follows_matchers(tmp_path: Any) -> None:
    (tmp_path / ".gemini").mkdir()
    (tmp_path / ".gemini" / "settings.json").write_text(
        '{"hooks": {"BeforeTool": [{"matcher": "shell", "hooks": [{"type": "command", "command": '
        '"true"}]}]}}'
    )
    hooks = HookSystem(tmp_path, trust_all=True)
    assert hooks.has_hooks("BeforeTool", "shell") and hooks.has_hooks(
        HookEvent.BEFORE_TOOL, "shell"
    )
    assert not hooks.has_hooks("BeforeTool", "echo")
    assert not hooks.has_hooks(HookEvent.BEFORE_MODEL)
    hooks.register(HookEvent.BEFORE_MODEL, lambda inp: None, name="py")
    assert hooks.has_hooks(HookEvent.BEFORE_MODEL)


@pytest.mark.slow
def test_import_order_does_not_matter() -> None:
    for first in (
        "hookwise.host.verdicts",
        "hookwise.agent.ui",
        "hookwise.agent",
        "hookwise.adapters._bridge",
    ):
        code = f"import {first}; import hookwise.agent.session, hookwise.adapters._codec"
        subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [("langchain", "langchain", "langchain"), ("pydantic_ai", "pydantic_ai", "pydantic-ai")],
)
def test_a_missing_framework_names_its_extra(module: str, blocked: str, extra: str) -> None:
    code = (
        f"import sys; sys.modules[{blocked!r}] = None\n"
        f"try:\n    import hookwise.adapters.{module}\nexcept ImportError as e:\n    print(e)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert f'pip install "hookwise[{extra}]"' in out


def test_settings_problems_are_reported(tmp_path: Any) -> None:
    (tmp_path / ".gemini").mkdir()
    (tmp_path / ".gemini" / "settings.json").write_text('{"hooks": {"BeforeTools": []}}')
    seen: list[tuple[str, str]] = []
    HookBridge(HookSystem(tmp_path), framework="t", on_message=lambda k, t: seen.append((k, t)))
    assert seen and seen[0][0] == "warning" and "BeforeTools" in seen[0][1]


def test_messages_also_go_to_the_hookwise_logger(
    tmp_path: Any, caplog: pytest.LogCaptureFixture
) -> None:
    b = HookBridge(HookSystem(tmp_path), framework="t")
    with caplog.at_level("INFO", logger="hookwise"):
        b.message("system", "hello from a hook")
        b.stopped("quota")
    assert [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "hookwise"] == [
        ("INFO", "system: hello from a hook"),
        ("WARNING", "stop: quota"),
    ]


def test_selection_accepts_the_alias_or_the_framework_name(tmp_path: Any) -> None:
    b = HookBridge(HookSystem(tmp_path), framework="t", tool_aliases={"shell": "run_shell_command"})
    by_alias = {
        "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["run_shell_command"]}
    }
    by_native = {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["shell"]}}
    assert b.selection_allows(by_alias, "shell") and b.selection_allows(by_native, "shell")
    assert not b.selection_allows(by_alias, "echo")
    assert not b.selection_allows({"functionCallingConfig": {"mode": "NONE"}}, "shell")
    turn = TurnState(tool_config=by_native)
    assert b.refused_by_selection(turn, "shell") is None
    assert (b.refused_by_selection(turn, "echo") or "").startswith("Tool call refused:")


def test_a_background_hook_failure_reaches_the_adapter_on_a_firing_that_matches_nothing(
    project: Project, trust_all: None
) -> None:
    project.hooks(
        "BeforeTool",
        {
            "type": "command",
            "command": "echo broken >&2; exit 1",
            "async": True,
            "name": "slow-audit",
        },
    )
    messages: list[tuple[str, str]] = []
    bridge = HookBridge(
        HookSystem(str(project.root)),
        framework="test",
        on_message=lambda kind, text: messages.append((kind, text)),
    )
    bridge.report(
        bridge.hooks.fire("BeforeTool", tool_name="x", tool_input={})
    )  # starts it, does not wait
    assert not any("slow-audit" in text for _kind, text in messages)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not any("slow-audit" in text for _kind, text in messages):
        later = bridge.hooks.fire(
            "SessionEnd", reason="exit"
        )  # no SessionEnd hook: nothing matches
        assert later.hooks == []
        bridge.report(later)
        time.sleep(0.05)
    assert any(kind == "warning" and "slow-audit" in text for kind, text in messages), messages
