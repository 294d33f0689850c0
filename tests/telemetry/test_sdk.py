"""Hook calls through the SDK's in-memory exporters: every attribute, logPrompts on/off, every
outcome, span nesting under the caller's span, TRACEPARENT for command hooks (docs/telemetry.md)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from tests.conftest import Project, emit
from tests.telemetry.conftest import Sdk

from hookwise import HookSystem

pytest.importorskip("opentelemetry.sdk", reason="needs the otel extra")

from opentelemetry.trace import SpanKind, StatusCode  # noqa: E402

from hookwise.telemetry import instrument  # noqa: E402

LOG_KEYS_ALWAYS = {
    "event.name",
    "event.timestamp",
    "session.id",
    "hook_event_name",
    "hook_type",
    "hook_name",
    "duration_ms",
    "success",
    "source",
    "outcome",
}
LOG_KEYS_PROMPTS = {"hook_input", "hook_output", "stdout", "stderr"}

#: hook name -> (command, expected outcome, exit code attribute or None)
OUTCOMES: dict[str, tuple[str, str, int | None]] = {
    "ok hook": (emit({"decision": "allow", "reason": "fine"}), "ok", 0),
    "blocked hook": (emit(stderr="no way", exit=2), "blocked", 2),
    "failed hook": (emit("garbage", exit=1, stderr="boom"), "failed", 1),
    "notrun hook": ("exit 127", "not-run", 127),
    "slow hook": ("sleep 5", "timeout", None),
}


def _system(
    project: Project,
    sdk: Sdk,
    *,
    log_prompts: bool = True,
    trust_all: bool = True,
    extra: list[dict[str, Any]] | None = None,
) -> HookSystem:
    hooks = [
        {
            "type": "command",
            "name": name,
            "command": cmd,
            "timeout": 400 if "slow" in name else 10000,
        }
        for name, (cmd, _, _) in OUTCOMES.items()
    ]
    project.write_settings({"hooks": {"BeforeTool": [{"hooks": hooks + (extra or [])}]}})
    hs = HookSystem(project.root, trust_all=trust_all)
    instrument(
        hs,
        tracer_provider=sdk.tracer_provider,
        meter_provider=sdk.meter_provider,
        logger_provider=sdk.logger_provider,
        log_prompts=log_prompts,
    )
    return hs


def _logs_by_name(sdk: Sdk) -> dict[str, Any]:
    out = {}
    for r in sdk.logs():
        out[r.attributes["hook_name"]] = r
    return out


@pytest.mark.slow
def test_log_record_per_hook_call_with_every_attribute(project: Project, sdk: Sdk) -> None:
    hs = _system(project, sdk)
    result = hs.fire("BeforeTool", tool_name="run_shell_command", tool_input={"command": "ls"})
    assert [h.outcome.value for h in result.hooks] == [o for _, o, _ in OUTCOMES.values()]
    logs = _logs_by_name(sdk)
    assert set(logs) == set(OUTCOMES)
    for name, (_, outcome, exit_code) in OUTCOMES.items():
        rec = logs[name]
        a = dict(rec.attributes)
        assert rec.event_name == "gemini_cli.hook_call"
        assert a["event.name"] == "gemini_cli.hook_call"
        assert (
            a["hook_event_name"] == "BeforeTool"
            and a["hook_type"] == "command"
            and a["source"] == "project"
        )
        assert a["outcome"] == outcome
        assert a["success"] is (outcome == "ok")
        assert isinstance(a["duration_ms"], int) and a["duration_ms"] >= 0
        assert a["session.id"] == hs.session_id
        assert a["event.timestamp"].endswith("Z")
        assert set(a) >= LOG_KEYS_ALWAYS
        assert LOG_KEYS_PROMPTS - {"hook_output"} <= set(a)
        if exit_code is None:
            assert "exit_code" not in a
        else:
            assert a["exit_code"] == exit_code
        if outcome == "ok":
            assert "error" not in a
            assert json.loads(a["hook_output"]) == {"decision": "allow", "reason": "fine"}
            assert a["hook_output"].startswith("{\n  ")  # Gemini CLI's 2-space indented JSON
        elif outcome != "blocked":
            assert a["error"]
        inp = json.loads(a["hook_input"])
        assert inp["tool_input"] == {"command": "ls"} and inp["hook_event_name"] == "BeforeTool"
        verb = "succeeded" if outcome == "ok" else "failed"
        assert rec.body == f"Hook call BeforeTool.{name} {verb} in {a['duration_ms']}ms"
    assert logs["failed hook"].attributes["stderr"] == "boom\n"
    assert logs["failed hook"].attributes["stdout"] == "garbage\n"


@pytest.mark.slow
def test_log_prompts_off_reduces_names_and_drops_payloads(project: Project, sdk: Sdk) -> None:
    hs = _system(
        project,
        sdk,
        log_prompts=False,
        extra=[{"type": "command", "command": "/usr/bin/env true --secret-flag", "name": ""}],
    )
    hs.fire("BeforeTool", tool_name="run_shell_command", tool_input={"command": "ls"})
    names = sorted(r.attributes["hook_name"] for r in sdk.logs())
    # "My Hook" -> "My" (first word); a command path -> its basename (Gemini CLI's sanitising)
    assert names == sorted(["ok", "blocked", "failed", "notrun", "slow", "env"])
    for r in sdk.logs():
        assert not (LOG_KEYS_PROMPTS & set(r.attributes)), dict(r.attributes)
        assert "secret-flag" not in r.body
    assert {r.attributes["outcome"]: r.attributes.get("error") for r in sdk.logs()}["failed"]
    for s in sdk.spans():
        assert "secret-flag" not in s.name and "secret-flag" not in json.dumps(dict(s.attributes))


@pytest.mark.slow
def test_metrics_count_and_latency_with_reduced_names(project: Project, sdk: Sdk) -> None:
    hs = _system(project, sdk)  # logPrompts on: metrics still use the reduced name
    hs.fire("BeforeTool", tool_name="t", tool_input={})
    hs.fire("BeforeTool", tool_name="t", tool_input={})
    counts = {
        (p.attributes["hook_name"], p.attributes["outcome"]): p.value
        for p in sdk.metric_points("gemini_cli.hook_call.count")
    }
    assert counts == {
        ("ok", "ok"): 2,
        ("blocked", "blocked"): 2,
        ("failed", "failed"): 2,
        ("notrun", "not-run"): 2,
        ("slow", "timeout"): 2,
    }
    for p in sdk.metric_points("gemini_cli.hook_call.count"):
        assert set(p.attributes) == {
            "session.id",
            "hook_event_name",
            "hook_name",
            "success",
            "outcome",
        }
        assert p.attributes["success"] is (p.attributes["outcome"] == "ok")
    lat = sdk.metric("gemini_cli.hook_call.latency")
    assert lat.unit == "ms"
    slow = [p for p in lat.data.data_points if p.attributes["hook_name"] == "slow"]
    assert slow[0].count == 2 and slow[0].min >= 300  # the timeout of 400 ms, in ms


@pytest.mark.slow
def test_spans_nest_under_the_callers_span_with_status_per_outcome(
    project: Project, sdk: Sdk
) -> None:
    hs = _system(project, sdk)
    tracer = sdk.tracer_provider.get_tracer("host")
    with tracer.start_as_current_span("execute_tool run_shell_command") as caller:
        result = hs.fire("BeforeTool", tool_name="run_shell_command", tool_input={})
    firing = sdk.span("hooks BeforeTool")
    assert firing.parent is not None and firing.parent.span_id == caller.get_span_context().span_id
    assert firing.kind is SpanKind.INTERNAL
    assert firing.attributes["hookwise.event"] == "BeforeTool"
    assert firing.attributes["hookwise.hooks"] == 5
    assert firing.attributes["hookwise.decision"] == "block" and result.blocked
    assert firing.attributes["gen_ai.tool.name"] == "run_shell_command"
    assert firing.attributes["hookwise.outcomes.timeout"] == 1
    hook_spans = [s for s in sdk.spans() if s.name.startswith("hook BeforeTool ")]
    assert len(hook_spans) == 5
    for s in hook_spans:
        assert s.parent.span_id == firing.context.span_id
        assert s.context.trace_id == caller.get_span_context().trace_id
        name = s.attributes["hookwise.hook.name"]
        _, outcome, exit_code = OUTCOMES[name]
        assert s.attributes["hookwise.hook.outcome"] == outcome
        assert s.attributes["hookwise.hook.source"] == "project"
        assert s.attributes["hookwise.hook.type"] == "command"
        assert s.attributes["hookwise.hook.duration_ms"] >= 0
        assert s.attributes.get("hookwise.hook.exit_code") == exit_code
        assert s.start_time <= s.end_time
        assert firing.start_time <= s.start_time and s.end_time <= firing.end_time + 5_000_000
        if outcome in ("failed", "timeout", "not-run"):
            assert s.status.status_code is StatusCode.ERROR
            assert s.attributes["error.type"] == {"not-run": "not_run"}.get(outcome, outcome)
        else:
            assert s.status.status_code is StatusCode.UNSET and "error.type" not in s.attributes
        assert "guardrail" not in json.dumps(dict(s.attributes))
    decisions = {
        s.attributes["hookwise.hook.name"]: s.attributes["hookwise.hook.decision"]
        for s in hook_spans
    }
    assert decisions["ok hook"] == "allow" and decisions["blocked hook"] == "block"
    # each log record is tied to its hook's span
    by_span = {s.context.span_id: s.attributes["hookwise.hook.name"] for s in hook_spans}
    assert sorted(by_span[r.span_id] for r in sdk.logs()) == sorted(OUTCOMES)


def test_skipped_and_python_hooks(project: Project, sdk: Sdk) -> None:
    hs = _system(project, sdk, trust_all=False)  # project hooks, not trusted: all skipped

    @hs.hook("BeforeTool", name="py check")
    def check(inp: dict[str, Any]) -> dict[str, Any]:
        return {"decision": "deny", "reason": "python says no"}

    @hs.hook("BeforeTool", name="py broken")
    def broken(inp: dict[str, Any]) -> None:
        raise RuntimeError("bug")

    hs.fire("BeforeTool", tool_name="t", tool_input={})
    logs = _logs_by_name(sdk)
    assert {n: r.attributes["outcome"] for n, r in logs.items()} == {
        **{n: "skipped" for n in OUTCOMES},
        "py check": "ok",
        "py broken": "failed",
    }
    assert (
        logs["py check"].attributes["hook_type"] == "python"
        and "exit_code" not in logs["py check"].attributes
    )
    assert "not trusted" in logs["ok hook"].attributes["error"]
    spans = {
        s.attributes["hookwise.hook.name"]: s for s in sdk.spans() if s.name.startswith("hook ")
    }
    assert (
        spans["ok hook"].status.status_code is StatusCode.UNSET
    )  # skipped is visible, not an error
    assert spans["py broken"].status.status_code is StatusCode.ERROR
    assert spans["py check"].attributes["hookwise.hook.decision"] == "deny"


def test_command_hook_gets_traceparent_of_its_own_span(project: Project, sdk: Sdk) -> None:
    script = project.script(
        "tp.py",
        """
        json.load(sys.stdin)
        print(json.dumps({"systemMessage": os.environ.get("TRACEPARENT", "none") + " "
                          + ",".join(sorted(k for k in os.environ if k.startswith("OTEL_")))}))
    """,
    )
    project.hooks("BeforeTool", {"type": "command", "name": "tp", "command": script})
    env = {
        **__import__("os").environ,
        "OTEL_SERVICE_NAME": "secret-service",
        "OTEL_EXPORTER_OTLP_HEADERS": "a=b",
    }
    hs = HookSystem(project.root, trust_all=True, env=env)
    instrument(
        hs,
        tracer_provider=sdk.tracer_provider,
        meter_provider=sdk.meter_provider,
        logger_provider=sdk.logger_provider,
    )
    result = hs.fire("BeforeTool", tool_name="t", tool_input={})
    tp, otel_vars = (result.output["systemMessage"] + " ").split(" ", 1)
    span = sdk.span("hook BeforeTool tp")
    ctx = span.get_span_context()
    assert tp == f"00-{ctx.trace_id:032x}-{ctx.span_id:016x}-{int(ctx.trace_flags):02x}"
    assert otel_vars.strip() == ""  # OTEL_* is not passed to a project hook


def test_no_traceparent_when_telemetry_is_off(project: Project) -> None:
    script = project.script(
        "tp.py",
        """
        json.load(sys.stdin)
        print(json.dumps({"systemMessage": os.environ.get("TRACEPARENT", "none")}))
    """,
    )
    project.hooks("BeforeTool", {"type": "command", "name": "tp", "command": script})
    hs = HookSystem(project.root, trust_all=True)
    assert hs.telemetry is None
    assert hs.fire("BeforeTool", tool_name="t", tool_input={}).output["systemMessage"] == "none"


def test_fire_async_nests_under_the_callers_span(project: Project, sdk: Sdk) -> None:
    script = project.script(
        "tp.py",
        """
        json.load(sys.stdin)
        print(json.dumps({"systemMessage": os.environ.get("TRACEPARENT", "none")}))
    """,
    )
    project.hooks(
        "AfterTool",
        {"type": "command", "name": "tp", "command": script},
        {"type": "command", "name": "second", "command": "exit 0"},
        sequential=True,
    )
    hs = HookSystem(project.root, trust_all=True)
    instrument(
        hs,
        tracer_provider=sdk.tracer_provider,
        meter_provider=sdk.meter_provider,
        logger_provider=sdk.logger_provider,
    )
    tracer = sdk.tracer_provider.get_tracer("host")

    async def main() -> Any:
        with tracer.start_as_current_span("caller") as caller:
            result = await hs.fire_async(
                "AfterTool", tool_name="t", tool_input={}, tool_response={}
            )
        return caller, result

    caller, result = asyncio.run(main())
    firing = sdk.span("hooks AfterTool")
    assert firing.parent.span_id == caller.get_span_context().span_id
    hook = sdk.span("hook AfterTool tp")
    assert hook.parent.span_id == firing.context.span_id
    assert result.output["systemMessage"].split("-")[2] == f"{hook.context.span_id:016x}"
    second = sdk.span("hook AfterTool second")
    assert second.start_time >= hook.start_time  # sequential: one after the other


def test_no_hooks_no_records(project: Project, sdk: Sdk) -> None:
    project.hooks("BeforeTool", "exit 0", matcher="other_tool")
    hs = HookSystem(project.root, trust_all=True)
    instrument(
        hs,
        tracer_provider=sdk.tracer_provider,
        meter_provider=sdk.meter_provider,
        logger_provider=sdk.logger_provider,
    )
    hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert sdk.spans() == [] and sdk.logs() == []  # Gemini CLI: nothing when the plan is empty


class _Crashing:
    """A runner with a bug: running any hook raises (not a hook failure: a programming error)."""

    background = False

    def run(self, firing: Any, entries: Any, inp: Any, during: Any = None) -> Any:
        raise RuntimeError("runner bug")

    async def run_async(self, firing: Any, entries: Any, inp: Any) -> Any:
        raise RuntimeError("runner bug")


def test_a_firing_that_raises_ends_its_span_and_leaves_no_current_span(
    project: Project, sdk: Sdk
) -> None:
    from opentelemetry import trace

    project.hooks("BeforeTool", "exit 0")
    hs = HookSystem(project.root, trust_all=True)
    instrument(
        hs,
        tracer_provider=sdk.tracer_provider,
        meter_provider=sdk.meter_provider,
        logger_provider=sdk.logger_provider,
    )
    hs.runners["command"] = _Crashing()  # type: ignore[assignment]
    with pytest.raises(RuntimeError, match="runner bug"):
        hs.fire("BeforeTool", tool_name="t", tool_input={})
    firing = sdk.span("hooks BeforeTool")
    assert (
        firing.status.status_code is StatusCode.ERROR
        and firing.attributes["error.type"] == "RuntimeError"
    )
    assert not trace.get_current_span().get_span_context().is_valid  # the context was restored
    with pytest.raises(RuntimeError):
        asyncio.run(hs.fire_async("BeforeTool", tool_name="t", tool_input={}))
    assert len([s for s in sdk.spans() if s.name == "hooks BeforeTool"]) == 2


HOST_EXITS = """
import sys
from opentelemetry import trace
from opentelemetry._logs import set_logger_provider
from opentelemetry.sdk._logs import LoggerProvider
from opentelemetry.sdk._logs.export import BatchLogRecordProcessor, ConsoleLogRecordExporter
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter
from hookwise import HookSystem
from hookwise.telemetry import instrument

