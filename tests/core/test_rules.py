"""Claude Code permission rules as a hook's ``if`` filter: the shapes Claude Code's docs show."""

from __future__ import annotations

import pytest

from hookwise.claude.conditions import call_matches
from hookwise.core.rules import (
    bash_matches,
    parse_rule,
    path_matches,
    rule_error,
    split_commands,
)

# -------------------------------------------------------- Bash (hooks reference, "How `if` patterns
# match Bash commands", and the permissions page)


@pytest.mark.parametrize(
    ("pattern", "command", "runs"),
    [
        # the hooks reference's table, row by row
        ("git *", "FOO=bar git push", True),
        ("git *", "npm test && git push", True),
        ("rm *", "echo $(rm -rf /)", True),
        ("rm *", "echo $(date)", False),
        ("git push *", "echo $(date)", True),
        # word boundary: the space before * matters
        ("ls *", "ls -la", True),
        ("ls *", "lsof", False),
        ("ls*", "lsof", True),
        ("git *", "git", True),
        ("git push*", "git push origin main", True),
        ("git push*", "git status", False),
        ("git push *", "git pull", False),
        # exact, middle and leading wildcards, the older prefix form
        ("npm run build", "npm run build", True),
        ("npm run build", "npm run build --watch", False),
        ("git * main", "git checkout main", True),
        ("git * main", "git checkout dev", False),
        ("* --version", "node --version", True),
        ("npm run test:*", "npm run test --coverage", True),
        ("npm run test:*", "npm run lint", False),
        # every separator splits subcommands; quotes and backticks are understood
        ("git *", "cd x; git push", True),
        ("git *", "cd x || git push", True),
        ("git *", "ls | git apply", True),
        ("git *", "sleep 1 & git fetch", True),
        ("git *", "ls\ngit push", True),
        ("git *", "echo 'a && git push'", False),
        ("git *", 'echo "a ; git push"', False),
        ("rm *", "echo `rm -rf x`", True),
        ("rm *", 'echo "$(rm -rf x)"', True),
        ("git *", "(cd sub && git push)", True),
        ("git *", "A='x y' B=2 git push", True),
        # what cannot be told runs the hook
        ("git *", "$TOOL git push", True),
        ("git *", 'echo "unclosed', True),
        ("git *", "echo $(unclosed", True),
        ("*", "anything at all", True),
    ],
)
def test_bash_patterns(pattern: str, command: str, runs: bool) -> None:
    assert bash_matches(pattern, command) is runs


def test_split_commands() -> None:
    assert split_commands("a && b || c; d | e") == ["a", "b", "c", "d", "e"]
    assert split_commands("echo $(date) `whoami`") == ["date", "whoami", "echo $(date) `whoami`"]
    assert split_commands("echo 'x") is None


# --------------------------------------------------------------------- file rules (gitignore-style)

CTX = {"cwd": "/proj", "project_dir": "/proj", "home": "/home/u"}


@pytest.mark.parametrize(
    ("pattern", "path", "runs"),
    [
        ("src/**", "/proj/src/a.py", True),
        ("src/**", "/proj/src/deep/er/a.py", True),
        (
            "src/**",
            "/proj/lib/src/a.py",
            False,
        ),  # since Claude Code 2.1.214: src in the working directory only
        ("**/src/**", "/proj/lib/src/a.py", True),
        ("./secrets/**", "/proj/secrets/key.pem", True),
        ("./secrets/**", "/proj/secrets-old/key.pem", False),
        ("*.ts", "/proj/a/b/c.ts", True),  # no slash: a file name at any depth
        ("*.ts", "/proj/a/b/c.tsx", False),
        (".env", "/proj/app/.env", True),
        ("./.env", "/proj/.env", True),
        ("./.env", "/proj/app/.env", False),
        ("/src/**/*.ts", "/proj/src/a/b.ts", True),  # /path: under the project directory
        ("/src/**/*.ts", "/proj/src/a/b.js", False),
        ("//tmp/**", "/tmp/scratch.txt", True),  # //path: absolute
        ("//etc/passwd", "/etc/passwd", True),
        ("~/.ssh/**", "/home/u/.ssh/id_ed25519", True),  # ~/path: under home
        ("~/.ssh/**", "/proj/.ssh/id", False),
        ("docs/", "/proj/docs/a.md", True),
        ("src/?.py", "/proj/src/a.py", True),
        ("src/[ab].py", "/proj/src/c.py", False),
    ],
)
def test_path_patterns(pattern: str, path: str, runs: bool) -> None:
    assert path_matches(pattern, path, **CTX) is runs


def test_relative_tool_paths_are_resolved_against_the_working_directory() -> None:
    assert path_matches("src/**", "src/a.py", **CTX)
    assert not path_matches("src/**", "../other/src/a.py", **CTX)


# --------------------------------------------------------------------------- tools


def _matches(rule: str, tool: str, tool_input: dict[str, object]) -> bool:
    return parse_rule(rule).matches(tool, tool_input, **CTX)


