"""The LangChain adapter inside a real ``create_agent`` graph, with LangChain's own fake chat
model."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "langchain.agents", reason="hookwise[langchain] is not installed (needs Python 3.11+)"
)

from langchain.agents import create_agent  # noqa: E402
from langchain.agents.middleware.types import AgentMiddleware  # noqa: E402
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel  # noqa: E402
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage  # noqa: E402
from langchain_core.outputs import ChatResult  # noqa: E402
from langchain_core.tools import StructuredTool  # noqa: E402
from langgraph.checkpoint.memory import InMemorySaver  # noqa: E402
from langgraph.types import Command  # noqa: E402

from hookwise import HookSystem  # noqa: E402
from hookwise.adapters.langchain import HookwiseMiddleware  # noqa: E402
from hookwise.testing.conformance import Conversation, ToolCall, Turn, assert_adapter_conformance  # noqa: E402

from .scenarios import CONFORMANCE_SETTINGS, SCENARIOS, AdapterEnv, Request, Run, Scenario, call  # noqa: E402

SETTING_NAMES = {
    "temperature": "temperature",
    "max_tokens": "maxOutputTokens",
    "top_p": "topP",
    "top_k": "topK",
}


def _text(m: BaseMessage) -> str:
    if isinstance(m.content, str):
        return m.content
    return "".join(
        b["text"] if isinstance(b, dict) else str(b)
        for b in m.content
        if isinstance(b, str) or (isinstance(b, dict) and b.get("type") == "text")
    )


def _role(m: BaseMessage) -> str:
    if isinstance(m, AIMessage):
        return "model"
    if isinstance(m, ToolMessage):
        return "tool"
    if isinstance(m, SystemMessage):
        return "system"
    return "user"


class ScriptedChat(GenericFakeChatModel):
    """LangChain's generic fake chat model, answering scripted turns and recording every request."""

    turns: Any = None
    requests: Any = None  # Any: pydantic keeps the very list (a list field would be copied)
    bound: Any = None

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:  # type: ignore[override]
        self.bound = {"tools": [getattr(t, "name", None) or t.get("name") for t in tools], **kwargs}
        return self.bind(**{k: v for k, v in kwargs.items() if k != "tool_choice"})

    def bind(self, **kwargs: Any) -> Any:  # type: ignore[override]
        self.bound = (
            {**self.bound, **kwargs} if self.bound and "tools" in self.bound else dict(kwargs)
        )
        return self

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        bound, self.bound = self.bound or {}, {}
        settings = {
            SETTING_NAMES[k]: v for k, v in {**bound, **kwargs}.items() if k in SETTING_NAMES
        }
        self.requests.append(
            Request(
                [(_role(m), _text(m)) for m in messages],
                list(bound.get("tools") or []),
                bound.get("tool_choice") not in (None, "auto", "none"),
                settings,
            )
        )
        n = len(self.requests) - 1
        turn = self.turns[n] if n < len(self.turns) else ("(the script has no more turns)",)
        texts = [t for t in turn if isinstance(t, str)]
        tcs = [
            {"name": t.name, "args": dict(t.args), "id": f"call-{n}-{i}", "type": "tool_call"}
            for i, t in enumerate(turn)
            if isinstance(t, ToolCall)
        ]
        self.messages = iter([AIMessage("".join(texts), tool_calls=tcs)])
        return super()._generate(messages, stop=stop, run_manager=run_manager)


def counting_tools(calls: dict[str, list[dict[str, Any]]]) -> list[StructuredTool]:
    def shell(cmd: str) -> str:
        """Run a shell command."""
        calls.setdefault("shell", []).append({"cmd": cmd})
        return f"shell:{cmd}"

    def echo(text: str) -> str:
        """Echo a text."""
        calls.setdefault("echo", []).append({"text": text})
        return f"echo:{text}"

    return [StructuredTool.from_function(shell), StructuredTool.from_function(echo)]


