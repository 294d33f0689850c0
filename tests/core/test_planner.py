"""Matching, de-duplication and sequential chains (docs/contract.md §3-§4)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.conftest import Project, emit

from hookwise import HookSystem
from hookwise.core.plan import compile_matcher
from hookwise.events import MatcherKind

pytestmark = pytest.mark.usefixtures("trust_all")


@pytest.mark.parametrize(
    "matcher,value,matches",
    [
        (None, "anything", True),
        ("", "x", True),
        ("*", "x", True),
        ("  *  ", "x", True),
        ("write_file", "write_file", True),
        ("write_file", "mcp_srv_write_file", True),
        ("^write_file$", "write_file_v2", False),
        ("Edit|Write", "EditTool", True),
        ("read_.*", "read_many_files", True),
        ("[invalid-regex", "[invalid-regex", True),
        ("[invalid-regex", "invalid", False),
        ("run_shell", None, True),
    ],
)
def test_tool_matcher(matcher: str | None, value: str | None, matches: bool) -> None:
    assert compile_matcher(matcher, MatcherKind.TOOL)(value) is matches


@pytest.mark.parametrize(
    "matcher,value,matches",
    [
        ("startup", "startup", True),
        ("startup", "resume", False),
        ("startup|resume", "resume", True),
        ("Startup", "startup", False),
        ("start", "startup", False),
        ("*", "clear", True),
    ],
)
def test_exact_matcher(matcher: str, value: str, matches: bool) -> None:
    assert compile_matcher(matcher, MatcherKind.EXACT)(value) is matches


def test_matchers_per_event(project: Project) -> None:
    def one(matcher: str, msg: str) -> list[dict]:
        return [
            {
                "matcher": matcher,
                "hooks": [{"type": "command", "command": emit({"systemMessage": msg})}],
            }
        ]

    project.write_settings(
        {
            "hooks": {
                "SessionStart": one("resume", "r"),
                "Notification": one("Other", "n"),
                "BeforeAgent": one("garbage(", "a"),
            }
        }
    )
    hs = HookSystem(project.root)
    assert hs.fire("SessionStart", source="startup").hooks == []
    assert len(hs.fire("SessionStart", source="resume").hooks) == 1
    assert (
        hs.fire("Notification", notification_type="ToolPermission", message="m", details={}).hooks
        == []
    )
    assert len(hs.fire("BeforeAgent", prompt="p").hooks) == 1  # matcher ignored


def test_dedup_by_identity_across_layers(project: Project) -> None:
    same = {"type": "command", "name": "n", "command": emit({"systemMessage": "once"})}
    project.hooks("BeforeAgent", same, layer="user")
    project.hooks("BeforeAgent", same, {**same, "name": "other"}, {**same, "timeout": 5})
    r = HookSystem(project.root).fire("BeforeAgent", prompt="p")
    assert [h.name for h in r.hooks] == ["n", "other"]
    assert r.hooks[0].source == "user"
    assert r.system_message == "once\nonce"


def echo_seen(project: Project, name: str, answer: dict[str, Any]) -> str:
    return project.script(
        name,
        f"""
        data = json.load(sys.stdin)
        with open(os.path.join(os.environ["GEMINI_PROJECT_DIR"], "{name}.seen"), "w") as f:
            json.dump(data, f)
        print(json.dumps({answer!r}))
    """,
    )


def seen(project: Project, name: str) -> dict[str, Any]:
    return json.loads((project.root / f"{name}.seen").read_text())


def test_sequential_chain_rewrites_tool_input(project: Project) -> None:
    a = echo_seen(project, "a", {"hookSpecificOutput": {"tool_input": {"x": 1}}})
    b = echo_seen(project, "b", {"hookSpecificOutput": {"tool_input": {"y": 2}}})
    project.write_settings(
        {
            "hooks": {
                "BeforeTool": [
                    {"hooks": [{"type": "command", "command": a}]},
                    {"sequential": True, "hooks": [{"type": "command", "command": b}]},
                ]
            }
        }
    )
    r = HookSystem(project.root).fire("BeforeTool", tool_name="t", tool_input={"orig": 0})
    assert seen(project, "b")["tool_input"] == {"orig": 0, "x": 1}
    assert r.tool_input == {"orig": 0, "x": 1, "y": 2}


def test_sequential_chain_appends_context_to_prompt(project: Project) -> None:
    a = echo_seen(project, "a", {"hookSpecificOutput": {"additionalContext": "ctx-a"}})
    b = echo_seen(project, "b", {})
    project.hooks("BeforeAgent", a, b, sequential=True)
    HookSystem(project.root).fire("BeforeAgent", prompt="hello")
    assert seen(project, "b")["prompt"] == "hello\n\nctx-a"


def test_sequential_chain_merges_llm_request(project: Project) -> None:
    a = echo_seen(project, "a", {"hookSpecificOutput": {"llm_request": {"model": "other"}}})
    b = echo_seen(project, "b", {})
    project.hooks("BeforeModel", a, b, sequential=True)
    HookSystem(project.root).fire("BeforeModel", llm_request={"model": "m", "messages": []})
    assert seen(project, "b")["llm_request"] == {"model": "other", "messages": []}


def test_failed_hook_does_not_change_the_chain(project: Project) -> None:
    a = project.script(
        "a.py",
        """
        print(json.dumps({"hookSpecificOutput": {"tool_input": {"x": 1}}}))
        sys.exit(1)
    """,
    )
    b = echo_seen(project, "b", {})
    project.hooks("BeforeTool", a, b, sequential=True)
    HookSystem(project.root).fire("BeforeTool", tool_name="t", tool_input={})
    assert seen(project, "b")["tool_input"] == {}


def test_parallel_hooks_all_see_the_same_input(project: Project) -> None:
    a = echo_seen(project, "a", {"hookSpecificOutput": {"tool_input": {"x": 1}}})
    b = echo_seen(project, "b", {})
    project.hooks("BeforeTool", a, b)
    HookSystem(project.root).fire("BeforeTool", tool_name="t", tool_input={})
    assert seen(project, "b")["tool_input"] == {}
    inp = seen(project, "a")
    assert set(inp) >= {
        "session_id",
        "transcript_path",
        "cwd",
        "hook_event_name",
        "timestamp",
        "tool_name",
    }
    assert inp["hook_event_name"] == "BeforeTool" and inp["timestamp"].endswith("Z")
