"""``HookSystem.register(..., inline=True)``: the host's own function on the firing's thread (docs/hook-types.md).

What inline keeps (outcomes, ``failed`` for ``SystemExit``, context variables) and what it gives up (a call
past its timeout is waited for, then discarded as ``timeout``); and that no settings file can ask for it.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from typing import Any

import pytest
from tests.conftest import Project

from hookwise import HookSystem, Outcome

pytestmark = pytest.mark.usefixtures("trust_all")


def _threads(hs: HookSystem, inline: bool) -> list[int]:
    seen: list[int] = []

    def where(inp: dict[str, Any]) -> dict[str, Any]:
        seen.append(threading.get_ident())
        return {"decision": "allow"}

    hs.register("BeforeTool", where, name="where", inline=inline)
    r = hs.fire("BeforeTool", tool_name="x", tool_input={})
    assert [h.outcome for h in r.hooks] == [Outcome.OK] and r.decision == "allow"
    return seen


def test_inline_runs_on_the_firing_thread_and_the_default_on_a_worker(project: Project) -> None:
    assert _threads(HookSystem(project.root), inline=True) == [threading.get_ident()]
    (worker,) = _threads(HookSystem(project.root), inline=False)
    assert worker != threading.get_ident()


@pytest.mark.parametrize("exc", [SystemExit(0), KeyboardInterrupt(), BaseException("base")])
def test_an_inline_hook_cannot_end_the_host(project: Project, exc: BaseException) -> None:
    hs = HookSystem(project.root)
    hs.register("BeforeTool", lambda i: {"decision": "deny", "reason": "no"}, name="deny")

    def bye(inp: dict[str, Any]) -> None:
        raise exc

    hs.register("BeforeTool", bye, name="bye", inline=True)
    r = hs.fire("BeforeTool", tool_name="x", tool_input={})
    assert r.blocked  # the other hook's deny stands
    outcomes = {h.name: h for h in r.hooks}
    assert outcomes["bye"].outcome is Outcome.FAILED
    assert "cannot end the host" in (outcomes["bye"].error or "")
    assert any("bye (BeforeTool) failed" in w for w in r.warnings)


def test_an_inline_hook_past_its_timeout_is_waited_for_and_its_answer_discarded(
    project: Project,
) -> None:
    hs = HookSystem(project.root)

    def slow(inp: dict[str, Any]) -> dict[str, Any]:
        time.sleep(0.3)
        return {"decision": "deny", "reason": "late"}

    hs.register("BeforeTool", slow, name="slow", timeout_ms=50, inline=True)
    t0 = time.monotonic()
    r = hs.fire("BeforeTool", tool_name="x", tool_input={})
    assert time.monotonic() - t0 >= 0.3  # inline cannot abandon the call: the firing waited
    (o,) = r.hooks
    assert o.outcome is Outcome.TIMEOUT and o.output is None
    assert "over its timeout of 50 ms (its answer was discarded)" in (o.error or "")
    assert not r.blocked and r.warnings and "slow (BeforeTool)" in r.warnings[0]


def test_inline_answers_are_checked_like_any_python_hook(project: Project) -> None:
    hs = HookSystem(project.root)
    hs.register("BeforeAgent", lambda i: ["not", "a", "dict"], name="list", inline=True)
    hs.register("BeforeAgent", lambda i: {"x": float("nan")}, name="nan", inline=True)
    hs.register("BeforeAgent", lambda i: 1 / 0, name="zero", inline=True)
    r = hs.fire("BeforeAgent", prompt="x")
    assert [h.outcome for h in r.hooks] == [Outcome.FAILED] * 3
    assert len(r.warnings) == 3


def test_inline_sees_the_callers_context_variables_and_cannot_change_them(
    project: Project,
) -> None:
    var: contextvars.ContextVar[str] = contextvars.ContextVar("request", default="none")
    hs = HookSystem(project.root)

    def ctx(inp: dict[str, Any]) -> dict[str, Any]:
        seen = var.get()
        var.set("changed by the hook")
        return {"systemMessage": seen}

    hs.register("BeforeTool", ctx, name="ctx", inline=True)
    var.set("req-42")
    r = hs.fire("BeforeTool", tool_name="x", tool_input={})
    assert r.system_message == "req-42" and var.get() == "req-42"


def test_inline_refuses_a_coroutine_function_and_awaits_a_returned_awaitable(
    project: Project,
) -> None:
    hs = HookSystem(project.root)

    async def answer() -> dict[str, Any]:
        await asyncio.sleep(0)
        return {"decision": "deny", "reason": "awaited"}

    async def coro(inp: dict[str, Any]) -> dict[str, Any]:
        return await answer()

    with pytest.raises(ValueError, match="inline=True is for plain functions"):
        hs.register("BeforeTool", coro, name="coro", inline=True)
    hs.register("BeforeTool", lambda i: answer(), name="returns-awaitable", inline=True)
    r = hs.fire("BeforeTool", tool_name="x", tool_input={})
    assert r.blocked and r.reason == "awaited"


def test_fire_async_runs_an_inline_hook_on_the_loops_thread(project: Project) -> None:
    hs = HookSystem(project.root)
    seen: list[int] = []

    @hs.hook("BeforeTool", inline=True)
    def here(inp: dict[str, Any]) -> dict[str, Any]:
        seen.append(threading.get_ident())
        return {"decision": "deny", "reason": "inline"}

    async def go() -> Any:
        return threading.get_ident(), await hs.fire_async(
            "BeforeTool", tool_name="x", tool_input={}
        )

    loop_thread, r = asyncio.run(go())
    assert r.blocked and seen == [loop_thread]


GUARD = """
import threading

