"""Telemetry costs (docs/telemetry.md): what OpenTelemetry export adds per hook call, what a dead
collector does to results and memory, and how long ``hookwise trace report`` takes on 100 000
records.

    python bench/telemetry.py            # everything (needs the otel extra; Chromium optional)
    BENCH_ONLY=cost,down,report python bench/telemetry.py
    BENCH_N=20000 BENCH_ROUNDS=5 python bench/telemetry.py

Every number is printed next to floors measured in the same run (telemetry off; for export, the
SDK's own cost of the same records through the same pipeline, with the OTLP receiver in a process of
its own); nothing is asserted.
Targets: no-match firing <= 5 us with telemetry off; <= 50 us added per hook call with the batch
exporters (what a hook call pays: the firing's added latency and the CPU added on its thread; the
exporters' work runs on their own threads and is printed next to its SDK floor); a dead collector
changes no result, warns once and keeps memory flat; 100 000 records render in seconds.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ONLY = set(filter(None, os.environ.get("BENCH_ONLY", "").split(",")))
N = int(os.environ.get("BENCH_N", "20000"))


def wanted(name: str) -> bool:
    return not ONLY or name in ONLY


def rss_kib() -> int:
    """Current resident set size (Linux), KiB."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except OSError:
        import resource

        return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def project(tmp: Path, settings: dict[str, Any]) -> Path:
    root = tmp / f"p{random.randrange(1 << 30)}"
    (root / ".gemini").mkdir(parents=True)
    (root / ".gemini" / "settings.json").write_text(json.dumps(settings))
    return root


def receiver_main() -> None:
    """``telemetry.py --receiver``: a real OTLP/HTTP receiver in its own process, so its CPU
    (reading and decoding what the exporters send) is not counted as the firing process's. Prints
    its port, then serves until killed; ``GET /counts`` answers how many log records, spans and
    metric points it decoded."""
    from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
    from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
        ExportMetricsServiceRequest,
    )
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    counts = {"logs": 0, "spans": 0, "points": 0, "requests": 0}
    lock = threading.Lock()

    def logs(m: Any) -> int:
        return sum(len(sl.log_records) for rl in m.resource_logs for sl in rl.scope_logs)

    def spans(m: Any) -> int:
        return sum(len(ss.spans) for rs in m.resource_spans for ss in rs.scope_spans)

    def points(m: Any) -> int:
        return sum(
            len(getattr(x, x.WhichOneof("data")).data_points)
            for rm in m.resource_metrics
            for sm in rm.scope_metrics
            for x in sm.metrics
        )

    decoders = {
        "/v1/logs": (ExportLogsServiceRequest, logs, "logs"),
        "/v1/traces": (ExportTraceServiceRequest, spans, "spans"),
        "/v1/metrics": (ExportMetricsServiceRequest, points, "points"),
    }

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as a collector does

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            kind = decoders.get(self.path)
            if kind is not None:
                msg = kind[0]()
                msg.ParseFromString(body)
                with lock:
                    counts[kind[2]] += kind[1](msg)
                    counts["requests"] += 1
            self.send_response(200 if kind is not None else 404)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_GET(self) -> None:
            with lock:
                body = json.dumps(counts).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


