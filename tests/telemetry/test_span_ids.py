"""Span ids assigned in the firing, SDK spans built on the export worker (docs/telemetry.md, "Cost
and failure"): what in-process code sees as its current span and what a command hook gets in
TRACEPARENT are the ids of the exported spans; sampling, an inherited TRACEPARENT and a tracer that
is not the SDK's behave as the SDK would."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from tests.conftest import Project
from tests.telemetry.conftest import Sdk

from hookwise import HookSystem

pytest.importorskip("opentelemetry.sdk", reason="needs the otel extra")

from opentelemetry import context, trace  # noqa: E402

from hookwise.telemetry import instrument  # noqa: E402
from hookwise.telemetry.observer import HookTelemetry  # noqa: E402

TP_HOOK = """
    json.load(sys.stdin)
    print(json.dumps({"systemMessage": os.environ.get("TRACEPARENT", "none")}))
"""


def _traceparent(sc: Any) -> str:
    return f"00-{sc.trace_id:032x}-{sc.span_id:016x}-{int(sc.trace_flags):02x}"


def _system(
    project: Project, seen: list[Any], tracer: Any = None, *, sequential: bool = False
) -> HookSystem:
    """A command hook that answers with its TRACEPARENT, then a Python hook that notes the current
    span in ``seen`` (and starts a span of its own with ``tracer``, when one is given)."""
    project.hooks(
        "BeforeTool",
        {"type": "command", "name": "tp", "command": project.script("tp.py", TP_HOOK)},
        sequential=sequential,
    )
    hs = HookSystem(project.root, trust_all=True)

    @hs.hook("BeforeTool", name="py")
    def py(inp: dict[str, Any]) -> None:
        seen.append(trace.get_current_span().get_span_context())
        if tracer is not None:
            with tracer.start_as_current_span("inside the hook"):
                pass

    return hs


def _started_on(sdk: Sdk) -> dict[str, set[str]]:
    """The threads on which the SDK starts each span, by span name (a span processor of the
    provider)."""
    from opentelemetry.sdk.trace import SpanProcessor

    threads: dict[str, set[str]] = {}

    class Where(SpanProcessor):
        def on_start(self, span: Any, parent_context: Any = None) -> None:
            threads.setdefault(span.name, set()).add(threading.current_thread().name)

    sdk.tracer_provider.add_span_processor(Where())
    return threads


def _instrument(hs: HookSystem, sdk: Sdk, tracer_provider: Any = None) -> HookTelemetry:
    return instrument(
        hs,
        tracer_provider=tracer_provider or sdk.tracer_provider,
        meter_provider=sdk.meter_provider,
        logger_provider=sdk.logger_provider,
    )


def test_ids_seen_in_the_firing_are_the_exported_spans(project: Project, sdk: Sdk) -> None:
    host = sdk.tracer_provider.get_tracer("host")
    seen: list[Any] = []
    hs = _system(project, seen, host)
    _instrument(hs, sdk)
    threads = _started_on(sdk)
    with host.start_as_current_span("execute_tool t") as caller:
        result = hs.fire("BeforeTool", tool_name="t", tool_input={})
        assert trace.get_current_span() is caller  # the caller's context is back
    firing = sdk.span("hooks BeforeTool")
    # in-process code saw the firing's span as current: its ids, its flags
    assert seen[0] == firing.get_span_context()
    assert firing.parent.span_id == caller.get_span_context().span_id
    assert firing.context.trace_id == caller.get_span_context().trace_id
    # the command hook got the TRACEPARENT of its own span, a child of the firing's
    hook = sdk.span("hook BeforeTool tp")
    assert result.output["systemMessage"] == _traceparent(hook.get_span_context())
    assert hook.parent.span_id == firing.context.span_id
    assert (
        hook.attributes["hookwise.hook.outcome"] == "ok"
        and hook.attributes["hookwise.hook.exit_code"] == 0
    )
    # a span started inside a Python hook is a child of the firing's span, in its trace
    inner = sdk.span("inside the hook")
    assert (
        inner.parent.span_id == firing.context.span_id
        and inner.context.trace_id == firing.context.trace_id
    )
    py = sdk.span("hook BeforeTool py")
    assert (
        py.parent.span_id == firing.context.span_id
        and py.context.trace_id == firing.context.trace_id
    )
    # the log records carry the ids of their hooks' spans
    ids = {r.attributes["hook_name"]: (r.trace_id, r.span_id) for r in sdk.logs()}
    assert ids == {
        "tp": (hook.context.trace_id, hook.context.span_id),
        "py": (py.context.trace_id, py.context.span_id),
    }
    # the firing thread started only the caller's span; the Python hook ran on its worker thread (so
    # a timeout can abandon it: docs/hook-types.md) and started its span there, in the firing's
    # context; hookwise's spans were built elsewhere
    here = threading.current_thread().name
    assert threads["execute_tool t"] == {here}
    assert threads["inside the hook"] == {"hookwise-python-hook"}
    assert (
        here not in threads["hooks BeforeTool"] | threads["hook"] | threads["hook BeforeTool py"]
    )  # "hook": tp


def test_a_firing_without_a_caller_starts_a_trace(project: Project, sdk: Sdk) -> None:
    seen: list[Any] = []
    hs = _system(project, seen, sequential=True)
    _instrument(hs, sdk)
    results = [hs.fire("BeforeTool", tool_name="t", tool_input={}) for _ in range(2)]
    firings = [s for s in sdk.spans() if s.name == "hooks BeforeTool"]
    hooks = [s for s in sdk.spans() if s.name == "hook BeforeTool tp"]
    assert len(firings) == 2 and len(hooks) == 2
    assert firings[0].context.trace_id != firings[1].context.trace_id  # a trace per firing
    for firing, hook, sc, result in zip(firings, hooks, seen, results, strict=True):
        assert firing.parent is None
        assert sc == firing.get_span_context()
        assert result.output["systemMessage"] == _traceparent(hook.get_span_context())
        assert hook.parent.span_id == firing.context.span_id
        assert firing.context.trace_flags.sampled
    assert not trace.get_current_span().get_span_context().is_valid


def test_an_inherited_traceparent_is_the_parent(project: Project, sdk: Sdk) -> None:
    seen: list[Any] = []
    hs = _system(project, seen)
    parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
    hs.telemetry = HookTelemetry(
        sdk.tracer_provider, sdk.meter_provider, sdk.logger_provider, parent_traceparent=parent
    )
    result = hs.fire("BeforeTool", tool_name="t", tool_input={})
    firing = sdk.span("hooks BeforeTool")
    assert f"{firing.context.trace_id:032x}" == "0af7651916cd43dd8448eb211c80319c"
    assert f"{firing.parent.span_id:016x}" == "b7ad6b7169203331" and firing.parent.is_remote
    assert seen[0] == firing.get_span_context()
    assert result.output["systemMessage"] == _traceparent(
        sdk.span("hook BeforeTool tp").get_span_context()
    )


def test_a_parent_that_is_not_sampled_gives_no_spans_but_the_right_traceparent(
    project: Project, sdk: Sdk
) -> None:
    seen: list[Any] = []
    hs = _system(project, seen)
    _instrument(hs, sdk)
    trace_id, span_id = 0x4BF92F3577B34DA6A3CE929D0E0E4736, 0x00F067AA0BA902B7
    parent = trace.NonRecordingSpan(
        trace.SpanContext(
            trace_id,
            span_id,
            is_remote=True,
            trace_flags=trace.TraceFlags(trace.TraceFlags.DEFAULT),
        )
    )
    token = context.attach(trace.set_span_in_context(parent))
    try:
        result = hs.fire("BeforeTool", tool_name="t", tool_input={})
    finally:
        context.detach(token)
    tp = result.output["systemMessage"]
    assert tp.startswith(f"00-{trace_id:032x}-") and tp.endswith(
        "-00"
    )  # ParentBased: not sampled, as the parent
    assert tp.split("-")[2] not in ("0" * 16, f"{span_id:016x}", f"{seen[0].span_id:016x}")
    assert (
        seen[0].trace_id == trace_id
        and seen[0].span_id != span_id
        and not seen[0].trace_flags.sampled
    )
    assert (
        sdk.spans() == []
    )  # no span is recorded, as the SDK does for a parent that is not sampled
    logs = (
        sdk.logs()
    )  # logs and metrics are not sampled: they still come, with the ids of the hooks' spans
    assert sorted(r.attributes["hook_name"] for r in logs) == ["py", "tp"]
    assert all(r.trace_id == trace_id for r in logs)
    assert {r.span_id for r in logs if r.attributes["hook_name"] == "tp"} == {
        int(tp.split("-")[2], 16)
    }


class _OtherTracerProvider(trace.TracerProvider):
    """Another OpenTelemetry implementation's provider: its tracers are not the SDK's ``Tracer``
    (they hand their spans to an SDK tracer, so the test can read them)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def get_tracer(self, *args: Any, **kwargs: Any) -> trace.Tracer:
        return _OtherTracer(self.inner.get_tracer(*args, **kwargs))


