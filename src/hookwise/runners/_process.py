"""The only place hookwise spawns processes.

:func:`run_many` starts every command of a parallel firing and drives them all
from one thread with one poll set (:class:`Poller`): stdin is written without blocking, stdout
and stderr are read up to a cap (the rest is drained and dropped), and process
exit is watched through a pidfd where the platform has one (no thread per
child). Each child leads its own process group; at its timeout the whole group
gets SIGTERM, then SIGKILL after a short grace. When the direct child has
exited, its pipes are drained of what is already there and closed: a
grandchild that keeps them open is never waited for.

Persistent hooks (:mod:`hookwise.runners.persistent`) are started, signalled
and driven by the same pieces: :func:`popen` (the one ``Popen``, with the
direct-exec fallback and the spawn-error text), :func:`open_pidfd`,
:func:`signal_group`, :class:`Poller` and :func:`drive` (the one wait loop).

Failures are data (:class:`Completed`), never exceptions.
"""

from __future__ import annotations

import _thread
import itertools
import os
import select
import sys
import time

from hookwise._records import TYPE_CHECKING, dataclass, field
from hookwise.runners import _reaper as _leftovers

if TYPE_CHECKING:
    import subprocess
    from collections.abc import Callable, Sequence
    from typing import IO, Any, Union

    from hookwise.runners._warm import WarmProcess

    #: a started process: :class:`subprocess.Popen` or :class:`Spawned` (the part of it the driver
    #: uses), or a hook forked by a warm interpreter (:class:`hookwise.runners._warm.WarmProcess`)
    Process = Union["subprocess.Popen[bytes]", "Spawned", "WarmProcess"]

DEFAULT_CAP = 1 << 20  # bytes kept per stream
KILL_GRACE_S = 1.0  # between SIGTERM and SIGKILL of a timed-out hook's process group
READ_CHUNK = 1 << 16
#: a pipe's capacity as Linux creates it; a hook input longer than this gets a larger stdin pipe
PIPE_DEFAULT_SIZE = 1 << 16
#: the largest stdin pipe asked for (Linux's default ``/proc/sys/fs/pipe-max-size`` for unprivileged
#: users)
PIPE_MAX_SIZE = 1 << 20

_HAS_PIDFD = hasattr(os, "pidfd_open")
_HAS_POSIX_SPAWN = hasattr(os, "posix_spawn") and sys.platform.startswith("linux")
#: start hooks whose directory is the current one with posix_spawn (see :func:`_spawn_here`). Off by
#: default: a host that embeds hookwise may change directory on another thread while a hook starts.
#: The hookwise program switches it on (:func:`hookwise.cli.main.console`): its own threads never
#: change directory.
SPAWN_HERE = False


def _timed_out(exc: BaseException) -> bool:
    """``exc`` is :class:`subprocess.TimeoutExpired` (already imported by whoever raised it)."""
    sub = sys.modules.get("subprocess")
    return sub is not None and isinstance(exc, sub.TimeoutExpired)


@dataclass
class Spawn:
    """What to run."""

    argv: Sequence[str]
    cwd: str
    env: dict[str, str]
    stdin: bytes
    timeout_s: float
    cap: int = DEFAULT_CAP
    #: the program to exec when it is not ``argv[0]`` looked up in PATH (direct spawn, see _direct)
    executable: str | None = None
    #: what to run instead when this cannot be started (direct spawn falls back to ``bash -c``)
    fallback: Spawn | None = None
    #: stderr goes to the stdout pipe, interleaved as written (``Completed.stderr`` stays empty)
    merge_stderr: bool = False


@dataclass
class Completed:
    """What happened. ``returncode`` is None when the process never ran, timed out or died by a
    signal."""

    returncode: int | None = None
    signal: int | None = None
    stdout: bytes = b""
    stderr: bytes = b""
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    timed_out: bool = False
    spawn_error: str | None = None
    duration_ms: float = 0.0
    #: warnings that do not change the outcome (a warm Python hook that had to start the normal way)
    notes: list[str] = field(default_factory=list)


