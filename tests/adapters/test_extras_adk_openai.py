"""Without its framework, importing the ADK or openai-agents adapter raises ImportError naming the
extra (also on Python 3.10, where the extras install nothing)."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.slow
@pytest.mark.parametrize(
    ("module", "blocked", "extra"),
    [
        ("adk", "google.adk", "adk"),
        ("openai_agents", "agents", "openai-agents"),
        ("agent_framework", "agent_framework", "agent-framework"),
        ("crewai", "crewai.hooks", "crewai"),
    ],
)
def test_a_missing_framework_names_its_extra(module: str, blocked: str, extra: str) -> None:
    code = (
        f"import sys; sys.modules[{blocked!r}] = None\n"
        f"try:\n    import hookwise.adapters.{module}\nexcept ImportError as e:\n    print(e)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert f'pip install "hookwise[{extra}]"' in out
