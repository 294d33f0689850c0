"""The SDK pipeline hookwise builds when telemetry is switched on by settings or ``OTEL_*``
(docs/telemetry.md).

Batch processors with bounded queues (a full queue drops records, a firing
never waits), OTLP over gRPC or HTTP, or JSON lines in ``telemetry.outfile``.
An exporter that fails (collector down, refused, timing out) produces one
warning for the whole process and the records are dropped; the SDK's own
per-batch error logging is quietened for the exporters built here.
"""

from __future__ import annotations

import atexit
import logging
import sys
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, cast

from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import (
    BatchLogRecordProcessor,
    ConsoleLogRecordExporter,
    LogRecordExporter,
)
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import (
    ConsoleMetricExporter,
    MetricExporter,
    MetricExportResult,
    PeriodicExportingMetricReader,
)
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    ConsoleSpanExporter,
    SpanExporter,
    SpanExportResult,
)

from hookwise.settings.telemetry import TelemetryConfig

#: bounded queues: at most this many spans / log records wait for export; more are dropped
MAX_QUEUE = 2048
#: how long exiting waits for the last export (an unreachable collector must not hold the process)
EXIT_FLUSH_S = 2.0
#: loggers whose per-batch failure messages are replaced by our single warning
_QUIET_LOGGERS = (
    "opentelemetry.exporter.otlp",
    "opentelemetry.sdk._shared_internal",
    "opentelemetry.sdk.trace.export",
    "opentelemetry.sdk._logs._internal.export",
    "opentelemetry.sdk.metrics._internal.export",
)

Warn = Callable[[str], None]


def stderr_warning(message: str) -> None:
    try:
        print(f"hookwise: warning: {message}", file=sys.stderr, flush=True)
    except (OSError, ValueError):  # stderr closed at exit
        pass


class _Once:
    """One warning per pipeline, whatever fails and however often."""

    def __init__(self, warn: Warn, where: str) -> None:
        self.warn = warn
        self.where = where
        self._done = False
        self._lock = threading.Lock()

    def failed(self, detail: str, message: str | None = None) -> None:
        with self._lock:
            if self._done:
                return
            self._done = True
        self.warn(
            message
            or (
                f"telemetry: could not export to {self.where} ({detail}); telemetry is dropped "
                "until it is reachable, hook results are not affected"
            )
        )


class _GuardedSpans(SpanExporter):
    def __init__(self, inner: SpanExporter, once: _Once) -> None:
        self.inner, self.once = inner, once

    def export(self, spans: Sequence[Any]) -> SpanExportResult:
        try:
            r = self.inner.export(spans)
        except Exception as exc:
            self.once.failed(f"{type(exc).__name__}: {exc}")
            return SpanExportResult.FAILURE
        if r is not SpanExportResult.SUCCESS:
            self.once.failed(f"{len(spans)} spans not accepted")
        return r

    def shutdown(self) -> None:
        self.inner.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return bool(self.inner.force_flush(timeout_millis))


class _GuardedLogs(LogRecordExporter):
    def __init__(self, inner: Any, once: _Once) -> None:
        self.inner, self.once = inner, once

    def export(self, batch: Sequence[Any]) -> Any:
        try:
            r = self.inner.export(batch)
        except Exception as exc:
            self.once.failed(f"{type(exc).__name__}: {exc}")
            from opentelemetry.sdk._logs.export import LogRecordExportResult

            return LogRecordExportResult.FAILURE
        if getattr(r, "name", "SUCCESS") != "SUCCESS":
            self.once.failed(f"{len(batch)} log records not accepted")
        return r

    def shutdown(self) -> None:
        self.inner.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return bool(self.inner.force_flush(timeout_millis))


class _GuardedMetrics(MetricExporter):
    def __init__(self, inner: MetricExporter, once: _Once) -> None:
        super().__init__(
            preferred_temporality=inner._preferred_temporality,
            preferred_aggregation=inner._preferred_aggregation,
        )
        self.inner, self.once = inner, once

    def export(
        self, metrics_data: Any, timeout_millis: float = 10_000, **kwargs: Any
    ) -> MetricExportResult:
        try:
            r = self.inner.export(metrics_data, timeout_millis=timeout_millis, **kwargs)
        except Exception as exc:
            self.once.failed(f"{type(exc).__name__}: {exc}")
            return MetricExportResult.FAILURE
        if r is not MetricExportResult.SUCCESS:
            self.once.failed("metrics not accepted")
        return r

    def force_flush(self, timeout_millis: float = 10_000) -> bool:
        return bool(self.inner.force_flush(timeout_millis))

    def shutdown(self, timeout_millis: float = 30_000, **kwargs: Any) -> None:
        self.inner.shutdown(timeout_millis=timeout_millis, **kwargs)


