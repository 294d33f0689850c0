"""A long-lived host looks at a python hook's module files at most every ``module_recheck_s``
seconds.

``hookwise serve`` sets the window (docs/fleet.md); within it an edited module is not imported
again, but trust is still checked on every firing: an edit that is not trusted stops the hook at
once, and the code that runs is always code that was trusted when it was imported.
"""

from __future__ import annotations

import sys
import textwrap
import time

from tests.conftest import Project

from hookwise import HookSystem, Outcome
from hookwise.serve.app import ServeConfig, Service
from hookwise.serve.projects import MODULE_RECHECK_S


def _write(project: Project, reason: str) -> None:
    (project.root / "recheck_guard.py").write_text(
        textwrap.dedent(f"""
        def check(inp):
            return {{"decision": "deny", "reason": {reason!r}}}
        """)
    )


def test_an_edit_is_picked_up_after_the_window_and_trust_is_checked_on_every_firing(
    project: Project,
) -> None:
    _write(project, "v1")
    project.hooks("BeforeTool", {"type": "python", "callable": "recheck_guard:check", "name": "g"})
    hs = HookSystem(project.root)
    hs.module_recheck_s = 30.0
    try:
        hs.trust(hs.untrusted())
        assert hs.fire("BeforeTool", tool_name="t", tool_input={}).reason == "v1"
        _write(project, "v2, a longer reason")
        r = hs.fire("BeforeTool", tool_name="t", tool_input={})
        assert r.hooks[0].outcome is Outcome.SKIPPED  # not trusted as edited: stopped at once
        hs.trust(hs.untrusted())
        # within the window the function imported (and trusted) before still answers
        assert hs.fire("BeforeTool", tool_name="t", tool_input={}).reason == "v1"
        hs.module_recheck_s = 0.05
        time.sleep(0.1)
        assert hs.fire("BeforeTool", tool_name="t", tool_input={}).reason == "v2, a longer reason"
    finally:
        hs.close()
        sys.modules.pop("recheck_guard", None)


def test_a_library_host_looks_on_every_call_and_the_service_sets_the_window(
    project: Project,
) -> None:
    assert HookSystem(project.root).module_recheck_s == 0.0
    service = Service(ServeConfig([str(project.root)]))
    try:
        system = service.projects.acquire(str(project.root)).system
        assert system.module_recheck_s == MODULE_RECHECK_S > 0
    finally:
        service.close()
