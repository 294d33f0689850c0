"""In-process (Python) hooks that raise, block the event loop, hang or return garbage."""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookwise import HookSystem, Outcome
from hookwise.runners._workers import CANCEL_GRACE_S

from .conftest import SLACK_S

pytestmark = pytest.mark.fault

PAYLOAD = {"tool_name": "read_file", "tool_input": {"path": "a"}}


@pytest.fixture
def hs(tmp_path: Path, _isolated_gemini_home: Path) -> HookSystem:
    return HookSystem(tmp_path)


def fire_both(hs: HookSystem) -> list[tuple[Any, float]]:
    """Fire through fire() and fire_async(); return (result, seconds) of each."""
    out = []
    t0 = time.monotonic()
    out.append((hs.fire("BeforeTool", PAYLOAD), time.monotonic() - t0))

    async def main() -> Any:
        return await hs.fire_async("BeforeTool", PAYLOAD)

    t0 = time.monotonic()
    out.append((asyncio.run(main()), time.monotonic() - t0))
    return out


class Boom(Exception):
    pass


def raises(_: dict[str, Any]) -> Any:
    raise Boom("the hook's own bug")


async def raises_async(_: dict[str, Any]) -> Any:
    await asyncio.sleep(0)
    raise Boom("the hook's own bug")


@pytest.mark.parametrize("func", [raises, raises_async], ids=["sync", "async"])
def test_python_hook_that_raises_fails_visibly(hs: HookSystem, func: Callable[..., Any]) -> None:
    hs.register("BeforeTool", func, name="raiser")
    for result, elapsed in fire_both(hs):
        (o,) = result.hooks
        assert o.outcome is Outcome.FAILED
        assert o.error == "raised Boom: the hook's own bug"
        assert result.warnings == [
            "hook raiser (BeforeTool) failed: raised Boom: the hook's own bug"
        ]
        assert not result.blocked
        assert elapsed < SLACK_S


def test_fail_closed_is_not_available_to_python_hooks_but_failures_stay_visible(
    hs: HookSystem,
) -> None:
    hs.register("BeforeTool", raises, name="raiser")
    hs.register("BeforeTool", lambda _: {"decision": "deny", "reason": "second"}, name="denier")
    result = hs.fire("BeforeTool", PAYLOAD)
    assert [h.outcome for h in result.hooks] == [Outcome.FAILED, Outcome.OK]
    assert (
        result.blocked and result.reason == "second"
    )  # one hook's crash does not lose another's deny


@pytest.mark.parametrize(
    "value",
    [[1, 2], "deny", 42, True, ("decision", "deny"), object()],
    ids=["list", "str", "int", "bool", "tuple", "object"],
)
def test_python_hook_that_returns_a_non_dict(hs: HookSystem, value: Any) -> None:
    hs.register("BeforeTool", lambda _: value, name="odd")
    for result, _ in fire_both(hs):
        (o,) = result.hooks
        assert o.outcome is Outcome.FAILED
        assert o.error == f"returned {type(value).__name__}, expected a dict or None"
        assert not result.blocked


@pytest.mark.parametrize(
    "value",
    [
        {"decision": "deny", "x": math.nan},
        {"decision": "deny", "x": object()},
        {"decision": "deny", "x": {1, 2}},
    ],
    ids=["nan", "object", "set"],
)
def test_python_hook_that_returns_a_dict_that_is_not_json(
    hs: HookSystem, value: dict[str, Any]
) -> None:
    hs.register("BeforeTool", lambda _: value, name="odd")
    result = hs.fire("BeforeTool", PAYLOAD)
    (o,) = result.hooks
    assert o.outcome is Outcome.FAILED
    assert "not JSON-serialisable" in (o.error or "")


async def blocks_loop(_: dict[str, Any]) -> dict[str, Any]:
    time.sleep(4)  # a blocking call inside a coroutine: the loop it runs on is stuck
    return {"decision": "deny", "reason": "too late"}


async def awaits_forever(_: dict[str, Any]) -> dict[str, Any]:
    await asyncio.sleep(100)
    return {"decision": "deny"}


@pytest.mark.slow
@pytest.mark.parametrize(
    "func", [blocks_loop, awaits_forever], ids=["blocks-loop", "awaits-forever"]
)
def test_async_hook_that_blocks_or_hangs_times_out_within_the_bound(
    hs: HookSystem, func: Callable[..., Any]
) -> None:
    hs.register("BeforeTool", func, name="slow", timeout_ms=200)
    for result, elapsed in fire_both(hs):
        (o,) = result.hooks
        assert o.outcome is Outcome.TIMEOUT
        assert (o.error or "").startswith("timed out after 200 ms")
        assert not result.blocked  # the late answer is discarded
        assert elapsed <= 0.2 + CANCEL_GRACE_S + SLACK_S
        assert elapsed < 3  # much less than the hook's 4 s block


