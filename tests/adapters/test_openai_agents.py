"""The openai-agents adapter inside the real SDK Runner: agents.testing.ScriptedModel, real command
hooks, counting tools. Assertions are on tool invocation counts and on the calls the scripted model
recorded."""

from __future__ import annotations

import asyncio
import json
import warnings
from typing import Any

import pytest

pytest.importorskip(
    "agents.testing", reason="hookwise[openai-agents] is not installed (needs Python 3.11+)"
)

from agents import Agent, FunctionTool, RunConfig, Runner, function_tool  # noqa: E402
from agents.exceptions import InputGuardrailTripwireTriggered  # noqa: E402
from agents.testing import ModelStep, ScriptedModel, assistant_message, function_call  # noqa: E402

from hookwise.adapters import (
    AgentStopped,  # noqa: E402
    openai_agents,  # noqa: E402
)
from hookwise.host import verdicts  # noqa: E402
from hookwise.testing import assert_adapter_conformance  # noqa: E402
from hookwise.testing.conformance import Conversation, ToolCall  # noqa: E402

from ._kit import Hooks, Messages, Tools  # noqa: E402
from .harness_cases import *  # noqa: E402, F403 (its tests are collected and run here, with this module's kit)
from .harness_cases import Kit  # noqa: E402

OFFLINE = RunConfig(tracing_disabled=True)


def call(name: str, args: dict[str, Any], call_id: str, text: str | None = None) -> ModelStep:
    out = [assistant_message(text)] if text else []
    return ModelStep(output=[*out, function_call(name, args, call_id=call_id)])


def say(text: str) -> ModelStep:
    return ModelStep(output=[assistant_message(text)])


class Run:
    def __init__(self, hooks: Hooks, steps: list[ModelStep], **kw: Any) -> None:
        self.hooks = hooks
        self.tools = Tools()
        self.messages = Messages()
        self.model = ScriptedModel(steps)
        t = self.tools

        @function_tool
        def shell(cmd: str) -> str:
            """Run a shell command."""
            return t.hit("shell", cmd=cmd)

        @function_tool
        def echo(text: str) -> str:
            """Echo a text."""
            return t.hit("echo", text=text)

        self.agent = Agent(
            name="helper", model=self.model, tools=[shell, echo], instructions="You help."
        )
        self.kw = {"on_message": self.messages, "run_config": OFFLINE, **kw}
        self.system = hooks.system()
        self.result: Any = None

    def run(self, prompt: str) -> Any:
        self.result = openai_agents.run_sync(self.agent, prompt, self.system, **self.kw)
        return self.result

    prompt = run  # the name the shared cases use (harness_cases.py)

    def request_text(self, i: int) -> str:
        return json.dumps(self.model.calls[i].input, default=str)


@pytest.fixture
def kit() -> Kit:
    """This framework's harness, for the cases in harness_cases.py."""
    return Kit(Run, call, say)


# ---- BeforeTool ----------------------------------------------------------------------------------
def test_before_tool_stop_raises_agent_stopped(hooks: Hooks) -> None:
    hooks.on("BeforeTool", {"continue": False, "stopReason": "budget spent"}, matcher="shell")
    hooks.on("AfterAgent", {})
    r = Run(hooks, [call("shell", {"cmd": "ls"}, "c1"), say("never")])
    with pytest.raises(AgentStopped) as err:
        r.run("list")
    assert err.value.reason == "budget spent"
    assert r.tools.calls["shell"] == 0 and len(r.model.calls) == 1
    assert hooks.log("AfterAgent") == []
    assert r.messages.of("stop") == ["budget spent"]


@pytest.mark.slow
@pytest.mark.parametrize("ok", [True, False])
def test_ask_native_uses_interruptions(hooks: Hooks, ok: bool) -> None:
    hooks.on("BeforeTool", {"decision": "ask", "reason": "check first"}, matcher="shell")
    hooks.on("Notification", {})
    r = Run(hooks, [call("shell", {"cmd": "ls"}, "c1"), say("ok")])
    agent, config = openai_agents.govern(r.agent, r.system, ask="native", run_config=OFFLINE)

    async def go() -> Any:
        first = await Runner.run(agent, "list", run_config=config)
        assert [i.name for i in first.interruptions] == ["shell"]
        assert r.tools.calls["shell"] == 0 and len(hooks.log("Notification")) == 1
        state = first.to_state()
        (state.approve if ok else state.reject)(first.interruptions[0])
        return await Runner.run(agent, state, run_config=config)

    asyncio.run(go())
    assert r.tools.calls["shell"] == (1 if ok else 0)
    assert len(hooks.log("BeforeTool")) == 1
    assert len(r.model.calls) == 2
    if not ok:
        assert verdicts.CANCELLED in r.request_text(1)


