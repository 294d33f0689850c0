"""The ADK adapter inside the real ADK Runner: a scripted BaseLlm, real command hooks, counting
tools.

Each test asserts on what ADK really did (tool invocation counts, the requests the scripted model
received), not on what the adapter reports.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from typing import Any

import pytest

pytest.importorskip("google.adk", reason="hookwise[adk] is not installed (needs Python 3.11+)")
pytestmark = pytest.mark.filterwarnings(
    "ignore:The `plugins` argument is deprecated:DeprecationWarning"
)

from google.adk.agents import LlmAgent  # noqa: E402
from google.adk.models.base_llm import BaseLlm  # noqa: E402
from google.adk.models.llm_request import LlmRequest  # noqa: E402
from google.adk.models.llm_response import LlmResponse  # noqa: E402
from google.adk.runners import InMemoryRunner  # noqa: E402
from google.genai import types  # noqa: E402

from _tiers import first_quick  # noqa: E402
from hookwise.adapters.adk import HookwisePlugin  # noqa: E402
from hookwise.host import verdicts  # noqa: E402
from hookwise.testing import assert_adapter_conformance  # noqa: E402
from hookwise.testing.conformance import Conversation, ToolCall  # noqa: E402

from ._kit import Hooks, Messages, Tools  # noqa: E402
from .harness_cases import *  # noqa: E402, F403 (its tests are collected and run here, with this module's kit)
from .harness_cases import Kit  # noqa: E402


class ScriptedLlm(BaseLlm):  # type: ignore[misc]
    """Answers the N-th call with the N-th scripted LlmResponse; records every request it
    received."""

    model: str = "scripted"
    script: list[Any] = []
    requests: list[dict[str, Any]] = []

    async def generate_content_async(self, llm_request: LlmRequest, stream: bool = False) -> Any:
        self.requests.append(llm_request.model_dump(mode="json", by_alias=True, exclude_none=True))
        if not self.script:
            raise AssertionError("the scripted model ran out of answers")
        yield self.script.pop(0)


def call(
    name: str, args: dict[str, Any], call_id: str | None = None, text: str | None = None
) -> LlmResponse:
    parts = [types.Part.from_text(text=text)] if text else []
    parts.append(types.Part(function_call=types.FunctionCall(name=name, args=args, id=call_id)))
    return LlmResponse(content=types.Content(role="model", parts=parts))


def say(text: str) -> LlmResponse:
    return LlmResponse(content=types.Content(role="model", parts=[types.Part.from_text(text=text)]))


class Run:
    """One ADK app: the scripted model, two counting tools, the plugin; prompts run in one
    session."""

    def __init__(self, hooks: Hooks, script: list[LlmResponse], **plugin_kw: Any) -> None:
        self.tools = Tools()
        self.messages = Messages()
        self.model = ScriptedLlm(script=list(script))
        t = self.tools

        def shell(cmd: str) -> dict[str, Any]:
            """Run a shell command."""
            return {"result": t.hit("shell", cmd=cmd)}

        def echo(text: str) -> dict[str, Any]:
            """Echo a text."""
            return {"result": t.hit("echo", text=text)}

        self.plugin = HookwisePlugin(hooks.system(), on_message=self.messages, **plugin_kw)
        agent = LlmAgent(
            name="root", model=self.model, tools=[shell, echo], instruction="You help."
        )
        self.runner = InMemoryRunner(agent=agent, plugins=[self.plugin])
        self.session_id = ""
        self.events: list[Any] = []

    async def _prompt(self, message: types.Content) -> list[Any]:
        if not self.session_id:
            s = await self.runner.session_service.create_session(
                app_name=self.runner.app_name, user_id="u"
            )
            self.session_id = s.id
        out = []
        async for ev in self.runner.run_async(
            user_id="u", session_id=self.session_id, new_message=message
        ):
            out.append(ev)
        self.events += out
        return out

    def prompt(self, text: str) -> list[Any]:
        return asyncio.run(
            self._prompt(types.Content(role="user", parts=[types.Part.from_text(text=text)]))
        )

    def confirm(self, confirmation_id: str, ok: bool) -> list[Any]:
        reply = types.Content(
            role="user",
            parts=[
                types.Part(
                    function_response=types.FunctionResponse(
                        id=confirmation_id,
                        name="adk_request_confirmation",
                        response={"confirmed": ok},
                    )
                )
            ],
        )
        return asyncio.run(self._prompt(reply))

    def close(self) -> None:
        asyncio.run(self.runner.close())

    def request_text(self, i: int) -> str:
        return json.dumps(self.model.requests[i]["contents"])

    def final_text(self) -> str:
        texts = [
            p.text for ev in self.events if ev.content for p in ev.content.parts or [] if p.text
        ]
        return texts[-1] if texts else ""


@pytest.fixture
def kit() -> Kit:
    """This framework's harness, for the cases in harness_cases.py."""
    return Kit(Run, call, say)


