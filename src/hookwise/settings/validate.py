"""``hookwise validate``: check every settings layer and report *all* problems at once.

Each problem is one line ``path:line:col: pointer: severity: message``. Errors
are things hookwise (or Gemini CLI) will skip or misread: a file that does not
parse, unknown events (with the name they most likely mean, e.g. Claude Code's
``PreToolUse`` → ``BeforeTool``), wrong types, hooks without a command, invalid
regular-expression matchers. Warnings are things that load but probably do not
do what the author meant: unknown keys, matchers on events that ignore them,
timeouts that look like seconds, disabled names that match no hook, a project
file that switches off the user's own hooks.

The walk is independent of the engine's loader: it reads the files found by
:func:`hookwise.settings.discover_layers` and checks the parsed documents,
placing every problem with :func:`hookwise.jsonc.parse.locate`. The JSON Schema in
``hookwise/schema/settings.schema.json`` describes the same rules for editors
(a test checks that both agree on the same fixtures).
"""

from __future__ import annotations

import difflib
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hookwise.claude.names import CLAUDE_TO_GEMINI_TOOL
from hookwise.core.plan import matcher_regex, matcher_warning
from hookwise.errors import SettingsError
from hookwise.events import (
    CLAUDE_EVENT_NAMES,
    EVENT_NAMES,
    EVENT_SPECS,
    PRE_COMPRESS_TRIGGERS,
    SESSION_END_REASONS,
    SESSION_START_SOURCES,
    HookEvent,
    MatcherKind,
    suggest_event,
)
from hookwise.jsonc import parse as jsonc
from hookwise.jsonc.parse import kind_of

ERROR = "error"
WARNING = "warning"

LEGACY_HOOKS_KEYS = ("enabled", "disabled", "notifications")
DEFINITION_KEYS = ("matcher", "sequential", "hooks")
HOOK_KEYS = ("type", "command", "name", "description", "timeout", "env", "failClosed", "dialect",
             "persistent")
HOOKS_CONFIG_KEYS = ("enabled", "disabled", "notifications", "claudeSettings", "afterModel")
AFTER_MODEL_MODES = ("chunk", "response")
REDACTION_KEYS = ("allowed", "blocked", "enabled")

#: a timeout below this many milliseconds is reported as "looks like seconds"
SECONDS_THRESHOLD_MS = 1000

#: the values an exact matcher can meet, per event
EXACT_VALUES: dict[HookEvent, tuple[str, ...]] = {
    HookEvent.SESSION_START: SESSION_START_SOURCES,
    HookEvent.SESSION_END: SESSION_END_REASONS,
    HookEvent.PRE_COMPRESS: PRE_COMPRESS_TRIGGERS,
    HookEvent.NOTIFICATION: ("ToolPermission",),
}

#: Claude Code tool names and the Gemini CLI tool a matcher most likely means (from the migration table)
CLAUDE_TOOL_NAMES: dict[str, str] = {k: v for k, v in CLAUDE_TO_GEMINI_TOOL.items() if v is not None}


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


