"""Warm Python command hooks (runners/_warm.py, runners/_zygote.py): a ``python script.py`` hook
fired again and again in one process is forked from a waiting interpreter from its third firing on,
and the hook cannot tell: every test fires the same hook cold (firing 1) and warm (firing 3) through
a real HookSystem and compares what it saw and what it meant. Real processes throughout."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import Project
from tests.runners._procs import alive, wait_dead

from hookwise import HookSystem, Outcome
from hookwise.runners import _reaper, _warm

pytestmark = pytest.mark.usefixtures("trust_all")

#: the same run's marker differs per run by design (runners/_reaper.py)
MARKER = "HOOKWISE_HOOK_RUN"


@pytest.fixture(autouse=True)
def _own_zygotes(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts without zygotes and ends every zygote it started."""
    monkeypatch.delenv(_warm.SWITCH, raising=False)
    _warm.close_all()
    yield
    _warm.close_all()


def live_group(pgid: int) -> list[int]:
    """The processes of group ``pgid`` that are not zombies (a reparented zombie still counts for
    killpg)."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                out.append(int(name))
    return out


def script(project: Project, name: str, body: str) -> str:
    """A hook script in the project, run as ``<this python> .gemini/hooks/<name> ...`` (direct
    exec)."""
    path = project.root / ".gemini" / "hooks" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(body))
    return f"{sys.executable} .gemini/hooks/{name}"


def fire(hs: HookSystem) -> Any:
    return hs.fire("BeforeTool", tool_name="t", tool_input={"a": 1, "text": "h\u00e9llo"})


def fire_three(project: Project, command: str, **hook: Any) -> tuple[list[Any], HookSystem]:
    """Fire ``command`` three times in one HookSystem: two normal starts, then a warm one."""
    project.hooks("BeforeTool", {"type": "command", "name": "h", "command": command, **hook})
    hs = HookSystem(project.root)
    return [fire(hs) for _ in range(3)], hs


PROBE = """\
import json, os, sys
modules = sorted(sys.modules)
import signal
main = sys.modules["__main__"]
stdin = sys.stdin.read()
event = json.loads(stdin)
event.pop("timestamp")
report = {
    "argv": sys.argv,
    "orig_argv": sys.orig_argv,
    "name": __name__,
    "file": __file__,
    "path": sys.path,
    "cwd": os.getcwd(),
    "env": {k: v for k, v in os.environ.items() if k != "HOOKWISE_HOOK_RUN"},
    "stdin": event,
    "stdin_bytes": len(stdin.encode()),
    "streams": [
        (s.encoding, s.errors, s.isatty(), s.line_buffering, type(s.buffer).__name__)
        for s in (sys.stdin, sys.stdout, sys.stderr)
    ],
    "modules": modules,
    "main": list(vars(main)),
    "loader": [type(__loader__).__name__, __loader__.name, __loader__.path],
    "spec_package_cached_doc": [repr(__spec__), __package__, __cached__, __doc__],
    "importers": sorted(sys.path_importer_cache),
    "executable": sys.executable,
    "flags": repr(sys.flags),
    "signals": [repr(signal.getsignal(s)) for s in (signal.SIGINT, signal.SIGPIPE, signal.SIGCHLD)],
    "fds": sorted(os.listdir("/proc/self/fd")),
    "leads_group": os.getpgid(0) == os.getpid(),
    "leads_session": os.getsid(0) == os.getpid(),
    "session": "own" if os.getsid(0) == os.getpid() else os.getsid(0),
    "marker_set": bool(os.environ.get("HOOKWISE_HOOK_RUN")),
}
with open(sys.argv[1], "a") as f:
    f.write(json.dumps({"report": report, "ppid": os.getppid()}) + "\\n")
