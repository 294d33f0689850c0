"""pytest plugin (``pytest11`` entry point ``hookwise``): the ``hooks`` fixture.

Loading this module imports nothing but pytest; hookwise itself is imported
only when a test asks for the fixture. A project's own fixture named ``hooks``
overrides this one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from hookwise.testing import HookTester


@pytest.fixture
def hooks(tmp_path: Path) -> Iterator[HookTester]:
    """A :class:`hookwise.testing.HookTester` on a fresh temporary project with isolated user/system
    settings."""
    from hookwise.testing import HookTester

    yield HookTester(tmp_path / "hookwise")
