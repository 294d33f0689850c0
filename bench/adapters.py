#!/usr/bin/env python3
"""What an adapter costs when no hook is configured: each framework with and without it, in one process.

For every framework in :data:`FRAMEWORKS` whose package is installed:

* **seam** — the adapter's model seam and tool seam called directly on the framework's own request
  objects with a handler that answers at once, against calling that handler directly: the added
  cost per model call and per tool call (target ≤ 50 µs each);
* **end to end** — a whole agent run with the framework's offline test model (``BENCH_TOOLS`` tool
  calls, one model call each, then the answer), with the adapter against the same run without it
  (target ≤ 1.05×), and the added time divided by the run's model + tool calls; also against the
  same run with a do-nothing extension on the same seams (the framework's own price for any
  extension there, which no adapter can go below). Runs are timed in process CPU time (every
  thread), so the load of other processes on a shared machine does not count.

Rounds interleave the two sides; medians across rounds are printed. The project directory has no
hooks, so this measures the adapter itself (with a command hook per tool call, the added cost is that
hook's own spawn, see docs/performance.md). Env: BENCH_ROUNDS (7), BENCH_SEAM_N (2000 calls),
BENCH_RUNS (20 alternated runs per side and round), BENCH_TOOLS (5), BENCH_ONLY (comma-separated framework names).

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
class Sides:
    """Callables timed against each other: ``(with adapter, without)``."""

    model: tuple[Callable[[int], None], Callable[[int], None]]  # run the model seam n times
    tool: tuple[Callable[[int], None], Callable[[int], None]]  # run the tool seam n times
    run: tuple[Callable[[], None], Callable[[], None]]  # one whole agent run
    calls_per_run: int  # model calls + tool calls of one run
    noop: Callable[[], None] | None = None  # the run with a do-nothing extension on the same seams (the floor)


# ---- LangChain ------------------------------------------------------------------------------------
def langchain_sides(project: str) -> Sides:
    from langchain.agents import create_agent
    from langchain.agents.middleware.types import AgentMiddleware, ModelRequest, ModelResponse
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
    from langchain_core.outputs import ChatGeneration, ChatResult
    from langchain_core.tools import StructuredTool
    from langgraph.prebuilt.tool_node import ToolCallRequest

    from hookwise import HookSystem
    from hookwise.adapters.langchain import HookwiseMiddleware, HookwiseState

    class Loop(GenericFakeChatModel):
        """Calls the tool until it has TOOLS results after the last prompt, then answers."""

        def bind_tools(self, tools: Any, **kw: Any) -> Any:  # type: ignore[override]
            return self

        def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                      **kw: Any) -> ChatResult:
            done = sum(1 for m in messages if isinstance(m, ToolMessage))
            call = {"name": "shell", "args": {"cmd": "ls"}, "id": f"c{done}", "type": "tool_call"}
            msg = AIMessage("done") if done >= TOOLS else AIMessage("", tool_calls=[call])
            return ChatResult(generations=[ChatGeneration(message=msg)])

    def shell(cmd: str) -> str:
        """Run a command."""
        return "ok"

    class Noop(AgentMiddleware[Any, Any, Any]):
        """The same seams and state keys as HookwiseMiddleware, doing nothing: LangGraph's own cost."""

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
    mw = HookwiseMiddleware(HookSystem(project, trust_all=True))
    governed = create_agent(model, [tool], middleware=[mw])
    bare = create_agent(model, [tool])
    noop = create_agent(model, [tool], middleware=[Noop()])
    prompt = {"messages": [HumanMessage("go")]}

    state: dict[str, Any] = {"messages": [HumanMessage("go", id="h1")]}
    state.update(mw.before_agent(state, None) or {})  # type: ignore[arg-type]
    request = ModelRequest(model=model, messages=list(state["messages"]), tools=[tool], state=state)  # type: ignore[arg-type]
    response = ModelResponse(result=[AIMessage("hi")])
    tool_request = ToolCallRequest(tool_call={"name": "shell", "args": {"cmd": "ls"}, "id": "c1", "type": "tool_call"},
                                   tool=tool, state=state, runtime=None)  # type: ignore[arg-type]
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

    return Sides((model_with, model_bare), (tool_with, tool_bare),
                 (lambda: governed.invoke(prompt), lambda: bare.invoke(prompt)), 2 * TOOLS + 1,
                 lambda: noop.invoke(prompt))


