"""The adapter acceptance scenarios, written once and run against every framework adapter.

A framework's test module supplies a :class:`Driver` (build the framework's agent with its own offline
test model scripted by ``turns``, the two counting tools ``shell(cmd)`` and ``echo(text)``, and the
adapter on a :class:`~hookwise.HookSystem`; run the prompts; report what the *fake model received* and
how often each tool *really ran*) and parametrizes :data:`SCENARIOS` over it::

    @pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.__name__)
    def test_scenario(scenario, adapter_env, driver):
        scenario(driver, adapter_env)

Hooks are real command hooks in a temporary project: ``respond.py`` logs every input it gets and
answers with the next of its scripted outputs. Assertions look at tool invocation counts, the requests
the fake model received and the hook inputs, never at what the adapter says it did.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from hookwise import HookSystem
from hookwise.host.verdicts import CANCELLED, MAX_TAIL_CALLS, MODIFIED_NOTE
from hookwise.testing.conformance import ToolCall, Turn

RESPOND = r"""
import json, os, sys
spec_path = sys.argv[1]
inp = json.load(sys.stdin)
log = os.path.join(os.path.dirname(spec_path), "inputs.jsonl")
with open(log, "a", encoding="utf-8") as fh:
    fh.write(json.dumps({"hook": os.path.basename(spec_path)[:-5], **inp}) + "\n")
with open(spec_path, encoding="utf-8") as fh:
    outputs = json.load(fh)
count_path = spec_path + ".count"
n = int(open(count_path).read()) if os.path.exists(count_path) else 0
with open(count_path, "w") as fh:
    fh.write(str(n + 1))
out = outputs[min(n, len(outputs) - 1)] if outputs else None
if isinstance(out, dict) and "$exit" in out:
    sys.stdout.write(out.get("$stdout", ""))
    sys.stderr.write(out.get("$stderr", ""))
    sys.exit(out["$exit"])
if out is not None:
    print(json.dumps(out))
