"""Claude Code compatibility: Claude-shaped inputs, Claude-style answers, native ``.claude/`` loading.

(Seam only: the engine calls these functions; the full mapping is filled in by the
Claude-compatibility work.)
"""

from __future__ import annotations

from typing import Any

from .events import HookEvent


def to_claude_input(event: HookEvent, payload: dict[str, Any]) -> dict[str, Any]:
    """The stdin a ``"dialect": "claude"`` hook receives for ``payload``."""
    return payload


def normalize_output(event: HookEvent, output: dict[str, Any], dialect: str | None) -> dict[str, Any]:
    """Map Claude-style answer fields onto the contract's (applied to every hook's JSON answer)."""
    return output


def text_output(event: HookEvent, text: str, dialect: str | None) -> dict[str, Any] | None:
    """For a Claude-dialect hook's plain-text stdout at exit 0: its meaning, or None for the default."""
    return None
