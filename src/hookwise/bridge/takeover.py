"""Hooks that ``hookwise install --take-over`` moved out of an agent's own file (docs/agents.md)."""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

    from hookwise.bridge.agents import Agent
    from hookwise.core.registry import HookEntry


def taken_over_entries(
    agent: Agent, project: str, env: Mapping[str, str]
) -> tuple[list[HookEntry], list[str]]:
    return [], []