# ---- BeforeTool ----------------------------------------------------------------------------------
def test_before_tool_stop_ends_the_invocation(hooks: Hooks) -> None:
    hooks.on("BeforeTool", {"continue": False, "stopReason": "budget spent"}, matcher="shell")
    hooks.on("AfterAgent", {})
    r = Run(hooks, [call("shell", {"cmd": "ls"}, "c1"), say("never")])
    r.prompt("list")
    assert r.tools.calls["shell"] == 0
    assert len(r.model.requests) == 1
    assert hooks.log("AfterAgent") == []
    assert r.messages.of("stop") == ["budget spent"]


@pytest.mark.slow
@pytest.mark.parametrize("ok", [True, False])
def test_ask_native_uses_adk_confirmation(hooks: Hooks, ok: bool) -> None:
    hooks.on("BeforeTool", {"decision": "ask", "reason": "check first"}, matcher="shell")
    hooks.on("Notification", {})
    hooks.on("AfterTool", {})
    r = Run(hooks, [call("shell", {"cmd": "ls"}, "c1"), say("ok")], ask="native")
    events = r.prompt("list")
    asks = [
        p.function_call
        for ev in events
        if ev.content
        for p in ev.content.parts or []
        if p.function_call and p.function_call.name == "adk_request_confirmation"
    ]
    assert len(asks) == 1 and asks[0].args["toolConfirmation"]["hint"] == "check first"
    assert r.tools.calls["shell"] == 0 and len(r.model.requests) == 1
    assert len(hooks.log("Notification")) == 1
    r.confirm(asks[0].id, ok)
    assert r.tools.calls["shell"] == (1 if ok else 0)
    assert len(hooks.log("BeforeTool")) == 1  # the verdict survives the confirmation round trip
    assert len(hooks.log("AfterTool")) == (1 if ok else 0)  # AfterTool only for the call that ran
    assert r.plugin._sessions[r.session_id].calls == {}  # finished calls are not kept
    assert len(r.model.requests) == 2
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
    r.prompt("list")
    assert r.tools.calls == {"shell": 1, "echo": 1}
    resp = r.model.requests[1]["contents"][-1]["parts"][0]["functionResponse"]
    assert resp["id"] == "c1" and resp["name"] == "shell" and "echo:t" in json.dumps(resp)
    tail = [e for e in hooks.log("BeforeTool")]
    assert tail == []  # no BeforeTool hook configured; AfterTool fired for both
    assert [(e["tool_name"], e.get("original_request_name")) for e in hooks.log("AfterTool")] == [
        ("shell", None)
    ]


# ---- BeforeAgent ---------------------------------------------------------------------------------
def test_before_agent_block_drops_the_prompt(hooks: Hooks) -> None:
    hooks.on("BeforeAgent", [{"decision": "block", "reason": "off topic"}, {}])
    r = Run(hooks, [say("second answer")])
    r.prompt("SECRET PROMPT")
    assert r.model.requests == []
    assert r.messages.of("block") == ["off topic"]
    r.prompt("next")
    assert "SECRET PROMPT" not in r.request_text(0) and "next" in r.request_text(0)


def test_before_agent_stop_keeps_the_prompt(hooks: Hooks) -> None:
    hooks.on("BeforeAgent", [{"continue": False, "stopReason": "paused"}, {}])
    r = Run(hooks, [say("second answer")])
    r.prompt("KEPT PROMPT")
    assert r.model.requests == []
    assert r.messages.of("stop") == ["paused"]
    r.prompt("next")
    assert "KEPT PROMPT" in r.request_text(0)


