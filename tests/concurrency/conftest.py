"""Concurrency: many firings at once must give the results they give one by one."""

from __future__ import annotations

from typing import Any


def pytest_terminal_summary(terminalreporter: Any) -> None:
    from faults._stats import terminal_summary

    terminal_summary(terminalreporter)
