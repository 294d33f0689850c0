"""Persistent hooks (``"persistent": true``): one process, one JSON line per event, same answers as
one-shot."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from hookwise import HookSystem

# One script, two modes: one-shot (reads stdin to EOF, answers with exit code and streams) and
# persistent (one line in, one line out; the exit-code form is sent as {"exitCode", "stdout",
# "stderr"}).
DUAL = textwrap.dedent("""
    import json, os, sys, time

    def answer(d):
        mode = d.get("tool_input", {}).get("mode", "allow")
        pid = os.getpid()
        if mode == "allow":
            return 0, json.dumps({"decision": "allow", "systemMessage": "ok " + d["tool_name"]}), ""
        if mode == "deny":
            return 0, json.dumps({"decision": "deny", "reason": "no " + d["tool_name"]}), ""
        if mode == "ask":
            return 0, json.dumps({"decision": "ask", "reason": "sure?"}), ""
        if mode == "rewrite":
            ti = dict(d["tool_input"], extra=1)
            return 0, json.dumps({"hookSpecificOutput": {"tool_input": ti}}), ""
        if mode == "block2":
            return 2, "", "blocked by 2"
        if mode == "block2json":
            return 2, json.dumps({"decision": "allow", "systemMessage": "m"}), "err"
        if mode == "fail1":
            return 1, "oops", "trace line"
        if mode == "fail1json":
            return 1, json.dumps({"decision": "deny", "reason": "r"}), ""
        if mode == "empty":
            return 0, "", ""
        if mode == "gone":
            return 127, "", "x: command not found"
        if mode == "pid":
            return 0, json.dumps({"systemMessage": str(pid)}), ""
        if mode == "crash":
            sys.exit(3)
        if mode == "sleep":
            time.sleep(30)
        if mode == "chatty":
            sys.stderr.write("log for " + d["tool_name"] + "\\n")
            sys.stderr.flush()
            return 0, json.dumps({"decision": "allow"}), ""
        if mode == "text":
            return None, "hello world", ""
        raise SystemExit("unknown mode " + mode)

    if "--persistent" in sys.argv:
        for line in sys.stdin:
            code, out, err = answer(json.loads(line))
            if code is None:
                sys.stdout.write(out + "\\n")
            elif code == 0 and out:
                sys.stdout.write(out + "\\n")
            else:
                said = {"exitCode": code, "stdout": out, "stderr": err}
                sys.stdout.write(json.dumps(said) + "\\n")
            sys.stdout.flush()
    else:
        code, out, err = answer(json.load(sys.stdin))
        sys.stdout.write(out)
        sys.stderr.write(err)
        sys.exit(code or 0)
