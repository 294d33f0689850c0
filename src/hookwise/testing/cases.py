"""Hook test cases (``*.hooktest.json``): load, run, compare, report (``hookwise test``).

A case file is JSON (comments allowed)::

    {
      "project": ".",            // optional: project dir, relative to this file (default: the
                                 //   nearest directory above the file with .gemini/settings.json,
                                 //   else --project)
      "isolated": true,          // optional (default true): ignore user/system/extension settings
      "env": {"KEY": "value"},   // optional: extra environment for every case of the file
      "cases": [
        {
          "name": "rm -rf is blocked",
          "event": "BeforeTool",
          "input": {"tool_name": "run_shell_command", "tool_input": {"command": "rm -rf /"}},
          "expect": {"decision": "deny", "reasonContains": "dangerous",
                     "outcomes": {"shell-guard": "blocked"}}
        }
      ]
    }

A file may also be a bare array of cases, or a single case object. ``input`` is
partial: the base fields (``session_id``, ``cwd``...) are filled in. The
``expect`` keys are listed in :data:`EXPECT_KEYS`; an unknown key is an error
(a typo must not make a case pass).
"""

from __future__ import annotations

import os
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hookwise.errors import CaseFileError, HookwiseError, SettingsError
from hookwise.events import BLOCKING_DECISIONS, EVENT_NAMES, suggest_event
from hookwise.jsonc import parse as jsonc
from hookwise.result import FireResult

SUFFIX = ".hooktest.json"
SKIP_DIRS = {
    ".git",
    "node_modules",
    ".venv",
    "venv",
    "__pycache__",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
}

OUTCOMES = ("ok", "blocked", "failed", "not-run", "timeout", "skipped", "absent")

#: expect key -> one-line description (also used in messages and docs)
EXPECT_KEYS: dict[str, str] = {
    "decision": "allow | ask | deny | block (deny and block both mean blocked)",
    "blocked": "true/false: a hook said deny or block",
    "stopped": "true/false: a hook said continue: false",
    "exitCode": "the exit status `hookwise fire` would have: 0 proceed, 2 blocked, 3 stopped",
    "reasonContains": "substring of the effective reason (stopReason, else reason)",
    "systemMessageContains": "substring of the merged systemMessage",
    "additionalContextContains": "substring of the merged additionalContext",
    "output": "subset of the merged result (`fire --json` shape, without hooks/warnings)",
    "toolInput": "subset of the rewritten tool input (BeforeTool, merged over the original)",
    "outcomes": "{hook name: ok | blocked | failed | not-run | timeout | skipped | absent}",
    "hooksRun": "exact list of the hooks that ran, in plan order",
    "warnings": "number of warnings (failed/timed-out/skipped hooks, truncation)",
}


@dataclass
class Case:
    name: str
    event: str
    input: dict[str, Any]
    expect: dict[str, Any]
    file: str = ""
    index: int = 0
    project: str | None = None
    isolated: bool = True
    env: dict[str, str] = field(default_factory=dict)


@dataclass
class CaseResult:
    case: Case
    failures: list[str] = field(default_factory=list)
    error: str | None = None  # the case could not run (bad input, unknown event...)
    result: FireResult | None = None
    duration_ms: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.failures and self.error is None

    @property
    def status(self) -> str:
        return "PASS" if self.passed else ("ERROR" if self.error else "FAIL")


# --------------------------------------------------------------------------- loading


def discover(paths: Iterable[str]) -> list[str]:
    """Case files named by ``paths`` (files as given; directories searched recursively), sorted,
    unique."""
    found: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
                for f in sorted(files):
                    if f.endswith(SUFFIX):
                        found.append(os.path.join(root, f))
        elif os.path.exists(p):
            found.append(p)
        else:
            raise CaseFileError(f"{p}: no such file or directory")
    out: list[str] = []
    for f in found:
        if os.path.abspath(f) not in {os.path.abspath(x) for x in out}:
            out.append(f)
    return out


