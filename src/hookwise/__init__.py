"""hookwise: a standalone Python runtime for AI-agent lifecycle hooks.

Build a :class:`HookSystem` for a project directory, register in-process hooks
if you like, and fire events; each firing returns a :class:`FireResult`::

    from hookwise import HookSystem

    hooks = HookSystem("/path/to/project")
    result = hooks.fire("BeforeTool", tool_name="run_shell_command", tool_input={"command": "ls"})
    if result.blocked:
        ...
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = [
    "FireResult",
    "HookEntry",
    "HookEvent",
    "HookNotFoundError",
    "HookOutcome",
    "HookSystem",
    "HookwiseError",
    "Outcome",
    "PayloadError",
    "SettingsError",
    "UnknownEventError",
    "__version__",
]

if TYPE_CHECKING:
    from hookwise.core.registry import HookEntry
    from hookwise.engine import HookSystem
    from hookwise.errors import HookNotFoundError, HookwiseError, PayloadError, SettingsError, UnknownEventError
    from hookwise.events import HookEvent
    from hookwise.result import FireResult, HookOutcome, Outcome

_LAZY = {
    "HookSystem": "engine",
    "HookEntry": "core.registry",
    "FireResult": "result",
    "HookOutcome": "result",
    "Outcome": "result",
    "HookEvent": "events",
    "HookwiseError": "errors",
    "HookNotFoundError": "errors",
    "PayloadError": "errors",
    "SettingsError": "errors",
    "UnknownEventError": "errors",
}


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'hookwise' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{mod}", __name__), name)
    globals()[name] = value
    return value
