#!/usr/bin/env python3
"""hookwise dispatch benchmark, side by side with the reference (../shared/bench/anchor/).

Runs hookwise through its public API (``HookSystem.fire``) on the anchor's
scenario ids a-f, plus scenarios the reference lacks, and measures the floors
(raw spawn of the same command) in the same process. Writes the JSON that the
anchor's ``run.sh`` / ``summarize.py`` expect to ``$BENCH_JSON``:

    IMPL_BENCH="python3 bench/bench_hookwise.py" bash ../shared/bench/anchor/run.sh 3   # from the project root

When run by ``run.sh``, the reference's results of the same run (``node-<r>.json``
next to ``$BENCH_JSON``) are read and every target is printed with its ratio.
Alone: ``python3 bench/bench_hookwise.py`` (targets against the reference are
then shown as "n/a").

Env: BENCH_N (200), BENCH_K (20), BENCH_N_PY (50), BENCH_K_PY (5) as in the
anchor; BENCH_MEM_N (10000) firings for the memory scenario; BENCH_STREAMS (3)
500-chunk streams per AfterModel variant; BENCH_ONLY (comma-separated ids or
prefixes) to run a subset; BENCH_JSON (output file).

Never used by the test-suite: timing targets live here, not in tests.
"""

from __future__ import annotations

import asyncio
import gc
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import Any

N = int(os.environ.get("BENCH_N", "200"))
K = int(os.environ.get("BENCH_K", "20"))
N_PY = int(os.environ.get("BENCH_N_PY", "50"))
K_PY = int(os.environ.get("BENCH_K_PY", "5"))
MEM_N = int(os.environ.get("BENCH_MEM_N", "10000"))
STREAMS = int(os.environ.get("BENCH_STREAMS", "3"))
ONLY = [s for s in os.environ.get("BENCH_ONLY", "").split(",") if s]

WORK = tempfile.mkdtemp(prefix="hookwise-bench-")
os.environ["GEMINI_CLI_HOME"] = os.path.join(WORK, "home")  # never touch the real ~/.gemini
os.makedirs(os.environ["GEMINI_CLI_HOME"], exist_ok=True)
for _v in ("GITHUB_SHA", "SURFACE"):  # as run.sh: measure the default (non-CI) environment policy
    os.environ.pop(_v, None)

T_IMP0 = time.perf_counter()
from hookwise import HookSystem  # noqa: E402

IMPORT_MS = (time.perf_counter() - T_IMP0) * 1000

PY = sys.executable
TOOL = "run_shell_command"
SMALL_INPUT = {"command": "ls -la", "description": "List files"}
BIG_INPUT = {"command": "cat big.txt", "content": "x" * (100 * 1024)}
CMD_A = "true"
CMD_B = 'cat > /dev/null; echo \'{"decision":"allow"}\''
PY_HOOK = os.path.join(WORK, "hook.py")
with open(PY_HOOK, "w") as f:
    f.write(
        'import json, sys\njson.load(sys.stdin)\nsys.stdout.write(json.dumps({"decision": "allow"}) + "\\n")\n'
    )
CMD_C = f"{PY} {PY_HOOK}"
PERSIST_PY = os.path.join(WORK, "persist.py")
with open(PERSIST_PY, "w") as f:
    f.write(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    json.loads(line)\n"
        '    sys.stdout.write(\'{"decision": "allow"}\\n\')\n'
        "    sys.stdout.flush()\n"
    )
PERSIST_SH = 'while IFS= read -r line; do echo \'{"decision":"allow"}\'; done'

RESULTS: list[dict[str, Any]] = []
TARGETS: list[tuple[str, str, float | None, float | None, float, str, float]] = []


# ------------------------------------------------------------------------------------------- helpers
def wanted(id_: str) -> bool:
    return not ONLY or any(id_ == o or id_.startswith(o) for o in ONLY)


def stats(samples: list[float]) -> dict[str, float]:
    s = sorted(samples)
    n = len(s)

    def q(p: float) -> float:
        return s[min(n - 1, max(0, math.ceil(p * n) - 1))]

    return {
        "n": n,
        "median": statistics.median(s),
        "p95": q(0.95),
        "min": s[0],
        "max": s[-1],
        "mean": sum(s) / n,
    }


