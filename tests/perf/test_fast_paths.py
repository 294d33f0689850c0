"""Functional checks of the fast paths (never timing): lazy imports, per-response AfterModel, no retention."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import tracemalloc
from typing import Any

import pytest

from hookwise import HookSystem

HEAVY = (
    "asyncio",
    "concurrent.futures",
    "hashlib",
    "uuid",
    "datetime",
    "hookwise.runners.persistent",
    "argparse",
    "dataclasses",
    "inspect",
    "shutil",
    "hookwise.settings.validate",
    "hookwise.claude.migrate",
    "hookwise.claude.convert",
    # typing: annotations only (TYPE_CHECKING blocks); copy: settings/schema.py copies defaults itself;
    # the telemetry resolver: only when settings or the environment mention telemetry
    "typing",
    "copy",
    "hookwise.settings.telemetry",
    # shlex: only for quoted commands and trust checks; importlib: only for a command module's name or a dialect
    "shlex",
    "importlib",
    # trust store (project hooks), trace records (--trace, monitors), environment sanitising (redaction)
    "hookwise.trust",
    "hookwise.trace",
    "hookwise.runners.env",
    # weakref: http hooks' per-host clients
    "weakref",
    # subprocess (and the locale and contextlib it imports): only for a hook whose directory is not the
    # current one (posix_spawn cannot change directory)
    "subprocess",
    "locale",
    "contextlib",
    # threads (persistent, background and http hooks, telemetry), exit handlers (telemetry): a plain fire
    # has neither and ends with os._exit; selectors and signal's enums: the process driver uses
    # select.poll and the C module behind signal; warnings: only for an odd tool regex; math: nowhere
    "threading",
    "atexit",
    "selectors",
    "signal",
    "warnings",
    "math",
    # json and re: JSON goes through hookwise.jsonc.codec (the C scanner and encoder json itself uses), and
    # a tool matcher without regex syntax is a substring test; enum, functools and collections: the closed
    # sets are hookwise._records.Enum, type-only imports sit in TYPE_CHECKING blocks
    "json",
    "re",
    "enum",
    "functools",
    "collections",
    "operator",
    # types: the fast `fire` parser sets plain attributes; chaining (sequential firings), async hooks
    "types",
    "hookwise.core.chain",
    "hookwise.runners.background",
    # the other kinds (runners.LazyKind rows: imported when a hook of theirs is read or run) and what running
    # them needs: threads for Python hooks, the HTTP client
    "hookwise.runners.python",
    "hookwise.runners.http",
    "hookwise.runners._workers",
    "hookwise.runners.callable",
    "hookwise.runners._http_client",
)


#: how many of hookwise's own modules a plain fire may import: each costs ~0.1 ms of start-up however small it
#: is (finding, reading and running it), ~1 % of the floor; a module the fire does not need is imported where it
#: is used (docs/architecture.md, "The start-up rule"). 43 today: 41, plus hookwise.atomic and hookwise.errors
#: for the first fire in a fresh home, which writes the hook package cache (settings/packages.py)
FIRE_MODULE_BUDGET = 43


def _imported(
    argv: list[str], cwd: Any, env: dict[str, str]
) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    """The modules a run of this interpreter imports (``-X importtime``), and the run."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=cwd,
    )
    names = {
        line.rsplit("|", 1)[1].strip()
        for line in out.stderr.splitlines()
        if line.startswith("import time:")
    }
    return names, out


@pytest.mark.slow
def test_fire_cli_does_not_import_heavy_modules(project: Any) -> None:
    project.hooks(
        "BeforeTool", "true", "true --again", layer="user", matcher="x"
    )  # a tool's name: no regex needed
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "GEMINI_TELEMETRY_"))}
    # what the interpreter's site hooks (.pth files) load before any code runs is not hookwise's
    before, _ = _imported(["-c", "pass"], project.root, env)
    argv = ["--project", str(project.root), "fire", "BeforeTool", "--tool", "x", "--json"]
    code = (
        f"import sys\nsys.argv = ['hookwise', *{argv!r}]\n"
        "from hookwise.cli.main import console\nsys.exit(console())\n"
    )
    loaded, out = _imported(["-c", code], project.root, env)  # what the console script runs
    assert out.returncode == 0, out.stderr[-2000:]
    assert [h["outcome"] for h in json.loads(out.stdout)["hooks"]] == ["ok", "ok"]
    assert "hookwise.engine" in loaded and "hookwise.jsonc.codec" in loaded
    assert sorted(m for m in HEAVY if m in loaded - before) == []
    ours = sorted(m for m in loaded if m == "hookwise" or m.startswith("hookwise."))
    assert len(ours) <= FIRE_MODULE_BUDGET, (
        f"a plain fire imports {len(ours)} hookwise modules (budget {FIRE_MODULE_BUDGET}): {ours}"
    )


