"""Shared fixtures: every test gets an isolated user dir and no system settings.

``project`` builds a real project tree in a temporary directory: settings files
for any layer and small hook scripts (run with this interpreter).
"""

from __future__ import annotations

import json
import os
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from _tiers import is_quick_run, package_modules


@pytest.fixture(autouse=True)
def _isolated_gemini_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("GEMINI_CLI_HOME", str(home))
    monkeypatch.setenv(
        "XDG_CACHE_HOME", str(home / ".cache")
    )  # hookwise's caches (hook package discovery)
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", str(home / "no-system-defaults.json"))
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(home / "no-system-settings.json"))
    monkeypatch.delenv("HOOKWISE_TRUST_ALL", raising=False)
    monkeypatch.delenv("GITHUB_SHA", raising=False)
    return home


#: variables a caller's shell session may export that change what a hook or bash does (prompts of an
#: activated virtual environment, bash start-up files and options, exported functions, hookwise's
#: own switches)
SHELL_SESSION_VARS = (
    "PS0",
    "PS1",
    "PS2",
    "PS3",
    "PS4",
    "PROMPT_COMMAND",
    "BASH_ENV",
    "ENV",
    "SHELLOPTS",
    "BASHOPTS",
    "IFS",
    "CDPATH",
    "GLOBIGNORE",
    "POSIXLY_CORRECT",
    "HOOKWISE_DEBUG",
)


@pytest.fixture(autouse=True)
def _no_shell_session_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts from the same environment, whatever shell (or activated venv) runs
    pytest."""
    for name in list(os.environ):
        if name in SHELL_SESSION_VARS or name.startswith("BASH_FUNC_"):
            monkeypatch.delenv(name)


class Project:
    """A project directory with helpers to write settings layers and hook scripts."""

    def __init__(self, root: Path, home: Path) -> None:
        self.root = root
        self.home = home
        self.user_dir = home / ".gemini"

    def settings_path(self, layer: str = "project") -> Path:
        if layer == "project":
            return self.root / ".gemini" / "settings.json"
        if layer == "user":
            return self.user_dir / "settings.json"
        if layer == "system":
            return Path(os.environ["GEMINI_CLI_SYSTEM_SETTINGS_PATH"])
        if layer == "system-defaults":
            return Path(os.environ["GEMINI_CLI_SYSTEM_DEFAULTS_PATH"])
        raise ValueError(layer)

    def write_settings(self, settings: dict[str, Any] | str, layer: str = "project") -> Path:
        path = self.settings_path(layer)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(settings if isinstance(settings, str) else json.dumps(settings, indent=2))
        return path

    def hooks(
        self,
        event: str,
        *commands: str | dict[str, Any],
        matcher: str | None = None,
        sequential: bool | None = None,
        layer: str = "project",
    ) -> Path:
        """Write settings with one definition of ``commands`` for ``event`` (replacing the layer's
        file)."""
        hooks = [c if isinstance(c, dict) else {"type": "command", "command": c} for c in commands]
        definition: dict[str, Any] = {"hooks": hooks}
        if matcher is not None:
            definition["matcher"] = matcher
        if sequential is not None:
            definition["sequential"] = sequential
        return self.write_settings({"hooks": {event: [definition]}}, layer)

    def script(self, name: str, body: str) -> str:
        """Write a Python hook script; returns a command that runs it with this interpreter."""
        path = self.root / ".gemini" / "hooks" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("import json, os, sys\n" + textwrap.dedent(body))
        return f'{sys.executable} "$GEMINI_PROJECT_DIR/.gemini/hooks/{name}"'


@pytest.fixture
def project(tmp_path: Path, _isolated_gemini_home: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    return Project(root, _isolated_gemini_home)


@pytest.fixture
def trust_all(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOOKWISE_TRUST_ALL", "1")


def emit(
    stdout: Any = None, *, exit: int = 0, stderr: str | None = None, sleep: float | None = None
) -> str:
    """A bash command hook that prints ``stdout`` (JSON-encoded unless a str) and exits with
    ``exit``."""
    import shlex

    parts = []
    if sleep:
        parts.append(f"sleep {sleep}")
    if stdout is not None:
        text = stdout if isinstance(stdout, str) else json.dumps(stdout)
        parts.append(f"printf '%s\\n' {shlex.quote(text)}")
    if stderr is not None:
        parts.append(f"printf '%s\\n' {shlex.quote(stderr)} >&2")
    parts.append(f"exit {exit}")
    return "; ".join(parts)


@pytest.fixture(autouse=True)
def _no_inherited_telemetry(monkeypatch: pytest.MonkeyPatch) -> None:
    """OTEL_* / GEMINI_TELEMETRY_* of the caller's shell must not switch telemetry on in tests."""
    for name in list(os.environ):
        if name.startswith(("OTEL_", "GEMINI_TELEMETRY_")) or name == "TRACEPARENT":
            monkeypatch.delenv(name, raising=False)


#: modules the quick tier runs only in a child process (so they never appear in this process's
#: ``sys.modules``): each with the test file whose quick tests run it, and the text in that file
#: that starts the process (tests/test_tiers.py checks both exist)
PROCESS_ONLY = {
    "hookwise.__main__": ("tests/gateway/test_mcp_relay.py", '"-m", "hookwise"'),
    "hookwise.agent.interactive": ("tests/agent/test_interactive.py", "pexpect"),
    "hookwise.demo.hooks.project_context": ("tests/agent/test_demo.py", 'run_demo("--trace"'),
    "hookwise.demo.hooks.release_gate": ("tests/agent/test_demo.py", 'run_demo("--trace"'),
    "hookwise.demo.hooks.secret_redactor": ("tests/agent/test_demo.py", 'run_demo("--trace"'),
    "hookwise.demo.hooks.shell_guard": ("tests/agent/test_demo.py", 'run_demo("--trace"'),
    "hookwise.gateway.relay": ("tests/gateway/test_mcp_relay.py", '"mcp", "--"'),
    "hookwise.runners._isolated": ("tests/runners/test_python_containment.py", "isolate=True"),
    # the warm interpreter's program: read as text and run by the hook's python, never imported
    "hookwise.runners._zygote": ("tests/runners/test_warm_python.py", "zygote_pids"),
}
_passed_files: set[str] = set()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.passed:
        _passed_files.add(report.nodeid.split("::", 1)[0])


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The quick tier covers every module of hookwise (checked when it runs whole and green): each
    is loaded by a test in this process, or is in :data:`PROCESS_ONLY` and its test file ran."""
    import hookwise

    if exitstatus != 0 or not is_quick_run(session.config):
        return
    unloaded = package_modules(Path(hookwise.__file__).parent) - set(sys.modules)
    missed = sorted(m for m in unloaded if PROCESS_ONLY.get(m, ("",))[0] not in _passed_files)
    if missed:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        text = "the quick tier (-m 'not slow') loads none of: " + ", ".join(missed)
        text += " (a quick test must use each module; see PROCESS_ONLY in tests/conftest.py)"
        if reporter is not None:
            reporter.write_line(text, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