tp = TracerProvider()  # the host's providers: the SDK flushes them at exit
tp.add_span_processor(
    BatchSpanProcessor(ConsoleSpanExporter(formatter=lambda s: f"SPAN {s.name}\\n"))
)
trace.set_tracer_provider(tp)
lp = LoggerProvider()
lp.add_log_record_processor(BatchLogRecordProcessor(ConsoleLogRecordExporter(
    formatter=lambda r: f"LOG {r.log_record.attributes['hook_name']}\\n")))
set_logger_provider(lp)
hs = HookSystem(sys.argv[1], trust_all=True)
hs.register("SessionEnd", lambda inp: None, name="last words")
instrument(hs)
hs.fire("SessionEnd", reason="exit")
"""


@pytest.mark.slow
def test_a_host_that_exits_right_after_its_last_firing_exports_it(project: Project) -> None:
    # the export worker builds records in batches; exiting hands the last ones to the host's
    # providers before the SDK flushes them (the host never calls flush)
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-c", HOST_EXITS, str(project.root)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "LOG last words" in proc.stdout, proc.stdout + proc.stderr
    assert (
        "SPAN hook SessionEnd last words" in proc.stdout and "SPAN hooks SessionEnd" in proc.stdout
    )


@pytest.mark.slow
def test_an_idle_export_worker_ends_and_an_observer_nobody_uses_is_freed(
    project: Project, sdk: Sdk, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc
    import time
    import weakref

    from hookwise.telemetry import observer

    monkeypatch.setattr(observer, "IDLE_EXIT_S", 0.05)

    def until_no_worker(
        tel: Any,
    ) -> None:  # this observer's (other tests' observers may still have theirs)
        worker = tel._worker
        deadline = time.monotonic() + 10
        while tel._worker is not None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert tel._worker is None
        if worker is not None:
            worker.join(5)
            assert not worker.is_alive()

    hs = HookSystem(project.root, trust_all=True)
    hs.register("BeforeTool", lambda inp: {"decision": "allow"}, name="py")
    tel = instrument(
        hs,
        tracer_provider=sdk.tracer_provider,
        meter_provider=sdk.meter_provider,
        logger_provider=sdk.logger_provider,
    )
    hs.fire("BeforeTool", tool_name="t", tool_input={})
    until_no_worker(tel)  # idle: it ended after handing the firing to the SDK
    assert [r.attributes["hook_name"] for r in sdk.logs()] == ["py"]
    hs.fire("BeforeTool", tool_name="t", tool_input={})  # a later firing starts a new one
    assert [r.attributes["hook_name"] for r in sdk.logs()] == ["py", "py"]
    until_no_worker(tel)
    gone = weakref.ref(tel)
    hs.telemetry = None  # the host drops the observer: nothing keeps it alive
    del tel
    gc.collect()
    assert gone() is None


@pytest.mark.slow
def test_firings_are_recorded_without_anyone_draining(project: Project, sdk: Sdk) -> None:
    """Firings that come while the export worker waits in its batch window do not wake it; it takes
    them when the window ends, and the records reach the SDK with nobody calling drain or flush. A
    stretch of more firings than a batch wakes it early, and none is dropped."""
    import time

    from hookwise.telemetry import observer

    hs = HookSystem(project.root, trust_all=True)
    hs.register("BeforeTool", lambda inp: {"decision": "allow"}, name="py")
    tel = instrument(
        hs,
        tracer_provider=sdk.tracer_provider,
        meter_provider=sdk.meter_provider,
        logger_provider=sdk.logger_provider,
    )
    n = observer.BATCH_FIRINGS * 3 + 1
    for i in range(n):
        hs.fire("BeforeTool", tool_name="t", tool_input={})
        if i == 0:
            time.sleep(0.005)  # the worker took the first firing and is in its window
    deadline = time.monotonic() + 10
    # each firing: one hook_call record and one decision record
    while len(sdk.logs_exporter.get_finished_logs()) < 2 * n and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(sdk.logs_exporter.get_finished_logs()) == 2 * n
    assert len(sdk.spans_exporter.get_finished_spans()) == 2 * n
    assert tel.dropped == 0 and not tel._pending


@pytest.mark.slow
def test_recorded_firings_leave_no_cycles(project: Project, sdk: Sdk) -> None:
    """A firing's telemetry (its span's ids, the records the export worker builds) is freed by
    reference counting: cyclic garbage would make the collector run more often, on the firing thread
    too."""
    import gc

    project.hooks("BeforeTool", emit({"decision": "allow"}), "true")
    hs = HookSystem(project.root, trust_all=True)
    hs.register("BeforeTool", lambda inp: {"decision": "allow"}, name="py")
    instrument(
        hs,
        tracer_provider=sdk.tracer_provider,
        meter_provider=sdk.meter_provider,
        logger_provider=sdk.logger_provider,
    )

    def fire_and_export(n: int) -> None:
        for _ in range(n):
            assert hs.fire("BeforeTool", tool_name="t", tool_input={}).decision == "allow"
        assert len(sdk.spans()) == 3 * n + n  # a span per hook call and per firing
        assert len(sdk.logs()) == 3 * n
        sdk.spans_exporter.clear()
        sdk.logs_exporter.clear()

    fire_and_export(3)
    gc.collect()
    gc.disable()
    try:
        fire_and_export(20)
        assert gc.collect() == 0
    finally:
        gc.enable()
