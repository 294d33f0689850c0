"""``hookwise hook``'s leanest path: the agent's stdin, as raw bytes, to a warm ``hookwise serve``
on its Unix socket, and the service's answer back to the agent (docs/agents.md, "Performance").

:func:`forward` runs before the command line is parsed and before any of hookwise's firing machinery
is imported (``hookwise.cli.main.console``): it understands only
``hook AGENT [EVENT] [--fail-closed]`` and imports only the C modules it needs (:mod:`_socket`) and
the JSON codec, to read the service's reply. It returns ``None`` whenever the service cannot answer
this call (no socket file, nobody listening, a refusal, a broken reply): the caller then runs the
hooks in process, on the same stdin bytes (:func:`stdin_bytes` keeps them).
"""

from __future__ import annotations

import os

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

#: the longest a call waits to connect to the service before running in process
CONNECT_TIMEOUT_S = 0.5
#: the longest it waits for the answer (hooks may run long; the agent has its own timeout)
ANSWER_TIMEOUT_S = 3600.0

_stdin: bytes | None = None
#: the fast path already asked the service for this call (it is not asked twice: it may have run
#: hooks)
asked = False


def stdin_bytes() -> bytes:
    """The process's standard input, read once (the fast path may already have read it)."""
    global _stdin
    if _stdin is None:
        chunks = []
        try:
            while True:
                chunk = os.read(0, 1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
        except OSError:  # no stdin (closed): an empty payload, which the bridge reports
            pass
        _stdin = b"".join(chunks)
    return _stdin


def default_socket(env: Mapping[str, str]) -> str:
    """Where ``hookwise hook`` looks and ``hookwise serve --socket`` listens by default (the command
    reads it from here):
    ``$HOOKWISE_SOCKET``, else ``$XDG_RUNTIME_DIR/hookwise/serve.sock``, else
    ``${XDG_CACHE_HOME:-~/.cache}/hookwise/serve.sock``."""
    explicit = env.get("HOOKWISE_SOCKET")
    if explicit:
        return explicit
    runtime = env.get("XDG_RUNTIME_DIR")
    if runtime:
        return os.path.join(runtime, "hookwise", "serve.sock")
    cache = env.get("XDG_CACHE_HOME") or os.path.join(
        env.get("HOME") or os.path.expanduser("~"), ".cache"
    )
    return os.path.join(cache, "hookwise", "serve.sock")


def taken_stdin() -> bytes | None:
    """The stdin :func:`stdin_bytes` read, or None when nothing read it yet."""
    return _stdin


def request_path(argv: Sequence[str]) -> tuple[str, bool] | None:
    """``("/bridge/AGENT[/EVENT]", fail_closed)`` for ``AGENT [EVENT] [--fail-closed]``, else
    None."""
    words: list[str] = []
    fail_closed = False
    for a in argv:
        if a == "--fail-closed":
            fail_closed = True
        elif a.startswith("-") or "/" in a or not a:
            return None
        else:
            words.append(a)
    if not 1 <= len(words) <= 2:
        return None
    return "/bridge/" + "/".join(words), fail_closed


def forward(argv: Sequence[str], env: Mapping[str, str] | None = None) -> int | None:
    """Answer ``hookwise hook <argv>`` through a running service: write its stdout and stderr,
    return the exit status; None when the service cannot answer (nothing written, run in
    process)."""
    env = os.environ if env is None else env
    if env.get("HOOKWISE_SERVE") == "off":
        return None
    parsed = request_path(argv)
    if parsed is None:
        return None
    sock = default_socket(env)
    if not os.path.exists(sock):
        return None
    path, fail_closed = parsed
    fail_closed = fail_closed or env.get("HOOKWISE_FAIL_CLOSED") == "1"
    global asked
    asked = True
    reply = exchange(sock, path, stdin_bytes(), fail_closed)
    got = None if reply is None else parse_reply(reply)
    if got is None:
        return None
    out, err, code = got
    _write(1, out)
    _write(2, err)
    return code


def exchange(sock_path: str, path: str, body: bytes, fail_closed: bool) -> bytes | None:
    """One HTTP/1.1 request on the Unix socket; the raw reply, or None when the exchange failed."""
    import _socket  # the C module: :mod:`socket` loads selectors, enum and array besides

    extra = b"X-Hookwise-Fail-Closed: 1\r\n" if fail_closed else b""
    head = (
        b"POST "
        + path.encode("utf-8")
        + b" HTTP/1.1\r\nHost: hookwise\r\nContent-Type: application/json\r\nContent-Length: "
        + str(len(body)).encode("ascii")
        + b"\r\nConnection: close\r\n"
        + extra
        + b"\r\n"
    )
    try:
        s = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    except OSError:
        return None
    try:
        s.settimeout(CONNECT_TIMEOUT_S)
        s.connect(sock_path)
        s.settimeout(ANSWER_TIMEOUT_S)
        s.sendall(head + body)
        chunks = []
        while True:
            chunk = s.recv(1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    except OSError:
        return None
    finally:
        s.close()
    return b"".join(chunks)


def parse_reply(raw: bytes) -> tuple[bytes, bytes, int] | None:
    """``(stdout, stderr, exit code)`` of the service's ``{stdout, stderr, exitCode}`` reply, else
    None."""
    head, sep, body = raw.partition(b"\r\n\r\n")
    if not sep or not head.startswith(b"HTTP/1.1 200 "):
        return None
    from hookwise.jsonc.codec import loads

    try:
        data = loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    out, err, code = data.get("stdout"), data.get("stderr"), data.get("exitCode")
    if not (isinstance(out, str) and isinstance(err, str) and type(code) is int):
        return None
    return out.encode("utf-8", "replace"), err.encode("utf-8", "replace"), code


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            n = os.write(fd, view)
        except OSError:  # the agent closed the stream: nothing more can be said there
            return
        view = view[n:]
