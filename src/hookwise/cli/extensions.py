"""``hookwise extensions list | install SRC | link DIR | uninstall NAME | enable NAME | disable
NAME``.

Follows ``gemini extensions`` (docs/sources.md, "hookwise extensions"). After
``install``/``link`` the new hooks are listed with their commands; on a terminal
hookwise offers to trust them, otherwise it never waits: the hooks stay
untrusted (skipped when fired) and the output says how to trust them.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from hookwise.cli.base import CliContext, UsageError
from hookwise.errors import ExtensionError
from hookwise.settings import extensions as ext
from hookwise.settings.enablement import extensions_root
from hookwise.settings.layers import user_dir

VERBS = ("list", "install", "link", "uninstall", "enable", "disable")


def configure(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="verb", metavar="VERB", required=True, parser_class=type(p))
    ls = sub.add_parser("list", help="list installed extensions with their state here")
    ls.add_argument("--json", action="store_true", help="print one JSON object")
    ins = sub.add_parser("install", help="install from a local directory or a git URL/path")
    ins.add_argument("source", metavar="SRC")
    ins.add_argument("--ref", help="git branch or tag to install")
    ins.add_argument("--consent", action="store_true", help="trust the new hooks without asking")
    lk = sub.add_parser("link", help="link a local directory (edits show up without reinstalling)")
    lk.add_argument("source", metavar="DIR")
    lk.add_argument("--consent", action="store_true", help="trust the new hooks without asking")
    un = sub.add_parser("uninstall", help="remove installed extensions")
    un.add_argument("names", metavar="NAME", nargs="+")
    for verb in ("enable", "disable"):
        sp = sub.add_parser(verb, help=f"{verb} an extension (user-wide or for this project)")
        sp.add_argument("name", metavar="NAME")
        sp.add_argument(
            "--scope",
            choices=ext.SCOPES,
            default="user",
            help="user: everywhere (default); project: only for --project",
        )


def run(args: argparse.Namespace, ctx: CliContext) -> int:
    root = extensions_root(user_dir())
    try:
        if args.verb == "list":
            return _list(args, ctx, root)
        if args.verb in ("install", "link"):
            if args.verb == "install":
                info = ext.install(args.source, root, ref=args.ref)
            else:
                info = ext.link(args.source, root)
            kind = "Claude Code plugin" if info.kind == "claude-plugin" else "extension"
            how = f"linked to {info.link}" if info.link else f"from {info.source}"
            print(
                f"installed {kind} {info.name!r} {info.version or ''}".rstrip()
                + f" ({how}) in {info.path}",
                file=ctx.stdout,
            )
            return _offer_trust(ctx, info.path, consent=args.consent)
        if args.verb == "uninstall":
            for (
                name
            ) in args.names:  # like `gemini extensions uninstall <names..>`: each one atomically
                path = ext.uninstall(name, root)
                print(f"uninstalled {name!r} ({path})", file=ctx.stdout)
            return 0
        enabled = args.verb == "enable"
        ext.set_enabled(args.name, root, enabled, args.scope, ctx.project_dir)
        where = "everywhere" if args.scope == "user" else f"in {ctx.project_dir}"
        print(f"{args.verb}d {args.name!r} {where}", file=ctx.stdout)
        return 0
    except ExtensionError as exc:
        raise UsageError(str(exc)) from None


def _list(args: argparse.Namespace, ctx: CliContext, root: str) -> int:
    infos = ext.installed(root)
    enabled = ext.enabled_here(root, ctx.project_dir)
    rows: list[dict[str, Any]] = [
        {
            "name": i.name,
            "kind": i.kind,
            "version": i.version,
            "path": i.path,
            "enabled": enabled.get(i.name, True),
            "source": i.link or i.source,
            "linked": i.link is not None,
            **({"error": i.error} if i.error else {}),
        }
        for i in infos
    ]
    if args.json:
        print(json.dumps({"extensions": rows}, indent=2), file=ctx.stdout)
        return 0
    if not rows:
        print(f"no extensions installed (in {root})", file=ctx.stdout)
        return 0
    from hookwise.cli.render import table

    body = [
        [
            r["name"],
            r["kind"],
            r["version"] or "-",
            "yes" if r["enabled"] else "no",
            ("link → " if r["linked"] else "") + (r["source"] or "-"),
        ]
        for r in rows
    ]
    print(table(body, ["NAME", "KIND", "VERSION", "ENABLED HERE", "SOURCE"]), file=ctx.stdout)
    for i in infos:
        if i.error:
            ctx.warn(i.error)
    return 0


def _offer_trust(ctx: CliContext, path: str, *, consent: bool) -> int:
    """List the hooks of the new extension; trust them on a yes (or --consent), never wait without a
    terminal."""
    hs = ctx.hook_system(trust_all=False)
    real = os.path.realpath(path)
    new = [e for e in hs.entries if e.extension_dir and os.path.realpath(e.extension_dir) == real]
    if not new:
        print("it defines no hooks", file=ctx.stdout)
        return 0
    from hookwise.cli.trust import describe

    print(f"it adds {len(new)} hook(s):", file=ctx.stdout)
    for e in new:
        describe(e, hs, ctx)
    pending = [e for e in new if not hs.is_trusted(e)]
    if not pending:
        return 0
    if consent:
        hs.trust(pending)
        print(f"trusted {len(pending)} hook(s) (--consent)", file=ctx.stdout)
        return 0
    interactive = ctx.stdin.isatty() if hasattr(ctx.stdin, "isatty") else False
    if interactive:
        print(
            f"trust these {len(pending)} hook(s) now? [y/N] ", end="", file=ctx.stdout, flush=True
        )
        if ctx.stdin.readline().strip().lower() in ("y", "yes"):
            hs.trust(pending)
            print(f"trusted {len(pending)} hook(s)", file=ctx.stdout)
            return 0
    print(
        f"{len(pending)} hook(s) are untrusted and will be skipped until you approve them: run "
        "`hookwise trust` to review them",
        file=ctx.stdout,
    )
    return 0
