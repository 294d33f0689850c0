"""Microsoft Agent Framework agents governed by a project's hooks: :class:`HookwiseMiddleware`.

::

    from agent_framework import Agent
    # pip install "hookwise[agent-framework]"
    from hookwise.adapters.agent_framework import HookwiseMiddleware

    agent = Agent(client=client, tools=[...], middleware=[HookwiseMiddleware(".")])
    await agent.run("...")

Keywords (docs/adapters.md): ``ask="deny" | approve``, ``on_message``, ``tool_aliases``,
``session_id``, ``max_agent_retries``, ``seams``. ``HookwiseMiddleware`` is one ``MiddlewareBundle``
of three middleware: an agent middleware (SessionStart, BeforeAgent, AfterAgent), a chat middleware
around each model call (BeforeModel, BeforeToolSelection, AfterModel, this prompt's BeforeAgent
context) and a function middleware around each tool call (BeforeTool, AfterTool). A stop raises
:class:`Stopped` (an :class:`~hookwise.adapters.AgentStopped` and the framework's
``MiddlewareFailure``, which the function loop never turns into a tool result).
:meth:`HookwiseMiddleware.close` fires SessionEnd. One instance may be shared by several agents
(each run keeps its own state).

============================  ====  ================================================================
event / field                       how
============================  ====  ================================================================
SessionStart                  ◐     the first run of this middleware (``source: "startup"``); its
                                    context joins the first prompt's context
SessionEnd                    ◐     :meth:`~HookwiseMiddleware.close` / ``aclose`` (``reason:
                                    "exit"``)
BeforeAgent block             ✔     the run answers ``Agent execution blocked: <reason>`` without
                                    calling the model; the prompt does not reach the session's
                                    history
BeforeAgent stop              ✔     raises ``Stopped`` before the model is called
BeforeAgent additionalContext ✔     added to the prompt's message in every model request of this
                                    prompt only
AfterAgent block (retry)      ✔     the agent runs again (``call_next``) with the reason as the next
                                    user message; ``stop_hook_active``; capped. Streaming runs ✘
                                    (warning)
AfterAgent clearContext       ◐     the retry's request leaves out the earlier history (the session
                                    keeps it)
BeforeModel llm_request       ◐     messages and ``temperature``/``maxOutputTokens``/``topP`` ✔;
                                    ``topK`` and ``model`` ✘ (the framework's options have no
                                    top_k): warning
BeforeModel llm_response      ✔     the chat middleware answers without calling the model
BeforeToolSelection           ✔     ``tools`` filtered, ``tool_choice`` set; a call to a removed
                                    tool is refused
AfterModel                    ◐     once per model response (``hooksConfig.afterModel: "response"``)
AfterModel llm_response / deny ✔    text replaced, tool calls kept / text and tool calls discarded
BeforeTool deny / stop        ✔     the tool does not run; the model sees the blocked text / the run
                                    stops
BeforeTool tool_input         ✔     merged over the arguments; the result carries the modified-input
                                    note
BeforeTool ask                ◐     ``"deny"`` refuses, a callable decides inline (after a
                                    Notification); ``"native"`` ✘ (refused, with a warning)
AfterTool additionalContext   ✔     appended to the tool's result
AfterTool block / stop        ✔     the result is replaced by the reason / the run stops
AfterTool tailToolCallRequest ✔     the other tool runs (its own BeforeTool/AfterTool) and answers
                                    the original call; capped at 16
PreCompress                   ✘     the framework's compaction strategies have no event
systemMessage                 ◐     ``on_message("system", …)`` / stderr and the ``hookwise`` logger
============================  ====  ================================================================

**What no hook costs.** The bundle holds only the middleware whose events have hooks configured when
it is built (agent and chat middleware: SessionStart, BeforeAgent, AfterAgent, BeforeModel,
BeforeToolSelection, AfterModel; function middleware: BeforeTool, AfterTool, BeforeToolSelection);
with no hook configured it is empty and the agent runs as without it. Hooks configured later for
another event are named in a warning (``seams="all"`` registers all three).
"""

from __future__ import annotations

import contextvars
import json
import os
import warnings
from collections.abc import Awaitable, Callable
from typing import Any

from hookwise.adapters import require

require("agent_framework")