def _close(word: str, options: Iterable[str]) -> str | None:
    opts = list(options)
    hits = difflib.get_close_matches(word, opts, n=1, cutoff=0.6)
    if hits:
        return hits[0]
    low = word.lower()
    for o in opts:
        if o.lower() == low or (len(low) >= 3 and (o.lower().startswith(low) or low.startswith(o.lower()))):
            return o
    return None


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

    def __init__(self, path: str, text: str, layer: str = "project", *, extension: bool = False) -> None:
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

    def unknown_key(self, ptr: str, key: str, known: Iterable[str], where: str) -> None:
        hint = _close(key, known)
        self.warn(ptr, f"unknown key {key!r} in {where}" + (f" (did you mean {hint!r}?)" if hint else "")
                  + "; it is ignored")

    # -- the walk -------------------------------------------------------------------------
    def check(self, doc: Any) -> None:
        if not isinstance(doc, dict):
            self.add("", f"a settings file must contain a JSON object, got {kind_of(doc)}")
            return
        for dup in _duplicate_keys(self.text):
            self.warn(dup, "this key appears again later in the same object; this occurrence is ignored "
                      "(the last one counts)")
        if self.extension and "hooks" not in doc:
            self.add("", 'an extension hooks file needs a "hooks" object')
            return
        if "hooks" in doc:
            self.check_hooks(doc["hooks"], "/hooks")
        if "hooksConfig" in doc and not self.extension:
            self.check_hooks_config(doc["hooksConfig"], "/hooksConfig")
        sec = doc.get("security")
        if isinstance(sec, dict) and "environmentVariableRedaction" in sec and not self.extension:
            rptr = "/security/environmentVariableRedaction"
            self.check_redaction(sec["environmentVariableRedaction"], rptr)

    def check_hooks(self, hooks: Any, ptr: str) -> None:
        if not isinstance(hooks, dict):
            self.add(ptr, f'"hooks" must be an object whose keys are event names, got {kind_of(hooks)}')
            return
        for key, defs in hooks.items():
            kptr = ptr + jsonc.pointer(key)
            if key in LEGACY_HOOKS_KEYS:
                self.warn(kptr, f'"hooks.{key}" is not read (old location); move it to "hooksConfig.{key}"')
                continue
            if key not in EVENT_NAMES:
                if key in CLAUDE_EVENT_NAMES:
                    msg = (f"unknown event {key!r}: that is a Claude Code event name; here it is "
                           f"{CLAUDE_EVENT_NAMES[key]!r} (or run `hookwise migrate --from-claude`)")
                else:
                    hint = suggest_event(key)
                    msg = f"unknown event {key!r}" + (f" (did you mean {hint!r}?)" if hint else
                                                       " (events: " + ", ".join(EVENT_NAMES) + ")")
                self.add(kptr, msg + "; its hooks are skipped")
                continue
            event = HookEvent(key)
            if not isinstance(defs, list):
                self.add(kptr, f"the value of {key!r} must be an array of hook definitions, "
                         f"got {kind_of(defs)}")
                continue
            for i, d in enumerate(defs):
                self.check_definition(event, d, f"{kptr}/{i}")

    def check_definition(self, event: HookEvent, d: Any, ptr: str) -> None:
        if not isinstance(d, dict):
            self.add(ptr, f"a hook definition must be an object with a \"hooks\" array, got {kind_of(d)}")
            return
        hooks = d.get("hooks")
        claude_dialect = isinstance(hooks, list) and any(
            isinstance(h, dict) and h.get("dialect") == "claude" for h in hooks)
        if "matcher" in d:
            self.check_matcher(event, d["matcher"], ptr + "/matcher", claude_dialect)
        if "sequential" in d and not isinstance(d["sequential"], bool):
            self.add(ptr + "/sequential", '"sequential" must be true or false, got '
                     + json.dumps(d["sequential"]))
        if "hooks" not in d and "command" in d:
            self.add(ptr, "this looks like a hook placed directly in the event's array; wrap it in a "
                     'definition: {"matcher": ..., "hooks": [{"type": "command", "command": ...}]}')
            return
        for k in d:
            if k not in DEFINITION_KEYS:
                if k in ("command", "type"):
                    self.add(ptr + jsonc.pointer(k), f"{k!r} belongs inside the definition's \"hooks\" "
                             'array: {"matcher": ..., "hooks": [{"type": "command", "command": ...}]}')
                else:
                    self.unknown_key(ptr + jsonc.pointer(k), k, DEFINITION_KEYS, "a hook definition")
        if "hooks" not in d:
            self.add(ptr, 'a hook definition needs a "hooks" array of hooks')
            return
        if not isinstance(hooks, list):
            self.add(ptr + "/hooks", f'"hooks" must be an array of hooks, got {kind_of(hooks)}')
            return
        if not hooks:
            self.warn(ptr + "/hooks", "this definition has no hooks")
        for j, h in enumerate(hooks):
            self.check_hook(event, h, f"{ptr}/hooks/{j}")

    def check_matcher(self, event: HookEvent, m: Any, ptr: str, claude_dialect: bool) -> None:
        if not isinstance(m, str):
            self.add(ptr, f'"matcher" must be a string, got {kind_of(m)}')
            return
        spec = EVENT_SPECS[event]
        s = m.strip()
        if s in ("", "*"):
            return
        if spec.matcher is MatcherKind.NONE:
            self.warn(ptr, f"{event.value} ignores matchers: these hooks run on every {event.value} "
                      f"(remove the matcher, or check the input inside the hook)")
            return
        if spec.matcher is MatcherKind.TOOL:
            try:
                matcher_regex(s)
            except (re.error, RecursionError, OverflowError) as exc:
                self.add(ptr, f"matcher {m!r} is not a valid regular expression ({exc}); "
                         f"it would only match a tool named exactly {s!r}")
                return
            risk = matcher_warning(s, MatcherKind.TOOL)
            if risk is not None:
                self.warn(ptr, risk)
            if not claude_dialect:
                for word in re.findall(r"[A-Za-z_]+", s):
                    if word in CLAUDE_TOOL_NAMES:
                        self.warn(ptr, f"matcher mentions {word!r}, a Claude Code tool name; the Gemini CLI "
                                  f"tool is {CLAUDE_TOOL_NAMES[word]!r}")
                        break
            return
        known = EXACT_VALUES.get(event, ())
        field_name = spec.match_field or "value"
        for part in (p.strip() for p in s.split("|")):
            if part not in known:
                if re.search(r"[.*+?\[\](){}^$\\]", part):
                    self.warn(ptr, f"{event.value} matchers are compared exactly (names separated by '|'), "
                              f"not as regular expressions; {part!r} matches only that literal {field_name}")
                else:
                    hint = _close(part, known)
                    self.warn(ptr, f"{part!r} is never a {event.value} {field_name} (one of "
                              + ", ".join(known) + ")" + (f"; did you mean {hint!r}?" if hint else ""))

    def check_hook(self, event: HookEvent, h: Any, ptr: str) -> None:
        if not isinstance(h, dict):
            self.add(ptr, 'a hook must be an object like {"type": "command", "command": "..."}, got '
                     + kind_of(h))
            return
        htype = h.get("type")
        if "type" not in h:
            self.add(ptr, 'missing "type": write "type": "command"')
        elif htype == "plugin":
            self.warn(ptr + "/type", '"plugin" hooks run as command hooks; write "type": "command"')
        elif htype == "runtime":
            self.add(ptr + "/type", '"runtime" hooks can only be registered from code, not in settings')
        elif htype != "command":
            self.add(ptr + "/type", f'unknown hook type {json.dumps(htype)} (expected "command")')
        command = h.get("command")
        if "command" not in h:
            self.add(ptr, 'missing "command": the shell command to run')
        elif not isinstance(command, str):
            self.add(ptr + "/command", f'"command" must be a string, got {kind_of(command)}')
        elif not command.strip():
            self.add(ptr + "/command", '"command" is empty')
        for k in ("name", "description"):
            if k in h and not isinstance(h[k], str):
                self.add(ptr + "/" + k, f'"{k}" must be a string, got {kind_of(h[k])}')
        if "timeout" in h:
            t = h["timeout"]
            if isinstance(t, bool) or not isinstance(t, (int, float)):
                self.add(ptr + "/timeout", f'"timeout" must be a number of milliseconds, got {kind_of(t)}')
            elif t <= 0:
                self.add(ptr + "/timeout", f'"timeout" must be a positive number of milliseconds, got {t}')
            elif t < SECONDS_THRESHOLD_MS:
                self.warn(ptr + "/timeout", f'"timeout" is in milliseconds: {t} is {t / 1000:g} s; '
                          f"if you meant {t:g} seconds, write {int(t * 1000)}")
        if "env" in h:
            env = h["env"]
            if not isinstance(env, dict):
                self.add(ptr + "/env", f'"env" must be an object of strings, got {kind_of(env)}')
            else:
                for k, v in env.items():
                    vptr = ptr + "/env" + jsonc.pointer(k)
                    if isinstance(v, str):
                        continue
                    if isinstance(v, (int, float)) and not isinstance(v, bool):
                        self.warn(vptr, f"environment value {v!r} is a number; it is passed as the string "
                                  f"{json.dumps(str(v))} (quote it)")
                    else:
                        self.add(vptr, f"environment values must be strings, got {kind_of(v)}")
        for flag in ("failClosed", "persistent"):
            if flag in h and not isinstance(h[flag], bool):
                self.add(f"{ptr}/{flag}", f'"{flag}" must be true or false, got {json.dumps(h[flag])}')
        if "dialect" in h and h["dialect"] != "claude":
            self.add(ptr + "/dialect", f"unknown dialect {json.dumps(h['dialect'])} "
                     '(the only one is "claude")')
        for k in h:
            if k not in HOOK_KEYS:
                if k == "matcher":
                    self.warn(ptr + "/matcher", '"matcher" belongs to the definition (next to "hooks"), '
                              "not to the hook; here it is ignored")
                else:
                    self.unknown_key(ptr + jsonc.pointer(k), k, HOOK_KEYS, "a hook")
        if isinstance(command, str) and command.strip() and htype in ("command", "plugin", None):
            name = h.get("name") if isinstance(h.get("name"), str) else ""
            self.hooks.append(HookInfo(event.value, name or "", command, self.layer, self.path, ptr))

    def check_hooks_config(self, cfg: Any, ptr: str) -> None:
        if not isinstance(cfg, dict):
            self.add(ptr, f'"hooksConfig" must be an object, got {kind_of(cfg)}')
            return
        for k, v in cfg.items():
            kptr = ptr + jsonc.pointer(k)
            if k in ("enabled", "notifications", "claudeSettings"):
                if not isinstance(v, bool):
                    self.add(kptr, f'"{k}" must be true or false, got {json.dumps(v)}')
            elif k == "afterModel":
                if v not in AFTER_MODEL_MODES:
                    self.add(kptr, f'"afterModel" must be "chunk" or "response", got {json.dumps(v)}')
            elif k == "disabled":
                if not isinstance(v, list):
                    self.add(kptr, f'"disabled" must be an array of hook names, got {kind_of(v)}')
                    continue
                for i, name in enumerate(v):
                    if not isinstance(name, str):
                        self.add(f"{kptr}/{i}", f"a disabled hook name must be a string, got {kind_of(name)}")
                    else:
                        self.disabled.append((name, f"{kptr}/{i}"))
            else:
                self.unknown_key(kptr, k, HOOKS_CONFIG_KEYS, '"hooksConfig"')

    def check_redaction(self, red: Any, ptr: str) -> None:
        if not isinstance(red, dict):
            self.add(ptr, f"must be an object, got {kind_of(red)}")
            return
        for k, v in red.items():
            kptr = ptr + jsonc.pointer(k)
            if k in ("allowed", "blocked"):
                if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                    self.add(kptr, f'"{k}" must be an array of variable names')
                elif k == "allowed" and v and self.layer not in ("user", "system"):
                    self.warn(kptr, "only user and system settings may allow environment variables; "
                              "ignored here")
            elif k == "enabled":
                if not isinstance(v, bool):
                    self.add(kptr, f'"enabled" must be true or false, got {json.dumps(v)}')
                elif v is False and self.layer not in ("user", "system"):
                    self.warn(kptr, "only user and system settings may switch environment redaction off; "
                              "ignored here")
            else:
                self.unknown_key(kptr, k, REDACTION_KEYS, '"environmentVariableRedaction"')


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


