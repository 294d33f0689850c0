"""The example project's hooks, tested with hookwise's own tools: case files, the pytest fixture,
validate, doctor and enable/disable (all on temporary copies; examples/ is never modified)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from hookwise.testing import HookTester

from .conftest import Sandbox

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "project"

pytestmark = pytest.mark.skipif(
    not (EXAMPLE / ".gemini" / "settings.json").exists(), reason="examples/project not present"
)


@pytest.mark.slow
def test_case_files_pass_through_the_fixture(hooks: HookTester) -> None:
    hooks.copy_project(EXAMPLE)
    results = hooks.assert_cases(hooks.project_dir)
    assert len(results) >= 9


@pytest.mark.slow
def test_fixture_one_liners(hooks: HookTester) -> None:
    hooks.copy_project(EXAMPLE)
    assert hooks.fire(
        "BeforeTool", tool="run_shell_command", tool_input={"command": "rm -rf ~"}
    ).blocked
    r = hooks.fire(
        "BeforeTool", tool="run_shell_command", tool_input={"command": "git push -f origin dev"}
    )
    assert not r.blocked
    safer = {"command": "git push --force-with-lease origin dev"}
    assert r.tool_input_for({"command": "git push -f origin dev"}) == safer
    ctx = hooks.fire("BeforeAgent", prompt="hello")
    assert ctx.hook_context is not None and "Team conventions" in ctx.hook_context
    assert not hooks.warnings


@pytest.mark.slow
def test_disabled_guard_makes_its_cases_fail(hooks: HookTester) -> None:
    hooks.copy_project(EXAMPLE)
    hooks.disable("shell-guard")
    results = hooks.run_cases(hooks.project_dir)
    failed = {r.case.name for r in results if not r.passed}
    assert "rm -rf / is refused" in failed
    assert "writing an AWS key is refused" not in failed


def copy_example(sandbox: Sandbox) -> Path:
    shutil.copytree(EXAMPLE, sandbox.project, dirs_exist_ok=True)
    return sandbox.project


@pytest.mark.slow
def test_cli_test_with_junit(sandbox: Sandbox) -> None:
    copy_example(sandbox)
    r = sandbox.run("test", "--junit", str(sandbox.root / "junit.xml"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 failed" in r.stdout
    assert 'failures="0"' in (sandbox.root / "junit.xml").read_text()


@pytest.mark.slow
def test_validate_and_doctor_are_clean(sandbox: Sandbox) -> None:
    copy_example(sandbox)
    v = sandbox.run("validate")
    assert v.returncode == 0 and v.stdout == "", v.stdout
    d = sandbox.run("doctor", "--yes")
    assert d.returncode == 0, d.stdout + d.stderr
    assert "0 could not run" in d.stderr
    assert all(line.startswith(("ok", "WARN")) for line in d.stdout.splitlines())


@pytest.mark.slow
def test_toggle_keeps_the_example_file_intact(sandbox: Sandbox) -> None:
    copy_example(sandbox)
    before = sandbox.project_settings.read_text()
    assert sandbox.run("disable", "secret-scan").returncode == 0
    assert sandbox.run("enable", "secret-scan").returncode == 0
    after = sandbox.project_settings.read_text()
    # the only difference: an (empty) hooksConfig.disabled list was added at the end
    assert after.startswith(before.rstrip()[:-1].rstrip())
    assert '"hooksConfig"' in after and "// Example hookwise project" in after


def test_python_is_the_interpreter_of_the_examples() -> None:
    # the example hooks run with `python3`; this suite needs it on PATH
    assert shutil.which("python3") is not None, sys.executable
