"""What a verdict means: the one definition shared by the reference host and every adapter.

Each function takes the merged :class:`~hookwise.result.FireResult` of one firing and returns what
the host must do, in framework-neutral terms (docs/contract.md §8, §9, §11). ``hookwise agent``
(:mod:`hookwise.agent.session`) and every :mod:`hookwise.adapters` module call these, so the wording
the model sees (a blocked tool, the modified-input note, the retry cap...) and the order in which
fields are honoured are written once. Everything here is pure: malformed hook values are reported
through the ``warn`` callable the host passes and ignored as a whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from hookwise.errors import LlmFormatError
from hookwise.host import llm_format as fmt
from hookwise.result import FireResult, Outcome

Warn = Callable[[str], None]

#: appended to a tool's result when a BeforeTool hook changed its arguments (docs/contract.md §11)
MODIFIED_NOTE = "\n\n[System] Tool input parameters were modified by a hook before execution."
#: the tool result when a person (or an ``approve`` callback) refused a call
CANCELLED = "[Operation Cancelled] Reason: User did not allow tool call"
#: the result of a call the model requested in the same turn as a call that stopped the agent
NOT_RUN_AFTER_STOP = "[Operation Cancelled] The agent was stopped before this call ran."
#: AfterTool ``tailToolCallRequest`` nesting limit
MAX_TAIL_CALLS = 16
#: AfterAgent retries before the run is stopped (docs/contract.md §9, §11)
DEFAULT_MAX_AGENT_RETRIES = 8


# ---- wording -------------------------------------------------------------------------------------
def tool_blocked(reason: str) -> str:
    """The model-facing result of a tool call a BeforeTool hook denied."""
    return f"Tool execution blocked: {reason}"


def tool_stopped(reason: str) -> str:
    """The model-facing result of a tool call whose BeforeTool hook stopped the agent."""
    return f"Agent execution stopped by hook: {reason}"


def stopped_line(reason: str) -> str:
    """How a host reports a stop to people (docs/contract.md §11)."""
    return f"Agent execution stopped: {reason}"


def blocked_line(reason: str) -> str:
    """How a host reports a blocked prompt or answer to people (docs/contract.md §11)."""
    return f"Agent execution blocked: {reason}"


def tool_refused_by_selection(why: str) -> str:
    """The result of a call to a tool a BeforeToolSelection hook removed."""
    return f"Tool call refused: {why} (set by a BeforeToolSelection hook)"


def ask_refused(name: str, hook_text: str | None) -> str:
    """The result of a call a hook asked to confirm, in a run that cannot ask (headless /
    ``ask="deny"``)."""
    why = f" ({hook_text})" if hook_text else ""
    return (
        f'Tool "{name}" needs confirmation because a hook asked for it{why}; '
        "a headless run cannot ask, so the call was refused"
    )


def retry_cap_reached(
    retries: int, max_retries: int, reason: str, setting: str = "--max-agent-retries"
) -> str:
    """The stop reason when AfterAgent hooks blocked more often than the retry cap allows."""
    return (
        f"AfterAgent hooks blocked the answer {retries} times; giving up after {max_retries} "
        f"retries ({setting}). Last reason: {reason}"
    )


def tail_too_deep(name: str) -> str:
    return (
        f"AfterTool tail tool calls nested {MAX_TAIL_CALLS} deep; not running {name!r}; the "
        "last result is used"
    )


def model_facing_text(content: str, hook_context: str | None, modified: bool) -> str:
    """A successful tool's result as the model sees it: the output, then ``<hook_context>``, then
    the note."""
    if hook_context:
        content = f"{content}\n\n{hook_context}" if content else hook_context
    if modified:
        content += MODIFIED_NOTE
    return content


# ---- what a host shows of a firing ---------------------------------------------------------------
def warnings_to_show(
    result: FireResult, untrusted_reported: set[str], seen: set[str] | None = None
) -> list[str]:
    """The warnings of a firing a host shows, in order. An untrusted (skipped) hook is reported once
    per host: ``untrusted_reported`` holds the names already reported and is updated. ``seen``:
    warnings already shown for the firings that share it (AfterModel fires per chunk: a failing hook
    is shown once per response); updated too."""
    skipped = {h.name for h in result.hooks if h.outcome is Outcome.SKIPPED}
    shown: list[str] = []
    for w in result.warnings:
        untrusted = next((n for n in skipped if w.startswith(f"hook {n} (")), None)
        if untrusted is not None:
            if untrusted in untrusted_reported:
                continue
            untrusted_reported.add(untrusted)
        if seen is not None:
            if w in seen:
                continue
            seen.add(w)
        shown.append(w)
    return shown


def system_message_to_show(result: FireResult) -> str | None:
    """The hooks' ``systemMessage`` a host shows (None: none, or ``suppressOutput``)."""
    msg = result.system_message
    return msg if msg and not result.suppress_output else None


