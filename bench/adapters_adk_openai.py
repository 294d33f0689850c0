#!/usr/bin/env python3
"""Adapter cost with no hook configured, for Google ADK and the OpenAI Agents SDK (one process).

Same method and targets as ``bench/adapters.py`` (whose ``FRAMEWORKS`` table these two builders join
when it is present): per framework,

* **seam** — the adapter's model seam and tool seam called directly on the framework's own objects,
  against the bare call: added cost per model call and per tool call (target ≤ 50 µs each);
* **end to end** — a whole run with the framework's offline model (``BENCH_TOOLS`` tool calls, then the
  answer) with the adapter against the same run without it (target ≤ 1.05×).

The project has no hooks, so this measures the adapter itself. Env: BENCH_ROUNDS, BENCH_SEAM_N, BENCH_RUNS,
BENCH_TOOLS, BENCH_ONLY (as in ``bench/adapters.py``).

    python bench/adapters_adk_openai.py

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
    """Callables timed against each other: ``(with adapter, without)`` (the shape of bench/adapters.py)."""

    model: tuple[Callable[[int], None], Callable[[int], None]]
    tool: tuple[Callable[[int], None], Callable[[int], None]]
    run: tuple[Callable[[], None], Callable[[], None]]
    calls_per_run: int


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


MINE: dict[str, tuple[str, Callable[[str], Sides]]] = {
    "adk": ("google.adk", adk_sides),
    "openai-agents": ("agents", openai_agents_sides),
}


# ---- measuring (as bench/adapters.py) ---------------------------------------------------------------------
def _per_call_us(fn: Callable[[int], None], n: int) -> float:
    t = time.perf_counter()
    fn(n)
    return (time.perf_counter() - t) / n * 1e6


def _run_ms(fn: Callable[[], None], runs: int) -> float:
    t = time.perf_counter()
    for _ in range(runs):
        fn()
    return (time.perf_counter() - t) / runs * 1e3


def measure(sides: Sides) -> dict[str, float]:
    for fn in (*sides.model, *sides.tool):
        fn(50)
    for f in sides.run:
        f()
    model_add, tool_add, with_ms, bare_ms, ratios = [], [], [], [], []
    for _ in range(ROUNDS):
        model_add.append(_per_call_us(sides.model[0], SEAM_N) - _per_call_us(sides.model[1], SEAM_N))
        tool_add.append(_per_call_us(sides.tool[0], SEAM_N) - _per_call_us(sides.tool[1], SEAM_N))
        b1 = _run_ms(sides.run[1], RUNS)
        w = _run_ms(sides.run[0], RUNS)
        b = (b1 + _run_ms(sides.run[1], RUNS)) / 2
        with_ms.append(w)
        bare_ms.append(b)
        ratios.append(w / b)
    w, b = statistics.median(with_ms), statistics.median(bare_ms)
    return {"model_us": statistics.median(model_add), "tool_us": statistics.median(tool_add), "with_ms": w,
            "bare_ms": b, "ratio": statistics.median(ratios), "per_call_us": (w - b) * 1e3 / sides.calls_per_run}


def main() -> int:
    only = {s.strip() for s in os.environ.get("BENCH_ONLY", "").split(",") if s.strip()}
    print(f"adapter overhead with no hook configured: {ROUNDS} rounds, seams {SEAM_N} calls, "
          f"runs of {TOOLS} tool calls ({RUNS} per side and round); Python {sys.version.split()[0]}")
    print(f"{'framework':<14} {'+model call':>12} {'+tool call':>11} {'bare run':>10} {'with adapter':>13} "
          f"{'ratio':>7} {'+per call e2e':>14}  met")
    missing = []
    with tempfile.TemporaryDirectory(prefix="hookwise-bench-adapters-") as project:
        for name, (module, build) in MINE.items():
            if only and name not in only:
                continue
            if importlib.util.find_spec(module.split(".")[0]) is None:
                missing.append(name)
                continue
            r = measure(build(project))
            met = r["model_us"] <= SEAM_TARGET_US and r["tool_us"] <= SEAM_TARGET_US and r["ratio"] <= E2E_TARGET
            print(f"{name:<14} {r['model_us']:>9.1f} µs {r['tool_us']:>8.1f} µs {r['bare_ms']:>7.2f} ms "
                  f"{r['with_ms']:>10.2f} ms {r['ratio']:>6.3f}× {r['per_call_us']:>11.1f} µs  "
                  f"{'yes' if met else 'NO'}")
    if missing:
        print("not installed (skipped): " + ", ".join(missing))
    print(f"targets: ≤ {SEAM_TARGET_US:.0f} µs added per model call and per tool call; ≤ {E2E_TARGET}× the bare run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