@dataclass
class Stream:
    """One output pipe read up to ``cap`` bytes (the rest is read and dropped, ``truncated``
    set)."""

    fd: int
    cap: int
    chunks: list[bytes] = field(default_factory=list)
    size: int = 0
    truncated: bool = False

    def feed(self, data: bytes) -> None:
        room = self.cap - self.size
        if room <= 0:
            self.truncated = True
            return
        if len(data) > room:
            data = data[:room]
            self.truncated = True
        self.chunks.append(data)
        self.size += len(data)

    def value(self) -> bytes:
        return b"".join(self.chunks)


class _Child:
    """One running command and its bookkeeping."""

    def __init__(self, req: Spawn, t0: float) -> None:
        self.req = req
        self.t0 = t0
        self.result = Completed()
        self.proc: Process | None = None
        self.pidfd: int | None = None
        self.out: Stream | None = None
        self.err: Stream | None = None
        self.stdin_fd: int | None = None
        self.stdin_view = memoryview(req.stdin)
        self.deadline = t0 + max(req.timeout_s, 0.0)
        self.kill_at: float | None = None
        self.exited = False
        self.done = False
        self.token = _leftovers.new_token()  # marks every process of this run (see _leftovers)
        self.pipe_inodes: tuple[int, ...] = ()

    @property
    def pgid(self) -> int:
        assert self.proc is not None
        return self.proc.pid


def _spawn_error_text(exc: OSError, req: Spawn) -> str:
    if isinstance(exc, FileNotFoundError) and not os.path.isdir(req.cwd):
        return f"working directory {req.cwd} does not exist"
    if isinstance(exc, FileNotFoundError):
        return f"{req.argv[0]}: command not found"
    if isinstance(exc, PermissionError):
        return f"{req.argv[0]}: permission denied"
    if isinstance(exc, NotADirectoryError):
        return f"working directory {req.cwd} is not a directory"
    return f"could not start {req.argv[0]}: {exc.strerror or exc}"


class Spawned:
    """A child started by :func:`os.posix_spawn`: the part of :class:`subprocess.Popen` the driver
    uses.

    ``stdin``/``stdout``/``stderr`` are unbuffered pipe files; ``poll``/``wait`` set
    ``returncode`` as Popen does (``-N`` for signal N) and ``wait`` raises
    :class:`subprocess.TimeoutExpired` when its timeout passes.
    """

    def __init__(
        self,
        pid: int,
        args: list[str],
        stdin: IO[bytes],
        stdout: IO[bytes],
        stderr: IO[bytes] | None,
    ) -> None:
        self.pid = pid
        self.args = args
        self.stdin: IO[bytes] | None = stdin
        self.stdout: IO[bytes] | None = stdout
        self.stderr = stderr
        self.returncode: int | None = None
        self._lock = _thread.allocate_lock()

    def poll(self) -> int | None:
        with self._lock:
            if self.returncode is None:
                try:
                    pid, status = os.waitpid(self.pid, os.WNOHANG)
                except (
                    ChildProcessError
                ):  # reaped by someone else (a host's SIGCHLD handler): as Popen says
                    self.returncode = 0
                else:
                    if pid == self.pid:
                        self.returncode = os.waitstatus_to_exitcode(status)
            return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        delay = 0.0005
        while True:
            rc = self.poll()
            if rc is not None:
                return rc
            if deadline is not None and time.monotonic() >= deadline:
                import subprocess

                raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
            time.sleep(
                delay if deadline is None else max(0.0, min(delay, deadline - time.monotonic()))
            )
            delay = min(delay * 2, 0.05)


#: what :class:`subprocess.Popen` resets in the child (``restore_signals``): Python ignores SIGPIPE,
#: hooks must not
_DEFAULT_SIGNALS = _leftovers.signal_numbers("SIGPIPE", "SIGXFSZ", "SIGXFZ")


def _exec_path(env: dict[str, str]) -> list[str]:
    """The directories ``PATH`` names in ``env``, as :func:`os.get_exec_path` reads them (which
    imports :mod:`warnings` on every call, about half a millisecond of a start-up)."""
    path = env.get("PATH")
    return (os.defpath if path is None else path).split(os.pathsep)


def _current_dir() -> str | None:
    """This process's working directory, or None when it was deleted (a hook then keeps ``Popen``,
    which changes to the hook's own directory: a deleted directory never matters when the project
    exists)."""
    try:
        return os.getcwd()
    except OSError:
        return None


