"""Claude Code plugins as a hook source (docs/sources.md, "Claude Code plugins").

A plugin is a directory with an optional ``.claude-plugin/plugin.json`` manifest
(``name`` required when the manifest exists) and hooks in ``hooks/hooks.json``
and/or the manifest's ``hooks`` entry: a path, a list of paths (relative to the
plugin root, inside it) or an inline object of events. Hooks are converted with
Claude semantics (the ``claude`` dialect, seconds to milliseconds, Claude
matchers) and run with ``CLAUDE_PLUGIN_ROOT`` (the plugin directory) and
``CLAUDE_PLUGIN_DATA`` (a per-plugin data directory hookwise creates) set in
the command text and the environment.

Where plugins come from: ``--plugin-dir DIR``, ``hooksConfig.claudePlugins``
and, with ``claudeSettings`` on, the plugins Claude Code installed
(``<claude dir>/plugins/installed_plugins.json``) and enabled (``enabledPlugins``
in its settings files).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hookwise.core.registry import PLUGIN, HookEntry
from hookwise.errors import PluginError, SettingsError
from hookwise.home import user_dir
from hookwise.jsonc import parse as jsonc
from hookwise.jsonc.parse import kind_of

MANIFEST = os.path.join(".claude-plugin", "plugin.json")
DEFAULT_HOOKS = os.path.join("hooks", "hooks.json")
SOURCE_LABEL = PLUGIN
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\Z")  # \Z: "$" would let a trailing newline in


@dataclass
class HooksFile:
    """One place hooks of a plugin are defined: a file, or the manifest's inline ``hooks`` object."""

    path: str
    text: str
    doc: Any  # a document whose "hooks" member is the events object (inline hooks are wrapped)


@dataclass
class Plugin:
    """A readable plugin directory."""

    name: str
    root: str
    manifest: str | None
    hooks_files: list[HooksFile] = field(default_factory=list)
    origin: str = ""
    plugin_id: str = ""


def claude_dir(env: Mapping[str, str]) -> str:
    """Claude Code's own directory: ``$CLAUDE_CONFIG_DIR``, else ``~/.claude`` (next to the gemini user dir)."""
    if env.get("CLAUDE_CONFIG_DIR"):
        return os.path.abspath(env["CLAUDE_CONFIG_DIR"])
    return os.path.join(os.path.dirname(user_dir(env)), ".claude")


