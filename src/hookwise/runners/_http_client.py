"""The HTTP client of ``"type": "http"`` hooks (docs/hook-types.md): POST the input JSON, read the
answer.

Standard library only (:mod:`http.client`). One :class:`HttpClient` per hook
system keeps idle keep-alive connections per ``(scheme, host, port)``, so a
hook fired many times pays for one TCP (and TLS) handshake. Every wait is
bounded by the hook's deadline: the connect, the wait for the status line, and
each read of the body (a server that stops after the headers, or that streams
forever, ends as a timeout). The body is capped; a redirect is followed only
to the same scheme, host and port.

What an HTTP answer means is :func:`interpret_response`; the URL check, the
header interpolation and the allow-list are pure rules in :mod:`hookwise.core.hook_kinds`.
"""

from __future__ import annotations

import http.client
import socket
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

from hookwise.core.interpret import Interpretation, parse_object
from hookwise.result import Outcome

#: redirects followed (to the same origin only) before giving up
MAX_REDIRECTS = 3
#: idle connections kept per origin
MAX_IDLE_PER_ORIGIN = 4
_READ_CHUNK = 1 << 16
_STALE = (
    http.client.RemoteDisconnected,
    ConnectionResetError,
    BrokenPipeError,
    ConnectionAbortedError,
)

Origin = tuple[str, str, int]


# --------------------------------------------------------------------------- pure rules


def interpret_response(url: str, status: int, reason: str, body: bytes) -> Interpretation:
    """A complete answer: 2xx + JSON object = that object; 2xx + empty = no output; anything else
    fails."""
    text = body.decode("utf-8", "replace").strip()
    if 200 <= status < 300:
        if not text:
            return Interpretation(Outcome.OK, None, None)
        obj = parse_object(text)
        if obj is not None:
            return Interpretation(Outcome.OK, obj, None, True)
        return Interpretation(
            Outcome.FAILED,
            None,
            f"POST {url} answered {status} with a body that is not a JSON object: {_snippet(text)}",
        )
    detail = f": {_snippet(text)}" if text else ""
    return Interpretation(
        Outcome.FAILED, None, f"POST {url} answered HTTP {status} {reason}".rstrip() + detail
    )


