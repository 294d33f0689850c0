"""A real OTLP/HTTP receiver on 127.0.0.1 for end-to-end tests: decodes what exporters POST with the
OpenTelemetry proto package and keeps it as plain dicts."""

from __future__ import annotations

import gzip
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def _value(v: Any) -> Any:
    kind = v.WhichOneof("value")
    if kind is None:
        return None
    raw = getattr(v, kind)
    if kind == "array_value":
        return [_value(x) for x in raw.values]
    if kind == "kvlist_value":
        return {kv.key: _value(kv.value) for kv in raw.values}
    return raw


def _attrs(kvs: Any) -> dict[str, Any]:
    return {kv.key: _value(kv.value) for kv in kvs}


class OtlpReceiver:
    """Collects logs, spans and metric data points sent to ``/v1/logs``, ``/v1/traces`` and
    ``/v1/metrics``."""

    def __init__(self) -> None:
        from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
        from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
            ExportMetricsServiceRequest,
        )
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
            ExportTraceServiceRequest,
        )

        self.logs: list[dict[str, Any]] = []
        self.decisions: list[dict[str, Any]] = []
        self.spans: list[dict[str, Any]] = []
        self.metrics: list[dict[str, Any]] = []
        self.paths: list[str] = []
        self._lock = threading.Lock()
        receiver = self
        decoders: dict[str, tuple[Any, Callable[[Any], None]]] = {
            "/v1/logs": (ExportLogsServiceRequest, self._logs),
            "/v1/traces": (ExportTraceServiceRequest, self._traces),
            "/v1/metrics": (ExportMetricsServiceRequest, self._metrics),
        }

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                entry = decoders.get(self.path)
                if entry is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                msg = entry[0]()
                msg.ParseFromString(body)
                with receiver._lock:
                    receiver.paths.append(self.path)
                    entry[1](msg)
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> OtlpReceiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _logs(self, msg: Any) -> None:
        for rl in msg.resource_logs:
            resource = _attrs(rl.resource.attributes)
            for sl in rl.scope_logs:
                for r in sl.log_records:
                    # decision records (docs/fleet.md) apart from the hook_call records
                    into = self.decisions if r.event_name == "hookwise.decision" else self.logs
                    into.append(
                        {
                            "body": _value(r.body),
                            "attributes": _attrs(r.attributes),
                            "event_name": r.event_name,
                            "resource": resource,
                            "scope": sl.scope.name,
                            "trace_id": r.trace_id.hex(),
                            "span_id": r.span_id.hex(),
                        }
                    )

    def _traces(self, msg: Any) -> None:
        for rs in msg.resource_spans:
            resource = _attrs(rs.resource.attributes)
            for ss in rs.scope_spans:
                for s in ss.spans:
                    self.spans.append(
                        {
                            "name": s.name,
                            "attributes": _attrs(s.attributes),
                            "resource": resource,
                            "trace_id": s.trace_id.hex(),
                            "span_id": s.span_id.hex(),
                            "parent_span_id": s.parent_span_id.hex(),
                            "status": s.status.code,
                            "start": s.start_time_unix_nano,
                            "end": s.end_time_unix_nano,
                        }
                    )

    def _metrics(self, msg: Any) -> None:
        for rm in msg.resource_metrics:
            for sm in rm.scope_metrics:
                for m in sm.metrics:
                    kind = m.WhichOneof("data")
                    for p in getattr(m, kind).data_points:
                        point = {
                            "name": m.name,
                            "unit": m.unit,
                            "kind": kind,
                            "attributes": _attrs(p.attributes),
                        }
                        if kind == "sum":
                            point["value"] = (
                                p.as_int if p.WhichOneof("value") == "as_int" else p.as_double
                            )
                        elif kind == "histogram":
                            point["count"] = p.count
                            point["sum"] = p.sum
                        self.metrics.append(point)

    def wait(self, predicate: Callable[[OtlpReceiver], bool], timeout: float = 15.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if predicate(self):
                    return True
            time.sleep(0.05)
        return False
