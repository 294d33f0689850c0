"""Claude events the contract lacks, passed to Claude-format hooks under their own name
(docs/agents.md, "Events the contract lacks").

When ``hookwise hook claude|codex|qwen`` receives ``PermissionRequest``, ``PermissionDenied``,
``SubagentStart``, ``PostCompact`` or ``StopFailure``, no contract event means the same, so no
contract hook runs; the Claude-format hooks configured under that very event name in the sources
hookwise reads (:attr:`LoadedSettings.relayed <hookwise.settings.load.LoadedSettings.relayed>`, and
what ``install --take-over`` moved) run with the agent's payload as the agent sent it, through the
same runner as every hook (trust, timeouts, ``failClosed``, the output cap, the trace), and their
answers are merged here in Claude's format: deny wins, then allow; contexts and messages are joined;
every hook that failed, timed out or was skipped is named in ``systemMessage``.
"""

from __future__ import annotations

import copy
import os

from hookwise._records import TYPE_CHECKING, dataclass
from hookwise.bridge.common import messages_text
from hookwise.jsonc.codec import dumps
from hookwise.result import Outcome

if TYPE_CHECKING:
    from typing import Any

    from hookwise.bridge.agents import Agent
    from hookwise.core.registry import HookEntry
    from hookwise.engine import HookSystem
    from hookwise.result import HookOutcome


@dataclass(frozen=True)
class Relay:
    """How one relayed event is matched and answered."""

    #: the payload field its matcher is compared with (``None``: the matcher is not used)
    match_field: str | None
    #: ``permission`` (``decision.behavior`` allow/deny), ``retry``, ``context`` or ``observe``
    answer: str


#: every relayed event (hookwise.claude.names.RELAYED_EVENTS; a test keeps the two alike)
RELAYS: dict[str, Relay] = {
    "PermissionRequest": Relay("tool_name", "permission"),
    "PermissionDenied": Relay("tool_name", "retry"),
    "SubagentStart": Relay("agent_type", "context"),
    "PostCompact": Relay("trigger", "observe"),
    "StopFailure": Relay("error", "observe"),
}

#: the dialect relayed hooks run in (hookwise.runners.dialects.DIALECTS): the agent's payload as is
DIALECT = "agent-claude"

#: agents that cannot apply a hook's ``updatedInput`` on a permission request (as on PreToolUse:
#: core)
_NO_REWRITE = frozenset({"codex", "qwen"})


class VerbatimClaude:
    """The dialect of relayed hooks: stdin is the agent's own payload, the answer is kept as the
    hook wrote it (read by :func:`answer`), and a finished process is read by Claude's rules (exit 2
    blocks)."""

    name = DIALECT

    def input_key(self, entry: HookEntry) -> object:
        return None

    def encode_input(self, event: Any, inp: dict[str, Any], entry: HookEntry) -> dict[str, Any]:
        return inp

    def normalize_output(self, event: Any, output: dict[str, Any], inp: Any) -> dict[str, Any]:
        return output

    def text_output(self, event: Any, text: str) -> dict[str, Any] | None:
        return None

    def interpret(
        self, it: Any, *, exit_code: int | None, stdout: str, stderr: str, name: str
    ) -> Any:
        from hookwise.claude.dialect import claude_interpretation

        return claude_interpretation(
            it, exit_code=exit_code, stdout=stdout, stderr=stderr, name=name
        )

    def notes(self, event: Any, output: dict[str, Any], inp: Any = None) -> list[str]:
        return []


VERBATIM = VerbatimClaude()


def relays(agent: Agent, agent_event: str) -> bool:
    """``agent``'s ``agent_event`` is passed to Claude-format hooks under its own name."""
    return agent_event in agent.relayed and agent_event in RELAYS


def as_claude(agent: Agent, payload: dict[str, Any]) -> dict[str, Any]:
    """The payload as Claude Code would send it: Claude's tool and parameter names (Qwen sends
    Gemini's tool ids, Codex its own tools); Claude Code's own payload is passed as it came."""
    tool = payload.get("tool_name")
    if agent.name == "claude" or not isinstance(tool, str) or not tool:
        return payload
    from hookwise.bridge.common import contract_tool
    from hookwise.claude.names import params_to_claude, tool_to_claude

    name, args, mcp = contract_tool(agent, tool, payload.get("tool_input"))
    claude_args = params_to_claude(name, args)
    return {**payload, "tool_name": tool_to_claude(name, mcp), "tool_input": claude_args}


