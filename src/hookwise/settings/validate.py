"""``hookwise validate``: check every settings layer and report *all* problems at once.

Each problem is one line ``path:line:col: pointer: severity: message``. What a hook, a
definition, ``hooksConfig`` and the redaction settings may contain is read with
:mod:`hookwise.settings.schema`, the same description the loader uses, so an *error* here is
exactly something the loader skips (with the same message), and everything the loader uses
passes. On top of that this module adds what only ``validate`` says: hints about matchers
(on events that ignore them, Claude Code tool names, exact values that never occur),
duplicate keys, and the cross-file rules about ``hooksConfig.disabled`` (docs/contract.md §2, §7).
The JSON Schema shipped as ``hookwise/settings/schema.json`` is generated from the same
description (a test checks that the three agree on generated documents).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hookwise.claude.names import CLAUDE_TO_GEMINI_TOOL
from hookwise.core.plan import matcher_is_valid_regex
from hookwise.core.registry import PLUGIN
from hookwise.errors import SettingsError
from hookwise.events import EVENT_SPECS, HookEvent, MatcherKind
from hookwise.jsonc import parse as jsonc
from hookwise.jsonc.parse import kind_of
from hookwise.runners.hook_keys import sync_kinds
from hookwise.settings.schema import (
    ERROR,
    EXACT_VALUES,
    HOOKS_CONFIG_KEYS,
    REDACTION_KEYS,
    TELEMETRY_KEYS,
    WARNING,
    Finding,
    close_match,
    read_hooks_section,
    read_object,
)

#: Claude Code tool names and the Gemini CLI tool a matcher most likely means (from the migration table)
CLAUDE_TOOL_NAMES: dict[str, str] = {
    k: v for k, v in CLAUDE_TO_GEMINI_TOOL.items() if v is not None
}


@dataclass
class Problem:
    """One finding, placed in its file."""

    path: str
    pointer: str
    message: str
    severity: str = ERROR
    line: int | None = None
    column: int | None = None
    layer: str = ""

    def location(self) -> str:
        if self.line is None:
            return self.path
        return f"{self.path}:{self.line}:{self.column}"

    def __str__(self) -> str:
        return f"{self.location()}: {self.pointer or '/'}: {self.severity}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.path,
            "line": self.line,
            "column": self.column,
            "pointer": self.pointer or "/",
            "severity": self.severity,
            "message": self.message,
            "layer": self.layer,
        }


@dataclass
class Report:
    """Everything ``validate`` found, in layer order then file position."""

    problems: list[Problem] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # settings files that exist and were checked

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == WARNING]

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": self.ok,
            "errors": len(self.errors),
            "warnings": len(self.warnings),
            "files": list(self.files),
            "problems": [p.to_json() for p in self.problems],
        }


@dataclass
class HookInfo:
    """A hook found during the walk (for cross-file checks)."""

    event: str
    name: str
    command: str
    layer: str
    path: str
    pointer: str

    @property
    def display_name(self) -> str:
        return self.name or self.command


class DocumentChecker:
    """Checks one parsed settings document; problems are placed with :func:`jsonc.locate`."""

    def __init__(
        self, path: str, text: str, layer: str = "project", *, extension: bool = False
    ) -> None:
        self.path = path
        self.text = text
        self.layer = layer
        self.extension = extension
        self.problems: list[Problem] = []
        self.hooks: list[HookInfo] = []
        self.disabled: list[tuple[str, str]] = []  # (name, pointer)

    # -- reporting -----------------------------------------------------------------------
    def problem(self, ptr: str, message: str, severity: str = ERROR) -> Problem:
        line, col = jsonc.locate(self.text, ptr) if self.text else (None, None)
        return Problem(self.path, ptr, message, severity, line, col, self.layer)

    def add(self, ptr: str, message: str, severity: str = ERROR) -> None:
        self.problems.append(self.problem(ptr, message, severity))

    def warn(self, ptr: str, message: str) -> None:
        self.add(ptr, message, WARNING)

    # -- the walk -------------------------------------------------------------------------
    def check(self, doc: Any) -> None:
        if not isinstance(doc, dict):
            self.add("", f"a settings file must contain a JSON object, got {kind_of(doc)}")
            return
        for dup in _duplicate_keys(self.text):
            self.warn(
                dup,
                "this key appears again later in the same object; this occurrence is ignored "
                "(the last one counts)",
            )
        if self.extension and "hooks" not in doc:
            self.add("", 'an extension hooks file needs a "hooks" object; skipped')
            return
        if "hooks" in doc:
            self.check_hooks(doc["hooks"], "/hooks")
        if "hooksConfig" in doc and not self.extension:
            cfg, findings = read_object(
                doc["hooksConfig"], "/hooksConfig", HOOKS_CONFIG_KEYS, '"hooksConfig"', self.label
            )
            self.report(findings)
            ptr = "/hooksConfig/disabled"
            if isinstance(doc["hooksConfig"], dict) and isinstance(
                doc["hooksConfig"].get("disabled"), list
            ):
                self.disabled.extend(
                    (n, f"{ptr}/{i}")
                    for i, n in enumerate(doc["hooksConfig"]["disabled"])
                    if isinstance(n, str)
                )
        if (
            "telemetry" in doc and not self.extension
        ):  # Gemini CLI's telemetry keys (docs/telemetry.md)
            self.report(
                read_object(
                    doc["telemetry"], "/telemetry", TELEMETRY_KEYS, '"telemetry"', self.label
                )[1]
            )
        sec = doc.get("security")
        if isinstance(sec, dict) and "environmentVariableRedaction" in sec and not self.extension:
            self.check_redaction(
                sec["environmentVariableRedaction"], "/security/environmentVariableRedaction"
            )

    def report(self, findings: Iterable[Finding]) -> None:
        for f in findings:
            self.add(f.pointer, f.message, f.severity)

    def check_hooks(self, hooks: Any, ptr: str) -> None:
        """The shared reading of settings/schema.py, plus the hints only ``validate`` gives (matchers)."""
        reading = read_hooks_section(hooks, ptr, self.layer)
        self.report(reading.findings)
        for d in reading.definitions:
            hooks_list = d.raw.get("hooks")
            claude_dialect = isinstance(hooks_list, list) and any(
                isinstance(h, dict) and h.get("dialect") == "claude" for h in hooks_list
            )
            if isinstance(d.raw.get("matcher"), str):
                self.check_matcher(
                    d.event, d.raw["matcher"], d.pointer + "/matcher", claude_dialect
                )
        for h in reading.hooks:
            self.hooks.append(
                HookInfo(
                    h.event.value,
                    h.fields.get("name", ""),
                    h.fields["spec"].target,
                    self.layer,
                    self.path,
                    h.pointer,
                )
            )

    def check_matcher(self, event: HookEvent, m: str, ptr: str, claude_dialect: bool) -> None:
        spec = EVENT_SPECS[event]
        s = m.strip()
        if s in ("", "*"):
            return
        if spec.matcher is MatcherKind.NONE:
            self.warn(
                ptr,
                f"{event.value} ignores matchers: these hooks run on every {event.value} "
                f"(remove the matcher, or check the input inside the hook)",
            )
            return
        if spec.matcher is MatcherKind.TOOL:
            if claude_dialect or not matcher_is_valid_regex(s):
                return
            for word in re.findall(r"[A-Za-z_]+", s):
                if word in CLAUDE_TOOL_NAMES:
                    self.warn(
                        ptr,
                        f"matcher mentions {word!r}, a Claude Code tool name; the Gemini CLI "
                        f"tool is {CLAUDE_TOOL_NAMES[word]!r}",
                    )
                    break
            return
        known = EXACT_VALUES.get(event, ())
        field_name = spec.match_field or "value"
        for part in (p.strip() for p in s.split("|")):
            if part not in known:
                if re.search(r"[.*+?\[\](){}^$\\]", part):
                    self.warn(
                        ptr,
                        f"{event.value} matchers are compared exactly (names separated by '|'), "
                        f"not as regular expressions; {part!r} matches only that literal {field_name}",
                    )
                else:
                    hint = close_match(part, known)
                    self.warn(
                        ptr,
                        f"{part!r} is never a {event.value} {field_name} (one of "
                        + ", ".join(known)
                        + ")"
                        + (f"; did you mean {hint!r}?" if hint else ""),
                    )

    def check_redaction(self, red: Any, ptr: str) -> None:
        red_keys = '"environmentVariableRedaction"'
        self.report(read_object(red, ptr, REDACTION_KEYS, red_keys, self.label)[1])

    @property
    def label(self) -> str | None:
        """The source label the origin rule applies to (settings/schema.py ``Origin``); None for extensions."""
        return None if self.extension else self.layer


def _duplicate_keys(text: str) -> list[str]:
    """JSON pointers of object members whose key appears twice in the same object."""
    dups: list[str] = []

    def walk(value: Any, ptr: str) -> None:
        if isinstance(value, _Pairs):
            seen: set[str] = set()
            for k, v in value.pairs:
                if k in seen and ptr + jsonc.pointer(k) not in dups:
                    dups.append(ptr + jsonc.pointer(k))
                seen.add(k)
                walk(v, ptr + jsonc.pointer(k))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, f"{ptr}/{i}")

    try:
        raw = json.loads(jsonc.strip_comments(text.lstrip("\ufeff")), object_pairs_hook=_Pairs)
    except ValueError:
        return []
    walk(raw, "")
    return dups


class _Pairs:
    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        self.pairs = pairs


def check_text(
    text: str, path: str = "<settings>", layer: str = "project", *, extension: bool = False
) -> DocumentChecker:
    """Check one settings document given as text (parse errors become problems)."""
    checker = DocumentChecker(path, text, layer, extension=extension)
    if not text.strip(" \t\r\n\ufeff"):
        return checker
    try:
        doc = jsonc.parse(text, path)
    except SettingsError as exc:
        checker.problems.append(
            Problem(
                path,
                "",
                f"does not parse: {exc.message}; this file is ignored",
                ERROR,
                exc.line,
                exc.column,
                layer,
            )
        )
        return checker
    checker.check(doc)
    checker.problems.sort(key=lambda p: (p.line or 0, p.column or 0))  # file order
    return checker


def validate_project(
    project_dir: str,
    env: Mapping[str, str] | None = None,
    *,
    claude_settings: bool | None = None,
    plugin_dirs: Sequence[str] = (),
    profile: str | None = None,
) -> Report:
    """Check every settings layer of ``project_dir`` (docs/contract.md §1) plus the cross-file rules of §7.

    The hook sources loaded besides settings layers (docs/sources.md) are checked too, as they
    load: ``.claude/`` files when ``claudeSettings`` is on, Claude Code plugins (``--plugin-dir``,
    ``hooksConfig.claudePlugins``, Claude's installed records) and extensions installed from plugins.
    """
    sync_kinds()  # every kind's keys: hints name the kind a key belongs to
    from hookwise.settings.layers import discover_layers
    from hookwise.settings.profiles import select_profile

    env = os.environ if env is None else env
    report = Report()
    checkers: list[DocumentChecker] = []
    for layer in discover_layers(project_dir, env, select_profile(project_dir, env, profile)[0]):
        path = layer.path
        if not os.path.lexists(path):
            continue
        if (
            layer.claude_plugin
        ):  # an extension installed from a Claude Code plugin: checked as a plugin below
            continue
        report.files.append(path)
        try:
            text = _read(path)
        except SettingsError as exc:
            report.problems.append(
                Problem(path, "", exc.message, ERROR, exc.line, exc.column, layer.label)
            )
            continue
        checker = check_text(text, path, layer.label, extension=layer.kind == "extension")
        checkers.append(checker)
        report.problems.extend(checker.problems)
    report.problems.extend(_cross_checks(checkers))
    _check_loaded_sources(report, project_dir, env, claude_settings, plugin_dirs, profile)
    return report


_LOCATED = re.compile(r"^(?P<path>/[^:]*?)(?::(?P<line>\d+):(?P<col>\d+))?: (?P<rest>.*)$")


def _check_loaded_sources(
    report: Report,
    project_dir: str,
    env: Mapping[str, str],
    claude_settings: bool | None,
    plugin_dirs: Sequence[str],
    profile: str | None,
) -> None:
    """Problems of ``.claude/`` files, plugins and plugin extensions: what loading them reports, placed in files."""
    from hookwise.claude.loader import claude_settings_files
    from hookwise.claude.plugins import claude_dir, read_plugin
    from hookwise.errors import PluginError
    from hookwise.settings.load import load_settings

    loaded = load_settings(project_dir, env, claude_settings, plugin_dirs, profile)
    prefixes: list[str] = []
    if loaded.claude_settings:
        for _label, path in claude_settings_files(project_dir, claude_dir(env)):
            if os.path.lexists(path):
                report.files.append(path)
                prefixes.append(path)
        prefixes.append(os.path.join(claude_dir(env), "plugins"))
    roots = {e.extension_dir for e in loaded.entries if e.source == PLUGIN or e.extra.get("plugin")}
    roots.update(os.path.abspath(d) for d in plugin_dirs)
    for root in sorted(r for r in roots if r):
        prefixes.append(root.rstrip(os.sep) + os.sep)
        prefixes.append(root)
        try:
            plugin = read_plugin(root)
        except PluginError:
            continue
        report.files.extend(f.path for f in plugin.hooks_files if f.path not in report.files)
    for w in loaded.warnings:
        if not any(w.startswith(p) for p in prefixes) and "plugin named by" not in w:
            continue  # the settings layers were checked above
        m = _LOCATED.match(w)
        severity = ERROR if "not loaded" in w or "skipped" in w.rsplit(";", 1)[-1] else WARNING
        if m is None:
            report.problems.append(Problem(project_dir, "", w, severity))
            continue
        rest = m.group("rest")
        ptr, _, message = rest.partition(": ") if rest.startswith("/") else ("", "", rest)
        report.problems.append(
            Problem(
                m.group("path"),
                ptr,
                message or rest,
                severity,
                int(m.group("line")) if m.group("line") else None,
                int(m.group("col")) if m.group("col") else None,
                "claude",
            )
        )


def _read(path: str) -> str:
    try:
        return jsonc.read_text(path)
    except FileNotFoundError as exc:
        raise SettingsError(path, exc.strerror or "no such file") from None


def _cross_checks(checkers: list[DocumentChecker]) -> list[Problem]:
    """Rules that need every file: disabled names (docs/contract.md §2, §7)."""
    out: list[Problem] = []
    hooks = [h for c in checkers for h in c.hooks]
    names = {h.display_name for h in hooks}
    by_name: dict[str, list[HookInfo]] = {}
    by_command: dict[str, list[HookInfo]] = {}
    for h in hooks:
        by_name.setdefault(h.display_name, []).append(h)
        if h.name:
            by_command.setdefault(h.command, []).append(h)
    for c in checkers:
        for name, ptr in c.disabled:
            targets = by_name.get(name)
            if targets:
                users = [h for h in targets if h.layer == "user"]
                if c.layer == "project" and users:
                    out.append(
                        c.problem(
                            ptr,
                            f"{name!r} is your user hook ({users[0].path}); only user and system "
                            "settings can disable it, so it stays enabled",
                            WARNING,
                        )
                    )
                if c.layer != "system" and all(h.layer == "system" for h in targets):
                    out.append(
                        c.problem(
                            ptr,
                            f"{name!r} is a system hook ({targets[0].path}); only hooksConfig in the system "
                            "settings can disable it, so it stays enabled",
                            WARNING,
                        )
                    )
                continue
            if name in by_command:
                named = sorted({h.name for h in by_command[name]})
                out.append(
                    c.problem(
                        ptr,
                        f"no hook has the display name {name!r}: the hook with this command is named "
                        + ", ".join(repr(n) for n in named)
                        + "; disable it by its name",
                        WARNING,
                    )
                )
                continue
            hint = close_match(name, names)
            out.append(
                c.problem(
                    ptr,
                    f"no configured hook is named {name!r}"
                    + (f" (did you mean {hint!r}?)" if hint else ""),
                    WARNING,
                )
            )
    return out
