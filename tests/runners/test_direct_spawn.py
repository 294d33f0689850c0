"""Direct exec (no ``bash -c``) is used only where it is indistinguishable from bash.

Every behavioural test runs the same hook twice, once with direct exec allowed
and once with bash forced, and compares what the hook saw and what it meant.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

from hookwise import HookSystem
from hookwise.events import HookEvent
from hookwise.runners._direct import plan, split_simple
from hookwise.runners.command import spawn_request

MARKER = "HOOKWISE_HOOK_RUN"  # differs per run by design


@pytest.mark.parametrize(
    "command, words",
    [
        ("/usr/bin/env", ["/usr/bin/env"]),
        ("python3 hook.py --flag=1", ["python3", "hook.py", "--flag=1"]),
        ("'/my project'/.gemini/hooks/x.sh arg", ["/my project/.gemini/hooks/x.sh", "arg"]),
        ("\"/a b/c\" 'd e'  f\tg", ["/a b/c", "d e", "f", "g"]),
        ("node check.js ''", ["node", "check.js", ""]),
    ],
)
def test_simple_commands_are_split_like_bash(command: str, words: list[str]) -> None:
    assert split_simple(command) == tuple(words)


@pytest.mark.parametrize(
    "command",
    [
        "python3 hook.py",
        "  a  b  ",
        "a\tb \t c",
        "tool --x=1 -y",
        "caf\u00e9 n\u00e4me",
        "a\u00a0b c",
        "a\u2003b",
        "x\x85y z",
        "/usr/bin/env A B",
        "pwsh-like.exe -NoProfile",
    ],
)
def test_quote_free_commands_are_split_as_shlex_splits_them(command: str) -> None:
    import shlex

    assert split_simple(command) == tuple(shlex.split(command, comments=False, posix=True))


@pytest.mark.parametrize(
    "command",
    [
        "true",
        "echo hi",
        "cd /tmp",
        "exit 3",
        ". ./env.sh",
        "source x",
        "exec foo",
        "[ -f x ]",
        "test -f x",
        "if",
        "time ls",
        "! ls",
        "{ ls; }",
        "FOO=1 ./x.sh",
        "ls; ls",
        "ls && ls",
        "ls | cat",
        "ls > out",
        "ls < in",
        "ls &",
        "$HOME/x",
        "echo `id`",
        "ls *.py",
        "ls ?",
        "ls [ab]",
        "ls ~",
        "a\\ b",
        "ls # comment",
        "ls\nls",
        "a (b)",
        "x {a,b}",
        "echo 'unterminated",
        "ls %1",
        "cmd\r",
        "",
        "   ",
    ],
)
def test_shell_syntax_builtins_and_keywords_keep_bash(command: str) -> None:
    assert split_simple(command) is None


def test_environment_bash_would_read_or_rewrite_keeps_bash(tmp_path: Path) -> None:
    base = {"PATH": "/usr/bin:/bin"}
    for extra in (
        {"BASH_ENV": "/x"},
        {"BASH_FUNC_ls%%": "() { :; }"},
        {"SHELLOPTS": "xtrace"},
        {"IFS": ":"},
        {"SHLVL": "1000"},
        {"SHLVL": "x"},
        {"OLDPWD": "relative"},
    ):
        assert plan("/usr/bin/env", {**base, **extra}, str(tmp_path)) is None, extra
    assert plan("env", {"PATH": "bin:/usr/bin"}, str(tmp_path)) is None  # relative PATH entry
    assert plan("env", {}, str(tmp_path)) is None  # no PATH: bash's own default search path
    assert plan("no-such-program-hookwise", dict(base), str(tmp_path)) is None


def test_plan_gives_the_environment_bash_would(tmp_path: Path) -> None:
    env = {
        "PATH": "/usr/bin:/bin",
        "PWD": "/somewhere/else",
        "OLDPWD": "/no/such/dir",
        "SHLVL": "007",
    }
    got = plan("env -0", env, str(tmp_path))
    assert got is not None
    argv, exe = got
    assert argv == ["env", "-0"] and exe.endswith("/env") and os.path.isabs(exe)
    assert env["PWD"] == os.path.realpath(tmp_path) and "OLDPWD" not in env
    assert env["SHLVL"] == "7" and env["_"] == exe


def _fire_both(project: Any, command: str, **hook: Any) -> tuple[Any, Any, HookSystem]:
    project.hooks("BeforeTool", {"type": "command", "command": command, **hook})
    out = []
    systems = []
    for direct in (True, False):
        hs = HookSystem(project.root, trust_all=True, session_id="s-1")
        hs.direct_spawn = direct
        systems.append(hs)
        out.append(hs.fire("BeforeTool", tool_name="t", tool_input={"a": 1}))
    return out[0], out[1], systems[0]


def env_of(result: Any) -> dict[str, str]:
    pairs = [ln.split("=", 1) for ln in result.hooks[0].stdout.splitlines() if "=" in ln]
    return {k: v for k, v in pairs if k != MARKER}


def test_direct_exec_is_used_for_a_plain_command(project: Any) -> None:
    project.hooks("BeforeTool", {"type": "command", "command": "env"})
    hs = HookSystem(project.root, trust_all=True)
    entry = hs.entries[0]
    req = spawn_request(
        hs,
        entry,
        hs.build_input(HookEvent.BEFORE_TOOL, {"tool_name": "t", "tool_input": {}}),
        b"{}",
    )
    assert req.executable is not None and list(req.argv) == ["env"]
    assert req.fallback is not None and list(req.fallback.argv) == ["bash", "-c", "env"]


def test_hook_sees_the_same_environment_as_under_bash(
    project: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PWD", "/")  # a stale PWD: bash replaces it with the working directory
    monkeypatch.setenv("OLDPWD", "/does/not/exist")
    direct, bash, _ = _fire_both(project, "env")
    assert direct.hooks[0].outcome.value == "ok"
    assert env_of(direct) == env_of(bash)
    assert env_of(direct)["PWD"] == os.path.realpath(project.root)


def test_prompt_variables_are_treated_as_bash_treats_them(
    project: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an activated virtual environment exports PS1: direct exec must still be used, with bash's
    # environment
    prompts = {"PS0": "x", "PS1": "(venv) $ ", "PS2": "> ", "PS3": "#? ", "PS4": "++ "}
    for k, v in prompts.items():
        monkeypatch.setenv(k, v)
    direct, bash, hs = _fire_both(project, "env")
    assert (
        spawn_request(
            hs,
            hs.entries[0],
            hs.build_input(HookEvent.BEFORE_TOOL, {"tool_name": "t", "tool_input": {}}),
            b"{}",
        ).executable
        is not None
    )
    seen = env_of(direct)
    assert seen == env_of(bash)
    assert "PS1" not in seen and "PS2" not in seen and seen["PS0"] == "x" and seen["PS3"] == "#? "
    assert seen["PS4"] == ("+ " if os.geteuid() == 0 else "++ ")


def test_argv_and_quoting_with_spaces_in_the_project_dir(
    tmp_path: Path, _isolated_gemini_home: Path
) -> None:
    from tests.conftest import Project

    root = tmp_path / "my project's dir"
    root.mkdir()
    project = Project(root, _isolated_gemini_home)
    cmd = project.script(
        "argv.py", "json.load(sys.stdin); print(json.dumps({'systemMessage': repr(sys.argv)}))"
    )
    direct, bash, hs = _fire_both(project, cmd + " 'two words' plain")
    assert spawn_request(
        hs,
        hs.entries[0],
        hs.build_input(HookEvent.BEFORE_TOOL, {"tool_name": "t", "tool_input": {}}),
        b"{}",
    ).executable
    assert direct.system_message == bash.system_message
    assert "two words" in (direct.system_message or "") and "my project's dir" in (
        direct.system_message or ""
    )


def _script(project: Any, name: str, body: str, mode: int = 0o755) -> str:
    path = project.root / name
    path.write_text(body)
    path.chmod(mode)
    return f"./{name}"


def test_script_without_shebang_runs_as_bash_would(project: Any) -> None:
    cmd = _script(
        project, "noshebang.sh", 'read -r line\necho \'{"decision": "deny", "reason": "r"}\'\n'
    )
    direct, bash, _ = _fire_both(project, cmd)
    assert direct.blocked and bash.blocked and direct.reason == bash.reason == "r"


@pytest.mark.parametrize("kind", ["missing", "not-executable", "directory", "bad-interpreter"])
def test_failures_to_exec_mean_the_same_as_under_bash(project: Any, kind: str) -> None:
    if kind == "missing":
        cmd = "./nope.sh"
    elif kind == "not-executable":
        cmd = _script(project, "noexec.sh", "#!/bin/sh\necho hi\n", mode=0o644)
    elif kind == "directory":
        (project.root / "adir").mkdir()
        cmd = "./adir"
    else:
        cmd = _script(project, "badinterp.sh", "#!/no/such/interpreter\necho hi\n")
    direct, bash, _ = _fire_both(project, cmd)
    d, b = direct.hooks[0], bash.hooks[0]
    assert (d.outcome, d.exit_code, d.error) == (b.outcome, b.exit_code, b.error)
    assert d.outcome.value == "not-run" and d.exit_code in (126, 127)


def test_exit_codes_and_outputs_are_identical(project: Any) -> None:
    body = (
        "#!" + sys.executable + "\nimport json, sys\nd = json.load(sys.stdin)\n"
        "print(json.dumps({'reason': 'from ' + "
        "d['tool_name']}))\nsys.stderr.write('why\\n')\nsys.exit(2)\n"
    )
    cmd = _script(project, "block.py", body)
    direct, bash, _ = _fire_both(project, cmd)
    assert direct.to_json()["decision"] == bash.to_json()["decision"] == "deny"
    assert [(h.outcome, h.exit_code, h.output) for h in direct.hooks] == [
        (h.outcome, h.exit_code, h.output) for h in bash.hooks
    ]


def test_hook_env_and_expansion_still_apply(project: Any) -> None:
    body = '#!/bin/bash\necho "{\\"systemMessage\\": \\"$MY_VAR|$GEMINI_SESSION_ID\\"}"\n'
    cmd = _script(project, "show.sh", body)
    direct, bash, _ = _fire_both(project, "$GEMINI_PROJECT_DIR/" + cmd[2:], env={"MY_VAR": "v1"})
    assert direct.system_message == bash.system_message == "v1|s-1"


def test_executable_bit_checked_like_bash(tmp_path: Path) -> None:
    p = tmp_path / "tool"
    p.write_text("#!/bin/sh\n")
    p.chmod(stat.S_IRUSR)
    env = {"PATH": f"{tmp_path}:/usr/bin"}
    if os.geteuid() != 0:
        assert plan("tool", env, str(tmp_path)) is None
    p.chmod(0o755)
    got = plan("tool", dict(env), str(tmp_path))
    assert got is not None and got[1] == f"{tmp_path}/tool"
    json.dumps(got)