def matching(
    entries: list[HookEntry],
    agent_event: str,
    payload: dict[str, Any],
    hs: HookSystem,
    notes: list[str],
) -> list[HookEntry]:
    """The enabled relayed hooks of ``agent_event`` whose Claude matcher and ``if`` rule accept the
    payload (an ``if`` that does not parse skips its hook, with a warning in ``notes``)."""
    rel = RELAYS[agent_event]
    value = payload.get(rel.match_field) if rel.match_field else None
    out = []
    for e in entries:
        if e.extra.get("claude_event") != agent_event or not e.enabled:
            continue
        if rel.match_field is not None and not _matches(
            e.matcher, value if isinstance(value, str) else ""
        ):
            continue
        if e.condition is None or _condition(e, payload, hs, notes):
            out.append(e)
    return out


def _condition(e: HookEntry, payload: dict[str, Any], hs: HookSystem, notes: list[str]) -> bool:
    """``e``'s ``if`` rule on the payload's tool call (Claude's names: :func:`as_claude`)."""
    from hookwise.core.plan import condition_error
    from hookwise.core.rules import parse_rule

    err = condition_error(e)
    if err is not None:
        notes.append(f"hook {e.display_name} ({e.extra.get('claude_event')}) was skipped: {err}")
        return False
    tool, args, cwd = payload.get("tool_name"), payload.get("tool_input"), payload.get("cwd")
    if not isinstance(tool, str):
        return False  # Claude Code evaluates ``if`` on tool calls only
    home = hs.env.get("HOME") or os.path.expanduser("~")
    return parse_rule(str(e.condition)).matches(
        tool,
        args if isinstance(args, dict) else {},
        cwd=cwd if isinstance(cwd, str) and cwd else hs.project_dir,
        project_dir=hs.project_dir,
        home=home,
    )


def _matches(matcher: str | None, value: str) -> bool:
    """Claude Code's matcher rule: empty or ``*`` matches everything, names joined by ``|`` exactly,
    anything else is a regular expression (searched; an invalid one matches nothing)."""
    if not matcher or matcher == "*":
        return True
    if all(c.isalnum() or c in "_|-" for c in matcher):
        return value in matcher.split("|")
    from hookwise.core.matching import compile_regex

    try:
        return compile_regex(matcher).search(value)
    except ValueError:  # re.error and Unbounded are ValueErrors
        return False


def run(
    hs: HookSystem,
    agent_event: str,
    entries: list[HookEntry],
    payload: dict[str, Any],
    notes: list[str],
) -> list[HookOutcome]:
    """Run the relayed hooks on the agent's payload (all at once, as Claude Code runs an event's
    hooks); their outcomes, named after the agent's event and written to the trace like any hook
    call (a trace that cannot be written is a warning in ``notes``)."""
    from hookwise.claude.loader import RELAY_CARRIER
    from hookwise.core.execute import run_plan
    from hookwise.core.plan import Plan
    from hookwise.runners.base import Firing

    todo = []
    for e in entries:
        c = copy.copy(e)
        c.dialect = DIALECT
        todo.append(c)
    outcomes = run_plan(Firing(RELAY_CARRIER, hs), Plan(tuple(todo), False), payload, hs.runners)
    for o in outcomes:
        o.event = agent_event
    from hookwise.trace import hook_call_record

    for o in outcomes:
        try:
            hs.trace_record(hook_call_record(payload, o))
        except Exception as exc:  # the answer must survive a broken trace file
            notes.append(f"could not record hook {o.name} ({agent_event}) in the trace: {exc}")
            break
    return outcomes


def answer(
    agent: Agent,
    agent_event: str,
    outcomes: list[HookOutcome],
    entries: list[HookEntry],
    warnings: list[str],
) -> str:
    """The merged answer of the relayed hooks, in Claude's format: the agent's stdout."""
    notes = list(warnings)
    out: dict[str, Any] = {}
    hso: dict[str, Any] = {}
    kind = RELAYS[agent_event].answer
    said: list[dict[str, Any]] = []
    for e, o in zip(entries, outcomes, strict=True):
        if e.run_async:  # Claude Code does not wait for an async hook: its answer cannot act
            notes.extend(w for w in [_problem(o)] if w)
            continue
        own = _own_answer(e, o, kind, notes)
        if own is not None:
            said.append(own)
    if kind == "permission":
        _permission(agent, said, hso, notes)
    elif kind == "retry" and any(_hso(a).get("retry") is True for a in said):
        hso["retry"] = True
    elif kind == "context":
        texts = [c for a in said if isinstance(c := _hso(a).get("additionalContext"), str) and c]
        if texts:
            hso["additionalContext"] = "\n".join(texts)
    _common(said, out)
    if hso:
        out["hookSpecificOutput"] = {"hookEventName": agent_event, **hso}
    system = [m for a in said if isinstance(m := a.get("systemMessage"), str) and m]
    text = messages_text("\n".join(system) or None, notes)
    if text:
        out["systemMessage"] = text
    return dumps(out, ensure_ascii=False) + "\n" if out else ""


