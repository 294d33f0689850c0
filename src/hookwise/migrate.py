"""Translating hook settings between Claude Code's format and hookwise's (Gemini CLI's).

Pure functions over parsed documents; the only I/O is :func:`resolve_plugin_root`,
which looks at the file system to find where ``${CLAUDE_PLUGIN_ROOT}`` points.
The command line (:mod:`hookwise.cli.migrate`) reads and writes the files, and
native loading of ``.claude/`` settings (:mod:`hookwise.claude`) reuses the
same per-hook conversion, so both agree on every event, matcher and field.

What is translated (Claude Code → hookwise):

- events: ``PreToolUse`` → ``BeforeTool``, ``PostToolUse``/``PostToolUseFailure`` → ``AfterTool``,
  ``UserPromptSubmit`` → ``BeforeAgent``, ``Stop``/``SubagentStop`` → ``AfterAgent``,
  ``PreCompact`` → ``PreCompress``; ``SessionStart``, ``SessionEnd`` and ``Notification`` keep
  their names. Every other Claude event is reported, never written.
- matchers: Claude's exact names (``Bash``, ``Edit|Write``) become anchored regexes over
  Gemini CLI's tool names (``^(replace|write_file)$``); inside regexes tool names are
  replaced token by token and ``mcp__server__tool`` becomes ``mcp_server_tool``.
- handlers: ``timeout`` seconds → milliseconds (Claude's 600 s default made explicit),
  ``$CLAUDE_PROJECT_DIR`` → ``$GEMINI_PROJECT_DIR``, ``${CLAUDE_PLUGIN_ROOT}`` → the
  directory it resolves to, exec form (``args``) → a quoted shell command,
  ``statusMessage`` → ``description``; everything else is listed as dropped.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import jsonc
from .events import CLAUDE_EVENT_NAMES
from .jsonc import kind_of

# --------------------------------------------------------------------------- tables

#: Claude Code event -> hookwise event (events.CLAUDE_EVENT_NAMES is the single source)
CLAUDE_TO_GEMINI_EVENT: dict[str, str] = dict(CLAUDE_EVENT_NAMES)

#: hookwise event -> Claude Code event (the reverse direction; model events have none)
GEMINI_TO_CLAUDE_EVENT: dict[str, str] = {
    "BeforeTool": "PreToolUse",
    "AfterTool": "PostToolUse",
    "BeforeAgent": "UserPromptSubmit",
    "AfterAgent": "Stop",
    "SessionStart": "SessionStart",
    "SessionEnd": "SessionEnd",
    "PreCompress": "PreCompact",
    "Notification": "Notification",
}

#: Claude Code events that exist but have no hookwise equivalent (reported, not written)
CLAUDE_EVENTS_WITHOUT_EQUIVALENT: tuple[str, ...] = (
    "Setup", "UserPromptExpansion", "PermissionRequest", "PermissionDenied", "PostToolBatch",
    "MessageDisplay", "SubagentStart", "TaskCreated", "TaskCompleted", "StopFailure", "TeammateIdle",
    "InstructionsLoaded", "ConfigChange", "CwdChanged", "DirectoryAdded", "FileChanged",
    "WorktreeCreate", "WorktreeRemove", "PostCompact", "Elicitation", "ElicitationResult",
)

#: what a migrated hook on these Claude events should know (printed once per hook)
EVENT_NOTES: dict[str, str] = {
    "PostToolUseFailure": "AfterTool fires after every tool call; the hook's stdin says "
                          "hook_event_name PostToolUseFailure (with an `error` field) only when the tool failed",
    "PostToolUse": "AfterTool also fires after failed tool calls; the hook's stdin then says "
                   "hook_event_name PostToolUseFailure",
    "SubagentStop": "hookwise has no subagents: the hook runs when the main agent finishes (AfterAgent), "
                    "and `decision: block` there makes the main agent continue",
}

CLAUDE_TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure"})
GEMINI_TOOL_EVENTS = frozenset({"BeforeTool", "AfterTool"})

#: Claude Code tool -> Gemini CLI tool (None: Gemini CLI has no such tool)
CLAUDE_TO_GEMINI_TOOL: dict[str, str | None] = {
    "Bash": "run_shell_command",
    "PowerShell": "run_shell_command",
    "Read": "read_file",
    "Write": "write_file",
    "Edit": "replace",
    "MultiEdit": "replace",
    "Glob": "glob",
    "Grep": "grep_search",
    "LS": "list_directory",
    "WebFetch": "web_fetch",
    "WebSearch": "google_web_search",
    "TodoWrite": "write_todos",
    "Task": None,
    "Agent": None,
    "NotebookEdit": None,
    "NotebookRead": None,
    "BashOutput": None,
    "KillShell": None,
    "KillBash": None,
    "ExitPlanMode": None,
    "EnterPlanMode": None,
    "SlashCommand": None,
    "Skill": None,
    "AskUserQuestion": None,
    "TaskCreate": None,
    "TaskUpdate": None,
    "TaskList": None,
    "EndConversation": None,
}

#: Gemini CLI tool -> Claude Code tool (older Gemini names included)
GEMINI_TO_CLAUDE_TOOL: dict[str, str] = {
    "run_shell_command": "Bash",
    "read_file": "Read",
    "write_file": "Write",
    "replace": "Edit",
    "glob": "Glob",
    "grep_search": "Grep",
    "search_file_content": "Grep",
    "grep": "Grep",
    "list_directory": "LS",
    "ls": "LS",
    "web_fetch": "WebFetch",
    "google_web_search": "WebSearch",
    "write_todos": "TodoWrite",
}

#: Gemini CLI's built-in tool names (to check that a translated regex matches something)
GEMINI_BUILTIN_TOOLS: tuple[str, ...] = (
    "run_shell_command", "read_file", "write_file", "replace", "glob", "grep_search", "list_directory",
    "web_fetch", "google_web_search", "write_todos", "read_many_files", "save_memory",
)

#: Gemini tool -> {Gemini parameter: Claude parameter} where the names differ.
#: Several Gemini spellings are listed because Gemini CLI renamed parameters over time.
PARAMS_TO_CLAUDE: dict[str, dict[str, str]] = {
    "read_file": {"absolute_path": "file_path", "path": "file_path"},
    "write_file": {"absolute_path": "file_path", "path": "file_path"},
    "replace": {"absolute_path": "file_path", "path": "file_path", "allow_multiple": "replace_all"},
    "glob": {"dir_path": "path", "directory": "path"},
    "grep_search": {"dir_path": "path", "directory": "path", "include": "glob"},
    "search_file_content": {"dir_path": "path", "directory": "path", "include": "glob"},
    "list_directory": {"dir_path": "path", "directory": "path"},
}

#: Gemini tool -> {Claude parameter: Gemini spellings, preferred first}
PARAMS_TO_GEMINI: dict[str, dict[str, tuple[str, ...]]] = {
    "read_file": {"file_path": ("file_path", "absolute_path", "path")},
    "write_file": {"file_path": ("file_path", "absolute_path", "path")},
    "replace": {"file_path": ("file_path", "absolute_path", "path"), "replace_all": ("allow_multiple",)},
    "glob": {"path": ("dir_path", "path", "directory")},
    "grep_search": {"path": ("dir_path", "path", "directory"), "glob": ("include",)},
    "search_file_content": {"path": ("path", "dir_path", "directory"), "glob": ("include",)},
    "list_directory": {"path": ("dir_path", "path", "directory")},
}

#: lifecycle matcher values: Claude value -> hookwise values ([] = no equivalent)
LIFECYCLE_VALUES: dict[str, dict[str, list[str]]] = {
    "SessionStart": {"startup": ["startup"], "resume": ["resume"], "clear": ["clear"], "compact": []},
    "SessionEnd": {"clear": ["clear"], "logout": ["logout"], "prompt_input_exit": ["prompt_input_exit", "exit"],
                   "other": ["other"], "resume": [], "bypass_permissions_disabled": []},
    "PreCompact": {"manual": ["manual"], "auto": ["auto"]},
    "Notification": {"permission_prompt": ["ToolPermission"], "idle_prompt": [], "auth_success": [],
                     "elicitation_dialog": [], "elicitation_complete": [], "elicitation_response": []},
}

#: hookwise lifecycle value -> Claude value (reverse direction and Claude-shaped stdin)
GEMINI_LIFECYCLE_TO_CLAUDE: dict[str, dict[str, str]] = {
    "SessionEnd": {"exit": "prompt_input_exit"},
    "Notification": {"ToolPermission": "permission_prompt"},
}

#: Claude Code's default command-hook timeout (seconds)
CLAUDE_DEFAULT_TIMEOUT_S = 600

#: hook fields a migration carries (others are reported as dropped)
_CARRIED_HOOK_FIELDS = frozenset({"type", "command", "timeout", "args", "statusMessage", "shell", "name", "env"})

_DROP_REASONS: dict[str, str] = {
    "async": "hookwise runs every hook synchronously; the hook now delays the agent until it finishes",
    "asyncRewake": "hookwise has no background hooks to wake the agent",
    "if": "hookwise has no argument filter; the hook now runs for every call its matcher selects",
    "once": "hookwise has no run-once hooks; the hook now runs every time its event fires",
    "continueOnBlock": "only meaningful for prompt/agent handlers",
    "model": "only meaningful for prompt/agent handlers",
}

_SIMPLE_MATCHER = re.compile(r"^[A-Za-z0-9_\- ,|]+$")
_WORD = re.compile(r"[A-Za-z0-9_]+")
_PROJECT_DIR_REF = re.compile(r"\$(\{CLAUDE_PROJECT_DIR\}|CLAUDE_PROJECT_DIR(?![A-Za-z0-9_]))")
_GEMINI_DIR_REF = re.compile(r"\$(\{GEMINI_PROJECT_DIR\}|GEMINI_PROJECT_DIR(?![A-Za-z0-9_]))")
_PLUGIN_ROOT_REF = re.compile(r"\$(?:\{CLAUDE_PLUGIN_ROOT\}|CLAUDE_PLUGIN_ROOT(?![A-Za-z0-9_]))")
_PLUGIN_ROOT_PATH = re.compile(
    r"\$(?:\{CLAUDE_PLUGIN_ROOT\}|CLAUDE_PLUGIN_ROOT(?![A-Za-z0-9_]))([^\s\"'`;|&<>()$]*)")
_OTHER_CLAUDE_VAR = re.compile(r"\$\{?(CLAUDE_[A-Z0-9_]+)")
_OTHER_GEMINI_VAR = re.compile(r"\$\{?(GEMINI_(?:CWD|SESSION_ID|PLANS_DIR))\b")
_SAFE_WORD = re.compile(r"^[A-Za-z0-9_./:=@%+,-]+$")


# --------------------------------------------------------------------------- tool names


def mcp_to_gemini(name: str) -> str:
    """``mcp__server__tool`` → ``mcp_server_tool`` (also partial names such as ``mcp__server__``)."""
    return name.replace("__", "_") if name.startswith("mcp__") else name


def mcp_to_claude(name: str, server: str | None = None) -> str:
    """``mcp_server_tool`` → ``mcp__server__tool``.

    Gemini joins server and tool with one underscore, so the split is a guess
    (first word = server) unless ``server`` is known (``mcp_context.server_name``).
    """
    if not name.startswith("mcp_") or name.startswith("mcp__"):
        return name
    rest = name[4:]
    if server and rest.startswith(server + "_"):
        return f"mcp__{server}__{rest[len(server) + 1:]}"
    if "_" not in rest:
        return f"mcp__{rest}" if rest else "mcp__"
    srv, tool = rest.split("_", 1)
    return f"mcp__{srv}__{tool}"


def tool_to_claude(name: str, mcp_context: Mapping[str, Any] | None = None) -> str:
    """The Claude Code name of a Gemini CLI tool (unknown names are returned unchanged)."""
    if name in GEMINI_TO_CLAUDE_TOOL:
        return GEMINI_TO_CLAUDE_TOOL[name]
    if name.startswith("mcp_"):
        if mcp_context:
            server, tool = mcp_context.get("server_name"), mcp_context.get("tool_name")
            if isinstance(server, str) and isinstance(tool, str) and server and tool:
                return f"mcp__{server}__{tool}"
        return mcp_to_claude(name)
    return name


def params_to_claude(tool: str, tool_input: Mapping[str, Any]) -> dict[str, Any]:
    """``tool_input`` with Claude Code's parameter names where they differ (copy)."""
    renames = PARAMS_TO_CLAUDE.get(tool)
    if not renames:
        return dict(tool_input)
    out: dict[str, Any] = {}
    for k, v in tool_input.items():
        ck = renames.get(k, k)
        if ck in out and ck != k:
            continue  # a Claude-named key already present wins
        out[ck] = v
    return out


