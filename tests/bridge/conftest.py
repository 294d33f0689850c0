"""Fixtures of the bridge tests: recorded agent payloads and hooks that record what they receive."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import Project

PAYLOADS = Path(__file__).parent / "payloads"


def payload(agent: str, name: str, project: Project) -> dict[str, Any]:
    """A payload the real agent sent (tests/bridge/payloads/<agent>/<name>.json), placed in
    ``project``."""
    text = (PAYLOADS / agent / f"{name}.json").read_text()
    for placeholder, value in (
        ("<project>", str(project.root)),
        ("<home>", str(project.home)),
        ("<project-slug>", "project"),
        ("<tmp>", str(project.root.parent)),
    ):
        text = text.replace(placeholder, value)
    value = json.loads(text)
    assert isinstance(value, dict)
    return value


def payload_names(agent: str) -> list[str]:
    return sorted(p.stem for p in (PAYLOADS / agent).glob("*.json"))


RECORDER = """
import json, os, sys
data = sys.stdin.read()
with open(os.path.join(os.path.dirname(__file__), {log!r}), "a") as f:
    f.write(data.strip() + "\\n")
answer = os.path.join(os.path.dirname(__file__), {answer!r})
if os.path.exists(answer):
    sys.stdout.write(open(answer).read())
"""


class Recorder:
    """A hook script that appends its stdin to a log and prints the answer file's text, if any."""

    def __init__(self, project: Project, name: str) -> None:
        self.dir = project.root / ".gemini" / "hooks"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.script = self.dir / f"{name}.py"
        self.log = self.dir / f"{name}.log"
        self.answer_file = self.dir / f"{name}.answer"
        self.script.write_text(RECORDER.format(log=self.log.name, answer=self.answer_file.name))
        self.command = f'{sys.executable} "{self.script}"'

    def answer(self, value: dict[str, Any] | str) -> None:
        self.answer_file.write_text(value if isinstance(value, str) else json.dumps(value))

    def seen(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.strip()]


@pytest.fixture
def bridge_project(project: Project) -> tuple[Project, Recorder, Recorder]:
    """A project with two recording hooks on every event: a contract hook and a Claude-dialect
    one."""
    contract = Recorder(project, "contract")
    claude = Recorder(project, "claude")
    events = [
        "BeforeTool",
        "AfterTool",
        "BeforeAgent",
        "AfterAgent",
        "SessionStart",
        "SessionEnd",
        "PreCompress",
        "Notification",
        "BeforeModel",
        "AfterModel",
        "BeforeToolSelection",
    ]
    hooks = {
        ev: [
            {
                "hooks": [
                    {"type": "command", "command": contract.command, "name": "contract"},
                    {
                        "type": "command",
                        "command": claude.command,
                        "name": "claude-dialect",
                        "dialect": "claude",
                    },
                ]
            }
        ]
        for ev in events
    }
    # hookwise's own settings live in the user layer here: a project .gemini file would be the
    # agent's own file for the Gemini agents
    project.write_settings({"hooks": hooks}, layer="user")
    return project, contract, claude