def check_text(text: str, path: str = "<settings>", layer: str = "project", *,
               extension: bool = False) -> DocumentChecker:
    """Check one settings document given as text (parse errors become problems)."""
    checker = DocumentChecker(path, text, layer, extension=extension)
    if not text.strip(" \t\r\n\ufeff"):
        return checker
    try:
        doc = jsonc.parse(text, path)
    except SettingsError as exc:
        checker.problems.append(Problem(path, "", f"does not parse: {exc.message}; this file is ignored",
                                        ERROR, exc.line, exc.column, layer))
        return checker
    checker.check(doc)
    return checker


def validate_project(project_dir: str, env: Mapping[str, str] | None = None) -> Report:
    """Check every settings layer of ``project_dir`` (CONTRACT §1) plus the cross-file rules of §7."""
    from hookwise.settings.layers import discover_layers

    env = os.environ if env is None else env
    report = Report()
    checkers: list[DocumentChecker] = []
    for layer in discover_layers(project_dir, env):
        path = layer.path
        if not os.path.lexists(path):
            continue
        report.files.append(path)
        try:
            text = _read(path)
        except SettingsError as exc:
            report.problems.append(Problem(path, "", exc.message, ERROR, exc.line, exc.column, layer.label))
            continue
        checker = check_text(text, path, layer.label, extension=layer.kind == "extension")
        checkers.append(checker)
        report.problems.extend(checker.problems)
    report.problems.extend(_cross_checks(checkers))
    return report