@pytest.mark.slow
def test_the_installed_program_imports_only_what_firing_needs(project: Any) -> None:
    """The ``hookwise`` program is a script file (pyproject ``script-files``), not a console_scripts entry point:
    pip's launcher for an entry point imports ``re`` first. Run as installed, a fire loads nothing of HEAVY."""
    import sysconfig
    from importlib.metadata import entry_points

    assert [ep for ep in entry_points(group="console_scripts") if ep.name == "hookwise"] == []
    script = os.path.join(sysconfig.get_path("scripts"), "hookwise")
    if not os.path.exists(script):  # hookwise imported from a source tree, not installed
        pytest.skip(f"hookwise is not installed in {sysconfig.get_path('scripts')}")
    with open(script, encoding="utf-8") as f:
        first = f.readline()
        assert first.startswith("#!") and "python" in first, (
            first
        )  # the installer's interpreter line
        assert "hookwise.cli.main" in f.read()
    project.hooks("BeforeTool", "true", layer="user")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "GEMINI_TELEMETRY_"))}
    before, _ = _imported(["-c", "pass"], project.root, env)
    loaded, out = _imported(
        [script, "--project", str(project.root), "fire", "BeforeTool", "--tool", "x", "--json"],
        project.root,
        env,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout)["hooks"][0]["outcome"] == "ok"
    assert sorted(m for m in HEAVY if m in loaded - before) == []


@pytest.mark.slow
def test_a_fire_that_ends_at_once_still_delivers_all_its_output(project: Any) -> None:
    """A plain ``fire`` ends with ``os._exit`` after flushing: a large answer through a pipe arrives whole,
    with the exit status of the result (2: blocked)."""
    big = "x" * 300_000
    command = project.script(
        "big.py", f"print(json.dumps({{'decision': 'deny', 'reason': {big!r}}}))"
    )
    project.hooks("BeforeTool", command, layer="user")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "GEMINI_TELEMETRY_"))}
    for extra in ([], ["--json"]):
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "hookwise",
                "--project",
                str(project.root),
                "fire",
                "BeforeTool",
                "--tool",
                "x",
                *extra,
            ],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
            cwd=project.root,
        )
        assert out.returncode == 2, out.stderr[-2000:]
        assert big in out.stdout
        if extra:
            assert json.loads(out.stdout)["reason"] == big


def test_after_model_per_response_setting(project: Any) -> None:
    hs = HookSystem(project.root)
    assert hs.after_model_per_response is False
    project.write_settings({"hooksConfig": {"afterModel": "response"}})
    hs = HookSystem(project.root)
    assert (
        hs.after_model_per_response is True and hs.settings.hooks_config["afterModel"] == "response"
    )
    project.write_settings({"hooksConfig": {"afterModel": "chunk"}})
    assert HookSystem(project.root).after_model_per_response is False


def test_after_model_bad_value_is_reported_and_ignored(project: Any) -> None:
    project.write_settings({"hooksConfig": {"afterModel": "per-response"}}, layer="user")
    hs = HookSystem(project.root)
    assert hs.after_model_per_response is False
    assert any("afterModel" in w and "settings.json" in w for w in hs.warnings)


def test_user_layer_value_is_overridden_by_project(project: Any) -> None:
    project.write_settings({"hooksConfig": {"afterModel": "response"}}, layer="user")
    project.write_settings({"hooksConfig": {"afterModel": "chunk"}})
    assert HookSystem(project.root).after_model_per_response is False


@pytest.mark.slow
def test_nothing_is_retained_per_firing(project: Any) -> None:
    hs = HookSystem(project.root)
    hs.register(
        "BeforeTool",
        lambda inp: {"decision": "allow", "reason": inp["tool_input"]["content"][:8]},
        name="py",
        matcher="run_shell_command",
    )
    pad = "x" * 20_000

    def fire(i: int) -> None:
        r = hs.fire(
            "BeforeTool", tool_name="run_shell_command", tool_input={"content": f"{i:08d}{pad}"}
        )
        assert r.reason == f"{i:08d}"
        hs.fire(
            "BeforeTool", tool_name=f"other-{i}", tool_input={"content": pad}
        )  # a new plan-cache key

    for i in range(600):
        fire(i)
    gc.collect()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        for i in range(600, 1600):
            fire(i)
        gc.collect()
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # 1000 firings of 20 KB inputs would retain ~20 MB if anything kept them; allow bounded caches only
    assert after - before < 2_000_000, after - before


def test_no_matching_hook_runs_nothing(project: Any) -> None:
    project.hooks("BeforeTool", "exit 2", matcher="write_file")
    hs = HookSystem(project.root, trust_all=True)
    r = hs.fire("BeforeTool", tool_name="read_file", tool_input={})
    assert r.hooks == [] and r.output == {} and not r.blocked


def test_only_the_program_skips_the_last_collections(project: Any, capsys: Any) -> None:
    from hookwise.cli.main import main

    project.hooks("BeforeTool", "true", layer="user")
    frozen = gc.get_freeze_count()
    assert (
        main(["--project", str(project.root), "fire", "BeforeTool", "--tool", "x", "--json"]) == 0
    )
    assert (
        gc.get_freeze_count() == frozen
    )  # main() embedded in a process leaves the collector alone
    assert json.loads(capsys.readouterr().out)["hooks"][0]["outcome"] == "ok"


def test_program_exit_still_runs_exit_handlers_and_flushes(project: Any) -> None:
    project.hooks("BeforeTool", "true", layer="user")
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('EXIT HANDLER RAN', flush=True))\n"
        "from hookwise.cli.main import console\n"
        f"sys.argv = ['hookwise', '--project', {str(project.root)!r}, 'fire', 'BeforeTool', '--tool', 'x']\n"
        "sys.exit(console())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert (
        out.stdout.rstrip().endswith("EXIT HANDLER RAN")
        and out.stdout.count("EXIT HANDLER RAN") == 1
    )
