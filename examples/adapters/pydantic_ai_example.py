"""A pydantic-ai agent governed by the example project's hooks, offline (pydantic-ai's own
FunctionModel).

    pip install "hookwise[pydantic-ai]"
    python examples/adapters/pydantic_ai_example.py

The scripted model asks for ``rm -rf /`` (the project's shell-guard denies it: the tool never runs)
and for ``git push --force`` (shell-guard rewrites it to ``--force-with-lease``). BeforeAgent's
project-context hook adds the team's conventions to the prompt, which the model below prints.
``tool_aliases`` makes the project's ``run_shell_command`` matcher apply to this agent's ``shell``
tool.
"""

from __future__ import annotations

from pathlib import Path

from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from hookwise import HookSystem
from hookwise.adapters.pydantic_ai import HookwiseCapability

PROJECT = Path(__file__).resolve().parents[1] / "project"
SCRIPT = [("c1", "rm -rf /"), ("c2", "git push --force")]


def shell(command: str) -> str:
    """Run a shell command (this example only prints it)."""
    print(f"  [tool] shell would run: {command}")
    return f"ran: {command}"


def scripted(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """Ask for each scripted command in turn, then answer; show what the model was told."""
    results = [p for m in messages for p in m.parts if isinstance(p, ToolReturnPart)]
    if not results:
        prompt = [p.content for m in messages for p in m.parts if isinstance(p, UserPromptPart)]
        print("  [model] received:", " | ".join(str(c).splitlines()[0] for c in prompt))
    else:
        print(f"  [model] tool result: {str(results[-1].content).splitlines()[0]}")
    if len(results) < len(SCRIPT):
        call_id, command = SCRIPT[len(results)]
        return ModelResponse(
            parts=[ToolCallPart("shell", {"command": command}, tool_call_id=call_id)]
        )
    return ModelResponse(parts=[TextPart("Cleaned up what I was allowed to and pushed.")])


def main() -> None:
    # trust_all: this demo trusts the example project's hooks; in your project run `hookwise trust`
    # once
    hooks = HookSystem(PROJECT, trust_all=True)
    capability = HookwiseCapability(
        hooks,
        tool_aliases={"shell": "run_shell_command"},
        on_message=lambda kind, text: print(f"  [hookwise {kind}] {text}"),
    )
    agent = Agent(FunctionModel(scripted), tools=[shell], capabilities=[capability])
    with capability:  # fires SessionEnd when done
        result = agent.run_sync("Clean up the build and push.")
    print("answer:", result.output)


if __name__ == "__main__":
    main()
