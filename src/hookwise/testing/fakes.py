"""Runners and a host without processes, to test the plan executor and anything built on it.

:class:`FakeRunner` answers each hook from a table (by hook name) or a function,
and records every call (hook name and the input it saw), so planning, chaining,
ordering and merging can be tested without starting a process::

    from hookwise.core.execute import run_plan
    from hookwise.runners.base import Firing
    from hookwise.testing import FakeHost, FakeRunner

    runner = FakeRunner({"a": {"decision": "deny", "reason": "no"}})
    outcomes = run_plan(Firing(event, FakeHost()), plan, inp, {"command": runner})

It also plugs into a real :class:`~hookwise.HookSystem`:
``hs.runners["command"] = FakeRunner(...)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hookwise._records import dataclass, field
from hookwise.core.interpret import Interpretation
from hookwise.core.registry import HookEntry
from hookwise.result import HookOutcome, Outcome
from hookwise.runners.base import Firing, finish


@dataclass
class FakeAnswer:
    """What a fake hook call comes back with (``outcome`` other than ``ok`` needs an ``error``)."""

    output: dict[str, Any] | None = None
    outcome: Outcome = Outcome.OK
    error: str | None = None
    exit_code: int | None = 0


Answer = FakeAnswer | dict[str, Any] | None


@dataclass
class FakeRunner:
    """A runner of any kind that runs nothing: ``answers`` by hook name, or a function of (entry,
    input).

    A name missing from the table answers nothing (``ok``, no output). ``calls``
    lists ``(hook name, input)`` in call order; ``batches`` the hook names of
    each ``run`` call (one batch per kind in a parallel firing, one hook per
    batch in a sequential one). ``background`` says whether the executor should
    treat it like a process runner (its ``during`` work runs while it waits).
    """

    answers: Mapping[str, Answer] | Callable[[HookEntry, dict[str, Any]], Answer] = field(
        default_factory=dict
    )
    kind: str = "command"
    background: bool = False
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    batches: list[list[str]] = field(default_factory=list)

    def answer(self, entry: HookEntry, inp: dict[str, Any]) -> FakeAnswer:
        a = (
            self.answers(entry, inp)
            if callable(self.answers)
            else self.answers.get(entry.display_name)
        )
        return a if isinstance(a, FakeAnswer) else FakeAnswer(output=a)

    def run_one(self, firing: Firing, entry: HookEntry, inp: dict[str, Any]) -> HookOutcome:
        self.calls.append((entry.display_name, inp))
        a = self.answer(entry, inp)
        return finish(
            entry, firing.event, Interpretation(a.outcome, a.output, a.error), a.exit_code
        )

    def run(
        self,
        firing: Firing,
        entries: Sequence[HookEntry],
        inp: dict[str, Any],
        during: Callable[[], None] | None = None,
    ) -> list[HookOutcome]:
        self.batches.append([e.display_name for e in entries])
        if during is not None and self.background:
            during()
        out = [self.run_one(firing, e, inp) for e in entries]
        if during is not None and not self.background:
            during()
        return out

    async def run_async(
        self, firing: Firing, entries: Sequence[HookEntry], inp: dict[str, Any]
    ) -> list[HookOutcome]:
        return self.run(firing, entries, inp)


@dataclass
class FakeHost:
    """The host settings runners read, with no settings files: trust by a predicate (default: all
    trusted)."""

    project_dir: str = "/nonexistent-project"
    cwd: str = "/nonexistent-project"
    session_id: str = "fake-session"
    output_cap: int = 1 << 20
    direct_spawn: bool = False
    env: dict[str, str] = field(default_factory=dict)
    trusted: Callable[[HookEntry], bool] = field(default=lambda e: True)

    def env_for(self, entry: HookEntry) -> dict[str, str]:
        return self.env

    def is_trusted(self, entry: HookEntry) -> bool:
        return self.trusted(entry)

    def extra_vars(self, session_id: str) -> dict[str, str]:
        return {}

    def persistent_pool(self) -> Any:
        raise RuntimeError("FakeHost has no persistent hook processes")
