"""The firing observer that turns hook calls into OpenTelemetry logs, metrics and spans
(docs/telemetry.md).

A :class:`HookSystem` calls :meth:`HookTelemetry.start_firing` before the hooks of
a firing run and :meth:`HookTelemetry.end_firing` with the result; while the
hooks run, the firing's span is the current span, and a command hook's
environment gets a ``TRACEPARENT`` naming its own span
(:meth:`HookTelemetry.child_env`). A firing only assigns its span's ids (with the
OpenTelemetry SDK's own id generator and sampler) and hands the finished firing
to an export worker, which builds the SDK spans with those ids, the log records
and metrics, in batches (a firing that comes in the short window after a batch
does not wake it); the SDK's batch processors export them on their own
threads, never in a firing. With a tracer
that is not the SDK's, the firing opens its span through the tracer.
"""

from __future__ import annotations

import atexit
import collections
import contextvars
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NamedTuple

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry._logs import LogRecord, SeverityNumber
from opentelemetry.trace import SpanKind, Status, StatusCode

from hookwise.decisions import AGENT, DECISION_EVENT, decision_record
from hookwise.events import iso_ms
from hookwise.telemetry import records

#: finished firings waiting for the export worker; more are dropped (and counted)
MAX_PENDING_FIRINGS = 4096
#: the export worker takes the firings waiting for it up to this many at a time: one wake-up for all
#: of them, and a batch short enough not to hold the interpreter lock long while a firing may need
#: it; a firing that finds this many waiting wakes the worker
BATCH_FIRINGS = 64
#: after a batch, the export worker waits this long for more firings before it waits to be woken:
#: the firings of a busy stretch are taken together, and none of them pays for waking it (waking a
#: thread costs the waker more than the rest of its telemetry, on a virtual machine); short, so few
#: firings wait and the collector seldom sees them
BATCH_WINDOW_S = 0.02
#: at exit, how long the export worker may take to hand its last firings to the SDK
EXIT_DRAIN_S = 2.0
#: an export worker with nothing to do for this long ends (the next firing starts another): an
#: observer that is no longer used (a reloaded configuration, a hook system that was dropped) leaves
#: no thread behind and is freed
IDLE_EXIT_S = 30.0
_ALL: weakref.WeakSet[HookTelemetry] = weakref.WeakSet()
_exit_drain = False  # the atexit drain is registered (once per process)

_FIRING: contextvars.ContextVar[_Firing | None] = contextvars.ContextVar(
    "hookwise_telemetry_firing", default=None
)


@dataclass(slots=True)
class _Firing:
    event: str
    inp: dict[str, Any]
    entries: Sequence[Any]
    sequential: bool
    #: the SDK's span; ``None`` until the export worker builds it from ``ids`` (:class:`_PresetIds`)
    span: Any
    start_ns: int
    token: Any = None
    var_token: Any = None
    #: hook spans started while building a command hook's environment, by ``id(entry)``
    started: dict[int, tuple[Any, int]] | None = None
    #: ids assigned on the firing thread: the span's (:class:`_Ids`) and those of command hooks'
    #: spans, by ``id(entry)`` (with when each started)
    ids: _Ids | None = None
    hook_ids: dict[int, tuple[_Ids, int]] | None = None
    #: the context the firing ran in (the hook spans built on the export worker start in it, as
    #: children of ``span``, so a span processor sees the caller's context, baggage included)
    caller: Any = None
    #: what the firing's decision record says about its host (agent, project, policy version, audit)
    decision: dict[str, Any] | None = None


class _Ids(NamedTuple):
    """A span whose ids were assigned on the firing thread, for the export worker to build with
    them."""

    #: the span's context as the SDK will give it (trace and span id, flags, trace state)
    span_context: Any
    #: the context to start it in (its parent's), the sampler's decision for it and its start
    #: attributes (both ``None`` when the sampler is one whose decision the firing read off its
    #: table, :func:`_static_sampling`: the SDK asks it on the export worker, with the same answer)
    parent: Any
    sampling: Any
    attributes: dict[str, Any] | None
    #: it starts a trace (no valid parent): the SDK asks the id generator for its trace id too
    root: bool