def test_tool_names_and_families() -> None:
    assert _matches("Bash", "Bash", {"command": "anything"})
    assert _matches("Bash(*)", "Bash", {"command": "anything"})
    assert not _matches("Bash(git *)", "Edit", {"file_path": "/proj/a"})
    # Edit rules cover every file-editing tool; Read rules the tools that read files
    for tool in ("Edit", "MultiEdit", "Write", "NotebookEdit"):
        key = "notebook_path" if tool == "NotebookEdit" else "file_path"
        assert _matches("Edit(src/**)", tool, {key: "/proj/src/x"})
    assert _matches("Read(./secrets/**)", "Grep", {"pattern": "x", "path": "/proj/secrets"})
    assert _matches("Read(./secrets/**)", "Read", {"file_path": "/proj/secrets/a"})
    assert not _matches("Read(./secrets/**)", "Edit", {"file_path": "/proj/secrets/a"})
    assert _matches("Write(*.json)", "Write", {"file_path": "/proj/a/b.json"})
    assert not _matches("Write(*.json)", "Edit", {"file_path": "/proj/a/b.json"})


def test_web_and_mcp_rules() -> None:
    assert _matches("WebFetch(domain:example.com)", "WebFetch", {"url": "https://example.com/a"})
    assert not _matches(
        "WebFetch(domain:example.com)", "WebFetch", {"url": "https://api.example.com/a"}
    )
    assert _matches("WebSearch(*claude*)", "WebSearch", {"query": "what is claude code"})
    assert _matches("mcp__github", "mcp__github__create_issue", {})
    assert not _matches("mcp__github", "mcp__gitlab__create_issue", {})
    assert _matches("mcp__github__create_*", "mcp__github__create_issue", {})
    assert not _matches("mcp__github__create_*", "mcp__github__delete_issue", {})
    assert _matches("mcp__github__create_issue", "mcp__github__create_issue", {"title": "x"})
    assert not _matches("mcp__github", "Bash", {"command": "gh"})


def test_unknown_arguments_run_the_hook() -> None:
    # what hookwise cannot inspect is not filtered out: the hook runs
    assert _matches("Skill(deploy *)", "Skill", {})
    assert _matches("Edit(src/**)", "Edit", {})


# ---------------------------------------------------------------- on hookwise (Gemini-named) inputs


def test_rules_read_gemini_calls_with_claude_names() -> None:
    def call(rule: str, tool: str, tool_input: dict[str, object], **extra: object) -> bool:
        payload = {"tool_name": tool, "tool_input": tool_input, "cwd": "/proj", **extra}
        return call_matches(parse_rule(rule), payload, project_dir="/proj", home="/home/u")

    assert call("Bash(git push *)", "run_shell_command", {"command": "git push origin main"})
    assert not call("Bash(git push *)", "run_shell_command", {"command": "git status"})
    assert call(
        "Edit(src/**)",
        "replace",
        {"file_path": "/proj/src/a.py", "old_string": "a", "new_string": "b"},
    )
    assert call("Edit(src/**)", "write_file", {"file_path": "/proj/src/new.py", "content": ""})
    assert call(
        "Read(./secrets/**)", "read_file", {"absolute_path": "/proj/secrets/k"}
    )  # older Gemini spelling
    assert call("Read(./secrets/**)", "grep_search", {"pattern": "x", "dir_path": "secrets"})
    assert call(
        "mcp__github__create_issue",
        "mcp_github_create_issue",
        {},
        mcp_context={"server_name": "github", "tool_name": "create_issue"},
    )
    assert call(
        "run_shell_command(git *)", "run_shell_command", {"command": "git log"}
    )  # Gemini names work too


# -------------------------------------------------------------------------- rules that do not parse


@pytest.mark.parametrize(
    ("rule", "why"),
    [
        ("", "is empty"),
        ("   ", "is empty"),
        ("Bash(git *", "must end with ')'"),
        ("Bash(git *) && Edit(src/**)", "exactly one rule"),
        ("Bash(git *) || Read(x)", "exactly one rule"),
        ("Bash(git *)|Edit(x)", "exactly one rule"),
        ("Bash git", "exactly one rule"),
        ("Bash()", "empty specifier"),
        ("(git *)", "no tool name"),
        ("Bash)", "without a matching '('"),
        ("Bash(a))", "unbalanced"),
    ],
)
def test_invalid_rules_say_why(rule: str, why: str) -> None:
    with pytest.raises(ValueError, match=why.replace("(", r"\(").replace(")", r"\)")):
        parse_rule(rule)
    err = rule_error(rule)
    assert err is not None and why in err


def test_non_strings_are_invalid() -> None:
    assert rule_error(["Bash(git *)"]) is not None
    assert rule_error(3) is not None


def test_valid_rules() -> None:
    for rule in (
        "Bash",
        "Bash(git push *)",
        "Edit(src/**)",
        "Read(./secrets/**)",
        "mcp__github",
        "mcp__github__*",
        "WebFetch(domain:example.com)",
        "Bash(echo (nested))",
        "Bash(npm run test:*)",
    ):
        assert rule_error(rule) is None, rule
