"""A real ``hookwise serve`` on a real socket, with projects holding real hooks, for the serve
tests."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from hookwise.serve.app import ServeConfig, Service
from hookwise.serve.client import connection, post
from hookwise.serve.http import Server

#: a hook script: answers from the request's tool_input (``mode``, ``n``) and says which project it
#: ran in
ECHO = textwrap.dedent("""
    import json, os, sys, time
    def answer(d):
        ti = d.get("tool_input") or {}
        mode, n = ti.get("mode", "ctx"), ti.get("n")
        proj = os.path.basename(os.environ["GEMINI_PROJECT_DIR"])
        if mode == "deny":
            return {"decision": "deny", "reason": f"{proj} denies {n}"}
        if mode == "rewrite":
            return {"hookSpecificOutput": {"tool_input": {"command": f"echo safe {n}"}}}
        if mode == "sleep":
            time.sleep(float(ti.get("s", 1)))
        return {"hookSpecificOutput": {"additionalContext": f"{proj}:{n}:{os.getpid()}"}}
    if "--persistent" in sys.argv:
        for line in sys.stdin:
            sys.stdout.write(json.dumps(answer(json.loads(line))) + "\\n")
            sys.stdout.flush()
    else:
        print(json.dumps(answer(json.load(sys.stdin))))
""")

#: the same as a python hook (``serve_guard:answer``)
PY_GUARD = textwrap.dedent("""
    import os, time
    def answer(d):
        ti = d.get("tool_input") or {}
        mode, n = ti.get("mode", "ctx"), ti.get("n")
        if mode == "sleep":
            time.sleep(float(ti.get("s", 1)))
        if mode == "deny":
            return {"decision": "deny", "reason": f"py denies {n}"}
        proj = os.path.basename(os.path.dirname(os.path.abspath(__file__)))
        return {"hookSpecificOutput": {"additionalContext": f"py:{proj}:{n}"}}
""")


def make_project(root: Path, name: str, kind: str = "command", timeout: int = 10000) -> Path:
    """A project under ``root`` whose BeforeTool hook (any tool) is ``kind``: command, persistent or
    python."""
    d = root / name
    (d / ".gemini").mkdir(parents=True)
    (d / "echo.py").write_text(ECHO)
    (d / "serve_guard.py").write_text(PY_GUARD)
    cmd = f'{sys.executable} "$GEMINI_PROJECT_DIR/echo.py"'
    hook: dict[str, Any] = {"type": "command", "name": f"{name}-echo", "command": cmd}
    if kind == "persistent":
        hook.update(command=cmd + " --persistent", persistent=True)
    elif kind == "python":
        hook = {"type": "python", "name": f"{name}-py", "callable": "serve_guard:answer"}
    hook["timeout"] = timeout
    settings = {"hooks": {"BeforeTool": [{"matcher": ".*", "hooks": [hook]}]}}
    (d / ".gemini" / "settings.json").write_text(json.dumps(settings))
    return d


@contextmanager
def serving(config: ServeConfig, **server: Any) -> Iterator[Server]:
    srv = Server(Service(config), **server).start()
    try:
        yield srv
    finally:
        srv.drain()


@pytest.fixture
def roots(tmp_path: Path) -> Path:
    r = tmp_path / "roots"
    r.mkdir()
    return r


def config(root: Path, **kw: Any) -> ServeConfig:
    kw.setdefault("system_options", {"trust_all": True})
    return ServeConfig(roots=[str(root)], **kw)


def claude_pre(cwd: Path | str, command: str = "ls", **tool_input: Any) -> bytes:
    return json.dumps(
        {
            "session_id": "s1",
            "transcript_path": "",
            "cwd": str(cwd),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command, **tool_input},
        }
    ).encode()


def gemini_before(cwd: Path | str, **tool_input: Any) -> bytes:
    return json.dumps(
        {
            "session_id": "s1",
            "cwd": str(cwd),
            "hook_event_name": "BeforeTool",
            "tool_name": "run_shell_command",
            "tool_input": {"command": "ls", **tool_input},
        }
    ).encode()


def ask(srv: Server, agent: str, body: bytes, token: str | None = None) -> tuple[int, Any]:
    conn = connection(srv.address, timeout=30)
    try:
        return post(conn, f"/hooks/{agent}", body, token)
    finally:
        conn.close()
