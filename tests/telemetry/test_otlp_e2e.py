"""End to end: ``hookwise fire`` and ``hookwise agent`` deliver logs, metrics and spans to a real
OTLP/HTTP receiver on 127.0.0.1, configured only through settings, and again only through
``OTEL_*``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("opentelemetry.sdk", reason="needs the otel extra")
pytest.importorskip("opentelemetry.exporter.otlp.proto.http", reason="needs the otel extra")
pytest.importorskip("opentelemetry.proto", reason="needs opentelemetry-proto (test extra)")

from tests.agent.conftest import AgentEnv, call, say, text  # noqa: E402
from tests.conftest import Project  # noqa: E402
from tests.telemetry.receiver import OtlpReceiver  # noqa: E402

from _tiers import quick_where  # noqa: E402

CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_SPAN = "00f067aa0ba902b7"


def _run(argv: list[str], env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookwise", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=90,
    )


def _base_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "GEMINI_TELEMETRY_"))}
    env["HOOKWISE_TRUST_ALL"] = "1"
    env.pop("GEMINI_API_KEY", None)
    return env


def _configure(how: str, rx: OtlpReceiver, env: dict[str, str]) -> None:
    if how == "settings":  # telemetry destinations come from user and system settings only
        telemetry = {"enabled": True, "otlpProtocol": "http", "otlpEndpoint": rx.endpoint}
        user_settings = Path(env["GEMINI_CLI_HOME"]) / ".gemini" / "settings.json"
        user_settings.parent.mkdir(parents=True, exist_ok=True)
        user_settings.write_text(json.dumps({"telemetry": telemetry}))
    else:
        env.update(
            {
                "OTEL_EXPORTER_OTLP_ENDPOINT": rx.endpoint,
                "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
                "OTEL_SERVICE_NAME": "e2e-agents",
                "TRACEPARENT": f"00-{CALLER_TRACE}-{CALLER_SPAN}-01",
            }
        )


def _metric_total(rx: OtlpReceiver, name: str) -> float:
    return sum(float(p.get("value", p.get("count", 0))) for p in rx.metrics if p["name"] == name)


@pytest.mark.parametrize(  # the quick tier: the OTEL_* variables (the one OTLP export it keeps)
    "how", quick_where(["settings", "otel-env"], lambda how: how == "otel-env")
)
def test_fire_delivers_logs_metrics_and_spans(project: Project, how: str) -> None:
    tp_hook = project.script(
        "tp.py",
        """
        json.load(sys.stdin)
        print(json.dumps({"decision": "deny", "reason": os.environ.get("TRACEPARENT", "none")}))
    """,
    )
    env = _base_env()
    with OtlpReceiver() as rx:
        settings: dict[str, Any] = {
            "hooks": {
                "BeforeTool": [
                    {
                        "hooks": [
                            {"type": "command", "name": "guard", "command": tp_hook},
                            {"type": "command", "name": "broken", "command": "exit 1"},
                        ]
                    }
                ]
            }
        }
        _configure(how, rx, env)
        project.write_settings(settings)
        proc = _run(
            [
                "--project",
                str(project.root),
                "fire",
                "BeforeTool",
                "--tool",
                "run_shell_command",
                "--tool-input",
                '{"command": "ls"}',
                "--json",
            ],
            env,
        )
        assert proc.returncode == 2, proc.stderr
        out = json.loads(proc.stdout)
        assert rx.wait(
            lambda r: (
                len(r.logs) >= 2
                and len(r.spans) >= 3
                and _metric_total(r, "gemini_cli.hook_call.count") >= 2
            )
        ), (rx.paths, proc.stderr)
    assert "warning: telemetry" not in proc.stderr
    service = "hookwise" if how == "settings" else "e2e-agents"
    logs = {r["attributes"]["hook_name"]: r for r in rx.logs}
    assert set(logs) == {"guard", "broken"}
    guard = logs["guard"]
    assert (
        guard["event_name"] == "gemini_cli.hook_call"
        and guard["resource"]["service.name"] == service
    )
    a = guard["attributes"]
    assert (
        a["event.name"] == "gemini_cli.hook_call" and a["outcome"] == "ok" and a["success"] is True
    )
    assert a["exit_code"] == 0 and a["source"] == "project" and a["hook_type"] == "command"
    assert json.loads(a["hook_input"])["tool_input"] == {"command": "ls"}
    assert (
        logs["broken"]["attributes"]["outcome"] == "failed"
        and logs["broken"]["attributes"]["error"]
    )
    spans = {s["name"]: s for s in rx.spans}
    firing, hook = spans["hooks BeforeTool"], spans["hook BeforeTool guard"]
    assert hook["parent_span_id"] == firing["span_id"]
    assert spans["hook BeforeTool broken"]["status"] == 2  # STATUS_CODE_ERROR
    assert firing["attributes"]["hookwise.decision"] == "block"
    # the hook saw the TRACEPARENT of its own span
    version, trace_id, span_id, flags = out["reason"].split("-")
    assert (version, trace_id, span_id) == ("00", hook["trace_id"], hook["span_id"])
    assert int(flags, 16) & 1  # sampled
    assert guard["span_id"] == hook["span_id"]
    if how == "otel-env":  # an inherited TRACEPARENT is the parent of the firing
        assert firing["trace_id"] == CALLER_TRACE and firing["parent_span_id"] == CALLER_SPAN
    else:
        assert firing["parent_span_id"] == ""
    counts = {
        p["attributes"]["hook_name"]: p["value"]
        for p in rx.metrics
        if p["name"] == "gemini_cli.hook_call.count"
    }
    assert counts == {"guard": 1, "broken": 1}
    lat = [p for p in rx.metrics if p["name"] == "gemini_cli.hook_call.latency"]
    assert {p["unit"] for p in lat} == {"ms"} and sum(p["count"] for p in lat) == 2


@pytest.mark.slow
@pytest.mark.parametrize("how", ["settings", "otel-env"])
def test_agent_delivers_genai_spans_around_the_hooks(tmp_path: Path, how: str) -> None:
    agent = AgentEnv(tmp_path)
    (agent.root / "a.txt").write_text("hello\n")
    agent.hook("BeforeTool", {"decision": "allow"}, name="tool-guard")
    agent.hook("BeforeModel", None, name="model-watch")
    agent.responses(say(call("read_file", file_path="a.txt")), say(text("read it")))
    env = _base_env()
    with OtlpReceiver() as rx:
        _configure(how, rx, env)
        agent.save_settings()
        proc = _run(
            [
                "--project",
                str(agent.root),
                "agent",
                "-p",
                "read a.txt",
                "--responses",
                str(agent.responses_path),
            ],
            env,
        )
        assert proc.returncode == 0, proc.stderr
        assert rx.wait(
            lambda r: (
                any(s["name"].startswith("invoke_agent") for s in r.spans)
                and _metric_total(r, "gemini_cli.hook_call.count") >= 3
            )
        ), (rx.paths, proc.stderr)
    spans = rx.spans
    by_id = {s["span_id"]: s for s in spans}

    def one(name: str) -> dict[str, Any]:
        found = [s for s in spans if s["name"] == name]
        assert len(found) == 1, (name, sorted(s["name"] for s in spans))
        return found[0]

    agent_span = one("invoke_agent hookwise")
    assert agent_span["attributes"]["gen_ai.operation.name"] == "invoke_agent"
    assert agent_span["attributes"]["gen_ai.agent.name"] == "hookwise"
    tool = one("execute_tool read_file")
    assert tool["attributes"]["gen_ai.operation.name"] == "execute_tool"
    assert tool["attributes"]["gen_ai.tool.name"] == "read_file"
    chats = [s for s in spans if s["name"].startswith("chat")]
    assert len(chats) == 2 and all(
        s["attributes"]["gen_ai.operation.name"] == "chat" for s in chats
    )
    assert all(by_id[s["parent_span_id"]] is agent_span for s in chats)
    # tool hooks sit inside the tool span, model hooks inside the model call's span
    before_tool = one("hooks BeforeTool")
    assert by_id[before_tool["parent_span_id"]] is tool
    model_firings = [s for s in spans if s["name"] == "hooks BeforeModel"]
    assert len(model_firings) == 2 and all(
        by_id[s["parent_span_id"]] in chats for s in model_firings
    )
    assert all(
        s["trace_id"] == agent_span["trace_id"]
        for s in spans
        if s["name"] != "hooks SessionStart" and s["name"] != "hooks SessionEnd"
    )
    assert not any(
        "guardrail" in s["name"] or "apply_guardrail" in json.dumps(s["attributes"]) for s in spans
    )
    names = sorted({r["attributes"]["hook_name"] for r in rx.logs})
    assert names == ["model-watch", "tool-guard"]


@pytest.mark.slow
def test_collector_down_changes_no_result_and_warns_once(project: Project) -> None:
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    dead = f"http://127.0.0.1:{s.getsockname()[1]}"
    s.close()  # nothing listens: connections are refused
    deny = 'echo \'{"decision": "deny", "reason": "r"}\''
    hooks = {
        "BeforeTool": [
            {
                "hooks": [
                    {"type": "command", "command": deny},
                    {"type": "command", "command": "exit 1"},
                ]
            }
        ]
    }
    argv = [
        "--project",
        str(project.root),
        "fire",
        "BeforeTool",
        "--tool",
        "t",
        "--tool-input",
        "{}",
        "--json",
    ]
    project.write_settings({"hooks": hooks})
    without = _run(argv, _base_env())
    project.write_settings(
        {"telemetry": {"enabled": True, "otlpProtocol": "http", "otlpEndpoint": dead}}, "user"
    )
    with_dead = _run(argv, _base_env())
    assert with_dead.returncode == without.returncode == 2

    def verdict(p: subprocess.CompletedProcess[str]) -> Any:
        out = json.loads(p.stdout)
        return out["decision"], out["reason"], [(h["outcome"], h["exitCode"]) for h in out["hooks"]]

    assert verdict(with_dead) == verdict(without)
    lines = [ln for ln in with_dead.stderr.splitlines() if "telemetry" in ln]
    assert len(lines) == 1 and dead in lines[0], with_dead.stderr
    assert "Traceback" not in with_dead.stderr


@pytest.mark.slow
def test_fire_over_grpc_the_default_protocol(project: Project) -> None:
    """Gemini CLI's default: ``telemetry.enabled`` with an endpoint, OTLP over gRPC."""
    pytest.importorskip("grpc", reason="needs grpcio (otel extra)")
    from concurrent import futures

    import grpc
    from opentelemetry.proto.collector.logs.v1 import logs_service_pb2, logs_service_pb2_grpc
    from opentelemetry.proto.collector.metrics.v1 import (
        metrics_service_pb2,
        metrics_service_pb2_grpc,
    )
    from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc

    got: dict[str, list[Any]] = {"logs": [], "spans": [], "metrics": []}

    class Logs(logs_service_pb2_grpc.LogsServiceServicer):
        def Export(self, request: Any, context: Any) -> Any:
            got["logs"] += [
                r for rl in request.resource_logs for sl in rl.scope_logs for r in sl.log_records
            ]
            return logs_service_pb2.ExportLogsServiceResponse()

    class Traces(trace_service_pb2_grpc.TraceServiceServicer):
        def Export(self, request: Any, context: Any) -> Any:
            got["spans"] += [
                s.name for rs in request.resource_spans for ss in rs.scope_spans for s in ss.spans
            ]
            return trace_service_pb2.ExportTraceServiceResponse()

    class Metrics(metrics_service_pb2_grpc.MetricsServiceServicer):
        def Export(self, request: Any, context: Any) -> Any:
            got["metrics"] += [
                m.name
                for rm in request.resource_metrics
                for sm in rm.scope_metrics
                for m in sm.metrics
            ]
            return metrics_service_pb2.ExportMetricsServiceResponse()

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    logs_service_pb2_grpc.add_LogsServiceServicer_to_server(Logs(), server)
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(Traces(), server)
    metrics_service_pb2_grpc.add_MetricsServiceServicer_to_server(Metrics(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        project.write_settings(
            {"telemetry": {"enabled": True, "otlpEndpoint": f"http://127.0.0.1:{port}"}}, "user"
        )
        project.write_settings(
            {
                "hooks": {
                    "BeforeTool": [
                        {"hooks": [{"type": "command", "name": "g", "command": "exit 0"}]}
                    ]
                },
            }
        )
        proc = _run(
            ["--project", str(project.root), "fire", "BeforeTool", "--tool", "t"], _base_env()
        )
        assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr
    finally:
        server.stop(None)
    assert [r.event_name for r in got["logs"]] == ["gemini_cli.hook_call", "hookwise.decision"]
    assert sorted(got["spans"]) == ["hook BeforeTool g", "hooks BeforeTool"]
    assert {"gemini_cli.hook_call.count", "gemini_cli.hook_call.latency"} <= set(got["metrics"])
