"""Loader, ``validate``, the JSON Schema and ``list`` agree on every hook of generated settings documents.

For each hook object of a document (docs/contract.md §1, §2):

- the loader skips it ⇔ ``validate`` reports an error on it, its definition, its event or the
  ``hooks`` object ⇔ the shipped JSON Schema rejects it (checked on a document holding only that
  hook in its definition and event);
- every error ``validate`` reports is a load-time warning with the same file, position, pointer
  and message, and every load-time warning is something ``validate`` reports;
- the timeout ``hookwise list --json`` shows is the loaded entry's ``timeout_ms``, which is the
  documented rule (core/keys.py: Timeout) written out again here; two firings prove a
  hook runs with it.

Documents come from systematic enumeration of the schema tables (every key of a hook, a
definition and ``hooksConfig`` with values of every JSON type) and from hypothesis.
"""

from __future__ import annotations

import io
import json
import math
import time
from contextlib import redirect_stdout
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.conftest import Project

from hookwise import HookSystem
from hookwise.cli.main import main
from hookwise.settings.json_schema import json_schema
from hookwise.settings.load import load_settings
from hookwise.settings.schema import (
    DEFINITION_KEYS,
    HOOK_KEYS,
    HOOKS_CONFIG_KEYS,
    OLD_LOCATIONS,
)
from hookwise.settings.validate import Problem, check_text

jsonschema = pytest.importorskip("jsonschema")  # the `test` extra

VALIDATOR = jsonschema.Draft7Validator(json_schema())

#: the documented timeout rule, written independently of settings/schema.py
DEFAULT_MS, MAX_MS = 60_000, 86_400_000


def expected_timeout(hook: dict[str, Any]) -> int | None:
    if "timeout" not in hook:
        return DEFAULT_MS
    t = hook["timeout"]
    if isinstance(t, bool) or not isinstance(t, (int, float)) or t != t or t < 1:
        return None
    return MAX_MS if t > MAX_MS else math.ceil(t)


#: values of every JSON type, including odd and broken ones for every kind of key
POOL: list[Any] = [
    "",
    " ",
    "x",
    "claude",
    "command",
    "plugin",
    "runtime",
    "http",
    "chunk",
    "response",
    "[a",
    "write_file|replace",
    0,
    1,
    -5,
    0.5,
    0.999,
    1.5,
    30,
    999,
    1500.5,
    60000,
    86_400_000,
    86_400_001,
    10**12,
    1e300,
    10**30,
    -1e300,
    True,
    False,
    None,
    [],
    ["a"],
    [1],
    {},
    {"A": "1"},
    {"A": 2},
    {"A": True},
    {"A": None},
    {"A": ["x"]},
]
UNKNOWN_HOOK_KEYS = ["timout", "matcher", "url", "iff", "source", "Command"]
CMD = "true"


def hook_pointers(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any], Any]]:
    """(pointer, event, definition, hook) for every hook object that exists structurally."""
    out = []
    hooks = doc.get("hooks")
    if not isinstance(hooks, dict):
        return out
    for event, defs in hooks.items():
        if not isinstance(defs, list) or event in OLD_LOCATIONS:
            continue  # hooks.enabled/disabled/notifications hold old hooksConfig values, not hooks
        for i, d in enumerate(defs):
            if isinstance(d, dict) and isinstance(d.get("hooks"), list):
                for j, h in enumerate(d["hooks"]):
                    out.append((f"/hooks/{event}/{i}/hooks/{j}", event, d, h))
    return out


def error_reaches(error_ptr: str, hook_ptr: str) -> bool:
    """Whether an error at ``error_ptr`` is about the hook at ``hook_ptr`` or an object that holds it."""
    definition = hook_ptr.rsplit("/hooks/", 1)[0]
    if (
        hook_ptr == error_ptr
        or hook_ptr.startswith(error_ptr + "/")
        or error_ptr.startswith(hook_ptr + "/")
    ):
        return True  # the hook, a key of it, or an ancestor (definition, event, "hooks")
    # a key of its definition (matcher, sequential, a misplaced "type"), not another hook of it
    return error_ptr.startswith(definition + "/") and not error_ptr.startswith(
        definition + "/hooks/"
    )


