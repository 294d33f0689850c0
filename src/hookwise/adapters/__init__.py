"""Adapters: one project's hooks govern agents built with Python agent frameworks
(docs/adapters.md).

Each framework has its own module, imported only when used, and its own extra (``pip install
"hookwise[<extra>]"``)::

    from hookwise.adapters.langchain import HookwiseMiddleware        # extra: langchain
    from hookwise.adapters.pydantic_ai import HookwiseCapability      # extra: pydantic-ai
    from hookwise.adapters.adk import HookwisePlugin                  # extra: adk
    from hookwise.adapters import openai_agents                       # extra: openai-agents
    from hookwise.adapters.agent_framework import HookwiseMiddleware  # extra: agent-framework
    from hookwise.adapters.crewai import HookwiseCrewHooks            # extra: crewai

The framework-neutral core (:mod:`~hookwise.adapters._bridge`, :mod:`~hookwise.host.verdicts`,
:mod:`~hookwise.adapters._codec`) imports only hookwise and the standard library; the reference host
``hookwise agent`` uses the same verdict helpers. A module whose framework is not installed raises
:class:`ImportError` naming the extra to install.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from hookwise.errors import AgentStopped

if TYPE_CHECKING:
    from hookwise.adapters._bridge import HookBridge, TurnState

__all__ = ["EXTRAS", "AgentStopped", "HookBridge", "TurnState", "require"]

#: adapter module -> (extra, the distribution(s) it needs, the module imported to check)
EXTRAS: dict[str, tuple[str, str, str]] = {
    "langchain": ("langchain", "langchain", "langchain.agents"),
    "pydantic_ai": ("pydantic-ai", "pydantic-ai-slim", "pydantic_ai"),
    "adk": ("adk", "google-adk", "google.adk"),
    "openai_agents": ("openai-agents", "openai-agents", "agents"),
    "agent_framework": ("agent-framework", "agent-framework-core", "agent_framework"),
    "crewai": ("crewai", "crewai", "crewai.hooks"),
}

_FRAMEWORK_MODULES = frozenset(EXTRAS)
_LAZY = {"HookBridge": "_bridge", "TurnState": "_bridge"}


def require(adapter: str) -> None:
    """Import ``adapter``'s framework, or raise :class:`ImportError` naming the extra that installs
    it."""
    extra, dist, module = EXTRAS[adapter]
    try:
        importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"hookwise.adapters.{adapter} needs the {dist} package: "
            f'pip install "hookwise[{extra}]" (Python 3.11 or newer)'
        ) from exc


def __getattr__(name: str) -> Any:
    if name in _FRAMEWORK_MODULES:
        return importlib.import_module(f"hookwise.adapters.{name}")
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'hookwise.adapters' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"hookwise.adapters.{mod}"), name)
    globals()[name] = value
    return value
