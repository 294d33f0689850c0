"""How telemetry is switched on: Gemini CLI's ``telemetry`` settings, ``OTEL_*`` and
``GEMINI_TELEMETRY_*``."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from tests.conftest import Project

from hookwise import HookSystem
from hookwise.settings.load import load_settings
from hookwise.settings.telemetry import TelemetryConfig, resolve


def test_off_by_default() -> None:
    config, warnings = resolve({}, {})
    assert config == TelemetryConfig() and not config.enabled and warnings == []


def test_settings_switch_it_on_with_gemini_defaults() -> None:
    config, _ = resolve({"enabled": True}, {})
    assert (
        config.enabled and config.protocol == "grpc" and config.endpoint == "http://localhost:4317"
    )
    assert config.log_prompts and config.reason == "settings telemetry.enabled"
    http, _ = resolve(
        {"enabled": True, "otlpProtocol": "http", "otlpEndpoint": "http://c:4318/"}, {}
    )
    assert http.signal_endpoint("logs") == "http://c:4318/v1/logs"
    assert http.signal_endpoint("traces") == "http://c:4318/v1/traces"


def test_otel_environment_switches_it_on_and_wins_over_settings() -> None:
    env = {
        "OTEL_EXPORTER_OTLP_ENDPOINT": "http://env:4318",
        "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
        "OTEL_SERVICE_NAME": "agents",
        "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": "http://m:9/x",
    }
    config, warnings = resolve({"otlpEndpoint": "http://settings:1", "otlpProtocol": "grpc"}, env)
    assert warnings == []
    assert config.enabled and config.reason == "OTEL_EXPORTER_OTLP_ENDPOINT"
    assert (config.protocol, config.endpoint, config.service_name) == (
        "http",
        "http://env:4318",
        "agents",
    )
    assert config.signal_endpoint("metrics") == "http://m:9/x"
    assert config.signal_endpoint("traces") == "http://env:4318/v1/traces"


def test_explicit_off_and_sdk_disabled_win() -> None:
    assert not resolve({"enabled": False}, {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://x"})[0].enabled
    assert not resolve({"enabled": True}, {"OTEL_SDK_DISABLED": "true"})[0].enabled
    assert resolve({"enabled": False}, {"GEMINI_TELEMETRY_ENABLED": "true"})[0].enabled


def test_gemini_environment_overrides(tmp_path: os.PathLike[str]) -> None:
    env = {
        "GEMINI_TELEMETRY_ENABLED": "1",
        "GEMINI_TELEMETRY_LOG_PROMPTS": "false",
        "GEMINI_TELEMETRY_OUTFILE": "tel.jsonl",
        "GEMINI_TELEMETRY_OTLP_PROTOCOL": "http",
    }
    config, _ = resolve({"logPrompts": True}, env, str(tmp_path))
    assert config.enabled and not config.log_prompts and config.protocol == "http"
    assert config.outfile == os.path.join(str(tmp_path), "tel.jsonl")
    _, warnings = resolve(
        {}, {"GEMINI_TELEMETRY_ENABLED": "maybe", "OTEL_EXPORTER_OTLP_PROTOCOL": "carrier-pigeon"}
    )
    assert any("GEMINI_TELEMETRY_ENABLED='maybe'" in w for w in warnings)
    assert any("OTEL_EXPORTER_OTLP_PROTOCOL='carrier-pigeon'" in w for w in warnings)


def test_layers_merge_key_by_key_and_bad_values_name_the_file(project: Project) -> None:
    project.write_settings(
        {"telemetry": {"enabled": True, "otlpProtocol": "http", "logPrompts": False}}, "user"
    )
    path = project.write_settings(
        {"telemetry": {"otlpProtocol": "smoke", "logPrompts": True, "colour": 1}}
    )
    loaded = load_settings(str(project.root))
    # a project may not switch logPrompts back on (settings/schema.py Origin; docs/security.md)
    assert loaded.telemetry == {"enabled": True, "otlpProtocol": "http", "logPrompts": False}
    text = "\n".join(loaded.warnings)
    assert f"{path}" in text and "/telemetry/otlpProtocol" in text and '"smoke"' in text
    assert "only user and system settings may set telemetry.logPrompts" in text


@pytest.mark.slow
def test_validate_accepts_the_telemetry_keys(project: Project) -> None:
    project.write_settings(
        {
            "telemetry": {
                "enabled": False,
                "target": "local",
                "otlpEndpoint": "http://c:4317",
                "otlpProtocol": "grpc",
                "outfile": "t.jsonl",
                "logPrompts": False,
            },
            "hooks": {},
        },
        "user",  # telemetry destinations come from user and system settings only
    )
    proc = subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project.root), "validate", "--json"],
        capture_output=True,
        text=True,
        env={**os.environ},
        timeout=60,
    )
    assert proc.returncode == 0 and "telemetry" not in proc.stdout + proc.stderr, (
        proc.stdout + proc.stderr
    )
    project.write_settings({"telemetry": {"enabled": "yes", "otlpProtocol": "udp"}})
    proc = subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project.root), "validate"],
        capture_output=True,
        text=True,
        env={**os.environ},
        timeout=60,
    )
    out = proc.stdout + proc.stderr
    assert "/telemetry/enabled" in out and "/telemetry/otlpProtocol" in out and '"udp"' in out, out
    project.write_settings({"telemetry": {"enabeld": True}})
    proc = subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project.root), "validate"],
        capture_output=True,
        text=True,
        env={**os.environ},
        timeout=60,
    )
    assert "did you mean 'enabled'" in proc.stdout + proc.stderr, proc.stdout + proc.stderr


def test_without_the_extra_one_warning_naming_it(project: Project) -> None:
    project.write_settings({"telemetry": {"enabled": True}}, "user")
    project.write_settings(
        {
            "hooks": {
                "BeforeTool": [
                    {
                        "hooks": [
                            {
                                "type": "command",
                                "command": 'echo \'{"decision": "deny", "reason": "r"}\'',
                            }
                        ]
                    }
                ]
            },
        }
    )
    code = textwrap.dedent(f"""
        import sys
        sys.modules["opentelemetry"] = None  # as if the otel extra were not installed
        from hookwise.cli.main import main
        argv = ["--project", {str(project.root)!r}, "fire", "BeforeTool", "--tool", "t",
                "--tool-input", "{{}}"]
        sys.exit(main(argv))
    """)
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "HOOKWISE_TRUST_ALL": "1"},
    )
    assert proc.returncode == 2, proc.stderr  # the hook's deny still counts
    lines = [ln for ln in proc.stderr.splitlines() if "hookwise[otel]" in ln]
    assert len(lines) == 1, proc.stderr
    assert "telemetry is switched on (settings telemetry.enabled)" in lines[0]
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
def test_firing_with_telemetry_off_imports_no_opentelemetry(project: Project) -> None:
    project.hooks("BeforeTool", "exit 0")
    code = textwrap.dedent(f"""
        import sys
        import hookwise
        hs = hookwise.HookSystem({str(project.root)!r}, trust_all=True)
        hs.fire("BeforeTool", tool_name="t", tool_input={{}})
        hs.fire("AfterTool", tool_name="t", tool_input={{}}, tool_response={{}})
        bad = [m for m in sys.modules if m.startswith(("opentelemetry", "hookwise.telemetry"))]
        print(",".join(bad) or "clean")
    """)
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ),
    )
    assert proc.stdout.strip() == "clean", proc.stdout + proc.stderr
    cli = textwrap.dedent(f"""
        import sys
        from hookwise.cli.main import main
        rc = main(["--project", {str(project.root)!r}, "fire", "BeforeTool", "--tool", "t",
                   "--json"])
        heavy = ("opentelemetry", "hookwise.telemetry", "hookwise.report")
        bad = [m for m in sys.modules if m.startswith(heavy)]
        print("CLI", ",".join(bad) or "clean", rc)
    """)
    proc = subprocess.run(
        [sys.executable, "-c", cli],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "HOOKWISE_TRUST_ALL": "1"},
    )
    assert proc.stdout.strip().endswith("CLI clean 0"), proc.stdout + proc.stderr


def test_settings_build_an_observer(project: Project, tmp_path: os.PathLike[str]) -> None:
    pytest.importorskip("opentelemetry.sdk", reason="needs the otel extra")
    out = os.path.join(str(tmp_path), "tel.jsonl")
    project.write_settings(
        {"telemetry": {"enabled": True, "outfile": out, "logPrompts": False}}, "user"
    )
    hs = HookSystem(project.root)
    assert hs.telemetry is not None and hs.telemetry.log_prompts is False
    project.write_settings({"telemetry": {"enabled": False}})  # a project may switch it off
    hs.reload()
    assert hs.telemetry is None
