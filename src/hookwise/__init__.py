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

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers read the name)

#: every public name -> the module that defines it (imported on first use, so ``import hookwise`` is
#: cheap)
_LAZY: dict[str, str] = {
    "HookSystem": "hookwise.engine",
    "HookEntry": "hookwise.core.registry",
    "FireResult": "hookwise.result",
    "HookOutcome": "hookwise.result",
    "Outcome": "hookwise.result",
    "HookEvent": "hookwise.events",
    "AgentStopped": "hookwise.errors",
    "CaseFileError": "hookwise.errors",
    "EditError": "hookwise.errors",
    "ExtensionError": "hookwise.errors",
    "PluginError": "hookwise.errors",
    "UngovernedError": "hookwise.errors",
    "ProfileError": "hookwise.errors",
    "HookNotFoundError": "hookwise.errors",
    "HookwiseError": "hookwise.errors",
    "LlmFormatError": "hookwise.errors",
    "ModelError": "hookwise.errors",
    "PayloadError": "hookwise.errors",
    "ResponsesFileError": "hookwise.errors",
    "SettingsError": "hookwise.errors",
    "UnknownEventError": "hookwise.errors",
    "WriteError": "hookwise.errors",
    "hook": "hookwise.authoring",
    "HookFunction": "hookwise.authoring",
    "HookInput": "hookwise.authoring",
    "Block": "hookwise.authoring",
}

__all__ = [
    "AgentStopped",
    "Block",
    "CaseFileError",
    "EditError",
    "ExtensionError",
    "FireResult",
    "HookEntry",
    "HookEvent",
    "HookFunction",
    "HookInput",
    "HookNotFoundError",
    "HookOutcome",
    "HookSystem",
    "HookwiseError",
    "LlmFormatError",
    "ModelError",
    "Outcome",
    "PayloadError",
    "PluginError",
    "ProfileError",
    "ResponsesFileError",
    "SettingsError",
    "UngovernedError",
    "UnknownEventError",
    "WriteError",
    "__version__",
    "hook",
]

if TYPE_CHECKING:
    from typing import Any

    from hookwise.authoring import Block, HookFunction, HookInput, hook
    from hookwise.core.registry import HookEntry
    from hookwise.engine import HookSystem
    from hookwise.errors import (
        AgentStopped,
        CaseFileError,
        EditError,
        ExtensionError,
        HookNotFoundError,
        HookwiseError,
        LlmFormatError,
        ModelError,
        PayloadError,
        PluginError,
        ProfileError,
        ResponsesFileError,
        SettingsError,
        UngovernedError,
        UnknownEventError,
        WriteError,
    )
    from hookwise.events import HookEvent
    from hookwise.result import FireResult, HookOutcome, Outcome

    __version__: str


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value: Any = version("hookwise")
        except PackageNotFoundError:  # running from a source tree that was never installed
            value = "0+unknown"
    else:
        mod = _LAZY.get(name)
        if mod is None:
            raise AttributeError(f"module 'hookwise' has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(mod), name)
    globals()[name] = value
    return value
