"""A CrewAI crew governed by the example project's hooks, offline.

    pip install "hookwise[crewai]"
    python examples/adapters/crewai_example.py

CrewAI ships no test model, so the LLM below is a ``BaseLLM`` subclass answering in CrewAI's own
ReAct text. It asks for ``rm -rf /`` (the project's shell-guard denies it: the tool never runs;
CrewAI shows the model its own "blocked by hook" text and the reason goes to ``on_message``) and for
``git push --force`` (shell-guard rewrites it to ``--force-with-lease``). BeforeAgent's
project-context hook adds the team's conventions to the task's prompt, which the LLM prints.
``tool_aliases`` makes the project's ``run_shell_command`` matcher apply to this crew's ``shell``
tool.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

os.environ.setdefault(
    "CREWAI_TESTING", "true"
)  # CrewAI's own switch: no tracing prompt in this demo
os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")

from crewai import Agent, Crew, Task  # noqa: E402
from crewai.llms.base_llm import BaseLLM  # noqa: E402
from crewai.tools import tool  # noqa: E402

from hookwise import HookSystem  # noqa: E402
from hookwise.adapters.crewai import HookwiseCrewHooks  # noqa: E402

PROJECT = Path(__file__).resolve().parents[1] / "project"
SCRIPT = ["rm -rf /", "git push --force"]


@tool("shell")
def shell(command: str) -> str:
    """Run a shell command (this example only prints it)."""
    print(f"  [tool] shell would run: {command}")
    return f"ran: {command}"


class ScriptedLLM(BaseLLM):  # type: ignore[misc]
    """Asks for each scripted command in turn, then answers; shows what it was told."""

    def __init__(self) -> None:
        super().__init__(model="scripted")
        self.step = 0

    def call(self, messages: Any, tools: Any = None, callbacks: Any = None, **kw: Any) -> str:
        last = str(messages[-1]["content"])
        if self.step == 0:
            print("  [model] context:", "<hook_context>" in last)
        else:
            print(
                "  [model] observation:", last.rsplit("Observation:", 1)[-1].strip().splitlines()[0]
            )
        self.step += 1
        if self.step <= len(SCRIPT):
            args = json.dumps({"command": SCRIPT[self.step - 1]})
            return f"Thought: run it\nAction: shell\nAction Input: {args}"
        return "Thought: done\nFinal Answer: Cleaned up what I was allowed to and pushed."

    def supports_function_calling(self) -> bool:
        return False


def main() -> None:
    # trust_all: this demo trusts the example project's hooks; in your project run `hookwise trust`
    # once
    hooks = HookSystem(PROJECT, trust_all=True)
    agent = Agent(
        role="release helper", goal="ship", backstory="You ship.", llm=ScriptedLLM(), tools=[shell]
    )
    task = Task(
        description="Clean up the build and push.", expected_output="a summary", agent=agent
    )
    with HookwiseCrewHooks(
        hooks,
        tool_aliases={"shell": "run_shell_command"},
        on_message=lambda kind, text: print(f"  [hookwise {kind}] {text}"),
    ):  # registers CrewAI's execution hooks; SessionEnd when the block ends
        result = Crew(agents=[agent], tasks=[task]).kickoff()
    print("answer:", result.raw)


if __name__ == "__main__":
    main()
