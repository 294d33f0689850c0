"""The agents hookwise bridges: one row per agent (a closed set, guarded by
tests/bridge/test_agents_table.py).

Each row says which dialect the agent speaks (``family``: the module of :mod:`hookwise.bridge` that
reads its stdin and writes its answer), where its hook configuration lives, which of its events map
to which contract event, what it calls its tools, and how to find it on a machine. Facts that come
from vendors' documentation rather than from a run of the real CLI are marked in docs/agents.md.
"""

from __future__ import annotations

import os

from hookwise._records import TYPE_CHECKING, dataclass

if TYPE_CHECKING:
    from collections.abc import Mapping

#: contract events, spelled as in hookwise.events (kept as strings: this module imports nothing
#: heavy)
BT, AT, BA, AA = "BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent"
SS, SE, PC, NO = "SessionStart", "SessionEnd", "PreCompress", "Notification"
BM, AM, BTS = "BeforeModel", "AfterModel", "BeforeToolSelection"


@dataclass(frozen=True)
class Agent:
    """One coding agent whose hooks can call ``hookwise hook <name>``."""

    name: str
    product: str
    #: the dialect module: ``claude``, ``gemini``, ``cursor``, ``copilot``, ``agy``, ``windsurf``
    family: str
    #: the hook configuration file, relative to the project / to the home directory ("" when none)
    project_file: str
    user_file: str
    #: agent event -> contract event; ``None``: the agent has the event but hookwise does not bridge
    #: it
    events: tuple[tuple[str, str | None], ...]
    #: agent tool name -> contract tool name (tools not listed keep their name)
    tools: tuple[tuple[str, str], ...] = ()
    #: the agent's own names for tool parameters are Claude Code's (renamed to the contract's and
    #: back)
    claude_params: bool = False
    #: programs on PATH and folders under the home directory that show the agent is installed
    binaries: tuple[str, ...] = ()
    config_dirs: tuple[str, ...] = ()
    #: the environment variable through which the agent tells a hook its project directory
    project_dir_var: str | None = None
    #: hookwise's profile whose settings files the agent itself reads (its hooks are not run twice)
    own_profile: str | None = None
    #: the agent also runs the hooks of ``.claude/`` settings files itself
    reads_claude_files: bool = False
    #: the hook file is a whole file of hookwise's (Copilot's ``.github/hooks/*.json``)
    own_file: bool = False
    #: what install must tell the user (Codex's hook trust)
    install_note: str = ""
    #: the shape of its hook file (hookwise.bridge.install.STYLES): ``groups`` (Claude's and
    #: Gemini's ``hooks.<Event>[{matcher, hooks: [...]}]``), ``copilot``, ``cursor``, ``agy``,
    #: ``windsurf``
    config: str = "groups"
    #: root keys the agent accepts in its hook file (``None``: any; Codex refuses unknown ones)
    root_keys: tuple[str, ...] | None = None
    #: the agent applies a hook's replacement of a tool's output (Claude Code's
    #: ``updatedToolOutput``)
    output_replacement: bool = False
    #: ``(variable, file in it)``: a variable that moves the agent's user folder (``CODEX_HOME``)
    user_dir_var: tuple[str, str] | None = None
    #: events without a contract equivalent passed to Claude-format hooks under their own name
    #: (hookwise.bridge.relay.RELAYS; ``install`` writes them too)
    relayed: tuple[str, ...] = ()

    def config_path(self, project: str, env: Mapping[str, str], user: bool = False) -> str:
        """The agent's hook file in ``project``, or the user's (``--user``)."""
        if not user:
            return os.path.join(project, *self.project_file.split("/"))
        if self.user_dir_var is not None and env.get(self.user_dir_var[0]):
            return os.path.join(env[self.user_dir_var[0]], *self.user_dir_var[1].split("/"))
        home = env.get("HOME") or os.path.expanduser("~")
        return os.path.join(home, *self.user_file.split("/"))

    def contract_event(self, agent_event: str) -> str | None:
        for name, ev in self.events:
            if name == agent_event:
                return ev
        return None

    def knows(self, agent_event: str) -> bool:
        return any(name == agent_event for name, _ in self.events)

    @property
    def bridged_events(self) -> list[str]:
        return [name for name, ev in self.events if ev is not None]

    @property
    def installed_events(self) -> list[str]:
        """The events ``install`` writes: the bridged ones and the relayed ones."""
        return [name for name, ev in self.events if ev is not None or name in self.relayed]