class _Preset(threading.local):
    """What the export worker wants the SDK to use for the next span it starts on this thread."""

    trace_id = 0
    span_id = 0
    sampling: Any = None


class _PresetIds:
    """The SDK tracer's id generator, wrapped: on a thread that set a :class:`_Preset`, the next
    span gets those ids; everywhere else (and for every other span) the original generator
    answers."""

    def __init__(self, inner: Any, preset: _Preset) -> None:
        self.inner = inner
        self.preset = preset

    def generate_span_id(self) -> int:
        p = self.preset
        span_id = p.span_id
        if span_id:
            p.span_id = 0
            return span_id
        return int(self.inner.generate_span_id())

    def generate_trace_id(self) -> int:
        p = self.preset
        trace_id = p.trace_id
        if trace_id:
            p.trace_id = 0
            return trace_id
        return int(self.inner.generate_trace_id())

    def is_trace_id_random(self) -> bool:
        return bool(self.inner.is_trace_id_random())


class _PresetSampler:
    """The SDK tracer's sampler, wrapped like :class:`_PresetIds`: a span built on the export worker
    gets the decision its sampler made on the firing thread (asked once, with the same
    arguments)."""

    def __init__(self, inner: Any, preset: _Preset) -> None:
        self.inner = inner
        self.preset = preset

    def should_sample(self, *args: Any, **kwargs: Any) -> Any:
        p = self.preset
        result = p.sampling
        if result is not None:
            p.sampling = None
            return result
        return self.inner.should_sample(*args, **kwargs)

    def get_description(self) -> str:
        return str(self.inner.get_description())


_WRAP_LOCK = threading.Lock()
#: the SDK sets W3C Trace Context level 2's random-trace-id flag (API and SDK versions go together)
_RANDOM_FLAG = int(getattr(trace.TraceFlags, "RANDOM_TRACE_ID", 0))


_FLAGS: dict[int, Any] = {}  # the few TraceFlags values, built once


def _span_context(
    trace_id: int, span_id: int, sampled: bool, trace_state: Any, random_id: int | bool
) -> Any:
    """The context the SDK gives a span with these ids, sampling decision and trace state
    (``Tracer.start_span``)."""
    flags = (trace.TraceFlags.SAMPLED if sampled else trace.TraceFlags.DEFAULT) | (
        _RANDOM_FLAG if random_id else 0
    )
    trace_flags = _FLAGS.get(flags)
    if trace_flags is None:
        trace_flags = _FLAGS[flags] = trace.TraceFlags(flags)
    return trace.SpanContext(
        trace_id, span_id, is_remote=False, trace_flags=trace_flags, trace_state=trace_state
    )


#: :class:`opentelemetry.sdk.trace.sampling.ParentBased`'s delegates, in the order of
#: :func:`_static_sampling`'s table
_PARENT_BASED = (
    "_root",
    "_remote_parent_sampled",
    "_remote_parent_not_sampled",
    "_local_parent_sampled",
    "_local_parent_not_sampled",
)


def _static_sampling(sampler: Any) -> tuple[bool, bool, bool, bool, bool] | None:
    """Whether the SDK samples a span, by its parent (none; remote sampled, remote not; local
    sampled, local not), for the samplers whose decision depends on nothing else: the SDK's
    ``ALWAYS_ON``/``ALWAYS_OFF`` and ``ParentBased`` over them (its default). ``None`` for any other
    sampler: a firing then asks it.

    The export worker's check that the SDK built the assigned context catches a table that is wrong
    (an SDK whose samplers changed), as it does any other difference."""
    mod = sys.modules.get("opentelemetry.sdk.trace.sampling")
    static, parent_based = getattr(mod, "StaticSampler", None), getattr(mod, "ParentBased", None)

    def sampled(s: Any) -> bool | None:
        decision = (
            getattr(s, "_decision", None) if static is not None and type(s) is static else None
        )
        is_sampled = getattr(decision, "is_sampled", None)
        return bool(is_sampled()) if callable(is_sampled) else None

    if parent_based is not None and type(sampler) is parent_based:
        table = tuple(sampled(getattr(sampler, name, None)) for name in _PARENT_BASED)
    else:
        table = (sampled(sampler),) * 5
    if any(v is None for v in table):
        return None
    return table  # type: ignore[return-value]


