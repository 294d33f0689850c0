"""A LangChain agent governed by the example project's hooks, offline (LangChain's own fake chat
model).

    pip install "hookwise[langchain]"
    python examples/adapters/langchain_example.py

The scripted model asks for ``rm -rf /`` (the project's shell-guard denies it: the tool never runs)
and for ``git push --force`` (shell-guard rewrites it to ``--force-with-lease``: the tool runs with
the safer command). BeforeAgent's project-context hook adds the team's conventions to the prompt.
``tool_aliases`` makes the project's ``run_shell_command`` matcher apply to this agent's ``shell``
tool.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from hookwise import HookSystem
from hookwise.adapters.langchain import HookwiseMiddleware

PROJECT = Path(__file__).resolve().parents[1] / "project"


def shell(command: str) -> str:
    """Run a shell command (this example only prints it)."""
    print(f"  [tool] shell would run: {command}")
    return f"ran: {command}"


class ScriptedModel(GenericFakeChatModel):
    """LangChain's fake chat model; ``create_agent`` binds tools, which a fake model can ignore."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return self


def main() -> None:
    model = ScriptedModel(
        messages=iter(
            [
                AIMessage(
                    "", tool_calls=[{"name": "shell", "args": {"command": "rm -rf /"}, "id": "c1"}]
                ),
                AIMessage(
                    "",
                    tool_calls=[
                        {"name": "shell", "args": {"command": "git push --force"}, "id": "c2"}
                    ],
                ),
                AIMessage("Cleaned up what I was allowed to and pushed."),
            ]
        )
    )
    # trust_all: this demo trusts the example project's hooks; in your project run `hookwise trust`
    # once
    hooks = HookSystem(PROJECT, trust_all=True)
    middleware = HookwiseMiddleware(
        hooks,
        tool_aliases={"shell": "run_shell_command"},
        on_message=lambda kind, text: print(f"  [hookwise {kind}] {text}"),
    )
    agent = create_agent(model, [shell], middleware=[middleware])
    with middleware:  # fires SessionEnd when done
        result = agent.invoke(
            {"messages": [{"role": "user", "content": "Clean up the build and push."}]}
        )
    for message in result["messages"]:
        text = message.content if isinstance(message.content, str) else str(message.content)
        calls = ", ".join(f"{c['name']}({c['args']})" for c in getattr(message, "tool_calls", []))
        print(f"{type(message).__name__:>12}: {text.splitlines()[0] if text else calls}")


if __name__ == "__main__":
    main()
