"""The firing observer that turns hook calls into OpenTelemetry logs, metrics and spans (docs/telemetry.md).

A :class:`HookSystem` calls :meth:`HookTelemetry.start_firing` before the hooks of
a firing run and :meth:`HookTelemetry.end_firing` with the result; while the
hooks run, the firing's span is the current span, and a command hook's
environment gets a ``TRACEPARENT`` naming its own span
(:meth:`HookTelemetry.child_env`). A firing only opens its span and hands the
finished firing to an export worker, which builds the log records, metrics and
hook spans (all the firings waiting, when it fell behind); the SDK's batch
processors export them on their own threads, never in a firing.
"""

from __future__ import annotations

import atexit
import collections
import contextvars
import sys
import threading
import time
import weakref
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry._logs import LogRecord, SeverityNumber
from opentelemetry.trace import SpanKind, Status, StatusCode

from hookwise.telemetry import records

#: finished firings waiting for the export worker; more are dropped (and counted)
MAX_PENDING_FIRINGS = 4096
#: the export worker takes the firings waiting for it (when it fell behind) up to this many at a time: one wake-up
#: for all of them, and a batch short enough not to hold the interpreter lock long while a firing may need it
BATCH_FIRINGS = 64
#: at exit, how long the export worker may take to hand its last firings to the SDK
EXIT_DRAIN_S = 2.0
_ALL: weakref.WeakSet[HookTelemetry] = weakref.WeakSet()
_exit_drain = False  # the atexit drain is registered (once per process)

_FIRING: contextvars.ContextVar[_Firing | None] = contextvars.ContextVar("hookwise_telemetry_firing", default=None)


_last_second: tuple[int, str] = (-1, "")


def _iso(ns: int) -> str:
    """ISO 8601 UTC with milliseconds (the seconds part is formatted once per second)."""
    global _last_second
    second = ns // 1_000_000_000
    last = _last_second
    if last[0] != second:
        last = _last_second = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
    return f"{last[1]}.{ns // 1_000_000 % 1000:03d}Z"