def _hso(a: dict[str, Any]) -> dict[str, Any]:
    h = a.get("hookSpecificOutput")
    return h if isinstance(h, dict) else {}


def _problem(o: HookOutcome) -> str | None:
    from hookwise.result import outcome_warning

    return outcome_warning(o) if o.outcome is not Outcome.OK else None


def _own_answer(e: HookEntry, o: HookOutcome, kind: str, notes: list[str]) -> dict[str, Any] | None:
    """One hook's answer as Claude reads it; what went wrong is a note (never silent)."""
    from hookwise.result import outcome_warning

    if o.outcome is Outcome.BLOCKED:  # exit 2
        reason = (o.stderr or "").strip() or f"hook {o.name} exited 2"
        if kind == "permission":
            return {"hookSpecificOutput": {"decision": {"behavior": "deny", "message": reason}}}
        notes.append(f"hook {o.name} ({o.event}) exited 2, which cannot block {o.event}: {reason}")
        return o.output
    if o.outcome is not Outcome.OK:
        w = outcome_warning(o)
        if w:
            notes.append(w)
        if e.fail_closed and o.outcome in (Outcome.FAILED, Outcome.NOT_RUN, Outcome.TIMEOUT):
            reason = f"Hook {o.name} failed closed ({o.outcome.value}: {o.error or 'no detail'})"
            if kind == "permission":
                return {"hookSpecificOutput": {"decision": {"behavior": "deny", "message": reason}}}
            notes.append(f"{reason}; {o.event} cannot be blocked")
        return None
    notes.extend(o.notes)
    return o.output


def _permission(
    agent: Agent, said: list[dict[str, Any]], hso: dict[str, Any], notes: list[str]
) -> None:
    """Deny wins (messages joined, ``interrupt`` when any asks); else allow, with the first hook's
    ``updatedInput`` and every hook's ``updatedPermissions``; else no decision (the agent asks the
    user)."""
    decisions = [d for a in said if isinstance(d := _hso(a).get("decision"), dict)]
    for d in decisions:
        if d.get("behavior") not in ("allow", "deny"):
            notes.append(
                f"a PermissionRequest hook answered decision.behavior {d.get('behavior')!r} "
                "(expected allow or deny); ignored"
            )
    denies = [d for d in decisions if d.get("behavior") == "deny"]
    allows = [d for d in decisions if d.get("behavior") == "allow"]
    if denies:
        msgs = [m for d in denies if isinstance(m := d.get("message"), str) and m]
        dec: dict[str, Any] = {
            "behavior": "deny",
            "message": "\n".join(msgs) or "Denied by a hookwise hook",
        }
        if any(d.get("interrupt") is True for d in denies):
            dec["interrupt"] = True
        hso["decision"] = dec
        return
    if not allows:
        return
    dec = {"behavior": "allow"}
    inputs = [u for d in allows if isinstance(u := d.get("updatedInput"), dict)]
    if inputs and agent.name in _NO_REWRITE:
        hso["decision"] = {
            "behavior": "deny",
            "message": (
                f"a hook rewrote the arguments of this call, and {agent.product} cannot apply "
                "rewritten arguments; the call is denied rather than run unchanged"
            ),
        }
        return
    if inputs:
        dec["updatedInput"] = inputs[0]
        if any(u != inputs[0] for u in inputs[1:]):
            notes.append(
                "PermissionRequest hooks rewrote the input differently; the first hook's rewrite "
                "is used"
            )
    perms = [p for d in allows if isinstance(ps := d.get("updatedPermissions"), list) for p in ps]
    if perms:
        dec["updatedPermissions"] = perms
    hso["decision"] = dec


def _common(said: list[dict[str, Any]], out: dict[str, Any]) -> None:
    """``continue: false`` (the first ``stopReason``) and ``suppressOutput``, from any hook."""
    stops = [a for a in said if a.get("continue") is False]
    if stops:
        out["continue"] = False
        reason = next((r for a in stops if isinstance(r := a.get("stopReason"), str) and r), None)
        out["stopReason"] = reason or "Stopped by a hookwise hook"
    if any(a.get("suppressOutput") is True for a in said):
        out["suppressOutput"] = True