_CLAUDE_EVENTS: tuple[tuple[str, str | None], ...] = (
    ("PreToolUse", BT),
    ("PostToolUse", AT),
    ("PostToolUseFailure", AT),
    ("UserPromptSubmit", BA),
    ("Stop", AA),
    ("SubagentStop", AA),
    ("SessionStart", SS),
    ("SessionEnd", SE),
    ("PreCompact", PC),
    ("Notification", NO),
    ("PermissionRequest", None),
    ("PermissionDenied", None),
    ("SubagentStart", None),
    ("PostToolBatch", None),
    ("PostCompact", None),
    ("StopFailure", None),
    ("Setup", None),
    ("UserPromptExpansion", None),
    ("TaskCreated", None),
    ("TaskCompleted", None),
    ("TeammateIdle", None),
    ("InstructionsLoaded", None),
    ("ConfigChange", None),
    ("CwdChanged", None),
    ("DirectoryAdded", None),
    ("FileChanged", None),
    ("WorktreeCreate", None),
    ("WorktreeRemove", None),
    ("Elicitation", None),
    ("ElicitationResult", None),
    ("MessageDisplay", None),
    ("PreModelSwitch", None),
    ("PostModelSwitch", None),
)

#: Claude Code's tools -> the contract's (hookwise.claude.names.CLAUDE_TO_GEMINI_TOOL, the ones that
#: exist)
_CLAUDE_TOOLS: tuple[tuple[str, str], ...] = (
    ("Bash", "run_shell_command"),
    ("PowerShell", "run_shell_command"),
    ("Read", "read_file"),
    ("Write", "write_file"),
    ("Edit", "replace"),
    ("MultiEdit", "replace"),
    ("Glob", "glob"),
    ("Grep", "grep_search"),
    ("LS", "list_directory"),
    ("WebFetch", "web_fetch"),
    ("WebSearch", "google_web_search"),
    ("TodoWrite", "write_todos"),
)

_CODEX_EVENTS: tuple[tuple[str, str | None], ...] = (
    ("SessionStart", SS),
    ("UserPromptSubmit", BA),
    ("PreToolUse", BT),
    ("PostToolUse", AT),
    ("Stop", AA),
    ("SubagentStop", AA),
    ("PreCompact", PC),
    ("SessionEnd", SE),
    ("PermissionRequest", None),
    ("PostCompact", None),
    ("SubagentStart", None),
    ("StopFailure", None),
    ("Interrupt", None),
)

_QWEN_EVENTS: tuple[tuple[str, str | None], ...] = (
    ("PreToolUse", BT),
    ("PostToolUse", AT),
    ("PostToolUseFailure", AT),
    ("UserPromptSubmit", BA),
    ("Stop", AA),
    ("SubagentStop", AA),
    ("SessionStart", SS),
    ("SessionEnd", SE),
    ("PreCompact", PC),
    ("Notification", NO),
    ("SessionDelete", None),
    ("MessageDisplay", None),
    ("SubagentStart", None),
    ("PermissionRequest", None),
    ("PermissionDenied", None),
    ("TodoCreated", None),
    ("TodoCompleted", None),
)

_GEMINI_EVENTS: tuple[tuple[str, str | None], ...] = tuple(
    (e, e) for e in (BT, AT, BA, AA, BM, AM, BTS, SS, SE, PC, NO)
)

_CURSOR_EVENTS: tuple[tuple[str, str | None], ...] = (
    ("beforeShellExecution", BT),
    ("afterShellExecution", AT),
    ("beforeMCPExecution", BT),
    ("afterMCPExecution", AT),
    ("beforeReadFile", BT),
    ("afterFileEdit", AT),
    ("beforeSubmitPrompt", BA),
    ("stop", AA),
    ("sessionStart", SS),
    ("sessionEnd", SE),
    ("preCompact", PC),
    ("preToolUse", None),
    ("postToolUse", None),
    ("postToolUseFailure", None),
    ("subagentStart", None),
    ("subagentStop", None),
    ("afterAgentResponse", None),
    ("afterAgentThought", None),
    ("beforeTabFileRead", None),
    ("afterTabFileEdit", None),
)

