"""A hook kind is one row: every row of ``runners.KINDS`` has every member, and a new kind (one module, one row)
is read by load, validate, list, trust, the review screen, fire and migrate (issue 22, acceptance 1)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from tests.conftest import Project
from tests.engine.echo_kind import EchoKind

from hookwise import HookSystem
from hookwise.cli.main import main
from hookwise.runners import KINDS, resolve_kind
from hookwise.runners.kind import HookKind

METHODS = ("run", "run_async", "make_spec", "trust_material", "display", "from_claude", "to_claude")


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_kind_defines_every_member(name: str) -> None:
    kind = resolve_kind(KINDS[name])
    assert isinstance(kind, HookKind)
    assert set(HookKind.MEMBERS) == {"name", "doc", "keys", "spec", "background", *METHODS}
    for member in HookKind.MEMBERS:
        owner = next(c for c in type(kind).__mro__ if member in c.__dict__)
        assert owner is not HookKind, f"kind {name!r} does not define {member!r}"
    assert kind.name == name and kind.doc and kind.keys
    for row in kind.keys:  # its own keys fill its spec's fields
        assert row.types == (name,) and row.attr, row.name
    assert issubclass(kind.spec, type(kind.make_spec({})))


def test_no_two_kinds_own_the_same_key() -> None:
    from hookwise.runners.hook_keys import SHARED_HOOK_KEYS

    names = [row.name for k in KINDS.values() for row in resolve_kind(k).keys]
    names += [row.name for row in SHARED_HOOK_KEYS]
    assert len(names) == len(set(names))


@pytest.fixture
def echo() -> Iterator[EchoKind]:
    """The fourth kind's one row, removed again afterwards."""
    kind = KINDS["echo"] = EchoKind()
    try:
        yield kind
    finally:
        del KINDS["echo"]


def _cli(capsys: pytest.CaptureFixture[str], project: Project, *args: str, stdin: str = "") -> Any:
    import io
    import sys

    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(["--project", str(project.root), *args])
    finally:
        sys.stdin = old
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_fourth_kind_is_one_module_and_one_row(
    echo: EchoKind,
    project: Project,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("HOOKWISE_TRUST_ALL", raising=False)
    project.hooks(
        "BeforeTool",
        {"type": "echo", "text": "hello", "name": "e"},
        {"type": "echo", "name": "no-text"},
    )
    # load: the kind's key fills its spec; a hook without its required key is skipped, named
    hs = HookSystem(project.root)
    assert [(e.type, e.target) for e in hs.entries] == [("echo", "hello")]
    assert any('missing "text"' in w for w in hs.warnings)
    # validate: the same rule, and the JSON Schema knows the type
    code, out, _ = _cli(capsys, project, "validate", "--json")
    problems = json.loads(out)["problems"]
    assert code == 1 and any('missing "text"' in p["message"] for p in problems), problems
    from hookwise.settings.json_schema import json_schema

    assert "echo" in json_schema()["definitions"]["hook"]["properties"]["type"]["enum"]
    # list: the kind names what its hooks run
    code, out, _ = _cli(capsys, project, "list", "--json")
    assert [(h["name"], h["text"]) for h in json.loads(out)["hooks"]] == [("e", "hello")]
    # fire before trust: skipped; trust shows the kind's material; fire after trust runs the kind
    assert hs.fire("BeforeTool", tool_name="t", tool_input={}).hooks[0].outcome.value == "skipped"
    code, out, _ = _cli(capsys, project, "trust", stdin="y\n")
    assert "  text: hello\n  says: hello\n" in out and "trusted: e" in out
    code, out, _ = _cli(capsys, project, "fire", "BeforeTool", "--tool", "t", "--json")
    assert json.loads(out)["hooks"][0]["outcome"] == "ok"
    assert "echo: hello" in json.loads(out)["systemMessage"]
    # migrate to Claude Code: the kind writes its own Claude hook
    code, out, _ = _cli(capsys, project, "migrate", "--to-claude", "--dry-run", "--json")
    assert code == 0, out
    report = json.loads(out)
    assert any(h.get("text") == "hello" and h["status"] == "migrated" for h in report["hooks"]), out
    # editing what it runs re-asks
    project.hooks("BeforeTool", {"type": "echo", "text": "changed", "name": "e"})
    assert HookSystem(project.root).untrusted()[0].target == "changed"
    used = echo.used
    assert {"make_spec", "run", "trust_material", "display", "to_claude"} <= used, used


def test_the_built_in_kinds_write_and_read_claude_hooks() -> None:
    from hookwise.core.registry import CommandSpec, HttpSpec

    command, http, python = (resolve_kind(KINDS[n]) for n in ("command", "http", "python"))
    assert command.to_claude(CommandSpec("x.sh", "powershell")) == {
        "type": "command",
        "command": "x.sh",
        "shell": "powershell",
    }
    assert command.from_claude({"type": "command", "command": "x.sh"}) == CommandSpec("x.sh")
    spec = HttpSpec("https://a.example/", {"A": "b"}, ("T",))
    assert http.from_claude(http.to_claude(spec)) == spec
    assert python.from_claude({"type": "python"}) is None
    with pytest.raises(ValueError, match="Claude Code"):
        python.to_claude(python.make_spec({"callable": "m:f"}))


def test_migrate_names_what_an_http_hook_runs_by_its_kind(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    project.hooks("BeforeTool", {"type": "http", "url": "https://gate.example/x", "name": "gate"})
    code, out, _ = _cli(capsys, project, "migrate", "--to-claude", "--dry-run")
    assert code == 0 and "      url: https://gate.example/x" in out and "command: http" not in out
    code, out, _ = _cli(capsys, project, "migrate", "--to-claude", "--dry-run", "--json")
    (hook,) = json.loads(out)["hooks"]
    assert hook["url"] == "https://gate.example/x" and "command" not in hook


def test_the_echo_row_is_gone_after_its_test() -> None:
    assert "echo" not in KINDS and os.sep
