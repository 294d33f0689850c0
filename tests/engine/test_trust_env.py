"""Trust of project/extension hooks and the hooks' environment (docs/contract.md §5, §7)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from tests.conftest import Project

from hookwise import HookSystem, Outcome
from hookwise.core.expand import expand_command


def test_untrusted_project_hook_is_skipped_with_a_warning(project: Project) -> None:
    project.hooks("BeforeTool", {"type": "command", "name": "guard", "command": "exit 2"})
    r = HookSystem(project.root).fire("BeforeTool", tool_name="t", tool_input={})
    assert r.hooks[0].outcome is Outcome.SKIPPED and not r.blocked
    assert len(r.warnings) == 1 and "hookwise trust" in r.warnings[0]


def test_user_and_runtime_hooks_are_trusted(project: Project) -> None:
    project.hooks(
        "BeforeTool", {"type": "command", "name": "guard", "command": "exit 2"}, layer="user"
    )
    hs = HookSystem(project.root)
    hs.register("BeforeTool", lambda i: None, name="py")
    r = hs.fire("BeforeTool", tool_name="t", tool_input={})
    assert [h.outcome for h in r.hooks] == [Outcome.OK, Outcome.BLOCKED]


def test_trust_is_keyed_on_script_content(project: Project) -> None:
    cmd = project.script("guard.py", "print(json.dumps({'decision': 'deny', 'reason': 'v1'}))\n")
    project.hooks("BeforeTool", {"type": "command", "name": "guard", "command": cmd})
    hs = HookSystem(project.root)
    assert [e.name for e in hs.untrusted()] == ["guard"]
    hs.trust(hs.untrusted())
    assert hs.fire("BeforeTool", tool_name="t", tool_input={}).reason == "v1"
    # the script changes: asked again
    project.script("guard.py", "print(json.dumps({'decision': 'allow', 'reason': 'v2'}))\n")
    r = HookSystem(project.root).fire("BeforeTool", tool_name="t", tool_input={})
    assert r.hooks[0].outcome is Outcome.SKIPPED
    # swapped for a symlink to another file: asked again too
    hs2 = HookSystem(project.root)
    hs2.trust(hs2.untrusted())
    target = project.root / "elsewhere.py"
    target.write_text("print('{}')\n")
    script = project.root / ".gemini" / "hooks" / "guard.py"
    script.unlink()
    script.symlink_to(target)
    r = HookSystem(project.root).fire("BeforeTool", tool_name="t", tool_input={})
    assert r.hooks[0].outcome is Outcome.SKIPPED


def test_trust_store_keeps_other_entries(project: Project) -> None:
    store = project.user_dir / "trusted_hooks.json"
    store.parent.mkdir(parents=True, exist_ok=True)
    store.write_text(json.dumps({"/other/project": ["a:b"], str(project.root): ["guard:exit 2"]}))
    project.hooks("BeforeTool", {"type": "command", "name": "guard", "command": "exit 2"})
    hs = HookSystem(project.root)
    assert hs.untrusted()  # Gemini CLI's bare key does not trust it for hookwise
    hs.trust(hs.untrusted())
    data = json.loads(store.read_text())
    assert data["/other/project"] == ["a:b"]
    assert data[str(project.root)][0] == "guard:exit 2" and len(data[str(project.root)]) == 2
    assert HookSystem(project.root).fire("BeforeTool", tool_name="t", tool_input={}).blocked


def test_trust_all_environment_variable(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    project.hooks("BeforeTool", {"type": "command", "name": "guard", "command": "exit 2"})
    monkeypatch.setenv("HOOKWISE_TRUST_ALL", "1")
    assert HookSystem(project.root).fire("BeforeTool", tool_name="t", tool_input={}).blocked


def test_cli_trust_all_lists_and_approves(project: Project) -> None:
    cmd = project.script("guard.py", "print('{}')\n")
    project.hooks("BeforeTool", {"type": "command", "name": "guard", "command": cmd})
    out = subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project.root), "trust", "--all"],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
    )
    assert out.returncode == 0
    assert (
        "guard" in out.stdout
        and ".gemini/hooks/guard.py" in out.stdout
        and "trusted: guard" in out.stdout
    )
    assert HookSystem(project.root).untrusted() == []


def env_dump(project: Project) -> str:
    return project.script(
        "env.py",
        """
        json.load(sys.stdin)
        print(json.dumps({"systemMessage": json.dumps(dict(os.environ))}))
    """,
    )


@pytest.mark.usefixtures("trust_all")
def test_project_hooks_get_a_sanitized_environment(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_API_KEY", "hunter2")
    monkeypatch.setenv("SOME_VALUE", "ghp_" + "a" * 40)
    monkeypatch.setenv("PLAIN_SETTING", "ok")
    cmd = env_dump(project)
    project.hooks("BeforeAgent", {"type": "command", "name": "proj", "command": cmd})
    project.hooks("BeforeAgent", {"type": "command", "name": "user", "command": cmd}, layer="user")
    r = HookSystem(project.root).fire("BeforeAgent", prompt="p")
    envs = {h.name: json.loads(h.output["systemMessage"]) for h in r.hooks if h.output}
    assert "MY_API_KEY" not in envs["proj"] and "SOME_VALUE" not in envs["proj"]
    assert envs["proj"]["PLAIN_SETTING"] == "ok"
    assert envs["proj"]["GEMINI_PROJECT_DIR"] == str(project.root)
    assert envs["proj"]["CLAUDE_PROJECT_DIR"] == str(project.root)
    assert envs["user"]["MY_API_KEY"] == "hunter2"


@pytest.mark.usefixtures("trust_all")
def test_only_user_settings_may_allow_a_variable(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_API_KEY", "hunter2")
    cmd = env_dump(project)
    project.write_settings(
        {
            "hooks": {
                "BeforeAgent": [
                    {
                        "hooks": [
                            {
                                "type": "command",
                                "name": "proj",
                                "command": cmd,
                                "env": {"EXTRA": "1"},
                            }
                        ]
                    }
                ]
            },
            "security": {
                "environmentVariableRedaction": {
                    "allowed": ["MY_API_KEY"],
                    "blocked": ["PATH_EXTRA"],
                }
            },
        }
    )
    hs = HookSystem(project.root)
    assert any(
        "only user and system settings may set security.environmentVariableRedaction.allowed" in w
        for w in hs.warnings
    )
    env = json.loads(hs.fire("BeforeAgent", prompt="p").hooks[0].output["systemMessage"])
    assert "MY_API_KEY" not in env and env["EXTRA"] == "1"
    project.write_settings(
        {"security": {"environmentVariableRedaction": {"allowed": ["MY_API_KEY"]}}}, "user"
    )
    env = json.loads(
        HookSystem(project.root).fire("BeforeAgent", prompt="p").hooks[0].output["systemMessage"]
    )
    assert env["MY_API_KEY"] == "hunter2"


HOSTILE = [
    "plain",
    "with space",
    "quote's",
    'double"quote',
    "$(touch pwned)",
    "`touch pwned`",
    "a;touch pwned",
    "back\\slash",
    "$HOME",
    "new\nline",
    "",
]


@pytest.mark.parametrize("value", HOSTILE)
@pytest.mark.parametrize(
    "template",
    [
        "printf %s $GEMINI_PROJECT_DIR",
        'printf %s "$GEMINI_PROJECT_DIR"',
        'printf %s "${GEMINI_PROJECT_DIR}"',
        "printf %s ${CLAUDE_PROJECT_DIR}",
    ],
)
def test_expansion_is_literal_in_every_quoting(
    tmp_path: os.PathLike, value: str, template: str
) -> None:
    cmd = expand_command(template, {"GEMINI_PROJECT_DIR": value, "CLAUDE_PROJECT_DIR": value})
    out = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, cwd=str(tmp_path))
    assert out.stdout == value
    assert not os.path.exists(os.path.join(str(tmp_path), "pwned"))


def test_single_quotes_and_escapes_are_left_alone() -> None:
    assert (
        expand_command("echo '$GEMINI_PROJECT_DIR'", {"GEMINI_PROJECT_DIR": "x"})
        == "echo '$GEMINI_PROJECT_DIR'"
    )
    assert (
        expand_command("echo \\$GEMINI_PROJECT_DIR", {"GEMINI_PROJECT_DIR": "x"})
        == "echo \\$GEMINI_PROJECT_DIR"
    )
    assert (
        expand_command("echo $GEMINI_PROJECT_DIR_X", {"GEMINI_PROJECT_DIR": "x"})
        == "echo $GEMINI_PROJECT_DIR_X"
    )


@pytest.mark.usefixtures("trust_all")
def test_project_dir_with_metacharacters_runs_the_script(tmp_path: os.PathLike) -> None:
    from tests.conftest import Project as P

    root = os.path.join(str(tmp_path), "we ird'; touch PWNED; $(x)")
    os.makedirs(root)
    proj = P(
        __import__("pathlib").Path(root), __import__("pathlib").Path(os.environ["GEMINI_CLI_HOME"])
    )
    cmd = proj.script("ok.py", "print(json.dumps({'systemMessage': 'ran'}))\n")
    proj.hooks(
        "BeforeAgent",
        cmd,
        {"type": "command", "command": "printf '%s' \"${GEMINI_PROJECT_DIR}\"/x"},
    )
    r = HookSystem(root).fire("BeforeAgent", prompt="p")
    assert r.system_message == f"ran\n{root}/x"
    assert not os.path.exists(os.path.join(root, "PWNED"))


@pytest.mark.parametrize("value", HOSTILE)
@pytest.mark.parametrize(
    "template",
    [
        'echo "x $(printf %s "$GEMINI_PROJECT_DIR" > out)"',
        "x=$(printf %s $GEMINI_PROJECT_DIR > out)",
        'echo "`printf %s $GEMINI_PROJECT_DIR > out`"',
        "echo $((1 + $(echo 1))) && printf %s ${GEMINI_PROJECT_DIR} > out",
    ],
)
def test_expansion_inside_command_substitution(
    tmp_path: os.PathLike, value: str, template: str
) -> None:
    cmd = expand_command(template, {"GEMINI_PROJECT_DIR": value})
    subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, cwd=str(tmp_path))
    with open(os.path.join(str(tmp_path), "out")) as f:
        assert f.read() == value, cmd
    assert not os.path.exists(os.path.join(str(tmp_path), "pwned"))
