"""``hookwise validate`` and the shipped JSON Schema, checked on the same fixtures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookwise.cli.main import main
from hookwise.settings.validate import check_text

from .conftest import Sandbox

FIXTURES = Path(__file__).parent / "fixtures" / "validate"

#: (line, col, pointer, severity, words of the message) for every problem of many-problems.json
MANY_EXPECTED = [
    (5, 5, "/hooks/PreToolUse", "error", "'BeforeTool'"),
    (10, 9, "/hooks/BeforeTool/0/matcher", "warning", "only matches a tool named exactly"),
    (12, 78, "/hooks/BeforeTool/0/hooks/0/timeout", "warning", "write 30000"),
    (13, 11, "/hooks/BeforeTool/0/hooks/1", "error", 'missing "command"'),
    (14, 52, "/hooks/BeforeTool/0/hooks/2/timout", "warning", "did you mean 'timeout'"),
    (15, 12, "/hooks/BeforeTool/0/hooks/3/type", "error", 'unknown hook type "shell"'),
    (16, 52, "/hooks/BeforeTool/0/hooks/4/timeout", "error", "must be a number"),
    (17, 60, "/hooks/BeforeTool/0/hooks/5/env/A", "error", "must be strings"),
    (20, 7, "/hooks/BeforeTool/1", "error", "wrap it"),
    (23, 8, "/hooks/BeforeAgent/0/matcher", "warning", "ignores matchers"),
    (26, 8, "/hooks/SessionStart/0/matcher", "warning", "compared exactly"),
    (26, 30, "/hooks/SessionStart/0/sequential", "error", "true or false"),
    (28, 5, "/hooks/AfterTool", "error", "must be an array"),
    (29, 5, "/hooks/disabled", "warning", "hooksConfig.disabled"),
    (32, 5, "/hooksConfig/enabled", "error", "true or false"),
    (33, 18, "/hooksConfig/disabled/0", "warning", "did you mean 'secret-scan'"),
    (33, 32, "/hooksConfig/disabled/1", "error", "expected a string"),
    (34, 5, "/hooksConfig/notify", "warning", "unknown key 'notify'"),
]


def test_validate_reports_every_problem_with_position(
    sandbox: Sandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.write(sandbox.project_settings, (FIXTURES / "many-problems.json").read_text())
    code = main(["--project", str(sandbox.project), "validate"])
    out, err = capsys.readouterr()
    assert code == 1
    lines = out.splitlines()
    path = str(sandbox.project_settings)
    for line, col, ptr, severity, words in MANY_EXPECTED:
        prefix = f"{path}:{line}:{col}: {ptr}: {severity}: "
        hits = [ln for ln in lines if ln.startswith(prefix)]
        assert hits, f"missing {prefix}\n{out}"
        assert any(words in h for h in hits), (words, hits)
    assert len(lines) == len(MANY_EXPECTED)
    assert "10 errors, 8 warnings in 1 settings file" in err


def test_validate_json(sandbox: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    sandbox.write(sandbox.project_settings, (FIXTURES / "many-problems.json").read_text())
    code = main(["--project", str(sandbox.project), "validate", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1
    assert data["valid"] is False and data["errors"] == 10 and data["warnings"] == 8
    assert data["files"] == [str(sandbox.project_settings)]
    first = data["problems"][0]
    assert first == {
        "file": str(sandbox.project_settings),
        "line": 5,
        "column": 5,
        "pointer": "/hooks/PreToolUse",
        "severity": "error",
        "message": first["message"],
        "layer": "project",
    }


def test_validate_clean_project(sandbox: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    sandbox.write(
        sandbox.project_settings,
        {
            "hooks": {
                "BeforeTool": [
                    {
                        "matcher": "write_file|replace",
                        "hooks": [{"type": "command", "command": "./x.sh", "timeout": 5000}],
                    }
                ]
            }
        },
    )
    assert main(["--project", str(sandbox.project), "validate"]) == 0
    out, err = capsys.readouterr()
    assert out == "" and "no problems" in err


def test_validate_warnings_only_exit_zero(
    sandbox: Sandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.write(
        sandbox.project_settings,
        {
            "hooks": {
                "BeforeAgent": [
                    {
                        "matcher": "x",
                        "hooks": [{"type": "command", "command": "./x.sh", "timeout": 30}],
                    }
                ]
            }
        },
    )
    assert main(["--project", str(sandbox.project), "validate"]) == 0
    out = capsys.readouterr().out
    assert out.count(": warning: ") == 2


def test_parse_error_and_other_layers(sandbox: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    sandbox.write(sandbox.project_settings, '{\n  "hooks": {\n    "BeforeTool": [,]\n  }\n}\n')
    sandbox.write(sandbox.user_settings, {"hooks": {"Stop": []}})
    assert main(["--project", str(sandbox.project), "validate"]) == 1
    out = capsys.readouterr().out
    assert f"{sandbox.project_settings}:3:20: /: error: does not parse" in out
    assert f"{sandbox.user_settings}:3:5: /hooks/Stop: error: unknown event 'Stop'" in out
    assert "'AfterAgent'" in out


def test_cross_layer_rules(sandbox: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    hook = {"type": "command", "command": "./g.sh"}
    sandbox.write(
        sandbox.user_settings,
        {"hooks": {"BeforeTool": [{"hooks": [{**hook, "name": "user-guard"}]}]}},
    )
    sandbox.write(
        sandbox.system_settings,
        {"hooks": {"BeforeTool": [{"hooks": [{**hook, "name": "sys-guard"}]}]}},
    )
    sandbox.write(
        sandbox.project_settings,
        {
            "hooks": {
                "AfterTool": [
                    {"hooks": [{"type": "command", "command": "./log.sh", "name": "logger"}]}
                ]
            },
            "hooksConfig": {"disabled": ["user-guard", "sys-guard", "./log.sh", "loger"]},
        },
    )
    assert main(["--project", str(sandbox.project), "validate"]) == 0
    out = capsys.readouterr().out
    assert "/hooksConfig/disabled/0: warning: 'user-guard' is your user hook" in out
    assert "/hooksConfig/disabled/1: warning: 'sys-guard' is a system hook" in out
    assert "/hooksConfig/disabled/2: warning: no hook has the display name './log.sh'" in out
    assert "'logger'" in out
    assert (
        "/hooksConfig/disabled/3: warning: no configured hook is named 'loger' (did you "
        "mean 'logger'?)"
    ) in out


def test_extension_file_is_checked(sandbox: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    ext = sandbox.home / ".gemini" / "extensions" / "demo" / "hooks" / "hooks.json"
    sandbox.write(ext, {"hooks": {"BeforeTool": [{"hooks": [{"type": "command"}]}]}})
    assert main(["--project", str(sandbox.project), "validate"]) == 1
    out = capsys.readouterr().out
    assert f'{ext}:6:11: /hooks/BeforeTool/0/hooks/0: error: missing "command"' in out


def test_duplicate_keys_warn() -> None:
    c = check_text('{"hooks": {}, "hooks": {"BeforeTool": []}}', "s.json")
    assert [str(p) for p in c.problems] == [
        "s.json:1:2: /hooks: warning: this key appears again later in the same object; this "
        "occurrence is ignored (the last one counts)"
    ]


@pytest.mark.slow
def test_subprocess_cli(sandbox: Sandbox) -> None:
    sandbox.write(sandbox.project_settings, {"hooks": {"PreToolUse": []}})
    r = sandbox.run("validate")
    assert r.returncode == 1
    assert "/hooks/PreToolUse: error: unknown event 'PreToolUse'" in r.stdout


def test_valid_fixture_has_no_problems() -> None:
    text = (FIXTURES / "valid.json").read_text()
    checker = check_text(text, "valid.json")
    assert [str(p) for p in checker.problems] == []
