"""Guards for the closed sets and the public surface."""

from __future__ import annotations

import importlib

import hookwise
from hookwise.cli.main import COMMANDS
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
    assert {o.value for o in Outcome} == {"ok", "blocked", "failed", "not-run", "timeout", "skipped"}


def test_public_api_is_sorted_and_importable() -> None:
    assert hookwise.__all__ == sorted(hookwise.__all__)
    for name in hookwise.__all__:
        assert getattr(hookwise, name) is not None


def test_every_cli_command_module_exists() -> None:
    for name, (module, _help) in COMMANDS.items():
        mod = importlib.import_module(module)
        assert callable(mod.configure) and callable(mod.run), name
