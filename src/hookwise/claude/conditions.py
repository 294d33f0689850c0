"""A hook's ``if`` rule evaluated on a hookwise input, in Claude Code's names of the tool and its
arguments.

The rule itself (parsing, matching one Claude tool call) is pure and lives in
:mod:`hookwise.core.rules`; this module translates a hookwise BeforeTool/AfterTool
input to Claude's names first. The engine passes :func:`call_matches` to
:func:`hookwise.core.plan.select`, so the pure core never imports the Claude wing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hookwise.claude.names import GEMINI_TO_CLAUDE_TOOL, params_to_claude, tool_to_claude
from hookwise.core.rules import PermissionRule


def call_matches(
    rule: PermissionRule, payload: Mapping[str, Any], *, project_dir: str, home: str
) -> bool:
    """Evaluate ``rule`` on a hookwise BeforeTool/AfterTool input (Gemini tool and parameter names).

    The tool and its arguments are translated to Claude Code's names first, so the
    rule reads as it does in Claude Code (``Bash(git *)`` for ``run_shell_command``);
    a rule may also name the Gemini tool (``run_shell_command(git *)``).
    """
    gname = payload.get("tool_name")
    if not isinstance(gname, str) or not gname:
        return False
    mcp = payload.get("mcp_context")
    tool = tool_to_claude(gname, mcp if isinstance(mcp, dict) else None)
    ti = payload.get("tool_input")
    tool_input = params_to_claude(gname, ti) if isinstance(ti, dict) else {}
    if rule.tool in GEMINI_TO_CLAUDE_TOOL:
        rule = PermissionRule(rule.text, GEMINI_TO_CLAUDE_TOOL[rule.tool], rule.specifier)
    cwd = payload.get("cwd")
    return rule.matches(
        tool,
        tool_input,
        cwd=cwd if isinstance(cwd, str) and cwd else project_dir,
        project_dir=project_dir,
        home=home,
    )
