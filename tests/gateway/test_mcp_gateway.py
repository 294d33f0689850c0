"""``hookwise mcp`` in front of a real MCP server written with the SDK, driven by the SDK's client.

The server and the gateway are real processes on stdio; the hooks are real command hooks.
"""

from __future__ import annotations

import json
import os
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="needs the mcp extra")

import anyio  # noqa: E402
import mcp_types as types  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402

from _tiers import first_quick  # noqa: E402

UPSTREAM = textwrap.dedent('''
    from mcp.server import MCPServer

    mcp = MCPServer("demo", instructions="the demo server")

    @mcp.tool()
    def echo(text: str) -> str:
        """Echo the text."""
        return "echo:" + text

    @mcp.tool()
    def secret() -> str:
        """A tool the policy hides."""
        return "the secret"

    if __name__ == "__main__":
        import sys
        if len(sys.argv) > 1:  # a port: Streamable HTTP
            mcp.run("streamable-http", host="127.0.0.1", port=int(sys.argv[1]))
        else:
            mcp.run()
''')

HOOK = textwrap.dedent("""
    import json, os, sys
    d = json.load(sys.stdin)
    ev = d["hook_event_name"]
    if ev == "SessionStart":
        print(json.dumps({"hookSpecificOutput": {"additionalContext": "policy v1 applies"}}))
    elif ev == "SessionEnd":
        open(os.path.join(os.environ["GEMINI_PROJECT_DIR"], "ended"), "w").write(d["reason"])
    elif ev == "BeforeToolSelection":
        names = [t["name"] for t in d["llm_request"]["tools"] if t["name"] != "mcp__demo__secret"]
        print(json.dumps({"hookSpecificOutput": {"toolConfig": {"mode": "ANY", "allowedFunctionNames": names}}}))
    elif ev == "BeforeTool":
        assert d["tool_name"] == "mcp__demo__echo", d["tool_name"]
        assert d["mcp_context"] == {"server_name": "demo", "tool_name": "echo"}
        text = d["tool_input"]["text"]
        if text == "deny":
            print(json.dumps({"decision": "deny", "reason": "echoing deny is forbidden"}))
        elif text == "rewrite":
            print(json.dumps({"hookSpecificOutput": {"tool_input": {"text": "rewritten"}}}))
        elif text == "ask":
            print(json.dumps({"decision": "ask", "reason": "really echo?"}))
    elif ev == "AfterTool":
        out = d["tool_response"]["llmContent"]
        if out == "echo:replace":
            print(json.dumps({"decision": "block", "reason": "result withheld by policy"}))
        elif out == "echo:ctx":
            print(json.dumps({"hookSpecificOutput": {"additionalContext": "checked by hookwise"}}))
        elif out == "echo:update":
            out = {"updatedToolOutput": {"llmContent": "updated output"}}
            print(json.dumps({"hookSpecificOutput": out}))
""")


@pytest.fixture
def gateway(tmp_path: Path) -> tuple[StdioServerParameters, Path]:
    proj = tmp_path / "proj"
    (proj / ".gemini").mkdir(parents=True)
    (proj / "hook.py").write_text(HOOK)
    (proj / "upstream.py").write_text(UPSTREAM)
    cmd = f'{sys.executable} "$GEMINI_PROJECT_DIR/hook.py"'
    group = [{"hooks": [{"type": "command", "name": "policy", "command": cmd}]}]
    events = ("SessionStart", "SessionEnd", "BeforeToolSelection", "BeforeTool", "AfterTool")
    settings = {"hooks": {ev: group for ev in events}}
    (proj / ".gemini" / "settings.json").write_text(json.dumps(settings))
    env = {k: v for k, v in os.environ.items() if k.startswith(("GEMINI_", "XDG_", "PATH", "HOME"))}
    env["HOOKWISE_TRUST_ALL"] = "1"
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "hookwise",
            "--project",
            str(proj),
            "mcp",
            "--",
            sys.executable,
            str(proj / "upstream.py"),
        ],
        env=env,
    )
    return params, proj


def _texts(result: types.CallToolResult) -> list[str]:
    return [c.text for c in result.content if isinstance(c, types.TextContent)]