def params_to_gemini(tool: str, updated: Mapping[str, Any], original: Mapping[str, Any] | None) -> dict[str, Any]:
    """Claude-named ``updatedInput`` → the parameter names the Gemini tool uses.

    The spelling present in the tool's original input is preferred, else the
    current Gemini CLI spelling.
    """
    table = PARAMS_TO_GEMINI.get(tool)
    if not table:
        return dict(updated)
    out: dict[str, Any] = {}
    for k, v in updated.items():
        spellings = table.get(k)
        if spellings is None:
            out[k] = v
            continue
        chosen = next((s for s in spellings if original is not None and s in original), spellings[0])
        out[chosen] = v
    return out


# --------------------------------------------------------------------------- matchers


@dataclass
class MatcherResult:
    """A translated matcher. ``value`` None means "no matcher" (match everything).

    ``matches_nothing`` is set when every name in the matcher lacks an
    equivalent, so the hook could never fire and is not migrated.
    """

    value: str | None
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    matches_nothing: bool = False


def _split_simple(m: str) -> list[str]:
    return [p.strip() for p in re.split(r"[|,]", m) if p.strip()]


def _anchored(names: Sequence[str]) -> str:
    esc = [re.escape(n) for n in names]
    return f"^{esc[0]}$" if len(esc) == 1 else "^(" + "|".join(esc) + ")$"


