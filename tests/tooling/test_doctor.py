"""``hookwise doctor``: every broken hook is named with the right cause."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from hookwise.cli.main import main

from .conftest import Sandbox

PY = sys.executable


def hook(command: str, name: str, **extra: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, "name": name, **extra}


@pytest.fixture
def broken(sandbox: Sandbox) -> Sandbox:
    sandbox.script(
        "hooks/ok.py",
        "import json, sys\njson.load(sys.stdin)\nprint(json.dumps({'decision': 'allow'}))\n",
    )
    sandbox.script(
        "hooks/chatty.py",
        "import sys\nsys.stdin.read()\nprint('Scanning files...')\n"
        'print(\'{"decision": "allow"}\')\n',
    )
    sandbox.script("hooks/ancient.sh", "#!/usr/bin/no-such-interpreter-9\necho hi\n")
    sandbox.script("hooks/envpy.sh", "#!/usr/bin/env no-such-python-42\nprint('hi')\n")
    sandbox.script("hooks/plain.sh", "#!/bin/sh\necho '{}'\n", executable=False)
    sandbox.script("hooks/sleepy.py", "import time\ntime.sleep(30)\n")
    sandbox.script(
        "hooks/grumpy.py", "import sys\nsys.stdin.read()\nsys.stderr.write('no way')\nsys.exit(2)\n"
    )
    sandbox.script(".gemini/hooks/inner.sh", "#!/bin/sh\necho '{}'\n")
    sandbox.write(
        sandbox.project_settings,
        {
            "hooks": {
                "BeforeTool": [
                    {
                        "matcher": "write_file|replace",
                        "hooks": [
                            hook(f"{PY} hooks/ok.py", "fine"),
                            hook("no-such-command-xyz --check", "missing-command"),
                            hook("./hooks/ancient.sh", "missing-interpreter"),
                            hook("./hooks/envpy.sh", "missing-env-interpreter"),
                            hook(f"{PY} hooks/chatty.py", "log-before-json"),
                            hook(f"{PY} hooks/sleepy.py", "sleepy", timeout=500),
                            hook("./hooks/plain.sh", "not-executable"),
                            hook(f"{PY} hooks/gone.py", "missing-script"),
                            hook("./hooks/inner.sh", "wrong-dir"),
                        ],
                    }
                ],
                "BeforeAgent": [{"hooks": [hook(f"{PY} hooks/grumpy.py", "blocks-everything")]}],
                "SessionEnd": [{"hooks": [hook("./x.sh", "switched-off")]}],
            },
            "hooksConfig": {"disabled": ["switched-off"]},
        },
    )
    return sandbox


def lines_by_name(out: str) -> dict[str, str]:
    found = {}
    for ln in out.splitlines():
        for word in ln.split("'")[1::2]:
            found.setdefault(word, ln)
    return found


@pytest.mark.slow
def test_doctor_names_each_problem(broken: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--project", str(broken.project), "doctor", "--yes"])
    out, err = capsys.readouterr()
    assert code == 1
    by = lines_by_name(out)
    assert by["fine"].startswith("ok ") and "ran fine" in by["fine"]
    assert by["missing-command"].startswith("ERROR")
    assert "command 'no-such-command-xyz' not found on PATH" in by["missing-command"]
    assert by["missing-interpreter"].startswith("ERROR")
    assert (
        "interpreter /usr/bin/no-such-interpreter-9 (from the #! line of "
        "./hooks/ancient.sh) does not exist"
    ) in by["missing-interpreter"]
    assert "interpreter 'no-such-python-42'" in by["missing-env-interpreter"]
    assert by["log-before-json"].startswith("WARN")
    assert "'Scanning files...'" in out and "comes before the JSON object" in by["log-before-json"]
    assert by["sleepy"].startswith("ERROR") and "timed out after 500 ms" in by["sleepy"]
    assert (
        by["not-executable"].startswith("ERROR")
        and "not executable (chmod +x ./hooks/plain.sh)" in out
    )
    assert by["missing-script"].startswith("ERROR") and "script hooks/gone.py does not exist" in out
    assert by["wrong-dir"].startswith("ERROR")
    assert (
        "it exists relative to" in by["wrong-dir"]
        and "$GEMINI_PROJECT_DIR/.gemini/hooks/inner.sh" in out
    )
    assert by["blocks-everything"].startswith("WARN") and "blocks a harmless input: no way" in out
    assert by["switched-off"].startswith("skipped") and "disabled" in by["switched-off"]
    assert "1 ok, 2 with warnings, 7 could not run, 1 skipped" in err


def test_dry_run_runs_nothing(broken: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    marker = broken.project / "ran.txt"
    broken.write(
        broken.project_settings,
        {
            "hooks": {
                "BeforeTool": [
                    {"matcher": "run_shell_command", "hooks": [hook(f"touch {marker}", "toucher")]}
                ]
            }
        },
    )
    assert main(["--project", str(broken.project), "doctor", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would run 1 hook(s)" in out and f"$ touch {marker}" in out
    assert '"tool_name": "run_shell_command"' in out
    assert not marker.exists()
    # without --yes (and no terminal): asks, runs nothing, exit 1
    assert main(["--project", str(broken.project), "doctor"]) == 1
    assert "--yes" in capsys.readouterr().err
    assert not marker.exists()
    assert main(["--project", str(broken.project), "doctor", "--yes"]) == 0
    assert marker.exists()


def test_synthetic_input_uses_sandbox(sandbox: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    dump = sandbox.root / "input.json"
    sandbox.script(
        "hooks/dump.py", f"import sys\nopen({str(dump)!r}, 'w').write(sys.stdin.read())\n"
    )
    sandbox.write(
        sandbox.project_settings,
        {
            "hooks": {
                "AfterTool": [
                    {"matcher": "^replace$", "hooks": [hook(f"{PY} hooks/dump.py", "dump")]}
                ]
            }
        },
    )
    assert main(["--project", str(sandbox.project), "doctor", "--yes"]) == 0
    data = json.loads(dump.read_text())
    assert data["hook_event_name"] == "AfterTool" and data["tool_name"] == "replace"
    assert data["cwd"] != str(sandbox.project) and Path(data["cwd"]).name.startswith(
        "hookwise-doctor-"
    )
    assert data["tool_input"]["file_path"].startswith(data["cwd"])
    assert data["tool_response"] == {"llmContent": "hello", "returnDisplay": "hello"}
    assert not Path(data["cwd"]).exists()  # the sandbox is removed afterwards


def test_untrusted_hooks_are_skipped(
    sandbox: Sandbox, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HOOKWISE_TRUST_ALL")
    sandbox.write(
        sandbox.project_settings, {"hooks": {"BeforeAgent": [{"hooks": [hook("true", "t")]}]}}
    )
    assert (
        main(["--project", str(sandbox.project), "doctor"]) == 0
    )  # nothing would run: no question
    out = capsys.readouterr().out
    assert out.startswith("skipped") and "hookwise trust" in out


@pytest.mark.slow
def test_slow_hook_warning(sandbox: Sandbox, capsys: pytest.CaptureFixture[str]) -> None:
    sandbox.write(
        sandbox.project_settings,
        {
            "hooks": {
                "SessionStart": [
                    {"matcher": "resume", "hooks": [hook("sleep 0.9", "slowpoke", timeout=1000)]}
                ]
            }
        },
    )
    assert main(["--project", str(sandbox.project), "doctor", "--yes"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("WARN") and "slow: took" in out and "of its 1000 ms timeout" in out


@pytest.mark.slow
def test_subprocess(broken: Sandbox) -> None:
    r = broken.run("doctor", "--yes")
    assert r.returncode == 1
    assert "missing-command" in r.stdout
