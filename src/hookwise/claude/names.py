"""Claude Code <-> Gemini CLI name tables: events, tools, parameters, lifecycle sources.

The runtime dialect and the migration tool both read these; nothing here does I/O."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from hookwise.events import CLAUDE_EVENT_NAMES

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
    "Setup",
    "UserPromptExpansion",
    "PermissionRequest",
    "PermissionDenied",
    "PostToolBatch",
    "MessageDisplay",
    "SubagentStart",
    "TaskCreated",
    "TaskCompleted",
    "StopFailure",
    "TeammateIdle",
    "InstructionsLoaded",
    "ConfigChange",
    "CwdChanged",
    "DirectoryAdded",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "PostCompact",
    "Elicitation",
    "ElicitationResult",
    "PreModelSwitch",
    "PostModelSwitch",
)


#: Claude Code events without a hookwise equivalent whose Claude-format hooks are still loaded: the
#: agent bridge passes these events to them under their own name
#: (``hookwise hook claude|codex|qwen``; :data:`hookwise.bridge.relay.RELAYS` says how each answer
#: is read, a test keeps the two alike). An in-process host never fires them.
RELAYED_EVENTS = frozenset(
    {"PermissionRequest", "PermissionDenied", "SubagentStart", "PostCompact", "StopFailure"}
)


def never_fires_here(event: str) -> str:
    """Why a hook on a Claude Code event of :data:`CLAUDE_EVENTS_WITHOUT_EQUIVALENT` is listed, not
    run."""
    if event in RELAYED_EVENTS:
        return (
            f"Claude Code event {event!r} never fires in a host: it has no hookwise equivalent; "
            "it fires only through the agent bridge (`hookwise hook <agent>`, docs/agents.md)"
        )
    return f"Claude Code event {event!r} never fires here: it has no hookwise equivalent"


#: Claude Code events whose hooks may carry an ``if`` rule; on any other event Claude Code never
#: runs a hook that has one (hooks reference, "Common fields")
CLAUDE_IF_EVENTS = frozenset(
    {"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"}
)

#: Claude Code events on which it ignores ``onFailure: "block"`` (its hook runner logs
#: "onFailure: block is ignored on <event>"); of these only Stop and SubagentStop have a hookwise
#: event
CLAUDE_ON_FAILURE_IGNORED = frozenset({"Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"})

#: what a migrated hook on these Claude events should know (printed once per hook)
EVENT_NOTES: dict[str, str] = {
    "PostToolUseFailure": "AfterTool fires after every tool call; the hook's stdin says "
    "hook_event_name PostToolUseFailure (with an `error` field) only when the tool failed",
    "PostToolUse": "AfterTool also fires after failed tool calls; the hook's stdin then says "
    "hook_event_name PostToolUseFailure",
    "SubagentStop": (
        "hookwise has no subagents: the hook runs when the main agent finishes (AfterAgent), and "
        "`decision: block` there makes the main agent continue"
    ),
    "PreCompact": (
        "a block (exit 2 or `decision: block`) stops the compression, as in Claude Code, where the "
        "host compresses (hookwise's reference agent, the ADK adapter); `hookwise fire "
        "PreCompress` exits 2"
    ),
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
    "run_shell_command",
    "read_file",
    "write_file",
    "replace",
    "glob",
    "grep_search",
    "list_directory",
    "web_fetch",
    "google_web_search",
    "write_todos",
    "read_many_files",
    "save_memory",
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
    "replace": {
        "file_path": ("file_path", "absolute_path", "path"),
        "replace_all": ("allow_multiple",),
    },
    "glob": {"path": ("dir_path", "path", "directory")},
    "grep_search": {"path": ("dir_path", "path", "directory"), "glob": ("include",)},
    "search_file_content": {"path": ("path", "dir_path", "directory"), "glob": ("include",)},
    "list_directory": {"path": ("dir_path", "path", "directory")},
}

#: lifecycle matcher values: Claude value -> hookwise values (a value maps to itself unless hookwise
#: spells it differently; every value Claude Code has is listed, and a value not listed is kept as
#: it is, with a warning)
LIFECYCLE_VALUES: dict[str, dict[str, list[str]]] = {
    "SessionStart": {
        "startup": ["startup"],
        "resume": ["resume"],
        "clear": ["clear"],
        "compact": ["compact"],
        "fork": ["fork"],
    },
    "SessionEnd": {
        "clear": ["clear"],
        "logout": ["logout"],
        "prompt_input_exit": ["prompt_input_exit", "exit"],
        "other": ["other"],
        "resume": ["resume"],
        "bypass_permissions_disabled": ["bypass_permissions_disabled"],
    },
    "PreCompact": {"manual": ["manual"], "auto": ["auto"]},
    "Notification": {
        "permission_prompt": ["ToolPermission"],
        **{
            v: [v]
            for v in (
                "idle_prompt",
                "auth_success",
                "elicitation_dialog",
                "elicitation_url_dialog",
                "elicitation_complete",
                "elicitation_response",
                "agent_needs_input",
                "agent_completed",
                "quota_auto_resume_fired",
                "quota_auto_resume_stale",
                "quota_auto_resume_disabled",
            )
        },
    },
}

#: the lifecycle values hookwise's own hosts send (the reference host, the adapters,
#: ``hookwise fire``'s shortcuts); a matcher value outside these is kept, and the hook runs when a
#: host sends that value
HOOKWISE_SENDS: dict[str, frozenset[str]] = {
    "SessionStart": frozenset({"startup", "resume", "clear", "compact"}),
    "SessionEnd": frozenset({"exit", "clear", "logout", "prompt_input_exit", "other"}),
    "PreCompact": frozenset({"manual", "auto"}),
    "Notification": frozenset({"ToolPermission"}),
}

#: hookwise lifecycle value -> Claude value (reverse direction and Claude-shaped stdin)
GEMINI_LIFECYCLE_TO_CLAUDE: dict[str, dict[str, str]] = {
    "SessionEnd": {"exit": "prompt_input_exit"},
    "Notification": {"ToolPermission": "permission_prompt"},
}

#: Claude Code's default command-hook timeout (seconds)
CLAUDE_DEFAULT_TIMEOUT_S = 600

#: events on which Claude Code lowers that default (hooks reference, "Common fields")
CLAUDE_EVENT_DEFAULT_TIMEOUT_S: dict[str, int] = {"UserPromptSubmit": 30}


def claude_default_timeout_s(claude_event: str) -> int:
    """Claude Code's default timeout (seconds) of a command hook on ``claude_event``."""
    return CLAUDE_EVENT_DEFAULT_TIMEOUT_S.get(claude_event, CLAUDE_DEFAULT_TIMEOUT_S)


