"""``hookwise hook``'s fast path (hookwise.bridge.client): with a warm ``hookwise serve`` on the
socket, the agent's stdin goes to the service as raw bytes before any of hookwise's firing machinery
is imported; when the service cannot answer, the hooks run in process on the same stdin, and the
service is not asked twice."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from tests.perf.test_fast_paths import _imported

from hookwise.bridge.client import parse_reply, request_path

GUARD = (
    "import os\n"
    "def check(inp):\n"
    "    return {'decision': 'deny', 'reason': f\"pid {os.getpid()} denies "
    "{inp['tool_input']['command']}\"}\n"
)

#: modules the served path must not load (the in-process path's machinery, the stdlib's socket
#: wrapper)
NOT_ON_THE_FAST_PATH = (
    "hookwise.runners",
    "hookwise.engine",
    "hookwise.bridge.core",
    "hookwise.cli.hook",
    "socket",
    "json",
)


def _project(root: Path) -> Path:
    (root / ".gemini").mkdir(parents=True)
    (root / "pid_guard.py").write_text(GUARD)
    hook = {"type": "python", "name": "pid", "callable": "pid_guard:check"}
    settings = {"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [hook]}]}}
    (root / ".gemini" / "settings.json").write_text(json.dumps(settings))
    return root


def _payload(cwd: Path, command: str = "rm -rf x") -> str:
    return json.dumps(
        {
            "session_id": "s1",
            "transcript_path": "",
            "cwd": str(cwd),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
        }
    )


def _env(tmp_path: Path, sock: Path) -> dict[str, str]:
    home = tmp_path / "home"
    (home / ".gemini").mkdir(parents=True, exist_ok=True)
    return {
        "PATH": os.defpath,
        "HOME": str(home),
        "HOOKWISE_TRUST_ALL": "1",
        "HOOKWISE_SOCKET": str(sock),
    }


def _reason(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode == 0, out.stderr
    return str(json.loads(out.stdout)["hookSpecificOutput"]["permissionDecisionReason"])


def test_the_command_line_the_fast_path_takes() -> None:
    assert request_path(["claude"]) == ("/bridge/claude", False)
    assert request_path(["copilot", "preToolUse", "--fail-closed"]) == (
        "/bridge/copilot/preToolUse",
        True,
    )
    for other in ([], ["a", "b", "c"], ["claude", "--project", "x"], ["../x"], [""]):
        assert request_path(other) is None  # argparse and the in-process path handle these


def test_a_reply_that_is_not_the_service_answer_is_none() -> None:
    good = (
        b'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{"stdout": "{}\\n", "stderr": "", '
        b'"exitCode": 2}'
    )
    assert parse_reply(good) == (b"{}\n", b"", 2)
    for bad in (
        b"HTTP/1.1 421 Misdirected\r\n\r\n{}",
        b"HTTP/1.1 200 OK\r\n\r\nnot json",
        b'HTTP/1.1 200 OK\r\n\r\n{"stdout": "", "stderr": "", "exitCode": true}',
        b'HTTP/1.1 200 OK\r\n\r\n["stdout"]',
        b"garbage",
    ):
        assert parse_reply(bad) is None


def test_the_served_path_imports_only_what_it_must(tmp_path: Path) -> None:
    proj = _project(tmp_path / "proj")
    sock = tmp_path / "s" / "serve.sock"
    env = _env(tmp_path, sock)
    body = _payload(proj)
    (tmp_path / "payload.json").write_text(body)
    served = subprocess.Popen(
        [sys.executable, "-m", "hookwise", "serve", "--root", str(proj), "--socket"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert served.stdout is not None
        assert "listening on unix:" in served.stdout.readline()
        code = (
            "import os, sys\nfd = os.open(sys.argv[1], os.O_RDONLY)\nos.dup2(fd, 0)\n"
            "sys.argv = ['hookwise', 'hook', 'claude']\n"
            "from hookwise.cli.main import console\nsys.exit(console())\n"
        )
        loaded, out = _imported(["-c", code, str(tmp_path / "payload.json")], proj, env)
        off = subprocess.run(
            [sys.executable, "-m", "hookwise", "hook", "claude"],
            input=body,
            capture_output=True,
            text=True,
            env=dict(env, HOOKWISE_SERVE="off"),
            cwd=proj,
            timeout=60,
        )
    finally:
        served.terminate()
        served.wait(10)
    assert _reason(out) == f"pid {served.pid} denies rm -rf x"  # the warm service answered
    assert _reason(off).endswith("denies rm -rf x") and not _reason(off).startswith(
        f"pid {served.pid} "
    )
    assert [m for m in NOT_ON_THE_FAST_PATH if m in loaded] == []


class _Garbage:
    """A Unix socket that answers every connection with a reply that is not the service's, counting
    them."""

    def __init__(self, path: Path) -> None:
        self.calls = 0
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(str(path))
        self.sock.listen(4)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.calls += 1
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nnope!")
            conn.close()

    def close(self) -> None:
        self.sock.close()


@pytest.mark.parametrize("entry", ["console", "main"])
def test_a_broken_service_answer_runs_the_hooks_here_once(tmp_path: Path, entry: Any) -> None:
    proj = _project(tmp_path / "proj")
    sock = tmp_path / "serve.sock"
    env = _env(tmp_path, sock)
    fake = _Garbage(sock)
    try:
        # console(): the fast path asks, then the in-process path; main() alone: only hook.run asks
        call = "main(['hook', 'claude'])" if entry == "main" else "console()"
        code = f"import sys\nfrom hookwise.cli.main import {entry}\nsys.exit({call})\n"
        out = subprocess.run(
            [sys.executable, "-c", code, "hook", "claude"],
            input=_payload(proj, "rm -rf q"),
            capture_output=True,
            text=True,
            env=env,
            cwd=proj,
            timeout=60,
        )
    finally:
        fake.close()
    assert _reason(out).endswith("denies rm -rf q")  # the stdin the fast path read was not lost
    assert fake.calls == 1


def test_the_default_socket_is_where_serve_listens_and_hook_looks() -> None:
    from hookwise.bridge.client import default_socket

    assert (
        default_socket({"HOOKWISE_SOCKET": "/s/x.sock", "XDG_RUNTIME_DIR": "/run/u"}) == "/s/x.sock"
    )
    assert (
        default_socket({"XDG_RUNTIME_DIR": "/run/u", "HOME": "/h"}) == "/run/u/hookwise/serve.sock"
    )
    assert default_socket({"XDG_CACHE_HOME": "/c", "HOME": "/h"}) == "/c/hookwise/serve.sock"
    assert default_socket({"HOME": "/h"}) == "/h/.cache/hookwise/serve.sock"