# ---- AfterTool -----------------------------------------------------------------------------------
def test_after_tool_tail_call_answers_the_original_call(hooks: Hooks) -> None:
    hooks.on(
        "AfterTool",
        {"hookSpecificOutput": {"tailToolCallRequest": {"name": "echo", "args": {"text": "t"}}}},
        matcher="shell",
    )
    r = Run(hooks, [call("shell", {"cmd": "ls"}, "c1"), say("ok")])
    r.run("list")
    assert r.tools.calls == {"shell": 1, "echo": 1}
    out = [
        i
        for i in r.model.calls[1].input
        if isinstance(i, dict) and i.get("type") == "function_call_output"
    ]
    assert out[0]["call_id"] == "c1" and "echo:t" in str(out[0]["output"])


# ---- BeforeAgent ---------------------------------------------------------------------------------
def test_before_agent_block_trips_the_input_guardrail(hooks: Hooks) -> None:
    hooks.on("BeforeAgent", {"decision": "block", "reason": "off topic"})
    r = Run(hooks, [say("never")])
    with pytest.raises(InputGuardrailTripwireTriggered) as err:
        r.run("SECRET PROMPT")
    assert err.value.guardrail_result.output.output_info == "off topic"
    assert r.model.calls == ()
    assert r.messages.of("block") == ["off topic"]


def test_before_agent_stop_raises_before_the_model(hooks: Hooks) -> None:
    hooks.on("BeforeAgent", {"continue": False, "stopReason": "paused"})
    r = Run(hooks, [say("never")])
    with pytest.raises(AgentStopped):
        r.run("hi")
    assert r.model.calls == ()


@pytest.mark.slow
def test_before_agent_context_is_in_every_request_of_its_prompt_only(hooks: Hooks) -> None:
    hooks.on("BeforeAgent", [{"hookSpecificOutput": {"additionalContext": "branch main"}}, {}])
    r = Run(hooks, [call("shell", {"cmd": "ls"}, "c1"), say("ok"), say("second")])
    first = r.run("first")
    assert "branch main" in r.request_text(0) and "branch main" in r.request_text(1)
    assert "branch main" not in json.dumps(first.to_input_list(), default=str)
    r.run("second")
    assert "branch main" not in r.request_text(2)


# ---- AfterAgent ----------------------------------------------------------------------------------
@pytest.mark.slow
def test_after_agent_block_retries_with_the_reason(hooks: Hooks) -> None:
    hooks.on("AfterAgent", [{"decision": "block", "reason": "mention the tests"}, {}])
    r = Run(hooks, [say("draft"), say("final with tests")])
    result = r.run("write it")
    assert len(r.model.calls) == 2
    last = r.model.calls[1].input[-1]
    assert last == {"role": "user", "content": "mention the tests"}
    assert "draft" in r.request_text(1)
    fired = hooks.log("AfterAgent")
    assert [f["stop_hook_active"] for f in fired] == [False, True]
    assert fired[1]["prompt_response"] == "draft\nfinal with tests"
    assert result.final_output == "final with tests"


@pytest.mark.slow
def test_a_later_prompt_after_a_retry_starts_fresh(hooks: Hooks) -> None:
    hooks.on("AfterAgent", [{"decision": "block", "reason": "again"}, {}])
    r = Run(hooks, [say("a1"), say("a2"), say("b1")])
    agent, config = openai_agents.govern(r.agent, r.system, run_config=OFFLINE)
    first = asyncio.run(openai_agents.run(agent, "p1", run_config=config))
    asyncio.run(
        openai_agents.run(
            agent, [*first.to_input_list(), {"role": "user", "content": "p2"}], run_config=config
        )
    )
    fired = hooks.log("AfterAgent")
    assert [(f["prompt"], f["stop_hook_active"]) for f in fired] == [
        ("p1", False),
        ("p1", True),
        ("p2", False),
    ]
    assert fired[2]["prompt_response"] == "b1"


@pytest.mark.slow
def test_after_agent_retries_are_capped(hooks: Hooks) -> None:
    hooks.on("AfterAgent", {"decision": "block", "reason": "again"})
    r = Run(hooks, [say("a"), say("b"), say("c"), say("d")], max_agent_retries=2)
    r.run("go")
    assert len(r.model.calls) == 3
    assert len(hooks.log("AfterAgent")) == 3
    assert any("giving up after 2 retries" in s for s in r.messages.of("stop"))


