"""Secrets in the environment never reach a project or extension hook unless the user allowed
them."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from hookwise import HookSystem, Outcome

pytestmark = pytest.mark.security

SECRETS = {
    "GITHUB_TOKEN": "ghp_" + "a" * 36,
    "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "MY_API_KEY": "plain-looking-value",
    "GEMINI_API_KEY": "AIzaSy" + "b" * 33,
    "DATABASE_URL": "postgres://app@db/app",
    "INNOCENT_NAME": "https://user:hunter2@example.com/repo.git",  # the value gives it away
    "CERT_PEM": "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----",
    "SLACK_HOOK": "xoxb-123-456-abc",
    "STRIPE": "sk_live_" + "c" * 24,
    "SESSION_JWT": "eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl",
    "db_password": "lowercase names count too",
}
HARMLESS = {"MY_SETTING": "on", "LANG": "C.UTF-8", "EDITOR": "vi"}
DUMP = (
    f"{sys.executable} -c \"import json, os; print(json.dumps({{'systemMessage': "
    'json.dumps(dict(os.environ))}))"'
)


def env_seen(
    tmp_path: Path,
    *,
    layer: str,
    extra_env: dict[str, str] | None = None,
    user_settings: dict[str, Any] | None = None,
    project_settings: dict[str, Any] | None = None,
    hook_env: dict[str, str] | None = None,
    command: str = DUMP,
) -> dict[str, str]:
    home = tmp_path / "home"
    project = tmp_path / "project"
    hook = {
        "type": "command",
        "name": "dump",
        "command": command,
        **({"env": hook_env} if hook_env else {}),
    }
    hooks = {"hooks": {"BeforeTool": [{"hooks": [hook]}]}}
    files = {
        "user": home / ".gemini" / "settings.json",
        "project": project / ".gemini" / "settings.json",
        "extension": home / ".gemini" / "extensions" / "e" / "hooks" / "hooks.json",
    }
    for f in files.values():
        f.parent.mkdir(parents=True, exist_ok=True)
    docs: dict[str, dict[str, Any]] = {
        "user": dict(user_settings or {}),
        "project": dict(project_settings or {}),
    }
    if layer == "extension":
        files["extension"].write_text(json.dumps(hooks))
    else:
        docs[layer].update(hooks)
    files["user"].write_text(json.dumps(docs["user"]))
    files["project"].write_text(json.dumps(docs["project"]))
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "GEMINI_CLI_HOME": str(home),
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(tmp_path / "none.json"),
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(tmp_path / "none2.json"),
        **SECRETS,
        **HARMLESS,
        **(extra_env or {}),
    }
    hs = HookSystem(project, env=env, trust_all=True)
    r = hs.fire("BeforeTool", tool_name="t", tool_input={})
    (o,) = r.hooks
    assert o.outcome is Outcome.OK, o
    if command != DUMP:
        return {"stdout": o.stdout}
    seen: dict[str, str] = json.loads(r.system_message or "{}")
    return seen


@pytest.mark.parametrize("layer", ["project", "extension"])
def test_untrusted_sources_never_see_secrets(tmp_path: Path, layer: str) -> None:
    seen = env_seen(tmp_path, layer=layer)
    for name, value in SECRETS.items():
        assert name not in seen, name
        assert value not in json.dumps(seen), name
    for name, value in HARMLESS.items():
        assert seen.get(name) == value
    assert seen["GEMINI_PROJECT_DIR"].endswith("project")


def test_user_hooks_see_the_whole_environment(tmp_path: Path) -> None:
    seen = env_seen(tmp_path, layer="user")
    for name, value in SECRETS.items():
        assert seen.get(name) == value


@pytest.mark.slow
def test_only_the_user_may_allow_a_secret(tmp_path: Path) -> None:
    allow = {"security": {"environmentVariableRedaction": {"allowed": ["MY_API_KEY"]}}}
    by_project = env_seen(tmp_path / "a", layer="project", project_settings=allow)
    assert "MY_API_KEY" not in by_project
    by_user = env_seen(tmp_path / "b", layer="project", user_settings=allow)
    assert by_user.get("MY_API_KEY") == SECRETS["MY_API_KEY"]
    assert "GITHUB_TOKEN" not in by_user


def test_a_project_cannot_switch_redaction_off(tmp_path: Path) -> None:
    seen = env_seen(
        tmp_path,
        layer="project",
        project_settings={
            "security": {
                "environmentVariableRedaction": {
                    "enabled": False,
                    "allowed": ["GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY"],
                }
            }
        },
    )
    assert "GITHUB_TOKEN" not in seen and "AWS_SECRET_ACCESS_KEY" not in seen


def test_a_project_hook_cannot_pull_secrets_through_its_env_or_command(tmp_path: Path) -> None:
    seen = env_seen(
        tmp_path / "a",
        layer="project",
        hook_env={"LEAK": "$GITHUB_TOKEN", "LEAK2": "${MY_API_KEY}"},
    )
    assert (
        seen["LEAK"] == "$GITHUB_TOKEN" and seen["LEAK2"] == "${MY_API_KEY}"
    )  # literal, never expanded
    out = env_seen(
        tmp_path / "b",
        layer="project",
        command='printf "%s|%s|%s" "$GITHUB_TOKEN" "$MY_API_KEY" '
        '"$(printenv AWS_SECRET_ACCESS_KEY)"',
    )
    assert out["stdout"] == "||"


def test_ci_strict_mode_drops_unknown_variables_for_project_hooks(tmp_path: Path) -> None:
    seen = env_seen(tmp_path, layer="project", extra_env={"GITHUB_SHA": "abc123"})
    assert "MY_SETTING" not in seen and "EDITOR" not in seen
    assert seen.get("LANG") == "C.UTF-8" and "PATH" in seen
    for name in SECRETS:
        assert name not in seen


def test_secrets_never_reach_the_trace(tmp_path: Path) -> None:
    home = tmp_path / "home"
    project = tmp_path / "project"
    (project / ".gemini").mkdir(parents=True)
    (project / ".gemini" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "BeforeTool": [
                        {"hooks": [{"type": "command", "command": "printenv GITHUB_TOKEN; exit 0"}]}
                    ]
                }
            }
        )
    )
    trace = tmp_path / "trace.jsonl"
    hs = HookSystem(
        project,
        env={"PATH": "/usr/bin:/bin", "GEMINI_CLI_HOME": str(home), **SECRETS},
        trust_all=True,
        trace=trace,
    )
    hs.fire("BeforeTool", tool_name="t", tool_input={})
    text = trace.read_text()
    for value in SECRETS.values():
        assert value not in text