def test_before_agent_context_is_in_every_request_of_its_prompt_only(hooks: Hooks) -> None:
    hooks.on("BeforeAgent", [{"hookSpecificOutput": {"additionalContext": "branch main"}}, {}])
    r = Run(hooks, [call("shell", {"cmd": "ls"}, "c1"), say("ok"), say("second")])
    r.prompt("first")
    r.prompt("second")
    assert "branch main" in r.request_text(0) and "branch main" in r.request_text(1)
    assert "branch main" not in r.request_text(2)


# ---- AfterAgent ----------------------------------------------------------------------------------
def test_after_agent_block_retries_with_the_reason(hooks: Hooks) -> None:
    hooks.on("AfterAgent", [{"decision": "block", "reason": "mention the tests"}, {}])
    r = Run(hooks, [say("draft"), say("final with tests")])
    r.prompt("write it")
    assert len(r.model.requests) == 2
    last = r.model.requests[1]["contents"][-1]
    assert last == {"role": "user", "parts": [{"text": "mention the tests"}]}
    assert "hookwise_agent_retry" not in json.dumps(r.model.requests[1])
    fired = hooks.log("AfterAgent")
    assert [f["stop_hook_active"] for f in fired] == [False, True]
    assert fired[1]["prompt_response"] == "draft\nfinal with tests"
    assert r.final_text() == "final with tests"


@pytest.mark.slow  # as in test_openai_agents.py; the quick tier keeps one retry
def test_after_agent_retries_are_capped(hooks: Hooks) -> None:
    hooks.on("AfterAgent", {"decision": "block", "reason": "again"})
    r = Run(hooks, [say("a"), say("b"), say("c"), say("d")], max_agent_retries=2)
    r.prompt("go")
    assert len(r.model.requests) == 3
    assert len(hooks.log("AfterAgent")) == 3
    assert any("giving up after 2 retries" in s for s in r.messages.of("stop"))


def test_after_agent_clear_context(hooks: Hooks) -> None:
    stop = {
        "continue": False,
        "stopReason": "done here",
        "hookSpecificOutput": {"clearContext": True},
    }
    hooks.on("AfterAgent", [stop, {}])
    r = Run(hooks, [say("first answer"), say("second answer")])
    r.prompt("FIRST PROMPT")
    r.prompt("second prompt")
    assert "FIRST PROMPT" not in r.request_text(1) and "first answer" not in r.request_text(1)
    assert "second prompt" in r.request_text(1)


@pytest.mark.slow  # as in test_openai_agents.py; test_after_agent_clear_context stays quick
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
    r.prompt("FIRST PROMPT")
    assert r.model.requests[1]["contents"] == [{"role": "user", "parts": [{"text": "start over"}]}]


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
    r.prompt("original")
    req = r.model.requests[0]
    assert req["contents"][0]["parts"][0]["text"] == "REWRITTEN" and "original" not in json.dumps(
        req["contents"]
    )
    assert req["config"]["temperature"] == 0.25
    assert hooks.log("BeforeModel")[0]["llm_request"]["messages"] == [
        {"role": "user", "content": "original"}
    ]


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
    r.prompt("hi")
    assert r.model.requests == []
    assert r.final_text() == "cached answer"


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
    r.prompt("one")
    r.prompt("two")
    assert r.model.requests == []
    assert [f["prompt_response"] for f in hooks.log("AfterAgent")] == [
        "canned",
        "[no response text]",
    ]


def test_before_model_stop(hooks: Hooks) -> None:
    hooks.on("BeforeModel", {"continue": False, "stopReason": "no model today"})
    hooks.on("AfterAgent", {})
    r = Run(hooks, [say("never")])
    r.prompt("hi")
    assert r.model.requests == [] and hooks.log("AfterAgent") == []
    assert r.messages.of("stop") == ["no model today"]


def test_before_model_malformed_request_is_a_warning(hooks: Hooks) -> None:
    hooks.on("BeforeModel", {"hookSpecificOutput": {"llm_request": {"messages": "not a list"}}})
    r = Run(hooks, [say("ok")])
    r.prompt("unchanged")
    assert "unchanged" in r.request_text(0)
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
    r.prompt("go")
    assert r.tools.calls["shell"] == 1
    assert "REPLACED" in r.request_text(1) and "orig text" not in r.request_text(1)
    assert len(hooks.log("AfterModel")) == 2  # once per response


