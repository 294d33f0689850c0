#!/usr/bin/env python3
"""What ``hookwise mcp`` costs per ``tools/call`` with no hook watching, and its memory over many
calls.

Latency (default): one MCP server written with the SDK (a tool that echoes its argument), called by
the SDK's client over stdio directly and through ``hookwise mcp`` (a project with no hooks),
alternating call by call so both see the same machine load. Prints p50/p99 of both, the added p50
(target ≤ 1 ms) and the median of the per-pair differences. Then the same with raw JSON-RPC lines
and a minimal standard-library server on both sides (no SDK): the gateway's own cost.

Memory (``--memory``): ``BENCH_CALLS`` (100 000) ``tools/call`` lines written straight to the
gateway (``BENCH_WINDOW`` in flight) in front of a minimal stdio server (a JSON-RPC echo of the
standard library, so the run measures the gateway, not an SDK server), the gateway's resident memory
(``/proc/<pid>/status`` VmRSS) sampled every ``BENCH_EVERY`` calls; prints first, last, max and the
slope (least squares, KiB per 10 000 calls, after the first tenth and over the second half).
``BENCH_HOOK=1`` adds a ``python`` BeforeTool hook on the tool, so every call goes through the
watched path.

    python bench/mcp_proxy.py              # BENCH_N=1000 pairs
    python bench/mcp_proxy.py --memory     # a few minutes on a busy 2-core machine
Needs the mcp extra for the latency run. Never used by the test-suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

UPSTREAM = """
from mcp.server import MCPServer
mcp = MCPServer("bench")
@mcp.tool()
def echo(text: str) -> str:
    return text
if __name__ == "__main__":
    mcp.run()
"""

#: a stdio MCP "server" that answers initialize and echoes every tools/call (memory run)
RAW_UPSTREAM = r"""
import json, sys
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg.get("method") == "initialize":
        res = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
               "serverInfo": {"name": "bench", "version": "1"}}
    else:
        text = msg["params"]["arguments"]["text"]
        res = {"content": [{"type": "text", "text": text}], "isError": False}
    out.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": res}).encode() + b"\n")
    out.flush()
"""

HOOK_MODULE = """
def allow(event):
    return None
"""


def _project(tmp: str, hook: bool) -> str:
    proj = os.path.join(tmp, "proj")
    os.makedirs(os.path.join(proj, ".gemini"), exist_ok=True)
    hooks: dict[str, object] = {}
    if hook:
        with open(os.path.join(proj, "benchhook.py"), "w") as f:
            f.write(HOOK_MODULE)
        entry = {"type": "python", "callable": "benchhook:allow"}
        hooks = {"BeforeTool": [{"matcher": "mcp__bench__echo", "hooks": [entry]}]}
    with open(os.path.join(proj, ".gemini", "settings.json"), "w") as f:
        json.dump({"hooks": hooks}, f)
    return proj


def _pct(v: list[float], p: float) -> float:
    s = sorted(v)
    return s[min(len(s) - 1, int(p * len(s)))]


def _env(tmp: str) -> dict[str, str]:
    return dict(os.environ, GEMINI_CLI_HOME=os.path.join(tmp, "home"), HOOKWISE_TRUST_ALL="1")


# ---- latency ------------------------------------------------------------------------------------
async def _latency() -> None:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    n = int(os.environ.get("BENCH_N", "1000"))
    tmp = tempfile.mkdtemp(prefix="hookwise-bench-mcp-")
    proj = _project(tmp, hook=False)
    up = os.path.join(tmp, "upstream.py")
    with open(up, "w") as f:
        f.write(UPSTREAM)
    env = _env(tmp)
    direct = StdioServerParameters(command=sys.executable, args=[up], env=env)
    gw_args = ["-m", "hookwise", "--project", proj, "mcp", "--", sys.executable, up]
    proxied = StdioServerParameters(command=sys.executable, args=gw_args, env=env)
    lat: dict[str, list[float]] = {"direct": [], "proxied": []}
    async with Client(direct, cache=None) as d, Client(proxied, cache=None) as p:
        clients = {"direct": d, "proxied": p}
        for i in range(n + 50):
            order = ("direct", "proxied") if i % 2 else ("proxied", "direct")
            for name in order:
                t0 = time.perf_counter()
                await clients[name].call_tool("echo", {"text": str(i)})
                if i >= 50:  # warm-up
                    lat[name].append((time.perf_counter() - t0) * 1000)
    for name, v in lat.items():
        print(
            f"{name:<8} p50 {_pct(v, 0.5):7.3f} ms  p99 {_pct(v, 0.99):7.3f} ms  ({len(v)} calls)"
        )
    added = _pct(lat["proxied"], 0.5) - _pct(lat["direct"], 0.5)
    pairs = [a - b for a, b in zip(lat["proxied"], lat["direct"], strict=True)]
    print(f"added per tools/call: p50 {added:.3f} ms (target <= 1 ms)")
    print(f"median of per-pair differences: {_pct(pairs, 0.5):.3f} ms")


def _raw_latency() -> None:
    """The same without the SDK on either side: JSON-RPC lines to the minimal echo server, directly
    and through the gateway, one call at a time, alternating (the gateway's own cost, not hidden in
    the SDK's few milliseconds)."""
    n = int(os.environ.get("BENCH_N", "1000")) * 2
    tmp = tempfile.mkdtemp(prefix="hookwise-bench-mcp-raw-")
    proj = _project(tmp, hook=False)
    up = os.path.join(tmp, "upstream.py")
    with open(up, "w") as f:
        f.write(RAW_UPSTREAM)
    direct = [sys.executable, up]
    proxied = [sys.executable, "-m", "hookwise", "--project", proj, "mcp", "--", *direct]
    procs = {
        name: subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=_env(tmp))
        for name, cmd in (("direct", direct), ("proxied", proxied))
    }
    lat: dict[str, list[float]] = {"direct": [], "proxied": []}
    try:
        for p in procs.values():
            _initialize(p)
        for i in range(n + 100):
            for name in ("direct", "proxied") if i % 2 else ("proxied", "direct"):
                p = procs[name]
                assert p.stdin is not None and p.stdout is not None
                t0 = time.perf_counter()
                p.stdin.write(_call(i) + b"\n")
                p.stdin.flush()
                p.stdout.readline()
                if i >= 100:
                    lat[name].append((time.perf_counter() - t0) * 1000)
    finally:
        for p in procs.values():
            assert p.stdin is not None
            p.stdin.close()
            p.wait(30)
    for name, v in lat.items():
        print(
            f"raw {name:<8} p50 {_pct(v, 0.5):7.3f} ms  p99 {_pct(v, 0.99):7.3f} ms  ({len(v)} "
            "calls)"
        )
    print(
        f"raw added per tools/call: p50 {_pct(lat['proxied'], 0.5) - _pct(lat['direct'], 0.5):.3f} "
        "ms"
    )