def schema_rejects_alone(event: str, definition: dict[str, Any], hook: Any) -> bool:
    doc = {"hooks": {event: [{**definition, "hooks": [hook]}]}}
    return any(True for _ in VALIDATOR.iter_errors(doc))


def run_list(project: Project) -> dict[str, Any]:
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["--project", str(project.root), "list", "--json"]) == 0
    return json.loads(buf.getvalue())  # type: ignore[no-any-return]


def without_severity(p: Problem) -> str:
    return f"{p.location()}: {p.pointer or '/'}: {p.message}"


def check_agreement(project: Project, doc: dict[str, Any]) -> None:
    path = project.write_settings(doc)
    text = path.read_text()
    loaded = load_settings(str(project.root))
    problems = check_text(text, str(path)).problems
    errors = [p for p in problems if p.severity == "error"]
    listed = run_list(project)

    # same messages: every validate error is a load warning; every load warning is a validate finding
    load_warnings = set(loaded.warnings)
    assert listed["warnings"] == loaded.warnings
    for p in errors:
        assert without_severity(p) in load_warnings, (without_severity(p), loaded.warnings)
    reported = {without_severity(p) for p in problems}
    for w in loaded.warnings:
        if "hooksConfig.claudePlugins[" in w and "not loaded" in w:
            continue  # a plugin directory that is not there: the directory's problem (validate_project reports it)
        assert w in reported, (w, sorted(reported))

    # skipped by the loader ⇔ an error reaches the hook ⇔ the JSON Schema rejects it
    by_pointer = {e.pointer: e for e in loaded.entries}
    for ptr, event, definition, hook in hook_pointers(doc):
        skipped = ptr not in by_pointer
        erred = [p.pointer for p in errors if error_reaches(p.pointer, ptr)]
        assert skipped == bool(erred), (ptr, hook, erred, loaded.warnings)
        assert skipped == schema_rejects_alone(event, definition, hook), (ptr, definition, hook)
        if not skipped:
            assert by_pointer[ptr].timeout_ms == expected_timeout(hook), (
                hook,
                by_pointer[ptr].timeout_ms,
            )
    if isinstance(doc.get("hooks"), dict) or "hooks" not in doc:
        assert len(loaded.entries) == sum(1 for p, *_ in hook_pointers(doc) if p in by_pointer)

    # the timeout `list` shows is the entry's (rows come in entry order)
    assert [r["timeout"] for r in listed["hooks"]] == [e.timeout_ms for e in loaded.entries]
    assert [r["command"] for r in listed["hooks"]] == [e.command for e in loaded.entries]


# ----------------------------------------------------------------------------- systematic enumeration


def _hook_documents() -> list[tuple[str, dict[str, Any]]]:
    base = {"type": "command", "command": CMD}
    docs = []
    for key in [*HOOK_KEYS, *UNKNOWN_HOOK_KEYS]:
        for i, value in enumerate(POOL):
            hook = {**base, key: value}
            docs.append(
                (
                    f"hook.{key}[{i}]",
                    {"hooks": {"BeforeTool": [{"hooks": [hook, dict(base, name="ok")]}]}},
                )
            )
        missing = {k: v for k, v in base.items() if k != key}
        docs.append((f"hook-without-{key}", {"hooks": {"BeforeTool": [{"hooks": [missing]}]}}))
    for key in [*DEFINITION_KEYS, "type", "command", "foo"]:
        for i, value in enumerate(POOL):
            definition: dict[str, Any] = {"hooks": [base], key: value}
            for event in ("BeforeTool", "SessionStart", "BeforeModel"):
                docs.append((f"definition.{key}[{i}].{event}", {"hooks": {event: [definition]}}))
    for event in (
        "PreToolUse",
        "BeforeTools",
        "disabled",
        "enabled",
        "notifications",
        "SessionStart",
    ):
        docs.append((f"event.{event}", {"hooks": {event: [{"hooks": [base]}]}}))
    for i, value in enumerate(POOL):
        docs.append((f"event-value[{i}]", {"hooks": {"AfterTool": value}}))
        docs.append((f"definition[{i}]", {"hooks": {"AfterTool": [value, {"hooks": [base]}]}}))
        docs.append((f"hook[{i}]", {"hooks": {"AfterTool": [{"hooks": [value, base]}]}}))
    return docs


