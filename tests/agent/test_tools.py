"""The built-in tools on a real temporary project: results, errors and confinement."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookwise.agent.tools import ToolContext, ToolRegistry, glob_to_regex, needs_confirmation


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "src" / "pkg" / "mod.py").write_text(
        "def alpha():\n    return 1\n\ndef beta():\n    return 2\n"
    )
    (root / "src" / "main.py").write_text("import pkg\nprint('alpha')\n")
    (root / "README.md").write_text("# Demo\nalpha beta\n")
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("alpha in git\n")
    return root


def run(proj: Path, name: str, **args: object) -> tuple[str, str | None]:
    tools = ToolRegistry()
    tool = tools.get(name)
    assert tool is not None
    problem = tool.validate(args)
    if problem:
        return problem, "invalid"
    result = tool.execute(ToolContext(str(proj), shell_timeout_s=5), dict(args))
    return result.llm_content, (result.error or {}).get("type")


def test_declarations_use_gemini_cli_parameter_names() -> None:
    decls = {d["name"]: d["parametersJsonSchema"] for d in ToolRegistry().declarations()}
    assert list(decls) == [
        "read_file",
        "write_file",
        "replace",
        "list_directory",
        "glob",
        "grep_search",
        "run_shell_command",
    ]
    assert decls["read_file"]["required"] == ["file_path"]
    assert decls["write_file"]["required"] == ["file_path", "content"]
    assert decls["replace"]["required"] == ["file_path", "old_string", "new_string"]
    assert decls["list_directory"]["required"] == ["dir_path"]
    assert set(decls["grep_search"]["properties"]) == {"pattern", "dir_path", "include"}
    assert set(decls["run_shell_command"]["properties"]) == {"command", "description", "dir_path"}


def test_read_file(proj: Path) -> None:
    assert run(proj, "read_file", file_path="src/main.py") == ("import pkg\nprint('alpha')\n", None)
    out, err = run(proj, "read_file", file_path=str(proj / "src/pkg/mod.py"), offset=3, limit=1)
    assert err is None and out.endswith("def beta():\n") and "showing lines 4-4 of 5" in out
    assert run(proj, "read_file", file_path="nope.txt")[1] == "file_not_found"
    assert run(proj, "read_file", file_path="src")[1] == "target_is_directory"
    (proj / "blob.bin").write_bytes(b"\x00\x01binary")
    assert "binary" in run(proj, "read_file", file_path="blob.bin")[0]


def test_write_file_and_replace(proj: Path) -> None:
    out, err = run(proj, "write_file", file_path="new/dir/f.txt", content="one two two\n")
    assert err is None and "created" in out
    assert (proj / "new/dir/f.txt").read_text() == "one two two\n"
    assert (
        run(proj, "replace", file_path="new/dir/f.txt", old_string="one", new_string="1")[1] is None
    )
    assert (
        run(proj, "replace", file_path="new/dir/f.txt", old_string="two", new_string="2")[1]
        == "edit_expected_occurrence_mismatch"
    )
    assert (
        run(
            proj,
            "replace",
            file_path="new/dir/f.txt",
            old_string="two",
            new_string="2",
            allow_multiple=True,
        )[1]
        is None
    )
    assert (proj / "new/dir/f.txt").read_text() == "1 2 2\n"
    assert (
        run(proj, "replace", file_path="new/dir/f.txt", old_string="zzz", new_string="")[1]
        == "edit_no_occurrence_found"
    )
    assert (
        run(proj, "replace", file_path="created.txt", old_string="", new_string="fresh")[1] is None
    )
    assert (proj / "created.txt").read_text() == "fresh"
    assert (
        run(proj, "replace", file_path="created.txt", old_string="", new_string="again")[1]
        == "attempt_to_create_existing_file"
    )


def test_list_glob_grep(proj: Path) -> None:
    out, _ = run(proj, "list_directory", dir_path=".")
    assert out.splitlines()[1:] == ["[DIR] .git", "[DIR] src", "README.md"]
    out, _ = run(proj, "list_directory", dir_path=".", ignore=[".*"])
    assert "[DIR] .git" not in out
    out, _ = run(proj, "glob", pattern="**/*.py")
    assert out.splitlines()[1:] == [str(proj / "src/main.py"), str(proj / "src/pkg/mod.py")]
    out, _ = run(proj, "glob", pattern="*.MD")
    assert str(proj / "README.md") in out  # case-insensitive by default
    assert "No files found" in run(proj, "glob", pattern="*.MD", case_sensitive=True)[0]
    out, _ = run(proj, "grep_search", pattern=r"alpha")
    assert "Found 3 matches" in out and "File: README.md" in out and "L1: def alpha():" in out
    assert ".git" not in out
    out, _ = run(proj, "grep_search", pattern="alpha", include="*.py", dir_path="src")
    assert "Found 2 matches" in out and "README" not in out
    assert run(proj, "grep_search", pattern="(")[1] == "invalid_tool_params"


def test_shell_command(proj: Path) -> None:
    out, err = run(proj, "run_shell_command", command="echo hi; echo err >&2; exit 3")
    assert err is None
    assert "Output: hi\nerr" in out and "Exit Code: 3" in out and "Directory: (root)" in out
    out, _ = run(proj, "run_shell_command", command="pwd", dir_path="src")
    assert f"Output: {os.path.realpath(proj / 'src')}" in out


@pytest.mark.slow
def test_shell_timeout_kills_the_command(proj: Path) -> None:
    tool = ToolRegistry().get("run_shell_command")
    assert tool is not None
    result = tool.execute(ToolContext(str(proj), shell_timeout_s=0.5), {"command": "sleep 30"})
    assert result.error is not None and result.error["type"] == "shell_timeout"
    assert "timed out after 0.5 s" in result.llm_content


def test_paths_are_confined_to_the_project(proj: Path, tmp_path: Path) -> None:
    (tmp_path / "outside.txt").write_text("secret")
    os.symlink(tmp_path / "outside.txt", proj / "link.txt")
    for args in (
        {"file_path": "../outside.txt"},
        {"file_path": "/etc/passwd"},
        {"file_path": "link.txt"},
    ):
        out, err = run(proj, "read_file", **args)
        assert err == "invalid_tool_params" and "outside the project directory" in out
    assert run(proj, "write_file", file_path="../evil.txt", content="x")[1] == "invalid_tool_params"
    assert not (tmp_path / "evil.txt").exists()
    assert run(proj, "list_directory", dir_path="/")[1] == "invalid_tool_params"
    assert run(proj, "run_shell_command", command="pwd", dir_path="..")[1] == "invalid_tool_params"


def test_argument_validation() -> None:
    tools = ToolRegistry()
    read = tools.get("read_file")
    assert read is not None
    assert read.validate({}) == "params must have required property 'file_path'"
    assert read.validate({"file_path": 3}) == "params/file_path must be string"
    assert read.validate([]) == "params must be an object"
    ls = tools.get("list_directory")
    assert ls is not None
    assert (
        ls.validate({"dir_path": ".", "ignore": [1]}) == "params/ignore must be an array of strings"
    )
    assert "Did you mean one of: 'read_file'" in tools.not_found("read_fil")


def test_confirmations_and_approval_modes(proj: Path) -> None:
    tools = ToolRegistry()
    ctx = ToolContext(str(proj))
    write, shell, read = (
        tools.get("write_file"),
        tools.get("run_shell_command"),
        tools.get("read_file"),
    )
    assert write is not None and shell is not None and read is not None
    c = write.confirmation(ctx, {"file_path": "README.md", "content": "# New\n"})
    assert c.kind == "edit" and c.message == "Tool Confirm Write: README.md requires editing"
    assert (
        c.details["originalContent"] == "# Demo\nalpha beta\n" and "+# New" in c.details["fileDiff"]
    )
    c = shell.confirmation(ctx, {"command": "git status --short"})
    assert c.details == {
        "type": "exec",
        "title": "Confirm Shell Command",
        "command": "git status --short",
        "rootCommand": "git",
    }
    assert c.message == "Tool Confirm Shell Command requires execution"
    assert read.confirmation(ctx, {"file_path": "README.md"}).kind == "info"
    assert [needs_confirmation(t, "default") for t in (read, write, shell)] == [False, True, True]
    assert [needs_confirmation(t, "auto_edit") for t in (read, write, shell)] == [
        False,
        False,
        True,
    ]
    assert [needs_confirmation(t, "yolo") for t in (read, write, shell)] == [False, False, False]


@pytest.mark.parametrize(
    ("pattern", "path", "match"),
    [
        ("*.py", "a.py", True),
        ("*.py", "d/a.py", False),
        ("**/*.py", "a.py", True),
        ("**/*.py", "d/e/a.py", True),
        ("src/**", "src/a/b", True),
        ("*.{ts,tsx}", "a.tsx", True),
        ("?.md", "ab.md", False),
        ("[ab].txt", "b.txt", True),
    ],
)
def test_glob_to_regex(pattern: str, path: str, match: bool) -> None:
    assert bool(glob_to_regex(pattern).match(path)) is match
