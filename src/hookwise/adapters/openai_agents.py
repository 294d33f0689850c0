"""OpenAI Agents SDK adapter: a project's hooks govern an ``agents.Agent`` run.

::

    from hookwise.adapters import openai_agents   # pip install "hookwise[openai-agents]"
    result = await openai_agents.run(agent, "prompt", hooks=".")
    # also openai_agents.run_sync(...) and openai_agents.run_streamed(...)
    # or: agent, run_config = openai_agents.govern(agent, ".")
    #     result = await Runner.run(agent, "prompt", run_config=run_config)

Keywords (docs/adapters.md, docs/contract.md §12): ``ask="deny" | "native" | approve``,
``on_message``, ``tool_aliases``, ``session_id``, ``max_agent_retries``.

:func:`govern` returns a copy of the agent (its handoff agents too) and a ``RunConfig``; nothing the
caller passed is mutated. The copy carries: a model wrapper (BeforeModel, BeforeToolSelection,
AfterModel), a sequential input guardrail (SessionStart, BeforeAgent), an output guardrail
(AfterAgent), and per function tool a tool input guardrail (BeforeTool), a ``needs_approval`` check
(``ask="native"``) and an ``on_invoke_tool`` wrapper (argument rewrite, AfterTool). The run config
adds a ``call_model_input_filter`` (this prompt's BeforeAgent context) and a
``tool_error_formatter`` (the refusal text of a rejected approval). One governed agent serves one
run at a time; call :func:`govern` once per concurrent run.

**What no hook costs.** :func:`govern` adds only the parts whose events have hooks configured when
it is called (the SDK runs every guardrail it is given, one task each): the input guardrail when any
hook of SessionStart, BeforeAgent, AfterAgent, BeforeModel, BeforeToolSelection, AfterModel,
BeforeTool, AfterTool or SessionEnd exists; the output guardrail for AfterAgent; the model wrapper
for BeforeModel, BeforeToolSelection, AfterModel and AfterAgent; the input filter for SessionStart
and BeforeAgent; the tool input guardrail (and ``needs_approval``, the error formatter) for
BeforeTool and BeforeToolSelection; the ``on_invoke_tool`` wrapper for BeforeTool and AfterTool.
With no hook configured the governed agent runs as the original. :func:`run` governs each call
afresh; a pair from :func:`govern` serves the events whose hooks existed then (hooks added later for
other events are named in a warning at the next run or :func:`end_session`: call :func:`govern`
again, or pass ``seams="all"``).

**Stops raise.** The SDK has no clean way to end a run from inside, so ``continue: false`` raises
:class:`hookwise.adapters.AgentStopped` (the instance is also an
``agents.exceptions.AgentsException``, so it leaves ``Runner.run`` unwrapped); the reason also goes
to ``on_message("stop", ...)``. A BeforeAgent block trips the input guardrail:
``agents.exceptions.InputGuardrailTripwireTriggered`` (the model is never called; ``output_info`` is
the reason). The SDK runs the function calls of one turn concurrently: a stop cannot cancel a
sibling call that already started.

=====================  ========================  ===================================================
event                  field                     openai-agents
=====================  ========================  ===================================================
SessionStart           fires                     ◐ first run of a governed agent (``resume`` when an
                                                 SDK ``Session`` with items is passed to
                                                 :func:`run`)
SessionStart           additionalContext         ✔ part of the first prompt's context
BeforeAgent            block                     ✔ input guardrail tripwire (raises, model never
                                                 called)
BeforeAgent            continue:false            ✔ raises AgentStopped before the model is called
BeforeAgent            additionalContext         ✔ ``call_model_input_filter``: every model call of
                                                 this prompt, never stored in the run's items
BeforeModel            llm_request               ✔ messages (text items), temperature,
                                                 maxOutputTokens, topP; ✘ ``topK`` (no such setting)
                                                 and ``model`` (no name→instance resolution): a
                                                 warning names them
BeforeModel            llm_response              ✔ the wrapper returns it; the model is not called
BeforeModel            continue:false            ✔ raises AgentStopped
BeforeToolSelection    toolConfig                ✔ the model gets only the allowed tools and
                                                 ``tool_choice`` required/none; calls to removed
                                                 tools are refused by the tool guardrail
AfterModel             llm_response / deny       ◐ once per response (a streamed run is buffered
                                                 when an AfterModel hook exists); replace keeps
                                                 function calls; deny answers with an empty message
                                                 (the turn ends)
BeforeTool             block                     ✔ tool input guardrail ``reject_content``
BeforeTool             tool_input                ✔ ``on_invoke_tool`` wrapper edits the JSON
                                                 arguments
BeforeTool             ask                       ✔ ``ask="native"``: ``needs_approval`` →
                                                 ``interruptions`` (Notification first; the verdict
                                                 is cached by call id)
BeforeTool/AfterTool   continue:false            ✔ raises AgentStopped
AfterTool              additionalContext         ✔ appended to the tool output
AfterTool              block                     ✔ the output is replaced by the reason
AfterTool              tailToolCallRequest       ✔ the other function tool runs (its hooks too, ≤ 16
                                                 deep)
AfterAgent             block (retry)             ◐ :func:`run` / :func:`run_sync` run again with the
                                                 reason as the next user message
                                                 (``stop_hook_active``, capped); with plain
                                                 ``Runner.run`` a warning says so
AfterAgent             clearContext              ◐ with an SDK ``Session``: ``clear_session()``;
                                                 otherwise the retry input drops the history; else a
                                                 warning
PreCompress            —                         ✘ compaction happens only inside the online
                                                 ``OpenAIResponsesCompactionSession`` (not wired in
                                                 v1)
Notification           ToolPermission            ✔ before every approval (``ask="native"`` or a
                                                 callable)
SessionEnd             exit                      ◐ at the end of :func:`run` / :func:`run_sync`, or
                                                 :func:`end_session` for :func:`govern`
hosted tools           (web/file search, …)      ✘ no seam in the SDK: a warning names them
=====================  ========================  ===================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import json
import os
import warnings
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

from hookwise.adapters import require

require("openai_agents")

from agents import (  # noqa: E402
    Agent,
    FunctionTool,
    GuardrailFunctionOutput,
    Handoff,
    InputGuardrail,
    ModelResponse,
    ModelSettings,
    OutputGuardrail,
    RunConfig,
    Runner,
    ToolGuardrailFunctionOutput,
    ToolInputGuardrail,
    Usage,
)
from agents.exceptions import AgentsException  # noqa: E402
from agents.models.interface import Model, ModelProvider  # noqa: E402
from agents.models.multi_provider import MultiProvider  # noqa: E402
from agents.run_config import CallModelData, ModelInputData, ToolErrorFormatterArgs  # noqa: E402
from openai.types.responses import ResponseOutputMessage, ResponseOutputText  # noqa: E402

from hookwise.adapters import _codec as codec  # noqa: E402
from hookwise.adapters._bridge import (  # noqa: E402
    MODEL_EVENTS,
    NATIVE,
    RUN_EVENTS,
    AskPolicy,
    HookBridge,
    OnMessage,
    SeamPolicy,
    TurnState,
)
from hookwise.errors import AgentStopped, UngovernedError  # noqa: E402
from hookwise.events import HookEvent  # noqa: E402
from hookwise.host import llm_format as fmt  # noqa: E402
from hookwise.host import verdicts  # noqa: E402

if TYPE_CHECKING:
    from hookwise.engine import HookSystem

__all__ = [
    "HookwiseModel",
    "Stopped",
    "UngovernedError",
    "end_session",
    "govern",
    "run",
    "run_streamed",
    "run_sync",
]

_GOVERNOR = "_hookwise_governor"
_NO_CLEAR = (
    "the conversation history is held by the caller; pass an SDK Session to run() to let hooks "
    "clear it"
)
#: seam -> the events it serves (see the module docstring)
SEAMS: dict[str, frozenset[HookEvent]] = {
    "run": RUN_EVENTS
    | {HookEvent.SESSION_END},  # input guardrail: SessionStart, BeforeAgent, each run's state
    "answer": frozenset({HookEvent.AFTER_AGENT}),  # output guardrail
    "model": MODEL_EVENTS
    | {HookEvent.AFTER_AGENT},  # model wrapper (AfterAgent: the answer's text)
    "context": frozenset(
        {HookEvent.SESSION_START, HookEvent.BEFORE_AGENT}
    ),  # call_model_input_filter
    "tool_guard": frozenset(
        {HookEvent.BEFORE_TOOL, HookEvent.BEFORE_TOOL_SELECTION}
    ),  # + needs_approval, formatter
    "tool_call": frozenset({HookEvent.BEFORE_TOOL, HookEvent.AFTER_TOOL}),  # on_invoke_tool wrapper
}
_NO_RETRY_PLAIN = (
    "an AfterAgent hook asked for another try; plain Runner.run cannot retry "
    "(use hookwise.adapters.openai_agents.run), so the answer stands"
)
_NO_RETRY_STREAMED = (
    "an AfterAgent hook asked for another try; a streamed run has ended once its answer streams, "
    "so it cannot retry and the answer stands (run the prompt again, or use openai_agents.run "
    "where a retry matters)"
)
_HINT = 'call govern() again (run() governs each call afresh), or pass seams="all"'
_UNSUPPORTED = {
    "llm_request.config.topK": "the SDK's ModelSettings has no top_k",
    "llm_request.model": "the adapter cannot turn a model name into a Model instance",
}


class Stopped(AgentStopped, AgentsException):  # type: ignore[misc]
    """:class:`~hookwise.adapters.AgentStopped` as the SDK's own exception type (it leaves
    ``Runner.run`` as is)."""

    def __init__(self, reason: str) -> None:
        AgentStopped.__init__(self, reason)
        self.run_data = None


def _message(text: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        id="hookwise",
        type="message",
        role="assistant",
        status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )


def _item(item: Any) -> dict[str, Any]:
    if isinstance(item, dict):
        return item
    dump = getattr(item, "model_dump", None)
    return dump(exclude_unset=True) if callable(dump) else {}


def _content_text(content: Any) -> str | None:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [str(p.get("text")) for p in map(_item, content) if isinstance(p.get("text"), str)]
        return "".join(texts) if texts else None
    return None


def _entry(item: Any) -> codec.Entry:
    """One SDK input item as hooks see it (tool calls and results carry no text)."""
    d = _item(item)
    role = d.get("role")
    if d.get("type", "message") == "message" and role in (
        "user",
        "system",
        "developer",
        "assistant",
    ):
        text = _content_text(d.get("content"))
        return codec.Entry(
            "model"
            if role == "assistant"
            else ("system" if role in ("system", "developer") else "user"),
            text,
        )
    return codec.Entry("user" if d.get("type") == "function_call_output" else "model", None)


def _context_item(context: str) -> dict[str, Any]:
    """This prompt's BeforeAgent context as the model gets it: a developer message after the
    prompt."""
    return {"role": "developer", "content": context, "type": "message"}


def _hook_view(items: list[Any], context: str | None) -> tuple[list[Any], list[list[Any]]]:
    """The input as hooks see it (the context developer message folded into the prompt before it,
    where the reference host puts the context), and for each viewed item the input items it stands
    for."""
    view: list[Any] = []
    back: list[list[Any]] = []
    for item in items:
        d = _item(item)
        if (
            context
            and view
            and d.get("role") == "developer"
            and d.get("content") == context
            and _entry(view[-1]).role == "user"
        ):
            prev = _item(view[-1])
            text = _content_text(prev.get("content")) or ""
            view[-1] = {"role": "user", "content": f"{text}\n\n{context}" if text else context}
            back[-1].append(item)
            continue
        view.append(item)
        back.append([item])
    return view, back


def _input_item(role: str, text: str) -> dict[str, Any]:
    return {"role": {"model": "assistant", "system": "system"}.get(role, "user"), "content": text}


def _output_text(output: list[Any]) -> str:
    out = []
    for item in output:
        d = _item(item)
        if d.get("type") == "message":
            out.append(_content_text(d.get("content")) or "")
    return "".join(out)


def _output_chunk(response: ModelResponse) -> dict[str, Any]:
    calls: list[tuple[str, dict[str, Any]]] = []
    for item in response.output:
        d = _item(item)
        if d.get("type") == "function_call":
            try:
                args = json.loads(d.get("arguments") or "{}")
            except ValueError:
                args = {}
            calls.append((str(d.get("name")), args if isinstance(args, dict) else {}))
    usage = response.usage
    return codec.response_chunk(
        _output_text(response.output),
        calls,
        usage=codec.usage(
            usage.input_tokens if usage else None, usage.output_tokens if usage else None
        ),
    )


def _text_response(text: str) -> ModelResponse:
    return ModelResponse(output=[_message(text)], usage=Usage(), response_id=None)


def _response_event(response: ModelResponse) -> Any:
    """A stream consisting of one ``response.completed`` event carrying ``response`` (what the
    runner reads)."""
    from openai.types.responses import Response, ResponseCompletedEvent

    resp = Response(
        id=response.response_id or "hookwise",
        created_at=0,
        model="hookwise",
        object="response",
        output=list(response.output),
        tool_choice="auto",
        tools=[],
        parallel_tool_calls=True,
        status="completed",
    )
    return ResponseCompletedEvent(type="response.completed", response=resp, sequence_number=0)


class _Governor:
    """The hooks, options and per-run state behind one :func:`govern` call."""

    def __init__(self, bridge: HookBridge) -> None:
        self.bridge = bridge
        self.turn = TurnState()
        self.tools: dict[str, FunctionTool] = {}  # native name -> the original tool
        self.driven = False  # run()/run_sync() handle AfterAgent retries
        self.streamed = False  # run_streamed(): the answer has streamed when AfterAgent fires
        self.retry_pending = False  # the next run is run()'s AfterAgent retry of the current prompt
        self.after: verdicts.AnswerVerdict | None = None
        self.pending_context: str | None = None  # SessionStart context for the first prompt
        self.asked: set[str] = (
            set()
        )  # call ids a hook asked about (their approval rejections read CANCELLED)
        self.seams: frozenset[str] = bridge.choose_seams(
            SEAMS, hint=_HINT
        )  # the parts govern() adds
        self.memo: dict[int, Agent[Any]] = {}  # id(original agent) -> its governed copy
        self.ungoverned: list[str] = []  # tools whose calls no hook sees (hosted tools)

    def unsupported(self, name: str) -> None:
        """Warn once that a hook set ``name``, which the SDK cannot express."""
        self.bridge.warn_unsupported(HookEvent.BEFORE_MODEL, name, _UNSUPPORTED[name])

    # ---- BeforeAgent / AfterAgent ----------------------------------------------------------------
    async def before_agent(self, ctx: Any, agent: Any, inp: Any) -> GuardrailFunctionOutput:
        bridge = self.bridge
        bridge.check_served()
        if not bridge.session_started:
            self.pending_context = await bridge.adrive(bridge.session_start_steps("startup"))
        items = [inp] if isinstance(inp, str) else list(inp)
        prompt = ""
        for item in reversed(items):
            e = _entry({"role": "user", "content": item} if isinstance(item, str) else item)
            if e.role == "user" and e.text is not None:
                prompt = e.text
                break
        retry = self.turn if self.retry_pending else None
        self.retry_pending = False
        self.turn = TurnState(
            prompt=retry.prompt if retry else prompt,
            texts=retry.texts if retry else [],
            retries=retry.retries if retry else 0,
            stop_hook_active=retry is not None,
        )
        self.after = None
        context = self.pending_context
        self.pending_context = None
        if bridge.wants(HookEvent.BEFORE_AGENT):
            v = bridge.before_agent(
                self.turn, await bridge.afire(HookEvent.BEFORE_AGENT, prompt=prompt)
            )
            if v.kind == "stop":
                raise Stopped(v.reason)
            if v.kind == "block":
                return GuardrailFunctionOutput(output_info=v.reason, tripwire_triggered=True)
            context = "\n\n".join(c for c in (context, v.context) if c) or None
        self.turn.context = context
        return GuardrailFunctionOutput(output_info=None, tripwire_triggered=False)

    async def after_agent(self, ctx: Any, agent: Any, output: Any) -> GuardrailFunctionOutput:
        bridge = self.bridge
        if not bridge.wants(HookEvent.AFTER_AGENT):
            return GuardrailFunctionOutput(output_info=None, tripwire_triggered=False)
        turn = self.turn
        result = await bridge.afire(HookEvent.AFTER_AGENT, **bridge.after_agent_fields(turn))
        v = self.after = bridge.after_agent(turn, result)
        if v.kind == "retry" and not self.driven:
            bridge.warn(_NO_RETRY_STREAMED if self.streamed else _NO_RETRY_PLAIN)
        if v.clear_context and not self.driven:
            bridge.warn_unsupported(HookEvent.AFTER_AGENT, "clearContext", _NO_CLEAR)
        return GuardrailFunctionOutput(output_info=None, tripwire_triggered=False)

    def input_filter(self, data: CallModelData[Any]) -> ModelInputData:
        """This prompt's BeforeAgent context, in every model call of the prompt (never stored)."""
        md = data.model_data
        ctx = self.turn.context
        if not ctx:
            return md
        items = list(md.input)
        for i in range(len(items) - 1, -1, -1):
            e = _entry(_item(items[i]))
            if e.role == "user" and e.text is not None:
                # a developer message of its own: a model that echoes the prompt does not echo it
                # into arguments
                items.insert(i + 1, _context_item(ctx))  # type: ignore[arg-type]
                break
        return ModelInputData(input=items, instructions=md.instructions)

    # ---- tools -----------------------------------------------------------------------------------
    async def _before_tool(
        self, name: str, args: dict[str, Any], call_id: str
    ) -> verdicts.ToolVerdict:
        cached = self.turn.verdicts.get(call_id)
        if cached is not None:
            return cached
        bridge = self.bridge
        if not bridge.wants(HookEvent.BEFORE_TOOL, bridge.hook_name(name)):
            return verdicts.ToolVerdict("run", args)
        result = await bridge.afire(
            HookEvent.BEFORE_TOOL, **bridge.tool_fields(name, None, call_id), tool_input=args
        )
        return bridge.before_tool(self.turn, result, args, call_id)

    def needs_approval(
        self, tool: FunctionTool
    ) -> Callable[[Any, dict[str, Any], str], Awaitable[bool]]:
        own = tool.needs_approval

        async def check(ctx: Any, params: dict[str, Any], call_id: str) -> bool:
            if own is True or (callable(own) and await own(ctx, params, call_id)):
                return True
            if (
                self.turn.stop is not None
                or self.bridge.refused_by_selection(self.turn, tool.name) is not None
            ):
                return False  # the guardrail refuses it
            v = await self._before_tool(tool.name, dict(params), call_id)
            if v.kind != "ask":
                return False
            refusal = await self.bridge.aconfirm(
                self.bridge.hook_name(tool.name), v.args, v.hook_text
            )
            self.asked.add(call_id)
            return refusal == NATIVE

        return check

    async def tool_guardrail(self, data: Any) -> ToolGuardrailFunctionOutput:
        ctx = data.context
        name, call_id = ctx.tool_name, ctx.tool_call_id
        turn = self.turn
        if turn.stop is not None:
            return ToolGuardrailFunctionOutput.reject_content(verdicts.NOT_RUN_AFTER_STOP)
        refused = self.bridge.refused_by_selection(turn, name)
        if refused is not None:
            return ToolGuardrailFunctionOutput.reject_content(refused)
        try:
            args = json.loads(ctx.tool_arguments or "{}")
        except ValueError:
            args = {}
        args = args if isinstance(args, dict) else {}
        v = await self._before_tool(name, args, call_id)
        if v.kind == "stop":
            raise Stopped(v.reason)
        if v.kind == "deny":
            return ToolGuardrailFunctionOutput.reject_content(v.message)
        if (
            v.kind == "ask" and call_id not in self.asked
        ):  # not already approved through needs_approval
            self.asked.add(call_id)
            refusal = await self.bridge.aconfirm(self.bridge.hook_name(name), v.args, v.hook_text)
            if (
                refusal == NATIVE
            ):  # e.g. a tail call or a tool without needs_approval: cannot pause here
                refusal = verdicts.ask_refused(self.bridge.hook_name(name), v.hook_text)
            if refusal is not None:
                return ToolGuardrailFunctionOutput.reject_content(refusal)
        return ToolGuardrailFunctionOutput.allow()

    def invoker(self, tool: FunctionTool) -> Callable[[Any, str], Awaitable[Any]]:
        original = tool.on_invoke_tool

        async def invoke(ctx: Any, input_json: str) -> Any:
            v = self.turn.verdicts.get(ctx.tool_call_id)
            if v is not None and v.modified:
                input_json = json.dumps(v.args)
            output = await original(ctx, input_json)
            try:
                args = json.loads(input_json or "{}")
            except ValueError:
                args = {}
            return await self._after_tool(
                tool.name, args, output, ctx, bool(v and v.modified), None, 0
            )

        return invoke

    async def _after_tool(
        self,
        name: str,
        args: dict[str, Any],
        output: Any,
        ctx: Any,
        modified: bool,
        original: str | None,
        depth: int,
    ) -> Any:
        bridge = self.bridge
        note = verdicts.MODIFIED_NOTE if modified else ""
        if not bridge.wants(HookEvent.AFTER_TOOL, bridge.hook_name(name)):
            return f"{output}{note}" if note else output
        text = (
            output
            if isinstance(output, str)
            else json.dumps(output, default=str, ensure_ascii=False)
        )
        fired = await bridge.afire(
            HookEvent.AFTER_TOOL,
            **bridge.tool_fields(name, original, getattr(ctx, "tool_call_id", None)),
            tool_input=args,
            tool_response={"llmContent": text, "returnDisplay": text},
        )
        v = bridge.after_tool(self.turn, fired)
        if v.kind == "stop":
            raise Stopped(v.reason)
        if v.kind == "hide":
            return v.reason
        if v.text is not None:  # a hook's updatedToolOutput
            text = output = v.text
        response = verdicts.model_facing_text(text, v.context, modified)
        if v.tail is None:
            return response
        if depth >= verdicts.MAX_TAIL_CALLS:
            bridge.warn(verdicts.tail_too_deep(v.tail[0]))
            return response
        return await self._tail(v.tail[0], v.tail[1], ctx, original or name, depth + 1)

    async def _tail(
        self, hook_name: str, args: dict[str, Any], ctx: Any, original: str, depth: int
    ) -> Any:
        bridge = self.bridge
        native = bridge.native_name(hook_name)
        tool = self.tools.get(native)
        if tool is None:
            return f"Tool {hook_name!r} not found (requested by an AfterTool tailToolCallRequest)"
        refused = bridge.refused_by_selection(self.turn, native)
        if refused is not None:
            return refused
        run_args, modified = args, False
        if bridge.wants(HookEvent.BEFORE_TOOL, hook_name):
            fired = await bridge.afire(
                HookEvent.BEFORE_TOOL, **bridge.tool_fields(native, original), tool_input=args
            )
            v = bridge.before_tool(self.turn, fired, args)
            if v.kind == "stop":
                raise Stopped(v.reason)
            if v.kind == "deny":
                return v.message
            run_args, modified = v.args, v.modified
            if v.kind == "ask":
                refusal = await bridge.aconfirm(hook_name, run_args, v.hook_text)
                if refusal == NATIVE:  # a tail call cannot pause for an approval
                    refusal = verdicts.ask_refused(hook_name, v.hook_text)
                if refusal is not None:
                    return refusal
        output = await tool.on_invoke_tool(ctx, json.dumps(run_args))
        return await self._after_tool(native, run_args, output, ctx, modified, original, depth)

    async def error_formatter(self, args: ToolErrorFormatterArgs[Any], own: Any) -> str | None:
        if own is not None:
            text = own(args)
            if asyncio.iscoroutine(text):
                text = await text
            if text is not None:
                return str(text)
        if args.kind == "approval_rejected" and args.call_id in self.asked:
            return verdicts.CANCELLED
        return None


