"""Native loading of Claude Code settings files (``.claude/settings.json`` and friends) as hook entries."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from hookwise.claude.convert import (
    ConvertedHook,
    PluginRoot,
    convert_claude_document,
    plugin_root_candidates,
)
from hookwise.claude.names import (
    CLAUDE_DEFAULT_TIMEOUT_S,
    RELAYED_EVENTS,
    never_fires_here,
)
from hookwise.core.registry import PROJECT, USER, HookEntry
from hookwise.errors import SettingsError
from hookwise.events import HookEvent
from hookwise.jsonc import parse as jsonc
from hookwise.runners import KINDS, spec_from_keys

#: the event a relayed hook's entry carries (:data:`~hookwise.claude.names.RELAYED_EVENTS`): such an entry is
#: never planned (LoadedSettings keeps it apart), its own event is ``extra["claude_event"]``, and
#: ``extra["relay"]`` is the warning a host shows about it
RELAY_CARRIER = HookEvent.NOTIFICATION


def claude_settings_files(project_dir: str, user_dir_claude: str | None) -> list[tuple[str, str]]:
    """``(source label, path)`` of the Claude settings files, in loading order (user, project, local)."""
    files: list[tuple[str, str]] = []
    if user_dir_claude:
        files.append(("user", os.path.join(user_dir_claude, "settings.json")))
    files.append(("project", os.path.join(project_dir, ".claude", "settings.json")))
    files.append(("project", os.path.join(project_dir, ".claude", "settings.local.json")))
    return files


def load_claude_entries(
    project_dir: str, user_dir_claude: str, env: Mapping[str, str] | None = None
) -> tuple[list[HookEntry], list[str]]:
    """Hook entries (``dialect="claude"``) from the ``.claude/`` settings files, plus warnings.

    Events and matchers are translated as by ``hookwise migrate --from-claude``;
    timeouts are converted from seconds (Claude's 600 s default when unset);
    ``${CLAUDE_PLUGIN_ROOT}`` is resolved and exported. A file that cannot be
    read or parsed is one warning and contributes nothing; a hook that cannot
    run in hookwise (HTTP/prompt/agent handler, event without equivalent) and a
    field whose loss changes behaviour (``if``, ``async``, ``once``...) are each
    a warning naming the file, line and pointer.
    """
    entries: list[HookEntry] = []
    warnings: list[str] = []
    loaded: list[tuple[str, str, str, Any]] = []
    for label, path in claude_settings_files(project_dir, user_dir_claude):
        if not os.path.lexists(path):
            continue
        try:
            text, doc = jsonc.read_file(path)
        except SettingsError as exc:
            warnings.append(f"{exc}; this Claude settings file was skipped")
            continue
        loaded.append((label, path, text, doc))
    # disableAllHooks switches off hooks of its file's trust or less: a user file every Claude Code hook, a
    # project file the project's only (a cloned repository must not switch off your guards; docs/security.md)
    off: set[str] = set()
    for label, path, text, doc in loaded:
        if isinstance(doc, dict) and doc.get("disableAllHooks") is True:
            line, col = jsonc.locate(text, "/disableAllHooks")
            whose = (
                "no Claude Code hooks are"
                if label == USER
                else "this project's Claude Code hooks are not"
            )
            warnings.append(f"{path}:{line}:{col}: /disableAllHooks: true, so {whose} loaded")
            off.update((USER, PROJECT) if label == USER else (PROJECT,))
    for label, path, text, doc in loaded:
        if label in off:
            continue
        inherited = (env or {}).get("CLAUDE_PLUGIN_ROOT")
        # an inherited CLAUDE_PLUGIN_ROOT names the plugin's real root and wins over the default search
        roots = (
            [PluginRoot(os.path.abspath(inherited), None)]
            if inherited
            else plugin_root_candidates(path, project_dir if label == PROJECT else None)
        )
        converted, findings = convert_claude_document(
            doc, file=path, text=text, plugin_roots=roots, native=True
        )
        warnings.extend(findings)
        entries.extend(converted_entries(converted, label, path, warnings))
    return entries, warnings


def converted_entries(
    converted: list[ConvertedHook],
    label: str,
    path: str,
    warnings: list[str],
    *,
    extension_dir: str | None = None,
    env: Mapping[str, str] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> list[HookEntry]:
    """Hook entries (``dialect="claude"``) for converted Claude hooks; what could not be carried is a warning.

    ``env`` is added to every hook's environment (a plugin's ``CLAUDE_PLUGIN_ROOT``/``CLAUDE_PLUGIN_DATA``);
    ``extra`` to every entry's ``extra`` (the plugin's name).
    """
    entries: list[HookEntry] = []
    for c in converted:
        rep = c.report
        relayed = c.event is None and c.hook is not None and c.claude_event in RELAYED_EVENTS
        if (
            relayed
        ):  # loaded for the agent bridge only (LoadedSettings.relayed); a host never fires it
            warnings.append(f"{rep.location}: {never_fires_here(c.claude_event)}")
        elif c.hook is None or c.event is None:
            warnings.append(f"{rep.location}: {rep.reason}; hook not loaded")
            continue
        for f in rep.fields:
            if f.action == "dropped":
                warnings.append(f"{rep.location}/{f.field}: ignored: {f.detail}")
        for n in rep.warnings:
            warnings.append(f"{rep.location}: {n}")
        hook = c.hook
        if hook is None:  # not reached: skipped above (for the type checker)
            continue
        timeout = hook.get("timeout", CLAUDE_DEFAULT_TIMEOUT_S * 1000)
        env_map = {str(k): str(v) for k, v in (hook.get("env") or {}).items()}
        env_map.update(env or {})
        htype = hook.get("type", "command")
        kind = KINDS[htype]
        entries.append(
            HookEntry(
                event=HookEvent(c.event) if c.event is not None else RELAY_CARRIER,
                spec=spec_from_keys(kind, hook),
                name=hook.get("name", ""),
                type=htype,
                description=hook.get("description", ""),
                matcher=c.matcher,
                sequential=c.sequential,
                timeout_ms=int(timeout),
                source=label,
                file=path,
                pointer=rep.pointer,
                env=env_map,
                dialect="claude",
                fail_closed=hook.get("failClosed") is True,
                condition=hook.get("if") if isinstance(hook.get("if"), str) else None,
                run_async=hook.get("async") is True,
                extension_dir=extension_dir,
                extra={
                    "claude_event": c.claude_event,
                    "claude_matcher": rep.matcher_from,
                    **(extra or {}),
                    **({"relay": warnings[-1]} if relayed else {}),
                },
            )
        )
    return entries
