"""Finding and killing what a hook left behind, including processes that left its process group.

Every hook process is started with ``HOOKWISE_HOOK_RUN=<token>`` in its
environment, a token unique to that one run. Children inherit it, so the
processes of a run can be found under ``/proc`` even after they moved to
another process group or session (``setsid``, ``set -m``, a double fork).
:mod:`hookwise.runners._process` uses this in two places:

* at a timeout, every process of the run (its process group, plus every
  process carrying the token) gets SIGTERM, then SIGKILL after the grace;
* when a hook has exited but something still holds its stdout or stderr open
  (a daemon that inherited the pipes), the processes of the run that hold
  them are killed at once: the firing never waits for them, and nobody reads
  what they would write.

Limits (see docs/reliability.md): only Linux has ``/proc``; elsewhere only the
process group is signalled. A process that both scrubbed its environment
(``env -i``) and left the process group cannot be told apart from any other
process and is not found. Signals go through a pidfd where the platform has
one, so a reused pid is never signalled by mistake.
"""

from __future__ import annotations

import _thread
import errno
import itertools
import os
import sys
import time

try:
    # the C module behind :mod:`signal`: the same numbers and calls without signal.py's enums (~1 ms
    # per start)
    import _signal as signals
except ImportError:  # pragma: no cover - an interpreter without it
    import signal as signals

SIGTERM: int = signals.SIGTERM
SIGKILL: int = signals.SIGKILL


def signal_numbers(*names: str) -> tuple[int, ...]:
    """The numbers of the named signals this platform has (``"SIGXFSZ"``...), in order."""
    return tuple(int(getattr(signals, n)) for n in names if hasattr(signals, n))


MARKER = "HOOKWISE_HOOK_RUN"

_PROC = "/proc"
_counter = itertools.count(1)
_counter_lock = _thread.allocate_lock()
_HAS_PIDFD = hasattr(os, "pidfd_open") and hasattr(signals, "pidfd_send_signal")
#: how long a process may keep an exited hook's stdout/stderr before it counts as holding them
HOLD_GRACE_S = 0.2


def new_token() -> str:
    """A token unique to one hook run (process id, counter, random suffix)."""
    with _counter_lock:
        n = next(_counter)
    return f"{os.getpid()}-{n}-{os.urandom(4).hex()}"


def available() -> bool:
    return os.path.isdir(os.path.join(_PROC, "self", "fd"))


def _pids() -> list[int]:
    try:
        names = os.listdir(_PROC)
    except OSError:
        return []
    me = os.getpid()
    return [int(n) for n in names if n.isdigit() and int(n) != me]


def child_env(env: dict[str, str], token: str) -> dict[str, str]:
    """``env`` plus the run's marker. A hook run inside another hook run (a hook that runs hookwise)
    carries both tokens (``outer:inner``), so a timeout of the outer run also finds the inner run's
    processes."""
    outer = env.get(MARKER)
    return {**env, MARKER: f"{outer}:{token}" if outer else token}


#: Popen can give a child a process group of its own without a new session (``process_group``,
#: Python 3.11)
_HAS_PROCESS_GROUP = sys.version_info >= (3, 11)


def new_session() -> bool:
    """Whether a hook starts in a new session (as it always did) rather than only leading a process
    group of its own in this process's session. The two differ for a hook only through a controlling
    terminal: in a new session it has none, so a read of ``/dev/tty`` fails at once instead of
    stopping a background process group (SIGTTIN) until the timeout. So a new session is kept
    whenever this process has a controlling terminal (or it cannot tell). Without one, the process
    group is enough, and cheaper: on Linux every new session also gets a scheduler autogroup of its
    own (``/proc/sys/kernel/sched_autogroup_enabled``), which on a busy machine made the median
    ``bash -c`` hook about twice as slow (docs/performance.md)."""
    if not _HAS_PROCESS_GROUP:
        return True
    try:
        fd = os.open("/dev/tty", os.O_RDONLY | os.O_NOCTTY)
    except OSError as exc:  # ENXIO: no controlling terminal; anything else: keep the session
        return exc.errno != errno.ENXIO
    os.close(fd)
    return True


