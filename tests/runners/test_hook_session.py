"""Where a hook process sits: it always leads its own process group; it gets a new session only when
hookwise has a controlling terminal (runners/_process.py: new_session), where the two differ for a
hook."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import time

import pytest

#: run by a fresh interpreter: fire one hook through the driver, print what the hook saw as JSON
DRIVER = """
import json, os, sys
from hookwise.runners._process import Spawn, run_one
hook = (
    "import json, os\\n"
    "try:\\n"
    "    os.close(os.open('/dev/tty', os.O_RDONLY | os.O_NOCTTY)); tty = True\\n"
    "except OSError:\\n"
    "    tty = False\\n"
    "ids = {'pid': os.getpid(), 'pgid': os.getpgid(0), 'sid': os.getsid(0), 'tty': tty}\\n"
    "print(json.dumps(ids))\\n"
)
done = run_one(Spawn([sys.executable, "-c", hook], sys.argv[1], {"PATH": os.defpath}, b"", 30))
seen = json.loads(done.stdout)
seen["driver_sid"] = os.getsid(0)
with open(sys.argv[2], "w") as f:
    json.dump(seen, f)
"""

#: a hook that times out with a background child: both must be gone after the firing
TIMEOUT = """
import os, sys, time
from hookwise.runners._process import Spawn, run_one
marker = sys.argv[2]
done = run_one(Spawn(["bash", "-c", "sleep 30 & echo $! > " + marker + "; sleep 30"], sys.argv[1],
                     {"PATH": os.defpath}, b"", 0.5))
bg = int(open(marker).read())
time.sleep(0.2)
try:  # gone, or a zombie waiting for whoever inherited it
    with open(f"/proc/{bg}/stat") as f:
        alive = f.read().rsplit(")", 1)[1].split()[0] != "Z"
except FileNotFoundError:
    alive = False
print(done.timed_out, alive)
"""

needs_groups = pytest.mark.skipif(
    sys.version_info < (3, 11) or not sys.platform.startswith("linux"),
    reason="Popen(process_group=) is Python 3.11+; the checks read Linux sessions",
)


def _clean_env() -> dict[str, str]:
    return {"PATH": os.defpath, "HOME": os.environ.get("HOME", "/")}


@needs_groups
def test_without_a_terminal_a_hook_leads_a_process_group_in_hookwise_session(
    tmp_path: pathlib.Path,
) -> None:
    out = tmp_path / "seen.json"
    # a new session of its own: certainly no controlling terminal, whoever runs the tests
    subprocess.run(
        [sys.executable, "-c", DRIVER, str(tmp_path), str(out)],
        env=_clean_env(),
        start_new_session=True,
        check=True,
        timeout=60,
    )
    seen = json.loads(out.read_text())
    assert seen["pgid"] == seen["pid"]  # its own process group: a timeout kills the whole group
    assert (
        seen["sid"] == seen["driver_sid"] != seen["pid"]
    )  # no new session (no scheduler autogroup)
    assert seen["tty"] is False


@pytest.mark.slow
@needs_groups
def test_with_a_terminal_a_hook_gets_a_new_session_without_it(tmp_path: pathlib.Path) -> None:
    import pty

    out = tmp_path / "seen.json"
    pid, master = pty.fork()  # the child leads a session whose controlling terminal is the pty
    if pid == 0:  # pragma: no cover - the child
        try:
            os.execve(
                sys.executable,
                [sys.executable, "-c", DRIVER, str(tmp_path), str(out)],
                _clean_env(),
            )
        finally:
            os._exit(127)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if not os.read(master, 4096):
                    break
            except OSError:  # EIO: the child closed the terminal
                break
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(master)
    assert os.waitstatus_to_exitcode(status) == 0
    seen = json.loads(out.read_text())
    assert (
        seen["pgid"] == seen["pid"] == seen["sid"]
    )  # a new session: the hook cannot reach the terminal
    assert seen["tty"] is False


@pytest.mark.slow
@needs_groups
def test_a_timed_out_hook_and_its_background_child_are_killed_without_a_new_session(
    tmp_path: pathlib.Path,
) -> None:
    p = subprocess.run(
        [sys.executable, "-c", TIMEOUT, str(tmp_path), str(tmp_path / "bg.pid")],
        env=_clean_env(),
        start_new_session=True,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert p.stdout.split() == ["True", "False"]
