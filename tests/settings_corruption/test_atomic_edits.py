"""Settings edits by the CLI are atomic and never lose a byte the user wrote, even when the process
is killed.

The CLI runs as a user runs it (``python -m hookwise``). Two ways to interrupt it:
``RLIMIT_FSIZE`` makes the kernel kill it with SIGXFSZ exactly in the middle of
writing the new file, deterministically (or, with SIGXFSZ ignored as CPython does
by default, fail that write with EFBIG); and SIGKILL at drawn moments hits
start-up, reading, parsing and writing alike.
"""

from __future__ import annotations

import os
import random
import resource
import signal
import subprocess
import sys
import time

import pytest

from faults._stats import record
from hookwise.jsonc import parse as jsonc

from .conftest import Layers

#: what the user wrote: comments everywhere, odd spacing, CRLF line endings, a BOM, and a few MB of
#: notes
NOTES = "".join(
    f"  // note {i}: keep this line exactly as written \u00e9\u6f22\r\n" for i in range(60_000)
)
ORIGINAL = (
    "\ufeff{\r\n" + NOTES + '  "hooks": { "BeforeTool": [ { "hooks": [\r\n'
    '      { "type": "command", "command": "true", "name": "guard" } ] } ] },\r\n'
    '  /* user settings */ "hooksConfig": {   "disabled": [ "old-one" ]  }\r\n}\r\n'
)


def run_cli(
    layers: Layers,
    *args: str,
    limit: int | None = None,
    ignore_xfsz: bool = False,
    kill_after: float | None = None,
) -> subprocess.CompletedProcess[str] | int:
    def preexec() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    cmd = [sys.executable, "-m", "hookwise", "--project", str(layers.project), *args]
    if limit is not None and not ignore_xfsz:
        # CPython ignores SIGXFSZ at start-up; restore the default so the kernel kills the process
        # mid-write
        cmd[1:3] = [
            "-c",
            "import signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_DFL); "
            "from hookwise.cli.main import main; sys.exit(main(sys.argv[1:]))",
        ]
    if kill_after is None:
        return subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            timeout=120,
            preexec_fn=preexec,
            env=dict(os.environ),
        )
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ)
    )
    time.sleep(kill_after)
    proc.kill()
    return proc.wait(30)


def leftovers(layers: Layers) -> list[str]:
    return [p.name for p in layers.project_file.parent.iterdir() if p.name != "settings.json"]


@pytest.fixture
def original(layers: Layers) -> bytes:
    layers.write_project(ORIGINAL)
    return layers.project_file.read_bytes()


@pytest.mark.slow
def test_a_successful_edit_keeps_every_byte_the_user_wrote(layers: Layers, original: bytes) -> None:
    r = run_cli(layers, "disable", "guard")
    assert isinstance(r, subprocess.CompletedProcess) and r.returncode == 0, r
    new = layers.project_file.read_bytes()
    assert new.startswith(
        original[: len(original) - 120]
    )  # everything before hooksConfig is identical
    text = new.decode("utf-8")
    assert text.count("keep this line exactly as written") == 60_000
    assert jsonc.parse(text)["hooksConfig"]["disabled"] == ["old-one", "guard"]
    r = run_cli(layers, "enable", "guard")
    assert isinstance(r, subprocess.CompletedProcess) and r.returncode == 0, r
    assert jsonc.parse(layers.project_file.read_text("utf-8"))["hooksConfig"]["disabled"] == [
        "old-one"
    ]
    assert layers.project_file.read_bytes().startswith(original[: len(original) - 120])
    assert leftovers(layers) == []


@pytest.mark.slow
def test_killed_by_the_kernel_in_the_middle_of_the_write(layers: Layers, original: bytes) -> None:
    r = run_cli(layers, "disable", "guard", limit=len(original) // 2)
    assert isinstance(r, subprocess.CompletedProcess)
    assert r.returncode == -signal.SIGXFSZ, (r.returncode, r.stderr[-500:])  # died mid-write
    assert layers.project_file.read_bytes() == original  # the user's file is untouched
    record("interrupted edits")


@pytest.mark.slow
def test_write_error_mid_file_is_a_clear_message_and_changes_nothing(
    layers: Layers, original: bytes
) -> None:
    r = run_cli(layers, "disable", "guard", limit=len(original) // 2, ignore_xfsz=True)
    assert isinstance(r, subprocess.CompletedProcess)
    assert r.returncode == 1, r
    assert str(layers.project_file) in r.stderr and "Traceback" not in r.stderr
    assert layers.project_file.read_bytes() == original
    assert leftovers(layers) == []  # the half-written temporary file was removed
    record("interrupted edits")


@pytest.mark.slow
def test_sigkill_at_drawn_moments_leaves_the_old_or_the_new_file(
    layers: Layers, original: bytes
) -> None:
    r = run_cli(layers, "disable", "guard")
    assert isinstance(r, subprocess.CompletedProcess) and r.returncode == 0
    disabled = layers.project_file.read_bytes()
    r = run_cli(layers, "enable", "guard")
    assert isinstance(r, subprocess.CompletedProcess) and r.returncode == 0
    enabled = layers.project_file.read_bytes()
    # time a full run to spread the kills over all of it
    t0 = time.monotonic()
    run_cli(layers, "disable", "guard")
    run_cli(layers, "enable", "guard")
    span = (time.monotonic() - t0) / 2
    rng = random.Random(1234)
    states = {enabled: "enabled", disabled: "disabled"}
    for i in range(16):
        command = "disable" if i % 2 == 0 else "enable"
        run_cli(layers, command, "guard", kill_after=rng.uniform(0.3, 1.1) * span)
        now = layers.project_file.read_bytes()
        assert now in states, f"after kill {i}: the file is neither the old nor the new version"
        for name in leftovers(
            layers
        ):  # a SIGKILL cannot clean up its temporary file; it never replaces ours
            (layers.project_file.parent / name).unlink()
        record("interrupted edits")
    assert layers.project_file.read_bytes() in states
    assert jsonc.parse(layers.project_file.read_text("utf-8"))["hooks"]
