"""Settings layers (docs/contract.md §1, §7): discovery, order, labels, comments, bad files, disabling."""

from __future__ import annotations

import json
import os

import pytest
from tests.conftest import Project, emit

from hookwise import HookSystem

pytestmark = pytest.mark.usefixtures("trust_all")


def hook(name: str) -> dict:
    return {"type": "command", "name": name, "command": emit({"systemMessage": name})}


def test_layers_concatenate_in_order_with_true_labels(project: Project) -> None:
    project.write_settings(
        {"hooks": {"BeforeAgent": [{"hooks": [hook("sysdef")]}]}}, "system-defaults"
    )
    project.write_settings({"hooks": {"BeforeAgent": [{"hooks": [hook("user")]}]}}, "user")
    project.write_settings({"hooks": {"BeforeAgent": [{"hooks": [hook("proj")]}]}}, "project")
    project.write_settings({"hooks": {"BeforeAgent": [{"hooks": [hook("sysover")]}]}}, "system")
    ext = project.user_dir / "extensions" / "myext"
    (ext / "hooks").mkdir(parents=True)
    (ext / "hooks" / "hooks.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "BeforeAgent": [
                        {
                            "hooks": [
                                {
                                    "type": "command",
                                    "name": "ext",
                                    "command": "printf '%s' '{\"systemMessage\":\"${extensionPath}|${/}\"}'",
                                }
                            ]
                        }
                    ]
                }
            }
        )
    )
    hs = HookSystem(project.root)
    hs.register("BeforeAgent", lambda inp: {"systemMessage": "rt"}, name="rt")
    r = hs.fire("BeforeAgent", prompt="p")
    assert [(h.name, h.source) for h in r.hooks] == [
        ("rt", "runtime"),
        ("sysdef", "system"),
        ("user", "user"),
        ("proj", "project"),
        ("sysover", "system"),
        ("ext", "extension"),
    ]
    assert r.system_message is not None
    assert r.system_message.split("\n")[:5] == ["rt", "sysdef", "user", "proj", "sysover"]
    assert r.system_message.split("\n")[5] == f"{ext}|/"


def test_comments_are_allowed(project: Project) -> None:
    project.write_settings(
        '{\n  // a comment\n  "hooks": { /* block */ "BeforeAgent": [{"hooks": ['
        + json.dumps(hook("c"))
        + "]}]}\n}\n"
    )
    hs = HookSystem(project.root)
    assert hs.warnings == []
    assert len(hs.fire("BeforeAgent", prompt="p").hooks) == 1


def test_broken_file_is_reported_with_position_and_others_load(project: Project) -> None:
    project.write_settings({"hooks": {"BeforeAgent": [{"hooks": [hook("user")]}]}}, "user")
    path = project.write_settings('{\n  "hooks": {\n    "BeforeAgent": [,]\n  }\n}\n')
    hs = HookSystem(project.root)
    assert len(hs.warnings) == 1
    assert hs.warnings[0].startswith(f"{path}:3:21: Expecting value")
    assert [h.name for h in hs.fire("BeforeAgent", prompt="p").hooks] == ["user"]


def test_malformed_parts_are_skipped_individually(project: Project) -> None:
    path = project.write_settings(
        {
            "hooks": {
                "PreToolUse": [{"hooks": [hook("claude-name")]}],
                "BeforeAgent": [
                    "not an object",
                    {"matcher": 5, "hooks": [hook("bad-matcher")]},
                    {"hooks": "nope"},
                    {
                        "hooks": [
                            42,
                            {"type": "command"},
                            {"type": "http", "url": "x"},
                            hook("good"),
                            {**hook("bad-timeout"), "timeout": "30s"},
                        ]
                    },
                ],
                "AfterAgent": {"not": "an array"},
            }
        }
    )
    hs = HookSystem(project.root)
    w = "\n".join(hs.warnings)
    assert (
        "unknown event 'PreToolUse': that is a Claude Code event name; here it is 'BeforeTool'" in w
    )
    assert (
        "/hooks/BeforeAgent/0" in w
        and "/hooks/BeforeAgent/1/matcher" in w
        and "/hooks/BeforeAgent/2" in w
    )
    assert "/hooks/BeforeAgent/3/hooks/0" in w and "/hooks/BeforeAgent/3/hooks/1" in w
    assert (
        "/hooks/BeforeAgent/3/hooks/2/url: the URL 'x' must start with http" in w
        and "/hooks/AfterAgent" in w
    )
    assert "/hooks/BeforeAgent/3/hooks/4/timeout" in w
    assert all(x.startswith(str(path) + ":") for x in hs.warnings)
    # a timeout that is not a number skips the hook (core/keys.py: Timeout), like any wrong type
    assert "/hooks/BeforeAgent/3/hooks/4/timeout" in w and "must be a number of milliseconds" in w
    assert [h.name for h in hs.fire("BeforeAgent", prompt="p").hooks] == ["good"]


