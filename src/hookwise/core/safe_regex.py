"""Matchers that cannot hang a firing (docs/contract.md §3; docs/sources.md "Matchers that cannot hang").

Python's ``re`` backtracks and has no timeout: ``^(a+)+$`` against ``"a" * 30 + "!"``
takes longer than the universe is old. A settings file from a cloned repository
must not be able to do that to every firing, trusted or not (matching happens
before the trust check, so a skipped hook is still reported as ``skipped``).

The rule is static and cheap:

* :func:`hazard` parses the pattern (``re``'s own parser, no matching) and says
  why it could backtrack catastrophically: a repeat inside a repeat
  (``(a+)+``, ``(\\w*x?)*``), an alternation inside a repeat (``(a|a)*``,
  ``(a|ab)+``), three or more unbounded repeats (``.*.*.*x``, polynomial), or a
  back-reference next to a repeat.
* Such a pattern is matched by :class:`LinearMatcher`, a Thompson-NFA simulation
  over the same parse tree: the same answer as ``re.search`` for a yes/no
  question, in time linear in the subject (times the pattern size), whatever
  the input.
* What the NFA cannot express (back-references, look-around, possessive or
  atomic groups, case-insensitive / multi-line flags, or more than
  :data:`MAX_STATES` states) is *refused*: the matcher is compared exactly,
  like an invalid regex.

Either way the loader reports a warning naming the file and the key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

try:  # Python 3.11+
    from re import _constants as _c  # type: ignore[attr-defined]
    from re import _parser as _p  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

#: an NFA larger than this is refused (``x{1000}`` inside a risky pattern)
MAX_STATES = 4000
#: flags the NFA handles: unicode (the default for str patterns), verbose (parse-time only), dotall
_OK_FLAGS = _c.SRE_FLAG_UNICODE | _c.SRE_FLAG_VERBOSE | _c.SRE_FLAG_DOTALL

_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT)


class Unsupported(Exception):
    """The pattern uses something the linear matcher does not implement."""


def _parse(pattern: str) -> Any:
    return _p.parse(pattern, 0)


def _is_big(hi: int) -> bool:
    return bool(hi == _c.MAXREPEAT or hi > 1)


def _walk_hazard(items: Any, inside_repeat: bool, counts: list[int]) -> str | None:
    for op, av in items:
        if op in _REPEATS or op is getattr(_c, "POSSESSIVE_REPEAT", None):
            lo, hi, sub = av
            if hi == _c.MAXREPEAT:
                counts[0] += 1
            if inside_repeat and _is_big(hi):
                return "a repeat inside a repeat (nested quantifier)"
            found = _walk_hazard(sub, inside_repeat or _is_big(hi), counts)
            if found:
                return found
        elif op is _c.SUBPATTERN:
            found = _walk_hazard(av[-1], inside_repeat, counts)
            if found:
                return found
        elif op is _c.BRANCH:
            if inside_repeat:
                return "an alternation inside a repeat (ambiguous alternatives)"
            for alt in av[1]:
                found = _walk_hazard(alt, inside_repeat, counts)
                if found:
                    return found
        elif op in (_c.ASSERT, _c.ASSERT_NOT):
            found = _walk_hazard(av[1], inside_repeat, counts)
            if found:
                return found
        elif op is getattr(_c, "ATOMIC_GROUP", None):
            found = _walk_hazard(av, inside_repeat, counts)
            if found:
                return found
        elif op in (_c.GROUPREF, _c.GROUPREF_EXISTS):
            counts[1] += 1
    return None


def hazard(pattern: str) -> str | None:
    """Why ``pattern`` could backtrack catastrophically in ``re``, or None when it cannot."""
    try:
        tree = _parse(pattern)
    except Exception:  # noqa: BLE001 - invalid patterns are compared exactly elsewhere
        return None
    counts = [0, 0]  # unbounded repeats, back-references
    found = _walk_hazard(list(tree), False, counts)
    if found:
        return found
    if counts[0] >= 3:
        return f"{counts[0]} unbounded repeats (polynomial backtracking)"
    if counts[1] and counts[0]:
        return "a back-reference together with a repeat"
    return None


# --------------------------------------------------------------------------- the linear matcher

_CHAR, _SPLIT, _JMP, _ASSERT, _MATCH = range(5)
Instr = tuple[Any, ...]


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


_CATEGORIES: dict[Any, Callable[[str], bool]] = {
    _c.CATEGORY_DIGIT: str.isdecimal,
    _c.CATEGORY_NOT_DIGIT: lambda ch: not ch.isdecimal(),
    _c.CATEGORY_SPACE: str.isspace,
    _c.CATEGORY_NOT_SPACE: lambda ch: not ch.isspace(),
    _c.CATEGORY_WORD: _is_word,
    _c.CATEGORY_NOT_WORD: lambda ch: not _is_word(ch),
}


def _eq(c: str) -> Callable[[str], bool]:
    return lambda ch: ch == c


def _ne(c: str) -> Callable[[str], bool]:
    return lambda ch: ch != c


def _between(lo: int, hi: int) -> Callable[[str], bool]:
    return lambda ch: lo <= ord(ch) <= hi


def _set_predicate(items: Any) -> Callable[[str], bool]:
    negate = False
    tests: list[Callable[[str], bool]] = []
    for op, av in items:
        if op is _c.NEGATE:
            negate = True
        elif op is _c.LITERAL:
            tests.append(_eq(chr(av)))
        elif op is _c.RANGE:
            tests.append(_between(av[0], av[1]))
        elif op is _c.CATEGORY and av in _CATEGORIES:
            tests.append(_CATEGORIES[av])
        else:
            raise Unsupported(f"character set item {op}")
    if negate:
        return lambda ch: not any(t(ch) for t in tests)
    return lambda ch: any(t(ch) for t in tests)


class _Compiler:
    def __init__(self, dotall: bool) -> None:
        self.prog: list[Instr] = []
        self.dotall = dotall

    def emit(self, *ins: Any) -> int:
        self.prog.append(tuple(ins))
        if len(self.prog) > MAX_STATES:
            raise Unsupported(f"more than {MAX_STATES} states")
        return len(self.prog) - 1

    def patch(self, at: int, *ins: Any) -> None:
        self.prog[at] = tuple(ins)

    def seq(self, items: Any) -> None:
        for op, av in items:
            self.node(op, av)

    def node(self, op: Any, av: Any) -> None:
        if op is _c.LITERAL:
            self.emit(_CHAR, _eq(chr(av)))
        elif op is _c.NOT_LITERAL:
            self.emit(_CHAR, _ne(chr(av)))
        elif op is _c.ANY:
            self.emit(_CHAR, (lambda ch: True) if self.dotall else (lambda ch: ch != "\n"))
        elif op is _c.IN:
            self.emit(_CHAR, _set_predicate(av))
        elif op is _c.SUBPATTERN:
            add_flags, del_flags = av[1], av[2]
            if add_flags & ~_OK_FLAGS or del_flags & _c.SRE_FLAG_DOTALL:
                raise Unsupported("scoped flags")
            self.seq(av[-1])
        elif op is _c.BRANCH:
            alts = av[1]
            jumps: list[int] = []
            for k, alt in enumerate(alts):
                if k < len(alts) - 1:
                    split = self.emit(_SPLIT, 0, 0)
                    self.seq(alt)
                    jumps.append(self.emit(_JMP, 0))
                    self.patch(split, _SPLIT, split + 1, len(self.prog))
                else:
                    self.seq(alt)
            for j in jumps:
                self.patch(j, _JMP, len(self.prog))
        elif op in _REPEATS:
            lo, hi, sub = av
            for _ in range(lo):
                self.seq(sub)
            if hi == _c.MAXREPEAT:
                split = self.emit(_SPLIT, 0, 0)
                self.seq(sub)
                self.emit(_JMP, split)
                self.patch(split, _SPLIT, split + 1, len(self.prog))
            else:
                splits = []
                for _ in range(hi - lo):
                    splits.append(self.emit(_SPLIT, 0, 0))
                    self.seq(sub)
                for s in splits:
                    self.patch(s, _SPLIT, s + 1, len(self.prog))
        elif op is _c.AT:
            if av not in (
                _c.AT_BEGINNING,
                _c.AT_BEGINNING_STRING,
                _c.AT_END,
                _c.AT_END_STRING,
                _c.AT_BOUNDARY,
                _c.AT_NON_BOUNDARY,
            ):
                raise Unsupported(f"anchor {av}")
            self.emit(_ASSERT, av)
        else:
            raise Unsupported(str(op).lower())


def _assert_ok(kind: Any, s: str, i: int) -> bool:
    n = len(s)
    if kind is _c.AT_BEGINNING or kind is _c.AT_BEGINNING_STRING:
        return i == 0
    if kind is _c.AT_END:
        return i == n or (i == n - 1 and s[i] == "\n")
    if kind is _c.AT_END_STRING:
        return i == n
    before = i > 0 and _is_word(s[i - 1])
    after = i < n and _is_word(s[i])
    return (before != after) if kind is _c.AT_BOUNDARY else (before == after)


class LinearMatcher:
    """``re.search(pattern, s) is not None`` in O(len(s) * states) time, for the subset :func:`hazard` flags."""

    def __init__(self, pattern: str) -> None:
        tree = _parse(pattern)
        flags = tree.state.flags
        if flags & ~_OK_FLAGS:
            raise Unsupported("flags other than (?s)/(?x)")
        comp = _Compiler(bool(flags & _c.SRE_FLAG_DOTALL))
        comp.seq(tree)
        comp.emit(_MATCH)
        self.prog = comp.prog
        self.pattern = pattern

    def _add(self, clist: list[int], seen: set[int], pc: int, s: str, i: int) -> bool:
        """Add ``pc``'s epsilon closure at position ``i``; True when it reaches the match state."""
        stack = [pc]
        prog = self.prog
        while stack:
            pc = stack.pop()
            if pc in seen:
                continue
            seen.add(pc)
            ins = prog[pc]
            op = ins[0]
            if op == _MATCH:
                return True
            if op == _JMP:
                stack.append(ins[1])
            elif op == _SPLIT:
                stack.append(ins[2])
                stack.append(ins[1])
            elif op == _ASSERT:
                if _assert_ok(ins[1], s, i):
                    stack.append(pc + 1)
            else:
                clist.append(pc)
        return False

    def search(self, s: str) -> bool:
        prog = self.prog
        clist: list[int] = []
        seen: set[int] = set()
        for i in range(len(s) + 1):
            if self._add(clist, seen, 0, s, i):  # a match may start anywhere (search)
                return True
            if i == len(s):
                return False
            ch = s[i]
            nlist: list[int] = []
            nseen: set[int] = set()
            for pc in clist:
                if prog[pc][1](ch) and self._add(nlist, nseen, pc + 1, s, i + 1):
                    return True
            clist, seen = nlist, nseen
        return False


def safe_search(pattern: str) -> tuple[Callable[[str], bool] | None, str | None]:
    """``(search, note)`` for a tool matcher.

    ``search`` is ``None`` when ``pattern`` is not risky (use ``re``) or must be
    refused; ``note`` is None for a harmless pattern, else the warning text.
    """
    why = hazard(pattern)
    if why is None:
        return None, None
    try:
        lm = LinearMatcher(pattern)
    except (Unsupported, RecursionError, OverflowError) as exc:
        return None, (
            f"matcher {pattern!r} can backtrack catastrophically ({why}) and uses {exc}, which the "
            "bounded matcher does not support; it is refused and compared as an exact tool name"
        )
    return lm.search, (
        f"matcher {pattern!r} can backtrack catastrophically ({why}); it is matched with "
        "hookwise's linear-time matcher (same answers, bounded time)"
    )


def refused(pattern: str) -> bool:
    """True when a risky ``pattern`` cannot be matched safely and is compared exactly instead."""
    search, note = safe_search(pattern)
    return search is None and note is not None
