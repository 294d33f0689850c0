#!/usr/bin/env python3
"""What an adapter costs when no hook is configured: each framework with and without it, in one
process.

For every framework in :data:`FRAMEWORKS` whose package is installed, with a project whose settings
layers (project, user, system) configure no hook at all (checked before measuring):

* **seam** — the adapter's model seam and tool seam code called directly on the framework's own
  request objects with a handler that answers at once, against calling that handler directly: the
  added cost per model call and per tool call when a seam is registered but no hook listens to the
  call (target ≤ 50 µs each). The seams come from an adapter built with ``seams="all"``, which
  registers every seam;
* **end to end** — a whole agent run with the framework's offline test model (``BENCH_TOOLS`` tool
  calls, one model call each, then the answer), four ways, each timed in process CPU time (every
  thread, so the load of other processes on a shared machine does not count): without the adapter
  (bare); with the adapter as a user installs it (it registers no seam when no hook is configured:
  the ratio against bare is the target, ≤ 1.05×); with the adapter and ``seams="all"`` (every seam
  registered, no hook firing); and with a do-nothing extension on the same seams (the framework's
  own price for any extension there, which no adapter with registered seams can go below: "all vs
  no-op" is the adapter's own share). OpenAI Agents runs through the one-liner
  ``openai_agents.run_sync``, which governs each call afresh.

Each round times the seams, then ``BENCH_RUNS`` groups of single runs, one run per side in a group
and the order rotated from group to group (so load bursts and warm caches hit every side alike); a
ratio is taken within each group, and medians across groups and then across rounds are printed. One
run of each side warms up first. With a command hook per tool call, the added cost is that hook's
own spawn, see docs/performance.md. Env: BENCH_ROUNDS (7), BENCH_SEAM_N (2000 calls), BENCH_RUNS (20
groups per round), BENCH_TOOLS (5), BENCH_ONLY (comma-separated framework names).

    python bench/adapters.py

Never used by the test-suite: timing targets live here, not in tests.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "7"))
SEAM_N = int(os.environ.get("BENCH_SEAM_N", "2000"))
RUNS = int(os.environ.get("BENCH_RUNS", "20"))
TOOLS = int(os.environ.get("BENCH_TOOLS", "5"))
SEAM_TARGET_US = 50.0
E2E_TARGET = 1.05


@dataclass
class Runs:
    """One whole agent run, four ways."""

    bare: Callable[[], None]  # without the adapter
    adapter: Callable[
        [], None
    ]  # with the adapter as installed by default (no hook: no seam registered)
    all: Callable[
        [], None
    ]  # with the adapter and seams="all" (every seam registered, no hook firing)
    noop: Callable[
        [], None
    ]  # with a do-nothing extension on the same seams (the framework's own price)


@dataclass
class Sides:
    """Callables timed against each other."""

    model: tuple[
        Callable[[int], None], Callable[[int], None]
    ]  # run the model seam n times: (adapter, handler only)
    tool: tuple[
        Callable[[int], None], Callable[[int], None]
    ]  # run the tool seam n times: (adapter, handler only)
    runs: Runs
    calls_per_run: int  # model calls + tool calls of one run


def hook_system(project: str) -> Any:
    """A HookSystem on ``project`` whose every settings layer is empty (user and system layers
    isolated too)."""
    from hookwise import HookSystem
    from hookwise.events import HookEvent

    env = {
        **os.environ,
        "GEMINI_CLI_HOME": project,
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": os.path.join(project, "no-system-defaults.json"),
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": os.path.join(project, "no-system-settings.json"),
    }
    system = HookSystem(project, trust_all=True, env=env)
    configured = [e.value for e in HookEvent if system.has_hooks(e)]
    if configured:
        raise SystemExit(
            f"the bench project has hooks configured for {configured}: it measures no hook "
            "configured"
        )
    return system


# ---- LangChain -----------------------------------------------------------------------------------
def langchain_sides(project: str) -> Sides:
    from langchain.agents import create_agent
    from langchain.agents.middleware.types import AgentMiddleware, ModelRequest, ModelResponse
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
    from langchain_core.outputs import ChatGeneration, ChatResult
    from langchain_core.tools import StructuredTool
    from langgraph.prebuilt.tool_node import ToolCallRequest

    from hookwise.adapters.langchain import HookwiseMiddleware, HookwiseState

    class Loop(GenericFakeChatModel):
        """Calls the tool until it has TOOLS results after the last prompt, then answers."""

        def bind_tools(self, tools: Any, **kw: Any) -> Any:  # type: ignore[override]
            return self

        def _generate(
            self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
        ) -> ChatResult:
            done = sum(1 for m in messages if isinstance(m, ToolMessage))
            call = {"name": "shell", "args": {"cmd": "ls"}, "id": f"c{done}", "type": "tool_call"}
            msg = AIMessage("done") if done >= TOOLS else AIMessage("", tool_calls=[call])
            return ChatResult(generations=[ChatGeneration(message=msg)])

    def shell(cmd: str) -> str:
        """Run a command."""
        return "ok"

    class Noop(AgentMiddleware[Any, Any, Any]):
        """The same seams and state keys as HookwiseMiddleware, doing nothing: LangGraph's own
        cost."""

        state_schema = HookwiseState

        def before_agent(self, state: Any, runtime: Any) -> None:
            return None

        def after_agent(self, state: Any, runtime: Any) -> None:
            return None

        def wrap_model_call(self, request: Any, handler: Any) -> Any:
            return handler(request)

        def wrap_tool_call(self, request: Any, handler: Any) -> Any:
            return handler(request)

    tool = StructuredTool.from_function(shell)
    model = Loop(messages=iter([]))
    system = hook_system(project)
    mw = HookwiseMiddleware(system, seams="all")
    governed = create_agent(model, [tool], middleware=[HookwiseMiddleware(system)])
    every_seam = create_agent(model, [tool], middleware=[mw])
    bare = create_agent(model, [tool])
    noop = create_agent(model, [tool], middleware=[Noop()])
    prompt = {"messages": [HumanMessage("go")]}

    state: dict[str, Any] = {"messages": [HumanMessage("go", id="h1")]}
    state.update(mw.before_agent(state, None) or {})  # type: ignore[arg-type]
    request = ModelRequest(model=model, messages=list(state["messages"]), tools=[tool], state=state)  # type: ignore[arg-type]
    response = ModelResponse(result=[AIMessage("hi")])
    tool_request = ToolCallRequest(
        tool_call={"name": "shell", "args": {"cmd": "ls"}, "id": "c1", "type": "tool_call"},
        tool=tool,
        state=state,
        runtime=None,
    )  # type: ignore[arg-type]
    tool_message = ToolMessage("ok", tool_call_id="c1")

    def model_handler(r: Any) -> Any:
        return response

    def tool_handler(r: Any) -> Any:
        return tool_message

    def model_with(n: int) -> None:
        for _ in range(n):
            mw.wrap_model_call(request, model_handler)

    def model_bare(n: int) -> None:
        for _ in range(n):
            model_handler(request)

    def tool_with(n: int) -> None:
        for _ in range(n):
            mw.wrap_tool_call(tool_request, tool_handler)

    def tool_bare(n: int) -> None:
        for _ in range(n):
            tool_handler(tool_request)

    return Sides(
        (model_with, model_bare),
        (tool_with, tool_bare),
        Runs(
            lambda: bare.invoke(prompt),
            lambda: governed.invoke(prompt),
            lambda: every_seam.invoke(prompt),
            lambda: noop.invoke(prompt),
        ),
        2 * TOOLS + 1,
    )


# ---- pydantic-ai ---------------------------------------------------------------------------------
def pydantic_ai_sides(project: str) -> Sides:

    from pydantic_ai import Agent
    from pydantic_ai.capabilities import AbstractCapability
    from pydantic_ai.messages import (
        ModelMessage,
        ModelRequest,
        ModelResponse,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
        UserPromptPart,
    )
    from pydantic_ai.models import ModelRequestContext, ModelRequestParameters
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from hookwise.adapters.pydantic_ai import HookwiseCapability

    def answer(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        done = sum(1 for m in messages for p in m.parts if isinstance(p, ToolReturnPart))
        if done >= TOOLS:
            return ModelResponse(parts=[TextPart("done")])
        return ModelResponse(parts=[ToolCallPart("shell", {"cmd": "ls"}, tool_call_id=f"c{done}")])

    def shell(cmd: str) -> str:
        """Run a command."""
        return "ok"

    class Noop(AbstractCapability[Any]):
        """The same hooks as HookwiseCapability, doing nothing: pydantic-ai's own cost of a
        capability."""

        async def for_run(self, ctx: Any) -> Any:
            return Noop()

        async def wrap_run(self, ctx: Any, *, handler: Any) -> Any:
            return await handler()

        async def wrap_model_request(self, ctx: Any, *, request_context: Any, handler: Any) -> Any:
            return await handler(request_context)

        async def wrap_tool_execute(
            self, ctx: Any, *, call: Any, tool_def: Any, args: Any, handler: Any
        ) -> Any:
            return await handler(args)

    model = FunctionModel(answer)
    system = hook_system(project)
    cap = HookwiseCapability(system, seams="all")
    governed = Agent(model, tools=[shell], capabilities=[HookwiseCapability(system)])
    every_seam = Agent(model, tools=[shell], capabilities=[cap])
    bare = Agent(model, tools=[shell])
    noop = Agent(model, tools=[shell], capabilities=[Noop()])

    run_cap = asyncio.run(cap.for_run(None))
    ctx = SimpleNamespace(
        messages=[ModelRequest(parts=[UserPromptPart("go")])], prompt="go", tool_call_approved=False
    )
    rc = ModelRequestContext(
        model=model,
        messages=list(ctx.messages),
        model_settings=None,
        model_request_parameters=ModelRequestParameters(),
    )
    response = ModelResponse(parts=[TextPart("hi")])
    call = ToolCallPart("shell", {"cmd": "ls"}, tool_call_id="c1")

    async def model_handler(r: Any) -> Any:
        return response

    async def tool_handler(args: Any) -> Any:
        return "ok"

    def model_with(n: int) -> None:
        async def go() -> None:
            for _ in range(n):
                await run_cap.wrap_model_request(ctx, request_context=rc, handler=model_handler)
                run_cap.turn.texts.clear()

        asyncio.run(go())

    def model_bare(n: int) -> None:
        async def go() -> None:
            for _ in range(n):
                await model_handler(rc)

        asyncio.run(go())

    def tool_with(n: int) -> None:
        async def go() -> None:
            for _ in range(n):
                await run_cap.wrap_tool_execute(
                    ctx, call=call, tool_def=None, args={"cmd": "ls"}, handler=tool_handler
                )

        asyncio.run(go())

    def tool_bare(n: int) -> None:
        async def go() -> None:
            for _ in range(n):
                await tool_handler({"cmd": "ls"})

        asyncio.run(go())

    return Sides(
        (model_with, model_bare),
        (tool_with, tool_bare),
        Runs(
            lambda: bare.run_sync("go"),
            lambda: governed.run_sync("go"),
            lambda: every_seam.run_sync("go"),
            lambda: noop.run_sync("go"),
        ),
        2 * TOOLS + 1,
    )


# ---- Google ADK and OpenAI Agents ----------------------------------------------------------------
def _loop(n: int, step: Callable[[], Any]) -> None:
    async def go() -> None:
        for _ in range(n):
            await step()

    asyncio.run(go())


# ---- Google ADK ----------------------------------------------------------------------------------
def adk_sides(project: str) -> Sides:
    import logging

    from google.adk.agents import LlmAgent
    from google.adk.models.base_llm import BaseLlm
    from google.adk.models.llm_request import LlmRequest
    from google.adk.models.llm_response import LlmResponse
    from google.adk.plugins.base_plugin import BasePlugin
    from google.adk.runners import InMemoryRunner
    from google.genai import types

    from hookwise.adapters.adk import HookwisePlugin

    logging.getLogger("google_adk").setLevel(logging.ERROR)

    def call() -> LlmResponse:
        return LlmResponse(
            content=types.Content(
                role="model",
                parts=[
                    types.Part(function_call=types.FunctionCall(name="shell", args={"cmd": "ls"}))
                ],
            )
        )

    done = LlmResponse(
        content=types.Content(role="model", parts=[types.Part.from_text(text="done")])
    )

    class Loop(BaseLlm):  # type: ignore[misc]
        model: str = "loop"

        async def generate_content_async(
            self, llm_request: LlmRequest, stream: bool = False
        ) -> Any:
            results = sum(
                1 for c in llm_request.contents for p in c.parts or [] if p.function_response
            )
            yield done if results >= TOOLS else call()

    def shell(cmd: str) -> dict[str, Any]:
        """Run a command."""
        return {"result": "ok"}

    class Noop(BasePlugin):  # type: ignore[misc]
        """The callbacks HookwisePlugin overrides, doing nothing: what ADK charges for a plugin
        there."""

        async def on_user_message_callback(self, **kw: Any) -> None:
            return None

        async def before_run_callback(self, **kw: Any) -> None:
            return None

        async def after_run_callback(self, **kw: Any) -> None:
            return None

        async def before_model_callback(self, **kw: Any) -> None:
            return None

        async def after_model_callback(self, **kw: Any) -> None:
            return None

        async def before_tool_callback(self, **kw: Any) -> None:
            return None

        async def after_tool_callback(self, **kw: Any) -> None:
            return None

        async def on_tool_error_callback(self, **kw: Any) -> None:
            return None

    system = hook_system(project)
    plugin = HookwisePlugin(system, seams="all")
    import warnings

    def runner(*plugins: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return InMemoryRunner(
                agent=LlmAgent(name="root", model=Loop(), tools=[shell]), plugins=list(plugins)
            )

    bare, governed, every_seam, noop = (
        runner(),
        runner(HookwisePlugin(system)),
        runner(plugin),
        runner(Noop("noop")),
    )

    def run(runner: Any) -> None:
        async def go() -> None:
            s = await runner.session_service.create_session(app_name=runner.app_name, user_id="u")
            msg = types.Content(role="user", parts=[types.Part.from_text(text="go")])
            async for _ in runner.run_async(user_id="u", session_id=s.id, new_message=msg):
                pass

        asyncio.run(go())

    ctx = SimpleNamespace(
        invocation_id="bench",
        session=SimpleNamespace(id="s"),
        agent_name="root",
        function_call_id="c1",
        tool_confirmation=None,
    )
    request = LlmRequest(
        contents=[types.Content(role="user", parts=[types.Part.from_text(text="go")])]
    )
    response = done
    tool = SimpleNamespace(name="shell")

    async def model_with() -> None:
        await plugin.before_model_callback(callback_context=ctx, llm_request=request)
        await plugin.after_model_callback(callback_context=ctx, llm_response=response)
        plugin._invocations["bench"].turn.texts.clear()

    async def tool_with() -> None:
        args = {"cmd": "ls"}
        await plugin.before_tool_callback(tool=tool, tool_args=args, tool_context=ctx)
        await plugin.after_tool_callback(
            tool=tool, tool_args=args, tool_context=ctx, result={"result": "ok"}
        )

    async def bare_step() -> None:
        return None

    return Sides(
        (lambda n: _loop(n, model_with), lambda n: _loop(n, bare_step)),
        (lambda n: _loop(n, tool_with), lambda n: _loop(n, bare_step)),
        Runs(lambda: run(bare), lambda: run(governed), lambda: run(every_seam), lambda: run(noop)),
        2 * TOOLS + 1,
    )


# ---- OpenAI Agents SDK ---------------------------------------------------------------------------
def openai_agents_sides(project: str) -> Sides:
    import dataclasses

    from agents import (
        Agent,
        GuardrailFunctionOutput,
        InputGuardrail,
        ModelResponse,
        ModelSettings,
        OutputGuardrail,
        RunConfig,
        Runner,
        ToolGuardrailFunctionOutput,
        ToolInputGuardrail,
        Usage,
        function_tool,
    )
    from agents.models.interface import Model
    from agents.testing import assistant_message, function_call
    from agents.tool_context import ToolContext

    from hookwise.adapters import openai_agents

    class Loop(Model):  # type: ignore[misc]
        async def get_response(
            self, system_instructions: Any, input: Any, *args: Any, **kw: Any
        ) -> ModelResponse:
            results = (
                sum(
                    1
                    for i in input
                    if isinstance(i, dict) and i.get("type") == "function_call_output"
                )
                if isinstance(input, list)
                else 0
            )
            out = (
                [assistant_message("done")]
                if results >= TOOLS
                else [function_call("shell", {"cmd": "ls"}, call_id=f"c{results}")]
            )
            return ModelResponse(output=out, usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kw: Any) -> Any:
            raise NotImplementedError

    @function_tool
    async def shell(cmd: str) -> str:  # async: no worker-thread hop blurring the per-call numbers
        """Run a command."""
        return "ok"

    class Passthrough(Model):  # type: ignore[misc]
        def __init__(self, inner: Model) -> None:
            self.inner = inner

        async def get_response(self, *args: Any, **kw: Any) -> ModelResponse:
            return await self.inner.get_response(*args, **kw)

        def stream_response(self, *args: Any, **kw: Any) -> Any:
            return self.inner.stream_response(*args, **kw)

    async def ok(*args: Any) -> GuardrailFunctionOutput:
        return GuardrailFunctionOutput(output_info=None, tripwire_triggered=False)

    async def allow(data: Any) -> ToolGuardrailFunctionOutput:
        return ToolGuardrailFunctionOutput.allow()

    def noop_tool(tool: Any) -> Any:
        inner = tool.on_invoke_tool

        async def invoke(ctx: Any, args: str) -> Any:
            return await inner(ctx, args)

        return dataclasses.replace(
            tool,
            on_invoke_tool=invoke,
            tool_input_guardrails=[ToolInputGuardrail(guardrail_function=allow, name="noop")],
        )

    async def no_format(args: Any) -> None:
        return None

    offline = RunConfig(tracing_disabled=True)
    agent = Agent(name="a", model=Loop(), tools=[shell])
    system = hook_system(project)
    governed, config = openai_agents.govern(agent, system, run_config=offline, seams="all")
    # the parts govern() adds with seams="all", doing nothing: what the SDK charges for them
    noop_agent = agent.clone(
        model=Passthrough(Loop()),
        tools=[noop_tool(shell)],
        input_guardrails=[InputGuardrail(guardrail_function=ok, run_in_parallel=False)],
        output_guardrails=[OutputGuardrail(guardrail_function=ok)],
    )
    noop_config = dataclasses.replace(
        offline,
        call_model_input_filter=lambda data: data.model_data,
        tool_error_formatter=no_format,
    )

    inner = Loop()
    wrapped = openai_agents.HookwiseModel(inner, openai_agents._governor(config))
    settings = ModelSettings()

    async def model_with() -> None:
        await wrapped.get_response(
            None, [{"role": "user", "content": "go"}], settings, [], None, [], None
        )
        wrapped.gov.turn.texts.clear()

    async def model_bare() -> None:
        await inner.get_response(
            None, [{"role": "user", "content": "go"}], settings, [], None, [], None
        )

    gtool = governed.tools[0]
    guard = gtool.tool_input_guardrails[0]
    tctx = ToolContext(
        context=None, tool_name="shell", tool_call_id="c1", tool_arguments='{"cmd": "ls"}'
    )

    async def tool_with() -> None:
        await guard.guardrail_function(SimpleNamespace(context=tctx, agent=governed))
        await gtool.on_invoke_tool(tctx, '{"cmd": "ls"}')

    async def tool_bare() -> None:
        await shell.on_invoke_tool(tctx, '{"cmd": "ls"}')

    return Sides(
        (lambda n: _loop(n, model_with), lambda n: _loop(n, model_bare)),
        (lambda n: _loop(n, tool_with), lambda n: _loop(n, tool_bare)),
        Runs(
            lambda: Runner.run_sync(agent, "go", run_config=offline),
            # the one-liner: govern() for this run, Runner.run, end of session
            lambda: openai_agents.run_sync(agent, "go", system, run_config=offline),
            lambda: openai_agents.run_sync(agent, "go", system, run_config=offline, seams="all"),
            lambda: Runner.run_sync(noop_agent, "go", run_config=noop_config),
        ),
        2 * TOOLS + 1,
    )


# ---- Microsoft Agent Framework -------------------------------------------------------------------
def agent_framework_sides(project: str) -> Sides:
    import warnings

    from agent_framework import (
        Agent,
        AgentMiddleware,
        BaseChatClient,
        ChatMiddleware,
        ChatMiddlewareLayer,
        ChatResponse,
        Content,
        FunctionInvocationLayer,
        FunctionMiddleware,
        Message,
        tool,
    )

    from hookwise.adapters.agent_framework import HookwiseMiddleware

    class Scripted(FunctionInvocationLayer, ChatMiddlewareLayer, BaseChatClient):  # type: ignore[misc]
        """BENCH_TOOLS tool calls, then the answer (the framework ships no test model)."""

        def _inner_get_response(
            self, *, messages: Any, stream: bool, options: Any, **kw: Any
        ) -> Any:
            done = sum(1 for m in messages for c in m.contents if c.type == "function_result")
            if done >= TOOLS:
                contents = [Content.from_text("done")]
            else:
                contents = [
                    Content.from_function_call(
                        call_id=f"c{done}", name="shell", arguments={"cmd": "ls"}
                    )
                ]

            async def answer() -> ChatResponse:
                return ChatResponse(messages=[Message(role="assistant", contents=contents)])

            return answer()

    @tool
    def shell(cmd: str) -> str:
        """Run a command."""
        return "ok"

    class NoopAgent(AgentMiddleware):  # type: ignore[misc]
        async def process(self, context: Any, call_next: Any) -> None:
            await call_next()

    class NoopChat(ChatMiddleware):  # type: ignore[misc]
        async def process(self, context: Any, call_next: Any) -> None:
            await call_next()

    class NoopFunction(FunctionMiddleware):  # type: ignore[misc]
        async def process(self, context: Any, call_next: Any) -> None:
            await call_next()

    warnings.simplefilter("ignore")  # MiddlewareBundle is marked experimental by the framework
    system = hook_system(project)
    every = HookwiseMiddleware(system, seams="all")
    client = Scripted()

    def agent(middleware: list[Any]) -> Any:
        return Agent(client=client, name="bench", tools=[shell], middleware=middleware)

    bare, governed = agent([]), agent([HookwiseMiddleware(system)])
    every_seam, noop = agent([every]), agent([NoopAgent(), NoopChat(), NoopFunction()])
    _, chat_seam, function_seam = every._middleware
    messages = [Message(role="user", contents=[Content.from_text("go")])]
    response = ChatResponse(
        messages=[Message(role="assistant", contents=[Content.from_text("hi")])]
    )
    chat_ctx = SimpleNamespace(
        messages=messages, options={}, client=client, result=None, stream=False
    )
    fn_ctx = SimpleNamespace(function=shell, arguments={"cmd": "ls"}, result=None, tools=[shell])

    async def chat_next() -> None:
        chat_ctx.result = response

    async def fn_next() -> None:
        fn_ctx.result = "ok"

    def model_with(n: int) -> None:
        async def step() -> None:
            chat_ctx.messages = messages
            await chat_seam.process(chat_ctx, chat_next)

        _loop(n, step)

    def tool_with(n: int) -> None:
        _loop(n, lambda: function_seam.process(fn_ctx, fn_next))

    def run(a: Any) -> Callable[[], None]:
        return lambda: asyncio.run(a.run("go"))

    return Sides(
        (model_with, lambda n: _loop(n, chat_next)),
        (tool_with, lambda n: _loop(n, fn_next)),
        Runs(run(bare), run(governed), run(every_seam), run(noop)),
        2 * TOOLS + 1,
    )


# ---- CrewAI --------------------------------------------------------------------------------------
def crewai_sides(project: str) -> Sides:
    os.environ.setdefault("CREWAI_TESTING", "true")  # CrewAI's own switch: no tracing prompt
    os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")
    os.environ.setdefault("OTEL_SDK_DISABLED", "true")
    import json

    from crewai import Agent, Crew, Task
    from crewai.hooks import (
        register_after_llm_call_hook,
        register_after_tool_call_hook,
        register_before_llm_call_hook,
        register_before_tool_call_hook,
        unregister_after_llm_call_hook,
        unregister_after_tool_call_hook,
        unregister_before_llm_call_hook,
        unregister_before_tool_call_hook,
    )
    from crewai.llms.base_llm import BaseLLM
    from crewai.tools import tool

    from hookwise.adapters.crewai import HookwiseCrewHooks

    class Scripted(BaseLLM):  # type: ignore[misc]
        """BENCH_TOOLS tool calls in CrewAI's ReAct text, then the answer (CrewAI ships no test
        model)."""

        def __init__(self) -> None:
            super().__init__(model="scripted")

        def call(self, messages: Any, tools: Any = None, callbacks: Any = None, **kw: Any) -> str:
            done = sum(str(m.get("content", "")).count("Observation:") for m in messages)
            if done >= TOOLS:
                return "Thought: done\nFinal Answer: done"
            return f"Thought: go\nAction: shell\nAction Input: {json.dumps({'cmd': f'ls {done}'})}"

        def supports_function_calling(self) -> bool:
            return False

    @tool("shell")
    def shell(cmd: str) -> str:
        """Run a command."""
        return "ok"

    system = hook_system(project)

    def kickoff() -> None:
        agent = Agent(role="bench", goal="bench", backstory="bench", llm=Scripted(), tools=[shell])
        task = Task(description="go", expected_output="done", agent=agent)
        Crew(agents=[agent], tasks=[task]).kickoff()

    def governed(seams: Any) -> Callable[[], None]:
        def go() -> None:
            with HookwiseCrewHooks(system, seams=seams):
                kickoff()

        return go

    def noop_hook(ctx: Any) -> None:
        return None

    pairs = [
        (register_before_llm_call_hook, unregister_before_llm_call_hook),
        (register_after_llm_call_hook, unregister_after_llm_call_hook),
        (register_before_tool_call_hook, unregister_before_tool_call_hook),
        (register_after_tool_call_hook, unregister_after_tool_call_hook),
    ]

    def noop() -> None:
        for register, _ in pairs:
            register(noop_hook)
        try:
            kickoff()
        finally:
            for _, unregister in pairs:
                unregister(noop_hook)

    every = HookwiseCrewHooks(system, seams="all")
    every.close()  # its methods are called directly below, not through CrewAI's registry
    executor = SimpleNamespace(messages=[{"role": "user", "content": "go"}])
    llm_ctx = SimpleNamespace(
        executor=executor,
        messages=executor.messages,
        task=None,
        llm=None,
        agent=None,
        response="Thought: go",
    )
    tool_ctx = SimpleNamespace(
        tool_name="shell", tool_input={"cmd": "ls"}, tool_result="ok", agent=None
    )

    def model_with(n: int) -> None:
        for _ in range(n):
            every.before_llm(llm_ctx)
            every.after_llm(llm_ctx)

    def tool_with(n: int) -> None:
        for _ in range(n):
            every.before_tool(tool_ctx)
            every.after_tool(tool_ctx)

    def handler(n: int) -> None:
        for _ in range(n):
            noop_hook(llm_ctx)

    return Sides(
        (model_with, handler),
        (tool_with, handler),
        Runs(kickoff, governed("configured"), governed("all"), noop),
        2 * TOOLS + 1,
    )


#: framework name -> (module that must be importable, how to build its sides)
FRAMEWORKS: dict[str, tuple[str, Callable[[str], Sides]]] = {
    "langchain": ("langchain.agents", langchain_sides),
    "pydantic-ai": ("pydantic_ai", pydantic_ai_sides),
    "adk": ("google.adk", adk_sides),
    "openai-agents": ("agents", openai_agents_sides),
    "agent-framework": ("agent_framework", agent_framework_sides),
    "crewai": ("crewai.hooks", crewai_sides),
}


def _per_call_us(fn: Callable[[int], None], n: int) -> float:
    t = time.perf_counter()
    fn(n)
    return (time.perf_counter() - t) / n * 1e6


def _run_ms(fn: Callable[[], None]) -> float:
    """CPU time of the whole process (every thread) for one run: other processes' load does not
    count."""
    t = time.process_time()
    fn()
    return (time.process_time() - t) * 1e3


SIDES = ("bare", "adapter", "all", "noop")


def measure(sides: Sides) -> dict[str, float]:
    for fn in (*sides.model, *sides.tool):  # warm up
        fn(50)
    for side in SIDES:
        getattr(sides.runs, side)()
    model_add, tool_add = [], []
    per_round: dict[str, list[float]] = {
        k: [] for k in ("bare", "adapter", "ratio", "all", "vs_noop")
    }
    for _ in range(ROUNDS):
        mw, mb = _per_call_us(sides.model[0], SEAM_N), _per_call_us(sides.model[1], SEAM_N)
        tw, tb = _per_call_us(sides.tool[0], SEAM_N), _per_call_us(sides.tool[1], SEAM_N)
        model_add.append(mw - mb)
        tool_add.append(tw - tb)
        groups = []
        for i in range(RUNS):  # one run per side, the order rotated from group to group
            order = SIDES[i % len(SIDES) :] + SIDES[: i % len(SIDES)]
            groups.append({side: _run_ms(getattr(sides.runs, side)) for side in order})
        per_round["bare"].append(statistics.median(g["bare"] for g in groups))
        per_round["adapter"].append(statistics.median(g["adapter"] for g in groups))
        per_round["ratio"].append(statistics.median(g["adapter"] / g["bare"] for g in groups))
        per_round["all"].append(statistics.median(g["all"] / g["bare"] for g in groups))
        per_round["vs_noop"].append(statistics.median(g["all"] / g["noop"] for g in groups))
    r = {k: statistics.median(v) for k, v in per_round.items()}
    return {
        "model_us": statistics.median(model_add),
        "tool_us": statistics.median(tool_add),
        "bare_ms": r["bare"],
        "with_ms": r["adapter"],
        "ratio": r["ratio"],
        "per_call_us": (r["ratio"] - 1) * r["bare"] * 1e3 / sides.calls_per_run,
        "all": r["all"],
        "vs_noop": r["vs_noop"],
    }


def main() -> int:
    only = {s.strip() for s in os.environ.get("BENCH_ONLY", "").split(",") if s.strip()}
    print(
        f"adapter overhead with no hook configured: {ROUNDS} rounds, seams {SEAM_N} calls, "
        f"runs of {TOOLS} tool calls ({RUNS} rotated groups per round); Python "
        f"{sys.version.split()[0]}"
    )
    print(
        f"{'framework':<14} {'+model call':>12} {'+tool call':>11} {'bare run':>10} "
        f"{'with adapter':>13} {'ratio':>7} {'+per call e2e':>14} {'all seams':>10} "
        f"{'all vs no-op':>13}  met"
    )
    missing = []
    with tempfile.TemporaryDirectory(prefix="hookwise-bench-adapters-") as project:
        for name, (module, build) in FRAMEWORKS.items():
            if only and name not in only:
                continue
            if importlib.util.find_spec(module.split(".")[0]) is None:
                missing.append(name)
                continue
            r = measure(build(project))
            met = (
                r["model_us"] <= SEAM_TARGET_US
                and r["tool_us"] <= SEAM_TARGET_US
                and r["ratio"] <= E2E_TARGET
            )
            print(
                f"{name:<14} {r['model_us']:>9.1f} µs {r['tool_us']:>8.1f} µs {r['bare_ms']:>7.2f} "
                f"ms {r['with_ms']:>10.2f} ms {r['ratio']:>6.3f}× {r['per_call_us']:>11.1f} µs "
                f"{r['all']:>9.3f}× {r['vs_noop']:>12.3f}×  {'yes' if met else 'NO'}"
            )
    if missing:
        print("not installed (skipped): " + ", ".join(missing))
    print(
        f"targets: ≤ {SEAM_TARGET_US:.0f} µs added per model call and per tool call (the seam "
        "code, registered);"
    )
    print(
        f"≤ {E2E_TARGET}× the bare run ('ratio': the adapter as installed, with no hook "
        "configured). Runs are timed"
    )
    print(
        "in process CPU time. 'all seams': the adapter with seams=\"all\" (every seam registered, "
        "no hook firing)"
    )
    print(
        "against the bare run; 'all vs no-op': the same against a do-nothing extension on the same "
        "seams (what the"
    )
    print("framework itself charges for any extension there)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