def _snippet(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= 120 else line[:117] + "..."


# --------------------------------------------------------------------------- the client


@dataclass
class HttpAnswer:
    """What one POST produced: an interpretation (outcome, output, error) and how long it took."""

    interpretation: Interpretation
    duration_ms: float
    status: int | None = None
    body: str = ""


class _Failure(Exception):
    def __init__(self, message: str, timed_out: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out


class HttpClient:
    """POSTs with keep-alive connection reuse per origin; safe to use from several threads."""

    def __init__(self) -> None:
        self._idle: dict[Origin, list[http.client.HTTPConnection]] = {}
        self._lock = threading.Lock()
        self._ssl_context: Any = None
        self.connections_opened = 0

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, {}
        for conns in idle.values():
            for c in conns:
                c.close()

    def _new(self, origin: Origin, timeout: float) -> http.client.HTTPConnection:
        scheme, host, port = origin
        self.connections_opened += 1
        if scheme == "https":
            if self._ssl_context is None:
                import ssl  # only for https hooks: loading OpenSSL costs start-up time

                self._ssl_context = ssl.create_default_context()
            return http.client.HTTPSConnection(
                host, port, timeout=timeout, context=self._ssl_context
            )
        return http.client.HTTPConnection(host, port, timeout=timeout)

    def _checkout(self, origin: Origin) -> http.client.HTTPConnection | None:
        with self._lock:
            conns = self._idle.get(origin)
            return conns.pop() if conns else None

    def _checkin(self, origin: Origin, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            conns = self._idle.setdefault(origin, [])
            if len(conns) < MAX_IDLE_PER_ORIGIN:
                conns.append(conn)
                return
        conn.close()

    def post(
        self, url: str, body: bytes, headers: Mapping[str, str], timeout_s: float, cap: int
    ) -> HttpAnswer:
        """POST ``body`` to ``url``; every failure is an answer (``failed`` or ``timeout``), never
        an exception."""
        t0 = time.monotonic()
        deadline = t0 + timeout_s
        try:
            status, reason, data = self._exchange(url, body, headers, deadline, cap)
        except _Failure as exc:
            outcome = Outcome.TIMEOUT if exc.timed_out else Outcome.FAILED
            return HttpAnswer(
                Interpretation(outcome, None, str(exc)), (time.monotonic() - t0) * 1000
            )
        it = interpret_response(url, status, reason, data)
        return HttpAnswer(
            it, (time.monotonic() - t0) * 1000, status, data.decode("utf-8", "replace")
        )

    def _exchange(
        self, url: str, body: bytes, headers: Mapping[str, str], deadline: float, cap: int
    ) -> tuple[int, str, bytes]:
        current = url
        for _hop in range(MAX_REDIRECTS + 1):
            parts = urlsplit(current)
            scheme = parts.scheme
            origin: Origin = (
                scheme,
                parts.hostname or "",
                parts.port or (443 if scheme == "https" else 80),
            )
            target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            conn, resp = self._send(url, origin, target, body, headers, deadline)
            status, reason = resp.status, resp.reason or ""
            location = resp.getheader("Location") if 300 <= status < 400 else None
            data = self._read_body(url, conn, resp, deadline, cap)
            if resp.will_close:
                conn.close()
            else:
                self._checkin(origin, conn)
            if location is None:
                return status, reason, data
            nxt = urljoin(current, location)
            np = urlsplit(nxt)
            try:
                nport = np.port or (443 if np.scheme == "https" else 80)
            except ValueError:
                raise _Failure(
                    f"POST {url} was redirected to a malformed URL {location!r}"
                ) from None
            if (np.scheme, np.hostname or "", nport) != origin:
                raise _Failure(
                    f"POST {url} was redirected to another host ({nxt}); redirects are followed "
                    "only to the same scheme, host and port"
                )
            current = nxt
        raise _Failure(f"POST {url} was redirected more than {MAX_REDIRECTS} times")

    def _send(
        self,
        url: str,
        origin: Origin,
        target: str,
        body: bytes,
        headers: Mapping[str, str],
        deadline: float,
    ) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
        conn = self._checkout(origin)
        reused = conn is not None
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                if conn is not None:
                    self._checkin(origin, conn)
                raise _Failure(f"POST {url} timed out before it was sent", timed_out=True)
            if conn is None:
                conn = self._new(origin, left)
            elif conn.sock is not None:
                conn.sock.settimeout(left)
            try:
                if conn.sock is None:
                    conn.connect()
                    # headers and body leave as two writes: without this, Nagle holds the body back
                    # until the server acknowledges the headers (up to 40 ms with delayed
                    # acknowledgements)
                    sock: Any = conn.sock
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                conn.request("POST", target, body=body, headers=dict(headers))
                return conn, conn.getresponse()
            except _STALE as exc:
                conn.close()
                if reused:  # the server closed an idle connection: try once on a fresh one
                    conn, reused = None, False
                    continue
                raise _Failure(
                    f"POST {url}: the connection was closed before an answer ({exc!r})"
                ) from None
            except TimeoutError:
                conn.close()
                raise _Failure(
                    f"POST {url} timed out waiting for an answer", timed_out=True
                ) from None
            except ConnectionRefusedError:
                conn.close()
                raise _Failure(f"POST {url}: connection refused") from None
            except http.client.HTTPException as exc:
                conn.close()
                raise _Failure(
                    f"POST {url}: invalid HTTP answer ({type(exc).__name__}: {exc})"
                ) from None
            except OSError as exc:
                conn.close()
                raise _Failure(f"POST {url}: {_os_error(exc)}") from None

    def _read_body(
        self,
        url: str,
        conn: http.client.HTTPConnection,
        resp: http.client.HTTPResponse,
        deadline: float,
        cap: int,
    ) -> bytes:
        length = resp.getheader("Content-Length")
        if length is not None and length.strip().isdigit() and int(length) > cap:
            conn.close()
            raise _Failure(
                f"POST {url}: the answer of {int(length)} bytes passes the {cap}-byte output cap; "
                "it was not read"
            )
        chunks: list[bytes] = []
        size = 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                conn.close()
                raise _Failure(f"POST {url} timed out while reading the answer", timed_out=True)
            if conn.sock is not None:
                conn.sock.settimeout(left)
            try:
                chunk = resp.read1(_READ_CHUNK)
            except TimeoutError:
                conn.close()
                raise _Failure(
                    f"POST {url} timed out while reading the answer", timed_out=True
                ) from None
            except (http.client.HTTPException, OSError) as exc:
                conn.close()
                raise _Failure(
                    f"POST {url}: the answer was cut off ({type(exc).__name__}: {exc})"
                ) from None
            if not chunk:
                # done: the connection (not the response) stays open for the next request
                resp.close()
                return b"".join(chunks)
            size += len(chunk)
            if size > cap:
                conn.close()
                raise _Failure(
                    f"POST {url}: the answer passed the {cap}-byte output cap and was cut off; "
                    "the answer was ignored"
                )
            chunks.append(chunk)


def _os_error(exc: OSError) -> str:
    name = type(exc).__name__
    if name.startswith("SSL") or "CERTIFICATE" in str(exc).upper():
        return f"TLS error ({exc})"
    if isinstance(exc, socket.gaierror):
        return f"cannot resolve the host ({exc})"
    return f"connection failed ({name}: {exc})"
