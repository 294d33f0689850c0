"""Hooks ``install --take-over`` moved out of Cursor's, agy's, Windsurf's and Copilot's own files,
run in their format (docs/agents.md, "--take-over").

Such a hook was written for the agent: it reads the agent's payload
(``beforeShellExecution {command, cwd}``, agy's ``toolCall``, Windsurf's ``tool_info``) and answers
as the agent reads answers (Cursor's ``permission``, agy's ``decision``/``injectSteps``, Windsurf's
exit 2). So it runs only on its own agent event, with the agent's stdin as it came, and its answer
is read in the agent's dialect and turned into a contract answer (:class:`AgentDialect`), which
merges with the contract hooks' answers of the same firing (deny wins). It runs through the same
runner as every hook: trust, timeouts, the output cap, the trace.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from hookwise.bridge.agents import Agent
    from hookwise.bridge.core import Request
    from hookwise.core.registry import HookEntry
    from hookwise.engine import HookSystem
    from hookwise.result import FireResult

    Reader = Callable[[str, dict[str, Any]], dict[str, Any]]
    #: one hook of the agent's file: ``(command, timeout in seconds, name, environment)``
    Command = tuple[str, Any, str, dict[str, str]]

#: the agents whose own hooks take-over moves and this module runs (hookwise.bridge.agents
#: ``config``)
STYLES = ("cursor", "agy", "windsurf", "copilot")
#: a moved hook's timeout when its file gives none (seconds; none of the three documents a default)
DEFAULT_TIMEOUT_S = 60


# --------------------------------------------------------------------------- answers, per agent


def _cursor(event: str, out: dict[str, Any]) -> dict[str, Any]:
    """Cursor: ``permission`` allow/deny/ask (+ ``agent_message``/``user_message``),
    ``continue: false`` on a prompt, ``followup_message`` after ``stop``; ``user_message`` otherwise
    is a message."""
    msg = out.get("agent_message") or out.get("user_message")
    reason = msg if isinstance(msg, str) and msg else None
    answer: dict[str, Any] = {}
    perm = out.get("permission")
    if perm in ("allow", "deny", "ask"):
        answer["decision"] = perm
        if reason:
            answer["reason"] = reason
    elif perm is not None:
        answer["systemMessage"] = (
            f"a Cursor hook answered permission {perm!r} (allow, deny or ask); ignored"
        )
    if out.get("continue") is False:
        answer["decision"] = "deny"
        answer["reason"] = reason or "Blocked by a Cursor hook"
    follow = out.get("followup_message")
    if isinstance(follow, str) and follow:
        answer["decision"] = "deny"  # AfterAgent's deny: the agent goes on, with this message
        answer["reason"] = follow
    user = out.get("user_message")
    if "decision" not in answer and isinstance(user, str) and user:
        answer["systemMessage"] = user
    return answer


def _agy(event: str, out: dict[str, Any]) -> dict[str, Any]:
    """agy (reported): ``decision`` allow/deny/ask/force_ask + ``reason``; ``injectSteps`` text as
    context; on a tool call an answer without a decision is a deny, as agy reads it."""
    answer: dict[str, Any] = {}
    d = out.get("decision")
    reason = out.get("reason")
    if d in ("allow", "deny", "ask", "block"):
        answer["decision"] = d
    elif d == "force_ask":
        answer["decision"] = "ask"
    elif event == "PreToolUse":
        answer["decision"] = "deny"
        reason = "an agy hook answered without a decision, which agy reads as a deny" + (
            f" ({reason})" if isinstance(reason, str) and reason else ""
        )
    if "decision" in answer and isinstance(reason, str) and reason:
        answer["reason"] = reason
    steps = out.get("injectSteps")
    texts = [s.get("text") for s in steps if isinstance(s, dict)] if isinstance(steps, list) else []
    context = "\n".join(t for t in texts if isinstance(t, str) and t)
    if context:
        answer["hookSpecificOutput"] = {"additionalContext": context}
    return answer


def _windsurf(event: str, out: dict[str, Any]) -> dict[str, Any]:
    """Windsurf reads no JSON: only exit 2 blocks (read by the contract's exit-code rules)."""
    return {}


def _copilot(event: str, out: dict[str, Any], payload: dict[str, Any]) -> dict[str, Any]:
    """Copilot's camelCase answers: ``permissionDecision`` (+ reason, ``modifiedArgs``) on
    ``preToolUse``, ``decision: "block"`` + ``reason`` on ``agentStop``/``subagentStop``,
    ``additionalContext``. Its payloads do not name their event: ``event`` is the contract's
    (BeforeTool, AfterAgent…)."""
    answer: dict[str, Any] = {}
    reason = out.get("permissionDecisionReason") or out.get("reason")
    d = out.get("permissionDecision") if event == "BeforeTool" else None
    if d in ("allow", "deny", "ask"):
        answer["decision"] = d
    if event == "AfterAgent" and out.get("decision") == "block":
        answer["decision"] = "deny"  # AfterAgent's deny: the agent goes on, with the reason
    if "decision" in answer and isinstance(reason, str) and reason:
        answer["reason"] = reason
    hso: dict[str, Any] = {}
    args = out.get("modifiedArgs")
    if event == "BeforeTool" and isinstance(args, dict):
        from hookwise.bridge.agents import AGENTS
        from hookwise.bridge.common import contract_tool

        tool = payload.get("toolName")
        hso["tool_input"] = contract_tool(AGENTS["copilot"], str(tool or ""), args)[1]
    context = out.get("additionalContext")
    if isinstance(context, str) and context:
        hso["additionalContext"] = context
    if hso:
        answer["hookSpecificOutput"] = hso
    return answer


READERS: dict[str, Reader] = {"cursor": _cursor, "agy": _agy, "windsurf": _windsurf}


class AgentDialect:
    """The dialect of a moved hook: stdin is the agent's payload as is; the answer, read as the
    agent reads it, becomes a contract answer. Exit codes follow the contract's rules (2 blocks,
    with stderr)."""

    def __init__(self, style: str) -> None:
        self.name = f"agent-{style}"
        self.style = style
        self._read = READERS.get(style, _windsurf)

    def input_key(self, entry: HookEntry) -> object:
        return None

    def encode_input(self, event: Any, inp: dict[str, Any], entry: HookEntry) -> dict[str, Any]:
        return inp

    def normalize_output(self, event: Any, output: dict[str, Any], inp: Any) -> dict[str, Any]:
        if self.style == "copilot":
            return _copilot(getattr(event, "value", str(event)), output, inp)
        own = inp.get("hook_event_name") or inp.get("hookEventName") or inp.get("agent_action_name")
        return self._read(str(own or ""), output)

    def text_output(self, event: Any, text: str) -> dict[str, Any] | None:
        # plain text is no decision in these agents (and never an allow of the contract's)
        return {}

    def interpret(
        self, it: Any, *, exit_code: int | None, stdout: str, stderr: str, name: str
    ) -> Any:
        from hookwise.core.interpret import Interpretation
        from hookwise.result import Outcome

        if it.outcome is Outcome.BLOCKED:  # exit 2: a block in these agents, whatever stdout says
            reason = stderr.strip() or f"hook {name} exited 2"
            return Interpretation(Outcome.BLOCKED, {"decision": "deny", "reason": reason}, None)
        if self.name == "agent-agy" and exit_code == 0 and not it.is_json:
            # agy reads an empty or unreadable answer as {}: read by _agy (a deny on a tool call)
            return Interpretation(it.outcome, {}, it.error, True)
        return it

    def notes(self, event: Any, output: dict[str, Any], inp: Any = None) -> list[str]:
        return []


CURSOR = AgentDialect("cursor")
AGY = AgentDialect("agy")
WINDSURF = AgentDialect("windsurf")
COPILOT = AgentDialect("copilot")


# --------------------------------------------------------------------------- entries


def entries_of(
    agent: Agent, label: str, store: str, doc: dict[str, Any]
) -> tuple[list[HookEntry], list[str]]:
    """The hooks of ``doc`` (the agent's original file, kept in ``store``) as entries the bridge
    runs apart: ``extra["agent_event"]`` is their own event, ``extra["relay"]`` marks them as never
    planned."""
    entries: list[HookEntry] = []
    warnings: list[str] = []
    hooks = doc.get("hooks")
    if not isinstance(hooks, dict):
        return entries, warnings
    for ev, items in hooks.items():
        if not isinstance(items, list):
            warnings.append(
                f"{store}: /original: hooks.{ev} is not an array; its hooks are not run"
            )
            continue
        target = agent.contract_event(ev)
        for i, item in enumerate(items):
            for j, (cmd, timeout, name, env) in enumerate(_commands(agent.config, item)):
                if target is None:  # install --take-over left it in the agent's file, which runs it
                    continue
                entries.append(
                    _entry(agent, label, store, ev, target, (cmd, timeout, name, env), f"{i}/{j}")
                )
    return entries, warnings


def _commands(style: str, item: Any) -> list[Command]:
    """The hooks of one item of the agent's file (agy: a named group of hooks)."""
    if not isinstance(item, dict):
        return []
    if style == "agy":
        group = item.get("hooks")
        name = str(item["name"]) if isinstance(item.get("name"), str) else ""
        return [c for h in group if (c := _one(h, name))] if isinstance(group, list) else []
    if style == "copilot":  # {type, bash, powershell, cwd, env, timeoutSec}
        item = {**item, "command": item.get("bash"), "timeout": item.get("timeoutSec")}
    one = _one(item, "")
    where = item.get("working_directory" if style == "windsurf" else "cwd")
    if one and style in ("windsurf", "copilot") and isinstance(where, str) and where:
        import shlex

        cmd, timeout, name, env = one
        one = (f"cd {shlex.quote(where)} && {cmd}", timeout, name, env)
    return [one] if one else []


def _one(hook: Any, group: str) -> Command | None:
    if (
        not isinstance(hook, dict)
        or not isinstance(hook.get("command"), str)
        or not hook["command"].strip()
    ):
        return None
    name = str(hook["name"]) if isinstance(hook.get("name"), str) else group
    raw = hook.get("env")
    env = {str(k): str(v) for k, v in raw.items()} if isinstance(raw, dict) else {}
    return str(hook["command"]), hook.get("timeout"), name, env


def _entry(
    agent: Agent, label: str, store: str, ev: str, target: str, hook: Command, at: str
) -> HookEntry:
    from hookwise.core.registry import HookEntry
    from hookwise.events import HookEvent
    from hookwise.runners import KINDS, spec_from_keys

    cmd, timeout, name, env = hook
    secs = (
        timeout
        if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and timeout > 0
        else None
    )
    return HookEntry(
        event=HookEvent(target),
        spec=spec_from_keys(KINDS["command"], {"command": cmd}),
        name=name,
        timeout_ms=int((secs or DEFAULT_TIMEOUT_S) * 1000),
        source=label,
        file=store,
        pointer=f"/original/hooks/{ev}/{at}",
        env=env,
        dialect=f"agent-{agent.config}",
        # agy reads a hook that gave no readable answer as a deny (reported): on a tool call a moved
        # agy hook that failed, timed out or could not start denies too
        fail_closed=agent.config == "agy" and ev == "PreToolUse",
        extra={"relay": "", "agent_event": ev},
    )


# --------------------------------------------------------------------------- firing


def moved_for(hs: HookSystem, agent_event: str) -> list[HookEntry]:
    return [
        e for e in hs.settings.relayed if e.extra.get("agent_event") == agent_event and e.enabled
    ]


def fire(hs: HookSystem, req: Request, result: FireResult, moved: list[HookEntry]) -> FireResult:
    """Run the moved hooks of ``req``'s agent event on the agent's payload and merge their answers
    with the contract hooks' ``result`` (one verdict: deny wins, messages and warnings kept)."""
    from hookwise.core.execute import run_plan
    from hookwise.core.merge import merge
    from hookwise.core.plan import Plan
    from hookwise.result import FireResult as Result
    from hookwise.result import outcome_warnings
    from hookwise.runners.base import Firing
    from hookwise.trace import hook_call_record

    ev = result.event
    outcomes = run_plan(Firing(ev, hs), Plan(tuple(moved), False), req.payload, hs.runners)
    for o in outcomes:
        o.event = req.agent_event
        try:
            hs.trace_record(hook_call_record(req.payload, o))
        except Exception as exc:  # the verdict must survive a broken trace file
            result.warnings.append(f"could not record hook {o.name} in the trace: {exc}")
    hooks = [*result.hooks, *outcomes]
    outputs = [o.output for o in hooks if o.output]
    warnings = [*result.warnings, *outcome_warnings(ev, outcomes, hs.output_cap)]
    return Result(ev, result.input, merge(ev, outputs, result.input), hooks, warnings)