# ---- malformed values ----------------------------------------------------------------------------
def bad_hook_value(result: FireResult, key: str, message: str, warn: Warn) -> None:
    names = [
        h.name
        for h in result.hooks
        if isinstance(h.output, dict)
        and isinstance(h.output.get("hookSpecificOutput"), dict)
        and key in h.output["hookSpecificOutput"]
    ]
    who = ", ".join(names) or "a hook"
    warn(f"{result.event.value} hook {who} returned an unusable {key}: {message}; it was ignored")


def check_each(result: FireResult, key: str, ok: Callable[[Any], bool], warn: Warn) -> bool:
    """Warn about every hook whose ``hookSpecificOutput[key]`` fails ``ok``; True if any did."""
    bad = False
    for h in result.hooks:
        hso = h.output.get("hookSpecificOutput") if isinstance(h.output, dict) else None
        if isinstance(hso, dict) and key in hso and not ok(hso[key]):
            bad = True
            warn(
                f"{result.event.value} hook {h.name} returned an unusable {key} "
                f"({json.dumps(hso[key])[:200]}); it was ignored"
            )
    return bad


# ---- BeforeAgent / AfterAgent --------------------------------------------------------------------
@dataclass(frozen=True)
class PromptVerdict:
    """BeforeAgent: ``run`` (with this prompt's ``context``), ``block`` (drop the prompt) or
    ``stop`` (keep it, end)."""

    kind: Literal["run", "block", "stop"]
    reason: str = ""
    context: str | None = None


def before_agent(result: FireResult) -> PromptVerdict:
    if result.stopped:
        return PromptVerdict("stop", result.effective_reason)
    if result.blocked:
        return PromptVerdict("block", result.effective_reason)
    return PromptVerdict("run", context=result.hook_context)


@dataclass(frozen=True)
class AnswerVerdict:
    """AfterAgent: ``done``; ``stop``; ``retry`` with ``reason`` as the next prompt; ``capped``
    (retry refused).

    ``clear_context``: empty the conversation (applies to stop, retry and capped)."""

    kind: Literal["done", "stop", "retry", "capped"]
    reason: str = ""
    clear_context: bool = False
    stop_message: str = ""


def after_agent(
    result: FireResult, retries_done: int, max_retries: int, setting: str = "--max-agent-retries"
) -> AnswerVerdict:
    """``retries_done``: retries already made for this prompt (0 at the first answer)."""
    if result.stopped:
        return AnswerVerdict(
            "stop", result.effective_reason, result.clear_context, result.effective_reason
        )
    if not result.blocked:
        return AnswerVerdict("done")
    reason = result.effective_reason
    if retries_done + 1 > max_retries:
        return AnswerVerdict(
            "capped",
            reason,
            result.clear_context,
            retry_cap_reached(retries_done + 1, max_retries, reason, setting),
        )
    return AnswerVerdict("retry", reason, result.clear_context)