# ---- pydantic-ai ------------------------------------------------------------------------------------
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

    from hookwise import HookSystem
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
        """The same hooks as HookwiseCapability, doing nothing: pydantic-ai's own cost of a capability."""

        async def for_run(self, ctx: Any) -> Any:
            return Noop()

        async def wrap_run(self, ctx: Any, *, handler: Any) -> Any:
            return await handler()

        async def wrap_model_request(self, ctx: Any, *, request_context: Any, handler: Any) -> Any:
            return await handler(request_context)

        async def wrap_tool_execute(self, ctx: Any, *, call: Any, tool_def: Any, args: Any, handler: Any) -> Any:
            return await handler(args)

    model = FunctionModel(answer)
    cap = HookwiseCapability(HookSystem(project, trust_all=True))
    governed = Agent(model, tools=[shell], capabilities=[cap])
    bare = Agent(model, tools=[shell])
    noop = Agent(model, tools=[shell], capabilities=[Noop()])

    run_cap = asyncio.run(cap.for_run(None))
    ctx = SimpleNamespace(messages=[ModelRequest(parts=[UserPromptPart("go")])], prompt="go", tool_call_approved=False)
    rc = ModelRequestContext(model=model, messages=list(ctx.messages), model_settings=None,
                             model_request_parameters=ModelRequestParameters())
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
                await run_cap.wrap_tool_execute(ctx, call=call, tool_def=None, args={"cmd": "ls"}, handler=tool_handler)
        asyncio.run(go())

    def tool_bare(n: int) -> None:
        async def go() -> None:
            for _ in range(n):
                await tool_handler({"cmd": "ls"})
        asyncio.run(go())

    return Sides((model_with, model_bare), (tool_with, tool_bare),
                 (lambda: governed.run_sync("go"), lambda: bare.run_sync("go")), 2 * TOOLS + 1,
                 lambda: noop.run_sync("go"))


# ---- Google ADK and OpenAI Agents ------------------------------------------------------------------
def _loop(n: int, step: Callable[[], Any]) -> None:
    async def go() -> None:
        for _ in range(n):
            await step()

    asyncio.run(go())


# ---- Google ADK -------------------------------------------------------------------------------------
def adk_sides(project: str) -> Sides:
    import logging

    from google.adk.agents import LlmAgent
    from google.adk.models.base_llm import BaseLlm
    from google.adk.models.llm_request import LlmRequest
    from google.adk.models.llm_response import LlmResponse
    from google.adk.runners import InMemoryRunner
    from google.genai import types

    from hookwise import HookSystem
    from hookwise.adapters.adk import HookwisePlugin

    logging.getLogger("google_adk").setLevel(logging.ERROR)

    def call() -> LlmResponse:
        return LlmResponse(content=types.Content(role="model", parts=[types.Part(
            function_call=types.FunctionCall(name="shell", args={"cmd": "ls"}))]))

    done = LlmResponse(content=types.Content(role="model", parts=[types.Part.from_text(text="done")]))

    class Loop(BaseLlm):  # type: ignore[misc]
        model: str = "loop"

        async def generate_content_async(self, llm_request: LlmRequest, stream: bool = False) -> Any:
            results = sum(1 for c in llm_request.contents for p in c.parts or [] if p.function_response)
            yield done if results >= TOOLS else call()

    def shell(cmd: str) -> dict[str, Any]:
        """Run a command."""
        return {"result": "ok"}

    plugin = HookwisePlugin(HookSystem(project, trust_all=True))
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        governed = InMemoryRunner(agent=LlmAgent(name="root", model=Loop(), tools=[shell]), plugins=[plugin])
        bare = InMemoryRunner(agent=LlmAgent(name="root", model=Loop(), tools=[shell]))

    def run(runner: Any) -> None:
        async def go() -> None:
            s = await runner.session_service.create_session(app_name=runner.app_name, user_id="u")
            msg = types.Content(role="user", parts=[types.Part.from_text(text="go")])
            async for _ in runner.run_async(user_id="u", session_id=s.id, new_message=msg):
                pass

        asyncio.run(go())

    ctx = SimpleNamespace(invocation_id="bench", session=SimpleNamespace(id="s"), agent_name="root",
                          function_call_id="c1", tool_confirmation=None)
    request = LlmRequest(contents=[types.Content(role="user", parts=[types.Part.from_text(text="go")])])
    response = done
    tool = SimpleNamespace(name="shell")

    async def model_with() -> None:
        await plugin.before_model_callback(callback_context=ctx, llm_request=request)
        await plugin.after_model_callback(callback_context=ctx, llm_response=response)
        plugin._invocations["bench"].turn.texts.clear()

    async def tool_with() -> None:
        args = {"cmd": "ls"}
        await plugin.before_tool_callback(tool=tool, tool_args=args, tool_context=ctx)
        await plugin.after_tool_callback(tool=tool, tool_args=args, tool_context=ctx, result={"result": "ok"})

    async def bare_step() -> None:
        return None

    return Sides((lambda n: _loop(n, model_with), lambda n: _loop(n, bare_step)),
                 (lambda n: _loop(n, tool_with), lambda n: _loop(n, bare_step)),
                 (lambda: run(governed), lambda: run(bare)), 2 * TOOLS + 1)


