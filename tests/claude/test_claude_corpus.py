"""The corpus of Claude Code settings files: migrated and native, every hook fires as it did in
Claude Code.

Each ``corpus/<name>/`` is a small project shaped like published Claude Code
setups (guards, formatters, loggers, notifiers, MCP matchers, plugin-style
``${CLAUDE_PLUGIN_ROOT}`` paths, exec form, legacy answers) with its scripts,
and ``cases.json``: firings and what must come out of them. Every case runs
twice: after ``hookwise migrate --from-claude`` and natively
(``--claude-settings``, nothing migrated).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

CORPUS = Path(__file__).resolve().parent / "corpus"
NAMES = sorted(p.name for p in CORPUS.iterdir() if (p / ".claude").is_dir())


def test_corpus_is_big_enough() -> None:
    assert len(NAMES) >= 10


def make_project(tmp_path: Path, name: str) -> Path:
    proj = tmp_path / "proj"
    shutil.copytree(CORPUS / name, proj)
    (proj / "cases.json").unlink()
    for p in proj.rglob("*"):
        if p.is_file() and p.suffix in (".py", ".sh"):
            p.chmod(p.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return proj


def hookwise(proj: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["HOOKWISE_TRUST_ALL"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(proj), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def claude_hooks(proj: Path) -> list[tuple[str, str, dict[str, Any]]]:
    """``(file, pointer, hook)`` of every hook in the project's Claude settings files."""
    out = []
    for fname in ("settings.json", "settings.local.json"):
        path = proj / ".claude" / fname
        if not path.exists():
            continue
        doc = json.loads(path.read_text())
        for event, defs in doc.get("hooks", {}).items():
            for i, d in enumerate(defs):
                for j, h in enumerate(d.get("hooks", [])):
                    out.append((str(path), f"/hooks/{event}/{i}/hooks/{j}", h))
    return out


def cases(name: str) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads((CORPUS / name / "cases.json").read_text())
    return data


