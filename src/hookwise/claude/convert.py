"""Per-hook conversion between Claude Code and hookwise hook definitions.

Shared by native ``.claude/`` loading and ``hookwise migrate``, so both agree on every field."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hookwise.claude.matchers import MatcherResult, translate_matcher_from_claude
from hookwise.claude.names import (
    _CARRIED_HOOK_FIELDS,
    _DROP_REASONS,
    _GEMINI_DIR_REF,
    _OTHER_CLAUDE_VAR,
    _OTHER_GEMINI_VAR,
    _PLUGIN_ROOT_PATH,
    _PLUGIN_ROOT_REF,
    _PROJECT_DIR_REF,
    _SAFE_WORD,
    CLAUDE_DEFAULT_TIMEOUT_S,
    CLAUDE_EVENTS_WITHOUT_EQUIVALENT,
    CLAUDE_IF_EVENTS,
    CLAUDE_ON_FAILURE_IGNORED,
    CLAUDE_TO_GEMINI_EVENT,
    EVENT_NOTES,
    GEMINI_TO_CLAUDE_EVENT,
    ONCE_IN_SETTINGS,
    RELAYED_EVENTS,
    claude_default_timeout_s,
    never_fires_here,
)
from hookwise.core.keys import ERROR
from hookwise.core.registry import HookEntry
from hookwise.core.rules import rule_error
from hookwise.events import HookEvent
from hookwise.jsonc import parse as jsonc
from hookwise.jsonc.parse import kind_of
from hookwise.runners import KINDS, spec_from_keys
from hookwise.runners.hook_keys import HOOK_KEYS, HOOK_TYPES, sync_kinds
from hookwise.runners.kind import HookKind


@dataclass(frozen=True)
class PluginRoot:
    """Where ``${CLAUDE_PLUGIN_ROOT}`` points for one settings file.

    ``path`` is the directory on disk; ``expr`` is the text written into a
    migrated command in its place (``${GEMINI_PROJECT_DIR}/.claude``), or None
    to insert ``path`` literally (quoted as the command's quoting requires).
    """

    path: str
    expr: str | None


def plugin_root_candidates(settings_path: str, project_dir: str | None) -> list[PluginRoot]:
    """Where to look for the plugin root of a ``.claude/`` settings file, in order.

    For a project file: the ``.claude`` directory (hooks copied out of a plugin
    usually keep their scripts beside the settings), then the project root.
    For a user file: ``~/.claude``, then its parent.
    """
    settings_dir = os.path.dirname(os.path.abspath(settings_path))
    if project_dir is not None:
        proj = os.path.abspath(project_dir)
        rel = os.path.relpath(settings_dir, proj)
        inner = (
            "${GEMINI_PROJECT_DIR}"
            if rel == "."
            else "${GEMINI_PROJECT_DIR}/" + rel.replace(os.sep, "/")
        )
        return [PluginRoot(settings_dir, inner), PluginRoot(proj, "${GEMINI_PROJECT_DIR}")]
    return [PluginRoot(settings_dir, None), PluginRoot(os.path.dirname(settings_dir), None)]


def runtime_plugin_root(project_dir: str, env: Mapping[str, str]) -> list[PluginRoot]:
    """Where ``${CLAUDE_PLUGIN_ROOT}`` of a hook that is not from a plugin resolves when it runs.

    An inherited ``CLAUDE_PLUGIN_ROOT`` wins; without one it is ``<project>/.claude``
    (docs/sources.md, "CLAUDE_PLUGIN_ROOT": the precedence).
    The project directory follows as a second root: only where the scripts a command names through
    ``$CLAUDE_PROJECT_DIR`` are looked for (a migration reads them for its notes).
    """
    proj = os.path.abspath(project_dir)
    inherited = env.get("CLAUDE_PLUGIN_ROOT")
    first = (
        PluginRoot(os.path.abspath(inherited), None)
        if inherited
        else PluginRoot(os.path.join(proj, ".claude"), "${GEMINI_PROJECT_DIR}/.claude")
    )
    return [first, PluginRoot(proj, "${GEMINI_PROJECT_DIR}")]


def resolve_plugin_root(command: str, candidates: Sequence[PluginRoot]) -> tuple[PluginRoot, bool]:
    """Pick the candidate under which every ``${CLAUDE_PLUGIN_ROOT}/path`` of ``command`` exists.

    Returns ``(root, found)``; when no candidate has them all, the first
    candidate with ``found`` False.
    """
    rests = [r.lstrip("/") for r in _PLUGIN_ROOT_PATH.findall(command)]
    rests = [r for r in rests if r]
    for cand in candidates:
        if all(os.path.exists(os.path.join(cand.path, r)) for r in rests):
            return cand, True
    return candidates[0], False


def plugin_root_paths(command: str, root: str) -> list[str]:
    """The files ``${CLAUDE_PLUGIN_ROOT}/...`` names in ``command``, under ``root``, that exist."""
    out = []
    for r in _PLUGIN_ROOT_PATH.findall(command):
        p = os.path.join(root, r.lstrip("/"))
        if r.strip("/") and os.path.isfile(p):
            out.append(p)
    return out


def script_reads_plugin_root(paths: Iterable[str]) -> bool:
    """True when one of the scripts mentions ``CLAUDE_PLUGIN_ROOT`` itself (reads it from its environment)."""
    for p in paths:
        try:
            with open(p, "rb") as f:
                if b"CLAUDE_PLUGIN_ROOT" in f.read(1 << 20):
                    return True
        except OSError:
            continue
    return False


_CLAUDE_DIR_VARS = re.compile(
    r"\$\{?(?:CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|CLAUDE_PLUGIN_ROOT)\}?"
)


def scripts_mention(command: str, roots: Sequence[PluginRoot], needles: Sequence[bytes]) -> bool:
    """True when a file the command names (first 1 MiB) contains one of ``needles``.

    Words of the command are resolved with ``$CLAUDE_PROJECT_DIR`` / ``${CLAUDE_PLUGIN_ROOT}``
    replaced by each candidate root, and relative words under it; best effort, never raises.
    """
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    seen: set[str] = set()
    for w in words:
        for root in roots:
            rp = root.path
            p = _CLAUDE_DIR_VARS.sub(lambda _m: rp, w)  # noqa: B023 (used at once)
            p = p if os.path.isabs(p) else os.path.join(root.path, p)
            if p in seen or not os.path.isfile(p):
                continue
            seen.add(p)
            try:
                with open(p, "rb") as f:
                    data = f.read(1 << 20)
            except OSError:
                continue
            if any(n in data for n in needles):
                return True
    return False


def exec_form_to_shell(command: str, args: Sequence[str]) -> str:
    """Claude's exec form (``command`` + ``args``, no shell) as one shell command line.

    Each word is quoted so bash passes it unchanged; ``${CLAUDE_PROJECT_DIR}``
    and ``${CLAUDE_PLUGIN_ROOT}`` placeholders stay variable references inside
    double quotes so they are expanded (and rewritten by the migration).
    """
    words = [command, *args]
    out = []
    placeholder = re.compile(
        r"\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT)\}|\$(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT)"
        r"(?![A-Za-z0-9_])"
    )
    for w in words:
        if _SAFE_WORD.match(w):
            out.append(w)
            continue
        parts: list[str] = []
        pos = 0
        for mt in placeholder.finditer(w):
            parts.append(_escape_double(w[pos : mt.start()]))
            parts.append("${" + (mt.group(1) or mt.group(2)) + "}")
            pos = mt.end()
        parts.append(_escape_double(w[pos:]))
        out.append('"' + "".join(parts) + '"')
    return " ".join(out)


def _escape_double(s: str) -> str:
    return "".join("\\" + ch if ch in '\\"$`' else ch for ch in s)


def _single_quote(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


# --------------------------------------------------------------------------- one hook, Claude -> hookwise


@dataclass
class FieldNote:
    """What happened to one field of a hook (or definition): carried, converted or dropped."""

    field: str
    action: str  # "carried" | "converted" | "dropped" | "added"
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"field": self.field, "action": self.action, "detail": self.detail}


@dataclass
class HookReport:
    """The fate of one hook of a source file."""

    file: str
    pointer: str
    line: int | None
    column: int | None
    source_event: str
    target_event: str | None
    status: str  # "migrated" | "duplicate" | "skipped"
    reason: str = ""
    #: what the hook runs (its command; an http hook's URL), before and after, and what its kind calls it
    command: str | None = None
    command_to: str | None = None
    target_label: str = "command"
    matcher_from: str | None = None
    matcher_to: str | None = None
    fields: list[FieldNote] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def location(self) -> str:
        if self.line is None:
            return f"{self.file}: {self.pointer}"
        return f"{self.file}:{self.line}:{self.column}: {self.pointer}"

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "pointer": self.pointer,
            "line": self.line,
            "column": self.column,
            "sourceEvent": self.source_event,
            "targetEvent": self.target_event,
            "status": self.status,
            "reason": self.reason,
            self.target_label: self.command,
            self.target_label + "To": self.command_to,
            "matcherFrom": self.matcher_from,
            "matcherTo": self.matcher_to,
            "fields": [
                {**f.to_json(), "pointer": f"{self.pointer}/{jsonc.escape_pointer_token(f.field)}"}
                for f in self.fields
            ],
            "notes": list(self.notes),
            "warnings": list(self.warnings),
        }


@dataclass
class ConvertedHook:
    """One Claude hook translated to hookwise form.

    ``hook`` is the hook object to write (``None`` when it cannot be carried
    over; ``report.reason`` says why). ``env`` holds environment values that
    native loading sets (``CLAUDE_PLUGIN_ROOT``); a migration writes the
    equivalent into the command instead.
    """

    claude_event: str
    event: str | None
    matcher: str | None
    hook: dict[str, Any] | None
    report: HookReport
    env: dict[str, str] = field(default_factory=dict)
    definition_index: int = 0
    sequential: bool = False


def _timeout_ms(seconds: Any) -> int | None:
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, (int, float))
        or seconds <= 0
        or seconds != seconds
    ):
        return None
    return int(round(seconds * 1000))


def convert_claude_hook(  # noqa: C901 (one branch per Claude field; known debt: at 34 the most branchy function here)
    raw: Any,
    *,
    claude_event: str,
    matcher: MatcherResult,
    matcher_raw: Any,
    file: str,
    text: str,
    pointer: str,
    plugin_roots: Sequence[PluginRoot],
    native: bool = False,
) -> ConvertedHook:
    """Translate one Claude hook object (``hooks.<event>[i].hooks[j]``).

    ``native`` selects native loading: ``${CLAUDE_PLUGIN_ROOT}`` is resolved to
    an absolute path and also exported in ``env``; ``$CLAUDE_PROJECT_DIR`` is
    left for the engine to expand. Otherwise (migration) the command is
    rewritten with ``$GEMINI_PROJECT_DIR``.
    """
    line, col = jsonc.locate(text, pointer) if text else (None, None)
    target = CLAUDE_TO_GEMINI_EVENT.get(claude_event)
    rep = HookReport(
        file=file,
        pointer=pointer,
        line=line,
        column=col,
        source_event=claude_event,
        target_event=target,
        status="migrated",
        matcher_from=matcher_raw if isinstance(matcher_raw, str) else None,
        matcher_to=matcher.value,
    )
    rep.notes.extend(matcher.notes)
    rep.warnings.extend(matcher.warnings)
    conv = ConvertedHook(
        claude_event=claude_event, event=target, matcher=matcher.value, hook=None, report=rep
    )

    def skip(reason: str) -> ConvertedHook:
        rep.status = "skipped"
        rep.reason = reason
        return conv

    if not isinstance(raw, dict):
        return skip(f"a hook must be an object, got {kind_of(raw)}")
    if isinstance(raw.get("command"), str):
        rep.command = raw["command"]
    if target is None and not (native and claude_event in RELAYED_EVENTS):
        return skip(never_fires_here(claude_event))
    htype = raw.get("type", "command")
    kind = KINDS.get(htype) if isinstance(htype, str) and htype != "command" else None
    if kind is not None and kind.from_claude(raw) is not None and not matcher.matches_nothing:
        return _convert_kind(raw, kind, conv, claude_event)
    if htype != "command":
        what = {
            "http": "HTTP hooks",
            "prompt": "prompt (LLM) hooks",
            "agent": "agent (LLM) hooks",
            "mcp_tool": "MCP-tool hooks",
        }.get(str(htype), f"hook type {htype!r}")
        return skip(f"{what} cannot run in hookwise (only command hooks)")
    if matcher.matches_nothing:
        rep.warnings.clear()
        return skip(
            "its matcher can never match, so the hook could never fire: "
            + "; ".join(matcher.warnings)
        )
    command = raw.get("command")
    if not isinstance(command, str) or not command.strip():
        return skip('a command hook needs a non-empty "command" string')
    if "if" in raw and claude_event not in CLAUDE_IF_EVENTS:
        return skip(
            f"it has an `if` rule, and Claude Code never runs a hook with `if` on {claude_event} (`if` is "
            "evaluated on tool events only); hookwise does the same"
        )

    fields = rep.fields
    fields.append(FieldNote("type", "carried"))
    hook: dict[str, Any] = {"type": "command"}
    cmd = command
    args = raw.get("args")
    if "args" in raw:
        if isinstance(args, list) and all(isinstance(a, str) for a in args):
            cmd = exec_form_to_shell(command, args)
            fields.append(
                FieldNote("args", "converted", "exec form written as one quoted shell command")
            )
        else:
            fields.append(
                FieldNote("args", "dropped", f"must be an array of strings, got {kind_of(args)}")
            )

    shell = raw.get("shell")
    if "shell" in raw:
        if "args" in raw:
            fields.append(
                FieldNote(
                    "shell", "dropped", "ignored when `args` is set (exec form), as in Claude Code"
                )
            )
        elif shell in ("bash", "sh"):
            fields.append(FieldNote("shell", "carried", "hookwise runs commands with bash"))
        elif shell in ("powershell", "pwsh"):
            hook["shell"] = "powershell"
            fields.append(
                FieldNote(
                    "shell",
                    "carried",
                    '"powershell": hookwise runs the command with '
                    "`pwsh -NoProfile -Command` (needs PowerShell 7 on PATH)",
                )
            )
        else:
            fields.append(
                FieldNote(
                    "shell",
                    "dropped",
                    f'unknown shell {shell!r} (Claude Code accepts "bash" or '
                    '"powershell"); bash is used',
                )
            )

    # ${CLAUDE_PLUGIN_ROOT}
    if _PLUGIN_ROOT_REF.search(cmd):
        # native loading searches the candidates; a migrated command resolves at run time to the first one
        root, found = resolve_plugin_root(cmd, plugin_roots if native else plugin_roots[:1])
        scripts = plugin_root_paths(cmd, root.path)
        reads_env = script_reads_plugin_root(scripts)
        if native:
            from hookwise.core.expand import expand_command

            cmd = expand_command(
                _PLUGIN_ROOT_REF.sub("${CLAUDE_PLUGIN_ROOT}", cmd),
                {"CLAUDE_PLUGIN_ROOT": root.path},
            )
            conv.env["CLAUDE_PLUGIN_ROOT"] = root.path
            fields.append(
                FieldNote("command", "converted", f"${{CLAUDE_PLUGIN_ROOT}} → {root.path}")
            )
        else:
            # a migration keeps every byte of the command (docs/sources.md "CLAUDE_PLUGIN_ROOT"): hookwise resolves
            # the variable when the hook runs, to the inherited value, else to <project>/.claude
            where = (
                f"{root.path} (CLAUDE_PLUGIN_ROOT in hookwise's environment)"
                if root.expr is None
                else f"{root.expr} (the default when CLAUDE_PLUGIN_ROOT is not in hookwise's environment)"
            )
            fields.append(
                FieldNote(
                    "command",
                    "carried",
                    f"${{CLAUDE_PLUGIN_ROOT}} kept as written; when the hook "
                    f"runs it resolves to {where}",
                )
            )
            rep.notes.append(
                f"${{CLAUDE_PLUGIN_ROOT}} will resolve to {where}"
                + (
                    "; the script reads it from its environment too, where it is set to the same value"
                    if reads_env
                    else ""
                )
            )
        if not found:
            where = (
                root.path
                if len(plugin_roots) == 1 or not native
                else f"{plugin_roots[0].path} nor under {plugin_roots[-1].path}"
            )
            rep.warnings.append(
                f"${{CLAUDE_PLUGIN_ROOT}} paths of this command do not exist under {where}; the "
                "command will fail (exit 127, reported as not-run) until the plugin's files are there "
                "(or CLAUDE_PLUGIN_ROOT names the plugin's directory when hookwise runs)"
            )
    if not native and _PROJECT_DIR_REF.search(cmd):
        cmd = _PROJECT_DIR_REF.sub(
            lambda mt: (
                "${GEMINI_PROJECT_DIR}" if mt.group(1).startswith("{") else "$GEMINI_PROJECT_DIR"
            ),
            cmd,
        )
        fields.append(
            FieldNote("command", "converted", "$CLAUDE_PROJECT_DIR → $GEMINI_PROJECT_DIR")
        )
    for var in sorted(
        set(_OTHER_CLAUDE_VAR.findall(cmd)) - {"CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT"}
    ):
        rep.warnings.append(f"the command uses ${var}, which hookwise does not set")
    if claude_event == "PostToolUse" and scripts_mention(
        command, plugin_roots, (b"updatedToolOutput", b"updatedMCPToolOutput")
    ):
        rep.warnings.append(
            "its script answers with updatedToolOutput: hookwise applies it only in the shape of the "
            "tool's result as the hook receives it (hookwise's llmContent/returnDisplay object, not "
            "Claude Code's per-tool shapes such as Bash's stdout/stderr); another shape is dropped "
            "with a warning and the model gets the original result"
        )
    if not any(f.field == "command" for f in fields):
        fields.append(FieldNote("command", "carried"))
    hook["command"] = cmd
    rep.command_to = cmd

    timeout = raw.get("timeout")
    if "timeout" in raw:
        ms = _timeout_ms(timeout)
        if ms is None:
            hook["timeout"] = CLAUDE_DEFAULT_TIMEOUT_S * 1000
            fields.append(
                FieldNote(
                    "timeout",
                    "converted",
                    f"invalid value {timeout!r}; Claude Code's default "
                    f"{CLAUDE_DEFAULT_TIMEOUT_S} s used",
                )
            )
        else:
            hook["timeout"] = ms
            fields.append(FieldNote("timeout", "converted", f"{timeout} s → {ms} ms"))
    else:
        default_s = claude_default_timeout_s(claude_event)
        hook["timeout"] = default_s * 1000
        fields.append(
            FieldNote(
                "timeout",
                "added",
                f"not set: Claude Code's default {default_s} s kept as {default_s * 1000} ms",
            )
        )

    name = raw.get("name")
    if "name" in raw:
        if isinstance(name, str) and name:
            hook["name"] = name
            fields.append(FieldNote("name", "carried"))
        else:
            fields.append(
                FieldNote("name", "dropped", f"must be a non-empty string, got {kind_of(name)}")
            )

    status = raw.get("statusMessage")
    if "statusMessage" in raw:
        if isinstance(status, str) and status:
            hook["description"] = status
            fields.append(
                FieldNote(
                    "statusMessage", "converted", "kept as description (hookwise shows no spinner)"
                )
            )
        else:
            fields.append(
                FieldNote("statusMessage", "dropped", f"must be a string, got {kind_of(status)}")
            )

    env_raw = raw.get("env")
    if "env" in raw:
        if isinstance(env_raw, dict) and all(isinstance(v, str) for v in env_raw.values()):
            hook["env"] = dict(env_raw)
            fields.append(FieldNote("env", "carried"))
        else:
            fields.append(FieldNote("env", "dropped", "must be an object of strings"))
    if conv.env and native:
        hook.setdefault("env", {}).update(conv.env)

    _convert_claude_flags(raw, claude_event, hook, rep)
    for key in raw:
        if key in _CARRIED_HOOK_FIELDS:
            continue
        fields.append(
            FieldNote(key, "dropped", _DROP_REASONS.get(key, "not a hookwise hook field"))
        )

    return _claude_dialect(conv, hook, claude_event)


#: keys of a Claude hook of any kind that are converted, not carried (see _convert_kind)
_CONVERTED_KEYS = ("type", "name", "timeout", "statusMessage", "if", "async", "onFailure", "once")


def _own_keys(
    raw: dict[str, Any], kind: HookKind, hook: dict[str, Any], rep: HookReport
) -> str | None:
    """Carry the kind's own keys as they are, each read by its settings row; the reason to skip the hook
    when one cannot be used (as loading the same hook from a hookwise file would skip it), else None."""
    for row in kind.keys:
        if row.name not in raw:
            if row.required:
                return row.missing
            continue
        _value, notes = row.kind.read(row.name, raw[row.name])
        bad = next((n.message for n in notes if n.severity == ERROR), None)
        if bad is not None:
            return bad
        hook[row.name] = raw[row.name]
        rep.fields.append(FieldNote(row.name, "carried"))
    return None


def _convert_kind(
    raw: dict[str, Any], kind: HookKind, conv: ConvertedHook, claude_event: str
) -> ConvertedHook:
    """A Claude hook of a kind hookwise runs natively besides command (``http``): its own keys carried as
    they are (:attr:`HookKind.keys <hookwise.runners.kind.HookKind.keys>`), timeout in ms, the shared flags."""
    rep = conv.report
    hook: dict[str, Any] = {"type": kind.name}
    rep.fields.append(FieldNote("type", "carried"))
    bad = _own_keys(raw, kind, hook, rep)
    if bad is not None:
        rep.status, rep.reason = "skipped", bad
        return conv
    spec = spec_from_keys(kind, hook)
    rep.target_label, rep.command = kind.display(
        HookEntry(HookEvent.BEFORE_TOOL, type=kind.name, spec=spec)
    )
    rep.command_to = rep.command
    if isinstance(raw.get("name"), str) and raw["name"]:
        hook["name"] = raw["name"]
        rep.fields.append(FieldNote("name", "carried"))
    _claude_timeout(raw, hook, rep)
    status = raw.get("statusMessage")
    if isinstance(status, str) and status:
        hook["description"] = status
        rep.fields.append(
            FieldNote(
                "statusMessage", "converted", "kept as description (hookwise shows no spinner)"
            )
        )
    _convert_claude_flags(raw, claude_event, hook, rep)  # if, async, onFailure ("block"), once
    own = {row.name for row in kind.keys}
    for key in raw:
        if key not in own and key not in _CONVERTED_KEYS:
            why = _DROP_REASONS.get(key, f"not a hookwise {kind.name} hook field")
            rep.fields.append(FieldNote(key, "dropped", why))
    return _claude_dialect(conv, hook, claude_event)


def _claude_timeout(raw: dict[str, Any], hook: dict[str, Any], rep: HookReport) -> None:
    """Claude's ``timeout`` (seconds; Claude Code's default when absent or invalid) as milliseconds."""
    ms = _timeout_ms(raw.get("timeout"))
    hook["timeout"] = ms if ms is not None else CLAUDE_DEFAULT_TIMEOUT_S * 1000
    if "timeout" in raw:
        rep.fields.append(
            FieldNote(
                "timeout",
                "converted",
                f"{raw['timeout']} s → {hook['timeout']} ms"
                if ms
                else f"invalid value {raw['timeout']!r}; Claude Code's default used",
            )
        )
    else:
        rep.fields.append(
            FieldNote(
                "timeout",
                "added",
                f"not set: Claude Code's default {CLAUDE_DEFAULT_TIMEOUT_S} s "
                f"kept as {CLAUDE_DEFAULT_TIMEOUT_S * 1000} ms",
            )
        )


def _claude_dialect(conv: ConvertedHook, hook: dict[str, Any], claude_event: str) -> ConvertedHook:
    """The last step of every converted hook: it keeps receiving Claude-shaped input; the event's note."""
    hook["dialect"] = "claude"
    conv.report.fields.append(
        FieldNote("dialect", "added", '"claude": the hook keeps receiving Claude-shaped input')
    )
    if claude_event in EVENT_NOTES:
        conv.report.notes.append(EVENT_NOTES[claude_event])
    conv.hook = hook
    return conv


