"""Test hooks with pytest: a temporary settings tree and one-line firings.

With hookwise installed, the ``hooks`` fixture is available in every pytest run
(the plugin is registered through the ``pytest11`` entry point)::

    def test_rm_is_blocked(hooks):
        hooks.copy_project("examples/project")  # or hooks.add(...) / hooks.settings(...)
        result = hooks.fire(
            "BeforeTool", tool="run_shell_command", tool_input={"command": "rm -rf /"}
        )
        assert result.blocked

    def test_my_script(hooks):
        cmd = hooks.script(
            "guard.py", "import json, sys\\nprint(json.dumps({'decision': 'deny'}))\\n"
        )
        hooks.add("BeforeTool", cmd, matcher="write_file", name="guard")
        assert hooks.fire("BeforeTool", tool="write_file", tool_input={"file_path": "a"}).blocked

Every tester works in its own temporary project dir with an empty user dir and
no system settings, so the developer's own ``~/.gemini`` never leaks in, and
trusts the project's hooks (``trust_all``). Outside pytest, use
:class:`HookTester` directly with any directory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hookwise.testing.tester import HookTester

if TYPE_CHECKING:
    from hookwise.testing.fakes import FakeAnswer, FakeHost, FakeRunner

__all__ = ["FakeAnswer", "FakeHost", "FakeRunner", "HookTester", "assert_adapter_conformance"]


def __getattr__(name: str) -> Any:
    """The fakes (:mod:`hookwise.testing.fakes`) and the adapter conformance kit (docs/adapters.md)
    load lazily."""
    if name in ("FakeAnswer", "FakeHost", "FakeRunner"):
        from hookwise.testing import fakes

        return getattr(fakes, name)
    if name == "assert_adapter_conformance":
        from hookwise.testing.conformance import assert_adapter_conformance

        return assert_adapter_conformance
    raise AttributeError(f"module 'hookwise.testing' has no attribute {name!r}")
