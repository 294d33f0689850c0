"""Issue 20, item 14: the low findings of the outside review, each through what a user runs.

- the environment scrubber drops ``MYSQL_PWD``, ``SENTRY_DSN`` and ``redis://:pw@host`` for project hooks;
- an extension cannot be named ``extension-enablement.json``, ``-rf``, ``x\\ny`` or 300 characters;
- ``hookwise trace report`` reads records whose duration is NaN, a string or negative;
- ``hookwise extensions install`` copies a sparse file sparsely.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.conftest import Project

from _tiers import first_quick
from hookwise import HookSystem
from hookwise.runners.env import sanitize


def _cli(env: dict[str, str], *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookwise", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(cwd),
        stdin=subprocess.DEVNULL,
        timeout=120,
    )


def _env(home: Path) -> dict[str, str]:
    return {
        "PATH": f"{os.path.dirname(sys.executable)}:/usr/bin:/bin",
        "HOME": str(home),
        "GEMINI_CLI_HOME": str(home),
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(home / "n1.json"),
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(home / "n2.json"),
        "XDG_CACHE_HOME": str(home / ".cache"),
    }


SECRETS = {
    "MYSQL_PWD": "hunter2",
    "PGPWD": "hunter3",
    "SENTRY_DSN": "https://abc123@o1.ingest.sentry.io/42",
    "CACHE_URL": "redis://:s3cret@cache.internal:6379/0",
    "QUEUE": "amqp://:pw@q:5672",
}


def test_scrubber_drops_password_variables_dsns_and_url_passwords(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    for k, v in SECRETS.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv("PWD", str(project.root))
    kept = sanitize(dict(os.environ))
    assert not set(SECRETS) & set(kept)
    assert kept["PWD"] == str(project.root)  # the working directory is not a password
    dump = project.script(
        "dump.py", "print(json.dumps({'systemMessage': json.dumps(dict(os.environ))}))"
    )
    project.hooks("BeforeAgent", dump)
    out = HookSystem(project.root, trust_all=True).fire("BeforeAgent", prompt="p")
    seen = json.loads(out.hooks[0].output["systemMessage"])
    assert not set(SECRETS) & set(seen), sorted(set(SECRETS) & set(seen))


def _extension(path: Path, name: str) -> Path:
    (path / "hooks").mkdir(parents=True)
    (path / "gemini-extension.json").write_text(json.dumps({"name": name, "version": "1"}))
    (path / "hooks" / "hooks.json").write_text(json.dumps({"hooks": {}}))
    return path


@pytest.mark.parametrize(
    "name",
    first_quick(
        [
            "extension-enablement.json",
            "-rf",
            "--help",
            "x\ny",
            "ok\n",
            "a" * 300,
            ".hidden",
            "a/b",
            "",
        ]
    ),
)
def test_unusable_extension_names_are_refused_with_one_message(tmp_path: Path, name: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = _env(home)
    project = tmp_path / "project"
    project.mkdir()
    good = _extension(tmp_path / "good", "good")
    assert (
        _cli(
            env,
            "--project",
            str(project),
            "extensions",
            "install",
            str(good),
            "--consent",
            cwd=project,
        ).returncode
        == 0
    )
    r = _cli(
        env,
        "--project",
        str(project),
        "extensions",
        "install",
        str(_extension(tmp_path / "bad", name)),
        cwd=project,
    )
    assert r.returncode == 1, r.stdout + r.stderr
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("hookwise: error:")]
    assert len(errors) == 1 and "/name" in errors[0], r.stderr
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr
    root = home / ".gemini" / "extensions"
    assert sorted(p.name for p in root.iterdir() if not p.name.startswith(".")) == ["good"]
    # enable/disable still work: nothing took the enablement file's name
    for verb in ("disable", "enable"):
        assert (
            _cli(env, "--project", str(project), "extensions", verb, "good", cwd=project).returncode
            == 0
        )


def test_trace_report_reads_nan_string_and_negative_durations(tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    base = {
        "type": "hook_call",
        "hook_event_name": "BeforeTool",
        "source": "project",
        "outcome": "ok",
    }
    lines = [
        {**base, "hook_name": "nan", "duration_ms": float("nan")},
        {**base, "hook_name": "text", "duration_ms": "slow"},
        {**base, "hook_name": "neg", "duration_ms": -4},
        {**base, "hook_name": "list", "duration_ms": [1]},
        {**base, "hook_name": "numeric-text", "duration_ms": "12.5"},
        {**base, "hook_name": "fine", "duration_ms": 3.0},
    ]
    trace.write_text("\n".join(json.dumps(x) for x in lines) + "\n")  # json.dumps writes NaN
    for fmt in ([], ["--html", str(tmp_path / "r.html")]):
        r = _cli(_env(tmp_path), "trace", "report", str(trace), *fmt, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert "internal error" not in r.stderr
    text = _cli(_env(tmp_path), "trace", "report", str(trace), cwd=tmp_path).stdout
    assert "note: 4 call(s) have no valid duration_ms" in text and "12.5" in text


def test_extensions_install_keeps_a_sparse_file_sparse(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    src = _extension(tmp_path / "src", "sparse")
    big = src / "blob.bin"
    with open(big, "wb") as f:
        f.write(b"head")
        f.seek(3 * 1024**3)
        f.write(b"tail")
    if os.stat(big).st_blocks * 512 > 1024**2:
        pytest.skip("this file system does not keep holes")
    project = tmp_path / "project"
    project.mkdir()
    t0 = time.monotonic()
    r = _cli(
        _env(home),
        "--project",
        str(project),
        "extensions",
        "install",
        str(src),
        "--consent",
        cwd=project,
    )
    took = time.monotonic() - t0
    assert r.returncode == 0, r.stderr
    copy = home / ".gemini" / "extensions" / "sparse" / "blob.bin"
    st = os.stat(copy)
    assert st.st_size == os.stat(big).st_size
    assert st.st_blocks * 512 < 1024**2, st.st_blocks  # not 3 GB on disk
    with open(copy, "rb") as f:
        assert f.read(4) == b"head"
        f.seek(3 * 1024**3)
        assert f.read() == b"tail"
    assert took < 60
