"""The gateway's policy rules on real firing results, without an MCP connection (quick tier)."""

from __future__ import annotations

import pytest
from tests.conftest import Project, emit

from hookwise import HookSystem
from hookwise.gateway import policy


def test_tool_selection_hides_the_tools_a_hook_does_not_allow(project: Project) -> None:
    pytest.importorskip(
        "mcp"
    )  # the proxy module imports the SDK: it must load alongside the policy
    from hookwise.gateway import proxy

    assert proxy.Gateway  # the proxy is importable where the extra is installed
    allow = {"toolConfig": {"mode": "ANY", "allowedFunctionNames": ["mcp__srv__read"]}}
    project.hooks("BeforeToolSelection", emit({"hookSpecificOutput": allow}))
    hs = HookSystem(project.root, trust_all=True)
    listing = policy.tool_selection_request("srv", [("read", "reads"), ("write", "writes")])
    result = hs.fire("BeforeToolSelection", llm_request=listing)
    assert policy.hidden_tools("srv", ["read", "write"], result) == {"write"}
    assert policy.hook_tool_name("srv", "read") == "mcp__srv__read"
    assert policy.mcp_context("srv", "read") == {"server_name": "srv", "tool_name": "read"}
    assert policy.tool_response(["a", "b"], True)["error"] == "a\nb"
    assert result.tool_output_for(policy.tool_response(["x"], False)) is None  # nothing replaced