def _regex_tokens(m: str, fn: Callable[[str], str]) -> str:
    """Apply ``fn`` to every word token of regex ``m`` outside escapes and character classes."""
    out: list[str] = []
    i, n = 0, len(m)
    in_class = False
    while i < n:
        c = m[i]
        if c == "\\":
            out.append(m[i : i + 2])
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
            out.append(c)
            i += 1
            continue
        if c == "[":
            in_class = True
            out.append(c)
            i += 1
            continue
        w = _WORD.match(m, i)
        if w:
            out.append(fn(w.group()))
            i = w.end()
            continue
        out.append(c)
        i += 1
    return "".join(out)


def translate_matcher_from_claude(claude_event: str, matcher: Any) -> MatcherResult:
    """Translate a Claude Code matcher for ``claude_event`` into a hookwise matcher."""
    if matcher is None:
        return MatcherResult(None)
    if not isinstance(matcher, str):
        return MatcherResult(None, warnings=[f"matcher must be a string, got {kind_of(matcher)}; ignored "
                                             "(matches everything)"])
    m = matcher.strip()
    if m in ("", "*"):
        return MatcherResult(matcher)
    if claude_event in CLAUDE_TOOL_EVENTS:
        return _tool_matcher_from_claude(m)
    if claude_event in LIFECYCLE_VALUES:
        return _lifecycle_matcher_from_claude(claude_event, m)
    return MatcherResult(None, [f"matcher {matcher!r} dropped: {claude_event} hooks have no matcher "
                                "(neither Claude Code nor hookwise tests it)"])


def _tool_matcher_from_claude(m: str) -> MatcherResult:
    notes: list[str] = []
    warns: list[str] = []
    if _SIMPLE_MATCHER.match(m):
        names: list[str] = []
        for name in _split_simple(m):
            if name.startswith("mcp__"):
                if name.count("__") < 2:
                    warns.append(f"{name!r} names a whole MCP server but Claude Code compares it exactly, so it "
                                 f"matches no tool there; left out (write {name + '__.*'!r} to match the "
                                 "server's tools)")
                    continue
                g = mcp_to_gemini(name)
                if g not in names:
                    names.append(g)
            elif name in CLAUDE_TO_GEMINI_TOOL:
                gt = CLAUDE_TO_GEMINI_TOOL[name]
                if gt is None:
                    warns.append(f"tool {name!r} has no Gemini CLI equivalent; left out of the matcher")
                elif gt not in names:
                    names.append(gt)
            else:
                notes.append(f"tool {name!r} is not a Claude Code built-in tool; kept unchanged")
                if name not in names:
                    names.append(name)
        if not names:
            return MatcherResult(None, notes, warns, matches_nothing=True)
        return MatcherResult(_anchored(names), notes, warns)

    def tok(word: str) -> str:
        if word.startswith("mcp__") or ("__" in word and "mcp__" in m):
            return word.replace("__", "_")
        if word in CLAUDE_TO_GEMINI_TOOL:
            gt = CLAUDE_TO_GEMINI_TOOL[word]
            if gt is None:
                warns.append(f"tool {word!r} has no Gemini CLI equivalent; kept in the regex, where it matches nothing")
                return word
            return gt
        return word

    value = _regex_tokens(m, tok)
    try:
        rx = re.compile(value)
    except re.error as exc:
        warns.append(f"matcher {m!r} is not a valid regular expression ({exc}); hookwise compares it exactly")
        return MatcherResult(value, notes, warns)
    if "mcp" not in value and not any(rx.search(t) for t in GEMINI_BUILTIN_TOOLS):
        warns.append(f"matcher {value!r} matches none of Gemini CLI's built-in tools")
    return MatcherResult(value, notes, warns)