#: whether a hook gets a new session or only a process group of its own (see
#: :func:`._reaper.new_session`)
new_session = _leftovers.new_session


def _group(session: bool) -> dict[str, Any]:
    """The keywords of :func:`os.posix_spawn` for a child that leads its own process group."""
    return {"setsid": True} if session else {"setpgroup": 0}


def _spawn_here(req: Spawn, env: dict[str, str]) -> Spawned | None:
    """Start ``req`` with :func:`os.posix_spawn` when that is exactly what ``Popen`` would do, else
    None.

    ``Popen(start_new_session=True, close_fds=True, restore_signals=True)`` = a new session (or only
    a process group, see :func:`new_session`), every
    inheritable descriptor above 2 closed, SIGPIPE/SIGXFSZ back to default, the program looked up in
    the child's PATH like Popen (first error other than not-found wins). posix_spawn cannot change
    directory, so a hook whose directory is not the current one (and any platform without it) keeps
    ``Popen``, which is imported only then: most ``hookwise fire`` runs never load
    :mod:`subprocess`. One difference remains, not visible to a hook: glibc leaves its own internal
    signals (32, 33) ignored in the child. Only the hookwise program uses this path
    (:data:`SPAWN_HERE`): in a host that calls :func:`os.chdir` on another thread, the directory
    check could race with the spawn.
    """
    if not (SPAWN_HERE and _HAS_POSIX_SPAWN) or req.cwd != _current_dir():
        return None
    argv = list(req.argv)
    name = req.executable or argv[0]
    if os.path.dirname(name):
        candidates = [name]
    else:
        candidates = [os.path.join(d, name) for d in _exec_path(env)]
    r_in, w_in = os.pipe()
    r_out, w_out = os.pipe()
    r_err, w_err = os.pipe() if not req.merge_stderr else (-1, w_out)
    ours = {r_in, w_in, r_out, w_out, r_err, w_err} - {-1}
    if (
        min(ours) <= 2
    ):  # a standard descriptor of this process is closed: Popen knows how to shuffle them
        for fd in ours:
            os.close(fd)
        return None
    actions: list[tuple[int, ...]] = [
        (os.POSIX_SPAWN_DUP2, r_in, 0),
        (os.POSIX_SPAWN_DUP2, w_out, 1),
        (os.POSIX_SPAWN_DUP2, w_err, 2),
    ]
    actions += [(os.POSIX_SPAWN_CLOSE, fd) for fd in _inheritable_fds()]
    first_error: OSError | None = None
    last_error: OSError | None = None
    pid = None
    try:
        for path in candidates:
            if len(candidates) > 1:
                try:
                    os.stat(path)
                except (
                    FileNotFoundError,
                    NotADirectoryError,
                ) as exc:  # what exec would say: try the next
                    last_error = exc
                    continue
                except OSError:
                    pass
            try:
                pid = os.posix_spawn(
                    path,
                    argv,
                    env,
                    file_actions=actions,
                    setsigdef=_DEFAULT_SIGNALS,
                    **_group(new_session()),
                )
                break
            except (FileNotFoundError, NotADirectoryError) as exc:
                last_error = exc
            except OSError as exc:
                last_error = exc
                if first_error is None:
                    first_error = exc
    except BaseException:
        for fd in ours:
            os.close(fd)
        raise
    for fd in {r_in, w_out, w_err}:  # the child's ends
        os.close(fd)
    if pid is None:
        for fd in {w_in, r_out, r_err} - {-1}:
            os.close(fd)
        err = first_error or last_error
        raise err if err is not None else FileNotFoundError(2, "No such file or directory", name)
    return Spawned(
        pid,
        argv,
        open(w_in, "wb", buffering=0),
        open(r_out, "rb", buffering=0),
        open(r_err, "rb", buffering=0) if r_err >= 0 else None,
    )


