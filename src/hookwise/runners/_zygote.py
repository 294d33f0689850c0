# hookwise warm interpreter: forks repeated `python script.py` hooks (docs/performance.md, "Warm
# Python hooks")
"""The warm interpreter ("zygote") that starts repeated Python command hooks by forking.

Never imported by hookwise: :mod:`hookwise.runners._warm` reads this file as text and runs it with
the hook's own interpreter as ``<python> -c <this text> <fd>`` (the interpreter may belong to
another virtual environment, so nothing here imports hookwise). It is single-threaded, so forking is
safe.

The socket ``fd`` is one end of a ``SOCK_SEQPACKET`` socketpair (no path in the file system): every
message is one record of fields joined by NUL bytes.

hookwise -> zygote, one run: ``exe, cwd, argc, argv..., env items ("NAME=value")...`` with three
descriptors attached (SCM_RIGHTS): the hook's stdin, stdout and stderr.

zygote (or its child) -> hookwise:

* ``R pid`` then this interpreter's ``sys.path`` directories: ready;
* ``U version``: an interpreter this program does not serve (the zygote exits);
* ``P pid`` (from the child): started; it leads a new session, its descriptors and directory are in
  place;
* ``X pid errno`` (from the child): it could not be set up (say its directory is gone); it exits
  127;
* ``F errno``: fork failed;
* ``E pid status``: a child was reaped (the raw wait status).

The child then becomes ``python script.py args...``: the environment, directory, ``sys.argv``,
``sys.orig_argv``, ``sys.path[0]``, a fresh ``__main__`` module and ``sys.path_importer_cache`` as
CPython's own start-up sets them; the modules this program imported are removed again. Whatever it
cannot reproduce (a script that is not a ``.py`` source file, a zip, a directory, a missing file) it
exec's the real interpreter for, so the hook still sees exactly what ``python`` does. It leaves by
the interpreter's own finalisation: threads joined, atexit handlers, streams flushed (120 when that
fails), ``SystemExit`` codes and messages, a traceback and exit 1 for an uncaught exception.
"""

# ruff: noqa: UP037 - quoted annotations: no `from __future__ import annotations`, which would import a module

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from _socket import socket as Sock
    from typing import Any, NoReturn

    Job = tuple[list[bytes], list[int]]  # a run request's fields and descriptors
    Run = tuple[bytes, list[bytes], list[bytes]]  # exe, argv, environment items

_MODULES = set(sys.modules)  # what start-up imported: the child drops anything this program adds
_IMPORTERS = set(sys.path_importer_cache)
_SAFE_PATH = bool(getattr(sys.flags, "safe_path", False))
_PATH0 = not _SAFE_PATH and bool(sys.path) and sys.path[0] == ""
if _PATH0:  # -c put the current directory first; our own imports must not look there
    del sys.path[0]


#: hookwise's choice for its hooks: a new session ("1") or only a process group of their own ("0")
_NEW_SESSION = len(sys.argv) < 3 or sys.argv[2] != "0"


def _send(sock: "Sock", *fields: "bytes | int | str") -> None:
    sock.send(b"\0".join(f if isinstance(f, bytes) else str(f).encode() for f in fields))


def _receive(sock: "Sock") -> "Job | None":
    """One run request ``(fields, fds)``, or None at end of file (hookwise closed its end or
    exited)."""
    import _socket

    data, ancillary, _flags, _addr = sock.recvmsg(1 << 20, _socket.CMSG_SPACE(3 * 4))
    fds = []
    for level, kind, payload in ancillary:
        if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
            usable = len(payload) - len(payload) % 4
            fds += [int.from_bytes(payload[i : i + 4], sys.byteorder) for i in range(0, usable, 4)]
    if not data:
        for fd in fds:
            os.close(fd)
        return None
    return data.split(b"\0"), fds


def _reap(sock: "Sock", wake: int) -> None:
    try:
        while os.read(wake, 512):
            pass
    except BlockingIOError:
        pass
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _send(sock, b"E", pid, status)


def _fork(sock: "Sock", job: "Job") -> int:
    try:
        pid = os.fork()
    except OSError as exc:
        _send(sock, b"F", exc.errno or 0)
        pid = -1
    if pid != 0:
        for fd in job[1]:
            os.close(fd)
    return pid


def _serve(sock: "Sock", wake: int) -> "Job | None":
    """Answer run requests until end of file (None); in a forked child, return its request."""
    import select

    poller = select.poll()
    poller.register(sock.fileno(), select.POLLIN)
    poller.register(wake, select.POLLIN)
    while True:
        for fd, _event in poller.poll():
            if fd == wake:
                _reap(sock, wake)
                continue
            job = _receive(sock)
            if job is None:
                return None
            if _fork(sock, job) == 0:
                return job


def _start(fd: int) -> "Run | None":
    import _signal
    import _socket

    sock = _socket.socket(fileno=fd)
    if sys.version_info < (3, 10):  # noqa: UP036 - this runs on the hook's interpreter, any version
        _send(sock, b"U", sys.version.split()[0])
        return None
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    _signal.signal(_signal.SIGCHLD, lambda signum, frame: None)
    _signal.set_wakeup_fd(wake_w, warn_on_full_buffer=False)
    paths = [os.fsencode(p) for p in sys.path if p]
    import gc

    # start-up's objects: never traversed by a child's collections (copy-on-write stays cheap)
    gc.freeze()
    _send(sock, b"R", os.getpid(), *paths)
    job = _serve(sock, wake_r)
    if job is None:
        return None
    return _child(sock, (wake_r, wake_w), job)