def _lifecycle_matcher_from_claude(claude_event: str, m: str) -> MatcherResult:
    table = LIFECYCLE_VALUES[claude_event]
    if not _SIMPLE_MATCHER.match(m):
        return MatcherResult(m, warnings=[f"matcher {m!r} is a regex; hookwise compares {claude_event} matchers "
                                          f"exactly (values: {', '.join(sorted(table))})"])
    notes: list[str] = []
    warns: list[str] = []
    values: list[str] = []
    for name in _split_simple(m):
        if name in table:
            mapped = table[name]
            if not mapped:
                warns.append(f"{claude_event} value {name!r} does not occur in hookwise; left out of the matcher")
            for v in mapped:
                if v not in values:
                    values.append(v)
        else:
            notes.append(f"{claude_event} value {name!r} is unknown; kept unchanged")
            if name not in values:
                values.append(name)
    if not values:
        return MatcherResult(None, notes, warns, matches_nothing=True)
    return MatcherResult("|".join(values), notes, warns)


_ANCHORED_LIST = re.compile(r"^\^(?:\((?P<many>[A-Za-z0-9_|\\-]+)\)|(?P<one>[A-Za-z0-9_\\-]+))\$$")


def translate_matcher_to_claude(event: str, matcher: Any) -> MatcherResult:
    """Translate a hookwise matcher into a Claude Code matcher for the corresponding event."""
    if matcher is None:
        return MatcherResult(None)
    if not isinstance(matcher, str):
        return MatcherResult(None, warnings=[f"matcher must be a string, got {kind_of(matcher)}; ignored"])
    m = matcher.strip()
    if m in ("", "*"):
        return MatcherResult(matcher)
    notes: list[str] = []
    if event in GEMINI_TOOL_EVENTS:
        a = _ANCHORED_LIST.match(m)
        plain = re.fullmatch(r"[A-Za-z0-9_|]+", m)
        if a or plain:
            raw = (a.group("many") or a.group("one")) if a else m
            names = [p.replace("\\", "") for p in raw.split("|") if p]
            out: list[str] = []
            for name in names:
                if name.startswith("mcp_"):
                    c = mcp_to_claude(name)
                    if not name.startswith("mcp__") and name.count("_") > 2:
                        notes.append(f"{name!r} split as server {c.split('__')[1]!r}, tool {c.split('__', 2)[2]!r}; "
                                     "check it")
                else:
                    c = GEMINI_TO_CLAUDE_TOOL.get(name, name)
                    if name not in GEMINI_TO_CLAUDE_TOOL:
                        notes.append(f"tool {name!r} has no Claude Code equivalent; kept unchanged")
                if c not in out:
                    out.append(c)
            return MatcherResult("|".join(out), notes)

        def tok(word: str) -> str:
            if word.startswith("mcp_") and not word.startswith("mcp__"):
                return mcp_to_claude(word)
            return GEMINI_TO_CLAUDE_TOOL.get(word, word)

        return MatcherResult(_regex_tokens(m, tok), notes)
    claude_event = GEMINI_TO_CLAUDE_EVENT.get(event, event)
    table = GEMINI_LIFECYCLE_TO_CLAUDE.get(event, {})
    if claude_event in LIFECYCLE_VALUES:
        vals: list[str] = []
        for v in m.split("|"):
            c = table.get(v.strip(), v.strip())
            if c and c not in vals:
                vals.append(c)
        return MatcherResult("|".join(vals), notes)
    return MatcherResult(None, [f"matcher {m!r} dropped: {claude_event} hooks have no matcher"])


def normalize_matcher(m: Any) -> str:
    """Matchers that mean "everything" compare equal (for duplicate detection)."""
    if not isinstance(m, str) or m.strip() in ("", "*"):
        return ""
    return m.strip()


# --------------------------------------------------------------------------- commands


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
        inner = "${GEMINI_PROJECT_DIR}" if rel == "." else "${GEMINI_PROJECT_DIR}/" + rel.replace(os.sep, "/")
        return [PluginRoot(settings_dir, inner), PluginRoot(proj, "${GEMINI_PROJECT_DIR}")]
    return [PluginRoot(settings_dir, None), PluginRoot(os.path.dirname(settings_dir), None)]


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


def exec_form_to_shell(command: str, args: Sequence[str]) -> str:
    """Claude's exec form (``command`` + ``args``, no shell) as one shell command line.

    Each word is quoted so bash passes it unchanged; ``${CLAUDE_PROJECT_DIR}``
    and ``${CLAUDE_PLUGIN_ROOT}`` placeholders stay variable references inside
    double quotes so they are expanded (and rewritten by the migration).
    """
    words = [command, *args]
    out = []
    placeholder = re.compile(r"\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT)\}|\$(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT)"
                             r"(?![A-Za-z0-9_])")
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
    command: str | None = None
    command_to: str | None = None
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
            "file": self.file, "pointer": self.pointer, "line": self.line, "column": self.column,
            "sourceEvent": self.source_event, "targetEvent": self.target_event, "status": self.status,
            "reason": self.reason, "command": self.command, "commandTo": self.command_to,
            "matcherFrom": self.matcher_from, "matcherTo": self.matcher_to,
            "fields": [{**f.to_json(), "pointer": f"{self.pointer}/{jsonc.escape_pointer_token(f.field)}"}
                       for f in self.fields],
            "notes": list(self.notes), "warnings": list(self.warnings),
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
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds <= 0 or seconds != seconds:
        return None
    return int(round(seconds * 1000))


