"""A hook's input on stdin: written at once when the pipe holds it, in rounds as the hook reads
otherwise.

An input longer than a pipe holds by default gets a larger stdin pipe (``F_SETPIPE_SZ``, Linux);
when that is refused or not needed the input is written as the hook reads. Either way the hook reads
every byte, in order, and a hook that never reads its input is not waited for.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import sys

import pytest

from hookwise.runners import _process
from hookwise.runners._process import Spawn, grow_pipe, run_many, run_one

ENV = {"PATH": os.defpath}
#: prints the byte count and the sha256 of what the hook read on stdin
COUNT = (
    "import hashlib, sys; d = sys.stdin.buffer.read(); "
    "sys.stdout.write(f'{len(d)} {hashlib.sha256(d).hexdigest()}')"
)

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="pipe sizes are Linux's"
)


def _data(size: int) -> bytes:
    return bytes(i % 251 for i in range(size))


def _read_back(tmp_path: pathlib.Path, data: bytes) -> bytes:
    done = run_one(Spawn([sys.executable, "-c", COUNT], str(tmp_path), ENV, data, 30))
    assert (done.returncode, done.timed_out, done.spawn_error) == (0, False, None), done
    return done.stdout


def _expected(data: bytes) -> bytes:
    return f"{len(data)} {hashlib.sha256(data).hexdigest()}".encode()


@pytest.mark.parametrize("size", [0, 1, 65536, 65537, 300_000, 3 * (1 << 20)])
def test_the_hook_reads_every_byte(tmp_path: pathlib.Path, size: int) -> None:
    data = _data(size)
    assert _read_back(tmp_path, data) == _expected(data)


def test_without_a_larger_pipe_the_input_is_written_as_the_hook_reads(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What happens wherever the pipe cannot grow: several rounds of partial writes, same bytes."""
    monkeypatch.setattr(_process, "PIPE_DEFAULT_SIZE", 1 << 30)  # never ask for a larger pipe
    data = _data(300_000)
    assert _read_back(tmp_path, data) == _expected(data)


def test_a_hook_that_never_reads_a_large_input_is_not_waited_for(tmp_path: pathlib.Path) -> None:
    done = run_one(Spawn(["bash", "-c", "echo ok"], str(tmp_path), ENV, _data(3 << 20), 30))
    assert (done.returncode, done.stdout, done.timed_out) == (0, b"ok\n", False)


def test_parallel_hooks_each_read_their_whole_input(tmp_path: pathlib.Path) -> None:
    inputs = [_data(200_000 + i) for i in range(4)]
    spawns = [Spawn([sys.executable, "-c", COUNT], str(tmp_path), ENV, d, 30) for d in inputs]
    results = run_many(spawns)
    assert [r.stdout for r in results] == [_expected(d) for d in inputs]


@linux_only
def test_grow_pipe_sizes_a_pipe_to_its_input() -> None:
    import fcntl

    r, w = os.pipe()
    try:
        assert grow_pipe(w, 1000) is None  # fits the default pipe: left alone
        assert fcntl.fcntl(w, fcntl.F_GETPIPE_SZ) == _process.PIPE_DEFAULT_SIZE
        size = grow_pipe(w, 300_000)
        assert size is not None and size >= 300_000
        assert fcntl.fcntl(w, fcntl.F_GETPIPE_SZ) == size
        capped = grow_pipe(w, 50 << 20)
        assert capped is not None and capped <= _process.PIPE_MAX_SIZE
    finally:
        os.close(r)
        os.close(w)


@linux_only
def test_a_refused_pipe_size_is_not_an_error(tmp_path: pathlib.Path) -> None:
    """F_SETPIPE_SZ refused (here: not a pipe, EBADF/EINVAL; for a user over the pipe page limit,
    EPERM)."""
    path = tmp_path / "f"
    fd = os.open(path, os.O_CREAT | os.O_WRONLY)
    try:
        assert grow_pipe(fd, 300_000) is None
    finally:
        os.close(fd)
