"""Fault injection: each case runs a real misbehaving hook and checks outcome, time and
leftovers."""

from __future__ import annotations

import json
import sys
import textwrap
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hookwise import HookSystem
from hookwise.result import FireResult, HookOutcome
from hookwise.runners._process import KILL_GRACE_S

from ._procs import kill_all, marked_processes, read_pids, wait_gone

#: generous allowance on top of timeout + grace for a loaded 2-core CI machine
SLACK_S = 3.0
PY = sys.executable


@dataclass
class Run:
    result: FireResult
    elapsed: float
    pids: list[int]

    @property
    def hook(self) -> HookOutcome:
        assert len(self.result.hooks) == 1, self.result.hooks
        return self.result.hooks[0]


class Faults:
    """Writes hook scripts and user-layer settings; fires; records the pids the hooks wrote."""

    def __init__(self, root: Path, user_settings: Path) -> None:
        self.root = root
        self.piddir = root / "pids"
        self.piddir.mkdir()
        self.user_settings = user_settings
        self.project_dir = root / "project"
        self.project_dir.mkdir()

    def script(self, name: str, body: str, *, mode: int = 0o755, python: bool = False) -> Path:
        path = self.root / "hooks" / name
        path.parent.mkdir(exist_ok=True)
        text = textwrap.dedent(body).lstrip("\n")
        if python:
            text = (
                f"#!{PY}\nimport json, os, signal, sys, time\n"
                "def note(pid=None):\n"
                "    with open(os.path.join(os.environ['PIDDIR'], 'pids'), 'a') as f:\n"
                "        f.write(f'{pid or os.getpid()}\\n')\n" + text
            )
        path.write_text(text)
        path.chmod(mode)
        return path

    def hooks(
        self, *commands: str | dict[str, Any], event: str = "BeforeTool", timeout_ms: int = 500
    ) -> None:
        hooks = []
        for i, c in enumerate(commands):
            h: dict[str, Any] = {"type": "command", "name": f"h{i}", "timeout": timeout_ms}
            h.update({"command": c} if isinstance(c, str) else c)
            h.setdefault("env", {})["PIDDIR"] = str(self.piddir)
            hooks.append(h)
        self.user_settings.parent.mkdir(parents=True, exist_ok=True)
        self.user_settings.write_text(json.dumps({"hooks": {event: [{"hooks": hooks}]}}))

    def system(self, **kw: Any) -> HookSystem:
        return HookSystem(self.project_dir, **kw)

    def fire(
        self,
        payload: dict[str, Any] | None = None,
        *,
        event: str = "BeforeTool",
        hs: HookSystem | None = None,
    ) -> Run:
        hs = hs or self.system()
        payload = (
            payload if payload is not None else {"tool_name": "run_shell_command", "tool_input": {}}
        )
        t0 = time.monotonic()
        result = hs.fire(event, payload)
        return Run(result, time.monotonic() - t0, read_pids(self.piddir))


@pytest.fixture
def faults(tmp_path: Path, _isolated_gemini_home: Path) -> Faults:
    return Faults(tmp_path, _isolated_gemini_home / ".gemini" / "settings.json")


@pytest.fixture(autouse=True)
def no_process_left_behind() -> Iterator[None]:
    """After every case: no process started by a hook run of this test process is alive."""
    before = set(marked_processes())
    yield
    left = wait_gone([p for p in marked_processes() if p not in before], within=3.0)
    kill_all(left)
    assert not left, f"hook processes left behind: {left}"


def bound(timeout_ms: int, *, grace: bool = True) -> float:
    """The upper bound a firing must finish within: timeout + kill grace + slack."""
    return timeout_ms / 1000 + (KILL_GRACE_S if grace else 0) + SLACK_S


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "fault: a fault-injection case (counted in docs/reliability.md)"
    )


def pytest_terminal_summary(terminalreporter: Any) -> None:
    from ._stats import terminal_summary

    terminal_summary(terminalreporter)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    from ._stats import record

    if report.when != "call":
        return
    if "fault" in report.keywords:
        record("fault cases run")
        if report.passed:
            record("fault cases passed")