def _convert_claude_flags(
    raw: dict[str, Any], claude_event: str, hook: dict[str, Any], rep: HookReport
) -> None:
    """``if``, ``async``, ``onFailure`` and ``once`` of one Claude hook (see docs/claude.md, "Handlers and fields")."""
    fields = rep.fields
    if "if" in raw:
        rule = raw["if"]
        err = rule_error(rule)
        if err is None:
            hook["if"] = rule
            fields.append(
                FieldNote(
                    "if",
                    "carried",
                    "evaluated by hookwise with Claude Code's permission-rule "
                    "syntax: the hook runs only for calls the rule matches",
                )
            )
        else:
            shown = (
                json.dumps(rule, ensure_ascii=False) if not isinstance(rule, str) else repr(rule)
            )
            if isinstance(rule, str):
                hook["if"] = rule
            rep.warnings.append(
                f"`if` rule {shown} {err}; hookwise skips this hook (never runs it for every call "
                "instead) until the rule is fixed"
            )
            fields.append(
                FieldNote(
                    "if",
                    "carried" if isinstance(rule, str) else "dropped",
                    f"does not parse: {err}; the hook is skipped until it is fixed",
                )
            )
    is_async = raw.get("async")
    if "async" in raw:
        if is_async is True:
            hook["async"] = True
            fields.append(
                FieldNote(
                    "async",
                    "carried",
                    "runs in the background; the firing does not wait, and its "
                    "answer cannot block (a warning says so if it tries)",
                )
            )
        elif is_async is False:
            fields.append(FieldNote("async", "carried", "false: runs synchronously (the default)"))
        else:
            fields.append(
                FieldNote(
                    "async",
                    "dropped",
                    f"must be true or false, got {kind_of(is_async)}; the hook runs synchronously",
                )
            )
    if "onFailure" in raw:
        value = raw.get("onFailure")
        if value != "block":
            fields.append(
                FieldNote(
                    "onFailure",
                    "dropped",
                    f"unknown value {value!r} (Claude Code knows only "
                    '"block"); the hook fails open',
                )
            )
        elif is_async is True:
            fields.append(
                FieldNote(
                    "onFailure",
                    "dropped",
                    "Claude Code ignores onFailure on async hooks; so does "
                    "hookwise (a background hook cannot block)",
                )
            )
        elif claude_event in CLAUDE_ON_FAILURE_IGNORED:
            fields.append(
                FieldNote(
                    "onFailure",
                    "dropped",
                    f'Claude Code ignores onFailure: "block" on '
                    f"{claude_event}; the hook fails open, as in Claude Code",
                )
            )
        else:
            hook["failClosed"] = True
            fields.append(
                FieldNote(
                    "onFailure",
                    "converted",
                    '"block" → failClosed: true (a hook that cannot '
                    "start, times out, exits with another code than 0 or "
                    "2, or prints JSON that does not parse blocks)",
                )
            )
    if "once" in raw:
        fields.append(FieldNote("once", "dropped", ONCE_IN_SETTINGS))