def test_blocking_hook_does_not_stall_the_hosts_event_loop(hs: HookSystem) -> None:
    """While one Python hook blocks, the caller's loop keeps running its other tasks."""

    def sync_blocker(_: dict[str, Any]) -> None:
        time.sleep(4)

    hs.register("BeforeTool", blocks_loop, name="async-blocker", timeout_ms=300)
    hs.register("BeforeTool", sync_blocker, name="sync-blocker", timeout_ms=300)
    ticks: list[float] = []

    async def ticker() -> None:
        while True:
            ticks.append(time.monotonic())
            await asyncio.sleep(0.01)

    async def main() -> Any:
        task = asyncio.ensure_future(ticker())
        try:
            return await hs.fire_async("BeforeTool", PAYLOAD)
        finally:
            task.cancel()

    t0 = time.monotonic()
    result = asyncio.run(main())
    elapsed = time.monotonic() - t0
    assert [h.outcome for h in result.hooks] == [Outcome.TIMEOUT, Outcome.TIMEOUT]
    assert elapsed <= 0.3 + CANCEL_GRACE_S + SLACK_S and elapsed < 3
    gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    assert len(ticks) >= 5 and max(gaps) < 0.25, "the host's loop was blocked"


def test_abandoned_worker_finishes_in_the_background_and_is_not_reused(hs: HookSystem) -> None:
    release = threading.Event()
    finished = threading.Event()
    workers: list[threading.Thread] = []

    async def stuck(_: dict[str, Any]) -> dict[str, Any]:
        workers.append(threading.current_thread())
        release.wait(10)  # blocks its worker's loop
        finished.set()
        return {"decision": "deny"}

    async def fine(_: dict[str, Any]) -> dict[str, Any]:
        return {"systemMessage": "fine"}

    e = hs.register("BeforeTool", stuck, name="stuck", timeout_ms=100)
    r1 = hs.fire("BeforeTool", PAYLOAD)
    assert r1.hooks[0].outcome is Outcome.TIMEOUT
    assert "abandoned" in (r1.hooks[0].error or "")
    hs.unregister(e)
    hs.register("BeforeTool", fine, name="fine")
    t0 = time.monotonic()
    r2 = hs.fire("BeforeTool", PAYLOAD)  # gets a fresh worker, not the stuck one
    assert r2.system_message == "fine" and time.monotonic() - t0 < 1.0
    assert workers and workers[0].is_alive()
    release.set()
    assert finished.wait(5)
    workers[0].join(5)
    assert not workers[0].is_alive(), "an abandoned worker exits once its call returns"


def test_slow_sync_hook_in_fire_has_its_answer_discarded(hs: HookSystem) -> None:
    """Plain functions in fire() run on a worker abandoned at the deadline; the overrun is never
    applied."""

    def slow(_: dict[str, Any]) -> dict[str, Any]:
        time.sleep(0.3)
        return {"decision": "deny"}

    hs.register("BeforeTool", slow, name="slow", timeout_ms=100)
    result = hs.fire("BeforeTool", PAYLOAD)
    (o,) = result.hooks
    assert o.outcome is Outcome.TIMEOUT and "abandoned" in (o.error or "")
    assert not result.blocked


def test_hook_that_raises_cancelled_error_fails_without_cancelling_the_host(hs: HookSystem) -> None:
    async def cancels(_: dict[str, Any]) -> None:
        raise asyncio.CancelledError

    hs.register("BeforeTool", cancels, name="cancels")
    for result, _ in fire_both(hs):  # neither call raises: the host's task was not cancelled
        (o,) = result.hooks
        assert o.outcome is Outcome.FAILED and "CancelledError" in (o.error or "")


def test_sync_fire_inside_a_running_loop_with_a_blocking_coroutine_hook(hs: HookSystem) -> None:
    """fire() called from async code (a common mistake) still bounds a coroutine hook that
    blocks."""
    hs.register("BeforeTool", blocks_loop, name="blocker", timeout_ms=200)

    async def main() -> Any:
        t0 = time.monotonic()
        r = hs.fire("BeforeTool", PAYLOAD)
        return r, time.monotonic() - t0

    result, elapsed = asyncio.run(main())
    assert result.hooks[0].outcome is Outcome.TIMEOUT
    assert elapsed < 3