@pytest.mark.slow
def test_gateway_applies_hooks_to_listing_and_calls(gateway: tuple[Any, Path]) -> None:
    params, proj = gateway

    async def session() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with Client(params, cache=None) as c:
            seen["instructions"] = c.instructions
            seen["tools"] = [t.name for t in (await c.list_tools()).tools]
            for text in ("plain", "deny", "rewrite", "replace", "ctx", "update", "ask"):
                seen[text] = await c.call_tool("echo", {"text": text})
            seen["hidden"] = await c.call_tool("secret", {})
        return seen

    seen = anyio.run(session)
    assert (
        seen["instructions"] == "the demo server\n\n<hook_context>policy v1 applies</hook_context>"
    )
    assert seen["tools"] == ["echo"]  # list filtered
    assert _texts(seen["plain"]) == ["echo:plain"] and not seen["plain"].is_error
    assert seen["deny"].is_error and _texts(seen["deny"]) == [
        "denied by a hook: echoing deny is forbidden"
    ]
    assert _texts(seen["rewrite"]) == ["echo:rewritten"]  # the server got the new arguments
    assert _texts(seen["replace"]) == ["result withheld by policy"]  # result replaced
    assert _texts(seen["ctx"]) == ["echo:ctx", "<hook_context>checked by hookwise</hook_context>"]
    assert _texts(seen["update"]) == ["updated output"]
    # this client declares no elicitation: an ask is a deny
    assert seen["ask"].is_error and "asked for confirmation" in _texts(seen["ask"])[0]
    assert seen["hidden"].is_error and "hid it" in _texts(seen["hidden"])[0]
    assert (proj / "ended").read_text() == "exit"  # SessionEnd fired when the client left


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["auto", "legacy"])  # input_required round / elicitation request
def test_ask_becomes_an_elicitation_when_the_client_supports_it(
    gateway: tuple[Any, Path], mode: str
) -> None:
    params, _ = gateway
    asked: list[str] = []

    async def accept(ctx: Any, p: Any) -> types.ElicitResult:
        asked.append(p.message)
        return types.ElicitResult(action="accept", content={})

    async def session() -> types.CallToolResult:
        async with Client(params, cache=None, elicitation_callback=accept, mode=mode) as c:
            await c.list_tools()
            return await c.call_tool("echo", {"text": "ask"})

    result = anyio.run(session)
    assert asked == ["really echo?"]
    assert _texts(result) == ["echo:ask"] and not result.is_error


def test_gateway_fronts_a_streamable_http_server(gateway: tuple[Any, Path]) -> None:
    """``hookwise mcp --url``: the same hooks in front of a server reached over Streamable HTTP."""
    import socket
    import subprocess
    import time

    params, proj = gateway
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, str(proj / "upstream.py"), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        url = f"http://127.0.0.1:{port}/mcp"
        args = ["-m", "hookwise", "--project", str(proj), "mcp", "--url", url]
        via_http = StdioServerParameters(command=sys.executable, args=args, env=params.env)

        async def session() -> tuple[list[str], types.CallToolResult]:
            async with Client(via_http, cache=None) as c:
                tools = [t.name for t in (await c.list_tools()).tools]
                return tools, await c.call_tool("echo", {"text": "deny"})

        tools, denied = anyio.run(session)
    finally:
        server.terminate()
        server.wait(10)
    assert tools == ["echo"]
    assert denied.is_error and _texts(denied) == ["denied by a hook: echoing deny is forbidden"]


@pytest.mark.parametrize(
    ("args", "message"),
    first_quick(
        [
            ([], "needs the server's command after --"),
            (
                ["--", "/nonexistent/mcp-server"],
                "cannot reach the MCP server /nonexistent/mcp-server",
            ),
            (["--token-file", "t", "--", "srv"], "--token-file goes with --listen"),
            (["--listen", "8766", "--", "srv"], "--listen 8766: expected HOST:PORT"),
        ]
    ),
)
def test_cli_says_what_is_wrong(tmp_path: Path, args: list[str], message: str) -> None:
    import subprocess

    out = subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(tmp_path), "mcp", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 1 and message in out.stderr, out.stderr


