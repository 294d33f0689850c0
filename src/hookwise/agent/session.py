"""The agent session: a small, real agent loop that fires every hook event and applies its result.

One :class:`AgentSession` holds the conversation history (google-genai ``contents`` dicts), a
:class:`~hookwise.HookSystem`, a model (:mod:`hookwise.agent.models`) and the tools. It is the
reference for every framework adapter, so each fire site below names the rule it follows
(docs/contract.md §8, §9, §11):

=====================  ==========================================================================
event                  fire site → what the session does with the merged result
=====================  ==========================================================================
SessionStart           :meth:`start` / :meth:`clear` → context injected, system message shown
BeforeAgent            :meth:`run_prompt`, once per prompt → stop keeps the message, block drops
                       it, context goes into every request of this prompt only
BeforeModel            before each model call → stop; block (+ ``llm_response``); an
                       ``llm_response`` skips the model; ``llm_request`` merged (§12.2)
BeforeToolSelection    after BeforeModel → ``toolConfig`` set on the request (and enforced)
AfterModel             per streamed chunk → stop; deny discards the chunk and stops the stream;
                       ``llm_response`` replaces the chunk
BeforeTool             per tool call → stop; block; ask forces a confirmation; ``tool_input``
                       merged over the arguments (a note tells the model)
AfterTool              after the tool ran → stop; block hides the result; context appended;
                       ``tailToolCallRequest`` runs another tool in its place
AfterAgent             once per prompt, after the final answer → stop (+ ``clearContext``); block
                       retries with the reason (``stop_hook_active``), capped
PreCompress            before history compression (``/compress`` = manual, threshold = auto)
Notification           before every confirmation prompt
SessionEnd             :meth:`clear` (clear) and :meth:`end` (exit)
=====================  ==========================================================================

A hook's malformed ``tool_input`` / ``llm_request`` / ``llm_response`` / ``toolConfig`` /
``tailToolCallRequest`` is reported as a warning and ignored as a whole.

What each verdict means (the wording the model sees, the retry cap, tail calls, ``<hook_context>``
placement) is defined once in :mod:`hookwise.host.verdicts`, which the framework adapters use too.
"""

from __future__ import annotations

import contextlib
import copy
import json
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from hookwise.agent.models import Model
from hookwise.agent.tools import (
    Confirmation,
    ToolContext,
    ToolRegistry,
    ToolResult,
    needs_confirmation,
)
from hookwise.agent.transcripts import TranscriptStore
from hookwise.agent.ui import AgentUI, Stats
from hookwise.core.registry import HookEntry
from hookwise.errors import HookwiseError
from hookwise.events import HookEvent
from hookwise.host import llm_format as fmt
from hookwise.host import verdicts
from hookwise.result import FireResult, Outcome

if TYPE_CHECKING:
    from hookwise.engine import HookSystem

SUMMARY_PROMPT = (
    "Summarize the conversation so far for your own later use: the goal, what was done, the files "
    "involved, decisions made and what remains. Answer with the summary only."
)
SNAPSHOT_ACK = "Got it. Thanks for the additional context!"
#: GenAI semantic-convention values for the spans of this host (docs/telemetry.md)
AGENT_NAME = "hookwise"
PROVIDER_NAME = "gcp.gemini"


class TurnStatus(str, Enum):
    """How one user prompt ended."""

    COMPLETED = "completed"
    STOPPED = "stopped"  # a hook said continue: false (or a cap was reached)
    BLOCKED = "blocked"  # BeforeAgent blocked the prompt


@dataclass
class AgentOptions:
    """Settings of a session (the ``hookwise agent`` flags)."""

    model_name: str = fmt.DEFAULT_MODEL
    approval_mode: str = "default"
    interactive: bool = False
    max_agent_retries: int = 8
    compress_threshold: int = 100_000
    max_turns: int = 100
    shell_timeout_s: float = 120.0
    system_instruction: str | None = None


def _text_of(parts: Iterable[dict[str, Any]]) -> str:
    return "".join(
        p["text"] for p in parts if isinstance(p.get("text"), str) and not p.get("thought")
    )


def _user(text: str) -> dict[str, Any]:
    return {"role": "user", "parts": [{"text": text}]}


