"""The Microsoft Agent Framework adapter inside a real ``Agent`` run, with a scripted chat client (the framework
ships no test model; this one is the ``BaseChatClient`` subclass its docs show, with the framework's own
function-invocation and chat-middleware layers), real command hooks and counting tools."""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "agent_framework", reason="hookwise[agent-framework] is not installed (needs Python 3.11+)"
)

from agent_framework import (  # noqa: E402
    Agent,
    BaseChatClient,
    ChatMiddlewareLayer,
    ChatResponse,
    ChatResponseUpdate,
    Content,
    FunctionInvocationLayer,
    Message,
    ResponseStream,
    tool,
)

from _tiers import quick_where  # noqa: E402
from hookwise import HookSystem  # noqa: E402
from hookwise.adapters import AgentStopped  # noqa: E402
from hookwise.adapters.agent_framework import HookwiseMiddleware  # noqa: E402
from hookwise.testing.conformance import Conversation, ToolCall, Turn, assert_adapter_conformance  # noqa: E402

from .scenarios import (  # noqa: E402
    CONFORMANCE_SETTINGS,
    QUICK_SCENARIOS,  # noqa: E402
    SCENARIOS,
    AdapterEnv,
    Request,
    Run,
    Scenario,
)

SETTING_NAMES = {"temperature": "temperature", "max_tokens": "maxOutputTokens", "top_p": "topP"}


def flatten(messages: Sequence[Message]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for m in messages:
        for c in m.contents:
            if c.type == "text" and c.text:
                role = {"assistant": "model", "user": "user", "system": "system"}.get(
                    m.role, m.role
                )
                out.append((role, c.text))
            elif c.type == "function_result":
                out.append(("tool", c.result if isinstance(c.result, str) else str(c.result)))
    return out


class ScriptedClient(FunctionInvocationLayer, ChatMiddlewareLayer, BaseChatClient):  # type: ignore[misc]
    """Answers the N-th request with the N-th scripted turn (text and ToolCall items); records each request."""

    def __init__(self, turns: Sequence[Turn], requests: list[Request]) -> None:
        super().__init__()
        self.turns = list(turns)
        self.requests = requests

    def _inner_get_response(self, *, messages: Any, stream: bool, options: Any, **kw: Any) -> Any:
        opts = dict(options or {})
        choice = opts.get("tool_choice")
        forced = choice == "required" or (
            isinstance(choice, dict) and choice.get("mode") == "required"
        )
        self.requests.append(
            Request(
                flatten(messages),
                [getattr(t, "name", "") for t in opts.get("tools") or []],
                forced,
                {
                    SETTING_NAMES[k]: v
                    for k, v in opts.items()
                    if k in SETTING_NAMES and v is not None
                },
            )
        )
        n = len(self.requests) - 1
        turn = self.turns[n] if n < len(self.turns) else ("(the script has no more turns)",)
        contents: list[Content] = []
        for i, item in enumerate(turn):
            if isinstance(item, ToolCall):
                contents.append(
                    Content.from_function_call(
                        call_id=f"call-{n}-{i}", name=item.name, arguments=dict(item.args)
                    )
                )
            else:
                contents.append(Content.from_text(item))
        if stream:

            async def updates() -> Any:
                yield ChatResponseUpdate(role="assistant", contents=contents)

            return ResponseStream(updates(), finalizer=ChatResponse.from_updates)

        async def answer() -> ChatResponse:
            return ChatResponse(messages=[Message(role="assistant", contents=contents)])

        return answer()


def counting_tools(calls: dict[str, list[dict[str, Any]]]) -> list[Any]:
    @tool
    def shell(cmd: str) -> str:
        """Run a shell command."""
        calls.setdefault("shell", []).append({"cmd": cmd})
        return f"shell:{cmd}"

    @tool
    def echo(text: str) -> str:
        """Echo a text."""
        calls.setdefault("echo", []).append({"text": text})
        return f"echo:{text}"

    return [shell, echo]


class AgentFrameworkDriver:
    name = "agent-framework"

    def run(
        self,
        hooks: HookSystem,
        turns: Sequence[Turn],
        prompts: Sequence[str],
        *,
        ask: Any = "deny",
        native_answer: bool | None = None,
        max_agent_retries: int = 8,
    ) -> Run:
        requests: list[Request] = []
        calls: dict[str, list[dict[str, Any]]] = {}
        messages: list[tuple[str, str]] = []
        mw = HookwiseMiddleware(
            hooks,
            ask=ask,
            on_message=lambda k, t: messages.append((k, t)),
            max_agent_retries=max_agent_retries,
        )
        agent = Agent(
            client=ScriptedClient(turns, requests),
            name="helper",
            tools=counting_tools(calls),
            middleware=[mw],
        )
        output, stop, history = "", None, []

        async def go() -> Any:
            session = agent.create_session()
            out = ""
            try:
                for p in prompts:
                    result = await agent.run(p, session=session)
                    texts = [m.text for m in result.messages if m.role == "assistant" and m.text]
                    out = texts[-1] if texts else ""
            finally:
                await mw.aclose()
            return out, session

        session = None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                output, session = asyncio.run(go())
        except AgentStopped as stopped:
            stop = stopped.reason
        if session is not None:
            history = _session_history(session)
        else:
            history = [("user", p) for p in prompts]
        return Run(requests, calls, messages, output or "", history, stop, stop is not None, [])


def _session_history(session: Any) -> list[tuple[str, str]]:
    state = getattr(session, "state", {}) or {}
    for value in state.values():
        msgs = value.get("messages") if isinstance(value, dict) else None
        if msgs:
            return flatten([m for m in msgs if isinstance(m, Message)])
    return []


#: documented deviations (docs/adapters.md): no native approval flow is wired
DEVIATIONS = {"before_tool_ask_native_approve", "before_tool_ask_native_reject"}


@pytest.mark.parametrize(
    "scenario",
    quick_where(SCENARIOS, lambda s: s.__name__ in QUICK_SCENARIOS),
    ids=lambda s: s.__name__,
)
def test_scenario(scenario: Scenario, adapter_env: AdapterEnv) -> None:
    if scenario.__name__ in DEVIATIONS:
        pytest.skip('documented deviation: ask="native" is not wired to the framework\'s approvals')
    scenario(AgentFrameworkDriver(), adapter_env)


def test_conformance(_isolated_gemini_home: Path) -> None:
    driver = AgentFrameworkDriver()

    def drive(hooks: HookSystem, conv: Conversation) -> None:
        driver.run(hooks, conv.turns, [conv.prompt])

    assert_adapter_conformance(drive)


def test_conformance_with_hooks_that_change_the_run(_isolated_gemini_home: Path) -> None:
    driver = AgentFrameworkDriver()

    def drive(hooks: HookSystem, conv: Conversation) -> None:
        driver.run(hooks, conv.turns, [conv.prompt])

    assert_adapter_conformance(drive, settings=CONFORMANCE_SETTINGS)


def test_no_hook_configured_the_bundle_is_empty(adapter_env: AdapterEnv) -> None:
    mw = HookwiseMiddleware(adapter_env.system())
    assert mw._middleware == ()
    adapter_env.hook("BeforeTool", {"decision": "deny", "reason": "x"}, matcher="shell")
    only_tools = HookwiseMiddleware(adapter_env.system())
    assert [type(m).__name__ for m in only_tools._middleware] == ["_FunctionSeam"]
