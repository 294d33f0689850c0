"""Whether processes are still alive, read from /proc (a zombie counts as gone)."""

from __future__ import annotations

import time


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_dead(pids: list[int], seconds: float) -> list[int]:
    """The ``pids`` still alive after waiting up to ``seconds`` for them all to end."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        left = [p for p in pids if alive(p)]
        if not left:
            return []
        time.sleep(0.05)
    return [p for p in pids if alive(p)]
