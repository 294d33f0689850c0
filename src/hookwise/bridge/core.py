"""The bridge's entry point: one agent's hook call in, the agent's answer out (docs/agents.md).

:func:`answer` is pure with respect to the process: it reads the bytes it is given, never
``sys.stdin``, and returns what to print, never printing. ``hookwise hook`` (cli/hook.py) is a thin
edge around it, and a long-lived service can call it with a warm :class:`~hookwise.HookSystem`
(the ``systems`` argument).

Each agent family (``hookwise.bridge.<family>``) provides three functions:

- ``to_contract(agent, event, payload) -> Request``: the agent's stdin as a contract firing (raises
  :class:`~hookwise.errors.PayloadError` for a payload it cannot read);
- ``render(agent, request, result, messages) -> BridgeAnswer``: the merged answer in the agent's
  format;
- ``failure(agent, request, message, block) -> BridgeAnswer``: hookwise itself could not answer.
"""

from __future__ import annotations

import os

from hookwise._records import TYPE_CHECKING, dataclass, field
from hookwise.bridge.agents import AGENTS, Agent
from hookwise.errors import PayloadError

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from hookwise.core.registry import HookEntry
    from hookwise.engine import HookSystem
    from hookwise.result import FireResult
    from hookwise.settings.load import LoadedSettings

    #: ``systems(agent, project_dir, request) -> HookSystem``: a warm system to fire on (a service)
    SystemFactory = Callable[["Agent", str, "Request"], HookSystem]


@dataclass
class BridgeAnswer:
    """What the agent gets back: its stdout, its stderr and the exit status."""

    stdout: str = ""
    stderr: str = ""
    exit_code: int = 0


@dataclass
class Request:
    """One agent hook call, read: the agent's event, the contract event and the firing's input."""

    agent_event: str
    #: the contract event (``None``: the agent's event is not bridged)
    event: str | None
    input: dict[str, Any] = field(default_factory=dict)
    session_id: str = ""
    transcript_path: str = ""
    cwd: str = ""
    #: ``main``, ``sub-agent`` or ``headless`` (the state file of ``hookwise agents``)
    context: str = "main"
    #: the agent's own tool name (answers name it back) and the payload as received
    agent_tool: str | None = None
    payload: dict[str, Any] = field(default_factory=dict)


def _family(agent: Agent) -> Any:
    mod = f"hookwise.bridge.{agent.family}"
    __import__(mod)
    import sys

    return sys.modules[mod]


def answer(
    agent_name: str,
    event: str | None,
    stdin: bytes | str,
    *,
    project: str | None = None,
    env: Mapping[str, str] | None = None,
    fail_closed: bool = False,
    systems: SystemFactory | None = None,
    record: bool = True,
    trace: str | None = None,
) -> BridgeAnswer:
    """Answer one hook call of ``agent_name`` (a key of :data:`~hookwise.bridge.agents.AGENTS`).

    ``event`` is the agent's event when its payload does not name it (Copilot); ``project`` the
    project directory (default: the agent's project variable, else the payload's ``cwd``, else the
    current directory). ``fail_closed`` makes hookwise's own failure (unreadable stdin, a crash) a
    block instead of a visible warning. ``record`` updates the last-fired state file; ``trace`` is a
    file to append hookwise's trace records to (``hookwise --trace FILE hook ...``).
    """
    agent = AGENTS.get(agent_name)
    if agent is None:
        known = ", ".join(AGENTS)
        return BridgeAnswer(
            stderr=f"hookwise: unknown agent {agent_name!r} (known: {known})\n", exit_code=1
        )
    env = os.environ if env is None else env
    fam = _family(agent)
    try:
        payload = _payload(stdin)
        req = fam.to_contract(agent, event, payload)
    except PayloadError as exc:
        req = Request(agent_event=event or "?", event=None)
        return fam.failure(agent, req, f"hookwise hook {agent.name}: {exc}", fail_closed)  # type: ignore[no-any-return]
    try:
        out = _fire(agent, fam, req, project, env, systems, trace)
    except Exception as exc:
        # hookwise's own failure: said in the agent's channel, a block only when fail_closed
        msg = f"hookwise hook {agent.name}: internal error: {type(exc).__name__}: {exc}"
        out = fam.failure(agent, req, msg, fail_closed)
    if record:
        from hookwise.bridge.state import record_firing

        record_firing(agent.name, req.agent_event, req.context, req.session_id, env)
    return out  # type: ignore[no-any-return]