@pytest.mark.slow
def test_after_agent_retry_with_clear_context(hooks: Hooks) -> None:
    hooks.on(
        "AfterAgent",
        [
            {
                "decision": "block",
                "reason": "start over",
                "hookSpecificOutput": {"clearContext": True},
            },
            {},
        ],
    )
    r = Run(hooks, [say("first answer"), say("second answer")])
    r.run("FIRST PROMPT")
    assert r.model.calls[1].input == [{"role": "user", "content": "start over"}]


@pytest.mark.slow
def test_after_agent_clear_context_with_and_without_a_session(hooks: Hooks) -> None:
    from agents import SQLiteSession

    stop = {"continue": False, "stopReason": "done", "hookSpecificOutput": {"clearContext": True}}
    hooks.on("AfterAgent", stop)
    r = Run(hooks, [say("a"), say("b")])
    r.run("no session")
    assert any("'clearContext' is not supported" in w for w in r.messages.of("warning"))
    session = SQLiteSession("s1")
    r.kw["session"] = session
    r.run("with session")
    assert asyncio.run(session.get_items()) == []


def test_after_agent_retry_needs_run_with_plain_runner(hooks: Hooks) -> None:
    hooks.on("AfterAgent", {"decision": "block", "reason": "again"})
    r = Run(hooks, [say("a")])
    agent, config = openai_agents.govern(
        r.agent, r.system, on_message=r.messages, run_config=OFFLINE
    )
    result = Runner.run_sync(agent, "go", run_config=config)
    assert result.final_output == "a" and len(r.model.calls) == 1
    assert any("cannot retry" in w for w in r.messages.of("warning"))


# ---- BeforeModel / AfterModel / BeforeToolSelection ----------------------------------------------
def test_before_model_rewrites_messages_and_config(hooks: Hooks) -> None:
    hooks.on(
        "BeforeModel",
        {
            "hookSpecificOutput": {
                "llm_request": {
                    "messages": [{"role": "user", "content": "REWRITTEN"}],
                    "config": {"temperature": 0.25},
                }
            }
        },
    )
    r = Run(hooks, [say("ok")])
    r.run("original")
    assert r.model.calls[0].input == [{"role": "user", "content": "REWRITTEN"}]
    assert r.model.calls[0].model_settings.temperature == 0.25
    assert hooks.log("BeforeModel")[0]["llm_request"]["messages"] == [
        {"role": "user", "content": "original"}
    ]


def test_before_model_top_k_is_named_in_a_warning(hooks: Hooks) -> None:
    hooks.on(
        "BeforeModel", {"hookSpecificOutput": {"llm_request": {"config": {"topK": 3, "topP": 0.5}}}}
    )
    r = Run(hooks, [say("ok")])
    r.run("hi")
    assert r.model.calls[0].model_settings.top_p == 0.5
    assert any("'llm_request.config.topK'" in w for w in r.messages.of("warning"))


def test_before_model_synthetic_response_skips_the_model(hooks: Hooks) -> None:
    hooks.on(
        "BeforeModel",
        {
            "hookSpecificOutput": {
                "llm_response": {
                    "candidates": [{"content": {"role": "model", "parts": ["cached answer"]}}]
                }
            }
        },
    )
    r = Run(hooks, [])
    result = r.run("hi")
    assert r.model.calls == ()
    assert result.final_output == "cached answer"


@pytest.mark.slow
def test_before_model_answers_end_the_turn_and_fire_after_agent(hooks: Hooks) -> None:
    hooks.on(
        "BeforeModel",
        [
            {
                "hookSpecificOutput": {
                    "llm_response": {
                        "candidates": [{"content": {"role": "model", "parts": ["canned"]}}]
                    }
                }
            },
            {"decision": "block", "reason": "b"},
        ],
    )
    hooks.on("AfterAgent", {})
    r = Run(hooks, [])
    r.run("one")
    r.run("two")
    assert r.model.calls == ()
    assert [f["prompt_response"] for f in hooks.log("AfterAgent")] == [
        "canned",
        "[no response text]",
    ]


def test_before_model_stop(hooks: Hooks) -> None:
    hooks.on("BeforeModel", {"continue": False, "stopReason": "no model today"})
    r = Run(hooks, [say("never")])
    with pytest.raises(AgentStopped):
        r.run("hi")
    assert r.model.calls == ()


