"""In-memory OpenTelemetry providers (the SDK's own test exporters) for telemetry tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest


@dataclass
class Sdk:
    tracer_provider: Any
    meter_provider: Any
    logger_provider: Any
    spans_exporter: Any
    logs_exporter: Any
    metric_reader: Any

    @staticmethod
    def drain() -> None:
        from hookwise.telemetry.observer import HookTelemetry

        HookTelemetry.drain_all()

    def spans(self) -> list[Any]:
        self.drain()
        return list(self.spans_exporter.get_finished_spans())

    def span(self, name: str) -> Any:
        found = [s for s in self.spans() if s.name == name]
        assert len(found) == 1, (name, [s.name for s in self.spans()])
        return found[0]

    def logs(self) -> list[Any]:
        """The ``hook_call`` log records (decision records: :meth:`decisions`)."""
        return [r for r in self.all_logs() if r.event_name != "hookwise.decision"]

    def decisions(self) -> list[Any]:
        return [r for r in self.all_logs() if r.event_name == "hookwise.decision"]

    def all_logs(self) -> list[Any]:
        self.drain()
        return [r.log_record for r in self.logs_exporter.get_finished_logs()]

    def metric_points(self, name: str) -> list[Any]:
        self.drain()
        data = self.metric_reader.get_metrics_data()
        out = []
        for rm in data.resource_metrics if data else []:
            for sm in rm.scope_metrics:
                for m in sm.metrics:
                    if m.name == name:
                        out.extend(m.data.data_points)
        return out

    def metric(self, name: str) -> Any:
        self.drain()
        data = self.metric_reader.get_metrics_data()
        for rm in data.resource_metrics if data else []:
            for sm in rm.scope_metrics:
                for m in sm.metrics:
                    if m.name == name:
                        return m
        raise AssertionError(f"no metric {name}")


@pytest.fixture
def sdk() -> Sdk:
    pytest.importorskip("opentelemetry.sdk", reason="needs the otel extra")
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk._logs.export import InMemoryLogRecordExporter, SimpleLogRecordProcessor
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    spans = InMemorySpanExporter()
    tp = TracerProvider()
    tp.add_span_processor(SimpleSpanProcessor(spans))
    logs = InMemoryLogRecordExporter()
    lp = LoggerProvider()
    lp.add_log_record_processor(SimpleLogRecordProcessor(logs))
    reader = InMemoryMetricReader()
    mp = MeterProvider(metric_readers=[reader])
    return Sdk(tp, mp, lp, spans, logs, reader)
