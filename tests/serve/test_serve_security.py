"""Each security rule of ``hookwise serve``: token, Unix socket mode, foreign projects, body cap,
timeout, loopback-only by default, refusals logged, graceful SIGTERM."""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hookwise.serve.client import connection, post

from .conftest import ask, claude_pre, config, gemini_before, make_project, serving


@pytest.mark.slow
def test_bearer_token_is_required_when_configured(
    roots: Path, caplog: pytest.LogCaptureFixture
) -> None:
    p = make_project(roots, "alpha")
    with serving(config(roots, token=b"s3cret-token")) as srv:
        assert ask(srv, "claude", claude_pre(p))[0] == 401
        assert ask(srv, "claude", claude_pre(p), token="wrong")[0] == 401
        assert ask(srv, "claude", claude_pre(p), token="s3cret-token-and-more")[0] == 401
        status, answer = ask(srv, "claude", claude_pre(p, mode="deny", n=1), token="s3cret-token")
        assert status == 200 and answer["hookSpecificOutput"]["permissionDecision"] == "deny"
        conn = connection(srv.address)
        conn.request("GET", "/healthz")  # probes need no token
        assert conn.getresponse().status == 200
        conn.close()
    assert caplog.text.count("missing or wrong bearer token") == 3


@pytest.mark.slow
def test_unix_socket_is_owner_only(roots: Path, tmp_path: Path) -> None:
    p = make_project(roots, "alpha")
    path = str(tmp_path / "hw.sock")
    with serving(config(roots), socket_path=path) as srv:
        mode = os.stat(path).st_mode
        assert stat.S_ISSOCK(mode) and stat.S_IMODE(mode) == 0o600
        status, answer = ask(srv, "claude", claude_pre(p, mode="deny", n=2))
        assert answer["hookSpecificOutput"]["permissionDecisionReason"] == "alpha denies 2"
    assert not os.path.exists(path)  # removed on stop


def test_socket_path_that_is_not_a_socket_is_never_replaced(roots: Path, tmp_path: Path) -> None:
    path = tmp_path / "not-a-socket"
    path.write_text("keep me")
    with (
        pytest.raises(OSError, match="not a socket"),
        serving(config(roots), socket_path=str(path)),
    ):
        pass
    assert path.read_text() == "keep me"


def test_foreign_project_gets_allow_with_warning_or_block(
    roots: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    outside = make_project(tmp_path, "outside")
    (roots / "link").symlink_to(outside)  # a link inside the root that leads outside
    with serving(config(roots)) as srv:
        for cwd in (outside, roots / "link", "relative/dir"):
            status, answer = ask(srv, "claude", claude_pre(cwd, mode="deny", n=1))
            assert status == 200
            assert "not under any --root" in answer["systemMessage"]
            assert "hookSpecificOutput" not in answer  # its hooks never ran
    with serving(config(roots, fail_closed=True)) as srv:
        _, answer = ask(srv, "claude", claude_pre(outside))
        assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
        _, answer = ask(srv, "gemini", gemini_before(outside))
        assert answer["decision"] == "deny"
    assert caplog.text.count("is not under any --root") == 5


@pytest.mark.slow
def test_no_hook_output_reaches_another_projects_answer(roots: Path) -> None:
    a, b = make_project(roots, "alpha"), make_project(roots, "beta")
    (b / ".gemini" / "settings.json").write_text("{}")  # beta has no hooks
    with serving(config(roots)) as srv:
        for i in range(5):
            assert "hookSpecificOutput" in ask(srv, "claude", claude_pre(a, n=i))[1]
            assert ask(srv, "claude", claude_pre(b, n=i))[1] == {}


def test_body_over_the_cap_is_refused(roots: Path, caplog: pytest.LogCaptureFixture) -> None:
    p = make_project(roots, "alpha")
    with serving(config(roots, body_cap=2048)) as srv:
        big = claude_pre(p, pad="x" * 4096)
        assert ask(srv, "claude", big)[0] == 413
        assert ask(srv, "claude", claude_pre(p))[0] == 200
        # a client that announces a small body but sends a huge header-less stream is cut by the
        # length
        with socket.create_connection(("127.0.0.1", srv.port)) as s:
            s.sendall(
                b"POST /hooks/claude HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            )
            assert b" 411 " in s.recv(1024)
    assert "over the cap" in caplog.text and "chunked" in caplog.text


@pytest.mark.slow
def test_request_time_is_the_slowest_hooks_timeout_plus_a_margin(
    roots: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A request is answered at its deadline even while its firing still runs (the watchdog), and
    the late answer is dropped. The margin is negative here so that the deadline (0.5 s) falls
    before the hook's own timeout (2 s) ends the firing."""
    p = make_project(roots, "alpha", kind="python", timeout=2000)
    for fail_closed, decision in ((False, None), (True, "deny")):
        with serving(config(roots, margin_s=-1.5, fail_closed=fail_closed)) as srv:
            t0 = time.monotonic()
            _, answer = ask(srv, "claude", claude_pre(p, mode="sleep", s=3))
            took = time.monotonic() - t0
            assert took < 1.8, took
            assert "did not answer within 0.5 s" in answer["systemMessage"]
            assert answer.get("hookSpecificOutput", {}).get("permissionDecision") == decision
    assert "did not answer within" in caplog.text


def _start_cli(args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "hookwise", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "listening on" not in line:
        proc.kill()
        raise AssertionError(line + proc.communicate()[1])
    return proc, line.rsplit(" ", 1)[1].strip()


@pytest.mark.slow
def test_cli_refuses_a_non_loopback_bind_without_a_token(roots: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "hookwise", "serve", "--root", str(roots), "--host", "0.0.0.0"],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=30,
    )
    assert out.returncode == 1
    assert "--host 0.0.0.0 is not a loopback address: pass --token-file" in out.stderr
    out = subprocess.run(
        [sys.executable, "-m", "hookwise", "serve", "--host", "127.0.0.1"],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=30,
    )
    assert out.returncode == 1 and "at least one --root" in out.stderr


@pytest.mark.slow
def test_cli_sigterm_finishes_requests_in_flight(roots: Path, tmp_path: Path) -> None:
    p = make_project(roots, "alpha", kind="persistent")
    token = tmp_path / "token"
    token.write_text("tok\n")
    token.chmod(0o600)
    env = dict(os.environ, HOOKWISE_TRUST_ALL="1")
    proc, address = _start_cli(
        ["--root", str(roots), "--port", "0", "--token-file", str(token)], env
    )
    try:
        got: dict[str, object] = {}

        def slow() -> None:
            got["answer"] = post(
                connection(address), "/hooks/claude", claude_pre(p, mode="sleep", s=1, n=9), "tok"
            )

        t = threading.Thread(target=slow)
        t.start()
        time.sleep(0.5)  # the request is in flight
        proc.send_signal(signal.SIGTERM)
        t.join(10)
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    status, answer = got["answer"]  # type: ignore[misc]
    assert status == 200 and answer["hookSpecificOutput"]["additionalContext"].startswith(
        "alpha:9:"
    )
    assert "stopped" in proc.stderr.read()  # type: ignore[union-attr]


def test_refusals_are_logged_with_the_peer(roots: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, "hookwise.serve"), serving(config(roots)) as srv:
        conn = connection(srv.address)
        assert post(conn, "/hooks/claude", json.dumps([1]).encode())[0] == 400
        conn.close()
    assert "refused 400 /hooks/claude from 127.0.0.1: body is not a JSON object" in caplog.text
