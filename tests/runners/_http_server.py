"""A real HTTP/1.1 server on 127.0.0.1 for http hook tests (keep-alive, connection counting,
misbehaviours).

Routes (POST only):
  /answer/<key>    status, headers and body from ``server.answers[key]`` (default 200 + ``{}``)
  /hang            sends the headers (Content-Length 100), then nothing
  /stream          a chunked body that never ends
  /huge            announces Content-Length: 2 GB
  /huge-chunked    chunked, 64 KiB chunks without end, as fast as possible
  /redirect?to=URL 307 to URL
Every request is recorded as ``(path, headers dict, body bytes)``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


class HookServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.answers: dict[str, tuple[int, dict[str, str], bytes]] = {}
        self.requests: list[tuple[str, dict[str, str], bytes]] = []
        self.connections = 0
        self.closed = 0  # connections whose client hung up (or that the server ended)
        self.lock = threading.Lock()
        self.stop_streams = threading.Event()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def url(self, path: str) -> str:
        return self.base + path

    def answer(
        self, key: str, body: Any = None, status: int = 200, headers: dict[str, str] | None = None
    ) -> str:
        """Set what ``/answer/<key>`` returns; a non-bytes, non-str body is sent as JSON. Returns
        its URL."""
        if isinstance(body, bytes):
            data = body
        elif isinstance(body, str):
            data = body.encode()
        else:
            data = b"" if body is None else json.dumps(body).encode()
        self.answers[key] = (status, headers or {}, data)
        return self.url(f"/answer/{key}")

    def bodies(self) -> list[Any]:
        return [json.loads(b) for _p, _h, b in self.requests]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    wbufsize = (
        1 << 16
    )  # status line, headers and body in one write (flushed explicitly while streaming)
    server: HookServer

    def setup(self) -> None:
        super().setup()
        with self.server.lock:
            self.server.connections += 1

    def finish(self) -> None:
        super().finish()
        with self.server.lock:
            self.server.closed += 1

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        parts = urlsplit(self.path)
        with self.server.lock:
            self.server.requests.append(
                (parts.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
        path = parts.path
        if path.startswith("/answer/"):
            status, headers, data = self.server.answers.get(
                path[len("/answer/") :], (200, {}, b"{}")
            )
            self.send_response(status)
            for k, v in headers.items():
                self.send_header(k, v)
            if "Content-Length" not in headers:
                self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            if (
                headers.get("X-Test-Drop") == "1"
            ):  # close without saying so (an idle timeout, seen from the client)
                self.close_connection = True
        elif path == "/hang":
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.flush()
            self.server.stop_streams.wait(30)
            self.close_connection = True
        elif path in ("/stream", "/huge-chunked"):
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            piece = b"x" * (1 << 16) if path == "/huge-chunked" else b" "
            try:
                for _ in _forever(self.server.stop_streams):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                    self.wfile.flush()
                    if path == "/stream":
                        time.sleep(0.01)
            except OSError:
                pass
            self.close_connection = True
        elif path == "/huge":
            self.send_response(200)
            self.send_header("Content-Length", str(2 << 30))
            self.end_headers()
            try:
                self.wfile.write(b"{" + b" " * 65536)
            except OSError:
                pass
            self.close_connection = True
        elif path == "/redirect":
            to = parse_qs(parts.query)["to"][0]
            self.send_response(307)
            self.send_header("Location", to)
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()


def _forever(stop: threading.Event) -> Iterator[None]:
    deadline = time.monotonic() + 30
    while not stop.is_set() and time.monotonic() < deadline:
        yield None


def start() -> HookServer:
    srv = HookServer()
    threading.Thread(
        target=srv.serve_forever, kwargs={"poll_interval": 0.02}, name="hook-server", daemon=True
    ).start()
    return srv


def stop(srv: HookServer) -> None:
    srv.stop_streams.set()
    srv.shutdown()
    srv.server_close()