class Receiver:
    """The ``--receiver`` subprocess."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--receiver"], stdout=subprocess.PIPE, text=True
        )
        assert self.proc.stdout is not None
        self.url = f"http://127.0.0.1:{int(self.proc.stdout.readline())}"

    def counts(self) -> dict[str, int]:
        import urllib.request

        with urllib.request.urlopen(self.url + "/counts", timeout=10) as r:
            return dict(json.loads(r.read()))

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def dead_endpoint() -> str:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now: connections are refused
    return f"http://127.0.0.1:{port}"


def system(root: Path, hooks: int, env: dict[str, str]) -> Any:
    from hookwise import HookSystem

    hs = HookSystem(root, trust_all=True, env=env)
    for i in range(hooks):
        hs.register(
            "BeforeTool",
            lambda inp: (
                {"decision": "allow"}
                if inp.get("tool_name") != "bad"
                else {"decision": "deny", "reason": "bad tool"}
            ),
            name=f"py-{i}",
        )
    return hs


def per_call_us(fn: Any, n: int) -> float:
    for _ in range(min(n // 10, 500)):
        fn()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n * 1e6


#: pause after a firing, per hook call it made: the export worker and the SDK's threads keep up, and
#: the process is not saturated (in an agent, firings are much further apart)
SPACING_S = 0.001
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))


def median(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2


def timed(
    fire: Any, firings: int, hooks: int, settle: Any, burst: int = 1
) -> tuple[float, float, float, float]:
    """(median and 99th percentile wall latency of one firing, us; firing-thread CPU per hook call,
    us; process CPU per hook call, us), with a pause of ``SPACING_S`` per hook call after every
    ``burst`` firings.

    Process CPU runs until ``settle`` returned, that is until everything these firings produced was
    built, encoded and sent by the exporters: the export worker's and the SDK's threads are in it;
    the receiver, a separate process, is not."""
    lat = []
    p0, t0 = time.process_time(), time.thread_time()
    for i in range(firings):
        w = time.perf_counter()
        fire()
        lat.append(time.perf_counter() - w)
        if i % burst == burst - 1:
            time.sleep(SPACING_S * burst * hooks)
    thread = time.thread_time() - t0
    settle()
    proc = time.process_time() - p0
    calls = firings * hooks
    lat.sort()
    return (
        lat[len(lat) // 2] * 1e6,
        lat[len(lat) * 99 // 100] * 1e6,
        thread / calls * 1e6,
        proc / calls * 1e6,
    )


#: firings (or the floor's records of as many firings) back to back before a pause as long as their
#: spacing: the least the SDK needs, with warm caches, as hookwise's export worker has them when it
#: builds a batch
BURST = 50


def fire_then(fire: Any, then: Any) -> None:
    fire()
    then()


class SdkFloor:
    """The records hookwise emits for a firing of ``hooks`` Python hooks, sent straight into the
    same SDK pipeline (same providers, batch processors and OTLP exporters) with prebuilt
    attributes: one firing span, and per hook call one span, one log record and two metric points.
    What the SDK and the exporters cost with no hookwise."""

    def __init__(self, pipeline: Any, hooks: int, prompts: bool) -> None:
        from opentelemetry._logs import SeverityNumber

        self.hooks = hooks
        self.pipeline = pipeline
        self.tracer = pipeline.tracer_provider.get_tracer("bench-floor")
        self.logger = pipeline.logger_provider.get_logger("bench-floor")
        meter = pipeline.meter_provider.get_meter("bench-floor")
        self.count = meter.create_counter("gemini_cli.hook_call.count", unit="1")
        self.latency = meter.create_histogram("gemini_cli.hook_call.latency", unit="ms")
        self.info = SeverityNumber.INFO
        inp = {
            "session_id": "bench-session",
            "transcript_path": "",
            "cwd": "/project",
            "hook_event_name": "BeforeTool",
            "timestamp": "2026-01-01T00:00:00.000Z",
            "tool_name": "t",
            "tool_input": {},
        }
        self.firing_attrs = {
            "hookwise.event": "BeforeTool",
            "hookwise.hooks": hooks,
            "gen_ai.conversation.id": "bench-session",
            "gen_ai.tool.name": "t",
        }
        self.result_attrs = {
            "hookwise.decision": "allow",
            "hookwise.stopped": False,
            "hookwise.outcomes.ok": hooks,
        }
        self.opened: list[Any] = []
        self.calls = []
        for i in range(hooks):
            name = f"py-{i}"
            log = {
                "event.name": "gemini_cli.hook_call",
                "event.timestamp": "2026-01-01T00:00:00.000Z",
                "session.id": "bench-session",
                "hook_event_name": "BeforeTool",
                "hook_type": "python",
                "hook_name": name,
                "duration_ms": 0,
                "success": True,
            }
            if prompts:
                log.update(
                    {
                        "hook_input": json.dumps(inp, indent=2),
                        "hook_output": '{\n  "decision": "allow"\n}',
                        "stdout": "",
                        "stderr": "",
                    }
                )
            log.update({"source": "runtime", "outcome": "ok"})
            span = {
                "hookwise.hook.event": "BeforeTool",
                "hookwise.hook.name": name,
                "hookwise.hook.type": "python",
                "hookwise.hook.source": "runtime",
                "hookwise.hook.outcome": "ok",
                "hookwise.hook.decision": "allow",
                "hookwise.hook.duration_ms": 0.012,
                "gen_ai.conversation.id": "bench-session",
            }
            metric = {
                "session.id": "bench-session",
                "hook_event_name": "BeforeTool",
                "hook_name": name,
                "success": True,
                "outcome": "ok",
            }
            self.calls.append(
                (
                    f"hook BeforeTool {name}",
                    span,
                    log,
                    f"Hook call BeforeTool.{name} succeeded in 0ms",
                    metric,
                )
            )

    def fire(self) -> None:
        from opentelemetry import trace
        from opentelemetry._logs import LogRecord
        from opentelemetry.trace import SpanKind

        now = time.time_ns()
        firing = self.tracer.start_span(
            "hooks BeforeTool", kind=SpanKind.INTERNAL, start_time=now, attributes=self.firing_attrs
        )
        parent = trace.set_span_in_context(firing)
        for name, span_attrs, log_attrs, body, metric_attrs in self.calls:
            span = self.tracer.start_span(
                name, context=parent, kind=SpanKind.INTERNAL, start_time=now, attributes=span_attrs
            )
            self.logger.emit(
                LogRecord(
                    timestamp=now,
                    observed_timestamp=now,
                    context=trace.set_span_in_context(span),
                    severity_number=self.info,
                    severity_text="INFO",
                    body=body,
                    attributes=log_attrs,
                    event_name="gemini_cli.hook_call",
                )
            )
            span.end(end_time=now)
            self.count.add(1, metric_attrs)
            self.latency.record(0.012, metric_attrs)
        firing.set_attributes(self.result_attrs)
        firing.end(end_time=now)

    def open_firing_span(self) -> None:
        """The SDK part a firing thread cannot hand off: the firing's span started and made current
        while the hooks run (hookwise ends it on its export worker; here :meth:`settle` does)."""
        from opentelemetry import context, trace
        from opentelemetry.trace import SpanKind

        span = self.tracer.start_span(
            "hooks BeforeTool",
            kind=SpanKind.INTERNAL,
            start_time=time.time_ns(),
            attributes=self.firing_attrs,
        )
        context.detach(context.attach(trace.set_span_in_context(span)))
        self.opened.append(span)

    def settle(self) -> None:
        for span in self.opened:
            span.end()
        self.opened.clear()
        self.pipeline.flush(60)


def base_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "GEMINI_TELEMETRY_"))}
    env["GEMINI_CLI_HOME"] = str(tmp / "home")
    env["GEMINI_CLI_SYSTEM_SETTINGS_PATH"] = str(tmp / "none.json")
    env["GEMINI_CLI_SYSTEM_DEFAULTS_PATH"] = str(tmp / "none.json")
    return env


def bench_cost(tmp: Path) -> None:
    print(
        "== added cost per hook call (Python hooks, so the hook itself costs ~nothing), OTLP/HTTP "
        "batch exporters"
    )
    env = base_env(tmp)
    root_off = project(
        tmp, {"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": "true"}]}]}}
    )
    off = system(root_off, 0, env)
    nomatch = per_call_us(lambda: off.fire("BeforeTool", tool_name="t", tool_input={}), N * 5)
    print(f"  no-match firing, telemetry off: {nomatch:6.2f} us   (target <= 5 us)")
    receiver = Receiver()
    url = receiver.url
    on_root = project(
        tmp, {"telemetry": {"enabled": True, "otlpProtocol": "http", "otlpEndpoint": url}}
    )
    on_nomatch = system(on_root, 0, env)
    assert on_nomatch.telemetry is not None, on_nomatch.warnings
    nm_on = per_call_us(lambda: on_nomatch.fire("BeforeTool", tool_name="t", tool_input={}), N * 5)
    print(
        f"  no-match firing, telemetry on:  {nm_on:6.2f} us   (ratio {nm_on / nomatch:.2f}x: "
        "nothing to record)"
    )
    print(
        f"  {ROUNDS} interleaved rounds, medians. The OTLP receiver is a separate process. Process "
        "CPU = firing"
    )
    print(
        "  thread + hookwise's export worker + the SDK's batch and export threads (OTLP encoding, "
        "HTTP), until all"
    )
    print(
        "  of it was sent. SDK floor = the same records sent straight into the same SDK pipeline "
        "with prebuilt"
    )
    print(
        "  attributes, no hookwise. 'one by one': a pause after each firing, as in an agent (the "
        "firing thread runs"
    )
    print(
        f"  with cold caches); 'back to back': {BURST} firings in a row, then a pause (warm "
        "caches, as the floor is"
    )
    print("  measured).")
    for hooks, prompts in ((1, True), (10, True), (10, False)):
        config = {
            "enabled": True,
            "otlpProtocol": "http",
            "otlpEndpoint": url,
            "logPrompts": prompts,
        }
        off_hs = system(project(tmp, {}), hooks, env)
        on_hs = system(project(tmp, {"telemetry": config}), hooks, env)
        tel = on_hs.telemetry
        assert tel is not None and tel._owned is not None, on_hs.warnings
        floor = SdkFloor(tel._owned, hooks, prompts)
        firings = max(50, N // hooks // 20)
        settle = functools.partial(tel.flush, 60)
        fire_off = functools.partial(off_hs.fire, "BeforeTool", tool_name="t", tool_input={})
        fire_on = functools.partial(on_hs.fire, "BeforeTool", tool_name="t", tool_input={})
        modes = {
            "off": (fire_off, lambda: None, 1),
            "on": (fire_on, settle, 1),
            "off-burst": (fire_off, lambda: None, BURST),
            "on-burst": (fire_on, settle, BURST),
            "floor": (floor.fire, settle, BURST),
            "off+span": (
                functools.partial(fire_then, fire_off, floor.open_firing_span),
                floor.settle,
                1,
            ),
        }
        for fire, after, _ in modes.values():  # warm up
            for _ in range(200):
                fire()
            after()
        res: dict[str, list[tuple[float, float, float, float]]] = {m: [] for m in modes}
        before = receiver.counts()
        for r in range(ROUNDS):
            for m in list(modes) if r % 2 == 0 else reversed(modes):
                fire, after, burst = modes[m]
                res[m].append(timed(fire, firings, hooks, after, burst))
        got = receiver.counts()
        lat, p99, thr, cpu = (
            {m: median([x[i] for x in v]) for m, v in res.items()} for i in range(4)
        )
        added, added_warm = cpu["on"] - cpu["off"], cpu["on-burst"] - cpu["off-burst"]
        # hookwise's own part, round by round (the three modes of a round ran one after the other)
        owns = sorted(
            on[3] - off[3] - fl[3]
            for on, off, fl in zip(res["on-burst"], res["off-burst"], res["floor"], strict=True)
        )
        calls = (
            3 * ROUNDS * firings * hooks
        )  # hookwise's (one by one and back to back) and the floor's
        opened = ROUNDS * firings  # firing spans of the "off+span" mode
        print(
            f"  {hooks:2d} hook(s)/firing, logPrompts {'on ' if prompts else 'off'} ({firings} "
            f"firings x {hooks}):"
        )
        print(
            f"     one by one:   latency median {lat['off']:6.1f} -> {lat['on']:6.1f} us per "
            f"firing (+{(lat['on'] - lat['off']) / hooks:5.1f} per hook call; target <= 50), p99 "
            f"{p99['off']:6.1f} -> {p99['on']:6.1f}"
        )
        span = thr["off+span"] - thr["off"]
        print(
            f"{'':19s}firing thread CPU +{thr['on'] - thr['off']:5.1f} us per hook call (target <= "
            f"50); for comparison, the SDK opening a span there {span:5.1f}"
        )
        print(
            f"{'':19s}process CPU {cpu['off']:6.1f} -> {cpu['on']:6.1f}: +{added:6.1f} us per hook "
            "call"
        )
        print(
            f"     back to back: firing thread CPU +{thr['on-burst'] - thr['off-burst']:5.1f} us "
            f"per hook call; process CPU {cpu['off-burst']:6.1f} -> {cpu['on-burst']:6.1f}: "
            f"+{added_warm:6.1f} us per hook call"
        )
        own = median(owns)
        print(
            f"{'':19s}= SDK floor {cpu['floor']:6.1f} + hookwise's own part {own:+6.1f} us (by "
            f"round: median; {owns[0]:+.0f} to {owns[-1]:+.0f})"
        )
        print(
            f"     delivered to the receiver: {got['logs'] - before['logs']}/{calls} log records, "
            f"{got['spans'] - before['spans']}/{calls + 3 * ROUNDS * firings + opened} spans"
        )
    on_nomatch.telemetry.flush(10)
    receiver.close()


def bench_down(tmp: Path) -> None:
    print("== collector down (connection refused): results, warnings, memory")
    env = base_env(tmp)
    url = dead_endpoint()
    root = project(
        tmp, {"telemetry": {"enabled": True, "otlpProtocol": "http", "otlpEndpoint": url}}
    )
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        down = system(root, 5, env)
        ref = system(project(tmp, {}), 5, env)
        tools = ["t", "bad"] * 50
        mismatches = 0
        samples = []
        t0 = time.perf_counter()
        rounds = max(1, N // len(tools))
        for r in range(rounds):
            for tool in tools:
                got = down.fire("BeforeTool", tool_name=tool, tool_input={})
                want = ref.fire("BeforeTool", tool_name=tool, tool_input={})
                if (got.decision, [h.outcome for h in got.hooks]) != (
                    want.decision,
                    [h.outcome for h in want.hooks],
                ):
                    mismatches += 1
            if r % max(1, rounds // 10) == 0:
                samples.append(rss_kib())
        elapsed = time.perf_counter() - t0
        time.sleep(6)  # let the batch processors try (and fail) to export
        samples.append(rss_kib())
    warnings = [ln for ln in err.getvalue().splitlines() if "telemetry" in ln]
    firings = rounds * len(tools)
    print(
        f"  {firings} firings x 5 hooks in {elapsed:.1f} s; results differing from telemetry off: "
        f"{mismatches}"
    )
    print(f"  warnings printed: {len(warnings)} (target 1): {warnings[0] if warnings else '-'}")
    third = samples[len(samples) // 3]
    print("  RSS KiB over the run: " + " ".join(str(s) for s in samples))
    print(
        f"  growth while the bounded queues fill (first third): {third - samples[0]:+d} KiB; "
        f"after that, to the end: {samples[-1] - third:+d} KiB (flat = bounded)"
    )


def synthetic_trace(path: Path, n: int) -> None:
    rnd = random.Random(7)
    hooks = [
        ("BeforeTool", "shell-guard"),
        ("BeforeTool", "secret-redactor"),
        ("AfterTool", "audit-log"),
        ("BeforeModel", "model-policy"),
        ("AfterModel", "pii-filter"),
        ("BeforeAgent", "project-context"),
        ("AfterAgent", "release-gate"),
        ("Notification", "notify"),
    ]
    outcomes = ["ok"] * 90 + ["blocked"] * 4 + ["failed"] * 3 + ["timeout", "not-run", "skipped"]
    t = 1_767_225_600.0
    with path.open("w") as fh:
        for i in range(n):
            ev, name = hooks[rnd.randrange(len(hooks))]
            t += rnd.random() * 0.2
            ms = rnd.lognormvariate(3, 0.8)
            outcome = rnd.choice(outcomes)
            ts = (
                time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t * 1000) % 1000:03d}Z"
            )
            inp = {
                "session_id": "bench",
                "transcript_path": "",
                "cwd": "/project",
                "hook_event_name": ev,
                "timestamp": ts,
                "tool_name": "run_shell_command",
                "tool_input": {"command": f"echo step {i} && ls -la src/module_{i % 97}"},
            }
            out = (
                {"decision": "deny", "reason": "not allowed"}
                if outcome == "blocked"
                else {"decision": "allow"}
            )
            fh.write(
                json.dumps(
                    {
                        "type": "hook_call",
                        "hook_event_name": ev,
                        "hook_name": name,
                        "hook_type": "command",
                        "source": "project",
                        "hook_input": inp,
                        "hook_output": out,
                        "exit_code": 2 if outcome == "blocked" else 0,
                        "stdout": "",
                        "stderr": "",
                        "duration_ms": round(ms, 3),
                        "success": outcome == "ok",
                        "outcome": outcome,
                        "error": None if outcome in ("ok", "blocked") else f"{outcome} happened",
                    }
                )
                + "\n"
            )


def bench_report(tmp: Path) -> None:
    print("== hookwise trace report on 100 000 records")
    from hookwise.report.calls import read_calls, text_report
    from hookwise.report.html import render

    trace = tmp / "big.jsonl"
    synthetic_trace(trace, 100_000)
    t0 = time.perf_counter()
    calls = read_calls(str(trace))
    t1 = time.perf_counter()
    text = text_report(calls, str(trace))
    t2 = time.perf_counter()
    page = render(calls, str(trace))
    t3 = time.perf_counter()
    out = tmp / "big.html"
    out.write_text(page)
    floor = time.perf_counter()
    for line in trace.open():
        json.loads(line)
    floor = time.perf_counter() - floor
    print(
        f"  trace {trace.stat().st_size / 1e6:.1f} MB; json.loads of every line (floor) "
        f"{floor:.2f} s"
    )
    print(
        f"  read {t1 - t0:.2f} s ({(t1 - t0) / floor:.1f}x floor), text {t2 - t1:.2f} s "
        f"({len(text.splitlines())} lines), html {t3 - t2:.2f} s -> {len(page) / 1e6:.1f} MB page"
    )
    browser = next(
        (
            shutil.which(b)
            for b in ("chromium", "chromium-browser", "google-chrome")
            if shutil.which(b)
        ),
        None,
    )
    if browser is None:
        print("  (Chromium not installed: browser render not measured)")
        return
    shot = tmp / "big.png"
    t4 = time.perf_counter()
    proc = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--user-data-dir={tmp / 'chrome'}",
            "--window-size=1400,900",
            f"--screenshot={shot}",
            out.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    t5 = time.perf_counter()
    small = tmp / "small.html"
    small.write_text(render(calls[:10], "small"))
    t6 = time.perf_counter()
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            f"--user-data-dir={tmp / 'chrome2'}",
            f"--screenshot={tmp / 'small.png'}",
            small.as_uri(),
        ],
        capture_output=True,
        timeout=600,
    )
    t7 = time.perf_counter()
    errors = [ln for ln in proc.stderr.splitlines() if ":CONSOLE" in ln or "Uncaught" in ln]
    print(
        f"  headless Chromium load + screenshot of the 100k page: {t5 - t4:.1f} s "
        f"(a 10-call page, the floor: {t7 - t6:.1f} s); console errors: {len(errors)}"
    )


def main() -> int:
    if sys.argv[1:] == ["--receiver"]:
        receiver_main()
        return 0
    try:
        import opentelemetry.sdk  # noqa: F401
    except ImportError:
        if not ONLY or ONLY & {"cost", "down"}:
            print(
                "the otel extra is not installed (pip install 'hookwise[otel]'); only the report "
                "is measured"
            )
        ONLY.clear()
        ONLY.add("report")
    with tempfile.TemporaryDirectory(prefix="hookwise-bench-telemetry-") as d:
        tmp = Path(d)
        if wanted("cost"):
            bench_cost(tmp)
        if wanted("down"):
            bench_down(tmp)
        if wanted("report"):
            bench_report(tmp)
    sys.stdout.flush()
    os._exit(0)  # do not wait for exporters retrying a dead collector at exit


if __name__ == "__main__":
    raise SystemExit(main())
