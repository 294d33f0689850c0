"""`hookwise agents` on a machine with no agent at all: every row of the table, none present (quick
tier)."""

from __future__ import annotations

from pathlib import Path

from hookwise.bridge import machine


def test_a_machine_without_agents(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": str(tmp_path / "bin"), "GEMINI_CLI_HOME": str(home)}
    reports = machine.survey(str(tmp_path), env)
    assert reports and not any(r.present for r in reports)
    assert all(r.to_json()["sessions"] == 0 for r in reports)
    assert isinstance(machine.render(reports, show_all=True), str)
