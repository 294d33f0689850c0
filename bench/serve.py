#!/usr/bin/env python3
"""``hookwise serve`` under load: requests per second and p50/p99 latency, beside echo floors, in
one run.

Servers, each a process of its own, measured interleaved by the same client code (kept-alive
``http.client`` connections, one thread per client) with the same Claude ``PreToolUse`` body:

- ``echo/threads``: a bare ``http.server.ThreadingHTTPServer`` (HTTP/1.1) echoing the body — the
  floor;
- ``echo/asyncio``: a bare ``asyncio`` HTTP/1.1 server echoing the body — the other concurrency
  model;
- ``serve/no-match``: ``hookwise serve``, the project's only hook is on another tool;
- ``serve/command``, ``serve/python``, ``serve/persistent``: one BeforeTool hook of that kind
  answering ``{"decision": "allow"}``.

at 1, 8 and 64 concurrent clients. Targets: no-match p50 ≤ 1.5× the echo floor, python ≤ 2×.

    # BENCH_N=400 requests per (server, concurrency); BENCH_N_CMD=80 for command
    python bench/serve.py
    # only these hookwise servers (and the echo floors)
    BENCH_ONLY=python,no-match python bench/serve.py
Keep it short on a shared machine: the ratios (same run, same client) are what counts.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

N = int(os.environ.get("BENCH_N", "400"))
N_CMD = int(os.environ.get("BENCH_N_CMD", "80"))
CLIENTS = [int(c) for c in os.environ.get("BENCH_CLIENTS", "1,8,64").split(",")]
#: comma-separated hookwise servers to measure (``python,no-match``; the echo floors always run);
#: empty: all
ONLY = [s for s in os.environ.get("BENCH_ONLY", "").split(",") if s]
ROUNDS = int(
    os.environ.get("BENCH_ROUNDS", "3")
)  # interleaved: a busy moment hits every server alike

ECHO_THREADS = r"""
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # one write per response, as hookwise serve does (else ~40 ms delayed-ACK stalls)
    wbufsize = 1 << 16
    disable_nagle_algorithm = True
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass
class S(ThreadingHTTPServer):
    request_queue_size = 256
