"""One process driver: every process hookwise starts goes through runners/_process.py."""

from __future__ import annotations

import ast
import os
import pathlib
import sys

import pytest

import hookwise
from hookwise.runners._process import Spawn, run_one

SPAWNING = {
    "Popen",
    "run",
    "call",
    "check_call",
    "check_output",
    "posix_spawn",
    "posix_spawnp",
    "fork",
    "system",
    "execv",
    "execve",
    "execvp",
    "execvpe",
    "spawnv",
    "spawnve",
}


#: modules that start a process that is not a hook, and why it does not go through the driver
NOT_HOOKS = {
    # the MCP server the user named after `hookwise mcp --`: one long-lived child that lives and
    # ends with the relay (no timeout, no hook environment, no reaping of a run's leftovers)
    "gateway/relay.py",
    # the warm interpreter of repeated Python hooks (docs/performance.md): not a hook itself; the
    # hooks it forks are driven by the driver like any other process (runners/_warm.py's
    # WarmProcess)
    "runners/_warm.py",
    # that interpreter's program: runs in the hook's python, never in hookwise (it exec's python in
    # a hook's place for what it does not reproduce)
    "runners/_zygote.py",
}


@pytest.mark.slow
def test_only_the_driver_starts_processes() -> None:
    root = pathlib.Path(hookwise.__file__).parent
    found = []
    for path in root.rglob("*.py"):
        if path.relative_to(root).as_posix() in ("runners/_process.py", *NOT_HOOKS):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in SPAWNING
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id in ("subprocess", "os")
            ):
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    assert found == []


def test_merged_stderr_keeps_the_order_of_writes(tmp_path: pathlib.Path) -> None:
    env = {"PATH": os.defpath}
    done = run_one(
        Spawn(
            ["bash", "-c", "echo a; echo b >&2; echo c"],
            str(tmp_path),
            env,
            b"",
            10,
            merge_stderr=True,
        )
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, b"a\nb\nc\n", b"")


def test_separate_streams_by_default(tmp_path: pathlib.Path) -> None:
    code = "import sys; sys.stdout.write(sys.stdin.read()); sys.stderr.write('e')"
    done = run_one(
        Spawn([sys.executable, "-c", code], str(tmp_path), {"PATH": os.defpath}, b"in", 10)
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, b"in", b"e")