# ---- OpenAI Agents SDK ----------------------------------------------------------------------------------
def openai_agents_sides(project: str) -> Sides:
    from agents import Agent, ModelResponse, ModelSettings, RunConfig, Runner, Usage, function_tool
    from agents.models.interface import Model
    from agents.testing import assistant_message, function_call
    from agents.tool_context import ToolContext

    from hookwise import HookSystem
    from hookwise.adapters import openai_agents

    class Loop(Model):  # type: ignore[misc]
        async def get_response(self, system_instructions: Any, input: Any, *args: Any, **kw: Any) -> ModelResponse:
            results = sum(1 for i in input if isinstance(i, dict) and i.get("type") == "function_call_output") \
                if isinstance(input, list) else 0
            out = [assistant_message("done")] if results >= TOOLS else \
                [function_call("shell", {"cmd": "ls"}, call_id=f"c{results}")]
            return ModelResponse(output=out, usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kw: Any) -> Any:
            raise NotImplementedError

    @function_tool
    async def shell(cmd: str) -> str:  # async: no worker-thread hop blurring the per-call numbers
        """Run a command."""
        return "ok"

    offline = RunConfig(tracing_disabled=True)
    agent = Agent(name="a", model=Loop(), tools=[shell])
    governed, config = openai_agents.govern(agent, HookSystem(project, trust_all=True), run_config=offline)

    inner = Loop()
    wrapped = openai_agents.HookwiseModel(inner, openai_agents._governor(config))
    settings = ModelSettings()

    async def model_with() -> None:
        await wrapped.get_response(None, [{"role": "user", "content": "go"}], settings, [], None, [], None)
        wrapped.gov.turn.texts.clear()

    async def model_bare() -> None:
        await inner.get_response(None, [{"role": "user", "content": "go"}], settings, [], None, [], None)

    gtool = governed.tools[0]
    guard = gtool.tool_input_guardrails[0]
    tctx = ToolContext(context=None, tool_name="shell", tool_call_id="c1", tool_arguments='{"cmd": "ls"}')

    async def tool_with() -> None:
        await guard.guardrail_function(SimpleNamespace(context=tctx, agent=governed))
        await gtool.on_invoke_tool(tctx, '{"cmd": "ls"}')

    async def tool_bare() -> None:
        await shell.on_invoke_tool(tctx, '{"cmd": "ls"}')

    return Sides((lambda n: _loop(n, model_with), lambda n: _loop(n, model_bare)),
                 (lambda n: _loop(n, tool_with), lambda n: _loop(n, tool_bare)),
                 (lambda: Runner.run_sync(governed, "go", run_config=config),
                  lambda: Runner.run_sync(agent, "go", run_config=offline)), 2 * TOOLS + 1)


#: framework name -> (module that must be importable, how to build its sides)
FRAMEWORKS: dict[str, tuple[str, Callable[[str], Sides]]] = {
    "langchain": ("langchain.agents", langchain_sides),
    "pydantic-ai": ("pydantic_ai", pydantic_ai_sides),
    "adk": ("google.adk", adk_sides),
    "openai-agents": ("agents", openai_agents_sides),
}


