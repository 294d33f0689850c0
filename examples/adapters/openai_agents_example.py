"""OpenAI Agents SDK agent governed by the example project's hooks, fully offline.

    pip install "hookwise[openai-agents]"
    python examples/adapters/openai_agents_example.py

The model is the SDK's own ``agents.testing.ScriptedModel`` (no API key): it asks for two shell
commands, then answers. The project's ``shell-guard`` hook refuses the first and rewrites the
second; ``project-context`` adds the branch and conventions to every model call of the prompt. The
tool only pretends to run commands.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from agents import Agent, RunConfig, function_tool
from agents.testing import ModelStep, ScriptedModel, assistant_message, function_call

from hookwise import HookSystem
from hookwise.adapters import openai_agents

PROJECT = Path(__file__).resolve().parents[1] / "project"


@function_tool
def shell(command: str) -> str:
    """Run a shell command (this example only pretends)."""
    return f"(pretend) ran: {command}"


async def main() -> None:
    model = ScriptedModel(
        [
            ModelStep(output=[function_call("shell", {"command": "rm -rf /"}, call_id="c1")]),
            ModelStep(
                output=[
                    function_call(
                        "shell", {"command": "git push --force origin main"}, call_id="c2"
                    )
                ]
            ),
            ModelStep(output=[assistant_message("Pushed safely.")]),
        ]
    )
    agent = Agent(
        name="helper", model=model, tools=[shell], instructions="You are a careful assistant."
    )
    # trust_all: this example trusts its own project's hooks (a real project runs `hookwise trust`
    # once)
    hooks = HookSystem(PROJECT, trust_all=True)
    result = await openai_agents.run(
        agent,
        "Clean up and push my branch.",
        hooks,
        tool_aliases={"shell": "run_shell_command"},
        on_message=lambda kind, text: print(f"[{kind}] {text}"),
        run_config=RunConfig(tracing_disabled=True),
    )
    for call in model.calls:
        print("model <-", json.dumps(call.input[-1], default=str)[:300])
    print("agent:", result.final_output)


if __name__ == "__main__":
    asyncio.run(main())