HOOK_DOCS = _hook_documents()


def _quick(name: str) -> bool:
    """The cases of the quick tier (``-m "not slow"``): every key once, with the pool's first value and
    missing; the other values of the pool run in the full suite."""
    return "[" not in name or "[0]" in name and not name.endswith(("SessionStart", "BeforeModel"))


@pytest.mark.parametrize(
    "doc",
    [pytest.param(d, id=n, marks=() if _quick(n) else pytest.mark.slow) for n, d in HOOK_DOCS],
)
def test_every_key_with_every_kind_of_value(project: Project, doc: dict[str, Any]) -> None:
    check_agreement(project, doc)


@pytest.mark.slow
@pytest.mark.parametrize("key", [*HOOKS_CONFIG_KEYS, "notify"])
def test_hooks_config_values(project: Project, key: str) -> None:
    """A ``hooksConfig`` value the loader ignores is an error of validate and the schema, with one message."""
    for value in POOL:
        doc = {
            "hooks": {"BeforeAgent": [{"hooks": [{"type": "command", "command": CMD}]}]},
            "hooksConfig": {key: value},
        }
        check_agreement(project, doc)
        path = project.settings_path()
        loaded = load_settings(str(project.root))
        ptr = f"/hooksConfig/{key}"
        at_load = [w for w in loaded.warnings if f": {ptr}" in w]
        validate_errors = [
            p
            for p in check_text(path.read_text(), str(path)).problems
            if p.severity == "error" and p.pointer.startswith(ptr)
        ]
        schema_errors = list(VALIDATOR.iter_errors(doc))
        assert bool(at_load) == bool(validate_errors) == bool(schema_errors), (
            key,
            value,
            at_load,
            schema_errors,
        )


# ----------------------------------------------------------------------------- hypothesis

_value = st.one_of(
    st.sampled_from(POOL),
    st.integers(-10, 10**6),
    st.floats(-5, 1e9, allow_nan=False),
    st.text(max_size=3),
)
_hook = st.one_of(
    st.dictionaries(st.sampled_from([*HOOK_KEYS, *UNKNOWN_HOOK_KEYS]), _value, max_size=5),
    st.fixed_dictionaries(
        {"type": st.just("command"), "command": st.just(CMD)},
        optional={k: _value for k in [*HOOK_KEYS, "timout"] if k not in ("type", "command")},
    ),
    _value,
)
_definition = st.one_of(
    st.fixed_dictionaries(
        {"hooks": st.lists(_hook, max_size=3)},
        optional={"matcher": _value, "sequential": _value, "type": _value, "x": _value},
    ),
    _value,
)
_hooks = st.dictionaries(
    st.sampled_from(
        [
            "BeforeTool",
            "AfterTool",
            "BeforeAgent",
            "SessionStart",
            "Notification",
            "PreToolUse",
            "BeforeTools",
            "disabled",
        ]
    ),
    st.one_of(st.lists(_definition, max_size=3), _value),
    max_size=3,
)


