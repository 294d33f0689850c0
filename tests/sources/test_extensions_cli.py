"""Acceptance: ``hookwise extensions`` verbs end to end on a local git repository, an install killed
mid-copy, and bad input (one message naming the path and key; nothing installed is touched)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


class World:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.home = tmp / "home"
        self.home.mkdir()
        self.project = tmp / "project"
        self.project.mkdir()
        self.root = self.home / ".gemini" / "extensions"
        self.env = {
            "PATH": f"{os.path.dirname(sys.executable)}:/usr/bin:/bin",
            "HOME": str(self.home),
            "GEMINI_CLI_HOME": str(self.home),
            "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(tmp / "n1.json"),
            "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(tmp / "n2.json"),
            "GIT_CONFIG_GLOBAL": str(tmp / "gitconfig"),
            "GIT_CONFIG_NOSYSTEM": "1",
        }

    def cli(
        self, *args: str, project: Path | None = None, **kw: Any
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "hookwise", "--project", str(project or self.project), *args],
            capture_output=True,
            text=True,
            env={**self.env, **kw.pop("env", {})},
            stdin=subprocess.DEVNULL,
            timeout=120,
            **kw,
        )

    def git(self, *args: str, cwd: Path) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
            cwd=cwd,
            check=True,
            capture_output=True,
            env=self.env,
        )

    def snapshot(self) -> dict[str, bytes]:
        out = {}
        for p in sorted(self.root.rglob("*")) if self.root.exists() else []:
            if p.is_file() and not any(
                part.startswith((".staging-", ".removing-")) for part in p.parts
            ):
                out[str(p.relative_to(self.root))] = p.read_bytes()
        return out


def make_extension(path: Path, name: str, version: str, reason: str) -> Path:
    (path / "hooks").mkdir(parents=True)
    (path / "gemini-extension.json").write_text(json.dumps({"name": name, "version": version}))
    hook = {
        "type": "command",
        "name": f"{name}-guard",
        "command": f'printf \'%s\' \'{{"decision": "deny", "reason": "{reason}"}}\'',
    }
    (path / "hooks" / "hooks.json").write_text(
        json.dumps({"hooks": {"BeforeTool": [{"hooks": [hook]}]}})
    )
    return path


def deny_reason(w: World) -> str | None:
    r = w.cli("fire", "BeforeTool", "--tool", "run_shell_command", "--json")
    out = json.loads(r.stdout)
    return out["reason"] if out["decision"] == "deny" else None


@pytest.mark.slow
def test_verbs_end_to_end_on_a_local_git_repository(tmp_path: Path) -> None:
    w = World(tmp_path)
    repo = make_extension(tmp_path / "repo", "lint-guard", "1.0.0", "lint-guard says no")
    w.git("init", "-q", cwd=repo)
    w.git("add", "-A", cwd=repo)
    w.git("commit", "-qm", "v1", cwd=repo)
    r = w.cli("extensions", "install", f"file://{repo}")
    assert r.returncode == 0, r.stderr
    assert "installed extension 'lint-guard' 1.0.0" in r.stdout
    assert (
        "lint-guard-guard" in r.stdout and "command: printf" in r.stdout
    )  # the new hooks, with commands
    assert "untrusted and will be skipped" in r.stdout and "`hookwise trust`" in r.stdout
    assert not (w.root / "lint-guard" / ".git").exists()
    assert deny_reason(w) is None  # untrusted: skipped, never run
    assert w.cli("trust", "--all").returncode == 0
    assert deny_reason(w) == "lint-guard says no"
    listed = json.loads(w.cli("extensions", "list", "--json").stdout)["extensions"]
    assert [(e["name"], e["kind"], e["version"], e["enabled"], e["source"]) for e in listed] == [
        ("lint-guard", "gemini", "1.0.0", True, f"file://{repo}")
    ]

    other = tmp_path / "other-project"
    other.mkdir()
    assert w.cli("extensions", "disable", "lint-guard", "--scope", "project").returncode == 0
    assert deny_reason(w) is None
    assert json.loads(w.cli("extensions", "list", "--json", project=other).stdout)["extensions"][0][
        "enabled"
    ]
    assert w.cli("extensions", "enable", "lint-guard", "--scope", "project").returncode == 0
    assert deny_reason(w) == "lint-guard says no"
    assert w.cli("extensions", "disable", "lint-guard").returncode == 0  # user scope: everywhere
    assert not json.loads(w.cli("extensions", "list", "--json", project=other).stdout)[
        "extensions"
    ][0]["enabled"]
    assert w.cli("extensions", "enable", "lint-guard").returncode == 0

    r = w.cli("extensions", "install", f"file://{repo}")
    assert (
        r.returncode == 1
        and "already installed" in r.stderr
        and str(w.root / "lint-guard") in r.stderr
    )
    r = w.cli("extensions", "uninstall", "lint-guard")
    assert r.returncode == 0 and not (w.root / "lint-guard").exists()
    assert deny_reason(w) is None
    assert "lint-guard" not in json.loads((w.root / "extension-enablement.json").read_text())


@pytest.mark.slow
def test_link_follows_edits_and_uninstall_removes_only_the_link(tmp_path: Path) -> None:
    w = World(tmp_path)
    src = make_extension(tmp_path / "dev", "dev-ext", "0.1.0", "first")
    r = w.cli("extensions", "link", str(src), "--consent")
    assert r.returncode == 0 and "linked to" in r.stdout and "trusted 1 hook(s)" in r.stdout
    assert deny_reason(w) == "first"
    assert w.cli("extensions", "uninstall", "dev-ext").returncode == 0
    assert (src / "gemini-extension.json").is_file() and not (w.root / "dev-ext").exists()


@pytest.mark.slow
def test_install_killed_mid_copy_leaves_the_previous_state(tmp_path: Path) -> None:
    w = World(tmp_path)
    old = make_extension(tmp_path / "old", "big", "1.0.0", "old version")
    assert w.cli("extensions", "install", str(old), "--consent").returncode == 0
    before = w.snapshot()
    assert deny_reason(w) == "old version"

    new = make_extension(tmp_path / "new", "fresh", "2.0.0", "new version")
    for i in range(6):
        (new / f"data-{i}.bin").write_bytes(os.urandom(1 << 16))
    env = {**w.env, "HOOKWISE_FAULT_COPY_PAUSE": "0.5"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "hookwise",
            "--project",
            str(w.project),
            "extensions",
            "install",
            str(new),
        ],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while (
        time.monotonic() < deadline
    ):  # wait until the copy is under way (a file landed in the staging dir)
        staged = [p for p in w.root.glob(".staging-*/content/*") if p.is_file()]
        if staged:
            break
        time.sleep(0.05)
    else:
        proc.kill()
        pytest.fail("the install never started copying")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    assert not (w.root / "fresh").exists()
    assert w.snapshot() == before  # every installed byte as it was
    assert deny_reason(w) == "old version"
    assert [
        e["name"] for e in json.loads(w.cli("extensions", "list", "--json").stdout)["extensions"]
    ] == ["big"]
    r = w.cli("extensions", "install", str(new))  # the next install cleans the leftover and works
    assert r.returncode == 0, r.stderr
    assert not list(w.root.glob(".staging-*"))
    assert (w.root / "fresh" / "data-5.bin").read_bytes() == (new / "data-5.bin").read_bytes()


def _bad_manifest(p: Path) -> None:
    p.mkdir()
    (p / "gemini-extension.json").write_text('{"name": "x",')


def _no_manifest(p: Path) -> None:
    (p / "hooks").mkdir(parents=True)
    (p / "hooks" / "hooks.json").write_text("{}")


def _outside(p: Path) -> None:
    (p / ".claude-plugin").mkdir(parents=True)
    (p / ".claude-plugin" / "plugin.json").write_text(
        json.dumps({"name": "escape", "hooks": "../../evil.json"})
    )


def _loop(p: Path) -> None:
    (p / ".claude-plugin").mkdir(parents=True)
    (p / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "loopy"}))
    (p / "hooks").mkdir()
    os.symlink("hooks.json", p / "hooks" / "hooks.json")


def _bad_name(p: Path) -> None:
    (p / ".claude-plugin").mkdir(parents=True)
    (p / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "../up"}))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("make", "expect"),
    [
        (_bad_manifest, "gemini-extension.json"),
        (_no_manifest, "no manifest"),
        (_outside, "/hooks: '../../evil.json' points outside the plugin directory"),
        (_loop, "hooks.json"),
        (_bad_name, "/name"),
    ],
)
def test_bad_sources_get_one_clear_message_and_touch_nothing(
    tmp_path: Path, make: Any, expect: str
) -> None:
    w = World(tmp_path)
    keep = make_extension(tmp_path / "keep", "keep", "1.0.0", "kept")
    assert w.cli("extensions", "install", str(keep), "--consent").returncode == 0
    before = w.snapshot()
    bad = tmp_path / "bad"
    make(bad)
    r = w.cli("extensions", "install", str(bad))
    assert r.returncode == 1
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("hookwise: error:")]
    assert len(lines) == 1 and expect in lines[0] and str(bad) in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    assert w.snapshot() == before and not list(w.root.glob(".staging-*"))


@pytest.mark.slow
def test_missing_git_source_and_name_collision(tmp_path: Path) -> None:
    w = World(tmp_path)
    keep = make_extension(tmp_path / "keep", "keep", "1.0.0", "kept")
    assert w.cli("extensions", "install", str(keep)).returncode == 0
    before = w.snapshot()
    r = w.cli("extensions", "install", f"file://{tmp_path}/no-such-repo.git")
    assert (
        r.returncode == 1
        and "git source cannot be cloned" in r.stderr
        and "no-such-repo" in r.stderr
    )
    clash = make_extension(tmp_path / "clash", "keep", "9.9.9", "impostor")
    r = w.cli("extensions", "install", str(clash))
    assert r.returncode == 1 and "'keep' is already installed" in r.stderr
    r = w.cli("extensions", "uninstall", "nope")
    assert (
        r.returncode == 1
        and "no extension named 'nope'" in r.stderr
        and "installed: keep" in r.stderr
    )
    assert w.snapshot() == before


@pytest.mark.slow
def test_plugin_dir_errors_name_the_path(tmp_path: Path) -> None:
    w = World(tmp_path)
    bad = tmp_path / "plug"
    _outside(bad)
    r = w.cli("--plugin-dir", str(bad), "list", "--json")
    assert r.returncode == 0
    warnings = json.loads(r.stdout)["warnings"]
    assert any(str(bad) in x and "points outside" in x and "--plugin-dir" in x for x in warnings)
    r = w.cli("--plugin-dir", str(tmp_path / "missing"), "list")
    assert r.returncode == 1 and "--plugin-dir" in r.stderr and "not a directory" in r.stderr


@pytest.mark.slow
def test_validate_checks_claude_files_plugins_and_plugin_extensions(tmp_path: Path) -> None:
    w = World(tmp_path)
    (w.project / ".gemini").mkdir()
    (w.project / ".gemini" / "settings.json").write_text(
        json.dumps({"hooksConfig": {"claudeSettings": True}})
    )
    (w.project / ".claude").mkdir()
    claude_file = w.project / ".claude" / "settings.json"
    claude_file.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Bash",
                            "hooks": [{"type": "prompt", "prompt": "is this safe?"}],
                        }
                    ]
                }
            }
        )
    )
    plug = tmp_path / "plug"
    (plug / ".claude-plugin").mkdir(parents=True)
    (plug / ".claude-plugin" / "plugin.json").write_text('{"name": "p"}')
    (plug / "hooks").mkdir()
    (plug / "hooks" / "hooks.json").write_text(
        '{"hooks": {"PreToolUse": [{"matcher": "^(a)\\\\1$", "hooks": '
        '[{"type": "command", "command": "true"}]}]}}'
    )
    bad = tmp_path / "bad-plugin"
    (bad / ".claude-plugin").mkdir(parents=True)
    (bad / ".claude-plugin" / "plugin.json").write_text('{"name": ')
    r = w.cli("--plugin-dir", str(plug), "--plugin-dir", str(bad), "validate", "--json")
    out = json.loads(r.stdout)
    assert r.returncode == 1 and not out["valid"]
    assert str(claude_file) in out["files"] and str(plug / "hooks" / "hooks.json") in out["files"]
    by_file = {(p["file"], p["severity"]) for p in out["problems"]}
    assert (str(claude_file), "error") in by_file  # a prompt hook needs an LLM: not loaded
    assert any(
        p["file"] == str(plug / "hooks" / "hooks.json")
        and "bounded time" in p["message"]  # a back-reference: the one matcher cannot bound it
        and p["pointer"].startswith("/hooks/PreToolUse/0")
        for p in out["problems"]
    )
    assert any(
        str(bad / ".claude-plugin" / "plugin.json") in p["file"] and p["severity"] == "error"
        for p in out["problems"]
    )


@pytest.mark.slow
def test_install_on_a_terminal_offers_to_trust_the_new_hooks(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    w = World(tmp_path)
    src = make_extension(tmp_path / "src", "tty-ext", "1.0.0", "tty says no")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "hookwise", "--project", str(w.project), "extensions", "install", str(src)],
        env=w.env,
        encoding="utf-8",
        timeout=30,
    )
    child.expect_exact("tty-ext-guard")
    child.expect_exact("command: printf")
    child.expect_exact("trust these 1 hook(s) now? [y/N] ")
    child.sendline("y")
    child.expect_exact("trusted 1 hook(s)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert deny_reason(w) == "tty says no"


@pytest.mark.slow
def test_uninstall_takes_several_names(tmp_path: Path) -> None:
    w = World(tmp_path)
    for n in ("one", "two"):
        assert (
            w.cli(
                "extensions", "install", str(make_extension(tmp_path / n, n, "1.0.0", n))
            ).returncode
            == 0
        )
    r = w.cli("extensions", "uninstall", "one", "two")
    assert r.returncode == 0 and r.stdout.count("uninstalled") == 2
    assert json.loads(w.cli("extensions", "list", "--json").stdout)["extensions"] == []
