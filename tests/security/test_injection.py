"""No value that reaches a command's text can inject a command: project dir, cwd, session id, tool
names, extension and workspace paths. Every payload tries to ``touch`` a canary file; it must never
appear.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faults._stats import counted
from hookwise import HookSystem, Outcome
from hookwise.core.expand import expand_command

pytestmark = pytest.mark.security

CANARY = "PWNED"
# each is a valid file name (no "/" or NUL) that would run `touch PWNED` if it reached a shell
# unquoted
NASTY = [
    f"$(touch {CANARY})",
    f"`touch {CANARY}`",
    f"a; touch {CANARY}",
    f"a' ; touch {CANARY}; '",
    f'a" ; touch {CANARY}; "',
    f"a\ntouch {CANARY}\n",
    f"a && touch {CANARY}",
    f"a | touch {CANARY}",
    f"$'\\x41'$(touch {CANARY})",
    f"\\$(touch {CANARY})",
    f"a b  c\t$(touch {CANARY})",
    f"${{IFS}}$(touch {CANARY})",
    f"*?[a] {{x,y}} ~ $(touch {CANARY})",
    f"\"'$(touch {CANARY})'\"",
    f"x$((1+1))`touch {CANARY}`\\",
    "-rf",
    "é漢字 $(touch PWNED)",
]
IDS = [f"v{i}" for i in range(len(NASTY))]


def no_canary(*dirs: Path) -> None:
    for d in (*dirs, Path.cwd()):
        assert not (d / CANARY).exists(), f"injected command ran in {d}"


def env_for(home: Path) -> dict[str, str]:
    return {**os.environ, "GEMINI_CLI_HOME": str(home), "HOOKWISE_TRUST_ALL": "1"}


def write_hooks(path: Path, event: str, *hooks: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": {event: [{"hooks": list(hooks)}]}}))


ANSWER = '#!/bin/sh\ncat > /dev/null\necho \'{"systemMessage": "ran"}\'\n'
TEMPLATES = [
    "$GEMINI_PROJECT_DIR/.gemini/hooks/h.sh",
    '"$GEMINI_PROJECT_DIR/.gemini/hooks/h.sh"',
    '"${CLAUDE_PROJECT_DIR}"/.gemini/hooks/h.sh',
    "${GEMINI_PROJECT_DIR}/.gemini/hooks/h.sh",
    "cd $GEMINI_PROJECT_DIR && ./.gemini/hooks/h.sh",
    'test -d "$GEMINI_CWD" && $CLAUDE_PROJECT_DIR/.gemini/hooks/h.sh',
    (
        "echo $(cat $GEMINI_PROJECT_DIR/.gemini/hooks/h.sh > /dev/null) && "
        "${GEMINI_PROJECT_DIR}/.gemini/hooks/h.sh"
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("name", NASTY, ids=IDS)
def test_project_dir_cannot_inject(tmp_path: Path, name: str) -> None:
    project = tmp_path / name
    hooks_dir = project / ".gemini" / "hooks"
    hooks_dir.mkdir(parents=True)
    script = hooks_dir / "h.sh"
    script.write_text(ANSWER)
    script.chmod(0o755)
    write_hooks(
        project / ".gemini" / "settings.json",
        "BeforeTool",
        *({"type": "command", "command": t, "name": f"t{i}"} for i, t in enumerate(TEMPLATES)),
    )
    hs = HookSystem(project, env=env_for(tmp_path / "home"))
    r = hs.fire("BeforeTool", tool_name="read_file", tool_input={})
    assert [h.outcome for h in r.hooks] == [Outcome.OK] * len(TEMPLATES), [
        (h.command, h.error) for h in r.hooks
    ]
    assert r.system_message == "\n".join(["ran"] * len(TEMPLATES))
    no_canary(project, tmp_path)


@pytest.mark.parametrize("value", NASTY, ids=IDS)
def test_session_id_and_cwd_cannot_inject(tmp_path: Path, value: str) -> None:
    project = tmp_path / "p"
    cwd = tmp_path / value
    cwd.mkdir(parents=True)
    write_hooks(
        project / ".gemini" / "settings.json",
        "BeforeTool",
        {"type": "command", "name": "sid", "command": "printf '%s' $GEMINI_SESSION_ID"},
        {"type": "command", "name": "sid-q", "command": 'printf "%s" "${GEMINI_SESSION_ID}"'},
        {"type": "command", "name": "cwd", "command": "printf '%s' $GEMINI_CWD"},
    )
    for hs, payload in (
        (HookSystem(project, env=env_for(tmp_path / "h"), session_id=value, cwd=cwd), {}),
        (HookSystem(project, env=env_for(tmp_path / "h")), {"session_id": value, "cwd": str(cwd)}),
    ):
        r = hs.fire("BeforeTool", {"tool_name": "t", "tool_input": {}, **payload})
        outs = [h.stdout for h in r.hooks]
        assert outs == [value, value, str(cwd)], outs
    no_canary(project, cwd, tmp_path)


@pytest.mark.parametrize("value", NASTY, ids=IDS)
def test_tool_names_and_inputs_never_reach_the_command(tmp_path: Path, value: str) -> None:
    project = tmp_path / "p"
    write_hooks(
        project / ".gemini" / "settings.json",
        "BeforeTool",
        {"type": "command", "name": "gemini", "command": "cat > /dev/null; echo '{}'"},
        {
            "type": "command",
            "name": "claude",
            "dialect": "claude",
            "command": "cat > /dev/null; echo '{}'",
        },
    )
    hs = HookSystem(project, env=env_for(tmp_path / "h"))
    r = hs.fire(
        "BeforeTool",
        tool_name=value,
        tool_input={"command": value, "file_path": value},
        mcp_context={"server": value},
    )
    assert [h.outcome for h in r.hooks] == [Outcome.OK, Outcome.OK]
    no_canary(project, tmp_path)


@pytest.mark.parametrize("name", NASTY, ids=IDS)
def test_extension_and_workspace_paths_cannot_inject(tmp_path: Path, name: str) -> None:
    home = tmp_path / "home"
    project = tmp_path / f"ws {name}"
    project.mkdir()
    ext = home / ".gemini" / "extensions" / name
    (ext / "hooks").mkdir(parents=True)
    script = ext / "hooks" / "run.sh"
    script.write_text(ANSWER)
    script.chmod(0o755)
    (project / "w.sh").write_text(ANSWER)
    (project / "w.sh").chmod(0o755)
    commands = [
        "${extensionPath}/hooks/run.sh",
        '"${extensionPath}/hooks/run.sh"',
        "'${extensionPath}'/hooks/run.sh",
        "${extensionPath}${/}hooks${pathSeparator}run.sh",
        "cd ${workspacePath} && ./w.sh",
        '"${workspacePath}/w.sh"',
    ]
    write_hooks(
        ext / "hooks" / "hooks.json",
        "BeforeTool",
        *({"type": "command", "command": c, "name": f"e{i}"} for i, c in enumerate(commands)),
    )
    hs = HookSystem(project, env=env_for(home))
    assert not hs.warnings, hs.warnings
    r = hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert [h.outcome for h in r.hooks] == [Outcome.OK] * len(commands), [
        (h.command, h.error) for h in r.hooks
    ]
    no_canary(project, ext, tmp_path)


def test_safe_extension_paths_are_shown_as_written(tmp_path: Path) -> None:
    home = tmp_path / "home"
    ext = home / ".gemini" / "extensions" / "plain-ext"
    write_hooks(
        ext / "hooks" / "hooks.json",
        "BeforeTool",
        {"type": "command", "command": "${extensionPath}/hooks/run.sh", "name": "e"},
    )
    hs = HookSystem(tmp_path, env=env_for(home))
    (entry,) = hs.entries
    assert entry.command == f"{ext}/hooks/run.sh"  # no quotes added where none are needed


values = st.text(st.characters(exclude_characters="\x00", exclude_categories=("Cs",)), max_size=30)
templates = st.sampled_from(
    [
        "printf '%s' $V",
        'printf "%s" "$V"',
        "printf '%s' ${V}",
        'printf %s "${V}"',
        "printf '%s' \"x${V}y\"",
        "printf '%s' \"$(printf '%s' \"${V}\")\"",
    ]
)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, database=None)
@given(value=values, template=templates)
@counted("property examples")
def test_any_value_is_seen_literally_by_bash(value: str, template: str) -> None:
    cmd = expand_command(template.replace("V", "GEMINI_PROJECT_DIR"), {"GEMINI_PROJECT_DIR": value})
    out = subprocess.run(
        ["bash", "-c", cmd],
        capture_output=True,
        cwd="/tmp",
        timeout=10,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
    )
    expect = f"x{value}y" if "x${V}y" in template else value
    if "$(" in template:  # command substitution strips trailing newlines, as bash always does
        expect = expect.rstrip("\n")
    assert out.stdout.decode("utf-8", "surrogateescape") == expect
    assert out.returncode == 0


def test_hookwise_fire_cli_with_nasty_project(tmp_path: Path) -> None:
    """The CLI as a user runs it, from inside a project whose directory name is hostile."""
    project = tmp_path / NASTY[0]
    hooks_dir = project / ".gemini" / "hooks"
    hooks_dir.mkdir(parents=True)
    (hooks_dir / "h.sh").write_text(ANSWER)
    (hooks_dir / "h.sh").chmod(0o755)
    write_hooks(
        project / ".gemini" / "settings.json",
        "BeforeTool",
        {"type": "command", "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/h.sh"},
    )
    out = subprocess.run(
        [sys.executable, "-m", "hookwise", "fire", "BeforeTool", "--tool", NASTY[1], "--json"],
        cwd=project,
        capture_output=True,
        text=True,
        env=env_for(tmp_path / "home"),
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["systemMessage"] == "ran"
    no_canary(project, tmp_path)
