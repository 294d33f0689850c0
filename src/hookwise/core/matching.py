"""The one matcher: every pattern hookwise evaluates runs in time linear in the subject
(docs/sources.md).

Python's ``re`` backtracks and has no timeout: ``^(a+)+$``, ``\\w*\\w*!`` or a
permission rule's ``*`` against a long command can take minutes, before any
hook process exists for a timeout to kill. So no pattern that a settings file
controls is given to ``re`` for matching. Instead:

* :func:`compile_regex` parses the pattern with ``re``'s own parser (no
  matching) and builds a Thompson NFA from the parse tree, which is run as a
  lazily built DFA: each subject character costs one dictionary look-up once
  the states it meets are known, and at most one pass over the NFA (bounded by
  :data:`MAX_STATES`) when they are not. The answer is the one ``re`` gives
  (``search`` / ``fullmatch``, yes or no): every single-character test and every
  zero-width assertion is compiled by ``re`` itself and asked about one
  character or one position, where it cannot backtrack.
* Tool matchers (a regex *search*), ``if`` rules (Claude permission-rule globs,
  turned into regexes by :mod:`hookwise.core.rules`) and the
  ``*`` wildcards of :func:`wildcard` all go through here; lifecycle matchers
  are exact names (:func:`exact_names`).
* What cannot be run this way raises :class:`Unbounded` with the reason:
  back-references, conditionals, possessive repeats and atomic groups (their
  answers depend on backtracking), look-around whose body repeats or nests
  alternatives, and patterns of more than :data:`MAX_STATES` NFA states.
  Loaders report such a matcher with a warning naming the file and key and skip
  its definition; ``hookwise validate`` reports it as an error.

Compiled patterns are cached (:func:`compile_regex` is memoized, and so is each
pattern's DFA), so a firing pays for matching once per distinct subject.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any

try:  # Python 3.11+
    from re import _compiler as _sc  # type: ignore[attr-defined]
    from re import _constants as _c  # type: ignore[attr-defined]
    from re import _parser as _p  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_compile as _sc  # type: ignore[no-redef]
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

#: an NFA larger than this is refused (``x{5000}``): the per-character cost is bounded by it
MAX_STATES = 2000
#: a lazily built DFA keeps at most this many states; past it the cache starts again (memory bound)
MAX_DFA_STATES = 2048
#: the longest look-around body accepted (it is run by ``re`` at each position)
MAX_LOOKAROUND = 64

_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT)
_CHAR, _SPLIT, _JMP, _ASSERT, _MATCH = range(5)
_FLAG_MASK = _c.SRE_FLAG_IGNORECASE | _c.SRE_FLAG_DOTALL | _c.SRE_FLAG_ASCII | _c.SRE_FLAG_UNICODE
_FLAG_MASK |= _c.SRE_FLAG_MULTILINE | _c.SRE_FLAG_LOCALE
_REFUSED = {
    _c.GROUPREF: "a back-reference",
    _c.GROUPREF_EXISTS: "a conditional group",
}
for _name, _why in (
    ("POSSESSIVE_REPEAT", "a possessive repeat"),
    ("ATOMIC_GROUP", "an atomic group"),
    ("GROUPREF_IGNORE", "a back-reference"),
):
    if hasattr(_c, _name):
        _REFUSED[getattr(_c, _name)] = _why


class Unbounded(ValueError):
    """The pattern cannot be matched in bounded time; ``str(exc)`` says why (for a warning)."""


# --------------------------------------------------------------------------- NFA


class _Builder:
    """Compiles ``re``'s parse tree into a flat NFA program; pieces are compiled by ``re``
    itself."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.prog: list[tuple[Any, ...]] = []
        self.preds: list[Any] = []  # compiled one-character patterns
        self.asserts: list[Any] = []  # compiled zero-width patterns
        self._pieces: dict[tuple[Any, int], int] = {}

    def emit(self, *ins: Any) -> int:
        if len(self.prog) >= MAX_STATES:
            raise Unbounded(f"it needs more than {MAX_STATES} matcher states")
        self.prog.append(ins)
        return len(self.prog) - 1

    def patch(self, at: int, *ins: Any) -> None:
        self.prog[at] = ins

    def piece(self, op: Any, av: Any, flags: int, table: list[Any]) -> int:
        """Index of ``re``'s own compiled form of one atom or assertion (shared when repeated)."""
        key = (repr((op, av)), flags)
        got = self._pieces.get(key)
        if got is None:
            sub = _p.SubPattern(self.state, [(op, av)])
            rx = _sc.compile(sub, flags & _FLAG_MASK)
            got = self._pieces[key] = len(table)
            table.append(rx)
        return got

    def seq(self, items: Any, flags: int) -> None:
        for op, av in items:
            self.node(op, av, flags)

    def node(self, op: Any, av: Any, flags: int) -> None:
        if op in _REFUSED:
            raise Unbounded(f"it uses {_REFUSED[op]}, whose answer depends on backtracking")
        if op in (_c.LITERAL, _c.NOT_LITERAL, _c.ANY, _c.IN):
            self.emit(_CHAR, self.piece(op, av, flags, self.preds))
        elif op is _c.SUBPATTERN:
            self.seq(av[-1], (flags | av[1]) & ~av[2])
        elif op is _c.BRANCH:
            self.branch(av[1], flags)
        elif op in _REPEATS:
            self.repeat(av, flags)
        elif op is _c.AT or op in (_c.ASSERT, _c.ASSERT_NOT):
            if op is not _c.AT:
                _check_lookaround(av[1])
            self.emit(_ASSERT, self.piece(op, av, flags, self.asserts))
        else:
            raise Unbounded(f"it uses {str(op).lower()}, which the linear-time matcher lacks")

    def branch(self, alts: Any, flags: int) -> None:
        jumps: list[int] = []
        for k, alt in enumerate(alts):
            if k == len(alts) - 1:
                self.seq(alt, flags)
                break
            split = self.emit(_SPLIT, 0, 0)
            self.seq(alt, flags)
            jumps.append(self.emit(_JMP, 0))
            self.patch(split, _SPLIT, split + 1, len(self.prog))
        for j in jumps:
            self.patch(j, _JMP, len(self.prog))

    def repeat(self, av: Any, flags: int) -> None:
        lo, hi, sub = av
        if lo > MAX_STATES or (hi != _c.MAXREPEAT and hi > MAX_STATES):
            raise Unbounded(f"it repeats more than {MAX_STATES} times")
        for _ in range(lo):
            self.seq(sub, flags)
        if hi == _c.MAXREPEAT:
            split = self.emit(_SPLIT, 0, 0)
            self.seq(sub, flags)
            self.emit(_JMP, split)
            self.patch(split, _SPLIT, split + 1, len(self.prog))
            return
        splits = []
        for _ in range(hi - lo):
            splits.append(self.emit(_SPLIT, 0, 0))
            self.seq(sub, flags)
        for s in splits:
            self.patch(s, _SPLIT, s + 1, len(self.prog))


