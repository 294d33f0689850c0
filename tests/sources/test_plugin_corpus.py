"""Acceptance: six plugin-shaped directories, each run four ways, each hook's effect asserted.

The corpus (tests/sources/corpus/) was written for hookwise: a node guard, a
Python guard, a bash/cmd polyglot ``run-hook.cmd``, a stop gate that keeps state
next to the project, a SessionStart context loader and a plugin whose hooks
live inline in ``plugin.json``. Ways: ``--plugin-dir``, a plugin Claude Code
installed and enabled (its records under ``~/.claude/plugins/``),
``hookwise extensions install``, and ``migrate --from-claude`` with
``CLAUDE_PLUGIN_ROOT`` inherited. Everything runs as a user runs it: the CLI in
a subprocess, real hook processes (node, python3, bash), real files.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CORPUS = Path(__file__).parent / "corpus"
MODES = ("plugin-dir", "claude-record", "extension", "migrate")


@dataclass
class Run:
    """One scenario's world: the project, the home, the plugin copy, how it is loaded."""

    tmp: Path
    mode: str
    name: str

    def __post_init__(self) -> None:
        self.home = self.tmp / "home"
        self.project = self.tmp / "project"
        self.project.mkdir(parents=True)
        self.home.mkdir()
        self.plugin = self.tmp / "plugins" / self.name
        self.flags: list[str] = []
        self.env = {
            "PATH": f"{os.path.dirname(sys.executable)}:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.home),
            "GEMINI_CLI_HOME": str(self.home),
            "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(self.tmp / "no-system.json"),
            "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(self.tmp / "no-defaults.json"),
        }
        self.data_dir = self.home / ".gemini" / "plugin-data" / self.name

    def cli(
        self, *args: str, env: dict[str, str] | None = None, check: bool = False
    ) -> subprocess.CompletedProcess[str]:
        r = subprocess.run(
            [sys.executable, "-m", "hookwise", "--project", str(self.project), *self.flags, *args],
            capture_output=True,
            text=True,
            env={**self.env, **(env or {})},
            timeout=120,
            stdin=subprocess.DEVNULL,
        )
        if check:
            assert r.returncode == 0, r.stderr
        return r

    def fire(self, event: str, *args: str) -> tuple[int, dict[str, Any]]:
        r = self.cli("fire", event, *args, "--json")
        assert r.stdout, r.stderr
        out = json.loads(r.stdout)
        for h in out["hooks"]:
            assert h["outcome"] not in ("failed", "not-run", "timeout", "skipped"), (h, r.stderr)
        assert out["hooks"], f"no hook ran: {r.stderr}"
        return r.returncode, out


def _plugin_hooks(root: Path) -> dict[str, Any]:
    """The plugin's hooks object (from hooks/hooks.json, else inline in plugin.json)."""
    f = root / "hooks" / "hooks.json"
    if f.is_file():
        return dict(json.loads(f.read_text())["hooks"])
    return dict(json.loads((root / ".claude-plugin" / "plugin.json").read_text())["hooks"])


def setup(run: Run) -> None:
    src = CORPUS / run.name
    if run.mode == "claude-record":
        install = run.home / ".claude" / "plugins" / "cache" / "corpus" / run.name / "1.0.0"
        shutil.copytree(src, install, symlinks=True)
        run.plugin = install
        pid = f"{run.name}@corpus"
        records = {
            "version": 2,
            "plugins": {
                pid: [
                    {
                        "scope": "user",
                        "installPath": str(install),
                        "version": "1.0.0",
                        "installedAt": "2026-01-01T00:00:00Z",
                    }
                ]
            },
        }
        (run.home / ".claude" / "plugins" / "installed_plugins.json").write_text(
            json.dumps(records)
        )
        (run.home / ".claude" / "settings.json").write_text(
            json.dumps({"enabledPlugins": {pid: True}})
        )
        run.flags = ["--claude-settings"]
        run.data_dir = run.home / ".claude" / "plugins" / "data" / f"{run.name}-corpus"
        run.env["HOOKWISE_TRUST_ALL"] = "1"
        return
    shutil.copytree(src, run.plugin, symlinks=True)
    if run.mode == "plugin-dir":
        run.flags = ["--plugin-dir", str(run.plugin)]
        run.env["HOOKWISE_TRUST_ALL"] = "1"
    elif run.mode == "extension":
        r = run.cli("extensions", "install", str(run.plugin), check=True)
        assert f"installed Claude Code plugin {run.name!r}" in r.stdout
        assert (
            "untrusted and will be skipped" in r.stdout and "hookwise trust" in r.stdout
        )  # never waited
        assert "command:" in r.stdout
        run.plugin = run.home / ".gemini" / "extensions" / run.name
        r = run.cli("list", "--json", check=True)
        rows = json.loads(r.stdout)["hooks"]
        assert rows and all(
            not h["trusted"] and h["source"] == "extension" and h["origin"] == run.name
            for h in rows
        )
        run.cli("trust", "--all", check=True)
    else:  # migrate: the plugin's hooks copied into .claude/settings.json, then migrated
        (run.project / ".claude").mkdir()
        (run.project / ".claude" / "settings.json").write_text(
            json.dumps({"hooks": _plugin_hooks(run.plugin)})
        )
        r = run.cli(
            "migrate", "--from-claude", check=True, env={"CLAUDE_PLUGIN_ROOT": str(run.plugin)}
        )
        assert (
            f"resolves to {run.plugin} (CLAUDE_PLUGIN_ROOT in hookwise's environment)" in r.stdout
        )
        migrated = (run.project / ".gemini" / "settings.json").read_text()
        for defs in _plugin_hooks(run.plugin).values():
            for d in defs:
                for h in d["hooks"]:
                    assert json.dumps(h["command"]) in migrated  # every byte of the command kept
        run.data_dir = run.tmp / "data"
        run.data_dir.mkdir()
        run.env.update(
            {
                "CLAUDE_PLUGIN_ROOT": str(run.plugin),
                "CLAUDE_PLUGIN_DATA": str(run.data_dir),
                "HOOKWISE_TRUST_ALL": "1",
            }
        )


