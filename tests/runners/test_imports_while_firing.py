"""Firing loads only what firing needs: never the Claude migration or conversion code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from tests.conftest import Project, emit


@pytest.mark.slow
def test_firing_a_claude_dialect_hook_does_not_import_migration(project: Project) -> None:
    project.hooks(
        "BeforeTool",
        {
            "type": "command",
            "command": emit(
                {
                    "hookSpecificOutput": {
                        "permissionDecision": "deny",
                        "permissionDecisionReason": "no",
                    }
                }
            ),
            "dialect": "claude",
        },
    )
    code = textwrap.dedent("""
        import json, sys
        from hookwise import HookSystem
        hs = HookSystem(sys.argv[1], trust_all=True)
        r = hs.fire("BeforeTool", tool_name="run_shell_command", tool_input={"command": "ls"})
        print(json.dumps({"decision": r.decision, "outcomes": [h.outcome.value for h in r.hooks],
                          "modules": sorted(m for m in sys.modules if m.startswith("hookwise"))}))
    """)
    out = subprocess.run(
        [sys.executable, "-c", code, str(project.root)],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        check=True,
    )
    got = json.loads(out.stdout)
    assert (
        got["outcomes"] == ["ok"] and got["decision"] == "deny"
    )  # the Claude answer was understood
    modules = set(got["modules"])
    assert "hookwise.claude.dialect" in modules
    assert not modules & {
        "hookwise.claude.migrate",
        "hookwise.claude.convert",
        "hookwise.cli.migrate",
    }, modules
