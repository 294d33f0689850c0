"""The runner of in-process Python hooks (``type: "python"``: registered from code, or ``callable``
in settings).

One body for both entry points: :meth:`PythonRunner.run` (``fire``) and
:meth:`PythonRunner.run_async` (``fire_async``) hand every call to a worker
(:mod:`hookwise.runners._workers`), abandoned at its deadline, so that no hook
can hold a firing or block the host's loop. The one exception is a function the
host registered with ``inline=True`` (code only, never from settings): it is
called on the firing's thread (:func:`_run_inline`) and, past its timeout,
waited for and discarded. Either way the answer goes through :func:`_settle`:
a raised exception is ``failed``, an overrun ``timeout`` (its answer discarded),
anything else :func:`interpret_python`.
"""

from __future__ import annotations

import _thread
import contextvars
import os
import sys
import time

from hookwise._records import TYPE_CHECKING
from hookwise.core.interpret import Interpretation, interpret_python
from hookwise.core.keys import FLAG, CallableRef, Key
from hookwise.core.registry import HookEntry, KindSpec, PythonSpec
from hookwise.result import HookOutcome, Outcome
from hookwise.runners import _workers
from hookwise.runners.base import Firing, PerHookRunner, check_answer, finish
from hookwise.runners.dialects import NATIVE, dialect
from hookwise.runners.kind import HookKind, Material, env_lines

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any


class PythonRunner(PerHookRunner):
    """Calls ``entry.func(input)``; one outcome per entry, in order."""

    kind = "python"
    #: runs on the calling thread: the executor runs it while background runners wait
    background = False

    def run_one(self, firing: Firing, entry: HookEntry, inp: dict[str, Any]) -> HookOutcome:
        func = _func(firing, entry)
        if isinstance(func, HookOutcome):
            return func
        inp, d = _shape(firing, entry, func, inp)
        if _isolated(entry):
            from hookwise.runners import _isolated as iso

            return iso.run(firing, entry, inp, d, import_root(firing, entry))
        t0 = time.perf_counter()
        if _inline(entry):
            return _run_inline(firing, entry, func, inp, d, t0)
        place = IN_PLACE.get()
        if place is not None and place.entry is entry:
            return _run_in_place(place, firing, entry, func, inp, d, t0)
        try:  # on a worker, plain functions too: abandoned at the deadline (docs/hook-types.md)
            value = _workers.call(func, inp, entry.timeout_ms / 1000.0)
        except Exception as exc:  # a hook's bug is its outcome, not ours
            return _settle(firing, entry, t0, None, exc)
        return _settle(firing, entry, t0, value, None, d, inp)

    async def run_one_async(
        self, firing: Firing, entry: HookEntry, inp: dict[str, Any]
    ) -> HookOutcome:
        func = _func(firing, entry)
        if isinstance(func, HookOutcome):
            return func
        inp, d = _shape(firing, entry, func, inp)
        if _isolated(entry):
            from hookwise.runners import _isolated as iso
            from hookwise.runners._workers import in_thread

            root = import_root(firing, entry)
            return await in_thread(iso.run, firing, entry, inp, d, root)  # type: ignore[no-any-return]
        t0 = time.perf_counter()
        if _inline(
            entry
        ):  # the host's own choice: on its loop's thread (it blocks the loop while it runs)
            return _run_inline(firing, entry, func, inp, d, t0)
        try:  # on a worker, never on the caller's loop: a hook that blocks cannot stall the host
            value = await _workers.call_async(func, inp, entry.timeout_ms / 1000.0)
        except Exception as exc:
            return _settle(firing, entry, t0, None, exc)
        return _settle(firing, entry, t0, value, None, d, inp)


def _inline(entry: HookEntry) -> bool:
    """``register(..., inline=True)``: a function of the host's own code, called on the firing's
    thread.

    Only a function registered from code qualifies (``spec.func``): no settings key sets ``inline``,
    and a ``callable`` from a settings file always runs on a worker (docs/security.md).
    """
    spec = entry.spec
    return spec.__class__ is PythonSpec and spec.inline and spec.func is not None  # type: ignore[attr-defined]