def test_after_model_deny_discards_and_ends_the_turn(hooks: Hooks) -> None:
    hooks.on("AfterModel", {"decision": "deny", "reason": "unsafe"})
    r = Run(hooks, [call("shell", {"cmd": "ls"}, "c1", text="bad text"), say("never")])
    r.prompt("go")
    assert r.tools.calls["shell"] == 0 and len(r.model.requests) == 1
    assert "bad text" not in r.final_text()
    assert r.messages.of("block") == ["unsafe"]


@pytest.mark.slow
def test_before_tool_selection_filters_and_enforces(hooks: Hooks) -> None:
    hooks.on(
        "BeforeToolSelection",
        {"hookSpecificOutput": {"toolConfig": {"mode": "ANY", "allowedFunctionNames": ["echo"]}}},
    )
    r = Run(hooks, [call("shell", {"cmd": "ls"}, "c1"), say("ok")])
    r.prompt("go")
    cfg = r.model.requests[0]["config"]
    names = [d["name"] for t in cfg["tools"] for d in t.get("functionDeclarations", [])]
    assert names == ["echo"]
    assert cfg["toolConfig"]["functionCallingConfig"] == {
        "mode": "ANY",
        "allowedFunctionNames": ["echo"],
    }
    assert r.tools.calls["shell"] == 0
    assert "Tool call refused" in r.request_text(1) and "BeforeToolSelection" in r.request_text(1)


# ---- lifecycle, failures, aliases ----------------------------------------------------------------
@pytest.mark.slow
def test_session_start_and_end(hooks: Hooks) -> None:
    hooks.on("SessionStart", {"hookSpecificOutput": {"additionalContext": "welcome"}})
    hooks.on("SessionEnd", {})
    r = Run(hooks, [say("a"), say("b")])
    r.prompt("one")
    r.prompt("two")
    r.close()
    assert [e["source"] for e in hooks.log("SessionStart")] == ["startup"]
    assert [e["reason"] for e in hooks.log("SessionEnd")] == ["exit"]
    assert "welcome" in r.request_text(0)
    assert hooks.log("SessionStart")[0]["session_id"] == r.session_id
    assert hooks.log("SessionEnd")[0]["session_id"] == r.session_id


# ---- conformance ---------------------------------------------------------------------------------
def _drive(hooks_system: Any, conversation: Conversation) -> None:
    script = []
    for turn in conversation.turns:
        parts = []
        for item in turn:
            if isinstance(item, ToolCall):
                parts.append(
                    types.Part(
                        function_call=types.FunctionCall(name=item.name, args=dict(item.args))
                    )
                )
            else:
                parts.append(types.Part.from_text(text=item))
        script.append(LlmResponse(content=types.Content(role="model", parts=parts)))
    model = ScriptedLlm(script=script)

    def make(tool: Any) -> Any:
        def fn(**kwargs: Any) -> dict[str, Any]:
            return {"result": tool.result(kwargs.get(tool.param))}

        fn.__name__ = tool.name
        fn.__doc__ = tool.description
        fn.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [inspect.Parameter(tool.param, inspect.Parameter.KEYWORD_ONLY, annotation=str)]
        )
        return fn

    agent = LlmAgent(name="root", model=model, tools=[make(t) for t in conversation.tools])
    runner = InMemoryRunner(agent=agent, plugins=[HookwisePlugin(hooks_system)])

    async def go() -> None:
        s = await runner.session_service.create_session(app_name=runner.app_name, user_id="u")
        msg = types.Content(role="user", parts=[types.Part.from_text(text=conversation.prompt)])
        async for _ in runner.run_async(user_id="u", session_id=s.id, new_message=msg):
            pass
        await runner.close()

    asyncio.run(go())


def test_conformance_with_the_reference_host() -> None:
    # deviation: ADK's AfterModel fires once per complete response (the reference host: per streamed
    # chunk, here one chunk per response, so the sequences agree)
    assert_adapter_conformance(_drive)


# ---- the shared scenario suite -------------------------------------------------------------------
def _parts_text(parts: list[dict[str, Any]]) -> str:
    return "".join(
        p["text"] for p in parts if isinstance(p.get("text"), str) and not p.get("thought")
    )


def _response_text(resp: Any) -> str:
    if isinstance(resp, dict):
        for key in ("result", "error"):
            if isinstance(resp.get(key), str):
                return str(resp[key])
    return json.dumps(resp)