def _check_lookaround(body: Any) -> None:
    """A look-around is run by ``re`` at each position: only bodies that cannot backtrack much."""
    lo, hi = body.getwidth()
    if hi > MAX_LOOKAROUND:
        raise Unbounded(
            f"it uses a look-around that may span more than {MAX_LOOKAROUND} characters"
        )
    _walk_lookaround(body, 0)


def _walk_lookaround(items: Any, branches: int) -> int:
    for op, av in items:
        if op in _REPEATS or op in _REFUSED or op in (_c.ASSERT, _c.ASSERT_NOT):
            raise Unbounded("it uses a look-around with a repeat or a nested look-around inside")
        if op is _c.SUBPATTERN:
            branches = _walk_lookaround(av[-1], branches)
        elif op is _c.BRANCH:
            branches += 1
            if branches > 1:
                raise Unbounded("it uses a look-around with more than one alternation inside")
            for alt in av[1]:
                if _walk_lookaround(alt, 0):
                    raise Unbounded("it uses a look-around with nested alternations inside")
    return branches


# --------------------------------------------------------------------------- lazy DFA


class _Tables:
    """One generation of a lazily built DFA: states (sets of NFA positions) and their
    transitions."""

    __slots__ = ("closures", "ids", "kernels", "needs", "rows")

    def __init__(self) -> None:
        self.ids: dict[frozenset[int], int] = {}
        self.kernels: list[frozenset[int]] = []
        self.rows: list[dict[int, int]] = []
        #: per state, the assertions its closure may pass through (evaluated only there)
        self.needs: list[int] = []
        self.closures: dict[tuple[int, int], tuple[tuple[int, ...], bool]] = {}