def convert_claude_hook(raw: Any, *, claude_event: str, matcher: MatcherResult, matcher_raw: Any,
                        file: str, text: str, pointer: str, plugin_roots: Sequence[PluginRoot],
                        native: bool = False) -> ConvertedHook:
    """Translate one Claude hook object (``hooks.<event>[i].hooks[j]``).

    ``native`` selects native loading: ``${CLAUDE_PLUGIN_ROOT}`` is resolved to
    an absolute path and also exported in ``env``; ``$CLAUDE_PROJECT_DIR`` is
    left for the engine to expand. Otherwise (migration) the command is
    rewritten with ``$GEMINI_PROJECT_DIR``.
    """
    line, col = jsonc.locate(text, pointer) if text else (None, None)
    target = CLAUDE_TO_GEMINI_EVENT.get(claude_event)
    rep = HookReport(file=file, pointer=pointer, line=line, column=col, source_event=claude_event,
                     target_event=target, status="migrated",
                     matcher_from=matcher_raw if isinstance(matcher_raw, str) else None,
                     matcher_to=matcher.value)
    rep.notes.extend(matcher.notes)
    rep.warnings.extend(matcher.warnings)
    conv = ConvertedHook(claude_event=claude_event, event=target, matcher=matcher.value, hook=None, report=rep)

    def skip(reason: str) -> ConvertedHook:
        rep.status = "skipped"
        rep.reason = reason
        return conv

    if not isinstance(raw, dict):
        return skip(f"a hook must be an object, got {kind_of(raw)}")
    if isinstance(raw.get("command"), str):
        rep.command = raw["command"]
    if target is None:
        return skip(f"Claude Code event {claude_event!r} has no hookwise equivalent")
    htype = raw.get("type", "command")
    if htype != "command":
        what = {"http": "HTTP hooks", "prompt": "prompt (LLM) hooks", "agent": "agent (LLM) hooks",
                "mcp_tool": "MCP-tool hooks"}.get(str(htype), f"hook type {htype!r}")
        return skip(f"{what} cannot run in hookwise (only command hooks)")
    if matcher.matches_nothing:
        rep.warnings.clear()
        return skip("its matcher can never match, so the hook could never fire: " + "; ".join(matcher.warnings))
    command = raw.get("command")
    if not isinstance(command, str) or not command.strip():
        return skip('a command hook needs a non-empty "command" string')

    fields = rep.fields
    fields.append(FieldNote("type", "carried"))
    hook: dict[str, Any] = {"type": "command"}
    cmd = command
    args = raw.get("args")
    if "args" in raw:
        if isinstance(args, list) and all(isinstance(a, str) for a in args):
            cmd = exec_form_to_shell(command, args)
            fields.append(FieldNote("args", "converted", "exec form written as one quoted shell command"))
        else:
            fields.append(FieldNote("args", "dropped", f"must be an array of strings, got {kind_of(args)}"))

    shell = raw.get("shell")
    if "shell" in raw:
        if shell in ("bash", "sh"):
            fields.append(FieldNote("shell", "carried", "hookwise always runs commands with bash"))
        elif shell in ("powershell", "pwsh"):
            cmd = "pwsh -NoProfile -Command " + _single_quote(cmd)
            fields.append(FieldNote("shell", "converted", "command wrapped in `pwsh -NoProfile -Command` "
                                                          "(needs PowerShell 7 on PATH)"))
        else:
            fields.append(FieldNote("shell", "dropped", f"unknown shell {shell!r}; bash is used"))

    # ${CLAUDE_PLUGIN_ROOT}
    if _PLUGIN_ROOT_REF.search(cmd):
        root, found = resolve_plugin_root(cmd, plugin_roots)
        scripts = plugin_root_paths(cmd, root.path)
        reads_env = script_reads_plugin_root(scripts)
        if native:
            from .expand import expand_command

            cmd = expand_command(_PLUGIN_ROOT_REF.sub("${CLAUDE_PLUGIN_ROOT}", cmd), {"CLAUDE_PLUGIN_ROOT": root.path})
            conv.env["CLAUDE_PLUGIN_ROOT"] = root.path
            fields.append(FieldNote("command", "converted", f"${{CLAUDE_PLUGIN_ROOT}} → {root.path}"))
        else:
            if root.expr is not None:
                cmd = _PLUGIN_ROOT_REF.sub(lambda _m: root.expr or "", cmd)
                shown = root.expr
            else:
                from .expand import expand_command

                cmd = expand_command(_PLUGIN_ROOT_REF.sub("${CLAUDE_PLUGIN_ROOT}", cmd),
                                     {"CLAUDE_PLUGIN_ROOT": root.path})
                shown = root.path
            detail = f"${{CLAUDE_PLUGIN_ROOT}} → {shown}"
            if reads_env:
                value = f'"{root.expr}"' if root.expr is not None else _single_quote(root.path)
                cmd = f"export CLAUDE_PLUGIN_ROOT={value}; {cmd}"
                detail += " (and exported, because the script reads CLAUDE_PLUGIN_ROOT itself)"
            fields.append(FieldNote("command", "converted", detail))
        if not found:
            rep.warnings.append(f"${{CLAUDE_PLUGIN_ROOT}} paths of this command exist neither under "
                             f"{plugin_roots[0].path} nor under {plugin_roots[-1].path}; the command will fail "
                             "(exit 127, reported as not-run) until the plugin's files are there")
    if not native and _PROJECT_DIR_REF.search(cmd):
        cmd = _PROJECT_DIR_REF.sub(lambda mt: "${GEMINI_PROJECT_DIR}" if mt.group(1).startswith("{")
                                   else "$GEMINI_PROJECT_DIR", cmd)
        fields.append(FieldNote("command", "converted", "$CLAUDE_PROJECT_DIR → $GEMINI_PROJECT_DIR"))
    for var in sorted(set(_OTHER_CLAUDE_VAR.findall(cmd)) - {"CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT"}):
        rep.warnings.append(f"the command uses ${var}, which hookwise does not set")
    if not any(f.field == "command" for f in fields):
        fields.append(FieldNote("command", "carried"))
    hook["command"] = cmd
    rep.command_to = cmd

    timeout = raw.get("timeout")
    if "timeout" in raw:
        ms = _timeout_ms(timeout)
        if ms is None:
            hook["timeout"] = CLAUDE_DEFAULT_TIMEOUT_S * 1000
            fields.append(FieldNote("timeout", "converted", f"invalid value {timeout!r}; Claude Code's default "
                                                            f"{CLAUDE_DEFAULT_TIMEOUT_S} s used"))
        else:
            hook["timeout"] = ms
            fields.append(FieldNote("timeout", "converted", f"{timeout} s → {ms} ms"))
    else:
        hook["timeout"] = CLAUDE_DEFAULT_TIMEOUT_S * 1000
        fields.append(FieldNote("timeout", "added", f"not set: Claude Code's default {CLAUDE_DEFAULT_TIMEOUT_S} s "
                                                    f"kept as {CLAUDE_DEFAULT_TIMEOUT_S * 1000} ms"))

    name = raw.get("name")
    if "name" in raw:
        if isinstance(name, str) and name:
            hook["name"] = name
            fields.append(FieldNote("name", "carried"))
        else:
            fields.append(FieldNote("name", "dropped", f"must be a non-empty string, got {kind_of(name)}"))

    status = raw.get("statusMessage")
    if "statusMessage" in raw:
        if isinstance(status, str) and status:
            hook["description"] = status
            fields.append(FieldNote("statusMessage", "converted", "kept as description (hookwise shows no spinner)"))
        else:
            fields.append(FieldNote("statusMessage", "dropped", f"must be a string, got {kind_of(status)}"))

    env_raw = raw.get("env")
    if "env" in raw:
        if isinstance(env_raw, dict) and all(isinstance(v, str) for v in env_raw.values()):
            hook["env"] = dict(env_raw)
            fields.append(FieldNote("env", "carried"))
        else:
            fields.append(FieldNote("env", "dropped", "must be an object of strings"))
    if conv.env and native:
        hook.setdefault("env", {}).update(conv.env)

    for key in raw:
        if key in _CARRIED_HOOK_FIELDS:
            continue
        fields.append(FieldNote(key, "dropped", _DROP_REASONS.get(key, "not a hookwise hook field")))

    hook["dialect"] = "claude"
    fields.append(FieldNote("dialect", "added", '"claude": the hook keeps receiving Claude-shaped input'))
    if claude_event in EVENT_NOTES:
        rep.notes.append(EVENT_NOTES[claude_event])
    conv.hook = hook
    return conv