def convert_claude_document(
    doc: Any, *, file: str, text: str, plugin_roots: Sequence[PluginRoot], native: bool = False
) -> tuple[list[ConvertedHook], list[str]]:
    """Every hook of a Claude settings document, converted, plus file-level findings.

    Findings are messages ``location: message`` about things that are not a
    single hook (a non-object ``hooks``, an event that is not an array, an
    unknown event name, ``disableAllHooks``).
    """
    out: list[ConvertedHook] = []
    findings: list[str] = []

    def at(ptr: str, msg: str) -> None:
        line, col = jsonc.locate(text, ptr) if text else (None, None)
        loc = file if line is None else f"{file}:{line}:{col}"
        findings.append(f"{loc}: {ptr or '/'}: {msg}")

    if not isinstance(doc, dict):
        at("", f"expected a JSON object at the top level, got {kind_of(doc)}")
        return out, findings
    if doc.get("disableAllHooks") is True:
        at(
            "/disableAllHooks",
            "disableAllHooks is true: Claude Code runs none of these hooks "
            "(hookwise's equivalent is hooksConfig.enabled: false)",
        )
    hooks = doc.get("hooks")
    if hooks is None:
        return out, findings
    if not isinstance(hooks, dict):
        at(
            "/hooks",
            f'"hooks" must be an object keyed by event name, got {kind_of(hooks)}; ignored',
        )
        return out, findings
    for event, defs in hooks.items():
        eptr = jsonc.pointer("hooks", event)
        if event not in CLAUDE_TO_GEMINI_EVENT:
            if event in CLAUDE_EVENTS_WITHOUT_EQUIVALENT:
                why = never_fires_here(event)
            elif event in GEMINI_TO_CLAUDE_EVENT or event in (
                "BeforeModel",
                "AfterModel",
                "BeforeToolSelection",
            ):
                why = f"{event!r} is a hookwise event name, not a Claude Code one"
            else:
                why = f"unknown Claude Code event {event!r}"
            n = _count_hooks(defs)
            if n == 0:
                at(eptr, why + "; nothing to migrate")
            # hooks of such events are reported one by one below (status skipped)
        if not isinstance(defs, list):
            at(
                eptr,
                f"the value of an event must be an array of definitions, got {kind_of(defs)}; skipped",
            )
            continue
        for i, d in enumerate(defs):
            dptr = f"{eptr}/{i}"
            if not isinstance(d, dict):
                at(dptr, f"a definition must be an object, got {kind_of(d)}; skipped")
                continue
            mraw = d.get("matcher")
            mres = (
                translate_matcher_from_claude(event, mraw)
                if event in CLAUDE_TO_GEMINI_EVENT
                else MatcherResult(mraw if isinstance(mraw, str) else None)
            )
            for key in d:
                if key not in ("matcher", "hooks", "sequential"):
                    at(
                        f"{dptr}/{jsonc.escape_pointer_token(key)}",
                        f"definition field {key!r} is not a hookwise field; dropped",
                    )
            hl = d.get("hooks")
            if not isinstance(hl, list):
                at(
                    dptr + ("/hooks" if "hooks" in d else ""),
                    'a definition needs a "hooks" array; skipped',
                )
                continue
            for j, h in enumerate(hl):
                c = convert_claude_hook(
                    h,
                    claude_event=event,
                    matcher=mres,
                    matcher_raw=mraw,
                    file=file,
                    text=text,
                    pointer=f"{dptr}/hooks/{j}",
                    plugin_roots=plugin_roots,
                    native=native,
                )
                if event not in CLAUDE_TO_GEMINI_EVENT and c.report.status == "skipped":
                    if event in CLAUDE_EVENTS_WITHOUT_EQUIVALENT:
                        c.report.reason = never_fires_here(event)
                    elif event in GEMINI_TO_CLAUDE_EVENT or event in (
                        "BeforeModel",
                        "AfterModel",
                        "BeforeToolSelection",
                    ):
                        c.report.reason = (
                            f"{event!r} is a hookwise event name, not a Claude Code one"
                        )
                    else:
                        c.report.reason = f"unknown Claude Code event {event!r}"
                c.definition_index = i
                c.sequential = d.get("sequential") is True
                out.append(c)
    return out, findings


