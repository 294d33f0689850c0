"""Warm Python command hooks: a repeated ``python script.py`` hook forked from a waiting
interpreter.

In a process that fires the same Python command hook again and again (an agent host, an adapter,
``hookwise serve``, any program calling :meth:`HookSystem.fire`), almost all of a hook's time is its
own interpreter's start-up. A command that hookwise already runs without bash (:mod:`._direct`) and
that is exactly ``<python> <script>.py [args...]`` (no interpreter options) is, from its third
firing in this process on, forked from a *zygote*: the same interpreter binary, started once in the
hook's directory with the hook's environment, that waits on a socketpair (:mod:`._zygote` is its
program; it never imports hookwise). Each run hands it the argv, environment, directory and the
three pipes of the hook; the zygote's child leads a new session or a process group as a normal start
would (hookwise signals the process group at a timeout), becomes
``python script.py args`` and reports its pid; the zygote reports its exit status. The driver in
:mod:`._process` treats the child like any other process (pipes, caps, timeouts, process-group
kill).

A key is the interpreter (the word as written and the file it resolves to), the directory and the
variables that shape an interpreter's start-up (:func:`startup_env`). A key's zygote is started
after its second firing (a process that fires once, ``hookwise fire``, never starts one), and
replaced when the interpreter or a directory of its ``sys.path`` changed (a package installed
since). Whenever the zygote cannot serve a run (it ended, did not start, broke the protocol), the
hook is started the normal way and the firing carries a warning saying so; after
:data:`MAX_FAILURES` a key stays cold. ``HOOKWISE_WARM_PYTHON=0`` turns all of this off. What a warm
hook can still tell apart is listed in docs/performance.md.
"""

from __future__ import annotations

import _thread
import itertools
import os
import sys

from hookwise._records import TYPE_CHECKING
from hookwise.runners import _reaper

if TYPE_CHECKING:
    import socket
    import subprocess
    from collections.abc import Callable, Mapping
    from typing import IO, Any

    from hookwise.runners._process import Process, Spawn

    Started = tuple[Process | None, Spawn, str | None]

SWITCH = "HOOKWISE_WARM_PYTHON"
_OFF = frozenset({"0", "false", "no", "off"})
#: firings of a key that start its interpreter the normal way before its zygote is started
COLD_FIRINGS = 2
#: longest wait for a starting zygote (also at most half the hook's timeout); then the hook starts
#: cold
READY_WAIT_S = 2.0
#: longest wait for the zygote's answer to a run; then it counts as broken
REPLY_WAIT_S = 5.0
#: zygotes of one key that may fail before the key stays cold for the life of the process
MAX_FAILURES = 3
#: live zygotes per process at most (an idle one is about 10-20 MB); a new key ends the one used
#: longest ago
MAX_ZYGOTES = 4

#: the variables (besides PYTHON*, _PYTHON*, LC_* and PYENV_*) that change what an interpreter's
#: start-up does:
#: the home and search path, the locale (stdio encodings), the time zone, and the ones the ``.pth``
#: files of common tools read (setuptools' distutils hack, coverage's start-up hook)
STARTUP_NAMES = frozenset(
    {
        "HOME",
        "PATH",
        "LANG",
        "LANGUAGE",
        "TZ",
        "SETUPTOOLS_USE_DISTUTILS",
        "COVERAGE_PROCESS_START",
        "__PYVENV_LAUNCHER__",
    }
)
#: (``PYENV_``: a ``python3`` that is a pyenv shim picks its interpreter from ``PYENV_VERSION``)
STARTUP_PREFIXES = ("PYTHON", "_PYTHON", "LC_", "PYENV_")


#: fork, SCM_RIGHTS over a SOCK_SEQPACKET socketpair and pidfds: Linux (elsewhere hooks start
#: normally)
SUPPORTED = sys.platform.startswith("linux")


def enabled() -> bool:
    return SUPPORTED and os.environ.get(SWITCH, "1").strip().lower() not in _OFF


def interpreter_name(word: str) -> bool:
    """``python``, ``python3``, ``python3.12`` (any directory): a CPython command word."""
    base = word.rsplit("/", 1)[-1]
    rest = base[6:]
    return base.startswith("python") and all(c.isdigit() or c == "." for c in rest)