class _Dfa:
    """The DFA of one pattern for ``search`` or ``fullmatch``, built on demand.

    A transition is keyed by the character's class (the bit mask of the
    pattern's character tests that accept it) and, where the state's closure
    passes an assertion, by which of those hold at that position. A scan holds
    one :class:`_Tables` generation; past :data:`MAX_DFA_STATES` states a fresh
    one replaces it, so memory stays bounded and a concurrent scan never mixes
    generations.
    """

    def __init__(self, prog: list[tuple[Any, ...]], asserts: list[Any], search: bool) -> None:
        self.prog = prog
        self.asserts = asserts
        self.search = search
        self.lock = threading.Lock()
        self.tables = _Tables()
        self.start = self.intern(self.tables, frozenset({0}))

    def intern(self, t: _Tables, kernel: frozenset[int]) -> int:
        got = t.ids.get(kernel)
        if got is None:
            got = t.ids[kernel] = len(t.kernels)
            t.kernels.append(kernel)
            t.rows.append({})
            t.needs.append(self._needs(kernel))
        return got

    def _needs(self, kernel: frozenset[int]) -> int:
        found: set[int] = set()
        self._walk(kernel, lambda ins: True, found)
        return sum(1 << k for k in found)

    def _walk(
        self, kernel: frozenset[int], passes: Callable[[tuple[Any, ...]], bool], found: set[int]
    ) -> tuple[list[int], bool]:
        """Follow epsilon moves from ``kernel``: the character tests reached, and whether MATCH
        is."""
        prog = self.prog
        stack = list(kernel)
        if self.search:
            stack.append(0)  # a match may start at any position
        seen: set[int] = set()
        chars: list[int] = []
        matched = False
        while stack:
            pc = stack.pop()
            if pc in seen:
                continue
            seen.add(pc)
            ins = prog[pc]
            op = ins[0]
            if op == _CHAR:
                chars.append(pc)
            elif op == _SPLIT:
                stack.append(ins[2])
                stack.append(ins[1])
            elif op == _JMP:
                stack.append(ins[1])
            elif op == _ASSERT:
                found.add(ins[1])
                if passes(ins):
                    stack.append(pc + 1)
            else:
                matched = True
        return sorted(chars), matched

    def closure(self, t: _Tables, kid: int, ctx: int) -> tuple[tuple[int, ...], bool]:
        """The character tests reachable from state ``kid`` where assertions ``ctx`` hold, and
        whether MATCH is."""
        got = t.closures.get((kid, ctx))
        if got is None:
            chars, matched = self._walk(t.kernels[kid], lambda ins: bool(ctx >> ins[1] & 1), set())
            got = t.closures[(kid, ctx)] = (tuple(chars), matched)
        return got

    def step(self, t: _Tables, kid: int, mask: int, ctx: int, key: int) -> tuple[_Tables, int]:
        """The state after a character of class ``mask`` (-1: the search matched; -2: no full
        match)."""
        with self.lock:
            if len(t.kernels) > MAX_DFA_STATES:
                kernel = t.kernels[kid]
                t = self.tables = _Tables()
                self.start = self.intern(t, frozenset({0}))
                kid = self.intern(t, kernel)
            chars, matched = self.closure(t, kid, ctx)
            if matched and self.search:
                out = -1
            else:
                prog = self.prog
                nxt = frozenset(pc + 1 for pc in chars if mask >> prog[pc][1] & 1)
                out = -2 if not nxt and not self.search else self.intern(t, nxt)
            t.rows[kid][key] = out
            return t, out

    def run(self, s: str, classes: dict[str, int]) -> bool:
        with self.lock:
            t, kid = self.tables, self.start
        marks = _Marks(self.asserts, s)
        for i, ch in enumerate(s):
            mask = classes[ch]
            need = t.needs[kid]
            if need:
                if need & ~marks.done:
                    marks.find(need)
                ctx = marks.bits[i] & need
                key = (mask << 32) | ctx
            else:
                ctx, key = 0, mask
            nxt = t.rows[kid].get(key)
            if nxt is None:
                t, nxt = self.step(t, kid, mask, ctx, key)
            if nxt < 0:
                return nxt == -1
            kid = nxt
        need = t.needs[kid]
        return self.closure(t, kid, marks.at(len(s), need) if need else 0)[1]