def convert_claude_document(doc: Any, *, file: str, text: str, plugin_roots: Sequence[PluginRoot],
                            native: bool = False) -> tuple[list[ConvertedHook], list[str]]:
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
        at("/disableAllHooks", "disableAllHooks is true: Claude Code runs none of these hooks "
                               "(hookwise's equivalent is hooksConfig.enabled: false)")
    hooks = doc.get("hooks")
    if hooks is None:
        return out, findings
    if not isinstance(hooks, dict):
        at("/hooks", f'"hooks" must be an object keyed by event name, got {kind_of(hooks)}; ignored')
        return out, findings
    for event, defs in hooks.items():
        eptr = jsonc.pointer("hooks", event)
        if event not in CLAUDE_TO_GEMINI_EVENT:
            if event in CLAUDE_EVENTS_WITHOUT_EQUIVALENT:
                why = f"Claude Code event {event!r} has no hookwise equivalent"
            elif event in GEMINI_TO_CLAUDE_EVENT or event in ("BeforeModel", "AfterModel", "BeforeToolSelection"):
                why = f"{event!r} is a hookwise event name, not a Claude Code one"
            else:
                why = f"unknown Claude Code event {event!r}"
            n = _count_hooks(defs)
            if n == 0:
                at(eptr, why + "; nothing to migrate")
            # hooks of such events are reported one by one below (status skipped)
        if not isinstance(defs, list):
            at(eptr, f"the value of an event must be an array of definitions, got {kind_of(defs)}; skipped")
            continue
        for i, d in enumerate(defs):
            dptr = f"{eptr}/{i}"
            if not isinstance(d, dict):
                at(dptr, f"a definition must be an object, got {kind_of(d)}; skipped")
                continue
            mraw = d.get("matcher")
            mres = translate_matcher_from_claude(event, mraw) if event in CLAUDE_TO_GEMINI_EVENT else MatcherResult(
                mraw if isinstance(mraw, str) else None)
            for key in d:
                if key not in ("matcher", "hooks", "sequential"):
                    at(f"{dptr}/{jsonc.escape_pointer_token(key)}",
                       f"definition field {key!r} is not a hookwise field; dropped")
            hl = d.get("hooks")
            if not isinstance(hl, list):
                at(dptr + ("/hooks" if "hooks" in d else ""), 'a definition needs a "hooks" array; skipped')
                continue
            for j, h in enumerate(hl):
                c = convert_claude_hook(h, claude_event=event, matcher=mres, matcher_raw=mraw, file=file,
                                        text=text, pointer=f"{dptr}/hooks/{j}", plugin_roots=plugin_roots,
                                        native=native)
                if event not in CLAUDE_TO_GEMINI_EVENT and c.report.status == "skipped":
                    if event in CLAUDE_EVENTS_WITHOUT_EQUIVALENT:
                        c.report.reason = f"Claude Code event {event!r} has no hookwise equivalent"
                    elif event in GEMINI_TO_CLAUDE_EVENT or event in ("BeforeModel", "AfterModel",
                                                                      "BeforeToolSelection"):
                        c.report.reason = f"{event!r} is a hookwise event name, not a Claude Code one"
                    else:
                        c.report.reason = f"unknown Claude Code event {event!r}"
                c.definition_index = i
                c.sequential = d.get("sequential") is True
                out.append(c)
    return out, findings


def _count_hooks(defs: Any) -> int:
    if not isinstance(defs, list):
        return 0
    return sum(len(d["hooks"]) for d in defs if isinstance(d, dict) and isinstance(d.get("hooks"), list))


# --------------------------------------------------------------------------- one hook, hookwise -> Claude