@pytest.mark.slow
def test_audit_mode_through_the_gateway_records_what_it_would_have_denied(
    gateway: tuple[Any, Path], tmp_path: Path
) -> None:
    """User settings in audit mode: the denied call goes through, and its decision record (agent ``mcp``)
    reaches an OTLP receiver with the deny it would have been."""
    pytest.importorskip("opentelemetry.exporter.otlp.proto.http", reason="needs the otel extra")
    pytest.importorskip("opentelemetry.proto", reason="needs opentelemetry-proto (test extra)")
    from tests.telemetry.receiver import OtlpReceiver

    params, _ = gateway
    home = Path(params.env["GEMINI_CLI_HOME"])
    (home / ".gemini").mkdir(parents=True, exist_ok=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps({"hooksConfig": {"mode": "audit"}}))
    with OtlpReceiver() as rx:
        env = {k: v for k, v in params.env.items() if not k.startswith("OTEL_")}
        env.update(
            OTEL_EXPORTER_OTLP_ENDPOINT=rx.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL="http/protobuf"
        )
        audited = StdioServerParameters(command=params.command, args=params.args, env=env)

        async def session() -> types.CallToolResult:
            async with Client(audited, cache=None) as c:
                await c.list_tools()
                return await c.call_tool("echo", {"text": "deny"})

        result = anyio.run(session)
        assert rx.wait(
            lambda r: any(
                d["attributes"].get("tool_name") == "mcp__demo__echo" for d in r.decisions
            )
        )
    assert _texts(result) == ["echo:deny"]  # audit: not denied
    rec = next(
        d["attributes"]
        for d in rx.decisions
        if d["attributes"].get("tool_name") == "mcp__demo__echo"
        and d["attributes"]["hook_event_name"] == "BeforeTool"
    )
    assert (rec["agent"], rec["decision"], rec["audit"]) == ("mcp", "deny", True)
    assert rec["reason"] == "echoing deny is forbidden"


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for_port(port: int, proc: Any) -> None:
    import socket
    import time

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read()
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"nothing listens on port {port}")


@pytest.mark.slow
def test_gateway_serves_streamable_http_to_the_client(gateway: tuple[Any, Path]) -> None:
    """``hookwise mcp --listen 127.0.0.1:PORT --token-file F -- <server>``: the SDK's Streamable HTTP
    client gets the hooks' listing and deny; no token is a 401; SIGTERM ends it with SessionEnd."""
    import signal
    import subprocess
    import urllib.error
    import urllib.request

    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    params, proj = gateway
    port = _free_port()
    token = proj / "token"
    token.write_text("s3cret\n")
    token.chmod(0o600)
    args = ["-m", "hookwise", "--project", str(proj), "mcp", "--listen", f"127.0.0.1:{port}"]
    args += ["--token-file", str(token), "--", sys.executable, str(proj / "upstream.py")]
    gw = subprocess.Popen(
        [sys.executable, *args],
        env=params.env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        _wait_for_port(port, gw)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(
                urllib.request.Request(url, data=b"{}", method="POST"), timeout=10
            )
        assert refused.value.code == 401

        async def session() -> tuple[list[str], types.CallToolResult, types.CallToolResult]:
            http = httpx2.AsyncClient(headers={"Authorization": "Bearer s3cret"})
            async with http, Client(streamable_http_client(url, http_client=http), cache=None) as c:
                tools = [t.name for t in (await c.list_tools()).tools]
                return (
                    tools,
                    await c.call_tool("echo", {"text": "deny"}),
                    await c.call_tool("echo", {"text": "ctx"}),
                )

        tools, denied, ctx = anyio.run(session)
    finally:
        gw.send_signal(signal.SIGTERM)
        _, err = gw.communicate(timeout=30)
    assert tools == ["echo"]  # list filtered
    assert denied.is_error and _texts(denied) == ["denied by a hook: echoing deny is forbidden"]
    assert _texts(ctx) == ["echo:ctx", "<hook_context>checked by hookwise</hook_context>"]
    assert gw.returncode == 0, err
    assert f"serving Streamable HTTP on {url}" in err and "no or wrong bearer token" in err
    assert (proj / "ended").read_text() == "exit"  # SessionEnd when the gateway stopped


def test_listen_on_a_public_address_needs_a_token(tmp_path: Path) -> None:
    import subprocess

    cmd = [sys.executable, "-m", "hookwise", "--project", str(tmp_path), "mcp"]
    cmd += ["--listen", "0.0.0.0:8766", "--", sys.executable, "-c", "pass"]
    out = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "not a loopback address" in out.stderr, out.stderr
