"""LangChain v1 agents (``create_agent``) governed by a project's hooks:
:class:`HookwiseMiddleware`.

::

    from langchain.agents import create_agent
    from hookwise.adapters.langchain import HookwiseMiddleware  # pip install "hookwise[langchain]"

    agent = create_agent(model, tools, middleware=[HookwiseMiddleware(".")])
    agent.invoke({"messages": [{"role": "user", "content": "..."}]})  # or ainvoke/stream/astream

Keywords (docs/adapters.md): ``ask="deny" | "native" | approve``, ``on_message``, ``tool_aliases``,
``session_id``, ``max_agent_retries``. ``ask="native"`` uses LangGraph's ``interrupt()``: the run
returns ``__interrupt__`` with ``{"hookwise": "ask", "tool", "args", "reason"}`` and continues with
``agent.invoke(Command(resume=True | False), config)``; it needs a checkpointer and a ``thread_id``.
A stop ends the run cleanly (no further model or tool call; the graph runs to its end); the reason
goes to ``on_message("stop", …)`` and to the ``hookwise_stop`` key of the result state.
:meth:`HookwiseMiddleware.close` fires SessionEnd.

============================  ====  ================================================================
event / field                       how
============================  ====  ================================================================
SessionStart                  ◐     fired by the first run of this middleware (``source:
                                    "startup"``); its context joins the first prompt's context (per
                                    prompt, not persisted)
SessionEnd                    ◐     :meth:`~HookwiseMiddleware.close` / ``aclose`` (``reason:
                                    "exit"``)
BeforeAgent block / stop      ✔     ``before_agent``: block removes the prompt and ends; stop keeps
                                    it and ends
BeforeAgent additionalContext ✔     added to the prompt's message in every model request of that
                                    prompt only
AfterAgent block (retry)      ✔     ``after_agent`` jumps back to the model with the reason as a new
                                    prompt (BeforeAgent fires for it), ``stop_hook_active``, capped
AfterAgent clearContext       ✔     ``RemoveMessage(REMOVE_ALL_MESSAGES)``
BeforeModel llm_request       ◐     messages and
                                    ``temperature``/``maxOutputTokens``/``topP``/``topK`` (as
                                    ``model_settings``) ✔; ``model`` ✘ (a chat model object cannot
                                    be built from a name portably): warning
BeforeModel llm_response      ✔     the model is not called; the synthetic text is the answer
BeforeModel/AfterModel stop   ✔     the run ends (an empty AI message closes the turn)
BeforeToolSelection           ✔     ``tools`` filtered, ``tool_choice`` set (ANY → ``"any"`` or the
                                    one name, NONE → no tools); a call to a removed tool is refused
                                    at the tool seam
AfterModel                    ◐     once per model response, never per streamed chunk (middleware
                                    sees whole responses): as ``hooksConfig.afterModel:
                                    "response"``; with ``stream_mode="messages"`` the tokens reach
                                    the caller before the hook
AfterModel llm_response/deny  ✔     text replaced (tool calls kept) / text discarded and the turn
                                    ended
BeforeTool deny / stop        ✔     error ``ToolMessage``; the tool does not run
BeforeTool tool_input         ✔     merged over the arguments; the result carries the modified-input
                                    note
BeforeTool ask                ✔     ``ask`` keyword; Notification fires before the approval; the
                                    verdict is cached by tool call id, so BeforeTool fires once
                                    across interrupt/resume
AfterTool additionalContext   ✔     appended to the tool's result
AfterTool block / stop        ✔     the result is replaced by the reason / and the run ends
AfterTool tailToolCallRequest ✔     the other tool runs (with its own BeforeTool/AfterTool) and
                                    answers the original call id; nesting capped at 16
PreCompress                   ✘     LangChain's summarization middleware has no event to fire it
                                    from
systemMessage                 ◐     ``on_message("system", …)`` and the ``hookwise`` logger (no UI)
============================  ====  ================================================================

**What no hook costs.** ``create_agent`` adds a graph node or a wrapper only for the middleware
methods a class overrides, so the middleware registers a seam only when a hook is configured for an
event it serves, decided when the middleware is built: the agent nodes and the model-call wrapper
when any hook of SessionStart, BeforeAgent, AfterAgent, BeforeModel, BeforeToolSelection,
AfterModel, BeforeTool or AfterTool exists (they carry the run's state, the prompt's context, the
answer texts, and end the run after a tool's stop); the tool-call wrapper when BeforeTool, AfterTool
or BeforeToolSelection hooks exist. With no hook configured the agent runs as without the
middleware. Hooks configured later for an event no registered seam serves do not fire (a warning
names them at the next run or at :meth:`~HookwiseMiddleware.close`): build a new middleware and
agent, or pass ``seams="all"`` to register every seam up front.

Parallel tool calls run concurrently in LangGraph: a ``continue: false`` from one call cannot stop a
sibling already running; calls that start after it are answered with the "stopped before this call
ran" text.
"""

