"""``hookwise install <agent>`` / ``uninstall``: write the agent's hook file so that it calls
hookwise.

Every change is an edit of the file's text (:mod:`hookwise.jsonc.edit`): comments, key order,
indentation and every other key stay byte for byte; install twice changes nothing; uninstall after
install gives back the original bytes. A file whose shape cannot be edited safely is refused with
the reason.

``--take-over`` moves the agent's own hooks under hookwise: the file keeps only hookwise's entries,
the original text is kept beside it (``hookwise-takeover.<agent>.json``), the bridge runs the moved
hooks (with hookwise's trust, ``failClosed``, trace), and uninstall puts the original text back.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hookwise.bridge.agents import Agent
from hookwise.bridge.core import is_bridge_command
from hookwise.errors import EditError, SettingsError
from hookwise.jsonc import edit
from hookwise.jsonc.codec import dumps_indented
from hookwise.jsonc.parse import parse

#: hook file shapes -> whether the file needs ``"version": 1`` at its root
STYLES: dict[str, bool] = {
    "groups": False,
    "copilot": True,
    "cursor": True,
    "agy": False,
    "windsurf": False,
}

#: the name hookwise's entries carry where the format has names (Gemini's ``name``, agy's groups)
ENTRY_NAME = "hookwise"

#: Copilot's hook timeout (its default is 30 s; hookwise bounds each hook's own time itself)
COPILOT_TIMEOUT_S = 600


@dataclass
class Change:
    """One planned edit of an agent's hook file (and of the take-over store beside it)."""

    agent: Agent
    path: str
    before: str
    after: str
    delete: bool = False
    #: the file had an empty ``hooks`` object before install (uninstall leaves one; kept in a
    #: receipt)
    empty_hooks: bool | None = None
    #: the take-over store: ``(path, text)`` to write, ``(path, None)`` to remove
    store: tuple[str, str | None] | None = None
    notes: list[str] = field(default_factory=list)
    #: other files the change edits: ``(path, before, after)`` (Copilot's take-over: its other hook
    #: files)
    others: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return (
            self.before != self.after
            or self.delete
            or self.store is not None
            or any(b != a for _, b, a in self.others)
        )

    def diff(self) -> str:
        out = _diff(self.path, self.before, "" if self.delete else self.after, self.delete)
        return out + "".join(_diff(p, b, a, False) for p, b, a in self.others)


def _diff(path: str, before: str, after: str, delete: bool) -> str:
    import difflib

    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=path if before else "/dev/null",
        tofile="/dev/null" if delete else path,
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def config_path(agent: Agent, project: str, env: Mapping[str, str], user: bool) -> str:
    return agent.config_path(project, env, user)


def store_path(path: str, agent: Agent) -> str:
    if (
        agent.own_file
    ):  # Copilot reads every *.json of its hooks folder: the store lives beside the folder
        from hookwise.bridge.copilot_takeover import store_path as beside

        return beside(path, agent)
    return os.path.join(os.path.dirname(path), f"hookwise-takeover.{agent.name}.json")


def bridge_command(agent: Agent, event: str, program: str, fail_closed: bool = False) -> str:
    """The command an entry runs; agents whose payload may not name its event get it as an
    argument."""
    cmd = f"{program} hook {agent.name}"
    if agent.config != "groups":
        cmd += f" {event}"
    return cmd + " --fail-closed" if fail_closed else cmd


def entry(agent: Agent, event: str, program: str, fail_closed: bool = False) -> dict[str, Any]:
    """hookwise's entry for one event, in the agent's hook file format."""
    cmd = bridge_command(agent, event, program, fail_closed)
    style = agent.config
    if style == "copilot":
        return {"type": "command", "bash": cmd, "timeoutSec": COPILOT_TIMEOUT_S}
    if style == "cursor":
        return {"command": cmd}
    if style == "windsurf":
        return {"command": cmd, "show_output": True}
    hook: dict[str, Any] = {"type": "command", "command": cmd}
    if agent.own_profile is not None:
        hook = {"type": "command", "name": ENTRY_NAME, "command": cmd}
    if fail_closed and agent.name == "claude":
        hook["onFailure"] = (
            "block"  # Claude Code 2.1.295+: blocks too when hookwise cannot even start
        )
    if style == "agy":
        return {"name": ENTRY_NAME, "hooks": [hook]}
    return {"hooks": [hook]}