class _OtherTracer(trace.Tracer):
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def start_span(self, *args: Any, **kwargs: Any) -> trace.Span:
        return self.inner.start_span(*args, **kwargs)  # type: ignore[no-any-return]

    def start_as_current_span(self, *args: Any, **kwargs: Any) -> Any:
        return self.inner.start_as_current_span(*args, **kwargs)


def test_a_tracer_that_is_not_the_sdks_opens_spans_in_the_firing(
    project: Project, sdk: Sdk
) -> None:
    host = sdk.tracer_provider.get_tracer("host")
    seen: list[Any] = []
    hs = _system(project, seen, host)
    tel = _instrument(hs, sdk, _OtherTracerProvider(sdk.tracer_provider))
    assert not hasattr(tel.tracer, "id_generator")
    threads = _started_on(sdk)
    with host.start_as_current_span("caller") as caller:
        result = hs.fire("BeforeTool", tool_name="t", tool_input={})
    firing = sdk.span("hooks BeforeTool")
    assert firing.parent.span_id == caller.get_span_context().span_id
    assert seen[0] == firing.get_span_context()
    hook = sdk.span("hook BeforeTool tp")
    assert result.output["systemMessage"] == _traceparent(hook.get_span_context())
    assert hook.parent.span_id == firing.context.span_id
    assert sdk.span("inside the hook").parent.span_id == firing.context.span_id
    assert len(sdk.logs()) == 2
    assert threads["hooks BeforeTool"] == {threading.current_thread().name}  # opened in the firing


