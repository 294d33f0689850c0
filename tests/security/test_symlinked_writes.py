"""The trust store and settings writes cannot be redirected through symlinks (a planted link must
not make hookwise overwrite another file)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookwise import HookSystem
from hookwise.errors import WriteError

pytestmark = pytest.mark.security

VICTIM = "precious: do not overwrite\n"


def cli(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "HOOKWISE_TRUST_ALL"}
    return subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


@pytest.fixture
def setup(tmp_path: Path, _isolated_gemini_home: Path) -> tuple[Path, Path, Path]:
    project = tmp_path / "project"
    (project / ".gemini").mkdir(parents=True)
    (project / ".gemini" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "BeforeTool": [
                        {"hooks": [{"type": "command", "name": "guard", "command": "true"}]}
                    ]
                }
            }
        )
    )
    victim = tmp_path / "victim.txt"
    victim.write_text(VICTIM)
    return project, _isolated_gemini_home / ".gemini", victim


@pytest.mark.slow
def test_trust_store_symlink_is_refused(setup: tuple[Path, Path, Path]) -> None:
    project, user_dir, victim = setup
    user_dir.mkdir(parents=True, exist_ok=True)
    (user_dir / "trusted_hooks.json").symlink_to(victim)
    hs = HookSystem(project, trust_all=False)
    with pytest.raises(WriteError, match="symbolic link"):
        hs.trust(hs.untrusted())
    assert victim.read_text() == VICTIM
    r = cli(project, "trust", "--all")
    assert r.returncode == 1 and "symbolic link" in r.stderr and "Traceback" not in r.stderr
    assert victim.read_text() == VICTIM


@pytest.mark.slow
def test_user_dir_symlink_is_refused_for_the_trust_store(
    setup: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    project, user_dir, victim = setup
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "trusted_hooks.json").write_text(VICTIM)
    if user_dir.exists():
        os.rmdir(user_dir)
    user_dir.symlink_to(elsewhere)
    r = cli(project, "trust", "--all")
    assert r.returncode == 1 and "symbolic link" in r.stderr
    assert (elsewhere / "trusted_hooks.json").read_text() == VICTIM


@pytest.mark.slow
@pytest.mark.parametrize("what", ["file", "dir"])
@pytest.mark.parametrize("command", ["disable", "enable-all", "disable-all"])
def test_settings_edit_through_a_symlink_is_refused(
    setup: tuple[Path, Path, Path], tmp_path: Path, what: str, command: str
) -> None:
    project, _, victim = setup
    settings = project / ".gemini" / "settings.json"
    real = tmp_path / "real-settings.json"
    real.write_text(settings.read_text())
    if what == "file":
        settings.unlink()
        settings.symlink_to(real)
    else:
        real_dir = tmp_path / "real-gemini"
        real_dir.mkdir()
        (real_dir / "settings.json").write_text(settings.read_text())
        real = real_dir / "settings.json"
        settings.unlink()
        (project / ".gemini").rmdir()
        (project / ".gemini").symlink_to(real_dir)
    before = real.read_bytes()
    args = [command, "guard"] if command == "disable" else [command]
    r = cli(project, *args)
    assert r.returncode == 1, r
    assert "symbolic link" in r.stderr or "symlink" in r.stderr
    assert real.read_bytes() == before
    assert victim.read_text() == VICTIM


@pytest.mark.slow
def test_hardlinked_settings_are_not_written_through(
    setup: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    project, _, _ = setup
    settings = project / ".gemini" / "settings.json"
    other = tmp_path / "other-name.json"
    os.link(settings, other)
    before = other.read_bytes()
    r = cli(project, "disable", "guard")
    assert r.returncode == 0, r.stderr
    assert (
        other.read_bytes() == before
    )  # the edit replaced the directory entry; the other link is untouched
    assert "guard" in json.loads(settings.read_text())["hooksConfig"]["disabled"]
