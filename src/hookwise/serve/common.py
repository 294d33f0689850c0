"""What the routes of ``hookwise serve`` share: the logger, the response, request metrics."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hookwise.jsonc.codec import dumps

if TYPE_CHECKING:
    from hookwise.engine import HookSystem

#: every refusal is a warning here (``hookwise serve`` prints it on stderr)
LOG = logging.getLogger("hookwise.serve")


@dataclass
class Response:
    """One HTTP answer."""

    status: int
    body: bytes
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)


def json_response(status: int, obj: Any) -> Response:
    return Response(status, dumps(obj).encode())


def request_metrics(system: HookSystem, agent: str, event: str, seconds: float) -> None:
    """``hookwise.serve.requests`` (count) and ``hookwise.serve.request.duration`` (ms) through the
    project's OpenTelemetry pipeline, when its telemetry is on (docs/fleet.md)."""
    tel = system.telemetry
    if tel is None:
        return
    meter = getattr(tel, "meter", None)
    if meter is None:
        return
    instruments = _INSTRUMENTS.get(id(meter))
    if instruments is None or instruments[0] is not meter:
        count = meter.create_counter(
            "hookwise.serve.requests", unit="1", description="Hook requests"
        )
        latency = meter.create_histogram(
            "hookwise.serve.request.duration", unit="ms", description="Hook request duration"
        )
        instruments = _INSTRUMENTS[id(meter)] = (meter, count, latency)
    attrs = {"agent": agent, "hook_event_name": event}
    instruments[1].add(1, attrs)
    instruments[2].record(seconds * 1000, attrs)


#: id(meter) -> (meter, request counter, duration histogram)
_INSTRUMENTS: dict[int, tuple[Any, Any, Any]] = {}