def data_dir(plugin_id: str, env: Mapping[str, str], *, claude_installed: bool = False) -> str:
    """The plugin's ``CLAUDE_PLUGIN_DATA``: Claude Code's own ``<claude dir>/plugins/data/<id>`` for a plugin it
    installed (so both tools share the state), else ``<user dir>/plugin-data/<id>``."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "-", plugin_id) or "plugin"
    if claude_installed:
        return os.path.join(claude_dir(env), "plugins", "data", safe)
    return os.path.join(user_dir(env), "plugin-data", safe)


def _inside(path: str, root: str) -> bool:
    root = os.path.realpath(root)
    real = os.path.realpath(path)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def _read_json(path: str, what: str) -> tuple[str, Any]:
    try:
        return jsonc.read_file(path)
    except SettingsError as exc:
        raise PluginError(f"{exc} ({what})") from None
    except OSError as exc:  # a symlink loop, a directory where a file belongs...
        raise PluginError(f"{path}: cannot read {what}: {exc.strerror or exc}") from None


def read_plugin(root: str, *, require_manifest: bool = False) -> Plugin:
    """Read a plugin directory: its name and every hooks file. Raises :class:`PluginError` naming path and key."""
    root = os.path.abspath(root)
    try:
        os.stat(root)
    except OSError as exc:
        raise PluginError(f"{root}: not a plugin directory: {exc.strerror or exc}") from None
    if not os.path.isdir(root):
        raise PluginError(f"{root}: not a directory")
    manifest_path = os.path.join(root, MANIFEST)
    manifest: dict[str, Any] | None = None
    mtext = ""
    if os.path.lexists(manifest_path):
        mtext, value = _read_json(manifest_path, "the plugin manifest")
        if not isinstance(value, dict):
            raise PluginError(
                f"{manifest_path}: /: the manifest must be a JSON object, got {kind_of(value)}"
            )
        manifest = value
    elif require_manifest:
        raise PluginError(f"{root}: no plugin manifest ({MANIFEST} is missing)")
    name = os.path.basename(root.rstrip(os.sep))
    if manifest is not None:
        raw = manifest.get("name")
        if not isinstance(raw, str) or not _NAME.match(raw):
            raise PluginError(
                f"{manifest_path}: /name: a plugin needs a \"name\" of letters, digits, '.', '_' or '-'"
                f", got {raw!r}"
            )
        name = raw
    plugin = Plugin(name=name, root=root, manifest=manifest_path if manifest is not None else None)
    seen: set[str] = set()

    def add_file(rel: str, key: str) -> None:
        path = os.path.normpath(os.path.join(root, rel))
        if not _inside(path, root):
            raise PluginError(
                f"{manifest_path}: {key}: {rel!r} points outside the plugin directory {root}"
            )
        real = os.path.realpath(path)
        if real in seen:
            return  # hooks/hooks.json listed again in the manifest: loaded once
        seen.add(real)
        text, doc = _read_json(path, "plugin hooks")
        if not isinstance(doc, dict):
            raise PluginError(f"{path}: /: a hooks file must be a JSON object, got {kind_of(doc)}")
        plugin.hooks_files.append(HooksFile(path, text, doc))

    default = os.path.join(root, DEFAULT_HOOKS)
    if os.path.lexists(default):
        add_file(DEFAULT_HOOKS, "hooks/hooks.json")
    hooks = manifest.get("hooks") if manifest is not None else None
    if isinstance(hooks, str):
        add_file(hooks, "/hooks")
    elif isinstance(hooks, list):
        for i, h in enumerate(hooks):
            if not isinstance(h, str):
                raise PluginError(f"{manifest_path}: /hooks/{i}: expected a path, got {kind_of(h)}")
            add_file(h, f"/hooks/{i}")
    elif isinstance(hooks, dict):
        inner = hooks.get("hooks") if isinstance(hooks.get("hooks"), dict) else hooks
        plugin.hooks_files.append(
            HooksFile(manifest_path, mtext if inner is hooks else "", {"hooks": inner})
        )
    elif hooks is not None:
        raise PluginError(
            f"{manifest_path}: /hooks: expected a path, a list of paths or an object of events, "
            f"got {kind_of(hooks)}"
        )
    return plugin


def plugin_entries(
    plugin: Plugin,
    env: Mapping[str, str],
    *,
    label: str = SOURCE_LABEL,
    claude_installed: bool = False,
) -> tuple[list[HookEntry], list[str]]:
    """The hook entries of a plugin, with ``CLAUDE_PLUGIN_ROOT``/``CLAUDE_PLUGIN_DATA`` set; plus warnings."""
    from hookwise.claude.convert import PluginRoot, convert_claude_document
    from hookwise.claude.loader import converted_entries
    from hookwise.core.expand import expand_command

    data = data_dir(plugin.plugin_id or plugin.name, env, claude_installed=claude_installed)
    try:
        os.makedirs(data, mode=0o700, exist_ok=True)
    except OSError as exc:
        return [], [
            f"{data}: cannot create the data directory of plugin {plugin.name!r}: {exc.strerror or exc}; "
            "its hooks were not loaded"
        ]
    values = {"CLAUDE_PLUGIN_ROOT": plugin.root, "CLAUDE_PLUGIN_DATA": data}
    warnings: list[str] = []
    entries: list[HookEntry] = []
    for hf in plugin.hooks_files:
        converted, findings = convert_claude_document(
            hf.doc,
            file=hf.path,
            text=hf.text,
            plugin_roots=[PluginRoot(plugin.root, None)],
            native=True,
        )
        warnings.extend(findings)
        for c in converted:
            c.report.warnings = [w for w in c.report.warnings if "$CLAUDE_PLUGIN_DATA" not in w]
            if c.hook is not None and isinstance(c.hook.get("command"), str):
                c.hook["command"] = expand_command(c.hook["command"], {"CLAUDE_PLUGIN_DATA": data})
        got = converted_entries(
            converted,
            label,
            hf.path,
            warnings,
            extension_dir=plugin.root,
            env=values,
            extra={"plugin": plugin.name, "origin": plugin.origin},
        )
        entries.extend(got)
    return entries, warnings


# --------------------------------------------------------------------------- plugins Claude Code installed


def _settings_doc(path: str, warnings: list[str]) -> dict[str, Any]:
    if not os.path.lexists(path):
        return {}
    try:
        _text, doc = jsonc.read_file(path)
    except SettingsError as exc:
        warnings.append(f"{exc}; its enabledPlugins were not read")
        return {}
    return doc if isinstance(doc, dict) else {}


def enabled_plugin_ids(
    project_dir: str, env: Mapping[str, str], warnings: list[str]
) -> dict[str, bool]:
    """``enabledPlugins`` merged over Claude Code's user, project and local settings (later files win)."""
    out: dict[str, bool] = {}
    for path in (
        os.path.join(claude_dir(env), "settings.json"),
        os.path.join(project_dir, ".claude", "settings.json"),
        os.path.join(project_dir, ".claude", "settings.local.json"),
    ):
        ep = _settings_doc(path, warnings).get("enabledPlugins")
        if isinstance(ep, dict):
            for k, v in ep.items():
                if isinstance(v, bool):
                    out[str(k)] = v
    return out


