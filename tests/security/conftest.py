"""Security cases: injection, trust, secrets, symlinked writes, context break-out."""

from __future__ import annotations

from typing import Any

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "security: a security case (counted in docs/reliability.md)")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    from faults._stats import record

    if report.when == "call" and "security" in report.keywords:
        record("security cases run")
        if report.passed:
            record("security cases passed")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    from faults._stats import terminal_summary

    terminal_summary(terminalreporter)