from agent_framework import (  # noqa: E402
    AgentMiddleware,
    AgentResponse,
    ChatMiddleware,
    ChatResponse,
    Content,
    FunctionMiddleware,
    Message,
    MiddlewareBundle,
)
from agent_framework._middleware import MiddlewareFailure  # noqa: E402

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

__all__ = ["HookwiseMiddleware", "Stopped"]

#: stable ``config`` key -> the framework's chat option
SETTINGS = {"temperature": "temperature", "maxOutputTokens": "max_tokens", "topP": "top_p"}
#: seam -> the events it serves
SEAMS: dict[str, frozenset[HookEvent]] = {
    "agent": RUN_EVENTS - {HookEvent.BEFORE_TOOL, HookEvent.AFTER_TOOL},
    "function": TOOL_EVENTS,
}
_HINT = 'build a new HookwiseMiddleware (and agent), or pass seams="all"'
_TURN: contextvars.ContextVar[TurnState | None] = contextvars.ContextVar(
    "hookwise_agent_framework_turn", default=None
)


class Stopped(AgentStopped, MiddlewareFailure):  # type: ignore[misc]
    """A hook stopped the run: :class:`~hookwise.adapters.AgentStopped` as the framework's
    fail-closed signal."""

    def __init__(self, reason: str) -> None:
        AgentStopped.__init__(self, reason)


def _content_text(contents: Any) -> str:
    return "".join(c.text or "" for c in contents or () if c.type == "text")


def _entries(messages: list[Message]) -> list[codec.Entry]:
    """One entry per user/assistant message (tool results and system messages carry no text for
    hooks)."""
    out: list[codec.Entry] = []
    for m in messages:
        if m.role in ("user", "assistant"):
            text = _content_text(m.contents)
            out.append(codec.Entry("model" if m.role == "assistant" else "user", text or None))
        else:
            out.append(codec.Entry("tool", None))
    return out


def _with_text(message: Message, text: str) -> Message:
    other = [c for c in message.contents if c.type != "text"]
    return Message(role=message.role, contents=[Content.from_text(text), *other])


def _result_text(result: Any) -> str:
    if isinstance(result, str):
        return result
    if isinstance(result, list) and all(isinstance(c, Content) for c in result):
        texts = [c.text or "" if c.type == "text" else str(c.result or "") for c in result]
        return "".join(texts)
    try:
        return json.dumps(result, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(result)


def _calls(response: ChatResponse) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for m in response.messages:
        for c in m.contents:
            if c.type == "function_call":
                out.append((c.name or "", c.parse_arguments() or {}))
    return out


def _text_response(text: str) -> ChatResponse:
    return ChatResponse(messages=[Message(role="assistant", contents=[Content.from_text(text)])])


# the framework marks MiddlewareBundle (and subclassing it) experimental: the warning is not the
# user's to act on
with warnings.catch_warnings():
    warnings.simplefilter("ignore")

    class HookwiseMiddleware(SessionLifecycle, MiddlewareBundle):  # type: ignore[misc]
        """Fires the project's hooks at every seam of a Microsoft Agent Framework agent (module
        docstring)."""

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
                framework="agent-framework",
                ask=ask,
                on_message=on_message,
                tool_aliases=tool_aliases,
                session_id=session_id,
                max_agent_retries=max_agent_retries,
                seams=seams,
            )
            self.bridge.end_with(
                self
            )  # SessionEnd when this object is collected or the process exits
            self.hooks = self.bridge.hooks
            chosen = self.bridge.choose_seams(SEAMS, always=(HookEvent.SESSION_END,), hint=_HINT)
            members: list[Any] = []
            if "agent" in chosen:
                members += [_AgentSeam(self.bridge), _ChatSeam(self.bridge)]
            if "function" in chosen:
                members.append(_FunctionSeam(self.bridge))
            with (
                warnings.catch_warnings()
            ):  # MiddlewareBundle is marked experimental by the framework
                warnings.simplefilter("ignore")
                MiddlewareBundle.__init__(self, members)

        def close(self) -> None:
            self.bridge.end_session()

        async def aclose(self) -> None:
            await self.bridge.aend_session()


def _turn() -> TurnState:
    turn = _TURN.get()
    if turn is None:  # a tool call outside a governed run (no agent seam): its own state
        turn = TurnState()
        _TURN.set(turn)
    return turn


