"""A small HTTP client for a ``hookwise serve`` listening on a Unix socket (or TCP).

:func:`post` sends one hook request body and returns the status and the decoded JSON answer;
``hookwise hook``'s fast path and the tests use it.
"""

from __future__ import annotations

import http.client
import socket
from typing import Any

from hookwise.jsonc.codec import loads


class UnixConnection(http.client.HTTPConnection):
    """``http.client`` over a Unix stream socket."""

    def __init__(self, path: str, timeout: float = 60.0) -> None:
        super().__init__("localhost", timeout=timeout)
        self.unix_path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        try:
            sock.connect(self.unix_path)
        except OSError:
            sock.close()
            raise
        self.sock = sock


def connection(address: str, timeout: float = 60.0) -> http.client.HTTPConnection:
    """A connection to ``unix:PATH`` or ``http://host:port``."""
    if address.startswith("unix:"):
        return UnixConnection(address[5:], timeout)
    hostport = address.split("://", 1)[-1].rstrip("/")
    return http.client.HTTPConnection(hostport, timeout=timeout)


def post(
    conn: http.client.HTTPConnection,
    path: str,
    body: bytes,
    token: str | None = None,
) -> tuple[int, Any]:
    """POST ``body`` (JSON) to ``path``; the status and the parsed answer (None when it is not
    JSON)."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    conn.request("POST", path, body=body, headers=headers)
    resp = conn.getresponse()
    data = resp.read()
    try:
        return resp.status, loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return resp.status, None