def _static_decision(table: tuple[bool, bool, bool, bool, bool], parent: Any) -> tuple[bool, Any]:
    """What a sampler of :func:`_static_sampling`'s ``table`` answers for a span whose parent has
    the span context ``parent`` (an invalid one: no parent): sampled or not, and the trace state the
    span carries (its parent's)."""
    if not parent.is_valid:
        return table[0], None
    return table[
        (1 if parent.is_remote else 3) + (not parent.trace_flags.sampled)
    ], parent.trace_state


def _preset_ids(tracer: Any) -> tuple[_PresetIds, _PresetSampler] | None:
    """Wrap the id generator and sampler of an OpenTelemetry SDK tracer (once per tracer object,
    which the SDK shares per instrumentation scope); ``None`` for any other tracer (a proxy before a
    global provider is set, the no-op tracer, another implementation): its spans are then opened on
    the firing thread."""
    sdk = sys.modules.get("opentelemetry.sdk.trace")  # an SDK tracer means the SDK is imported
    sdk_tracer = getattr(sdk, "Tracer", None)
    if (
        sdk_tracer is None
        or not isinstance(tracer, sdk_tracer)
        or type(tracer).start_span is not sdk_tracer.start_span
    ):
        return None
    with _WRAP_LOCK:
        ids, sampler = getattr(tracer, "id_generator", None), getattr(tracer, "sampler", None)
        if (
            isinstance(ids, _PresetIds)
            and isinstance(sampler, _PresetSampler)
            and ids.preset is sampler.preset
        ):
            return ids, sampler
        ids = ids.inner if isinstance(ids, _PresetIds) else ids
        sampler = sampler.inner if isinstance(sampler, _PresetSampler) else sampler
        if not all(
            callable(getattr(ids, m, None))
            for m in ("generate_span_id", "generate_trace_id", "is_trace_id_random")
        ):
            return None
        if not callable(getattr(sampler, "should_sample", None)):
            return None
        preset = _Preset()
        wrapped = _PresetIds(ids, preset), _PresetSampler(sampler, preset)
        tracer.id_generator, tracer.sampler = wrapped
        return wrapped