def _per_call_us(fn: Callable[[int], None], n: int) -> float:
    t = time.perf_counter()
    fn(n)
    return (time.perf_counter() - t) / n * 1e6


def _run_ms(fn: Callable[[], None], runs: int) -> float:
    """CPU time of the whole process (every thread) per run: other processes' load does not count."""
    t = time.process_time()
    for _ in range(runs):
        fn()
    return (time.process_time() - t) / runs * 1e3


def measure(name: str, sides: Sides) -> dict[str, float]:
    for fn in (*sides.model, *sides.tool):  # warm up
        fn(50)
    for fn in (*sides.run, *([sides.noop] if sides.noop else [])):
        fn()
    model_add, tool_add, with_ms, bare_ms, ratios, noop_ratios = [], [], [], [], [], []
    for _ in range(ROUNDS):
        mw, mb = _per_call_us(sides.model[0], SEAM_N), _per_call_us(sides.model[1], SEAM_N)
        tw, tb = _per_call_us(sides.tool[0], SEAM_N), _per_call_us(sides.tool[1], SEAM_N)
        model_add.append(mw - mb)
        tool_add.append(tw - tb)
        pairs = []
        for i in range(RUNS):  # single runs alternated (order flipped every other pair): load bursts hit both sides
            first, second = (sides.run[1], sides.run[0]) if i % 2 == 0 else (sides.run[0], sides.run[1])
            a, b = _run_ms(first, 1), _run_ms(second, 1)
            pairs.append((b, a) if i % 2 == 0 else (a, b))
        w = statistics.median(p[0] for p in pairs)
        b = statistics.median(p[1] for p in pairs)
        with_ms.append(w)
        bare_ms.append(b)
        ratios.append(statistics.median(p[0] / p[1] for p in pairs))
        if sides.noop is not None:
            floor = [(_run_ms(sides.noop, 1), _run_ms(sides.run[0], 1)) for _ in range(RUNS)]
            noop_ratios.append(statistics.median(g / n for n, g in floor))
    w, b = statistics.median(with_ms), statistics.median(bare_ms)
    return {"model_us": statistics.median(model_add), "tool_us": statistics.median(tool_add),
            "with_ms": w, "bare_ms": b, "ratio": statistics.median(ratios),
            "per_call_us": (w - b) * 1e3 / sides.calls_per_run,
            "vs_noop": statistics.median(noop_ratios) if noop_ratios else float("nan")}


def main() -> int:
    only = {s.strip() for s in os.environ.get("BENCH_ONLY", "").split(",") if s.strip()}
    print(f"adapter overhead with no hook configured: {ROUNDS} rounds, seams {SEAM_N} calls, "
          f"runs of {TOOLS} tool calls ({RUNS} alternated per side and round); Python {sys.version.split()[0]}")
    print(f"{'framework':<14} {'+model call':>12} {'+tool call':>11} {'bare run':>10} {'with adapter':>13} "
          f"{'ratio':>7} {'+per call e2e':>14} {'vs no-op':>9}  met")
    missing = []
    with tempfile.TemporaryDirectory(prefix="hookwise-bench-adapters-") as project:
        for name, (module, build) in FRAMEWORKS.items():
            if only and name not in only:
                continue
            if importlib.util.find_spec(module.split(".")[0]) is None:
                missing.append(name)
                continue
            r = measure(name, build(project))
            met = r["model_us"] <= SEAM_TARGET_US and r["tool_us"] <= SEAM_TARGET_US and r["ratio"] <= E2E_TARGET
            print(f"{name:<14} {r['model_us']:>9.1f} µs {r['tool_us']:>8.1f} µs {r['bare_ms']:>7.2f} ms "
                  f"{r['with_ms']:>10.2f} ms {r['ratio']:>6.3f}× {r['per_call_us']:>11.1f} µs "
                  f"{r['vs_noop']:>8.3f}×  {'yes' if met else 'NO'}")
    if missing:
        print("not installed (skipped): " + ", ".join(missing))
    print(f"targets: ≤ {SEAM_TARGET_US:.0f} µs added per model call and per tool call; ≤ {E2E_TARGET}× the bare run")
    print("runs are timed in process CPU time; 'vs no-op': the adapter against a do-nothing extension on the same")
    print("seams (what the framework itself charges for any extension there)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