def test_before_model_malformed_request_is_a_warning(hooks: Hooks) -> None:
    hooks.on("BeforeModel", {"hookSpecificOutput": {"llm_request": {"messages": "not a list"}}})
    r = Run(hooks, [say("ok")])
    r.run("unchanged")
    assert r.model.calls[0].input == [{"role": "user", "content": "unchanged"}]
    assert any("llm_request" in w for w in r.messages.of("warning"))


def test_after_model_replaces_text_and_keeps_calls(hooks: Hooks) -> None:
    hooks.on(
        "AfterModel",
        [
            {
                "hookSpecificOutput": {
                    "llm_response": {
                        "candidates": [{"content": {"role": "model", "parts": ["REPLACED"]}}]
                    }
                }
            },
            {},
        ],
    )
    r = Run(hooks, [call("shell", {"cmd": "ls"}, "c1", text="orig text"), say("ok")])
    r.run("go")
    assert r.tools.calls["shell"] == 1
    assert "REPLACED" in r.request_text(1) and "orig text" not in r.request_text(1)
    assert len(hooks.log("AfterModel")) == 2


def test_after_model_deny_discards_and_ends_the_turn(hooks: Hooks) -> None:
    hooks.on("AfterModel", {"decision": "deny", "reason": "unsafe"})
    r = Run(hooks, [call("shell", {"cmd": "ls"}, "c1", text="bad text"), say("never")])
    result = r.run("go")
    assert r.tools.calls["shell"] == 0 and len(r.model.calls) == 1
    assert result.final_output == ""
    assert r.messages.of("block") == ["unsafe"]


def test_before_tool_selection_filters_and_enforces(hooks: Hooks) -> None:
    hooks.on(
        "BeforeToolSelection",
        {"hookSpecificOutput": {"toolConfig": {"mode": "ANY", "allowedFunctionNames": ["echo"]}}},
    )
    r = Run(
        hooks,
        [call("shell", {"cmd": "ls"}, "c1"), say("ok")],
        run_config=RunConfig(tracing_disabled=True, model_settings=None),
    )
    r.run("go")
    first = r.model.calls[0]
    assert [t.name for t in first.tools] == [
        "echo"
    ] and first.model_settings.tool_choice == "required"
    assert r.tools.calls["shell"] == 0
    assert "Tool call refused" in r.request_text(1) and "BeforeToolSelection" in r.request_text(1)


# ---- call styles, lifecycle, failures, aliases ---------------------------------------------------
@pytest.mark.slow
def test_async_and_streamed_runs(hooks: Hooks) -> None:
    hooks.on("BeforeTool", {"decision": "deny", "reason": "no"}, matcher="shell")
    hooks.on(
        "AfterModel",
        {
            "hookSpecificOutput": {
                "llm_response": {
                    "candidates": [{"content": {"role": "model", "parts": ["STREAM REPLACED"]}}]
                }
            }
        },
    )
    r = Run(
        hooks,
        [
            call("shell", {"cmd": "ls"}, "c1"),
            say("ok"),
            call("shell", {"cmd": "ls"}, "c2"),
            say("ok"),
        ],
    )

    async def go() -> Any:
        await openai_agents.run(r.agent, "async", r.system, run_config=OFFLINE)
        streamed = openai_agents.run_streamed(r.agent, "stream", r.system, run_config=OFFLINE)
        async for _ in streamed.stream_events():
            pass
        return streamed

    streamed = asyncio.run(go())
    assert r.tools.calls["shell"] == 0
    assert "Tool execution blocked: no" in r.request_text(3)
    assert streamed.final_output == "STREAM REPLACED"


def test_session_start_and_end(hooks: Hooks) -> None:
    hooks.on("SessionStart", {"hookSpecificOutput": {"additionalContext": "welcome"}})
    hooks.on("SessionEnd", {})
    r = Run(hooks, [say("a")])
    r.run("one")
    assert [e["source"] for e in hooks.log("SessionStart")] == ["startup"]
    assert [e["reason"] for e in hooks.log("SessionEnd")] == ["exit"]
    assert "welcome" in r.request_text(0)


def test_govern_does_not_mutate_the_callers_agent(hooks: Hooks) -> None:
    r = Run(hooks, [])
    before = [(t.name, t.on_invoke_tool) for t in r.agent.tools if isinstance(t, FunctionTool)]
    openai_agents.govern(r.agent, r.system, ask="native")
    assert [
        (t.name, t.on_invoke_tool) for t in r.agent.tools if isinstance(t, FunctionTool)
    ] == before
    assert r.agent.input_guardrails == [] and r.agent.output_guardrails == []


