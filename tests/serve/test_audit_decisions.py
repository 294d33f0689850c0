"""Audit mode (``hooksConfig.mode: "audit"``, ``serve --audit``) and decision records, received by a
real OTLP/HTTP receiver (and by an OpenTelemetry Collector binary when one is installed)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import Project

from hookwise import HookSystem

from .conftest import ask, claude_pre, config, gemini_before, make_project, serving

DENY = {
    "type": "command",
    "name": "no-rm",
    "command": 'echo \'{"decision": "deny", "reason": "no rm"}\'',
}


def test_user_settings_audit_mode_enforces_nothing_and_says_what_would_have_happened(
    project: Project,
) -> None:
    project.hooks("BeforeTool", DENY)
    project.write_settings({"hooksConfig": {"mode": "audit"}}, layer="user")
    result = HookSystem(project.root, trust_all=True).fire(
        "BeforeTool", tool_name="run_shell_command", tool_input={"command": "rm -rf /"}
    )
    assert not result.blocked and result.output == {}
    assert result.audit is not None and result.audit["decision"] == "deny"
    assert any("would have denied (no rm); nothing was enforced" in w for w in result.warnings)
    assert result.to_json()["audit"]["reason"] == "no rm"


def test_a_project_cannot_switch_audit_mode_on(project: Project) -> None:
    settings = {"hooks": {"BeforeTool": [{"hooks": [DENY]}]}, "hooksConfig": {"mode": "audit"}}
    project.write_settings(settings)
    hs = HookSystem(project.root, trust_all=True)
    assert any(
        "/hooksConfig/mode: only user and system settings may set hooksConfig.mode" in w
        for w in hs.warnings
    )
    assert hs.fire("BeforeTool", tool_name="t", tool_input={}).blocked


def test_serve_audit_answers_allow_with_what_would_have_happened(roots: Path) -> None:
    p = make_project(roots, "alpha")
    with serving(config(roots, audit=True)) as srv:
        _, answer = ask(srv, "claude", claude_pre(p, mode="deny", n=1))
    assert "hookSpecificOutput" not in answer
    assert (
        "audit mode: the BeforeTool hooks would have denied (alpha denies 1)"
        in answer["systemMessage"]
    )


def _otel_env(endpoint: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "GEMINI_TELEMETRY_"))}
    env.update(
        OTEL_EXPORTER_OTLP_ENDPOINT=endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL="http/protobuf",
        OTEL_SERVICE_NAME="hookwise-fleet-test",
    )
    return env


@pytest.mark.slow
def test_decision_records_reach_an_otlp_receiver(roots: Path) -> None:
    pytest.importorskip("opentelemetry.exporter.otlp.proto.http", reason="needs the otel extra")
    pytest.importorskip("opentelemetry.proto", reason="needs opentelemetry-proto (test extra)")
    from tests.telemetry.receiver import OtlpReceiver

    p = make_project(roots, "alpha")
    with OtlpReceiver() as rx:
        options = {"trust_all": True, "env": _otel_env(rx.endpoint)}
        with serving(config(roots, system_options=options, audit=True)) as srv:
            ask(srv, "claude", claude_pre(p, mode="deny", n=1))
            ask(srv, "gemini", gemini_before(p, n=2))
        assert rx.wait(lambda r: len(r.decisions) >= 2)
    by_agent = {d["attributes"]["agent"]: d for d in rx.decisions}
    claude = by_agent["claude"]["attributes"]
    assert claude["hook_event_name"] == "BeforeTool"
    assert claude["project"] == str(p.resolve())
    assert claude["session.id"] == "s1"
    assert claude["tool_name"] == "run_shell_command"
    assert claude["decision"] == "deny" and claude["reason"] == "alpha denies 1"
    assert claude["audit"] is True
    assert claude["hook_names"] == ["alpha-echo"] and claude["hook_sources"] == ["project"]
    assert claude["hook_outcomes"] == ["ok"] and claude["hook_decisions"] == ["deny"]
    assert len(claude["policy.version"]) == 16 and claude["duration_ms"] > 0
    assert by_agent["claude"]["trace_id"].strip("0")  # in the firing's trace
    assert by_agent["gemini"]["attributes"]["decision"] == "allow"
    served = {
        m["attributes"]["agent"] for m in rx.metrics if m["name"] == "hookwise.serve.requests"
    }
    assert served == {"claude", "gemini"}  # request metrics through the same pipeline
    # beside the hook_call records of the same firings, in the same trace
    call_traces = {r["trace_id"] for r in rx.logs}
    assert by_agent["claude"]["trace_id"] in call_traces


COLLECTOR = textwrap.dedent("""
    receivers:
      otlp:
        protocols:
          http:
            endpoint: 127.0.0.1:{port}
    processors:
      filter/decisions:
        logs:
          log_record:
            - 'attributes["event.name"] != "hookwise.decision"'
    exporters:
      file:
        path: {out}
    service:
      pipelines:
        logs:
          receivers: [otlp]
          processors: [filter/decisions]
          exporters: [file]
""")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.skipif(
    not (shutil.which("otelcol-contrib") or shutil.which("otelcol")),
    reason="no OpenTelemetry Collector binary (otelcol-contrib / otelcol) on PATH",
)
def test_a_real_collector_writes_decision_records_to_a_file(roots: Path, tmp_path: Path) -> None:
    binary = shutil.which("otelcol-contrib") or shutil.which("otelcol")
    assert binary
    port, out = _free_port(), tmp_path / "decisions.json"
    cfg = tmp_path / "collector.yaml"
    cfg.write_text(COLLECTOR.format(port=port, out=out))
    collector = subprocess.Popen(
        [binary, "--config", str(cfg)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        time.sleep(2)
        p = make_project(roots, "alpha")
        options: dict[str, Any] = {"trust_all": True, "env": _otel_env(f"http://127.0.0.1:{port}")}
        with serving(config(roots, system_options=options)) as srv:
            ask(srv, "claude", claude_pre(p, mode="deny", n=1))
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and "hookwise.decision" not in (
            out.read_text() if out.exists() else ""
        ):
            time.sleep(0.2)
    finally:
        collector.terminate()
        collector.wait(10)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert any("hookwise.decision" in json.dumps(line) for line in lines)
