"""``hookwise hook`` starts as fast as ``fire``: its well-formed line is parsed without argparse,
and a Claude Code tool call through a python hook imports none of the heavy modules ``fire`` avoids
(tests/perf)."""

from __future__ import annotations

import json
import os

import pytest
from tests.bridge.conftest import payload
from tests.conftest import Project
from tests.perf.test_fast_paths import HEAVY, _imported

from hookwise.bridge.common import RENAMED_PARAMS_TOOLS
from hookwise.claude.names import PARAMS_TO_GEMINI


def test_the_renamed_tools_are_the_claude_tables() -> None:
    assert set(PARAMS_TO_GEMINI) == RENAMED_PARAMS_TOOLS


@pytest.mark.slow
def test_hook_imports_no_heavy_module(project: Project) -> None:
    mod = project.root / "guard.py"
    mod.write_text(
        "def check(inp):\n"
        "    if 'rm ' in inp['tool_input']['command']:\n"
        "        return {'decision': 'deny', 'reason': 'no rm'}\n"
    )
    project.hooks("BeforeTool", {"type": "python", "callable": "guard:check"}, layer="user")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "GEMINI_TELEMETRY_"))}
    env["PYTHONPATH"] = str(project.root)
    before, _ = _imported(["-c", "pass"], project.root, env)
    data = json.dumps(payload("claude", "PreToolUse.deny", project))
    stdin = project.root / "payload.json"
    stdin.write_text(data)
    code = (
        "import sys\nsys.stdin = open(sys.argv[1])\nsys.argv = ['hookwise', 'hook', 'claude']\n"
        "from hookwise.cli.main import console\nsys.exit(console())\n"
    )
    loaded, out = _imported(["-c", code, str(stdin)], project.root, env)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "hookwise.bridge.claude" in loaded
    # the same hook through `fire`: the python hook kind's own modules (its runner) load there too
    fire = (
        "import sys\nsys.argv = ['hookwise', 'fire', 'BeforeTool', '--tool', 'run_shell_command', "
        "'--tool-input', '{\"command\": \"rm x\"}']\n"
        "from hookwise.cli.main import console\nsys.exit(console())\n"
    )
    by_fire, fired = _imported(["-c", fire], project.root, env)
    assert fired.returncode == 2, fired.stderr[-2000:]
    assert sorted(m for m in HEAVY if m in loaded - before - by_fire) == []
