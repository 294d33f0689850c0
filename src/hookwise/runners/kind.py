"""What a hook kind is: :class:`HookKind`, the one owner of everything about a kind, and its trust
material.

A kind (a row of :data:`hookwise.runners.KINDS`) owns its settings keys, the typed
spec they fill (:class:`~hookwise.core.registry.KindSpec`), running its hooks, the
material a user approves when trusting one (:meth:`HookKind.trust_material`), how a
hook of it is shown in one line (:meth:`HookKind.display`) and its conversion to and
from Claude Code's settings. Everything that reads a kind goes through these members,
so a new kind is one module with a :class:`HookKind` subclass plus one row in ``KINDS``;
``tests/engine/test_kinds.py`` fails when a row lacks a member.

The keys of one hook (docs/contract.md §2) are its kind's ``keys`` plus the ones every kind has
(:data:`SHARED_HOOK_KEYS`, at the end of this module); :data:`HOOK_TYPES` and :data:`HOOK_KEYS`
hold them all, kept in step with ``KINDS`` by :func:`hookwise.runners.sync_kinds`. The settings
schema (the loader, ``validate``, the JSON Schema) and migration to Claude Code read them here, so
neither ``claude/`` nor ``settings/`` needs the other for them.

Trust material (docs/security.md, "What is reviewed is what runs"): the lines the review
screen prints and the trust key hashes, nothing more and nothing less. ``lines`` are
labelled texts (``env``, ``header``...); ``files`` are the files whose contents run,
hashed by content. The target (command, URL, reference) is part of the hook's identity,
which the key also covers.
"""

from __future__ import annotations

import os

from hookwise._records import TYPE_CHECKING, dataclass, field
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
from hookwise.core.registry import DEFAULT_TIMEOUT_MS, HookEntry, KindSpec

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any

    from hookwise.result import HookOutcome
    from hookwise.runners.base import Firing


@dataclass
class Material:
    """What trusting one hook approves: labelled ``lines`` and the ``files`` (word as written, real
    path)."""

    lines: list[tuple[str, str]] = field(default_factory=list)
    files: list[tuple[str, str]] = field(default_factory=list)


class HookKind:
    """One kind of hook. A subclass sets every attribute and defines every method below.

    ``name`` is the ``"type"`` settings write; ``doc`` its one-line description (the JSON
    Schema's); ``keys`` the :class:`~hookwise.core.keys.Key` rows of its own settings keys,
    each with ``types=(name,)`` and ``attr`` naming a field of ``spec``, the
    :class:`~hookwise.core.registry.KindSpec` subclass its hooks carry. ``background``: its
    work proceeds once started (see :class:`hookwise.runners.Runner`).
    """

    #: the members every kind defines (checked by tests/engine/test_kinds.py)
    MEMBERS = (
        "name",
        "doc",
        "keys",
        "spec",
        "background",
        "run",
        "run_async",
        "make_spec",
        "trust_material",
        "display",
        "from_claude",
        "to_claude",
    )

    name: str = ""
    doc: str = ""
    keys: tuple[Key, ...] = ()
    spec: type[KindSpec] = KindSpec
    background: bool = False

    def make_spec(self, values: dict[str, Any]) -> KindSpec:
        """The spec of a hook from its own keys' values (by ``attr``, defaults filled in)."""
        raise NotImplementedError

    def run(
        self,
        firing: Firing,
        entries: Sequence[HookEntry],
        inp: dict[str, Any],
        during: Callable[[], None] | None = None,
    ) -> list[HookOutcome]:
        raise NotImplementedError

    async def run_async(
        self, firing: Firing, entries: Sequence[HookEntry], inp: dict[str, Any]
    ) -> list[HookOutcome]:
        raise NotImplementedError

    def trust_material(self, entry: HookEntry, root: str, values: Mapping[str, str]) -> Material:
        """What trusting ``entry`` approves. ``root`` is its trust scope (project or extension
        directory), ``values`` the variables replaced in commands (``GEMINI_PROJECT_DIR``...)."""
        raise NotImplementedError

    def display(self, entry: HookEntry) -> tuple[str, str]:
        """``(label, text)`` of what the hook runs: ``("command", "npm test")``, ``("url", "https://…")``."""
        raise NotImplementedError

    def from_claude(self, raw: dict[str, Any]) -> KindSpec | None:
        """The spec of a Claude Code hook object of this ``type`` (already checked), or None when it
        has none."""
        raise NotImplementedError

    def to_claude(self, spec: KindSpec) -> dict[str, Any]:
        """The keys a Claude Code hook object of this kind gets for ``spec`` (``type`` included)."""
        raise NotImplementedError