def _payload(stdin: bytes | str) -> dict[str, Any]:
    from hookwise.jsonc.codec import loads

    text = stdin.decode("utf-8", "replace") if isinstance(stdin, bytes) else stdin
    if not text.strip():
        raise PayloadError("empty stdin: expected the agent's hook payload (a JSON object)")
    try:
        value = loads(text)
    except ValueError as exc:
        raise PayloadError(f"stdin is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise PayloadError(f"stdin is a JSON {type(value).__name__}, expected an object")
    return value


def project_dir(agent: Agent, req: Request, project: str | None, env: Mapping[str, str]) -> str:
    """The project whose hooks run: explicit, else the agent's variable, else the payload's cwd."""
    if project:
        return os.path.abspath(project)
    if agent.project_dir_var and env.get(agent.project_dir_var):
        return os.path.abspath(env[agent.project_dir_var])
    if req.cwd and os.path.isdir(req.cwd):
        return os.path.abspath(req.cwd)
    return os.getcwd()


def _fire(
    agent: Agent,
    fam: Any,
    req: Request,
    project: str | None,
    env: Mapping[str, str],
    systems: SystemFactory | None,
    trace: str | None = None,
) -> BridgeAnswer:
    if req.event is None and not _relayed(agent, req):
        return fam.render(agent, req, None, [])  # type: ignore[no-any-return]
    proj = project_dir(agent, req, project, env)
    if systems is not None:
        hs = systems(agent, proj, req)
    else:
        hs = new_system(agent, proj, req, env, trace)
    if req.event is None:
        return _relay(agent, req, hs)
    result: FireResult = hs.fire(req.event, req.input)
    if (
        hs.settings.relayed
    ):  # hooks moved out of Cursor, agy, Windsurf, Copilot files (bridge.moved)
        from hookwise.bridge import moved

        mine = moved.moved_for(hs, req.agent_event)
        if mine:
            result = moved.fire(hs, req, result, mine)
    result.warnings.extend(hs.wait_background())
    messages = [*hs.warnings, *result.warnings]
    if not agent.output_replacement and _output_replaced(req, result):
        messages.append(
            f"a hook replaced the output of {req.agent_tool}, which {agent.product} cannot apply: "
            "the model gets the original output"
        )
    return fam.render(agent, req, result, messages)  # type: ignore[no-any-return]


def _relayed(agent: Agent, req: Request) -> bool:
    from hookwise.bridge.relay import relays

    return relays(agent, req.agent_event)


def _relay(agent: Agent, req: Request, hs: HookSystem) -> BridgeAnswer:
    """An event the contract lacks: the Claude-format hooks of its own name
    (hookwise.bridge.relay)."""
    from hookwise.bridge import relay

    payload = relay.as_claude(agent, req.payload)
    notes: list[str] = []  # this call's own (a warm system's warnings are shared by every call)
    entries = relay.matching(hs.settings.relayed, req.agent_event, payload, hs, notes)
    outcomes = relay.run(hs, req.agent_event, entries, payload, notes) if entries else []
    warnings = [*hs.warnings, *notes, *hs.wait_background()]
    return BridgeAnswer(stdout=relay.answer(agent, req.agent_event, outcomes, entries, warnings))


def _output_replaced(req: Request, result: FireResult) -> bool:
    original = req.input.get("tool_response")
    return (
        req.event == "AfterTool"
        and isinstance(original, dict)
        and result.tool_output_for(original) is not None
    )


def new_system(
    agent: Agent, proj: str, req: Request, env: Mapping[str, str], trace: str | None = None
) -> HookSystem:
    """A :class:`~hookwise.HookSystem` for one hook call of ``agent`` in project ``proj``."""
    from hookwise.engine import HookSystem

    return HookSystem(
        proj,
        trace=trace,
        env=env,
        session_id=req.session_id or None,
        transcript_path=req.transcript_path,
        cwd=req.cwd if req.cwd and os.path.isdir(req.cwd) else None,
        claude_settings=False if agent.reads_claude_files else None,
        profile=agent.own_profile,
        adjust_entries=lambda loaded: bridged_entries(agent, loaded, proj, env),
    )


def bridged_entries(
    agent: Agent, loaded: LoadedSettings, proj: str, env: Mapping[str, str]
) -> list[HookEntry]:
    """The hooks the bridge runs for ``agent``: hookwise's, minus the ones the agent runs itself,
    plus the ones ``install --take-over`` moved out of the agent's file (docs/agents.md, "No double
    runs")."""
    own: set[str] = set()
    if agent.own_profile is not None:  # a Gemini-contract agent reads these layers itself
        own = {os.path.abspath(layer.path) for layer in loaded.layers}
    out: list[HookEntry] = []
    for e in loaded.entries:
        if e.file is not None and os.path.abspath(e.file) in own:
            continue
        if is_bridge_command(e.command):
            loaded.warnings.append(
                f"{e.file}: {e.pointer}: a hook that calls `hookwise hook` is not run by the "
                "bridge (it would call itself)"
            )
            continue
        out.append(e)
    from hookwise.bridge.takeover import taken_over_entries

    entries, warnings = taken_over_entries(agent, proj, env)
    loaded.warnings.extend(warnings)
    out.extend(e for e in entries if "relay" not in e.extra)
    loaded.relayed.extend(e for e in entries if "relay" in e.extra)
    _relay_warnings(agent, loaded)
    return out


def _relay_warnings(agent: Agent, loaded: LoadedSettings) -> None:
    """Relayed hooks of an event this agent passes on fire here: the warning that they never fire in
    a host is left out (``loaded.relayed``: the bridge's own hooks are filtered like the others)."""
    kept = []
    fired = set()
    for e in loaded.relayed:
        if e.file is not None and is_bridge_command(e.command):
            continue
        kept.append(e)
        if e.extra.get("claude_event") in agent.relayed:
            fired.add(e.extra["relay"])
    loaded.relayed[:] = kept
    if fired:
        loaded.warnings[:] = [w for w in loaded.warnings if w not in fired]


def is_bridge_command(command: str) -> bool:
    """``command`` runs ``hookwise hook ...`` (an entry ``hookwise install`` wrote)."""
    words = command.split()
    for i, w in enumerate(words[:-1]):
        if (w == "hookwise" or w.endswith("/hookwise")) and words[i + 1] == "hook":
            return True  # also ``python -m hookwise hook``
    return False
