"""``hookwise serve`` runs a firing's only python hook on the request's thread (``Service._place``).

A hook that hangs still gets exactly the answer a timed-out hook gets on a worker, within the hook's
timeout + the worker's grace; a firing with any other hook keeps the worker, so no hook's answer is
lost. Real servers on real sockets, real hook modules.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

from tests.serve.conftest import ask, claude_pre, config, make_project, serving

from hookwise import Outcome
from hookwise.runners._workers import CANCEL_GRACE_S


def _project(root: Path, name: str, *extra: dict[str, Any], fail_closed: bool = False) -> Path:
    """A project whose BeforeTool hooks are the python guard (timeout 300 ms) and ``extra``."""
    d = make_project(root, name, kind="python", timeout=300)
    settings = json.loads((d / ".gemini" / "settings.json").read_text())
    hooks = settings["hooks"]["BeforeTool"][0]["hooks"]
    if fail_closed:
        hooks[0]["failClosed"] = True
    hooks.extend(extra)
    (d / ".gemini" / "settings.json").write_text(json.dumps(settings))
    return d


def _ask_timed(srv: Any, body: bytes) -> tuple[float, Any]:
    t0 = time.monotonic()
    status, answer = ask(srv, "claude", body)
    assert status == 200
    return time.monotonic() - t0, answer


def test_a_hanging_hook_in_place_answers_as_a_timed_out_worker_call(roots: Path) -> None:
    for fail_closed in (False, True):
        p = _project(roots, f"hang{int(fail_closed)}", fail_closed=fail_closed)
        body = claude_pre(p, mode="sleep", s=4)
        with serving(config(roots, in_place=False)) as srv:
            _, on_worker = _ask_timed(srv, body)
        with serving(config(roots)) as srv:
            took, in_place = _ask_timed(srv, body)
            assert took < 0.3 + CANCEL_GRACE_S + 1.0, (
                took
            )  # the hook's timeout + grace, not the 2 s margin
            assert in_place == on_worker
            assert "timed out after 300 ms" in json.dumps(in_place)
            decision = in_place.get("hookSpecificOutput", {}).get("permissionDecision")
            assert (decision == "deny") is fail_closed
            # the service still answers (the hung request's thread does not hold the project)
            assert ask(srv, "claude", claude_pre(p, n=1))[1]["hookSpecificOutput"][
                "additionalContext"
            ].startswith("py:")


def test_the_timeout_is_the_one_outcome_recorded(roots: Path) -> None:
    """The firing that answers records the hook's outcome ``timeout`` (the decision record and
    telemetry come from these outcomes); the hung firing, when its hook returns, records no outcome
    and its answer is dropped."""
    p = _project(roots, "recorded")
    seen: list[list[Outcome]] = []
    returned = threading.Event()
    with serving(config(roots)) as srv:
        proj = srv.service.projects.acquire(str(p))
        system = proj.system
        srv.service.projects.release(proj)

        def after(event: Any, entries: Any, inp: Any, outcomes: Any) -> None:
            seen.append([o.outcome for o in outcomes])
            if not outcomes:
                returned.set()

        system.add_monitor(after=after)
        _, answer = _ask_timed(srv, claude_pre(p, mode="sleep", s=1))
        assert "timed out after 300 ms" in json.dumps(answer)
        assert returned.wait(5)  # the hook returned after 1 s: its firing ended without outcomes
    assert seen == [[Outcome.TIMEOUT], []]


def test_a_deny_from_another_hook_is_never_lost(roots: Path) -> None:
    """With a second hook the python hook stays on its worker: the other hook's deny stands even
    while the python hook hangs past its timeout."""
    deny = {
        "type": "command",
        "name": "deny",
        "command": 'echo \'{"decision": "deny", "reason": "no"}\'',
    }
    p = _project(roots, "two", deny)
    with serving(config(roots)) as srv:
        service = srv.service
        proj = service.projects.acquire(str(p))
        try:
            from hookwise.serve.dialects import AGENTS

            req = AGENTS["claude"].read(json.loads(claude_pre(p)))
            assert service._place(proj, req) is None
        finally:
            service.projects.release(proj)
        took, answer = _ask_timed(srv, claude_pre(p, mode="sleep", s=3))
        assert took < 0.3 + CANCEL_GRACE_S + 1.0, took
        assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_quick_hook_in_place_answers_as_on_a_worker(roots: Path) -> None:
    p = _project(roots, "quick")
    answers = []
    for in_place in (False, True):
        with serving(config(roots, in_place=in_place)) as srv:
            answers.append(
                [ask(srv, "claude", claude_pre(p, mode=m, n=7))[1] for m in ("deny", "ctx")]
            )
    assert answers[0] == answers[1]
    assert answers[1][0]["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_graceful_stop_does_not_wait_for_a_hung_hook_it_answered(roots: Path) -> None:
    p = _project(roots, "stop")
    with serving(config(roots)) as srv:
        _, answer = _ask_timed(srv, claude_pre(p, mode="sleep", s=3))
        assert "timed out after 300 ms" in json.dumps(answer)
        t0 = time.monotonic()
    assert time.monotonic() - t0 < 2.0  # the drain (on leaving serving) did not wait for the hook


def test_a_coroutine_hook_in_place_answers_as_on_a_worker(roots: Path) -> None:
    p = _project(roots, "coro")
    (p / "serve_async.py").write_text(
        "import asyncio\n"
        "async def answer(d):\n"
        "    await asyncio.sleep(float((d.get('tool_input') or {}).get('s', 0)))\n"
        "    return {'decision': 'deny', 'reason': 'async says no'}\n"
    )
    settings = json.loads((p / ".gemini" / "settings.json").read_text())
    settings["hooks"]["BeforeTool"][0]["hooks"][0]["callable"] = "serve_async:answer"
    (p / ".gemini" / "settings.json").write_text(json.dumps(settings))
    answers = []
    for in_place in (False, True):
        with serving(config(roots, in_place=in_place)) as srv:
            answers.append([ask(srv, "claude", claude_pre(p, s=s))[1] for s in (0, 2)])
    assert answers[0] == answers[1]
    assert answers[1][0]["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "timed out after 300 ms" in json.dumps(answers[1][1])