# ---- memory -------------------------------------------------------------------------------------
def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _slope(points: list[tuple[int, int]]) -> float:
    """Least-squares KiB per 10 000 calls."""
    if len(points) < 2:
        return 0.0
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    den = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / den * 10_000 if den else 0.0


def _initialize(p: subprocess.Popen[bytes]) -> None:
    assert p.stdin is not None and p.stdout is not None
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "b"}}
    msg = {"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": init}
    p.stdin.write(json.dumps(msg).encode() + b"\n")
    p.stdin.flush()
    p.stdout.readline()


def _call(i: int) -> bytes:
    params = {"name": "echo", "arguments": {"text": f"call {i}"}}
    return json.dumps(
        {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params}
    ).encode()


def _memory() -> None:
    calls = int(os.environ.get("BENCH_CALLS", "100000"))
    window = int(os.environ.get("BENCH_WINDOW", "16"))
    every = int(os.environ.get("BENCH_EVERY", "5000"))
    tmp = tempfile.mkdtemp(prefix="hookwise-bench-mcp-mem-")
    proj = _project(tmp, hook=os.environ.get("BENCH_HOOK") == "1")
    up = os.path.join(tmp, "upstream.py")
    with open(up, "w") as f:
        f.write(RAW_UPSTREAM)
    cmd = [sys.executable, "-m", "hookwise", "--project", proj, "mcp", "--", sys.executable, up]
    gw = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=_env(tmp))
    assert gw.stdin is not None and gw.stdout is not None
    _initialize(gw)
    samples: list[tuple[int, int]] = [(0, _rss_kib(gw.pid))]
    t0 = time.perf_counter()
    sent = done = 0
    while done < calls:
        batch = [_call(sent + k) for k in range(min(window, calls - sent))]
        gw.stdin.write(b"\n".join(batch) + b"\n")
        gw.stdin.flush()
        sent += len(batch)
        for _ in batch:
            answer = json.loads(gw.stdout.readline())
            assert "result" in answer, answer
        done = sent
        if done % every < window:
            samples.append((done, _rss_kib(gw.pid)))
    took = time.perf_counter() - t0
    gw.stdin.close()
    gw.wait(30)
    rss = [r for _, r in samples]
    tenth = [s for s in samples if s[0] >= calls // 10]
    half = [s for s in samples if s[0] >= calls // 2]
    hook = os.environ.get("BENCH_HOOK") == "1"
    print(
        f"{calls} tools/call through the gateway in {took:.1f} s ({calls / took:.0f}/s), hook: "
        f"{hook}"
    )
    print(
        f"gateway VmRSS KiB: first {rss[0]}, after {samples[1][0]} calls {rss[1]}, last {rss[-1]}, "
        f"max {max(rss)}; slope KiB per 10 000 calls: {_slope(tenth):+.1f} after the first tenth, "
        f"{_slope(half):+.1f} over the second half"
    )
    print("samples (calls: KiB): " + ", ".join(f"{c}: {r}" for c, r in samples))


if __name__ == "__main__":
    if "--memory" in sys.argv[1:]:
        _memory()
    else:
        import anyio

        anyio.run(_latency)
        _raw_latency()