def convert_gemini_hook(raw: Any, *, event: str, matcher: MatcherResult, matcher_raw: Any, file: str, text: str,
                        pointer: str) -> tuple[dict[str, Any] | None, HookReport]:
    """Translate one hookwise hook object into a Claude Code hook object (or None + reason)."""
    line, col = jsonc.locate(text, pointer) if text else (None, None)
    target = GEMINI_TO_CLAUDE_EVENT.get(event)
    rep = HookReport(file=file, pointer=pointer, line=line, column=col, source_event=event, target_event=target,
                     status="migrated", matcher_from=matcher_raw if isinstance(matcher_raw, str) else None,
                     matcher_to=matcher.value)
    rep.notes.extend(matcher.notes)
    rep.warnings.extend(matcher.warnings)
    if not isinstance(raw, dict):
        rep.status, rep.reason = "skipped", f"a hook must be an object, got {kind_of(raw)}"
        return None, rep
    if isinstance(raw.get("command"), str):
        rep.command = raw["command"]
    if target is None:
        rep.status, rep.reason = "skipped", f"hookwise event {event!r} has no Claude Code equivalent"
        return None, rep
    if raw.get("type", "command") not in ("command", "plugin"):
        rep.status, rep.reason = "skipped", f"hook type {raw.get('type')!r} cannot be written for Claude Code"
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
        cmd = _GEMINI_DIR_REF.sub(lambda mt: "${CLAUDE_PROJECT_DIR}" if mt.group(1).startswith("{")
                                  else "$CLAUDE_PROJECT_DIR", cmd)
        fields.append(FieldNote("command", "converted", "$GEMINI_PROJECT_DIR → $CLAUDE_PROJECT_DIR"))
    else:
        fields.append(FieldNote("command", "carried"))
    rep.command_to = cmd
    for var in sorted(set(_OTHER_GEMINI_VAR.findall(cmd))):
        rep.warnings.append(f"the command uses ${var}, which Claude Code does not set")
    out["command"] = cmd
    if "timeout" in raw:
        t = raw.get("timeout")
        if isinstance(t, (int, float)) and not isinstance(t, bool) and t > 0:
            secs: float = t / 1000
            out["timeout"] = int(secs) if secs == int(secs) else round(secs, 3)
            fields.append(FieldNote("timeout", "converted", f"{t} ms → {out['timeout']} s"))
        else:
            fields.append(FieldNote("timeout", "dropped", f"must be a positive number, got {t!r}"))
    if "description" in raw:
        if isinstance(raw["description"], str) and raw["description"]:
            out["statusMessage"] = raw["description"]
            fields.append(FieldNote("description", "converted", "kept as statusMessage"))
        else:
            fields.append(FieldNote("description", "dropped", "empty or not a string"))
    reasons = {
        "name": "Claude Code hooks have no name",
        "env": "Claude Code hooks have no env; set the variables in the command or the script",
        "failClosed": "Claude Code has no fail-closed hooks: a failed, missing or timed-out hook does not block",
        "dialect": "",
        "persistent": "not a Claude Code field",
        "source": "not a Claude Code field",
    }
    for key in raw:
        if key in ("type", "command", "timeout", "description"):
            continue
        if key == "dialect":
            fields.append(FieldNote("dialect", "dropped", "Claude Code hooks always get Claude-shaped input"))
            continue
        fields.append(FieldNote(key, "dropped", reasons.get(key, "not a Claude Code hook field")))
    if raw.get("dialect") != "claude":
        rep.warnings.append("written for hookwise/Gemini CLI input: under Claude Code it receives Claude's event, "
                         "tool and parameter names (PreToolUse, Bash, ...) and Claude reads its answer "
                         "(decision deny/allow and hookSpecificOutput.tool_input are not Claude fields)")
    return out, rep


# --------------------------------------------------------------------------- planning a migration


@dataclass
class Addition:
    """One definition to append to ``hooks.<event>`` of the target file."""

    event: str
    definition: dict[str, Any]


@dataclass
class MigrationPlan:
    """Everything a migration would do: additions to the target file, plus the full report."""

    direction: str  # "from-claude" | "to-claude"
    target: str
    sources: list[str]
    additions: list[Addition] = field(default_factory=list)
    hooks: list[HookReport] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        c = {"migrated": 0, "duplicate": 0, "skipped": 0}
        for h in self.hooks:
            c[h.status] = c.get(h.status, 0) + 1
        return c

    def to_json(self) -> dict[str, Any]:
        return {"direction": self.direction, "target": self.target, "sources": list(self.sources),
                "counts": self.counts, "hooks": [h.to_json() for h in self.hooks],
                "findings": list(self.findings),
                "additions": [{"event": a.event, "definition": a.definition} for a in self.additions]}


def _identity(h: Mapping[str, Any]) -> str:
    name = h.get("name", "")
    cmd = h.get("command", "")
    return f"{name if isinstance(name, str) else ''}:{cmd if isinstance(cmd, str) else ''}"


def existing_keys(doc: Any) -> set[tuple[str, str, str]]:
    """``(event, matcher, name:command)`` of every hook already in a hookwise settings document."""
    keys: set[tuple[str, str, str]] = set()
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    if not isinstance(hooks, dict):
        return keys
    for event, defs in hooks.items():
        if not isinstance(defs, list):
            continue
        for d in defs:
            if not isinstance(d, dict) or not isinstance(d.get("hooks"), list):
                continue
            m = normalize_matcher(d.get("matcher"))
            for h in d["hooks"]:
                if isinstance(h, dict):
                    keys.add((event, m, _identity(h)))
    return keys


def plan_from_claude(sources: Sequence[tuple[str, str, Any]], target_path: str, target_doc: Any,
                     roots_for: Callable[[str], Sequence[PluginRoot]]) -> MigrationPlan:
    """Plan a migration of Claude settings into a hookwise settings document.

    ``sources`` are ``(path, text, parsed document)`` in reading order (later
    files after earlier ones, as Claude Code reads ``settings.local.json``
    after ``settings.json``). ``target_doc`` is the current parsed target (or
    ``{}``). Hooks already present (same event, matcher and ``name:command``)
    are reported as duplicates and not added again.
    """
    plan = MigrationPlan("from-claude", target_path, [s[0] for s in sources])
    seen = existing_keys(target_doc)
    for path, text, doc in sources:
        converted, findings = convert_claude_document(doc, file=path, text=text, plugin_roots=roots_for(path))
        plan.findings.extend(findings)
        groups: dict[tuple[str, str, int], Addition] = {}
        for c in converted:
            plan.hooks.append(c.report)
            if c.hook is None or c.event is None:
                continue
            key = (c.event, normalize_matcher(c.matcher), _identity(c.hook))
            if key in seen:
                c.report.status = "duplicate"
                c.report.reason = f"already in {os.path.basename(target_path)} (same event, matcher and command)"
                continue
            seen.add(key)
            gkey = (c.event, c.claude_event, c.definition_index)
            add = groups.get(gkey)
            if add is None:
                definition: dict[str, Any] = {}
                if c.matcher is not None:
                    definition["matcher"] = c.matcher
                if c.sequential:
                    definition["sequential"] = True
                definition["hooks"] = []
                add = groups[gkey] = Addition(c.event, definition)
                plan.additions.append(add)
            add.definition["hooks"].append(c.hook)
    return plan