class LangChainDriver:
    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.name = f"langchain-{mode}"

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
        model = ScriptedChat(messages=iter([]), turns=list(turns), requests=requests)
        mw = HookwiseMiddleware(
            hooks,
            ask="native" if native_answer is not None else ask,
            on_message=lambda k, t: messages.append((k, t)),
            max_agent_retries=max_agent_retries,
        )
        agent = create_agent(
            model, counting_tools(calls), middleware=[mw], checkpointer=InMemorySaver()
        )
        config: Any = {"configurable": {"thread_id": "t"}}
        surfaced: list[dict[str, Any]] = []

        async def arun(inp: Any) -> None:
            if self.mode == "ainvoke":
                await agent.ainvoke(inp, config)
            else:
                async for _ in agent.astream(inp, config, stream_mode="values"):
                    pass

        def step(inp: Any) -> None:
            if self.mode == "invoke":
                agent.invoke(inp, config)
            elif self.mode == "stream":
                for _ in agent.stream(inp, config, stream_mode="values"):
                    pass
            else:
                asyncio.run(arun(inp))

        for p in prompts:
            step({"messages": [HumanMessage(p)]})
            while agent.get_state(config).interrupts:
                surfaced.extend(i.value for i in agent.get_state(config).interrupts)
                step(Command(resume=native_answer))
        if self.mode in ("invoke", "stream"):
            mw.close()
        else:
            asyncio.run(mw.aclose())
        state = agent.get_state(config).values
        history = [(_role(m), _text(m)) for m in state.get("messages", [])]
        output = next((t for r, t in reversed(history) if r == "model"), "")
        return Run(
            requests, calls, messages, output, history, state.get("hookwise_stop"), False, surfaced
        )


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["invoke", "ainvoke", "stream", "astream"])
@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.__name__)
def test_scenario(scenario: Scenario, mode: str, adapter_env: AdapterEnv) -> None:
    scenario(LangChainDriver(mode), adapter_env)


@pytest.mark.parametrize("mode", ["invoke", "ainvoke"])
def test_conformance(mode: str, _isolated_gemini_home: Path) -> None:
    driver = LangChainDriver(mode)

    def drive(hooks: HookSystem, conv: Conversation) -> None:
        driver.run(hooks, conv.turns, [conv.prompt])

    assert_adapter_conformance(drive)


def test_conformance_with_hooks_that_change_the_run(_isolated_gemini_home: Path) -> None:
    driver = LangChainDriver("invoke")

    def drive(hooks: HookSystem, conv: Conversation) -> None:
        driver.run(hooks, conv.turns, [conv.prompt])

    assert_adapter_conformance(drive, settings=CONFORMANCE_SETTINGS)


def test_tool_aliases_let_gemini_matchers_apply(adapter_env: AdapterEnv) -> None:
    adapter_env.hook(
        "BeforeTool", {"decision": "deny", "reason": "no shell"}, matcher="run_shell_command"
    )
    calls: dict[str, list[dict[str, Any]]] = {}
    requests: list[Request] = []
    model = ScriptedChat(
        messages=iter([]), turns=[(call("shell", cmd="ls"),), ("done",)], requests=requests
    )
    mw = HookwiseMiddleware(adapter_env.system(), tool_aliases={"shell": "run_shell_command"})
    create_agent(model, counting_tools(calls), middleware=[mw]).invoke(
        {"messages": [HumanMessage("go")]}
    )
    assert calls == {}
    assert "Tool execution blocked: no shell" in requests[1].texts("tool")
    seen = adapter_env.inputs("BeforeTool")[0]
    assert (seen["tool_name"], seen["original_request_name"]) == ("run_shell_command", "shell")