print(json.dumps({"decision": "allow"}))
"""


def test_a_warm_hook_sees_what_a_cold_one_sees(project: Project) -> None:
    out = project.root / "reports.jsonl"
    cmd = script(project, "probe.py", PROBE) + f" {out} 'two words'"
    results, _ = fire_three(project, cmd)
    assert [r.hooks[0].outcome for r in results] == [Outcome.OK] * 3
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["ppid"] for x in lines[:2]] == [os.getpid()] * 2  # the first two start normally
    assert lines[2]["ppid"] in _warm.zygote_pids()  # the third is forked by the warm interpreter
    cold, warm = lines[0]["report"], lines[2]["report"]
    assert warm == cold
    assert cold["argv"][1:] == [str(out), "two words"]
    assert cold["leads_group"] and cold["marker_set"]
    # a new session only when this process has a controlling terminal (runners/_reaper.py:
    # new_session)
    assert cold["leads_session"] == _reaper.new_session()
    assert cold["stdin"]["tool_input"] == {"a": 1, "text": "h\u00e9llo"}


CASES = {
    "allow": 'print(json.dumps({"decision": "allow", "reason": "fine"}))',
    "exit2": 'print("no way", file=sys.stderr); sys.exit(2)',
    "exit-msg": 'sys.exit("a message for stderr")',
    "exit-code": "print('partial'); raise SystemExit(3)",
    "uncaught": "def f():\n    raise ValueError('broken hook')\nf()",
    "atexit": (
        "import atexit\n"
        "atexit.register(lambda: print(json.dumps({'decision': 'deny', 'reason': "
        "str(globals().get('__file__'))})))"
    ),
    "atexit-after-exit": (
        "import atexit\natexit.register(lambda: print('bye', __name__, "
        "file=sys.stderr))\nsys.exit(2)"
    ),
    "syntax-error": "def (:\n",
    "interrupted": "raise KeyboardInterrupt",
    "thread": (
        "import threading, time\n"
        "threading.Thread(target=lambda: (time.sleep(0.2), print(json.dumps({'decision': "
        "'allow'})))).start()"
    ),
    "modules-the-zygote-used": (
        "import socket, select, gc\n"
        "a, b = socket.socketpair()\na.send(b'ok')\nselect.select([b], [], [], 5)\n"
        "print(json.dumps({'decision': 'allow', 'reason': b.recv(2).decode() + "
        "str(gc.isenabled())}))"
    ),
    "unclosed-file": (
        "f = open(sys.argv[1], 'w')\nf.write('written at exit')\n"
        "print(json.dumps({'decision': 'allow'}))"
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_warm_hook_means_what_a_cold_one_means(project: Project, case: str) -> None:
    body = "import json, os, sys\nsys.stdin.read()\n" + CASES[case] + "\n"
    side = project.root / "side.txt"
    results, _ = fire_three(project, script(project, "case.py", body) + f" {side}")

    def seen(r: Any) -> tuple[Any, ...]:
        h = r.hooks[0]
        return (h.outcome, h.exit_code, h.signal, h.stdout, h.stderr, h.error, h.output, r.decision)

    assert seen(results[2]) == seen(results[0]), case
    assert results[2].warnings == results[0].warnings
    if case == "unclosed-file":
        assert side.read_text() == "written at exit"
    assert _warm.zygote_pids(), "the third firing had a warm interpreter"


@pytest.mark.slow
def test_a_warm_hook_timeout_kills_its_process_group(project: Project) -> None:
    pidfile = project.root / "pids"
    cmd = script(
        project,
        "hang.py",
        f"""\
        import os, subprocess, time
        child = subprocess.Popen(["sleep", "1000"])  # in our process group, holding our stdout
        with open({str(pidfile)!r}, "a") as f:
            f.write(f"{{os.getpid()}} {{child.pid}} {{os.getppid()}}\\n")
        print("partial output", flush=True)
        while True:
            time.sleep(1)
        """,
    )
    project.hooks("BeforeTool", {"type": "command", "name": "hang", "command": cmd, "timeout": 800})
    hs = HookSystem(project.root)
    for i in range(3):
        t0 = time.monotonic()
        r = fire(hs)
        assert r.hooks[0].outcome is Outcome.TIMEOUT
        assert r.hooks[0].stdout.strip() == "partial output"
        assert time.monotonic() - t0 < 0.8 + 3.0
        pid, child, ppid = (int(x) for x in pidfile.read_text().splitlines()[i].split())
        assert wait_dead([pid, child], 5.0) == []
        assert live_group(pid) == []
    assert ppid in _warm.zygote_pids()  # the last one was warm


def test_a_warm_hook_is_not_waited_for_its_background_child(project: Project) -> None:
    pidfile = project.root / "bg"
    cmd = script(
        project,
        "bg.py",
        f"""\
        import json, os, subprocess
        child = subprocess.Popen(["sleep", "30"])  # inherits stdout and stderr
        with open({str(pidfile)!r}, "a") as f:
            f.write(f"{{child.pid}} {{os.getppid()}}\\n")
        print(json.dumps({{"decision": "deny", "reason": "held"}}))
        """,
    )
    project.hooks("BeforeTool", {"type": "command", "name": "bg", "command": cmd, "timeout": 20000})
    hs = HookSystem(project.root)
    for _ in range(3):
        t0 = time.monotonic()
        r = fire(hs)
        assert time.monotonic() - t0 < 5
        assert r.hooks[0].outcome is Outcome.OK and r.blocked
    rows = [[int(x) for x in line.split()] for line in pidfile.read_text().splitlines()]
    assert rows[2][1] in _warm.zygote_pids()
    assert wait_dead([row[0] for row in rows], 5.0) == []


def test_a_killed_zygote_falls_back_visibly_and_is_replaced(project: Project) -> None:
    out = project.root / "ppids"
    cmd = script(
        project,
        "p.py",
        f"""\
        import json, os, sys
        open({str(out)!r}, "a").write(f"{{os.getppid()}}\\n")
        print(json.dumps({{"decision": "allow"}}))
        """,
    )
    results, hs = fire_three(project, cmd)
    (zygote,) = _warm.zygote_pids()
    os.kill(zygote, signal.SIGKILL)
    assert wait_dead([zygote], 5.0) == []
    r = fire(hs)
    assert r.hooks[0].outcome is Outcome.OK and r.decision == "allow"
    assert any("warm Python" in w and "started the normal way" in w for w in r.warnings), r.warnings
    ppids = [int(x) for x in out.read_text().split()]
    assert ppids[0] == ppids[1] == ppids[3] == os.getpid() and ppids[2] == zygote
    assert not _warm.zygote_pids()
    r5, r6 = fire(hs), fire(hs)  # two more normal starts, then a new zygote serves
    assert not r5.warnings and not r6.warnings
    assert fire(hs).warnings == []
    assert int(out.read_text().split()[-1]) in _warm.zygote_pids()


def test_a_changed_sys_path_directory_replaces_the_zygote_quietly(
    project: Project, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    monkeypatch.setenv("PYTHONPATH", str(lib))
    out = project.root / "ppids"
    cmd = script(
        project, "p.py", f"import os\nopen({str(out)!r}, 'a').write(f'{{os.getppid()}}\\n')\n"
    )
    project.hooks("BeforeTool", {"type": "command", "name": "h", "command": cmd})
    hs = HookSystem(project.root)
    results = [fire(hs) for _ in range(3)]
    (lib / "newly_installed.py").write_text(
        ""
    )  # what a pip install does to a directory of sys.path
    results += [fire(hs) for _ in range(3)]
    assert all(r.hooks[0].outcome is Outcome.OK and not r.warnings for r in results)
    me = os.getpid()
    ppids = [int(x) for x in out.read_text().split()]
    assert ppids[:2] == ppids[3:5] == [me, me]
    assert me != ppids[2] != ppids[5] != me
    assert _warm.zygote_pids() == [ppids[5]]


def test_parallel_hooks_of_one_interpreter_share_its_zygote(project: Project) -> None:
    out = project.root / "ppids"
    body = f"""\
