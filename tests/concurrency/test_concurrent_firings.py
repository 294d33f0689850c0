"""100 concurrent firings (threads and asyncio tasks) with mixed hooks = the same results as one by
one.

Mixed hooks: command hooks that answer from their input (JSON, exit 2, exit 1,
a timeout), a plain Python hook and a coroutine hook, on three events, with
matchers. Every firing has its own input, so a result delivered to the wrong
firing, a lost hook output or a merge in completion order shows up as a
difference from the sequential baseline. One trace file is shared by all.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from faults._procs import marked_processes, wait_gone
from faults._stats import record
from hookwise import FireResult, HookSystem

N = 100
EVENTS = ["BeforeTool", "AfterTool", "BeforeAgent"]

# every command hook reads its input and answers from the firing's number n
READ_N = 'in=$(cat); [[ $in =~ \\"n\\":([0-9]+) ]]; n=${BASH_REMATCH[1]}; '
COMMANDS: dict[str, list[dict[str, Any]]] = {
    "BeforeTool": [
        {
            "matcher": ".*",
            "hooks": [
                {
                    "type": "command",
                    "name": "ctx",
                    "command": READ_N + 'echo "{\\"systemMessage\\": \\"A$n\\", '
                    '\\"hookSpecificOutput\\": {\\"additionalContext\\": \\"ctx$n\\"}}"',
                },
                {
                    "type": "command",
                    "name": "deny4",
                    "command": READ_N + "if (( n % 4 == 0 )); then "
                    'echo "{\\"decision\\": \\"deny\\", \\"reason\\": \\"B$n\\"}"; fi',
                },
            ],
        },
        {
            "matcher": "write_file",
            "hooks": [
                {
                    "type": "command",
                    "name": "exit2",
                    "command": READ_N + 'if (( n % 7 == 0 )); then echo "C$n" >&2; exit 2; fi',
                },
                {
                    "type": "command",
                    "name": "slow",
                    "timeout": 1000,
                    "command": READ_N + "if (( n % 10 == 0 )); then "
                    'exec sleep 30; fi; echo "{\\"hookSpecificOutput\\": {\\"tool_input\\": '
                    '{\\"slow\\": $n}}}"',
                },
            ],
        },
    ],
    "AfterTool": [
        {
            "hooks": [
                {
                    "type": "command",
                    "name": "fail5",
                    "command": READ_N + 'if (( n % 5 == 0 )); then echo "oops $n"; exit 1; '
                    'fi; echo "{\\"hookSpecificOutput\\": {\\"additionalContext\\": '
                    '\\"after$n\\"}}"',
                },
            ]
        }
    ],
    "BeforeAgent": [
        {
            "hooks": [
                {
                    "type": "command",
                    "name": "stop",
                    "command": READ_N + 'if (( n % 4 == 0 )); then echo "{\\"continue\\": '
                    'false, \\"stopReason\\": \\"S$n\\"}"; else echo '
                    '"{\\"hookSpecificOutput\\": {\\"additionalContext\\": '
                    '\\"agent$n\\"}}"; fi',
                },
            ]
        }
    ],
}


def n_of(inp: dict[str, Any]) -> int:
    if "tool_input" in inp:
        return int(inp["tool_input"]["n"])
    return int(json.loads(inp["prompt"])["n"])


def sync_hook(inp: dict[str, Any]) -> dict[str, Any] | None:
    n = n_of(inp)
    if n % 5 == 3:
        return {"decision": "ask", "reason": f"P{n}"}
    return {"systemMessage": f"py{n}"}


async def async_hook(inp: dict[str, Any]) -> dict[str, Any] | None:
    n = n_of(inp)
    await asyncio.sleep(random.random() / 100)
    if n % 9 == 0:
        raise RuntimeError(f"async{n}")
    return {"hookSpecificOutput": {"additionalContext": f"co{n}"}}


def firing(i: int) -> tuple[str, dict[str, Any]]:
    ev = EVENTS[i % 3]
    if ev == "BeforeAgent":
        return ev, {"prompt": json.dumps({"n": i})}
    tool = "write_file" if i % 2 == 0 else "read_file"
    payload: dict[str, Any] = {"tool_name": tool, "tool_input": {"n": i}}
    if ev == "AfterTool":
        payload["tool_response"] = {"llmContent": f"r{i}"}
    return ev, payload


def summary(r: FireResult) -> Any:
    return (
        r.event.value,
        r.output,
        [(h.name, h.outcome.value, h.output, h.exit_code, h.error) for h in r.hooks],
        r.warnings,
    )


@pytest.fixture(scope="module")
def system(tmp_path_factory: pytest.TempPathFactory) -> tuple[HookSystem, Path]:
    root = tmp_path_factory.mktemp("concurrency")
    project = root / "project"
    (project / ".gemini").mkdir(parents=True)
    (project / ".gemini" / "settings.json").write_text(json.dumps({"hooks": COMMANDS}))
    trace = root / "trace.jsonl"
    hs = HookSystem(
        project,
        trace=trace,
        trust_all=True,
        env={
            "PATH": "/usr/bin:/bin",
            "GEMINI_CLI_HOME": str(root / "home"),
            "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(root / "none.json"),
            "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(root / "none2.json"),
        },
    )
    for ev in EVENTS:
        hs.register(ev, sync_hook, name="py-sync")
        hs.register(ev, async_hook, name="py-async", timeout_ms=5000)
    assert not hs.warnings, hs.warnings
    return hs, trace


@pytest.fixture(scope="module")
def baseline(system: tuple[HookSystem, Path]) -> list[Any]:
    hs, _ = system
    return [summary(hs.fire(*firing(i))) for i in range(N)]


def check_trace(trace: Path, results: list[FireResult]) -> None:
    lines = trace.read_bytes().split(b"\n")
    assert lines[-1] == b""
    records = [json.loads(line) for line in lines[:-1]]  # every line is one valid JSON object
    assert all(isinstance(r, dict) and r["type"] == "hook_call" for r in records)
    assert len(records) == sum(len(r.hooks) for r in results)
    for rec in records:  # each record is self-consistent: its output belongs to its input
        inp = rec["hook_input"]
        n = n_of(inp)
        out = json.dumps(rec["hook_output"])
        for m in __import__("re").findall(r"[A-Za-z]+(\d+)", out):
            assert int(m) == n, (rec["hook_name"], n, out)
    trace.write_bytes(b"")


@pytest.mark.slow
def test_baseline_is_mixed(baseline: list[Any]) -> None:
    outcomes = {h[1] for s in baseline for h in s[2]}
    assert outcomes == {"ok", "blocked", "failed", "timeout"}
    decisions = {s[1].get("decision") for s in baseline}
    assert {"deny", "ask", "allow"} <= decisions
    assert any(s[1].get("continue") is False for s in baseline)


@pytest.mark.slow
def test_100_firings_on_threads_equal_one_by_one(
    system: tuple[HookSystem, Path], baseline: list[Any]
) -> None:
    hs, trace = system
    trace.write_bytes(b"")
    start = threading.Barrier(N)

    def one(i: int) -> FireResult:
        start.wait()
        return hs.fire(*firing(i))

    t0 = time.monotonic()
    with ThreadPoolExecutor(max_workers=N) as pool:
        results = list(pool.map(one, range(N)))
    assert time.monotonic() - t0 < 60
    assert [summary(r) for r in results] == baseline
    check_trace(trace, results)
    record("concurrent firings checked", N)
    assert not wait_gone(marked_processes())


@pytest.mark.slow
def test_100_firings_as_asyncio_tasks_equal_one_by_one(
    system: tuple[HookSystem, Path], baseline: list[Any]
) -> None:
    hs, trace = system
    trace.write_bytes(b"")

    async def main() -> list[FireResult]:
        return list(await asyncio.gather(*(hs.fire_async(*firing(i)) for i in range(N))))

    t0 = time.monotonic()
    results = asyncio.run(main())
    assert time.monotonic() - t0 < 60
    assert [summary(r) for r in results] == baseline
    check_trace(trace, results)
    record("concurrent firings checked", N)
    assert not wait_gone(marked_processes())


@pytest.mark.slow
def test_threads_and_tasks_at_the_same_time(
    system: tuple[HookSystem, Path], baseline: list[Any]
) -> None:
    hs, trace = system
    trace.write_bytes(b"")
    half = N // 2
    box: dict[str, list[FireResult]] = {}

    def threads() -> None:
        with ThreadPoolExecutor(max_workers=half) as pool:
            box["threads"] = list(pool.map(lambda i: hs.fire(*firing(i)), range(half)))

    async def tasks() -> None:
        box["tasks"] = list(
            await asyncio.gather(*(hs.fire_async(*firing(i)) for i in range(half, N)))
        )

    t = threading.Thread(target=threads)
    t.start()
    asyncio.run(tasks())
    t.join(120)
    results = box["threads"] + box["tasks"]
    assert [summary(r) for r in results] == baseline
    check_trace(trace, results)
    record("concurrent firings checked", N)


@pytest.mark.slow
def test_hanging_firings_do_not_delay_other_async_firings(tmp_path: Path) -> None:
    """fire_async gives each firing its own thread: no queue behind a pool of hung firings."""
    project = tmp_path / "p"
    (project / ".gemini").mkdir(parents=True)
    (project / ".gemini" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "BeforeTool": [
                        {
                            "matcher": "^slow$",
                            "hooks": [
                                {"type": "command", "command": "exec sleep 30", "timeout": 2000}
                            ],
                        },
                        {
                            "matcher": "^fast$",
                            "hooks": [
                                {"type": "command", "command": 'echo \'{"systemMessage": "fast"}\''}
                            ],
                        },
                    ]
                }
            }
        )
    )
    hs = HookSystem(
        project,
        trust_all=True,
        env={"PATH": "/usr/bin:/bin", "GEMINI_CLI_HOME": str(tmp_path / "h")},
    )

    async def main() -> tuple[float, list[FireResult]]:
        slow = [
            asyncio.ensure_future(hs.fire_async("BeforeTool", tool_name="slow", tool_input={}))
            for _ in range(12)
        ]
        await asyncio.sleep(0.2)
        t0 = time.monotonic()
        fast = await hs.fire_async("BeforeTool", tool_name="fast", tool_input={})
        took = time.monotonic() - t0
        assert fast.system_message == "fast"
        return took, list(await asyncio.gather(*slow))

    took, slow_results = asyncio.run(main())
    assert took < 1.5, f"a fast firing waited {took:.2f}s behind hung ones"
    assert all(r.hooks[0].outcome.value == "timeout" for r in slow_results)
    record("concurrent firings checked", 13)


@pytest.mark.slow
def test_trace_lines_stay_whole_with_large_records_from_many_threads(tmp_path: Path) -> None:
    project = tmp_path / "p"
    (project / ".gemini").mkdir(parents=True)
    (project / ".gemini" / "settings.json").write_text(
        json.dumps(
            {
                "hooks": {
                    "AfterTool": [
                        {
                            "hooks": [
                                {
                                    "type": "command",
                                    "name": "big",
                                    "command": "head -c 900000 /dev/zero | tr '\\0' x; echo",
                                },
                                {"type": "command", "name": "small", "command": "echo '{}'"},
                            ]
                        }
                    ]
                }
            }
        )
    )
    trace = tmp_path / "trace.jsonl"
    hs = HookSystem(
        project,
        trust_all=True,
        trace=trace,
        env={"PATH": "/usr/bin:/bin", "GEMINI_CLI_HOME": str(tmp_path / "h")},
    )
    with ThreadPoolExecutor(max_workers=24) as pool:
        results = list(
            pool.map(
                lambda i: hs.fire(
                    "AfterTool", tool_name="t", tool_input={"n": i}, tool_response={}
                ),
                range(24),
            )
        )
    lines = trace.read_bytes().split(b"\n")
    records = [json.loads(line) for line in lines[:-1]]
    assert len(records) == 48 and lines[-1] == b""
    assert sorted(r["hook_input"]["tool_input"]["n"] for r in records) == sorted(
        list(range(24)) * 2
    )
    assert all(len(r["stdout"]) == 900_001 for r in records if r["hook_name"] == "big")
    assert all(r.hooks[0].outcome.value == "ok" for r in results)
    record("concurrent firings checked", 24)
