#!/usr/bin/env python3
"""What one Bash tool call costs an agent: a Python hook run directly, against the same function through
``hookwise hook claude`` (docs/agents.md, "Performance").

- (a) **direct**: the agent spawns ``python3 guard.py``, a hook script that reads Claude Code's PreToolUse
  payload on stdin and answers (the way most hooks are written).
- (b) **bridge**: the agent spawns ``hookwise hook claude``; hookwise runs the same function as a
  ``python`` hook (in process) and answers in Claude's format.
- (c) **served**: the same ``hookwise hook claude``, answered by a warm ``hookwise serve --socket``
  (the fast path: one round trip on the Unix socket; (b) runs with ``HOOKWISE_SERVE=off``).

Each variant runs N times, interleaved (a noisy neighbour hurts all alike); wall time is taken around
``posix_spawn`` + ``os.wait4`` with the payload on stdin. Prints the median wall and CPU milliseconds and
the ratios of (b) and (c) to (a) (targets: at most 1.5 and 1.0). Never used by the test-suite.

    python bench/bridge.py            # N=30
    BENCH_N=60 python bench/bridge.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import tempfile
from functools import partial

from _spawn_timing import interleaved, spawn  # bench/_spawn_timing.py (the scripts' own directory)

GUARD = """
def check(inp):
    cmd = inp.get("tool_input", {}).get("command", "")
    if "rm -rf" in cmd:
        return {"decision": "deny", "reason": "no rm -rf"}
    return None
"""

DIRECT = """import json, sys
from guard_fn import check
d = json.load(sys.stdin)
a = check(d)
if a:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": a["reason"]}}))
"""

PAYLOAD = {
    "session_id": "bench",
    "transcript_path": "",
    "cwd": "",
    "permission_mode": "bypassPermissions",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "ls -la", "description": "list"},
    "tool_use_id": "toolu_bench",
}


def _setup(root: str) -> tuple[dict[str, str], str]:
    proj = os.path.join(root, "proj")
    home = os.path.join(root, "home")
    os.makedirs(os.path.join(proj, ".gemini"))
    os.makedirs(os.path.join(home, ".gemini"))
    with open(os.path.join(proj, "guard_fn.py"), "w") as f:
        f.write(GUARD)
    with open(os.path.join(proj, "guard.py"), "w") as f:
        f.write(DIRECT)
    hook = {"type": "python", "callable": "guard_fn:check"}
    settings = {"hooks": {"BeforeTool": [{"hooks": [hook]}]}}
    with open(os.path.join(home, ".gemini", "settings.json"), "w") as f:
        json.dump(settings, f)  # a user hook: imported from sys.path (PYTHONPATH below)
    payload = dict(PAYLOAD, cwd=proj)
    stdin = os.path.join(root, "payload.json")
    with open(stdin, "w") as f:
        json.dump(payload, f)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,
        "PYTHONPATH": proj,
        "CLAUDE_PROJECT_DIR": proj,
        "HOOKWISE_SOCKET": os.path.join(root, "serve.sock"),
    }
    return env, stdin


HOOKWISE = os.path.join(sysconfig.get_path("scripts"), "hookwise")
#: name -> (argv, program first; environment added)
VARIANTS: dict[str, tuple[list[str], dict[str, str]]] = {
    "(a) direct: python3 guard.py": ([sys.executable, "guard.py"], {}),
    "(b) bridge: hookwise hook claude": ([HOOKWISE, "hook", "claude"], {"HOOKWISE_SERVE": "off"}),
    "(c) served: hookwise hook claude": ([HOOKWISE, "hook", "claude"], {}),
}


def _serve(root: str, env: dict[str, str]) -> subprocess.Popen[str]:
    """A warm ``hookwise serve`` on the socket ``env`` names, serving the projects under ``root``."""
    proc = subprocess.Popen(
        [HOOKWISE, "serve", "--root", root, "--socket"], env=env, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and "listening" in proc.stdout.readline()
    return proc


def main() -> None:
    n = int(os.environ.get("BENCH_N", "30"))
    with tempfile.TemporaryDirectory() as root:
        env, stdin = _setup(root)
        cwd = env["PYTHONPATH"]
        if not os.path.exists(HOOKWISE):
            raise SystemExit("hookwise is not installed in this environment's scripts directory")
        service = _serve(root, env)
        try:
            med = interleaved(
                {
                    name: partial(spawn, argv, {**env, **extra}, cwd, stdin)
                    for name, (argv, extra) in VARIANTS.items()
                },
                n,
            )
        finally:
            service.terminate()
            service.wait(10)
    print(f"one Claude Code PreToolUse call, median of {n} (wall ms / CPU ms)")
    for name, (wall, cpu) in med.items():
        print(f"  {name:<36} {wall:7.1f} {cpu:7.1f}")
    a = med["(a) direct: python3 guard.py"]
    b = med["(b) bridge: hookwise hook claude"]
    c = med["(c) served: hookwise hook claude"]
    print(f"  (b)/(a): wall {b[0] / a[0]:.2f}x, CPU {b[1] / a[1]:.2f}x (target: at most 1.5x)")
    print(f"  (c)/(a): wall {c[0] / a[0]:.2f}x, CPU {c[1] / a[1]:.2f}x (target: at most 1.0x)")


if __name__ == "__main__":
    main()