from __future__ import annotations

import os
import sys
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, cast

from hookwise.adapters import require

require("langchain")

if sys.version_info >= (3, 11):
    from typing import NotRequired
else:  # pragma: no cover - the frameworks need 3.11; this keeps type checkers for 3.10 happy
    from typing_extensions import NotRequired

from langchain.agents.middleware.types import (  # noqa: E402
    AgentMiddleware,
    AgentState,
    ModelRequest,
    ModelResponse,
    PrivateStateAttr,
    hook_config,
)
from langchain_core.messages import (  # noqa: E402
    AIMessage,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.tools import BaseTool  # noqa: E402
from langgraph.graph.message import REMOVE_ALL_MESSAGES  # noqa: E402
from langgraph.types import interrupt  # noqa: E402

from hookwise.adapters import _codec as codec  # noqa: E402
from hookwise.adapters._bridge import (  # noqa: E402
    NATIVE,
    RUN_EVENTS,
    TOOL_EVENTS,
    AskPolicy,
    Fire,
    HookBridge,
    OnMessage,
    SeamPolicy,
    SessionLifecycle,
    Steps,
    TurnState,
)
from hookwise.engine import HookSystem  # noqa: E402
from hookwise.events import HookEvent  # noqa: E402
from hookwise.host import llm_format as fmt  # noqa: E402
from hookwise.host import verdicts  # noqa: E402

__all__ = ["HookwiseMiddleware", "HookwiseState"]

#: stable ``config`` key -> LangChain ``model_settings`` key
SETTINGS = {
    "temperature": "temperature",
    "maxOutputTokens": "max_tokens",
    "topP": "top_p",
    "topK": "top_k",
}
_MAX_OPEN_RUNS = 1024

#: seam -> the events it serves. "run": the agent nodes and the model-call wrapper, which carry the
#: run's state, the prompt's context, the answer texts, and end the run after a tool hook's stop;
#: "tool": the tool-call wrapper
SEAMS: dict[str, frozenset[HookEvent]] = {"run": RUN_EVENTS, "tool": TOOL_EVENTS}
#: seam -> the middleware methods whose override makes ``create_agent`` register it
_METHODS: dict[str, tuple[str, ...]] = {
    "run": (
        "before_agent",
        "abefore_agent",
        "after_agent",
        "aafter_agent",
        "wrap_model_call",
        "awrap_model_call",
    ),
    "tool": ("wrap_tool_call", "awrap_tool_call"),
}
_HINT = 'build a new HookwiseMiddleware and agent, or pass seams="all"'


class HookwiseState(AgentState[Any]):
    """The agent state with the middleware's keys: ``hookwise_stop`` is the stop reason of the last
    run."""

    hookwise_run: NotRequired[Annotated[str | None, PrivateStateAttr]]
    hookwise_stop: NotRequired[str | None]


@dataclass(frozen=True)
class _Call:
    """Run the framework's handler on ``request``."""

    request: Any


@dataclass(frozen=True)
class _Interrupt:
    value: dict[str, Any]


def _text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    out = []
    for block in content:
        if isinstance(block, str):
            out.append(block)
        elif (
            isinstance(block, dict)
            and block.get("type") == "text"
            and isinstance(block.get("text"), str)
        ):
            out.append(block["text"])
    return "".join(out)


def _entry(message: BaseMessage) -> codec.Entry:
    if isinstance(message, (HumanMessage, SystemMessage)):
        return codec.Entry(
            "system" if isinstance(message, SystemMessage) else "user", _text(message) or None
        )
    if isinstance(message, AIMessage):
        return codec.Entry("model", _text(message) or None)
    return codec.Entry(
        "user", None
    )  # tool results carry no text for hooks (docs/contract.md §13.1)


def _tool_name(tool: Any) -> str:
    if isinstance(tool, BaseTool):
        return tool.name
    if isinstance(tool, dict):
        fn = tool.get("function")
        return str(tool.get("name") or (fn.get("name") if isinstance(fn, dict) else "") or "")
    return str(getattr(tool, "name", ""))


def _model_name(model: Any) -> str:
    for attr in ("model_name", "model", "model_id"):
        v = getattr(model, attr, None)
        if isinstance(v, str) and v:
            return v
    return type(model).__name__


def _approved(answer: Any) -> bool:
    """A resume value that approves: ``True``, ``"approve"``/``"yes"``, or
    ``{"approved": True}``."""
    if isinstance(answer, dict):
        return answer.get("approved") is True
    if isinstance(answer, str):
        return answer.lower() in ("approve", "approved", "yes", "y", "allow")
    return answer is True


class HookwiseMiddleware(SessionLifecycle, AgentMiddleware[HookwiseState, Any, Any]):
    """Fires the project's hooks at every seam of a ``create_agent`` agent (see the module
    docstring)."""

    state_schema = HookwiseState

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
        super().__init__()
        self.bridge = HookBridge(
            hooks,
            framework="LangChain",
            ask=ask,
            on_message=on_message,
            tool_aliases=tool_aliases,
            session_id=session_id,
            max_agent_retries=max_agent_retries,
            seams=seams,
        )
        self.bridge.end_with(self)  # SessionEnd when this object is collected or the process exits
        self.hooks = self.bridge.hooks
        self._turns: OrderedDict[str, TurnState] = OrderedDict()
        #: the seams this middleware registers with ``create_agent`` ("run", "tool"; see the module
        #: docstring)
        self.seams = self.bridge.choose_seams(SEAMS, always={HookEvent.SESSION_END}, hint=_HINT)
        # create_agent reads which methods the *class* overrides: become the subclass that overrides
        # only these
        self.__class__ = _registering(type(self), self.seams)

    # ---- per-run state ------------------------------------------------------------------------
    def _turn(self, state: Any) -> TurnState:
        run = (
            state.get("hookwise_run")
            if isinstance(state, dict)
            else getattr(state, "hookwise_run", None)
        )
        turn = self._turns.get(run) if isinstance(run, str) else None
        return turn if turn is not None else TurnState()

    def _finish(self, state: Any) -> None:
        run = state.get("hookwise_run") if isinstance(state, dict) else None
        if isinstance(run, str):
            self._turns.pop(run, None)

    # ---- BeforeAgent / SessionStart -------------------------------------------------------------
    def _before_agent(self, state: Any) -> Steps[dict[str, Any] | None]:
        bridge = self.bridge
        bridge.check_served()
        run = str(uuid.uuid4())
        turn = TurnState()
        self._turns[run] = turn
        while len(self._turns) > _MAX_OPEN_RUNS:  # runs interrupted and never resumed
            self._turns.popitem(last=False)
        update: dict[str, Any] = {"hookwise_run": run, "hookwise_stop": None}
        messages = state.get("messages") or []
        last = messages[-1] if messages else None
        turn.prompt = _text(last) if isinstance(last, HumanMessage) else ""
        turn.extra["entry"] = last.id if isinstance(last, HumanMessage) else None
        contexts: list[str] = []
        start_context = yield from bridge.session_start_steps("startup")
        if start_context:
            contexts.append(start_context)
        if bridge.wants(HookEvent.BEFORE_AGENT):
            res = yield Fire(HookEvent.BEFORE_AGENT, {"prompt": turn.prompt})
            v = bridge.before_agent(turn, res)
            if v.kind == "stop":
                return {**update, "jump_to": "end", "hookwise_stop": v.reason}
            if v.kind == "block":
                if isinstance(last, HumanMessage) and last.id:
                    update["messages"] = [RemoveMessage(id=last.id)]
                return {**update, "jump_to": "end"}
            if v.context:
                contexts.append(v.context)
        turn.context = "".join(contexts) or None
        return update

    @hook_config(can_jump_to=["end"])
    def before_agent(self, state: HookwiseState, runtime: Any) -> dict[str, Any] | None:
        return self.bridge.drive(self._before_agent(state))

    @hook_config(can_jump_to=["end"])
    async def abefore_agent(self, state: HookwiseState, runtime: Any) -> dict[str, Any] | None:
        return await self.bridge.adrive(self._before_agent(state))

    # ---- AfterAgent -----------------------------------------------------------------------------
    def _after_agent(self, state: Any) -> Steps[dict[str, Any] | None]:
        bridge = self.bridge
        turn = self._turn(state)
        if turn.stop is not None or turn.blocked or not bridge.wants(HookEvent.AFTER_AGENT):
            self._finish(state)
            return {"hookwise_stop": turn.stop} if turn.stop is not None else None
        res = yield Fire(HookEvent.AFTER_AGENT, bridge.after_agent_fields(turn))
        v = bridge.after_agent(turn, res)
        update: dict[str, Any] = {}
        messages: list[Any] = []
        if v.clear_context:
            messages.append(RemoveMessage(id=REMOVE_ALL_MESSAGES))
            bridge.message("system", "Conversation context has been cleared.")
        if v.kind != "retry":
            self._finish(state)
            if turn.stop is not None:
                update["hookwise_stop"] = turn.stop
            if messages:
                update["messages"] = messages
            return update or None
        # the reason is the next prompt: BeforeAgent fires for it as for any prompt
        # (docs/contract.md §11)
        context: str | None = None
        if bridge.wants(HookEvent.BEFORE_AGENT):
            again = bridge.before_agent(
                turn, (yield Fire(HookEvent.BEFORE_AGENT, {"prompt": v.reason}))
            )
            if again.kind != "run":
                self._finish(state)
                if again.kind == "stop":
                    messages.append(HumanMessage(v.reason))
                    update["hookwise_stop"] = again.reason
                if messages:
                    update["messages"] = messages
                return update or None
            context = again.context
        prompt = HumanMessage(v.reason, id=str(uuid.uuid4()))
        turn.extra["entry"] = prompt.id
        turn.context = context
        messages.append(prompt)
        return {"messages": messages, "jump_to": "model"}

    @hook_config(can_jump_to=["model"])
    def after_agent(self, state: HookwiseState, runtime: Any) -> dict[str, Any] | None:
        return self.bridge.drive(self._after_agent(state))

    @hook_config(can_jump_to=["model"])
    async def aafter_agent(self, state: HookwiseState, runtime: Any) -> dict[str, Any] | None:
        return await self.bridge.adrive(self._after_agent(state))

    # ---- model calls ----------------------------------------------------------------------------
    def _with_context(self, turn: TurnState, messages: list[AnyMessage]) -> list[AnyMessage]:
        entry = turn.extra.get("entry")
        if not turn.context or entry is None:
            return messages
        out: list[AnyMessage] = []
        for m in messages:
            if isinstance(m, HumanMessage) and m.id == entry:
                blocks: list[Any] = (
                    [{"type": "text", "text": m.content}]
                    if isinstance(m.content, str)
                    else list(m.content)
                )
                m = m.model_copy(
                    update={"content": [*blocks, {"type": "text", "text": turn.context}]}
                )
            out.append(m)
        return out

    def _apply_request(
        self,
        request: ModelRequest[Any],
        messages: list[AnyMessage],
        base: dict[str, Any],
        rewritten: dict[str, Any],
    ) -> ModelRequest[Any]:
        new_messages: list[AnyMessage] = []
        for e in codec.edited_entries(base, rewritten):
            if e.source is not None:
                m = messages[e.source]
                if e.changed and e.text is not None:
                    if e.role == "model" and isinstance(m, AIMessage):
                        m = m.model_copy(update={"content": e.text})
                    elif e.role == "model":
                        m = AIMessage(e.text)
                    elif e.role == "system":
                        m = SystemMessage(e.text)
                    elif isinstance(m, HumanMessage):
                        m = m.model_copy(update={"content": e.text})
                    else:
                        m = HumanMessage(e.text)
                new_messages.append(m)
            elif e.text is not None:
                new_messages.append(
                    AIMessage(e.text)
                    if e.role == "model"
                    else SystemMessage(e.text)
                    if e.role == "system"
                    else HumanMessage(e.text)
                )
        settings = codec.settings_after(request.model_settings, SETTINGS, base, rewritten)
        if codec.model_changed(base, rewritten):
            self.bridge.warn_unsupported(
                HookEvent.BEFORE_MODEL,
                "llm_request.model",
                "LangChain cannot build a chat model from a name portably",
            )
        return request.override(messages=new_messages, model_settings=settings)

    def _select_tools(self, request: ModelRequest[Any], cfg: dict[str, Any]) -> ModelRequest[Any]:
        tools = [t for t in request.tools if self.bridge.selection_allows(cfg, _tool_name(t))]
        mode = verdicts.selection_mode(cfg)
        choice: Any = request.tool_choice
        if mode == "NONE" or not tools:
            tools, choice = [], None
        elif mode == "ANY":
            choice = _tool_name(tools[0]) if len(tools) == 1 else "any"
        return request.override(tools=tools, tool_choice=choice)

    def _model(self, request: ModelRequest[Any]) -> Steps[Any]:
        bridge = self.bridge
        turn = self._turn(request.state)
        if turn.stop is not None:  # a tool's hook stopped the run: end it without calling the model
            return AIMessage("")
        turn.extra["tools"] = request.tools
        messages = request.messages
        if turn.context:
            messages = self._with_context(turn, messages)
            request = request.override(messages=messages)
        want_before = bridge.wants(HookEvent.BEFORE_MODEL)
        want_select = bridge.wants(HookEvent.BEFORE_TOOL_SELECTION)
        want_after = bridge.wants(HookEvent.AFTER_MODEL)
        live: dict[str, Any] = {}
        if want_before or want_select or want_after:
            config = {k: request.model_settings.get(v) for k, v in SETTINGS.items()}
            live = codec.request_dict(
                _model_name(request.model), [_entry(m) for m in messages], config
            )
        if want_before:
            v = bridge.before_model(
                turn,
                (yield Fire(HookEvent.BEFORE_MODEL, {"llm_request": fmt.to_llm_request(live)})),
                live,
            )
            if v.kind in ("stop", "skip"):
                return AIMessage("")
            if v.kind == "synthetic":
                assert v.synthetic is not None
                text = codec.parts_text(fmt.chunk_parts(v.synthetic))
                turn.texts.append(text)
                return AIMessage(text)
            if v.request is not live:
                request = self._apply_request(request, messages, live, v.request)
                live = v.request
        turn.tool_config = None
        if want_select:
            cfg = bridge.tool_selection(
                turn,
                (
                    yield Fire(
                        HookEvent.BEFORE_TOOL_SELECTION, {"llm_request": fmt.to_llm_request(live)}
                    )
                ),
            )
            if cfg is not None:
                request = self._select_tools(request, cfg)
        response = yield _Call(request)
        result = list(response.result) if isinstance(response, ModelResponse) else [response]
        idx = next(
            (i for i in range(len(result) - 1, -1, -1) if isinstance(result[i], AIMessage)), None
        )
        if idx is None:
            return response
        ai = cast(AIMessage, result[idx])
        if want_after:
            usage: dict[str, Any] = dict(ai.usage_metadata or {})
            finish = (
                ai.response_metadata.get("finish_reason")
                if isinstance(ai.response_metadata, dict)
                else None
            )
            chunk = codec.response_chunk(
                _text(ai),
                [(tc["name"], tc["args"]) for tc in ai.tool_calls],
                finish_reason=str(finish).upper() if finish else "STOP",
                usage=codec.usage(usage.get("input_tokens"), usage.get("output_tokens")),
            )
            after = bridge.after_model(
                turn,
                (
                    yield Fire(
                        HookEvent.AFTER_MODEL,
                        {
                            "llm_request": fmt.to_llm_request(live),
                            "llm_response": fmt.to_llm_response(chunk),
                        },
                    )
                ),
                chunk,
            )
            if after.kind in ("stop", "deny"):
                return AIMessage("")
            if after.kind == "replace":
                ai = ai.model_copy(update={"content": codec.parts_text(after.parts)})
                result[idx] = ai
                response = (
                    ModelResponse(result=result, structured_response=response.structured_response)
                    if isinstance(response, ModelResponse)
                    else ai
                )
        turn.texts.append(_text(ai))
        return response

    def wrap_model_call(
        self, request: ModelRequest[Any], handler: Callable[[ModelRequest[Any]], Any]
    ) -> Any:
        return self.bridge.drive(self._model(request), lambda op: handler(op.request))

    async def awrap_model_call(
        self, request: ModelRequest[Any], handler: Callable[[ModelRequest[Any]], Awaitable[Any]]
    ) -> Any:
        async def call(op: Any) -> Any:
            return await handler(op.request)

        return await self.bridge.adrive(self._model(request), call)

    # ---- tool calls -----------------------------------------------------------------------------
    @staticmethod
    def _error(call: Any, text: str) -> ToolMessage:
        return ToolMessage(
            content=text, tool_call_id=call.get("id") or "", name=call.get("name"), status="error"
        )

    def _tool(self, request: Any, original: str | None = None, depth: int = 0) -> Steps[Any]:
        bridge = self.bridge
        turn = self._turn(request.state)
        call = request.tool_call
        native = call["name"]
        args = dict(call.get("args") or {})
        if turn.stop is not None:
            return self._error(call, verdicts.NOT_RUN_AFTER_STOP)
        refused = bridge.refused_by_selection(turn, native)
        if refused is not None:
            return self._error(call, refused)
        if request.tool is None:  # unknown tool: the framework's own error
            return (yield _Call(request))
        names = bridge.tool_fields(native, original, call.get("id"))
        hook_name = names["tool_name"]
        key = call.get("id") if depth == 0 else None
        v = turn.verdicts.get(key) if key else None
        if v is None:
            if bridge.wants(HookEvent.BEFORE_TOOL, hook_name):
                res = yield Fire(HookEvent.BEFORE_TOOL, {**names, "tool_input": args})
                v = bridge.before_tool(turn, res, args, key)
            else:
                v = verdicts.ToolVerdict("run", args)
        if v.kind in ("deny", "stop"):
            return self._error(call, v.message)
        if v.kind == "ask":
            refusal = yield from bridge.confirm_steps(
                hook_name, v.args, v.hook_text, notify=key is None or key not in turn.notified
            )
            if key is not None:
                turn.notified.add(key)
            if refusal == NATIVE:
                answer = yield _Interrupt(
                    {
                        "hookwise": "ask",
                        "tool": hook_name,
                        "args": v.args,
                        "reason": v.hook_text or "",
                    }
                )
                refusal = None if _approved(answer) else verdicts.CANCELLED
            if refusal is not None:
                return self._error(call, refusal)
        if v.args != args:
            request = request.override(tool_call={**call, "args": v.args})
        out = yield _Call(request)
        if not isinstance(out, ToolMessage):  # a Command: the tool updates state itself
            bridge.warn_unsupported(
                HookEvent.AFTER_TOOL, "tool_response", f"tool {native!r} returned a Command"
            )
            return out
        text = _text(out)
        failed = out.status == "error"
        if not bridge.wants(HookEvent.AFTER_TOOL, hook_name):
            if v.modified and not failed:
                return out.model_copy(update={"content": text + verdicts.MODIFIED_NOTE})
            return out
        response: dict[str, Any] = {"llmContent": text, "returnDisplay": text}
        if failed:
            response["error"] = {"type": "execution_failed", "message": text}
        after = bridge.after_tool(
            turn,
            (
                yield Fire(
                    HookEvent.AFTER_TOOL, {**names, "tool_input": v.args, "tool_response": response}
                )
            ),
        )
        if after.kind in ("hide", "stop"):
            return self._error(call, after.reason)
        if after.text is not None:  # a hook's updatedToolOutput
            text = after.text
            out = out.model_copy(update={"content": text})
        if not failed:
            out = out.model_copy(
                update={"content": verdicts.model_facing_text(text, after.context, v.modified)}
            )
        if after.tail is None:
            return out
        if depth >= verdicts.MAX_TAIL_CALLS:
            bridge.warn(verdicts.tail_too_deep(after.tail[0]))
            return out
        tail_native = bridge.native_name(after.tail[0])
        tool = next(
            (
                t
                for t in turn.extra.get("tools") or ()
                if isinstance(t, BaseTool) and t.name == tail_native
            ),
            None,
        )
        tail_request = request.override(
            tool_call={**call, "name": tail_native, "args": after.tail[1]}, tool=tool
        )
        return (yield from self._tool(tail_request, original or hook_name, depth + 1))

    def wrap_tool_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        def call(op: Any) -> Any:
            return interrupt(op.value) if isinstance(op, _Interrupt) else handler(op.request)

        return self.bridge.drive(self._tool(request), call)

    async def awrap_tool_call(self, request: Any, handler: Callable[[Any], Awaitable[Any]]) -> Any:
        async def call(op: Any) -> Any:
            return interrupt(op.value) if isinstance(op, _Interrupt) else await handler(op.request)

        return await self.bridge.adrive(self._tool(request), call)


_VARIANTS: dict[tuple[type[HookwiseMiddleware], frozenset[str]], type[HookwiseMiddleware]] = {}


def _registering(cls: type[HookwiseMiddleware], seams: frozenset[str]) -> type[HookwiseMiddleware]:
    """``cls``, or a subclass of it (of the same name) that registers only ``seams``:
    ``create_agent`` adds a node or wrapper for a middleware method only when the class overrides
    ``AgentMiddleware``'s, so the other seams' methods are set back to ``AgentMiddleware``'s (a
    subclass's own overrides are kept)."""
    cls = getattr(cls, "_hookwise_full", cls)
    key = (cls, seams)
    variant = _VARIANTS.get(key)
    if variant is None:
        unregistered = {
            name: getattr(AgentMiddleware, name)
            for seam, names in _METHODS.items()
            if seam not in seams
            for name in names
            if getattr(cls, name) is getattr(HookwiseMiddleware, name)
        }
        variant = (
            cls
            if not unregistered
            else type(
                cls.__name__,
                (cls,),
                {
                    "__module__": cls.__module__,
                    "__qualname__": cls.__qualname__,
                    "__doc__": cls.__doc__,
                    "_hookwise_full": cls,
                    **unregistered,
                },
            )
        )
        _VARIANTS[key] = variant
    return variant
