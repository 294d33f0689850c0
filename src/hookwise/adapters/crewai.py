"""CrewAI crews governed by a project's hooks: :class:`HookwiseCrewHooks` (CrewAI's execution
hooks).

::

    from hookwise.adapters.crewai import HookwiseCrewHooks      # pip install "hookwise[crewai]"

    with HookwiseCrewHooks("."):        # registers CrewAI execution hooks
        crew.kickoff()                  # every crew of the process is governed

Keywords (docs/adapters.md): ``ask="deny" | approve``, ``on_message``, ``tool_aliases``,
``session_id``, ``seams``. CrewAI's execution hooks are process-wide (``crewai.hooks.register_*``):
while the object is open (until :meth:`HookwiseCrewHooks.close`, which also fires SessionEnd) every
crew and agent of the process runs under the project's hooks. CrewAI catches what its hooks raise
and goes on (fail-open), so this adapter never raises from a hook: a stop or a block refuses the
next model call, which CrewAI reports by raising
``ValueError("LLM call blocked by before_llm_call hook")`` out of ``kickoff()``;
:attr:`HookwiseCrewHooks.stop_reason` says why.

============================  ====  ================================================================
event / field                       how
============================  ====  ================================================================
SessionStart                  ◐     the first task an agent starts (``startup``); its context joins
                                    that task's context
SessionEnd                    ◐     :meth:`~HookwiseCrewHooks.close` (``exit``), or when collected /
                                    at exit
BeforeAgent                   ◐     fired when an agent starts a task (its first model call);
                                    ``prompt`` is the task's description. additionalContext ✔ (added
                                    to the task's prompt message: the task's own history); block /
                                    stop ◐ (the model call is refused: ``kickoff()`` raises CrewAI's
                                    ValueError)
AfterAgent                    ◐     fired on an agent's ``Final Answer``; retry ✘ (a warning;
                                    CrewAI's own ``Task(guardrail=…)`` retries); stop ◐ as above
BeforeModel llm_request       ◐     messages ✔ (edited in place); config and ``model`` ✘;
                                    llm_response ✘ (CrewAI cannot skip the model): warnings
BeforeToolSelection           ✘     CrewAI's agents call tools in text (ReAct): warning
AfterModel llm_response       ◐     the response text is replaced (in a ReAct response the text *is*
                                    the tool call: a replacement replaces it too); deny ◐ the
                                    response becomes a ``Final Answer: Agent execution blocked:
                                    <reason>``
BeforeTool deny               ◐     the tool does not run; the model reads CrewAI's own ``Tool
                                    execution blocked by hook. Tool: <name>`` (the reason goes to
                                    ``on_message("block", …)``)
BeforeTool tool_input         ✔     merged into the arguments in place; the result carries the note
BeforeTool ask                ◐     ``"deny"`` refuses, a callable decides inline (after a
                                    Notification)
BeforeTool / AfterTool stop   ◐     the call is refused and so is the next model call (see above)
AfterTool additionalContext   ✔     appended to the tool's result
AfterTool block               ✔     the result is replaced by the reason
AfterTool tailToolCallRequest ✔     the agent's other tool runs (its own BeforeTool/AfterTool) and
                                    its result answers the call; capped at 16
PreCompress                   ✘     no CrewAI event
systemMessage                 ◐     ``on_message("system", …)`` and the ``hookwise`` logger
============================  ====  ================================================================
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from hookwise.adapters import require

require("crewai")

from crewai.hooks import (  # noqa: E402
    register_after_llm_call_hook,
    register_after_tool_call_hook,
    register_before_llm_call_hook,
    register_before_tool_call_hook,
    unregister_after_llm_call_hook,
    unregister_after_tool_call_hook,
    unregister_before_llm_call_hook,
    unregister_before_tool_call_hook,
)

from hookwise.adapters import _codec as codec  # noqa: E402
from hookwise.adapters._bridge import (  # noqa: E402
    RUN_EVENTS,
    TOOL_EVENTS,
    AskPolicy,
    HookBridge,
    OnMessage,
    SeamPolicy,
    SessionLifecycle,
    TurnState,
)
from hookwise.engine import HookSystem  # noqa: E402
from hookwise.events import HookEvent  # noqa: E402
from hookwise.host import llm_format as fmt  # noqa: E402
from hookwise.host import verdicts  # noqa: E402

__all__ = ["HookwiseCrewHooks"]

SEAMS: dict[str, frozenset[HookEvent]] = {
    "llm": RUN_EVENTS - {HookEvent.BEFORE_TOOL, HookEvent.AFTER_TOOL},
    "tool": TOOL_EVENTS,
}
_HINT = 'close this HookwiseCrewHooks and open a new one, or pass seams="all"'
_FINAL = re.compile(r"Final Answer:\s*(.*)\Z", re.S)


def _role(m: dict[str, Any]) -> str:
    return "model" if m.get("role") == "assistant" else "user"


def _entries(messages: list[dict[str, Any]]) -> list[codec.Entry]:
    """CrewAI's messages (system prompt, task prompt, the agent's ReAct turns) as hooks see them."""
    return [
        codec.Entry(_role(m), str(m.get("content") or "") or None)
        for m in messages
        if m.get("role") in ("user", "assistant")
    ]


class HookwiseCrewHooks(SessionLifecycle):
    """Registers CrewAI execution hooks that fire the project's hooks (see the module docstring)."""

    def __init__(
        self,
        hooks: HookSystem | str | os.PathLike[str] = ".",
        *,
        ask: AskPolicy = "deny",
        on_message: OnMessage | None = None,
        tool_aliases: dict[str, str] | None = None,
        session_id: str | None = None,
        seams: SeamPolicy = "configured",
    ) -> None:
        self.bridge = HookBridge(
            hooks,
            framework="crewai",
            ask=ask,
            on_message=on_message,
            tool_aliases=tool_aliases,
            session_id=session_id,
            seams=seams,
        )
        self.bridge.end_with(self)  # SessionEnd when this object is collected or the process exits
        self.hooks = self.bridge.hooks
        self.stop_reason: str | None = None
        self._turns: dict[int, TurnState] = {}  # id(executor) -> the task run's state
        self._tool_turn = TurnState()  # tool calls: the stop they share with the model calls
        self._registered: list[tuple[Any, Any]] = []
        self._modified: set[int] = set()  # id(tool_input) of calls a BeforeTool hook rewrote
        chosen = self.bridge.choose_seams(SEAMS, always=(HookEvent.SESSION_END,), hint=_HINT)
        self._llm = "llm" in chosen
        if chosen:  # (with tool hooks only: it refuses the model call after a tool hook's stop)
            self._register(
                register_before_llm_call_hook, unregister_before_llm_call_hook, self.before_llm
            )
        if self._llm:
            self._register(
                register_after_llm_call_hook, unregister_after_llm_call_hook, self.after_llm
            )
        if "tool" in chosen:
            self._register(
                register_before_tool_call_hook, unregister_before_tool_call_hook, self.before_tool
            )
            self._register(
                register_after_tool_call_hook, unregister_after_tool_call_hook, self.after_tool
            )
        if self.bridge.wants(HookEvent.BEFORE_TOOL_SELECTION):
            self.bridge.warn_unsupported(
                HookEvent.BEFORE_TOOL_SELECTION, "toolConfig", "CrewAI agents call tools in text"
            )

    def _register(self, register: Any, unregister: Any, hook: Any) -> None:
        register(hook)
        self._registered.append((unregister, hook))

    def close(self) -> None:
        """Unregister the execution hooks and end the session (SessionEnd, ``reason: "exit"``)."""
        for unregister, hook in self._registered:
            unregister(hook)
        self._registered.clear()
        self.bridge.end_session()

    # ---- state -----------------------------------------------------------------------------------
    def _stop(self, reason: str) -> None:
        self.stop_reason = self.stop_reason or reason
        self._tool_turn.stop = self.stop_reason

    def _turn(self, ctx: Any) -> TurnState | None:
        """This task run's state; None when it starts now (BeforeAgent has not fired yet)."""
        return self._turns.get(id(ctx.executor))

    # ---- model calls: BeforeAgent, BeforeModel ---------------------------------------------------
    def before_llm(self, ctx: Any) -> bool | None:
        if self.stop_reason is not None:
            return False
        if not self._llm:
            return None
        turn = self._turn(ctx)
        if turn is None:
            turn = self._turns[id(ctx.executor)] = TurnState(
                prompt=str(getattr(ctx.task, "description", "") or "")
            )
            if not self._before_agent(ctx, turn):
                return False
        if self.bridge.wants(HookEvent.BEFORE_MODEL):
            return self._before_model(ctx, turn)
        return None

    def _before_agent(self, ctx: Any, turn: TurnState) -> bool:
        bridge = self.bridge
        contexts: list[str] = []
        start = bridge.drive(bridge.session_start_steps("startup"))
        if start:
            contexts.append(start)
        if bridge.wants(HookEvent.BEFORE_AGENT):
            v = bridge.before_agent(turn, bridge.fire(HookEvent.BEFORE_AGENT, prompt=turn.prompt))
            if v.kind != "run":
                self._stop(v.reason)
                return False
            if v.context:
                contexts.append(v.context)
        context = "".join(contexts)
        users = [m for m in ctx.messages if m.get("role") == "user"]
        if context and users:
            users[-1]["content"] = f"{users[-1]['content']}\n\n{context}"
        return True

    def _before_model(self, ctx: Any, turn: TurnState) -> bool | None:
        bridge = self.bridge
        listed = [m for m in ctx.messages if m.get("role") in ("user", "assistant")]
        live = codec.request_dict(str(getattr(ctx.llm, "model", "") or "crewai"), _entries(listed))
        v = bridge.before_model(
            turn, bridge.fire(HookEvent.BEFORE_MODEL, llm_request=fmt.to_llm_request(live)), live
        )
        if v.kind == "stop":
            self._stop(v.reason)
            return False
        if v.kind in ("synthetic", "skip"):
            bridge.warn_unsupported(
                HookEvent.BEFORE_MODEL,
                "llm_response",
                "CrewAI cannot answer without calling the model",
            )
            return None
        if v.request is not live:
            for e in codec.edited_entries(live, v.request):
                if e.source is not None and e.changed and e.text is not None:
                    listed[e.source]["content"] = e.text
            if codec.config_changes(live, v.request) or codec.model_changed(live, v.request):
                bridge.warn_unsupported(
                    HookEvent.BEFORE_MODEL,
                    "llm_request.config",
                    "CrewAI's LLM settings are fixed per agent",
                )
        return None

    # ---- model calls: AfterModel, AfterAgent -----------------------------------------------------
    def after_llm(self, ctx: Any) -> str | None:
        turn = self._turn(ctx)
        response = str(ctx.response or "")
        if turn is None or self.stop_reason is not None:
            return None
        out = (
            self._after_model(ctx, turn, response)
            if self.bridge.wants(HookEvent.AFTER_MODEL)
            else None
        )
        final = _FINAL.search(out if out is not None else response)
        if final is not None and self.stop_reason is None:
            turn.texts.append(final.group(1).strip())
            self._after_agent(turn)
        return out

    def _after_model(self, ctx: Any, turn: TurnState, response: str) -> str | None:
        bridge = self.bridge
        listed = [m for m in ctx.messages if m.get("role") in ("user", "assistant")]
        live = codec.request_dict(str(getattr(ctx.llm, "model", "") or "crewai"), _entries(listed))
        chunk = codec.response_chunk(response)
        v = bridge.after_model(
            turn,
            bridge.fire(
                HookEvent.AFTER_MODEL,
                llm_request=fmt.to_llm_request(live),
                llm_response=fmt.to_llm_response(chunk),
            ),
            chunk,
        )
        if v.kind == "stop":
            self._stop(v.reason)
            return None
        if v.kind == "deny":
            return f"Thought: blocked\nFinal Answer: {verdicts.blocked_line(v.reason)}"
        if v.kind == "replace":
            return codec.parts_text(v.parts)
        return None

    def _after_agent(self, turn: TurnState) -> None:
        bridge = self.bridge
        if not bridge.wants(HookEvent.AFTER_AGENT):
            return
        v = bridge.after_agent(
            turn, bridge.fire(HookEvent.AFTER_AGENT, **bridge.after_agent_fields(turn))
        )
        if v.kind == "stop":
            self._stop(v.reason)
        elif v.kind in ("retry", "capped"):
            bridge.warn_unsupported(
                HookEvent.AFTER_AGENT,
                "decision",
                "a CrewAI agent's Final Answer ends its task; retry with the Task's own guardrail",
            )

    # ---- tool calls ------------------------------------------------------------------------------
    def before_tool(self, ctx: Any) -> bool | None:
        if self.stop_reason is not None:
            return False
        verdict = self._before_tool(ctx.tool_name, dict(ctx.tool_input), None)
        if verdict is None:
            return None
        if isinstance(verdict, str):  # refused: CrewAI shows its own blocked text
            return False
        ctx.tool_input.clear()
        ctx.tool_input.update(verdict.args)  # in place: the same dict CrewAI passes to the tool
        self._modified.add(id(ctx.tool_input))
        return None

    def _before_tool(
        self, native: str, args: dict[str, Any], original: str | None
    ) -> verdicts.ToolVerdict | str | None:
        """BeforeTool for a call: None (run as is), a verdict with the arguments to run, or the
        refusal text."""
        bridge = self.bridge
        names = bridge.tool_fields(native, original)
        if not bridge.wants(HookEvent.BEFORE_TOOL, names["tool_name"]):
            return None
        v = bridge.before_tool(
            self._tool_turn, bridge.fire(HookEvent.BEFORE_TOOL, **names, tool_input=args), args
        )
        if v.kind == "stop":
            self._stop(v.reason)
            return v.message
        if v.kind == "deny":
            bridge.blocked(v.reason)
            return v.message
        if v.kind == "ask":
            refusal = bridge.confirm(names["tool_name"], v.args, v.hook_text)
            if refusal is not None:
                return refusal
        return v if v.modified else None

    def after_tool(self, ctx: Any) -> str | None:
        modified = id(ctx.tool_input) in self._modified
        self._modified.discard(id(ctx.tool_input))
        text = str(ctx.tool_result if ctx.tool_result is not None else "")
        out = self._after_tool(ctx, ctx.tool_name, dict(ctx.tool_input), text, modified, 0, None)
        return out if out != text else None

    def _after_tool(
        self,
        ctx: Any,
        native: str,
        args: dict[str, Any],
        text: str,
        modified: bool,
        depth: int,
        original: str | None,
    ) -> str:
        bridge = self.bridge
        names = bridge.tool_fields(native, original)
        if not bridge.wants(HookEvent.AFTER_TOOL, names["tool_name"]):
            return text + verdicts.MODIFIED_NOTE if modified else text
        after = bridge.after_tool(
            self._tool_turn,
            bridge.fire(
                HookEvent.AFTER_TOOL,
                **names,
                tool_input=args,
                tool_response={"llmContent": text, "returnDisplay": text},
            ),
        )
        if after.kind == "stop":
            self._stop(after.reason)
            return after.reason
        if after.kind == "hide":
            return after.reason
        if after.text is not None:  # a hook's updatedToolOutput
            text = after.text
        out = (
            verdicts.model_facing_text(text, after.context, modified)
            if (after.context or modified)
            else text
        )
        if after.tail is None:
            return out
        if depth >= verdicts.MAX_TAIL_CALLS:
            bridge.warn(verdicts.tail_too_deep(after.tail[0]))
            return out
        return self._tail(ctx, after.tail, depth, original or names["tool_name"])

    def _tail(self, ctx: Any, tail: tuple[str, dict[str, Any]], depth: int, original: str) -> str:
        name = self.bridge.native_name(tail[0])
        tools = list(getattr(ctx.agent, "tools", None) or [])
        tool = next((t for t in tools if getattr(t, "name", None) == name), None)
        if tool is None:
            self.bridge.warn(
                f"tailToolCallRequest names an unknown tool {tail[0]!r}; it was ignored"
            )
            return verdicts.tool_blocked(f"unknown tool {tail[0]!r}")
        args = dict(tail[1])
        verdict = self._before_tool(name, args, original)
        if isinstance(verdict, str):
            return verdict
        run_args = verdict.args if verdict is not None else args
        try:
            result = tool.run(**run_args)
        except Exception as exc:  # the tail's failure answers the call, as a tool error would
            result = f"Error: {exc}"
        text = result if isinstance(result, str) else json.dumps(result, default=str)
        return self._after_tool(ctx, name, run_args, text, verdict is not None, depth + 1, original)
