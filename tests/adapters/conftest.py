"""Fixtures every adapter test module shares."""

from __future__ import annotations

from pathlib import Path

import pytest

from ._kit import Hooks
from .scenarios import AdapterEnv


@pytest.fixture
def adapter_env(tmp_path: Path, _isolated_gemini_home: Path) -> AdapterEnv:
    """A temporary project for the shared scenarios (:mod:`tests.adapters.scenarios`)."""
    return AdapterEnv(tmp_path / "project")


@pytest.fixture
def hooks(tmp_path: Path) -> Hooks:
    """A temporary project whose hooks the ADK and OpenAI Agents tests script one by one
    (:mod:`._kit`); in this folder it stands for the ``hooks`` fixture of hookwise's pytest
    plugin."""
    return Hooks(tmp_path)
