"""``hookwise trust [--all]``: review untrusted project and extension hooks and approve them."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from hookwise.cli.base import CliContext
from hookwise.core.registry import HookEntry
from hookwise.runners.kind import visible
from hookwise.trust import review

if TYPE_CHECKING:
    from hookwise.engine import HookSystem


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--all", action="store_true", help="approve every untrusted hook without asking")


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    hs = ctx.hook_system(trust_all=False)
    for w in hs.warnings:
        ctx.warn(w)
    pending = hs.untrusted()
    pending.extend(_taken_over(hs, ctx, {e.identity for e in pending}))
    if not pending:
        print("every project and extension hook is trusted", file=ctx.stdout)
        return 0
    approved = []
    for e in pending:
        describe(e, hs, ctx)
        if args.all:
            approved.append(e)
            continue
        print("  trust this hook? [y/N] ", end="", file=ctx.stdout, flush=True)
        answer = ctx.stdin.readline()
        if not answer:
            print("", file=ctx.stdout)
        if answer.strip().lower() in ("y", "yes"):
            approved.append(e)
    added = hs.trust(approved)
    for e in added:
        event = (
            (e.extra.get("claude_event") or e.extra.get("agent_event"))
            if "relay" in e.extra
            else e.event.value
        )  # relayed: docs/agents.md
        print(f"trusted: {visible(e.display_name)} ({event}, {e.source})", file=ctx.stdout)
    left = len(pending) - len(approved)
    if left:
        print(f"{left} hook(s) left untrusted; they are skipped until approved", file=ctx.stdout)
    return 0


def _taken_over(hs: HookSystem, ctx: CliContext, seen: set[str]) -> list[HookEntry]:
    """Untrusted hooks that ``install --take-over`` moved out of an agent's project file: the agent
    bridge runs them (docs/agents.md), so they are reviewed here like the project's own."""
    import os

    from hookwise.bridge.agents import AGENTS
    from hookwise.bridge.takeover import taken_over_entries

    out = []
    for agent in AGENTS.values():
        entries, _ = taken_over_entries(agent, ctx.project_dir, os.environ)
        for e in entries:
            if e.needs_trust and e.identity not in seen and not hs.trust_store.is_trusted(e):
                seen.add(e.identity)
                out.append(e)
    return out


def describe(e: HookEntry, hs: HookSystem, ctx: CliContext) -> None:
    """The review screen of an untrusted hook: where it is from and exactly what trusting it
    approves."""
    for line in review(e, hs.trust_store, ctx.project_dir, hs.is_trusted(e)):
        print(line, file=ctx.stdout)
