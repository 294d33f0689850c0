#!/usr/bin/env python3
"""Cost of one hook call per kind — command, python (``callable`` in settings), http — each beside
its floor.

Every variant answers ``{"decision": "allow"}`` to a BeforeTool firing, through
``HookSystem.fire`` of a project whose only hook is that one (trusted). The
floors are measured in the same run, interleaved with the variants:

- command: ``subprocess.run`` of the same command line (``bash -c``), stdin fed, stdout read;
- python:  calling the same function directly with an input dict;
- http:    a raw ``http.client`` POST of the same body on one kept-alive connection to the same
  server;
- no match: ``fire`` of an event whose matcher does not match, against calling an empty function.

"python, registered from code" is the same function registered with ``HookSystem.register``: the
settings form should cost the same (the function is imported once and cached).

    python bench/hook_kinds.py           # BENCH_N=300 (python, http, no match), BENCH_N_CMD=60
Prints medians in microseconds and each variant's ratio to its floor. Never used by the test-suite.
"""

from __future__ import annotations

import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

N = int(os.environ.get("BENCH_N", "300"))
N_CMD = int(os.environ.get("BENCH_N_CMD", "60"))
ANSWER = b'{"decision": "allow"}'

GUARD = """
def check(inp):
    return {"decision": "allow"} if inp.get("tool_name") else None
"""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    wbufsize = 1 << 16  # status line, headers and body in one write, as real servers do

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(ANSWER)))
        self.end_headers()
        self.wfile.write(ANSWER)


def _median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def _time(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> int:
    work = tempfile.mkdtemp(prefix="hookwise-kinds-")
    home = os.path.join(work, "home")
    os.makedirs(home)
    os.environ["GEMINI_CLI_HOME"] = home  # never the real ~/.gemini
    os.environ["GEMINI_CLI_SYSTEM_DEFAULTS_PATH"] = os.path.join(work, "none.json")
    os.environ["GEMINI_CLI_SYSTEM_SETTINGS_PATH"] = os.path.join(work, "none.json")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/hook"

    from hookwise import HookSystem

    command = 'cat > /dev/null; echo \'{"decision": "allow"}\''
    kinds: dict[str, dict[str, Any]] = {
        "command": {"type": "command", "command": command},
        "python": {"type": "python", "callable": "bench_guard:check"},
        "http": {"type": "http", "url": url},
    }
    systems: dict[str, HookSystem] = {}
    for kind, hook in kinds.items():
        project = os.path.join(work, kind)
        os.makedirs(os.path.join(project, ".gemini"))
        with open(os.path.join(project, "bench_guard.py"), "w") as f:
            f.write(GUARD)
        with open(os.path.join(project, ".gemini", "settings.json"), "w") as f:
            json.dump(
                {"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [hook]}]}}, f
            )
        systems[kind] = HookSystem(project, trust_all=True)
    inp = {"tool_name": "run_shell_command", "tool_input": {"command": "ls"}}
    for (
        kind,
        hs,
    ) in systems.items():  # warm up (imports, connection, plan cache) and check the answer
        r = hs.fire("BeforeTool", **inp)
        assert [o.outcome.value for o in r.hooks] == ["ok"] and r.output.get(
            "decision"
        ) == "allow", (kind, r)

    sys.path.insert(0, os.path.join(work, "python"))
    import bench_guard  # the floor of the python hook: the same function, called directly

    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1])
    body = json.dumps(
        {**inp, "hook_event_name": "BeforeTool", "session_id": "s", "cwd": work}
    ).encode()

    def raw_post() -> None:
        conn.request("POST", "/hook", body, {"Content-Type": "application/json"})
        assert conn.getresponse().read() == ANSWER

    def raw_spawn() -> None:
        subprocess.run(["bash", "-c", command], input=body, capture_output=True, check=True)

    def nothing() -> None:
        pass

    registered = HookSystem(
        os.path.join(work, "python"), trust_all=True
    )  # the same function, from code
    registered.reload()
    registered.register("AfterTool", bench_guard.check, name="registered")

    variants: dict[str, tuple[Callable[[], object], Callable[[], object], int]] = {
        "command": (lambda: systems["command"].fire("BeforeTool", **inp), raw_spawn, N_CMD),
        "python": (
            lambda: systems["python"].fire("BeforeTool", **inp),
            lambda: bench_guard.check(dict(inp)),
            N,
        ),
        "python, registered from code": (
            lambda: registered.fire("AfterTool", **inp, tool_response={}),
            lambda: bench_guard.check(dict(inp)),
            N,
        ),
        "http": (lambda: systems["http"].fire("BeforeTool", **inp), raw_post, N),
        "no match": (
            lambda: systems["http"].fire("BeforeTool", tool_name="read_file", tool_input={}),
            nothing,
            N,
        ),
    }
    print(f"{'kind':<30} {'hookwise µs':>12} {'floor µs':>10} {'ratio':>7}   floor")
    floors = {
        "command": "subprocess.run of the same bash -c",
        "python": "the same function called directly",
        "python, registered from code": "the same function called directly",
        "http": "raw http.client POST, kept alive",
        "no match": "an empty function call",
    }
    for kind, (measured, floor, n) in variants.items():
        a: list[float] = []
        b: list[float] = []
        for _ in range(n):  # interleaved: a noisy neighbour hurts both alike
            a.append(_time(measured))
            b.append(_time(floor))
        ma, mb = _median_us(a), _median_us(b)
        print(f"{kind:<30} {ma:>12.1f} {mb:>10.1f} {ma / mb:>7.1f}x  {floors[kind]}")
    cmd_us = _median_us([_time(variants["command"][0]) for _ in range(max(5, N_CMD // 4))])
    py_us = _median_us([_time(variants["python"][0]) for _ in range(N)])
    print(
        f"\na python hook costs {cmd_us / py_us:.0f}x less than the same answer from a command hook"
    )
    for hs in [*systems.values(), registered]:
        hs.close()
    server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
