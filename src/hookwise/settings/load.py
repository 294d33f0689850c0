"""The settings loader (docs/contract.md §1, §2, §7): every layer's hooks as :class:`HookEntry` objects.

What a hook, a definition or ``hooksConfig`` may contain is described once in
:mod:`hookwise.settings.schema`; this module applies the layer rules around it: extension
variables, the enabled/disabled switches across layers, redaction, and ``.claude/`` hooks.
"""

from __future__ import annotations

import os

from hookwise._records import TYPE_CHECKING, dataclass, field
from hookwise.core.registry import EXTENSION, SYSTEM, USER, HookEntry
from hookwise.input_errors import SettingsError
from hookwise.jsonc import parse as jsonc
from hookwise.settings.layers import SettingsLayer, discover_layers, project_settings_path, user_dir
from hookwise.settings.profiles import PROFILES, Profile, select_profile
from hookwise.settings.schema import (
    HOOKS_CONFIG_KEYS,
    REDACTION_KEYS,
    TELEMETRY_KEYS,
    Finding,
    read_hooks_section,
    read_object,
)

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any


@dataclass
class RedactionPolicy:
    """``security.environmentVariableRedaction`` as combined across layers (docs/contract.md §7)."""

    allowed: frozenset[str] = frozenset()
    blocked: frozenset[str] = frozenset()
    enabled_for_trusted: bool = False  # user/system explicitly switched redaction on for every hook
    enabled_for_untrusted: bool = (
        True  # project/extension hooks: on unless user/system say enabled: false
    )


@dataclass
class LoadedSettings:
    """The result of reading every layer: hook entries in layer order, plus warnings."""

    layers: list[SettingsLayer]
    entries: list[HookEntry]
    warnings: list[str] = field(default_factory=list)
    redaction: RedactionPolicy = field(default_factory=RedactionPolicy)
    claude_settings: bool = False
    hooks_config: dict[str, Any] = field(default_factory=dict)
    #: ``(file, patterns)`` of every layer that sets an http hook URL allow-list; a URL must pass each
    http_url_lists: list[tuple[str, list[str]]] = field(default_factory=list)
    profile: Profile = field(default_factory=lambda: PROFILES["gemini"])
    #: Gemini CLI's ``telemetry`` keys merged across layers (later layers win key by key; docs/telemetry.md)
    telemetry: dict[str, Any] = field(default_factory=dict)
    #: keys a file set that its layer may not set (settings/schema.py ``Origin``): file, pointer, key, layers
    ignored_keys: list[dict[str, Any]] = field(default_factory=list)
    #: Claude-format hooks on Claude events hookwise has no equivalent of, which only the agent bridge fires
    #: (``extra["relay"]``; hookwise.claude.names.RELAYED_EVENTS): never among ``entries``
    relayed: list[HookEntry] = field(default_factory=list)

    def hook_vars(
        self, project_dir: str, session_id: str, env: Mapping[str, str]
    ) -> dict[str, str]:
        """Variables every hook sees besides ``GEMINI_*`` (docs/sources.md): the profile's own names and
        ``CLAUDE_PLUGIN_ROOT`` (inherited value, else ``<project>/.claude``; a plugin's hooks override it)."""
        out = self.profile.hook_vars(project_dir, session_id)
        inherited = env.get("CLAUDE_PLUGIN_ROOT")
        out["CLAUDE_PLUGIN_ROOT"] = (
            os.path.abspath(inherited) if inherited else os.path.join(project_dir, ".claude")
        )
        return out


class _Reporter:
    def __init__(self, warnings: list[str]) -> None:
        self.warnings = warnings
        self.ignored_keys: list[dict[str, Any]] = []

    def at(self, layer: SettingsLayer, ptr: str, message: str) -> None:
        line, col = jsonc.locate(layer.text, ptr) if layer.text else (None, None)
        loc = layer.path if line is None else f"{layer.path}:{line}:{col}"
        self.warnings.append(f"{loc}: {ptr or '/'}: {message}")

    def findings(self, layer: SettingsLayer, findings: list[Finding]) -> None:
        for f in findings:
            if f.at_load:
                self.at(layer, f.pointer, f.message)
            if f.refused:
                self.ignored_keys.append(
                    {
                        "file": layer.path,
                        "pointer": f.pointer,
                        "key": f.refused,
                        "layer": layer.label,
                    }
                )


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
        return {
            k: _hydrate_command(v, variables)
            if k == "command" and isinstance(v, str)
            else _hydrate(v, variables)
            for k, v in value.items()
            if k not in _HYDRATE_DROP
        }
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
    unsafe = {
        k: v
        for k, v in variables.items()
        if k.isidentifier() and not re.fullmatch(r"[\w@%+=:,./-]+", v)
    }
    if unsafe:
        command = expand_command(command, unsafe, in_single_quotes=True)
    return str(_hydrate(command, {k: v for k, v in variables.items() if k not in unsafe}))


