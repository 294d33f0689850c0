"""Telemetry costs (docs/telemetry.md): what OpenTelemetry export adds per hook call, what a dead collector
does to results and memory, and how long ``hookwise trace report`` takes on 100 000 records.

    python bench/telemetry.py            # everything (needs the otel extra; Chromium optional)
    BENCH_ONLY=cost,down,report python bench/telemetry.py
    BENCH_N=20000 python bench/telemetry.py

Every number is printed next to a floor measured in the same run (telemetry off); nothing is asserted.
Targets: no-match firing <= 5 us with telemetry off; <= 50 us added per hook call with the batch exporters;
a dead collector changes no result, warns once and keeps memory flat; 100 000 records render in seconds.
"""

from __future__ import annotations

import contextlib
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


class _Sink(BaseHTTPRequestHandler):
    """An OTLP/HTTP endpoint that accepts everything (the cost of decoding is not ours)."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


def collector() -> tuple[ThreadingHTTPServer, str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Sink)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


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
        hs.register("BeforeTool", lambda inp: {"decision": "allow"} if inp.get("tool_name") != "bad" else
                    {"decision": "deny", "reason": "bad tool"}, name=f"py-{i}")
    return hs


def per_call_us(fn: Any, n: int) -> float:
    for _ in range(min(n // 10, 500)):
        fn()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n * 1e6


def spaced(hs: Any, n: int) -> tuple[float, float]:
    """(median latency of one firing in us, process CPU us per hook call incl. background work)."""
    hooks = len(hs.entries)
    for _ in range(200):
        hs.fire("BeforeTool", tool_name="t", tool_input={})
    if hs.telemetry is not None:
        hs.telemetry.drain(30)
    lat = []
    cpu0 = time.process_time()
    for _ in range(n):
        t0 = time.perf_counter()
        hs.fire("BeforeTool", tool_name="t", tool_input={})
        lat.append(time.perf_counter() - t0)
        time.sleep(0.0003)
    if hs.telemetry is not None:
        hs.telemetry.drain(60)
    cpu = (time.process_time() - cpu0) / (n * hooks) * 1e6
    lat.sort()
    return lat[len(lat) // 2] * 1e6, cpu


def sdk_floor_us(n: int = 5000) -> float:
    """CPU of the bare SDK calls one hook call needs, with no-op exporters behind batch processors."""
    from opentelemetry._logs import LogRecord
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk._logs.export import BatchLogRecordProcessor, InMemoryLogRecordExporter
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    tp = TracerProvider()
    tp.add_span_processor(BatchSpanProcessor(InMemorySpanExporter()))
    lp = LoggerProvider()
    lp.add_log_record_processor(BatchLogRecordProcessor(InMemoryLogRecordExporter()))
    meter = MeterProvider(metric_readers=[InMemoryMetricReader()]).get_meter("floor")
    tracer, logger = tp.get_tracer("floor"), lp.get_logger("floor")
    counter, hist = meter.create_counter("c"), meter.create_histogram("h")
    attrs = {f"k{i}": f"v{i}" for i in range(8)}
    t0 = time.process_time()
    for _ in range(n):
        tracer.start_span("s", attributes=attrs).end()
        logger.emit(LogRecord(body="b", attributes=attrs))
        counter.add(1, {"a": "x", "b": True})
        hist.record(1.0, {"a": "x", "b": True})
    cpu = (time.process_time() - t0) / n * 1e6
    tp.shutdown()
    lp.shutdown()
    return cpu


def base_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "GEMINI_TELEMETRY_"))}
    env["GEMINI_CLI_HOME"] = str(tmp / "home")
    env["GEMINI_CLI_SYSTEM_SETTINGS_PATH"] = str(tmp / "none.json")
    env["GEMINI_CLI_SYSTEM_DEFAULTS_PATH"] = str(tmp / "none.json")
    return env


def bench_cost(tmp: Path) -> None:
    print("== added cost per hook call (Python hooks, so the hook itself costs ~nothing)")
    env = base_env(tmp)
    root_off = project(tmp, {"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": "true"}]}]}})
    off = system(root_off, 0, env)
    nomatch = per_call_us(lambda: off.fire("BeforeTool", tool_name="t", tool_input={}), N * 5)
    print(f"  no-match firing, telemetry off: {nomatch:6.2f} us   (target <= 5 us)")
    server, url = collector()
    on_root = project(tmp, {"telemetry": {"enabled": True, "otlpProtocol": "http", "otlpEndpoint": url}})
    on_nomatch = system(on_root, 0, env)
    assert on_nomatch.telemetry is not None, on_nomatch.warnings
    nm_on = per_call_us(lambda: on_nomatch.fire("BeforeTool", tool_name="t", tool_input={}), N * 5)
    print(f"  no-match firing, telemetry on:  {nm_on:6.2f} us   (ratio {nm_on / nomatch:.2f}x: nothing to record)")
    print("  per firing, latency on the firing thread (median, firings spaced so the export worker keeps up)")
    print("  and CPU per hook call including the worker's record building, OTLP encoding and the in-process")
    print("  test collector (process CPU / hook calls):")
    for hooks, prompts in ((1, True), (10, True), (10, False)):
        off_hs = system(project(tmp, {}), hooks, env)
        on_hs = system(project(tmp, {"telemetry": {"enabled": True, "otlpProtocol": "http", "otlpEndpoint": url,
                                                   "logPrompts": prompts}}), hooks, env)
        (lat_off, cpu_off), (lat_on, cpu_on) = spaced(off_hs, N // hooks // 4), spaced(on_hs, N // hooks // 4)
        print(f"  {hooks:2d} hook(s)/firing, logPrompts {'on ' if prompts else 'off'}: latency off {lat_off:7.1f} us, "
              f"on {lat_on:7.1f} us -> +{(lat_on - lat_off) / hooks:5.1f} us per hook call (target <= 50 us); "
              f"CPU off {cpu_off:6.1f}, on {cpu_on:6.1f} us per hook call ({cpu_on / cpu_off:.1f}x the floor)")
    print(f"  the SDK's own floor for one hook call's records (1 span, 1 log record, 2 metric points): "
          f"{sdk_floor_us():.1f} us CPU")
    on_nomatch.telemetry.flush(10)
    server.shutdown()


def bench_down(tmp: Path) -> None:
    print("== collector down (connection refused): results, warnings, memory")
    env = base_env(tmp)
    url = dead_endpoint()
    root = project(tmp, {"telemetry": {"enabled": True, "otlpProtocol": "http", "otlpEndpoint": url}})
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
                if (got.decision, [h.outcome for h in got.hooks]) != (want.decision, [h.outcome for h in want.hooks]):
                    mismatches += 1
            if r % max(1, rounds // 10) == 0:
                samples.append(rss_kib())
        elapsed = time.perf_counter() - t0
        time.sleep(6)  # let the batch processors try (and fail) to export
        samples.append(rss_kib())
    warnings = [ln for ln in err.getvalue().splitlines() if "telemetry" in ln]
    firings = rounds * len(tools)
    print(f"  {firings} firings x 5 hooks in {elapsed:.1f} s; results differing from telemetry off: {mismatches}")
    print(f"  warnings printed: {len(warnings)} (target 1): {warnings[0] if warnings else '-'}")
    third = samples[len(samples) // 3]
    print("  RSS KiB over the run: " + " ".join(str(s) for s in samples))
    print(f"  growth while the bounded queues fill (first third): {third - samples[0]:+d} KiB; "
          f"after that, to the end: {samples[-1] - third:+d} KiB (flat = bounded)")


def synthetic_trace(path: Path, n: int) -> None:
    rnd = random.Random(7)
    hooks = [("BeforeTool", "shell-guard"), ("BeforeTool", "secret-redactor"), ("AfterTool", "audit-log"),
             ("BeforeModel", "model-policy"), ("AfterModel", "pii-filter"), ("BeforeAgent", "project-context"),
             ("AfterAgent", "release-gate"), ("Notification", "notify")]
    outcomes = ["ok"] * 90 + ["blocked"] * 4 + ["failed"] * 3 + ["timeout", "not-run", "skipped"]
    t = 1_767_225_600.0
    with path.open("w") as fh:
        for i in range(n):
            ev, name = hooks[rnd.randrange(len(hooks))]
            t += rnd.random() * 0.2
            ms = rnd.lognormvariate(3, 0.8)
            outcome = rnd.choice(outcomes)
            ts = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t * 1000) % 1000:03d}Z"
            inp = {"session_id": "bench", "transcript_path": "", "cwd": "/project", "hook_event_name": ev,
                   "timestamp": ts, "tool_name": "run_shell_command",
                   "tool_input": {"command": f"echo step {i} && ls -la src/module_{i % 97}"}}
            out = {"decision": "deny", "reason": "not allowed"} if outcome == "blocked" else {"decision": "allow"}
            fh.write(json.dumps({"type": "hook_call", "hook_event_name": ev, "hook_name": name, "hook_type": "command",
                                 "source": "project", "hook_input": inp, "hook_output": out,
                                 "exit_code": 2 if outcome == "blocked" else 0, "stdout": "", "stderr": "",
                                 "duration_ms": round(ms, 3), "success": outcome == "ok", "outcome": outcome,
                                 "error": None if outcome in ("ok", "blocked") else f"{outcome} happened"}) + "\n")


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
    print(f"  trace {trace.stat().st_size / 1e6:.1f} MB; json.loads of every line (floor) {floor:.2f} s")
    print(f"  read {t1 - t0:.2f} s ({(t1 - t0) / floor:.1f}x floor), text {t2 - t1:.2f} s "
          f"({len(text.splitlines())} lines), html {t3 - t2:.2f} s -> {len(page) / 1e6:.1f} MB page")
    browser = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)),
                   None)
    if browser is None:
        print("  (Chromium not installed: browser render not measured)")
        return
    shot = tmp / "big.png"
    t4 = time.perf_counter()
    proc = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           f"--user-data-dir={tmp / 'chrome'}", "--window-size=1400,900", f"--screenshot={shot}",
                           out.as_uri()], capture_output=True, text=True, timeout=600)
    t5 = time.perf_counter()
    small = tmp / "small.html"
    small.write_text(render(calls[:10], "small"))
    t6 = time.perf_counter()
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp / 'chrome2'}",
                    f"--screenshot={tmp / 'small.png'}", small.as_uri()], capture_output=True, timeout=600)
    t7 = time.perf_counter()
    errors = [ln for ln in proc.stderr.splitlines() if ":CONSOLE" in ln or "Uncaught" in ln]
    print(f"  headless Chromium load + screenshot of the 100k page: {t5 - t4:.1f} s "
          f"(a 10-call page, the floor: {t7 - t6:.1f} s); console errors: {len(errors)}")


def main() -> int:
    try:
        import opentelemetry.sdk  # noqa: F401
    except ImportError:
        if not ONLY or ONLY & {"cost", "down"}:
            print("the otel extra is not installed (pip install 'hookwise[otel]'); only the report is measured")
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
