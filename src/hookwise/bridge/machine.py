"""What ``hookwise agents`` reports: which agents are on this machine, where hookwise is installed
in each, and when each bridged event last fired (from the state file of
:mod:`hookwise.bridge.state`)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hookwise.bridge.agents import AGENTS, Agent
from hookwise.bridge.state import read_state

#: sessions after which an event that never fired is flagged
FLAG_AFTER_SESSIONS = 3

#: where each agent keeps its session transcripts (from the transcript paths of the recorded
#: payloads): ``(variable naming its folder, else the folder under HOME, glob inside)``. Sessions
#: that ran while no hook call reached hookwise show hooks that did not run
SESSION_FILES: dict[str, tuple[str | None, str, str]] = {
    "claude": (None, ".claude", "projects/*/*.jsonl"),
    "codex": ("CODEX_HOME", ".codex", "sessions/*/*/*/rollout-*.jsonl"),
    "gemini": (None, ".gemini", "tmp/*/chats/session-*"),
    "qwen": (None, ".qwen", "projects/*/chats/*.jsonl"),
    "copilot": ("COPILOT_HOME", ".copilot", "session-state/*/events.jsonl"),
}


@dataclass
class AgentReport:
    agent: Agent
    binaries: list[str] = field(default_factory=list)
    config_dirs: list[str] = field(default_factory=list)
    #: ``(scope, path)`` of every hook file that calls ``hookwise hook <agent>``
    installed: list[tuple[str, str]] = field(default_factory=list)
    sessions: int = 0
    #: event -> context -> {"count", "last"}
    fired: dict[str, dict[str, Any]] = field(default_factory=dict)
    flags: list[str] = field(default_factory=list)
    #: the agent's own sessions that started after hookwise was installed (``None``: unknown)
    sessions_since_install: int | None = None

    @property
    def present(self) -> bool:
        return bool(self.binaries or self.config_dirs or self.installed or self.fired)

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent.name,
            "product": self.agent.product,
            "binaries": self.binaries,
            "configDirs": self.config_dirs,
            "installed": [{"scope": s, "path": p} for s, p in self.installed],
            "sessions": self.sessions,
            "events": self.fired,
            "flags": self.flags,
            "sessionsSinceInstall": self.sessions_since_install,
        }


def survey(project: str, env: Mapping[str, str]) -> list[AgentReport]:
    """One report per agent of the table, in its order."""
    home = env.get("HOME") or os.path.expanduser("~")
    state = read_state(env)["agents"]
    out = []
    for agent in AGENTS.values():
        rep = AgentReport(agent)
        for b in agent.binaries:
            found = shutil.which(b, path=env.get("PATH", ""))
            if found:
                rep.binaries.append(found)
        rep.config_dirs = [
            os.path.join(home, d) for d in agent.config_dirs if os.path.isdir(os.path.join(home, d))
        ]
        rep.installed = _installed(agent, project, env)
        st = state.get(agent.name) or {}
        rep.sessions = int(st.get("session_count", 0))
        rep.fired = dict(st.get("events") or {})
        rep.sessions_since_install = _sessions_since(agent, env, rep.installed)
        rep.flags = _flags(rep)
        out.append(rep)
    return out


def _installed(agent: Agent, project: str, env: Mapping[str, str]) -> list[tuple[str, str]]:
    from hookwise.bridge.install import config_path, ours
    from hookwise.errors import SettingsError
    from hookwise.jsonc.parse import read_file

    found: list[tuple[str, str]] = []
    for scope, user in (("project", False), ("user", True)):
        path = config_path(agent, project, env, user)
        if not os.path.isfile(path) or any(p == path for _, p in found):
            continue
        try:
            _text, doc = read_file(path)
        except SettingsError:
            continue
        hooks = doc.get("hooks") if isinstance(doc, dict) else None
        if isinstance(hooks, dict) and any(
            ours(item, agent)
            for items in hooks.values()
            if isinstance(items, list)
            for item in items
        ):
            found.append((scope, path))
    return found


def _sessions_since(
    agent: Agent, env: Mapping[str, str], installed: list[tuple[str, str]]
) -> int | None:
    """How many of the agent's own session files were written after the hook file hookwise
    installed."""
    where = SESSION_FILES.get(agent.name)
    if where is None or not installed:
        return None
    import glob

    var, folder, pattern = where
    home = env.get("HOME") or os.path.expanduser("~")
    base = env.get(var or "") or os.path.join(home, folder)
    since = min(os.path.getmtime(p) for _, p in installed)
    return sum(1 for f in glob.glob(os.path.join(base, pattern)) if os.path.getmtime(f) > since)


def _flags(rep: AgentReport) -> list[str]:
    """Events that never fired although sessions ran (the answer to "did my hook run?")."""
    flags: list[str] = []
    if rep.sessions_since_install and not rep.fired:
        note = f" ({rep.agent.install_note})" if rep.agent.install_note else ""
        flags.append(
            f"{rep.sessions_since_install} {rep.agent.product} session(s) since hookwise was "
            f"installed, and no hook call reached hookwise{note}"
        )
    if not rep.installed or rep.sessions < FLAG_AFTER_SESSIONS:
        return flags
    for ev in rep.agent.installed_events:
        if ev not in rep.fired and rep.agent.contract_event(ev) == "BeforeTool":
            flags.append(f"{ev} never fired in {rep.sessions} sessions")
    sub = any("sub-agent" in ctxs for ctxs in rep.fired.values())
    for ev in rep.agent.installed_events:
        ctxs = rep.fired.get(ev, {})
        if (
            sub
            and ctxs
            and "sub-agent" not in ctxs
            and rep.agent.contract_event(ev) == "BeforeTool"
        ):
            flags.append(f"{ev} never fired inside a sub-agent (sub-agents ran)")
    return flags


def render(reports: list[AgentReport], show_all: bool) -> str:
    lines = []
    for rep in reports:
        if not (show_all or rep.present):
            continue
        a = rep.agent
        lines.append(f"{a.product} ({a.name})")
        lines.append("  on PATH:    " + (", ".join(rep.binaries) or "no"))
        lines.append("  config:     " + (", ".join(rep.config_dirs) or "none"))
        where = ", ".join(f"{s}: {p}" for s, p in rep.installed)
        lines.append("  hookwise:   " + (where or f"not installed (hookwise install {a.name})"))
        if rep.installed or rep.fired:
            lines.append(f"  sessions:   {rep.sessions}")
            for ev in a.installed_events:
                ctxs = rep.fired.get(ev)
                if not ctxs:
                    lines.append(f"    {ev:<22} never fired")
                    continue
                seen = "; ".join(
                    f"{c} {v.get('last', '?')} ({v.get('count', 0)}x)"
                    for c, v in sorted(ctxs.items())
                )
                lines.append(f"    {ev:<22} {seen}")
        for flag in rep.flags:
            lines.append(f"  ! {flag}")
    return (
        "\n".join(lines)
        if lines
        else "No coding agent found (hookwise agents --all lists them all)"
    )