def parse_hooks_section(
    hooks: Any, layer: SettingsLayer, base_ptr: str, report: _Reporter
) -> list[HookEntry]:
    """Every hook of a ``hooks`` object that loads, in file order; problems are reported (settings/schema.py)."""
    reading = read_hooks_section(hooks, base_ptr, layer.label)
    report.findings(layer, reading.findings)
    return [
        HookEntry(
            event=h.event,
            matcher=h.matcher,
            sequential=h.sequential,
            source=layer.label,
            file=layer.path,
            pointer=h.pointer,
            extension_dir=layer.extension_dir,
            **h.fields,
        )
        for h in reading.hooks
    ]


class _Switches:
    """``hooksConfig`` and redaction settings as combined across layers, before they are applied."""

    def __init__(self) -> None:
        self.disabled_all: list[str] = []
        self.disabled_system: list[str] = []
        self.disabled_trusted: list[str] = []  # named by user and system files
        self.disabled_by_project: list[str] = []
        self.enabled_all = True
        self.enabled_system = True
        self.enabled_trusted = True  # last-wins over the user and system files
        self.project_switched_off = False
        self.claude = False
        self.hooks_config: dict[str, Any] = {}
        self.allowed: set[str] = set()
        self.blocked: set[str] = set()
        self.red_trusted = False
        self.red_untrusted = True
        self.http_url_lists: list[tuple[str, list[str]]] = []
        self.plugin_dirs: list[tuple[str, str]] = []  # (directory, where it was named)
        self.telemetry: dict[str, Any] = {}

    def add_hooks_config(self, cfg: dict[str, Any], layer: SettingsLayer) -> None:
        names = cfg.get("disabled", [])
        self.disabled_all.extend(names)
        if layer.label == SYSTEM:
            self.disabled_system.extend(names)
        if layer.label in (USER, SYSTEM):
            self.disabled_trusted.extend(names)
        if layer.kind == "project":
            self.disabled_by_project.extend(names)
        if "enabled" in cfg:
            self.enabled_all = cfg["enabled"]
            if layer.label == SYSTEM:
                self.enabled_system = cfg["enabled"]
            if layer.label in (USER, SYSTEM):
                self.enabled_trusted = cfg["enabled"]
            if layer.kind == "project" and cfg["enabled"] is False:
                self.project_switched_off = True
        if "claudeSettings" in cfg:
            self.claude = cfg["claudeSettings"]
        if "allowedHttpHookUrls" in cfg:
            self.http_url_lists.append((layer.path, list(cfg["allowedHttpHookUrls"])))
        self.hooks_config.update((k, v) for k, v in cfg.items() if k not in ("disabled", "enabled"))

    def add_redaction(self, red: dict[str, Any]) -> None:
        """Redaction keys a layer may set (the others were left out by their origin, settings/schema.py)."""
        self.allowed.update(x.upper() for x in red.get("allowed", []))
        self.blocked.update(x.upper() for x in red.get("blocked", []))
        en = red.get("enabled")
        if en is True:
            self.red_trusted = True
        elif en is False:
            self.red_untrusted = False