import json, os, sys, time
time.sleep(0.2)  # both run at once
open({str(out)!r}, "a").write(f"{{os.getppid()}} {{sys.argv[1]}}\\n")
print(json.dumps({{"decision": "allow", "reason": sys.argv[1]}}))
"""
    cmd = script(project, "p.py", body)
    project.hooks(
        "BeforeTool",
        {"type": "command", "name": "one", "command": cmd + " one"},
        {"type": "command", "name": "two", "command": cmd + " two"},
    )
    hs = HookSystem(project.root)
    for _ in range(3):
        r = fire(hs)
        assert [h.outcome for h in r.hooks] == [Outcome.OK, Outcome.OK] and not r.warnings
    rows = [line.split() for line in out.read_text().splitlines()]
    (zygote,) = _warm.zygote_pids()
    assert sorted(rows[4:]) == [[str(zygote), "one"], [str(zygote), "two"]]
    assert {r[0] for r in rows[:4]} == {str(os.getpid())}


def test_an_interpreter_whose_start_up_prints_stays_cold(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(
        "PYTHONVERBOSE", "1"
    )  # every start prints its imports: a warm start would not
    out = project.root / "ppids"
    cmd = script(
        project, "p.py", f"import os\nopen({str(out)!r}, 'a').write(f'{{os.getppid()}}\\n')\n"
    )
    project.hooks("BeforeTool", {"type": "command", "name": "h", "command": cmd})
    hs = HookSystem(project.root)
    results = [fire(hs) for _ in range(4)]
    assert all(r.hooks[0].outcome is Outcome.OK and not r.warnings for r in results)
    assert all("import " in r.hooks[0].stderr for r in results)
    assert [int(x) for x in out.read_text().split()] == [os.getpid()] * 4
    assert _warm.zygote_pids() == []


def test_the_switch_turns_it_off(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_warm.SWITCH, "0")
    out = project.root / "ppids"
    cmd = script(
        project, "p.py", f"import os\nopen({str(out)!r}, 'a').write(f'{{os.getppid()}}\\n')\n"
    )
    project.hooks("BeforeTool", {"type": "command", "name": "h", "command": cmd})
    hs = HookSystem(project.root)
    for _ in range(4):
        assert fire(hs).hooks[0].outcome is Outcome.OK
    assert [int(x) for x in out.read_text().split()] == [os.getpid()] * 4
    assert _warm.zygote_pids() == []


CHILDREN = """\
import json, os, sys
sys.stdin.read()
ppid = os.getppid()
kids = []
for tid in os.listdir(f"/proc/{ppid}/task"):
    with open(f"/proc/{ppid}/task/{tid}/children") as f:
        kids += f.read().split()
