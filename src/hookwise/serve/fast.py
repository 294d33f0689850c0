"""``hookwise hook``'s fast path: hand the agent's hook call to a running ``hookwise serve`` over its
Unix socket (docs/fleet.md "The bridge's fast path").

One HTTP/1.1 request on a raw socket (``http.client`` alone costs more to import than the round
trip); :func:`call` returns ``None`` whenever the service cannot answer for this call (no socket,
nobody listening, a refusal, the project is not under its roots, a broken answer), and the caller
then runs the hooks in process. Imports :mod:`socket` and the JSON codec only when it calls.
"""

from __future__ import annotations

import os

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

#: the longest a fast-path call waits for the service before giving up (and running in process)
CONNECT_TIMEOUT_S = 0.5


def default_socket(env: Mapping[str, str]) -> str:
    """Where ``hookwise serve --socket`` listens by default and ``hookwise hook`` looks:
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


def call(
    sock_path: str, path: str, body: bytes, timeout_s: float, fail_closed: bool = False
) -> tuple[str, str, int] | None:
    """``(stdout, stderr, exit code)`` from the service's ``/bridge/…`` endpoint, or None (run in process)."""
    import socket  # only when a socket file exists: ``hookwise hook`` without a service never loads it

    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    except OSError:
        return None
    try:
        s.settimeout(CONNECT_TIMEOUT_S)
        s.connect(sock_path)
        s.settimeout(timeout_s)
        extra = "X-Hookwise-Fail-Closed: 1\r\n" if fail_closed else ""
        head = (
            f"POST {path} HTTP/1.1\r\nHost: hookwise\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n{extra}\r\n"
        )
        s.sendall(head.encode("ascii") + body)
        chunks = []
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    except OSError:
        return None
    finally:
        s.close()
    return _parse(b"".join(chunks))


def _parse(raw: bytes) -> tuple[str, str, int] | None:
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
    if not (isinstance(out, str) and isinstance(err, str) and isinstance(code, int)):
        return None
    return out, err, code