def _run_inline(
    firing: Firing, entry: HookEntry, func: Any, inp: dict[str, Any], d: Any, t0: float
) -> HookOutcome:
    """Call ``func(inp)`` here, in a copy of the caller's context (as on a worker: the hook sees the
    caller's context variables and cannot change them). What it raises is its outcome,
    ``SystemExit`` and ``KeyboardInterrupt`` too; a call past its timeout cannot be abandoned, so
    its answer is discarded afterwards (:func:`_settle`: outcome ``timeout``). An awaitable it
    returns is awaited on a worker."""
    try:
        value = contextvars.copy_context().run(func, inp)
        if value is not None and value.__class__ is not dict and _workers.is_awaitable(value):
            left = entry.timeout_ms / 1000.0 - (time.perf_counter() - t0)
            value = _workers.call(None, None, left, value)
    except Exception as exc:  # a hook's bug is its outcome, not ours
        return _settle(firing, entry, t0, None, exc)
    except (
        BaseException
    ) as exc:  # SystemExit, KeyboardInterrupt...: the hook's, never the host's end
        return _settle(firing, entry, t0, None, _workers.HookEscaped(exc))
    return _settle(firing, entry, t0, value, None, d, inp)


# ----------------------------------------------------------------------------------------- in place

_PENDING, _RUNNING, _DONE, _GIVEN_UP, _EXPIRED = range(5)


class Abandoned(BaseException):
    """Ends the firing of a call run in place that its host gave up on (:meth:`InPlace.give_up`):
    the host answered with the timeout already; this firing records nothing and its answer is
    dropped."""


class InPlace:
    """A host's (``hookwise serve``'s) request to run a firing's one python hook on the firing's own
    thread.

    The host sets :data:`IN_PLACE` around the firing and arms its own deadline: the hook's timeout +
    :data:`~hookwise.runners._workers.CANCEL_GRACE_S`, the time a caller waits for a worker. Past it
    the host calls :meth:`give_up`; if the call has not finished, the host fires the event again
    with :meth:`expired`, where the hook's outcome is the timeout a worker gives
    (:func:`_run_in_place`), and answers with that. The hung call's firing ends with
    :class:`Abandoned` when the hook returns (or never starts the hook). The states change under
    ``lock``: exactly one of the two firings answers.
    """

    __slots__ = ("entry", "t0", "state", "lock")

    def __init__(self, entry: HookEntry) -> None:
        self.entry = entry
        #: when the call started (before it starts: when the host armed its deadline)
        self.t0 = time.perf_counter()
        self.state = _PENDING
        self.lock = _thread.allocate_lock()

    def _move(self, to: int, unless: tuple[int, ...]) -> bool:
        with self.lock:
            if self.state in unless:
                return False
            self.state = to
            return True

    def give_up(self) -> bool:
        """The host's deadline passed: True when the call had not finished (the host answers), else
        False."""
        return self._move(_GIVEN_UP, (_DONE, _GIVEN_UP))

    def settle(self) -> bool:
        """The firing returned: True when it answers (the host did not give up on it), else
        False."""
        return self._move(_DONE, (_GIVEN_UP,))

    def expired(self) -> InPlace:
        """What the host's second firing runs with (after :meth:`give_up`): the call's timeout
        outcome, timed from the call's start, without calling the hook."""
        other = InPlace(self.entry)
        other.t0, other.state = self.t0, _EXPIRED
        return other


#: set by a host around a firing whose one python hook it runs in place (:class:`InPlace`)
IN_PLACE: contextvars.ContextVar[InPlace | None] = contextvars.ContextVar(
    "hookwise_in_place", default=None
)


def _run_in_place(
    place: InPlace,
    firing: Firing,
    entry: HookEntry,
    func: Any,
    inp: dict[str, Any],
    d: Any,
    t0: float,
) -> HookOutcome:
    """Call ``func(inp)`` on this thread for a host that keeps the deadline itself
    (:class:`InPlace`).

    What the hook raises becomes what a worker would hand back
    (:func:`hookwise.runners._workers._caught`); in the host's second firing after it gave up, the
    outcome is the timeout a worker gives, timed from the call's start."""
    if place.state == _EXPIRED:  # the host's firing after its deadline: what a worker's caller gets
        return _settle(firing, entry, place.t0, None, _workers.HookTimeout(True))
    if not place._move(_RUNNING, (_GIVEN_UP,)):
        raise Abandoned  # given up before it started: never start it
    place.t0 = t0
    error: Exception | None = None
    value: Any = None
    try:
        value = contextvars.copy_context().run(func, inp)
        if value is not None and value.__class__ is not dict and _workers.is_awaitable(value):
            left = entry.timeout_ms / 1000.0 - (time.perf_counter() - t0)
            value = _workers.call(None, None, left, value)
    except BaseException as exc:  # a hook's bug is its outcome, as on a worker
        error = _workers._caught(exc)
    if not place.settle():
        raise Abandoned  # the host answered with the timeout meanwhile
    return _settle(firing, entry, t0, value, error, d, inp)