class _LineSink:
    """An append-only JSON-lines file shared by the three exporters (one ``write`` per line, under a
    lock)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._fh: IO[str] = open(path, "a", encoding="utf-8")  # noqa: SIM115 (closed at shutdown)

    def write(self, text: str) -> int:
        with self._lock:
            if self._fh.closed:
                return 0
            n = self._fh.write(text)
            self._fh.flush()
            return n

    def flush(self) -> None:
        pass

    def close(self) -> None:
        with self._lock:
            self._fh.close()


@dataclass
class Pipeline:
    """Providers built by hookwise (not the host's global ones), shut down at exit within a time
    limit."""

    tracer_provider: TracerProvider
    meter_provider: MeterProvider
    logger_provider: LoggerProvider
    sink: _LineSink | None = None
    #: the observers feeding these providers: drained before the providers flush
    observers: weakref.WeakSet[Any] = field(default_factory=weakref.WeakSet)
    once: _Once | None = None

    def _drain(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        for o in list(self.observers):
            o.drain(max(0.0, deadline - time.monotonic()))

    def flush(self, timeout_s: float = 5.0) -> None:
        ms = int(timeout_s * 1000)
        self._drain(timeout_s)
        self._bounded(
            lambda: (
                self.tracer_provider.force_flush(ms),
                self.logger_provider.force_flush(ms),
                self.meter_provider.force_flush(ms),
            ),
            timeout_s,
        )

    def shutdown(self, timeout_s: float = EXIT_FLUSH_S) -> None:
        self._drain(timeout_s)

        def stop() -> None:
            for p in (self.tracer_provider, self.logger_provider, self.meter_provider):
                try:
                    p.shutdown()
                except Exception:  # a failing exporter loses telemetry, nothing else
                    pass
            if self.sink is not None:
                self.sink.close()

        if not self._bounded(stop, timeout_s) and self.once is not None:
            self.once.failed(
                "",
                f"telemetry: the last export to {self.once.where} did not finish within "
                f"{timeout_s:g} s at exit; those records were dropped (is the collector "
                "reachable?)",
            )

    @staticmethod
    def _bounded(fn: Callable[[], Any], timeout_s: float) -> bool:
        """Run ``fn`` on a helper thread for at most ``timeout_s``; whether it finished."""
        t = threading.Thread(target=fn, name="hookwise-telemetry-flush", daemon=True)
        t.start()
        t.join(timeout_s)
        return not t.is_alive()


def _otlp(config: TelemetryConfig) -> tuple[SpanExporter, Any, MetricExporter]:
    import importlib

    base = "opentelemetry.exporter.otlp.proto." + ("http" if config.protocol == "http" else "grpc")
    spans = importlib.import_module(base + ".trace_exporter").OTLPSpanExporter
    logs = importlib.import_module(base + "._log_exporter").OTLPLogExporter
    metrics = importlib.import_module(base + ".metric_exporter").OTLPMetricExporter
    return (
        spans(endpoint=config.signal_endpoint("traces")),
        logs(endpoint=config.signal_endpoint("logs")),
        metrics(endpoint=config.signal_endpoint("metrics")),
    )


def build(config: TelemetryConfig, warn: Warn = stderr_warning) -> Pipeline:
    """The providers for ``config``; exporting starts on the SDK's own threads."""
    from hookwise import __version__

    resource = Resource.create(
        {"service.name": config.service_name, "service.version": __version__}
    )
    sink: _LineSink | None = None
    if config.outfile:
        sink = _LineSink(config.outfile)
        out = cast(IO[str], sink)
        span_exp: SpanExporter = ConsoleSpanExporter(
            out=out, formatter=lambda s: s.to_json(indent=None) + "\n"
        )
        log_exp: Any = ConsoleLogRecordExporter(
            out=out, formatter=lambda r: r.to_json(indent=None) + "\n"
        )
        metric_exp: MetricExporter = ConsoleMetricExporter(
            out=out, formatter=lambda m: m.to_json(indent=None) + "\n"
        )
        where = config.outfile
    else:
        span_exp, log_exp, metric_exp = _otlp(config)
        where = f"{config.signal_endpoint('traces')} ({config.protocol})"
        for name in _QUIET_LOGGERS:
            logging.getLogger(name).setLevel(logging.CRITICAL)
    once = _Once(warn, where)
    tp = TracerProvider(resource=resource, shutdown_on_exit=False)
    tp.add_span_processor(
        BatchSpanProcessor(_GuardedSpans(span_exp, once), max_queue_size=MAX_QUEUE)
    )
    lp = LoggerProvider(resource=resource, shutdown_on_exit=False)
    lp.add_log_record_processor(
        BatchLogRecordProcessor(_GuardedLogs(log_exp, once), max_queue_size=MAX_QUEUE)
    )
    reader = PeriodicExportingMetricReader(_GuardedMetrics(metric_exp, once))
    mp = MeterProvider(resource=resource, metric_readers=[reader], shutdown_on_exit=False)
    pipeline = Pipeline(tp, mp, lp, sink, once=once)
    atexit.register(pipeline.shutdown)
    return pipeline
