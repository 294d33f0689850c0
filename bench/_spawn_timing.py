"""Timing whole processes for the start-up benchmarks (``startup.py``, ``bridge.py``): one spawn, and
interleaved rounds of several variants.

A spawn is timed around ``posix_spawn`` + ``os.wait4`` (wall time) and the child's CPU time comes
from ``wait4``'s rusage; output goes to ``/dev/null``. The variants run one after another in every
round, after one warm-up run each (page cache, ``.pyc`` files), so a noisy neighbour hurts all of them
alike. Imported by the scripts beside it (``python bench/startup.py`` puts ``bench/`` on ``sys.path``).
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Mapping


def spawn(
    argv: list[str], env: dict[str, str], cwd: str, stdin: str | None = None
) -> tuple[float, float, int]:
    """(wall ms, child CPU ms, exit status) of one process; ``stdin`` a file to read, else ``/dev/null``."""
    devnull = os.open(os.devnull, os.O_RDWR)
    fd_in = os.open(stdin, os.O_RDONLY) if stdin is not None else devnull
    try:
        fa = [
            (os.POSIX_SPAWN_DUP2, fd_in, 0),
            (os.POSIX_SPAWN_DUP2, devnull, 1),
            (os.POSIX_SPAWN_DUP2, devnull, 2),
        ]
        old = os.getcwd()
        os.chdir(cwd)
        try:
            t0 = time.perf_counter()
            pid = os.posix_spawn(argv[0], argv, env, file_actions=fa)
            _, status, ru = os.wait4(pid, 0)
            wall = (time.perf_counter() - t0) * 1000
        finally:
            os.chdir(old)
    finally:
        if fd_in != devnull:
            os.close(fd_in)
        os.close(devnull)
    return wall, (ru.ru_utime + ru.ru_stime) * 1000, os.waitstatus_to_exitcode(status)


def interleaved(
    variants: Mapping[str, Callable[[], tuple[float, float, int]]], n: int
) -> dict[str, tuple[float, float]]:
    """The median (wall ms, CPU ms) of each variant over ``n`` interleaved rounds, after one warm-up run each.

    A variant is a call that runs its process once (:func:`spawn`); a run that exits non-zero ends the
    benchmark with a message naming the variant."""
    samples: dict[str, list[tuple[float, float]]] = {k: [] for k in variants}
    for run in variants.values():
        run()
    for _ in range(n):
        for name, run in variants.items():
            wall, cpu, status = run()
            if status != 0:
                raise SystemExit(f"{name} exited {status}")
            samples[name].append((wall, cpu))
    return {
        k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
        for k, v in samples.items()
    }
