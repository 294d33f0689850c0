"""enable / disable / enable-all / disable-all: only the intended bytes change."""

from __future__ import annotations

import difflib
import os

import pytest

from hookwise.cli.main import main
from hookwise.jsonc.parse import parse

from .conftest import Sandbox

PROJECT = """\
// Project settings -- hand written, odd indentation on purpose
{
   "model": {"name": "gemini-2.5-pro"},   /* other tool's key */
   "hooks": {
     "BeforeTool": [
        {
           "matcher": "write_file|replace",
           "hooks": [
              {"type": "command", "command": "./scan.sh", "name": "secret-scan"},
              {"type": "command", "command": "./fmt.sh"}
           ]
        }
     ],
     "AfterTool": [{"hooks": [{"type": "command", "command": "./log.sh", "name": "logger"}]}]
   },
   "hooksConfig": {
      // names listed here are switched off
      "disabled": [
         "logger"   // noisy
      ],
      "notifications": true
   },
   "zzz": [1, 2, {"keep": "me"}]
}
"""


def diff(a: str, b: str) -> list[str]:
    """Changed lines as '-old' / '+new' (ndiff's two-character prefix reduced to one)."""
    return [
        ln[0] + ln[2:]
        for ln in difflib.ndiff(a.splitlines(keepends=True), b.splitlines(keepends=True))
        if ln[:1] in "+-"
    ]


def run(sandbox: Sandbox, *args: str) -> int:
    return main(["--project", str(sandbox.project), *args])


@pytest.fixture
def proj(sandbox: Sandbox) -> Sandbox:
    sandbox.write(sandbox.project_settings, PROJECT)
    return sandbox


def test_disable_appends_one_line(proj: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(proj, "disable", "secret-scan") == 0
    after = proj.project_settings.read_text()
    assert diff(PROJECT, after) == [
        '-         "logger"   // noisy\n',
        '+         "logger",   // noisy\n',
        '+         "secret-scan"\n',
    ]
    assert "Disabled hook 'secret-scan'" in capsys.readouterr().out


def test_disable_by_command_when_no_name(proj: Sandbox) -> None:
    assert run(proj, "disable", "./fmt.sh") == 0
    assert parse(proj.project_settings.read_text())["hooksConfig"]["disabled"] == [
        "logger",
        "./fmt.sh",
    ]


def test_enable_removes_only_its_line(proj: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(proj, "disable", "secret-scan") == 0
    assert run(proj, "enable", "secret-scan") == 0
    assert proj.project_settings.read_text() == PROJECT  # byte-identical round trip
    assert run(proj, "enable", "logger") == 0
    after = proj.project_settings.read_text()
    assert diff(PROJECT, after) == ['-         "logger"   // noisy\n']
    assert parse(after)["hooksConfig"]["disabled"] == []
    out = capsys.readouterr().out
    assert "Enabled hook 'logger'" in out


def test_already_enabled_and_disabled(proj: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    before = os.stat(proj.project_settings).st_mtime_ns
    assert run(proj, "disable", "logger") == 0
    assert run(proj, "enable", "secret-scan") == 0
    out = capsys.readouterr().out
    assert "Hook 'logger' is already disabled in project settings" in out
    assert "Hook 'secret-scan' is already enabled in project settings" in out
    assert os.stat(proj.project_settings).st_mtime_ns == before
    assert proj.project_settings.read_text() == PROJECT


def test_unknown_name_suggests(proj: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(proj, "disable", "secret-scn") == 1
    err = capsys.readouterr().err
    assert "no hook named 'secret-scn' (did you mean 'secret-scan'?)" in err
    assert run(proj, "enable", "loger") == 1
    assert "did you mean 'logger'" in capsys.readouterr().err
    assert run(proj, "disable", "./scan.sh") == 1
    assert "is named 'secret-scan'" in capsys.readouterr().err
    assert proj.project_settings.read_text() == PROJECT


def test_enable_all_and_disable_all(proj: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(proj, "disable-all") == 0
    after = proj.project_settings.read_text()
    assert diff(PROJECT, after) == [
        '-         "logger"   // noisy\n',
        '+         "logger",   // noisy\n',
        '+         "secret-scan",\n',
        '+         "./fmt.sh"\n',
    ]
    assert "Disabled 2 hook(s)" in capsys.readouterr().out
    assert run(proj, "disable-all") == 0
    assert "All hooks are already disabled" in capsys.readouterr().out
    assert run(proj, "enable-all") == 0
    final = proj.project_settings.read_text()
    assert diff(PROJECT, final) == ['-         "logger"   // noisy\n']
    assert "// names listed here are switched off" in final
    assert run(proj, "enable-all") == 0
    assert "No hooks are disabled" in capsys.readouterr().out


def test_broken_file_is_not_written(sandbox: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    broken = '{\n  "hooks": {}\n  "hooksConfig": {}\n}\n'
    sandbox.write(sandbox.project_settings, broken)
    for args in (["disable", "x"], ["enable", "x"], ["enable-all"], ["disable-all"]):
        assert run(sandbox, *args) == 1
        err = capsys.readouterr().err
        assert f"{sandbox.project_settings}:3:3: Expecting ',' delimiter" in err
        assert "not changed" in err
    assert sandbox.project_settings.read_text() == broken


def test_user_scope_and_missing_files(sandbox: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    sandbox.write(
        sandbox.user_settings,
        {
            "hooks": {
                "BeforeAgent": [
                    {"hooks": [{"type": "command", "command": "./ctx.sh", "name": "ctx"}]}
                ]
            }
        },
    )
    user_before = sandbox.user_settings.read_text()
    assert not sandbox.project_settings.exists()
    # project scope (default): a project file cannot switch off a user hook (docs/security.md)
    assert run(sandbox, "disable", "ctx") == 1
    assert "a project file cannot switch it off" in capsys.readouterr().err
    assert not sandbox.project_settings.exists()
    assert sandbox.user_settings.read_text() == user_before
    # user scope edits only the user file
    assert run(sandbox, "disable", "ctx", "--scope", "user") == 0
    assert parse(sandbox.user_settings.read_text())["hooksConfig"] == {"disabled": ["ctx"]}
    capsys.readouterr()
    assert run(sandbox, "enable", "ctx") == 0
    err = capsys.readouterr().err
    assert "but the user settings" in err and "disables it" in err and "--scope user" in err
    assert not sandbox.project_settings.exists()  # nothing to change in the project file


def test_system_hooks_cannot_be_disabled(
    sandbox: Sandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.write(
        sandbox.system_settings,
        {
            "hooks": {
                "BeforeTool": [
                    {"hooks": [{"type": "command", "command": "./audit.sh", "name": "audit"}]}
                ]
            }
        },
    )
    assert run(sandbox, "disable", "audit") == 1
    assert "is a system hook" in capsys.readouterr().err
    assert not sandbox.project_settings.exists()


def test_symlinked_settings_refused(sandbox: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    real = sandbox.write(sandbox.root / "real.json", PROJECT)
    (sandbox.project / ".gemini").mkdir()
    os.symlink(real, sandbox.project_settings)
    assert run(sandbox, "disable", "secret-scan") == 1
    assert "symbolic link" in capsys.readouterr().err
    assert real.read_text() == PROJECT


@pytest.mark.slow
def test_cli_subprocess(proj: Sandbox) -> None:
    r = proj.run("disable", "secret-scan", "--scope", "project")
    assert r.returncode == 0, r.stderr
    assert "secret-scan" in parse(proj.project_settings.read_text())["hooksConfig"]["disabled"]
    r = proj.run("enable", "--scope", "bogus", "x")
    assert r.returncode == 1
