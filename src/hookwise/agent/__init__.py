"""The reference agent host behind ``hookwise agent`` (docs/contract.md §11).

* :mod:`~hookwise.agent.models` — a scripted model (Gemini CLI's fake-responses files) and the
  live Gemini API, behind one streaming interface;
* :mod:`~hookwise.host.llm_format` — translation to and from the hook-facing ``llm_request`` /
  ``llm_response`` / ``toolConfig`` format (pure);
* :mod:`~hookwise.agent.tools` — the seven built-in tools, confined to the project;
* :mod:`~hookwise.agent.loop` — :class:`AgentSession`, which fires every event and applies its
  result;
* :mod:`~hookwise.agent.interactive` — the interactive prompt.

Embedding it::

    from hookwise import HookSystem
    from hookwise.agent import AgentSession, ScriptedModel

    session = AgentSession(HookSystem("."), ScriptedModel.from_file("responses.jsonl"))
    session.start()
    session.run_prompt("list the files")
    session.end()
"""

from __future__ import annotations

from hookwise.agent.models import GeminiModel, Model, ScriptedModel
from hookwise.agent.session import AgentOptions, AgentSession, TurnStatus
from hookwise.agent.transcripts import TranscriptStore
from hookwise.agent.ui import AgentUI, HeadlessUI, Stats
from hookwise.errors import ModelError, ResponsesFileError

__all__ = [
    "AgentOptions",
    "AgentSession",
    "AgentUI",
    "GeminiModel",
    "HeadlessUI",
    "Model",
    "ModelError",
    "ResponsesFileError",
    "ScriptedModel",
    "Stats",
    "TranscriptStore",
    "TurnStatus",
]