#: hook fields a migration handles itself (others are reported as dropped)
_CARRIED_HOOK_FIELDS = frozenset(
    {
        "type",
        "command",
        "timeout",
        "args",
        "statusMessage",
        "shell",
        "name",
        "env",
        "if",
        "async",
        "onFailure",
        "once",
    }
)

_DROP_REASONS: dict[str, str] = {
    "asyncRewake": (
        "hookwise has no background hooks that wake the agent; the hook now runs synchronously and "
        "its exit 2 blocks at once"
    ),
    "continueOnBlock": (
        "hookwise has no equivalent; a block from this hook is handled as hookwise's block"
    ),
    "model": "only meaningful for prompt/agent handlers",
}

#: why ``once`` is not honoured for hooks from settings files (Claude Code ignores it there too)
ONCE_IN_SETTINGS = (
    "Claude Code honours `once` only for hooks declared in skill frontmatter and ignores it in "
    "settings files, so the hook runs every time, as it does in Claude Code"
)

_SIMPLE_MATCHER = re.compile(r"^[A-Za-z0-9_\- ,|]+$")
_WORD = re.compile(r"[A-Za-z0-9_]+")
_PROJECT_DIR_REF = re.compile(r"\$(\{CLAUDE_PROJECT_DIR\}|CLAUDE_PROJECT_DIR(?![A-Za-z0-9_]))")
_GEMINI_DIR_REF = re.compile(r"\$(\{GEMINI_PROJECT_DIR\}|GEMINI_PROJECT_DIR(?![A-Za-z0-9_]))")
_PLUGIN_ROOT_REF = re.compile(r"\$(?:\{CLAUDE_PLUGIN_ROOT\}|CLAUDE_PLUGIN_ROOT(?![A-Za-z0-9_]))")
_PLUGIN_ROOT_PATH = re.compile(
    r"\$(?:\{CLAUDE_PLUGIN_ROOT\}|CLAUDE_PLUGIN_ROOT(?![A-Za-z0-9_]))([^\s\"'`;|&<>()$]*)"
)
_OTHER_CLAUDE_VAR = re.compile(r"\$\{?(CLAUDE_[A-Z0-9_]+)")
_OTHER_GEMINI_VAR = re.compile(r"\$\{?(GEMINI_(?:CWD|SESSION_ID|PLANS_DIR))\b")
_SAFE_WORD = re.compile(r"^[A-Za-z0-9_./:=@%+,-]+$")


# --------------------------------------------------------------------------- tool names


def mcp_to_gemini(name: str) -> str:
    """``mcp__server__tool`` → ``mcp_server_tool`` (also partial names such as
    ``mcp__server__``)."""
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
        return f"mcp__{server}__{rest[len(server) + 1 :]}"
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


def params_to_gemini(
    tool: str, updated: Mapping[str, Any], original: Mapping[str, Any] | None
) -> dict[str, Any]:
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
        chosen = next(
            (s for s in spellings if original is not None and s in original), spellings[0]
        )
        out[chosen] = v
    return out


# --------------------------------------------------------------------------- matchers
