"""Text a regular expression cannot match without: a cheap test before a costly one.

:func:`required_texts` reads a pattern's top-level alternatives and returns, for
each, one literal every match of it contains (the longest literal run at its top
level, or a literal prefix spelled out for a leading group of literal choices:
``(?:ghp|gho)_`` gives ``ghp_`` and ``gho_``). A text that contains none of them
cannot match, so the caller never needs :mod:`re` for it (importing ``re`` costs a
firing of ``hookwise fire`` ~10 ms of CPU). When an alternative has no such literal
of at least two characters the answer is None: always run the expression.
"""

from __future__ import annotations

#: characters that make a piece of pattern something other than itself
_SPECIAL = frozenset(".^$*+?{}[]()|\\")
#: escapes that stand for one literal character
_LITERAL_ESCAPES = frozenset(".^$*+?{}[]()|\\/-_:@ ")


def _top_level(pattern: str, sep: str = "|") -> list[str]:
    """``pattern`` split at ``sep`` outside groups and classes."""
    parts, depth, start, i, in_class = [], 0, 0, 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
        i += 1
    parts.append(pattern[start:])
    return parts


def _runs(alt: str) -> list[str]:
    """The literal runs of one alternative at its top level (a run ends at anything not literal; a
    quantified character is not part of the run before it)."""
    runs: list[str] = []
    run: list[str] = []
    i = 0
    while i < len(alt):
        c = alt[i]
        nxt = alt[i + 1] if i + 1 < len(alt) else ""
        if c == "\\" and nxt in _LITERAL_ESCAPES and nxt:
            ch, width = nxt, 2
        elif c == "\\" and nxt == "b":  # a word boundary matches no text
            i += 2
            continue
        elif c not in _SPECIAL:
            ch, width = c, 1
        else:
            runs.append("".join(run))
            run = []
            i = _skip(alt, i)
            continue
        after = alt[i + width] if i + width < len(alt) else ""
        if after in ("*", "?", "{"):  # optional or repeated: not required as written
            runs.append("".join(run))
            run = []
        else:
            run.append(ch)
        i += width
    runs.append("".join(run))
    return [r for r in runs if r]


def _skip(alt: str, i: int) -> int:
    """The index after the special piece starting at ``i`` (a group, a class, an escape or one
    character)."""
    c = alt[i]
    if c == "(":
        depth, j = 0, i
        while j < len(alt):
            if alt[j] == "\\":
                j += 2
                continue
            depth += alt[j] == "("
            depth -= alt[j] == ")"
            j += 1
            if depth == 0:
                return j
        return j
    if c in "[{":
        j = alt.find("]" if c == "[" else "}", i + 2 if c == "[" else i + 1)
        return len(alt) if j < 0 else j + 1
    return i + 2 if c == "\\" else i + 1


def _leading_choices(alt: str) -> list[str] | None:
    """``(?:ghp|gho)_x`` → ``["ghp_x", "gho_x"]`` when the alternative starts with a group of
    literal choices followed by a literal run, else None."""
    body = alt[2:] if alt.startswith("\\b") else alt
    if not body.startswith("(?:"):
        return None
    end = _skip(body, 0)
    choices = body[3 : end - 1].split("|")
    if any(not ch or set(ch) & _SPECIAL for ch in choices) or body[end : end + 1] in (
        "*",
        "?",
        "{",
    ):
        return None
    runs = _runs(body[end:])
    tail = runs[0] if runs and body[end:].startswith(runs[0]) else ""
    return [ch + tail for ch in choices]


def required_texts(pattern: str) -> tuple[str, ...] | None:
    """Literals one of which every match of ``pattern`` contains; None when that cannot be said."""
    out: list[str] = []
    for alt in _top_level(pattern):
        choices = _leading_choices(alt)
        best = max(_runs(alt), key=len, default="")
        if choices is not None and min(map(len, choices)) > len(best):
            out.extend(choices)
        elif len(best) >= 2:
            out.append(best)
        else:
            return None
    return tuple(out)