def ours(value: Any, agent: Agent) -> bool:
    """``value`` (a hook or a group of hooks) is an entry that calls ``hookwise hook <agent>``."""
    if not isinstance(value, dict):
        return False
    if isinstance(value.get("hooks"), list):
        return bool(value["hooks"]) and all(ours(h, agent) for h in value["hooks"])
    cmd = value.get("command", value.get("bash"))
    if not isinstance(cmd, str) or not is_bridge_command(cmd):
        return False
    words = cmd.split()
    i = words.index("hook")
    return len(words) > i + 1 and words[i + 1] == agent.name


# --------------------------------------------------------------------------- reading


def _read(path: str) -> tuple[str, dict[str, Any]]:
    text = edit.read_text(path)
    if not text.strip():
        return text, {}
    doc = parse(text, path)
    if not isinstance(doc, dict):
        raise EditError(f"{path}: expected a JSON object at the top level; not edited")
    return text, doc


def _check_shape(agent: Agent, path: str, doc: dict[str, Any]) -> None:
    """Refuse a file hookwise cannot edit safely (the message says why)."""
    if agent.root_keys is not None:
        unknown = sorted(k for k in doc if k not in agent.root_keys)
        if unknown:
            raise EditError(
                f"{path}: {agent.product} refuses unknown root keys in this file, and it has "
                f"{', '.join(unknown)}; remove them (the file is left as it is)"
            )
    if STYLES[agent.config] and "version" in doc and doc["version"] != 1:
        raise EditError(
            f"{path}: /version is {doc['version']!r}; hookwise writes version 1 files only"
        )
    hooks = doc.get("hooks")
    if hooks is None:
        return
    if not isinstance(hooks, dict):
        raise EditError(f"{path}: /hooks is not an object; fix it by hand (not edited)")
    for ev, items in hooks.items():
        if not isinstance(items, list):
            raise EditError(f"{path}: /hooks/{ev} is not an array; fix it by hand (not edited)")


def _foreign(agent: Agent, doc: dict[str, Any]) -> bool:
    hooks = doc.get("hooks")
    if not isinstance(hooks, dict):
        return False
    return any(not ours(item, agent) for items in hooks.values() for item in items)


# --------------------------------------------------------------------------- install


def plan_install(
    agent: Agent,
    project: str,
    env: Mapping[str, str],
    *,
    user: bool = False,
    take_over: bool = False,
    program: str = "hookwise",
    fail_closed: bool = False,
) -> Change:
    """The edit that makes ``agent`` call ``hookwise hook`` for every event it can bridge."""
    path = config_path(agent, project, env, user)
    try:
        before, doc = _read(path)
    except SettingsError as exc:
        raise EditError(f"{exc}; the file does not parse, so it is not edited") from None
    _check_shape(agent, path, doc)
    change = Change(agent, path, before, before)
    text = before
    if take_over:
        text, doc = _take_over(agent, change, doc)
    if STYLES[agent.config] and "version" not in doc:
        text = edit.set_value(text, "/version", 1, path=path)
    if doc.get("hooks") == {} and not _foreign(agent, doc):
        change.empty_hooks = True
    text = _add_entries(agent, text, doc, program, path, fail_closed)
    change.after = text
    if change.store is not None and change.store[1] is not None and not agent.own_file:
        rec = _store_record(change.store[1])
        rec["installed_sha256"] = _sha(text)
        change.store = (change.store[0], dumps_indented(rec, ensure_ascii=False) + "\n")
    _install_notes(agent, change, program, env)
    if doc.get("disableAllHooks") is True:
        change.notes.append(
            f"{path} sets disableAllHooks: true: {agent.product} runs no hook from it, hookwise's "
            "neither"
        )
    return change


