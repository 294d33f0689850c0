"""Shared fixtures for the tooling tests: an isolated user dir, system paths and a project dir."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest


@dataclass
class Sandbox:
    root: Path
    project: Path
    home: Path  # GEMINI_CLI_HOME
    system_settings: Path
    system_defaults: Path

    @property
    def user_settings(self) -> Path:
        return self.home / ".gemini" / "settings.json"

    @property
    def project_settings(self) -> Path:
        return self.project / ".gemini" / "settings.json"

    def write(self, path: Path, content: str | dict[str, Any]) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        text = content if isinstance(content, str) else json.dumps(content, indent=2) + "\n"
        path.write_text(text, encoding="utf-8")
        return path

    def script(self, name: str, body: str, *, executable: bool = True) -> Path:
        path = self.project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
        if executable:
            path.chmod(0o755)
        return path

    def run(
        self, *args: str, input: str | None = None, timeout: float = 60
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "hookwise", "--project", str(self.project), *args],
            capture_output=True,
            text=True,
            input=input,
            timeout=timeout,
            cwd=str(self.project),
            env=dict(os.environ),
        )


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Sandbox]:
    project = tmp_path / "project"
    project.mkdir()
    home = tmp_path / "home"
    home.mkdir()
    box = Sandbox(
        tmp_path,
        project,
        home,
        tmp_path / "etc" / "settings.json",
        tmp_path / "etc" / "system-defaults.json",
    )
    monkeypatch.setenv("GEMINI_CLI_HOME", str(home))
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(box.system_settings))
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", str(box.system_defaults))
    monkeypatch.setenv("HOOKWISE_TRUST_ALL", "1")
    yield box