def plan_to_claude(source_path: str, source_text: str, source_doc: Any, target_path: str,
                   existing_claude: Sequence[tuple[str, str, Any]],
                   roots_for: Callable[[str], Sequence[PluginRoot]]) -> MigrationPlan:
    """Plan writing a hookwise settings document's hooks into a Claude settings file.

    Duplicates are detected against every hook already in ``existing_claude``
    (``(path, text, doc)`` of the Claude files of that scope), compared after
    translating both sides into hookwise form.
    """
    plan = MigrationPlan("to-claude", target_path, [source_path])
    seen: set[tuple[str, str, str]] = set()
    for path, text, doc in existing_claude:
        conv, _ = convert_claude_document(doc, file=path, text=text, plugin_roots=roots_for(path))
        for c in conv:
            if c.hook is not None and c.event is not None:
                seen.add((c.event, normalize_matcher(c.matcher), ":" + c.hook["command"]))
    hooks = source_doc.get("hooks") if isinstance(source_doc, dict) else None
    if hooks is None:
        return plan
    if not isinstance(hooks, dict):
        plan.findings.append(f"{source_path}: /hooks: must be an object; nothing to migrate")
        return plan
    for event, defs in hooks.items():
        eptr = jsonc.pointer("hooks", event)
        if not isinstance(defs, list):
            plan.findings.append(f"{source_path}: {eptr}: must be an array of definitions; skipped")
            continue
        for i, d in enumerate(defs):
            dptr = f"{eptr}/{i}"
            if not isinstance(d, dict) or not isinstance(d.get("hooks"), list):
                plan.findings.append(f"{source_path}: {dptr}: not a valid definition; skipped")
                continue
            mraw = d.get("matcher")
            mres = translate_matcher_to_claude(event, mraw)
            if d.get("sequential") is True:
                plan.findings.append(f"{source_path}: {dptr}/sequential: Claude Code always runs hooks in "
                                     "parallel; sequential dropped")
            definition: dict[str, Any] | None = None
            for j, h in enumerate(d["hooks"]):
                out, rep = convert_gemini_hook(h, event=event, matcher=mres, matcher_raw=mraw, file=source_path,
                                               text=source_text, pointer=f"{dptr}/hooks/{j}")
                plan.hooks.append(rep)
                if out is None or rep.target_event is None:
                    continue
                # compare in hookwise form: translate the candidate back the way existing files were
                back = translate_matcher_from_claude(rep.target_event, mres.value)
                back_cmd = _PROJECT_DIR_REF.sub(lambda mt: "${GEMINI_PROJECT_DIR}" if mt.group(1).startswith("{")
                                                else "$GEMINI_PROJECT_DIR", out["command"])
                key = (CLAUDE_TO_GEMINI_EVENT[rep.target_event], normalize_matcher(back.value), ":" + back_cmd)
                if key in seen:
                    rep.status = "duplicate"
                    rep.reason = "already in the Claude Code settings (same event, matcher and command)"
                    continue
                seen.add(key)
                if definition is None:
                    definition = {}
                    if mres.value is not None:
                        definition["matcher"] = mres.value
                    definition["hooks"] = []
                    plan.additions.append(Addition(rep.target_event, definition))
                definition["hooks"].append(out)
    return plan


def apply_plan(text: str, plan: MigrationPlan, path: str) -> str:
    """The target file's new text: each addition appended with byte-preserving edits."""
    from .jsonc_edit import append_to_array

    for add in plan.additions:
        text = append_to_array(text, jsonc.pointer("hooks", add.event), add.definition, path=path)
    return text


# --------------------------------------------------------------------------- report text


def format_report(plan: MigrationPlan, *, relative_to: str | None = None) -> str:
    """A human-readable report: every hook with every field, then the summary."""

    def rel(p: str) -> str:
        if relative_to:
            try:
                r = os.path.relpath(p, relative_to)
                if not r.startswith(".." + os.sep) and r != "..":
                    return r
            except ValueError:
                pass
        return p

    lines: list[str] = []
    arrow = "Claude Code → hookwise" if plan.direction == "from-claude" else "hookwise → Claude Code"
    lines.append(f"Migrating hooks ({arrow}) into {rel(plan.target)}")
    current = None
    for h in plan.hooks:
        if h.file != current:
            current = h.file
            lines.append(f"From {rel(h.file)}:")
        mark = {"migrated": "+", "duplicate": "=", "skipped": "-"}[h.status]
        src = h.source_event + (f"[{h.matcher_from}]" if h.matcher_from else "")
        loc = f"{rel(h.file)}:{h.line}:{h.column}" if h.line is not None else rel(h.file)
        if h.status == "skipped":
            lines.append(f"  {mark} {src} {h.pointer} ({loc}) not migrated: {h.reason}")
        else:
            tgt = (h.target_event or "?") + (f"[{h.matcher_to}]" if h.matcher_to else "")
            state = "" if h.status == "migrated" else f" — {h.reason}"
            lines.append(f"  {mark} {src} → {tgt} {h.pointer} ({loc}){state}")
        if h.command is not None:
            lines.append(f"      command: {h.command}")
            if h.command_to is not None and h.command_to != h.command:
                lines.append(f"            → {h.command_to}")
        if h.status != "skipped":
            for f in h.fields:
                if f.field == "type" and f.action == "carried":
                    continue
                lines.append(f"      {f.field}: {f.action}" + (f" — {f.detail}" if f.detail else ""))
        for n in h.warnings:
            lines.append(f"      warning: {n}")
        for n in h.notes:
            lines.append(f"      note: {n}")
    for finding in plan.findings:
        if relative_to and finding.startswith(relative_to.rstrip(os.sep) + os.sep):
            finding = finding[len(relative_to.rstrip(os.sep)) + 1:]
        lines.append(f"  ! {finding}")
    c = plan.counts
    lines.append(f"{c['migrated']} migrated, {c['duplicate']} already present, {c['skipped']} not migrated.")
    return "\n".join(lines)


def dump_definition(definition: Mapping[str, Any]) -> str:
    """Compact JSON of a definition (for messages)."""
    return json.dumps(definition, ensure_ascii=False)