_COPILOT_EVENTS: tuple[tuple[str, str | None], ...] = (
    ("sessionStart", SS),
    ("sessionEnd", SE),
    ("userPromptSubmitted", BA),
    ("preToolUse", BT),
    ("postToolUse", AT),
    ("agentStop", AA),
    ("subagentStop", AA),
    ("preCompact", PC),
    ("errorOccurred", None),
    ("notification", None),
    ("permissionRequest", None),
)

_COPILOT_PASCAL_EVENTS: tuple[tuple[str, str | None], ...] = (
    ("SessionStart", SS),
    ("SessionEnd", SE),
    ("UserPromptSubmit", BA),
    ("PreToolUse", BT),
    ("PostToolUse", AT),
    ("Stop", AA),
    ("SubagentStop", AA),
    ("PreCompact", PC),
)

_COPILOT_TOOLS: tuple[tuple[str, str], ...] = (
    ("bash", "run_shell_command"),
    ("powershell", "run_shell_command"),
    ("view", "read_file"),
    ("create", "write_file"),
    ("edit", "replace"),
    ("glob", "glob"),
    ("grep", "grep_search"),
    ("web_fetch", "web_fetch"),
)

_AGY_EVENTS: tuple[tuple[str, str | None], ...] = (
    ("PreToolUse", BT),
    ("PostToolUse", AT),
    ("PreInvocation", BA),
    ("Stop", AA),
    ("PostInvocation", None),
)

_WINDSURF_EVENTS: tuple[tuple[str, str | None], ...] = (
    ("pre_run_command", BT),
    ("post_run_command", AT),
    ("pre_read_code", BT),
    ("post_read_code", AT),
    ("pre_write_code", BT),
    ("post_write_code", AT),
    ("pre_mcp_tool_use", BT),
    ("post_mcp_tool_use", AT),
    ("pre_user_prompt", BA),
    ("post_cascade_response", None),
    ("post_setup_worktree", None),
)

_GOOSE_EVENTS: tuple[tuple[str, str | None], ...] = (
    ("PreToolUse", BT),
    ("PostToolUse", AT),
    ("UserPromptSubmit", BA),
    ("Stop", AA),
    ("SessionStart", SS),
    ("SessionEnd", SE),
)

_CONTINUE_EVENTS: tuple[tuple[str, str | None], ...] = (
    ("PreToolUse", BT),
    ("PostToolUse", AT),
    ("UserPromptSubmit", BA),
    ("Stop", AA),
    ("SessionStart", SS),
    ("SessionEnd", SE),
)

_SHELL = ("run_shell_command",)

#: Claude Code's events passed to Claude-format hooks under their own name
#: (hookwise.bridge.relay.RELAYS)
_RELAYED = ("PermissionRequest", "PermissionDenied", "SubagentStart", "PostCompact", "StopFailure")

