"""A hook whose directory is the current one starts with ``os.posix_spawn``; any other with
``Popen``.

Every test fires the same hook both ways (the hook system's project is the
current directory, then it is not) and compares what the hook saw and what
hookwise made of it: the two starts must be indistinguishable.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from hookwise import HookSystem
from hookwise.runners import _process


@pytest.fixture(autouse=True)
def _as_the_program(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests compare the two paths the hookwise program takes (``cli.main.console`` switches
    it on)."""
    monkeypatch.setattr(_process, "SPAWN_HERE", True)


def test_a_host_embedding_hookwise_always_uses_popen(
    project: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_process, "SPAWN_HERE", False)
    project.hooks("BeforeTool", "true", layer="user")
    declined: list[bool] = []
    spawn_here = _process._spawn_here

    def watch(req: _process.Spawn, env: dict[str, str]) -> _process.Spawned | None:
        proc = spawn_here(req, env)
        declined.append(proc is None)
        return proc

    monkeypatch.setattr(_process, "_spawn_here", watch)
    monkeypatch.chdir(
        project.root
    )  # the hook's directory is the current one: the program would posix_spawn
    o = HookSystem(project.root).fire("BeforeTool", tool_name="t", tool_input={}).hooks[0]
    assert o.outcome == "ok" and declined == [True]


def _fire_both(
    project: Any, monkeypatch: pytest.MonkeyPatch, command: str, **hook: Any
) -> list[dict[str, Any]]:
    project.hooks("BeforeTool", {"type": "command", "command": command, **hook}, layer="user")
    started: list[str] = []
    spawn_here = _process._spawn_here

    def watch(req: _process.Spawn, env: dict[str, str]) -> _process.Spawned | None:
        proc = spawn_here(req, env)
        started.append("posix_spawn" if proc is not None else "Popen")
        return proc

    monkeypatch.setattr(_process, "_spawn_here", watch)
    out = []
    for cwd in (project.root, project.home):
        monkeypatch.chdir(cwd)
        o = HookSystem(project.root).fire("BeforeTool", tool_name="t", tool_input={}).hooks[0]
        out.append(
            {
                "outcome": o.outcome,
                "exit": o.exit_code,
                "stdout": o.stdout,
                "stderr": o.stderr,
                "error": o.error,
                "output": o.output,
            }
        )
    assert started[0] == "posix_spawn" and started[-1] == "Popen", started
    return out


@pytest.mark.slow
def test_output_input_and_exit_status_are_the_same(
    project: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    cmd = (
        f'{sys.executable} -c "import json,sys; d=json.load(sys.stdin); '
        "print(json.dumps({'systemMessage': d['tool_name']})); print('err', file=sys.stderr); "
        'sys.exit(1)"'
    )
    a, b = _fire_both(project, monkeypatch, cmd)
    assert a == b and a["exit"] == 1 and a["stderr"].strip() == "err"


@pytest.mark.slow
def test_what_the_child_inherits_is_the_same(project: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    r, w = os.pipe()
    os.set_inheritable(
        r, True
    )  # an inheritable descriptor of the host: Popen's close_fds keeps it from hooks
    try:
        cmd = (
            f'{sys.executable} -c "import os; print(os.getcwd(), os.getpgid(0) == os.getpid(), '
            f"os.getsid(0) == os.getpid(), os.path.exists('/proc/self/fd/{r}'))\""
        )
        a, b = _fire_both(project, monkeypatch, cmd)
    finally:
        os.close(r)
        os.close(w)
    assert a == b
    # its own process group always; a new session when this process has a controlling terminal
    # (new_session)
    session = str(_process.new_session())
    assert a["stdout"].split()[1:] == ["True", session, "False"], a["stdout"]
    assert Path(a["stdout"].split()[0]).resolve() == project.root.resolve()


@pytest.mark.slow
def test_signals_python_ignores_are_default_in_the_hook(
    project: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = _fire_both(project, monkeypatch, "grep SigIgn /proc/self/status")
    # glibc's posix_spawn leaves its two internal signals (32, 33) ignored in the child (the C
    # library of a program that uses them installs its handlers when it does); every other
    # disposition is Popen's
    internal = (1 << 31) | (1 << 32)
    ignored = [int(x["stdout"].split()[1], 16) & ~internal for x in (a, b)]
    assert ignored[0] == ignored[1], (a["stdout"], b["stdout"])
    assert not ignored[0] & (1 << (13 - 1)), a[
        "stdout"
    ]  # SIGPIPE (13) is not ignored, as Popen leaves it


@pytest.mark.parametrize("command", ["no-such-program-hookwise x", "./not-executable.sh"])
def test_spawn_errors_read_the_same(
    project: Any, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    script = project.root / "not-executable.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    (project.home / "not-executable.sh").write_text("#!/bin/sh\necho hi\n")
    a, b = _fire_both(project, monkeypatch, command)
    assert a == b and a["outcome"] != "ok"


@pytest.mark.slow
def test_a_timeout_ends_the_whole_group_either_way(
    project: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = _fire_both(project, monkeypatch, "sleep 30 & sleep 30", timeout=300)
    assert a == b and a["outcome"] == "timeout"


def test_wait_and_poll_behave_as_popen(project: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    monkeypatch.chdir(project.root)
    req = _process.Spawn(["sleep", "5"], os.getcwd(), dict(os.environ), b"", 10.0)
    proc = _process._spawn_here(req, dict(os.environ))
    assert proc is not None and proc.poll() is None
    with pytest.raises(subprocess.TimeoutExpired):
        proc.wait(timeout=0.05)
    os.kill(proc.pid, 15)
    assert proc.wait(timeout=5) == -15 and proc.returncode == -15 and proc.poll() == -15
    for f in (proc.stdin, proc.stdout, proc.stderr):
        assert f is not None
        f.close()