""")


@pytest.fixture
def dual(project: Any) -> Any:
    path = project.root / "dual.py"
    path.write_text(DUAL)
    project.cmd = f'{sys.executable} "$GEMINI_PROJECT_DIR/dual.py"'
    return project


def system(
    project: Any,
    persistent: bool,
    *,
    timeout: int = 10000,
    extra: list[dict[str, Any]] | None = None,
    sequential: bool = False,
) -> HookSystem:
    hook = {
        "type": "command",
        "name": "dual",
        "timeout": timeout,
        "command": project.cmd + (" --persistent" if persistent else ""),
    }
    if persistent:
        hook["persistent"] = True
    project.hooks("BeforeTool", hook, *(extra or []), sequential=sequential)
    return HookSystem(project.root, trust_all=True, session_id="s")


def comparable(result: Any) -> dict[str, Any]:
    j = result.to_json()
    j["hooks"] = [
        {k: h[k] for k in ("name", "outcome", "exitCode", "output", "error")} for h in j["hooks"]
    ]
    return j


MODES = [
    "allow",
    "deny",
    "ask",
    "rewrite",
    "block2",
    "block2json",
    "fail1",
    "fail1json",
    "empty",
    "gone",
]


@pytest.mark.slow
def test_answers_equal_the_one_shot_form(dual: Any) -> None:
    one_shot = system(dual, False)
    one = {
        m: comparable(one_shot.fire("BeforeTool", tool_name="t", tool_input={"mode": m}))
        for m in MODES
    }
    with system(dual, True) as hs:
        for m in MODES:
            got = comparable(hs.fire("BeforeTool", tool_name="t", tool_input={"mode": m}))
            assert got == one[m], m
        assert len(hs._pool.pids()) == 1  # every answer above came from one process


def test_one_process_serves_every_event(dual: Any) -> None:
    with system(dual, True) as hs:
        pids = {
            hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "pid"}).system_message
            for _ in range(20)
        }
        assert len(pids) == 1
        assert hs._pool.pids() == [int(pids.pop() or 0)]


@pytest.mark.slow
def test_crash_is_the_one_shot_outcome_then_restart_with_warning(dual: Any) -> None:
    with system(dual, True) as hs:
        first = hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "pid"}).system_message
        crash = hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "crash"})
        h = crash.hooks[0]
        assert h.outcome.value == "failed" and h.exit_code == 3
        assert any("exited while handling an event" in w for w in crash.warnings)
        after = hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "pid"})
        assert after.hooks[0].outcome.value == "ok" and after.system_message != first


@pytest.mark.slow
def test_process_that_died_between_events_is_restarted_visibly(dual: Any) -> None:
    with system(dual, True) as hs:
        hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "pid"})
        (pid,) = hs._pool.pids()
        os.kill(pid, 9)
        time.sleep(0.05)
        r = hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "pid"})
        assert r.hooks[0].outcome.value == "ok" and r.system_message != str(pid)
        assert any("had exited" in w and "restarted" in w for w in r.warnings)


@pytest.mark.slow
def test_timeout_kills_and_the_next_event_gets_a_fresh_process(dual: Any) -> None:
    with system(dual, True, timeout=500) as hs:
        t0 = time.monotonic()
        r = hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "sleep"})
        assert time.monotonic() - t0 < 10
        assert r.hooks[0].outcome.value == "timeout" and not r.blocked
        assert any("timed out after 500 ms" in w for w in r.warnings)
        ok = hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "allow"})
        assert ok.hooks[0].outcome.value == "ok" and ok.system_message == "ok t"


def test_fail_closed_applies_to_persistent_timeouts(dual: Any) -> None:
    hook = {
        "type": "command",
        "name": "dual",
        "timeout": 300,
        "command": dual.cmd + " --persistent",
        "persistent": True,
        "failClosed": True,
    }
    dual.hooks("BeforeTool", hook)
    with HookSystem(dual.root, trust_all=True) as hs:
        r = hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "sleep"})
        assert r.blocked and "failed closed" in (r.reason or "")


@pytest.mark.slow
def test_a_text_line_is_a_visible_failure_never_an_allow(dual: Any) -> None:
    with system(dual, True) as hs:
        r = hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "text"})
        h = r.hooks[0]
        assert h.outcome.value == "failed" and "protocol error" in (h.error or "")
        assert r.warnings and h.output is None
        assert (
            hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "allow"}).system_message
            == "ok t"
        )


def test_stderr_of_each_event_is_kept(dual: Any) -> None:
    with system(dual, True) as hs:
        r = hs.fire("BeforeTool", tool_name="first", tool_input={"mode": "chatty"})
        r2 = hs.fire("BeforeTool", tool_name="second", tool_input={"mode": "chatty"})
        assert "log for first" in r.hooks[0].stderr
        assert "log for second" in r2.hooks[0].stderr and "first" not in r2.hooks[0].stderr


def test_large_input_round_trip(dual: Any) -> None:
    with system(dual, True) as hs:
        big = {"mode": "rewrite", "content": "x" * 300_000}
        r = hs.fire("BeforeTool", tool_name="t", tool_input=big)
        assert r.tool_input == {**big, "extra": 1}


@pytest.mark.slow
def test_mixed_with_one_shot_hooks_in_plan_order(dual: Any) -> None:
    extra = [
        {
            "type": "command",
            "name": "plain",
            "command": 'cat > /dev/null; echo \'{"systemMessage": "plain"}\'',
        }
    ]
    with system(dual, True, extra=extra) as hs:
        r = hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "allow"})
        assert [h.name for h in r.hooks] == ["dual", "plain"]
        assert r.system_message == "ok t\nplain"


@pytest.mark.slow
def test_sequential_chain_sees_the_rewritten_input(dual: Any) -> None:
    second = {
        "type": "command",
        "name": "second",
        "persistent": True,
        "command": dual.cmd + " --persistent --second",
    }
    with system(dual, True, extra=[second], sequential=True) as hs:
        r = hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "rewrite"})
        assert r.tool_input == {"mode": "rewrite", "extra": 1}
        assert len(hs._pool.pids()) == 2


@pytest.mark.slow
def test_fire_async_and_threads_share_the_process(dual: Any) -> None:
    import threading

    with system(dual, True) as hs:

        async def main() -> list[Any]:
            return list(
                await asyncio.gather(
                    *(
                        hs.fire_async("BeforeTool", tool_name=f"t{i}", tool_input={"mode": "allow"})
                        for i in range(8)
                    )
                )
            )

        results = asyncio.run(main())
        assert [r.system_message for r in results] == [f"ok t{i}" for i in range(8)]
        got: list[str | None] = []
        threads = [
            threading.Thread(
                target=lambda i=i: got.append(
                    hs.fire(
                        "BeforeTool", tool_name=f"x{i}", tool_input={"mode": "allow"}
                    ).system_message
                )
            )
            for i in range(6)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(m or "" for m in got) == sorted(f"ok x{i}" for i in range(6))
        assert len(hs._pool.pids()) == 1


@pytest.mark.slow
def test_close_stops_the_processes(dual: Any) -> None:
    hs = system(dual, True)
    hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "allow"})
    (pid,) = hs._pool.pids()
    hs.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and Path(f"/proc/{pid}").exists():
        time.sleep(0.02)
    assert (
        not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]
    )
    # a closed system starts its hooks again when fired
    assert (
        hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "allow"}).system_message == "ok t"
    )
    hs.close()


def test_untrusted_persistent_hook_does_not_start(dual: Any) -> None:
    hook = {
        "type": "command",
        "name": "dual",
        "command": dual.cmd + " --persistent",
        "persistent": True,
    }
    dual.hooks("BeforeTool", hook)
    with HookSystem(dual.root) as hs:
        r = hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "allow"})
        assert r.hooks[0].outcome.value == "skipped"
        assert hs._pool is None


def test_start_failure_is_not_run(project: Any) -> None:
    project.hooks(
        "BeforeTool",
        {"type": "command", "name": "missing", "command": "./no-such-hook", "persistent": True},
    )
    with HookSystem(project.root, trust_all=True) as hs:
        r = hs.fire("BeforeTool", tool_name="t", tool_input={})
        assert r.hooks[0].outcome.value == "not-run" and r.warnings


def test_shell_persistent_hook(project: Any) -> None:
    cmd = 'while IFS= read -r line; do echo \'{"decision":"deny","reason":"sh"}\'; done'
    project.hooks(
        "BeforeTool", {"type": "command", "name": "sh", "command": cmd, "persistent": True}
    )
    with HookSystem(project.root, trust_all=True) as hs:
        for _ in range(3):
            r = hs.fire("BeforeTool", tool_name="t", tool_input={"x": json.dumps({"a": "\n"})})
            assert r.blocked and r.reason == "sh"
        assert len(hs._pool.pids()) == 1


@pytest.mark.slow
def test_reload_restarts_persistent_hooks(dual: Any) -> None:
    with system(dual, True) as hs:
        first = hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "pid"}).system_message
        hs.reload()
        assert hs._pool is None
        second = hs.fire("BeforeTool", tool_name="t", tool_input={"mode": "pid"}).system_message
        assert first and second and first != second
        assert len(hs._pool.pids()) == 1