def check_case(proj: Path, case: dict[str, Any], *, native: bool) -> list[dict[str, Any]]:
    """Fire one case, check its expectations, return the hooks that ran."""
    for rel, content in case.get("writeFiles", {}).items():
        (proj / rel).write_text(content)
    args = (["--claude-settings"] if native else []) + [
        "fire",
        case["event"],
        "--input",
        "-",
        "--json",
        # the cases check what async hooks wrote (by default fire stops them at exit)
        "--wait-async",
    ]
    r = hookwise(proj, *args, stdin=json.dumps(case["input"]))
    assert r.stdout.strip(), r.stderr
    res = json.loads(r.stdout)
    exp = case["expect"]
    where = f"{case['event']} {json.dumps(case['input'])[:120]} (native={native})"
    for h in res["hooks"]:
        assert h["outcome"] in ("ok", "blocked"), f"{where}: {h}"
    ran = [h for h in res["hooks"] if h["outcome"] in ("ok", "blocked")]
    if "exit" in exp:
        assert r.returncode == exp["exit"], f"{where}: exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    if "decision" in exp:
        assert res["decision"] == exp["decision"], f"{where}: {res}"
    if "ran" in exp:
        assert len(ran) == exp["ran"], f"{where}: {res['hooks']}"
    if "reasonContains" in exp:
        assert exp["reasonContains"] in (res["reason"] or ""), f"{where}: {res}"
    if "systemMessageContains" in exp:
        assert exp["systemMessageContains"] in (res["systemMessage"] or ""), f"{where}: {res}"
    if "contextContains" in exp:
        ctx = (res["hookSpecificOutput"] or {}).get("additionalContext", "")
        assert exp["contextContains"] in ctx, f"{where}: {res}"
    if "toolInput" in exp:
        assert (res["hookSpecificOutput"] or {}).get("tool_input") == exp["toolInput"], (
            f"{where}: {res}"
        )
    if exp.get("noToolInput"):
        assert "tool_input" not in (res["hookSpecificOutput"] or {}), f"{where}: {res}"
    if "hookOutputDecision" in exp:
        assert ran[0]["output"]["decision"] == exp["hookOutputDecision"], f"{where}: {ran[0]}"
    for rel, text in exp.get("fileContains", {}).items():
        content = (proj / rel).read_text()
        assert text in content, f"{where}: {rel}: {content!r}"
    for rel, text in exp.get("fileEquals", {}).items():
        assert (proj / rel).read_text() == text, f"{where}: {rel}"
    return ran


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_report_accounts_for_every_hook_and_field(tmp_path: Path, name: str) -> None:
    proj = make_project(tmp_path, name)
    r = hookwise(proj, "migrate", "--from-claude", "--dry-run", "--json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert not (proj / ".gemini" / "settings.json").exists()
    by_ptr = {(h["file"], h["pointer"]): h for h in report["hooks"]}
    hooks = claude_hooks(proj)
    assert len(by_ptr) == len(report["hooks"]) == len(hooks)
    for file, ptr, raw in hooks:
        h = by_ptr[(file, ptr)]
        assert h["status"] in ("migrated", "duplicate", "skipped")
        assert isinstance(h["line"], int)
        if h["status"] == "skipped":
            assert h["reason"], h
            continue
        accounted = {f["field"] for f in h["fields"]}
        assert set(raw) <= accounted, (ptr, set(raw) - accounted)
        assert "dialect" in accounted and "timeout" in accounted
    # and the text report names every hook's location
    text = hookwise(proj, "migrate", "--from-claude", "--dry-run")
    for _file, ptr, _raw in hooks:
        assert ptr in text.stdout


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_migrated_hooks_fire(tmp_path: Path, name: str) -> None:
    proj = make_project(tmp_path, name)
    r = hookwise(proj, "migrate", "--from-claude")
    assert r.returncode == 0, r.stderr
    settings = json.loads((proj / ".gemini" / "settings.json").read_text())
    # async hooks run in the background: the cases check what they wrote, not the firing's outcomes
    commands = {
        h["command"]
        for defs in settings["hooks"].values()
        for d in defs
        for h in d["hooks"]
        if not h.get("async") and h["type"] == "command" and not h["command"].endswith("never")
    }
    # http hooks: tests/runners, real server; "never" hooks are kept on a tool no case calls (Task,
    # a bare server)
    for defs in settings["hooks"].values():
        for d in defs:
            for h in d["hooks"]:
                assert (
                    h["dialect"] == "claude"
                    and isinstance(h["timeout"], int)
                    and h["timeout"] >= 1000
                )
    fired: set[str] = set()
    for case in cases(name):
        fired |= {h["command"] for h in check_case(proj, case, native=False)}
    assert commands <= fired, f"never fired: {commands - fired}"


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_native_hooks_fire(tmp_path: Path, name: str) -> None:
    proj = make_project(tmp_path, name)
    for case in cases(name):
        check_case(proj, case, native=True)
    assert not (proj / ".gemini").exists()


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_migrating_twice_is_a_no_op(tmp_path: Path, name: str) -> None:
    proj = make_project(tmp_path, name)
    first = hookwise(proj, "migrate", "--from-claude")
    assert first.returncode == 0, first.stderr
    target = proj / ".gemini" / "settings.json"
    before = target.read_bytes()
    second = hookwise(proj, "migrate", "--from-claude")
    assert second.returncode == 0, second.stderr
    assert "Nothing to change" in second.stdout
    assert target.read_bytes() == before
    dry = hookwise(proj, "migrate", "--from-claude", "--dry-run")
    assert "Nothing to change" in dry.stdout and target.read_bytes() == before
    # the way back adds nothing either: every hook is already in .claude/
    claude_before = (proj / ".claude" / "settings.json").read_bytes()
    back = hookwise(proj, "migrate", "--to-claude")
    assert back.returncode == 0, back.stderr
    assert "Nothing to change" in back.stdout, back.stdout
    assert (proj / ".claude" / "settings.json").read_bytes() == claude_before
