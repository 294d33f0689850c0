"""settings/edit.py: the library half of ``hookwise enable/disable`` (docs/contract.md §2, §7)."""

from __future__ import annotations

import os

import pytest
from tests.conftest import Project

from hookwise.errors import EditError, HookNotFoundError
from hookwise.settings import edit
from hookwise.settings.load import load_settings

TEXT = """{
  // my hooks
  "hooks": {"BeforeTool": [{"hooks": [
    {"type": "command", "name": "scan", "command": "./scan.sh"},
    {"type": "command", "command": "./log.sh"}
  ]}]},
  "hooksConfig": {"disabled": ["old", "scan", "old"]}
}
"""


def test_disable_and_enable_keep_the_rest_of_the_file(project: Project) -> None:
    path = project.write_settings(TEXT)
    target = edit.load_target("project", str(project.root))
    assert target.path == str(path) and target.disabled == ["old", "scan", "old"]
    edit.write(target, edit.without_names(target, "old"))
    assert path.read_text() == TEXT.replace('["old", "scan", "old"]', '["scan"]')
    target = edit.load_target("project", str(project.root))
    edit.write(target, edit.with_names(target, ["./log.sh"]))
    assert "// my hooks" in path.read_text()
    assert edit.load_target("project", str(project.root)).disabled == ["scan", "./log.sh"]
    assert [e.enabled for e in load_settings(str(project.root)).entries] == [False, False]
    target = edit.load_target("project", str(project.root))
    edit.write(target, edit.without_names(target))
    assert edit.load_target("project", str(project.root)).disabled == []


def test_a_missing_file_is_an_empty_one(project: Project) -> None:
    target = edit.load_target("project", str(project.root))
    assert target.text == "" and target.disabled == []
    edit.write(target, edit.with_names(target, ["x"]))
    assert edit.load_target("project", str(project.root)).disabled == ["x"]


@pytest.mark.parametrize(
    "text,words",
    [
        ('{"hooks": ', "does not parse, so it was not changed"),
        ("[]", "not a JSON object"),
        ('{"hooksConfig": []}', "/hooksConfig is not an object"),
        ('{"hooksConfig": {"disabled": "x"}}', "/hooksConfig/disabled is not an array"),
    ],
)
def test_files_that_cannot_be_edited_safely(project: Project, text: str, words: str) -> None:
    project.write_settings(text)
    with pytest.raises(EditError, match=words):
        edit.load_target("project", str(project.root))


def test_symlinked_settings_are_not_edited(project: Project, tmp_path: os.PathLike[str]) -> None:
    real = os.path.join(tmp_path, "real.json")
    with open(real, "w") as f:
        f.write("{}")
    (project.root / ".gemini").mkdir()
    os.symlink(real, project.settings_path())
    with pytest.raises(EditError, match="symbolic link"):
        edit.load_target("project", str(project.root))


def test_find_hook_raises_hook_not_found_with_suggestions(project: Project) -> None:
    project.write_settings(TEXT)
    entries = load_settings(str(project.root)).entries
    assert [e.name for e in edit.find_hook("scan", entries)] == ["scan"]
    with pytest.raises(HookNotFoundError) as info:
        edit.find_hook("scna", entries)
    assert info.value.name == "scna" and info.value.suggestions == ["scan"]
    with pytest.raises(HookNotFoundError) as info:
        edit.find_hook("./scan.sh", entries)  # a named hook is switched by its name
    assert info.value.suggestions == ["scan"]
    assert "did you mean 'scan'" in str(info.value)


def test_other_layers_disabled_lists(project: Project) -> None:
    project.write_settings({"hooksConfig": {"disabled": ["a"]}}, "user")
    project.write_settings({"hooksConfig": {"disabled": ["a", "b"]}})
    target = edit.load_target("project", str(project.root))
    assert [
        (layer.kind, names) for layer, names in edit.other_disabled(target, str(project.root))
    ] == [("user", ["a"])]
    assert edit.disabled_elsewhere("a", target, str(project.root)) == [
        f"user settings ({project.settings_path('user')})"
    ]
    assert edit.disabled_elsewhere("b", target, str(project.root)) == []