def report(id_: str, label: str, st: dict[str, Any], unit: str = "ms") -> dict[str, Any]:
    RESULTS.append({"id": id_, "label": label, **st})
    if unit == "us":
        print(
            f"{id_:<14} {label:<60} n={st['n']:>5}  median {st['median'] * 1000:8.2f} us   "
            f"p95 {st['p95'] * 1000:8.2f} us",
            flush=True,
        )
    else:
        print(
            f"{id_:<14} {label:<60} n={st['n']:>5}  median {st['median']:8.2f} ms   p95 {st['p95']:8.2f} ms   "
            f"min {st['min']:7.2f} ms",
            flush=True,
        )
    return st


def measure(fn: Callable[[], Any], k: int = K, n: int = N) -> dict[str, float]:
    for _ in range(k):
        fn()
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return stats(out)


def measure_batched(
    fn: Callable[[], Any], batch: int = 1000, n: int = N, k: int = 5
) -> dict[str, float]:
    """Per-call time (ms) of a fast call: each sample is the mean over ``batch`` calls."""
    for _ in range(k * batch // 10):
        fn()
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        out.append((time.perf_counter() - t0) * 1000 / batch)
    st = stats(out)
    st["n"] = n * batch
    return st


def paired(
    fa: Callable[[], Any], fb: Callable[[], Any], n: int, k: int, batch: int = 1
) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """``fa`` and ``fb`` interleaved sample by sample (alternating which goes first): stats of a, b and a/b."""

    def one(fn: Callable[[], Any]) -> float:
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        return (time.perf_counter() - t0) * 1000 / batch

    for _ in range(k):
        one(fa)
        one(fb)
    sa: list[float] = []
    sb: list[float] = []
    for i in range(n):
        if i % 2:
            b_ = one(fb)
            a_ = one(fa)
        else:
            a_ = one(fa)
            b_ = one(fb)
        sa.append(a_)
        sb.append(b_)
    return stats(sa), stats(sb), stats([x / y for x, y in zip(sa, sb, strict=True)])


def ameasure(fn: Callable[[], Awaitable[Any]], k: int = K, n: int = N) -> dict[str, float]:
    async def go() -> dict[str, float]:
        for _ in range(k):
            await fn()
        out = []
        for _ in range(n):
            t0 = time.perf_counter()
            await fn()
            out.append((time.perf_counter() - t0) * 1000)
        return stats(out)

    return asyncio.run(go())


def project(defs: dict[str, Any], hooks_config: dict[str, Any] | None = None) -> str:
    d = tempfile.mkdtemp(prefix="proj-", dir=WORK)
    os.makedirs(os.path.join(d, ".gemini"))
    doc: dict[str, Any] = {"hooks": defs}
    if hooks_config:
        doc["hooksConfig"] = hooks_config
    with open(os.path.join(d, ".gemini", "settings.json"), "w") as f:
        json.dump(doc, f)
    return d


def hook_system(defs: list[dict[str, Any]], event: str = "BeforeTool", **kw: Any) -> HookSystem:
    hs = HookSystem(project({event: defs}), trust_all=True, session_id="anchor-bench-session", **kw)
    assert not hs.warnings, hs.warnings
    return hs


def cmd(command: str, name: str | None = None, **extra: Any) -> dict[str, Any]:
    h: dict[str, Any] = {"type": "command", "command": command}
    if name:
        h["name"] = name
    h.update(extra)
    return h


def definition(hooks: list[dict[str, Any]], **extra: Any) -> list[dict[str, Any]]:
    return [{"matcher": TOOL, "hooks": hooks, **extra}]


def validate(
    hs: HookSystem, tool_input: dict[str, Any], n_hooks: int, label: str, tool: str = TOOL
) -> None:
    r = hs.fire("BeforeTool", tool_name=tool, tool_input=tool_input)
    bad = [h for h in r.hooks if h.outcome.value != "ok"]
    if len(r.hooks) != n_hooks or bad or r.warnings:
        problems = [(h.name, h.outcome, h.error) for h in bad]
        raise SystemExit(
            f"{label}: validation failed: {len(r.hooks)} hooks, {problems}, {r.warnings}"
        )
    if n_hooks and any(h.output for h in r.hooks) and r.decision != "allow":
        raise SystemExit(f"{label}: decision {r.decision}")


def scenario(hs: HookSystem, tool_input: dict[str, Any], expect_allow: bool) -> Callable[[], None]:
    def go() -> None:
        r = hs.fire("BeforeTool", tool_name=TOOL, tool_input=tool_input)
        if expect_allow and r.output.get("decision") != "allow":
            raise RuntimeError(f"unexpected hook output: {r.output} {r.warnings}")

    return go


def event_json(tool_input: dict[str, Any]) -> bytes:
    return json.dumps(
        {
            "session_id": "anchor-bench-session",
            "transcript_path": "",
            "cwd": WORK,
            "hook_event_name": "BeforeTool",
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
            "tool_name": TOOL,
            "tool_input": tool_input,
        }
    ).encode()


def raw_bash(command: str, tool_input: dict[str, Any]) -> Callable[[], Awaitable[None]]:
    """The floor: asyncio spawn of ``bash -c command`` with the event on stdin, output collected."""

    async def go() -> None:
        proc = await asyncio.create_subprocess_exec(
            "bash",
            "-c",
            command,
            cwd=WORK,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        so, se = await proc.communicate(event_json(tool_input))
        if proc.returncode != 0:
            raise RuntimeError(f"exit {proc.returncode}: {se!r}")
        text = so.decode().strip()
        if text:
            json.loads(text)

    return go


def rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def target(
    name: str,
    what: str,
    value: float | None,
    base: float | None,
    factor: float,
    unit: str,
    offset: float = 0.0,
) -> None:
    """Record ``value <= factor * base + offset`` (the base may come from the reference or a floor)."""
    TARGETS.append((name, what, value, base, factor, unit, offset))


# ------------------------------------------------------------------------------------------- scenarios
def by_id(id_: str) -> dict[str, Any] | None:
    return next((r for r in RESULTS if r["id"] == id_), None)


def med(id_: str) -> float | None:
    r = by_id(id_)
    return None if r is None else float(r["median"])


def anchor_scenarios() -> None:
    hs_a = hook_system(definition([cmd(CMD_A)]))
    hs_b = hook_system(definition([cmd(CMD_B)]))
    hs_c = hook_system(definition([cmd(CMD_C)]))
    ten = [cmd(CMD_B, f"b-{i + 1}") for i in range(10)]
    hs_d = hook_system(definition(ten))
    hs_e = hook_system(definition(ten, sequential=True))
    for hs, inp, n, label in (
        (hs_a, SMALL_INPUT, 1, "a"),
        (hs_b, SMALL_INPUT, 1, "b"),
        (hs_c, SMALL_INPUT, 1, "c"),
        (hs_d, SMALL_INPUT, 10, "d"),
        (hs_e, SMALL_INPUT, 10, "e"),
        (hs_b, BIG_INPUT, 1, "f"),
    ):
        validate(hs, inp, n, label)
    if wanted("a"):
        report("a", "hook: 1x `true`", measure(scenario(hs_a, SMALL_INPUT, False)))
    if wanted("b"):
        report(
            "b", "hook: 1x cat>/dev/null; echo allow", measure(scenario(hs_b, SMALL_INPUT, True))
        )
    if wanted("c"):
        report(
            "c",
            "hook: 1x python3 hook.py (json in/out; direct exec)",
            measure(scenario(hs_c, SMALL_INPUT, True), K_PY, N_PY),
        )
    if wanted("d"):
        report("d", "hook: 10x (b) parallel", measure(scenario(hs_d, SMALL_INPUT, True)))
    if wanted("e"):
        report(
            "e",
            "hook: 10x (b) sequential",
            measure(scenario(hs_e, SMALL_INPUT, True), max(3, K // 4), max(20, N // 4)),
        )
    if wanted("f"):
        report("f", "hook: 1x (b), 100 KB tool_input", measure(scenario(hs_b, BIG_INPUT, True)))

    # floors: raw asyncio spawn of the same commands, in this process (no hook machinery)
    if wanted("floor"):
        report(
            "floor-a",
            "floor: asyncio bash -c `true` + stdin/stdout",
            ameasure(raw_bash(CMD_A, SMALL_INPUT)),
        )
        report(
            "floor-b",
            "floor: asyncio bash -c (b) + stdin/stdout",
            ameasure(raw_bash(CMD_B, SMALL_INPUT)),
        )
        report(
            "floor-c",
            "floor: asyncio bash -c 'python3 hook.py'",
            ameasure(raw_bash(CMD_C, SMALL_INPUT), K_PY, N_PY),
        )
        report(
            "floor-f",
            "floor: asyncio bash -c (b), 100 KB stdin",
            ameasure(raw_bash(CMD_B, BIG_INPUT)),
        )

    # paired, interleaved: hookwise (b) and the raw asyncio floor (b) alternate, so drift hits both
    if wanted("x"):
        hook = scenario(hs_b, SMALL_INPUT, True)
        raw = raw_bash(CMD_B, SMALL_INPUT)

        async def paired() -> tuple[list[float], list[float]]:
            for _ in range(K):
                hook()
                await raw()
            hs_: list[float] = []
            rs_: list[float] = []
            for i in range(N):
                for which in ("r", "h") if i % 2 else ("h", "r"):
                    t0 = time.perf_counter()
                    if which == "h":
                        hook()
                    else:
                        await raw()
                    (hs_ if which == "h" else rs_).append((time.perf_counter() - t0) * 1000)
            return hs_, rs_

        h_s, r_s = asyncio.run(paired())
        report("x-b", "paired: hookwise (b)", stats(h_s))
        report("x-floor-b", "paired: raw asyncio floor (b)", stats(r_s))
        report(
            "x-ratio",
            "paired: per-pair ratio hookwise/floor (b)",
            stats([h / r for h, r in zip(h_s, r_s, strict=True)]),
        )

    # the same command with bash forced (shows what direct exec saves); a direct-exec `/bin/true` hook
    if wanted("c-bash"):
        hs_cb = hook_system(definition([cmd(CMD_C)]))
        hs_cb.direct_spawn = False
        report(
            "c-bash",
            "hook: (c) with bash -c forced (no direct exec)",
            measure(scenario(hs_cb, SMALL_INPUT, True), K_PY, N_PY),
        )
    if wanted("g"):
        hs_g = hook_system(definition([cmd("/bin/true")]))
        report(
            "g-direct",
            "hook: 1x /bin/true (direct exec)",
            measure(scenario(hs_g, SMALL_INPUT, False)),
        )
        hs_g2 = hook_system(definition([cmd("/bin/true")]))
        hs_g2.direct_spawn = False
        report(
            "g-bash", "hook: 1x /bin/true via bash -c", measure(scenario(hs_g2, SMALL_INPUT, False))
        )

        def pspawn() -> None:
            pid = os.posix_spawn("/bin/true", ["/bin/true"], os.environ)
            os.waitpid(pid, 0)

        report("floor-pspawn", "floor: os.posix_spawn /bin/true + waitpid", measure(pspawn))


def in_process_scenarios() -> None:
    if wanted("nomatch"):
        hs = hook_system(definition([cmd(CMD_B)]))
        validate(hs, SMALL_INPUT, 0, "nomatch", tool="read_file")

        def fire_nm() -> None:
            hs.fire("BeforeTool", tool_name="read_file", tool_input=SMALL_INPUT)

        report(
            "nomatch", "no matching hook (1 configured, other tool)", measure_batched(fire_nm), "us"
        )
        hs0 = HookSystem(project({}), trust_all=True)
        report(
            "nohooks",
            "no hooks configured at all",
            measure_batched(
                lambda: hs0.fire("BeforeTool", tool_name="read_file", tool_input=SMALL_INPUT)
            ),
            "us",
        )
    if wanted("py1") or wanted("k1000"):
        hs = HookSystem(project({}), trust_all=True)
        hs.register("BeforeTool", lambda inp: {"decision": "allow"}, name="allow", matcher=TOOL)
        validate(hs, SMALL_INPUT, 1, "py1")
        report(
            "py1",
            "one in-process Python hook (on a worker, the default)",
            measure_batched(scenario(hs, SMALL_INPUT, True), batch=200),
            "us",
        )
        hs_in = HookSystem(project({}), trust_all=True)
        hs_in.register(
            "BeforeTool", lambda inp: {"decision": "allow"}, name="allow", matcher=TOOL, inline=True
        )
        validate(hs_in, SMALL_INPUT, 1, "py1-inline")
        report(
            "py1-inline",
            "one in-process Python hook, register(..., inline=True)",
            measure_batched(scenario(hs_in, SMALL_INPUT, True), batch=200),
            "us",
        )
    if wanted("k1000"):
        hs = HookSystem(project({}), trust_all=True)
        for i in range(999):
            hs.register(
                "BeforeTool",
                lambda inp: {"decision": "allow"},
                name=f"other-{i}",
                matcher=f"tool_{i}",
            )
        hs.register("BeforeTool", lambda inp: {"decision": "allow"}, name="allow", matcher=TOOL)
        validate(hs, SMALL_INPUT, 1, "k1000-py")
        report(
            "k1000-py",
            "1000 Python hooks, one matches",
            measure_batched(scenario(hs, SMALL_INPUT, True), batch=200),
            "us",
        )
        one = HookSystem(project({}), trust_all=True)
        one.register("BeforeTool", lambda inp: {"decision": "allow"}, name="allow", matcher=TOOL)
        pk, p1, pr = paired(
            scenario(hs, SMALL_INPUT, True), scenario(one, SMALL_INPUT, True), N, 5, batch=100
        )
        report("xk-py-1000", "paired: 1000 Python hooks, one matches", pk, "us")
        report("xk-py-1", "paired: one Python hook", p1, "us")
        report("xk-py-ratio", "paired: per-pair ratio 1000 hooks / 1 hook (Python)", pr)
        # 1000 hooks configured in a settings file, one (b) matches
        defs = [{"matcher": f"tool_{i}", "hooks": [cmd(f"echo {i}", f"h{i}")]} for i in range(999)]
        defs += definition([cmd(CMD_B)])
        hs_k = hook_system(defs)
        validate(hs_k, SMALL_INPUT, 1, "k1000")
        hs_1 = hook_system(definition([cmd(CMD_B)]))
        ck, c1, cr = paired(
            scenario(hs_k, SMALL_INPUT, True), scenario(hs_1, SMALL_INPUT, True), N, K
        )
        report("k1000", "1000 command hooks configured, one (b) matches (paired with b)", ck)
        report("xk-b", "paired: 1 command hook (b)", c1)
        report("xk-ratio", "paired: per-pair ratio 1000 hooks / 1 hook (b)", cr)
        # planning for a tool name never seen before (plan cache miss): 1000 matchers tested once
        counter = iter(range(10**9))
        report(
            "k1000-cold",
            "1000 hooks: first firing for a new tool name (no match)",
            measure_batched(
                lambda: hs_k.fire(
                    "BeforeTool", tool_name=f"unseen{next(counter)}", tool_input=SMALL_INPUT
                ),
                batch=20,
                n=100,
            ),
            "us",
        )


def persistent_scenarios() -> None:
    if not wanted("pers"):
        return
    hs = hook_system(definition([cmd(f"{PY} {PERSIST_PY}", "persist-py", persistent=True)]))
    validate(hs, SMALL_INPUT, 1, "pers-py")
    report(
        "pers-py",
        "persistent Python hook, one JSON line per event",
        measure(scenario(hs, SMALL_INPUT, True), K, max(N, 1000)),
    )
    report(
        "pers-py-f",
        "persistent Python hook, 100 KB tool_input",
        measure(scenario(hs, BIG_INPUT, True)),
    )
    hs.close()
    hs2 = hook_system(definition([cmd(PERSIST_SH, "persist-sh", persistent=True)]))
    validate(hs2, SMALL_INPUT, 1, "pers-sh")
    report(
        "pers-sh",
        "persistent bash `while read` hook",
        measure(scenario(hs2, SMALL_INPUT, True), K, max(N, 1000)),
    )
    hs2.close()


CHUNK_WORDS = ["The ", "quick ", "brown ", "fox ", "jumps ", "over ", "the ", "lazy ", "dog. "]
LLM_REQUEST = {
    "model": "gemini-2.5-flash",
    "messages": [{"role": "user", "content": "Tell me a story."}],
    "config": {"temperature": 0.7},
}


def chunk_response(i: int) -> dict[str, Any]:
    t = CHUNK_WORDS[i % len(CHUNK_WORDS)]
    return {"text": t, "candidates": [{"content": {"role": "model", "parts": [t]}, "index": 0}]}


def after_model_scenarios() -> None:
    if not wanted("am"):
        return
    chunks = [chunk_response(i) for i in range(500)]
    whole_text = "".join(c["text"] for c in chunks)
    whole = {
        "text": whole_text,
        "candidates": [
            {
                "content": {"role": "model", "parts": [whole_text]},
                "finishReason": "STOP",
                "index": 0,
            }
        ],
    }

    def per_chunk(hs: HookSystem) -> Callable[[], None]:
        def go() -> None:
            for c in chunks:
                r = hs.fire("AfterModel", llm_request=LLM_REQUEST, llm_response=c)
                if r.blocked or r.warnings:
                    raise RuntimeError(f"AfterModel: {r.output} {r.warnings}")

        return go

    one_shot = [{"hooks": [cmd(CMD_B, "am-b")]}]
    hs_chunk = hook_system(one_shot, "AfterModel")
    report(
        "am-chunk",
        "AfterModel, 500-chunk stream, one-shot (b) hook per chunk",
        measure(per_chunk(hs_chunk), 1, STREAMS),
    )
    hs_pers = hook_system(
        [{"hooks": [cmd(f"{PY} {PERSIST_PY}", "am-persist", persistent=True)]}], "AfterModel"
    )
    report(
        "am-persist",
        "AfterModel, 500-chunk stream, persistent Python hook per chunk",
        measure(per_chunk(hs_pers), 1, max(STREAMS, 10)),
    )
    hs_pers.close()
    hs_py = HookSystem(project({}), trust_all=True)
    hs_py.register("AfterModel", lambda inp: {"decision": "allow"}, name="am-python")
    report(
        "am-python",
        "AfterModel, 500-chunk stream, in-process Python hook per chunk",
        measure(per_chunk(hs_py), 2, max(STREAMS, 20)),
    )
    hs_resp = HookSystem(
        project({"AfterModel": one_shot}, {"afterModel": "response"}), trust_all=True
    )
    assert hs_resp.after_model_per_response

    def per_response() -> None:
        r = hs_resp.fire("AfterModel", llm_request=LLM_REQUEST, llm_response=whole)
        if r.blocked or r.warnings:
            raise RuntimeError(f"AfterModel: {r.output} {r.warnings}")

    report(
        "am-response",
        'AfterModel once per response (hooksConfig.afterModel: "response"), (b)',
        measure(per_response, 3, max(STREAMS, 20)),
    )


def memory_scenario() -> None:
    if not wanted("mem"):
        return
    hs = hook_system(definition([cmd(CMD_B)]))
    pad = "x" * (100 * 1024)

    def fire(i: int) -> None:
        tool_input = {"command": f"cat big-{i}.txt", "content": f"{i:08d}{pad}"}
        r = hs.fire("BeforeTool", tool_name=TOOL, tool_input=tool_input)
        if r.output.get("decision") != "allow":
            raise RuntimeError("unexpected hook output")

    for i in range(200):  # warm-up: caches, allocator arenas
        fire(-i)
    gc.collect()
    before = rss_mib()
    t0 = time.perf_counter()
    for i in range(MEM_N):
        fire(i)
    secs = time.perf_counter() - t0
    after_nogc = rss_mib()
    gc.collect()
    after = rss_mib()
    growth = after_nogc - before
    RESULTS.append(
        {
            "id": "mem",
            "label": f"RSS growth over {MEM_N} firings, distinct 100 KB inputs (MiB)",
            "n": MEM_N,
            "median": growth,
            "p95": growth,
            "min": growth,
            "max": growth,
            "mean": growth,
            "rss_before_mib": before,
            "rss_after_mib": after_nogc,
            "rss_after_gc_mib": after,
            "seconds": secs,
        }
    )
    print(
        f"{'mem':<14} RSS {before:.1f} -> {after_nogc:.1f} MiB over {MEM_N} firings with distinct 100 KB inputs "
        f"(growth {growth:+.2f} MiB; after gc.collect {after:.1f} MiB; {secs:.1f} s)",
        flush=True,
    )


def startup_scenarios() -> None:
    if not wanted("su"):
        return
    proj = project({"BeforeTool": [{"hooks": [cmd("true")]}]})
    env = {**os.environ, "HOOKWISE_TRUST_ALL": "1"}
    # as installed by pip: byte-compiled modules. This environment sets PYTHONDONTWRITEBYTECODE, which would make
    # every start compile hookwise from source; a private cache dir keeps the source tree clean.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = os.path.join(WORK, "pycache")
    script = os.path.join(os.path.dirname(PY), "hookwise")
    hw = [script] if os.path.isfile(script) else [PY, "-m", "hookwise"]
    argv_fire = [*hw, "--project", proj, "fire", "BeforeTool", "--tool", TOOL]
    r = subprocess.run(argv_fire, env=env, capture_output=True, text=True)
    if r.returncode != 0 or "true" not in r.stdout + r.stderr:
        raise SystemExit(f"hookwise fire failed: {r.returncode} {r.stdout} {r.stderr}")

    def run(argv: list[str]) -> Callable[[], None]:
        def go() -> None:
            subprocess.run(
                argv,
                env=env,
                cwd=proj,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                check=True,
            )

        return go

    n = max(10, N // 10)
    # measured together: the three interleaved, sample by sample
    samples: dict[str, list[float]] = {"fire": [], "py": [], "spawn": []}
    fns = {
        "fire": run(argv_fire),
        "py": run([PY, "-c", "pass"]),
        "spawn": run(["bash", "-c", "true"]),
    }
    for _ in range(2):
        for fn in fns.values():
            fn()
    for _ in range(n):
        for k_, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            samples[k_].append((time.perf_counter() - t0) * 1000)
    report(
        "su-fire",
        f"process: `{os.path.basename(hw[0])} fire` with one `true` hook",
        stats(samples["fire"]),
    )
    report("su-py", "process: python3 -c pass", stats(samples["py"]))
    report("su-spawn", "process: bash -c true (one raw spawn)", stats(samples["spawn"]))
    report(
        "su-fire-m",
        "process: python -m hookwise fire (one `true` hook)",
        measure(
            run([PY, "-m", "hookwise", "--project", proj, "fire", "BeforeTool", "--tool", TOOL]),
            2,
            n,
        ),
    )
    report(
        "su-import",
        "process: python -c 'import hookwise.engine'",
        measure(run([PY, "-c", "import hookwise.engine"]), 2, n),
    )


# ------------------------------------------------------------------------------------------- targets
def load_reference() -> dict[str, dict[str, Any]]:
    out = os.environ.get("BENCH_JSON")
    if not out:
        return {}
    m = re.search(r"impl-(\d+)\.json$", out)
    if not m:
        return {}
    path = os.path.join(os.path.dirname(out), f"node-{m.group(1)}.json")
    try:
        with open(path) as f:
            return {r["id"]: r for r in json.load(f)["results"]}
    except (OSError, ValueError, KeyError):
        return {}


def targets(ref: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    def refm(i: str) -> float | None:
        r = ref.get(i)
        return None if r is None else float(r["median"])

    for i in "abcdef":
        target(
            f"{i} vs reference",
            f"scenario {i}: hookwise median <= 0.6 x reference median",
            med(i),
            refm(i),
            0.6,
            "ms",
        )
    pr = med("x-ratio")
    target(
        "b vs floor (paired)",
        "scenario b: hookwise <= 1.15 x raw asyncio spawn of the same command; "
        "median of per-pair ratios, interleaved in this process",
        pr,
        1.0 if pr is not None else None,
        1.15,
        "x",
    )
    target(
        "b vs floor (unpaired)",
        "same, medians measured one after the other (drift-sensitive)",
        med("b"),
        med("floor-b"),
        1.15,
        "ms",
    )
    target("no matching hook", "<= 2 us per firing", med("nomatch"), 0.002, 1.0, "ms")
    # issue 22 item 8 asks <= 15 us for one Python hook. A hook on a worker (the default, so that its timeout
    # can abandon it: issue 20 item 10) pays two thread switches per call, 18-20 us on a 2-core VM before any
    # hookwise code runs, so the 15 us target is the inline row's (the host's own trusted function on the
    # firing's thread); the worker row keeps the anchor's own limit.
    target("one Python hook, inline", "<= 15 us per firing", med("py1-inline"), 0.015, 1.0, "ms")
    target("one Python hook, worker", "<= 30 us per firing", med("py1"), 0.030, 1.0, "ms")
    kr, kc = med("xk-py-ratio"), med("xk-ratio")
    target(
        "1000 hooks, one match (Python)",
        "<= 1.2 x the one-hook time (per-pair ratio, interleaved)",
        kr,
        1.0 if kr is not None else None,
        1.2,
        "x",
    )
    target(
        "1000 hooks, one match (command)",
        "<= 1.2 x the one-hook time (b) (per-pair ratio, interleaved)",
        kc,
        1.0 if kc is not None else None,
        1.2,
        "x",
    )
    target(
        "hookwise fire as a process",
        "<= 2.5 x python3 -c pass + one raw spawn (measured together)",
        med("su-fire"),
        med("su-py"),
        2.5,
        "ms",
        med("su-spawn") or 0.0,
    )
    target(
        "persistent round trip", "<= 0.3 ms per event (Python hook)", med("pers-py"), 0.3, 1.0, "ms"
    )
    target(
        "memory",
        f"<= 5 MiB RSS growth over {MEM_N} firings, distinct 100 KB inputs",
        med("mem"),
        5.0,
        1.0,
        "MiB",
    )
    rows = []
    print("\n# targets (hookwise vs limit measured in this run)")
    for name, what, value, base, factor, unit, offset in TARGETS:
        limit = None
        if value is None or base is None:
            status, ratio = "n/a", None
        else:
            limit = base * factor + offset
            ratio = value / base
            status = "MET" if value <= limit else "NOT MET"
        shown_base = "-" if base is None else f"{base:.4g}"
        shown_val = "-" if value is None else f"{value:.4g}"
        print(
            f"{status:<8} {name:<34} value {shown_val:>9} {unit:<3} base {shown_base:>9}  "
            f"ratio {'-' if ratio is None else f'{ratio:.3f}':>6} (limit {factor}x)  {what}"
        )
        rows.append(
            {
                "name": name,
                "what": what,
                "value": value,
                "base": base,
                "factor": factor,
                "unit": unit,
                "offset": offset,
                "limit": limit,
                "ratio": ratio,
                "status": status,
            }
        )
    return rows


def main() -> None:
    print(
        f"# hookwise dispatch benchmark: python {sys.version.split()[0]} ({PY}), {os.cpu_count()} cpus, "
        f"N={N} K={K} (python hook N={N_PY} K={K_PY}); in-process import of hookwise: {IMPORT_MS:.1f} ms; "
        f"RSS {rss_mib():.0f} MiB"
    )
    anchor_scenarios()
    in_process_scenarios()
    persistent_scenarios()
    after_model_scenarios()
    startup_scenarios()
    memory_scenario()
    rows = targets(load_reference())
    if os.environ.get("BENCH_JSON"):
        with open(os.environ["BENCH_JSON"], "w") as f:
            json.dump(
                {
                    "impl": "hookwise",
                    "python": sys.version.split()[0],
                    "executable": os.path.basename(PY),
                    "N": N,
                    "K": K,
                    "N_PY": N_PY,
                    "K_PY": K_PY,
                    "import_ms": IMPORT_MS,
                    "results": RESULTS,
                    "targets": rows,
                },
                f,
                indent=1,
            )
    shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()