# --------------------------------------------------------------------------- showing material

#: characters a terminal acts on instead of printing (besides C0/C1 controls): bidirectional
#: overrides and isolates, zero-width characters, line and paragraph separators, the byte order mark
_INVISIBLE = frozenset(
    "\u061c\u200b\u200c\u200d\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2066\u2067\u2068\u2069\ufeff"
)


def visible(text: str) -> str:
    """``text`` with every control character written as an escape (``\\x1b``, ``\\r``, ``\\u202e``).

    A review screen shows what runs: ``npm test\\r\\x1b[2Kcurl … | sh`` must not look like
    ``npm test`` on a terminal. Printable text, backslashes included, is left as written.
    """
    if text.isprintable():
        return text
    out = []
    for ch in text:
        o = ord(ch)
        if ch.isprintable() and ch not in _INVISIBLE:
            out.append(ch)
        elif ch in "\r\n\t":
            out.append({"\r": "\\r", "\n": "\\n", "\t": "\\t"}[ch])
        elif o < 0x100:
            out.append(f"\\x{o:02x}")
        elif o < 0x10000:
            out.append(f"\\u{o:04x}")
        else:
            out.append(f"\\U{o:08x}")
    return "".join(out)


def env_lines(entry: HookEntry) -> list[tuple[str, str]]:
    """A hook's ``env`` as material lines (``BASH_ENV=…`` can run code before the command does)."""
    return [("env", f"{k}={v}") for k, v in sorted(entry.env.items())]


# --------------------------------------------------------------------------- files a command names


def _inside(path: str, root: str) -> bool:
    return path.startswith(root.rstrip(os.sep) + os.sep)


#: shell operators a file name can be glued to (``x.sh;``, ``bash<x.sh``, ``x.sh||true``,
#: ``$(x.sh)``); ``$`` so that ``$(x.sh)`` and ``$x`` leave the name alone
_OPERATORS = frozenset(";&|<>()`{}!$")


def command_words(command: str) -> list[str]:
    """Every word of a shell command that could name a file: quotes and escapes removed, split at
    operators and redirections as well as at white space (``x.sh;``, ``bash<x.sh``, ``x.sh||true``,
    ``$(x.sh)``), and the value side of ``VAR=value`` and ``--opt=value``. Inside quotes an operator
    is part of the word."""
    out: list[str] = []
    for w in split_words(command):
        out.append(w)
        if "=" in w:  # VAR=path or --opt=path
            out.append(w.split("=", 1)[1])
    return out


def split_words(command: str) -> list[str]:
    """The words of ``command`` as the shell's tokenizer sees them (quotes, backslashes, operators),
    without expanding anything; written here so that a firing's trust check does not import
    :mod:`shlex` and :mod:`re`. An unterminated quote ends at the end of the text."""
    words: list[str] = []
    word: list[str] = []
    started = False
    i, n = 0, len(command)
    while i < n:
        c = command[i]
        if c == "'":
            j = command.find("'", i + 1)
            j = n if j < 0 else j
            word.append(command[i + 1 : j])
            started, i = True, j + 1
            continue
        if c == '"':
            i = _double_quoted(command, i + 1, word)
            started = True
            continue
        if c == "\\" and i + 1 < n:
            if command[i + 1] != "\n":  # a backslash-newline joins lines
                word.append(command[i + 1])
                started = True
            i += 2
            continue
        if c.isspace() or c in _OPERATORS:
            if started:
                words.append("".join(word))
                word, started = [], False
        else:
            word.append(c)
            started = True
        i += 1
    if started:
        words.append("".join(word))
    return words


