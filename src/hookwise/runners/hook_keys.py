"""The keys of one hook: its ``"type"``, the keys every kind shares and each kind's own (docs/contract.md §2).

A hook kind owns its keys (``HookKind.keys``, :mod:`hookwise.runners.kind`); the rows
here are the ones every kind has (:data:`SHARED_HOOK_KEYS`) and the table of all of
them, kept in step with :data:`hookwise.runners.KINDS` (:func:`sync_kinds`). The
settings schema (:mod:`hookwise.settings.schema`: the loader, ``validate``, the JSON
Schema) and migration to Claude Code (:mod:`hookwise.claude.convert`) both read this
table, so it sits below both of them.
"""

from __future__ import annotations

from hookwise._records import dataclass
from hookwise.core.keys import (
    ENV,
    FLAG,
    HOOK_SOURCES,
    MAX_TIMEOUT_MS,
    TEXT,
    TIMEOUT,
    Key,
    OneOf,
    Origin,
    Rule,
)
from hookwise.core.registry import DEFAULT_TIMEOUT_MS
from hookwise.runners import KINDS, loaded, resolve_kind


@dataclass(frozen=True)
class HookType:
    """One value of a hook's ``"type"``."""

    name: str
    doc: str
    runs_as: str = ""  # HookEntry.type it loads as ("" = its own name)
    alias_hint: str = ""  # loads, with this hint (validate only)
    error: str = ""  # cannot be written in settings: this error

    @property
    def loads(self) -> bool:
        return not self.error


#: the values of ``"type"`` that are not a kind of their own (docs/contract.md §2); each kind of
#: :data:`hookwise.runners.KINDS` is a value too (:func:`sync_kinds`)
OTHER_TYPES: tuple[HookType, ...] = (
    HookType(
        "plugin",
        "Gemini CLI's name for a command hook installed by an extension.",
        runs_as="command",
        alias_hint='"plugin" hooks run as command hooks; write "type": "command"',
    ),
    HookType(
        "runtime",
        "Python functions registered from code.",
        error='"runtime" hooks can only be registered from code, not in settings',
    ),
)

#: the keys every hook kind has (docs/contract.md §2); a kind's own keys are its ``keys`` (runners/)
SHARED_HOOK_KEYS: tuple[Key, ...] = (
    Key(
        "name",
        TEXT,
        "Display name: what hooksConfig.disabled and `hookwise enable/disable` refer to.",
        attr="name",
        default="",
        claude="Claude Code hooks have no name",
    ),
    Key("description", TEXT, "Shown while the hook runs.", attr="description", default=""),
    Key(
        "timeout",
        TIMEOUT,
        f"Milliseconds (not seconds), at least 1, at most {MAX_TIMEOUT_MS} (24 h); "
        f"fractions round up. Default {DEFAULT_TIMEOUT_MS}.",
        attr="timeout_ms",
        default=DEFAULT_TIMEOUT_MS,
    ),
    Key(
        "env",
        ENV,
        "Extra environment variables for this hook.",
        attr="env",
        default={},
        claude="Claude Code hooks have no env; set the variables in the command or the script",
    ),
    Key(
        "failClosed",
        FLAG,
        "hookwise: a hook that fails, cannot run or times out blocks instead of being ignored.",
        attr="fail_closed",
        default=False,
    ),
    Key(
        "dialect",
        OneOf("claude"),
        "hookwise: the hook was written for Claude Code (Claude-shaped input and answers).",
        attr="dialect",
        default=None,
        claude="Claude Code hooks always get Claude-shaped input",
    ),
    Key(
        "if",
        Rule(),
        'One Claude Code permission rule ("Bash(git push *)", "Edit(src/**)"): the hook runs only '
        "for BeforeTool/AfterTool calls it matches, never on other events.",
        attr="condition",
        default=None,
    ),
    Key(
        "async",
        FLAG,
        "Run in the background: the firing does not wait, and the answer cannot block.",
        types=("command",),
        attr="run_async",
        default=False,
    ),
    Key(
        "once",
        FLAG,
        "hookwise: run until the first successful run in a session, then no more.",
        attr="once",
        default=False,
        claude="Claude Code ignores `once` in settings files (it honours it only in skill "
        "frontmatter); under Claude Code the hook would run every time",
    ),
)

#: the origin of a hook's keys: every source; a hook from an untrusted source runs only once trusted, and
#: what trust covers is the hook kind's trust material (docs/security.md)
HOOK_ORIGIN = Origin(HOOK_SOURCES, trust=True)

#: the values of ``"type"``: one per hook kind, then :data:`OTHER_TYPES` (kept in step with the kinds)
HOOK_TYPES: dict[str, HookType] = {}
#: the keys of a hook: ``type``, each kind's own keys, the shared keys; order = the JSON Schema's properties
HOOK_KEYS: dict[str, Key] = {}
#: keys that only a hook has; on a definition they mean a hook was written without its wrapper
HOOK_MARKERS: list[str] = []
_SYNCED: list[object] = [None]


def sync_kinds(full: bool = True) -> None:
    """Bring :data:`HOOK_TYPES`, :data:`HOOK_KEYS` and :data:`HOOK_MARKERS` in step with
    :data:`hookwise.runners.KINDS`, in place (a kind registered later is read like the built-in ones).

    ``full``: every kind's module is imported (``validate``, the JSON Schema, migration). Otherwise the
    tables hold the keys of the kinds already imported: reading settings imports a kind when a hook of
    it appears, and falls back to the full tables for a key it does not know (a firing whose settings
    hold only command hooks imports no other kind).
    """
    rows = list(KINDS.values())
    kinds = [resolve_kind(r) for r in rows if full or loaded(r)]
    state = (tuple(KINDS), tuple(map(id, kinds)))
    if state == _SYNCED[0]:
        return
    docs = {k.name: k.doc for k in kinds}
    types = [HookType(n, docs.get(n, "")) for n in KINDS]
    HOOK_TYPES.clear()
    HOOK_TYPES.update((t.name, t) for t in (*types[:1], OTHER_TYPES[0], *types[1:], OTHER_TYPES[1]))
    keys = [_type_key(), *(row for k in kinds for row in k.keys), *SHARED_HOOK_KEYS]
    HOOK_KEYS.clear()
    HOOK_KEYS.update((row.name, row.with_origin(HOOK_ORIGIN)) for row in keys)
    HOOK_MARKERS[:] = [k for k, row in HOOK_KEYS.items() if row.required]
    _SYNCED[0] = state


def synced_fully() -> bool:
    """Whether the tables hold every kind's keys (after a full :func:`sync_kinds`)."""
    return all(loaded(r) for r in KINDS.values()) and len(_SYNCED[0][1]) == len(KINDS)  # type: ignore[index]


def _type_key() -> Key:
    return Key(
        "type",
        OneOf(*HOOK_TYPES),
        'Always "command" in settings files.',
        required=True,
        missing='missing "type": write "type": "command"',
    )


sync_kinds(full=False)
