"""ruff and mypy are part of the test run (the project's style gate)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_clean() -> None:
    pytest.importorskip("ruff", reason="ruff is part of the test extra: pip install -e '.[test]'")
    out = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "src", "tests", "bench"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.slow
def test_ruff_format_clean() -> None:
    pytest.importorskip("ruff", reason="ruff is part of the test extra: pip install -e '.[test]'")
    out = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "src", "tests", "bench", "examples"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, "run `ruff format` on:\n" + out.stdout + out.stderr


@pytest.mark.slow
def test_mypy_clean() -> None:
    pytest.importorskip("mypy")
    out = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
