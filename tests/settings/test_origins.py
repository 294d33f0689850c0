"""Every settings key states where it may come from, and the loader, ``validate``, ``list`` and the JSON
Schema all read that one column (settings/schema.py ``Origin``; docs/security.md).

The walk: for every row of every table, a file of every layer sets the key to a usable value. A layer
the row admits loads it with no warning; any other layer gets exactly one warning naming the file and
the key, from the loader, from ``hookwise validate`` and in ``hookwise list --json``, and the value has
no effect.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from typing import Any

import pytest
from tests.conftest import Project

from hookwise.cli.main import main
from hookwise.core.keys import FLAG, TEXT, USER_AND_SYSTEM, Flag, Key, Names, OneOf, Origin
from hookwise.core.keys import HOOK_SOURCES as SOURCES
from hookwise.settings.json_schema import json_schema
from hookwise.settings.load import load_settings
from hookwise.settings.schema import (
    DEFINITION_KEYS,
    HOOK_KEYS,
    HOOK_ORIGIN,
    HOOKS_CONFIG_KEYS,
    REDACTION_KEYS,
    TELEMETRY_KEYS,
)
from hookwise.settings.validate import validate_project

#: (table, where its object sits in a settings file, its name in the JSON Schema's definitions)
SETTINGS_TABLES: list[tuple[dict[str, Key], tuple[str, ...], str]] = [
    (HOOKS_CONFIG_KEYS, ("hooksConfig",), "hooksConfig"),
    (REDACTION_KEYS, ("security", "environmentVariableRedaction"), "redaction"),
    (TELEMETRY_KEYS, ("telemetry",), "telemetry"),
]
ALL_TABLES = {
    "HOOK_KEYS": HOOK_KEYS,
    "DEFINITION_KEYS": DEFINITION_KEYS,
    "HOOKS_CONFIG_KEYS": HOOKS_CONFIG_KEYS,
    "REDACTION_KEYS": REDACTION_KEYS,
    "TELEMETRY_KEYS": TELEMETRY_KEYS,
}
#: the settings files' layers as the test project writes them, with their source label
LAYERS = {"system-defaults": "system", "user": "user", "project": "project", "system": "system"}

ROWS = [
    pytest.param(table, path, defname, name, id=".".join([*path, name]))
    for table, path, defname in SETTINGS_TABLES
    for name in table
]


def usable_value(row: Key) -> Any:
    """A value the row's kind accepts, chosen outside ``narrows`` so that the origin rule decides."""
    kind = row.kind
    if isinstance(kind, Flag):
        return not row.source_rule.narrows[0] if row.source_rule.narrows else True
    if isinstance(kind, OneOf):
        return kind.choices[-1]
    if isinstance(kind, Names):
        return ["SOME_NAME"]
    return "somewhere.jsonl" if row.name == "outfile" else "http://127.0.0.1:9"


