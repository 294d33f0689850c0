"""Whether a hook system exports OpenTelemetry, decided from ``telemetry`` settings and ``OTEL_*``
(docs/telemetry.md).

:class:`TelemetrySwitch` is held by :class:`hookwise.HookSystem`. When neither the settings nor the
environment mention telemetry, it is off without importing the resolver
(:mod:`hookwise.settings.telemetry`) or anything of :mod:`hookwise.telemetry` (start-up time). An
observer a host sets itself wins over the settings until it is unset. The observer is built on the
call-monitor seam (:class:`hookwise.monitors.Monitors`).
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from hookwise.monitors import Monitors
    from hookwise.telemetry.observer import HookTelemetry

#: the prefixes of every environment variable :func:`hookwise.settings.telemetry.resolve` reads
TELEMETRY_ENV = ("OTEL_", "GEMINI_TELEMETRY_")
_OFF = "off"  # the key when neither settings nor environment mention telemetry


class TelemetrySwitch:
    """The observer of one hook system's firings, switched from its settings or set by the host."""

    def __init__(self, monitors: Monitors) -> None:
        self._monitors = monitors
        self.observer: HookTelemetry | None = None  # only when switched on
        self._key: Any = None  # what the last decision was made from
        self._explicit = False  # set by the host: the settings do not switch it
        self._remove: Callable[[], None] | None = None

    def configure(
        self, telemetry: Mapping[str, Any], env: dict[str, str], project_dir: str, owner: object
    ) -> list[str]:
        """Switch on or off from the ``telemetry`` settings and the environment; the warnings to
        show."""
        if self._explicit:
            return []
        if not telemetry and not any(k.startswith(TELEMETRY_ENV) for k in env):
            # nothing could switch it on: off, without importing the resolver (docs/telemetry.md)
            if self._key != _OFF:
                self._key = _OFF
                self._set(None, owner)
            return []
        from hookwise.settings.telemetry import resolve

        config, warnings = resolve(telemetry, env, project_dir)
        if config == self._key:
            return list(warnings)
        self._key = config
        observer = None
        if config.enabled:
            from hookwise.telemetry import from_config

            observer, more = from_config(config, env)
            warnings = [*warnings, *more]
        self._set(observer, owner)
        return list(warnings)

    def set_by_host(self, observer: HookTelemetry | None, owner: object) -> None:
        """The host's own observer (``None``: the settings decide again at the next reload)."""
        self._explicit = observer is not None
        self._set(observer, owner)

    def _set(self, observer: HookTelemetry | None, owner: object) -> None:
        """Switch to ``observer``; ``owner`` (the hook system) is what its decision records
        describe."""
        if self._remove is not None:
            self._remove()
            self._remove = None
        self.observer = observer
        if (
            observer is not None
        ):  # decision records (docs/fleet.md); weak: the observer must not keep us alive
            import weakref

            observer.decision_source = weakref.ref(owner)
        if observer is not None:  # built on the before/after monitor seam
            self._remove = self._monitors.add(before=observer.before, after=observer.after)