def _inheritable_fds() -> list[int]:
    """Descriptors above 2 a child would inherit (Popen's close_fds closes them; hookwise's own
    never are)."""
    try:
        names = os.listdir("/proc/self/fd")
    except OSError:
        names = []
    out = []
    for n in names:
        fd = int(n)
        if fd > 2:
            try:
                if os.get_inheritable(fd):
                    out.append(fd)
            except OSError:  # the listing's own descriptor, already closed
                pass
    return out


def popen(req: Spawn, token: str) -> tuple[Process | None, Spawn, str | None]:
    """Start ``req`` (or its fallback) as the leader of a new process group, with three pipes.

    Returns the process and the request that started it, or ``(None, req, error)``
    with the text of a spawn failure (docs/contract.md §6: the hook did not run).
    ``token`` marks the environment of every process of the run (see :mod:`._reaper`).
    """
    env = _leftovers.child_env(req.env, token)
    proc: Process | None
    try:
        proc = _spawn_here(req, env)
        if proc is None:
            import subprocess

            session = new_session()
            group: dict[str, Any] = {} if session else {"process_group": 0}  # Python >= 3.11
            proc = subprocess.Popen(
                list(req.argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT if req.merge_stderr else subprocess.PIPE,
                cwd=req.cwd,
                env=env,
                start_new_session=session,
                close_fds=True,
                executable=req.executable,
                **group,
            )
    except (OSError, ValueError, TypeError) as exc:
        if req.fallback is not None:  # bash reports (or handles) what the direct exec could not do
            return popen(req.fallback, token)
        if not isinstance(exc, OSError):  # e.g. NUL byte in an argument or the environment
            return None, req, f"could not start the command: {exc}"
        return None, req, _spawn_error_text(exc, req)
    return proc, req, None


def start_process(
    req: Spawn, token: str, batch: int, notes: list[str]
) -> tuple[Process | None, Spawn, str | None]:
    """:func:`popen`; or, for a hook that is exactly ``python script.py`` fired again and again by
    this process, a fork of a warm interpreter of the same python (:mod:`hookwise.runners._warm`).
    ``batch`` numbers the :func:`run_many` call (a key counts once per firing); ``notes`` gets a
    warning when a warm start had to fall back to this one."""
    if req.executable is None or len(req.argv) < 2 or "python" not in req.argv[0]:
        return popen(req, token)
    from hookwise.runners import _warm

    return _warm.start(req, token, batch, notes, popen)


def open_pidfd(pid: int) -> int | None:
    """A pidfd that becomes readable when ``pid`` exits, or None where the platform has none."""
    if not _HAS_PIDFD:
        return None
    try:
        return os.pidfd_open(pid)
    except OSError:
        return None


def signal_group(pgid: int, token: str, sig: int) -> None:
    """Send ``sig`` to a hook's process group and to the processes of its run that left the
    group."""
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass
    _leftovers.signal_run(token, None, sig)


def close_quietly(*files: IO[bytes] | None) -> None:
    for f in files:
        if f is not None:
            try:
                f.close()
            except OSError:
                pass


#: what a registration waits for: input to read (or end of file), room to write
READ, WRITE = select.POLLIN, select.POLLOUT


class Poller:
    """The descriptors the wait loop watches, each with the data :func:`drive` hands to
    ``dispatch``.

    :func:`select.poll` with a payload per descriptor. (:mod:`selectors` would serve, but importing
    it costs about a millisecond of every ``hookwise fire``: a namedtuple and abstract base classes
    the loop never needs.) A descriptor that hung up or failed is reported like a ready one: its
    reader then sees the end of file or the error.
    """

    __slots__ = ("_poll", "_data")

    def __init__(self) -> None:
        self._poll = select.poll()
        self._data: dict[int, object] = {}

    def register(self, fd: int, events: int, data: object) -> None:
        if fd in self._data:
            raise KeyError(f"descriptor {fd} is already registered")
        self._poll.register(fd, events)
        self._data[fd] = data

    def unregister(self, fd: int) -> None:
        """Stop watching ``fd``; :class:`KeyError` if it is not watched."""
        del self._data[fd]
        self._poll.unregister(fd)

    def select(self, timeout: float | None) -> list[object]:
        """The data of every ready descriptor, waiting at most ``timeout`` seconds (None: no
        limit)."""
        ms = (
            None if timeout is None else int(-(-timeout * 1000.0 // 1))
        )  # rounded up: never wake early
        return [self._data[fd] for fd, _ in self._poll.poll(ms) if fd in self._data]

    def close(self) -> None:
        self._data.clear()


def unregister(sel: Poller, *fds: int | None) -> None:
    for fd in fds:
        if fd is None or fd < 0:
            continue
        try:
            sel.unregister(fd)
        except KeyError:
            pass


def drive(
    sel: Poller,
    tick: Callable[[float], float | None],
    dispatch: Callable[[object], None],
    done: Callable[[], bool],
    after: Callable[[], None] | None = None,
) -> None:
    """The one event loop of every hook process: until ``done()``, handle deadlines, wait, dispatch.

    ``tick(now)`` acts on deadlines and returns the next time to wake up (None:
    no deadline); each ready registration's ``data`` goes to ``dispatch``;
    ``after()`` runs after each round.
    """
    while not done():
        wake = tick(time.monotonic())
        if done():
            return
        timeout = None if wake is None else max(0.0, wake - time.monotonic())
        try:
            ready = sel.select(timeout)
        except InterruptedError:  # pragma: no cover - PEP 475 retries
            continue
        for data in ready:
            dispatch(data)
        if after is not None:
            after()


def _start(child: _Child, sel: Poller, batch: int) -> None:
    proc, child.req, error = start_process(child.req, child.token, batch, child.result.notes)
    if proc is None:
        child.result.spawn_error = error
        child.done = True
        return
    req = child.req
    child.proc = proc
    assert proc.stdin is not None and proc.stdout is not None
    out_fd, in_fd = proc.stdout.fileno(), proc.stdin.fileno()
    err_fd = proc.stderr.fileno() if proc.stderr is not None else None
    for fd in (out_fd, err_fd, in_fd):
        if fd is not None:
            os.set_blocking(fd, False)
    child.pipe_inodes = tuple(
        i
        for i in (
            _leftovers.pipe_inode(out_fd),
            _leftovers.pipe_inode(err_fd) if err_fd is not None else None,
        )
        if i is not None
    )
    child.out = Stream(out_fd, req.cap)
    sel.register(out_fd, READ, (child, "out"))
    if err_fd is not None:
        child.err = Stream(err_fd, req.cap)
        sel.register(err_fd, READ, (child, "err"))
    if len(child.stdin_view):
        child.stdin_fd = in_fd
        grow_pipe(in_fd, len(child.stdin_view))
        _write_stdin(child, sel)  # at once: an empty pipe takes the input (or its first part) now
        if child.stdin_fd is not None:  # the rest is written as the hook reads
            sel.register(in_fd, WRITE, (child, "in"))
    else:
        proc.stdin.close()
    child.pidfd = open_pidfd(proc.pid)
    if child.pidfd is not None:
        sel.register(child.pidfd, READ, (child, "exit"))


def _close_stdin(child: _Child, sel: Poller) -> None:
    if child.stdin_fd is not None:
        unregister(sel, child.stdin_fd)
        child.stdin_fd = None
    if child.proc is not None and child.proc.stdin is not None:
        try:
            child.proc.stdin.close()
        except OSError:
            pass


def grow_pipe(fd: int, size: int) -> int | None:
    """Make the pipe ``fd`` hold ``size`` bytes (at most :data:`PIPE_MAX_SIZE`) when that is more
    than a pipe holds by default: a 100 KB input then goes in with one write instead of a write per
    round of the wait loop, each waiting for the hook to read. Returns the pipe's new capacity, or
    None when it was left as it was (not needed, not Linux, or refused: a user over
    ``/proc/sys/fs/pipe-user-pages-soft`` gets EPERM; the input is then written as the hook reads,
    as with any pipe)."""
    if size <= PIPE_DEFAULT_SIZE or not sys.platform.startswith("linux"):
        return None
    import fcntl  # only for inputs this large: a plain ``hookwise fire`` never loads it

    try:
        return fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, min(size, PIPE_MAX_SIZE))
    except OSError:
        return None


def _write_stdin(child: _Child, sel: Poller) -> None:
    """Write what the pipe takes of the rest of the input (never blocks); close stdin once all is
    written."""
    assert child.stdin_fd is not None
    try:
        n = os.write(child.stdin_fd, child.stdin_view)
    except BlockingIOError:
        return
    except OSError:  # EPIPE: the hook closed stdin or exited without reading; that is normal
        _close_stdin(child, sel)
        return
    child.stdin_view = child.stdin_view[n:]
    if not len(child.stdin_view):
        _close_stdin(child, sel)


def _read(child: _Child, which: str, sel: Poller) -> None:
    stream = child.out if which == "out" else child.err
    assert stream is not None
    try:
        data = os.read(stream.fd, READ_CHUNK)
    except BlockingIOError:
        return
    except OSError:
        data = b""
    if data:
        stream.feed(data)
        return
    _close_stream(child, which, sel)


def _close_stream(child: _Child, which: str, sel: Poller) -> None:
    stream = child.out if which == "out" else child.err
    if stream is None or stream.fd < 0:
        return
    unregister(sel, stream.fd)
    assert child.proc is not None
    f = child.proc.stdout if which == "out" else child.proc.stderr
    if f is not None:
        try:
            f.close()
        except OSError:
            pass
    stream.fd = -1


def _drain(child: _Child, sel: Poller) -> None:
    """Read what is already in the pipes of an exited child, then close them.

    A pipe that is not at end-of-file is still held by a process the hook left
    behind (a daemon that inherited stdout): those processes are killed, since
    the firing does not wait for them and nobody will read what they write.
    """
    held = False
    for which in ("out", "err"):
        stream = child.out if which == "out" else child.err
        if stream is None or stream.fd < 0:
            continue
        for _ in range(4096):  # at most a pipe buffer's worth per read; bounded anyway
            try:
                data = os.read(stream.fd, READ_CHUNK)
            except BlockingIOError:
                held = True
                break
            except OSError:
                break
            if not data:
                break
            stream.feed(data)
        else:
            held = True
        _close_stream(child, which, sel)
    if held and not child.result.timed_out and child.pipe_inodes:
        _leftovers.signal_run(
            child.token, child.pgid, _leftovers.SIGKILL, holding=child.pipe_inodes
        )


def _reap(child: _Child, sel: Poller) -> None:
    """The direct child has exited: record its status and finish it."""
    assert child.proc is not None
    try:
        status = child.proc.wait(timeout=5)
    except Exception as exc:  # pragma: no cover - pidfd said it exited
        if not _timed_out(exc):
            raise
        return
    child.exited = True
    if child.pidfd is not None:
        unregister(sel, child.pidfd)
        os.close(child.pidfd)
        child.pidfd = None
    _close_stdin(child, sel)
    _drain(child, sel)
    if status < 0:
        child.result.signal = -status
    else:
        child.result.returncode = status
    if child.result.timed_out:
        # give the rest of the group the grace period, then make sure it is gone
        if child.kill_at is None:
            child.kill_at = time.monotonic()
        if not _group_alive(child.pgid):
            _finish(child)
    else:
        _finish(child)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _signal_group(child: _Child, sig: int) -> None:
    signal_group(child.pgid, child.token, sig)


def _finish(child: _Child) -> None:
    if child.done:
        return
    child.done = True
    r = child.result
    if child.out is not None:
        r.stdout, r.stdout_truncated = child.out.value(), child.out.truncated
    if child.err is not None:
        r.stderr, r.stderr_truncated = child.err.value(), child.err.truncated
    r.duration_ms = (time.monotonic() - child.t0) * 1000.0


def _on_timeout(child: _Child, now: float) -> None:
    if not child.result.timed_out:
        child.result.timed_out = True
        _signal_group(child, _leftovers.SIGTERM)
        child.kill_at = now + KILL_GRACE_S
    elif child.kill_at is not None and now >= child.kill_at:
        _signal_group(child, _leftovers.SIGKILL)
        child.kill_at = None
        if child.exited:
            _finish(child)


def run_many(
    requests: Sequence[Spawn], during: Callable[[], None] | None = None
) -> list[Completed]:
    """Run every request concurrently; return their results in the same order.

    ``during`` (if given) is called once every process has been started, before
    waiting for them: the engine runs in-process hooks there, alongside.
    """
    sel = Poller()
    t0 = time.monotonic()
    children = [_Child(r, t0) for r in requests]
    batch = next(_BATCHES)
    try:
        for c in children:
            c.t0 = time.monotonic()
            c.deadline = c.t0 + max(c.req.timeout_s, 0.0)
            _start(c, sel, batch)
        if during is not None:
            during()
        _loop(children, sel)
    finally:
        for c in children:
            _cleanup(c, sel)
        sel.close()
    for c in children:
        if c.result.duration_ms == 0.0:
            c.result.duration_ms = (time.monotonic() - c.t0) * 1000.0
    return [c.result for c in children]


_BATCHES = itertools.count()  # numbers run_many calls (see start_process)


def run_one(request: Spawn) -> Completed:
    return run_many([request])[0]


def _next_wakeup(children: Sequence[_Child], now: float) -> float | None:
    wake: float | None = None
    for c in children:
        if c.done:
            continue
        t = c.kill_at if c.result.timed_out else c.deadline
        if c.result.timed_out and c.exited and c.kill_at is not None:
            t = min(c.kill_at, now + 0.02)  # poll whether the rest of the group has gone
        if c.pidfd is None and not c.exited:
            t = min(t if t is not None else now + 0.01, now + 0.01)  # no pidfd: poll for exit
        if t is not None:
            wake = t if wake is None else min(wake, t)
    return wake


def _loop(children: Sequence[_Child], sel: Poller) -> None:
    drive(
        sel,
        lambda now: _tick(children, sel, now),
        lambda data: _dispatch(sel, data),
        lambda: all(c.done for c in children),
        lambda: _reap_closed(children, sel),
    )


def _tick(children: Sequence[_Child], sel: Poller, now: float) -> float | None:
    """Timeouts, kill grace periods and (without pidfd) exit polling; the next wake-up time."""
    for c in children:
        if c.done:
            continue
        if c.exited:
            if c.result.timed_out and (
                c.kill_at is None or now >= c.kill_at or not _group_alive(c.pgid)
            ):
                if c.kill_at is not None and _group_alive(c.pgid):
                    _signal_group(c, _leftovers.SIGKILL)
                _finish(c)
            continue
        if (not c.result.timed_out and now >= c.deadline) or (
            c.result.timed_out and c.kill_at is not None and now >= c.kill_at
        ):
            _on_timeout(c, now)
        if c.pidfd is None and c.proc is not None and c.proc.poll() is not None:
            _reap(c, sel)
    return _next_wakeup(children, time.monotonic())


def _dispatch(sel: Poller, data: object) -> None:
    child: _Child
    which: str
    child, which = data  # type: ignore[misc]  # (child, "in" | "out" | "err" | "exit"), as registered
    if which == "exit":
        _reap(child, sel)
    elif which == "in":
        _write_stdin(child, sel)
    else:
        _read(child, which, sel)


def _reap_closed(children: Sequence[_Child], sel: Poller) -> None:
    """No pidfd: once both output streams closed, the child is about to exit."""
    for c in children:
        if (
            not c.exited
            and c.pidfd is None
            and c.proc is not None
            and c.out is not None
            and c.out.fd < 0
            and (c.err is None or c.err.fd < 0)
        ):
            remaining = c.deadline - time.monotonic()
            try:
                c.proc.wait(timeout=max(0.0, min(remaining, 0.05)))
            except Exception as exc:
                if not _timed_out(exc):
                    raise
                continue
            _reap(c, sel)


def _cleanup(child: _Child, sel: Poller) -> None:
    """Never leave a pipe or a pidfd open; never leave a timed-out process group alive."""
    if child.proc is None:
        return
    if not child.exited:
        _signal_group(child, _leftovers.SIGKILL)
        try:
            child.proc.wait(timeout=5)
        except Exception as exc:  # pragma: no cover
            if not _timed_out(exc):
                raise
    elif child.result.timed_out:
        _signal_group(child, _leftovers.SIGKILL)
    _close_stdin(child, sel)
    for which in ("out", "err"):
        _close_stream(child, which, sel)
    if child.pidfd is not None:
        unregister(sel, child.pidfd)
        os.close(child.pidfd)
        child.pidfd = None
    _finish(child)