# ---- conformance ---------------------------------------------------------------------------------
def _drive(hooks_system: Any, conversation: Conversation) -> None:
    steps = []
    n = 0
    for turn in conversation.turns:
        out: list[Any] = []
        for item in turn:
            if isinstance(item, ToolCall):
                n += 1
                out.append(function_call(item.name, item.args, call_id=f"call-{n}"))
            else:
                out.append(assistant_message(item))
        steps.append(ModelStep(output=out))

    def make(tool: Any) -> FunctionTool:
        async def invoke(_ctx: Any, args_json: str) -> str:
            return str(tool.result(json.loads(args_json).get(tool.param)))

        schema = {
            "type": "object",
            "properties": {tool.param: {"type": "string"}},
            "required": [tool.param],
            "additionalProperties": False,
        }
        return FunctionTool(
            name=tool.name,
            description=tool.description,
            params_json_schema=schema,
            on_invoke_tool=invoke,
        )

    agent = Agent(
        name="helper", model=ScriptedModel(steps), tools=[make(t) for t in conversation.tools]
    )
    openai_agents.run_sync(agent, conversation.prompt, hooks_system, run_config=OFFLINE)


def test_conformance_with_the_reference_host() -> None:
    assert_adapter_conformance(_drive)


# ---- the shared scenario suite -------------------------------------------------------------------
def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def _messages(items: Any, system: str | None = None) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = [("system", system)] if system else []
    for raw in [items] if isinstance(items, str) else list(items):
        item = (
            raw
            if isinstance(raw, dict)
            else (
                raw.model_dump(exclude_unset=True)
                if hasattr(raw, "model_dump")
                else {"role": "user", "content": str(raw)}
            )
        )
        kind = item.get("type", "message")
        if kind == "function_call_output":
            out.append(("tool", _text(item.get("output"))))
        elif kind == "message" and item.get("role") in ("user", "system", "developer"):
            out.append(("system" if item["role"] != "user" else "user", _text(item.get("content"))))
        elif kind == "message" and item.get("role") == "assistant":
            text = _text(item.get("content"))
            if text:
                out.append(("model", text))
    return out


class OpenAIAgentsDriver:
    name = "openai-agents"

    def __init__(self, mode: str) -> None:
        self.mode = (
            mode  # run (hookwise's run()) / streamed (Runner.run_streamed on the governed pair)
        )

    def run(
        self,
        hooks: Any,
        turns: Any,
        prompts: Any,
        *,
        ask: Any = "deny",
        native_answer: bool | None = None,
        max_agent_retries: int = 8,
    ) -> Any:
        from agents.exceptions import InputGuardrailTripwireTriggered as Blocked

        from .scenarios import Request
        from .scenarios import Run as ScenarioRun

        steps = []
        n = 0
        for turn in turns:
            out: list[Any] = []
            for t in turn:
                n += 1
                out.append(
                    function_call(t.name, dict(t.args), call_id=f"call-{n}")
                    if isinstance(t, ToolCall)
                    else assistant_message(t)
                )
            steps.append(ModelStep(output=out))
        model = ScriptedModel(steps)
        calls: dict[str, list[dict[str, Any]]] = {}
        messages: list[tuple[str, str]] = []

        @function_tool
        def shell(cmd: str) -> str:
            """Run a shell command."""
            calls.setdefault("shell", []).append({"cmd": cmd})
            return f"shell:{cmd}"

        @function_tool
        def echo(text: str) -> str:
            """Echo a text."""
            calls.setdefault("echo", []).append({"text": text})
            return f"echo:{text}"

        agent, config = openai_agents.govern(
            Agent(name="helper", model=model, tools=[shell, echo]),
            hooks,
            ask="native" if native_answer is not None else ask,
            on_message=lambda k, t: messages.append((k, t)),
            max_agent_retries=max_agent_retries,
            run_config=OFFLINE,
        )
        surfaced: list[dict[str, Any]] = []
        history: list[Any] = []
        stop: str | None = None
        raised = False
        output = ""

        async def one(inp: Any) -> Any:
            if self.mode == "streamed":
                res = Runner.run_streamed(agent, inp, run_config=config)
                async for _ in res.stream_events():
                    pass
                return res
            return await openai_agents.run(agent, inp, run_config=config)

        async def go() -> None:
            nonlocal history, stop, raised, output
            for p in prompts:
                inp: Any = [*history, {"role": "user", "content": p}]
                try:
                    result = await one(inp)
                    while result.interruptions and native_answer is not None:
                        surfaced.extend({"tool": i.name} for i in result.interruptions)
                        state = result.to_state()
                        for i in result.interruptions:
                            (state.approve if native_answer else state.reject)(i)
                        result = await Runner.run(agent, state, run_config=config)
                    history = result.to_input_list()
                    output = str(result.final_output or "")
                except AgentStopped as exc:
                    stop, raised = exc.reason, True
                    data = getattr(exc, "run_data", None)
                    if data is not None:
                        history = [
                            *([data.input] if isinstance(data.input, str) else data.input),
                            *(i.to_input_item() for i in data.new_items),
                        ]
                    break
                except Blocked:
                    continue
            await openai_agents.end_session(config)

        asyncio.run(go())
        if stop is None:
            stops = [t for k, t in messages if k == "stop"]
            stop = stops[-1] if stops else None
        requests = [
            Request(
                _messages(c.input, c.system_instructions),
                [t.name for t in c.tools],
                c.model_settings.tool_choice not in (None, "auto", "none"),
                {
                    k: v
                    for k, v in (
                        ("temperature", c.model_settings.temperature),
                        ("maxOutputTokens", c.model_settings.max_tokens),
                        ("topP", c.model_settings.top_p),
                    )
                    if v is not None
                },
            )
            for c in model.calls
        ]
        return ScenarioRun(
            requests, calls, messages, output, _messages(history), stop, raised, surfaced
        )