def enclosing_project(directory: str) -> str | None:
    """The nearest directory at or above ``directory`` that has ``.gemini/settings.json``, or
    None."""
    d = os.path.abspath(directory)
    while True:
        if os.path.isfile(os.path.join(d, ".gemini", "settings.json")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def load_file(path: str) -> list[Case]:
    """Parse one case file; raise :class:`CaseFileError` naming the file, line and pointer on any
    problem."""
    try:
        text, doc = jsonc.read_file(path)
    except SettingsError as exc:
        raise CaseFileError(str(exc)) from None
    base = os.path.dirname(os.path.abspath(path))

    def err(ptr: str, msg: str) -> CaseFileError:
        line, col = jsonc.locate(text, ptr)
        return CaseFileError(f"{path}:{line}:{col}: {ptr or '/'}: {msg}")

    project: str | None = enclosing_project(base)
    isolated = True
    env: dict[str, str] = {}
    prefix: str | None = ""
    if isinstance(doc, dict) and "cases" in doc:
        project, isolated, env = _file_keys(doc, base, project, err)
        raw_cases = doc["cases"]
        prefix = "/cases"
        if not isinstance(raw_cases, list):
            raise err(prefix, '"cases" must be an array of cases')
    elif isinstance(doc, list):
        raw_cases = doc
    elif isinstance(doc, dict):
        raw_cases = [doc]
        prefix = None
    else:
        raise err("", 'a case file must be an object with "cases", an array of cases, or one case')
    cases = []
    for i, raw in enumerate(raw_cases):
        ptr = f"{prefix}/{i}" if prefix is not None else ""
        cases.append(_load_case(raw, i, ptr, path, err, project, isolated, env))
    return cases


def _file_keys(
    doc: dict[str, Any],
    base: str,
    project: str | None,
    err: Callable[[str, str], CaseFileError],
) -> tuple[str | None, bool, dict[str, str]]:
    """A case file's own keys: ``project`` (relative to the file), ``isolated``, ``env``."""
    for k in doc:
        if k not in ("cases", "project", "isolated", "env", "description"):
            raise err(
                "/" + k,
                f"unknown key {k!r} (file keys: cases, project, isolated, env, description)",
            )
    if "project" in doc:
        if not isinstance(doc["project"], str):
            raise err("/project", '"project" must be a path (relative to this file)')
        project = os.path.normpath(os.path.join(base, doc["project"]))
    isolated = doc.get("isolated", True)
    if not isinstance(isolated, bool):
        raise err("/isolated", '"isolated" must be true or false')
    env = doc.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        raise err("/env", '"env" must be an object of strings')
    return project, isolated, dict(env)


def _load_case(
    raw: Any,
    i: int,
    ptr: str,
    path: str,
    err: Callable[[str, str], CaseFileError],
    project: str | None,
    isolated: bool,
    env: dict[str, str],
) -> Case:
    if not isinstance(raw, dict):
        raise err(ptr, 'a case must be an object with "event", "input" and "expect"')
    for k in raw:
        if k not in ("name", "event", "input", "expect", "env", "description"):
            raise err(
                f"{ptr}/{k}", f"unknown key {k!r} in a case (keys: name, event, input, expect, env)"
            )
    event = raw.get("event")
    if not isinstance(event, str):
        raise err(ptr, 'a case needs an "event" (e.g. "BeforeTool")')
    if event not in EVENT_NAMES:
        hint = suggest_event(event)
        raise err(
            f"{ptr}/event",
            f"unknown event {event!r}" + (f" (did you mean {hint!r}?)" if hint else ""),
        )
    inp = raw.get("input", {})
    if not isinstance(inp, dict):
        raise err(
            f"{ptr}/input", '"input" must be an object (the event input; base fields are filled in)'
        )
    expect = raw.get("expect", {})
    if not isinstance(expect, dict):
        raise err(f"{ptr}/expect", '"expect" must be an object')
    for k, v in expect.items():
        if k not in EXPECT_KEYS:
            import difflib

            close = difflib.get_close_matches(k, list(EXPECT_KEYS), n=1)
            raise err(
                f"{ptr}/expect/{k}",
                f"unknown expectation {k!r}"
                + (f" (did you mean {close[0]!r}?)" if close else "")
                + "; known: "
                + ", ".join(EXPECT_KEYS),
            )
        problem = _check_expect_value(k, v)
        if problem:
            raise err(f"{ptr}/expect/{k}", problem)
    case_env = dict(env)
    if "env" in raw:
        if not isinstance(raw["env"], dict) or not all(
            isinstance(v, str) for v in raw["env"].values()
        ):
            raise err(f"{ptr}/env", '"env" must be an object of strings')
        case_env.update(raw["env"])
    name = raw.get("name")
    if name is not None and not isinstance(name, str):
        raise err(f"{ptr}/name", '"name" must be a string')
    return Case(
        name or f"case {i + 1} ({event})", event, inp, expect, path, i, project, isolated, case_env
    )


def _check_expect_value(k: str, v: Any) -> str | None:
    if k == "decision" and v not in ("allow", "ask", "deny", "block"):
        return '"decision" must be one of allow, ask, deny, block'
    if k in ("blocked", "stopped") and not isinstance(v, bool):
        return f'"{k}" must be true or false'
    if k == "exitCode" and v not in (0, 2, 3):
        return '"exitCode" must be 0, 2 or 3'
    if k == "warnings" and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
        return '"warnings" must be a number'
    if k.endswith("Contains") and not isinstance(v, str):
        return f'"{k}" must be a string'
    if k in ("output", "toolInput") and not isinstance(v, dict):
        return f'"{k}" must be an object'
    if k == "outcomes":
        if not isinstance(v, dict):
            return '"outcomes" must be an object {hook name: outcome}'
        for name, o in v.items():
            if o not in OUTCOMES:
                return f"outcome of {name!r} must be one of " + ", ".join(OUTCOMES)
    if k == "hooksRun" and (not isinstance(v, list) or not all(isinstance(x, str) for x in v)):
        return '"hooksRun" must be an array of hook names'
    return None


# --------------------------------------------------------------------------- checking


def _subset(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Where ``actual`` differs from ``expected`` (objects: expected keys only; everything else:
    equal)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path or '/'}: expected an object, got {_short(actual)}"]
        out: list[str] = []
        for k, v in expected.items():
            if k not in actual:
                out.append(f"{path}/{k}: missing (expected {_short(v)})")
            else:
                out.extend(_subset(v, actual[k], f"{path}/{k}"))
        return out
    if expected != actual or isinstance(expected, bool) != isinstance(actual, bool):
        return [f"{path or '/'}: expected {_short(expected)}, got {_short(actual)}"]
    return []


def _short(v: Any, n: int = 120) -> str:
    import json

    s = json.dumps(v, ensure_ascii=False, default=str)
    return s if len(s) <= n else s[: n - 1] + "…"


def check(expect: Mapping[str, Any], r: FireResult) -> list[str]:
    """Every expectation ``r`` does not meet, as a readable line."""
    return [*_verdict_fails(expect, r), *_answer_fails(expect, r), *_hook_fails(expect, r)]


def _verdict_fails(expect: Mapping[str, Any], r: FireResult) -> list[str]:
    """``decision``, ``blocked``, ``stopped``, ``exitCode``."""
    fails: list[str] = []
    why = f" (reason: {r.effective_reason!r})" if r.blocked or r.stopped else ""
    if "decision" in expect:
        want = expect["decision"]
        ok = r.blocked if want in BLOCKING_DECISIONS else r.decision == want
        if not ok:
            fails.append(f"decision: expected {want!r}, got {r.decision!r}{why}")
    for key, actual in (("blocked", r.blocked), ("stopped", r.stopped), ("exitCode", r.exit_code)):
        if key in expect and actual != expect[key]:
            fails.append(f"{key}: expected {expect[key]}, got {actual}{why}")
    return fails


def _answer_fails(expect: Mapping[str, Any], r: FireResult) -> list[str]:
    """The texts (``…Contains``), ``output`` and ``toolInput``."""
    fails: list[str] = []
    for key, actual in (
        ("reasonContains", r.effective_reason if (r.reason or r.stop_reason) else ""),
        ("systemMessageContains", r.system_message or ""),
        ("additionalContextContains", r.hook_specific.get("additionalContext") or ""),
    ):
        if key in expect and expect[key] not in str(actual):
            fails.append(f"{key}: {expect[key]!r} not found in {str(actual)!r}")
    if "output" in expect:
        view = r.to_json()
        view.pop("hooks", None)
        view.pop("warnings", None)
        fails.extend("output" + d for d in _subset(expect["output"], view))
    if "toolInput" in expect:
        actual_ti = r.tool_input_for(r.input.get("tool_input") or {})
        fails.extend("toolInput" + d for d in _subset(expect["toolInput"], actual_ti))
    return fails


def _hook_fails(expect: Mapping[str, Any], r: FireResult) -> list[str]:
    """``outcomes``, ``hooksRun`` and the number of ``warnings``."""
    fails: list[str] = []
    by_name: dict[str, str] = {}
    for h in r.hooks:
        by_name.setdefault(h.name, h.outcome.value)
    for name, want in (expect.get("outcomes") or {}).items():
        got = by_name.get(name, "absent")
        if got != want:
            detail = next((h.error for h in r.hooks if h.name == name and h.error), None)
            fails.append(
                f"outcome of {name!r}: expected {want!r}, got {got!r}"
                + (f" ({detail})" if detail else "")
                + (
                    ""
                    if name in by_name or want == "absent"
                    else "; hooks that ran: " + (", ".join(repr(n) for n in by_name) or "none")
                )
            )
    if "hooksRun" in expect:
        ran = [h.name for h in r.hooks]
        if ran != expect["hooksRun"]:
            fails.append(f"hooksRun: expected {expect['hooksRun']}, got {ran}")
    if "warnings" in expect and len(r.warnings) != expect["warnings"]:
        fails.append(
            f"warnings: expected {expect['warnings']}, got {len(r.warnings)}: {r.warnings}"
        )
    return fails


# --------------------------------------------------------------------------- running


def isolated_env(base: Mapping[str, str], scratch: str) -> dict[str, str]:
    """``base`` with the user dir and system settings pointed into ``scratch`` (which holds
    nothing)."""
    env = dict(base)
    env["GEMINI_CLI_HOME"] = os.path.join(scratch, "home")
    env["GEMINI_CLI_SYSTEM_SETTINGS_PATH"] = os.path.join(scratch, "no-system-settings.json")
    env["GEMINI_CLI_SYSTEM_DEFAULTS_PATH"] = os.path.join(scratch, "no-system-defaults.json")
    return env


def run_cases(
    cases: list[Case],
    project_dir: str,
    *,
    claude_settings: bool | None = None,
    env: Mapping[str, str] | None = None,
    trace: str | None = None,
    on_result: Callable[[CaseResult], None] | None = None,
) -> list[CaseResult]:
    """Run ``cases`` against their project (the file's ``project``, else ``project_dir``).

    Hooks of the tested project run trusted (like ``pytest`` runs a repository's
    tests). One :class:`~hookwise.HookSystem` is built per (project, isolation, env).
    """
    from hookwise.engine import HookSystem

    base_env = dict(os.environ if env is None else env)
    systems: dict[tuple[str, bool, tuple[tuple[str, str], ...]], Any] = {}
    results: list[CaseResult] = []
    with tempfile.TemporaryDirectory(prefix="hookwise-test-") as scratch:
        for case in cases:
            project = case.project or project_dir
            key = (project, case.isolated, tuple(sorted(case.env.items())))
            res = CaseResult(case)
            t0 = time.perf_counter()
            try:
                hs = systems.get(key)
                if hs is None:
                    e = isolated_env(base_env, scratch) if case.isolated else dict(base_env)
                    e.update(case.env)
                    hs = HookSystem(
                        project,
                        trust_all=True,
                        env=e,
                        claude_settings=claude_settings,
                        session_id="hookwise-test",
                        trace=trace,
                    )
                    systems[key] = hs
                res.result = hs.fire(case.event, case.input)
                res.failures = check(case.expect, res.result)
            except HookwiseError as exc:
                res.error = str(exc)
            res.duration_ms = (time.perf_counter() - t0) * 1000
            results.append(res)
            if on_result is not None:
                on_result(res)
    return results


# --------------------------------------------------------------------------- reporting


def junit_xml(results: list[CaseResult]) -> str:
    """JUnit XML (one ``testsuite`` per case file) for CI systems."""
    suites = ET.Element("testsuites", name="hookwise")
    by_file: dict[str, list[CaseResult]] = {}
    for r in results:
        by_file.setdefault(r.case.file, []).append(r)
    total = fails = errors = 0
    for file, rs in by_file.items():
        n_fail = sum(1 for r in rs if r.failures and r.error is None)
        n_err = sum(1 for r in rs if r.error is not None)
        secs = sum(r.duration_ms for r in rs) / 1000
        suite = ET.SubElement(
            suites,
            "testsuite",
            name=file,
            tests=str(len(rs)),
            failures=str(n_fail),
            errors=str(n_err),
            skipped="0",
            time=f"{secs:.3f}",
        )
        classname = (
            os.path.basename(file)[: -len(SUFFIX)]
            if file.endswith(SUFFIX)
            else os.path.basename(file)
        )
        for r in rs:
            tc = ET.SubElement(
                suite,
                "testcase",
                classname=classname,
                name=r.case.name,
                time=f"{r.duration_ms / 1000:.3f}",
            )
            if r.error is not None:
                el = ET.SubElement(tc, "error", message=r.error[:200], type="HookwiseError")
                el.text = r.error
            elif r.failures:
                el = ET.SubElement(
                    tc, "failure", message=r.failures[0][:200], type="AssertionError"
                )
                el.text = "\n".join(r.failures)
            if r.result is not None and (r.result.warnings or r.failures):
                out = ET.SubElement(tc, "system-out")
                out.text = (
                    "\n".join(
                        f"{h.name}: {h.outcome.value}" + (f" ({h.error})" if h.error else "")
                        for h in r.result.hooks
                    )
                    + ("\n" if r.result.hooks else "")
                    + "\n".join(f"warning: {w}" for w in r.result.warnings)
                )
        total += len(rs)
        fails += n_fail
        errors += n_err
    suites.set("tests", str(total))
    suites.set("failures", str(fails))
    suites.set("errors", str(errors))
    ET.indent(suites)
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"
    )
