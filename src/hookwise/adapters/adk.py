"""Google ADK adapter: a project's hooks govern an ADK agent through one Runner plugin.

::

    from hookwise.adapters.adk import HookwisePlugin             # pip install "hookwise[adk]"
    runner = InMemoryRunner(agent=root_agent, plugins=[HookwisePlugin(".")])

Keywords (docs/adapters.md, docs/contract.md §12): ``ask="deny" | "native" | approve``,
``on_message``, ``tool_aliases``, ``session_id`` (default: the ADK session id),
``max_agent_retries``.

State is kept per invocation (keyed by ``invocation_id``, evicted in ``after_run_callback``) and per
ADK session (SessionStart, verdicts waiting for a confirmation, ``clearContext``). A stop ends the
invocation the ADK way (``end_invocation``; no exception): the reason goes to
``on_message("stop", ...)``. ADK runs the function calls of one model turn concurrently: a stop
cannot cancel a sibling call that already started (later ones are refused with the reference host's
"not run" text).

``llm_request`` / ``llm_response`` / ``toolConfig`` are the stable format of docs/contract.md §13.

**What no hook costs.** ADK calls every callback of every plugin, so the plugin decides per
invocation, when the user message arrives: with no hook configured for an event its callbacks serve
(everything but PreCompress, which the wrapped summarizer serves), the invocation is idle and each
callback returns at once. Hooks configured while an invocation runs fire from the next one on.

How each event and field maps (✔ native seam, ◐ works with adapter work / a documented difference,
✘ not possible):

=====================  ========================  ===================================================
event                  field                     ADK
=====================  ========================  ===================================================
SessionStart           fires                     ◐ first user message of an ADK session seen by this
                                                 plugin (``startup``; ``resume`` if the session has
                                                 events)
SessionStart           additionalContext         ✔ prefixed to the first prompt (as a headless run)
BeforeAgent            block                     ✔ the prompt is emptied (never reaches the model)
                                                 and ``before_run_callback`` halts the invocation
BeforeAgent            continue:false            ✔ prompt kept, invocation halted
BeforeAgent            additionalContext         ✔ added to every model request of this prompt only
                                                 (``before_model_callback``; never stored in the
                                                 session)
BeforeModel            continue:false            ✔ empty response + ``end_invocation``
BeforeModel            llm_request               ✔ contents/config (temperature, maxOutputTokens,
                                                 topP, topK) written back into the ``LlmRequest``;
                                                 ``model`` ◐ sets ``LlmRequest.model`` (used by
                                                 Gemini models)
BeforeModel            llm_response              ✔ returned as the ``LlmResponse``; the model is not
                                                 called (AfterAgent still fires on it: ADK skips
                                                 after_model here)
BeforeToolSelection    toolConfig                ✔ ``config.tool_config`` set and the declarations
                                                 of removed tools dropped; calls to them refused at
                                                 the tool
AfterModel             llm_response / deny       ◐ once per complete response (partial SSE chunks
                                                 pass through unhooked); replace keeps function
                                                 calls; deny returns an empty response (the turn
                                                 ends)
AfterModel             continue:false            ✔ ``end_invocation``
BeforeTool             block / continue:false    ✔ the tool is skipped, its result is the reason
BeforeTool             tool_input                ✔ arguments rewritten in place (+ the
                                                 modified-input note)
BeforeTool             ask                       ✔ ``ask="native"``:
                                                 ``tool_context.request_confirmation`` (Notification
                                                 first; verdict cached across the round trip)
AfterTool              additionalContext         ✔ appended to the tool's result
AfterTool              block / continue:false    ✔ result replaced by the reason /
                                                 ``end_invocation``
AfterTool              tailToolCallRequest       ✔ the other tool runs (with its own hooks, nesting
                                                 ≤ 16); its result answers the original call
AfterTool              (a tool that raised)      ✔ fires from ``on_tool_error_callback`` with the
                                                 error; block/stop/tail apply, else ADK handles the
                                                 error
AfterAgent             block (retry)             ◐ fired on the root agent's final response; a retry
                                                 adds a hidden ``hookwise_agent_retry`` call the
                                                 model never sees, and the next request carries the
                                                 reason as a user message (``stop_hook_active``,
                                                 capped)
AfterAgent             clearContext              ◐ later requests of the session omit the earlier
                                                 history (the ADK session's events are kept)
PreCompress            auto                      ◐ the App's events-compaction summarizer is wrapped
                                                 (at the first run) so the hook fires before ADK
                                                 compacts
Notification           ToolPermission            ✔ before every approval (``ask="native"`` or a
                                                 callable)
SessionEnd             exit                      ◐ on ``Runner.close()`` (``BasePlugin.close``)
=====================  ========================  ===================================================
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hookwise.adapters import require

require("adk")

from google.adk.apps.base_events_summarizer import BaseEventsSummarizer  # noqa: E402
from google.adk.models.llm_request import LlmRequest  # noqa: E402
from google.adk.models.llm_response import LlmResponse  # noqa: E402
from google.adk.plugins.base_plugin import BasePlugin  # noqa: E402
from google.adk.tools.function_tool import FunctionTool  # noqa: E402
from google.genai import types  # noqa: E402

from hookwise.adapters import _codec as codec  # noqa: E402
from hookwise.adapters._bridge import (  # noqa: E402
    NATIVE,
    RUN_EVENTS,
    AskPolicy,
    HookBridge,
    OnMessage,
    SeamPolicy,
    TurnState,
)
from hookwise.events import HookEvent  # noqa: E402
from hookwise.host import llm_format as fmt  # noqa: E402
from hookwise.host import verdicts  # noqa: E402

if TYPE_CHECKING:
    from hookwise.engine import HookSystem

__all__ = ["HookwisePlugin", "RETRY_TOOL"]

#: the hidden tool an AfterAgent retry goes through (never declared to the model)
RETRY_TOOL = "hookwise_agent_retry"
_PENDING = "This call is waiting for the user's confirmation."
#: the events the plugin's callbacks serve (SessionEnd: on close, for the sessions they started)
SERVED = RUN_EVENTS | {HookEvent.SESSION_END}


def _json_safe(value: Any) -> Any:
    try:
        return json.loads(json.dumps(value, default=str))
    except (TypeError, ValueError):
        return str(value)


def _tool_response(result: Any) -> dict[str, Any]:
    """AfterTool ``tool_response`` in the reference host's shape (``llmContent`` / ``returnDisplay``
    / ``error``)."""
    if isinstance(result, dict) and set(result) == {"result"} and isinstance(result["result"], str):
        text = result["result"]
    else:
        text = (
            result
            if isinstance(result, str)
            else json.dumps(_json_safe(result), ensure_ascii=False)
        )
    out: dict[str, Any] = {"llmContent": text, "returnDisplay": text}
    if isinstance(result, dict) and result.get("error") is not None:
        out["error"] = {"message": str(result["error"])}
    return out


def _with_text(result: Any, extra: str) -> Any:
    """``result`` with ``extra`` (hook context / the modified-input note) appended, as the model
    will see it."""
    if not extra:
        return result
    if isinstance(result, dict):
        if "error" in result:  # a failed tool answers with its error only (reference host)
            return result
        for key in ("result", "output"):
            if isinstance(result.get(key), str):
                return {**result, key: result[key] + extra}
        return {**result, "hook_context": extra.lstrip("\n")}
    if isinstance(result, str):
        return result + extra
    return {"result": _json_safe(result), "hook_context": extra.lstrip("\n")}


def _end(ctx: Any) -> None:
    """End the ADK invocation (the clean stop: no further model or tool step, no after_agent)."""
    inv = getattr(ctx, "_invocation_context", None)
    if inv is None:
        inv = getattr(ctx, "invocation_context", None)
    if inv is not None:
        inv.end_invocation = True


def _empty_response() -> LlmResponse:
    return LlmResponse(content=types.Content(role="model", parts=[]))


def _response_from_parts(
    parts: list[dict[str, Any]], like: LlmResponse | None = None
) -> LlmResponse:
    content = types.Content.model_validate({"role": "model", "parts": parts})
    if like is None:
        return LlmResponse(content=content, finish_reason=types.FinishReason.STOP)
    return like.model_copy(update={"content": content})


def _content_dict(content: types.Content | None) -> dict[str, Any]:
    if content is None:
        return {"role": "model", "parts": []}
    return content.model_dump(mode="json", by_alias=True, exclude_none=True)


def _chunk(resp: LlmResponse) -> dict[str, Any]:
    """An ``LlmResponse`` as a google-genai response chunk (what ``llm_format`` reads)."""
    cand: dict[str, Any] = {"content": _content_dict(resp.content), "index": 0}
    if resp.finish_reason is not None:
        cand["finishReason"] = getattr(resp.finish_reason, "value", str(resp.finish_reason))
    chunk: dict[str, Any] = {"candidates": [cand]}
    if resp.usage_metadata is not None:
        chunk["usageMetadata"] = resp.usage_metadata.model_dump(
            mode="json", by_alias=True, exclude_none=True
        )
    return chunk


def _is_prompt(content: types.Content) -> bool:
    """A user message that carries a prompt: text, or data (ADK's samples send text as
    ``text/plain`` bytes)."""
    return any(
        (p.text is not None and not p.thought)
        or p.inline_data is not None
        or p.file_data is not None
        for p in content.parts or []
    )


def _part_text(part: types.Part) -> str:
    """What a prompt part says to hooks: its text; ``text/*`` bytes decoded (UTF-8); other data as a
    marker."""
    if part.thought:
        return ""
    if part.text is not None:
        return part.text
    blob = part.inline_data
    if blob is not None:
        mime = blob.mime_type or "application/octet-stream"
        if mime.startswith("text/") and blob.data is not None:
            return blob.data.decode("utf-8", errors="replace")
        return f"[{mime} data]"
    if part.file_data is not None:
        return f"[file {part.file_data.file_uri or ''}]"
    return ""


def _prompt_text(content: types.Content) -> str:
    return "".join(_part_text(p) for p in content.parts or [])


def _is_retry_response(content: types.Content) -> bool:
    return any(
        p.function_response is not None and p.function_response.name == RETRY_TOOL
        for p in content.parts or []
    )


@dataclass
class _Call:
    """One function call (by id): its BeforeTool verdict, kept across a confirmation round trip."""

    verdict: verdicts.ToolVerdict | None = None
    after: bool = True  # fire AfterTool (False: refused/denied, the tool did not run)
    modified: bool = False
    pending: bool = False  # waiting for the answer to ADK's confirmation request


@dataclass
class _Session:
    started: bool = False
    turn: TurnState | None = None
    root: str = ""
    calls: dict[str, _Call] = field(default_factory=dict)
    clear_next: bool = False
    retried: bool = False  # a hidden retry call is in this session's history
    floor: int = 0  # clearContext: contents before this index are left out of requests


@dataclass
class _Invocation:
    turn: TurnState
    session: _Session
    llm_request: dict[str, Any] | None = None  # stable format, for AfterModel
    tools: dict[str, Any] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    answering: str | None = (
        None  # the agent whose final answer ends this invocation (transfers move it)
    )

    def answers(self, agent_name: str) -> bool:
        """Is ``agent_name`` the agent whose final answer is this invocation's answer? The first
        agent that calls the model (the one ADK chose to run: the root, or the agent a past transfer
        left in charge), then the agent each ``transfer_to_agent`` call hands over to."""
        if self.answering is None:
            self.answering = agent_name
        return agent_name == self.answering

    def note_transfer(self, parts: list[dict[str, Any]]) -> None:
        for p in parts:
            fc = p.get("functionCall")
            if isinstance(fc, dict) and fc.get("name") == _TRANSFER:
                target = (fc.get("args") or {}).get("agent_name")
                if isinstance(target, str) and target:
                    self.answering = target


#: the function ADK's LLM agents call to hand the conversation to another agent
_TRANSFER = "transfer_to_agent"


def _retry_tool_body(reason: str) -> dict[str, Any]:
    """Hands an AfterAgent reason back to the model (the next request shows it as a user
    message)."""
    return {"reason": reason}


_retry_tool_body.__name__ = RETRY_TOOL


class _PreCompressSummarizer(BaseEventsSummarizer):  # type: ignore[misc]
    """ADK's events summarizer with PreCompress (``trigger: "auto"``) fired before each
    compaction."""

    def __init__(self, inner: BaseEventsSummarizer, bridge: HookBridge) -> None:
        self.inner = inner
        self.bridge = bridge

    async def maybe_summarize_events(self, *, events: list[Any]) -> Any:
        if self.bridge.wants(HookEvent.PRE_COMPRESS):
            pre = await self.bridge.afire(HookEvent.PRE_COMPRESS, trigger="auto")
            if (
                pre.blocked
            ):  # as Claude Code's PreCompact block: no summary this time (ADK keeps the events)
                self.bridge.warn(
                    f"Compression blocked by a PreCompress hook: {pre.effective_reason}"
                )
                return None
        return await self.inner.maybe_summarize_events(events=events)


class HookwisePlugin(BasePlugin):  # type: ignore[misc]
    """A Runner plugin that fires a project's hooks at every ADK seam (see the module docstring)."""

    def __init__(
        self,
        hooks: HookSystem | str | os.PathLike[str] = ".",
        *,
        ask: AskPolicy = "deny",
        on_message: OnMessage | None = None,
        tool_aliases: dict[str, str] | None = None,
        session_id: str | None = None,
        max_agent_retries: int = verdicts.DEFAULT_MAX_AGENT_RETRIES,
        name: str = "hookwise",
        seams: SeamPolicy = "configured",
    ) -> None:
        super().__init__(name)
        self.bridge = HookBridge(
            hooks,
            framework="adk",
            ask=ask,
            on_message=on_message,
            tool_aliases=tool_aliases,
            session_id=session_id,
            max_agent_retries=max_agent_retries,
            seams=seams,
        )
        self._own_session_id = session_id is None
        self._idle: set[str] = (
            set()
        )  # invocations with no hook to serve: every callback returns at once
        self._invocations: dict[str, _Invocation] = {}
        self._sessions: dict[str, _Session] = {}
        self._retry_tool = FunctionTool(_retry_tool_body)

    @property
    def hooks(self) -> HookSystem:
        return self.bridge.hooks

    # ---- state ---------------------------------------------------------------------------------
    def _session(self, session_id: str) -> _Session:
        s = self._sessions.get(session_id)
        if s is None:
            s = self._sessions[session_id] = _Session()
        return s

    def _inv(self, ctx: Any) -> _Invocation:
        """The invocation state for a callback/tool context (created when a run did not pass our
        seams)."""
        inv_id = ctx.invocation_id
        inv = self._invocations.get(inv_id)
        if inv is None:
            sess = self._session(ctx.session.id)
            inv = self._invocations[inv_id] = _Invocation(sess.turn or TurnState(), sess)
        return inv

    # ---- lifecycle, BeforeAgent ------------------------------------------------------------------
    async def on_user_message_callback(
        self, *, invocation_context: Any, user_message: types.Content
    ) -> types.Content | None:
        ic = invocation_context
        if not self.bridge.listens(SERVED) and not self._awaiting_confirmation(ic.session.id):
            self._idle.add(ic.invocation_id)
            return None
        sess = self._session(ic.session.id)
        sess.root = getattr(ic.agent, "name", "") or sess.root
        if any(p.function_response is not None for p in user_message.parts or []):
            # a confirmation (or another function response) resumes the previous prompt's turn
            self._invocations[ic.invocation_id] = _Invocation(sess.turn or TurnState(), sess)
            return None
        if self._own_session_id:
            self.hooks.session_id = ic.session.id
        message = user_message
        if not sess.started:
            sess.started = True
            if self.bridge.wants(HookEvent.SESSION_START):
                source = "resume" if ic.session.events else "startup"
                start = await self.bridge.afire(
                    HookEvent.SESSION_START, **self.bridge.session_start_fields(source)
                )
                if start.hook_context:
                    message = types.Content(
                        role=user_message.role or "user",
                        parts=[
                            types.Part.from_text(text=start.hook_context),
                            *(user_message.parts or []),
                        ],
                    )
        prompt = _prompt_text(user_message)
        turn = TurnState(prompt=prompt)
        sess.turn = turn
        self._invocations[ic.invocation_id] = _Invocation(turn, sess)
        if self.bridge.wants(HookEvent.BEFORE_AGENT):
            before = await self.bridge.afire(HookEvent.BEFORE_AGENT, prompt=prompt)
            v = self.bridge.before_agent(turn, before)
            if v.kind == "block":  # the prompt never reaches the session's history
                return types.Content(role=user_message.role or "user", parts=[])
        return message if message is not user_message else None

    def _awaiting_confirmation(self, session_id: str) -> bool:
        """Does a call of this ADK session wait for the answer to its confirmation (enforced even
        when idle)?"""
        sess = self._sessions.get(session_id)
        return sess is not None and any(c.pending for c in sess.calls.values())

    async def before_run_callback(self, *, invocation_context: Any) -> types.Content | None:
        self._watch_compaction(invocation_context)
        if invocation_context.invocation_id in self._idle:
            return None
        inv = self._invocations.get(invocation_context.invocation_id)
        if inv is not None and (inv.turn.blocked or inv.turn.stop is not None):
            return types.Content(role="model", parts=[])
        return None

    def _watch_compaction(self, ic: Any) -> None:
        """PreCompress: wrap the App's events-compaction summarizer so the hook fires before ADK
        compacts."""
        config = getattr(ic, "events_compaction_config", None)
        if config is None or isinstance(config.summarizer, _PreCompressSummarizer):
            return
        inner = config.summarizer
        if inner is None:  # ADK's own default, made the way ADK makes it
            from google.adk.agents.llm_agent import LlmAgent
            from google.adk.apps.llm_event_summarizer import LlmEventSummarizer

            if not isinstance(ic.agent, LlmAgent):
                return
            inner = LlmEventSummarizer(llm=ic.agent.canonical_model)
        config.summarizer = _PreCompressSummarizer(inner, self.bridge)

    async def after_run_callback(self, *, invocation_context: Any) -> None:
        self._idle.discard(invocation_context.invocation_id)
        self._invocations.pop(invocation_context.invocation_id, None)

    async def close(self) -> None:
        """``Runner.close()``: SessionEnd (``exit``) for every ADK session this plugin started."""
        if self.bridge.wants(HookEvent.SESSION_END):
            for adk_id, sess in self._sessions.items():
                if not sess.started:
                    continue
                if self._own_session_id:
                    self.hooks.session_id = adk_id
                await self.bridge.aend_session("exit")
        self._sessions.clear()

    # ---- model -----------------------------------------------------------------------------------
    def _prepare_contents(self, inv: _Invocation, llm_request: LlmRequest) -> None:
        """Retry pairs → the reason as a user message; clearContext floor; this prompt's BeforeAgent
        context."""
        contents = llm_request.contents
        sess = inv.session
        if not contents or not (sess.retried or sess.floor or sess.clear_next or inv.turn.context):
            return  # the common case costs nothing
        prompt_at = -1
        for i in range(len(contents) - 1, -1, -1):
            c = contents[i]
            if c.role == "user" and (_is_prompt(c) or _is_retry_response(c)):
                prompt_at = i
                break
        if sess.clear_next and prompt_at >= 0:
            sess.floor, sess.clear_next = prompt_at, False
        retry_seen = any(
            p.function_call is not None and p.function_call.name == RETRY_TOOL
            for c in contents
            for p in c.parts or []
        )
        if not (retry_seen or sess.floor or inv.turn.context):
            return
        out: list[types.Content] = []
        for i, c in enumerate(contents):
            if i < sess.floor:
                continue
            parts = list(c.parts or [])
            if any(
                p.function_call is not None and p.function_call.name == RETRY_TOOL for p in parts
            ):
                parts = [
                    p
                    for p in parts
                    if not (p.function_call is not None and p.function_call.name == RETRY_TOOL)
                ]
            if _is_retry_response(c):
                ours = [
                    p
                    for p in parts
                    if p.function_response is not None and p.function_response.name == RETRY_TOOL
                ]
                reasons = [
                    str((p.function_response.response or {}).get("reason", ""))
                    for p in ours
                    if p.function_response is not None
                ]
                parts = [types.Part.from_text(text=r) for r in reasons] + [
                    p for p in parts if p not in ours
                ]
            if i == prompt_at and inv.turn.context:
                parts = parts + [types.Part.from_text(text=inv.turn.context)]
            if parts:
                out.append(c.model_copy(update={"parts": parts}))
        llm_request.contents = out

    def _request_dict(self, llm_request: LlmRequest) -> dict[str, Any]:
        cfg = llm_request.config
        config: dict[str, Any] = {}
        if cfg is not None:
            for key, attr in (
                ("temperature", "temperature"),
                ("maxOutputTokens", "max_output_tokens"),
                ("topP", "top_p"),
                ("topK", "top_k"),
            ):
                if getattr(cfg, attr, None) is not None:
                    config[key] = getattr(cfg, attr)
        return {
            "model": llm_request.model or "",
            "config": config,
            "contents": [
                c.model_dump(mode="json", by_alias=True, exclude_none=True)
                for c in llm_request.contents or []
            ],
        }

    def _apply_request(
        self, llm_request: LlmRequest, original: dict[str, Any], rewritten: dict[str, Any]
    ) -> None:
        old = list(llm_request.contents or [])
        new: list[types.Content] = []
        for e in codec.edited_entries(original, rewritten):
            role = "model" if e.role == "model" else "user"
            if e.source is not None and not e.changed:
                new.append(old[e.source])
            elif e.source is not None:
                keep = [p for p in old[e.source].parts or [] if p.text is None]
                text = [types.Part.from_text(text=e.text)] if e.text else []
                new.append(old[e.source].model_copy(update={"role": role, "parts": text + keep}))
            elif e.text:
                new.append(types.Content(role=role, parts=[types.Part.from_text(text=e.text)]))
        llm_request.contents = new
        for key, value in codec.config_changes(original, rewritten).items():
            attr = {
                "temperature": "temperature",
                "maxOutputTokens": "max_output_tokens",
                "topP": "top_p",
                "topK": "top_k",
            }[key]
            setattr(llm_request.config, attr, value)
        model = codec.model_changed(original, rewritten)
        if model is not None:
            llm_request.model = model

    def _select_tools(self, llm_request: LlmRequest, sdk_cfg: dict[str, Any]) -> None:
        """toolConfig on the request, and the declarations of tools it removes dropped (non-Gemini
        models)."""
        llm_request.config.tool_config = types.ToolConfig.model_validate(sdk_cfg)
        for tool in llm_request.config.tools or []:
            decls = getattr(tool, "function_declarations", None)
            if decls and isinstance(tool, types.Tool):
                tool.function_declarations = [
                    d
                    for d in decls
                    if self.bridge.selection_allows(sdk_cfg, d.name or "")
                    or fmt.tool_config_to_hook(sdk_cfg).get("mode") == "NONE"
                ]

    async def before_model_callback(
        self, *, callback_context: Any, llm_request: LlmRequest
    ) -> LlmResponse | None:
        if callback_context.invocation_id in self._idle:
            return None
        inv = self._inv(callback_context)
        turn = inv.turn
        inv.tools = llm_request.tools_dict
        inv.answers(
            callback_context.agent_name
        )  # the first agent to call the model answers unless it transfers
        if turn.stop is not None:
            _end(callback_context)
            return _empty_response()
        if self.bridge.wants(HookEvent.AFTER_AGENT):
            llm_request.tools_dict[RETRY_TOOL] = self._retry_tool
        self._prepare_contents(inv, llm_request)
        turn.tool_config = None
        inv.llm_request = None
        if self.bridge.wants(HookEvent.BEFORE_MODEL):
            request = self._request_dict(llm_request)
            result = await self.bridge.afire(
                HookEvent.BEFORE_MODEL, llm_request=fmt.to_llm_request(request)
            )
            v = self.bridge.before_model(turn, result, request)
            if v.kind == "stop":
                _end(callback_context)
                return _empty_response()
            if v.kind in ("synthetic", "skip"):  # ADK runs no after_model callback for this answer
                parts = fmt.chunk_parts(v.synthetic) if v.synthetic is not None else []
                turn.texts.append(codec.parts_text(parts))
                retry = (
                    await self._after_agent(callback_context, inv, parts)
                    if inv.answers(callback_context.agent_name)
                    else None
                )
                return retry if retry is not None else _response_from_parts(parts)
            if v.request is not request:
                self._apply_request(llm_request, request, v.request)
        if self.bridge.wants(HookEvent.BEFORE_TOOL_SELECTION):
            stable = fmt.to_llm_request(self._request_dict(llm_request))
            selection = await self.bridge.afire(HookEvent.BEFORE_TOOL_SELECTION, llm_request=stable)
            cfg = self.bridge.tool_selection(turn, selection)
            if cfg is not None:
                self._select_tools(llm_request, cfg)
        if self.bridge.wants(HookEvent.AFTER_MODEL):
            inv.llm_request = fmt.to_llm_request(self._request_dict(llm_request))
        return None

    async def after_model_callback(
        self, *, callback_context: Any, llm_response: LlmResponse
    ) -> LlmResponse | None:
        if (
            llm_response.partial or callback_context.invocation_id in self._idle
        ):  # SSE deltas: AfterModel fires
            return None  # once, on the complete response
        inv = self._inv(callback_context)
        turn = inv.turn
        if turn.stop is not None:
            return None
        replaced: LlmResponse | None = None
        want_after = self.bridge.wants(HookEvent.AFTER_MODEL)
        if not want_after and not self.bridge.wants(HookEvent.AFTER_AGENT):
            return None  # the answer's text and whether it is final matter to these two only
        parts = _content_dict(llm_response.content).get("parts", [])
        if want_after:
            chunk = _chunk(llm_response)
            stable = inv.llm_request or fmt.to_llm_request({"model": "", "contents": []})
            result = await self.bridge.afire(
                HookEvent.AFTER_MODEL,
                seen=inv.seen,
                llm_request=stable,
                llm_response=fmt.to_llm_response(chunk),
            )
            v = self.bridge.after_model(turn, result, chunk)
            if v.kind == "stop":
                _end(callback_context)
                return _empty_response()
            if v.kind == "deny":
                parts = []
                replaced = llm_response.model_copy(
                    update={"content": types.Content(role="model", parts=[])}
                )
            elif v.kind == "replace":
                parts = v.parts
                replaced = _response_from_parts(parts, llm_response)
        turn.texts.append(codec.parts_text(parts))
        inv.note_transfer(parts)
        final = not any(isinstance(p.get("functionCall"), dict) for p in parts)
        if final and inv.answers(callback_context.agent_name):
            retry = await self._after_agent(callback_context, inv, parts)
            if retry is not None:
                return retry
        return replaced

    async def _after_agent(
        self, ctx: Any, inv: _Invocation, parts: list[dict[str, Any]]
    ) -> LlmResponse | None:
        """AfterAgent on the root agent's final answer; a retry returns the answer plus the hidden
        retry call."""
        if not self.bridge.wants(HookEvent.AFTER_AGENT):
            return None
        turn = inv.turn
        result = await self.bridge.afire(
            HookEvent.AFTER_AGENT, **self.bridge.after_agent_fields(turn)
        )
        v = self.bridge.after_agent(turn, result)
        if v.clear_context:
            inv.session.clear_next = True
            self.bridge.message("system", "Conversation context has been cleared.")
        if v.kind in ("stop", "capped"):
            _end(ctx)
            return None
        if v.kind != "retry":
            return None
        if self.bridge.wants(HookEvent.BEFORE_AGENT):
            before = await self.bridge.afire(HookEvent.BEFORE_AGENT, prompt=v.reason)
            pv = self.bridge.before_agent(turn, before)
            if pv.kind != "run":
                _end(ctx)
                return None
        else:
            turn.context = None
        inv.session.retried = True
        call = {"functionCall": {"name": RETRY_TOOL, "args": {"reason": v.reason}}}
        return _response_from_parts([*parts, call])

    # ---- tools -----------------------------------------------------------------------------------
    def _call(self, inv: _Invocation, call_id: str | None) -> _Call:
        key = call_id or f"anon-{len(inv.session.calls)}"
        c = inv.session.calls.get(key)
        if c is None:
            c = inv.session.calls[key] = _Call()
        return c

    async def before_tool_callback(
        self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any
    ) -> dict[str, Any] | None:
        if tool.name == RETRY_TOOL or tool_context.invocation_id in self._idle:
            return None
        inv = self._inv(tool_context)
        turn = inv.turn
        call = self._call(inv, tool_context.function_call_id)
        if turn.stop is not None:
            call.after = False
            return {"error": verdicts.NOT_RUN_AFTER_STOP}
        refused = self.bridge.refused_by_selection(turn, tool.name)
        if refused is not None:
            call.after = False
            return {"error": refused}
        v = call.verdict
        if v is None:
            if not self.bridge.wants(HookEvent.BEFORE_TOOL, self.bridge.hook_name(tool.name)):
                return None
            result = await self.bridge.afire(
                HookEvent.BEFORE_TOOL,
                **self.bridge.tool_fields(tool.name, None, tool_context.function_call_id),
                tool_input=_json_safe(dict(tool_args)),
            )
            v = call.verdict = self.bridge.before_tool(turn, result, dict(tool_args))
            if v.kind == "stop":
                _end(tool_context)
        if v.kind in ("stop", "deny"):
            call.after = False
            return {"error": v.message}
        if v.modified:
            tool_args.clear()
            tool_args.update(copy.deepcopy(v.args))
            call.modified = True
        if v.kind == "ask":
            confirmation = getattr(tool_context, "tool_confirmation", None)
            if confirmation is not None:  # the answer to our request_confirmation
                call.pending = False
                call.after = bool(confirmation.confirmed)
                return None if confirmation.confirmed else {"error": verdicts.CANCELLED}
            refusal = await self.bridge.aconfirm(
                self.bridge.hook_name(tool.name), v.args, v.hook_text
            )
            if refusal == NATIVE:
                tool_context.request_confirmation(
                    hint=v.hook_text or f"A hook asked to confirm {tool.name}"
                )
                tool_context.actions.skip_summarization = True
                call.after, call.pending = False, True
                return {"error": _PENDING}
            if refusal is not None:
                call.after = False
                return {"error": refusal}
        return None

    async def after_tool_callback(
        self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any, result: dict[str, Any]
    ) -> dict[str, Any] | None:
        if tool.name == RETRY_TOOL or tool_context.invocation_id in self._idle:
            return None
        inv = self._inv(tool_context)
        call = self._call(inv, tool_context.function_call_id)
        if not call.pending:  # done with this call (a pending one waits for its confirmation)
            inv.session.calls.pop(tool_context.function_call_id or "", None)
        if not call.after:
            return None
        out = await self._after_tool(
            inv, tool.name, dict(tool_args), result, tool_context, call.modified, None, 0
        )
        return None if out is result else out

    async def on_tool_error_callback(
        self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any, error: Exception
    ) -> dict[str, Any] | None:
        """A tool that raised: AfterTool still fires (with the error); its block / stop / context
        apply, otherwise ADK handles the error as it would without the plugin."""
        if (
            tool.name == RETRY_TOOL
            or isinstance(error, asyncio.CancelledError)
            or tool_context.invocation_id in self._idle
        ):
            return None
        inv = self._inv(tool_context)
        call = self._call(inv, tool_context.function_call_id)
        inv.session.calls.pop(tool_context.function_call_id or "", None)
        if not call.after or not self.bridge.wants(
            HookEvent.AFTER_TOOL, self.bridge.hook_name(tool.name)
        ):
            return None
        result = {"error": f"{type(error).__name__}: {error}"}
        out = await self._after_tool(
            inv, tool.name, dict(tool_args), result, tool_context, False, None, 0
        )
        return None if out == result else out

    async def _after_tool(
        self,
        inv: _Invocation,
        name: str,
        args: dict[str, Any],
        result: Any,
        tool_context: Any,
        modified: bool,
        original: str | None,
        depth: int,
    ) -> Any:
        note = verdicts.MODIFIED_NOTE if modified else ""
        if not self.bridge.wants(HookEvent.AFTER_TOOL, self.bridge.hook_name(name)):
            return _with_text(result, note)
        fired = await self.bridge.afire(
            HookEvent.AFTER_TOOL,
            **self.bridge.tool_fields(
                name, original, getattr(tool_context, "function_call_id", None)
            ),
            tool_input=_json_safe(args),
            tool_response=_tool_response(result),
        )
        v = self.bridge.after_tool(inv.turn, fired)
        if v.kind == "stop":
            _end(tool_context)
            return {"error": v.reason}
        if v.kind == "hide":
            return {"error": v.reason}
        if v.text is not None:  # a hook's updatedToolOutput
            result = {"result": v.text}
        ctx = f"\n\n{v.context}" if v.context else ""
        response = _with_text(result, ctx + note)
        if v.tail is None:
            return response
        if depth >= verdicts.MAX_TAIL_CALLS:
            self.bridge.warn(verdicts.tail_too_deep(v.tail[0]))
            return response
        return await self._run_tail(
            inv, v.tail[0], v.tail[1], tool_context, original or name, depth + 1
        )

    async def _run_tail(
        self,
        inv: _Invocation,
        hook_name: str,
        args: dict[str, Any],
        tool_context: Any,
        original: str,
        depth: int,
    ) -> Any:
        """AfterTool ``tailToolCallRequest``: run another tool (its own hooks included) to answer
        the call."""
        native = self.bridge.native_name(hook_name)
        tool = inv.tools.get(native)
        if tool is None or native == RETRY_TOOL:
            return {
                "error": (
                    f"Tool {hook_name!r} not found (requested by an AfterTool tailToolCallRequest)"
                )
            }
        refused = self.bridge.refused_by_selection(inv.turn, native)
        if refused is not None:
            return {"error": refused}
        run_args = args
        modified = False
        if self.bridge.wants(HookEvent.BEFORE_TOOL, hook_name):
            fired = await self.bridge.afire(
                HookEvent.BEFORE_TOOL,
                **self.bridge.tool_fields(native, original),
                tool_input=_json_safe(args),
            )
            v = self.bridge.before_tool(inv.turn, fired, args)
            if v.kind == "stop":
                _end(tool_context)
                return {"error": v.message}
            if v.kind == "deny":
                return {"error": v.message}
            run_args, modified = v.args, v.modified
            if v.kind == "ask":
                refusal = await self.bridge.aconfirm(hook_name, run_args, v.hook_text)
                if refusal == NATIVE:  # a tail call cannot pause for ADK's confirmation round trip
                    refusal = verdicts.ask_refused(hook_name, v.hook_text)
                if refusal is not None:
                    return {"error": refusal}
        try:
            result = await tool.run_async(args=run_args, tool_context=tool_context)
        except Exception as exc:  # a failing tool answers with its error (the model sees it)
            result = {"error": f"{type(exc).__name__}: {exc}"}
        if not isinstance(result, dict):
            result = {"result": result}
        return await self._after_tool(
            inv, native, run_args, result, tool_context, modified, original, depth
        )