def _isolated(entry: HookEntry) -> bool:
    """``"isolate": true``: the function runs in a subprocess of its own (runners/_isolated.py)."""
    return isinstance(entry.spec, PythonSpec) and entry.spec.isolate and entry.func is None


def _func(firing: Firing, entry: HookEntry) -> Callable[[dict[str, Any]], Any] | HookOutcome:
    """The hook's function: registered from code, or imported from its settings ``callable``
    (docs/hook-types.md).

    A ``callable`` that cannot be imported, or is not callable, is a ``not-run``
    outcome naming the cause. A project's (extension's) module is looked up in
    its directory first; the executor has already checked the hook is trusted.
    """
    func = entry.func
    if func is not None:
        return func
    spec = entry.spec.target
    if not isinstance(entry.spec, PythonSpec) or not spec:
        raise ValueError(f"Python hook {entry.display_name!r} has no function")
    from hookwise.runners import callable as _callable

    func, why = _callable.load(spec, import_root(firing, entry), firing.host.module_recheck_s)
    if func is None:
        return finish(entry, firing.event, Interpretation(Outcome.NOT_RUN, None, why))
    return func


def import_root(firing: Firing, entry: HookEntry) -> str | None:
    """The directory a settings hook's own module is looked up in (project or extension), else
    None."""
    return entry.module_dir(firing.host.project_dir)


def _shape(
    firing: Firing, entry: HookEntry, func: Any, inp: dict[str, Any]
) -> tuple[dict[str, Any], Any]:
    """The input in the hook's dialect (its own, or the one ``@hookwise.hook(dialect=...)`` gave the
    function), and that dialect's strategy when answers need normalising (settings hooks and dialect
    hooks), else None."""
    name = entry.dialect
    if name is None:
        authoring = sys.modules.get("hookwise.authoring")
        if authoring is not None and isinstance(func, authoring.HookFunction):
            name = func.dialect
        elif entry.func is not None:
            # a function registered from code: the contract's input (never the Claude-only fields),
            # its answer as is
            return NATIVE.encode_input(firing.event, inp, entry), None

    d = dialect(name)
    return d.encode_input(firing.event, inp, entry), d


def _raised(entry: HookEntry, exc: Exception) -> Interpretation:
    """:class:`hookwise.authoring.Block` blocks like exit code 2; any other exception is
    ``failed``."""
    authoring = sys.modules.get("hookwise.authoring")
    if authoring is not None and isinstance(exc, authoring.Block):
        return Interpretation(
            Outcome.BLOCKED,
            {"decision": "deny", "reason": exc.reason or f"Blocked by hook {entry.display_name}"},
            None,
        )
    from hookwise.runners._workers import HookEscaped

    error = (
        f"raised {exc} (a hook cannot end the host; its outcome is failed)"
        if isinstance(exc, HookEscaped)
        else f"raised {type(exc).__name__}: {exc}"
    )
    if (
        entry.func is None
    ):  # a settings hook answers like its command form would (exit 1 + text: a warning message)
        return Interpretation(Outcome.FAILED, {"systemMessage": f"Warning: {error}"}, error)
    return Interpretation(Outcome.FAILED, None, error)


def _settle(
    firing: Firing,
    entry: HookEntry,
    t0: float,
    value: Any,
    exc: Exception | None,
    d: Any = None,
    inp: dict[str, Any] | None = None,
) -> HookOutcome:
    """The outcome of one call: what it returned or raised, and how long it took."""
    elapsed = (time.perf_counter() - t0) * 1000
    if exc is not None:
        it = (
            Interpretation(Outcome.TIMEOUT, None, _workers.timeout_text(entry.timeout_ms, exc))
            if isinstance(exc, _workers.HookTimeout)
            else _raised(entry, exc)
        )
    elif elapsed > entry.timeout_ms:
        it = Interpretation(
            Outcome.TIMEOUT,
            None,
            f"took {elapsed:.0f} ms, over its timeout of "
            f"{entry.timeout_ms} ms (its answer was discarded)",
        )
    else:
        it = interpret_python(entry.display_name, value)
        if d is not None and it.output is not None:
            it = Interpretation(
                it.outcome, d.normalize_output(firing.event, it.output, inp), it.error, True
            )
    return check_answer(finish(entry, firing.event, it, None, elapsed), firing.event, entry, inp)