def where(inp):
    return {"systemMessage": threading.current_thread().name}
"""


def test_no_settings_file_can_make_a_hook_inline(project: Project) -> None:
    (project.root / "guard.py").write_text(GUARD)
    hook = {"type": "python", "name": "where", "callable": "guard:where", "inline": True}
    project.write_settings({"hooks": {"BeforeTool": [{"hooks": [hook]}]}})
    hs = HookSystem(project.root)
    (entry,) = hs.entries
    assert entry.spec.inline is False  # type: ignore[attr-defined]
    r = hs.fire("BeforeTool", tool_name="x", tool_input={})
    assert r.system_message == "hookwise-python-hook"  # the worker's thread, not the caller's


def test_a_circular_answer_is_failed_naming_the_cycle(project: Project) -> None:
    hs = HookSystem(project.root)

    def loop(inp: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = {"decision": "deny"}
        answer["self"] = answer
        return answer

    hs.register("BeforeTool", loop, name="loop", inline=True)
    r = hs.fire("BeforeTool", tool_name="x", tool_input={})
    (o,) = r.hooks
    assert o.outcome is Outcome.FAILED and not r.blocked
    assert "not JSON-serialisable: Circular reference detected" in (o.error or "")


def test_the_first_wrong_field_in_table_order_is_named_and_surrogates_are_replaced() -> None:
    from hookwise.core.answer import check_answer

    # two wrong fields, written in the other order: the message names the table's first (decision)
    _, err = check_answer({"reason": 1, "decision": 2})
    assert err is not None and err.startswith("answer field `decision` must be a string")
    out, err = check_answer(
        {"decision": "deny", "reason": "bad \ud800 byte", "x\ud800": ["\ud800"]}
    )
    assert err is None and out == {
        "decision": "deny",
        "reason": "bad \ufffd byte",
        "x\ufffd": ["\ufffd"],
    }
    fine = {"decision": "deny", "reason": "caf\u00e9 \u2603"}
    assert check_answer(fine)[0] is fine  # shared when nothing needs replacing


def test_an_inline_answer_with_a_lone_surrogate_is_made_encodable(project: Project) -> None:
    hs = HookSystem(project.root)
    hs.register(
        "BeforeTool", lambda i: {"systemMessage": "caf\u00e9 \ud800"}, name="s", inline=True
    )
    hs.register(
        "BeforeTool", lambda i: {"reason": "plain", "decision": "deny"}, name="p", inline=True
    )
    r = hs.fire("BeforeTool", tool_name="x", tool_input={})
    assert r.system_message == "caf\u00e9 \ufffd" and r.blocked and r.reason == "plain"