def answer_text(texts: list[str]) -> str:
    """AfterAgent ``prompt_response``: the prompt's answer texts joined, or a placeholder."""
    return "\n".join(t for t in texts if t) or "[no response text]"


# ---- BeforeModel / BeforeToolSelection / AfterModel ----------------------------------------------
@dataclass(frozen=True)
class ModelVerdict:
    """BeforeModel: ``call`` the model with ``request``; answer with ``synthetic`` (model not
    called); ``skip`` (blocked, no answer: the turn has no output); ``stop``. ``blocked``: report a
    block."""

    kind: Literal["call", "synthetic", "skip", "stop"]
    request: dict[str, Any]
    synthetic: dict[str, Any] | None = None
    reason: str = ""
    blocked: bool = False


def before_model(result: FireResult, request: dict[str, Any], warn: Warn) -> ModelVerdict:
    """``request`` is a google-genai-shaped dict; the returned one has the hook's ``llm_request``
    merged."""
    if result.stopped:
        return ModelVerdict("stop", request, reason=result.effective_reason)
    hso = result.hook_specific
    synthetic: dict[str, Any] | None = None
    if "llm_response" in hso:
        try:
            synthetic = fmt.synthetic_chunk(hso["llm_response"])
        except LlmFormatError as exc:
            bad_hook_value(result, "llm_response", str(exc), warn)
    reason = result.effective_reason if result.blocked else ""
    if synthetic is not None:
        return ModelVerdict("synthetic", request, synthetic, reason, result.blocked)
    if result.blocked:
        return ModelVerdict("skip", request, reason=reason, blocked=True)
    if "llm_request" in hso:
        try:
            request = fmt.apply_llm_request(request, hso["llm_request"])
        except LlmFormatError as exc:
            bad_hook_value(result, "llm_request", str(exc), warn)
    return ModelVerdict("call", request)


def tool_selection(result: FireResult, warn: Warn) -> dict[str, Any] | None:
    """BeforeToolSelection: the SDK ``toolConfig`` to set on the request (None: no change)."""
    check_each(result, "toolConfig", lambda v: isinstance(v, dict), warn)
    if result.tool_config is None:
        return None
    try:
        return fmt.tool_config_from_hook(result.tool_config)
    except LlmFormatError as exc:
        bad_hook_value(result, "toolConfig", str(exc), warn)
        return None


def allowed_names(sdk_tool_config: dict[str, Any] | None, names: list[str]) -> list[str]:
    """The tool names (out of ``names``) a model may still see under ``sdk_tool_config``."""
    return [n for n in names if fmt.function_call_allowed(sdk_tool_config, n) is None]


def selection_mode(sdk_tool_config: dict[str, Any] | None) -> str | None:
    """``AUTO`` / ``ANY`` / ``NONE`` of a live toolConfig (None: unset)."""
    mode = fmt.tool_config_to_hook(sdk_tool_config).get("mode")
    return mode if isinstance(mode, str) else None


@dataclass(frozen=True)
class ResponseVerdict:
    """AfterModel: ``keep`` / ``replace`` the chunk (``parts`` is what the host acts on), ``deny``
    (discard it and end the turn) or ``stop``."""

    kind: Literal["keep", "replace", "deny", "stop"]
    parts: list[dict[str, Any]]
    reason: str = ""


def after_model(result: FireResult, chunk: dict[str, Any], warn: Warn) -> ResponseVerdict:
    """``chunk`` is a google-genai-shaped response chunk; a replacement keeps its function calls."""
    if result.stopped:
        return ResponseVerdict("stop", [], result.effective_reason)
    if result.blocked:
        return ResponseVerdict("deny", [], result.effective_reason)
    parts = fmt.chunk_parts(chunk)
    hso = result.hook_specific
    replacement = hso.get("llm_response") if "llm_response" in hso else None
    if (
        replacement is not None
        and fmt.modified_response(replacement)
        and replacement != fmt.to_llm_response(chunk)
    ):
        try:
            new_parts = fmt.chunk_parts(fmt.from_llm_response(replacement))
        except LlmFormatError as exc:
            bad_hook_value(result, "llm_response", str(exc), warn)
        else:
            # the stable format is text-only: keep the chunk's function calls (and other non-text
            # parts)
            return ResponseVerdict(
                "replace", new_parts + [p for p in parts if not isinstance(p.get("text"), str)]
            )
    return ResponseVerdict("keep", parts)


