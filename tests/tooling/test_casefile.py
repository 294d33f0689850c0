"""``hookwise test``: case files, the pass/fail table, JUnit XML, and the pytest ``hooks``
fixture."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from hookwise.cli.main import main
from hookwise.errors import CaseFileError
from hookwise.testing import HookTester
from hookwise.testing.cases import load_file

from .conftest import Sandbox

GUARD = """\
import json, sys
data = json.load(sys.stdin)
cmd = data.get("tool_input", {}).get("command", "")
if "rm -rf" in cmd:
    print(json.dumps({"decision": "deny", "reason": "dangerous command: " + cmd}))
elif cmd.startswith("git push --force"):
    new = cmd.replace("--force", "--force-with-lease")
    print(json.dumps({"decision": "allow", "hookSpecificOutput": {"tool_input": {"command": new}}}))
else:
    print("{}")
"""

CONTEXT = """\
import json, sys
json.load(sys.stdin)
out = {"hookSpecificOutput": {"additionalContext": "Branch: main"}, "systemMessage": "ctx added"}
print(json.dumps(out))
"""


@pytest.fixture
def proj(sandbox: Sandbox) -> Sandbox:
    sandbox.script(".gemini/hooks/guard.py", GUARD)
    sandbox.script(".gemini/hooks/context.py", CONTEXT)
    py = sys.executable
    sandbox.write(
        sandbox.project_settings,
        {
            "hooks": {
                "BeforeTool": [
                    {
                        "matcher": "run_shell_command",
                        "hooks": [
                            {
                                "type": "command",
                                "name": "shell-guard",
                                "command": f'{py} "$GEMINI_PROJECT_DIR/.gemini/hooks/guard.py"',
                            }
                        ],
                    }
                ],
                "BeforeAgent": [
                    {
                        "hooks": [
                            {
                                "type": "command",
                                "name": "ctx",
                                "command": f'{py} "$GEMINI_PROJECT_DIR/.gemini/hooks/context.py"',
                            }
                        ]
                    }
                ],
            }
        },
    )
    return sandbox


CASES = """\
// cases for the shell guard
{
  "cases": [
    {"name": "rm is blocked", "event": "BeforeTool",
     "input": {"tool_name": "run_shell_command", "tool_input": {"command": "rm -rf /"}},
     "expect": {"decision": "deny", "blocked": true, "exitCode": 2, "reasonContains": "dangerous",
                "outcomes": {"shell-guard": "ok"}, "hooksRun": ["shell-guard"]}},
    {"name": "force push is softened", "event": "BeforeTool",
     "input": {"tool_name": "run_shell_command",
               "tool_input": {"command": "git push --force", "dir_path": "."}},
     "expect": {"decision": "allow",
                "toolInput": {"command": "git push --force-with-lease", "dir_path": "."},
                "output": {"hookSpecificOutput": {
                    "tool_input": {"command": "git push --force-with-lease"}}}}},
    {"name": "other tools are not guarded", "event": "BeforeTool",
     "input": {"tool_name": "read_file", "tool_input": {"file_path": "x"}},
     "expect": {"decision": "allow", "outcomes": {"shell-guard": "absent"}, "hooksRun": [],
                "warnings": 0}},
    {"name": "context is added", "event": "BeforeAgent", "input": {"prompt": "hi"},
     "expect": {"additionalContextContains": "Branch: main", "systemMessageContains": "ctx",
                "output": {"continue": true, "decision": "allow"}}}
  ]
}
"""

FAILING = """\
[
  {"name": "wrong expectation", "event": "BeforeTool",
   "input": {"tool_name": "run_shell_command", "tool_input": {"command": "ls"}},
   "expect": {"decision": "deny", "outcomes": {"shell-guard": "blocked", "ghost": "ok"}}},
  {"name": "bad input type", "event": "BeforeTool", "input": {"tool_name": 5}, "expect": {}}
]
"""


@pytest.mark.slow
def test_all_pass(proj: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    proj.write(proj.project / "guard.hooktest.json", CASES)
    assert main(["--project", str(proj.project), "test"]) == 0
    out = capsys.readouterr().out
    assert out.count("PASS ") == 4 and "4 passed, 0 failed" in out


def test_failures_are_explained(proj: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    proj.write(proj.project / "cases" / "bad.hooktest.json", FAILING)
    junit = proj.root / "out" / "junit.xml"
    assert (
        main(
            [
                "--project",
                str(proj.project),
                "test",
                str(proj.project / "cases"),
                "--junit",
                str(junit),
            ]
        )
        == 1
    )
    out = capsys.readouterr().out
    assert "FAIL" in out and "decision: expected 'deny', got 'allow'" in out
    assert "outcome of 'shell-guard': expected 'blocked', got 'ok'" in out
    assert "outcome of 'ghost': expected 'ok', got 'absent'; hooks that ran: 'shell-guard'" in out
    assert "ERROR" in out and "input field 'tool_name' must be a string" in out
    assert "0 passed, 1 failed, 1 error" in out
    root = ET.fromstring(junit.read_text())
    assert root.tag == "testsuites" and root.get("tests") == "2" and root.get("failures") == "1"
    suite = root.find("testsuite")
    assert suite is not None and suite.get("errors") == "1"
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == ["wrong expectation", "bad input type"]
    assert cases[0].get("classname") == "bad"
    failure = cases[0].find("failure")
    assert failure is not None and "expected 'deny'" in (failure.text or "")
    assert cases[1].find("error") is not None


def test_malformed_case_files(tmp_path: Path) -> None:
    def load(text: str) -> str:
        p = tmp_path / "x.hooktest.json"
        p.write_text(text)
        with pytest.raises(CaseFileError) as info:
            load_file(str(p))
        return str(info.value)

    assert "unknown event 'PreToolUse' (did you mean 'BeforeTool'?)" in load(
        '[{"event": "PreToolUse"}]'
    )
    msg = load('{"cases": [\n  {"event": "BeforeTool", "expect": {"desicion": "deny"}}]}')
    assert ":2:" in msg and "/cases/0/expect/desicion" in msg and "did you mean 'decision'" in msg
    assert "must be one of allow, ask, deny, block" in load(
        '{"event": "BeforeTool", "expect": {"decision": "no"}}'
    )
    assert "Expecting" in load('{"cases": [}')
    assert "must be one of ok, blocked" in load(
        '[{"event": "AfterTool", "expect": {"outcomes": {"a": "fine"}}}]'
    )


def test_no_cases_found(sandbox: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--project", str(sandbox.project), "test"]) == 1
    assert "no *.hooktest.json files found" in capsys.readouterr().err
    assert main(["--project", str(sandbox.project), "test", "missing.hooktest.json"]) == 1
    assert "no such file" in capsys.readouterr().err


@pytest.mark.slow
def test_isolated_from_user_hooks(proj: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    proj.write(
        proj.user_settings,
        {
            "hooks": {
                "BeforeAgent": [
                    {
                        "hooks": [
                            {
                                "type": "command",
                                "command": 'echo \'{"decision": "deny"}\'',
                                "name": "user-blocker",
                            }
                        ]
                    }
                ]
            }
        },
    )
    case = {
        "event": "BeforeAgent",
        "input": {"prompt": "hi"},
        "expect": {"decision": "allow", "hooksRun": ["ctx"]},
    }
    proj.write(proj.project / "a.hooktest.json", json.dumps(case))
    assert main(["--project", str(proj.project), "test"]) == 0
    proj.write(proj.project / "a.hooktest.json", json.dumps({"isolated": False, "cases": [case]}))
    assert main(["--project", str(proj.project), "test"]) == 1
    assert "got 'deny'" in capsys.readouterr().out


def test_project_key_is_relative_to_file(proj: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    elsewhere = proj.root / "ci"
    proj.write(
        elsewhere / "g.hooktest.json",
        json.dumps(
            {
                "project": "../project",
                "cases": [
                    {
                        "event": "BeforeTool",
                        "input": {
                            "tool_name": "run_shell_command",
                            "tool_input": {"command": "rm -rf x"},
                        },
                        "expect": {"blocked": True},
                    }
                ],
            }
        ),
    )
    # run from an unrelated --project: the file's own project wins
    other = proj.root / "other"
    other.mkdir()
    assert main(["--project", str(other), "test", str(elsewhere)]) == 0


@pytest.mark.slow
def test_cli_subprocess(proj: Sandbox) -> None:
    proj.write(proj.project / "guard.hooktest.json", CASES)
    r = proj.run("test", "--junit", "report.xml")
    assert r.returncode == 0, r.stdout + r.stderr
    assert (proj.project / "report.xml").exists()


# ----------------------------------------------------------------------------- HookTester / fixture


def test_hook_tester_api(tmp_path: Path) -> None:
    t = HookTester(tmp_path)
    cmd = t.script(
        "deny_writes.py",
        "import json, sys\njson.load(sys.stdin)\n"
        "print(json.dumps({'decision': 'deny', 'reason': 'read-only'}))\n",
    )
    t.add("BeforeTool", cmd, matcher="write_file", name="ro")
    r = t.fire("BeforeTool", tool="write_file", tool_input={"file_path": "a", "content": "b"})
    assert r.blocked and r.effective_reason == "read-only"
    assert not t.fire("BeforeTool", tool="read_file", tool_input={"file_path": "a"}).blocked
    t.disable("ro")
    assert not t.fire(
        "BeforeTool", tool="write_file", tool_input={"file_path": "a", "content": "b"}
    ).blocked
    t.register("BeforeAgent", lambda inp: {"decision": "block", "reason": "py"}, name="py-hook")
    assert t.fire("BeforeAgent", prompt="x").blocked
    t.add(
        "AfterAgent", "true", layer="user", name="user-hook"
    )  # settings change keeps runtime hooks
    assert t.fire("BeforeAgent", prompt="x").blocked
    assert {e.display_name: e.source for e in t.entries}["user-hook"] == "user"


@pytest.mark.slow
def test_pytest_fixture_in_a_real_pytest_run(tmp_path: Path) -> None:
    (tmp_path / "test_user_project.py").write_text(
        textwrap.dedent("""
        def test_guard(hooks):
            cmd = hooks.script("g.py", "import json, sys\\nd = json.load(sys.stdin)\\n"
                               "bad = 'rm' in d['tool_input']['command']\\n"
                               "print(json.dumps({'decision': 'deny' if bad else 'allow'}))\\n")
            hooks.add("BeforeTool", cmd, matcher="run_shell_command", name="g")
            def fire(command):
                tool_input = {"command": command}
                return hooks.fire("BeforeTool", tool="run_shell_command", tool_input=tool_input)
            assert fire("rm -rf /").blocked
            assert not fire("ls").blocked

        def test_unrelated():
            assert True
    """)
    )
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=str(tmp_path),
        timeout=120,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "2 passed" in r.stdout


@pytest.mark.slow
def test_trace_option(proj: Sandbox) -> None:
    proj.write(proj.project / "guard.hooktest.json", CASES)
    trace = proj.root / "trace.jsonl"
    assert main(["--project", str(proj.project), "--trace", str(trace), "test"]) == 0
    records = [json.loads(line) for line in trace.read_text().splitlines()]
    assert {r["hook_name"] for r in records} == {"shell-guard", "ctx"}


@pytest.mark.slow
def test_case_file_runs_against_its_enclosing_project(
    proj: Sandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    proj.write(proj.project / "tests" / "hooks" / "guard.hooktest.json", CASES)
    # run from the parent directory (no .gemini there): the file's own project is used
    assert main(["--project", str(proj.root), "test"]) == 0
    assert "4 passed" in capsys.readouterr().out