class HookTelemetry:
    """Emits Gemini CLI's ``hook_call`` log record and metrics, and hookwise's firing/hook spans.

    :param tracer_provider, meter_provider, logger_provider: where records go
        (``None``: the global providers of :mod:`opentelemetry`).
    :param log_prompts: Gemini CLI's ``telemetry.logPrompts``: with it off, hook
        inputs, outputs and streams are left out and hook names are reduced.
    :param traceparent: give command hooks a W3C ``TRACEPARENT`` (on when tracing is).
    """

    def __init__(
        self,
        tracer_provider: Any = None,
        meter_provider: Any = None,
        logger_provider: Any = None,
        *,
        log_prompts: bool = True,
        traceparent: bool = True,
        owned: Any = None,
        parent_traceparent: str | None = None,
    ) -> None:
        from hookwise import __version__

        if logger_provider is None:
            from opentelemetry._logs import get_logger_provider

            logger_provider = get_logger_provider()
        if meter_provider is None:
            from opentelemetry.metrics import get_meter_provider

            meter_provider = get_meter_provider()
        self.tracer = trace.get_tracer("hookwise", __version__, tracer_provider=tracer_provider)
        #: the global tracer provider was not set yet: the tracer is the API's proxy, until
        #: :meth:`_resolve` finds one
        self._proxy = tracer_provider is None and isinstance(self.tracer, trace.ProxyTracer)
        self.logger = logger_provider.get_logger(records.LOGGER_NAME, __version__)
        meter = self.meter = meter_provider.get_meter("hookwise", __version__)
        self.count = meter.create_counter(
            records.COUNT_METRIC, unit="1", description="Hook calls, by event, hook and success"
        )
        self.latency = meter.create_histogram(
            records.LATENCY_METRIC, unit="ms", description="Duration of hook calls in milliseconds"
        )
        self.log_prompts = log_prompts
        self.traceparent = traceparent
        #: the SDK tracer's wrapped id generator and sampler (``None``: not an SDK tracer, spans
        #: open in a firing)
        self._presets: tuple[_PresetIds, _PresetSampler] | None = None
        self._static: tuple[bool, bool, bool, bool, bool] | None = None
        self._assign_ids = False
        self._enabled: Any = None
        self._use_tracer(self.tracer)
        self._owned = owned  # providers built for this object (shut down with it)
        #: the context a firing starts in when the caller has no current span (an inherited
        #: ``TRACEPARENT``)
        self._remote: Any = None
        if parent_traceparent:
            from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

            self._remote = TraceContextTextMapPropagator().extract(
                {"traceparent": parent_traceparent}
            )
        self._lock = threading.Lock()
        self._closed = False
        # the export worker: ``_wake`` wakes it, ``_done`` tells ``drain`` it caught up (one lock
        # for both)
        self._queue_lock = threading.Lock()
        self._wake = threading.Condition(self._queue_lock)
        self._done = threading.Condition(self._queue_lock)
        self._pending: collections.deque[tuple[Any, ...]] = collections.deque()
        self._worker: threading.Thread | None = None
        self._idle = (
            False  # the worker waits to be woken (by the next firing); not in its batch window
        )
        self._busy = False  # the worker is building records of a batch
        self._failed = False
        #: firings whose records were dropped because the worker fell behind (bounded queue)
        self.dropped = 0
        _ALL.add(self)
        global _exit_drain
        if not _exit_drain:
            # registered after the SDK's providers (atexit runs last in, first out): the firings the
            # worker still holds reach a host's providers before they flush at exit
            _exit_drain = True
            atexit.register(HookTelemetry.drain_all, EXIT_DRAIN_S)
        if owned is not None:
            owned.observers.add(self)

    def _use_tracer(self, tracer: Any) -> None:
        """Firings assign the span ids of ``tracer`` when it is the SDK's (:func:`_preset_ids`)."""
        presets = _preset_ids(tracer)
        #: the sampler's decisions when they depend only on the parent (:func:`_static_sampling`)
        self._static = _static_sampling(presets[1].inner) if presets is not None else None
        #: firings assign their spans' ids (off for good if the SDK ever gives a span other ids:
        #: :meth:`_ids_differ`)
        self._assign_ids = presets is not None
        #: the SDK tracer's switch (a tracer configurator can disable it; its spans then are the
        #: parent's context)
        self._enabled = getattr(tracer, "_is_enabled", None) if presets is not None else None
        self.tracer = tracer
        #: the SDK tracer's wrapped id generator and sampler (``None``: not an SDK tracer, spans
        #: open in a firing); set last, so that a firing on another thread sees the rest first
        self._presets = presets

    def _resolve(self) -> None:
        """The host has set a global tracer provider since this observer was made: use its tracer
        from now on (with the SDK's, firings then assign their spans' ids instead of opening them
        through the proxy)."""
        provider = trace.get_tracer_provider()
        if isinstance(provider, trace.ProxyTracerProvider):
            return  # still none
        from hookwise import __version__

        self._proxy = False
        self._use_tracer(provider.get_tracer("hookwise", __version__))

    # ---- the firing seam -------------------------------------------------------------------
    def start_firing(
        self, event: str, inp: dict[str, Any], entries: Sequence[Any], sequential: bool
    ) -> _Firing:
        """Make the firing's span current, a child of the caller's current span (or of an inherited
        ``TRACEPARENT``).

        With the SDK's tracer, only the span's ids are assigned here, by its own id generator and
        sampler, exactly as its ``start_span`` would assign them; the export worker builds the span
        with them. Any other tracer opens the span here."""
        start = time.time_ns()
        if self._proxy:
            self._resolve()
        presets = self._presets
        if (
            presets is None
            or not self._assign_ids
            or (self._enabled is not None and not self._enabled())
        ):
            return self._open_firing(event, inp, entries, sequential, start)
        ctx = parent_ctx = otel_context.get_current()
        parent = trace.get_current_span(ctx).get_span_context()
        if not parent.is_valid and self._remote is not None:
            parent_ctx = self._remote
            parent = trace.get_current_span(parent_ctx).get_span_context()
        ids = presets[0].inner
        root = not parent.is_valid
        trace_id = ids.generate_trace_id() if root else parent.trace_id
        random_id = ids.is_trace_id_random() if root else parent.trace_flags & _RANDOM_FLAG
        static = self._static
        if (
            static is not None
        ):  # decided by the parent alone: the span's attributes are left to the worker
            sc = _span_context(
                trace_id, ids.generate_span_id(), *_static_decision(static, parent), random_id
            )
            assigned = _Ids(sc, parent_ctx, None, None, root)
        else:
            name = records.firing_span_name(event)
            attrs = records.firing_span_attributes(event, inp, len(entries))
            sampling = presets[1].inner.should_sample(
                parent_ctx, trace_id, name, SpanKind.INTERNAL, attrs, ()
            )
            sc = _span_context(
                trace_id,
                ids.generate_span_id(),
                sampling.decision.is_sampled(),
                sampling.trace_state,
                random_id,
            )
            assigned = _Ids(sc, parent_ctx, sampling, attrs, root)
        f = _Firing(event, inp, entries, sequential, None, start, ids=assigned, caller=ctx)
        f.token = otel_context.attach(trace.set_span_in_context(trace.NonRecordingSpan(sc)))
        f.var_token = _FIRING.set(f)
        return f

    def _open_firing(
        self, event: str, inp: dict[str, Any], entries: Sequence[Any], sequential: bool, start: int
    ) -> _Firing:
        """:meth:`start_firing` through the tracer's ``start_span``, for a tracer that is not the
        SDK's."""
        parent = None
        if self._remote is not None and not trace.get_current_span().get_span_context().is_valid:
            parent = self._remote
        span = self.tracer.start_span(
            records.firing_span_name(event),
            context=parent,
            kind=SpanKind.INTERNAL,
            start_time=start,
            attributes=records.firing_span_attributes(event, inp, len(entries)),
        )
        f = _Firing(event, inp, entries, sequential, span, start, caller=otel_context.get_current())
        f.token = otel_context.attach(trace.set_span_in_context(span))
        f.var_token = _FIRING.set(f)
        return f

    # ---- HookSystem.add_monitor(before=..., after=...) ----------------------------------------
    #: a weak reference to the hook system whose ``decision_context()`` goes into decision records
    decision_source: Callable[[], Any] | None = None

    def before(self, event: Any, entries: Sequence[Any], inp: dict[str, Any]) -> None:
        """A firing starts running ``entries``: open its span and make it current."""
        f = self.start_firing(
            str(getattr(event, "value", event)),
            inp,
            entries,
            any(getattr(e, "sequential", False) for e in entries),
        )
        source = self.decision_source() if self.decision_source is not None else None
        f.decision = dict(
            source.decision_context() if source is not None else {}, agent=AGENT.get()
        )

    def after(
        self, event: Any, entries: Sequence[Any], inp: dict[str, Any], outcomes: Sequence[Any]
    ) -> None:
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
        if (
            f.ids is not None and self._presets is not None
        ):  # its id assigned here, its span built on the worker
            fsc = f.ids.span_context
            span_id = self._presets[0].inner.generate_span_id()
            if self._static is not None:  # a child of the firing's span
                sampling = None
                sc = _span_context(
                    fsc.trace_id,
                    span_id,
                    *_static_decision(self._static, fsc),
                    fsc.trace_flags & _RANDOM_FLAG,
                )
            else:
                ctx = trace.set_span_in_context(trace.NonRecordingSpan(fsc))
                sampling = self._presets[1].inner.should_sample(
                    ctx, fsc.trace_id, "hook", SpanKind.INTERNAL, None, ()
                )
                sc = _span_context(
                    fsc.trace_id,
                    span_id,
                    sampling.decision.is_sampled(),
                    sampling.trace_state,
                    fsc.trace_flags & _RANDOM_FLAG,
                )
            if f.hook_ids is None:
                f.hook_ids = {}
            f.hook_ids[id(entry)] = (_Ids(sc, None, sampling, None, False), now)
        else:
            span = self.tracer.start_span(
                "hook",
                context=trace.set_span_in_context(f.span),
                kind=SpanKind.INTERNAL,
                start_time=now,
            )
            if f.started is None:
                f.started = {}
            f.started[id(entry)] = (span, now)
            sc = span.get_span_context()
        if not sc.is_valid:
            return {}
        return {"TRACEPARENT": f"00-{sc.trace_id:032x}-{sc.span_id:016x}-{int(sc.trace_flags):02x}"}

    def end_firing(
        self, f: _Firing, outcomes: Sequence[Any], error: BaseException | None = None
    ) -> None:
        """Restore the caller's context now; the records of the firing are built on the export
        worker."""
        end = time.time_ns()
        try:
            _FIRING.reset(f.var_token)
        except (
            ValueError
        ):  # reset from another context (an async host that switched tasks): nothing to undo
            pass
        otel_context.detach(f.token)
        f.token = f.var_token = (
            None  # what they hold (the caller's context) is not kept while the firing waits
        )
        self._enqueue((f, list(outcomes), error, end))

    def _emit_firing(
        self, f: _Firing, outcomes: Sequence[Any], error: BaseException | None, end: int
    ) -> None:
        """One log record, the metrics and a span per hook call; then the firing's span is
        closed."""
        if (
            f.span is None and f.ids is not None
        ):  # its ids were assigned in the firing: the SDK span is built now
            attrs = f.ids.attributes
            if attrs is None:  # left to the worker (:func:`_static_sampling`)
                attrs = records.firing_span_attributes(f.event, f.inp, len(f.entries))
            f.span = self._start_with(records.firing_span_name(f.event), f.ids, f.start_ns, attrs)
            if f.span.get_span_context() != f.ids.span_context:
                self._ids_differ(f.span.get_span_context(), f.ids.span_context)
        try:
            if outcomes:
                self._emit_calls(f, outcomes, end)
                self._emit_decision(f, outcomes, end)
            for span, _ in (
                f.started or {}
            ).values():  # spawned but without an outcome (the firing raised)
                span.end(end_time=end)
            if f.hook_ids:
                parent = trace.set_span_in_context(f.span, f.caller)
                for ids, start in f.hook_ids.values():
                    self._start_with("hook", ids._replace(parent=parent), start).end(end_time=end)
            if error is not None:
                self._span_error(f.span, error)
        finally:
            f.span.end(end_time=end)

    def _span_error(self, span: Any, error: BaseException) -> None:
        """A span ends with an exception: its message (which can quote a hook's answer or the tool
        input) only with ``logPrompts`` on; the type always."""
        kind = type(error).__name__
        if self.log_prompts:
            span.record_exception(error)
        text = f"{kind}: {error}" if self.log_prompts else kind
        span.set_status(Status(StatusCode.ERROR, records.scrub_urls(text)))
        span.set_attribute("error.type", kind)

    def _emit_decision(self, f: _Firing, outcomes: Sequence[Any], end: int) -> None:
        """The firing's decision record (:mod:`hookwise.decisions`), in the context of its span."""
        from hookwise.core.merge import merge
        from hookwise.events import parse_event

        merged = merge(parse_event(f.event), [o.output for o in outcomes if o.output], f.inp)
        body, attrs = decision_record(
            f.event, f.inp, outcomes, merged, f.decision or {}, (end - f.start_ns) / 1e6
        )
        self._private_decision(body, attrs)
        self.logger.emit(
            LogRecord(
                timestamp=end,
                observed_timestamp=time.time_ns(),
                context=trace.set_span_in_context(f.span),
                severity_number=SeverityNumber.INFO,
                severity_text="INFO",
                body=body,
                attributes=attrs,
                event_name=DECISION_EVENT,
            )
        )

    def _private_decision(self, body: dict[str, Any], attrs: dict[str, Any]) -> None:
        """A decision record says what ``logPrompts`` allows, like a hook call's: URLs scrubbed
        always; with it off, reduced hook names and no reason (a hook's reason can quote the tool
        input)."""
        names = [records.scrub_urls(str(n)) for n in attrs.get("hook_names", [])]
        if not self.log_prompts:
            names = [records.sanitize_hook_name(n) for n in names]
            attrs["reason"] = body["reason"] = ""
        else:
            attrs["reason"] = body["reason"] = records.scrub_urls(str(attrs.get("reason", "")))
        attrs["hook_names"] = names
        for h, n in zip(body.get("hooks", []), names, strict=False):
            h["name"] = n

    def _ids_differ(self, got: Any, assigned: Any) -> None:
        """The SDK did not give a span the context assigned in the firing (an SDK version whose
        ``start_span`` assigns ids or flags differently): said once, and later firings open their
        spans through the tracer."""
        if not self._assign_ids:
            return
        self._assign_ids = False
        from hookwise.telemetry.export import stderr_warning

        stderr_warning(
            f"telemetry: the OpenTelemetry SDK gave a firing's span the context {got}, not "
            f"{assigned} as assigned in the firing; spans are now opened in firings"
        )

    def _start_with(
        self, name: str, ids: _Ids, start: int, attributes: dict[str, Any] | None = None
    ) -> Any:
        """Start the SDK span whose ids (and sampling decision, unless the sampler decides on the
        parent alone) the firing thread assigned (:class:`_Ids`), with ``attributes`` or those it
        assigned."""
        presets = self._presets
        assert presets is not None
        p = presets[0].preset
        sc = ids.span_context
        p.trace_id, p.span_id, p.sampling = (
            (sc.trace_id if ids.root else 0),
            sc.span_id,
            ids.sampling,
        )
        try:
            return self.tracer.start_span(
                name,
                context=ids.parent,
                kind=SpanKind.INTERNAL,
                start_time=start,
                attributes=attributes if attributes is not None else ids.attributes,
            )
        finally:
            p.trace_id = p.span_id = 0
            p.sampling = None

    def _emit_calls(self, f: _Firing, outcomes: Sequence[Any], end: int) -> None:
        """The records of each hook call of a firing; what the hooks share is computed once."""
        session = f.inp.get("session_id")
        if not isinstance(session, str) or not session:
            session = None
        input_json = records.input_json(f.inp) if self.log_prompts else None
        parent = trace.set_span_in_context(f.span, f.caller)
        started = f.started
        hook_ids = f.hook_ids
        cursor = f.start_ns
        counts: dict[str, int] = {}
        decisions: list[str] = []
        for entry, o in zip(f.entries, outcomes, strict=True):
            duration = float(round(o.duration_ms, 3))  # the ``hook_call`` trace record's
            pre = started.pop(id(entry), None) if started else None
            assigned = hook_ids.pop(id(entry), None) if hook_ids else None
            ids = None
            if pre is not None:
                span, start = pre
            elif (
                assigned is not None
            ):  # its id went out in TRACEPARENT when its command was spawned
                span, (ids, start) = None, assigned
            else:
                span, start = None, cursor if f.sequential else f.start_ns
            cursor = start + int(duration * 1_000_000)
            stop = min(cursor, end)
            outcome = o.outcome.value
            call = records.hook_call(
                event=o.event,
                name=o.name or "",
                hook_type=o.hook_type,
                source=o.source,
                outcome=outcome,
                exit_code=o.exit_code,
                duration_ms=duration,
                output=o.output,
                stdout=o.stdout,
                stderr=o.stderr,
                error=o.error,
                session=session,
                log_prompts=self.log_prompts,
                timestamp=iso_ms(stop),
                input_json=input_json,
            )
            counts[outcome] = counts.get(outcome, 0) + 1
            decisions.append(call.decision)
            if ids is not None:  # as the SDK would have started it when its command was spawned
                span = self._start_with("hook", ids._replace(parent=parent), start)
            self._emit(call, span, start, stop, parent)
        f.span.set_attributes(records.firing_result_attributes(decisions, counts))

    def _emit(self, call: records.HookCall, span: Any, start: int, end: int, parent: Any) -> None:
        """Hand one hook call's span, log record and metric points to the SDK; the span is ended
        here."""
        if span is None:
            span = self.tracer.start_span(
                call.span_name,
                context=parent,
                kind=SpanKind.INTERNAL,
                start_time=start,
                attributes=call.span_attributes,
            )
        else:  # started when its command was spawned (its id went out in TRACEPARENT)
            span.update_name(call.span_name)
            span.set_attributes(call.span_attributes)
        if call.error_status is not None:
            span.set_status(Status(StatusCode.ERROR, call.error_status))
        self.logger.emit(
            LogRecord(
                timestamp=end,
                observed_timestamp=time.time_ns(),
                context=trace.set_span_in_context(span),
                severity_number=SeverityNumber.INFO,
                severity_text="INFO",
                body=call.body,
                attributes=call.log_attributes,
                event_name=records.EVENT_NAME,
            )
        )
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
            if self._worker is None:
                self._idle = False
                self._worker = threading.Thread(
                    target=self._work, name="hookwise-telemetry", daemon=True
                )
                self._worker.start()
            elif (
                self._idle or len(pending) == BATCH_FIRINGS
            ):  # busy or in its window, it takes this firing then
                self._idle = False
                self._wake.notify()

    def _work(self) -> None:
        try:
            self._work_batches()
        finally:
            # it ended idle, or something it should never meet stopped it: the next firing starts
            # another
            with self._queue_lock:
                if self._worker is threading.current_thread():
                    self._idle = self._busy = False
                    self._worker = None
                self._done.notify_all()

    def _work_batches(self) -> None:
        batch: list[tuple[Any, ...]] | None = None
        item: tuple[Any, ...] | None = None
        while True:
            with self._queue_lock:
                if not self._pending:
                    self._busy = False
                    self._done.notify_all()
                    self._wake.wait(BATCH_WINDOW_S)  # firings that come now do not wake it
                while not self._pending:
                    self._idle = True
                    if not self._wake.wait(IDLE_EXIT_S) and not self._pending:
                        self._idle = False
                        self._worker = (
                            None  # still under the lock: the next firing starts a new worker
                        )
                        return
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

                        stderr_warning(
                            f"telemetry: could not record a firing: {type(exc).__name__}: {exc}"
                        )
            batch = item = (
                None  # freed here, before waiting, not by the next firing's garbage collection
            )

    def drain(self, timeout_s: float = 5.0) -> bool:
        """Wait until every finished firing has been handed to the SDK (True) or ``timeout_s``
        passed."""
        deadline = time.monotonic() + timeout_s
        with self._queue_lock:
            while self._pending or self._busy:
                left = deadline - time.monotonic()
                if left <= 0 or self._worker is None or not self._worker.is_alive():
                    return not self._pending
                if self._pending:
                    self._wake.notify()  # in its batch window: no need to wait for the end of it
                self._done.wait(left)
        return True

    # ---- records ---------------------------------------------------------------------------
    def record(
        self,
        rec: Mapping[str, Any],
        *,
        span: Any = None,
        end_ns: int | None = None,
        input_json: str | None = None,
    ) -> None:
        """Emit the telemetry of one ``hook_call`` record (docs/contract.md §10); ``span`` is ended
        here."""
        end = end_ns if end_ns is not None else time.time_ns()
        call = records.hook_call_from_record(
            rec, log_prompts=self.log_prompts, timestamp=iso_ms(end), input_json=input_json
        )
        self._emit(call, span, end - int(call.duration_ms * 1_000_000), end, None)

    # ---- host spans (the reference agent host) -----------------------------------------------
    @contextmanager
    def span(
        self, name: str, attributes: Mapping[str, Any], *, client: bool = False
    ) -> Iterator[Any]:
        """A span around host work (``invoke_agent``, ``chat``, ``execute_tool``), current while it
        runs."""
        kind = SpanKind.CLIENT if client else SpanKind.INTERNAL
        with self.tracer.start_as_current_span(
            name,
            kind=kind,
            attributes=dict(attributes),
            record_exception=False,
            set_status_on_exception=False,
        ) as s:
            try:
                yield s
            except Exception as exc:
                self._span_error(s, exc)
                raise

    # ---- lifetime --------------------------------------------------------------------------
    @staticmethod
    def drain_all(timeout_s: float = 5.0) -> None:
        """:meth:`drain` every live observer, within ``timeout_s`` in all (tests read in-memory
        exporters after this; exiting does it too)."""
        deadline = time.monotonic() + timeout_s
        for tel in list(_ALL):
            tel.drain(max(0.0, deadline - time.monotonic()))

    def flush(self, timeout_s: float = 5.0) -> None:
        self.drain(timeout_s)
        if self._owned is not None:
            self._owned.flush(timeout_s)

    def shutdown(self, timeout_s: float = 3.0) -> None:
        """Flush and stop the providers this object built (never the host's), waiting at most
        ``timeout_s``."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self.drain(timeout_s)
        if self._owned is not None:
            self._owned.shutdown(timeout_s)
