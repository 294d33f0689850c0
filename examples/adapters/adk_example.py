"""Google ADK agent governed by the example project's hooks, fully offline.

    pip install "hookwise[adk]"
    python examples/adapters/adk_example.py

The model is a scripted ``BaseLlm`` (no API key): it asks for two shell commands, then answers.
The project's ``shell-guard`` hook (``examples/project/.gemini/settings.json``) refuses the first
and rewrites the second; ``project-context`` adds the branch and conventions to the prompt. The tool
only pretends to run commands.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.genai import types

from hookwise import HookSystem
from hookwise.adapters.adk import HookwisePlugin

PROJECT = Path(__file__).resolve().parents[1] / "project"


def _call(command: str) -> LlmResponse:
    return LlmResponse(
        content=types.Content(
            role="model",
            parts=[
                types.Part(
                    function_call=types.FunctionCall(name="shell", args={"command": command})
                )
            ],
        )
    )


class ScriptedModel(BaseLlm):  # type: ignore[misc]
    """An offline model: the N-th call gets the N-th scripted answer; it prints what it was sent."""

    model: str = "scripted"
    script: list[Any] = []

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1].model_dump(mode="json", exclude_none=True)
        print("model <-", json.dumps(last)[:300])
        yield self.script.pop(0)


def shell(command: str) -> dict[str, Any]:
    """Run a shell command (this example only pretends)."""
    return {"result": f"(pretend) ran: {command}"}


async def main() -> None:
    model = ScriptedModel(
        script=[
            _call("rm -rf /"),
            _call("git push --force origin main"),
            LlmResponse(
                content=types.Content(
                    role="model", parts=[types.Part.from_text(text="Pushed safely.")]
                )
            ),
        ]
    )
    agent = LlmAgent(
        name="helper", model=model, tools=[shell], instruction="You are a careful assistant."
    )
    # trust_all: this example trusts its own project's hooks (a real project runs `hookwise trust`
    # once)
    hooks = HookSystem(PROJECT, trust_all=True)
    plugin = HookwisePlugin(
        hooks,
        tool_aliases={"shell": "run_shell_command"},
        on_message=lambda kind, text: print(f"[{kind}] {text}"),
    )
    runner = InMemoryRunner(agent=agent, plugins=[plugin])
    session = await runner.session_service.create_session(app_name=runner.app_name, user_id="me")
    prompt = types.Content(
        role="user", parts=[types.Part.from_text(text="Clean up and push my branch.")]
    )
    async for event in runner.run_async(user_id="me", session_id=session.id, new_message=prompt):
        for part in event.content.parts if event.content else []:
            if part.text:
                print("agent:", part.text)
    await runner.close()


if __name__ == "__main__":
    asyncio.run(main())