def startup_env(env: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(
        sorted(
            (k, v) for k, v in env.items() if k in STARTUP_NAMES or k.startswith(STARTUP_PREFIXES)
        )
    )


def key_of(req: Spawn) -> tuple[object, ...] | None:
    """The zygote key of a request, or None when it is not a plain ``python script.py`` run."""
    argv = req.argv
    if req.executable is None or len(argv) < 2 or not interpreter_name(argv[0]):
        return None
    script = argv[1]
    if not script.endswith(".py") or script.startswith("-"):
        return None
    if req.env.get("PYTHONINSPECT") or req.env.get("PYTHONTRACEMALLOC"):
        return None  # an interactive prompt after the script; allocations traced from start-up on
    return (argv[0], req.executable, req.cwd, startup_env(req.env))


# --------------------------------------------------------------------------------------- the zygote
_PROGRAM: list[str] = []


def _program() -> str:
    if not _PROGRAM:
        with open(os.path.join(os.path.dirname(__file__), "_zygote.py"), encoding="utf-8") as f:
            _PROGRAM.append(f.read())
    return _PROGRAM[0]


def _own_group() -> dict[str, Any]:
    """Popen's arguments for a zygote: in this process's session, in a process group of its own
    (Python 3.11+; a new session before), so that a child that leads only a process group is in this
    session, as a hook started the normal way is."""
    return {"process_group": 0} if sys.version_info >= (3, 11) else {"start_new_session": True}


def _stat(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_ino, st.st_mtime_ns)


class Zygote:
    """One warm interpreter and the socket to it. Every use holds :attr:`lock`."""

    def __init__(self, req: Spawn, proc: subprocess.Popen[bytes], sock: socket.socket) -> None:
        self.proc = proc
        self.sock = sock
        self.lock = _thread.allocate_lock()
        self.exe = (
            req.executable
            if req.executable is None or req.executable.startswith("/")
            else os.path.join(req.cwd, req.executable)
        )
        self.ready = False
        self.gone: str | None = None  # why it can serve no more runs
        self.deliberate = False  # hookwise retired it (stale, too many zygotes): not a failure
        self.running: set[int] = set()  # its children whose exit status was not taken yet
        self.batch = -1  # the run_many call that started it
        self.unsupported = False
        self.paths: list[str] = []
        self.stamp: list[tuple[int, int] | None] = []
        self.reply: list[bytes] | None = None
        self.statuses: dict[int, int] = {}
        self.ignored: set[int] = set()

    @classmethod
    def start(cls, req: Spawn) -> Zygote:
        """Start the interpreter of ``req`` as a zygote (OSError when it cannot be started)."""
        import socket
        import subprocess

        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            try:
                ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
            except OSError:  # pragma: no cover - the system's limit applies
                pass
            proc = subprocess.Popen(
                # its hooks lead a new session or only a process group, as cold ones
                # (_process.new_session)
                [
                    req.argv[0],
                    "-c",
                    _program(),
                    str(theirs.fileno()),
                    "1" if _reaper.new_session() else "0",
                ],
                executable=req.executable,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=req.cwd,
                env=req.env,
                pass_fds=(theirs.fileno(),),
                **_own_group(),
                close_fds=True,
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.close()  # its stdio are pipes like a hook's (same buffering); it never uses them
        os.set_blocking(
            proc.stdout.fileno(), False
        )  # read once it is ready: start-up must print nothing
        os.set_blocking(proc.stderr.fileno(), False)
        ours.settimeout(REPLY_WAIT_S)
        z = cls(req, proc, ours)
        return z

    # -- reading what it sends
    def _pump(self, timeout: float) -> None:
        """Read the zygote's messages that arrive within ``timeout`` seconds (at least what is
        there)."""
        import select

        if self.gone is not None:
            return
        poller = select.poll()
        poller.register(self.sock.fileno(), select.POLLIN)
        wait_ms = max(0, int(timeout * 1000))
        while poller.poll(wait_ms):
            wait_ms = 0
            try:
                data = self.sock.recv(1 << 16)
            except BlockingIOError:  # pragma: no cover
                return
            except OSError as exc:
                self.retire(f"its socket failed: {exc}")
                return
            if not data:
                self.retire(self._exit_text())
                return
            try:
                self._take(data.split(b"\0"))
            except (ValueError, IndexError):
                self.retire(f"it sent a malformed message {data[:40]!r}")
                return

    def _take(self, msg: list[bytes]) -> None:
        kind = msg[0]
        if kind == b"E" and len(msg) == 3:
            pid = int(msg[1])
            if pid in self.ignored:
                self.ignored.discard(pid)
            else:
                self.statuses[pid] = int(msg[2])
        elif kind == b"R":
            self.ready = True
            self.paths = [os.fsdecode(p) for p in msg[2:]]
            self.stamp = self._stamp()
            if self._printed():  # a hook would see that output on every cold start: never warm
                self.unsupported = True
                self.retire("its start-up prints output (PYTHONVERBOSE, a .pth file...)")
        elif kind == b"U":
            self.unsupported = True
            self.retire(
                f"Python {msg[1].decode(errors='replace')} is not served (3.10 or later is)"
            )
        elif kind in (b"P", b"X", b"F"):
            self.reply = msg
        else:
            self.retire(f"it sent an unknown message {kind!r}")

    def _printed(self) -> bool:
        """Whether the interpreter's start-up wrote to its stdout or stderr."""
        for f in (self.proc.stdout, self.proc.stderr):
            try:
                if f is not None and os.read(f.fileno(), 1):
                    return True
            except OSError:  # BlockingIOError: nothing there
                pass
        return False

    def _exit_text(self) -> str:
        rc = None
        try:
            rc = self.proc.wait(timeout=0.5)
        except Exception:  # noqa: BLE001 - subprocess.TimeoutExpired: still running
            pass
        err = b""
        if self.proc.stderr is not None:
            try:
                err = self.proc.stderr.read() or b""
            except OSError:
                pass
        lines = err.decode("utf-8", "replace").strip().splitlines()
        how = "it ended" if rc is None else f"it ended with status {rc}"
        return how + (f": {lines[-1]}" if lines else "")

    def retire(self, why: str, deliberate: bool = False) -> None:
        """Serve no more runs (``why``); ``deliberate``: replaced by hookwise, not a failure."""
        if self.gone is None:
            self.gone = why
            self.deliberate = deliberate
            self.close(wait=False)

    def _stamp(self) -> list[tuple[int, int] | None]:
        return [_stat(p) for p in (self.exe or "", *self.paths)]

    def fresh(self) -> bool:
        """The interpreter file and its ``sys.path`` directories are as they were when it
        started."""
        return self._stamp() == self.stamp

    # -- runs
    def wait_ready(self, timeout: float) -> bool:
        self._pump(0.0)
        if not self.ready and self.gone is None and timeout > 0:
            end = _now() + timeout
            while not self.ready and self.gone is None and _now() < end:
                self._pump(min(0.05, end - _now()))
        return self.ready and self.gone is None

    def run(self, req: Spawn, env: Mapping[str, str], notes: list[str]) -> WarmProcess | None:
        """Start ``req`` by a fork of this zygote; None when it cannot (then ``gone`` may say
        why)."""
        payload = _payload(req, env)
        if payload is None:
            return None
        r_in, w_in = os.pipe()
        r_out, w_out = os.pipe()
        r_err, w_err = os.pipe() if not req.merge_stderr else (-1, w_out)
        theirs = [r_in, w_out, w_err]
        ours = [w_in, r_out, r_err]
        pid = None
        try:
            pid = self._request(payload, theirs)
        finally:
            for fd in {r_in, w_out, w_err}:
                os.close(fd)
            if pid is None:
                for fd in {w_in, r_out, r_err} - {-1}:
                    os.close(fd)
        if pid is None:
            return None
        return WarmProcess(
            self,
            pid,
            list(req.argv),
            open(ours[0], "wb", buffering=0),
            open(ours[1], "rb", buffering=0),
            open(ours[2], "rb", buffering=0) if ours[2] >= 0 else None,
            notes,
        )

    def _request(self, payload: bytes, fds: list[int]) -> int | None:
        import socket

        self.reply = None
        try:
            socket.send_fds(self.sock, [payload], fds)
        except OSError as exc:
            if (
                exc.errno == 90
            ):  # EMSGSIZE: an environment larger than a message; this run starts cold
                return None
            self.retire(f"sending it the run failed: {exc}")
            return None
        end = _now() + REPLY_WAIT_S
        while self.reply is None and self.gone is None and _now() < end:
            self._pump(min(0.05, end - _now()))
        reply, self.reply = self.reply, None
        if reply is None:
            if self.gone is None:
                self.retire(f"it did not answer within {REPLY_WAIT_S:g} s")
            return None
        if reply[0] == b"P":
            self.running.add(int(reply[1]))
            return int(reply[1])
        if (
            reply[0] == b"X"
        ):  # the child could not be set up (its directory): the normal start reports it
            self.ignored.add(int(reply[1]))
            return None
        self.retire(f"it could not fork (errno {reply[1].decode(errors='replace')})")
        return None

    def status(self, pid: int, timeout: float | None) -> int | None:
        """``pid``'s exit status as :class:`subprocess.Popen` gives it, or None when not known in
        ``timeout``."""
        end = None if timeout is None else _now() + timeout
        while True:
            with self.lock:
                raw = self.statuses.pop(pid, None)
                if raw is not None:
                    self.running.discard(pid)
                    return os.waitstatus_to_exitcode(raw)
                if self.gone is not None:
                    return None
                left = 0.05 if end is None else min(0.05, end - _now())
                if left <= 0:
                    return None
                self._pump(left)

    def close(self, wait: bool = True) -> None:
        try:
            self.sock.close()  # the zygote reads end of file and exits
        except OSError:  # pragma: no cover
            pass
        for f in (self.proc.stdout, self.proc.stderr):
            try:
                if f is not None:
                    f.close()
            except OSError:  # pragma: no cover
                pass
        if wait:
            if (
                not self.ready
            ):  # still starting up (it would only read end of file then): do not wait for that
                self.proc.kill()
            try:
                self.proc.wait(timeout=1.0)
            except Exception:  # noqa: BLE001 - still running after its socket closed: end it
                self.proc.kill()
                self.proc.wait()


def _now() -> float:
    import time

    return time.monotonic()


def _payload(req: Spawn, env: Mapping[str, str]) -> bytes | None:
    """The run request, or None when something in it is not valid for exec (the normal start reports
    it)."""
    fields = [
        os.fsencode(req.executable or req.argv[0]),
        os.fsencode(req.cwd),
        b"%d" % len(req.argv),
    ]
    fields += [os.fsencode(a) for a in req.argv]
    for k, v in env.items():
        if not k or "=" in k:
            return None
        fields.append(os.fsencode(k) + b"=" + os.fsencode(v))
    if any(b"\0" in f for f in fields):
        return None
    return b"\0".join(fields)


class WarmProcess:
    """A hook forked by a zygote: what :mod:`._process`'s driver uses of :class:`subprocess.Popen`.

    The zygote is its parent, so its exit status comes from the zygote (:meth:`Zygote.status`). If
    the zygote ends while the hook runs, the status is lost: the hook's process group is killed and
    the firing says so.
    """

    def __init__(
        self,
        zygote: Zygote,
        pid: int,
        args: list[str],
        stdin: IO[bytes],
        stdout: IO[bytes],
        stderr: IO[bytes] | None,
        notes: list[str],
    ) -> None:
        self.zygote = zygote
        self.pid = pid
        self.args = args
        self.stdin: IO[bytes] | None = stdin
        self.stdout: IO[bytes] | None = stdout
        self.stderr = stderr
        self.returncode: int | None = None
        self.notes = notes

    def poll(self) -> int | None:
        if self.returncode is None:
            self._settle(self.zygote.status(self.pid, 0.0))
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self._settle(self.zygote.status(self.pid, timeout))
        if self.returncode is None:
            import subprocess

            raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
        return self.returncode

    def _settle(self, status: int | None) -> None:
        if status is not None:
            self.returncode = status
        elif self.zygote.gone is not None:
            try:
                os.killpg(self.pid, _reaper.SIGKILL)
            except OSError:
                pass
            self.returncode = -_reaper.SIGKILL
            self.notes.append(
                f"warm Python: the interpreter that started this hook ended ({self.zygote.gone}); "
                "its exit status is unknown and its process group was killed"
            )


# ----------------------------------------------------------------------------------------- the keys
class _Slot:
    """One key: how many firings started it cold, then its zygote."""

    __slots__ = ("firings", "last_batch", "zygote", "failures", "used")

    def __init__(self) -> None:
        self.firings = 0
        self.last_batch = -1
        self.zygote: Zygote | None = None
        self.failures = 0
        self.used = 0.0  # when its zygote last served (or started)


_SLOTS: dict[tuple[object, ...], _Slot] = {}
_LOCK = _thread.allocate_lock()
_EXIT_HOOKED: list[bool] = []
_ZYGOTES_STARTED = itertools.count()


def start(
    req: Spawn,
    token: str,
    batch: int,
    notes: list[str],
    popen: Callable[[Spawn, str], Started],
) -> Started:
    """Start ``req``: by a zygote when its key has one ready, else with ``popen`` (counting the
    firing)."""
    key = key_of(req) if enabled() else None
    if key is None:
        return popen(req, token)
    with _LOCK:
        slot = _SLOTS.get(key)
        if slot is None:
            slot = _SLOTS[key] = _Slot()
    zygote = slot.zygote
    if zygote is not None:
        # not waited for in the firing that started it (its hooks all start now, as they would cold)
        wait = 0.0 if zygote.batch == batch else min(READY_WAIT_S, req.timeout_s / 2)
        proc = _warm_run(slot, zygote, req, _reaper.child_env(req.env, token), notes, wait)
        if proc is not None:
            slot.used = _now()
            return proc, req, None
    started = popen(req, token)
    if started[0] is not None:
        _count(slot, req, batch, notes)
    return started


def _warm_run(
    slot: _Slot, zygote: Zygote, req: Spawn, env: dict[str, str], notes: list[str], wait: float
) -> WarmProcess | None:
    with zygote.lock:
        if zygote.gone is None and zygote.wait_ready(wait):
            if not zygote.fresh():  # a package installed, the interpreter replaced: start anew
                if zygote.running:  # not while it still has children to report on
                    return None
                zygote.retire("stale", deliberate=True)
            else:
                proc = zygote.run(req, env, notes)
                if proc is not None or zygote.gone is None:
                    return proc
        elif zygote.gone is None:  # still starting: this run starts cold
            return None
    failed = not (zygote.unsupported or zygote.deliberate)
    _retire(slot, zygote, failed)
    if failed:
        stays = " for the rest of this process" if slot.failures >= MAX_FAILURES else ""
        notes.append(
            f"warm Python: the warm interpreter for {req.argv[0]} could not start this hook "
            f"({zygote.gone}); it was started the normal way{stays}"
        )
    return None


def _retire(slot: _Slot, zygote: Zygote, failed: bool) -> None:
    with _LOCK:
        if slot.zygote is zygote:
            slot.zygote = None
            slot.firings = 0
            if failed:
                slot.failures += 1
            if zygote.unsupported:
                slot.failures = MAX_FAILURES


def _count(slot: _Slot, req: Spawn, batch: int, notes: list[str]) -> None:
    """One more cold firing of ``slot``'s key; after :data:`COLD_FIRINGS` of them, start its
    zygote."""
    with _LOCK:
        if batch != slot.last_batch:
            slot.last_batch = batch
            slot.firings += 1
        if slot.zygote is not None or slot.firings < COLD_FIRINGS or slot.failures >= MAX_FAILURES:
            return
        _make_room()
        try:
            slot.zygote = Zygote.start(req)
            slot.zygote.batch = batch
            slot.used = _now()
        except (OSError, ValueError) as exc:
            slot.failures += 1
            notes.append(
                f"warm Python: the warm interpreter for {req.argv[0]} could not be started "
                f"({exc}); hooks it runs start the normal way"
            )
            return
        next(_ZYGOTES_STARTED)
        if not _EXIT_HOOKED:
            import atexit

            atexit.register(close_all)
            os.register_at_fork(after_in_child=_forget)
            _EXIT_HOOKED.append(True)


def _make_room() -> None:
    """Below :data:`MAX_ZYGOTES` live zygotes: end the idle one used longest ago (its key starts
    cold again)."""
    live = [s for s in _SLOTS.values() if s.zygote is not None]
    idle = [s for s in live if s.zygote is not None and not s.zygote.running]
    if len(live) < MAX_ZYGOTES or not idle:
        return
    oldest = min(idle, key=lambda s: s.used)
    z = oldest.zygote
    assert z is not None
    oldest.zygote = None
    oldest.firings = 0
    with z.lock:
        z.retire("replaced by the zygote of another interpreter or directory", deliberate=True)


def close_all() -> None:
    """End every zygote of this process (at exit)."""
    with _LOCK:
        zygotes = [s.zygote for s in _SLOTS.values() if s.zygote is not None]
        _SLOTS.clear()
    for z in zygotes:
        z.close()


def _forget() -> None:
    """In a fork of this process: the zygotes belong to the parent; close our copies of their
    sockets."""
    global _LOCK
    _LOCK = _thread.allocate_lock()  # another thread of the parent may have held it
    for s in _SLOTS.values():
        if s.zygote is not None:
            try:
                s.zygote.sock.close()
            except OSError:  # pragma: no cover
                pass
    _SLOTS.clear()


def zygote_pids() -> list[int]:
    """The pids of this process's live zygotes (for tests and diagnostics)."""
    with _LOCK:
        return [
            s.zygote.proc.pid
            for s in _SLOTS.values()
            if s.zygote is not None and s.zygote.gone is None
        ]