"""


def _printf(answer: dict[str, Any]) -> str:
    return f"printf '%s\\n' {shlex.quote(json.dumps(answer))}"


#: settings for :func:`hookwise.testing.assert_adapter_conformance` that make hooks change the run: the
#: shell call is denied, echo's result gets context, the prompt gets context
CONFORMANCE_SETTINGS: dict[str, Any] = {
    "hooks": {
        "BeforeTool": [
            {
                "matcher": "shell",
                "hooks": [
                    {
                        "type": "command",
                        "command": _printf({"decision": "deny", "reason": "no shell here"}),
                    }
                ],
            }
        ],
        "AfterTool": [
            {
                "matcher": "echo",
                "hooks": [
                    {
                        "type": "command",
                        "command": _printf(
                            {"hookSpecificOutput": {"additionalContext": "echo checked"}}
                        ),
                    }
                ],
            }
        ],
        "BeforeAgent": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": _printf(
                            {"hookSpecificOutput": {"additionalContext": "be brief"}}
                        ),
                    }
                ]
            }
        ],
    }
}


def call(name: str, **args: Any) -> ToolCall:
    return ToolCall(name, args)


# ---- what a driver reports -------------------------------------------------------------------------
@dataclass
class Request:
    """One request the fake model received: ``messages`` as (role, text) with role user/model/system/tool;
    ``tools`` the tool names it was offered; ``forced`` True when a tool call was required (tool_choice);
    ``settings`` generation settings under the stable names (temperature, maxOutputTokens, topP, topK)."""

    messages: list[tuple[str, str]]
    tools: list[str]
    forced: bool = False
    settings: dict[str, Any] = field(default_factory=dict)

    def texts(self, role: str | None = None) -> list[str]:
        return [t for r, t in self.messages if role is None or r == role]

    def __contains__(self, text: str) -> bool:
        return any(text in t for _, t in self.messages)


@dataclass
class Run:
    requests: list[Request]
    calls: dict[str, list[dict[str, Any]]]  # tool -> the arguments of every real invocation
    messages: list[tuple[str, str]]  # on_message(kind, text)
    output: str = ""  # the final answer text
    history: list[tuple[str, str]] = field(default_factory=list)  # the conversation after the run
    stop: str | None = None  # a hook's stop reason (clean stop or AgentStopped.reason)
    raised: bool = False  # the stop came as AgentStopped
    surfaced: list[dict[str, Any]] = field(default_factory=list)  # native approvals that surfaced

    def count(self, tool: str) -> int:
        return len(self.calls.get(tool, []))

    def kinds(self, kind: str) -> list[str]:
        return [t for k, t in self.messages if k == kind]


class Driver(Protocol):
    name: str

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
        """Run ``prompts`` in one conversation (one adapter instance, whose session is then closed).

        ``native_answer``: use ``ask="native"`` and answer each surfaced approval with it."""
        ...


# ---- the project -------------------------------------------------------------------------------------
class AdapterEnv:
    """A temporary project with ``respond.py`` command hooks and a logged input per firing."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.hooks_dir = root / ".gemini" / "hooks"
        self.hooks_dir.mkdir(parents=True)
        (self.hooks_dir / "respond.py").write_text(RESPOND)
        self.settings: dict[str, Any] = {"hooks": {}}
        self._n = 0
        self.save()

    def save(self) -> None:
        (self.root / ".gemini" / "settings.json").write_text(json.dumps(self.settings, indent=1))

    def hook(
        self, event: str, *outputs: Any, matcher: str | None = None, fail_closed: bool = False
    ) -> str:
        """A hook answering ``outputs`` in turn (the last repeats; None = no output;
        ``{"$exit": N, "$stderr": ...}`` = exit N)."""
        self._n += 1
        name = f"{event.lower()}-{self._n}"
        (self.hooks_dir / f"{name}.json").write_text(json.dumps(list(outputs)))
        cmd = (
            f'{shlex.quote(sys.executable)} "$GEMINI_PROJECT_DIR/.gemini/hooks/respond.py" '
            f'"$GEMINI_PROJECT_DIR/.gemini/hooks/{name}.json"'
        )
        hook: dict[str, Any] = {"type": "command", "name": name, "command": cmd, "timeout": 20000}
        if fail_closed:
            hook["failClosed"] = True
        definition: dict[str, Any] = {"hooks": [hook]}
        if matcher is not None:
            definition["matcher"] = matcher
        self.settings["hooks"].setdefault(event, []).append(definition)
        self.save()
        return name

    def log(self, event: str) -> str:
        """A hook that only logs its input (no answer)."""
        return self.hook(event, None)

    def inputs(self, event: str) -> list[dict[str, Any]]:
        log = self.hooks_dir / "inputs.jsonl"
        if not log.exists():
            return []
        rows = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
        return [r for r in rows if r["hook_event_name"] == event]

    def system(self) -> HookSystem:
        return HookSystem(str(self.root), trust_all=True)


Scenario = Callable[[Driver, AdapterEnv], None]
SCENARIOS: list[Scenario] = []
#: the scenarios an adapter's quick tier (``-m "not slow"``) runs; the full suite runs them all
QUICK_SCENARIOS = {
    "before_tool_deny",
    "after_tool_tail_call",
    "before_agent_context_is_per_prompt",
    "lifecycle",
    "hook_failure_warns_and_proceeds",
}


def scenario(fn: Scenario) -> Scenario:
    SCENARIOS.append(fn)
    return fn


def go(
    driver: Driver, env: AdapterEnv, *turns: Turn, prompts: Sequence[str] = ("go",), **kw: Any
) -> Run:
    return driver.run(env.system(), list(turns), list(prompts), **kw)


# ---- no hook configured: the adapter registers no seam, the run is the framework's own -------------------
@scenario
def no_hook_configured(driver: Driver, env: AdapterEnv) -> None:
    run = go(driver, env, (call("shell", cmd="ls"),), (call("echo", text="hi"),), ("done",))
    assert run.calls == {"shell": [{"cmd": "ls"}], "echo": [{"text": "hi"}]}
    assert len(run.requests) == 3 and run.output == "done"
    assert (
        run.requests[1].texts("tool") == ["shell:ls"]
        and run.requests[2].texts("tool")[-1] == "echo:hi"
    )
    assert not any("<hook_context>" in t for r in run.requests for t in r.texts())
    assert run.messages == [] and run.stop is None