class _Marks:
    """Which assertions hold at each position of one subject (one ``re`` pass per assertion, when
    first needed)."""

    __slots__ = ("asserts", "bits", "done", "s")

    def __init__(self, asserts: list[Any], s: str) -> None:
        self.asserts = asserts
        self.s = s
        self.done = 0
        self.bits: list[int] = []

    def at(self, i: int, need: int) -> int:
        if need & ~self.done:
            self.find(need)
        return self.bits[i] & need

    def find(self, need: int) -> None:
        missing = need & ~self.done
        if not self.bits:
            self.bits = [0] * (len(self.s) + 1)
        bits = self.bits
        for k, rx in enumerate(self.asserts):
            bit = 1 << k
            if missing & bit:
                for m in rx.finditer(self.s):  # zero-width: every position where it holds
                    bits[m.start()] |= bit
        self.done |= missing


class _Classes:
    """Each character seen, mapped to the bit mask of the pattern's character tests that accept
    it."""

    def __init__(self, tests: list[Any]) -> None:
        self.tests = tests
        self.masks: dict[str, int] = {}

    def of(self, s: str) -> dict[str, int]:
        """The masks of every character of ``s`` (new ones found with one ``re`` pass per test)."""
        masks = self.masks
        new = set(s).difference(masks)
        if new:
            if len(masks) + len(new) > 16 * MAX_DFA_STATES:
                masks = self.masks = {}
                new = set(s)
            fresh = "".join(new)
            bits = [0] * len(fresh)
            for k, rx in enumerate(self.tests):
                bit = 1 << k
                for m in rx.finditer(fresh):  # a one-character pattern: each accepted character
                    bits[m.start()] |= bit
            masks.update(zip(fresh, bits, strict=True))
        return masks


class Regex:
    """A compiled pattern: ``search`` and ``fullmatch`` answer as ``re`` would, in linear time."""

    __slots__ = ("_classes", "_fullmatch", "_search", "pattern")

    def __init__(self, pattern: str) -> None:
        import re
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            try:
                tree = _p.parse(pattern, 0)
            except (RecursionError, OverflowError) as exc:
                raise re.error(f"pattern too complex ({type(exc).__name__})") from None
        b = _Builder(tree.state)
        b.seq(tree, tree.state.flags)
        b.emit(_MATCH)
        if len(b.asserts) > 32:
            raise Unbounded("it has more than 32 anchors or look-arounds")
        self.pattern = pattern
        self._classes = _Classes(b.preds)
        self._search = _Dfa(b.prog, b.asserts, search=True)
        self._fullmatch = _Dfa(b.prog, b.asserts, search=False)

    def search(self, s: str) -> bool:
        """Whether ``re.search(pattern, s)`` finds a match."""
        return self._search.run(s, self._classes.of(s))

    def fullmatch(self, s: str) -> bool:
        """Whether ``re.fullmatch(pattern, s)`` matches."""
        return self._fullmatch.run(s, self._classes.of(s))

    def __repr__(self) -> str:
        return f"Regex({self.pattern!r})"


@functools.lru_cache(maxsize=1024)
def compile_regex(pattern: str) -> Regex:
    """The linear-time form of ``pattern``; raises ``re.error`` (invalid) or :class:`Unbounded`."""
    return Regex(pattern)


def unbounded(pattern: str) -> str | None:
    """Why a *valid* regex ``pattern`` cannot be matched in bounded time, or None (also for invalid
    ones)."""
    import re

    try:
        compile_regex(pattern)
    except Unbounded as exc:
        return str(exc)
    except re.error:
        return None
    return None


# --------------------------------------------------------------------------- globs and names


class Wildcard:
    """A ``*`` pattern (``*`` = any text, everything else literal), full-matched with ``str.find``
    in linear passes."""

    __slots__ = ("_parts",)

    def __init__(self, pattern: str) -> None:
        self._parts = pattern.split("*")

    def fullmatch(self, s: str) -> bool:
        parts = self._parts
        if len(parts) == 1:
            return s == parts[0]
        first, last = parts[0], parts[-1]
        if len(s) < len(first) + len(last) or not s.startswith(first) or not s.endswith(last):
            return False
        at, end = len(first), len(s) - len(last)
        for mid in parts[1:-1]:  # leftmost placement of each middle piece is optimal
            if not mid:
                continue
            at = s.find(mid, at, end)
            if at < 0:
                return False
            at += len(mid)
        return True


@functools.lru_cache(maxsize=1024)
def wildcard(pattern: str) -> Wildcard:
    """The compiled ``*`` pattern (cached)."""
    return Wildcard(pattern)


def exact_names(matcher: str) -> frozenset[str]:
    """The names of an exact matcher (``startup|resume``), compared by set membership."""
    return frozenset(p.strip() for p in matcher.split("|"))