def _scenarios() -> list[Any]:
    from .scenarios import SCENARIOS

    return SCENARIOS


@pytest.mark.slow
@pytest.mark.parametrize("scenario", _scenarios(), ids=lambda s: s.__name__)
def test_scenario(scenario: Any, adapter_env: Any) -> None:
    scenario(OpenAIAgentsDriver("run"), adapter_env)


@pytest.mark.slow
@pytest.mark.parametrize(
    "scenario",
    [
        s
        for s in _scenarios()
        if s.__name__
        in (
            "before_tool_rewrite",
            "before_tool_ask_native_approve",
            "before_model_synthetic_answer",
            "after_model_replace_keeps_tool_calls",
            "before_tool_selection",
        )
    ],
    ids=lambda s: s.__name__,
)
def test_streamed_scenario(scenario: Any, adapter_env: Any) -> None:
    scenario(OpenAIAgentsDriver("streamed"), adapter_env)


def test_handoff_agents_are_governed_and_hosted_tools_named(hooks: Hooks) -> None:
    from agents import WebSearchTool

    hooks.on(
        "BeforeTool",
        {"decision": "deny", "reason": "not in the specialist either"},
        matcher="shell",
    )
    r = Run(hooks, [])
    specialist = Agent(name="specialist", model=r.model, tools=list(r.agent.tools))
    front = Agent(name="front", model=r.model, tools=[WebSearchTool()], handoffs=[specialist])
    r.model.extend(
        [
            ModelStep(output=[function_call("transfer_to_specialist", {}, call_id="h1")]),
            call("shell", {"cmd": "ls"}, "c1"),
            say("ok"),
        ]
    )
    result = openai_agents.run_sync(
        front, "go", r.system, on_message=r.messages, run_config=OFFLINE
    )
    assert result.last_agent.name == "specialist"
    assert r.tools.calls["shell"] == 0
    assert "not in the specialist either" in r.request_text(2)
    assert any("WebSearchTool" in w for w in r.messages.of("warning"))


def test_allowed_function_names_may_use_the_alias_or_the_framework_name(hooks: Hooks) -> None:
    hooks.on(
        "BeforeToolSelection",
        {
            "hookSpecificOutput": {
                "toolConfig": {"mode": "ANY", "allowedFunctionNames": ["run_shell_command", "echo"]}
            }
        },
    )
    r = Run(
        hooks,
        [call("shell", {"cmd": "ls"}, "c1"), say("ok")],
        tool_aliases={"shell": "run_shell_command"},
    )
    r.run("go")
    assert sorted(t.name for t in r.model.calls[0].tools) == ["echo", "shell"]
    assert r.tools.calls["shell"] == 1