def check_node_guard(run: Run) -> None:
    rc, out = run.fire(
        "BeforeTool", "--tool", "run_shell_command", "--tool-input", '{"command": "rm -rf build"}'
    )
    assert rc == 2 and out["decision"] == "deny"
    assert "node-guard: refusing rm -rf build" in out["reason"] and str(run.plugin) in out["reason"]
    rc, out = run.fire(
        "BeforeTool", "--tool", "run_shell_command", "--tool-input", '{"command": "ls"}'
    )
    assert rc == 0 and out["decision"] == "allow"


def check_py_guard(run: Run) -> None:
    rc, out = run.fire(
        "BeforeTool",
        "--tool",
        "write_file",
        "--tool-input",
        '{"file_path": ".env", "content": "k"}',
    )
    assert rc == 2 and out["decision"] == "deny" and "py-guard: .env holds secrets" in out["reason"]
    rc, out = run.fire(
        "BeforeTool", "--tool", "replace", "--tool-input", '{"file_path": "README.md"}'
    )
    assert rc == 0 and out["decision"] == "allow"


def check_polyglot(run: Run) -> None:
    rc, out = run.fire("BeforeAgent", "--prompt", "count these four words")
    assert rc == 0
    assert out["hookSpecificOutput"]["additionalContext"] == "polyglot: the prompt has 4 words"


def check_stop_gate(run: Run) -> None:
    rc, out = run.fire("AfterAgent", "--prompt", "fix it", "--prompt-response", "done")
    assert out["decision"] == "block" and "run the tests once more" in out["reason"]
    assert (run.project / ".stop-gate" / "count").read_text().strip() == "1"
    rc, out = run.fire("AfterAgent", "--prompt", "fix it", "--prompt-response", "tests pass")
    assert rc == 0 and out["decision"] == "allow"
    assert (run.project / ".stop-gate" / "count").read_text().strip() == "2"


def check_context_loader(run: Run) -> None:
    rc, out = run.fire("SessionStart", "--source", "startup")
    assert rc == 0 and "ships on Fridays" in out["hookSpecificOutput"]["additionalContext"]
    assert (run.data_dir / "sessions").read_text().strip() == "1"
    run.fire("SessionStart", "--source", "resume")
    assert (run.data_dir / "sessions").read_text().strip() == "2"


def check_inline_hooks(run: Run) -> None:
    rc, out = run.fire(
        "AfterTool",
        "--tool",
        "write_file",
        "--tool-input",
        '{"file_path": "a.txt", "content": "x"}',
        "--tool-response",
        '{"llmContent": "ok"}',
    )
    assert rc == 0 and out["systemMessage"] == "inline-hooks: logged a.txt"
    assert (run.data_dir / "edits.log").read_text() == "Write a.txt\n"


CHECKS: dict[str, Callable[[Run], None]] = {
    "node-guard": check_node_guard,
    "py-guard": check_py_guard,
    "polyglot": check_polyglot,
    "stop-gate": check_stop_gate,
    "context-loader": check_context_loader,
    "inline-hooks": check_inline_hooks,
}


def test_the_corpus_is_six_plugins_each_checked() -> None:
    assert sorted(p.name for p in CORPUS.iterdir()) == sorted(CHECKS)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(CHECKS))
def test_plugin_runs_and_has_its_effect(tmp_path: Path, name: str, mode: str) -> None:
    run = Run(tmp_path, mode, name)
    setup(run)
    CHECKS[name](run)


def test_plugin_hooks_are_listed_with_their_plugin_and_are_untrusted_until_approved(
    tmp_path: Path,
) -> None:
    run = Run(tmp_path, "plugin-dir", "py-guard")
    setup(run)
    del run.env["HOOKWISE_TRUST_ALL"]
    rows = json.loads(run.cli("list", "--json", check=True).stdout)["hooks"]
    assert [(h["source"], h["origin"], h["trusted"], h["timeout"]) for h in rows] == [
        ("plugin", "py-guard", False, 15000)
    ]
    r = run.cli(
        "fire",
        "BeforeTool",
        "--tool",
        "write_file",
        "--tool-input",
        '{"file_path": ".env"}',
        "--json",
    )
    assert r.returncode == 0 and [h["outcome"] for h in json.loads(r.stdout)["hooks"]] == [
        "skipped"
    ]
    run.cli("trust", "--all", check=True)
    r = run.cli(
        "fire",
        "BeforeTool",
        "--tool",
        "write_file",
        "--tool-input",
        '{"file_path": ".env"}',
        "--json",
    )
    assert r.returncode == 2
    (run.plugin / "hooks" / "protect.py").write_text(
        "import sys\nsys.exit(0)\n"
    )  # the script changed: asked again
    r = run.cli(
        "fire",
        "BeforeTool",
        "--tool",
        "write_file",
        "--tool-input",
        '{"file_path": ".env"}',
        "--json",
    )
    assert [h["outcome"] for h in json.loads(r.stdout)["hooks"]] == ["skipped"]