def _messages(contents: list[dict[str, Any]], system: Any = None) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if isinstance(system, str) and system:
        out.append(("system", system))
    for c in contents:
        parts = c.get("parts") or []
        text = _parts_text(parts)
        if text:
            out.append(("model" if c.get("role") == "model" else "user", text))
        for p in parts:
            if isinstance(p.get("functionResponse"), dict):
                out.append(("tool", _response_text(p["functionResponse"].get("response"))))
    return out


class AdkDriver:
    name = "adk"

    def __init__(self, mode: str) -> None:
        self.mode = mode  # run_async / run (ADK's sync runner) / sse (streaming mode)

    def run(
        self,
        hooks: Any,
        turns: Any,
        prompts: Any,
        *,
        ask: Any = "deny",
        native_answer: bool | None = None,
        max_agent_retries: int = 8,
    ) -> Run:  # type: ignore[override]
        from google.adk.agents.run_config import RunConfig as AdkRunConfig
        from google.adk.agents.run_config import StreamingMode

        from .scenarios import Request
        from .scenarios import Run as ScenarioRun

        script = []
        for turn in turns:
            parts = [
                types.Part(function_call=types.FunctionCall(name=t.name, args=dict(t.args)))
                if isinstance(t, ToolCall)
                else types.Part.from_text(text=t)
                for t in turn
            ]
            script.append(LlmResponse(content=types.Content(role="model", parts=parts)))
        model = ScriptedLlm(script=script)
        calls: dict[str, list[dict[str, Any]]] = {}
        messages: list[tuple[str, str]] = []

        def shell(cmd: str) -> dict[str, Any]:
            """Run a shell command."""
            calls.setdefault("shell", []).append({"cmd": cmd})
            return {"result": f"shell:{cmd}"}

        def echo(text: str) -> dict[str, Any]:
            """Echo a text."""
            calls.setdefault("echo", []).append({"text": text})
            return {"result": f"echo:{text}"}

        plugin = HookwisePlugin(
            hooks,
            ask="native" if native_answer is not None else ask,
            on_message=lambda k, t: messages.append((k, t)),
            max_agent_retries=max_agent_retries,
        )
        runner = InMemoryRunner(
            agent=LlmAgent(name="root", model=model, tools=[shell, echo]), plugins=[plugin]
        )
        rc = AdkRunConfig(streaming_mode=StreamingMode.SSE) if self.mode == "sse" else None
        surfaced: list[dict[str, Any]] = []
        events: list[Any] = []

        async def send(session_id: str, msg: types.Content) -> list[Any]:
            out = []
            async for ev in runner.run_async(
                user_id="u", session_id=session_id, new_message=msg, run_config=rc
            ):
                out.append(ev)
            return out

        async def go() -> str:
            s = await runner.session_service.create_session(app_name=runner.app_name, user_id="u")
            for p in prompts:
                msg = types.Content(role="user", parts=[types.Part.from_text(text=p)])
                while msg is not None:
                    if (
                        self.mode == "run"
                    ):  # ADK's synchronous entry point (it drives run_async in a thread)
                        got = await asyncio.to_thread(
                            lambda m=msg: list(
                                runner.run(user_id="u", session_id=s.id, new_message=m)
                            )
                        )
                    else:
                        got = await send(s.id, msg)
                    events.extend(got)
                    asks = [
                        p.function_call
                        for ev in got
                        if ev.content
                        for p in ev.content.parts or []
                        if p.function_call and p.function_call.name == "adk_request_confirmation"
                    ]
                    msg = None
                    if asks and native_answer is not None:
                        surfaced.extend(dict(a.args or {}) for a in asks)
                        msg = types.Content(
                            role="user",
                            parts=[
                                types.Part(
                                    function_response=types.FunctionResponse(
                                        id=a.id,
                                        name="adk_request_confirmation",
                                        response={"confirmed": native_answer},
                                    )
                                )
                                for a in asks
                            ],
                        )
            await runner.close()
            return s.id

        asyncio.run(go())
        requests = [
            Request(
                _messages(r.get("contents", []), (r.get("config") or {}).get("systemInstruction")),
                [
                    d["name"]
                    for t in (r.get("config") or {}).get("tools", [])
                    for d in t.get("functionDeclarations", [])
                ],
                ((r.get("config") or {}).get("toolConfig") or {})
                .get("functionCallingConfig", {})
                .get("mode")
                == "ANY",
                {
                    k: v
                    for k, v in (r.get("config") or {}).items()
                    if k in ("temperature", "maxOutputTokens", "topP", "topK")
                },
            )
            for r in model.requests
        ]
        history = _messages(
            [
                ev.content.model_dump(mode="json", by_alias=True, exclude_none=True)
                for ev in events
                if ev.content and not ev.partial
            ]
        )
        prompts_kept = [("user", p) for p in prompts]
        output = next((t for r, t in reversed(history) if r == "model"), "")
        stops = [t for k, t in messages if k == "stop"]
        return ScenarioRun(
            requests,
            calls,
            messages,
            output,
            self._history(runner, prompts_kept, history),
            stops[-1] if stops else None,
            False,
            surfaced,
        )

    @staticmethod
    def _history(
        runner: Any, prompts: list[tuple[str, str]], events: list[tuple[str, str]]
    ) -> list[tuple[str, str]]:
        sessions = runner.session_service.sessions.get(runner.app_name, {}).get("u", {})
        out: list[tuple[str, str]] = []
        for s in sessions.values():
            out += _messages(
                [
                    ev.content.model_dump(mode="json", by_alias=True, exclude_none=True)
                    for ev in s.events
                    if ev.content
                ]
            )
        return out or events


