"""Claude Code's 2026 hook fields: each honoured natively and after ``migrate``, or named in the
report.

Real projects in temporary directories, real command hooks, the CLI run as a user runs it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from hookwise.jsonc import parse as jsonc

# a Claude-style hook that records its stdin in a log next to it, then prints $REPLY (if set)
RECORDER = textwrap.dedent("""\
    import json, os, sys
    data = json.load(sys.stdin)
    log = os.path.join(os.path.dirname(os.path.abspath(__file__)), sys.argv[1] + ".log")
    with open(log, "a") as f:
        f.write(json.dumps(data) + "\\n")
    reply = os.environ.get("REPLY_" + sys.argv[1].upper())
    if reply:
        sys.stdout.write(reply)
    sys.stderr.write(os.environ.get("ERR_" + sys.argv[1].upper(), ""))
    sys.exit(int(os.environ.get("EXIT_" + sys.argv[1].upper(), "0")))
    """)


def hookwise(
    proj: Path,
    *args: str,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    e = dict(os.environ)
    e["HOOKWISE_TRUST_ALL"] = "1"
    e.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(proj), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=e,
        timeout=60,
    )


def rec(name: str, **fields: Any) -> dict[str, Any]:
    """A Claude command hook running the recorder under ``name``."""
    return {
        "type": "command",
        "command": f'{sys.executable} "$CLAUDE_PROJECT_DIR/.claude/hooks/rec.py" {name}',
        **fields,
    }


def make(tmp_path: Path, hooks: dict[str, Any]) -> Path:
    proj = tmp_path / "proj"
    (proj / ".claude" / "hooks").mkdir(parents=True)
    (proj / ".claude" / "hooks" / "rec.py").write_text(RECORDER)
    (proj / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}, indent=2))
    return proj


def migrate(proj: Path) -> dict[str, Any]:
    r = hookwise(proj, "migrate", "--from-claude", "--json")
    assert r.returncode == 0, r.stderr
    rep: dict[str, Any] = json.loads(r.stdout)
    return rep


def written(proj: Path) -> dict[str, Any]:
    doc: dict[str, Any] = jsonc.parse((proj / ".gemini" / "settings.json").read_text())
    return doc


def fields_of(rep: dict[str, Any], i: int) -> dict[str, tuple[str, str]]:
    return {f["field"]: (f["action"], f["detail"]) for f in rep["hooks"][i]["fields"]}


# ---------------------------------------------------------------- migrate --from-claude: the report


@pytest.mark.slow
def test_report_names_every_2026_field(tmp_path: Path) -> None:
    proj = make(
        tmp_path,
        {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        rec(
                            "guard",
                            **{"if": "Bash(git push *)", "onFailure": "block", "shell": "bash"},
                        ),
                        rec("bg", **{"async": True, "onFailure": "block", "once": True}),
                        rec("ps", shell="powershell", asyncRewake=True),
                        rec("bad", **{"if": "Bash(git *) && Edit(x)"}),
                    ],
                }
            ],
            "Stop": [{"hooks": [rec("stop", onFailure="block")]}],
            "UserPromptSubmit": [
                {"hooks": [rec("prompt", **{"if": "Bash(git *)"})]},
                {"hooks": [rec("p2")]},
            ],
        },
    )
    rep = migrate(proj)
    st = [h["status"] for h in rep["hooks"]]
    assert st == ["migrated", "migrated", "migrated", "migrated", "migrated", "skipped", "migrated"]
    guard, bg, ps, bad, stop = (fields_of(rep, i) for i in range(5))
    assert (
        guard["if"][0] == "carried"
        and guard["onFailure"][0] == "converted"
        and guard["shell"][0] == "carried"
    )
    assert (
        bg["async"][0] == "carried"
        and bg["onFailure"][0] == "dropped"
        and "async" in bg["onFailure"][1]
    )
    assert bg["once"][0] == "dropped" and "skill frontmatter" in bg["once"][1]
    assert ps["shell"] == ("carried", ps["shell"][1]) and "pwsh" in ps["shell"][1]
    assert ps["asyncRewake"][0] == "dropped"
    assert bad["if"][0] == "carried" and "exactly one rule" in bad["if"][1]
    assert any("skips this hook" in w for w in rep["hooks"][3]["warnings"])
    assert stop["onFailure"][0] == "dropped" and "Stop" in stop["onFailure"][1]
    assert "never runs a hook with `if` on UserPromptSubmit" in rep["hooks"][5]["reason"]
    # the default timeout of a UserPromptSubmit hook is Claude Code's 30 s there
    assert fields_of(rep, 6)["timeout"] == (
        "added",
        "not set: Claude Code's default 30 s kept as 30000 ms",
    )

    hooks = written(proj)["hooks"]
    pre = hooks["BeforeTool"][0]["hooks"]
    assert (
        pre[0]["if"] == "Bash(git push *)"
        and pre[0]["failClosed"] is True
        and "shell" not in pre[0]
    )
    assert pre[1]["async"] is True and "failClosed" not in pre[1] and "once" not in pre[1]
    assert pre[2]["shell"] == "powershell" and pre[2]["command"].startswith(sys.executable)
    assert pre[3]["if"] == "Bash(git *) && Edit(x)"
    assert "failClosed" not in hooks["AfterAgent"][0]["hooks"][0]
    assert hooks["BeforeAgent"][0]["hooks"][0]["timeout"] == 30_000


def test_newer_events_and_values_are_reported(tmp_path: Path) -> None:
    proj = make(
        tmp_path,
        {
            "PreModelSwitch": [{"hooks": [rec("pre")]}],
            "PostModelSwitch": [{"hooks": [rec("post")]}],
            "PostToolBatch": [{"hooks": [rec("batch")]}],
            "SessionStart": [
                {"matcher": "fork", "hooks": [rec("fork")]},
                {"matcher": "startup|fork", "hooks": [rec("start")]},
            ],
            "Notification": [
                {"matcher": "agent_needs_input|agent_completed", "hooks": [rec("n1")]},
                {"matcher": "permission_prompt|agent_completed", "hooks": [rec("n2")]},
            ],
        },
    )
    rep = migrate(proj)
    by = {(h["sourceEvent"], h["matcherFrom"]): h for h in rep["hooks"]}
    for ev in ("PreModelSwitch", "PostModelSwitch", "PostToolBatch"):
        assert by[(ev, None)]["status"] == "skipped"
        assert (
            by[(ev, None)]["reason"]
            == f"Claude Code event {ev!r} never fires here: it has no hookwise equivalent"
        )
    assert rep["counts"]["neverFires"] == 3
    # issue 21 item 1: Claude's values are kept (fork: a forked session; agent_*: agent
    # notifications)
    fork = by[("SessionStart", "fork")]
    assert fork["status"] == "migrated" and fork["matcherTo"] == "fork"
    assert any("'fork' kept in the matcher" in w for w in fork["warnings"])
    start = by[("SessionStart", "startup|fork")]
    assert start["status"] == "migrated" and start["matcherTo"] == "startup|fork"
    n1 = by[("Notification", "agent_needs_input|agent_completed")]
    assert n1["status"] == "migrated" and n1["matcherTo"] == "agent_needs_input|agent_completed"
    n2 = by[("Notification", "permission_prompt|agent_completed")]
    assert n2["status"] == "migrated" and n2["matcherTo"] == "ToolPermission|agent_completed"


@pytest.mark.slow
def test_scripts_that_answer_updated_tool_output_are_flagged(tmp_path: Path) -> None:
    proj = make(
        tmp_path,
        {
            "PostToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {
                            "type": "command",
                            "command": 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/redact.py"',
                        }
                    ],
                }
            ],
            "PreCompact": [{"hooks": [rec("compact")]}],
        },
    )
    (proj / ".claude" / "hooks" / "redact.py").write_text(
        'import json\nprint(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", '
        '"updatedToolOutput": {"stdout": "[redacted]"}}}))\n'
    )
    rep = migrate(proj)
    assert any(
        "updatedToolOutput" in w and "per-tool shapes" in w for w in rep["hooks"][0]["warnings"]
    )
    assert any("stops the compression" in n for n in rep["hooks"][1]["notes"])


# --------------------------------------------------------------------------- migrate --to-claude


@pytest.mark.slow
def test_to_claude_writes_the_fields_back(tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    gem = proj / ".gemini" / "settings.json"
    gem.parent.mkdir(parents=True)
    gem.write_text(
        json.dumps(
            {
                "hooks": {
                    "BeforeTool": [
                        {
                            "matcher": "run_shell_command",
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": "./guard.sh",
                                    "if": "Bash(git push *)",
                                    "failClosed": True,
                                    "dialect": "claude",
                                },
                                {
                                    "type": "command",
                                    "command": "./bg.sh",
                                    "async": True,
                                    "failClosed": True,
                                    "once": True,
                                },
                                {
                                    "type": "command",
                                    "command": "Write-Host hi",
                                    "shell": "powershell",
                                },
                            ],
                        }
                    ],
                    "AfterAgent": [
                        {"hooks": [{"type": "command", "command": "./stop.sh", "failClosed": True}]}
                    ],
                }
            }
        )
    )
    r = hookwise(proj, "migrate", "--to-claude", "--json")
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    assert fields_of(rep, 0)["failClosed"][0] == "converted"
    assert (
        fields_of(rep, 1)["failClosed"][0] == "dropped"
        and fields_of(rep, 1)["once"][0] == "dropped"
    )
    assert fields_of(rep, 3)["failClosed"][0] == "dropped"
    doc = jsonc.parse((proj / ".claude" / "settings.json").read_text())
    pre = doc["hooks"]["PreToolUse"][0]["hooks"]
    assert pre[0] == {
        "type": "command",
        "command": "./guard.sh",
        "if": "Bash(git push *)",
        "onFailure": "block",
    }
    assert pre[1] == {"type": "command", "command": "./bg.sh", "async": True}
    assert pre[2] == {"type": "command", "command": "Write-Host hi", "shell": "powershell"}
    assert doc["hooks"]["Stop"][0]["hooks"][0] == {"type": "command", "command": "./stop.sh"}


@pytest.mark.slow
def test_round_trip_keeps_the_fields(tmp_path: Path) -> None:
    proj = make(
        tmp_path,
        {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        rec(
                            "guard",
                            **{"if": "Bash(git push *)", "onFailure": "block", "async": False},
                        )
                    ],
                }
            ]
        },
    )
    migrate(proj)
    r = hookwise(proj, "migrate", "--to-claude", "--json")
    rep = json.loads(r.stdout)
    assert [h["status"] for h in rep["hooks"]] == ["duplicate"]


@pytest.mark.slow
@pytest.mark.parametrize("value", ["warn", True, 1])
def test_unknown_on_failure_values_fail_open(tmp_path: Path, value: Any) -> None:
    proj = make(tmp_path, {"PreToolUse": [{"hooks": [rec("x", onFailure=value)]}]})
    rep = migrate(proj)
    assert fields_of(rep, 0)["onFailure"][0] == "dropped"
    assert "failClosed" not in written(proj)["hooks"]["BeforeTool"][0]["hooks"][0]


# ------------------------------------------------------ honoured when firing: natively and migrated


def fire(
    proj: Path,
    event: str,
    inp: dict[str, Any],
    *,
    native: bool,
    env: dict[str, str] | None = None,
) -> tuple[int, dict[str, Any]]:
    args = (["--claude-settings"] if native else []) + ["fire", event, "--input", "-", "--json"]
    r = hookwise(proj, *args, stdin=json.dumps(inp), env=env)
    assert r.stdout.strip(), r.stderr
    return r.returncode, json.loads(r.stdout)


def ways(tmp_path: Path, hooks: dict[str, Any]) -> list[tuple[Path, bool]]:
    """The same Claude settings twice: loaded natively, and migrated into .gemini/settings.json."""
    native = make(tmp_path / "native", hooks)
    migrated = make(tmp_path / "migrated", hooks)
    migrate(migrated)
    (migrated / ".claude" / "settings.json").unlink()
    return [(native, True), (migrated, False)]


def log(proj: Path, name: str) -> list[dict[str, Any]]:
    p = proj / ".claude" / "hooks" / f"{name}.log"
    return [json.loads(line) for line in p.read_text().splitlines()] if p.exists() else []


def bash(cmd: str) -> dict[str, Any]:
    return {"tool_name": "run_shell_command", "tool_input": {"command": cmd}}


@pytest.mark.slow
def test_if_rules_filter_hooks(tmp_path: Path) -> None:
    hooks = {
        "PreToolUse": [
            {
                "matcher": "Bash|Edit|Write|Read",
                "hooks": [
                    rec("push", **{"if": "Bash(git push *)"}),
                    rec("src", **{"if": "Edit(src/**)"}),
                    rec("secrets", **{"if": "Read(./secrets/**)"}),
                    rec("all"),
                ],
            }
        ],
        "PostToolUse": [{"hooks": [rec("post", **{"if": "Bash(npm test*)"})]}],
    }
    for proj, native in ways(tmp_path, hooks):
        root = str(proj)
        calls = [
            bash("git status"),
            bash("git push origin main"),
            bash("npm test && git push"),
            {
                "tool_name": "replace",
                "tool_input": {
                    "file_path": f"{root}/src/a.py",
                    "old_string": "a",
                    "new_string": "b",
                },
            },
            {
                "tool_name": "write_file",
                "tool_input": {"file_path": f"{root}/docs/a.md", "content": ""},
            },
            {"tool_name": "read_file", "tool_input": {"absolute_path": f"{root}/secrets/key"}},
        ]
        for c in calls:
            code, res = fire(proj, "BeforeTool", c, native=native)
            assert code == 0 and all(h["outcome"] == "ok" for h in res["hooks"]), res
        fire(
            proj,
            "AfterTool",
            {**bash("npm test"), "tool_response": {"llmContent": "ok"}},
            native=native,
        )
        fire(
            proj, "AfterTool", {**bash("ls"), "tool_response": {"llmContent": "ok"}}, native=native
        )
        assert [e["tool_input"]["command"] for e in log(proj, "push")] == [
            "git push origin main",
            "npm test && git push",
        ]
        assert [e["tool_name"] for e in log(proj, "src")] == ["Edit"]
        assert [e["tool_input"]["file_path"] for e in log(proj, "secrets")] == [
            f"{root}/secrets/key"
        ]
        assert len(log(proj, "all")) == len(calls)
        assert [e["tool_input"]["command"] for e in log(proj, "post")] == ["npm test"]


@pytest.mark.slow
def test_an_if_rule_that_does_not_parse_skips_the_hook_visibly(tmp_path: Path) -> None:
    hooks = {
        "PreToolUse": [
            {"hooks": [rec("bad", **{"if": "Bash(git *) && Edit(src/**)"}), rec("good")]}
        ]
    }
    for proj, native in ways(tmp_path, hooks):
        args = (["--claude-settings"] if native else []) + [
            "fire",
            "BeforeTool",
            "--input",
            "-",
            "--json",
        ]
        r = hookwise(proj, *args, stdin=json.dumps(bash("git push")))
        res = json.loads(r.stdout)
        bad = [h for h in res["hooks"] if "bad" in h["command"]]
        assert [h["outcome"] for h in bad] == ["skipped"] and "exactly one rule" in bad[0]["error"]
        assert any("exactly one rule" in w for w in res["warnings"])
        assert (
            "exactly one rule" in r.stderr and "settings.json" in r.stderr
        )  # the load warning names the file
        assert log(proj, "bad") == [] and len(log(proj, "good")) == 1
        assert r.returncode == 0


@pytest.mark.slow
def test_if_on_other_events_never_runs(tmp_path: Path) -> None:
    proj = tmp_path / "p"
    gem = proj / ".gemini" / "settings.json"
    gem.parent.mkdir(parents=True)
    (proj / "rec.py").write_text(RECORDER)
    gem.write_text(
        json.dumps(
            {
                "hooks": {
                    "BeforeAgent": [
                        {
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": (
                                        f'{sys.executable} "$GEMINI_PROJECT_DIR/rec.py" agent'
                                    ),
                                    "if": "Bash",
                                }
                            ]
                        }
                    ]
                }
            }
        )
    )
    r = hookwise(proj, "fire", "BeforeAgent", "--prompt", "hi", "--json")
    assert json.loads(r.stdout)["hooks"] == [] and not (proj / "agent.log").exists()
    assert "never runs" in r.stderr
    v = hookwise(proj, "validate")
    assert "never runs" in v.stdout + v.stderr


@pytest.mark.slow
def test_async_hooks_run_in_the_background_and_cannot_block(tmp_path: Path) -> None:
    hooks = {"PreToolUse": [{"hooks": [rec("bg", **{"async": True}), rec("fg")]}]}
    env = {"EXIT_BG": "2", "ERR_BG": "no way"}
    for proj, native in ways(tmp_path, hooks):
        code, res = fire(proj, "BeforeTool", bash("git push"), native=native, env=env)
        assert code == 0 and res["decision"] == "allow", res
        assert [h["command"] for h in res["hooks"]] == [
            rec("fg")["command"].replace(
                "$CLAUDE_PROJECT_DIR", "$CLAUDE_PROJECT_DIR" if native else "$GEMINI_PROJECT_DIR"
            )
        ]
        # `fire` answers at once (issue 21 item 3): the hook's report if it finished by then, else a
        # note
        assert any(
            ("async hook" in w and "cannot do" in w)
            or "still running when hookwise fire answered" in w
            for w in res["warnings"]
        ), res["warnings"]
        assert len(log(proj, "bg")) <= 1


@pytest.mark.slow
def test_async_hooks_report_on_the_next_firing(tmp_path: Path) -> None:
    from hookwise import HookSystem

    proj = tmp_path / "p"
    (proj / ".gemini").mkdir(parents=True)
    (proj / "slow.py").write_text(
        "import sys, time\ntime.sleep(0.6)\nprint('boom', file=sys.stderr)\nsys.exit(1)\n"
    )
    (proj / ".gemini" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "BeforeTool": [
                        {
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": f'{sys.executable} "$GEMINI_PROJECT_DIR/slow.py"',
                                    "async": True,
                                    "name": "slow",
                                }
                            ]
                        }
                    ]
                }
            }
        )
    )
    with HookSystem(proj, trust_all=True) as hs:
        import time

        t0 = time.monotonic()
        first = hs.fire("BeforeTool", tool_name="run_shell_command", tool_input={"command": "ls"})
        assert time.monotonic() - t0 < 0.5 and first.hooks == [] and not first.blocked
        late = hs.wait_background()
        assert any("hook slow (BeforeTool) failed: exit code 1: boom (async)" in w for w in late), (
            late
        )
        hs.fire("BeforeTool", tool_name="run_shell_command", tool_input={"command": "ls"})
        second = hs.fire("BeforeTool", tool_name="run_shell_command", tool_input={"command": "ls"})
        assert second.warnings == []  # the first background run of this firing is not done yet
        time.sleep(1.5)
        third = hs.fire("SessionEnd", reason="exit")  # any later firing carries the reports
        assert sum("boom" in w for w in third.warnings) == 2


@pytest.mark.slow
def test_once_runs_until_the_first_success(tmp_path: Path) -> None:
    from hookwise import HookSystem

    proj = tmp_path / "p"
    (proj / ".gemini").mkdir(parents=True)
    (proj / "rec.py").write_text(RECORDER)
    (proj / ".gemini" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "BeforeTool": [
                        {
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": (
                                        f'{sys.executable} "$GEMINI_PROJECT_DIR/rec.py" once'
                                    ),
                                    "once": True,
                                }
                            ]
                        }
                    ]
                }
            }
        )
    )
    env = {**os.environ, "EXIT_ONCE": "1"}
    with HookSystem(proj, trust_all=True, env=env) as hs:
        for _ in range(2):  # fails: stays in place
            assert [
                h.outcome.value for h in hs.fire("BeforeTool", tool_name="x", tool_input={}).hooks
            ] == ["failed"]
        hs.env["EXIT_ONCE"] = "0"
    with HookSystem(proj, trust_all=True, env={**env, "EXIT_ONCE": "0"}) as hs:
        assert [
            h.outcome.value for h in hs.fire("BeforeTool", tool_name="x", tool_input={}).hooks
        ] == ["ok"]
        assert hs.fire("BeforeTool", tool_name="x", tool_input={}).hooks == []
        hs.reload()  # the same session: re-reading the settings does not make it run again
        assert hs.fire("BeforeTool", tool_name="x", tool_input={}).hooks == []
    assert len((proj / "once.log").read_text().splitlines()) == 3
    with HookSystem(
        proj, trust_all=True, env={**env, "EXIT_ONCE": "0"}
    ) as hs:  # a new session: runs again
        assert len(hs.fire("BeforeTool", tool_name="x", tool_input={}).hooks) == 1


@pytest.mark.slow
@pytest.mark.parametrize(("reply", "exit_code"), [("", "1"), ("{not json}", "0"), ("", "127")])
def test_on_failure_block(tmp_path: Path, reply: str, exit_code: str) -> None:
    hooks = {
        "PreToolUse": [{"hooks": [rec("guard", onFailure="block")]}],
        "PostToolUse": [{"hooks": [rec("open")]}],
    }
    env = {
        "REPLY_GUARD": reply,
        "EXIT_GUARD": exit_code,
        "REPLY_OPEN": reply,
        "EXIT_OPEN": exit_code,
    }
    for proj, native in ways(tmp_path, hooks):
        code, res = fire(proj, "BeforeTool", bash("ls"), native=native, env=env)
        assert code == 2 and res["decision"] == "deny" and "failed closed" in res["reason"], res
        code, res = fire(
            proj,
            "AfterTool",
            {**bash("ls"), "tool_response": {"llmContent": ""}},
            native=native,
            env=env,
        )
        assert code == 0 and res["hooks"][0]["outcome"] in ("failed", "not-run"), res
        assert res["warnings"], res


@pytest.mark.slow
def test_shell_powershell_runs_pwsh(tmp_path: Path) -> None:
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "pwsh").write_text(
        f"#!{sys.executable}\nimport json, sys\nsys.stdin.read()\n"
        "print(json.dumps({'systemMessage': ' '.join(sys.argv[1:])}))\n"
    )
    (fake / "pwsh").chmod(0o755)
    hooks = {
        "PreToolUse": [
            {"hooks": [{"type": "command", "command": "Write-Output hi", "shell": "powershell"}]}
        ]
    }
    env = {"PATH": f"{fake}{os.pathsep}{os.environ.get('PATH', '')}"}
    for proj, native in ways(tmp_path, hooks):
        code, res = fire(proj, "BeforeTool", bash("ls"), native=native, env=env)
        assert res["systemMessage"] == "-NoProfile -Command Write-Output hi", res


@pytest.mark.slow
def test_updated_tool_output_and_precompact_block_are_applied(tmp_path: Path) -> None:
    """issue 21 items 4 and 5 (the shapes and the reference host:
    tests/claude/test_claude_groundtruth.py)."""
    hooks = {"PostToolUse": [{"hooks": [rec("post")]}], "PreCompact": [{"hooks": [rec("compact")]}]}
    env = {
        "REPLY_POST": json.dumps(
            {
                "hookSpecificOutput": {
                    "hookEventName": "PostToolUse",
                    "updatedToolOutput": {"stdout": "[redacted]"},
                }
            }
        ),
        "EXIT_COMPACT": "2",
        "ERR_COMPACT": "not now",
    }
    for proj, native in ways(tmp_path, hooks):
        code, res = fire(
            proj,
            "AfterTool",
            {**bash("cat .env"), "tool_response": {"llmContent": "SECRET"}},
            native=native,
            env=env,
        )
        assert code == 0 and res["decision"] == "allow"
        assert any(
            "updatedToolOutput was dropped: the tool's result has no key 'stdout'" in w
            for w in res["warnings"]
        ), res
        assert "updatedToolOutput" not in (res["hookSpecificOutput"] or {})
        code, res = fire(proj, "PreCompress", {"trigger": "auto"}, native=native, env=env)
        assert code == 2 and res["decision"] in ("block", "deny") and res["reason"] == "not now"


@pytest.mark.slow
def test_stop_additional_context_continues_the_turn(tmp_path: Path) -> None:
    hooks = {"Stop": [{"hooks": [rec("stop")]}]}
    env = {
        "REPLY_STOP": json.dumps(
            {
                "hookSpecificOutput": {
                    "hookEventName": "Stop",
                    "additionalContext": "run the tests first",
                }
            }
        )
    }
    for proj, native in ways(tmp_path, hooks):
        code, res = fire(
            proj,
            "AfterAgent",
            {"prompt": "p", "prompt_response": "done", "stop_hook_active": False},
            native=native,
            env=env,
        )
        assert (
            code == 2 and res["decision"] == "block" and res["reason"] == "run the tests first"
        ), res


@pytest.mark.slow
@pytest.mark.parametrize(
    ("reply", "stderr", "reason"),
    [
        (
            {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": "from json",
                }
            },
            "from stderr",
            "from json",
        ),
        ({"decision": "block", "reason": "top level"}, "from stderr", "top level"),
        ({"systemMessage": "just saying"}, "from stderr", "from stderr"),
        (None, "only stderr", "only stderr"),
    ],
)
def test_exit_2_reason(tmp_path: Path, reply: Any, stderr: str, reason: str) -> None:
    hooks = {"PreToolUse": [{"hooks": [rec("g")]}]}
    env = {"EXIT_G": "2", "ERR_G": stderr, "REPLY_G": json.dumps(reply) if reply else ""}
    for proj, native in ways(tmp_path, hooks):
        code, res = fire(proj, "BeforeTool", bash("ls"), native=native, env=env)
        assert code == 2 and res["reason"] == reason, res


@pytest.mark.slow
def test_newer_input_fields_reach_the_hook(tmp_path: Path) -> None:
    hooks = {
        "PreToolUse": [{"hooks": [rec("pre")]}],
        "PostToolUse": [{"hooks": [rec("post")]}],
        "SessionStart": [{"hooks": [rec("start")]}],
    }
    for proj, native in ways(tmp_path, hooks):
        fire(
            proj,
            "BeforeTool",
            {**bash("ls"), "tool_use_id": "toolu_01", "permission_mode": "plan"},
            native=native,
        )
        fire(
            proj,
            "AfterTool",
            {
                **bash("ls"),
                "tool_use_id": "toolu_01",
                "duration_ms": 12,
                "tool_response": {"llmContent": "x"},
            },
            native=native,
        )
        fire(
            proj,
            "SessionStart",
            {"source": "startup", "model": "gemini-2.5-pro", "agent_type": "reviewer"},
            native=native,
        )
        fire(proj, "BeforeTool", {**bash("ls"), "duration_ms": 5, "model": "m"}, native=native)
        (pre, pre2), (post,), (start,) = log(proj, "pre"), log(proj, "post"), log(proj, "start")
        assert (
            "duration_ms" not in pre2 and "model" not in pre2
        )  # only where Claude Code sends them
        assert pre["tool_use_id"] == "toolu_01" and pre["permission_mode"] == "plan"
        assert post["tool_use_id"] == "toolu_01" and post["duration_ms"] == 12
        assert post["hook_event_name"] == "PostToolUse" and post["permission_mode"] == "default"
        assert start["model"] == "gemini-2.5-pro" and start["agent_type"] == "reviewer"


@pytest.mark.slow
def test_validate_and_list_show_the_keys(tmp_path: Path) -> None:
    proj = tmp_path / "p"
    gem = proj / ".gemini" / "settings.json"
    gem.parent.mkdir(parents=True)
    gem.write_text(
        json.dumps(
            {
                "hooks": {
                    "BeforeTool": [
                        {
                            "hooks": [
                                {"type": "command", "command": "a", "if": "Bash(git *"},
                                {
                                    "type": "command",
                                    "command": "b",
                                    "if": "Bash(git push *)",
                                    "async": True,
                                    "once": True,
                                    "shell": "powershell",
                                },
                                {"type": "command", "command": "c", "shell": "zsh", "async": "yes"},
                            ]
                        }
                    ]
                }
            }
        )
    )
    v = hookwise(proj, "validate")
    out = v.stdout + v.stderr
    assert "/hooks/BeforeTool/0/hooks/0/if" in out and "must end with ')'" in out
    assert (
        '"shell" must be "bash" or "powershell", got "zsh"' in out
        and '"async" must be true or false' in out
    )
    listed = json.loads(hookwise(proj, "list", "--json").stdout)
    rows = {h["command"]: h for h in listed["hooks"]}
    assert rows["a"]["if"] == "Bash(git *" and rows["b"]["if"] == "Bash(git push *)"
    assert rows["b"]["async"] is True and rows["b"]["once"] is True
    assert (
        "c" not in rows
    )  # a wrong shell or async value is an error: the hook is skipped, with the message
    assert any("zsh" in w for w in listed["warnings"])


@pytest.mark.slow
def test_fire_async_applies_if_and_async_too(tmp_path: Path) -> None:
    import asyncio

    from hookwise import HookSystem

    proj = tmp_path / "p"
    (proj / ".gemini").mkdir(parents=True)
    (proj / "rec.py").write_text(RECORDER)
    cmd = f'{sys.executable} "$GEMINI_PROJECT_DIR/rec.py"'
    (proj / ".gemini" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "BeforeTool": [
                        {
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": f"{cmd} push",
                                    "if": "Bash(git push *)",
                                },
                                {"type": "command", "command": f"{cmd} bg", "async": True},
                            ]
                        }
                    ]
                }
            }
        )
    )

    async def main() -> list[int]:
        with HookSystem(proj, trust_all=True) as hs:
            a = await hs.fire_async(
                "BeforeTool", tool_name="run_shell_command", tool_input={"command": "git push"}
            )
            b = await hs.fire_async(
                "BeforeTool", tool_name="run_shell_command", tool_input={"command": "ls"}
            )
            hs.wait_background()
            return [len(a.hooks), len(b.hooks)]

    assert asyncio.run(main()) == [1, 0]
    assert len((proj / "push.log").read_text().splitlines()) == 1
    assert len((proj / "bg.log").read_text().splitlines()) == 2