# ---- what govern() adds (docs/adapters.md "Cost") ------------------------------------------
def test_no_hook_configured_governs_nothing(hooks: Hooks) -> None:
    r = Run(hooks, [call("shell", {"cmd": "ls"}, "c1"), say("done")])
    governed, config = openai_agents.govern(r.agent, r.system, run_config=OFFLINE)
    assert governed is r.agent  # no guardrail, no model or tool wrapper: nothing to add
    assert (
        config is not OFFLINE
        and config.call_model_input_filter is None
        and config.tool_error_formatter is None
    )
    assert config.model_provider is OFFLINE.model_provider and config.model is None
    result = Runner.run_sync(governed, "list", run_config=config)
    assert result.final_output == "done" and r.tools.calls["shell"] == 1
    asyncio.run(openai_agents.end_session(config))


def test_govern_adds_only_the_parts_of_configured_events(hooks: Hooks) -> None:
    hooks.on("BeforeTool", {"decision": "deny", "reason": "no shells"}, matcher="shell")
    r = Run(hooks, [call("shell", {"cmd": "ls"}, "c1"), say("ok")])
    governed, config = openai_agents.govern(r.agent, r.system, run_config=OFFLINE)
    assert [g.name for g in governed.input_guardrails] == [
        "hookwise-before-agent"
    ]  # each run's state
    assert (
        governed.output_guardrails == [] and governed.model is r.model
    )  # no AfterAgent / model hook
    assert config.call_model_input_filter is None  # no SessionStart / BeforeAgent hook
    shell = next(t for t in governed.tools if isinstance(t, FunctionTool) and t.name == "shell")
    assert [g.name for g in shell.tool_input_guardrails or []] == ["hookwise-before-tool"]
    Runner.run_sync(governed, "clean up", run_config=config)
    assert r.tools.calls["shell"] == 0 and "Tool execution blocked: no shells" in r.request_text(1)


def test_hosted_tools_are_named_only_when_tool_hooks_exist(hooks: Hooks) -> None:
    from agents import WebSearchTool

    r = Run(hooks, [])
    hooks.on("BeforeAgent", {})
    front = Agent(name="front", model=r.model, tools=[WebSearchTool()])
    openai_agents.govern(front, r.system, on_message=r.messages)
    assert r.messages.of("warning") == []  # no tool hook: no tool call escapes one
    hooks.on("AfterTool", {}, matcher="web_search")
    r.system.reload()
    openai_agents.govern(front, r.system, on_message=r.messages)
    assert any("WebSearchTool" in w for w in r.messages.of("warning"))


def test_hooks_configured_after_govern_are_named_or_served_with_seams_all(hooks: Hooks) -> None:
    r = Run(
        hooks,
        [
            call("shell", {"cmd": "ls"}, "c1"),
            say("ok"),
            call("shell", {"cmd": "ls"}, "c2"),
            say("ok"),
        ],
    )
    lazy = openai_agents.govern(r.agent, r.system, on_message=r.messages, run_config=OFFLINE)
    eager = openai_agents.govern(r.agent, r.system, run_config=OFFLINE, seams="all")
    hooks.on("BeforeTool", {"decision": "deny", "reason": "no shells"}, matcher="shell")
    r.system.reload()
    Runner.run_sync(lazy[0], "list", run_config=lazy[1])
    assert r.tools.calls["shell"] == 1  # this pair registered no tool seam
    asyncio.run(openai_agents.end_session(lazy[1]))
    warnings = r.messages.of("warning")
    assert len(warnings) == 1 and "BeforeTool hooks were configured after" in warnings[0]
    Runner.run_sync(eager[0], "list", run_config=eager[1])
    assert r.tools.calls["shell"] == 1 and len(hooks.log("BeforeTool")) == 1


def _default_loop() -> asyncio.AbstractEventLoop:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return asyncio.get_event_loop_policy().get_event_loop()


def test_run_sync_runs_on_the_thread_default_loop(hooks: Hooks) -> None:
    """As Runner.run_sync: the thread's default loop, kept open (loop-bound SDK helpers keep
    working)."""
    r = Run(hooks, [say("one"), say("two")])
    assert r.run("first").final_output == "one"
    loop = _default_loop()
    assert r.run("second").final_output == "two"
    assert _default_loop() is loop and not loop.is_closed()

    async def inside() -> None:
        openai_agents.run_sync(r.agent, "third", r.system, run_config=OFFLINE)

    with pytest.raises(RuntimeError, match="await openai_agents.run"):
        asyncio.run(inside())