# ---- the run: SessionStart, BeforeAgent, AfterAgent ----------------------------------------------
class _AgentSeam(AgentMiddleware):  # type: ignore[misc]
    def __init__(self, bridge: HookBridge) -> None:
        self.bridge = bridge

    async def process(self, context: Any, call_next: Callable[[], Awaitable[None]]) -> None:
        bridge = self.bridge
        bridge.check_served()
        prompt = next(
            (_content_text(m.contents) for m in reversed(context.messages) if m.role == "user"), ""
        )
        turn = TurnState(prompt=prompt)
        token = _TURN.set(turn)
        try:
            if not await self._before(context, turn):
                return
            await call_next()
            await self._after_agent(context, turn, call_next)
        finally:
            _TURN.reset(token)

    async def _before(self, context: Any, turn: TurnState) -> bool:
        """SessionStart and BeforeAgent; False when the run must not go on (blocked)."""
        bridge = self.bridge
        contexts: list[str] = []
        start = await bridge.adrive(bridge.session_start_steps("startup"))
        if start:
            contexts.append(start)
        if bridge.wants(HookEvent.BEFORE_AGENT):
            v = bridge.before_agent(
                turn, await bridge.afire(HookEvent.BEFORE_AGENT, prompt=turn.prompt)
            )
            if v.kind == "stop":
                raise Stopped(v.reason)
            if v.kind == "block":
                context.result = AgentResponse(
                    messages=[
                        Message(
                            role="assistant",
                            contents=[Content.from_text(verdicts.blocked_line(v.reason))],
                        )
                    ]
                )
                return False
            if v.context:
                contexts.append(v.context)
        turn.context = "".join(contexts) or None
        turn.extra["prompt_ids"] = {id(m) for m in context.messages if m.role == "user"}
        return True

    async def _after_agent(
        self, context: Any, turn: TurnState, call_next: Callable[[], Awaitable[None]]
    ) -> None:
        bridge = self.bridge
        while turn.stop is None and bridge.wants(HookEvent.AFTER_AGENT):
            v = bridge.after_agent(
                turn, await bridge.afire(HookEvent.AFTER_AGENT, **bridge.after_agent_fields(turn))
            )
            if v.kind in ("stop", "capped"):
                raise Stopped(turn.stop or v.reason)
            if v.kind != "retry":
                return
            if context.stream:
                bridge.warn_unsupported(
                    HookEvent.AFTER_AGENT,
                    "decision",
                    "a streamed run has ended once its answer streams, so it cannot retry",
                )
                return
            if bridge.wants(HookEvent.BEFORE_AGENT):
                again = bridge.before_agent(
                    turn, await bridge.afire(HookEvent.BEFORE_AGENT, prompt=v.reason)
                )
                if again.kind == "stop":
                    raise Stopped(again.reason)
                if again.kind == "block":
                    return
            else:
                turn.context = None
            reason = Message(role="user", contents=[Content.from_text(v.reason)])
            turn.extra["prompt_ids"] = {id(reason)}
            turn.extra["clear"] = v.clear_context
            if v.clear_context:
                bridge.message("system", "Conversation context has been cleared.")
            context.messages = [reason]
            await call_next()


