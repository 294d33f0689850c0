"""OpenTelemetry logs, metrics and spans for hook calls (extra ``hookwise[otel]``;
docs/telemetry.md).

Nothing here is imported unless telemetry is switched on (Gemini CLI's
``telemetry`` settings or ``OTEL_*`` variables), or a host calls
:func:`instrument`. This module itself imports no OpenTelemetry package, so a
missing extra is one clear warning rather than an ``ImportError``.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hookwise.settings.telemetry import TelemetryConfig
    from hookwise.telemetry.observer import HookTelemetry

__all__ = ["MISSING_EXTRA", "from_config", "instrument"]

MISSING_EXTRA = (
    "telemetry is switched on ({why}) but OpenTelemetry is not installed; "
    "install it with `pip install 'hookwise[otel]'` (hooks run, nothing is exported)"
)

_LOCK = threading.Lock()
_PIPELINES: dict[Any, Any] = {}  # one SDK pipeline per configuration per process
_WARNED: set[str] = set()


def from_config(
    config: TelemetryConfig, env: dict[str, str] | None = None
) -> tuple[HookTelemetry | None, list[str]]:
    """The observer for a configuration switched on by settings or ``OTEL_*``, or ``None`` and why
    not.

    Warnings are returned once per process (a host reloading its settings is not
    told twice).
    """
    try:
        from hookwise.telemetry.export import build
        from hookwise.telemetry.observer import HookTelemetry
    except ImportError as exc:
        msg = MISSING_EXTRA.format(why=config.reason or "telemetry.enabled")
        with _LOCK:
            if msg in _WARNED:
                return None, []
            _WARNED.add(msg)
        missing = getattr(exc, "name", None)
        return None, [msg + (f" [missing module: {missing}]" if missing else "")]
    key = (
        config.endpoint,
        config.protocol,
        config.outfile,
        config.service_name,
        config.signal_endpoints,
    )
    warnings: list[str] = []
    with _LOCK:
        pipeline = _PIPELINES.get(key)
        if pipeline is None:
            try:
                pipeline = _PIPELINES[key] = build(config)
            except (OSError, ValueError) as exc:  # e.g. an outfile in a missing directory
                return None, [f"telemetry: cannot export ({exc}); nothing is exported"]
    parent = (env or {}).get("TRACEPARENT")
    return HookTelemetry(
        pipeline.tracer_provider,
        pipeline.meter_provider,
        pipeline.logger_provider,
        log_prompts=config.log_prompts,
        owned=pipeline,
        parent_traceparent=parent,
    ), warnings


def instrument(
    hooks: Any,
    *,
    tracer_provider: Any = None,
    meter_provider: Any = None,
    logger_provider: Any = None,
    log_prompts: bool = True,
    traceparent: bool = True,
) -> HookTelemetry:
    """Send the hook calls of a :class:`hookwise.HookSystem` to the given providers (default: the
    global ones).

    For hosts that configure OpenTelemetry themselves: the firing and hook spans
    become children of whatever span is current when the host fires. Returns the
    observer (also ``hooks.telemetry``); settings no longer change it.
    """
    from hookwise.telemetry.observer import HookTelemetry

    tel = HookTelemetry(
        tracer_provider,
        meter_provider,
        logger_provider,
        log_prompts=log_prompts,
        traceparent=traceparent,
    )
    hooks.telemetry = tel
    return tel