def _double_quoted(command: str, i: int, word: list[str]) -> int:
    """Append the text of a ``"..."`` starting at ``i`` to ``word``; returns the index after its
    end."""
    n = len(command)
    while i < n:
        c = command[i]
        if c == '"':
            return i + 1
        if c == "\\" and i + 1 < n and command[i + 1] in '$`"\\\n':
            if command[i + 1] != "\n":
                word.append(command[i + 1])
            i += 2
            continue
        word.append(c)
        i += 1
    return n


def named_files(
    words: Sequence[str], root: str, cwd: str, search: Sequence[str] = ()
) -> list[tuple[str, str]]:
    """``(word, real path)`` for every word that names an existing file under ``root``.

    A word counts when its own path or its resolved target lies inside ``root``, so a
    script swapped for a symlink pointing elsewhere still changes the key. A bare word
    is also looked up in ``search`` (the hook's own ``PATH`` entries inside ``root``).
    """
    root_real = os.path.realpath(root)
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for w in words:
        if not w or w.startswith("-") and "=" not in w:
            continue
        candidates = [os.path.normpath(w if os.path.isabs(w) else os.path.join(cwd, w))]
        if "/" not in w:
            candidates.extend(os.path.join(d, w) for d in search)
        for p in candidates:
            real = _file_under(p, root, root_real)
            if real is not None and real not in seen:
                seen.add(real)
                out.append((w, real))
    return out


def _file_under(p: str, root: str, root_real: str) -> str | None:
    """The real path of ``p`` when it is a file whose path or target lies inside the root, else
    None."""
    try:
        if not os.path.lexists(p):
            return None
    except (OSError, ValueError):
        return None
    real = os.path.realpath(p)
    if not (_inside(p, root) or _inside(p, root_real) or _inside(real, root_real)):
        return None
    return real if os.path.isfile(real) else None


def env_words(env: Mapping[str, str]) -> list[str]:
    """The paths a hook's ``env`` values name (``BASH_ENV=x.sh``, each part of ``PATH=a:b``)."""
    out: list[str] = []
    for v in env.values():
        out.extend(p for p in v.split(os.pathsep) if p)
    return out


def search_dirs(env: Mapping[str, str], root: str, cwd: str) -> list[str]:
    """The hook's own ``PATH`` entries that lie inside ``root``: a bare command name may resolve
    there."""
    root_real = os.path.realpath(root)
    out = []
    for d in env.get("PATH", "").split(os.pathsep):
        if not d:
            continue
        full = os.path.realpath(d if os.path.isabs(d) else os.path.join(cwd, d))
        if _inside(full, root_real) or full == root_real:
            out.append(full)
    return out


# --------------------------------------------------------------------------- the keys of one hook


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

#: the origin of a hook's keys: every source; a hook from an untrusted source runs only once
#: trusted, and what trust covers is the hook kind's trust material (docs/security.md)
HOOK_ORIGIN = Origin(HOOK_SOURCES, trust=True)

#: the values of ``"type"``: one per hook kind, then :data:`OTHER_TYPES` (kept in step with the
#: kinds)
HOOK_TYPES: dict[str, HookType] = {}
#: the keys of a hook: ``type``, each kind's own keys, the shared keys; order = the JSON Schema's
#: properties
HOOK_KEYS: dict[str, Key] = {}
#: keys that only a hook has; on a definition they mean a hook was written without its wrapper
HOOK_MARKERS: list[str] = []