def _scenarios() -> list[Any]:
    from .scenarios import SCENARIOS

    return SCENARIOS


@pytest.mark.slow
@pytest.mark.parametrize("scenario", _scenarios(), ids=lambda s: s.__name__)
def test_scenario(scenario: Any, adapter_env: Any) -> None:
    scenario(AdkDriver("run_async"), adapter_env)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["run", "sse"])
@pytest.mark.parametrize(
    "scenario",
    [
        s
        for s in _scenarios()
        if s.__name__
        in (
            "before_tool_rewrite",
            "before_tool_ask_native_approve",
            "after_agent_retry",
            "before_model_synthetic_answer",
            "after_model_replace_keeps_tool_calls",
        )
    ],
    ids=lambda s: s.__name__,
)
def test_other_call_styles(scenario: Any, mode: str, adapter_env: Any) -> None:
    scenario(AdkDriver(mode), adapter_env)


@pytest.mark.slow
def test_pre_compress_fires_before_adk_compacts(hooks: Hooks) -> None:
    from google.adk.apps import App
    from google.adk.apps.app import EventsCompactionConfig
    from google.adk.apps.base_events_summarizer import BaseEventsSummarizer

    summarized: list[int] = []

    class CountingSummarizer(BaseEventsSummarizer):  # type: ignore[misc]
        async def maybe_summarize_events(self, *, events: list[Any]) -> Any:
            summarized.append(len(events))
            return None  # no summary: ADK keeps the events

    hooks.on("PreCompress", {})
    r = Run(hooks, [say("a"), say("b")])
    app = App(
        name="compacting",
        root_agent=r.runner.agent,
        plugins=[r.plugin],
        events_compaction_config=EventsCompactionConfig(
            compaction_interval=1, overlap_size=0, summarizer=CountingSummarizer()
        ),
    )
    r.runner = InMemoryRunner(app=app)
    r.prompt("one")
    r.prompt("two")
    assert summarized  # ADK really compacted (asked its summarizer)
    assert [e["trigger"] for e in hooks.log("PreCompress")] == ["auto"] * len(summarized)


def test_after_tool_fires_for_a_tool_that_raised(hooks: Hooks) -> None:
    hooks.on("AfterTool", {"decision": "block", "reason": "tool broke; try echo"})
    model = ScriptedLlm(script=[call("boom", {"x": "1"}, "c1"), say("ok")])

    def boom(x: str) -> dict[str, Any]:
        """Always fails."""
        raise RuntimeError("disk full")

    plugin = HookwisePlugin(hooks.system())
    runner = InMemoryRunner(
        agent=LlmAgent(name="root", model=model, tools=[boom]), plugins=[plugin]
    )

    async def go() -> None:
        s = await runner.session_service.create_session(app_name=runner.app_name, user_id="u")
        msg = types.Content(role="user", parts=[types.Part.from_text(text="go")])
        async for _ in runner.run_async(user_id="u", session_id=s.id, new_message=msg):
            pass

    asyncio.run(go())
    fired = hooks.log("AfterTool")
    assert fired[0]["tool_response"]["error"]["message"] == "RuntimeError: disk full"
    assert "tool broke; try echo" in json.dumps(model.requests[1]["contents"])