def _add_entries(
    agent: Agent, text: str, doc: dict[str, Any], program: str, path: str, fail_closed: bool
) -> str:
    hooks = doc.get("hooks") if isinstance(doc.get("hooks"), dict) else None
    wanted = {ev: entry(agent, ev, program, fail_closed) for ev in agent.installed_events}
    if hooks is None:
        return edit.set_value(text, "/hooks", {ev: [e] for ev, e in wanted.items()}, path=path)
    for ev, e in wanted.items():
        if any(ours(item, agent) for item in hooks.get(ev, [])):
            continue  # already installed: install twice changes nothing
        text = edit.append_to_array(text, f"/hooks/{ev}", e, path=path)
    return text


def _take_over(agent: Agent, change: Change, doc: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Move the agent's own hooks out of its file (kept in the store), or say why nothing moves."""
    if agent.own_file and agent.name == "copilot":
        from hookwise.bridge.copilot_takeover import take_over

        take_over(agent, change)  # its other hook files; hookwise's own file is written as usual
        return change.after, doc
    if agent.own_file:
        raise EditError(
            f"--take-over is not available for {agent.product}: the shape of the hook entries of "
            "its PascalCase files is not documented, so hookwise cannot run them safely; take over "
            "the camelCase files with `hookwise install copilot --take-over` (docs/agents.md)"
        )
    spath = store_path(change.path, agent)
    if os.path.exists(spath):
        change.notes.append(f"already taken over: the original is kept in {spath}")
        return change.after, doc
    if not _foreign(agent, doc):
        change.notes.append("nothing to take over: the file has no hooks of its own")
        return change.after, doc
    text = edit.remove_value(change.before, "/hooks", path=change.path)
    change.store = (spath, change.before)
    change.notes.append(
        f"took over {agent.product}'s own hooks: the file now calls only hookwise, the original is "
        f"kept in {spath} and the bridge runs its hooks (project hooks need `hookwise trust` first)"
    )
    rest = {k: v for k, v in doc.items() if k != "hooks"}
    kept = {ev: items for ev, items in doc["hooks"].items() if ev not in agent.installed_events}
    if kept:  # events hookwise does not bridge: their hooks stay where the agent runs them
        text = edit.set_value(text, "/hooks", kept, path=change.path)
        rest["hooks"] = kept
        change.notes.append(
            f"left in the file (hookwise does not bridge these events): {', '.join(kept)}"
        )
    return text, rest


def _store_record(original: str) -> dict[str, Any]:
    return {"version": 1, "original": original, "installed_sha256": ""}


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _install_notes(agent: Agent, change: Change, program: str, env: Mapping[str, str]) -> None:
    if agent.install_note:
        change.notes.append(agent.install_note)
    if program == "hookwise" and shutil.which("hookwise", path=env.get("PATH")) is None:
        change.notes.append(
            "`hookwise` is not on PATH here: the agent must find it on its PATH "
            "(or install with --command /path/to/hookwise)"
        )


# --------------------------------------------------------------------------- uninstall


def plan_uninstall(
    agent: Agent, project: str, env: Mapping[str, str], *, user: bool = False
) -> Change:
    """The edit that removes hookwise's entries (and puts taken-over hooks back)."""
    path = config_path(agent, project, env, user)
    try:
        before, doc = _read(path)
    except SettingsError as exc:
        raise EditError(f"{exc}; the file does not parse, so it is not edited") from None
    change = Change(agent, path, before, before)
    spath = store_path(path, agent)
    if os.path.exists(spath) and agent.own_file:
        from hookwise.bridge.copilot_takeover import restore

        restore(agent, change, spath)  # the other hook files; hookwise's own file is removed below
    elif os.path.exists(spath):
        return _restore(agent, change, doc, spath)
    _check_shape(agent, path, doc)
    keep = _receipts(env).get(os.path.abspath(path), False)
    change.after = _remove_entries(agent, before, doc, path, keep_hooks=keep)
    change.empty_hooks = False if keep else None
    if change.after != before and change.after == _skeleton(agent, path):
        change.delete = True  # the file held only what install wrote
    if change.after == before:
        change.notes.append("nothing to remove: hookwise is not installed there")
    return change


def _remove_entries(
    agent: Agent, text: str, doc: dict[str, Any], path: str, *, keep_hooks: bool = False
) -> str:
    hooks = doc.get("hooks")
    if not isinstance(hooks, dict):
        return text
    emptied: list[str] = []
    for ev, items in hooks.items():
        mine = [i for i, item in enumerate(items) if ours(item, agent)]
        for i in reversed(mine):
            text = edit.remove_value(text, f"/hooks/{_tok(ev)}/{i}", path=path)
        if mine and len(mine) == len(items):
            emptied.append(ev)
    for ev in emptied:
        text = edit.remove_value(text, f"/hooks/{_tok(ev)}", path=path)
    if emptied and len(emptied) == len(hooks) and not keep_hooks:
        text = edit.remove_value(text, "/hooks", path=path)
    return text


def _tok(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _skeleton(agent: Agent, path: str) -> str:
    """What an install into a missing file leaves after its entries are removed."""
    return edit.set_value("", "/version", 1, path=path) if STYLES[agent.config] else "{}\n"


def _restore(agent: Agent, change: Change, doc: dict[str, Any], spath: str) -> Change:
    from hookwise.jsonc.parse import read_file

    try:
        _text, rec = read_file(spath)
    except SettingsError as exc:
        raise EditError(f"{exc}; cannot restore the taken-over hooks (nothing changed)") from None
    original = rec.get("original") if isinstance(rec, dict) else None
    if not isinstance(original, str):
        raise EditError(f"{spath}: no /original text; cannot restore (nothing changed)")
    change.store = (spath, None)
    if _sha(change.before) == rec.get("installed_sha256"):
        change.after = original  # the file is as install left it: its original bytes come back
        change.delete = original == ""
        change.notes.append(f"restored {agent.product}'s own hooks byte for byte")
        return change
    text = _remove_entries(agent, change.before, doc, change.path)
    orig_doc = parse(original, spath) if original.strip() else {}
    now = parse(text, change.path) if text.strip() else {}
    present: dict[str, Any] = {}
    if isinstance(now, dict) and isinstance(now.get("hooks"), dict):
        present = now["hooks"]
    for ev, items in (orig_doc.get("hooks") or {}).items():
        for item in items:
            if item in present.get(ev, []):
                continue  # left in the file at take-over (an event hookwise does not bridge)
            text = edit.append_to_array(text, f"/hooks/{_tok(ev)}", item, path=change.path)
    change.after = text
    change.notes.append(
        "the file changed since install: hookwise's entries were removed and the original hooks "
        "added back (their values, not their original formatting)"
    )
    return change


# --------------------------------------------------------------------------- receipts


def _receipts_path(env: Mapping[str, str]) -> str:
    from hookwise.settings.layers import user_dir

    return os.path.join(user_dir(env), "hookwise", "installs.json")


def _receipts(env: Mapping[str, str]) -> dict[str, Any]:
    """Files whose ``hooks`` object was empty before install: ``{path: true}`` (machine-local)."""
    from hookwise.jsonc.parse import read_file

    try:
        _text, doc = read_file(_receipts_path(env))
    except (SettingsError, OSError):
        return {}
    return doc if isinstance(doc, dict) else {}


def _write_receipt(change: Change, env: Mapping[str, str]) -> None:
    if change.empty_hooks is None:
        return
    receipts = _receipts(env)
    key = os.path.abspath(change.path)
    if change.empty_hooks:
        receipts[key] = True
    else:
        receipts.pop(key, None)
    path = _receipts_path(env)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    edit.write_atomic(path, dumps_indented(receipts, ensure_ascii=False) + "\n")


def apply(change: Change, env: Mapping[str, str] | None = None) -> None:
    """Write the planned change (atomically; directories are created as needed)."""
    _write_receipt(change, os.environ if env is None else env)
    if change.delete:
        if os.path.exists(change.path):
            os.unlink(change.path)
    elif change.after != change.before:
        os.makedirs(os.path.dirname(change.path) or ".", exist_ok=True)
        edit.write_atomic(change.path, change.after)
    for path, before, after in change.others:
        if after != before:
            edit.write_atomic(path, after)
    if change.store is not None:
        spath, text = change.store
        if text is None:
            if os.path.exists(spath):
                os.unlink(spath)
        else:
            edit.write_atomic(spath, text)