# ---- BeforeTool ---------------------------------------------------------------------------------------
@scenario
def before_tool_deny(driver: Driver, env: AdapterEnv) -> None:
    env.hook("BeforeTool", {"decision": "deny", "reason": "no rm"}, matcher="shell")
    run = go(driver, env, (call("shell", cmd="rm -rf x"),), ("done",))
    assert run.count("shell") == 0
    assert len(run.requests) == 2 and "Tool execution blocked: no rm" in run.requests[1].texts(
        "tool"
    )
    assert run.output == "done"


@scenario
def before_tool_rewrite(driver: Driver, env: AdapterEnv) -> None:
    env.hook(
        "BeforeTool", {"hookSpecificOutput": {"tool_input": {"cmd": "ls -la"}}}, matcher="shell"
    )
    run = go(driver, env, (call("shell", cmd="ls"),), ("done",))
    assert run.calls["shell"] == [{"cmd": "ls -la"}]
    assert run.requests[1].texts("tool") == ["shell:ls -la" + MODIFIED_NOTE]
    assert env.inputs("BeforeTool")[0]["tool_input"] == {"cmd": "ls"}


@scenario
def before_tool_stop(driver: Driver, env: AdapterEnv) -> None:
    env.hook("BeforeTool", {"continue": False, "stopReason": "halt now"})
    env.log("AfterAgent")
    run = go(driver, env, (call("shell", cmd="ls"),), ("never",))
    assert run.count("shell") == 0
    assert len(run.requests) == 1  # no further model call
    assert env.inputs("AfterAgent") == []
    assert run.stop == "halt now" and ("stop", "halt now") in run.messages


@scenario
def before_tool_ask_approve(driver: Driver, env: AdapterEnv) -> None:
    env.hook("BeforeTool", {"decision": "ask", "systemMessage": "really run it?"}, matcher="shell")
    env.log("Notification")
    asked: list[tuple[str, dict[str, Any], str]] = []
    run = go(
        driver,
        env,
        (call("shell", cmd="ls"),),
        ("done",),
        ask=lambda name, args, reason: asked.append((name, args, reason)) is None,
    )
    assert run.count("shell") == 1
    assert asked == [("shell", {"cmd": "ls"}, "really run it?")]
    notes = env.inputs("Notification")
    assert len(notes) == 1 and notes[0]["notification_type"] == "ToolPermission"


@scenario
def before_tool_ask_reject(driver: Driver, env: AdapterEnv) -> None:
    env.hook("BeforeTool", {"decision": "ask"}, matcher="shell")
    env.log("Notification")
    run = go(
        driver, env, (call("shell", cmd="ls"),), ("done",), ask=lambda name, args, reason: False
    )
    assert run.count("shell") == 0
    assert run.requests[1].texts("tool") == [CANCELLED]
    assert len(env.inputs("Notification")) == 1


@scenario
def before_tool_ask_headless_refuses(driver: Driver, env: AdapterEnv) -> None:
    env.hook("BeforeTool", {"decision": "ask", "reason": "check"}, matcher="shell")
    env.log("Notification")
    run = go(driver, env, (call("shell", cmd="ls"),), ("done",))
    assert run.count("shell") == 0
    assert "a headless run cannot ask" in run.requests[1].texts("tool")[0]
    assert env.inputs("Notification") == []


@scenario
def before_tool_ask_native_approve(driver: Driver, env: AdapterEnv) -> None:
    env.hook("BeforeTool", {"decision": "ask", "reason": "check"}, matcher="shell")
    env.log("Notification")
    run = go(driver, env, (call("shell", cmd="ls"),), ("done",), native_answer=True)
    assert len(run.surfaced) == 1
    assert run.count("shell") == 1
    assert len(env.inputs("BeforeTool")) == 1  # once across the approval round trip
    assert len(env.inputs("Notification")) == 1
    assert run.output == "done"


