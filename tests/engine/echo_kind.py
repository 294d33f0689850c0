"""A throwaway fourth hook kind (``"type": "echo"``): one module; tests/engine/test_kinds.py adds
its one row.

An echo hook answers with a system message holding its ``text``, in process. It exists to show
that everything about a kind is read from its :class:`~hookwise.runners.kind.HookKind` row.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hookwise.core.interpret import Interpretation
from hookwise.core.keys import Key, Text
from hookwise.core.registry import HookEntry, KindSpec
from hookwise.result import HookOutcome, Outcome
from hookwise.runners.base import Firing, PerHookRunner, finish
from hookwise.runners.kind import HookKind, Material, env_lines


@dataclass(frozen=True)
class EchoSpec(KindSpec):
    text: str = ""

    @property
    def target(self) -> str:
        return self.text


class EchoKind(PerHookRunner, HookKind):
    name = "echo"
    doc = "test only: answer with a system message."
    spec = EchoSpec
    background = False
    keys = (
        Key(
            "text",
            Text(nonempty=True),
            "echo hooks: the message.",
            types=("echo",),
            required=True,
            attr="text",
            missing='missing "text": the message to answer with',
        ),
    )

    def __init__(self) -> None:
        self.used: set[str] = set()  # which members were called

    def make_spec(self, values: dict[str, Any]) -> KindSpec:
        self.used.add("make_spec")
        return EchoSpec(str(values.get("text", "")))

    def run_one(self, firing: Firing, entry: HookEntry, inp: dict[str, Any]) -> HookOutcome:
        self.used.add("run")
        assert isinstance(entry.spec, EchoSpec)
        answer = {"systemMessage": f"echo: {entry.spec.text}"}
        return finish(entry, firing.event, Interpretation(Outcome.OK, answer, None))

    def trust_material(self, entry: HookEntry, root: str, values: Mapping[str, str]) -> Material:
        self.used.add("trust_material")
        return Material([("says", entry.spec.target), *env_lines(entry)], [])

    def display(self, entry: HookEntry) -> tuple[str, str]:
        self.used.add("display")
        return ("text", entry.spec.target)

    def from_claude(self, raw: dict[str, Any]) -> KindSpec | None:
        self.used.add("from_claude")
        return None

    def to_claude(self, spec: KindSpec) -> dict[str, Any]:
        self.used.add("to_claude")
        assert isinstance(spec, EchoSpec)
        return {"type": "command", "command": f"echo {spec.text}"}