def test_sse_partial_chunks_pass_and_after_model_fires_on_the_complete_response(
    hooks: Hooks,
) -> None:
    from google.adk.agents.run_config import RunConfig as AdkRunConfig
    from google.adk.agents.run_config import StreamingMode

    hooks.on(
        "AfterModel",
        {
            "hookSpecificOutput": {
                "llm_response": {
                    "candidates": [{"content": {"role": "model", "parts": ["REPLACED"]}}]
                }
            }
        },
    )

    class Streaming(ScriptedLlm):  # type: ignore[misc]
        async def generate_content_async(
            self, llm_request: LlmRequest, stream: bool = False
        ) -> Any:
            self.requests.append({"stream": stream})
            for text in ("Hel", "lo"):
                yield LlmResponse(
                    content=types.Content(role="model", parts=[types.Part.from_text(text=text)]),
                    partial=True,
                )
            yield say("Hello")

    model = Streaming()
    runner = InMemoryRunner(
        agent=LlmAgent(name="root", model=model), plugins=[HookwisePlugin(hooks.system())]
    )
    events: list[Any] = []

    async def go() -> None:
        s = await runner.session_service.create_session(app_name=runner.app_name, user_id="u")
        msg = types.Content(role="user", parts=[types.Part.from_text(text="hi")])
        async for ev in runner.run_async(
            user_id="u",
            session_id=s.id,
            new_message=msg,
            run_config=AdkRunConfig(streaming_mode=StreamingMode.SSE),
        ):
            events.append(ev)

    asyncio.run(go())
    assert model.requests == [{"stream": True}]
    fired = hooks.log("AfterModel")
    assert [f["llm_response"]["text"] for f in fired] == ["Hello"]
    final = [ev for ev in events if not ev.partial]
    assert final[-1].content.parts[0].text == "REPLACED"
    assert [ev.content.parts[0].text for ev in events if ev.partial] == ["Hel", "lo"]


@pytest.mark.slow
def test_allowed_function_names_may_use_the_alias_or_the_framework_name(hooks: Hooks) -> None:
    hooks.on(
        "BeforeToolSelection",
        {
            "hookSpecificOutput": {
                "toolConfig": {"mode": "ANY", "allowedFunctionNames": ["run_shell_command"]}
            }
        },
    )
    r = Run(
        hooks,
        [call("shell", {"cmd": "ls"}, "c1"), say("ok")],
        tool_aliases={"shell": "run_shell_command"},
    )
    r.prompt("go")
    names = [
        d["name"]
        for t in r.model.requests[0]["config"]["tools"]
        for d in t.get("functionDeclarations", [])
    ]
    assert names == ["shell"]
    assert r.tools.calls["shell"] == 1


# ---- idle invocations (docs/adapters.md "Cost") ------------------------------------------
def test_no_hook_configured_leaves_the_invocation_alone(hooks: Hooks) -> None:
    r = Run(hooks, [call("shell", {"cmd": "ls"}, "c1"), say("done")])
    r.prompt("list")
    assert r.tools.calls["shell"] == 1 and r.final_text() == "done"
    # no callback did any work: no ADK session was taken on (the hook session id is still the
    # caller's)
    assert r.plugin._sessions == {} and r.plugin._idle == set()
    assert r.plugin.hooks.session_id == "test-session"
    # the plugin chooses per invocation: a hook configured now serves the next one
    hooks.on("BeforeTool", {"decision": "deny", "reason": "no shells"}, matcher="shell")
    r.plugin.hooks.reload()
    r.model.script.extend([call("shell", {"cmd": "ls"}, "c2"), say("ok")])
    r.prompt("again")
    assert r.tools.calls["shell"] == 1
    assert "Tool execution blocked: no shells" in r.request_text(3)
    assert [e["tool_input"] for e in hooks.log("BeforeTool")] == [{"cmd": "ls"}]
    assert r.plugin.hooks.session_id == r.session_id


def test_seams_all_keeps_every_invocation_active(hooks: Hooks) -> None:
    r = Run(hooks, [say("done")], seams="all")
    r.prompt("hi")
    assert r.session_id in r.plugin._sessions and r.plugin.hooks.session_id == r.session_id


