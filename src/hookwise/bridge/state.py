"""The last-fired state file of ``hookwise agents``."""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping


def record_firing(
    agent: str, agent_event: str, context: str, session_id: str, env: Mapping[str, str]
) -> None:
    return None