def installed_claude_plugins(
    project_dir: str, env: Mapping[str, str], warnings: list[str]
) -> list[tuple[str, str]]:
    """``(plugin id, install path)`` of every plugin Claude Code installed for this project and enabled.

    Reads ``<claude dir>/plugins/installed_plugins.json`` (version 2: id -> list of
    installations with ``scope``, ``projectPath``, ``installPath``; version 1: id ->
    one installation). A plugin counts when ``enabledPlugins`` says ``true`` for it.
    """
    path = os.path.join(claude_dir(env), "plugins", "installed_plugins.json")
    if not os.path.lexists(path):
        return []
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as exc:
        warnings.append(
            f"{path}: cannot read Claude Code's installed plugins ({exc}); they were not loaded"
        )
        return []
    plugins = doc.get("plugins") if isinstance(doc, dict) else None
    if not isinstance(plugins, dict):
        warnings.append(
            f"{path}: /plugins: expected an object of installed plugins; none were loaded"
        )
        return []
    enabled = enabled_plugin_ids(project_dir, env, warnings)
    proj = os.path.realpath(project_dir)
    out: list[tuple[str, str]] = []
    for pid, recs in plugins.items():
        if enabled.get(pid) is not True:
            continue
        records = recs if isinstance(recs, list) else [recs]
        chosen = None
        for rec in records:
            if not isinstance(rec, dict) or not isinstance(rec.get("installPath"), str):
                continue
            scope = rec.get("scope", "user")
            if scope in ("project", "local"):
                pp = rec.get("projectPath")
                if not isinstance(pp, str) or os.path.realpath(pp) != proj:
                    continue
            chosen = rec["installPath"]
            break
        if chosen is None:
            continue
        out.append((str(pid), os.path.expanduser(chosen)))
    return out


def load_plugins(
    dirs: Sequence[tuple[str, str]],
    project_dir: str,
    env: Mapping[str, str],
    *,
    claude_records: bool,
) -> tuple[list[HookEntry], list[str]]:
    """Entries of every plugin: ``dirs`` are ``(directory, where it was named)``; plus Claude's own records."""
    warnings: list[str] = []
    entries: list[HookEntry] = []
    todo: list[tuple[str, str, str, bool]] = [(d, origin, "", False) for d, origin in dirs]
    if claude_records:
        for pid, path in installed_claude_plugins(project_dir, env, warnings):
            todo.append((path, f"Claude Code ({pid})", pid, True))
    seen: dict[str, str] = {}
    for d, origin, pid, claude_installed in todo:
        real = os.path.realpath(d)
        if real in seen:
            continue
        try:
            plugin = read_plugin(d)
        except PluginError as exc:
            warnings.append(f"{exc}; plugin named by {origin} not loaded")
            continue
        if plugin.name in seen.values():
            warnings.append(
                f"{plugin.root}: plugin name {plugin.name!r} (from {origin}) is already loaded from "
                "another directory; this one was skipped"
            )
            continue
        seen[real] = plugin.name
        plugin.origin = origin
        plugin.plugin_id = pid or plugin.name
        got, w = plugin_entries(plugin, env, claude_installed=claude_installed)
        entries.extend(got)
        warnings.extend(w)
    return entries, warnings