def _has_marker(pid: int, needle: bytes) -> bool:
    """``needle`` is ``b":<token>:"``; the process's marker variable holds the token (alone or
    chained)."""
    try:
        with open(f"{_PROC}/{pid}/environ", "rb") as f:
            data = f.read()
    except OSError:
        return False
    prefix = MARKER.encode() + b"="
    for entry in data.split(b"\0"):
        if entry.startswith(prefix) and needle in b":" + entry[len(prefix) :] + b":":
            return True
    return False


def _pgrp(pid: int) -> int | None:
    try:
        with open(f"{_PROC}/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    # "pid (comm) state ppid pgrp ..." -- comm may contain spaces and parentheses
    try:
        fields = stat[stat.rindex(b")") + 2 :].split()
        return int(fields[2])
    except (ValueError, IndexError):
        return None


def _holds(pid: int, links: frozenset[str]) -> bool:
    base = f"{_PROC}/{pid}/fd"
    try:
        fds = os.listdir(base)
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(f"{base}/{fd}") in links:
                return True
        except OSError:
            continue
    return False


def _kill(pid: int, sig: int, check: tuple[bytes, int | None, frozenset[str] | None]) -> bool:
    """Signal ``pid`` if it still is a process of the run (checked after pinning it with a
    pidfd)."""
    needle, pgid, links = check
    pidfd: int | None = None
    if _HAS_PIDFD:
        try:
            pidfd = os.pidfd_open(pid)
        except OSError:
            return False
    try:
        if not (_has_marker(pid, needle) or (pgid is not None and _pgrp(pid) == pgid)):
            return False
        if links is not None and not _holds(pid, links):
            return False
        try:
            if pidfd is not None:
                signals.pidfd_send_signal(pidfd, sig)
            else:
                os.kill(pid, sig)
        except OSError:
            return False
        return True
    finally:
        if pidfd is not None:
            os.close(pidfd)


def _candidates(needle: bytes, pgid: int | None, links: frozenset[str] | None) -> list[int]:
    out = []
    for pid in _pids():
        if not (_has_marker(pid, needle) or (pgid is not None and _pgrp(pid) == pgid)):
            continue
        if links is not None and not _holds(pid, links):
            continue
        out.append(pid)
    return out


def signal_run(
    token: str, pgid: int | None, sig: int, *, holding: tuple[int, ...] | None = None
) -> list[int]:
    """Send ``sig`` to every process of the run ``token`` (and of process group ``pgid``).

    With ``holding`` (pipe inode numbers), only the processes that hold one of
    those pipes open are signalled, and only if they still hold it after
    :data:`HOLD_GRACE_S` (a background job that is about to redirect its output
    is not mistaken for one that keeps it). Returns the pids signalled. Never raises.
    """
    if not available():
        return []
    needle = f":{token}:".encode()
    links = frozenset(f"pipe:[{ino}]" for ino in holding) if holding is not None else None
    hit = []
    try:
        pids = _candidates(needle, pgid, links)
        if links is not None:
            end = time.monotonic() + HOLD_GRACE_S
            while pids and time.monotonic() < end:
                time.sleep(0.005)
                pids = _candidates(needle, pgid, links)
        for pid in pids:
            if _kill(pid, sig, (needle, pgid, links)):  # pinned with a pidfd and checked again
                hit.append(pid)
    except Exception:  # pragma: no cover - best effort; the process group was signalled anyway
        pass
    return hit


def signal_runs_of_this_process(sig: int) -> list[int]:
    """Send ``sig`` to every process of every hook run this process started that is still alive
    (their tokens begin with this process's id; see :func:`new_token`). For a program that exits
    while hooks still run in the background (``hookwise fire`` with an ``async`` hook). Linux only
    (elsewhere nothing is found)."""
    if not available():
        return []
    needle = f":{os.getpid()}-".encode()
    hit = []
    try:
        for pid in _candidates(needle, None, None):
            if _kill(pid, sig, (needle, None, None)):
                hit.append(pid)
    except Exception:  # pragma: no cover - best effort
        pass
    return hit


def pipe_inode(fd: int) -> int | None:
    try:
        return os.fstat(fd).st_ino
    except OSError:
        return None