def test_project_dir_argument_builds_the_hook_system(
    adapter_env: AdapterEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOOKWISE_TRUST_ALL", "1")
    mw = HookwiseMiddleware(str(adapter_env.root), session_id="s-1")
    assert mw.hooks.project_dir == str(adapter_env.root) and mw.hooks.session_id == "s-1"


# ---- which seams the middleware registers (docs/adapters.md "Cost") ----------------------
_SEAM_METHODS = (
    "before_agent",
    "abefore_agent",
    "after_agent",
    "aafter_agent",
    "wrap_model_call",
    "awrap_model_call",
    "wrap_tool_call",
    "awrap_tool_call",
)


def _nodes(agent: Any) -> set[str]:
    return set(agent.get_graph().nodes)


def test_no_hook_configured_registers_no_seam(adapter_env: AdapterEnv) -> None:
    calls: dict[str, list[dict[str, Any]]] = {}
    requests: list[Request] = []
    model = ScriptedChat(
        messages=iter([]), turns=[(call("shell", cmd="ls"),), ("done",)], requests=requests
    )
    mw = HookwiseMiddleware(adapter_env.system())
    assert (
        isinstance(mw, HookwiseMiddleware)
        and mw.seams == frozenset()
        and mw.name == "HookwiseMiddleware"
    )
    assert all(
        getattr(type(mw), m) is getattr(AgentMiddleware, m) for m in _SEAM_METHODS
    )  # what create_agent reads
    agent = create_agent(model, counting_tools(calls), middleware=[mw])
    assert _nodes(agent) == _nodes(
        create_agent(model, counting_tools({}))
    )  # the graph of the bare agent
    state = agent.invoke({"messages": [HumanMessage("go")]})
    assert calls == {"shell": [{"cmd": "ls"}]} and _text(state["messages"][-1]) == "done"
    assert len(requests) == 2 and not mw.bridge.session_started  # no seam of the middleware ran
    mw.close()


@pytest.mark.slow
def test_only_the_seams_of_configured_events_are_registered(adapter_env: AdapterEnv) -> None:
    adapter_env.hook("BeforeAgent", {"hookSpecificOutput": {"additionalContext": "be brief"}})
    calls: dict[str, list[dict[str, Any]]] = {}
    requests: list[Request] = []
    model = ScriptedChat(
        messages=iter([]), turns=[(call("shell", cmd="ls"),), ("done",)], requests=requests
    )
    mw = HookwiseMiddleware(adapter_env.system())
    assert mw.seams == {"run"}
    assert (
        type(mw).wrap_tool_call is AgentMiddleware.wrap_tool_call
    )  # no tool hook: no tool wrapper
    assert type(mw).wrap_model_call is HookwiseMiddleware.wrap_model_call
    agent = create_agent(model, counting_tools(calls), middleware=[mw])
    assert {"HookwiseMiddleware.before_agent", "HookwiseMiddleware.after_agent"} <= _nodes(agent)
    agent.invoke({"messages": [HumanMessage("go")]})
    assert calls == {"shell": [{"cmd": "ls"}]}
    assert all("be brief" in r for r in requests) and len(adapter_env.inputs("BeforeAgent")) == 1
    adapter_env.hook(
        "AfterTool", None, matcher="echo"
    )  # a tool hook for a tool this agent never calls
    assert HookwiseMiddleware(adapter_env.system()).seams == {"run", "tool"}


def test_hooks_configured_later_are_named_or_served_with_seams_all(adapter_env: AdapterEnv) -> None:
    system = adapter_env.system()
    messages: list[tuple[str, str]] = []
    lazy = HookwiseMiddleware(system, on_message=lambda k, t: messages.append((k, t)))
    eager = HookwiseMiddleware(system, seams="all")
    adapter_env.hook("BeforeTool", {"decision": "deny", "reason": "no shell"}, matcher="shell")
    system.reload()
    for mw, ran in ((lazy, 1), (eager, 0)):
        calls: dict[str, list[dict[str, Any]]] = {}
        model = ScriptedChat(
            messages=iter([]), turns=[(call("shell", cmd="ls"),), ("done",)], requests=[]
        )
        create_agent(model, counting_tools(calls), middleware=[mw]).invoke(
            {"messages": [HumanMessage("go")]}
        )
        assert len(calls.get("shell", [])) == ran
        mw.close()
    assert len(adapter_env.inputs("BeforeTool")) == 1  # the eager middleware's run only
    warnings = [t for k, t in messages if k == "warning"]
    assert len(warnings) == 1 and "BeforeTool hooks were configured after" in warnings[0]
    assert 'seams="all"' in warnings[0]


def test_a_subclass_keeps_its_own_overrides(adapter_env: AdapterEnv) -> None:
    class Audited(HookwiseMiddleware):
        def wrap_tool_call(self, request: Any, handler: Any) -> Any:
            return handler(request)

    mw = Audited(adapter_env.system())
    assert isinstance(mw, Audited) and mw.seams == frozenset()
    assert (
        type(mw).wrap_tool_call is Audited.wrap_tool_call
    )  # still registered: the subclass wants it
    assert type(mw).wrap_model_call is AgentMiddleware.wrap_model_call