s = S(("127.0.0.1", 0), H)
print("listening on http://127.0.0.1:%d" % s.server_address[1], flush=True)
s.serve_forever()
"""

ECHO_ASYNCIO = r"""
import asyncio
async def handle(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            body = await reader.readexactly(length)
            head = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    b"Content-Length: %d\r\n\r\n")
            writer.write(head % len(body) + body)
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()
async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=256)
    print("listening on http://127.0.0.1:%d" % server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()
asyncio.run(main())
"""

GUARD = "def check(inp):\n    return {'decision': 'allow'}\n"
PERSISTENT = (
    "import sys\nfor line in sys.stdin:\n"
    '    sys.stdout.write(\'{"decision": "allow"}\\n\')\n    sys.stdout.flush()\n'
)


def _project(root: str, name: str, hook: dict[str, Any] | None, matcher: str = ".*") -> str:
    d = os.path.join(root, name)
    os.makedirs(os.path.join(d, ".gemini"))
    with open(os.path.join(d, "bench_guard.py"), "w") as f:
        f.write(GUARD)
    with open(os.path.join(d, "persist.py"), "w") as f:
        f.write(PERSISTENT)
    hooks = {"BeforeTool": [{"matcher": matcher, "hooks": [hook]}]} if hook else {}
    with open(os.path.join(d, ".gemini", "settings.json"), "w") as f:
        json.dump({"hooks": hooks}, f)
    return d


def _start(argv: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    return proc, int(line.strip().rsplit(":", 1)[1])


def _body(cwd: str) -> bytes:
    return json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "",
            "cwd": cwd,
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "ls -la"},
        }
    ).encode()


def _load(port: int, body: bytes, clients: int, total: int) -> tuple[float, list[float]]:
    """``total`` requests from ``clients`` threads (kept-alive connections): elapsed seconds,
    latencies (ms)."""
    per = max(1, total // clients)
    lat: list[float] = []
    lock = threading.Lock()
    start = threading.Barrier(clients + 1)

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("POST", "/hooks/claude", body)  # warm the connection (not timed)
        conn.getresponse().read()
        mine = []
        start.wait()
        for _ in range(per):
            t0 = time.perf_counter()
            conn.request("POST", "/hooks/claude", body, {"Content-Type": "application/json"})
            r = conn.getresponse()
            r.read()
            mine.append((time.perf_counter() - t0) * 1000)
            assert r.status == 200
        conn.close()
        with lock:
            lat.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    return time.perf_counter() - t0, lat


def _pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(p * len(s)))]


def main() -> int:
    tmp = tempfile.mkdtemp(prefix="hookwise-bench-serve-")
    root = os.path.join(tmp, "root")
    os.makedirs(root)
    cmd = f'{sys.executable} -c "print(\'{{\\"decision\\": \\"allow\\"}}\')"'
    projects = {
        "serve/no-match": _project(
            root, "nomatch", {"type": "command", "command": "true"}, "^never$"
        ),
        "serve/python": _project(
            root, "python", {"type": "python", "name": "g", "callable": "bench_guard:check"}
        ),
        "serve/persistent": _project(
            root,
            "persistent",
            {
                "type": "command",
                "name": "p",
                "persistent": True,
                "command": f'{sys.executable} "$GEMINI_PROJECT_DIR/persist.py"',
            },
        ),
        "serve/command": _project(
            root, "command", {"type": "command", "name": "c", "command": cmd}
        ),
    }
    env = dict(os.environ, HOOKWISE_TRUST_ALL="1", GEMINI_CLI_HOME=os.path.join(tmp, "home"))
    servers: dict[str, tuple[subprocess.Popen[str], int]] = {
        "echo/threads": _start([sys.executable, "-c", ECHO_THREADS], env),
        "echo/asyncio": _start([sys.executable, "-c", ECHO_ASYNCIO], env),
    }
    serve = _start([sys.executable, "-m", "hookwise", "serve", "--root", root, "--port", "0"], env)
    lat: dict[tuple[str, int], list[float]] = {}
    took: dict[tuple[str, int], float] = {}
    try:
        for _ in range(ROUNDS):
            for clients in CLIENTS:
                for name in ["echo/threads", "echo/asyncio", *_selected(projects)]:
                    n = max(clients, (N_CMD if name == "serve/command" else N) // ROUNDS)
                    if name.startswith("serve/"):
                        port, body = serve[1], _body(projects[name])
                    else:
                        port, body = servers[name][1], _body(projects["serve/no-match"])
                    elapsed, got = _load(port, body, clients, n)
                    lat.setdefault((name, clients), []).extend(got)
                    took[(name, clients)] = took.get((name, clients), 0.0) + elapsed
    finally:
        for proc, _ in [*servers.values(), serve]:
            proc.terminate()
            proc.wait(10)
    rows = [
        (name, c, len(v) / took[(name, c)], _pct(v, 0.5), _pct(v, 0.99))
        for (name, c), v in sorted(lat.items(), key=lambda kv: kv[0][1])
    ]
    _report(rows)
    return 0


def _selected(projects: dict[str, str]) -> list[str]:
    return [n for n in projects if not ONLY or n.partition("/")[2] in ONLY]


def _report(rows: list[tuple[str, int, float, float, float]]) -> None:
    floor = {(c, n): p50 for n, c, _, p50, _ in rows if n == "echo/threads"}
    print(f"{'server':<18}{'clients':>8}{'rps':>10}{'p50 ms':>10}{'p99 ms':>10}{'p50/echo':>10}")
    for name, clients, rps, p50, p99 in rows:
        ratio = p50 / floor[(clients, "echo/threads")]
        print(f"{name:<18}{clients:>8}{rps:>10.0f}{p50:>10.2f}{p99:>10.2f}{ratio:>9.2f}x")
    for clients in sorted({c for _, c, *_ in rows}):
        by = {n: p50 for n, c, _, p50, _ in rows if c == clients}
        echo = by["echo/threads"]
        nm, py = by.get("serve/no-match", float("nan")), by.get("serve/python", float("nan"))
        print(
            f"targets @{clients}: no-match {nm / echo:.2f}x (<= 1.5x), "
            f"python {py / echo:.2f}x (<= 2x); asyncio echo "
            f"{by['echo/asyncio'] / echo:.2f}x the threads echo"
        )


if __name__ == "__main__":
    sys.exit(main())
