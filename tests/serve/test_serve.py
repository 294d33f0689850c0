"""``hookwise serve`` answering Claude- and Gemini-shaped requests: real sockets, real hook
processes."""

from __future__ import annotations

import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hookwise.serve.client import connection, post

from .conftest import ask, claude_pre, config, gemini_before, make_project, serving


@pytest.mark.slow
def test_claude_request_gets_claude_answers(roots: Path) -> None:
    p = make_project(roots, "alpha")
    with serving(config(roots)) as srv:
        status, deny = ask(srv, "claude", claude_pre(p, mode="deny", n=1))
        assert status == 200
        assert deny == {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "alpha denies 1",
            }
        }
        _, rewrite = ask(srv, "claude", claude_pre(p, mode="rewrite", n=2))
        hso = rewrite["hookSpecificOutput"]
        assert hso["updatedInput"]["command"] == "echo safe 2"
        assert hso["permissionDecision"] == "ask"  # a rewrite alone never skips the prompt
        _, ctx = ask(srv, "claude", claude_pre(p, n=3))
        assert ctx["hookSpecificOutput"]["additionalContext"].startswith("alpha:3:")


def test_gemini_request_gets_the_contract_answer(roots: Path) -> None:
    p = make_project(roots, "alpha")
    with serving(config(roots)) as srv:
        status, answer = ask(srv, "gemini", gemini_before(p, mode="deny", n=7))
    assert status == 200
    assert (answer["decision"], answer["reason"]) == ("deny", "alpha denies 7")


def test_health_and_unknown_routes(roots: Path) -> None:
    with serving(config(roots)) as srv:
        conn = connection(srv.address)
        conn.request("GET", "/healthz")
        assert conn.getresponse().read() and True
        conn.request("GET", "/readyz")
        r = conn.getresponse()
        assert r.status == 200 and json.loads(r.read())["status"] == "ok"
        assert post(conn, "/hooks/nobody", b"{}")[0] == 404
        assert post(conn, "/hooks/claude", b"[1]")[0] == 400
        assert post(conn, "/hooks/claude", b"{nope")[0] == 400
        conn.close()


def test_claude_event_without_equivalent_is_visible(roots: Path) -> None:
    p = make_project(roots, "alpha")
    body = json.dumps({"hook_event_name": "PermissionDenied", "cwd": str(p)}).encode()
    with serving(config(roots)) as srv:
        status, answer = ask(srv, "claude", body)
    assert status == 200 and "no hookwise equivalent" in answer["systemMessage"]


@pytest.mark.slow
def test_many_concurrent_clients_each_get_their_own_projects_answer(roots: Path) -> None:
    """64 clients at once over two projects: every answer carries its own request's number and
    project."""
    projects = [make_project(roots, "alpha"), make_project(roots, "beta", kind="persistent")]

    def one(i: int) -> tuple[int, str, str]:
        p = projects[i % 2]
        if i % 3 == 0:
            _, a = ask(srv, "gemini", gemini_before(p, n=i))
        else:
            _, a = ask(srv, "claude", claude_pre(p, n=i))
        return i, p.name, a["hookSpecificOutput"]["additionalContext"]

    with serving(config(roots)) as srv, ThreadPoolExecutor(64) as pool:
        results = list(pool.map(one, range(128)))
    for i, name, ctx in results:
        proj, n, _pid = ctx.split(":")
        assert (proj, n) == (name, str(i))
    # the persistent hook of beta was started once and shared by every request
    beta_pids = {ctx.split(":")[2] for i, name, ctx in results if name == "beta"}
    assert len(beta_pids) == 1


def test_python_hooks_shared_between_concurrent_requests(roots: Path) -> None:
    """Two projects with a same-named python hook module, 16 clients: each project gets its own
    module."""
    ps = [make_project(roots, "alpha", kind="python"), make_project(roots, "beta", kind="python")]
    with serving(config(roots)) as srv, ThreadPoolExecutor(16) as pool:
        answers = list(
            pool.map(lambda i: ask(srv, "claude", claude_pre(ps[i % 2], n=i))[1], range(64))
        )
    assert [a["hookSpecificOutput"]["additionalContext"] for a in answers] == [
        f"py:{ps[i % 2].name}:{i}" for i in range(64)
    ]


def test_trust_is_applied_as_by_the_cli(roots: Path) -> None:
    """Without trust_all an untrusted project hook does not run, visibly."""
    p = make_project(roots, "alpha")
    with serving(config(roots, system_options={})) as srv:
        _, answer = ask(srv, "claude", claude_pre(p, mode="deny", n=1))
    assert "hookSpecificOutput" not in answer
    assert "was skipped" in answer["systemMessage"] and "trust" in answer["systemMessage"]


@pytest.mark.slow
def test_settings_change_reloads_the_project(roots: Path) -> None:
    p = make_project(roots, "alpha")
    with serving(config(roots)) as srv:
        assert "hookSpecificOutput" in ask(srv, "claude", claude_pre(p, n=1))[1]
        settings = p / ".gemini" / "settings.json"
        settings.write_text(json.dumps({"hooks": {}}) + "\n")
        os.utime(settings, ns=(time.time_ns() + 10**9,) * 2)
        time.sleep(0.3)  # projects.CHECK_INTERVAL_S
        assert ask(srv, "claude", claude_pre(p, n=2))[1] == {}


@pytest.mark.slow
def test_project_is_the_nearest_marked_directory(roots: Path) -> None:
    p = make_project(roots, "alpha")
    sub = p / "src" / "deep"
    sub.mkdir(parents=True)
    with serving(config(roots)) as srv:
        _, answer = ask(srv, "claude", claude_pre(sub, mode="deny", n=5))
    assert answer["hookSpecificOutput"]["permissionDecisionReason"] == "alpha denies 5"