def _count_hooks(defs: Any) -> int:
    if not isinstance(defs, list):
        return 0
    return sum(
        len(d["hooks"]) for d in defs if isinstance(d, dict) and isinstance(d.get("hooks"), list)
    )


# --------------------------------------------------------------------------- one hook, hookwise -> Claude


def convert_gemini_hook(
    raw: Any,
    *,
    event: str,
    matcher: MatcherResult,
    matcher_raw: Any,
    file: str,
    text: str,
    pointer: str,
) -> tuple[dict[str, Any] | None, HookReport]:
    """Translate one hookwise hook object into a Claude Code hook object (or None + reason)."""
    sync_kinds()  # every kind's keys and types (migration is not on the firing path)
    line, col = jsonc.locate(text, pointer) if text else (None, None)
    target = GEMINI_TO_CLAUDE_EVENT.get(event)
    rep = HookReport(
        file=file,
        pointer=pointer,
        line=line,
        column=col,
        source_event=event,
        target_event=target,
        status="migrated",
        matcher_from=matcher_raw if isinstance(matcher_raw, str) else None,
        matcher_to=matcher.value,
    )
    rep.notes.extend(matcher.notes)
    rep.warnings.extend(matcher.warnings)
    if not isinstance(raw, dict):
        rep.status, rep.reason = "skipped", f"a hook must be an object, got {kind_of(raw)}"
        return None, rep
    if isinstance(raw.get("command"), str):
        rep.command = raw["command"]
    if target is None:
        rep.status, rep.reason = (
            "skipped",
            f"hookwise event {event!r} has no Claude Code equivalent",
        )
        return None, rep
    htype = (
        HOOK_TYPES.get(raw.get("type", "command"))
        if isinstance(raw.get("type", "command"), str)
        else None
    )
    if htype is not None and (htype.runs_as or htype.name) in KINDS.keys() - {"command"}:
        return _kind_to_claude(raw, KINDS[htype.runs_as or htype.name], event, rep)
    if htype is None or (htype.runs_as or htype.name) != "command":
        rep.status, rep.reason = (
            "skipped",
            f"hook type {raw.get('type')!r} cannot be written for Claude Code",
        )
        return None, rep
    command = raw.get("command")
    if not isinstance(command, str) or not command.strip():
        rep.status, rep.reason = "skipped", 'a command hook needs a non-empty "command" string'
        return None, rep
    fields = rep.fields
    out: dict[str, Any] = {"type": "command"}
    fields.append(FieldNote("type", "carried"))
    cmd = command
    if _GEMINI_DIR_REF.search(cmd):
        cmd = _GEMINI_DIR_REF.sub(
            lambda mt: (
                "${CLAUDE_PROJECT_DIR}" if mt.group(1).startswith("{") else "$CLAUDE_PROJECT_DIR"
            ),
            cmd,
        )
        fields.append(
            FieldNote("command", "converted", "$GEMINI_PROJECT_DIR → $CLAUDE_PROJECT_DIR")
        )
    else:
        fields.append(FieldNote("command", "carried"))
    rep.command_to = cmd
    for var in sorted(set(_OTHER_GEMINI_VAR.findall(cmd))):
        rep.warnings.append(f"the command uses ${var}, which Claude Code does not set")
    out["command"] = cmd
    _gemini_common_to_claude(raw, out, rep, ("type", "command", "timeout", "description"))
    return out, rep