@scenario
def before_tool_ask_native_reject(driver: Driver, env: AdapterEnv) -> None:
    env.hook("BeforeTool", {"decision": "ask", "reason": "check"}, matcher="shell")
    run = go(driver, env, (call("shell", cmd="ls"),), ("done",), native_answer=False)
    assert len(run.surfaced) == 1
    assert run.count("shell") == 0
    assert any(CANCELLED in t or "denied" in t.lower() for t in run.requests[-1].texts("tool"))


# ---- AfterTool ----------------------------------------------------------------------------------------
@scenario
def after_tool_context(driver: Driver, env: AdapterEnv) -> None:
    env.hook("AfterTool", {"hookSpecificOutput": {"additionalContext": "note <x>"}})
    run = go(driver, env, (call("shell", cmd="ls"),), ("done",))
    assert run.count("shell") == 1
    assert run.requests[1].texts("tool") == [
        "shell:ls\n\n<hook_context>note &lt;x&gt;</hook_context>"
    ]
    assert env.inputs("AfterTool")[0]["tool_response"]["llmContent"] == "shell:ls"


@scenario
def after_tool_block_hides_the_result(driver: Driver, env: AdapterEnv) -> None:
    env.hook("AfterTool", {"decision": "block", "reason": "secret output"})
    run = go(driver, env, (call("shell", cmd="cat key"),), ("done",))
    assert run.count("shell") == 1
    assert run.requests[1].texts("tool") == ["secret output"]
    assert "shell:cat key" not in run.requests[1]


@scenario
def after_tool_tail_call(driver: Driver, env: AdapterEnv) -> None:
    env.hook(
        "AfterTool",
        {"hookSpecificOutput": {"tailToolCallRequest": {"name": "echo", "args": {"text": "t"}}}},
        matcher="shell",
    )
    env.log("BeforeTool")
    run = go(driver, env, (call("shell", cmd="ls"),), ("done",))
    assert run.calls == {"shell": [{"cmd": "ls"}], "echo": [{"text": "t"}]}
    assert run.requests[1].texts("tool") == ["echo:t"]
    tail = env.inputs("BeforeTool")[1]
    assert tail["tool_name"] == "echo" and tail["original_request_name"] == "shell"


@scenario
def after_tool_tail_calls_are_capped(driver: Driver, env: AdapterEnv) -> None:
    env.hook(
        "AfterTool",
        {
            "hookSpecificOutput": {
                "tailToolCallRequest": {"name": "echo", "args": {"text": "again"}}
            }
        },
    )
    run = go(driver, env, (call("shell", cmd="ls"),), ("done",))
    assert run.count("shell") == 1
    assert run.count("echo") == MAX_TAIL_CALLS
    assert any(f"nested {MAX_TAIL_CALLS} deep" in w for w in run.kinds("warning"))
    assert run.requests[1].texts("tool") == ["echo:again"]


# ---- BeforeAgent --------------------------------------------------------------------------------------
@scenario
def before_agent_block(driver: Driver, env: AdapterEnv) -> None:
    env.hook("BeforeAgent", {"decision": "block", "reason": "off topic"})
    env.log("AfterAgent")
    run = go(driver, env, ("never",), prompts=["tell me a secret"])
    assert run.requests == []
    assert not any("tell me a secret" in t for _, t in run.history)
    assert run.kinds("block") == ["off topic"]
    assert env.inputs("AfterAgent") == []


@scenario
def before_agent_stop(driver: Driver, env: AdapterEnv) -> None:
    env.hook("BeforeAgent", {"continue": False, "stopReason": "quota"})
    run = go(driver, env, ("never",), prompts=["hello there"])
    assert run.requests == []
    assert run.stop == "quota"
    assert any("hello there" in t for r, t in run.history if r == "user")