# ---- BeforeTool / AfterTool ----------------------------------------------------------------------
@dataclass(frozen=True)
class ToolVerdict:
    """BeforeTool: ``run`` with ``args`` (``modified``: a hook changed them), ``ask`` (confirm, then
    run), ``deny`` (``message`` is the tool's result) or ``stop`` (``message`` is the result;
    ``reason`` ends the run). ``hook_text``: what the asking hook said (its systemMessage or
    reason)."""

    kind: Literal["run", "ask", "deny", "stop"]
    args: dict[str, Any]
    modified: bool = False
    message: str = ""
    reason: str = ""
    hook_text: str | None = None


def before_tool(result: FireResult, args: dict[str, Any], warn: Warn) -> ToolVerdict:
    if result.stopped:
        reason = result.effective_reason
        return ToolVerdict("stop", args, message=tool_stopped(reason), reason=reason)
    if result.blocked:
        reason = result.effective_reason
        return ToolVerdict("deny", args, message=tool_blocked(reason), reason=reason)
    check_each(result, "tool_input", lambda v: isinstance(v, dict), warn)
    run_args = result.tool_input_for(args) if result.tool_input is not None else args
    modified = run_args != args
    if result.asked:
        return ToolVerdict(
            "ask", run_args, modified, hook_text=result.system_message or result.reason
        )
    return ToolVerdict("run", run_args, modified)


def tail_request(result: FireResult, warn: Warn) -> tuple[str, dict[str, Any]] | None:
    """AfterTool ``tailToolCallRequest`` as ``(name, args)``, or None (absent or malformed)."""

    def ok(v: Any) -> bool:
        return (
            isinstance(v, dict)
            and isinstance(v.get("name"), str)
            and bool(v["name"])
            and isinstance(v.get("args", {}), dict)
        )

    check_each(result, "tailToolCallRequest", ok, warn)
    tail = result.hook_specific.get("tailToolCallRequest")
    if not isinstance(tail, dict) or not ok(tail):
        return None
    return tail["name"], dict(tail.get("args") or {})


@dataclass(frozen=True)
class ResultVerdict:
    """AfterTool: ``result`` (append ``context`` to the output; then run ``tail`` if set), ``hide``
    (the result becomes the error ``reason``) or ``stop``."""

    kind: Literal["result", "hide", "stop"]
    reason: str = ""
    context: str | None = None
    tail: tuple[str, dict[str, Any]] | None = None
    #: a hook's ``updatedToolOutput``: the text the model gets instead of the tool's (None: the
    #: tool's own)
    text: str | None = None


def after_tool(result: FireResult, warn: Warn) -> ResultVerdict:
    if result.stopped:
        return ResultVerdict("stop", result.effective_reason)
    if result.blocked:
        return ResultVerdict("hide", result.effective_reason)
    return ResultVerdict(
        "result",
        context=result.hook_context,
        tail=tail_request(result, warn),
        text=replaced_text(result),
    )


def replaced_text(result: FireResult) -> str | None:
    """The ``llmContent`` of a hook's ``updatedToolOutput`` over the firing's ``tool_response`` (the
    later hook in plan order wins; a value of the wrong shape was dropped with a warning), or None
    to keep the tool's."""
    original = result.input.get("tool_response")
    if not isinstance(original, dict):
        return None
    new = result.tool_output_for(original)
    text = new.get("llmContent") if new is not None else None
    return text if isinstance(text, str) and text != original.get("llmContent") else None
