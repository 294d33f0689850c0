"""Finding processes that hook runs of this test process left behind (shared by the reliability
suites).

Every hook process carries ``HOOKWISE_HOOK_RUN=<pid of the runner>-<n>-<random>``
(see ``hookwise.runners._reaper``), so a scan of ``/proc`` finds every process any
firing of this test process started, whatever process group or session it
moved to. Zombies count as gone (they have exited; init reaps them).
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from hookwise.runners._reaper import MARKER


def _state(pid: int) -> str | None:
    try:
        raw = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    return raw[raw.rindex(b")") + 2 :].split()[0].decode()


def alive(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    st = _state(pid)
    return st is not None and st not in ("Z", "X")


def marked_processes() -> list[int]:
    """Live processes started by a hook run of this test process (found by their marker)."""
    needle = f"{MARKER}={os.getpid()}-".encode()
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            env = Path(f"/proc/{name}/environ").read_bytes()
        except OSError:
            continue
        if needle in env and alive(int(name)):
            out.append(int(name))
    return out


def wait_gone(pids: list[int], within: float = 3.0) -> list[int]:
    """Wait up to ``within`` seconds for every pid to be gone; return those still alive."""
    end = time.monotonic() + within
    left = [p for p in pids if alive(p)]
    while left and time.monotonic() < end:
        time.sleep(0.02)
        left = [p for p in left if alive(p)]
    return left


def read_pids(piddir: Path) -> list[int]:
    out = []
    for f in sorted(piddir.glob("*")):
        for line in f.read_text().split():
            if line.strip().isdigit():
                out.append(int(line))
    return out


def kill_all(pids: list[int]) -> None:
    for p in pids:
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass
