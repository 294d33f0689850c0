"""None"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hookwise.core.plan import matcher_warning
from hookwise.core.registry import DEFAULT_TIMEOUT_MS, HookEntry
from hookwise.errors import SettingsError
from hookwise.events import EVENT_NAMES, EVENT_SPECS, HookEvent, suggest_event
from hookwise.jsonc import parse as jsonc
from hookwise.jsonc.parse import kind_of
from hookwise.settings.layers import SettingsLayer, discover_layers, project_settings_path, user_dir
from hookwise.settings.profiles import PROFILES, Profile

LEGACY_HOOKS_KEYS = ("enabled", "disabled", "notifications")
#: ``hooksConfig.afterModel`` (hookwise extension): fire AfterModel per streamed chunk (default) or per response
AFTER_MODEL_MODES = ("chunk", "response")
HOOK_TYPES = ("command",)


@dataclass
class RedactionPolicy:
    """``security.environmentVariableRedaction`` as combined across layers (CONTRACT §7)."""

    allowed: frozenset[str] = frozenset()
    blocked: frozenset[str] = frozenset()
    enabled_for_trusted: bool = False  # user/system explicitly switched redaction on for every hook
    enabled_for_untrusted: bool = True  # project/extension hooks: on unless user/system say enabled: false


@dataclass
class LoadedSettings:
    """The result of reading every layer: hook entries in layer order, plus warnings."""

    layers: list[SettingsLayer]
    entries: list[HookEntry]
    warnings: list[str] = field(default_factory=list)
    redaction: RedactionPolicy = field(default_factory=RedactionPolicy)
    claude_settings: bool = False
    hooks_config: dict[str, Any] = field(default_factory=dict)
    profile: Profile = field(default_factory=lambda: PROFILES["gemini"])

    def hook_vars(self, project_dir: str, session_id: str, env: Mapping[str, str]) -> dict[str, str]:
        """Variables every hook sees besides ``GEMINI_*`` (docs/sources.md): the profile's own names and
        ``CLAUDE_PLUGIN_ROOT`` (inherited value, else ``<project>/.claude``; a plugin's hooks override it)."""
        out = self.profile.hook_vars(project_dir, session_id)
        inherited = env.get("CLAUDE_PLUGIN_ROOT")
        out["CLAUDE_PLUGIN_ROOT"] = os.path.abspath(inherited) if inherited else os.path.join(project_dir, ".claude")
        return out


class _Reporter:
    def __init__(self, warnings: list[str]) -> None:
        self.warnings = warnings

    def at(self, layer: SettingsLayer, ptr: str, message: str) -> None:
        line, col = jsonc.locate(layer.text, ptr) if layer.text else (None, None)
        loc = layer.path if line is None else f"{layer.path}:{line}:{col}"
        self.warnings.append(f"{loc}: {ptr or '/'}: {message}")


_HYDRATE_DROP = ("__proto__", "constructor", "prototype")


def _hydrate(value: Any, variables: Mapping[str, str]) -> Any:
    """Replace ``${var}`` placeholders in every string of an extension's hooks (unknown ones stay)."""
    if isinstance(value, str):
        if "${" not in value:
            return value
        for k, v in variables.items():
            value = value.replace("${" + k + "}", v)
        return value
    if isinstance(value, list):
        return [_hydrate(v, variables) for v in value]
    if isinstance(value, dict):
        return {k: _hydrate_command(v, variables) if k == "command" and isinstance(v, str) else _hydrate(v, variables)
                for k, v in value.items() if k not in _HYDRATE_DROP}
    return value


def _hydrate_command(command: str, variables: Mapping[str, str]) -> str:
    """A command's ``${extensionPath}``/``${workspacePath}`` become shell-quoted words (a directory named
    ``x$(cmd)`` must not run ``cmd``), in whatever quoting the author used, like ``$GEMINI_PROJECT_DIR``."""
    import re

    from hookwise.core.expand import expand_command

    if "${" not in command:
        return command
    # values made only of safe characters stay bare (commands and display names look as before); the rest are
    # quoted for their context, single quotes included (hydration is textual: it applies inside '...' too)
    unsafe = {k: v for k, v in variables.items() if k.isidentifier() and not re.fullmatch(r"[\w@%+=:,./-]+", v)}
    if unsafe:
        command = expand_command(command, unsafe, in_single_quotes=True)
    return str(_hydrate(command, {k: v for k, v in variables.items() if k not in unsafe}))


def parse_hook(raw: Any, event: HookEvent, layer: SettingsLayer, ptr: str, definition: dict[str, Any],
               report: _Reporter) -> HookEntry | None:
    """Turn one hook object of a settings file into a :class:`HookEntry`, or report why not."""
    if not isinstance(raw, dict):
        report.at(layer, ptr, f"a hook must be an object, got {kind_of(raw)}; skipped")
        return None
    htype = raw.get("type")
    if htype == "plugin":
        htype = "command"
    if htype not in HOOK_TYPES:
        if htype is None:
            report.at(layer, ptr, 'missing "type" (expected "command"); hook skipped')
        else:
            report.at(layer, ptr + "/type", f'unsupported hook type {htype!r} (expected "command"); hook skipped')
        return None
    command = raw.get("command")
    if not isinstance(command, str) or not command.strip():
        report.at(layer, ptr + ("/command" if "command" in raw else ""),
                  'a command hook needs a non-empty "command" string; hook skipped')
        return None
    name = raw.get("name", "")
    if not isinstance(name, str):
        report.at(layer, ptr + "/name", f'"name" must be a string, got {kind_of(name)}; ignored')
        name = ""
    description = raw.get("description", "")
    if not isinstance(description, str):
        description = ""
    timeout = raw.get("timeout", DEFAULT_TIMEOUT_MS)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
        report.at(layer, ptr + "/timeout",
                  f'"timeout" must be a positive number of milliseconds, got {timeout!r}; using {DEFAULT_TIMEOUT_MS}')
        timeout = DEFAULT_TIMEOUT_MS
    env_raw = raw.get("env", {})
    env: dict[str, str] = {}
    if isinstance(env_raw, dict):
        for k, v in env_raw.items():
            if isinstance(v, (str, int, float)) and not isinstance(v, bool):
                env[str(k)] = str(v)
            else:
                report.at(layer, ptr + "/env/" + k, f"environment values must be strings, got {kind_of(v)}; ignored")
    else:
        report.at(layer, ptr + "/env", f'"env" must be an object of strings, got {kind_of(env_raw)}; ignored')
    dialect = raw.get("dialect")
    if dialect is not None and dialect != "claude":
        report.at(layer, ptr + "/dialect", f'unknown dialect {dialect!r} (expected "claude"); ignored')
        dialect = None
    fail_closed = raw.get("failClosed", False) is True
    persistent = raw.get("persistent", False) is True
    matcher = definition.get("matcher")
    return HookEntry(
        event=event,
        command=command,
        name=name,
        type="command",
        description=description,
        matcher=matcher if isinstance(matcher, str) else None,
        sequential=definition.get("sequential") is True,
        timeout_ms=int(timeout),
        source=layer.label,
        file=layer.path,
        pointer=ptr,
        env=env,
        fail_closed=fail_closed,
        dialect=dialect,
        extension_dir=layer.extension_dir,
        persistent=persistent,
    )


def parse_hooks_section(hooks: Any, layer: SettingsLayer, base_ptr: str, report: _Reporter) -> list[HookEntry]:
    """Every valid hook of a ``hooks`` object, in file order; problems are reported and skipped."""
    if hooks is None:
        return []
    if not isinstance(hooks, dict):
        report.at(layer, base_ptr, f'"hooks" must be an object keyed by event name, got {kind_of(hooks)}; ignored')
        return []
    out: list[HookEntry] = []
    for key, defs in hooks.items():
        kptr = base_ptr + jsonc.pointer(key)
        if key in LEGACY_HOOKS_KEYS:
            report.at(layer, kptr, f'"hooks.{key}" is not read; use "hooksConfig.{key}"')
            continue
        if key not in EVENT_NAMES:
            hint = suggest_event(key)
            report.at(layer, kptr, f"unknown hook event {key!r}" + (f" (did you mean {hint!r}?)" if hint else "")
                      + "; skipped")
            continue
        event = HookEvent(key)
        if not isinstance(defs, list):
            report.at(layer, kptr,
                      f"the value of an event must be an array of definitions, got {kind_of(defs)}; skipped")
            continue
        for i, d in enumerate(defs):
            dptr = f"{kptr}/{i}"
            if not isinstance(d, dict):
                report.at(layer, dptr, f"a hook definition must be an object, got {kind_of(d)}; skipped")
                continue
            if "matcher" in d and not isinstance(d["matcher"], str):
                report.at(layer, dptr + "/matcher", f'"matcher" must be a string, got {kind_of(d["matcher"])}; '
                          "definition skipped")
                continue
            risk = matcher_warning(d.get("matcher"), EVENT_SPECS[event].matcher)
            if risk is not None:
                report.at(layer, dptr + "/matcher", risk)
            if "sequential" in d and not isinstance(d["sequential"], bool):
                report.at(layer, dptr + "/sequential", f'"sequential" must be true or false, got {d["sequential"]!r}')
            hooks_list = d.get("hooks")
            if not isinstance(hooks_list, list):
                report.at(layer, dptr + ("/hooks" if "hooks" in d else ""),
                          'a definition needs a "hooks" array; definition skipped')
                continue
            for j, h in enumerate(hooks_list):
                entry = parse_hook(h, event, layer, f"{dptr}/hooks/{j}", d, report)
                if entry is not None:
                    out.append(entry)
    return out


def _string_list(v: Any, layer: SettingsLayer, ptr: str, report: _Reporter) -> list[str]:
    if v is None:
        return []
    if not isinstance(v, list):
        report.at(layer, ptr, f"expected an array of strings, got {kind_of(v)}; ignored")
        return []
    out = []
    for i, s in enumerate(v):
        if isinstance(s, str):
            out.append(s)
        else:
            report.at(layer, f"{ptr}/{i}", f"expected a string, got {kind_of(s)}; ignored")
    return out


def _plugin_dirs(v: Any, layer: SettingsLayer, project_dir: str, report: _Reporter) -> list[tuple[str, str]]:
    """``hooksConfig.claudePlugins``: directories relative to the project (``~/`` is the home directory)."""
    out = []
    for i, d in enumerate(_string_list(v, layer, "/hooksConfig/claudePlugins", report)):
        path = os.path.join(project_dir, os.path.expanduser(d))
        out.append((os.path.abspath(path), f"{layer.path}: /hooksConfig/claudePlugins/{i}"))
    return out


def load_settings(project_dir: str, env: Mapping[str, str] | None = None,
                  claude_settings: bool | None = None, plugin_dirs: Sequence[str] = (),
                  profile: str | None = None) -> LoadedSettings:
    """Read every layer and build the hook entries with enabled flags and the redaction policy.

    ``plugin_dirs`` are Claude Code plugin directories (``--plugin-dir``); ``profile``
    selects a product profile (docs/sources.md), ``None`` to detect it.
    """
    env = os.environ if env is None else env
    from hookwise.settings.profiles import select_profile

    prof, prof_note = select_profile(project_dir, env, profile)
    layers = [layer.load() for layer in discover_layers(project_dir, env, prof)]
    plugin_sources: list[tuple[str, str]] = [(os.path.abspath(d), "--plugin-dir") for d in plugin_dirs]
    warnings: list[str] = []
    report = _Reporter(warnings)
    entries: list[HookEntry] = []
    disabled_all: list[str] = []
    disabled_system: list[str] = []
    disabled_by_project: list[str] = []
    enabled_all: bool = True
    enabled_system: bool = True
    project_switched_off = False
    claude = False
    hooks_config: dict[str, Any] = {}
    allowed: set[str] = set()
    blocked: set[str] = set()
    red_trusted = False
    red_untrusted = True

    for layer in layers:
        if layer.error is not None:
            warnings.append(f"{layer.error}; this settings file was skipped")
            continue
        doc = layer.data
        if doc is None:
            continue
        if layer.kind == "extension" and layer.claude_plugin:
            from hookwise.claude.plugins import plugin_entries, read_plugin
            from hookwise.errors import PluginError

            try:
                plugin = read_plugin(layer.extension_dir or "", require_manifest=True)
            except PluginError as exc:
                warnings.append(f"{exc}; extension {layer.extension_name!r} not loaded")
                continue
            plugin.origin = f"extension {layer.extension_name}"
            got, w = plugin_entries(plugin, env, label="extension")
            entries.extend(got)
            warnings.extend(w)
            continue
        if layer.kind == "extension":
            variables = {"extensionPath": layer.extension_dir or "", "workspacePath": project_dir,
                         "/": os.sep, "pathSeparator": os.sep}
            hooks = doc.get("hooks")
            if not isinstance(hooks, dict):
                report.at(layer, "/hooks", 'an extension hooks file needs a "hooks" object; skipped')
                continue
            entries.extend(parse_hooks_section(_hydrate(hooks, variables), layer, "/hooks", report))
            continue
        entries.extend(parse_hooks_section(doc.get("hooks"), layer, "/hooks", report))
        cfg = doc.get("hooksConfig")
        if cfg is not None and not isinstance(cfg, dict):
            report.at(layer, "/hooksConfig", f'"hooksConfig" must be an object, got {kind_of(cfg)}; ignored')
            cfg = None
        if cfg:
            names = _string_list(cfg.get("disabled"), layer, "/hooksConfig/disabled", report)
            disabled_all.extend(names)
            if layer.label == "system":
                disabled_system.extend(names)
            if layer.kind == "project":
                disabled_by_project.extend(names)
            if "enabled" in cfg:
                if isinstance(cfg["enabled"], bool):
                    enabled_all = cfg["enabled"]
                    if layer.label == "system":
                        enabled_system = cfg["enabled"]
                    if layer.kind == "project" and cfg["enabled"] is False:
                        project_switched_off = True
                else:
                    report.at(layer, "/hooksConfig/enabled", '"enabled" must be true or false; ignored')
            if "claudePlugins" in cfg:
                plugin_sources.extend(_plugin_dirs(cfg["claudePlugins"], layer, project_dir, report))
            if "claudeSettings" in cfg:
                if isinstance(cfg["claudeSettings"], bool):
                    claude = cfg["claudeSettings"]
                else:
                    report.at(layer, "/hooksConfig/claudeSettings", '"claudeSettings" must be true or false; ignored')
            for k, v in cfg.items():
                if k == "afterModel" and v not in AFTER_MODEL_MODES:
                    report.at(layer, "/hooksConfig/afterModel", f'"afterModel" must be "chunk" or "response", '
                              f"got {v!r}; ignored")
                elif k not in ("disabled", "enabled", "claudePlugins"):
                    hooks_config[k] = v
        sec = doc.get("security")
        red = sec.get("environmentVariableRedaction") if isinstance(sec, dict) else None
        if isinstance(red, dict):
            rptr = "/security/environmentVariableRedaction"
            loosening_ok = layer.label in ("user", "system")
            a = _string_list(red.get("allowed"), layer, rptr + "/allowed", report)
            if a and not loosening_ok:
                report.at(layer, rptr + "/allowed",
                          "only user and system settings may allow environment variables; ignored")
            elif a:
                allowed.update(x.upper() for x in a)
            blocked.update(x.upper() for x in _string_list(red.get("blocked"), layer, rptr + "/blocked", report))
            en = red.get("enabled")
            if isinstance(en, bool):
                if en:
                    if loosening_ok:
                        red_trusted = True
                elif loosening_ok:
                    red_untrusted = False
                else:
                    report.at(layer, rptr + "/enabled",
                              "only user and system settings may switch environment redaction off; ignored")

    if claude_settings is None:
        claude_settings = claude
    if claude_settings:
        from hookwise.claude.loader import load_claude_entries

        claude_user = os.path.join(os.path.dirname(user_dir(env)), ".claude")
        try:
            extra, extra_warnings = load_claude_entries(project_dir, claude_user, env)
        except SettingsError as exc:
            warnings.append(f"{exc}; Claude settings skipped")
        else:
            entries.extend(extra)
            warnings.extend(extra_warnings)

    if plugin_sources or claude_settings:
        from hookwise.claude.plugins import load_plugins

        extra, extra_warnings = load_plugins(plugin_sources, project_dir, env, claude_records=bool(claude_settings))
        entries.extend(extra)
        warnings.extend(extra_warnings)
    if prof_note:
        warnings.extend(prof_note)

    dis_all = set(disabled_all)
    dis_sys = set(disabled_system)
    user_names = {e.display_name for e in entries if e.source == "user"}
    for e in entries:
        if e.source == "system":
            e.enabled = enabled_system and e.display_name not in dis_sys
        else:
            e.enabled = enabled_all and e.display_name not in dis_all
    project_file = project_settings_path(project_dir)
    switched = sorted(user_names.intersection(disabled_by_project))
    if switched:
        warnings.append(f"{project_file}: /hooksConfig/disabled: the project settings disable your user hook(s) "
                        + ", ".join(repr(n) for n in switched)
                        + " (a cloned repository can switch off your guards; remove them from the list"
                        " if unintended)")
    if project_switched_off and user_names and not enabled_all:
        warnings.append(f"{project_file}: /hooksConfig/enabled: the project settings switch off all hooks, "
                        "including your user hooks")
    sys_named = {e.display_name for e in entries if e.source == "system"}
    ignored = sorted(sys_named.intersection(dis_all - dis_sys))
    if ignored:
        warnings.append("system hook(s) " + ", ".join(repr(n) for n in ignored)
                        + " can only be disabled by the system settings; they stay enabled")
    return LoadedSettings(
        layers=layers,
        entries=entries,
        warnings=warnings,
        redaction=RedactionPolicy(frozenset(allowed), frozenset(blocked), red_trusted, red_untrusted),
        claude_settings=bool(claude_settings),
        hooks_config=hooks_config,
        profile=prof,
    )