def nest(path: tuple[str, ...], key: str, value: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {key: value}
    for part in reversed(path):
        doc = {part: doc}
    return doc


def run_cli(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue() + err.getvalue()


@pytest.mark.parametrize("name,table", ALL_TABLES.items())
def test_every_row_states_its_origin(name: str, table: dict[str, Key]) -> None:
    for key, row in table.items():
        assert isinstance(row.origin, Origin), f"{name}[{key!r}] states no origin"
        assert row.origin.layers, f"{name}[{key!r}] may be set from nowhere"
        assert set(row.origin.layers) <= set(SOURCES), (name, key)
    if table is HOOK_KEYS or table is DEFINITION_KEYS:
        assert all(row.origin is HOOK_ORIGIN for row in table.values())


@pytest.mark.parametrize("table,path,defname,key", ROWS)
def test_each_layer_sets_the_key_or_is_told_once(
    project: Project, table: dict[str, Key], path: tuple[str, ...], defname: str, key: str
) -> None:
    row = table[key]
    value = usable_value(row)
    dotted = ".".join([*path, key])
    for layer, label in LAYERS.items():
        for other in LAYERS:  # one layer at a time
            if project.settings_path(other).exists():
                project.settings_path(other).unlink()
        file = project.write_settings(nest(path, key, value), layer)
        admitted = label in row.origin.layers  # type: ignore[union-attr]
        loaded = load_settings(str(project.root))
        said = [w for w in loaded.warnings if f"may set {dotted}" in w]
        if admitted:
            assert said == [], (layer, said)
        else:
            assert len(said) == 1 and said[0].startswith(str(file)), (layer, loaded.warnings)
            assert f"only {row.source_rule.who()} may set {dotted}" in said[0]
        effect = {
            "hooksConfig": loaded.hooks_config.get(key),
            "telemetry": loaded.telemetry.get(key),
        }.get(path[0])
        if path[0] != "security" and key not in ("enabled", "disabled") or path[0] == "telemetry":
            assert (effect == value) is admitted, (layer, effect)
        report = validate_project(str(project.root))
        told = [p for p in report.problems if f"may set {dotted}" in p.message]
        assert len(told) == (0 if admitted else 1), (layer, [str(p) for p in told])
        if told:
            assert told[0].path == str(file) and told[0].severity == "warning"
            assert told[0].message in said[0]
        code, out = run_cli("--project", str(project.root), "list", "--json")
        listed = json.loads(out[: out.rindex("}") + 1])
        assert code == 0 and sum(f"may set {dotted}" in w for w in listed["warnings"]) == (
            0 if admitted else 1
        )
        ignored = [(k["key"], k["file"], k["layer"]) for k in listed.get("ignoredKeys", [])]
        assert ignored == ([] if admitted else [(dotted, str(file), label)])


@pytest.mark.parametrize("table,path,defname,key", ROWS)
def test_the_json_schema_states_the_origin(
    table: dict[str, Key], path: tuple[str, ...], defname: str, key: str
) -> None:
    prop = json_schema()["definitions"][defname]["properties"][key]
    origin = table[key].source_rule
    if "project" in origin.layers:
        assert "x-hookwise-layers" not in prop
    else:
        assert prop["x-hookwise-layers"] == list(origin.layers)
        assert origin.statement() in prop["description"]


def test_a_project_may_only_narrow(project: Project) -> None:
    """``narrows`` values are admitted from every layer: they only make hookwise stricter."""
    project.write_settings(
        {"telemetry": {"enabled": True, "logPrompts": True, "outfile": "/tmp/x"}}, "user"
    )
    project.write_settings({"telemetry": {"enabled": False, "logPrompts": False}})
    loaded = load_settings(str(project.root))
    assert loaded.telemetry == {"enabled": False, "logPrompts": False, "outfile": "/tmp/x"}
    assert not [w for w in loaded.warnings if "telemetry" in w]


def test_a_later_key_declares_its_origin_in_one_row(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Adding a row with an origin is all it takes: a hook key or a hooksConfig key is refused from a project."""
    user_only = Origin(USER_AND_SYSTEM, why="do something")
    monkeypatch.setitem(HOOKS_CONFIG_KEYS, "mode", Key("mode", TEXT, origin=user_only))
    monkeypatch.setitem(HOOK_KEYS, "isolate", Key("isolate", FLAG, origin=user_only))
    hook = {"type": "command", "command": "true", "isolate": True}
    doc = {"hooksConfig": {"mode": "x"}, "hooks": {"BeforeAgent": [{"hooks": [hook]}]}}
    path = project.write_settings(doc)
    loaded = load_settings(str(project.root))
    said = [w for w in loaded.warnings if "may set" in w]
    assert len(said) == 2 and all(w.startswith(str(path)) for w in said), said
    assert '"isolate"' in said[0] and "hooksConfig.mode" in said[1]
    assert "mode" not in loaded.hooks_config and len(loaded.entries) == 1  # the hook itself loads
    project.write_settings(doc, "user")
    path.unlink()
    loaded = load_settings(str(project.root))
    assert not [w for w in loaded.warnings if "may set" in w]
    assert loaded.hooks_config["mode"] == "x" and len(loaded.entries) == 1


def test_docs_security_lists_every_key_with_its_origin() -> None:
    """docs/security.md's origin table is the schema's column, row for row."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "security.md").read_text()
    table = doc.split("| key | may be set by |", 1)[1].split("\n\n", 1)[0]
    rows: dict[str, tuple[set[str], str, str]] = {}
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0].startswith("`"):
            rows[cells[0].strip("`")] = (
                {x.strip() for x in cells[1].split(",")},
                cells[2],
                cells[3],
            )
    expected = {
        ".".join([*path, name]): row.source_rule
        for table_, path, _ in SETTINGS_TABLES
        for name, row in table_.items()
    }
    assert set(rows) == set(expected)
    for key, origin in expected.items():
        layers, narrows, trust = rows[key]
        assert layers == set(origin.layers), key
        assert narrows == " or ".join(f"`{json.dumps(v)}`" for v in origin.narrows), key
        assert (trust == "yes") is origin.trust, key