# ---- model calls ---------------------------------------------------------------------------------
class _ChatSeam(ChatMiddleware):  # type: ignore[misc]
    def __init__(self, bridge: HookBridge) -> None:
        self.bridge = bridge

    def _prepared(self, turn: TurnState, messages: list[Message]) -> list[Message]:
        """The request's messages: after a clearContext retry from its prompt on, and with this
        prompt's BeforeAgent context added to its message (request-only)."""
        ids = turn.extra.get("prompt_ids") or set()
        if turn.extra.get("clear"):
            at = next((i for i, m in enumerate(messages) if id(m) in ids), None)
            if at is None:  # the framework copied the message: find it by its text
                at = max(
                    (i for i, m in enumerate(messages) if m.role == "user"),
                    default=0,
                )
            messages = messages[at:]
        ctx = turn.context
        if not ctx:
            return messages
        users = [i for i, m in enumerate(messages) if m.role == "user"]
        at = next((i for i in users if id(messages[i]) in ids), users[-1] if users else None)
        if at is None:
            return messages
        m = messages[at]
        return [
            *messages[:at],
            Message(role=m.role, contents=[*m.contents, Content.from_text(ctx)]),
            *messages[at + 1 :],
        ]

    async def process(self, context: Any, call_next: Callable[[], Awaitable[None]]) -> None:
        bridge, turn = self.bridge, _turn()
        if turn.stop is not None:
            raise Stopped(turn.stop)
        messages = self._prepared(turn, list(context.messages))
        context.messages = messages
        options = dict(context.options or {})
        want_before = bridge.wants(HookEvent.BEFORE_MODEL)
        want_select = bridge.wants(HookEvent.BEFORE_TOOL_SELECTION)
        want_after = bridge.wants(HookEvent.AFTER_MODEL)
        live: dict[str, Any] = {}
        if want_before or want_select or want_after:
            live = codec.request_dict(
                str(options.get("model") or type(context.client).__name__),
                _entries(messages),
                {k: options.get(v) for k, v in SETTINGS.items()},
            )
        turn.tool_config = None
        if want_before:
            v = bridge.before_model(
                turn,
                await bridge.afire(HookEvent.BEFORE_MODEL, llm_request=fmt.to_llm_request(live)),
                live,
            )
            if v.kind == "stop":
                raise Stopped(v.reason)
            if v.kind in ("synthetic", "skip"):
                text = (
                    codec.parts_text(fmt.chunk_parts(v.synthetic))
                    if v.synthetic is not None
                    else verdicts.blocked_line(v.reason)
                )
                turn.texts.append(text)
                context.result = _text_response(text)
                return
            if v.request is not live:
                self._apply_request(context, messages, options, live, v.request)
                live = v.request
        if want_select:
            cfg = bridge.tool_selection(
                turn,
                await bridge.afire(
                    HookEvent.BEFORE_TOOL_SELECTION, llm_request=fmt.to_llm_request(live)
                ),
            )
            if cfg is not None:
                self._select_tools(context, cfg)
        await call_next()
        response = context.result
        if not isinstance(response, ChatResponse):  # a streamed response: observed, not changed
            return
        if want_after:
            response = await self._after_model(turn, response, live)
            context.result = response
        turn.texts.append(response.text or "")

    def _apply_request(
        self,
        context: Any,
        messages: list[Message],
        options: dict[str, Any],
        base: dict[str, Any],
        rewritten: dict[str, Any],
    ) -> None:
        out: list[Message] = []
        for e in codec.edited_entries(base, rewritten):
            if e.source is not None:
                m = messages[e.source]
                out.append(_with_text(m, e.text) if e.changed and e.text is not None else m)
            elif e.text is not None:
                role = "assistant" if e.role == "model" else "user"
                out.append(Message(role=role, contents=[Content.from_text(e.text)]))
        context.messages = out
        settings = codec.settings_after(options, SETTINGS, base, rewritten)
        context.options = {**options, **settings}
        if codec.config_changes(base, rewritten).get("topK") is not None:
            self.bridge.warn_unsupported(
                HookEvent.BEFORE_MODEL,
                "llm_request.config.topK",
                "the framework's chat options have no top_k",
            )
        if codec.model_changed(base, rewritten):
            self.bridge.warn_unsupported(
                HookEvent.BEFORE_MODEL,
                "llm_request.model",
                "models are not swapped by name here",
            )

    def _select_tools(self, context: Any, cfg: dict[str, Any]) -> None:
        options = dict(context.options or {})
        tools = list(options.get("tools") or [])
        kept = [t for t in tools if self.bridge.selection_allows(cfg, getattr(t, "name", ""))]
        mode = verdicts.selection_mode(cfg)
        if mode == "NONE" or not kept:
            options["tools"] = []
            options["tool_choice"] = "none"
        else:
            options["tools"] = kept
            if mode == "ANY":
                options["tool_choice"] = "required"
        context.options = options

    async def _after_model(
        self, turn: TurnState, response: ChatResponse, live: dict[str, Any]
    ) -> ChatResponse:
        bridge = self.bridge
        chunk = codec.response_chunk(response.text or "", _calls(response))
        v = bridge.after_model(
            turn,
            await bridge.afire(
                HookEvent.AFTER_MODEL,
                llm_request=fmt.to_llm_request(live),
                llm_response=fmt.to_llm_response(chunk),
            ),
            chunk,
        )
        if v.kind == "stop":
            raise Stopped(v.reason)
        if v.kind == "deny":
            return _text_response(verdicts.blocked_line(v.reason))
        if v.kind != "replace":
            return response
        calls = [c for m in response.messages for c in m.contents if c.type == "function_call"]
        text = codec.parts_text(v.parts)
        contents = [Content.from_text(text), *calls] if text else calls
        return ChatResponse(
            messages=[Message(role="assistant", contents=contents)],
            response_id=response.response_id,
            usage_details=response.usage_details,
        )


