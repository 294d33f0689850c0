#!/usr/bin/env python3
"""Latency ``hookwise mcp`` adds per ``tools/call`` (no hook configured), and its memory over many calls.

One MCP server written with the SDK (a tool that echoes its argument), called by the SDK's client
over stdio, directly and through ``hookwise mcp`` (a project with no hooks), interleaved in rounds.
Prints p50/p99 of both, the added p50 (target ≤ 1 ms) and the gateway's resident memory after each
round (target: flat).

    python bench/mcp_proxy.py        # BENCH_N=2000 calls per variant, BENCH_ROUNDS=4
Needs the mcp extra. Never used by the test-suite.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

N = int(os.environ.get("BENCH_N", "2000"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "4"))

UPSTREAM = """
from mcp.server import MCPServer
mcp = MCPServer("bench")
@mcp.tool()
def echo(text: str) -> str:
    return text
if __name__ == "__main__":
    mcp.run()
"""


def _children_rss_kb(marker: str) -> int:
    """Resident memory of this process's children whose command line holds ``marker``."""
    total = 0
    me = str(os.getpid())
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                ppid = f.read().rsplit(")", 1)[1].split()[1]
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
            if ppid != me or marker not in cmd:
                continue
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            continue
    return total


async def _calls(client: Client, n: int) -> list[float]:
    out = []
    for i in range(n):
        t0 = time.perf_counter()
        await client.call_tool("echo", {"text": str(i)})
        out.append((time.perf_counter() - t0) * 1000)
    return out


def _pct(v: list[float], p: float) -> float:
    s = sorted(v)
    return s[min(len(s) - 1, int(p * len(s)))]


async def main() -> None:
    tmp = tempfile.mkdtemp(prefix="hookwise-bench-mcp-")
    proj = os.path.join(tmp, "proj")
    os.makedirs(os.path.join(proj, ".gemini"))
    with open(os.path.join(proj, ".gemini", "settings.json"), "w") as f:
        json.dump({"hooks": {}}, f)
    up = os.path.join(tmp, "upstream.py")
    with open(up, "w") as f:
        f.write(UPSTREAM)
    env = dict(os.environ, GEMINI_CLI_HOME=os.path.join(tmp, "home"))
    direct = StdioServerParameters(command=sys.executable, args=[up], env=env)
    gw_args = ["-m", "hookwise", "--project", proj, "mcp", "--", sys.executable, up]
    proxied = StdioServerParameters(command=sys.executable, args=gw_args, env=env)
    lat: dict[str, list[float]] = {"direct": [], "proxied": []}
    rss: list[int] = []
    async with Client(direct, cache=None) as d, Client(proxied, cache=None) as p:
        await d.list_tools()
        await p.list_tools()
        await _calls(d, 50)  # warm-up
        await _calls(p, 50)
        for _ in range(ROUNDS):
            lat["direct"] += await _calls(d, N // ROUNDS)
            lat["proxied"] += await _calls(p, N // ROUNDS)
            rss.append(_children_rss_kb("hookwise"))
    for name, v in lat.items():
        print(
            f"{name:<8} p50 {_pct(v, 0.5):7.3f} ms  p99 {_pct(v, 0.99):7.3f} ms  ({len(v)} calls)"
        )
    added = _pct(lat["proxied"], 0.5) - _pct(lat["direct"], 0.5)
    print(f"added per tools/call: p50 {added:.3f} ms (target <= 1 ms)")
    print("gateway RSS after each round (KiB): " + ", ".join(str(r) for r in rss))


if __name__ == "__main__":
    anyio.run(main)
