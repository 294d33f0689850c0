"""Faults on the host side of a firing: a trace file that cannot be written, a monitor that raises.
The hooks have already run by then, so their verdict must survive, with a visible warning."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from typing import Any

import pytest

from hookwise import HookSystem
from hookwise.errors import HookwiseError

from .conftest import Faults

DENY = 'echo \'{"decision": "deny", "reason": "no"}\''


@pytest.mark.parametrize("where", ["missing-dir", "directory"])
def test_cli_with_an_unwritable_trace_path_is_a_usage_error(faults: Faults, where: str) -> None:
    faults.hooks(DENY)
    trace = faults.root / "nope" / "t.jsonl" if where == "missing-dir" else faults.root
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "hookwise",
            "--project",
            str(faults.project_dir),
            "--trace",
            str(trace),
            "fire",
            "BeforeTool",
            "--tool",
            "t",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 1, out
    assert str(trace) in out.stderr and "internal error" not in out.stderr
    with pytest.raises(HookwiseError, match="trace file"):
        HookSystem(faults.project_dir, trace=trace)


def test_trace_that_breaks_after_start_does_not_lose_the_verdict(faults: Faults) -> None:
    faults.hooks(DENY)
    tdir = faults.root / "traces"
    tdir.mkdir()
    hs = HookSystem(faults.project_dir, trace=tdir / "t.jsonl")
    shutil.rmtree(tdir)  # e.g. a temporary directory cleaned up under a long-running host
    r = hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert r.blocked and r.reason == "no"
    assert any("could not record hook" in w and "trace" in w for w in r.warnings)


def test_monitor_that_raises_does_not_lose_the_verdict(faults: Faults) -> None:
    faults.hooks(DENY)
    hs = HookSystem(faults.project_dir)
    seen: list[dict[str, Any]] = []

    def broken(record: dict[str, Any]) -> None:
        seen.append(record)
        raise RuntimeError("monitor bug")

    hs.add_monitor(broken)
    r = hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert r.blocked and seen
    assert any("monitor bug" in w for w in r.warnings)
    json.dumps(r.to_json())
