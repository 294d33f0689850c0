"""Broken settings files: helpers to load them through the API and the CLI and check the message."""

from __future__ import annotations

import contextlib
import io
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hookwise import HookSystem
from hookwise.cli.main import main

#: a settings file with every construct a user writes: comments, all sections, several hooks
VALID = """// project settings, written by hand
{
  /* hooks that guard the repository */
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "write_file|replace",
        "sequential": false,
        "hooks": [
          {"type": "command", "command": "echo '{}'", "name": "guard", "timeout": 5000,
           "env": {"MODE": "strict"}, "description": "checks writes"},
          {"type": "command", "command": "true", "name": "second"}
        ]
      }
    ],
    "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]}]
  },
  "hooksConfig": {"enabled": true, "disabled": ["second"]},
  "security": {"environmentVariableRedaction": {"blocked": ["MY_TOKEN"]}},
  "general": {"vimMode": true} // trailing comment
}
"""

USER_HOOK = {
    "hooks": {
        "BeforeTool": [{"hooks": [{"type": "command", "command": "true", "name": "user-guard"}]}]
    }
}


@dataclass
class CliRun:
    code: int
    out: str
    err: str


def cli(*args: str) -> CliRun:
    """Run the CLI in-process, as a user would (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:  # pragma: no cover - main returns its status
            code = int(exc.code or 0)
    return CliRun(code, out.getvalue(), err.getvalue())


@dataclass
class Layers:
    project: Path
    home: Path

    @property
    def project_file(self) -> Path:
        return self.project / ".gemini" / "settings.json"

    @property
    def user_file(self) -> Path:
        return self.home / ".gemini" / "settings.json"

    def write_project(self, data: bytes | str) -> Path:
        p = self.project_file
        p.parent.mkdir(parents=True, exist_ok=True)
        if p.is_dir() and not p.is_symlink():
            os.rmdir(p)
        elif p.is_symlink() or p.exists():
            p.unlink()
        p.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
        return p

    def check_broken(
        self, path: Path, *, expect: str | None = None, cli_too: bool = True
    ) -> list[str]:
        """Load the layers: no exception, the other layer still loads, a message names ``path``."""
        hs = HookSystem(self.project)
        assert any(e.name == "user-guard" for e in hs.entries), (
            "a broken file must not cost the other layers"
        )
        mine = [w for w in hs.warnings if str(path) in w]
        assert mine, f"no warning names {path}: {hs.warnings}"
        if expect is not None:
            assert any(expect in w for w in mine), mine
        for w in hs.warnings:
            assert "Traceback" not in w
        if cli_too:
            for args, codes in (
                (("list",), {0}),
                (("fire", "BeforeTool", "--tool", "read_file"), {0}),
                (("validate",), {1}),
            ):
                r = cli("--project", str(self.project), *args)
                assert r.code in codes, (args, r)
                assert str(path) in r.err or str(path) in r.out, (args, r)
                for text in (r.out, r.err):
                    assert "Traceback" not in text and "internal error" not in text, (args, r)
        return mine


@pytest.fixture
def layers(tmp_path: Path, _isolated_gemini_home: Path, monkeypatch: pytest.MonkeyPatch) -> Layers:
    monkeypatch.setenv("HOOKWISE_TRUST_ALL", "1")
    project = tmp_path / "project"
    project.mkdir()
    box = Layers(project, _isolated_gemini_home)
    box.user_file.parent.mkdir(parents=True, exist_ok=True)
    box.user_file.write_text(json.dumps(USER_HOOK))
    return box


def pytest_terminal_summary(terminalreporter: Any) -> None:
    from faults._stats import terminal_summary

    terminal_summary(terminalreporter)
