"""The last-fired state file: when each bridged event last fired, per agent, in which context.

``hookwise hook`` updates ``<user dir>/hookwise/agents-state.json`` (``~/.gemini/hookwise/...``)
after each call; ``hookwise agents`` reads it to answer "did my hook run?". The update is a read, a
change and an atomic replace: two calls that finish at the same moment may lose one count (never the
file). A file that cannot be read or written never fails a hook call: the state is advisory.
"""

from __future__ import annotations

import os
import time

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

#: sessions remembered per agent (to tell "never fired after N sessions")
MAX_SESSIONS = 20

#: how an agent tells a hook that it runs without a person: agent -> (variable, value prefix). Only
#: Claude Code's is known (``CLAUDE_CODE_ENTRYPOINT=sdk-cli`` under ``claude -p``, seen in the real
#: CLI)
HEADLESS_ENV: dict[str, tuple[str, str]] = {"claude": ("CLAUDE_CODE_ENTRYPOINT", "sdk")}


def state_path(env: Mapping[str, str]) -> str:
    from hookwise.settings.layers import user_dir

    return os.path.join(user_dir(env), "hookwise", "agents-state.json")


def context_of(agent: str, context: str, env: Mapping[str, str]) -> str:
    """``sub-agent`` as the payload said, else ``headless`` when the agent's variable says so, else
    ``main``."""
    if context != "main":
        return context
    var = HEADLESS_ENV.get(agent)
    if var is not None and env.get(var[0], "").startswith(var[1]):
        return "headless"
    return context


def read_state(env: Mapping[str, str]) -> dict[str, Any]:
    from hookwise.jsonc.codec import loads

    try:
        with open(state_path(env), encoding="utf-8") as f:
            value = loads(f.read())
    except (OSError, ValueError):
        return {"version": 1, "agents": {}}
    if not isinstance(value, dict) or not isinstance(value.get("agents"), dict):
        return {"version": 1, "agents": {}}
    return value


def record_firing(
    agent: str, agent_event: str, context: str, session_id: str, env: Mapping[str, str]
) -> None:
    """Note that ``agent_event`` of ``agent`` fired now (never raises)."""
    try:
        _record(agent, agent_event, context_of(agent, context, env), session_id, env)
    except (OSError, ValueError, TypeError, AttributeError):
        pass  # advisory: a hook call never fails because of it


def _record(agent: str, event: str, context: str, session_id: str, env: Mapping[str, str]) -> None:
    from hookwise.jsonc.codec import dumps

    state = read_state(env)
    a = state["agents"].setdefault(agent, {"sessions": [], "session_count": 0, "events": {}})
    if session_id and session_id not in a["sessions"]:
        a["sessions"] = [*a["sessions"], session_id][-MAX_SESSIONS:]
        a["session_count"] = int(a.get("session_count", 0)) + 1
    ctxs = a["events"].setdefault(event, {})
    entry = ctxs.setdefault(context, {"count": 0})
    entry["count"] = int(entry.get("count", 0)) + 1
    entry["last"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    path = state_path(env)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(dumps(state, ensure_ascii=False))
    os.replace(tmp, path)