def test_disabled_is_a_union_by_display_name(project: Project) -> None:
    project.write_settings(
        {
            "hooks": {"BeforeAgent": [{"hooks": [hook("a"), hook("b"), hook("c")]}]},
            "hooksConfig": {"disabled": ["a"]},
        },
        "user",
    )
    project.write_settings({"hooksConfig": {"disabled": ["b", emit({"systemMessage": "c"})]}})
    hs = HookSystem(project.root)
    # c has a name, so listing its command does not disable it; a project cannot disable a user hook (b)
    assert [h.name for h in hs.fire("BeforeAgent", prompt="p").hooks] == ["b", "c"]
    assert any("list your user hook(s) 'b'" in w and "stay enabled" in w for w in hs.warnings)
    project.write_settings(
        {"hooks": {"BeforeAgent": [{"hooks": [hook("p")]}]}, "hooksConfig": {"disabled": ["p"]}}
    )
    hs.reload()  # the project's list does switch off its own hooks
    assert [h.name for h in hs.fire("BeforeAgent", prompt="p").hooks] == ["b", "c"]


def test_enabled_false_is_last_wins_but_spares_system_hooks(project: Project) -> None:
    project.write_settings({"hooks": {"BeforeAgent": [{"hooks": [hook("sys")]}]}}, "system")
    project.write_settings({"hooks": {"BeforeAgent": [{"hooks": [hook("user")]}]}}, "user")
    project.write_settings({"hooksConfig": {"enabled": False, "disabled": ["sys"]}})
    hs = HookSystem(project.root)
    # a project's enabled: false reaches project and extension hooks only (docs/security.md)
    assert [h.name for h in hs.fire("BeforeAgent", prompt="p").hooks] == ["user", "sys"]
    assert any("your user hooks stay enabled" in w for w in hs.warnings)
    project.write_settings({"hooksConfig": {"enabled": False}}, "user")
    hs.reload()
    assert [h.name for h in hs.fire("BeforeAgent", prompt="p").hooks] == ["sys"]
    assert any("can only be disabled by the system settings" in w for w in hs.warnings)


def test_system_settings_can_disable_system_hooks(project: Project) -> None:
    project.write_settings(
        {
            "hooks": {"BeforeAgent": [{"hooks": [hook("sys")]}]},
            "hooksConfig": {"disabled": ["sys"]},
        },
        "system",
    )
    assert HookSystem(project.root).fire("BeforeAgent", prompt="p").hooks == []


def test_environment_overrides_layer_paths(project: Project, tmp_path: os.PathLike) -> None:
    custom = os.path.join(str(tmp_path), "custom-system.json")
    with open(custom, "w") as f:
        json.dump({"hooks": {"BeforeAgent": [{"hooks": [hook("custom")]}]}}, f)
    env = {**os.environ, "GEMINI_CLI_SYSTEM_SETTINGS_PATH": custom}
    hs = HookSystem(project.root, env=env)
    assert [(e.name, e.source, e.file) for e in hs.entries] == [("custom", "system", custom)]


def test_a_directory_instead_of_a_file_is_a_warning(project: Project) -> None:
    project.settings_path().mkdir(parents=True)
    hs = HookSystem(project.root)
    assert len(hs.warnings) == 1 and "is a directory" in hs.warnings[0]
