"""Issue acceptance: a hook that sleeps forever after starting a child that inherits its stdout is a
``timeout`` within its timeout + 3 s, and no process of it is left alive."""

from __future__ import annotations

import os
import time

import pytest
from tests.conftest import Project
from tests.runners._procs import wait_dead

from hookwise import HookSystem, Outcome

pytestmark = pytest.mark.usefixtures("trust_all")


@pytest.mark.slow
def test_timeout_with_grandchild_holding_stdout(project: Project) -> None:
    pidfile = project.root / "pids"
    cmd = project.script(
        "hang.py",
        f"""
        import subprocess, time
        child = subprocess.Popen(["sleep", "1000"])  # inherits our stdout and stderr
        with open({str(pidfile)!r}, "w") as f:
            f.write(f"{{os.getpid()}} {{child.pid}}")
        print("partial output", flush=True)
        while True:
            time.sleep(1)
    """,
    )
    project.hooks(
        "BeforeTool", {"type": "command", "name": "hang", "command": cmd, "timeout": 1000}
    )
    t0 = time.monotonic()
    r = HookSystem(project.root).fire("BeforeTool", tool_name="t", tool_input={})
    elapsed = time.monotonic() - t0
    assert r.hooks[0].outcome is Outcome.TIMEOUT
    assert elapsed < 1.0 + 3.0
    pids = [int(p) for p in pidfile.read_text().split()]
    assert wait_dead(pids, 3.0) == []


def test_exited_hook_is_not_waited_on_for_its_background_child(project: Project) -> None:
    pidfile = project.root / "bgpid"
    project.hooks(
        "BeforeTool",
        {
            "type": "command",
            "name": "bg",
            "timeout": 10000,
            "command": f'sleep 30 & echo $! > {pidfile}; echo \'{{"decision":"deny"}}\'',
        },
    )
    t0 = time.monotonic()
    r = HookSystem(project.root).fire("BeforeTool", tool_name="t", tool_input={})
    assert time.monotonic() - t0 < 5
    assert r.hooks[0].outcome is Outcome.OK and r.blocked
    os.kill(int(pidfile.read_text()), 9)


@pytest.mark.slow
def test_sigterm_ignoring_hook_is_killed_after_grace(project: Project) -> None:
    cmd = project.script(
        "stubborn.py",
        """
        import signal, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("ready", flush=True)
        while True:
            time.sleep(1)
    """,
    )
    project.hooks(
        "BeforeTool", {"type": "command", "name": "stubborn", "command": cmd, "timeout": 500}
    )
    t0 = time.monotonic()
    r = HookSystem(project.root).fire("BeforeTool", tool_name="t", tool_input={})
    assert r.hooks[0].outcome is Outcome.TIMEOUT
    assert time.monotonic() - t0 < 0.5 + 3.0
