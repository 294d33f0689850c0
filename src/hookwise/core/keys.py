"""Settings keys and the kinds of value they take: one :class:`Key` row per key, read by a :class:`Kind`.

The tables of :mod:`hookwise.settings.schema` and the keys each hook kind owns
(``HookKind.keys`` in :mod:`hookwise.runners`) are made of these rows, so the
loader, ``hookwise validate``, the JSON Schema and migration read one
description. Pure: reading a value never touches the file system.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING, dataclass
from hookwise.core.registry import PROJECT as PROJECT  # the source labels, here for the key tables
from hookwise.core.registry import SOURCES, SYSTEM, USER
from hookwise.jsonc.codec import dumps
from hookwise.jsonc.parse import kind_of, pointer

if TYPE_CHECKING:  # typing is not imported when firing
    from typing import Any, Literal

    Severity = Literal["error", "warning"]

ERROR: Severity = "error"
WARNING: Severity = "warning"


@dataclass(frozen=True)
class Note:
    """What a :class:`Kind` says about one value; ``suffix`` extends the key's pointer (``/env/NAME``)."""

    message: str
    severity: Severity = ERROR
    at_load: bool = False
    suffix: str = ""


def show(value: Any) -> str:
    """A value as it is written in JSON (``"5s"``, ``true``, ``null``), for messages."""
    try:
        return dumps(value, ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError):
        return repr(value)


def _num(v: float) -> str:
    """A number for messages: ``30``, ``0.5``, ``1500.5``, ``inf``, ``1.00e+30`` for long integers."""
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() and abs(v) < 1e16 else repr(v)
    sign, s = ("-" if v < 0 else ""), str(abs(v))
    return sign + (s if len(s) <= 20 else f"{s[:1]}.{s[1:3]}e+{len(s) - 1}")