cmdlines = []
for k in kids:
    try:
        with open(f"/proc/{k}/cmdline", "rb") as f:
            cmdlines.append(f.read().decode(errors="replace"))
    except OSError:
        pass
with open(sys.argv[1], "a") as f:
    warm = [c for c in cmdlines if "hookwise warm" in c]
    f.write(json.dumps({"ppid": ppid, "warm": warm}) + "\\n")
"""


def test_a_single_hookwise_fire_starts_no_warm_interpreter(project: Project) -> None:
    out = project.root / "seen.jsonl"
    cmd = script(project, "kids.py", CHILDREN) + f" {out}"
    project.hooks(
        "BeforeTool",
        {"type": "command", "name": "one", "command": cmd},
        {"type": "command", "name": "two", "command": cmd},
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "hookwise",
            "--project",
            str(project.root),
            "fire",
            "BeforeTool",
            "--tool",
            "t",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 0, stderr
    seen = [json.loads(x) for x in out.read_text().splitlines()]
    assert [s["ppid"] for s in seen] == [
        proc.pid,
        proc.pid,
    ]  # same key twice in one firing: both normal
    assert [s["warm"] for s in seen] == [[], []]


HOST = """\
import json, os, sys
from hookwise import HookSystem
hs = HookSystem(sys.argv[1])
for _ in range(3):
    r = hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert r.hooks[0].outcome.value == "ok", r.hooks[0]
print(open(sys.argv[2]).read().split()[-1], flush=True)
if sys.argv[3] == "killed":
    sys.stdin.read()
"""


@pytest.mark.parametrize("how", ["exits", "killed"])
def test_the_zygote_ends_with_its_host(project: Project, tmp_path: Path, how: str) -> None:
    out = project.root / "ppids"
    cmd = script(
        project, "p.py", f"import os\nopen({str(out)!r}, 'a').write(f'{{os.getppid()}}\\n')\n"
    )
    project.hooks("BeforeTool", {"type": "command", "name": "h", "command": cmd})
    host = tmp_path / "host.py"
    host.write_text(HOST)
    proc = subprocess.Popen(
        [sys.executable, str(host), str(project.root), str(out), how],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    zygote = int(proc.stdout.readline())
    assert zygote != proc.pid and alive(zygote)
    if how == "killed":
        proc.kill()
    proc.wait(timeout=30)
    assert wait_dead([zygote], 5.0) == []