class HookwiseModel(Model):  # type: ignore[misc]
    """A ``Model`` wrapper firing BeforeModel, BeforeToolSelection and AfterModel around the inner
    model."""

    def __init__(self, inner: Model, governor: _Governor) -> None:
        self.inner = inner
        self.gov = governor

    async def _before(
        self,
        system_instructions: str | None,
        inp: Any,
        model_settings: ModelSettings,
        tools: list[Any],
    ) -> tuple[Any, ModelSettings, list[Any], ModelResponse | None]:
        gov, bridge = self.gov, self.gov.bridge
        turn = gov.turn
        turn.tool_config = None
        if turn.stop is not None:
            raise Stopped(turn.stop)
        if bridge.wants(HookEvent.BEFORE_MODEL):
            items = [{"role": "user", "content": inp}] if isinstance(inp, str) else list(inp)
            items, back = _hook_view(items, turn.context)
            entries = [_entry(i) for i in items]
            config = {
                "temperature": model_settings.temperature,
                "maxOutputTokens": model_settings.max_tokens,
                "topP": model_settings.top_p,
            }
            request = codec.request_dict(self._name(), entries, config)
            result = await bridge.afire(
                HookEvent.BEFORE_MODEL, llm_request=fmt.to_llm_request(request)
            )
            v = bridge.before_model(turn, result, request)
            if v.kind == "stop":
                raise Stopped(v.reason)
            if v.kind == "synthetic" and v.synthetic is not None:
                text = codec.parts_text(fmt.chunk_parts(v.synthetic))
                return inp, model_settings, tools, _text_response(text)
            if v.kind == "skip":
                return inp, model_settings, tools, _text_response("")
            if v.request is not request:
                hso = result.hook_specific.get("llm_request")
                cfg = hso.get("config") if isinstance(hso, dict) else None
                if isinstance(cfg, dict) and cfg.get("topK") is not None:
                    gov.unsupported("llm_request.config.topK")
                if codec.model_changed(request, v.request):
                    gov.unsupported("llm_request.model")
                out: list[Any] = []
                for e in codec.edited_entries(request, v.request):
                    if e.source is not None and not e.changed:
                        out.extend(back[e.source])
                    elif e.text is not None:
                        out.append(_input_item(e.role, e.text))
                    elif e.source is not None:
                        out.extend(back[e.source])
                inp = out
                changes = codec.config_changes(request, v.request)
                attrs = {
                    "temperature": "temperature",
                    "maxOutputTokens": "max_tokens",
                    "topP": "top_p",
                }
                upd = {attrs[k]: val for k, val in changes.items() if k in attrs}
                if upd:
                    model_settings = dataclasses.replace(model_settings, **upd)
        if bridge.wants(HookEvent.BEFORE_TOOL_SELECTION):
            items = [{"role": "user", "content": inp}] if isinstance(inp, str) else list(inp)
            items = _hook_view(items, turn.context)[0]
            request = codec.request_dict(
                self._name(),
                [_entry(i) for i in items],
                {
                    "temperature": model_settings.temperature,
                    "maxOutputTokens": model_settings.max_tokens,
                    "topP": model_settings.top_p,
                },
            )
            selection = await bridge.afire(
                HookEvent.BEFORE_TOOL_SELECTION, llm_request=fmt.to_llm_request(request)
            )
            cfg = bridge.tool_selection(turn, selection)
            if cfg is not None:
                mode = verdicts.selection_mode(cfg)
                if mode == "NONE":
                    tools = []
                    model_settings = dataclasses.replace(model_settings, tool_choice=None)
                else:
                    tools = [
                        t
                        for t in tools
                        if bridge.selection_allows(cfg, str(getattr(t, "name", "")))
                    ]
                    choice = "required" if mode == "ANY" else ("auto" if mode == "AUTO" else None)
                    if choice is not None:
                        model_settings = dataclasses.replace(model_settings, tool_choice=choice)
        return inp, model_settings, tools, None

    def _name(self) -> str:
        return str(getattr(self.inner, "model", "") or type(self.inner).__name__)

    async def _after(self, response: ModelResponse, inp: Any) -> ModelResponse:
        gov, bridge = self.gov, self.gov.bridge
        turn = gov.turn
        if bridge.wants(HookEvent.AFTER_MODEL):
            chunk = _output_chunk(response)
            items = [{"role": "user", "content": inp}] if isinstance(inp, str) else list(inp)
            items = _hook_view(items, turn.context)[0]
            stable = fmt.to_llm_request(
                codec.request_dict(self._name(), [_entry(i) for i in items])
            )
            result = await bridge.afire(
                HookEvent.AFTER_MODEL, llm_request=stable, llm_response=fmt.to_llm_response(chunk)
            )
            v = bridge.after_model(turn, result, chunk)
            if v.kind == "stop":
                raise Stopped(v.reason)
            if v.kind == "deny":
                response = dataclasses.replace(response, output=[_message("")])
            elif v.kind == "replace":
                others = [o for o in response.output if _item(o).get("type") != "message"]
                response = dataclasses.replace(
                    response, output=[_message(codec.parts_text(v.parts)), *others]
                )
        turn.texts.append(_output_text(response.output))
        return response

    async def get_response(
        self,
        system_instructions: str | None,
        input: Any,
        model_settings: ModelSettings,
        tools: list[Any],
        output_schema: Any,
        handoffs: list[Any],
        tracing: Any,
        **kwargs: Any,
    ) -> ModelResponse:
        inp, settings, tools, early = await self._before(
            system_instructions, input, model_settings, tools
        )
        if early is not None:
            self.gov.turn.texts.append(_output_text(early.output))
            return early
        response = await self.inner.get_response(
            system_instructions, inp, settings, tools, output_schema, handoffs, tracing, **kwargs
        )
        return await self._after(response, inp)

    async def stream_response(
        self,
        system_instructions: str | None,
        input: Any,
        model_settings: ModelSettings,
        tools: list[Any],
        output_schema: Any,
        handoffs: list[Any],
        tracing: Any,
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        inp, settings, tools, early = await self._before(
            system_instructions, input, model_settings, tools
        )
        if early is not None:
            self.gov.turn.texts.append(_output_text(early.output))
            yield _response_event(early)
            return
        stream = self.inner.stream_response(
            system_instructions, inp, settings, tools, output_schema, handoffs, tracing, **kwargs
        )
        buffer = self.gov.bridge.wants(HookEvent.AFTER_MODEL)
        held: list[Any] = []
        async for item in stream:
            event: Any = item
            if getattr(event, "type", "") == "response.completed":
                resp = event.response
                model_resp = ModelResponse(
                    output=list(resp.output), usage=Usage(), response_id=resp.id
                )
                after = await self._after(model_resp, inp)
                if after is model_resp:
                    for e in held:
                        yield e
                    yield event
                else:
                    yield _response_event(after)
                held = []
                continue
            if buffer:
                held.append(event)
            else:
                yield event
        for e in held:
            yield e


class _Provider(ModelProvider):  # type: ignore[misc]
    def __init__(self, inner: ModelProvider, governor: _Governor) -> None:
        self.inner = inner
        self.gov = governor

    def get_model(self, model_name: str | None) -> Model:
        return HookwiseModel(self.inner.get_model(model_name), self.gov)


def _wrap_tool(tool: Any, gov: _Governor) -> Any:
    if not isinstance(tool, FunctionTool):
        if "tool_call" in gov.seams:  # without tool hooks there is nothing its calls would escape
            gov.ungoverned.append(getattr(tool, "name", type(tool).__name__))
            gov.bridge.warn(
                f"tool {getattr(tool, 'name', type(tool).__name__)!r} ({type(tool).__name__}) has "
                "no hook seam in the OpenAI Agents SDK; hooks do not see its calls"
            )
        return tool
    gov.tools[tool.name] = tool
    changes: dict[str, Any] = {}
    if "tool_call" in gov.seams:
        changes["on_invoke_tool"] = gov.invoker(tool)
    if "tool_guard" in gov.seams:
        guard: ToolInputGuardrail[Any] = ToolInputGuardrail(
            guardrail_function=gov.tool_guardrail, name="hookwise-before-tool"
        )
        changes["tool_input_guardrails"] = [guard, *(tool.tool_input_guardrails or [])]
        if gov.bridge.ask == "native":
            changes["needs_approval"] = gov.needs_approval(tool)
    return dataclasses.replace(tool, **changes) if changes else tool


def _wrap_handoff(h: Handoff[Any, Any], gov: _Governor) -> Handoff[Any, Any]:
    """A copy of the ``Handoff`` whose ``on_invoke_handoff`` (the caller's ``on_handoff`` and all)
    returns the governed copy of the agent it leads to."""
    invoke = h.on_invoke_handoff
    target = h._agent_ref() if h._agent_ref is not None else None

    async def governed(ctx: Any, input_json: str) -> Any:
        agent = await invoke(ctx, input_json)
        return _wrap_agent(agent, gov, gov.memo, False) if isinstance(agent, Agent) else agent

    clone = dataclasses.replace(h, on_invoke_handoff=governed)
    if isinstance(target, Agent):  # governed now (its hosted tools are named before the run starts)
        clone._agent_ref = weakref.ref(_wrap_agent(target, gov, gov.memo, False))
    return clone


def _refuse_ungoverned(gov: _Governor) -> None:
    """With a ``failClosed`` BeforeTool/AfterTool hook configured, refuse to run tools no hook can
    see."""
    tool_events = (HookEvent.BEFORE_TOOL, HookEvent.AFTER_TOOL)
    closed = [
        e.name or e.command
        for e in getattr(gov.bridge.hooks, "entries", ())
        if e.fail_closed and e.enabled and e.event in tool_events
    ]
    if gov.ungoverned and closed:
        raise UngovernedError(
            f"the agent has tools no hook can see ({', '.join(sorted(set(gov.ungoverned)))}: "
            "hosted tools have no seam in the OpenAI Agents SDK) while failClosed tool hooks are "
            f"configured ({', '.join(closed)}); remove those tools or the failClosed setting to "
            "run it"
        )


def _wrap_agent(
    agent: Agent[Any], gov: _Governor, memo: dict[int, Agent[Any]], starting: bool
) -> Agent[Any]:
    if id(agent) in memo:
        return memo[id(agent)]
    changes: dict[str, Any] = {"tools": [_wrap_tool(t, gov) for t in agent.tools]}
    if "answer" in gov.seams:
        changes["output_guardrails"] = [
            OutputGuardrail(guardrail_function=gov.after_agent, name="hookwise-after-agent"),
            *agent.output_guardrails,
        ]
    if starting and "run" in gov.seams:
        changes["input_guardrails"] = [
            InputGuardrail(
                guardrail_function=gov.before_agent,
                name="hookwise-before-agent",
                run_in_parallel=False,
            ),
            *agent.input_guardrails,
        ]
    if "model" in gov.seams and isinstance(agent.model, Model):
        changes["model"] = HookwiseModel(agent.model, gov)
    clone = agent.clone(**changes)
    memo[id(agent)] = clone
    handoffs: list[Any] = []
    for h in agent.handoffs:
        if isinstance(h, Agent):
            handoffs.append(_wrap_agent(h, gov, memo, False))
        elif isinstance(h, Handoff):
            handoffs.append(_wrap_handoff(h, gov))
        else:  # pragma: no cover - the SDK accepts only these two
            handoffs.append(h)
    clone.handoffs = handoffs
    return clone


def govern(
    agent: Agent[Any],
    hooks: HookSystem | str | os.PathLike[str] = ".",
    *,
    ask: AskPolicy = "deny",
    on_message: OnMessage | None = None,
    tool_aliases: dict[str, str] | None = None,
    session_id: str | None = None,
    max_agent_retries: int = verdicts.DEFAULT_MAX_AGENT_RETRIES,
    run_config: RunConfig | None = None,
    seams: SeamPolicy = "configured",
) -> tuple[Agent[Any], RunConfig]:
    """A governed copy of ``agent`` and the ``RunConfig`` to run it with (see the module docstring);
    with no hook configured, ``agent`` itself (there is nothing to add to it)."""
    bridge = HookBridge(
        hooks,
        framework="openai-agents",
        ask=ask,
        on_message=on_message,
        tool_aliases=tool_aliases,
        session_id=session_id,
        max_agent_retries=max_agent_retries,
        seams=seams,
    )
    gov = _Governor(bridge)
    governed = _wrap_agent(agent, gov, gov.memo, True) if gov.seams else agent
    _refuse_ungoverned(gov)
    base = run_config or RunConfig()
    own_filter = base.call_model_input_filter
    own_formatter = base.tool_error_formatter

    async def input_filter(data: CallModelData[Any]) -> ModelInputData:
        if own_filter is not None:
            md: Any = own_filter(data)
            if asyncio.iscoroutine(md):
                md = await md
            data = dataclasses.replace(data, model_data=md)
        return gov.input_filter(data)

    async def formatter(args: ToolErrorFormatterArgs[Any]) -> str | None:
        return await gov.error_formatter(args, own_formatter)

    changes: dict[str, Any] = {}
    if "context" in gov.seams:
        changes["call_model_input_filter"] = input_filter
    if "tool_guard" in gov.seams:
        changes["tool_error_formatter"] = formatter
    if "model" in gov.seams:
        changes["model_provider"] = _Provider(base.model_provider or MultiProvider(), gov)
        if isinstance(base.model, Model):
            changes["model"] = HookwiseModel(base.model, gov)
    config = dataclasses.replace(base, **changes)
    setattr(config, _GOVERNOR, gov)
    return governed, config


def _governor(run_config: RunConfig) -> _Governor:
    gov = getattr(run_config, _GOVERNOR, None)
    if not isinstance(gov, _Governor):
        raise ValueError("this RunConfig was not made by hookwise.adapters.openai_agents.govern()")
    return gov


async def end_session(run_config: RunConfig, reason: str = "exit") -> None:
    """Fire SessionEnd for a :func:`govern` pair (``run()`` does this itself)."""
    gov = _governor(run_config)
    gov.bridge.check_served()
    if gov.bridge.session_started:
        await gov.bridge.aend_session(reason)
    gov.bridge.session_started = False


async def run(
    agent: Agent[Any],
    prompt: Any,
    hooks: HookSystem | str | os.PathLike[str] = ".",
    *,
    ask: AskPolicy = "deny",
    on_message: OnMessage | None = None,
    tool_aliases: dict[str, str] | None = None,
    session_id: str | None = None,
    max_agent_retries: int = verdicts.DEFAULT_MAX_AGENT_RETRIES,
    run_config: RunConfig | None = None,
    session: Any = None,
    seams: SeamPolicy = "configured",
    **runner_kwargs: Any,
) -> Any:
    """Run ``agent`` on ``prompt`` under the project's hooks and return the SDK's ``RunResult``.

    ``prompt`` is a string or a list of input items (e.g.
    ``previous.to_input_list() + [new message]``). With a fresh agent, the call is one hook session
    (SessionStart … SessionEnd). To keep one session over several prompts, pass the pair from
    :func:`govern` (``run(agent, p, run_config=config)``; the ``hooks`` and keyword options of that
    pair apply) and call :func:`end_session` at the end. AfterAgent retries run the agent again with
    the reason as the next user message. With ``ask="native"`` the result may carry
    ``interruptions``: resume with ``Runner.run(agent, result.to_state(), run_config=config)`` as
    usual.
    """
    gov = getattr(run_config, _GOVERNOR, None) if run_config is not None else None
    own = not isinstance(gov, _Governor)
    if own:
        agent, run_config = govern(
            agent,
            hooks,
            ask=ask,
            on_message=on_message,
            tool_aliases=tool_aliases,
            session_id=session_id,
            max_agent_retries=max_agent_retries,
            run_config=run_config,
            seams=seams,
        )
        gov = _governor(run_config)
    assert isinstance(gov, _Governor) and run_config is not None
    gov.driven = True
    if session is not None and not gov.bridge.session_started:
        items = await session.get_items()
        gov.pending_context = await gov.bridge.adrive(
            gov.bridge.session_start_steps("resume" if items else "startup")
        )
    try:
        return await _run_with_retries(gov, agent, prompt, run_config, session, runner_kwargs)
    finally:
        if own:
            await end_session(run_config)


async def _run_with_retries(
    gov: _Governor,
    agent: Agent[Any],
    prompt: Any,
    config: RunConfig,
    session: Any,
    runner_kwargs: dict[str, Any],
) -> Any:
    inp: Any = prompt
    while True:
        result = await Runner.run(agent, inp, run_config=config, session=session, **runner_kwargs)
        v = gov.after
        if v is None or v.kind == "done" or getattr(result, "interruptions", None):
            return result
        if v.clear_context:
            if session is not None:
                await session.clear_session()
                gov.bridge.message("system", "Conversation context has been cleared.")
            elif v.kind == "retry":  # the retry below starts from an empty history
                gov.bridge.message("system", "Conversation context has been cleared.")
            else:
                gov.bridge.warn_unsupported(HookEvent.AFTER_AGENT, "clearContext", _NO_CLEAR)
        if v.kind != "retry":
            return result
        history = (
            [] if v.clear_context or session is not None else copy.copy(result.to_input_list())
        )
        inp = [*history, {"role": "user", "content": v.reason}]
        gov.retry_pending = True


def run_sync(
    agent: Agent[Any], prompt: Any, hooks: HookSystem | str | os.PathLike[str] = ".", **kwargs: Any
) -> Any:
    """:func:`run` for synchronous code (like ``Runner.run_sync``: not inside a running event loop).

    Like ``Runner.run_sync``, it runs on the thread's default event loop and leaves it open, so SDK
    sessions and other helpers holding loop-bound primitives keep working from one call to the next
    (and no loop is built and torn down per call, as ``asyncio.run`` would).
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        raise RuntimeError(
            "openai_agents.run_sync() cannot be called while an event loop is running; "
            "await openai_agents.run() instead"
        )
    loop = _default_loop()
    task = loop.create_task(run(agent, prompt, hooks, **kwargs))
    try:
        return loop.run_until_complete(task)
    except BaseException:
        if (
            not task.done()
        ):  # e.g. KeyboardInterrupt: do not leave the run behind on the shared loop
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                loop.run_until_complete(task)
        raise
    finally:
        with contextlib.suppress(RuntimeError):
            loop.run_until_complete(loop.shutdown_asyncgens())


def _default_loop() -> asyncio.AbstractEventLoop:
    """This thread's default event loop (the one ``Runner.run_sync`` uses), made when there is none
    or it closed."""
    loop: asyncio.AbstractEventLoop | None
    with (
        warnings.catch_warnings()
    ):  # the policy API is deprecated in newer Pythons; the SDK still uses it
        warnings.simplefilter("ignore", DeprecationWarning)
        policy = asyncio.get_event_loop_policy()
        try:
            loop = policy.get_event_loop()
        except RuntimeError:
            loop = None
        if loop is None or loop.is_closed():
            loop = policy.new_event_loop()
            policy.set_event_loop(loop)
    return loop


def run_streamed(
    agent: Agent[Any],
    prompt: Any,
    hooks: HookSystem | str | os.PathLike[str] = ".",
    *,
    ask: AskPolicy = "deny",
    on_message: OnMessage | None = None,
    tool_aliases: dict[str, str] | None = None,
    session_id: str | None = None,
    run_config: RunConfig | None = None,
    seams: SeamPolicy = "configured",
    **runner_kwargs: Any,
) -> Any:
    """``Runner.run_streamed`` under the hooks (AfterAgent cannot retry a stream: a warning says
    so)."""
    governed, config = govern(
        agent,
        hooks,
        ask=ask,
        on_message=on_message,
        tool_aliases=tool_aliases,
        session_id=session_id,
        run_config=run_config,
        seams=seams,
    )
    _governor(config).streamed = True
    return Runner.run_streamed(governed, prompt, run_config=config, **runner_kwargs)
