"""In-process (runtime) Python hooks: same input, same answers, timeouts and outcomes."""

from __future__ import annotations

import asyncio
import functools
from typing import Any

import pytest
from tests.conftest import Project, emit

from hookwise import HookSystem, Outcome

pytestmark = pytest.mark.usefixtures("trust_all")


def test_sync_and_async_hooks(project: Project) -> None:
    hs = HookSystem(project.root)
    seen: list[dict[str, Any]] = []

    def guard(inp: dict[str, Any]) -> dict[str, Any]:
        seen.append(inp)
        return {"decision": "deny", "reason": "sync"}

    async def ctx(inp: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(0.01)
        return {"hookSpecificOutput": {"additionalContext": "async"}}

    hs.register("BeforeTool", guard, name="guard", matcher="run_shell")
    hs.register("BeforeTool", ctx, name="ctx")
    r = hs.fire("BeforeTool", tool_name="run_shell_command", tool_input={"command": "ls"})
    assert r.blocked and r.reason == "sync" and r.additional_context == "async"
    assert [h.hook_type for h in r.hooks] == ["python", "python"]
    assert seen[0]["tool_input"] == {"command": "ls"} and seen[0]["hook_event_name"] == "BeforeTool"
    r2 = asyncio.run(hs.fire_async("BeforeTool", tool_name="read_file", tool_input={}))
    assert [h.name for h in r2.hooks] == ["ctx"] and not r2.blocked


@pytest.mark.parametrize(
    "func,outcome,error",
    [
        (lambda i: 1 / 0, Outcome.FAILED, "raised ZeroDivisionError"),
        (lambda i: ["not", "a", "dict"], Outcome.FAILED, "returned list"),
        (lambda i: {"x": float("nan")}, Outcome.FAILED, "not JSON-serialisable"),
        (lambda i: None, Outcome.OK, None),
    ],
)
def test_python_hook_failures_are_outcomes(
    project: Project, func: Any, outcome: Outcome, error: str | None
) -> None:
    hs = HookSystem(project.root)
    hs.register("BeforeAgent", func, name="p")
    r = hs.fire("BeforeAgent", prompt="x")
    assert r.hooks[0].outcome is outcome
    if error:
        assert (
            error in (r.hooks[0].error or "") and r.warnings and "p (BeforeAgent)" in r.warnings[0]
        )


def test_async_hook_timeout(project: Project) -> None:
    hs = HookSystem(project.root)

    async def slow(inp: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(5)
        return {"decision": "deny"}

    hs.register("BeforeAgent", slow, name="slow", timeout_ms=100)
    r = hs.fire("BeforeAgent", prompt="x")
    assert r.hooks[0].outcome is Outcome.TIMEOUT and not r.blocked
    r2 = asyncio.run(hs.fire_async("BeforeAgent", prompt="x"))
    assert r2.hooks[0].outcome is Outcome.TIMEOUT


def test_python_and_command_hooks_merge_in_plan_order(project: Project) -> None:
    project.hooks("BeforeAgent", emit({"reason": "command"}))
    hs = HookSystem(project.root)
    hs.register("BeforeAgent", lambda i: {"reason": "python"}, name="py")
    assert hs.fire("BeforeAgent", prompt="x").reason == "python\ncommand"
    assert asyncio.run(hs.fire_async("BeforeAgent", prompt="x")).reason == "python\ncommand"


def test_decorator_and_unregister(project: Project) -> None:
    hs = HookSystem(project.root)

    @hs.hook("SessionStart", matcher="startup")
    def hello(inp: dict[str, Any]) -> dict[str, Any]:
        return {"systemMessage": "hello"}

    assert hs.fire("SessionStart", source="startup").system_message == "hello"
    assert hs.fire("SessionStart", source="resume").hooks == []
    hs.unregister(hs.entries[0])
    assert hs.fire("SessionStart", source="startup").hooks == []


def test_bad_payloads_are_clear_errors(project: Project) -> None:
    from hookwise import PayloadError, UnknownEventError

    hs = HookSystem(project.root)
    hs.register("BeforeTool", lambda i: None, name="p")
    with pytest.raises(PayloadError, match="tool_input"):
        hs.fire("BeforeTool", tool_name="t", tool_input="not an object")
    with pytest.raises(PayloadError, match="JSON object"):
        hs.fire("BeforeTool", ["list"])  # type: ignore[arg-type]
    with pytest.raises(UnknownEventError, match="BeforeTool"):
        hs.fire("PreToolUse", tool_name="t")


class _Hooks:
    def sync(self, inp: dict[str, Any]) -> dict[str, Any]:
        return {}

    async def coro(self, inp: dict[str, Any]) -> dict[str, Any]:
        return {}


class _SyncCall:
    def __call__(self, inp: dict[str, Any]) -> dict[str, Any]:
        return {}


class _AsyncCall:
    async def __call__(self, inp: dict[str, Any]) -> dict[str, Any]:
        return {}


def _plain(inp: dict[str, Any]) -> dict[str, Any]:
    return {}


async def _coro(inp: dict[str, Any]) -> dict[str, Any]:
    return {}


@pytest.mark.parametrize(
    ("func", "expected"),
    [
        (_plain, False),
        (_coro, True),
        (_Hooks().sync, False),
        (_Hooks().coro, True),
        (_SyncCall(), False),
        (_AsyncCall(), True),
        (functools.partial(_plain), False),
        (functools.partial(_coro), True),
        (lambda inp: {}, False),
        (print, False),
    ],
    ids=[
        "function",
        "coroutine function",
        "method",
        "async method",
        "callable object",
        "async callable object",
        "partial",
        "async partial",
        "lambda",
        "builtin",
    ],
)
def test_which_hooks_are_coroutine_functions(func: Any, expected: bool) -> None:
    """A coroutine function (in any of its shapes) runs on a worker, abandoned at its deadline;
    others inline."""
    from hookwise.runners._workers import is_async

    assert is_async(func) is expected
