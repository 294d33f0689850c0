"""Guards for the closed sets and the public surface."""

from __future__ import annotations

import importlib

import pytest

import hookwise
from hookwise.cli.base import COMMANDS
from hookwise.events import EVENT_SPECS, HookEvent
from hookwise.result import Outcome


def test_event_table_covers_every_event() -> None:
    assert set(EVENT_SPECS) == set(HookEvent)
    assert len(HookEvent) == 11
    for ev, spec in EVENT_SPECS.items():
        assert spec.event is ev
        assert set(spec.required) <= set(spec.fields)
        assert spec.match_field is None or spec.match_field in spec.fields


def test_outcome_values_are_the_contract_words() -> None:
    assert {o.value for o in Outcome} == {
        "ok",
        "blocked",
        "failed",
        "not-run",
        "timeout",
        "skipped",
    }


def test_public_api_is_sorted_and_importable() -> None:
    assert hookwise.__all__ == sorted(hookwise.__all__)
    for name in hookwise.__all__:
        assert getattr(hookwise, name) is not None


def test_every_cli_command_module_exists() -> None:
    for name, (module, _help) in COMMANDS.items():
        mod = importlib.import_module(module)
        assert callable(mod.configure) and callable(mod.run), name


def test_public_api_is_exactly_the_lazy_table_and_every_error() -> None:
    from hookwise import _LAZY, errors, input_errors

    assert set(hookwise.__all__) == {*_LAZY, "__version__"}
    public_errors = {cls.__name__ for cls in errors.ERRORS}
    defined = {
        name
        for name, obj in vars(errors).items()
        if not name.startswith("_") and isinstance(obj, type) and issubclass(obj, Exception)
    }
    assert defined == public_errors, "every exception class in errors.py is in errors.ERRORS"
    assert {
        name
        for name, obj in vars(input_errors).items()
        if not name.startswith("_") and isinstance(obj, type) and issubclass(obj, Exception)
    } <= public_errors, "the firing path's errors (input_errors.py) are errors.py's too"
    assert public_errors <= set(hookwise.__all__), "every public error is exported from hookwise"
    for name in public_errors:
        assert getattr(hookwise, name) is getattr(errors, name)
        assert issubclass(getattr(errors, name), errors.HookwiseError)


@pytest.mark.slow
def test_no_exception_class_outside_errors_py() -> None:
    import ast
    import pathlib

    root = pathlib.Path(hookwise.__file__).parent
    stray = []
    for path in root.rglob("*.py"):
        if path.name in ("errors.py", "input_errors.py") or "cli" in path.parts:
            # cli.UsageError is the CLI's own, never raised to callers; input_errors.py is
            # errors.py's part
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name.endswith("Error"):
                stray.append(f"{path.relative_to(root)}:{node.name}")
    assert stray == []


def test_version_comes_from_the_installed_metadata() -> None:
    from importlib.metadata import version

    assert hookwise.__version__ == version("hookwise")


def test_wire_input_types_name_exactly_the_event_table_fields() -> None:
    from hookwise import wire
    from hookwise.events import BASE_FIELDS

    assert set(wire.INPUT_TYPES) == {e.value for e in HookEvent}
    for ev, spec in EVENT_SPECS.items():
        td = wire.INPUT_TYPES[ev.value]
        assert set(td.__annotations__) == set(BASE_FIELDS) | set(spec.fields), ev
        assert set(BASE_FIELDS) | set(spec.required) <= td.__required_keys__, ev


def test_decision_words_are_written_once_and_agree() -> None:
    import typing

    from hookwise import events, wire

    assert set(events.DECISIONS) >= events.BLOCKING_DECISIONS
    assert set(typing.get_args(wire.Decision)) == set(events.DECISIONS)


@pytest.mark.slow
def test_the_blocking_decisions_are_spelled_out_only_in_their_table() -> None:
    """``deny``/``block`` as a literal set of their own is events.BLOCKING_DECISIONS, nowhere else
    (code asks result.asks_to_block or reads the table)."""
    import ast
    import pathlib

    import hookwise

    pkg = pathlib.Path(hookwise.__file__).parent
    found = []
    for path in sorted(pkg.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node.elts:
                words = {e.value for e in node.elts if isinstance(e, ast.Constant)}
                if words == {"deny", "block"} and len(node.elts) == 2:
                    found.append(f"{path.relative_to(pkg)}:{node.lineno}")
    table = next(
        i
        for i, line in enumerate((pkg / "events.py").read_text(encoding="utf-8").splitlines(), 1)
        if line.startswith("BLOCKING_DECISIONS")
    )
    assert found == [f"events.py:{table}"]


def test_the_kind_table_covers_every_hook_type() -> None:
    from hookwise.runners import KINDS, RUNNERS, sync_kinds
    from hookwise.runners.kind import HOOK_TYPES

    sync_kinds()
    assert set(KINDS) == {
        t.runs_as or t.name for t in HOOK_TYPES.values() if t.loads
    }  # "runtime": from code
    assert RUNNERS is KINDS  # the running half is the same rows
    for name, kind in KINDS.items():
        assert kind.name == name
