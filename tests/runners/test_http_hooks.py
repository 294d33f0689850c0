"""``"type": "http"`` hooks against a real HTTP server on 127.0.0.1 (docs/hook-types.md)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import Project
from tests.runners import _http_server
from tests.runners._http_server import HookServer

from hookwise import HookSystem, Outcome
from hookwise.core.hook_kinds import check_url, interpolate_headers, url_allowed


@pytest.fixture
def server() -> Iterator[HookServer]:
    srv = _http_server.start()
    yield srv
    _http_server.stop(srv)


def http_hook(url: str, **extra: Any) -> dict[str, Any]:
    return {"type": "http", "url": url, **extra}


def fire(
    project: Project, event: str = "BeforeTool", env: dict[str, str] | None = None, **fields: Any
) -> Any:
    hs = HookSystem(project.root, trust_all=True, env=env)
    try:
        if event == "BeforeTool":
            fields.setdefault("tool_name", "run_shell_command")
            fields.setdefault("tool_input", {"command": "ls"})
        return hs.fire(event, **fields)
    finally:
        hs.close()


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = int(s.getsockname()[1])
    s.close()
    return port


# ---------------------------------------------------------------- answers


def test_posts_the_input_json(project: Project, server: HookServer) -> None:
    project.hooks("BeforeTool", http_hook(server.answer("a", {"decision": "allow"})))
    r = fire(project)
    assert r.hooks[0].outcome is Outcome.OK and r.hooks[0].hook_type == "http"
    path, headers, body = server.requests[0]
    assert path == "/answer/a" and headers["content-type"] == "application/json"
    sent = json.loads(body)
    assert sent["hook_event_name"] == "BeforeTool" and sent["tool_input"] == {"command": "ls"}
    assert sent["session_id"] == r.input["session_id"]


@pytest.mark.parametrize(
    "body,status,outcome,decision,error",
    [
        ({"decision": "deny", "reason": "no"}, 200, Outcome.OK, "deny", None),
        ({"decision": "allow", "systemMessage": "hi"}, 201, Outcome.OK, "allow", None),
        (
            {
                "hookSpecificOutput": {
                    "permissionDecision": "deny",
                    "permissionDecisionReason": "claude-style",
                }
            },
            200,
            Outcome.OK,
            "deny",
            None,
        ),
        (b"", 200, Outcome.OK, None, None),
        (b"   \n", 204, Outcome.OK, None, None),
        (
            b"hello there",
            200,
            Outcome.FAILED,
            None,
            "answered 200 with a body that is not a JSON object: hello there",
        ),
        (b"[1, 2]", 200, Outcome.FAILED, None, "not a JSON object"),
        (b'{"decision": "deny"', 200, Outcome.FAILED, None, "not a JSON object"),
        (
            {"decision": "deny"},
            500,
            Outcome.FAILED,
            None,
            "answered HTTP 500 Internal Server Error",
        ),
        (b"", 404, Outcome.FAILED, None, "answered HTTP 404 Not Found"),
        (b"", 302, Outcome.FAILED, None, "answered HTTP 302 Found"),  # a redirect without Location
    ],
)
def test_answer_classes(
    project: Project,
    server: HookServer,
    body: Any,
    status: int,
    outcome: Outcome,
    decision: str | None,
    error: str | None,
) -> None:
    url = server.answer("x", body, status)
    project.hooks("BeforeTool", http_hook(url))
    r = fire(project)
    o = r.hooks[0]
    assert o.outcome is outcome, o.error
    assert (
        r.output.get("decision") == (None if decision == "allow" else decision)
        or decision == "allow"
    )
    assert r.blocked is (decision == "deny")
    if error is None:
        assert o.error is None and not r.warnings
    else:
        assert error in (o.error or "")
        assert r.warnings == [f"hook {url} (BeforeTool) failed: {o.error}"]
        assert url in r.warnings[0]


def test_failure_blocks_when_fail_closed(project: Project, server: HookServer) -> None:
    url = server.answer("x", b"oops", 503)
    project.hooks("BeforeTool", http_hook(url, failClosed=True, name="gate"))
    r = fire(project)
    assert r.hooks[0].outcome is Outcome.FAILED and r.blocked
    assert (
        r.reason is not None
        and "Hook gate failed closed (failed: POST" in r.reason
        and "503" in r.reason
    )


def test_connection_refused(project: Project) -> None:
    url = f"http://127.0.0.1:{free_port()}/hook"
    project.hooks("BeforeTool", http_hook(url))
    r = fire(project)
    assert r.hooks[0].outcome is Outcome.FAILED
    assert r.warnings == [f"hook {url} (BeforeTool) failed: POST {url}: connection refused"]


def test_tls_error(project: Project, server: HookServer) -> None:
    url = server.base.replace("http://", "https://") + "/answer/x"  # the server speaks plain HTTP
    project.hooks("BeforeTool", http_hook(url, timeout=5000))
    r = fire(project)
    assert r.hooks[0].outcome is Outcome.FAILED
    assert "TLS error" in (r.hooks[0].error or ""), r.hooks[0].error


def test_redirect_to_the_same_origin_is_followed(project: Project, server: HookServer) -> None:
    target = server.answer("final", {"decision": "deny", "reason": "moved"})
    project.hooks("BeforeTool", http_hook(server.url(f"/redirect?to={target}")))
    r = fire(project)
    assert r.hooks[0].outcome is Outcome.OK and r.decision == "deny" and r.reason == "moved"
    assert [p for p, _h, _b in server.requests] == ["/redirect", "/answer/final"]
    assert json.loads(server.requests[1][2])["hook_event_name"] == "BeforeTool"  # POSTed again


def test_redirect_to_another_host_is_refused(project: Project, server: HookServer) -> None:
    other = f"http://localhost:{server.server_address[1]}/answer/x"  # same port, another host name
    project.hooks("BeforeTool", http_hook(server.url(f"/redirect?to={other}")))
    r = fire(project)
    assert r.hooks[0].outcome is Outcome.FAILED
    assert f"was redirected to another host ({other})" in (r.hooks[0].error or "")
    assert [p for p, _h, _b in server.requests] == ["/redirect"]


@pytest.mark.parametrize(
    "path,expect",
    [
        ("/huge", "the answer of 2147483648 bytes passes the 1048576-byte output cap"),
        ("/huge-chunked", "passed the 1048576-byte output cap and was cut off"),
    ],
)
def test_body_over_the_output_cap(
    project: Project, server: HookServer, path: str, expect: str
) -> None:
    project.hooks("BeforeTool", http_hook(server.url(path), timeout=20000))
    t0 = time.monotonic()
    r = fire(project)
    assert time.monotonic() - t0 < 10
    assert r.hooks[0].outcome is Outcome.FAILED and expect in (r.hooks[0].error or "")
    assert not r.blocked


@pytest.mark.slow
@pytest.mark.parametrize("path", ["/hang", "/stream"])
def test_hang_after_headers_and_endless_body_time_out(
    project: Project, server: HookServer, path: str
) -> None:
    url = server.url(path)
    project.hooks(
        "BeforeTool",
        http_hook(url, timeout=800),
        {"type": "command", "command": "true", "name": "other"},
    )
    t0 = time.monotonic()
    r = fire(project)
    took = time.monotonic() - t0
    assert 0.7 < took < 5, took
    o = r.hooks[0]
    assert o.outcome is Outcome.TIMEOUT
    assert (
        o.error is not None
        and o.error.startswith("timed out after 800 ms (POST ")
        and url in o.error
    )
    assert r.hooks[1].outcome is Outcome.OK  # nothing else is affected
    assert r.warnings == [f"hook {url} (BeforeTool) {o.error}"]


def test_timeout_blocks_when_fail_closed(project: Project, server: HookServer) -> None:
    project.hooks("BeforeTool", http_hook(server.url("/hang"), timeout=300, failClosed=True))
    r = fire(project)
    assert r.hooks[0].outcome is Outcome.TIMEOUT and r.blocked


def test_malformed_urls_are_reported_and_skipped(project: Project, server: HookServer) -> None:
    project.hooks(
        "BeforeTool",
        http_hook("ftp://example.com/x"),
        http_hook("http:///nohost"),
        http_hook("http://exa mple.com/"),
        {"type": "http"},
        http_hook(server.answer("ok", {})),
    )
    hs = HookSystem(project.root, trust_all=True)
    assert [e.target for e in hs.entries] == [server.url("/answer/ok")]
    w = "\n".join(hs.warnings)
    assert (
        "/hooks/BeforeTool/0/hooks/0/url: the URL 'ftp://example.com/x' must start with http:// or https://"
        in w
    )
    assert "/hooks/BeforeTool/0/hooks/1/url: the URL 'http:///nohost' has no host" in w
    assert (
        "/hooks/BeforeTool/0/hooks/2/url: the URL 'http://exa mple.com/' contains white space" in w
    )
    assert (
        '/hooks/BeforeTool/0/hooks/3: missing "url": the address to POST the input to; hook skipped'
        in w
    )
    assert str(project.settings_path()) in w


# ---------------------------------------------------------------- headers


def test_header_interpolation_only_from_allowed_env_vars(
    project: Project, server: HookServer
) -> None:
    url = server.answer("h", {})
    project.hooks(
        "BeforeTool",
        http_hook(
            url,
            headers={
                "Authorization": "Bearer $HOOK_TOKEN",
                "X-Team": "${TEAM}-x",
                "X-Secret": "$SECRET_KEY",
                "X-Literal": "plain",
            },
            allowedEnvVars=["HOOK_TOKEN", "TEAM"],
        ),
        layer="user",
    )
    env = {**os.environ, "HOOK_TOKEN": "t0k", "TEAM": "blue", "SECRET_KEY": "do-not-send"}
    fire(project, env=env)
    headers = server.requests[0][1]
    assert headers["authorization"] == "Bearer t0k" and headers["x-team"] == "blue-x"
    assert headers["x-secret"] == "" and headers["x-literal"] == "plain"
    assert not any("do-not-send" in v for v in headers.values())


def test_header_interpolation_without_allowed_env_vars(
    project: Project, server: HookServer
) -> None:
    project.hooks(
        "BeforeTool",
        http_hook(server.answer("h", {}), headers={"Authorization": "Bearer ${HOOK_TOKEN}"}),
        layer="user",
    )
    fire(project, env={**os.environ, "HOOK_TOKEN": "t0k"})
    assert server.requests[0][1]["authorization"] == "Bearer "  # the variable became empty


def test_project_hook_headers_use_the_sanitized_environment(
    project: Project, server: HookServer
) -> None:
    project.hooks(
        "BeforeTool",
        http_hook(
            server.answer("h", {}),
            headers={"X-K": "$GITHUB_TOKEN|$HOOK_NAME"},
            allowedEnvVars=["GITHUB_TOKEN", "HOOK_NAME"],
        ),
    )
    fire(project, env={**os.environ, "GITHUB_TOKEN": "ghp_secret", "HOOK_NAME": "n"})
    assert (
        server.requests[0][1]["x-k"] == "|n"
    )  # secret-looking names are redacted for project hooks


def test_header_values_cannot_inject_lines() -> None:
    out = interpolate_headers({"X": "a$V"}, ["V"], {"V": "b\r\nEvil: 1"})
    assert out == {"X": "abEvil: 1"}


# ---------------------------------------------------------------- allow-list


@pytest.mark.parametrize(
    "lists,url,allowed",
    [
        ([], "http://anything/", True),
        ([["http://127.0.0.1:*/hooks/*"]], "http://127.0.0.1:8080/hooks/a", True),
        ([["http://127.0.0.1:*/hooks/*"]], "http://127.0.0.1:8080/other", False),
        ([["https://*.corp.example/*"]], "https://a.corp.example/x", True),
        ([["https://*.corp.example/*"]], "https://evil.example/?x=.corp.example/", False),
        ([["https://*.corp.example/*"]], "https://evil.example@a.corp.example/", False),
        ([["http://a/*"]], "http://a/x/y?z=1", True),
        ([["*"]], "http://a/x", True),
        ([["*"], ["http://a/*"]], "http://b/x", False),  # a later list narrows
        ([["http://a/*"], ["*"]], "http://b/x", False),  # ... and never widens
        ([[]], "http://a/", False),
        ([["http://a/x?y=[1]"]], "http://a/x?y=[1]", True),  # only * is special
    ],
)
def test_url_allowed(lists: list[list[str]], url: str, allowed: bool) -> None:
    assert url_allowed(url, lists) is allowed


@pytest.mark.parametrize("layer", ["user", "system", "system-defaults"])
def test_allow_list_from_a_trusted_layer(project: Project, server: HookServer, layer: str) -> None:
    ok = server.answer("ok", {"systemMessage": "called"})
    no = server.answer("no", {"systemMessage": "must not be called"})
    project.write_settings(
        {"hooksConfig": {"allowedHttpHookUrls": [server.base + "/answer/ok"]}}, layer
    )
    project.hooks("BeforeTool", http_hook(ok), http_hook(no, name="outside"))
    r = fire(project)
    assert [o.outcome for o in r.hooks] == [Outcome.OK, Outcome.NOT_RUN]
    assert [p for p, _h, _b in server.requests] == ["/answer/ok"]
    assert r.warnings == [
        f"hook outside (BeforeTool) did not run: POST {no} is not allowed: no pattern of "
        f"allowedHttpHookUrls in {project.settings_path(layer)} matches it"
    ]


def test_project_allow_list_narrows_but_never_widens(project: Project, server: HookServer) -> None:
    a = server.answer("a", {})
    b = server.answer("b", {})
    project.write_settings(
        {"hooksConfig": {"allowedHttpHookUrls": [server.base + "/answer/*"]}}, "user"
    )
    project.write_settings(
        {
            "hooksConfig": {"allowedHttpHookUrls": [a]},
            "hooks": {"BeforeTool": [{"hooks": [http_hook(a), http_hook(b)]}]},
        }
    )
    assert [o.outcome for o in fire(project).hooks] == [Outcome.OK, Outcome.NOT_RUN]  # narrowed
    project.write_settings({"hooksConfig": {"allowedHttpHookUrls": [b]}}, "user")
    project.write_settings(
        {
            "hooksConfig": {"allowedHttpHookUrls": ["*"]},
            "hooks": {"BeforeTool": [{"hooks": [http_hook(a), http_hook(b)]}]},
        }
    )
    assert [o.outcome for o in fire(project).hooks] == [
        Outcome.NOT_RUN,
        Outcome.OK,
    ]  # "*" did not widen


def test_url_outside_the_allow_list_blocks_when_fail_closed(
    project: Project, server: HookServer
) -> None:
    project.write_settings({"hooksConfig": {"allowedHttpHookUrls": []}}, "user")
    project.hooks("BeforeTool", http_hook(server.answer("a", {}), failClosed=True))
    r = fire(project)
    assert r.hooks[0].outcome is Outcome.NOT_RUN and r.blocked and not server.requests


# ---------------------------------------------------------------- trust


def test_trust_covers_the_url_and_headers(project: Project, server: HookServer) -> None:
    a = server.answer("a", {"systemMessage": "a"})
    project.hooks("BeforeTool", http_hook(a, name="h"))
    hs = HookSystem(project.root)
    r = hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert r.hooks[0].outcome is Outcome.SKIPPED and not server.requests
    assert [e.target for e in hs.untrusted()] == [a]
    hs.trust(hs.untrusted())
    assert hs.fire("BeforeTool", tool_name="t", tool_input={}).hooks[0].outcome is Outcome.OK
    for changed in (
        http_hook(server.answer("b", {}), name="h"),
        http_hook(a, name="h", headers={"X": "$HOME"}, allowedEnvVars=["HOME"]),
    ):
        project.hooks("BeforeTool", changed)
        hs.reload()
        assert (
            hs.fire("BeforeTool", tool_name="t", tool_input={}).hooks[0].outcome is Outcome.SKIPPED
        )
    assert len(server.requests) == 1


# ---------------------------------------------------------------- connections


def test_keep_alive_reuses_one_connection_across_firings(
    project: Project, server: HookServer
) -> None:
    project.hooks(
        "BeforeTool",
        http_hook(server.answer("a", {"decision": "allow"})),
        http_hook(server.answer("b", b"")),
        sequential=True,
    )
    hs = HookSystem(project.root, trust_all=True)
    try:
        for _ in range(10):
            r = hs.fire("BeforeTool", tool_name="t", tool_input={})
            assert [o.outcome for o in r.hooks] == [Outcome.OK, Outcome.OK]
    finally:
        hs.close()
    assert len(server.requests) == 20
    assert server.connections == 1


def test_close_ends_the_kept_alive_connections(project: Project, server: HookServer) -> None:
    project.hooks("BeforeTool", http_hook(server.answer("a", {"decision": "allow"})))
    hs = HookSystem(project.root, trust_all=True)
    assert hs.fire("BeforeTool", tool_name="t", tool_input={}).hooks[0].outcome == Outcome.OK
    assert server.connections == 1 and server.closed == 0  # kept alive for the next firing
    hs.close()  # hs is still referenced: this is not the garbage collector's doing
    deadline = time.monotonic() + 10
    while server.closed < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.closed == 1
    # a hook system that is closed but used again opens a new connection
    assert hs.fire("BeforeTool", tool_name="t", tool_input={}).hooks[0].outcome == Outcome.OK
    assert server.connections == 2
    hs.close()


@pytest.mark.slow
def test_parallel_http_hooks_run_concurrently(project: Project, server: HookServer) -> None:
    project.hooks(
        "BeforeTool", *(http_hook(server.url("/hang"), timeout=600, name=f"h{i}") for i in range(3))
    )
    t0 = time.monotonic()
    r = fire(project)
    assert [o.outcome for o in r.hooks] == [Outcome.TIMEOUT] * 3
    assert time.monotonic() - t0 < 1.6  # three 0.6 s waits side by side, not one after another


def test_a_connection_the_server_dropped_silently_is_retried_once(
    project: Project, server: HookServer
) -> None:
    url = server.answer("a", {"systemMessage": "ok"}, headers={"X-Test-Drop": "1"})
    project.hooks("BeforeTool", http_hook(url))
    hs = HookSystem(project.root, trust_all=True)
    try:
        for _ in range(3):
            r = hs.fire("BeforeTool", tool_name="t", tool_input={})
            assert r.hooks[0].outcome is Outcome.OK and not r.warnings, r.hooks[0].error
    finally:
        hs.close()
    assert len(server.requests) == 3 and server.connections == 3


def test_a_server_closing_idle_connections_is_retried_on_a_new_one(
    project: Project, server: HookServer
) -> None:
    url = server.answer("a", {"systemMessage": "ok"}, headers={"Connection": "close"})
    project.hooks("BeforeTool", http_hook(url))
    hs = HookSystem(project.root, trust_all=True)
    try:
        for _ in range(3):
            assert (
                hs.fire("BeforeTool", tool_name="t", tool_input={}).hooks[0].outcome is Outcome.OK
            )
    finally:
        hs.close()
    assert server.connections == 3


# ---------------------------------------------------------------- from .claude/ and through the CLI


def claude_project(
    project: Project, hooks: dict[str, Any], user: dict[str, Any] | None = None
) -> None:
    project.write_settings({"hooksConfig": {"claudeSettings": True}})
    path = project.root / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": hooks}))
    if user is not None:
        upath = project.home / ".claude" / "settings.json"
        upath.parent.mkdir(parents=True, exist_ok=True)
        upath.write_text(json.dumps(user))


def test_claude_http_hook_natively(project: Project, server: HookServer) -> None:
    url = server.answer(
        "c",
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "no pushes",
            }
        },
    )
    claude_project(
        project,
        {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {
                            "type": "http",
                            "url": url,
                            "timeout": 3,
                            "headers": {"X-T": "$TOK"},
                            "allowedEnvVars": ["TOK"],
                        }
                    ],
                }
            ]
        },
    )
    hs = HookSystem(project.root, trust_all=True, env={**os.environ, "TOK": "v"})
    [e] = hs.entries
    assert (e.type, e.target, e.timeout_ms, e.dialect) == ("http", url, 3000, "claude")
    r = hs.fire("BeforeTool", tool_name="run_shell_command", tool_input={"command": "git push"})
    hs.close()
    assert r.blocked and r.reason == "no pushes"
    sent = server.bodies()[0]
    assert sent["hook_event_name"] == "PreToolUse" and sent["tool_name"] == "Bash"
    assert sent["tool_input"] == {"command": "git push"}
    assert server.requests[0][1]["x-t"] == "v"


def test_claude_allow_list_from_the_user_claude_file(project: Project, server: HookServer) -> None:
    url = server.answer("c", {})
    claude_project(
        project,
        {"PreToolUse": [{"hooks": [{"type": "http", "url": url}]}]},
        user={"allowedHttpHookUrls": ["https://only.example/*"]},
    )
    r = fire(project)
    assert r.hooks[0].outcome is Outcome.NOT_RUN and not server.requests
    assert str(project.home / ".claude" / "settings.json") in r.warnings[0]


def hookwise_cli(project: Project, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOOKWISE_TRUST_ALL": "1"}
    return subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project.root), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


@pytest.mark.slow
def test_cli_fire_and_trace_from_a_gemini_file(
    project: Project, server: HookServer, tmp_path: Path
) -> None:
    url = server.answer("g", {"decision": "deny", "reason": "via http"})
    project.hooks("BeforeTool", http_hook(url, name="remote-gate"), matcher="run_shell_command")
    trace = tmp_path / "trace.jsonl"
    out = hookwise_cli(
        project,
        "--trace",
        str(trace),
        "fire",
        "BeforeTool",
        "--tool",
        "run_shell_command",
        "--tool-input",
        '{"command": "rm -rf /"}',
        "--json",
    )
    assert out.returncode == 2, out.stderr
    data = json.loads(out.stdout)
    assert data["decision"] == "deny" and data["reason"] == "via http"
    [h] = data["hooks"]
    assert (h["name"], h["command"], h["outcome"], h["exitCode"]) == (
        "remote-gate",
        url,
        "ok",
        None,
    )
    [rec] = [json.loads(line) for line in trace.read_text().splitlines()]
    assert rec["type"] == "hook_call" and rec["hook_type"] == "http" and rec["outcome"] == "ok"
    assert rec["hook_output"] == {"decision": "deny", "reason": "via http"}
    assert rec["hook_input"]["tool_input"] == {"command": "rm -rf /"}
    listed = json.loads(hookwise_cli(project, "list", "--json").stdout)["hooks"]
    assert [(h["name"], h["url"]) for h in listed] == [("remote-gate", url)]


@pytest.mark.slow
def test_cli_fire_from_a_claude_file(project: Project, server: HookServer) -> None:
    url = server.answer("c", {"decision": "block", "reason": "claude says no"})
    claude_project(
        project, {"PreToolUse": [{"matcher": "Write", "hooks": [{"type": "http", "url": url}]}]}
    )
    out = hookwise_cli(
        project,
        "fire",
        "BeforeTool",
        "--tool",
        "write_file",
        "--tool-input",
        '{"file_path": "a", "content": "b"}',
        "--json",
    )
    assert out.returncode == 2, out.stdout + out.stderr
    assert json.loads(out.stdout)["reason"] == "claude says no"
    assert server.bodies()[0]["tool_name"] == "Write"


def test_check_url_accepts_http_and_https_only() -> None:
    assert check_url("https://h.example:8443/p?q=1") is None
    assert check_url("http://[::1]:80/") is None
    assert check_url("http://h:99999/") is not None
    assert check_url(42) == '"url" must be a non-empty string'


@pytest.mark.slow
def test_migration_carries_http_hooks_both_ways(project: Project, server: HookServer) -> None:
    url = server.answer("m", {"decision": "deny", "reason": "migrated gate"})
    claude_project(
        project,
        {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {
                            "type": "http",
                            "url": url,
                            "timeout": 7,
                            "headers": {"X": "$T"},
                            "allowedEnvVars": ["T"],
                        }
                    ],
                }
            ]
        },
    )
    project.write_settings({})
    out = hookwise_cli(project, "migrate", "--from-claude")
    assert out.returncode == 0, out.stderr
    [hook] = json.loads(project.settings_path().read_text())["hooks"]["BeforeTool"][0]["hooks"]
    assert hook == {
        "type": "http",
        "url": url,
        "headers": {"X": "$T"},
        "allowedEnvVars": ["T"],
        "timeout": 7000,
        "dialect": "claude",
    }
    (project.root / ".claude" / "settings.json").unlink()
    fired = hookwise_cli(
        project,
        "fire",
        "BeforeTool",
        "--tool",
        "run_shell_command",
        "--tool-input",
        '{"command": "ls"}',
        "--json",
    )
    assert fired.returncode == 2 and json.loads(fired.stdout)["reason"] == "migrated gate"
    assert server.bodies()[0]["tool_name"] == "Bash"  # still Claude-shaped input
    out = hookwise_cli(project, "migrate", "--to-claude")
    assert out.returncode == 0, out.stderr
    back = json.loads((project.root / ".claude" / "settings.json").read_text())
    assert back["hooks"]["PreToolUse"][0]["hooks"] == [
        {"type": "http", "url": url, "headers": {"X": "$T"}, "allowedEnvVars": ["T"], "timeout": 7}
    ]


def test_claude_http_hook_honours_if_and_on_failure(project: Project, server: HookServer) -> None:
    url = server.answer("f", b"down", 503)
    claude_project(
        project,
        {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {"type": "http", "url": url, "if": "Bash(git push *)", "onFailure": "block"}
                    ],
                }
            ]
        },
    )
    hs = HookSystem(project.root, trust_all=True)
    [e] = hs.entries
    assert e.fail_closed and e.condition == "Bash(git push *)"
    r = hs.fire("BeforeTool", tool_name="run_shell_command", tool_input={"command": "ls"})
    assert r.hooks == [] and not server.requests  # `if` did not match: not run at all
    r = hs.fire(
        "BeforeTool", tool_name="run_shell_command", tool_input={"command": "git push origin"}
    )
    hs.close()
    assert r.hooks[0].outcome is Outcome.FAILED and r.blocked  # onFailure: "block" = failClosed
    assert len(server.requests) == 1


@pytest.mark.slow
def test_migration_keeps_every_http_hook_and_reports_the_allow_list(
    project: Project, server: HookServer
) -> None:
    a, b = server.answer("a", {}), server.answer("b", {})
    claude_project(
        project,
        {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [{"type": "http", "url": a}, {"type": "http", "url": b}],
                }
            ]
        },
    )
    claude_file = project.root / ".claude" / "settings.json"
    claude_file.write_text(
        json.dumps({**json.loads(claude_file.read_text()), "allowedHttpHookUrls": ["*"]})
    )
    out = hookwise_cli(project, "migrate", "--from-claude")
    assert out.returncode == 0, out.stderr
    hooks = json.loads(project.settings_path().read_text())["hooks"]["BeforeTool"][0]["hooks"]
    assert [h["url"] for h in hooks] == [a, b]  # different URLs are different hooks
    assert "/allowedHttpHookUrls: not migrated" in out.stdout + out.stderr
    again = hookwise_cli(project, "migrate", "--from-claude", "--dry-run")
    assert "0 migrated, 2 already present" in again.stdout