# ---- issue 25: ADK's hello_world_ma (transfer to a sub-agent) and hello_world (a bytes-only
# prompt) ------
def _multi_agent(
    hooks: Hooks, root_script: list[LlmResponse], roll_script: list[LlmResponse]
) -> Any:
    """The multi-agent sample's shape: a root agent with a die-rolling sub-agent it transfers to."""
    tools = Tools()
    root_model, roll_model = (
        ScriptedLlm(script=list(root_script)),
        ScriptedLlm(script=list(roll_script)),
    )

    def roll_die(sides: int) -> int:
        """Roll a die with the given number of sides."""
        tools.hit("roll_die", sides=sides)
        return 4

    roll_agent = LlmAgent(
        name="roll_agent", model=roll_model, tools=[roll_die], instruction="Roll dice."
    )
    root = LlmAgent(
        name="root_agent", model=root_model, sub_agents=[roll_agent], instruction="Delegate."
    )
    plugin = HookwisePlugin(hooks.system())
    return tools, root_model, roll_model, InMemoryRunner(agent=root, plugins=[plugin])


async def _send(runner: Any, message: types.Content, mode: str, session_id: str = "") -> str:
    from google.adk.agents.run_config import RunConfig as AdkRunConfig
    from google.adk.agents.run_config import StreamingMode

    if not session_id:
        s = await runner.session_service.create_session(app_name=runner.app_name, user_id="u")
        session_id = s.id
    rc = AdkRunConfig(streaming_mode=StreamingMode.SSE) if mode == "sse" else None
    async for _ in runner.run_async(
        user_id="u", session_id=session_id, new_message=message, run_config=rc
    ):
        pass
    return session_id


def _text_message(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part.from_text(text=text)])


@pytest.mark.parametrize("mode", first_quick(["async", "sse"]))
def test_a_turn_that_transfers_to_a_sub_agent_gets_after_agent(hooks: Hooks, mode: str) -> None:
    hooks.on("BeforeAgent", {})
    hooks.on("AfterAgent", [{"decision": "block", "reason": "say which die you rolled"}, {}])
    tools, root_model, roll_model, runner = _multi_agent(
        hooks,
        [call("transfer_to_agent", {"agent_name": "roll_agent"})],
        [
            call("roll_die", {"sides": 6}),
            say("You rolled 4"),
            say("You rolled 4 on a 6-sided die"),
            say("You are welcome"),
        ],
    )

    async def go() -> None:
        sid = await _send(runner, _text_message("roll a die"), mode)
        await _send(
            runner, _text_message("thanks"), mode, sid
        )  # the sub-agent answers the next turn

    asyncio.run(go())
    assert tools.calls["roll_die"] == 1
    assert "say which die you rolled" in json.dumps(roll_model.requests[2]["contents"])
    fired = hooks.log("AfterAgent")
    assert [(i["prompt"], i["stop_hook_active"]) for i in fired] == [
        ("roll a die", False),
        ("roll a die", True),
        ("thanks", False),
    ]
    assert fired[1]["prompt_response"].endswith("You rolled 4 on a 6-sided die")
    assert len(hooks.log("BeforeAgent")) == 3  # the prompts and the retry: each has its AfterAgent


def test_a_bytes_only_prompt_reaches_before_agent_and_gets_its_context(hooks: Hooks) -> None:
    hooks.on("BeforeAgent", {"hookSpecificOutput": {"additionalContext": "CTX-FOR-THIS-PROMPT"}})
    r = Run(hooks, [say("first answer"), say("second answer")])

    def as_bytes(text: str) -> types.Content:  # as ADK's hello_world sample sends a prompt
        return types.Content(
            role="user", parts=[types.Part.from_bytes(data=text.encode(), mime_type="text/plain")]
        )

    async def go() -> None:
        await r._prompt(_text_message("first prompt"))
        await r._prompt(as_bytes("roll a die with 100 sides"))

    asyncio.run(go())
    assert [i["prompt"] for i in hooks.log("BeforeAgent")] == [
        "first prompt",
        "roll a die with 100 sides",
    ]
    contents = r.model.requests[1]["contents"]
    users = [c for c in contents if c["role"] == "user"]
    assert not any(
        "CTX-FOR-THIS-PROMPT" in json.dumps(c) for c in users[:-1]
    )  # not on the last turn's message
    assert "CTX-FOR-THIS-PROMPT" in json.dumps(users[-1])
    assert any(
        "inlineData" in p for p in users[-1]["parts"]
    )  # the bytes themselves still reach the model
