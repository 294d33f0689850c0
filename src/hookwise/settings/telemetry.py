"""Gemini CLI's ``telemetry`` settings and the OpenTelemetry environment variables
(docs/telemetry.md).

Standard library only: deciding whether telemetry is on must not import
OpenTelemetry (or :mod:`hookwise.telemetry`). Precedence is Gemini CLI's:
environment variables over settings over defaults; ``OTEL_SDK_DISABLED=true``
switches everything off.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, NamedTuple

#: the environment values each settings key accepts (``None``: any text); the keys themselves are
#: described once in :data:`hookwise.settings.schema.TELEMETRY_KEYS`
_ENV_VALUES: dict[str, tuple[str, ...] | None] = {
    "enabled": ("bool",),
    "logPrompts": ("bool",),
    "target": ("local", "gcp"),
    "otlpProtocol": ("grpc", "http"),
    "otlpEndpoint": None,
    "outfile": None,
}

#: Gemini CLI's own environment overrides (settings key -> variable)
GEMINI_ENV = {
    "enabled": "GEMINI_TELEMETRY_ENABLED",
    "target": "GEMINI_TELEMETRY_TARGET",
    "otlpEndpoint": "GEMINI_TELEMETRY_OTLP_ENDPOINT",
    "otlpProtocol": "GEMINI_TELEMETRY_OTLP_PROTOCOL",
    "outfile": "GEMINI_TELEMETRY_OUTFILE",
    "logPrompts": "GEMINI_TELEMETRY_LOG_PROMPTS",
}

SIGNALS = ("traces", "metrics", "logs")
DEFAULT_ENDPOINTS = {"grpc": "http://localhost:4317", "http": "http://localhost:4318"}
_OTEL_PROTOCOLS = {"grpc": "grpc", "http/protobuf": "http", "http": "http", "http/json": "http"}


class TelemetryConfig(NamedTuple):
    """Where hook telemetry goes, resolved from settings and environment."""

    enabled: bool = False
    target: str = "local"
    endpoint: str = DEFAULT_ENDPOINTS["grpc"]
    protocol: str = "grpc"  # "grpc" | "http" (OTLP/HTTP with protobuf bodies)
    outfile: str | None = None
    log_prompts: bool = True
    service_name: str = "hookwise"
    #: explicit per-signal endpoints (``OTEL_EXPORTER_OTLP_{TRACES,METRICS,LOGS}_ENDPOINT``), full
    #: URLs
    signal_endpoints: tuple[tuple[str, str], ...] = ()
    #: what switched it on, for messages ("settings telemetry.enabled",
    #: "OTEL_EXPORTER_OTLP_ENDPOINT", …)
    reason: str = ""

    def signal_endpoint(self, signal: str) -> str:
        """The URL (http) or address (grpc) one signal is exported to."""
        for s, url in self.signal_endpoints:
            if s == signal:
                return url
        if self.protocol == "http":
            return self.endpoint.rstrip("/") + "/v1/" + signal
        return self.endpoint


def _truthy(value: str) -> bool | None:
    v = value.strip().lower()
    if v in ("1", "true", "yes", "on"):
        return True
    if v in ("0", "false", "no", "off", ""):
        return False
    return None


def resolve(
    settings: Mapping[str, Any], env: Mapping[str, str], project_dir: str | None = None
) -> tuple[TelemetryConfig, list[str]]:
    """The telemetry configuration from merged ``telemetry`` settings and the environment, plus
    warnings."""
    warnings: list[str] = []
    if _truthy(env.get("OTEL_SDK_DISABLED", "")) is True:
        return TelemetryConfig(enabled=False, reason="OTEL_SDK_DISABLED"), warnings

    def pick(key: str) -> tuple[Any, str | None]:
        return _pick(key, settings, env, warnings)

    enabled, why = pick("enabled")
    signal_endpoints = tuple(
        (s, env[f"OTEL_EXPORTER_OTLP_{s.upper()}_ENDPOINT"])
        for s in SIGNALS
        if env.get(f"OTEL_EXPORTER_OTLP_{s.upper()}_ENDPOINT")
    )
    if enabled is None:
        enabled, why = _enabled_by_endpoint(env, signal_endpoints)
    protocol = _protocol(settings, env, warnings)
    endpoint = env.get(GEMINI_ENV["otlpEndpoint"]) or env.get("OTEL_EXPORTER_OTLP_ENDPOINT")
    if not endpoint:
        endpoint = settings.get("otlpEndpoint") or DEFAULT_ENDPOINTS[protocol]
    outfile, _ = pick("outfile")
    if outfile and project_dir is not None and not os.path.isabs(outfile):
        outfile = os.path.join(project_dir, outfile)
    log_prompts, _ = pick("logPrompts")
    target, _ = pick("target")
    if enabled and target == "gcp":
        warnings.append(
            'telemetry target "gcp" is not supported by hookwise; exporting over OTLP instead '
            "(point otlpEndpoint at a collector that forwards to Google Cloud)"
        )
    return TelemetryConfig(
        enabled=bool(enabled),
        target=str(target or "local"),
        endpoint=str(endpoint),
        protocol=str(protocol),
        outfile=outfile or None,
        log_prompts=True if log_prompts is None else bool(log_prompts),
        service_name=env.get("OTEL_SERVICE_NAME") or "hookwise",
        signal_endpoints=signal_endpoints,
        reason=why or "",
    ), warnings


def _pick(
    key: str, settings: Mapping[str, Any], env: Mapping[str, str], warnings: list[str]
) -> tuple[Any, str | None]:
    """A setting's value and where it came from: its ``GEMINI_TELEMETRY_*`` variable when that is
    set and valid (a bad one is a warning), else the settings key, else ``(None, None)``."""
    var = GEMINI_ENV[key]
    raw = env.get(var)
    if raw is not None and raw != "":
        allowed = _ENV_VALUES[key]
        if allowed == ("bool",):
            b = _truthy(raw)
            if b is not None:
                return b, var
            warnings.append(f"{var}={raw!r} is not true or false; ignored")
        elif allowed is not None and raw not in allowed:
            warnings.append(f"{var}={raw!r} is not one of " + ", ".join(allowed) + "; ignored")
        else:
            return raw, var
    if key in settings:
        return settings[key], f"settings telemetry.{key}"
    return None, None


def _enabled_by_endpoint(
    env: Mapping[str, str], signal_endpoints: tuple[tuple[str, str], ...]
) -> tuple[bool, str | None]:
    """Unset ``enabled``: on when an OTLP endpoint is in the environment (and why), else off."""
    if env.get("OTEL_EXPORTER_OTLP_ENDPOINT"):
        return True, "OTEL_EXPORTER_OTLP_ENDPOINT"
    if signal_endpoints:
        return True, f"OTEL_EXPORTER_OTLP_{signal_endpoints[0][0].upper()}_ENDPOINT"
    return False, None


def _protocol(settings: Mapping[str, Any], env: Mapping[str, str], warnings: list[str]) -> str:
    """``grpc`` or ``http``: Gemini's variable, else ``OTEL_EXPORTER_OTLP_PROTOCOL``, else the
    settings."""
    protocol: Any = None
    raw = env.get(GEMINI_ENV["otlpProtocol"], "")
    if raw:
        if raw in ("grpc", "http"):
            protocol = raw
        else:
            warnings.append(f"{GEMINI_ENV['otlpProtocol']}={raw!r} is not grpc or http; ignored")
    raw = env.get("OTEL_EXPORTER_OTLP_PROTOCOL", "").strip().lower()
    if protocol is None and raw:
        protocol = _OTEL_PROTOCOLS.get(raw)
        if protocol is None:
            warnings.append(
                f"OTEL_EXPORTER_OTLP_PROTOCOL={raw!r} is not grpc or http/protobuf; ignored"
            )
        elif raw == "http/json":
            warnings.append(
                "OTEL_EXPORTER_OTLP_PROTOCOL=http/json is not supported; using http/protobuf"
            )
    if protocol is None:
        protocol = settings.get("otlpProtocol")
    return str(protocol or "grpc")