def load_settings(
    project_dir: str,
    env: Mapping[str, str] | None = None,
    claude_settings: bool | None = None,
    plugin_dirs: Sequence[str] = (),
    profile: str | None = None,
) -> LoadedSettings:
    """Read every layer and build the hook entries with enabled flags and the redaction policy.

    ``plugin_dirs`` are Claude Code plugin directories (``--plugin-dir``); ``profile``
    names a product profile (docs/sources.md), ``None`` to detect it.
    """
    env = os.environ if env is None else env
    prof, notes = select_profile(project_dir, env, profile)
    layers = [layer.load() for layer in discover_layers(project_dir, env, prof)]
    warnings: list[str] = list(notes)
    report = _Reporter(warnings)
    entries: list[HookEntry] = []
    sw = _Switches()
    sw.plugin_dirs.extend((os.path.abspath(d), "--plugin-dir") for d in plugin_dirs)
    for layer in layers:
        entries.extend(_read_layer(layer, project_dir, sw, report, env, prof))
    if claude_settings is None:
        claude_settings = sw.claude
    entries.extend(_package_entries(report, project_dir))
    if claude_settings:
        entries.extend(_claude_entries(project_dir, env, warnings))
        sw.http_url_lists.extend(_claude_url_lists(project_dir, env))
    if sw.plugin_dirs or claude_settings:
        from hookwise.claude.plugins import load_plugins

        extra, extra_warnings = load_plugins(
            sw.plugin_dirs, project_dir, env, claude_records=bool(claude_settings)
        )
        entries.extend(extra)
        warnings.extend(extra_warnings)
    _apply_switches(entries, sw, project_settings_path(project_dir), warnings)
    relayed = [e for e in entries if "relay" in e.extra]
    if relayed:
        entries = [e for e in entries if "relay" not in e.extra]
    return LoadedSettings(
        layers=layers,
        entries=entries,
        relayed=relayed,
        warnings=warnings,
        redaction=RedactionPolicy(
            frozenset(sw.allowed), frozenset(sw.blocked), sw.red_trusted, sw.red_untrusted
        ),
        claude_settings=bool(claude_settings),
        hooks_config=sw.hooks_config,
        http_url_lists=sw.http_url_lists,
        profile=prof,
        telemetry=sw.telemetry,
        ignored_keys=report.ignored_keys,
    )


def _package_entries(report: _Reporter, project_dir: str) -> list[HookEntry]:
    """Hooks of installed hook packages (``hookwise.hooks`` entry points), source ``package``."""
    from hookwise.settings import packages

    out: list[HookEntry] = []
    for dist, ep_name, value, load in packages.discover(project_dir=project_dir):
        section, problem = packages.load_section(dist, ep_name, value, load)
        if problem is not None:
            report.warnings.append(problem)
            continue
        layer = SettingsLayer(
            label=packages.SOURCE,
            kind=packages.SOURCE,
            path=f"<hook package {dist}: {ep_name} = {value}>",
            exists=True,
        )
        for e in parse_hooks_section(section, layer, "", report):
            e.extra["package"] = dist
            out.append(e)
    return out


def _claude_url_lists(project_dir: str, env: Mapping[str, str]) -> list[tuple[str, list[str]]]:
    """Claude Code's top-level ``allowedHttpHookUrls`` of the ``.claude/`` files (problems are the loader's)."""
    from hookwise.claude.loader import claude_settings_files

    out: list[tuple[str, list[str]]] = []
    claude_user = os.path.join(os.path.dirname(user_dir(env)), ".claude")
    for _label, path in claude_settings_files(project_dir, claude_user):
        if not os.path.isfile(path):
            continue
        try:
            _text, doc = jsonc.read_file(path)
        except SettingsError:
            continue
        urls = doc.get("allowedHttpHookUrls") if isinstance(doc, dict) else None
        if isinstance(urls, list):
            out.append((path, [u for u in urls if isinstance(u, str)]))
    return out


def _read_layer(
    layer: SettingsLayer,
    project_dir: str,
    sw: _Switches,
    report: _Reporter,
    env: Mapping[str, str],
    profile: Profile,
) -> list[HookEntry]:
    """The hooks of one layer; its ``hooksConfig`` and redaction settings go into ``sw``."""
    if layer.error is not None:
        report.warnings.append(f"{layer.error}; this settings file was skipped")
        return []
    doc = layer.data
    if doc is None:
        return []
    if layer.kind == "extension" and layer.claude_plugin:
        return _claude_plugin_extension(layer, env, report)
    hooks_doc = doc.get("hooks")
    if (
        profile.legacy_hooks_disabled
        and isinstance(hooks_doc, dict)
        and isinstance(hooks_doc.get("disabled"), list)
    ):
        # TerminaI's older documents keep the disabled list inside "hooks": read as hooksConfig.disabled
        doc = {**doc, "hooks": {k: v for k, v in hooks_doc.items() if k != "disabled"}}
        sw.add_hooks_config(
            {"disabled": [n for n in hooks_doc["disabled"] if isinstance(n, str)]}, layer
        )
    if layer.kind == "extension":
        variables = {
            "extensionPath": layer.extension_dir or "",
            "workspacePath": project_dir,
            "/": os.sep,
            "pathSeparator": os.sep,
        }
        if "hooks" not in doc:
            report.at(layer, "", 'an extension hooks file needs a "hooks" object; skipped')
            return []
        return parse_hooks_section(_hydrate(doc["hooks"], variables), layer, "/hooks", report)
    entries = parse_hooks_section(doc["hooks"], layer, "/hooks", report) if "hooks" in doc else []
    if "hooksConfig" in doc:
        cfg, findings = read_object(
            doc["hooksConfig"], "/hooksConfig", HOOKS_CONFIG_KEYS, '"hooksConfig"', layer.label
        )
        report.findings(
            layer, findings
        )  # hooksConfig.mode from a project was left out (its Origin)
        sw.add_hooks_config(cfg, layer)
        for i, d in enumerate(cfg.get("claudePlugins", [])):
            sw.plugin_dirs.append(
                (
                    os.path.abspath(os.path.join(project_dir, os.path.expanduser(d))),
                    f"hooksConfig.claudePlugins[{i}] in {layer.path}",
                )
            )
    if "telemetry" in doc:
        tel, findings = read_object(
            doc["telemetry"], "/telemetry", TELEMETRY_KEYS, '"telemetry"', layer.label
        )
        report.findings(layer, findings)
        sw.telemetry.update((k, v) for k, v in tel.items() if k in TELEMETRY_KEYS)
    sec = doc.get("security")
    if isinstance(sec, dict) and "environmentVariableRedaction" in sec:
        red, findings = read_object(
            sec["environmentVariableRedaction"],
            "/security/environmentVariableRedaction",
            REDACTION_KEYS,
            '"environmentVariableRedaction"',
            layer.label,
        )
        report.findings(layer, findings)
        sw.add_redaction(red)
    return entries


