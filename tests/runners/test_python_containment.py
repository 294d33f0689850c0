"""A python hook can neither end nor hang the host (issue 20 items 10 and 6; docs/hook-types.md)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from _tiers import first_quick
from hookwise import HookSystem

GUARD = textwrap.dedent(
    """
    import colorsys, os, sys, time

    def deny(inp):
        return {"decision": "deny", "reason": "no"}

    def exit0(inp):
        sys.exit(0)

    def interrupt(inp):
        raise KeyboardInterrupt("stop")

    def base(inp):
        raise BaseException("base")

    def hard_exit(inp):
        os._exit(0)

    def sleepy(inp):
        time.sleep(5)
        return {"decision": "allow"}

    def stdlib(inp):
        return {"systemMessage": "colorsys from " + colorsys.__file__}

    def cached(inp):
        return {"systemMessage": "from source"}
    """
)


def _project(tmp_path: Path, *hooks: dict[str, Any]) -> Path:
    proj = tmp_path / "proj"
    (proj / ".gemini").mkdir(parents=True, exist_ok=True)
    (proj / "guard.py").write_text(GUARD)
    (proj / ".gemini" / "settings.json").write_text(
        json.dumps({"hooks": {"BeforeTool": [{"hooks": list(hooks)}]}})
    )
    return proj


def _hook(func: str, **keys: Any) -> dict[str, Any]:
    return {"type": "python", "name": func, "callable": f"guard:{func}", **keys}


def _cli(proj: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "GEMINI_CLI_HOME": str(home),
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(tmp_path / "none.json"),
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(tmp_path / "none2.json"),
        "HOOKWISE_TRUST_ALL": "1",
    }
    return subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(proj), "fire", "BeforeTool"]
        + ["--tool", "run_shell_command", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


@pytest.mark.parametrize("func", first_quick(["exit0", "interrupt", "base"]))
def test_a_hook_that_exits_is_failed_and_the_deny_stands(tmp_path: Path, func: str) -> None:
    proj = _project(tmp_path, _hook("deny"), _hook(func))
    r = _cli(proj, tmp_path)
    assert r.returncode == 2, (r.stdout, r.stderr)  # never 0 = proceed
    hooks = json.loads(r.stdout)["hooks"]
    assert [h["outcome"] for h in hooks] == ["ok", "failed"]
    assert "cannot end the host" in hooks[1]["error"]
    result = HookSystem(proj, trust_all=True).fire(
        "BeforeTool", tool_name="x", tool_input={}
    )  # the Python API: no exception escapes
    assert result.blocked and [h.outcome.value for h in result.hooks] == ["ok", "failed"]


def test_registered_function_raising_system_exit_is_failed() -> None:
    hs = HookSystem(".", trust_all=True)

    def bye(inp: Any) -> None:
        raise SystemExit(0)

    hs.register("BeforeTool", bye, name="bye")
    result = hs.fire("BeforeTool", tool_name="x", tool_input={})
    assert [h.outcome.value for h in result.hooks] == ["failed"]


@pytest.mark.parametrize("fail_closed", first_quick([False, True]))
def test_a_sleeping_function_respects_its_timeout(tmp_path: Path, fail_closed: bool) -> None:
    proj = _project(tmp_path, _hook("sleepy", timeout=300, failClosed=fail_closed))
    t0 = time.monotonic()
    r = _cli(proj, tmp_path)
    assert time.monotonic() - t0 < 4.5  # the hook sleeps 5 s
    assert [h["outcome"] for h in json.loads(r.stdout)["hooks"]] == ["timeout"]
    assert r.returncode == (2 if fail_closed else 0)
    hs = HookSystem(proj, trust_all=True)
    t0 = time.monotonic()
    result = hs.fire("BeforeTool", tool_name="x", tool_input={})
    assert time.monotonic() - t0 < 2.0
    assert result.blocked is fail_closed


def test_isolate_contains_os_exit_and_kills_at_the_timeout(tmp_path: Path) -> None:
    proj = _project(
        tmp_path,
        _hook("deny", isolate=True),
        _hook("hard_exit", isolate=True),
        _hook("sleepy", isolate=True, timeout=500),
    )
    t0 = time.monotonic()
    r = _cli(proj, tmp_path)
    assert time.monotonic() - t0 < 4.5
    assert r.returncode == 2, r.stderr
    assert [h["outcome"] for h in json.loads(r.stdout)["hooks"]] == ["ok", "ok", "timeout"]


def test_project_modules_are_loaded_from_source_with_the_standard_library_first(
    tmp_path: Path,
) -> None:
    proj = _project(tmp_path, _hook("stdlib"), _hook("cached"))
    (proj / "colorsys.py").write_text("raise SystemExit('the project shadowed the stdlib')\n")
    # bytecode placed beside the source must not be what runs (an unchecked-hash .pyc would be)
    cache = proj / "__pycache__"
    cache.mkdir()
    evil = compile("def cached(inp):\n    return {'decision': 'deny'}\n", "guard.py", "exec")
    import importlib.util
    import marshal

    tag = sys.implementation.cache_tag
    header = importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little") + b"\0" * 8  # unchecked hash
    (cache / f"guard.{tag}.pyc").write_bytes(header + marshal.dumps(evil))
    r = _cli(proj, tmp_path)
    out = json.loads(r.stdout)
    assert r.returncode == 0, r.stderr
    assert [h["outcome"] for h in out["hooks"]] == ["ok", "ok"]
    assert "from source" in out["systemMessage"]
    assert str(proj) not in out["systemMessage"]  # colorsys came from the standard library
    for name in ("guard", "colorsys"):  # the Python API, in this process
        if name == "guard" or str(proj) in str(getattr(sys.modules.get(name), "__file__", "")):
            sys.modules.pop(name, None)
    result = HookSystem(proj, trust_all=True).fire("BeforeTool", tool_name="x", tool_input={})
    assert not result.blocked and "from source" in (result.system_message or "")


def test_a_function_on_the_worker_sees_the_callers_context_variables() -> None:
    import contextvars

    var: contextvars.ContextVar[str] = contextvars.ContextVar("request", default="none")
    hs = HookSystem(".", trust_all=True)
    hs.register("BeforeTool", lambda i: {"systemMessage": var.get()}, name="ctx")
    var.set("req-42")
    result = hs.fire("BeforeTool", tool_name="x", tool_input={})
    assert result.system_message == "req-42"
