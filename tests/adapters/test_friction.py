"""Issue 25's friction items, inside the real frameworks: SessionEnd without close() (garbage collection,
process exit), warnings on stderr without ``on_message``, and the model reading its own tool names."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "pydantic_ai", reason="hookwise[pydantic-ai] is not installed (needs Python 3.11+)"
)

from pydantic_ai import Agent  # noqa: E402

from hookwise.adapters.pydantic_ai import HookwiseCapability  # noqa: E402

from .scenarios import AdapterEnv, Request, call  # noqa: E402
from .test_pydantic_ai import counting_tools, scripted_model  # noqa: E402

PYDANTIC_SCRIPT = """
import gc, sys
from pydantic_ai import Agent
from pydantic_ai.messages import ModelResponse, TextPart
from pydantic_ai.models.function import FunctionModel
from hookwise import HookSystem
from hookwise.adapters.pydantic_ai import HookwiseCapability

def chat_once():
    cap = HookwiseCapability(HookSystem(sys.argv[1], trust_all=True))
    model = FunctionModel(lambda messages, info: ModelResponse(parts=[TextPart("hi")]))
    Agent(model, capabilities=[cap]).run_sync("hello")
    # returns without cap.close()

chat_once()
gc.collect()
"""


def _run_script(source: str, env: AdapterEnv, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "agent.py"
    script.write_text(textwrap.dedent(source))
    return subprocess.run(
        [sys.executable, str(script), str(env.root)],
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_session_ends_without_close_when_the_capability_goes(
    adapter_env: AdapterEnv, tmp_path: Path
) -> None:
    adapter_env.log("SessionStart")
    adapter_env.log("SessionEnd")
    proc = _run_script(PYDANTIC_SCRIPT, adapter_env, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert len(adapter_env.inputs("SessionStart")) == 1
    assert [i["reason"] for i in adapter_env.inputs("SessionEnd")] == ["exit"]


def test_close_ends_the_session_once(adapter_env: AdapterEnv) -> None:
    adapter_env.log("SessionEnd")
    cap = HookwiseCapability(adapter_env.system())
    Agent(scripted_model([("hi",)], []), capabilities=[cap]).run_sync("hello")
    cap.close()
    del cap
    gc.collect()
    assert len(adapter_env.inputs("SessionEnd")) == 1


LANGCHAIN_SCRIPT = """
import sys
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from hookwise import HookSystem
from hookwise.adapters.langchain import HookwiseMiddleware

class Model(GenericFakeChatModel):
    def bind_tools(self, tools, **kw):
        return self

middleware = HookwiseMiddleware(HookSystem(sys.argv[1], trust_all=True))
agent = create_agent(Model(messages=iter([AIMessage("hi")])), tools=[], middleware=[middleware])
agent.invoke({"messages": [{"role": "user", "content": "hello"}]})
# the program ends without middleware.close()
"""


@pytest.mark.slow
def test_session_ends_at_process_exit_without_close(
    adapter_env: AdapterEnv, tmp_path: Path
) -> None:
    pytest.importorskip("langchain.agents")
    adapter_env.log("SessionStart")
    adapter_env.log("SessionEnd")
    proc = _run_script(LANGCHAIN_SCRIPT, adapter_env, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert len(adapter_env.inputs("SessionStart")) == 1
    assert [i["reason"] for i in adapter_env.inputs("SessionEnd")] == ["exit"]


def test_warnings_reach_stderr_without_on_message(
    adapter_env: AdapterEnv, capfd: pytest.CaptureFixture[str]
) -> None:
    adapter_env.hook("BeforeTool", {"$exit": 1, "$stderr": "policy server down"})
    adapter_env.hook("AfterTool", {"decision": "block", "reason": "secret output"})
    calls: dict[str, list[dict[str, Any]]] = {}
    cap = HookwiseCapability(adapter_env.system())
    Agent(
        scripted_model([(call("shell", cmd="ls"),), ("done",)], []),
        tools=counting_tools(calls),
        capabilities=[cap],
    ).run_sync("go")
    cap.close()
    err = capfd.readouterr().err
    assert "hookwise: warning:" in err and "policy server down" in err
    messages: list[tuple[str, str]] = []
    quiet = HookwiseCapability(
        adapter_env.system(), on_message=lambda k, t: messages.append((k, t))
    )
    Agent(
        scripted_model([(call("shell", cmd="ls"),), ("done",)], []),
        tools=counting_tools(calls),
        capabilities=[quiet],
    ).run_sync("go")
    quiet.close()
    assert "hookwise:" not in capfd.readouterr().err
    assert any("policy server down" in t for k, t in messages if k == "warning")


def test_the_model_reads_its_own_tool_name_under_an_alias(adapter_env: AdapterEnv) -> None:
    adapter_env.hook(
        "BeforeTool",
        {"decision": "deny", "reason": "web_fetch is not allowed"},
        matcher="web_fetch",
    )
    calls: dict[str, list[dict[str, Any]]] = {}
    requests: list[Request] = []
    cap = HookwiseCapability(adapter_env.system(), tool_aliases={"shell": "web_fetch"})
    Agent(
        scripted_model([(call("shell", cmd="ls"),), ("done",)], requests),
        tools=counting_tools(calls),
        capabilities=[cap],
    ).run_sync("go")
    cap.close()
    assert calls == {}
    assert requests[1].texts("tool") == ["Tool execution blocked: shell is not allowed"]
    assert adapter_env.inputs("BeforeTool")[0]["tool_name"] == "web_fetch"
