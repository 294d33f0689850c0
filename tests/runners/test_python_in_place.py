"""``runners.python.InPlace``: a host (``hookwise serve``) runs a firing's one python hook on the
firing's thread and keeps the deadline itself. The three cases the runner owns, on a real
HookSystem."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from hookwise import HookSystem, Outcome
from hookwise.runners._workers import timeout_text
from hookwise.runners.python import IN_PLACE, Abandoned, InPlace


def _system(tmp_path: Path) -> tuple[HookSystem, Any, list[threading.Thread]]:
    (tmp_path / ".gemini").mkdir()
    ran: list[threading.Thread] = []

    def guard(inp: dict[str, Any]) -> dict[str, Any]:
        ran.append(threading.current_thread())
        return {"decision": "deny", "reason": "no"}

    hs = HookSystem(str(tmp_path), trust_all=True)
    entry = hs.register("BeforeTool", guard, name="g", timeout_ms=300)
    return hs, entry, ran


def _fire(hs: HookSystem, place: InPlace) -> Any:
    token = IN_PLACE.set(place)
    try:
        return hs.fire("BeforeTool", tool_name="t", tool_input={})
    finally:
        IN_PLACE.reset(token)


def test_the_hook_runs_on_the_firing_thread_and_answers_as_usual(tmp_path: Path) -> None:
    hs, entry, ran = _system(tmp_path)
    place = InPlace(entry)
    r = _fire(hs, place)
    assert r.hooks[0].outcome is Outcome.OK and r.reason == "no" and r.blocked
    assert ran == [threading.current_thread()]
    assert not place.give_up()  # finished: the host does not answer instead
    hs.fire("BeforeTool", tool_name="t", tool_input={})  # without IN_PLACE: on a worker
    assert ran[1] is not threading.current_thread()


def test_given_up_before_it_started_the_hook_never_runs(tmp_path: Path) -> None:
    hs, entry, ran = _system(tmp_path)
    place = InPlace(entry)
    assert place.give_up()
    with pytest.raises(Abandoned):
        _fire(hs, place)
    assert ran == [] and not place.settle()


def test_the_hosts_second_firing_gets_the_workers_timeout_outcome(tmp_path: Path) -> None:
    hs, entry, ran = _system(tmp_path)
    place = InPlace(entry)
    place.t0 -= 0.4  # the call started 400 ms ago
    assert place.give_up()
    r = _fire(hs, place.expired())
    (o,) = r.hooks
    assert o.outcome is Outcome.TIMEOUT and ran == []
    from hookwise.runners._workers import HookTimeout

    assert o.error == timeout_text(300, HookTimeout(True))
    assert o.duration_ms >= 400