def _kind_to_claude(
    raw: dict[str, Any], kind: HookKind, event: str, rep: HookReport
) -> tuple[dict[str, Any] | None, HookReport]:
    """A hook of another kind, as that kind writes it for Claude Code (:meth:`HookKind.to_claude
    <hookwise.runners.kind.HookKind.to_claude>`); a kind Claude Code cannot run is skipped with its reason."""
    checked: dict[str, Any] = {"type": kind.name}
    rep.fields.append(FieldNote("type", "carried"))
    bad = _own_keys(raw, kind, checked, rep)
    if bad is not None:
        rep.status, rep.reason = "skipped", bad
        return None, rep
    spec = spec_from_keys(kind, checked)
    rep.target_label, rep.command = kind.display(
        HookEntry(HookEvent(event), type=kind.name, spec=spec)
    )
    try:
        out = kind.to_claude(spec)
    except ValueError as exc:
        rep.status, rep.reason = "skipped", str(exc)
        return None, rep
    rep.command_to = out.get("command", out.get("url", rep.command))
    own = tuple(row.name for row in kind.keys)
    _gemini_common_to_claude(raw, out, rep, ("type", *own, "timeout", "description"))
    return out, rep


def _gemini_common_to_claude(
    raw: dict[str, Any], out: dict[str, Any], rep: HookReport, done: tuple[str, ...]
) -> None:
    """``timeout`` (ms → s), ``description`` (→ ``statusMessage``), every other key reported as dropped."""
    fields = rep.fields
    if "timeout" in raw:
        t = raw["timeout"]
        ms, notes = HOOK_KEYS["timeout"].kind.read(
            "timeout", t
        )  # the loader's rule (core/keys.py: Timeout)
        if not any(n.severity == "error" for n in notes):
            secs: float = ms / 1000
            out["timeout"] = int(secs) if secs == int(secs) else round(secs, 3)
            fields.append(FieldNote("timeout", "converted", f"{t} ms → {out['timeout']} s"))
        else:
            fields.append(FieldNote("timeout", "dropped", notes[0].message))
    if "description" in raw:
        if isinstance(raw["description"], str) and raw["description"]:
            out["statusMessage"] = raw["description"]
            fields.append(FieldNote("description", "converted", "kept as statusMessage"))
        else:
            fields.append(FieldNote("description", "dropped", "empty or not a string"))
    handled = _convert_gemini_flags(raw, str(rep.target_event), out, rep)
    for key in raw:
        row = HOOK_KEYS.get(key)
        if key in done or key in handled:
            continue
        fields.append(
            FieldNote(
                key, "dropped", row.claude if row and row.claude else "not a Claude Code hook field"
            )
        )
    if raw.get("dialect") != "claude":
        rep.warnings.append(
            "written for hookwise/Gemini CLI input: under Claude Code it receives Claude's event, "
            "tool and parameter names (PreToolUse, Bash, ...) and Claude reads its answer "
            "(decision deny/allow and hookSpecificOutput.tool_input are not Claude fields)"
        )