def test_other_spans_of_the_tracer_keep_the_sdks_ids(project: Project, sdk: Sdk) -> None:
    # the SDK shares a tracer per scope: two observers on one provider wrap it once; its other spans
    # (the reference host's, or another user's of the scope) get the SDK's own ids and sampling
    seen: list[Any] = []
    hs = _system(project, seen)
    first = _instrument(hs, sdk)
    second = HookTelemetry(sdk.tracer_provider, sdk.meter_provider, sdk.logger_provider)
    assert first.tracer is second.tracer
    assert first.tracer.id_generator is second.tracer.id_generator  # type: ignore[attr-defined]
    with first.span("invoke_agent hookwise", {}) as outer:
        hs.fire("BeforeTool", tool_name="t", tool_input={})
    with second.span("chat m", {}, client=True):
        pass
    spans = {s.name: s for s in sdk.spans()}
    assert spans["hooks BeforeTool"].parent.span_id == outer.get_span_context().span_id
    ids = [s.context.span_id for s in sdk.spans()]
    assert len(set(ids)) == len(ids) and all(ids)
    assert spans["chat m"].parent is None
    assert spans["chat m"].context.trace_id != spans["invoke_agent hookwise"].context.trace_id


@pytest.mark.slow
def test_a_span_the_sdk_builds_with_other_ids_is_said_once_and_firings_open_their_spans(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    # an id generator whose answer to "are trace ids random" changes from call to call: the SDK sets
    # the random-trace-id flag of the span it builds differently from the flags assigned in the
    # firing
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.sdk.trace.id_generator import RandomIdGenerator

    class Fickle(RandomIdGenerator):
        calls = 0

        def is_trace_id_random(self) -> bool:
            self.calls += 1
            return self.calls % 2 == 1

    exporter = InMemorySpanExporter()
    tp = TracerProvider(id_generator=Fickle())
    tp.add_span_processor(SimpleSpanProcessor(exporter))
    seen: list[Any] = []
    hs = _system(project, seen)
    tel = instrument(hs, tracer_provider=tp)
    results = [hs.fire("BeforeTool", tool_name="t", tool_input={})]
    tel.drain()  # the export worker built the first firing's span, and found it differs
    results += [hs.fire("BeforeTool", tool_name="t", tool_input={}) for _ in range(2)]
    tel.drain()
    err = capsys.readouterr().err
    assert err.count("telemetry: the OpenTelemetry SDK gave a firing's span the context") == 1, err
    firings = [s for s in exporter.get_finished_spans() if s.name == "hooks BeforeTool"]
    hooks = [s for s in exporter.get_finished_spans() if s.name == "hook BeforeTool tp"]
    assert len(firings) == len(hooks) == 3
    for firing, hook, sc, result in list(zip(firings, hooks, seen, results, strict=True))[
        1:
    ]:  # opened in firings
        assert sc == firing.get_span_context()
        assert result.output["systemMessage"] == _traceparent(hook.get_span_context())


def test_an_async_hook_is_a_firing_of_its_own_under_the_callers_span_with_its_traceparent(
    project: Project, sdk: Sdk
) -> None:
    """An ``async`` command hook runs after its firing went ahead: it gets a firing span of its own,
    a child of the caller's span, its hook span, log record and ``TRACEPARENT``, like any command
    hook."""
    out = project.root / "tp.txt"
    writer = project.script(
        "tp_writer.py",
        f"""
    json.load(sys.stdin)
    open({str(out)!r}, "w").write(os.environ.get("TRACEPARENT", "none"))
    """,
    )
    project.hooks(
        "BeforeTool", {"type": "command", "name": "later", "command": writer, "async": True}
    )
    hs = HookSystem(project.root, trust_all=True)
    _instrument(hs, sdk)
    with sdk.tracer_provider.get_tracer("host").start_as_current_span("execute_tool t") as host:
        hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert hs.wait_background(30) == []
    (hook,) = [s for s in sdk.spans() if s.name.startswith("hook ")]
    (firing,) = [s for s in sdk.spans() if s.name == "hooks BeforeTool"]
    assert out.read_text() == _traceparent(hook.context)
    assert hook.parent.span_id == firing.context.span_id
    assert firing.parent.span_id == host.get_span_context().span_id
    assert [r.attributes["hook_name"] for r in sdk.logs()] == ["later"]


class _Tagging:
    """A sampler whose answer depends on more than the parent: it samples every span, adds an
    attribute and a trace state entry (so firings must ask it, and keep what it said)."""

    def should_sample(
        self,
        parent_context: Any,
        trace_id: int,
        name: str,
        kind: Any = None,
        attributes: Any = None,
        links: Any = None,
        trace_state: Any = None,
    ) -> Any:
        from opentelemetry.sdk.trace.sampling import Decision, SamplingResult

        return SamplingResult(
            Decision.RECORD_AND_SAMPLE,
            {**(attributes or {}), "sampled.by": "tagging"},
            trace.TraceState([("tag", "yes")]),
        )

    def get_description(self) -> str:
        return "Tagging"


def _samplers() -> dict[str, tuple[Any, bool]]:
    """name -> (sampler, decided by the parent alone)"""
    from opentelemetry.sdk.trace import sampling as s

    return {
        "default": (s.DEFAULT_ON, True),
        "always on": (s.ALWAYS_ON, True),
        "always off": (s.ALWAYS_OFF, True),
        "parent-based, root off": (s.ParentBased(s.ALWAYS_OFF), True),
        "parent-based, against the parent": (
            s.ParentBased(
                s.ALWAYS_ON,
                remote_parent_sampled=s.ALWAYS_OFF,
                remote_parent_not_sampled=s.ALWAYS_ON,
                local_parent_not_sampled=s.ALWAYS_ON,
            ),
            True,
        ),
        "parent-based ratio": (s.ParentBased(s.TraceIdRatioBased(0.5)), False),
        "tagging": (_Tagging(), False),
    }


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [
        "default",
        "always on",
        "always off",
        "parent-based, root off",
        "parent-based, against the parent",
        "parent-based ratio",
        "tagging",
    ],
)
@pytest.mark.parametrize(
    "caller", ["none", "sampled", "not sampled", "remote sampled", "remote not sampled"]
)
def test_every_sampler_gets_the_ids_and_flags_the_sdk_gives(
    project: Project, name: str, caller: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whether a firing reads the sampler's decision off its parent (the SDK's static samplers) or
    asks the sampler, the ids in-process code sees and a command hook's TRACEPARENT are those of the
    spans the SDK exports, with the flags and trace state it gives them, and the sampler's own
    attributes stay on the firing's span."""
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    sampler, static = _samplers()[name]
    exporter = InMemorySpanExporter()
    tp = TracerProvider(sampler=sampler)
    tp.add_span_processor(SimpleSpanProcessor(exporter))
    seen: list[Any] = []
    hs = _system(project, seen)
    tel = instrument(hs, tracer_provider=tp)
    assert (tel._static is not None) is static
    sampled = "not" not in caller
    parent = trace.NonRecordingSpan(
        trace.SpanContext(
            0x4BF92F3577B34DA6A3CE929D0E0E4736,
            0x00F067AA0BA902B7,
            is_remote=caller.startswith("remote"),
            trace_flags=trace.TraceFlags(1 if sampled else 0),
            trace_state=trace.TraceState([("vendor", "v1")]),
        )
    )
    token = context.attach(trace.set_span_in_context(parent)) if caller != "none" else None
    try:
        results = [hs.fire("BeforeTool", tool_name="t", tool_input={}) for _ in range(3)]
    finally:
        if token is not None:
            context.detach(token)
    tel.drain()
    assert (
        "telemetry:" not in capsys.readouterr().err
    )  # the SDK built every span with the context assigned
    spans = exporter.get_finished_spans()
    firings = [s for s in spans if s.name == "hooks BeforeTool"]
    hooks = {s.context.span_id: s for s in spans if s.name == "hook BeforeTool tp"}
    for sc, result in zip(seen, results, strict=True):
        tp_trace, tp_span, tp_flags = result.output["systemMessage"].split("-")[1:]
        assert int(tp_trace, 16) == sc.trace_id
        if caller != "none":
            assert sc.trace_id == parent.get_span_context().trace_id
        if sc.trace_flags.sampled:  # exported, with exactly these ids, flags and trace state
            firing = next(s for s in firings if s.context.span_id == sc.span_id)
            assert firing.get_span_context() == sc
            assert firing.attributes["hookwise.event"] == "BeforeTool"
            if name == "tagging":
                assert (
                    firing.attributes["sampled.by"] == "tagging"
                    and sc.trace_state.get("tag") == "yes"
                )
            elif caller != "none":
                assert (
                    sc.trace_state.get("vendor") == "v1"
                )  # the parent's trace state, as the SDK carries it
        else:
            assert sc.span_id not in {s.context.span_id for s in firings}
        if (
            int(tp_flags, 16) & 1
        ):  # the command hook's span, sampled as the sampler decides for a child
            hook = hooks[int(tp_span, 16)]
            assert hook.parent.span_id == sc.span_id and int(hook.context.trace_flags) == int(
                tp_flags, 16
            )
            assert hook.context.trace_state == sc.trace_state or name == "tagging"
        else:
            assert int(tp_span, 16) not in hooks
    assert len(firings) == sum(sc.trace_flags.sampled for sc in seen)
    assert len(hooks) == sum(int(r.output["systemMessage"][-2:], 16) & 1 for r in results)