def _claude_plugin_extension(
    layer: SettingsLayer, env: Mapping[str, str], report: _Reporter
) -> list[HookEntry]:
    """An extension installed from a Claude Code plugin: its hooks keep Claude semantics and CLAUDE_PLUGIN_ROOT."""
    from hookwise.claude.plugins import plugin_entries, read_plugin
    from hookwise.errors import PluginError

    try:
        plugin = read_plugin(layer.extension_dir or "", require_manifest=True)
    except PluginError as exc:
        report.warnings.append(f"{exc}; extension {layer.extension_name!r} not loaded")
        return []
    plugin.origin = f"extension {layer.extension_name}"
    entries, warnings = plugin_entries(plugin, env, label=EXTENSION)
    report.warnings.extend(warnings)
    return entries


def _claude_entries(
    project_dir: str, env: Mapping[str, str], warnings: list[str]
) -> list[HookEntry]:
    from hookwise.claude.loader import load_claude_entries

    claude_user = os.path.join(os.path.dirname(user_dir(env)), ".claude")
    try:
        extra, extra_warnings = load_claude_entries(project_dir, claude_user, env)
    except SettingsError as exc:
        warnings.append(f"{exc}; Claude settings skipped")
        return []
    warnings.extend(extra_warnings)
    return extra


def _apply_switches(
    entries: list[HookEntry], sw: _Switches, project_file: str, warnings: list[str]
) -> None:
    """Set each entry's ``enabled`` flag (docs/contract.md §2, §7) and warn about cross-layer switching.

    A layer switches off only hooks of its own trust or less: system hooks only by the system files, user
    (and package) hooks only by the user and system files; a project's ``disabled`` list and
    ``enabled: false`` reach project, extension and plugin hooks only (a cloned repository must not switch
    off your guards; docs/security.md).
    """
    dis_all = set(sw.disabled_all)
    dis_sys = set(sw.disabled_system)
    dis_trusted = set(sw.disabled_trusted)
    user_names = {e.display_name for e in entries if e.source == USER}
    for e in entries:
        by = e.switched_by  # whose switches reach it (core/registry.py: SOURCES)
        if by == SYSTEM:
            e.enabled = sw.enabled_system and e.display_name not in dis_sys
        elif by == "any":
            e.enabled = sw.enabled_all and e.display_name not in dis_all
        else:
            e.enabled = sw.enabled_trusted and e.display_name not in dis_trusted
    kept = sorted(user_names.intersection(set(sw.disabled_by_project) - dis_trusted))
    if kept:
        warnings.append(
            f"{project_file}: /hooksConfig/disabled: the project settings list your user hook(s) "
            + ", ".join(repr(n) for n in kept)
            + "; only your user and system settings can switch off your hooks, so they stay enabled"
        )
    if sw.project_switched_off and user_names and not sw.enabled_all:
        warnings.append(
            f"{project_file}: /hooksConfig/enabled: the project settings switch off project and "
            "extension hooks; your user hooks stay enabled"
        )
    sys_named = {e.display_name for e in entries if e.source == SYSTEM}
    ignored = sorted(sys_named.intersection(dis_all - dis_sys))
    if ignored:
        warnings.append(
            "system hook(s) "
            + ", ".join(repr(n) for n in ignored)
            + " can only be disabled by the system settings; they stay enabled"
        )