#: every bridged agent, in the order of ``hookwise agents`` (the issue's order)
AGENTS: dict[str, Agent] = {
    a.name: a
    for a in (
        Agent(
            "claude",
            "Claude Code",
            "claude",
            ".claude/settings.json",
            ".claude/settings.json",
            _CLAUDE_EVENTS,
            _CLAUDE_TOOLS,
            claude_params=True,
            binaries=("claude",),
            config_dirs=(".claude",),
            project_dir_var="CLAUDE_PROJECT_DIR",
            reads_claude_files=True,
            output_replacement=True,
            relayed=_RELAYED,
        ),
        Agent(
            "codex",
            "Codex CLI",
            "claude",
            ".codex/hooks.json",
            ".codex/hooks.json",
            _CODEX_EVENTS,
            (
                ("Bash", "run_shell_command"),
                ("shell", "run_shell_command"),
                ("local_shell", "run_shell_command"),
                ("exec_command", "run_shell_command"),
            ),
            binaries=("codex",),
            config_dirs=(".codex",),
            root_keys=("hooks",),
            user_dir_var=("CODEX_HOME", "hooks.json"),
            relayed=("PermissionRequest", "SubagentStart", "PostCompact", "StopFailure"),
            install_note=(
                "Codex runs project hooks only in a trusted project and only after you approve "
                "them: open `codex`, run /hooks and trust the hookwise entries (or pass "
                "--dangerously-bypass-hook-trust in automation); until then Codex skips them "
                "silently"
            ),
        ),
        Agent(
            "gemini",
            "Gemini CLI",
            "gemini",
            ".gemini/settings.json",
            ".gemini/settings.json",
            _GEMINI_EVENTS,
            binaries=("gemini",),
            config_dirs=(".gemini",),
            project_dir_var="GEMINI_PROJECT_DIR",
            own_profile="gemini",
        ),
        Agent(
            "qwen",
            "Qwen Code",
            "claude",
            ".qwen/settings.json",
            ".qwen/settings.json",
            _QWEN_EVENTS,
            binaries=("qwen",),
            config_dirs=(".qwen",),
            project_dir_var="QWEN_PROJECT_DIR",
            relayed=("PermissionRequest", "PermissionDenied", "SubagentStart"),
        ),
        Agent(
            "tabnine",
            "Tabnine CLI",
            "gemini",
            ".tabnine/agent/settings.json",
            ".tabnine/agent/settings.json",
            _GEMINI_EVENTS,
            binaries=("tabnine",),
            config_dirs=(".tabnine",),
            project_dir_var="TABNINE_PROJECT_DIR",
            own_profile="tabnine",
        ),
        Agent(
            "terminai",
            "TerminaI",
            "gemini",
            ".terminai/settings.json",
            ".terminai/settings.json",
            _GEMINI_EVENTS,
            binaries=("terminai",),
            config_dirs=(".terminai",),
            project_dir_var="TERMINAI_PROJECT_DIR",
            own_profile="terminai",
        ),
        Agent(
            "cursor",
            "Cursor",
            "cursor",
            ".cursor/hooks.json",
            ".cursor/hooks.json",
            _CURSOR_EVENTS,
            binaries=("cursor-agent", "cursor"),
            config_dirs=(".cursor",),
            config="cursor",
        ),
        Agent(
            "copilot",
            "GitHub Copilot CLI (camelCase hooks)",
            "copilot",
            ".github/hooks/hookwise.json",
            ".copilot/hooks/hookwise.json",
            _COPILOT_EVENTS,
            _COPILOT_TOOLS,
            binaries=("copilot",),
            config_dirs=(".copilot",),
            own_file=True,
            config="copilot",
            user_dir_var=("COPILOT_HOME", "hooks/hookwise.json"),
        ),
        Agent(
            "copilot-pascal",
            "GitHub Copilot CLI (PascalCase, VS Code-compatible hooks)",
            "claude",
            ".github/hooks/hookwise-pascal.json",
            ".copilot/hooks/hookwise-pascal.json",
            _COPILOT_PASCAL_EVENTS,
            _COPILOT_TOOLS,
            binaries=("copilot",),
            config_dirs=(".copilot",),
            own_file=True,
            user_dir_var=("COPILOT_HOME", "hooks/hookwise-pascal.json"),
            config="copilot",
        ),
        Agent(
            "agy",
            "Antigravity CLI (agy)",
            "agy",
            ".agents/hooks.json",
            ".gemini/config/hooks.json",
            _AGY_EVENTS,
            binaries=("agy",),
            config_dirs=(".gemini/config", ".antigravity"),
            config="agy",
        ),
        Agent(
            "windsurf",
            "Windsurf (Cascade)",
            "windsurf",
            ".windsurf/hooks.json",
            ".codeium/windsurf/hooks.json",
            _WINDSURF_EVENTS,
            binaries=("windsurf",),
            config_dirs=(".codeium/windsurf",),
            config="windsurf",
        ),
        Agent(
            "goose",
            "Goose",
            "claude",
            ".goose/hooks/hooks.json",
            ".config/goose/hooks/hooks.json",
            _GOOSE_EVENTS,
            (("developer__shell", "run_shell_command"), ("shell", "run_shell_command")),
            binaries=("goose",),
            config_dirs=(".config/goose",),
        ),
        Agent(
            "continue",
            "Continue CLI (cn)",
            "claude",
            ".continue/settings.json",
            ".continue/settings.json",
            _CONTINUE_EVENTS,
            _CLAUDE_TOOLS,
            claude_params=True,
            binaries=("cn",),
            config_dirs=(".continue",),
            reads_claude_files=True,
        ),
    )
}

#: the dialect modules (``hookwise.bridge.<family>``); a test checks every agent names one of these
FAMILIES = ("claude", "gemini", "cursor", "copilot", "agy", "windsurf")


def get(name: str) -> Agent | None:
    return AGENTS.get(name)