# ---- issue 25: the customer-service example (handoff objects with callbacks) ---------------------
def _customer_service(r: Run, handed: list[str]) -> Agent[Any]:
    """Triage hands off through ``handoff(agent=…, on_handoff=…, tool_name_override=…)`` objects, as
    the SDK's customer_service example does; the seat agent hands back the same way."""
    from agents import handoff

    t = r.tools

    @function_tool
    def update_seat(confirmation_number: str, new_seat: str) -> str:
        """Update the seat for a given confirmation number."""
        return t.hit("update_seat", confirmation_number=confirmation_number, new_seat=new_seat)

    async def on_seat_booking_handoff(ctx: Any) -> None:
        handed.append("seat")

    triage = Agent(name="Triage Agent", model=r.model, instructions="Route the customer.")
    seat = Agent(
        name="Seat Booking Agent",
        model=r.model,
        tools=[update_seat],
        handoffs=[handoff(agent=triage, tool_name_override="back_to_triage")],
    )
    triage.handoffs = [
        handoff(
            agent=seat,
            on_handoff=on_seat_booking_handoff,
            tool_name_override="transfer_to_seat_booking",
        )
    ]
    return triage


def test_agents_behind_handoff_objects_are_governed(hooks: Hooks) -> None:
    hooks.on(
        "BeforeTool",
        {"decision": "deny", "reason": "seat changes are closed"},
        matcher="update_seat",
    )
    r = Run(hooks, [])
    handed: list[str] = []
    triage = _customer_service(r, handed)
    r.model.extend(
        [
            ModelStep(output=[function_call("transfer_to_seat_booking", {}, call_id="h1")]),
            call("update_seat", {"confirmation_number": "ABC", "new_seat": "14F"}, "c1"),
            say("sorry, I could not change it"),
        ]
    )
    result = openai_agents.run_sync(triage, "change my seat to 14F", r.system, **r.kw)
    assert handed == ["seat"] and result.last_agent.name == "Seat Booking Agent"
    assert r.tools.calls["update_seat"] == 0
    assert "Tool execution blocked: seat changes are closed" in r.request_text(2)
    assert [i["tool_name"] for i in hooks.log("BeforeTool")] == ["update_seat"]
    assert not any("Handoff object" in w for w in r.messages.of("warning"))


def test_fail_closed_tool_hooks_refuse_to_run_ungoverned_tools(hooks: Hooks) -> None:
    from agents import WebSearchTool

    hooks.on("BeforeTool", {"decision": "allow"}, failClosed=True)
    r = Run(hooks, [say("never")])
    seat = Agent(name="seat", model=r.model, tools=[WebSearchTool()])
    front = Agent(name="front", model=r.model, handoffs=[seat])
    with pytest.raises(openai_agents.UngovernedError, match="WebSearchTool|web_search"):
        openai_agents.run_sync(front, "go", r.system, **r.kw)
    assert not r.model.calls  # nothing ran


def test_a_streamed_run_says_it_cannot_retry_without_pointing_at_run(hooks: Hooks) -> None:
    hooks.on("AfterAgent", {"decision": "block", "reason": "add a summary"})
    r = Run(hooks, [say("streamed answer"), say("never asked")])

    async def go() -> Any:
        streamed = openai_agents.run_streamed(r.agent, "stream", r.system, **r.kw)
        async for _ in streamed.stream_events():
            pass
        return streamed

    streamed = asyncio.run(go())
    assert streamed.final_output == "streamed answer" and len(r.model.calls) == 1
    warned = [w for w in r.messages.of("warning") if "another try" in w]
    assert len(warned) == 1 and "streamed run" in warned[0]
    assert "plain Runner.run" not in warned[0]


def test_before_agent_context_reaches_the_model_as_a_developer_message(hooks: Hooks) -> None:
    hooks.on("BeforeAgent", {"hookSpecificOutput": {"additionalContext": "TEAM-RULES"}})
    hooks.on("BeforeModel", {})
    r = Run(hooks, [call("echo", {"text": "hi"}, "c1"), say("done")])
    r.run("say hi")
    for sent in r.model.calls:
        items = [dict(i) if isinstance(i, dict) else i.model_dump() for i in sent.input]
        users = [i for i in items if i.get("role") == "user"]
        assert users and all("TEAM-RULES" not in json.dumps(u) for u in users)
        dev = [i for i in items if i.get("role") == "developer"]
        assert len(dev) == 1 and "TEAM-RULES" in json.dumps(dev[0])
    # hooks see the context with the prompt, where the reference host puts it
    seen = hooks.log("BeforeModel")[0]["llm_request"]["messages"]
    assert seen[0]["role"] == "user" and "TEAM-RULES" in seen[0]["content"]
    assert r.tools.calls["echo"] == 1