@dataclass(slots=True)
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
    started: dict[int, tuple[Any, int]] | None = None


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
        # the export worker: ``_wake`` wakes it, ``_done`` tells ``drain`` it caught up (one lock for both)
        self._queue_lock = threading.Lock()
        self._wake = threading.Condition(self._queue_lock)
        self._done = threading.Condition(self._queue_lock)
        self._pending: collections.deque[tuple[Any, ...]] = collections.deque()
        self._worker: threading.Thread | None = None
        self._idle = False  # the worker waits for a firing (a new one wakes it)
        self._busy = False  # the worker is building records of a batch
        self._failed = False
        #: firings whose records were dropped because the worker fell behind (bounded queue)
        self.dropped = 0
        _ALL.add(self)
        global _exit_drain
        if not _exit_drain:
            # registered after the SDK's providers (atexit runs last in, first out): the firings the worker still
            # holds reach a host's providers before they flush at exit
            _exit_drain = True
            atexit.register(HookTelemetry.drain_all, EXIT_DRAIN_S)
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
        if f.started is None:
            f.started = {}
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
        try:
            if outcomes:
                self._emit_calls(f, outcomes, end)
            for span, _ in (f.started or {}).values():  # spawned but without an outcome (the firing raised)
                span.end(end_time=end)
            if error is not None:
                f.span.record_exception(error)
                f.span.set_status(Status(StatusCode.ERROR, f"{type(error).__name__}: {error}"))
                f.span.set_attribute("error.type", type(error).__name__)
        finally:
            f.span.end(end_time=end)

    def _emit_calls(self, f: _Firing, outcomes: Sequence[Any], end: int) -> None:
        """The records of each hook call of a firing; what the hooks share is computed once."""
        session = f.inp.get("session_id")
        if not isinstance(session, str) or not session:
            session = None
        input_json = records.input_json(f.inp) if self.log_prompts else None
        parent = trace.set_span_in_context(f.span)
        started = f.started
        cursor = f.start_ns
        counts: dict[str, int] = {}
        decisions: list[str] = []
        for entry, o in zip(f.entries, outcomes, strict=True):
            duration = float(round(o.duration_ms, 3))  # the ``hook_call`` trace record's
            pre = started.pop(id(entry), None) if started else None
            if pre is not None:
                span, start = pre
            else:
                span, start = None, cursor if f.sequential else f.start_ns
            cursor = start + int(duration * 1_000_000)
            stop = min(cursor, end)
            outcome = o.outcome.value
            call = records.hook_call(
                event=o.event, name=o.name or "", hook_type=o.hook_type, source=o.source, outcome=outcome,
                exit_code=o.exit_code, duration_ms=duration, output=o.output, stdout=o.stdout, stderr=o.stderr,
                error=o.error, session=session, log_prompts=self.log_prompts, timestamp=_iso(stop),
                input_json=input_json)
            counts[outcome] = counts.get(outcome, 0) + 1
            decisions.append(call.decision)
            self._emit(call, span, start, stop, parent)
        f.span.set_attributes(records.firing_result_attributes(decisions, counts))

    def _emit(self, call: records.HookCall, span: Any, start: int, end: int, parent: Any) -> None:
        """Hand one hook call's span, log record and metric points to the SDK; the span is ended here."""
        if span is None:
            span = self.tracer.start_span(call.span_name, context=parent, kind=SpanKind.INTERNAL, start_time=start,
                                          attributes=call.span_attributes)
        else:  # started when its command was spawned (its id went out in TRACEPARENT)
            span.update_name(call.span_name)
            span.set_attributes(call.span_attributes)
        if call.error_status is not None:
            span.set_status(Status(StatusCode.ERROR, call.error_status))
        self.logger.emit(LogRecord(
            timestamp=end, observed_timestamp=time.time_ns(), context=trace.set_span_in_context(span),
            severity_number=SeverityNumber.INFO, severity_text="INFO", body=call.body,
            attributes=call.log_attributes, event_name=records.EVENT_NAME))
        span.end(end_time=end)
        self.count.add(1, call.metric_attributes)
        self.latency.record(call.duration_ms, call.metric_attributes)

    # ---- the export worker: firings never wait for record building or exporting -----------------
    def _enqueue(self, item: tuple[Any, ...]) -> None:
        with self._queue_lock:
            pending = self._pending
            if len(pending) >= MAX_PENDING_FIRINGS:
                self.dropped += 1  # bounded: a stalled worker loses telemetry, not memory
                return
            pending.append(item)
            if self._worker is None or not self._worker.is_alive():
                self._idle = False
                self._worker = threading.Thread(target=self._work, name="hookwise-telemetry", daemon=True)
                self._worker.start()
            elif self._idle:  # busy, it takes this firing with the next batch; idle, it is woken
                self._idle = False
                self._wake.notify()

    def _work(self) -> None:
        batch: list[tuple[Any, ...]] | None = None
        item: tuple[Any, ...] | None = None
        while True:
            with self._queue_lock:
                while not self._pending:
                    self._busy = False
                    self._idle = True
                    self._done.notify_all()
                    self._wake.wait()
                pending = self._pending
                batch = [pending.popleft() for _ in range(min(len(pending), BATCH_FIRINGS))]
                self._busy = True
                self._idle = False
            for item in batch:
                try:
                    self._emit_firing(*item)
                except Exception as exc:  # a record that cannot be built is lost, once said
                    if not self._failed:
                        self._failed = True
                        from hookwise.telemetry.export import stderr_warning

                        stderr_warning(f"telemetry: could not record a firing: {type(exc).__name__}: {exc}")
            batch = item = None  # freed here, before waiting, not by the next firing's garbage collection

    def drain(self, timeout_s: float = 5.0) -> bool:
        """Wait until every finished firing has been handed to the SDK (True) or ``timeout_s`` passed."""
        deadline = time.monotonic() + timeout_s
        with self._queue_lock:
            while self._pending or self._busy:
                left = deadline - time.monotonic()
                if left <= 0 or self._worker is None or not self._worker.is_alive():
                    return not self._pending
                self._done.wait(left)
        return True

    # ---- records ---------------------------------------------------------------------------
    def record(self, rec: Mapping[str, Any], *, span: Any = None, end_ns: int | None = None,
               input_json: str | None = None) -> None:
        """Emit the telemetry of one ``hook_call`` record (docs/contract.md §10); ``span`` is ended here."""
        end = end_ns if end_ns is not None else time.time_ns()
        call = records.hook_call_from_record(rec, log_prompts=self.log_prompts, timestamp=_iso(end),
                                             input_json=input_json)
        self._emit(call, span, end - int(call.duration_ms * 1_000_000), end, None)

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
        """:meth:`drain` every live observer, within ``timeout_s`` in all (tests read in-memory exporters after
        this; exiting does it too)."""
        deadline = time.monotonic() + timeout_s
        for tel in list(_ALL):
            tel.drain(max(0.0, deadline - time.monotonic()))

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
