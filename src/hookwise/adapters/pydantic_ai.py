"""pydantic-ai agents governed by a project's hooks: :class:`HookwiseCapability`.

::

    from pydantic_ai import Agent
    # pip install "hookwise[pydantic-ai]"
    from hookwise.adapters.pydantic_ai import HookwiseCapability

    agent = Agent(model, tools=[...], capabilities=[HookwiseCapability(".")])
    agent.run_sync("...")          # or await agent.run(...), agent.run_stream(...)

Keywords (docs/adapters.md): ``ask="deny" | "native" | approve``, ``on_message``, ``tool_aliases``,
``session_id``, ``max_agent_retries``. ``ask="native"`` raises pydantic-ai's ``ApprovalRequired``:
the agent's ``output_type`` must include ``DeferredToolRequests``; the run ends with them and goes
on with
``agent.run(message_history=…, deferred_tool_results=DeferredToolResults(approvals={id: bool}))``
(BeforeTool is not fired again for an approved call). pydantic-ai ends a run early only by raising,
so a stop raises :class:`hookwise.adapters.AgentStopped` (``.reason``; ``.messages`` is the run's
message history so far, to resume from). :meth:`HookwiseCapability.close` fires SessionEnd.

============================  ====  ================================================================
event / field                       how
============================  ====  ================================================================
SessionStart                  ◐     fired by the first run of this capability (``source:
                                    "startup"``); its context joins the first prompt's context (per
                                    prompt, not persisted)
SessionEnd                    ◐     :meth:`~HookwiseCapability.close` / ``aclose`` (``reason:
                                    "exit"``)
BeforeAgent block             ◐     the model is not called and the prompt is removed from the
                                    history; the run's output is ``Agent execution blocked:
                                    <reason>`` (a pydantic-ai run cannot end without an answer)
BeforeAgent stop              ✔     raises ``AgentStopped`` before the model is called
BeforeAgent additionalContext ✔     a request-only user part in every model request of that prompt
AfterAgent block (retry)      ✔     the reason is enqueued as a new user prompt (BeforeAgent fires
                                    for it) and the run goes on; ``stop_hook_active``; capped.
                                    ``run_stream`` ✘: the run has ended once its answer streams
                                    (warning)
AfterAgent clearContext       ✔     the run's message history is cleared before the next request
BeforeModel llm_request       ◐     messages and
                                    ``temperature``/``maxOutputTokens``/``topP``/``topK`` ✔;
                                    ``model`` ✘ (swapping models by name is left to pydantic-ai):
                                    warning
BeforeModel llm_response      ✔     ``wrap_model_request`` answers without calling the model
BeforeModel/AfterModel stop   ✔     raises ``AgentStopped``; the model is not called (BeforeModel)
BeforeToolSelection           ✔     ``function_tools`` filtered, ``tool_choice`` set (ANY →
                                    ``"required"`` or the names, NONE → ``"none"``); a call to a
                                    removed tool is refused
AfterModel                    ◐     once per model response: as ``hooksConfig.afterModel:
                                    "response"``; in ``run_stream`` after the answer has streamed to
                                    the caller (a replacement or deny changes the history, not what
                                    was already streamed)
AfterModel llm_response      ✔     text replaced, tool calls kept
AfterModel deny               ◐     text and tool calls discarded, the turn ends; the answer is
                                    ``Agent execution blocked: <reason>`` (never empty, as above)
BeforeTool deny / stop        ✔     the tool does not run; the model sees the blocked/stopped text
BeforeTool tool_input         ✔     merged over the arguments; the result carries the modified-input
                                    note
BeforeTool ask                ✔     ``ask`` keyword; Notification fires before the approval
AfterTool additionalContext   ✔     appended to the tool's result (the result becomes text)
AfterTool block / stop        ✔     the result is replaced by the reason / and the run stops
AfterTool tailToolCallRequest ✔     the other tool runs through pydantic-ai's tool manager (its own
                                    BeforeTool/AfterTool) and answers the original call id; capped
                                    at 16
PreCompress                   ✘     pydantic-ai has no history-compaction event
systemMessage                 ◐     ``on_message("system", …)`` and the ``hookwise`` logger (no UI)
============================  ====  ================================================================

**What no hook costs.** pydantic-ai runs every hook method of every capability it holds, so each run
registers only the seams its hooks need, decided at the start of the run (``for_run``): ``wrap_run``
and ``wrap_model_request`` when a hook of SessionStart, BeforeAgent, AfterAgent, BeforeModel,
BeforeToolSelection or AfterModel is configured, ``wrap_tool_execute`` when BeforeTool, AfterTool or
BeforeToolSelection hooks are. With no hook configured the run holds no hookwise capability at all.
Hooks configured while a run is under way fire from the next run on (``seams="all"``: every run
registers every seam).

pydantic-ai runs a step's tool calls concurrently: a stop from one call cannot stop a sibling
already running; calls that start after it get the "stopped before this call ran" text.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from typing import Any, NoReturn

from hookwise.adapters import require

require("pydantic_ai")

from pydantic_ai.capabilities import AbstractCapability, CombinedCapability  # noqa: E402
from pydantic_ai.exceptions import ApprovalRequired, ModelRetry  # noqa: E402
from pydantic_ai.messages import (  # noqa: E402
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ThinkingPart,
    ToolCallPart,
    UserPromptPart,
)

from hookwise.adapters import _codec as codec  # noqa: E402
from hookwise.adapters._bridge import (  # noqa: E402
    NATIVE,
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
from hookwise.errors import AgentStopped  # noqa: E402
from hookwise.events import HookEvent  # noqa: E402
from hookwise.host import llm_format as fmt  # noqa: E402
from hookwise.host import verdicts  # noqa: E402

__all__ = ["HookwiseCapability"]

#: stable ``config`` key -> pydantic-ai ``ModelSettings`` key
SETTINGS = {
    "temperature": "temperature",
    "maxOutputTokens": "max_tokens",
    "topP": "top_p",
    "topK": "top_k",
}

#: seam -> the events it serves. "run": ``wrap_run`` and ``wrap_model_request`` (the prompt, its
#: context, the answer texts, the model hooks, AfterAgent); "tool": ``wrap_tool_execute`` (a tool
#: hook's stop raises there)
SEAMS: dict[str, frozenset[HookEvent]] = {
    "run": RUN_EVENTS - {HookEvent.BEFORE_TOOL, HookEvent.AFTER_TOOL},
    "tool": TOOL_EVENTS,
}
_METHODS: dict[str, tuple[str, ...]] = {
    "run": ("wrap_run", "wrap_model_request"),
    "tool": ("wrap_tool_execute", "wrap_output_validate"),
}


def _prompt_text(prompt: Any) -> str:
    if prompt is None:
        return ""
    if isinstance(prompt, str):
        return prompt
    return "".join(p for p in prompt if isinstance(p, str))


def _user_text(part: UserPromptPart) -> str:
    return _prompt_text(part.content)


def _entries(messages: list[ModelMessage]) -> list[codec.Entry]:
    """One entry per message, its text parts joined as the reference host joins a content's parts
    (system prompts, tool calls/returns, retry prompts and thinking carry no text for hooks,
    docs/contract.md §13.1)."""
    entries: list[codec.Entry] = []
    for m in messages:
        if isinstance(m, ModelResponse):
            entries.append(
                codec.Entry(
                    "model", "".join(p.content for p in m.parts if isinstance(p, TextPart)) or None
                )
            )
        else:
            entries.append(
                codec.Entry(
                    "user",
                    "".join(_user_text(p) for p in m.parts if isinstance(p, UserPromptPart))
                    or None,
                )
            )
    return entries


def _with_text(message: ModelMessage, text: str) -> ModelMessage:
    """``message`` with its text parts replaced by one part holding ``text`` (other parts kept in
    place)."""
    kind: type[Any] = TextPart if isinstance(message, ModelResponse) else UserPromptPart
    parts: list[Any] = []
    placed = False
    for p in message.parts:
        if isinstance(p, kind):
            if not placed:
                parts.append(replace(p, content=text))
                placed = True
            continue
        parts.append(p)
    if not placed:
        parts.append(kind(text))
    return replace(message, parts=parts)  # type: ignore[arg-type]


def _response_text(response: ModelResponse) -> str:
    return "".join(p.content for p in response.parts if isinstance(p, TextPart))


def _output_tool_names(rc: Any) -> frozenset[str]:
    """The output tools of a request (structured ``output_type``: the answer is a call to one of
    them)."""
    params = getattr(rc, "model_request_parameters", None)
    return frozenset(t.name for t in getattr(params, "output_tools", None) or ())


def _answer_text(response: ModelResponse, output_tools: frozenset[str]) -> str:
    """What AfterAgent sees of a response: its text, and each output-tool call's arguments as
    JSON."""
    calls = [
        p.args_as_json_str()
        for p in response.parts
        if isinstance(p, ToolCallPart) and p.tool_name in output_tools
    ]
    return "".join([_response_text(response), *calls])


def _is_final(response: ModelResponse, output_tools: frozenset[str]) -> bool:
    """Does ``response`` end the run: no tool call, or a call to an output tool (structured output;
    pydantic-ai ends the run on it)?"""
    calls = [p.tool_name for p in response.parts if isinstance(p, ToolCallPart)]
    return not calls or any(name in output_tools for name in calls)


def _as_text(result: Any) -> str:
    if isinstance(result, str):
        return result
    try:
        return json.dumps(result, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(result)


class HookwiseCapability(SessionLifecycle, AbstractCapability[Any]):
    """Fires the project's hooks at every seam of a pydantic-ai agent (see the module docstring).

    This object overrides no hook method itself: :meth:`for_run` gives each run a capability with
    the seams its hooks need, or none.
    """

    def __init__(
        self,
        hooks: HookSystem | str | os.PathLike[str] = ".",
        *,
        ask: AskPolicy = "deny",
        on_message: OnMessage | None = None,
        tool_aliases: dict[str, str] | None = None,
        session_id: str | None = None,
        max_agent_retries: int = verdicts.DEFAULT_MAX_AGENT_RETRIES,
        seams: SeamPolicy = "configured",
    ) -> None:
        self.bridge = HookBridge(
            hooks,
            framework="pydantic-ai",
            ask=ask,
            on_message=on_message,
            tool_aliases=tool_aliases,
            session_id=session_id,
            max_agent_retries=max_agent_retries,
            seams=seams,
        )
        self.bridge.end_with(self)  # SessionEnd when this object is collected or the process exits
        self.hooks = self.bridge.hooks
        self.turn = TurnState()
        self._approved: dict[
            str, verdicts.ToolVerdict
        ] = {}  # BeforeTool verdicts of calls awaiting approval
        self._prompts: dict[
            str, str
        ] = {}  # "last": the last prompt, for a run that resumes it (no new prompt)

    async def for_run(self, ctx: Any) -> AbstractCapability[Any]:
        """This run's capability: the seams its hooks need (sharing the bridge, so the session and
        the warnings reported once, and the pending approvals), with its own state; with none
        needed, an empty combination, which pydantic-ai flattens away (the run is as without the
        capability)."""
        seams = self.bridge.seams(SEAMS)
        if (
            self._approved
        ):  # calls approved through DeferredToolResults keep their BeforeTool verdict
            seams |= {"tool"}
        if not seams:
            return CombinedCapability([])
        return _run_class(seams)(self)


class _Run(HookwiseCapability):
    """One run of a :class:`HookwiseCapability`: its seams and the run's state."""

    def __init__(
        self, owner: HookwiseCapability
    ) -> None:  # shares the owner's bridge, approvals and prompts
        self.bridge = owner.bridge
        self.hooks = owner.hooks
        self._approved = owner._approved
        self._prompts = owner._prompts
        self.turn = TurnState()

    # ---- the run: SessionStart, BeforeAgent, stops ----------------------------------------------
    async def wrap_run(self, ctx: Any, *, handler: Any) -> Any:
        bridge, turn = self.bridge, self.turn
        if (
            ctx.prompt is None
        ):  # a run resuming the last prompt (e.g. with approvals): AfterAgent names it
            turn.prompt = self._prompts.get("last", "")
        else:
            turn.prompt = self._prompts["last"] = _prompt_text(ctx.prompt)
        contexts: list[str] = []
        start_context = await bridge.adrive(bridge.session_start_steps("startup"))
        if start_context:
            contexts.append(start_context)
        if bridge.wants(HookEvent.BEFORE_AGENT) and ctx.prompt is not None:
            v = bridge.before_agent(
                turn, await bridge.afire(HookEvent.BEFORE_AGENT, prompt=turn.prompt)
            )
            if v.kind == "stop":  # the prompt stays in the conversation (docs/contract.md §11)
                raise AgentStopped(
                    v.reason,
                    messages=[*ctx.messages, ModelRequest(parts=[UserPromptPart(ctx.prompt)])],
                )
            if v.kind == "block":
                turn.extra["block_reason"] = v.reason
            if v.context:
                contexts.append(v.context)
        turn.context = "".join(contexts) or None
        turn.extra["pending_prompt"] = turn.prompt if ctx.prompt is not None else None
        return await handler()

    def _stop(self, ctx: Any) -> NoReturn:
        """End the run: pydantic-ai ends a run early only with an exception, so raise
        AgentStopped."""
        raise AgentStopped(self.turn.stop or "stopped by a hook", messages=list(ctx.messages))

    def _blocked_answer(self, reason: str) -> ModelResponse:
        """pydantic-ai cannot end a run with no answer: a blocked turn answers with the block
        line."""
        return ModelResponse(parts=[TextPart(verdicts.blocked_line(reason))])

    # ---- model requests -------------------------------------------------------------------------
    def _track_prompt(self, ctx: Any, messages: list[ModelMessage]) -> None:
        """Remember which request holds this prompt (the one BeforeAgent context goes with)."""
        pending = self.turn.extra.pop("pending_prompt", None)
        if pending is None:
            return
        for m in reversed(messages):
            if isinstance(m, ModelRequest) and any(
                isinstance(p, UserPromptPart) and _user_text(p) == pending for p in m.parts
            ):
                self.turn.extra["entry"] = id(m)
                return

    def _with_context(self, messages: list[ModelMessage]) -> list[ModelMessage]:
        entry, context = self.turn.extra.get("entry"), self.turn.context
        if not context or entry is None:
            return messages
        return [
            replace(m, parts=[*m.parts, UserPromptPart(context)])  # type: ignore[arg-type]
            if id(m) == entry
            else m
            for m in messages
        ]

    def _apply_request(
        self, rc: Any, messages: list[ModelMessage], base: dict[str, Any], rewritten: dict[str, Any]
    ) -> Any:
        out: list[ModelMessage] = []
        for e in codec.edited_entries(base, rewritten):
            if e.source is not None:
                m = messages[e.source]
                out.append(_with_text(m, e.text) if e.changed and e.text is not None else m)
            elif e.text is not None:
                out.append(
                    ModelResponse(parts=[TextPart(e.text)])
                    if e.role == "model"
                    else ModelRequest(parts=[UserPromptPart(e.text)])
                )
        settings = codec.settings_after(rc.model_settings or {}, SETTINGS, base, rewritten)
        if codec.model_changed(base, rewritten):
            self.bridge.warn_unsupported(
                HookEvent.BEFORE_MODEL,
                "llm_request.model",
                "pydantic-ai models are not swapped by name here",
            )
        return replace(rc, messages=out, model_settings=settings)

    def _select_tools(self, rc: Any, cfg: dict[str, Any]) -> Any:
        params = rc.model_request_parameters
        tools = [t for t in params.function_tools if self.bridge.selection_allows(cfg, t.name)]
        mode = verdicts.selection_mode(cfg)
        settings = dict(rc.model_settings or {})
        if mode == "NONE" or not tools:
            tools = []
            settings["tool_choice"] = "none"
        elif mode == "ANY":
            settings["tool_choice"] = (
                "required" if len(tools) == len(params.function_tools) else [t.name for t in tools]
            )
        return replace(
            rc,
            model_request_parameters=replace(params, function_tools=tools),
            model_settings=settings,
        )

    def _clear_history(self, ctx: Any, rc: Any) -> Any:
        """AfterAgent clearContext: keep only the retry prompt's request."""
        keep = [m for m in ctx.messages if id(m) == self.turn.extra.get("entry")]
        ctx.messages[:] = keep
        return replace(
            rc, messages=[m for m in rc.messages if id(m) == self.turn.extra.get("entry")]
        )

    async def wrap_model_request(self, ctx: Any, *, request_context: Any, handler: Any) -> Any:
        bridge, turn = self.bridge, self.turn
        rc = request_context
        self._track_prompt(ctx, list(ctx.messages))
        if turn.blocked:  # BeforeAgent blocked the prompt: drop it, do not call the model
            ctx.messages[:] = [
                m
                for m in ctx.messages
                if not (
                    isinstance(m, ModelRequest)
                    and any(
                        isinstance(p, UserPromptPart) and _user_text(p) == turn.prompt
                        for p in m.parts
                    )
                )
            ]
            return self._blocked_answer(turn.extra.get("block_reason", ""))
        if turn.stop is not None:
            self._stop(ctx)
        if turn.extra.pop("clear", False):
            rc = self._clear_history(ctx, rc)
        messages = self._with_context(list(rc.messages))
        want_before = bridge.wants(HookEvent.BEFORE_MODEL)
        want_select = bridge.wants(HookEvent.BEFORE_TOOL_SELECTION)
        want_after = bridge.wants(HookEvent.AFTER_MODEL)
        rc = replace(rc, messages=messages)
        live: dict[str, Any] = {}
        if want_before or want_select or want_after:
            settings = rc.model_settings or {}
            live = codec.request_dict(
                rc.model.model_name,
                _entries(messages),
                {k: settings.get(v) for k, v in SETTINGS.items()},
            )
        turn.tool_config = None
        response: ModelResponse | None = None
        if want_before:
            v = bridge.before_model(
                turn,
                await bridge.afire(HookEvent.BEFORE_MODEL, llm_request=fmt.to_llm_request(live)),
                live,
            )
            if v.kind == "stop":
                self._stop(ctx)
            if v.kind == "skip":
                response = self._blocked_answer(v.reason)
            elif v.kind == "synthetic":
                assert v.synthetic is not None
                response = ModelResponse(
                    parts=[TextPart(codec.parts_text(fmt.chunk_parts(v.synthetic)))]
                )
                turn.texts.append(_response_text(response))
            elif v.request is not live:
                rc = self._apply_request(rc, messages, live, v.request)
                live = v.request
        if response is None:
            if want_select:
                cfg = bridge.tool_selection(
                    turn,
                    await bridge.afire(
                        HookEvent.BEFORE_TOOL_SELECTION, llm_request=fmt.to_llm_request(live)
                    ),
                )
                if cfg is not None:
                    rc = self._select_tools(rc, cfg)
            response = await handler(rc)
            if want_after:
                response = await self._after_model(ctx, response, live)
            turn.texts.append(_answer_text(response, _output_tool_names(rc)))
        if _is_final(response, _output_tool_names(rc)):
            await self._maybe_after_agent(ctx, bool(getattr(rc, "streaming", False)))
        return response

    async def _after_model(
        self, ctx: Any, response: ModelResponse, live: dict[str, Any]
    ) -> ModelResponse:
        bridge, turn = self.bridge, self.turn
        calls = [
            (p.tool_name, p.args_as_dict()) for p in response.parts if isinstance(p, ToolCallPart)
        ]
        usage = response.usage
        chunk = codec.response_chunk(
            _response_text(response),
            calls,
            finish_reason=str(response.finish_reason or "stop").upper(),
            usage=codec.usage(usage.input_tokens, usage.output_tokens) if usage else None,
        )
        after = bridge.after_model(
            turn,
            await bridge.afire(
                HookEvent.AFTER_MODEL,
                llm_request=fmt.to_llm_request(live),
                llm_response=fmt.to_llm_response(chunk),
            ),
            chunk,
        )
        if after.kind == "stop":
            self._stop(ctx)
        if after.kind == "deny":
            return replace(response, parts=self._blocked_answer(after.reason).parts)
        if after.kind == "replace":
            keep = [p for p in response.parts if not isinstance(p, (TextPart, ThinkingPart))]
            return replace(response, parts=[TextPart(codec.parts_text(after.parts)), *keep])
        return response

    async def _maybe_after_agent(self, ctx: Any, streaming: bool = False) -> None:
        """AfterAgent on a final answer (text, or a structured output's output-tool call); a block
        enqueues the reason as the next prompt."""
        bridge, turn = self.bridge, self.turn
        if turn.stop is not None:
            return
        if not bridge.wants(HookEvent.AFTER_AGENT):
            return
        v = bridge.after_agent(
            turn, await bridge.afire(HookEvent.AFTER_AGENT, **bridge.after_agent_fields(turn))
        )
        if v.kind in ("stop", "capped"):
            if v.clear_context:
                ctx.messages.clear()
            self._stop(ctx)
        if v.kind != "retry":
            return
        if streaming:  # run_stream ends when its answer streams: nothing can follow it
            bridge.warn_unsupported(
                HookEvent.AFTER_AGENT,
                "decision",
                "a streamed run has ended once its answer streams, so it cannot retry; use run()",
            )
            return
        context: str | None = None
        if bridge.wants(HookEvent.BEFORE_AGENT):
            again = bridge.before_agent(
                turn, await bridge.afire(HookEvent.BEFORE_AGENT, prompt=v.reason)
            )
            if again.kind == "stop":
                self._stop(ctx)
            if again.kind == "block":
                turn.blocked = False  # the answer stands; the retry prompt is dropped
                return
            context = again.context
        turn.context = context
        turn.extra["pending_prompt"] = v.reason
        if v.clear_context:
            turn.extra["clear"] = True
            bridge.message("system", "Conversation context has been cleared.")
        ctx.enqueue(v.reason, priority="when_idle")

    # ---- output tools (structured output) -------------------------------------------------------
    async def wrap_output_validate(
        self, ctx: Any, *, output_context: Any, output: Any, handler: Any
    ) -> Any:
        """An output tool's call (the answer of an agent with a structured ``output_type``) is
        governed by BeforeTool: deny makes the model answer again (the reason as the call's retry
        message), ``tool_input`` rewrites the output, stop ends the run. AfterTool does not fire for
        it (its result is the run's answer, which AfterAgent sees): a warning names the tool when an
        AfterTool hook matches it."""
        call = getattr(output_context, "tool_call", None)
        if call is None or getattr(ctx, "partial_output", False):
            return await handler(output)
        bridge, turn = self.bridge, self.turn
        names = bridge.tool_fields(call.tool_name)
        if bridge.wants(HookEvent.AFTER_TOOL, names["tool_name"]):
            bridge.warn_unsupported(
                HookEvent.AFTER_TOOL,
                f"output tool {names['tool_name']}",
                (
                    "an output tool's result is the run's answer: AfterAgent sees it, "
                    "AfterTool does not fire"
                ),
            )
        if not bridge.wants(HookEvent.BEFORE_TOOL, names["tool_name"]):
            return await handler(output)
        args = output if isinstance(output, dict) else call.args_as_dict()
        v = bridge.before_tool(
            turn, await bridge.afire(HookEvent.BEFORE_TOOL, **names, tool_input=args), args
        )
        if v.kind == "stop":
            self._stop(ctx)
        if v.kind in ("deny", "ask"):  # an answer cannot wait for an approval: ask refuses
            raise ModelRetry(
                v.message
                if v.kind == "deny"
                else verdicts.ask_refused(names["tool_name"], v.hook_text)
            )
        return await handler(v.args if v.modified else output)

    # ---- tool calls -----------------------------------------------------------------------------
    async def wrap_tool_execute(
        self, ctx: Any, *, call: Any, tool_def: Any, args: Any, handler: Any
    ) -> Any:
        bridge, turn = self.bridge, self.turn
        key = call.tool_call_id
        original, depth = turn.extra.setdefault("tails", {}).pop(key, (None, 0))
        native = call.tool_name
        if turn.stop is not None:
            return verdicts.NOT_RUN_AFTER_STOP
        refused = bridge.refused_by_selection(turn, native)
        if refused is not None:
            return refused
        names = bridge.tool_fields(native, original, key)
        hook_name = names["tool_name"]
        args = dict(args or {})
        approved = bool(getattr(ctx, "tool_call_approved", False)) and depth == 0
        v = self._approved.pop(key, None) if approved else None
        if v is None:
            if bridge.wants(HookEvent.BEFORE_TOOL, hook_name):
                v = bridge.before_tool(
                    turn,
                    await bridge.afire(HookEvent.BEFORE_TOOL, **names, tool_input=args),
                    args,
                    key,
                )
            else:
                v = verdicts.ToolVerdict("run", args)
        if v.kind == "stop":
            self._stop(ctx)
        if v.kind == "deny":
            return v.message
        if v.kind == "ask" and not approved:
            refusal = await bridge.aconfirm(hook_name, v.args, v.hook_text)
            if refusal == NATIVE:
                self._approved[key] = verdicts.ToolVerdict("run", v.args, v.modified)
                raise ApprovalRequired(
                    metadata={
                        "hookwise": "ask",
                        "tool": hook_name,
                        "args": v.args,
                        "reason": v.hook_text or "",
                    }
                )
            if refusal is not None:
                return refusal
        result = await handler(v.args)
        if not bridge.wants(HookEvent.AFTER_TOOL, hook_name):
            return _as_text(result) + verdicts.MODIFIED_NOTE if v.modified else result
        text = _as_text(result)
        after = bridge.after_tool(
            turn,
            await bridge.afire(
                HookEvent.AFTER_TOOL,
                **names,
                tool_input=v.args,
                tool_response={"llmContent": text, "returnDisplay": text},
            ),
        )
        if after.kind == "stop":
            self._stop(ctx)
        if after.kind == "hide":
            return after.reason
        out: Any = result
        if after.text is not None:  # a hook's updatedToolOutput
            out = text = after.text
        if after.context or v.modified:
            out = verdicts.model_facing_text(text, after.context, v.modified)
        if after.tail is None:
            return out
        if depth >= verdicts.MAX_TAIL_CALLS:
            bridge.warn(verdicts.tail_too_deep(after.tail[0]))
            return out
        turn.extra["tails"][key] = (original or hook_name, depth + 1)
        tail = ToolCallPart(
            tool_name=bridge.native_name(after.tail[0]), args=after.tail[1], tool_call_id=key
        )
        return await ctx.tool_manager.handle_call(tail)


_VARIANTS: dict[frozenset[str], type[_Run]] = {}


def _run_class(seams: frozenset[str]) -> type[_Run]:
    """:class:`_Run`, or a subclass of it with the hook methods of the seams not in ``seams`` set
    back to ``AbstractCapability``'s (pydantic-ai calls straight through to the handler for what a
    class does not override, and skips some hooks altogether)."""
    cls = _VARIANTS.get(seams)
    if cls is None:
        unregistered = {
            name: getattr(AbstractCapability, name)
            for seam, names in _METHODS.items()
            if seam not in seams
            for name in names
        }
        cls = (
            _Run
            if not unregistered
            else type(
                _Run.__name__,
                (_Run,),
                {
                    "__module__": __name__,
                    "__qualname__": _Run.__qualname__,
                    "__doc__": _Run.__doc__,
                    **unregistered,
                },
            )
        )
        _VARIANTS[seams] = cls
    return cls