class PythonKind(PythonRunner, HookKind):
    """``"type": "python"``: a function called in process (docs/hook-types.md); one row of
    :data:`hookwise.runners.KINDS`."""

    name = "python"
    doc = "hookwise: call an importable Python function in process (docs/hook-types.md)."
    spec = PythonSpec

    keys = (
        Key(
            "callable",
            CallableRef(),
            'python hooks: "package.module:function"; a project module is imported from '
            "the project directory once the hook is trusted.",
            types=("python",),
            required=True,
            attr="callable",
            missing='missing "callable": the function to call, as "package.module:function"',
        ),
        Key(
            "isolate",
            FLAG,
            "python hooks: run the function in a subprocess of its own (it can then be killed at "
            "its timeout, and os._exit or a crash in C code cannot take the host down).",
            types=("python",),
            attr="isolate",
            default=False,
        ),
    )

    def make_spec(self, values: dict[str, Any]) -> KindSpec:
        return PythonSpec(str(values.get("callable", "")), isolate=values.get("isolate") is True)

    def trust_material(self, entry: HookEntry, root: str, values: Mapping[str, str]) -> Material:
        """The reference (in the identity), ``env``, and every file under ``root`` Python could load
        for the module: its source, its packages' ``__init__``, a sourceless ``.pyc`` or an
        extension module beside them, and project modules named like standard-library ones
        (docs/hook-types.md)."""
        ref = entry.spec.target
        files = [(ref, os.path.realpath(f)) for f in module_candidates(ref, root)]
        return Material(env_lines(entry), files)

    def display(self, entry: HookEntry) -> tuple[str, str]:
        return ("callable", entry.spec.target or f"<function {entry.name}>")

    def from_claude(self, raw: dict[str, Any]) -> KindSpec | None:
        return None  # Claude Code has no in-process hooks

    def to_claude(self, spec: KindSpec) -> dict[str, Any]:
        raise ValueError(
            "python hooks cannot be written for Claude Code (it has no in-process hooks)"
        )


#: suffixes of the files Python loads a module from instead of its source (sourceless bytecode,
#: extensions)
_LOADED_INSTEAD = (".pyc", ".so", ".pyd")


def module_candidates(ref: str, root: str) -> list[str]:
    """The files under ``root`` that importing the module of ``ref`` may execute, sorted within each
    level.

    The sources (package ``__init__`` files and the module, as
    :func:`~hookwise.runners.callable.module_files` finds them), any ``name.pyc`` / ``name.*.so`` /
    ``name.pyd`` beside a level's name, and, at the top, every project module or package named like
    a standard-library module (it would shadow it for the hook). ``__pycache__`` is left out: the
    runner loads project modules from source (runners/callable.py).
    """
    from hookwise.runners.callable import module_files

    out = list(module_files(ref, root))
    base = root
    for part in ref.partition(":")[0].split("."):
        out.extend(_beside(base, part))
        base = os.path.join(base, part)
        if not os.path.isdir(base):
            break
    out.extend(_stdlib_shadows(root))
    seen: set[str] = set()
    return [f for f in out if not (f in seen or seen.add(f))]  # type: ignore[func-returns-value]


def _beside(directory: str, name: str) -> list[str]:
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    return [
        os.path.join(directory, n)
        for n in names
        if n.startswith(name + ".")
        and n.endswith(_LOADED_INSTEAD)
        and os.path.isfile(os.path.join(directory, n))
    ]


def _stdlib_shadows(root: str) -> list[str]:
    """Top-level files and packages of ``root`` named like a standard-library module."""
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    stdlib = sys.stdlib_module_names
    out = []
    for n in names:
        stem = n.split(".", 1)[0]
        if stem not in stdlib or stem == n and not os.path.isdir(os.path.join(root, n)):
            continue
        path = os.path.join(root, n)
        if os.path.isdir(path):
            init = os.path.join(path, "__init__.py")
            if os.path.isfile(init):
                out.append(init)
        elif n.endswith((".py", *_LOADED_INSTEAD)):
            out.append(path)
    return out