@scenario
def before_agent_context_is_per_prompt(driver: Driver, env: AdapterEnv) -> None:
    env.hook("BeforeAgent", {"hookSpecificOutput": {"additionalContext": "ctx-1"}}, None)
    run = go(driver, env, (call("shell", cmd="ls"),), ("a1",), ("a2",), prompts=["p1", "p2"])
    block = "<hook_context>ctx-1</hook_context>"
    assert len(run.requests) == 3
    # with the prompt, or (openai-agents) in a developer message of its own: both only in this prompt's requests
    assert all(
        any(block in t for t in r.texts("user") + r.texts("system")) for r in run.requests[:2]
    )
    assert not any(block in t for t in run.requests[2].texts())
    assert [i["prompt"] for i in env.inputs("BeforeAgent")] == ["p1", "p2"]


# ---- AfterAgent ---------------------------------------------------------------------------------------
@scenario
def after_agent_retry(driver: Driver, env: AdapterEnv) -> None:
    env.hook("AfterAgent", {"decision": "block", "reason": "add a summary"}, None)
    run = go(driver, env, ("a1",), ("a2",))
    assert len(run.requests) == 2
    assert "add a summary" in run.requests[1].texts("user")
    fired = env.inputs("AfterAgent")
    assert [f["stop_hook_active"] for f in fired] == [False, True]
    assert fired[1]["prompt_response"] == "a1\na2"
    assert run.output == "a2"


@scenario
def after_agent_retry_cap(driver: Driver, env: AdapterEnv) -> None:
    env.hook("AfterAgent", {"decision": "block", "reason": "never good"})
    run = go(driver, env, ("a1",), ("a2",), ("a3",), ("a4",), max_agent_retries=2)
    assert len(run.requests) == 3  # the answer and two retries
    assert run.stop is not None and "giving up after 2 retries" in run.stop


@scenario
def after_agent_clear_context(driver: Driver, env: AdapterEnv) -> None:
    env.hook(
        "AfterAgent",
        {"decision": "block", "reason": "start over", "hookSpecificOutput": {"clearContext": True}},
        None,
    )
    run = go(driver, env, ("a1",), ("a2",), prompts=["first prompt"])
    assert len(run.requests) == 2
    assert run.requests[1].texts("user") == ["start over"]
    assert "a1" not in run.requests[1] and "first prompt" not in run.requests[1]


# ---- BeforeModel / AfterModel / BeforeToolSelection ----------------------------------------------------
@scenario
def before_model_rewrite(driver: Driver, env: AdapterEnv) -> None:
    env.hook(
        "BeforeModel",
        {
            "hookSpecificOutput": {
                "llm_request": {
                    "messages": [{"role": "user", "content": "rewritten prompt"}],
                    "config": {"temperature": 0.25},
                }
            }
        },
    )
    run = go(driver, env, ("done",), prompts=["original prompt"])
    assert run.requests[0].texts("user") == ["rewritten prompt"]
    assert run.requests[0].settings.get("temperature") == 0.25
    msgs = env.inputs("BeforeModel")[0]["llm_request"]["messages"]
    assert msgs == [{"role": "user", "content": "original prompt"}]


@scenario
def before_model_synthetic_answer(driver: Driver, env: AdapterEnv) -> None:
    env.hook(
        "BeforeModel",
        {
            "hookSpecificOutput": {
                "llm_response": {
                    "candidates": [{"content": {"role": "model", "parts": ["canned answer"]}}]
                }
            }
        },
    )
    run = go(driver, env, ("never",))
    assert run.requests == []
    assert run.output == "canned answer"


@scenario
def before_model_stop(driver: Driver, env: AdapterEnv) -> None:
    env.hook("BeforeModel", {"continue": False, "stopReason": "budget"})
    env.log("AfterAgent")
    run = go(driver, env, ("never",))
    assert run.requests == []
    assert run.stop == "budget"
    assert env.inputs("AfterAgent") == []


@scenario
def before_model_malformed_is_ignored(driver: Driver, env: AdapterEnv) -> None:
    env.hook("BeforeModel", {"hookSpecificOutput": {"llm_request": {"messages": "not a list"}}})
    run = go(driver, env, ("done",), prompts=["original prompt"])
    assert run.requests[0].texts("user") == ["original prompt"]
    assert any("llm_request" in w for w in run.kinds("warning"))
    assert run.output == "done"


