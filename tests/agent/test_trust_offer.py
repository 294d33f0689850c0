"""The agent's trust offer means what it says (issue 20, item 12): per-hook choices, the same
material as `hookwise trust`, and "this session only" trusts nothing permanently."""

from __future__ import annotations

import os
from collections.abc import Iterator

from tests.conftest import Project

from hookwise import HookSystem
from hookwise.agent import trust_offer


class Screen:
    """What the offer tells the user, line by line (the terminal UI's ``info``)."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def info(self, text: str) -> None:
        self.lines.append(text)


def answers(*replies: str) -> tuple[list[str], trust_offer.Ask]:
    asked: list[str] = []
    it: Iterator[str] = iter(replies)

    def ask(prompt: str) -> str | None:
        asked.append(prompt)
        return next(it, None)

    return asked, ask


def three(project: Project) -> None:
    project.hooks(
        "BeforeTool",
        {"type": "command", "command": "true", "name": "keep"},
        {"type": "command", "command": "true --x", "name": "now"},
        {"type": "command", "command": "true --y", "name": "never", "env": {"A": "\x1b[2J"}},
    )


def test_one_by_one_with_every_choice(project: Project) -> None:
    three(project)
    hs = HookSystem(project.root)
    screen = Screen()
    asked, ask = answers("o", "y", "s", "n")
    left = trust_offer.offer(hs, screen, ask, hs.untrusted())
    assert [e.name for e in left] == ["never"]
    assert asked == [trust_offer.ALL_PROMPT] + [trust_offer.ONE_PROMPT] * 3
    # the same material as `hookwise trust`, escapes made visible
    assert "  env:     A=\\x1b[2J" in screen.lines and not any("\x1b" in ln for ln in screen.lines)
    assert [e.name for e in hs.entries if hs.is_trusted(e)] == ["keep", "now"]
    # a new session: only the permanent choice holds; "never" is remembered, "this session" is not
    later = HookSystem(project.root)
    assert [e.name for e in later.untrusted()] == ["now", "never"]
    assert [later.trust_store.declined(e) for e in later.untrusted()] == [False, True]


def test_this_session_only_writes_nothing(project: Project) -> None:
    three(project)
    hs = HookSystem(project.root)
    _asked, ask = answers("s")
    assert trust_offer.offer(hs, Screen(), ask, hs.untrusted()) == []
    assert all(hs.is_trusted(e) for e in hs.entries)
    home = os.environ["GEMINI_CLI_HOME"]
    assert not os.path.exists(os.path.join(home, ".gemini", "trusted_hooks.json"))
    assert len(HookSystem(project.root).untrusted()) == 3


def test_a_declined_hook_that_changes_is_asked_about_again(project: Project) -> None:
    project.hooks("BeforeTool", {"type": "command", "command": "true", "name": "h"})
    hs = HookSystem(project.root)
    _asked, ask = answers("n")
    trust_offer.offer(hs, Screen(), ask, hs.untrusted())
    assert HookSystem(project.root).trust_store.declined(hs.entries[0])
    project.hooks("BeforeTool", {"type": "command", "command": "true --changed", "name": "h"})
    changed = HookSystem(project.root)
    assert not changed.trust_store.declined(changed.entries[0])