def _child(sock: "Sock", wake: "tuple[int, int]", job: "Job") -> "Run":
    """In the forked child: a new session (or process group), the hook's descriptors and directory;
    report the pid."""
    import _signal

    fields, fds = job
    try:
        if (
            _NEW_SESSION
        ):  # as a hook started the normal way (hookwise's runners/_process.py: new_session)
            os.setsid()
        else:
            os.setpgid(0, 0)
        _signal.set_wakeup_fd(-1)
        _signal.signal(_signal.SIGCHLD, _signal.SIG_DFL)
        for fd in wake:
            os.close(fd)
        if len(fds) != 3:
            raise OSError(0, "expected three descriptors")
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        for fd in set(fds):
            if fd > 2:
                os.close(fd)
        argc = int(fields[2])
        os.chdir(fields[1])
    except (OSError, ValueError, IndexError) as exc:
        _send(sock, b"X", os.getpid(), getattr(exc, "errno", 0) or 0)
        os._exit(127)
    _send(sock, b"P", os.getpid())
    sock.close()
    return fields[0], fields[3 : 3 + argc], fields[3 + argc :]


def _exec_python(exe: bytes, argv: "list[bytes]", env: "list[bytes]") -> "NoReturn":
    """Become the real ``python script.py``: for what this program does not reproduce itself."""
    import _signal

    for name in (
        "SIGPIPE",
        "SIGXFSZ",
    ):  # as Popen's restore_signals leaves them for a fresh interpreter
        if hasattr(_signal, name):
            _signal.signal(getattr(_signal, name), _signal.SIG_DFL)
    try:
        os.execve(exe, argv, dict(item.split(b"=", 1) for item in env))
    except OSError:
        os._exit(127)


def _source(filename: str) -> "bytes | None":
    """The script's bytes when CPython would run it as a plain source file (see also
    :func:`_importer`)."""
    if not filename.endswith(".py"):
        return None
    try:
        with open(filename, "rb") as f:
            data = f.read()
    except OSError:
        return None
    magic = sys.modules["_frozen_importlib_external"].MAGIC_NUMBER
    return None if data[:2] == magic[:2] else data  # CPython would read it as compiled code


def _importer(filename: str) -> object:
    """What CPython's start-up asks of the script path (and caches): a path hook that takes it runs
    it."""
    cache = sys.path_importer_cache
    cache[filename] = None
    for hook in sys.path_hooks:
        try:
            importer = hook(filename)
        except ImportError:
            continue
        cache[filename] = importer
        return importer
    return None


def _become(
    exe: bytes, argv: "list[bytes]", env: "list[bytes]"
) -> "tuple[bytes, str, dict[str, Any]]":
    """Set up ``python script.py args``; returns ``(code, globals)`` to run, or exec's the real
    python."""
    environ = os.environb
    environ.clear()
    for item in env:
        name, _, value = item.partition(b"=")
        environ[name] = value
    for module in set(sys.modules) - _MODULES:
        del sys.modules[module]
    for path in set(sys.path_importer_cache) - _IMPORTERS:
        del sys.path_importer_cache[path]
    args = [os.fsdecode(a) for a in argv]
    script = args[1]
    filename = script if script.startswith("/") else os.getcwd() + "/" + script
    data = _source(filename)
    if data is None or _importer(filename) is not None:
        _exec_python(exe, argv, env)
    sys.argv = args[1:]
    sys.orig_argv = args
    if _PATH0:
        sys.path.insert(0, os.path.dirname(os.path.realpath(script)))
    main = type(sys)("__main__")
    g = main.__dict__
    g["__annotations__"] = {}
    g["__builtins__"] = sys.modules["builtins"]
    g["__file__"] = filename
    g["__cached__"] = None
    g["__loader__"] = sys.modules["_frozen_importlib_external"].SourceFileLoader(
        "__main__", filename
    )
    sys.modules["__main__"] = main
    return data, filename, g


def _uncaught(exc: BaseException, g: "dict[str, Any]") -> BaseException:
    """What CPython does with an exception out of ``__main__``: sys.last_*, sys.excepthook, exit
    status."""
    tb = exc.__traceback__
    tb = tb.tb_next if tb is not None else None  # the frame that ran the script is not the hook's
    exc.__traceback__ = tb
    sys.last_type, sys.last_value, sys.last_traceback = type(exc), exc, tb
    if sys.version_info >= (3, 12):
        sys.last_exc = exc
    sys.excepthook(type(exc), exc, tb)
    g.pop("__file__", None)
    g.pop("__cached__", None)
    if isinstance(exc, KeyboardInterrupt):  # exit by SIGINT after finalisation, as CPython does
        sys.excepthook = lambda *a: None
        return exc
    return SystemExit(1)


if __name__ == "__main__":
    _job = _start(int(sys.argv[1]))
    if _job is not None:
        _code, _filename, _g = _become(*_job)
        del _job
        # run at this level (one frame above the script's, as few as can be); no name of this frame
        # may keep the script's globals alive, or the interpreter's finalisation would not clear
        # them (open files flushed, __del__ methods) as it does for a script it ran itself
        try:
            exec(compile(_code, _filename, "exec", dont_inherit=True), _g)
        except SystemExit:
            del _g
            raise
        except BaseException as _exc:
            _end = _uncaught(_exc, _g)
            del _g
            raise globals().pop("_end") from None
        _g.pop("__file__", None)
        _g.pop("__cached__", None)
        del _g