@scenario
def after_model_replace_keeps_tool_calls(driver: Driver, env: AdapterEnv) -> None:
    env.hook(
        "AfterModel",
        {
            "hookSpecificOutput": {
                "llm_response": {
                    "candidates": [{"content": {"role": "model", "parts": ["replaced"]}}]
                }
            }
        },
    )
    run = go(driver, env, ("original", call("shell", cmd="ls")), ("final",))
    assert run.count("shell") == 1
    assert "replaced" in run.requests[1].texts("model") and "original" not in run.requests[1]
    assert run.output == "replaced"
    assert len(env.inputs("AfterModel")) == 2  # once per response


@scenario
def after_model_deny(driver: Driver, env: AdapterEnv) -> None:
    env.hook("AfterModel", {"decision": "deny", "reason": "unsafe"})
    env.log("AfterAgent")
    run = go(driver, env, ("leaked", call("shell", cmd="ls")), ("never",))
    assert run.count("shell") == 0
    assert len(run.requests) == 1
    assert "leaked" not in run.output
    assert len(env.inputs("AfterAgent")) == 1  # the turn ended normally


@scenario
def before_tool_selection(driver: Driver, env: AdapterEnv) -> None:
    env.hook(
        "BeforeToolSelection",
        {"hookSpecificOutput": {"toolConfig": {"mode": "ANY", "allowedFunctionNames": ["echo"]}}},
    )
    run = go(driver, env, (call("shell", cmd="ls"),), ("done",))
    assert run.requests[0].tools == ["echo"] and run.requests[0].forced
    assert run.count("shell") == 0
    refused = run.requests[1].texts("tool")[0]
    assert refused.startswith("Tool call refused:") and "BeforeToolSelection" in refused


# ---- lifecycle and failures ------------------------------------------------------------------------------
@scenario
def lifecycle(driver: Driver, env: AdapterEnv) -> None:
    env.log("SessionStart")
    env.log("SessionEnd")
    go(driver, env, ("a1",), ("a2",), prompts=["p1", "p2"])
    assert [i["source"] for i in env.inputs("SessionStart")] == ["startup"]
    assert [i["reason"] for i in env.inputs("SessionEnd")] == ["exit"]


@scenario
def hook_failure_warns_and_proceeds(driver: Driver, env: AdapterEnv) -> None:
    env.hook("BeforeTool", {"$exit": 1, "$stderr": "boom"})
    run = go(driver, env, (call("shell", cmd="ls"),), ("done",))
    assert run.count("shell") == 1
    assert any("boom" in w or "exit" in w for w in run.kinds("warning"))


@scenario
def hook_failure_fail_closed_denies(driver: Driver, env: AdapterEnv) -> None:
    env.hook("BeforeTool", {"$exit": 1, "$stderr": "boom"}, fail_closed=True)
    run = go(driver, env, (call("shell", cmd="ls"),), ("done",))
    assert run.count("shell") == 0
    assert run.requests[1].texts("tool")[0].startswith("Tool execution blocked:")


# ---- Claude Code's answers (issue 21; docs/claude.md's table, column "adapters") ---------------------------
@scenario
def after_tool_updated_tool_output(driver: Driver, env: AdapterEnv) -> None:
    """row: output updatedToolOutput — the later hook in plan order wins; a plain string is dropped, with a
    warning; every hook sees the framework's call id as tool_use_id only in the Claude dialect."""
    env.hook("AfterTool", {"hookSpecificOutput": {"updatedToolOutput": {"llmContent": "FIRST"}}})
    env.hook(
        "AfterTool", {"hookSpecificOutput": {"updatedToolOutput": {"llmContent": "[redacted]"}}}
    )
    env.hook("AfterTool", {"hookSpecificOutput": {"updatedToolOutput": "a plain string"}})
    run = go(driver, env, (call("shell", cmd="cat key"),), ("done",))
    assert run.count("shell") == 1
    assert run.requests[1].texts("tool") == ["[redacted]"]
    assert "shell:cat key" not in run.requests[1]
    assert any("updatedToolOutput was dropped: it is a string" in w for w in run.kinds("warning"))
    assert all(
        "tool_use_id" not in i for i in env.inputs("AfterTool")
    )  # native hooks: the contract only
