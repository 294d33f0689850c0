"""``hookwise mcp -- <command>`` relays what no hook watches byte for byte (no SDK on either side).

A raw client (this test, writing JSON-RPC lines) and a raw server (a script that logs every byte it
receives and answers in its own spelling) around the real gateway process: the server must receive
the client's exact lines and the client the server's exact lines; a call a hook watches (another
tool in the same session) is still denied by the real command hook.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

RAW_SERVER = textwrap.dedent(r"""
    import json, sys
    log, sent = open(sys.argv[1], "ab"), open(sys.argv[2], "ab")
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        log.write(line)
        log.flush()
        msg = json.loads(line)
        if "id" not in msg or "method" not in msg:
            continue
        if msg["method"] == "initialize":
            res = '{"serverInfo": {"name": "raw", "version": "1"}, "capabilities": {"tools": {}}}'
        else:
            res = (
                '{"content": [ {"type": "text", "text": "caf\\u00e9 \\"quoted\\""} ], '
                '"isError": false}'
            )
        msg_id = json.dumps(msg["id"]).encode()
        answer = b'{"id": %s,  "jsonrpc": "2.0", "result": %s}\n' % (msg_id, res.encode())
        sent.write(answer)
        sent.flush()
        out.write(answer)
        out.flush()
""")

DENY = textwrap.dedent("""
    import json, sys
    json.load(sys.stdin)
    print(json.dumps({"decision": "deny", "reason": "not this one"}))
""")

#: what the client sends, in its own spelling (spaces, key order, escapes, a method the gateway
#: does not know, a notification)
CLIENT_LINES = [
    b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
    b'"capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}\n',
    b'{"method": "notifications/initialized", "jsonrpc": "2.0"}\n',
    b'{ "params" : { "arguments" : { "text" : "caf\\u00e9  \\n two spaces" }, "name" : "echo" },'
    b' "method" : "tools/call", "id" : "a-1", "jsonrpc" : "2.0" }\n',
    b'{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"file:///x"}}\n',
    b'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"\xc3\xa9"}}}\n',
]
WATCHED = (
    b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"other","arguments":{}}}\n'
)


def _relay(tmp_path: Path, lines: list[bytes]) -> tuple[bytes, bytes, bytes, str]:
    """Run the gateway in front of the raw server with ``lines`` as the client's input: what the
    server received, what it sent, what the client got, the gateway's stderr."""
    proj = tmp_path / "proj"
    (proj / ".gemini").mkdir(parents=True)
    (proj / "server.py").write_text(RAW_SERVER)
    (proj / "deny.py").write_text(DENY)
    hook = {"type": "command", "command": f'{sys.executable} "$GEMINI_PROJECT_DIR/deny.py"'}
    settings = {"hooks": {"BeforeTool": [{"matcher": "mcp__raw__other", "hooks": [hook]}]}}
    (proj / ".gemini" / "settings.json").write_text(json.dumps(settings))
    received, sent = tmp_path / "received", tmp_path / "sent"
    env = {"HOOKWISE_TRUST_ALL": "1", "GEMINI_CLI_HOME": str(tmp_path / "home")}
    env.update({k: v for k, v in os.environ.items() if k in ("SYSTEMROOT", "LANG")})
    cmd = [sys.executable, "-m", "hookwise", "--project", str(proj), "mcp", "--"]
    cmd += [sys.executable, str(proj / "server.py"), str(received), str(sent)]
    out = subprocess.run(cmd, input=b"".join(lines), capture_output=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr.decode()
    got = received.read_bytes() if received.exists() else b""
    return got, sent.read_bytes() if sent.exists() else b"", out.stdout, out.stderr.decode()


def test_unwatched_traffic_passes_byte_identical(tmp_path: Path) -> None:
    received, sent, stdout, _ = _relay(tmp_path, [*CLIENT_LINES, WATCHED])
    # the server got exactly the client's lines (the watched call never reached it)
    assert received == b"".join(CLIENT_LINES)
    answers = stdout.splitlines(keepends=True)
    denied = [a for a in answers if b'"id":5' in a]
    from_server = [a for a in answers if a not in denied]
    # the client got exactly the server's lines, in the server's spelling and order
    assert b"".join(from_server) == sent
    ids = [b"1", b'"a-1"', b"3", b"4"]
    assert [a.split(b",", 1)[0] for a in from_server] == [b'{"id": ' + i for i in ids]
    assert len(denied) == 1
    result = json.loads(denied[0])["result"]
    assert result == {
        "content": [{"type": "text", "text": "denied by a hook: not this one"}],
        "isError": True,
    }


def test_no_spelling_of_a_watched_call_passes_its_hook(tmp_path: Path) -> None:
    """JSON escapes in the method or the tool name, a batch, a call without an id: the server never
    gets a call of the watched tool."""
    lines = [
        CLIENT_LINES[0],
        b'{"jsonrpc":"2.0","id":11,"method":"tools\\/call","params":{"name":"other","arguments":{}}}\n',
        b'{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"\\u006fther","arguments":{}}}\n',
        b'[{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"other","arguments":{}}}]\n',
        b'{"jsonrpc":"2.0","method":"tools/call","params":{"name":"other","arguments":{}}}\n',
    ]
    received, _, stdout, err = _relay(tmp_path, lines)
    assert received == lines[0]  # only initialize reached the server
    answers = [json.loads(a) for a in stdout.splitlines()]
    by_id = {a["id"]: a for a in answers if isinstance(a, dict)}
    for rid in (11, 12):
        assert by_id[rid]["result"]["isError"] is True
        assert by_id[rid]["result"]["content"][0]["text"] == "denied by a hook: not this one"
    batch = next(a for a in answers if isinstance(a, list))
    assert batch[0]["id"] == 13 and batch[0]["error"]["code"] == -32600
    assert "refused a JSON-RPC batch" in err and "dropped a tools/call notification" in err


def test_sigterm_ends_the_relay_with_session_end(tmp_path: Path) -> None:
    """A client that stops its server with SIGTERM (stdin still open): SessionEnd still fires."""
    import signal

    proj = tmp_path / "proj"
    (proj / ".gemini").mkdir(parents=True)
    (proj / "server.py").write_text(RAW_SERVER)
    (proj / "ended.py").write_text(
        "import json, os, sys\n"
        "d = json.load(sys.stdin)\n"
        "open(os.path.join(os.environ['GEMINI_PROJECT_DIR'], 'ended'), 'w').write(d['reason'])\n"
    )
    hook = {"type": "command", "command": f'{sys.executable} "$GEMINI_PROJECT_DIR/ended.py"'}
    (proj / ".gemini" / "settings.json").write_text(
        json.dumps({"hooks": {"SessionEnd": [{"hooks": [hook]}]}})
    )
    env = {"HOOKWISE_TRUST_ALL": "1", "GEMINI_CLI_HOME": str(tmp_path / "home")}
    cmd = [sys.executable, "-m", "hookwise", "--project", str(proj), "mcp", "--"]
    cmd += [sys.executable, str(proj / "server.py"), str(tmp_path / "r"), str(tmp_path / "s")]
    gw = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    assert gw.stdin is not None and gw.stdout is not None
    gw.stdin.write(CLIENT_LINES[0])
    gw.stdin.flush()
    assert b'"serverInfo"' in gw.stdout.readline()  # relaying: the handlers are in place
    gw.send_signal(signal.SIGTERM)
    assert gw.wait(30) == 0
    gw.stdin.close()
    gw.stdout.close()
    assert (proj / "ended").read_text() == "exit"
