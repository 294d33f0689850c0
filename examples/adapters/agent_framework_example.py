"""A Microsoft Agent Framework agent governed by the example project's hooks, offline.

    pip install "hookwise[agent-framework]"
    python examples/adapters/agent_framework_example.py

The framework ships no test model, so the chat client below is the ``BaseChatClient`` subclass its
docs show, stacked on the framework's own function-invocation and chat-middleware layers. It asks
for ``rm -rf /`` (the project's shell-guard denies it: the tool never runs) and for
``git push --force`` (shell-guard rewrites it to ``--force-with-lease``). BeforeAgent's
project-context hook adds the team's conventions to the prompt, which the client prints.
``tool_aliases`` makes the project's ``run_shell_command`` matcher apply to this agent's ``shell``
tool.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from agent_framework import (
    Agent,
    BaseChatClient,
    ChatMiddlewareLayer,
    ChatResponse,
    Content,
    FunctionInvocationLayer,
    Message,
    tool,
)

from hookwise import HookSystem
from hookwise.adapters.agent_framework import HookwiseMiddleware

PROJECT = Path(__file__).resolve().parents[1] / "project"
SCRIPT = ["rm -rf /", "git push --force"]


@tool
def shell(command: str) -> str:
    """Run a shell command (this example only prints it)."""
    print(f"  [tool] shell would run: {command}")
    return f"ran: {command}"


class ScriptedClient(FunctionInvocationLayer, ChatMiddlewareLayer, BaseChatClient):  # type: ignore[misc]
    """Asks for each scripted command in turn, then answers; shows what the model was told."""

    def _inner_get_response(self, *, messages: Any, stream: bool, options: Any, **kw: Any) -> Any:
        results = [c for m in messages for c in m.contents if c.type == "function_result"]
        if not results:
            prompt = [m.text for m in messages if m.role == "user"]
            print("  [model] received:", " | ".join(t.splitlines()[0] for t in prompt if t))
            print("  [model] context:", "<hook_context>" in " ".join(prompt))
        else:
            print(f"  [model] tool result: {str(results[-1].result).splitlines()[0]}")
        if len(results) < len(SCRIPT):
            call = Content.from_function_call(
                call_id=f"c{len(results)}",
                name="shell",
                arguments={"command": SCRIPT[len(results)]},
            )
            contents = [call]
        else:
            contents = [Content.from_text("Cleaned up what I was allowed to and pushed.")]

        async def answer() -> ChatResponse:
            return ChatResponse(messages=[Message(role="assistant", contents=contents)])

        return answer()


async def main() -> None:
    # trust_all: this demo trusts the example project's hooks; in your project run `hookwise trust`
    # once
    hooks = HookSystem(PROJECT, trust_all=True)
    middleware = HookwiseMiddleware(
        hooks,
        tool_aliases={"shell": "run_shell_command"},
        on_message=lambda kind, text: print(f"  [hookwise {kind}] {text}"),
    )
    agent = Agent(client=ScriptedClient(), name="helper", tools=[shell], middleware=[middleware])
    result = await agent.run("Clean up the build and push.")
    await middleware.aclose()  # fires SessionEnd
    print("answer:", result.messages[-1].text)


if __name__ == "__main__":
    asyncio.run(main())