def _convert_gemini_flags(
    raw: dict[str, Any], target: str, out: dict[str, Any], rep: HookReport
) -> set[str]:
    """``if``, ``async``, ``shell`` and ``failClosed`` of a hookwise hook written for Claude Code; the keys handled."""
    fields = rep.fields
    handled: set[str] = set()
    if "if" in raw:
        handled.add("if")
        err = rule_error(raw["if"])
        if err is None:
            out["if"] = raw["if"]
            fields.append(FieldNote("if", "carried"))
        else:
            fields.append(FieldNote("if", "dropped", f"does not parse: {err}"))
            rep.warnings.append(
                "its `if` rule does not parse, so hookwise skips this hook; under Claude Code it "
                "would be written without a filter, so it is left out of the Claude hook too"
            )
    is_async = raw.get("async") is True
    if "async" in raw:
        handled.add("async")
        if is_async:
            out["async"] = True
        fields.append(
            FieldNote("async", "carried" if isinstance(raw["async"], bool) else "dropped")
        )
    if "shell" in raw:
        handled.add("shell")
        if raw["shell"] in ("bash", "powershell"):
            out["shell"] = raw["shell"]
            fields.append(FieldNote("shell", "carried"))
        else:
            fields.append(FieldNote("shell", "dropped", f"unknown shell {raw['shell']!r}"))
    if "failClosed" in raw:
        handled.add("failClosed")
        if raw["failClosed"] is not True:
            fields.append(
                FieldNote("failClosed", "dropped", "false: the default (fail open) in both")
            )
        elif is_async:
            fields.append(
                FieldNote("failClosed", "dropped", "Claude Code ignores onFailure on async hooks")
            )
        elif target in CLAUDE_ON_FAILURE_IGNORED:
            fields.append(
                FieldNote(
                    "failClosed",
                    "dropped",
                    f'Claude Code ignores onFailure: "block" on {target}: '
                    "a failed hook there does not block",
                )
            )
        else:
            out["onFailure"] = "block"
            fields.append(
                FieldNote(
                    "failClosed",
                    "converted",
                    'onFailure: "block" (honoured by Claude Code 2.1.295 '
                    "and later; older versions ignore it and fail open)",
                )
            )
    return handled


# --------------------------------------------------------------------------- planning a migration
