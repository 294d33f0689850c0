"""The bridge's agents through ``hookwise serve`` (``/hooks/<agent>``, ``/bridge/<agent>``) and the
fast path of ``hookwise hook``: a running service on its Unix socket answers, otherwise the hooks
run in process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from hookwise.serve.client import connection

from .conftest import claude_pre, config, serving

#: a python hook that says which process ran it
PID_GUARD = (
    "import os\n"
    "def check(inp):\n"
    "    return {'decision': 'deny', 'reason': f\"pid {os.getpid()} denies "
    "{inp['tool_input']['command']}\"}\n"
)


def _project(root: Path, name: str) -> Path:
    d = root / name
    (d / ".gemini").mkdir(parents=True)
    (d / "pid_guard.py").write_text(PID_GUARD)
    hook = {"type": "python", "name": "pid", "callable": "pid_guard:check"}
    settings = {"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [hook]}]}}
    (d / ".gemini" / "settings.json").write_text(json.dumps(settings))
    return d


def _post(address: str, path: str, body: bytes) -> tuple[int, dict[str, str], bytes]:
    conn = connection(address)
    conn.request("POST", path, body=body)
    r = conn.getresponse()
    data = r.read()
    conn.close()
    return r.status, dict(r.getheaders()), data


def test_bridged_agents_are_served(roots: Path) -> None:
    p = _project(roots, "alpha")
    with serving(config(roots)) as srv:
        status, headers, body = _post(srv.address, "/hooks/codex", claude_pre(p, "rm -rf x"))
        assert status == 200 and headers["X-Hookwise-Exit-Code"] == "0"
        hso = json.loads(body)["hookSpecificOutput"]
        assert hso["permissionDecision"] == "deny" and hso["permissionDecisionReason"].endswith(
            "denies rm -rf x"
        )
        status, _, body = _post(srv.address, "/bridge/claude", claude_pre(p, "rm -rf y"))
        full = json.loads(body)
        assert status == 200 and full["exitCode"] == 0 and "denies rm -rf y" in full["stdout"]
        assert _post(srv.address, "/bridge/nobody", claude_pre(p, "rm -rf x"))[0] == 404
        # outside the roots: the fast path is told to run in process (421); /hooks/ gets the warning
        assert _post(srv.address, "/bridge/claude", claude_pre(roots.parent, "rm -rf x"))[0] == 421
        _, _, body = _post(srv.address, "/hooks/codex", claude_pre(roots.parent, "rm -rf x"))
        assert "not under any --root" in body.decode()


def _hook(env: dict[str, str], cwd: Path, body: bytes) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookwise", "hook", "claude"],
        input=body.decode(),
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=60,
    )


def _reason(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode == 0, out.stderr
    return str(json.loads(out.stdout)["hookSpecificOutput"]["permissionDecisionReason"])


def test_hook_uses_a_running_service_over_its_socket(roots: Path, tmp_path: Path) -> None:
    p = _project(roots, "alpha")
    outside = _project(tmp_path, "outside")
    sock = tmp_path / "s" / "serve.sock"
    env: dict[str, Any] = dict(os.environ, HOOKWISE_TRUST_ALL="1", HOOKWISE_SOCKET=str(sock))
    # no service: in process
    alone = _reason(_hook(env, p, claude_pre(p, "rm -rf x")))
    served = subprocess.Popen(
        [sys.executable, "-m", "hookwise", "serve", "--root", str(roots), "--socket"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert served.stdout is not None
        assert "listening on unix:" in served.stdout.readline()
        fast = _reason(_hook(env, p, claude_pre(p, "rm -rf x")))
        again = _reason(_hook(env, p, claude_pre(p, "rm -rf z")))
        fallback = _reason(_hook(env, outside, claude_pre(outside, "rm -rf x")))
        off = _reason(_hook(dict(env, HOOKWISE_SERVE="off"), p, claude_pre(p, "rm -rf x")))
    finally:
        served.terminate()
        served.wait(10)
    pid = f"pid {served.pid} "
    assert not alone.startswith(pid)
    assert fast == pid + "denies rm -rf x" and again == pid + "denies rm -rf z"  # the warm service
    assert fallback.endswith("denies rm -rf x") and not fallback.startswith(pid)  # not its project
    assert not off.startswith(pid)
