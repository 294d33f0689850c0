"""Persistent command hooks: one long-lived process per hook, one JSON line per event.

A hook with ``"persistent": true`` is started once (the first time its event
fires, with the same command, working directory, environment and process
group as a one-shot run) and then kept. For every event hookwise writes the
input JSON as one line on its stdin and reads one line from its stdout:

* a JSON object without an ``exitCode`` key is the hook's answer, exactly as if
  a one-shot hook had printed it and exited 0;
* ``{"exitCode": N, "stdout": "...", "stderr": "..."}`` means what a one-shot
  hook that exited with code N, printing those texts, means (docs/contract.md §6): N = 2
  blocks, with ``stderr`` as the reason; other codes fail; 126/127 did not run;
* anything else (text, a JSON array, two lines for one event) is a protocol
  error: the hook call fails visibly and the process is restarted.

If the process exits while handling an event, the event gets the outcome of a
one-shot hook that exited that way (its exit code, what it printed) and the
process is started again for the next event. Timeouts kill the process group
(SIGTERM, then SIGKILL after the grace) and count as ``timeout``. Every restart
after a crash produces a warning. The protocol is documented for hook authors
in docs/performance.md.

Failures are data (:class:`Answer`), never exceptions.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, cast

from hookwise._records import dataclass, field
from hookwise.jsonc.parse import loads_strict
from hookwise.runners import _reaper as _leftovers
from hookwise.runners._process import (
    DEFAULT_CAP,
    KILL_GRACE_S,
    READ,
    READ_CHUNK,
    WRITE,
    Completed,
    Poller,
    Spawn,
    Stream,
    close_quietly,
    drive,
    open_pidfd,
    popen,
    signal_group,
    unregister,
)

if TYPE_CHECKING:
    from hookwise.runners._process import Process


@dataclass
class Job:
    """One event for one persistent hook.

    ``key`` identifies the process (event and hook identity); ``signature``
    changes when the process must be started afresh (another command text,
    environment or working directory); ``spawn()`` builds the request used to
    start it (only called when needed).
    """

    key: Hashable
    signature: Hashable
    spawn: Callable[[], Spawn]
    line: bytes  # the input JSON, without the newline
    timeout_s: float
    name: str
    cap: int = DEFAULT_CAP


@dataclass
class Answer:
    """The result of one exchange, as a one-shot run would have produced it."""

    completed: Completed
    protocol_error: str | None = None
    notes: list[str] = field(default_factory=list)  # warnings that do not change the outcome


class _Proc:
    """One running persistent hook process."""

    def __init__(self, signature: Hashable, proc: Process, token: str) -> None:
        self.signature = signature
        self.proc = proc
        self.token = token
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        self.stdin = proc.stdin.fileno()
        self.stdout = proc.stdout.fileno()
        self.stderr = proc.stderr.fileno()
        for fd in (self.stdin, self.stdout, self.stderr):
            os.set_blocking(fd, False)
        self.pidfd = open_pidfd(proc.pid)
        self.lock = threading.Lock()
        self.answered = 0  # events answered by this process

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close_pipes(self) -> None:
        close_quietly(self.proc.stdin, self.proc.stdout, self.proc.stderr)
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None

    def signal_group(self, sig: int) -> None:
        signal_group(self.proc.pid, self.token, sig)

    def wait_exit(self, timeout: float) -> bool:
        try:
            self.proc.wait(timeout=max(timeout, 0.0))
        except subprocess.TimeoutExpired:
            return False
        return True

    def stop(self, grace: float = KILL_GRACE_S, *, eof_first: bool = False) -> None:
        """End the process (EOF on stdin first when asked), then TERM, then KILL its group; close
        pipes."""
        if eof_first and self.proc.poll() is None:
            close_quietly(self.proc.stdin)
            self.wait_exit(min(grace, 0.5))
        if self.proc.poll() is None:
            self.signal_group(signal.SIGTERM)
            if not self.wait_exit(grace):
                self.signal_group(signal.SIGKILL)
                self.wait_exit(5.0)
        else:
            self.signal_group(signal.SIGKILL)  # whatever the hook left in its group
        self.close_pipes()

    def discard_pending(self) -> int:
        """Read and drop what the process wrote between events; returns the stdout byte count."""
        n = 0
        for fd, count in ((self.stdout, True), (self.stderr, False)):
            for _ in range(64):
                try:
                    data = os.read(fd, READ_CHUNK)
                except (BlockingIOError, OSError):
                    break
                if not data:
                    break
                if count:
                    n += len(data)
        return n


class _Exchange:
    """Bookkeeping of one event sent to one process."""

    def __init__(self, job: Job, proc: _Proc, t0: float) -> None:
        self.job = job
        self.proc = proc
        self.t0 = t0
        self.deadline = t0 + max(job.timeout_s, 0.0)
        self.view = memoryview(job.line + b"\n")
        self.out = bytearray()
        self.err = Stream(proc.stderr, job.cap)  # capped like a one-shot hook's stderr
        self.line: bytes | None = None
        self.extra = False
        self.exited = False
        self.timed_out = False
        self.overflow = False
        self.done = False
        self.writing = True


class PersistentPool:
    """The persistent hook processes of one :class:`~hookwise.HookSystem`.

    Thread-safe: an event for a process waits until the process has answered
    the previous one (each process handles one event at a time).
    """

    def __init__(self) -> None:
        self._procs: dict[Hashable, _Proc] = {}
        self._lock = threading.Lock()
        self._closed = False

    def __len__(self) -> int:
        return len(self._procs)

    def pids(self) -> list[int]:
        """Process ids of the running persistent hooks (for tests and diagnostics)."""
        with self._lock:
            return [p.proc.pid for p in self._procs.values() if p.alive()]

    # ---- lifecycle -------------------------------------------------------------------------
    def close(self, grace: float = 0.5) -> None:
        """Stop every process: EOF on stdin, then SIGTERM, then SIGKILL. Idempotent."""
        with self._lock:
            self._closed = True
            procs = list(self._procs.values())
            self._procs.clear()
        for p in procs:
            with p.lock:
                p.stop(grace, eof_first=True)

    def _start(self, job: Job) -> tuple[_Proc | None, str | None]:
        """Start the process of ``job`` exactly as a one-shot hook is started
        (:func:`._process.popen`)."""
        token = _leftovers.new_token()
        proc, _req, error = popen(job.spawn(), token)
        if proc is None:
            return None, error
        return _Proc(job.signature, proc, token), None

    # ---- exchanging ------------------------------------------------------------------------
    def exchange(self, jobs: Sequence[Job]) -> list[Answer]:
        """Send each job's line to its process (started or restarted as needed); answers in job
        order."""
        answers: list[Answer | None] = [None] * len(jobs)
        live: list[tuple[int, _Exchange]] = []
        locked: list[_Proc] = []
        order = sorted(range(len(jobs)), key=lambda i: repr(jobs[i].key))
        try:
            for i in order:
                job = jobs[i]
                notes: list[str] = []
                proc = self._acquire(job, notes)
                if isinstance(proc, str):
                    answers[i] = Answer(Completed(spawn_error=proc), None, notes)
                    continue
                locked.append(proc)
                stray = proc.discard_pending()
                if stray:
                    notes.append(
                        f"persistent hook {job.name} wrote {stray} bytes on stdout outside an "
                        "event (ignored; write logs to stderr)"
                    )
                x = _Exchange(job, proc, time.monotonic())
                answers[i] = Answer(Completed(), None, notes)
                live.append((i, x))
            if live:
                _drive([x for _, x in live])
            for i, x in live:
                a = answers[i]
                assert a is not None
                self._settle(x, a)
        finally:
            for p in locked:
                p.lock.release()
        return [
            a if a is not None else Answer(Completed(spawn_error="internal error")) for a in answers
        ]

    def _acquire(self, job: Job, notes: list[str]) -> _Proc | str:
        """The process for ``job``, locked; started or restarted as needed. A string is a start
        error."""
        while True:
            with self._lock:
                if self._closed:
                    return "the hook system is closed"
                proc = self._procs.get(job.key)
            if proc is None:
                new, error = self._start(job)
                if new is None:
                    assert error is not None
                    return error
                new.lock.acquire()
                with self._lock:
                    if self._closed or job.key in self._procs:  # lost a race: use the other one
                        new.lock.release()
                        new.stop(0.1)
                        continue
                    self._procs[job.key] = new
                return new
            proc.lock.acquire()
            with self._lock:
                current = self._procs.get(job.key)
            if current is not proc:
                proc.lock.release()
                continue
            if proc.signature != job.signature:
                self._forget(job.key, proc)
                proc.stop(KILL_GRACE_S, eof_first=True)
                proc.lock.release()
                continue
            if not proc.alive():
                rc = proc.proc.returncode
                how = f"exit code {rc}" if rc is not None and rc >= 0 else f"signal {-(rc or 0)}"
                notes.append(
                    f"persistent hook {job.name} had exited ({how}) since its last event; restarted"
                )
                self._forget(job.key, proc)
                proc.stop(0.1)
                proc.lock.release()
                continue
            return proc

    def _forget(self, key: Hashable, proc: _Proc) -> None:
        with self._lock:
            if self._procs.get(key) is proc:
                del self._procs[key]

    def _settle(self, x: _Exchange, a: Answer) -> None:
        """Turn a finished exchange into what a one-shot run would have returned."""
        job, proc, c = x.job, x.proc, a.completed
        c.duration_ms = (time.monotonic() - x.t0) * 1000.0
        c.stderr = x.err.value()
        c.stderr_truncated = x.err.truncated
        restart = False
        if x.timed_out:
            c.timed_out = True
            restart = True
        elif x.overflow:
            a.protocol_error = (
                f"persistent hook protocol error: no end of line within {job.cap} bytes "
                "(the process is restarted)"
            )
            c.stdout = bytes(x.out)
            c.stdout_truncated = True
            restart = True
        elif x.line is not None:
            proc.answered += 1
            c.stdout = x.line
            text = x.line.decode("utf-8", "replace").strip()
            value: object = None
            try:
                value = loads_strict(text)
            except (ValueError, RecursionError):
                value = None
            if not isinstance(value, dict):
                shown = text if len(text) <= 120 else text[:117] + "..."
                a.protocol_error = (
                    "persistent hook protocol error: the answer line is not a JSON object: "
                    f"{shown!r} (the process is restarted; write logs to stderr)"
                )
                restart = True
            elif "exitCode" in value:
                code = value.get("exitCode")
                so, se = value.get("stdout", ""), value.get("stderr")
                if (
                    isinstance(code, bool)
                    or not isinstance(code, int)
                    or not isinstance(so, str)
                    or not isinstance(se, (str, type(None)))
                ):
                    a.protocol_error = (
                        'persistent hook protocol error: an answer with "exitCode" needs an '
                        "integer exitCode and string stdout/stderr"
                    )
                    restart = True
                else:
                    c.returncode = code
                    c.stdout = so.encode("utf-8", "surrogatepass")
                    if se is not None:
                        c.stderr = se.encode("utf-8", "surrogatepass")
            else:
                c.returncode = 0
            if x.extra and not restart:
                a.notes.append(
                    f"persistent hook {job.name} wrote more than one line for one event "
                    "(the extra output was ignored)"
                )
        else:
            # the process exited before a complete line: what a one-shot run of that process means
            rc = proc.proc.returncode
            if rc is None:
                rc = proc.proc.wait()
            if rc < 0:
                c.signal = -rc
            else:
                c.returncode = rc
            c.stdout = bytes(x.out)
            c.stdout_truncated = len(x.out) >= job.cap
            a.notes.append(
                f"persistent hook {job.name} exited while handling an event "
                f"({'signal ' + str(-rc) if rc < 0 else 'exit code ' + str(rc)}); "
                "it is restarted for the next event"
            )
            restart = True
        if restart:
            self._forget(job.key, proc)
            proc.stop(KILL_GRACE_S)


def _drive(xs: list[_Exchange]) -> None:
    """Write every line and read every answer, on the one process loop (:func:`._process.drive`)."""
    sel = Poller()
    try:
        for x in xs:
            p = x.proc
            sel.register(p.stdin, WRITE, (x, "in"))
            sel.register(p.stdout, READ, (x, "out"))
            sel.register(p.stderr, READ, (x, "err"))
            if p.pidfd is not None:
                sel.register(p.pidfd, READ, (x, "exit"))
        drive(
            sel,
            lambda now: _tick(xs, sel, now),
            lambda data: _dispatch(sel, data),
            lambda: all(x.done for x in xs),
        )
    finally:
        sel.close()


def _tick(xs: list[_Exchange], sel: Poller, now: float) -> float | None:
    """Deadlines and (without pidfd) exit polling; the next wake-up time."""
    for x in xs:
        if not x.done and now >= x.deadline:
            x.timed_out = x.done = True
            _unregister(sel, x)
        elif not x.done and x.proc.pidfd is None and x.proc.proc.poll() is not None:
            _on_exit(sel, x)
    pending = [x for x in xs if not x.done]
    if not pending:
        return None
    wake = min(x.deadline for x in pending)
    if any(x.proc.pidfd is None for x in pending):
        wake = min(wake, now + 0.01)  # no pidfd: poll for exit
    return wake


def _dispatch(sel: Poller, data: object) -> None:
    x, which = cast("tuple[_Exchange, str]", data)
    if x.done:
        return
    if which == "in":
        _write(sel, x)
    elif which == "out":
        _read_out(sel, x)
    elif which == "err":
        _read_err(sel, x)
    else:
        _on_exit(sel, x)


def _unregister(sel: Poller, x: _Exchange) -> None:
    p = x.proc
    unregister(sel, p.stdin, p.stdout, p.stderr, p.pidfd)


def _write(sel: Poller, x: _Exchange) -> None:
    try:
        n = os.write(x.proc.stdin, x.view[:READ_CHUNK])
    except BlockingIOError:
        return
    except OSError:  # EPIPE: the process closed stdin or died; its exit tells the rest
        n = len(x.view)
    x.view = x.view[n:]
    if not len(x.view):
        x.writing = False
        unregister(sel, x.proc.stdin)


def _read_ready(sel: Poller, fd: int) -> bytes | None:
    """A chunk from a ready pipe (None: nothing after all). At EOF (or a read error) the pipe leaves
    the poll set and ``b""`` comes back: the process is exiting."""
    try:
        data = os.read(fd, READ_CHUNK)
    except BlockingIOError:
        return None
    except OSError:
        data = b""
    if not data:
        unregister(sel, fd)
    return data


def _read_out(sel: Poller, x: _Exchange) -> None:
    data = _read_ready(sel, x.proc.stdout)
    if not data:
        return
    start = len(x.out)
    x.out += data
    nl = x.out.find(b"\n", start)
    if nl >= 0:
        x.line = bytes(x.out[:nl])
        x.extra = len(x.out) > nl + 1 and bool(x.out[nl + 1 :].strip())
        x.done = True
        _unregister(sel, x)
        _read_err_now(x)
        return
    if len(x.out) >= x.job.cap:  # a line longer than the cap: no answer will fit
        x.out = x.out[: x.job.cap]
        x.overflow = x.done = True
        _unregister(sel, x)
        x.proc.signal_group(signal.SIGKILL)
        x.proc.wait_exit(5.0)
        return


def _read_err(sel: Poller, x: _Exchange) -> None:
    data = _read_ready(sel, x.proc.stderr)
    if data:
        x.err.feed(data)


def _read_err_now(x: _Exchange) -> None:
    """Take the stderr already written for this event (it belongs with the answer)."""
    for _ in range(16):
        try:
            data = os.read(x.proc.stderr, READ_CHUNK)
        except (BlockingIOError, OSError):
            return
        if not data:
            return
        x.err.feed(data)


def _on_exit(sel: Poller, x: _Exchange) -> None:
    """The process exited: read what is left, then finish the exchange (a line may still be
    complete)."""
    p = x.proc
    p.wait_exit(5.0)
    x.exited = True
    for _ in range(4096):
        try:
            data = os.read(p.stdout, READ_CHUNK)
        except (BlockingIOError, OSError):
            break
        if not data:
            break
        x.out += data
        if len(x.out) >= x.job.cap:
            break
    _read_err_now(x)
    nl = x.out.find(b"\n")
    if nl >= 0:
        x.line = bytes(x.out[:nl])
        x.extra = len(x.out) > nl + 1 and bool(x.out[nl + 1 :].strip())
    x.done = True
    _unregister(sel, x)
