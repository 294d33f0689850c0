"""The shipped JSON Schema is generated from settings/schema.py and agrees with ``hookwise validate``.

Needs the ``jsonschema`` package (the ``test`` extra); skipped without it. The generated
documents of tests/settings/test_schema_agreement.py check loader, validate, schema and
``list`` together.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.jsonc.parse import parse
from hookwise.settings.json_schema import json_schema, json_schema_text
from hookwise.settings.schema import SCHEMA_FILE
from hookwise.settings.validate import check_text

FIXTURES = Path(__file__).parent / "fixtures" / "validate"

# ----------------------------------------------------------------------------- schema agreement

jsonschema = pytest.importorskip("jsonschema")  # the `test` extra


def _schema() -> dict[str, Any]:
    text = resources.files("hookwise").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def _schema_errors(doc: Any) -> list[str]:
    v = jsonschema.Draft7Validator(_schema(), format_checker=jsonschema.FormatChecker())
    return sorted("".join("/" + str(t) for t in e.absolute_path) for e in v.iter_errors(doc))


def _related(a: str, b: str) -> bool:
    return a == b or a.startswith(b + "/") or b.startswith(a + "/") or a == "" or b == ""


H = {"type": "command", "command": "./x.sh"}

CASES: list[tuple[str, Any]] = [
    (
        "valid",
        {
            "hooks": {"BeforeTool": [{"matcher": "a|b", "sequential": True, "hooks": [H]}]},
            "hooksConfig": {"enabled": True, "disabled": ["x"]},
            "other": 1,
        },
    ),
    ("legacy key (warning)", {"hooks": {"disabled": ["x"]}}),
    ("unknown key (warning)", {"hooks": {"BeforeTool": [{"hooks": [{**H, "timout": 5}]}]}}),
    ("seconds (warning)", {"hooks": {"BeforeTool": [{"hooks": [{**H, "timeout": 30}]}]}}),
    ("ignored matcher (warning)", {"hooks": {"BeforeModel": [{"matcher": "x(", "hooks": [H]}]}}),
    ("plugin type (warning)", {"hooks": {"AfterTool": [{"hooks": [{**H, "type": "plugin"}]}]}}),
    ("number env (warning)", {"hooks": {"AfterTool": [{"hooks": [{**H, "env": {"N": 1}}]}]}}),
    ("claude event", {"hooks": {"PreToolUse": [{"hooks": [H]}]}}),
    ("typo event", {"hooks": {"BeforeTools": []}}),
    ("hooks not object", {"hooks": []}),
    ("event not array", {"hooks": {"BeforeTool": {}}}),
    ("definition not object", {"hooks": {"BeforeTool": ["x"]}}),
    ("no hooks array", {"hooks": {"BeforeTool": [{"matcher": "x"}]}}),
    ("flat hook", {"hooks": {"BeforeTool": [H]}}),
    ("hooks not array", {"hooks": {"BeforeTool": [{"hooks": H}]}}),
    ("hook not object", {"hooks": {"BeforeTool": [{"hooks": ["./x.sh"]}]}}),
    ("missing type", {"hooks": {"BeforeTool": [{"hooks": [{"command": "./x.sh"}]}]}}),
    ("bad type", {"hooks": {"BeforeTool": [{"hooks": [{**H, "type": "runtime"}]}]}}),
    ("missing command", {"hooks": {"BeforeTool": [{"hooks": [{"type": "command"}]}]}}),
    ("empty command", {"hooks": {"BeforeTool": [{"hooks": [{**H, "command": "  "}]}]}}),
    ("command not string", {"hooks": {"BeforeTool": [{"hooks": [{**H, "command": ["a"]}]}]}}),
    ("invalid regex (warning)", {"hooks": {"AfterTool": [{"matcher": "[a", "hooks": [H]}]}}),
    ("huge timeout (warning)", {"hooks": {"BeforeTool": [{"hooks": [{**H, "timeout": 10**12}]}]}}),
    (
        "fractional timeout (warning)",
        {"hooks": {"BeforeTool": [{"hooks": [{**H, "timeout": 1500.5}]}]}},
    ),
    ("sub-millisecond timeout", {"hooks": {"BeforeTool": [{"hooks": [{**H, "timeout": 0.5}]}]}}),
    ("negative timeout", {"hooks": {"BeforeTool": [{"hooks": [{**H, "timeout": -5}]}]}}),
    ("null timeout", {"hooks": {"BeforeTool": [{"hooks": [{**H, "timeout": None}]}]}}),
    ("bool timeout", {"hooks": {"BeforeTool": [{"hooks": [{**H, "timeout": True}]}]}}),
    ("description not string", {"hooks": {"BeforeTool": [{"hooks": [{**H, "description": 1}]}]}}),
    ("persistent not bool", {"hooks": {"BeforeTool": [{"hooks": [{**H, "persistent": 1}]}]}}),
    ("null dialect", {"hooks": {"BeforeTool": [{"hooks": [{**H, "dialect": None}]}]}}),
    ("type on definition", {"hooks": {"BeforeTool": [{"type": "command", "hooks": [H]}]}}),
    ("notifications not bool", {"hooksConfig": {"notifications": "on"}}),
    ("matcher not string", {"hooks": {"SessionStart": [{"matcher": 1, "hooks": [H]}]}}),
    ("sequential not bool", {"hooks": {"SessionEnd": [{"sequential": 1, "hooks": [H]}]}}),
    ("timeout string", {"hooks": {"BeforeTool": [{"hooks": [{**H, "timeout": "5s"}]}]}}),
    ("timeout zero", {"hooks": {"BeforeTool": [{"hooks": [{**H, "timeout": 0}]}]}}),
    ("name not string", {"hooks": {"BeforeTool": [{"hooks": [{**H, "name": 3}]}]}}),
    ("env not object", {"hooks": {"BeforeTool": [{"hooks": [{**H, "env": "A=1"}]}]}}),
    ("env value bool", {"hooks": {"BeforeTool": [{"hooks": [{**H, "env": {"A": False}}]}]}}),
    ("failClosed not bool", {"hooks": {"BeforeTool": [{"hooks": [{**H, "failClosed": "yes"}]}]}}),
    ("bad dialect", {"hooks": {"BeforeTool": [{"hooks": [{**H, "dialect": "codex"}]}]}}),
    ("hooksConfig not object", {"hooksConfig": []}),
    ("enabled not bool", {"hooksConfig": {"enabled": "no"}}),
    ("disabled not array", {"hooksConfig": {"disabled": "x"}}),
    ("disabled item", {"hooksConfig": {"disabled": [1]}}),
    ("claudeSettings not bool", {"hooksConfig": {"claudeSettings": 1}}),
    ("afterModel value", {"hooksConfig": {"afterModel": "stream"}}),
    ("redaction types", {"security": {"environmentVariableRedaction": {"blocked": "X"}}}),
    ("top level array", []),
]


@pytest.mark.parametrize("name,doc", CASES, ids=[c[0] for c in CASES])
def test_schema_agrees_with_validate(name: str, doc: Any) -> None:
    checker = check_text(json.dumps(doc, indent=2), "case.json")
    v_errors = sorted(p.pointer for p in checker.problems if p.severity == "error")
    s_errors = _schema_errors(doc)
    assert bool(v_errors) == bool(s_errors), (v_errors, s_errors)
    for p in v_errors:
        assert any(_related(p, s) for s in s_errors), (p, s_errors)
    for s in s_errors:
        assert any(_related(p, s) for p in v_errors), (s, v_errors)
    if name.endswith("(warning)"):
        assert checker.problems and all(p.severity == "warning" for p in checker.problems)


def test_schema_on_fixture_files() -> None:
    for path in sorted(FIXTURES.glob("*.json")):
        text = path.read_text()
        checker = check_text(text, str(path))
        v_errors = [p.pointer for p in checker.problems if p.severity == "error"]
        s_errors = _schema_errors(parse(text))
        for p in v_errors:
            assert any(_related(p, s) for s in s_errors), (path.name, p, s_errors)
        for s in s_errors:
            assert any(_related(p, s) for p in v_errors), (path.name, s, v_errors)


def test_shipped_schema_is_the_generated_one() -> None:
    """Regenerate with ``python -m hookwise.settings.json_schema --write`` after changing settings/schema.py."""
    shipped = resources.files("hookwise").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    assert shipped == json_schema_text()
    assert json.loads(shipped) == json_schema()


def test_schema_is_a_valid_draft7_schema() -> None:
    jsonschema.Draft7Validator.check_schema(_schema())
    events = set(_schema()["definitions"]["hooks"]["properties"])
    from hookwise.events import EVENT_NAMES

    assert set(EVENT_NAMES) <= events


# ----------------------------------------------------------------------------- robustness

_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 70000),
    st.sampled_from(["", "*", "[", "command", "BeforeTool", "startup", "x|y", "./a.sh"]),
)
_tree = st.recursive(
    _leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.sampled_from(
                [
                    "hooks",
                    "type",
                    "command",
                    "matcher",
                    "timeout",
                    "env",
                    "name",
                    "BeforeTool",
                    "SessionStart",
                    "PreToolUse",
                    "disabled",
                    "sequential",
                ]
            ),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=12,
)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    doc=st.dictionaries(st.sampled_from(["hooks", "hooksConfig", "security"]), _tree, max_size=3)
)
def test_validate_never_crashes_and_agrees_with_schema(doc: dict[str, Any]) -> None:
    checker = check_text(json.dumps(doc, indent=2), "f.json")
    assert all(p.line is not None for p in checker.problems)
    v_errors = [p.pointer for p in checker.problems if p.severity == "error"]
    s_errors = _schema_errors(doc)
    assert bool(v_errors) == bool(s_errors), (v_errors, s_errors)
    for p in v_errors:
        assert any(_related(p, s) for s in s_errors), (p, s_errors)
    for s in s_errors:
        assert any(_related(p, s) for p in v_errors), (s, v_errors)
