"""The firing observer that turns hook calls into OpenTelemetry logs, metrics and spans (docs/telemetry.md).

A :class:`HookSystem` calls :meth:`HookTelemetry.start_firing` before the hooks of
a firing run and :meth:`HookTelemetry.end_firing` with the result; while the
hooks run, the firing's span is the current span, and a command hook's
environment gets a ``TRACEPARENT`` naming its own span
(:meth:`HookTelemetry.child_env`). Every call here only hands records to the
SDK's batch processors: exporting happens on their threads, never in a firing.
"""

from __future__ import annotations

import collections
import contextvars
import threading
import time
import weakref
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry._logs import LogRecord, SeverityNumber
from opentelemetry.trace import SpanKind, Status, StatusCode

from hookwise.telemetry import records

#: finished firings waiting for the export worker; more are dropped (and counted)
MAX_PENDING_FIRINGS = 4096
_ALL: weakref.WeakSet[HookTelemetry] = weakref.WeakSet()

_FIRING: contextvars.ContextVar[_Firing | None] = contextvars.ContextVar("hookwise_telemetry_firing", default=None)


def _iso(ns: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ns // 1_000_000_000)) + f".{ns // 1_000_000 % 1000:03d}Z"


@dataclass
class _Firing:
    event: str
    inp: dict[str, Any]
    entries: Sequence[Any]
    sequential: bool
    span: Any
    start_ns: int
    token: Any = None
    var_token: Any = None
    #: hook spans started while building a command hook's environment, by ``id(entry)``
    started: dict[int, tuple[Any, int]] = field(default_factory=dict)


class HookTelemetry:
    """Emits Gemini CLI's ``hook_call`` log record and metrics, and hookwise's firing/hook spans.

    :param tracer_provider, meter_provider, logger_provider: where records go
        (``None``: the global providers of :mod:`opentelemetry`).
    :param log_prompts: Gemini CLI's ``telemetry.logPrompts``: with it off, hook
        inputs, outputs and streams are left out and hook names are reduced.
    :param traceparent: give command hooks a W3C ``TRACEPARENT`` (on when tracing is).
    """

    def __init__(self, tracer_provider: Any = None, meter_provider: Any = None, logger_provider: Any = None, *,
                 log_prompts: bool = True, traceparent: bool = True, owned: Any = None,
                 parent_traceparent: str | None = None) -> None:
        from hookwise import __version__

        if logger_provider is None:
            from opentelemetry._logs import get_logger_provider

            logger_provider = get_logger_provider()
        if meter_provider is None:
            from opentelemetry.metrics import get_meter_provider

            meter_provider = get_meter_provider()
        self.tracer = trace.get_tracer("hookwise", __version__, tracer_provider=tracer_provider)
        self.logger = logger_provider.get_logger(records.LOGGER_NAME, __version__)
        meter = meter_provider.get_meter("hookwise", __version__)
        self.count = meter.create_counter(records.COUNT_METRIC, unit="1",
                                          description="Hook calls, by event, hook and success")
        self.latency = meter.create_histogram(records.LATENCY_METRIC, unit="ms",
                                              description="Duration of hook calls in milliseconds")
        self.log_prompts = log_prompts
        self.traceparent = traceparent
        self._owned = owned  # providers built for this object (shut down with it)
        #: the context a firing starts in when the caller has no current span (an inherited ``TRACEPARENT``)
        self._remote: Any = None
        if parent_traceparent:
            from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

            self._remote = TraceContextTextMapPropagator().extract({"traceparent": parent_traceparent})
        self._lock = threading.Lock()
        self._closed = False
        self._cond = threading.Condition()
        self._pending: collections.deque[tuple[Any, ...]] = collections.deque()
        self._worker: threading.Thread | None = None
        self._busy = False
        self._failed = False
        #: firings whose records were dropped because the worker fell behind (bounded queue)
        self.dropped = 0
        _ALL.add(self)
        if owned is not None:
            owned.observers.add(self)

    # ---- the firing seam -------------------------------------------------------------------
    def start_firing(self, event: str, inp: dict[str, Any], entries: Sequence[Any], sequential: bool) -> _Firing:
        """Open the firing's span as a child of the caller's current span and make it current."""
        start = time.time_ns()
        parent = None
        if self._remote is not None and not trace.get_current_span().get_span_context().is_valid:
            parent = self._remote
        span = self.tracer.start_span(records.firing_span_name(event), context=parent, kind=SpanKind.INTERNAL,
                                      start_time=start,
                                      attributes=records.firing_span_attributes(event, inp, len(entries)))
        f = _Firing(event, inp, entries, sequential, span, start)
        f.token = otel_context.attach(trace.set_span_in_context(span))
        f.var_token = _FIRING.set(f)
        return f

    # ---- HookSystem.add_monitor(before=..., after=...) ----------------------------------------
    def before(self, event: Any, entries: Sequence[Any], inp: dict[str, Any]) -> None:
        """A firing starts running ``entries``: open its span and make it current."""
        self.start_firing(str(getattr(event, "value", event)), inp, entries,
                          any(getattr(e, "sequential", False) for e in entries))

    def after(self, event: Any, entries: Sequence[Any], inp: dict[str, Any], outcomes: Sequence[Any]) -> None:
        """The firing is done (``outcomes`` empty when running the hooks raised): emit and close."""
        f = _FIRING.get()
        if f is None or f.inp is not inp:
            return
        import sys

        error = sys.exc_info()[1] if not outcomes else None
        self.end_firing(f, outcomes, error)

    def child_env(self, entry: Any) -> dict[str, str]:
        """``TRACEPARENT`` for a command hook about to start: the id of the span of its call."""
        f = _FIRING.get()
        if f is None or not self.traceparent:
            return {}
        now = time.time_ns()
        span = self.tracer.start_span("hook", context=trace.set_span_in_context(f.span), kind=SpanKind.INTERNAL,
                                      start_time=now)
        f.started[id(entry)] = (span, now)
        sc = span.get_span_context()
        if not sc.is_valid:
            return {}
        return {"TRACEPARENT": f"00-{sc.trace_id:032x}-{sc.span_id:016x}-{int(sc.trace_flags):02x}"}

    def end_firing(self, f: _Firing, outcomes: Sequence[Any], error: BaseException | None = None) -> None:
        """Restore the caller's context now; the records of the firing are built on the export worker."""
        end = time.time_ns()
        try:
            _FIRING.reset(f.var_token)
        except ValueError:  # reset from another context (an async host that switched tasks): nothing to undo
            pass
        otel_context.detach(f.token)
        self._enqueue((f, list(outcomes), error, end))

    def _emit_firing(self, f: _Firing, outcomes: Sequence[Any], error: BaseException | None, end: int) -> None:
        """One log record, the metrics and a span per hook call; then the firing's span is closed."""
        from hookwise.trace import hook_call_record

        try:
            cursor = f.start_ns
            counts: dict[str, int] = {}
            decisions: list[str] = []
            shared_input: str | None = None
            for entry, o in zip(f.entries if outcomes else (), outcomes, strict=True):
                rec = hook_call_record(f.inp, o)
                counts[rec["outcome"]] = counts.get(rec["outcome"], 0) + 1
                decisions.append(records.hook_decision(rec))
                dur_ns = int(float(rec["duration_ms"]) * 1_000_000)
                started = f.started.pop(id(entry), None)
                if started is not None:
                    span, start = started
                else:
                    start = cursor if f.sequential else f.start_ns
                    span = self.tracer.start_span("hook", context=trace.set_span_in_context(f.span),
                                                  kind=SpanKind.INTERNAL, start_time=start)
                cursor = start + dur_ns
                if shared_input is None and self.log_prompts:
                    shared_input = records.input_json(f.inp)
                self.record(rec, span=span, end_ns=min(start + dur_ns, end), input_json=shared_input)
            for span, _ in f.started.values():  # spawned but without an outcome (the firing raised)
                span.end(end_time=end)
            if outcomes:
                f.span.set_attributes(records.firing_result_attributes(decisions, counts))
            if error is not None:
                f.span.record_exception(error)
                f.span.set_status(Status(StatusCode.ERROR, f"{type(error).__name__}: {error}"))
                f.span.set_attribute("error.type", type(error).__name__)
        finally:
            f.span.end(end_time=end)

    # ---- the export worker: firings never wait for record building or exporting -----------------
    def _enqueue(self, item: tuple[Any, ...]) -> None:
        with self._cond:
            if len(self._pending) >= MAX_PENDING_FIRINGS:
                self.dropped += 1  # bounded: a stalled worker loses telemetry, not memory
                return
            self._pending.append(item)
            if self._worker is None or not self._worker.is_alive():
                self._worker = threading.Thread(target=self._work, name="hookwise-telemetry", daemon=True)
                self._worker.start()
            self._cond.notify()

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._pending:
                    self._busy = False
                    self._cond.notify_all()
                    self._cond.wait()
                item = self._pending.popleft()
                self._busy = True
            try:
                self._emit_firing(*item)
            except Exception as exc:  # a record that cannot be built is lost, once said
                if not self._failed:
                    self._failed = True
                    from hookwise.telemetry.export import stderr_warning

                    stderr_warning(f"telemetry: could not record a firing: {type(exc).__name__}: {exc}")

    def drain(self, timeout_s: float = 5.0) -> bool:
        """Wait until every finished firing has been handed to the SDK (True) or ``timeout_s`` passed."""
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while self._pending or self._busy:
                left = deadline - time.monotonic()
                if left <= 0 or self._worker is None or not self._worker.is_alive():
                    return not self._pending
                self._cond.wait(left)
        return True

    # ---- records ---------------------------------------------------------------------------
    def record(self, rec: Mapping[str, Any], *, span: Any = None, end_ns: int | None = None,
               input_json: str | None = None) -> None:
        """Emit the telemetry of one ``hook_call`` record (docs/contract.md §10); ``span`` is ended here."""
        now = time.time_ns()
        end = end_ns if end_ns is not None else now
        if span is None:
            span = self.tracer.start_span("hook", kind=SpanKind.INTERNAL,
                                          start_time=end - int(float(rec.get("duration_ms") or 0) * 1_000_000))
        span.update_name(records.hook_span_name(rec, log_prompts=self.log_prompts))
        span.set_attributes(records.hook_span_attributes(rec, log_prompts=self.log_prompts))
        if str(rec.get("outcome")) in records.ERROR_OUTCOMES:
            span.set_status(Status(StatusCode.ERROR, str(rec.get("error") or rec.get("outcome"))))
        attrs = records.log_attributes(rec, log_prompts=self.log_prompts, timestamp=_iso(end), input_json=input_json)
        self.logger.emit(LogRecord(
            timestamp=end, observed_timestamp=now, context=trace.set_span_in_context(span),
            severity_number=SeverityNumber.INFO, severity_text="INFO",
            body=records.log_body(rec, str(attrs["hook_name"])), attributes=attrs, event_name=records.EVENT_NAME))
        span.end(end_time=end)
        mattrs = records.metric_attributes(rec)
        self.count.add(1, mattrs)
        self.latency.record(float(rec.get("duration_ms") or 0.0), mattrs)

    # ---- host spans (the reference agent host) -----------------------------------------------
    @contextmanager
    def span(self, name: str, attributes: Mapping[str, Any], *, client: bool = False) -> Iterator[Any]:
        """A span around host work (``invoke_agent``, ``chat``, ``execute_tool``), current while it runs."""
        kind = SpanKind.CLIENT if client else SpanKind.INTERNAL
        with self.tracer.start_as_current_span(name, kind=kind, attributes=dict(attributes),
                                               record_exception=True, set_status_on_exception=True) as s:
            yield s

    # ---- lifetime --------------------------------------------------------------------------
    @staticmethod
    def drain_all(timeout_s: float = 5.0) -> None:
        """:meth:`drain` every live observer (tests read in-memory exporters after this)."""
        for tel in list(_ALL):
            tel.drain(timeout_s)

    def flush(self, timeout_s: float = 5.0) -> None:
        self.drain(timeout_s)
        if self._owned is not None:
            self._owned.flush(timeout_s)

    def shutdown(self, timeout_s: float = 3.0) -> None:
        """Flush and stop the providers this object built (never the host's), waiting at most ``timeout_s``."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self.drain(timeout_s)
        if self._owned is not None:
            self._owned.shutdown(timeout_s)
