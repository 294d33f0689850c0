"""``install copilot --take-over``: Copilot CLI runs the hooks of every ``.github/hooks/*.json``
file (and of ``~/.copilot/hooks/*.json``), and hookwise's entries live in a file of their own
(``hookwise.json``), so taking over means emptying the *other* files' ``hooks`` and keeping their
original texts in one store, ``hookwise-takeover.copilot.json`` beside the hooks folder (inside it,
Copilot would read the store as a hook file). ``uninstall`` gives every file back byte for byte (by
value when a file changed since).

Only files whose every event is one hookwise bridges for Copilot's camelCase hooks are taken over;
any other file is left to Copilot (named in a note): a hook hookwise could not run must keep running
where it was.
"""

from __future__ import annotations

import hashlib
import os

from hookwise._records import TYPE_CHECKING
from hookwise.errors import EditError, SettingsError

if TYPE_CHECKING:
    from typing import Any

    from hookwise.bridge.agents import Agent
    from hookwise.bridge.install import Change

#: hookwise's own files in Copilot's hooks folder (never taken over)
OWN_FILES = ("hookwise.json", "hookwise-pascal.json")


def store_path(hook_file: str, agent: Agent) -> str:
    """The store: beside the hooks folder, never in it (Copilot reads every ``*.json`` there)."""
    folder = os.path.dirname(hook_file)
    return os.path.join(os.path.dirname(folder), f"hookwise-takeover.{agent.name}.json")


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _read(path: str) -> tuple[str, Any]:
    from hookwise.jsonc import edit
    from hookwise.jsonc.parse import parse

    text = edit.read_text(path)
    return text, (parse(text, path) if text.strip() else {})


def _others(agent: Agent, hook_file: str) -> list[str]:
    folder = os.path.dirname(hook_file)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [
        os.path.join(folder, n)
        for n in names
        if n.endswith(".json") and n not in OWN_FILES and os.path.isfile(os.path.join(folder, n))
    ]


def take_over(agent: Agent, change: Change) -> None:
    """Plan emptying the other hook files (``change.others``) and the store (``change.store``)."""
    spath = store_path(change.path, agent)
    if os.path.exists(spath):
        change.notes.append(f"already taken over: the originals are kept in {spath}")
        return
    files: dict[str, str] = {}
    installed: dict[str, str] = {}
    for path in _others(agent, change.path):
        after = _emptied(agent, path, change)
        if after is None:
            continue
        before = _read(path)[0]
        change.others.append((path, before, after))
        name = os.path.basename(path)
        files[name], installed[name] = before, _sha(after)
    if not files:
        change.notes.append("nothing to take over: no other hook file has hooks hookwise can run")
        return
    from hookwise.jsonc.codec import dumps_indented

    rec = {"version": 1, "files": files, "installed_sha256": installed}
    change.store = (spath, dumps_indented(rec, ensure_ascii=False) + "\n")
    change.notes.append(
        f"took over {agent.product}'s own hooks from {', '.join(files)}: their hooks are emptied, "
        f"the originals are kept in {spath} and the bridge runs them (project hooks need `hookwise "
        "trust` first)"
    )


def _emptied(agent: Agent, path: str, change: Change) -> str | None:
    """``path``'s text with an empty ``hooks`` object, or None when it is left to Copilot (a note
    says why)."""
    from hookwise.jsonc import edit

    try:
        text, doc = _read(path)
    except (SettingsError, OSError) as exc:
        change.notes.append(f"{path} left to {agent.product}: it does not parse ({exc})")
        return None
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    if not isinstance(hooks, dict) or not hooks:
        return None
    odd = [
        ev
        for ev, items in hooks.items()
        if ev not in agent.bridged_events or not isinstance(items, list)
    ]
    if odd:
        change.notes.append(
            f"{path} left to {agent.product}: hookwise does not run its {', '.join(odd)} hooks"
        )
        return None
    return edit.set_value(text, "/hooks", {}, path=path)


def restore(agent: Agent, change: Change, spath: str) -> None:
    """Plan giving every taken-over file back (``change.others``) and removing the store."""
    from hookwise.jsonc.parse import read_file

    try:
        _text, rec = read_file(spath)
    except SettingsError as exc:
        raise EditError(f"{exc}; cannot restore the taken-over hooks (nothing changed)") from None
    files = rec.get("files") if isinstance(rec, dict) else None
    if not isinstance(files, dict):
        raise EditError(f"{spath}: no /files; cannot restore (nothing changed)")
    shas = rec.get("installed_sha256") if isinstance(rec.get("installed_sha256"), dict) else {}
    folder = os.path.dirname(change.path)
    changed = []
    for name, original in files.items():
        path = os.path.join(folder, name)
        now = _read(path)[0] if os.path.exists(path) else ""
        if not isinstance(original, str):
            continue
        if _sha(now) == shas.get(name) or not now:
            change.others.append((path, now, original))
        else:
            change.others.append((path, now, _by_value(path, now, original)))
            changed.append(name)
    change.store = (spath, None)
    change.notes.append(
        f"restored {agent.product}'s own hooks in {', '.join(files)}"
        + (" byte for byte" if not changed else f" ({', '.join(changed)} changed since: by value)")
    )


def _by_value(path: str, now: str, original: str) -> str:
    from hookwise.jsonc import edit
    from hookwise.jsonc.parse import parse

    orig = parse(original, path) if original.strip() else {}
    hooks = orig.get("hooks") if isinstance(orig, dict) else None
    if not isinstance(hooks, dict):
        return now
    cur = parse(now, path)
    present = (
        cur.get("hooks") if isinstance(cur, dict) and isinstance(cur.get("hooks"), dict) else None
    )
    if present is None:
        return edit.set_value(now, "/hooks", hooks, path=path)
    for ev, items in hooks.items():
        for item in items if isinstance(items, list) else []:
            if item not in present.get(ev, []):
                tok = ev.replace("~", "~0").replace("/", "~1")
                now = edit.append_to_array(now, f"/hooks/{tok}", item, path=path)
    return now


def originals(store: str) -> tuple[list[tuple[str, Any]], list[str]]:
    """``(file name, original document)`` of every taken-over file, plus warnings."""
    from hookwise.jsonc.parse import parse, read_file

    try:
        _text, rec = read_file(store)
    except SettingsError as exc:
        return [], [f"{exc}; the taken-over hooks are not run"]
    files = rec.get("files") if isinstance(rec, dict) else None
    if not isinstance(files, dict):
        return [], [f"{store}: /files is missing; the taken-over hooks are not run"]
    out: list[tuple[str, Any]] = []
    warnings: list[str] = []
    for name, text in files.items():
        try:
            out.append(
                (
                    name,
                    parse(text, f"{store}#{name}")
                    if isinstance(text, str) and text.strip()
                    else {},
                )
            )
        except SettingsError as exc:
            warnings.append(f"{exc}; the taken-over hooks of {name} are not run")
    return out, warnings