def _merge_parts(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Join adjacent streamed text parts of the same kind (plain text / thought) into one part."""
    out: list[dict[str, Any]] = []
    for p in parts:
        simple = set(p) <= {"text", "thought"} and isinstance(p.get("text"), str)
        if out and simple:
            last = out[-1]
            if (
                set(last) <= {"text", "thought"}
                and isinstance(last.get("text"), str)
                and bool(last.get("thought")) == bool(p.get("thought"))
            ):
                out[-1] = {**last, "text": last["text"] + p["text"]}
                continue
        out.append(copy.deepcopy(p))
    return out


def _whole_response(stream: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The whole streamed response as one chunk (hookwise extension
    ``hooksConfig.afterModel: "response"``).

    AfterModel then fires once per response instead of once per chunk; the response is shown when
    complete.
    """
    parts: list[dict[str, Any]] = []
    last: dict[str, Any] = {}
    for chunk in stream:
        parts.extend(fmt.chunk_parts(chunk))
        last = chunk
    if not last:
        return
    cand = (
        dict(last["candidates"][0])
        if isinstance(last.get("candidates"), list)
        and last["candidates"]
        and isinstance(last["candidates"][0], dict)
        else {}
    )
    cand["content"] = {"role": "model", "parts": _merge_parts(parts)}
    yield {**last, "candidates": [cand]}


#: the reference host's approval modes as Claude Code's ``permission_mode`` (the Claude-only
#: channel)
PERMISSION_MODES = {
    "default": "default",
    "auto_edit": "acceptEdits",
    "yolo": "bypassPermissions",
    "plan": "plan",
}


def _tool_use_id() -> str:
    """A tool call's id, the same in its BeforeTool and AfterTool (Claude Code's
    ``tool_use_id``)."""
    return "toolu_" + uuid.uuid4().hex[:24]


@dataclass
class _CallOutcome:
    response: dict[str, Any]  # functionResponse.response
    stop: str | None = None


@dataclass
class _TurnState:
    """Per-prompt state: the prompt's history entry and this prompt's BeforeAgent context."""

    entry: dict[str, Any] | None = None
    context: str | None = None
    texts: list[str] = field(default_factory=list)


class AgentSession:
    """A conversation between a person (or a script), a model, the tools and the hooks."""

    def __init__(
        self,
        hooks: HookSystem,
        model: Model,
        ui: AgentUI | None = None,
        options: AgentOptions | None = None,
        *,
        tools: ToolRegistry | None = None,
        transcripts: TranscriptStore | None = None,
    ) -> None:
        self.hooks = hooks
        self.model = model
        self.ui = ui or AgentUI()
        self.options = options or AgentOptions()
        self.tools = tools or ToolRegistry()
        self.tool_ctx = ToolContext(hooks.project_dir, shell_timeout_s=self.options.shell_timeout_s)
        self.transcripts = transcripts
        self.history: list[dict[str, Any]] = []
        self.stats = Stats()
        self._turn = _TurnState()
        self._snapshot_len = (
            0  # history[:n] is a compression snapshot (nothing new to compress there)
        )
        self._untrusted_reported: set[str] = set()
        self._prompt_id: str | None = None  # Claude Code's prompt_id: one per user prompt
        self._compress_blocked: str | None = (
            None  # the prompt during which a hook blocked compression
        )
        if transcripts is not None:
            hooks.transcript_path = transcripts.path(hooks.session_id)

    # ---- hooks -------------------------------------------------------------------------------
    @property
    def session_id(self) -> str:
        return str(self.hooks.session_id)

    def review_untrusted(self, ask: Callable[[str], str | None] | None = None) -> list[HookEntry]:
        """Before the first prompt: say which hooks are untrusted, with exactly what trusting them
        approves.

        With ``ask`` (an interactive session) the user chooses per hook or for all: always, this
        session only, never for this project, or not now (:mod:`hookwise.agent.trust_offer`);
        without it (headless) this one up-front notice replaces the per-firing warnings. Returns
        the hooks that stay untrusted (they are skipped when they match).
        """
        from hookwise.trust import review

        store = self.hooks.trust_store
        untrusted = [e for e in self.hooks.untrusted() if not self.hooks.is_trusted(e)]
        declined = [e for e in untrusted if ask is not None and store.declined(e)]
        pending = [e for e in untrusted if e not in declined]
        self._untrusted_reported.update(e.display_name for e in untrusted)  # said once here
        if declined:
            self.ui.info(
                f"{len(declined)} hook(s) you declined for this project are skipped "
                "(`hookwise trust` reviews them)"
            )
        if not pending:
            return declined
        lines = [
            f"{len(pending)} hook(s) from this project, its extensions or plugins are not trusted "
            "and will be skipped:"
        ]
        for e in pending:
            lines.extend("  " + ln for ln in review(e, store, self.hooks.project_dir, False))
        if ask is None:
            self.ui.warning("\n".join([*lines, "  review and approve them with `hookwise trust`"]))
            return pending
        for ln in lines:
            self.ui.info(ln)
        from hookwise.agent.trust_offer import offer

        return [*declined, *offer(self.hooks, self.ui, ask, pending)]

    def fire(self, event: HookEvent, *, seen: set[str] | None = None, **fields: Any) -> FireResult:
        """Fire ``event``; report its warnings and system message; count the hook calls.

        ``seen``: warnings already reported for this model response (AfterModel fires per chunk;
        a failing hook is reported once per response, not once per chunk)."""
        # the Claude-only channel: Claude-dialect hooks get these on the events Claude Code sends
        # them on
        if self._prompt_id is not None:
            fields.setdefault("prompt_id", self._prompt_id)
        fields.setdefault(
            "permission_mode", PERMISSION_MODES.get(self.options.approval_mode, "default")
        )
        result: FireResult = self.hooks.fire(event, **fields)
        self.stats.hook_calls += sum(1 for h in result.hooks if h.outcome is not Outcome.SKIPPED)
        for w in verdicts.warnings_to_show(
            result, self._untrusted_reported, seen
        ):  # untrusted: once per session
            self.ui.warning(w)
        msg = verdicts.system_message_to_show(result)
        if msg is not None:
            self.ui.system_message(event.value, msg)
        return result

    # ---- lifecycle ---------------------------------------------------------------------------
    def start(self, source: str = "startup") -> str | None:
        """Fire SessionStart. Returns the ``<hook_context>`` block for a headless prompt (None
        otherwise); in an interactive session the context becomes a user message in the history."""
        result = self.fire(HookEvent.SESSION_START, source=source)
        ctx = result.hook_context
        if ctx and self.options.interactive:
            self.history.append(_user(ctx))
            return None
        return ctx

    def end(self, reason: str = "exit") -> None:
        """Save the transcript and fire SessionEnd."""
        self._save()
        self.fire(HookEvent.SESSION_END, reason=reason)

    def clear(self) -> None:
        """``/clear``: SessionEnd(clear) with the old session id, then a fresh session and
        SessionStart(clear)."""
        self._save()
        self.fire(HookEvent.SESSION_END, reason="clear")
        self.history = []
        self._snapshot_len = 0
        self.hooks.session_id = str(uuid.uuid4())
        if self.transcripts is not None:
            self.hooks.transcript_path = self.transcripts.path(self.hooks.session_id)
        self.start("clear")
        self.ui.info("Conversation cleared; new session " + self.session_id)

    def _save(self) -> None:
        if self.transcripts is not None:
            try:
                self.transcripts.save(self.session_id, self.history)
            except (OSError, HookwiseError) as exc:
                self.ui.warning(f"could not save the transcript: {exc}")

    # ---- compression -------------------------------------------------------------------------
    def estimated_tokens(self) -> int:
        """Characters of the history's JSON text / 4."""
        return len(json.dumps(self.history, ensure_ascii=False)) // 4

    def _compressible(self) -> int:
        k = len(self.history)
        entry = self._turn.entry
        if entry is not None:
            k = next((i for i, m in enumerate(self.history) if m is entry), k)
        return k if k > self._snapshot_len else 0

    def compress(self, trigger: str = "manual") -> bool:
        """Summarise the history before the current prompt; fires PreCompress first. False: nothing
        to do."""
        k = self._compressible()
        if k == 0:
            return False
        pre = self.fire(HookEvent.PRE_COMPRESS, trigger=trigger)
        if (
            pre.blocked
        ):  # as in Claude Code: a PreCompact block stops the compaction (hookwise: any hook)
            self.ui.warning(f"Compression blocked by a PreCompress hook: {pre.effective_reason}")
            self._compress_blocked = (
                self._prompt_id
            )  # not asked again automatically for this prompt
            return False
        before = self.estimated_tokens()
        request = {
            "model": self.options.model_name,
            "contents": copy.deepcopy(self.history[:k]) + [_user(SUMMARY_PROMPT)],
            "config": {},
        }
        self._trace_model_call(request)
        response = self.model.generate(request)
        summary = _text_of(fmt.chunk_parts(response)).strip() or "(the model returned no summary)"
        # as in Claude Code, SessionStart (source "compact", with the model) follows a compaction
        ctx = self.fire(
            HookEvent.SESSION_START, source="compact", model=self.options.model_name
        ).hook_context
        snapshot = f"<state_snapshot>\n{summary}\n</state_snapshot>" + (f"\n{ctx}" if ctx else "")
        self.history = [
            _user(snapshot),
            {"role": "model", "parts": [{"text": SNAPSHOT_ACK}]},
        ] + self.history[k:]
        self._snapshot_len = 2
        self.ui.info(
            f"Chat history compressed from ~{before} to ~{self.estimated_tokens()} tokens "
            f"({trigger})."
        )
        return True

    def _maybe_compress(self) -> None:
        if self._compress_blocked is not None and self._compress_blocked == self._prompt_id:
            return
        if self.estimated_tokens() > self.options.compress_threshold:
            self.compress("auto")

    # ---- GenAI spans (only when the hook system's telemetry is on; docs/telemetry.md) -----------
    def _span(self, name: str, attributes: dict[str, Any], *, client: bool = False) -> Any:
        tel = getattr(self.hooks, "telemetry", None)
        if tel is None:
            return contextlib.nullcontext(None)
        return tel.span(
            name, {"gen_ai.conversation.id": self.session_id, **attributes}, client=client
        )

    # ---- a user prompt -----------------------------------------------------------------------
    def run_prompt(self, prompt: str) -> TurnStatus:
        """Run one user prompt to its end: BeforeAgent, the model/tool loop, AfterAgent (with
        retries)."""
        with self._span(
            f"invoke_agent {AGENT_NAME}",
            {
                "gen_ai.operation.name": "invoke_agent",
                "gen_ai.agent.name": AGENT_NAME,
                "gen_ai.provider.name": PROVIDER_NAME,
            },
        ) as span:
            status = self._run_prompt(prompt)
            if span is not None:
                span.set_attribute("hookwise.turn_status", status.value)
            return status

    def _run_prompt(self, prompt: str) -> TurnStatus:
        message = prompt
        stop_hook_active = False
        retries = 0
        texts: list[str] = []
        try:
            while True:
                self._prompt_id = str(uuid.uuid4())
                before = verdicts.before_agent(self.fire(HookEvent.BEFORE_AGENT, prompt=message))
                if before.kind == "stop":
                    self.history.append(_user(message))
                    self.ui.stopped(before.reason)
                    return TurnStatus.STOPPED
                if before.kind == "block":
                    self.ui.blocked(before.reason)
                    return TurnStatus.BLOCKED
                self._turn = _TurnState()
                self._maybe_compress()
                entry = _user(message)
                self.history.append(entry)
                self._turn = _TurnState(entry=entry, context=before.context)
                status = self._agentic_loop()
                texts.extend(self._turn.texts)
                if status is TurnStatus.STOPPED:
                    return status
                after = self.fire(
                    HookEvent.AFTER_AGENT,
                    prompt=prompt,
                    prompt_response=verdicts.answer_text(texts),
                    stop_hook_active=stop_hook_active,
                )
                answer = verdicts.after_agent(after, retries, self.options.max_agent_retries)
                if answer.kind == "done":
                    return TurnStatus.COMPLETED
                if answer.kind == "stop":
                    self.ui.stopped(answer.reason)
                    self._clear_context(answer.clear_context)
                    return TurnStatus.STOPPED
                self.ui.blocked(answer.reason)
                self._clear_context(answer.clear_context)
                retries += 1
                if answer.kind == "capped":
                    self.ui.stopped(answer.stop_message)
                    return TurnStatus.STOPPED
                message = answer.reason
                stop_hook_active = True
        finally:
            self._turn = _TurnState()
            self._save()

    def _clear_context(self, clear: bool) -> None:
        if clear:
            self.history = []
            self._snapshot_len = 0
            self.ui.info("Conversation context has been cleared.")

    # ---- model turns -------------------------------------------------------------------------
    def build_request(self) -> dict[str, Any]:
        """The model request for the current history (this prompt's BeforeAgent context
        included)."""
        contents = []
        for m in self.history:
            c = copy.deepcopy(m)
            if m is self._turn.entry and self._turn.context:
                c["parts"].append({"text": self._turn.context})
            contents.append(c)
        config: dict[str, Any] = {"tools": [{"functionDeclarations": self.tools.declarations()}]}
        if self.options.system_instruction:
            config["systemInstruction"] = {"parts": [{"text": self.options.system_instruction}]}
        return {"model": self.options.model_name, "contents": contents, "config": config}

    def _trace_model_call(self, request: dict[str, Any]) -> None:
        self.stats.model_calls += 1
        self.hooks.trace_record(
            {
                "type": "model_call",
                "model": request.get("model") or self.model.name,
                "request_text": json.dumps(request.get("contents", []), ensure_ascii=False),
            }
        )

    def _agentic_loop(self) -> TurnStatus:
        turns = 0
        while True:
            turns += 1
            if turns > self.options.max_turns:
                self.ui.stopped(
                    f"the model made {self.options.max_turns} calls for this prompt (--max-turns)"
                )
                return TurnStatus.STOPPED
            self._maybe_compress()
            step = self._model_turn()
            if step is None:
                return TurnStatus.STOPPED
            parts, request = step
            calls = [p["functionCall"] for p in parts if isinstance(p.get("functionCall"), dict)]
            if not calls:
                return TurnStatus.COMPLETED
            responses, stop = self._run_calls(calls, request)
            self.history.append({"role": "user", "parts": responses})
            if stop is not None:
                self.ui.stopped(stop)
                return TurnStatus.STOPPED

    def _model_turn(self) -> tuple[list[dict[str, Any]], dict[str, Any]] | None:
        """One model call with its hooks. Returns (parts acted on, request sent), or None when
        stopped.

        A blocked turn returns no parts (the loop then ends normally and AfterAgent runs)."""
        model = str(getattr(self.model, "name", "") or "")
        with self._span(
            f"chat {model}".strip(),
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.request.model": model,
                "gen_ai.provider.name": PROVIDER_NAME,
            },
            client=True,
        ):
            return self._model_turn_inner()

    def _model_turn_inner(self) -> tuple[list[dict[str, Any]], dict[str, Any]] | None:
        request = self.build_request()
        warn = self.ui.warning
        before = verdicts.before_model(
            self.fire(HookEvent.BEFORE_MODEL, llm_request=fmt.to_llm_request(request)),
            request,
            warn,
        )
        if before.kind == "stop":
            self.ui.stopped(before.reason)
            return None
        if before.blocked:
            self.ui.blocked(before.reason)
        if before.kind == "skip":
            return [], request
        request = before.request
        if before.synthetic is not None:
            parts = _merge_parts(fmt.chunk_parts(before.synthetic))
            self._show(parts)
            return self._record_turn(parts), request

        selection = self.fire(
            HookEvent.BEFORE_TOOL_SELECTION, llm_request=fmt.to_llm_request(request)
        )
        sdk_cfg = verdicts.tool_selection(selection, warn)
        if sdk_cfg is not None:
            request["config"]["toolConfig"] = sdk_cfg

        self._trace_model_call(request)
        llm_request = fmt.to_llm_request(request)
        collected: list[dict[str, Any]] = []
        seen: set[str] = set()
        stream = self.model.stream(request)
        if getattr(
            self.hooks, "after_model_per_response", False
        ):  # hooksConfig.afterModel: "response"
            stream = _whole_response(stream)
        for chunk in stream:
            after = verdicts.after_model(
                self.fire(
                    HookEvent.AFTER_MODEL,
                    seen=seen,
                    llm_request=llm_request,
                    llm_response=fmt.to_llm_response(chunk),
                ),
                chunk,
                warn,
            )
            if after.kind in ("stop", "deny"):
                close = getattr(stream, "close", None)
                if callable(close):
                    close()
                self.ui.end_turn()
                if after.kind == "stop":
                    self.ui.stopped(after.reason)
                    return None
                self.ui.blocked(after.reason)
                return [], request
            parts = after.parts
            self._show(parts)
            collected.extend(parts)
        merged = _merge_parts(collected)
        return self._record_turn(merged), request

    def _show(self, parts: list[dict[str, Any]]) -> None:
        for p in parts:
            if isinstance(p.get("text"), str):
                if p.get("thought"):
                    self.ui.thought(p["text"])
                else:
                    self.ui.text(p["text"])

    def _record_turn(self, parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
        self.ui.end_turn()
        if parts:
            self.history.append({"role": "model", "parts": parts})
        self._turn.texts.append(_text_of(parts))
        return parts

    # ---- tool calls --------------------------------------------------------------------------
    def _run_calls(
        self, calls: list[dict[str, Any]], request: dict[str, Any]
    ) -> tuple[list[dict[str, Any]], str | None]:
        responses: list[dict[str, Any]] = []
        stop: str | None = None
        for call in calls:
            name = call.get("name", "")
            args = call.get("args")
            if args is None:
                args = {}
            if stop is not None:  # requested but never run: still recorded
                self.stats.tool_calls += 1
                out = self._finish_call(
                    name, args, {"error": verdicts.NOT_RUN_AFTER_STOP}, report=False
                )
            else:
                out = self._run_call(name, args, request.get("config", {}).get("toolConfig"))
                stop = out.stop
            fr: dict[str, Any] = {"name": name, "response": out.response}
            if call.get("id") is not None:
                fr = {"id": call["id"], **fr}
            responses.append({"functionResponse": fr})
        return responses, stop

    def _finish_call(
        self,
        name: str,
        args: Any,
        response: dict[str, Any],
        *,
        error: str | None = None,
        stop: str | None = None,
        display: str = "",
        report: bool = True,
    ) -> _CallOutcome:
        success = error is None and "error" not in response
        err = error if error is not None else response.get("error")
        self.hooks.trace_record(
            {"type": "tool_call", "name": name, "args": args, "success": success, "error": err}
        )
        if not success and report:
            self.ui.tool_error(name, str(err))
        self.ui.tool_done(
            name, args if isinstance(args, dict) else {}, success, display or str(err or "")
        )
        return _CallOutcome(response, stop)

    def _fail(self, name: str, args: Any, message: str) -> _CallOutcome:
        return self._finish_call(name, args, {"error": message}, error=message)

    def _run_call(
        self, name: str, args: Any, tool_config: Any, *, original: str | None = None, depth: int = 0
    ) -> _CallOutcome:
        with self._span(
            f"execute_tool {name}",
            {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": name,
                "gen_ai.tool.type": "function",
            },
        ) as span:
            out = self._run_call_inner(name, args, tool_config, original=original, depth=depth)
            if span is not None and "error" in out.response:
                span.set_attribute("error.type", "tool_error")
                from opentelemetry.trace import Status, StatusCode

                span.set_status(Status(StatusCode.ERROR, str(out.response["error"])[:500]))
            return out

    def _run_call_inner(
        self, name: str, args: Any, tool_config: Any, *, original: str | None = None, depth: int = 0
    ) -> _CallOutcome:
        self.stats.tool_calls += 1
        self.ui.tool_call(name, args if isinstance(args, dict) else {})
        tool = self.tools.get(name)
        if tool is None:
            return self._fail(name, args, self.tools.not_found(name))
        why = fmt.function_call_allowed(tool_config, name)
        if why is not None:
            return self._fail(name, args, verdicts.tool_refused_by_selection(why))
        invalid = tool.validate(args)
        if invalid is not None:
            return self._fail(name, args, f"Invalid parameters for {name}: {invalid}")

        tool_use_id = _tool_use_id()
        before = verdicts.before_tool(
            self.fire(
                HookEvent.BEFORE_TOOL,
                tool_name=name,
                tool_input=args,
                original_request_name=original,
                tool_use_id=tool_use_id,
            ),
            args,
            self.ui.warning,
        )
        if before.kind == "stop":
            return self._finish_call(
                name,
                args,
                {"error": before.message},
                error=before.message,
                stop=before.reason,
                report=False,
            )
        if before.kind == "deny":
            return self._fail(name, args, before.message)
        run_args: dict[str, Any] = before.args
        if run_args is not args:
            invalid = tool.validate(run_args)
            if invalid is not None:
                return self._fail(
                    name,
                    run_args,
                    f"Tool parameter modification by hook failed validation: {invalid}",
                )
        modified = before.modified

        if before.kind == "ask" or needs_confirmation(tool, self.options.approval_mode):
            refused = self._confirm(
                tool.name, run_args, tool.confirmation(self.tool_ctx, run_args), before
            )
            if refused is not None:
                return self._fail(name, run_args, refused)

        started = time.monotonic()
        result = tool.execute(self.tool_ctx, run_args)
        fired = self.fire(
            HookEvent.AFTER_TOOL,
            tool_name=name,
            tool_input=run_args,
            tool_response=result.to_hook(),
            original_request_name=original,
            tool_use_id=tool_use_id,
            duration_ms=round((time.monotonic() - started) * 1000),
        )
        after = verdicts.after_tool(fired, self.ui.warning)
        replaced = fired.tool_output_for(result.to_hook())
        if replaced is not None:  # a hook's updatedToolOutput (the later hook in plan order wins)
            result = ToolResult.from_hook(replaced)
        if after.kind == "stop":
            reason = after.reason
            return self._finish_call(
                name,
                run_args,
                {"error": reason},
                error=reason,
                stop=reason,
                report=False,
                display=verdicts.tool_stopped(reason),
            )
        if after.kind == "hide":
            reason = after.reason
            return self._finish_call(
                name,
                run_args,
                {"error": reason},
                error=reason,
                display=f"Tool result blocked: {reason}",
            )
        response = self._model_facing(result, after.context, modified)
        tail = after.tail
        if tail is None:
            return self._finish_call(name, run_args, response, display=result.return_display)
        # the intermediate call is recorded, then replaced by the tail call (answering the original
        # call)
        self._finish_call(name, run_args, response, display=result.return_display)
        if depth >= verdicts.MAX_TAIL_CALLS:
            self.ui.warning(verdicts.tail_too_deep(tail[0]))
            return _CallOutcome(response)
        return self._run_call(
            tail[0], tail[1], tool_config, original=original or name, depth=depth + 1
        )

    def _model_facing(
        self, result: ToolResult, context: str | None, modified: bool
    ) -> dict[str, Any]:
        if result.error is not None:  # a failed tool answers with its error message only
            return {"error": result.error.get("message", result.llm_content)}
        return {"output": verdicts.model_facing_text(result.llm_content, context, modified)}

    def _confirm(
        self,
        name: str,
        args: dict[str, Any],
        confirmation: Confirmation,
        before: verdicts.ToolVerdict,
    ) -> str | None:
        """Ask for confirmation; returns the refusal message, or None when the call may run."""
        asked = before.kind == "ask"
        hook_text = before.hook_text
        if not self.ui.interactive:
            if asked:
                return verdicts.ask_refused(name, hook_text)
            return (
                f'Tool "{name}" needs confirmation in approval mode {self.options.approval_mode}; '
                "a headless run cannot ask, so the call was refused (use --approval-mode "
                + ("auto_edit or yolo" if confirmation.kind == "edit" else "yolo")
                + " to allow it)"
            )
        self.fire(
            HookEvent.NOTIFICATION,
            notification_type="ToolPermission",
            message=confirmation.message,
            details=confirmation.details,
        )
        if self.ui.confirm(name, args, confirmation, hook_text if asked else None):
            return None
        return verdicts.CANCELLED