def _ceil(v: float) -> int:
    """The smallest whole number >= ``v`` (what :func:`math.ceil` gives, without importing math on every start)."""
    return -int(-v // 1)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class Kind:
    """How one key's value is read (``read``) and described for editors (``json``)."""

    def json(self) -> dict[str, Any]:
        raise NotImplementedError

    def read(self, key: str, value: Any) -> tuple[Any, list[Note]]:
        """The value as used, plus notes; any ``error`` note means the value cannot be used."""
        raise NotImplementedError


class Text(Kind):
    def __init__(self, *, nonempty: bool = False) -> None:
        self.nonempty = nonempty

    def json(self) -> dict[str, Any]:
        return {"type": "string", "pattern": "\\S"} if self.nonempty else {"type": "string"}

    def read(self, key: str, value: Any) -> tuple[Any, list[Note]]:
        if not isinstance(value, str):
            return None, [Note(f'"{key}" must be a string, got {kind_of(value)}')]
        if self.nonempty and not value.strip():
            return None, [Note(f'"{key}" is empty')]
        return value, []


class Flag(Kind):
    def json(self) -> dict[str, Any]:
        return {"type": "boolean"}

    def read(self, key: str, value: Any) -> tuple[Any, list[Note]]:
        if not isinstance(value, bool):
            return None, [Note(f'"{key}" must be true or false, got {show(value)}')]
        return value, []


class OneOf(Kind):
    def __init__(self, *choices: str) -> None:
        self.choices = choices

    def json(self) -> dict[str, Any]:
        return {"enum": list(self.choices)}

    def read(self, key: str, value: Any) -> tuple[Any, list[Note]]:
        if not isinstance(value, str) or value not in self.choices:
            expected = " or ".join(show(c) for c in self.choices)
            return None, [Note(f'"{key}" must be {expected}, got {show(value)}')]
        return value, []


class Names(Kind):
    """An array of strings; a wrong item is dropped on its own."""

    def json(self) -> dict[str, Any]:
        return {"type": "array", "items": {"type": "string"}}

    def read(self, key: str, value: Any) -> tuple[Any, list[Note]]:
        if not isinstance(value, list):
            return None, [Note(f'"{key}" must be an array of strings, got {kind_of(value)}')]
        return [s for s in value if isinstance(s, str)], [
            Note(f"expected a string, got {kind_of(s)}", suffix=f"/{i}")
            for i, s in enumerate(value)
            if not isinstance(s, str)
        ]


class Url(Kind):
    """An ``http`` hook's address: absolute ``http://`` or ``https://`` with a host (docs/hook-types.md)."""

    def json(self) -> dict[str, Any]:
        return {"type": "string", "pattern": "^https?://[^\\s/?#]+[^\\s]*$"}

    def read(self, key: str, value: Any) -> tuple[Any, list[Note]]:
        from hookwise.core.hook_kinds import check_url

        bad = check_url(value)
        return (None, [Note(bad)]) if bad else (value, [])


class CallableRef(Kind):
    """A ``python`` hook's ``"package.module:function"``."""

    def json(self) -> dict[str, Any]:
        return {"type": "string", "pattern": "^[A-Za-z_][\\w.]*:[A-Za-z_][\\w.]*$"}

    def read(self, key: str, value: Any) -> tuple[Any, list[Note]]:
        from hookwise.core.hook_kinds import check_callable

        bad = check_callable(value)
        return (None, [Note(bad)]) if bad else (value.strip(), [])


class Headers(Kind):
    """HTTP headers: names to string values; a wrong one is dropped on its own."""

    def json(self) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": {"type": "string"}}

    def read(self, key: str, value: Any) -> tuple[Any, list[Note]]:
        if not isinstance(value, dict):
            return None, [Note(f'"{key}" must be an object of strings, got {kind_of(value)}')]
        from hookwise.core.hook_kinds import FRAMING_HEADERS

        out: dict[str, str] = {}
        notes: list[Note] = []
        for k, v in value.items():
            if not isinstance(v, str):
                notes.append(
                    Note(
                        f"a header value must be a string, got {kind_of(v)}; this header is dropped",
                        suffix=pointer(str(k)),
                        at_load=True,
                    )
                )
            elif k.lower() in FRAMING_HEADERS:
                notes.append(
                    Note(
                        f"{k!r} may not be set by a hook: it decides where the request goes and how it "
                        "is framed",
                        suffix=pointer(str(k)),
                        at_load=True,
                    )
                )
            elif not k or any(c in k for c in "\r\n: "):
                notes.append(
                    Note(
                        f"{k!r} is not a header name; this header is dropped",
                        suffix=pointer(str(k)),
                        at_load=True,
                    )
                )
            else:
                out[str(k)] = v
        return out, notes


#: the longest timeout a hook can have; larger values are capped (with a warning)
MAX_TIMEOUT_MS = 86_400_000
#: below this many milliseconds ``validate`` hints that the value looks like seconds
SECONDS_HINT_MS = 1000


class Timeout(Kind):
    """Milliseconds, the one rule for a hook's ``"timeout"`` (the loader, ``validate`` and migration read it).

    absent                          the default, 60000 ms
    not a number (string, boolean,  error: the hook is skipped (Gemini CLI would fire it with a
    null, array, object)            timer of 0 ms, so it would time out on every firing)
    NaN                             error (only reachable from hooks sections built in Python)
    below 1 (0, negative, 0.5)      error: nothing can run in less than a millisecond; 0.5 most
                                    likely meant seconds and the message says to write 500
    1 ... 86400000                  used, rounded *up* to a whole millisecond (1.5 → 2, never 0);
                                    below 1000 ``validate`` adds a "looks like seconds" hint
    above 86400000 (24 h)           capped at 86400000 with a warning (loader and ``validate``);
                                    this includes 1e400, which JSON readers turn into infinity

    :func:`timeout_ms` applies it; ``hookwise list`` shows the value it returns, which is the
    value the hook runs with.
    """

    def json(self) -> dict[str, Any]:
        return {"type": "number", "minimum": 1}

    def read(self, key: str, value: Any) -> tuple[Any, list[Note]]:
        if not _is_number(value):
            return None, [Note(f'"{key}" must be a number of milliseconds, got {kind_of(value)}')]
        if value != value:
            return None, [Note(f'"{key}" must be a number of milliseconds, got NaN')]
        if value < 1:
            if value > 0:
                return None, [
                    Note(
                        f'"{key}" is in milliseconds and {_num(value)} ms is too short to run anything; '
                        f"if you meant {_num(value)} seconds, write {_ceil(value * 1000)}"
                    )
                ]
            return None, [
                Note(
                    f'"{key}" must be a positive number of milliseconds (at least 1), got {_num(value)}'
                )
            ]
        if value > MAX_TIMEOUT_MS:
            return MAX_TIMEOUT_MS, [
                Note(
                    f'"{key}" {_num(value)} ms is more than the maximum of {MAX_TIMEOUT_MS} ms '
                    f"(24 hours); using {MAX_TIMEOUT_MS}",
                    WARNING,
                    at_load=True,
                )
            ]
        ms = _ceil(value)
        notes = []
        if ms != value:
            notes.append(
                Note(
                    f'"{key}" is a whole number of milliseconds; {_num(value)} is rounded up to {ms}',
                    WARNING,
                )
            )
        if value < SECONDS_HINT_MS:
            notes.append(
                Note(
                    f'"{key}" is in milliseconds: {_num(value)} is {value / 1000:g} s; '
                    f"if you meant {_num(value)} seconds, write {_ceil(value * 1000)}",
                    WARNING,
                )
            )
        return ms, notes


def timeout_ms(value: Any) -> int | None:
    """The milliseconds a hook written with ``"timeout": value`` runs with; None when it is not loaded."""
    ms, notes = TIMEOUT.read("timeout", value)
    return None if any(n.severity == ERROR for n in notes) else int(ms)


class EnvMap(Kind):
    def json(self) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": {"type": ["string", "number"]}}

    def read(self, key: str, value: Any) -> tuple[Any, list[Note]]:
        if not isinstance(value, dict):
            return None, [Note(f'"{key}" must be an object of strings, got {kind_of(value)}')]
        env: dict[str, str] = {}
        notes: list[Note] = []
        for k, v in value.items():
            if isinstance(v, str):
                env[str(k)] = v
            elif _is_number(v):
                env[str(k)] = str(v)
                notes.append(
                    Note(
                        f"environment value {v!r} is a number; it is passed as the string "
                        f"{show(str(v))} (quote it)",
                        WARNING,
                        suffix=pointer(str(k)),
                    )
                )
            else:
                notes.append(
                    Note(
                        f"environment values must be strings, got {kind_of(v)}",
                        suffix=pointer(str(k)),
                    )
                )
        return env, notes


class Rule(Kind):
    """A Claude Code permission rule (``if``): one that does not parse loads, and its hook is skipped when it fires."""

    def json(self) -> dict[str, Any]:
        return {
            "type": "string"
        }  # any string loads; one that does not parse is a warning, and skips its hook

    def read(self, key: str, value: Any) -> tuple[Any, list[Note]]:
        from hookwise.core.rules import rule_error

        err = rule_error(value)
        if err is None:
            return value, []
        if not isinstance(value, str):
            return None, [Note(f'"{key}" {err}; the hook is skipped')]
        if (
            "bounded time" in err
        ):  # could hang a firing: rejected like a tool matcher (docs/sources.md)
            return None, [Note(f'"{key}" rule {show(value)} {err}; the hook is skipped')]
        return value, [
            Note(
                f'"{key}" rule {show(value)} {err}; the hook is skipped (never run for every call) '
                "until the rule is fixed",
                WARNING,
                at_load=True,
            )
        ]


TIMEOUT = Timeout()
ENV = EnvMap()


#: the source labels of the settings files (docs/contract.md §1; ``settings`` rows of
#: :data:`hookwise.core.registry.SOURCES`). Extension ``hooks.json`` files, plugins and packages contribute
#: hooks only, never these keys.
EVERY_LAYER: tuple[str, ...] = tuple(s.label for s in SOURCES.values() if s.settings)
USER_AND_SYSTEM: tuple[str, ...] = (USER, SYSTEM)
SYSTEM_ONLY: tuple[str, ...] = (SYSTEM,)
#: the sources whose hooks are written in files; those of :data:`hookwise.core.registry.UNTRUSTED_SOURCES` run
#: only once trusted
HOOK_SOURCES: tuple[str, ...] = tuple(s.label for s in SOURCES.values() if s.in_files)


@dataclass(frozen=True)
class Origin:
    """Where a key may come from (docs/security.md): the one rule for every settings key.

    ``layers``   the source labels of the files that may set it; from any other file the key is
                 ignored with one warning naming the file (loader, ``validate`` and ``list`` alike)
    ``narrows``  values every layer may set anyway, because they only make hookwise stricter
                 (``"enabled": false`` for telemetry, ``"enabled": true`` for redaction)
    ``trust``    what the key brings in from a project or extension (hooks, plugin directories,
                 ``.claude/`` files) runs only once ``hookwise trust`` approved it
    ``why``      what the key would let a cloned project do: the reason given with the warning
    """

    layers: tuple[str, ...]
    narrows: tuple[Any, ...] = ()
    trust: bool = False
    why: str = ""

    def admits(self, label: str, value: Any) -> bool:
        """Whether a file with source label ``label`` may set the key to ``value``."""
        return label in self.layers or any(
            type(value) is type(v) and value == v for v in self.narrows
        )

    def statement(self) -> str:
        """The rule in one sentence, for the JSON Schema: "Only user and system settings."."""
        text = "Only " + self.who()
        if self.narrows:
            text += "; other files only " + " or ".join(show(v) for v in self.narrows)
        return text + "."

    def who(self) -> str:
        """The layers in words: "user and system settings"."""
        return " and ".join(self.layers) + " settings"

    def refusal(self, where: str, value: Any) -> str:
        """The warning for a file that may not set ``where`` (a dotted key path) to ``value``."""
        text = f"only {self.who()} may set {where}"
        if self.narrows:
            text += " (here only to " + " or ".join(show(v) for v in self.narrows) + ")"
        text += f", got {show(value)}"
        return text + (f"; a project could {self.why}" if self.why else "") + "; ignored"


@dataclass(frozen=True)
class Key:
    """One key of a settings object.

    ``origin`` (:class:`Origin`) says which settings layers may set it. Every row states it; a row
    without one is settable from the user and system layers only (tests/settings/test_origins.py
    fails on such a row).
    """

    name: str
    kind: Kind
    doc: str = ""
    types: tuple[str, ...] = ()  # the hook types it applies to; () = every type
    required: bool = False
    missing: str = ""  # the message when a required key is absent
    attr: str | None = (
        None  # HookEntry attribute it fills (a kind's own key: its spec's field; None: not kept)
    )
    default: Any = None
    claude: str = ""  # migration to Claude Code: "" = carried or converted, else why it is dropped
    old_location: bool = False  # hooksConfig keys Gemini CLI once read directly under "hooks"
    origin: Origin | None = (
        None  # which layers may set it (None: user and system only, and a test fails)
    )

    @property
    def source_rule(self) -> Origin:
        """:attr:`origin`, or the safe default for a row that forgot to state one."""
        return self.origin or Origin(USER_AND_SYSTEM)

    def with_origin(self, origin: Origin) -> Key:
        """This row, given ``origin`` when it states none (the hook tables' rows share ``HOOK_ORIGIN``).

        Only for building a table: the row is completed in place (idempotent).
        """
        if self.origin is None:
            object.__setattr__(self, "origin", origin)
        return self

    def applies_to(self, hook_type: str | None) -> bool:
        return not self.types or hook_type is None or hook_type in self.types


TEXT = Text()
FLAG = Flag()
NAMES = Names()
