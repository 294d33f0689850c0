"""The agent's trust offer (docs/sources.md, "Trust you can read"): before the first prompt, each
untrusted hook is shown with exactly what `hookwise trust` shows (:func:`hookwise.trust.review`),
and the user chooses.

Choices, for all hooks at once or one by one:

- ``a`` / ``y``: trust permanently (``trusted_hooks.json``, as ``hookwise trust`` does);
- ``s``: this session only: the hooks run in this session and nothing is written (the next session
  asks again);
- ``n``: never for this project: recorded, and later sessions skip them without asking
  (``hookwise trust`` still reviews them);
- Enter (or anything else): not now: skipped in this session, asked again next time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from hookwise.core.registry import HookEntry
from hookwise.trust import review

if TYPE_CHECKING:
    from hookwise.engine import HookSystem

ALL_PROMPT = (
    "Trust these hooks? [a] all, always  [o] one by one  [s] this session only  "
    "[n] never for this project  [Enter] not now: "
)
ONE_PROMPT = (
    "  trust this hook? [y] always  [s] this session only  [n] never for this project  "
    "[Enter] not now: "
)


class _Say(Protocol):
    def info(self, text: str) -> None: ...


Ask = Callable[[str], "str | None"]


def _choice(answer: str | None) -> str:
    word = (answer or "").strip().lower()
    return {"yes": "y", "always": "y", "all": "a", "session": "s", "never": "n"}.get(word, word[:1])


def offer(hs: HookSystem, ui: _Say, ask: Ask, pending: list[HookEntry]) -> list[HookEntry]:
    """Ask about ``pending`` (already listed with their material); returns the hooks that stay
    untrusted."""
    choice = _choice(ask(ALL_PROMPT))
    if choice == "o":
        return _one_by_one(hs, ui, ask, pending)
    if choice in ("a", "y"):
        hs.trust(pending)
        ui.info(f"trusted {len(pending)} hook(s)")
        return []
    if choice == "s":
        hs.trust_store.trust_for_session(pending)
        ui.info(f"{len(pending)} hook(s) run in this session only; nothing was recorded")
        return []
    if choice == "n":
        hs.trust_store.decline(pending)
        ui.info(
            f"{len(pending)} hook(s) declined for this project: later sessions skip them without "
            "asking"
        )
        return pending
    ui.info("they stay untrusted and are skipped; `hookwise trust` reviews them one by one")
    return pending


def _one_by_one(hs: HookSystem, ui: _Say, ask: Ask, pending: list[HookEntry]) -> list[HookEntry]:
    store = hs.trust_store
    left: list[HookEntry] = []
    for e in pending:
        for line in review(e, store, hs.project_dir, False):
            ui.info(line)
        choice = _choice(ask(ONE_PROMPT))
        if choice in ("y", "a"):
            hs.trust([e])
        elif choice == "s":
            store.trust_for_session([e])
        else:
            if choice == "n":
                store.decline([e])
            left.append(e)
    ui.info(f"{len(pending) - len(left)} of {len(pending)} hook(s) trusted")
    return left