# ---- tool calls ----------------------------------------------------------------------------------
class _FunctionSeam(FunctionMiddleware):  # type: ignore[misc]
    def __init__(self, bridge: HookBridge) -> None:
        self.bridge = bridge

    async def process(self, context: Any, call_next: Callable[[], Awaitable[None]]) -> None:
        turn = _turn()
        native = context.function.name
        args = (
            dict(context.arguments or {})
            if not hasattr(context.arguments, "model_dump")
            else (context.arguments.model_dump())
        )

        async def run(run_args: dict[str, Any]) -> Any:
            context.arguments = run_args
            await call_next()
            return context.result

        context.result = await self._govern(context, turn, native, args, run, 0, None)

    async def _govern(
        self,
        context: Any,
        turn: TurnState,
        native: str,
        args: dict[str, Any],
        run: Callable[[dict[str, Any]], Awaitable[Any]],
        depth: int,
        original: str | None,
    ) -> Any:
        bridge = self.bridge
        if turn.stop is not None:
            return verdicts.NOT_RUN_AFTER_STOP
        refused = bridge.refused_by_selection(turn, native)
        if refused is not None:
            return refused
        names = bridge.tool_fields(native, original)
        hook_name = names["tool_name"]
        v = await self._before_tool(turn, names, args)
        if isinstance(v, str):
            return v
        result = await run(v.args)
        text = _result_text(result)
        if not bridge.wants(HookEvent.AFTER_TOOL, hook_name):
            return text + verdicts.MODIFIED_NOTE if v.modified else result
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
            raise Stopped(after.reason)
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
        return await self._tail(context, turn, after.tail, depth, original or hook_name)

    async def _before_tool(
        self, turn: TurnState, names: dict[str, Any], args: dict[str, Any]
    ) -> verdicts.ToolVerdict | str:
        """BeforeTool (and ask) for a call: the verdict to run it with, or the text that answers it
        instead."""
        bridge = self.bridge
        hook_name = names["tool_name"]
        if not bridge.wants(HookEvent.BEFORE_TOOL, hook_name):
            return verdicts.ToolVerdict("run", args)
        v = bridge.before_tool(
            turn, await bridge.afire(HookEvent.BEFORE_TOOL, **names, tool_input=args), args
        )
        if v.kind == "stop":
            raise Stopped(v.reason)
        if v.kind == "deny":
            return v.message
        if v.kind != "ask":
            return v
        refusal = await bridge.aconfirm(hook_name, v.args, v.hook_text)
        if refusal == NATIVE:
            bridge.warn_unsupported(
                HookEvent.BEFORE_TOOL,
                'ask="native"',
                "use a callable approve(tool_name, args, reason); the call was refused",
            )
            refusal = verdicts.ask_refused(bridge.native_name(hook_name), v.hook_text)
        return refusal if refusal is not None else v

    async def _tail(
        self,
        context: Any,
        turn: TurnState,
        tail: tuple[str, dict[str, Any]],
        depth: int,
        original: str,
    ) -> Any:
        name = self.bridge.native_name(tail[0])
        tool = next((t for t in context.tools or () if getattr(t, "name", None) == name), None)
        if tool is None:
            self.bridge.warn(
                f"tailToolCallRequest names an unknown tool {tail[0]!r}; it was ignored"
            )
            return verdicts.tool_blocked(f"unknown tool {tail[0]!r}")

        async def run(run_args: dict[str, Any]) -> Any:
            return await tool.invoke(arguments=run_args)

        return await self._govern(context, turn, name, dict(tail[1]), run, depth + 1, original)