def _read(path: str) -> str:
    try:
        return jsonc.read_text(path)
    except FileNotFoundError as exc:
        raise SettingsError(path, exc.strerror or "no such file") from None


def _cross_checks(checkers: list[DocumentChecker]) -> list[Problem]:
    """Rules that need every file: disabled names (CONTRACT §2, §7)."""
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
                    out.append(c.problem(
                        ptr, f"the project settings disable your user hook {name!r} ({users[0].path}); "
                        "a cloned repository can switch off your guards: remove it if unintended", WARNING))
                if c.layer != "system" and all(h.layer == "system" for h in targets):
                    out.append(c.problem(
                        ptr, f"{name!r} is a system hook ({targets[0].path}); only hooksConfig in the system "
                        "settings can disable it, so it stays enabled", WARNING))
                continue
            if name in by_command:
                named = sorted({h.name for h in by_command[name]})
                out.append(c.problem(
                    ptr, f"no hook has the display name {name!r}: the hook with this command is named "
                    + ", ".join(repr(n) for n in named) + "; disable it by its name", WARNING))
                continue
            hint = _close(name, names)
            out.append(c.problem(ptr, f"no configured hook is named {name!r}"
                                 + (f" (did you mean {hint!r}?)" if hint else ""), WARNING))
    return out