@pytest.mark.slow
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    hooks=_hooks,
    config=st.dictionaries(st.sampled_from([*HOOKS_CONFIG_KEYS, "x"]), _value, max_size=2),
)
def test_generated_documents(
    project: Project, hooks: dict[str, Any], config: dict[str, Any]
) -> None:
    check_agreement(project, {"hooks": hooks, "hooksConfig": config})


# ----------------------------------------------------------------------------- firing with the shown timeout


def test_a_hook_runs_with_the_timeout_list_shows(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOOKWISE_TRUST_ALL", "1")
    path = project.hooks(
        "BeforeAgent",
        {"type": "command", "name": "slow", "command": "sleep 5", "timeout": 300.2},
        {"type": "command", "name": "fast", "command": CMD, "timeout": 12345},
        {"type": "command", "name": "seconds", "command": CMD, "timeout": 0.5},
    )
    path.write_text(
        path.read_text().replace("12345", "1e400")
    )  # read as infinity by JSON parsers: capped
    listed = run_list(project)
    assert [(r["name"], r["timeout"]) for r in listed["hooks"]] == [("slow", 301), ("fast", MAX_MS)]
    assert any(
        "/hooks/BeforeAgent/0/hooks/2/timeout" in w and "write 500" in w for w in listed["warnings"]
    )
    assert any(
        "/hooks/BeforeAgent/0/hooks/1/timeout" in w and "using 86400000" in w
        for w in listed["warnings"]
    )
    t0 = time.monotonic()
    r = HookSystem(project.root).fire("BeforeAgent", prompt="p")
    elapsed = time.monotonic() - t0
    outcomes = {h.name: h for h in r.hooks}
    assert set(outcomes) == {"slow", "fast"}  # the 0.5 one is skipped, never run with 0 ms
    assert outcomes["slow"].outcome.value == "timeout" and "301 ms" in (
        outcomes["slow"].error or ""
    )
    assert outcomes["fast"].outcome.value == "ok"
    assert 0.3 <= elapsed < 4.5


def test_a_fractional_timeout_never_becomes_zero(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1.5 ms rounds up to 2 ms (never down to a timeout that fires before anything can start)."""
    monkeypatch.setenv("HOOKWISE_TRUST_ALL", "1")
    project.hooks(
        "BeforeAgent", {"type": "command", "name": "tiny", "command": "sleep 2", "timeout": 1.5}
    )
    assert [h["timeout"] for h in run_list(project)["hooks"]] == [2]
    r = HookSystem(project.root).fire("BeforeAgent", prompt="p")
    assert [(h.name, h.outcome.value) for h in r.hooks] == [("tiny", "timeout")]
    assert "2 ms" in (r.hooks[0].error or "")


EXTENSION_DOCS: list[Any] = [
    {},
    {"hooks": []},
    {"hooks": None},
    {
        "hooks": {
            "BeforeTool": [
                {"hooks": [{"type": "command", "command": "echo ${extensionPath}", "timeout": 0}]}
            ]
        }
    },
    {
        "hooks": {
            "BeforeTool": [{"hooks": [{"type": "command", "command": "echo ${extensionPath}"}]}]
        }
    },
    {
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": CMD}]}]},
        "hooksConfig": {"enabled": "x"},
    },
]


@pytest.mark.parametrize("doc", EXTENSION_DOCS)
def test_extension_files_agree(project: Project, doc: Any) -> None:
    """An extension's hooks.json: every load warning is a validate finding and every validate error is loaded."""
    from hookwise.settings.validate import validate_project

    path = project.user_dir / "extensions" / "ext" / "hooks" / "hooks.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(doc, indent=2))
    loaded = load_settings(str(project.root))
    report = validate_project(str(project.root))
    reported = {without_severity(p) for p in report.problems}
    assert set(loaded.warnings) <= reported, (loaded.warnings, reported)
    assert {without_severity(p) for p in report.errors} <= set(loaded.warnings)
    assert bool(loaded.entries) == (not report.errors)
