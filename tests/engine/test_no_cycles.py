"""A firing leaves no reference cycles behind: its objects are freed when it returns, not by the garbage collector.

A cycle per firing (a closure that refers to itself was one) keeps every firing's input, plan and outcomes alive
until the next collection, makes collections more frequent and slower, and moves their cost onto later firings.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from typing import Any

import pytest
from tests.conftest import Project, emit

from _tiers import first_quick
from hookwise import HookSystem


@pytest.fixture
def collector_off() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def garbage_after(fire: Any, n: int = 20) -> int:
    """Cyclic garbage left by ``n`` firings (warmed up first: caches filled on a first firing are not garbage)."""
    for _ in range(3):
        fire()
    gc.collect()
    for _ in range(n):
        fire()
    return gc.collect()


def system(project: Project, sequential: bool) -> HookSystem:
    project.hooks("BeforeTool", emit({"decision": "allow"}), "true", sequential=sequential)
    hs = HookSystem(project.root, trust_all=True)
    hs.register("BeforeTool", lambda inp: {"decision": "allow"}, name="py")
    hs.register("BeforeTool", lambda inp: {"systemMessage": "also"}, name="py2")
    return hs


@pytest.mark.parametrize("sequential", first_quick([False, True]), ids=["parallel", "sequential"])
def test_fire_leaves_no_cycles(project: Project, sequential: bool, collector_off: None) -> None:
    hs = system(project, sequential)
    assert hs.fire("BeforeTool", tool_name="t", tool_input={}).decision == "allow"
    assert garbage_after(lambda: hs.fire("BeforeTool", tool_name="t", tool_input={})) == 0


@pytest.mark.slow
def test_fire_async_leaves_no_cycles(project: Project, collector_off: None) -> None:
    hs = system(project, False)

    async def many() -> None:
        for _ in range(10):
            await hs.fire_async("BeforeTool", tool_name="t", tool_input={})

    loop = asyncio.new_event_loop()
    try:
        assert garbage_after(lambda: loop.run_until_complete(many()), n=3) == 0
    finally:
        loop.close()


@pytest.mark.slow
def test_no_match_and_blocked_firings_leave_no_cycles(
    project: Project, collector_off: None
) -> None:
    project.hooks("BeforeTool", emit({"decision": "deny", "reason": "no"}), matcher="shell")
    hs = HookSystem(project.root, trust_all=True)
    assert hs.fire("BeforeTool", tool_name="shell", tool_input={}).blocked
    assert garbage_after(lambda: hs.fire("BeforeTool", tool_name="other", tool_input={})) == 0
    assert garbage_after(lambda: hs.fire("BeforeTool", tool_name="shell", tool_input={})) == 0