HOST_SETS_PROVIDER_LATE = """
import json, sys, threading
from opentelemetry import trace
from opentelemetry.sdk.trace import SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from hookwise import HookSystem
from hookwise.telemetry import instrument

hs = HookSystem(sys.argv[1], trust_all=True)
tel = instrument(hs)  # before the host set a global tracer provider: the API's proxy tracer
early = hs.fire("BeforeTool", tool_name="t", tool_input={}).output["systemMessage"]
exporter = InMemorySpanExporter()
threads = {}

class Where(SpanProcessor):
    def on_start(self, span, parent_context=None):
        threads.setdefault(span.name, set()).add(threading.current_thread().name)

tp = TracerProvider()
tp.add_span_processor(SimpleSpanProcessor(exporter))
tp.add_span_processor(Where())
trace.set_tracer_provider(tp)
late = [
    hs.fire("BeforeTool", tool_name="t", tool_input={}).output["systemMessage"] for _ in range(2)
]
tel.drain()
spans = exporter.get_finished_spans()
print(json.dumps({
    "early": early, "late": late,
    "hooks": [
        f"00-{s.context.trace_id:032x}-{s.context.span_id:016x}-{int(s.context.trace_flags):02x}"
        for s in spans if s.name == "hook BeforeTool tp"
    ],
    "firing_threads": sorted(threads.get("hooks BeforeTool", ())),
    "main": threading.current_thread().name}))
"""


@pytest.mark.slow
def test_a_global_provider_set_after_instrument_is_used_from_then_on(project: Project) -> None:
    """A host that instruments before it sets its global tracer provider gets the provider's SDK
    tracer from the first firing after: span ids assigned in the firing, spans built on the export
    worker, TRACEPARENT agreeing."""
    import json
    import subprocess
    import sys

    project.hooks(
        "BeforeTool", {"type": "command", "name": "tp", "command": project.script("tp.py", TP_HOOK)}
    )
    proc = subprocess.run(
        [sys.executable, "-c", HOST_SETS_PROVIDER_LATE, str(project.root)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["early"] == "none"  # no provider yet: a no-op span, no TRACEPARENT
    assert sorted(out["late"]) == sorted(out["hooks"]) and len(out["hooks"]) == 2
    assert out["firing_threads"] == [
        "hookwise-telemetry"
    ]  # built on the export worker, not in the firing
    assert "telemetry:" not in proc.stderr
