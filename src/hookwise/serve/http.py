"""The transport of ``hookwise serve``: the standard library's threading HTTP/1.1 server.

One thread per connection (keep-alive connections keep theirs), on TCP or on a Unix socket. Why
threads and not asyncio: a firing blocks (it waits for hook processes, runs python hooks), so an
asyncio server would hand every firing to a thread anyway; ``bench/serve.py`` measures both floors
(docs/fleet.md has the numbers).

- The body is read only when ``Content-Length`` is within the cap (413 otherwise, the connection is
  closed); chunked bodies are refused (411); a client that stalls is cut after ``idle_timeout_s``.
- A Unix socket is created with mode 0600 (owner only) under a temporary umask, never over a path
  that is not a stale socket.
- :meth:`Server.drain` (SIGTERM): stop accepting, cut idle keep-alive connections, let requests in
  flight finish (at most ``drain_timeout_s``), then close.
"""

from __future__ import annotations

import os
import socket
import stat
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from socketserver import ThreadingMixIn, UnixStreamServer
from typing import TYPE_CHECKING, Any

from hookwise.jsonc.codec import dumps
from hookwise.serve.app import Service
from hookwise.serve.common import LOG, Response

if TYPE_CHECKING:
    from collections.abc import Callable


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # one write per response (headers and body together) and no Nagle delay: without these a
    # kept-alive connection waits ~40 ms per request on the peer's delayed ACK
    wbufsize = 1 << 16
    server_version = "hookwise"
    sys_version = ""
    server: Any  # _TcpServer | _UnixServer (both _Tracking)

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.idle_timeout_s)
        if self.connection.family != socket.AF_UNIX:
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, True)
        self.server.track(self.connection, busy=False)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.untrack(self.connection)

    def handle_one_request(self) -> None:
        if self.server.draining.is_set():
            self.close_connection = True
            return
        super().handle_one_request()
        self.server.track(self.connection, busy=False)

    def parse_request(self) -> bool:
        ok = super().parse_request()
        if ok:
            self.server.track(self.connection, busy=True)
        return ok

    def do_GET(self) -> None:
        self._serve(b"")

    def do_POST(self) -> None:
        service: Service = self.server.service
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            self._refuse(411, "chunked bodies are not accepted; send Content-Length")
            return
        try:
            length = int(self.headers.get("Content-Length") or "0")
        except ValueError:
            self._refuse(400, "bad Content-Length")
            return
        if length < 0 or length > service.config.body_cap:
            self._refuse(413, f"body of {length} bytes over the cap of {service.config.body_cap}")
            return
        self._serve(self.rfile.read(length))

    def _refuse(self, status: int, why: str) -> None:
        resp = self.server.service.refuse(status, why, self.path, self.address_string())
        self.close_connection = True
        self._send(resp.status, resp.body, resp.content_type)

    def _serve(self, body: bytes) -> None:
        if self.server.draining.is_set():
            self.close_connection = True
        lock = threading.Lock()
        answered = False

        def early(resp: Response) -> bool:  # the watchdog answers a request whose hooks overran
            nonlocal answered
            with lock:
                if answered:
                    return False
                answered = True
                self.close_connection = True  # the firing still runs on this connection's thread
                self._send(resp.status, resp.body, resp.content_type, resp.headers)
                self.wfile.flush()
                # answered: a graceful stop need not wait for the firing (a hung hook may never
                # return)
                self.server.untrack(self.connection)
                return True

        try:
            resp = self.server.service.handle(
                self.command, self.path, self.headers, body, self.address_string(), early
            )
        except (
            Exception
        ) as exc:  # hookwise's own bug: a visible 500 (an agent's non-blocking error)
            LOG.exception("internal error answering %s", self.path)
            why = f"hookwise serve: internal error: {type(exc).__name__}: {exc}"
            resp = Response(500, dumps({"error": why}).encode())
        with lock:
            if answered:
                return  # the timeout answer went out; this one is dropped
            answered = True
            self._send(resp.status, resp.body, resp.content_type, resp.headers)

    def _send(
        self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def address_string(self) -> str:
        addr = self.client_address
        return str(addr[0]) if isinstance(addr, tuple) and addr else "unix"

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        LOG.debug("%s %s %s", self.command, self.path, code)

    def log_error(self, format: str, *args: Any) -> None:  # e.g. a client that stalled
        LOG.warning("refused connection from %s: %s", self.address_string(), format % args)


class _Tracking:
    """What both servers share: the service, the connections and whether each is mid-request."""

    # connection threads are waited for by Server.drain (with a bound), not by server_close
    daemon_threads = True
    block_on_close = False
    request_queue_size = 256  # the listen backlog (socketserver's 5 resets a burst of clients)
    service: Service
    idle_timeout_s: float

    def init_tracking(self, service: Service, idle_timeout_s: float) -> None:
        self.service = service
        self.idle_timeout_s = idle_timeout_s
        self.draining = service.draining
        self._conns: dict[socket.socket, bool] = {}
        self._conns_lock = threading.Lock()

    def track(self, conn: socket.socket, *, busy: bool) -> None:
        with self._conns_lock:
            self._conns[conn] = busy

    def untrack(self, conn: socket.socket) -> None:
        with self._conns_lock:
            self._conns.pop(conn, None)

    def open_connections(self) -> int:
        with self._conns_lock:
            return len(self._conns)

    def cut_idle(self) -> None:
        """Shut the idle keep-alive connections (their threads end; busy ones finish first)."""
        with self._conns_lock:
            idle = [c for c, busy in self._conns.items() if not busy]
        for c in idle:
            try:
                c.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class _TcpServer(_Tracking, ThreadingHTTPServer):
    allow_reuse_address = True


class _UnixServer(_Tracking, ThreadingMixIn, UnixStreamServer):
    pass


def _unix_bind_path(path: str) -> None:
    """Remove a stale socket at ``path``; refuse a live one or anything that is not a socket."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(st.st_mode):
        raise OSError(f"--socket {path}: exists and is not a socket; not replacing it")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(path)
    except OSError:
        os.unlink(path)  # nobody listens: a socket left by a service that died
        return
    finally:
        probe.close()
    raise OSError(f"--socket {path}: another service is listening there")


class Server:
    """A running ``hookwise serve`` listener (TCP or Unix socket) around a :class:`Service`."""

    def __init__(
        self,
        service: Service,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        socket_path: str | None = None,
        idle_timeout_s: float = 30.0,
        drain_timeout_s: float = 60.0,
    ) -> None:
        self.service = service
        #: how long a graceful stop waits for requests in flight
        self.drain_timeout_s = drain_timeout_s
        self.socket_path = socket_path
        self._server: _TcpServer | _UnixServer
        if socket_path is not None:
            _unix_bind_path(socket_path)
            old = os.umask(0o177)  # the socket file is created 0600
            try:
                self._server = _UnixServer(socket_path, _Handler, bind_and_activate=True)
            finally:
                os.umask(old)
            os.chmod(socket_path, 0o600)
        else:
            self._server = _TcpServer((host, port), _Handler)
        self._server.init_tracking(service, idle_timeout_s)
        self._thread: threading.Thread | None = None

    @property
    def address(self) -> str:
        """``http://host:port`` or ``unix:PATH``."""
        if self.socket_path is not None:
            return f"unix:{self.socket_path}"
        addr: Any = self._server.server_address
        return f"http://{addr[0]}:{addr[1]}"

    @property
    def port(self) -> int:
        addr: Any = self._server.server_address
        return int(addr[1]) if self.socket_path is None else 0

    def serve_forever(self) -> None:
        self._server.serve_forever(poll_interval=0.2)

    def start(self) -> Server:
        """Serve on a background thread (tests, benchmarks); :meth:`drain` stops it."""
        self._thread = threading.Thread(
            target=self.serve_forever, name="hookwise-serve", daemon=True
        )
        self._thread.start()
        return self

    def drain(self, on_stopped: Callable[[], None] | None = None) -> None:
        """Graceful stop: no new connections, idle ones cut, requests in flight finished, hooks
        stopped.

        Must not run on the thread inside :meth:`serve_forever` (a signal handler starts a
        thread)."""
        self.service.draining.set()
        self._server.shutdown()
        deadline = time.monotonic() + self.drain_timeout_s
        while self._server.open_connections() and time.monotonic() < deadline:
            self._server.cut_idle()  # a connection whose request just ended is idle now
            time.sleep(0.02)
        left = self._server.open_connections()
        if left:
            LOG.warning(
                "stopping with %d request(s) still running after %g s", left, self.drain_timeout_s
            )
        self._server.server_close()
        if self._thread is not None:
            self._thread.join()
        self.service.close()
        if self.socket_path is not None:
            try:
                os.unlink(self.socket_path)
            except OSError:
                pass
        if on_stopped is not None:
            on_stopped()
