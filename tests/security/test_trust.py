"""Project and extension hooks never run untrusted: not at first sight, not after their script
changes, not after it is swapped (symlink, directory link, copy from another project). "Never ran"
is checked by the hook itself: every script appends to a ``ran`` file when it runs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hookwise import HookSystem, Outcome

pytestmark = pytest.mark.security

BODY = '#!/bin/sh\necho {tag} >> "{ran}"\necho \'{{"decision": "deny", "reason": "{tag}"}}\'\n'


class Repo:
    """A project as a cloned repository would bring it: settings plus hook scripts."""

    def __init__(self, root: Path, home: Path) -> None:
        self.root = root
        self.home = home
        self.ran = root.parent / f"ran-{root.name}"
        self.hooks_dir = root / ".gemini" / "hooks"
        self.hooks_dir.mkdir(parents=True)

    def script(self, name: str, tag: str, where: Path | None = None) -> Path:
        p = (where or self.hooks_dir) / name
        p.parent.mkdir(parents=True, exist_ok=True)
        if p.is_symlink():
            p.unlink()
        p.write_text(BODY.format(tag=tag, ran=self.ran))
        p.chmod(0o755)
        return p

    def settings(self, *commands: str, extra: dict[str, object] | None = None) -> None:
        hooks = [{"type": "command", "name": f"h{i}", "command": c} for i, c in enumerate(commands)]
        doc: dict[str, object] = {"hooks": {"BeforeTool": [{"hooks": hooks}]}, **(extra or {})}
        (self.root / ".gemini" / "settings.json").write_text(json.dumps(doc))

    def system(self) -> HookSystem:
        return HookSystem(self.root, trust_all=False)

    def fire(self) -> list[Outcome]:
        r = self.system().fire("BeforeTool", tool_name="run_shell_command", tool_input={})
        return [h.outcome for h in r.hooks]

    def runs(self) -> list[str]:
        return self.ran.read_text().split() if self.ran.exists() else []

    def trust_all(self) -> None:
        hs = self.system()
        hs.trust(hs.untrusted())


@pytest.fixture
def repo(tmp_path: Path, _isolated_gemini_home: Path) -> Repo:
    return Repo(tmp_path / "repo", _isolated_gemini_home)


COMMAND_FORMS = [
    "$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh",
    '"$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh"',
    "${CLAUDE_PROJECT_DIR}/.gemini/hooks/guard.sh",
    ".gemini/hooks/guard.sh",
    "sh .gemini/hooks/guard.sh --flag",
    "bash ./.gemini/hooks/guard.sh",
    "ENV=1 sh .gemini/hooks/guard.sh",
    "cd .gemini/hooks && ./guard.sh",
]


@pytest.mark.parametrize("command", COMMAND_FORMS)
def test_untrusted_never_runs_then_runs_once_trusted_then_not_after_a_change(
    repo: Repo, command: str
) -> None:
    repo.script("guard.sh", "v1")
    repo.settings(command)
    assert repo.fire() == [Outcome.SKIPPED]
    assert repo.runs() == []
    repo.trust_all()
    assert repo.fire() == [Outcome.OK]
    assert repo.runs() == ["v1"]
    if command.startswith("cd "):
        # the script is named only after `cd`: see docs/reliability.md (limits of trust keys)
        return
    repo.script("guard.sh", "v2")  # the repository updates the script (git pull)
    assert repo.fire() == [Outcome.SKIPPED]
    assert repo.runs() == ["v1"]


@pytest.mark.parametrize(
    "swap", ["symlink-outside", "symlink-inside", "dir-symlink", "same-content-elsewhere"]
)
def test_swapping_the_script_re_asks(repo: Repo, tmp_path: Path, swap: str) -> None:
    script = repo.script("guard.sh", "v1")
    repo.settings(".gemini/hooks/guard.sh")
    repo.trust_all()
    assert repo.fire() == [Outcome.OK]
    if swap == "symlink-outside":
        evil = repo.script("evil.sh", "evil", where=tmp_path / "outside")
        script.unlink()
        script.symlink_to(evil)
    elif swap == "symlink-inside":
        other = repo.script("other.sh", "evil", where=repo.root / "vendor")
        script.unlink()
        script.symlink_to(other)
    elif swap == "dir-symlink":
        evil_dir = tmp_path / "evil-hooks"
        repo.script("guard.sh", "evil", where=evil_dir)
        shutil.rmtree(repo.hooks_dir)
        repo.hooks_dir.symlink_to(evil_dir)
    else:  # byte-identical script, but the path now resolves elsewhere: still a different file
        twin = tmp_path / "twin.sh"
        twin.write_bytes(script.read_bytes().replace(b"v1", b"v1"))
        twin.chmod(0o755)
        script.unlink()
        script.symlink_to(twin)
    assert repo.fire() == [Outcome.SKIPPED]
    assert repo.runs() == ["v1"]


def test_trust_is_per_project_a_copied_repository_is_asked_again(
    repo: Repo, tmp_path: Path
) -> None:
    repo.script("guard.sh", "v1")
    repo.settings(".gemini/hooks/guard.sh")
    repo.trust_all()
    clone = tmp_path / "clone"
    shutil.copytree(repo.root, clone, symlinks=True)
    r = HookSystem(clone, trust_all=False).fire("BeforeTool", tool_name="t", tool_input={})
    assert [h.outcome for h in r.hooks] == [Outcome.SKIPPED]


def test_a_project_cannot_trust_itself(repo: Repo) -> None:
    repo.script("guard.sh", "v1")
    repo.settings(
        ".gemini/hooks/guard.sh",
        extra={
            "hooksConfig": {"trusted": True, "trustAll": True, "enabled": True},
            "security": {
                "folderTrust": {"enabled": False},
                "environmentVariableRedaction": {"enabled": False},
            },
        },
    )
    planted = {str(repo.root): ["h0:.gemini/hooks/guard.sh"]}
    (repo.root / ".gemini" / "trusted_hooks.json").write_text(json.dumps(planted))
    (repo.root / ".gemini" / ".env").write_text("HOOKWISE_TRUST_ALL=1\n")
    assert repo.fire() == [Outcome.SKIPPED]
    assert repo.runs() == []


def test_a_gemini_cli_trust_entry_does_not_trust_a_hookwise_hook(repo: Repo) -> None:
    repo.script("guard.sh", "v1")
    repo.settings(".gemini/hooks/guard.sh")
    store = repo.home / ".gemini" / "trusted_hooks.json"
    store.parent.mkdir(parents=True, exist_ok=True)
    store.write_text(
        json.dumps({str(repo.root): ["h0:.gemini/hooks/guard.sh"]})
    )  # Gemini CLI's key shape
    assert repo.fire() == [Outcome.SKIPPED]


def test_a_corrupt_trust_store_trusts_nothing(repo: Repo) -> None:
    repo.script("guard.sh", "v1")
    repo.settings(".gemini/hooks/guard.sh")
    store = repo.home / ".gemini" / "trusted_hooks.json"
    store.parent.mkdir(parents=True, exist_ok=True)
    root = json.dumps(str(repo.root))
    for text in ("{", "[]", f'{{{root}: "not a list"}}', f"{{{root}: [1, null, {{}}]}}", "\xff"):
        store.write_text(text, errors="surrogateescape")
        assert repo.fire() == [Outcome.SKIPPED]
    assert repo.runs() == []


def test_renaming_or_editing_the_command_re_asks(repo: Repo) -> None:
    repo.script("guard.sh", "v1")
    repo.settings(".gemini/hooks/guard.sh")
    repo.trust_all()
    repo.settings(".gemini/hooks/guard.sh; echo extra >> /dev/null")
    assert repo.fire() == [Outcome.SKIPPED]
    settings = json.loads((repo.root / ".gemini" / "settings.json").read_text())
    settings["hooks"]["BeforeTool"][0]["hooks"][0]["name"] = "renamed"
    settings["hooks"]["BeforeTool"][0]["hooks"][0]["command"] = ".gemini/hooks/guard.sh"
    (repo.root / ".gemini" / "settings.json").write_text(json.dumps(settings))
    assert repo.fire() == [Outcome.SKIPPED]
    assert repo.runs() == ["v1"] or repo.runs() == []


def test_claude_settings_hooks_of_a_project_need_trust_too(repo: Repo) -> None:
    repo.script("guard.sh", "claude")
    claude = repo.root / ".claude" / "settings.json"
    claude.parent.mkdir()
    claude.write_text(
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Bash",
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": '"$CLAUDE_PROJECT_DIR"/.gemini/hooks/guard.sh',
                                }
                            ],
                        }
                    ]
                }
            }
        )
    )
    # the project itself switches Claude settings on: its hooks are still project hooks
    repo.settings(extra={"hooksConfig": {"claudeSettings": True}})
    hs = repo.system()
    assert hs.entries and all(e.source == "project" for e in hs.entries)
    r = hs.fire("BeforeTool", tool_name="run_shell_command", tool_input={"command": "ls"})
    assert [h.outcome for h in r.hooks] == [Outcome.SKIPPED]
    assert repo.runs() == []


def test_extension_hooks_need_trust_and_re_ask_after_an_update(
    tmp_path: Path, _isolated_gemini_home: Path
) -> None:
    ext = _isolated_gemini_home / ".gemini" / "extensions" / "tool-guard"
    (ext / "hooks").mkdir(parents=True)
    ran = tmp_path / "ran-ext"
    script = ext / "hooks" / "run.sh"

    def write(tag: str) -> None:
        script.write_text(BODY.format(tag=tag, ran=ran))
        script.chmod(0o755)

    write("e1")
    (ext / "hooks" / "hooks.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "BeforeTool": [
                        {
                            "hooks": [
                                {
                                    "type": "command",
                                    "name": "ext",
                                    "command": "${extensionPath}/hooks/run.sh",
                                }
                            ]
                        }
                    ]
                }
            }
        )
    )
    project = tmp_path / "p"
    project.mkdir()

    def fire() -> list[Outcome]:
        return [
            h.outcome
            for h in HookSystem(project, trust_all=False)
            .fire("BeforeTool", tool_name="t", tool_input={})
            .hooks
        ]

    assert fire() == [Outcome.SKIPPED]
    hs = HookSystem(project, trust_all=False)
    hs.trust(hs.untrusted())
    assert fire() == [Outcome.OK]
    write("e2")  # the extension updates its script
    assert fire() == [Outcome.SKIPPED]
    assert ran.read_text().split() == ["e1"]


@pytest.mark.slow
def test_cli_fire_never_runs_an_untrusted_hook(repo: Repo) -> None:
    repo.script("guard.sh", "cli")
    repo.settings(".gemini/hooks/guard.sh")
    env = {k: v for k, v in os.environ.items() if k != "HOOKWISE_TRUST_ALL"}
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "hookwise",
            "--project",
            str(repo.root),
            "fire",
            "BeforeTool",
            "--tool",
            "run_shell_command",
            "--json",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr  # skipped: not blocked (it never ran)
    data = json.loads(out.stdout)
    assert [h["outcome"] for h in data["hooks"]] == ["skipped"]
    assert any("hookwise trust" in w for w in data["warnings"])
    assert repo.runs() == []


@pytest.mark.slow
def test_a_huge_file_named_by_a_hook_does_not_stall_trust_checks(
    repo: Repo, tmp_path: Path
) -> None:
    """A planted symlink to a huge file (here a 20 GB sparse one) must not make every firing read it
    all."""
    import time

    big = tmp_path / "disk.img"
    with open(big, "wb") as f:
        f.truncate(20 << 30)
    (repo.root / ".gemini" / "data.bin").symlink_to(big)
    repo.settings("true .gemini/data.bin")
    t0 = time.monotonic()
    assert repo.fire() == [Outcome.SKIPPED]
    repo.trust_all()
    assert repo.fire() == [Outcome.OK]
    assert time.monotonic() - t0 < 10
    with open(big, "r+b") as f:  # the file changes (size): asked again
        f.truncate((20 << 30) + 1)
    assert repo.fire() == [Outcome.SKIPPED]
