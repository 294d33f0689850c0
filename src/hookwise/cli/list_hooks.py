"""``hookwise list [--json]``: every configured hook with its source, file, state and trust."""

from __future__ import annotations

import argparse
import json
from typing import Any

from hookwise.cli.base import CliContext
from hookwise.cli.render import relpath, table
from hookwise.core.registry import EXTENSION, HookEntry
from hookwise.runners import KINDS
from hookwise.runners.kind import visible


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    hs = ctx.hook_system()
    rows: list[dict[str, Any]] = []
    for e in [*hs.entries, *hs.settings.relayed]:
        what, target = KINDS[e.type].display(e) if e.type in KINDS else ("target", e.target)
        relayed = "relay" in e.extra  # a Claude event only the agent bridge fires (docs/agents.md)
        rows.append(
            {
                "event": e.extra["claude_event"] if relayed else e.event.value,
                "name": e.display_name,
                what: target,  # "command", "url", "callable": what the hook runs, as its kind names it
                "matcher": e.matcher,
                "sequential": e.sequential,
                "timeout": e.timeout_ms,
                "source": e.source,
                "file": e.file,
                "enabled": e.enabled,
                "trusted": hs.is_trusted(e),
                "if": e.condition,
                "async": e.run_async,
                "once": e.once,
                "type": e.type,  # command, http, python (docs/hook-types.md)
                "package": e.extra.get(
                    "package"
                ),  # the distribution of a hook package's hook, else null
            }
        )
        if relayed:
            rows[-1]["bridgeOnly"] = True
        origin = _origin(e)
        if origin:  # beyond the contract's fields, only when there is something to say (plugin/extension name)
            rows[-1]["origin"] = origin
    if args.json:
        prof = hs.settings.profile
        doc: dict[str, Any] = {"hooks": rows, "warnings": hs.warnings}
        if hs.settings.ignored_keys:  # settings a file's layer may not set (docs/security.md)
            doc["ignoredKeys"] = hs.settings.ignored_keys
        if prof.name != "gemini":
            doc["profile"] = prof.name
        print(json.dumps(doc, indent=2, ensure_ascii=False), file=ctx.stdout)
        return 0
    for w in hs.warnings:
        ctx.warn(w)
    if not rows:
        print("no hooks configured", file=ctx.stdout)
        return 0
    prof = hs.settings.profile
    if prof.name != "gemini":
        print(
            f"profile: {prof.name} ({prof.product} settings: {prof.project_settings}, ~/{prof.user_settings})",
            file=ctx.stdout,
        )
    body = [
        [
            r["event"] + ("*" if r.get("bridgeOnly") else ""),
            visible(r["name"] if len(r["name"]) <= 40 else r["name"][:39] + "…"),
            r["matcher"] or "*",
            f"{r['timeout']} ms",
            r["source"]
            + (
                f" ({r['package']})"
                if r["package"]
                else f" ({r['origin']})"
                if r.get("origin")
                else ""
            ),
            "yes" if r["enabled"] else "no",
            "yes" if r["trusted"] else "NO",
            relpath(r["file"], ctx.project_dir),
        ]
        for r in rows
    ]
    print(
        table(
            body, ["EVENT", "NAME", "MATCHER", "TIMEOUT", "SOURCE", "ENABLED", "TRUSTED", "FILE"]
        ),
        file=ctx.stdout,
    )
    if any(r.get("bridgeOnly") for r in rows):
        print(
            "\n* a Claude Code event hookwise has no equivalent of: it fires only through the agent "
            "bridge (`hookwise hook <agent>`, docs/agents.md), never in a host",
            file=ctx.stdout,
        )
    untrusted = sum(1 for r in rows if not r["trusted"])
    if untrusted:
        print(
            f"\n{untrusted} hook(s) are not trusted and will be skipped; review them with `hookwise trust`.",
            file=ctx.stdout,
        )
    return 0


def _origin(e: HookEntry) -> str | None:
    """The plugin or extension a hook belongs to (its name), else None."""
    if e.extra.get("plugin"):
        return str(e.extra["plugin"])
    if e.source == EXTENSION and e.extension_dir:
        import os

        return os.path.basename(e.extension_dir)
    return None
