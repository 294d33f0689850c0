"""Translating matchers between Claude Code's syntax and hookwise's (Gemini CLI's) regexes."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hookwise.claude.names import (
    _SIMPLE_MATCHER,
    _WORD,
    CLAUDE_TO_GEMINI_TOOL,
    CLAUDE_TOOL_EVENTS,
    GEMINI_BUILTIN_TOOLS,
    GEMINI_LIFECYCLE_TO_CLAUDE,
    GEMINI_TO_CLAUDE_EVENT,
    GEMINI_TO_CLAUDE_TOOL,
    GEMINI_TOOL_EVENTS,
    HOOKWISE_SENDS,
    LIFECYCLE_VALUES,
    mcp_to_claude,
    mcp_to_gemini,
)
from hookwise.jsonc.parse import kind_of


@dataclass
class MatcherResult:
    """A translated matcher. ``value`` None means "no matcher" (match everything).

    ``matches_nothing`` is set when every name in the matcher lacks an
    equivalent, so the hook could never fire and is not migrated.
    """

    value: str | None
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    matches_nothing: bool = False


def _split_simple(m: str) -> list[str]:
    return [p.strip() for p in re.split(r"[|,]", m) if p.strip()]


def _anchored(names: Sequence[str]) -> str:
    esc = [re.escape(n) for n in names]
    return f"^{esc[0]}$" if len(esc) == 1 else "^(" + "|".join(esc) + ")$"


def _regex_tokens(m: str, fn: Callable[[str], str]) -> str:
    """Apply ``fn`` to every word token of regex ``m`` outside escapes and character classes."""
    out: list[str] = []
    i, n = 0, len(m)
    in_class = False
    while i < n:
        c = m[i]
        if c == "\\":
            out.append(m[i : i + 2])
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
            out.append(c)
            i += 1
            continue
        if c == "[":
            in_class = True
            out.append(c)
            i += 1
            continue
        w = _WORD.match(m, i)
        if w:
            out.append(fn(w.group()))
            i = w.end()
            continue
        out.append(c)
        i += 1
    return "".join(out)


def translate_matcher_from_claude(claude_event: str, matcher: Any) -> MatcherResult:
    """Translate a Claude Code matcher for ``claude_event`` into a hookwise matcher."""
    if matcher is None:
        return MatcherResult(None)
    if not isinstance(matcher, str):
        return MatcherResult(
            None,
            warnings=[
                f"matcher must be a string, got {kind_of(matcher)}; ignored (matches everything)"
            ],
        )
    m = matcher.strip()
    if m in ("", "*"):
        return MatcherResult(matcher)
    if claude_event in CLAUDE_TOOL_EVENTS:
        return _tool_matcher_from_claude(m)
    if claude_event in LIFECYCLE_VALUES:
        return _lifecycle_matcher_from_claude(claude_event, m)
    return MatcherResult(
        None,
        [
            f"matcher {matcher!r} dropped: {claude_event} hooks have no matcher "
            "(neither Claude Code nor hookwise tests it)"
        ],
    )


def _tool_names_from_claude(m: str) -> MatcherResult:
    """A matcher made only of names: each in hookwise's spelling; a name without one is kept as it
    is (never a dropped hook), with one warning."""
    notes: list[str] = []
    warns: list[str] = []
    names: list[str] = []
    kept: list[str] = []
    for name in _split_simple(m):
        if name.startswith("mcp__"):
            g = mcp_to_gemini(name)
            if name.count("__") < 2:
                warns.append(
                    f"{name!r} names a whole MCP server but Claude Code compares it exactly, so it "
                    f"matches no tool there, nor here (kept as {g!r}; write {name + '__.*'!r} to "
                    "match the server's tools)"
                )
        elif name in CLAUDE_TO_GEMINI_TOOL:
            g = CLAUDE_TO_GEMINI_TOOL[name] or name
            if CLAUDE_TO_GEMINI_TOOL[name] is None:
                kept.append(name)
        else:
            notes.append(f"tool {name!r} is not a Claude Code built-in tool; kept unchanged")
            g = name
        if g not in names:
            names.append(g)
    if kept:
        warns.append(
            f"tool{'s' if len(kept) > 1 else ''} {', '.join(repr(k) for k in kept)} "
            f"{'have' if len(kept) > 1 else 'has'} no Gemini CLI equivalent; kept in the matcher "
            "unchanged, so the hook runs when a host's tool has that name"
        )
    return MatcherResult(_anchored(names), notes, warns)


def _tool_matcher_from_claude(m: str) -> MatcherResult:
    notes: list[str] = []
    warns: list[str] = []
    if _SIMPLE_MATCHER.match(m):
        return _tool_names_from_claude(m)

    def tok(word: str) -> str:
        if word.startswith("mcp__") or ("__" in word and "mcp__" in m):
            return word.replace("__", "_")
        if word in CLAUDE_TO_GEMINI_TOOL:
            gt = CLAUDE_TO_GEMINI_TOOL[word]
            if gt is None:
                warns.append(
                    f"tool {word!r} has no Gemini CLI equivalent; kept in the regex, where it "
                    "matches nothing"
                )
                return word
            return gt
        return word

    value = _regex_tokens(m, tok)
    try:
        re.compile(value)  # validity only: matching is the linear-time matcher's
    except re.error as exc:
        warns.append(
            f"matcher {m!r} is not a valid regular expression ({exc}); hookwise compares it exactly"
        )
        return MatcherResult(value, notes, warns)
    from hookwise.core.matching import Unbounded, compile_regex

    try:
        search = compile_regex(value).search
    except Unbounded as exc:
        warns.append(
            f"matcher {value!r} cannot be matched in bounded time: {exc}; hookwise skips its "
            "definition"
        )
        return MatcherResult(value, notes, warns)
    if "mcp" not in value and not any(search(t) for t in GEMINI_BUILTIN_TOOLS):
        warns.append(f"matcher {value!r} matches none of Gemini CLI's built-in tools")
    return MatcherResult(value, notes, warns)


def _lifecycle_matcher_from_claude(claude_event: str, m: str) -> MatcherResult:
    """Every value is kept (Claude Code does not check matcher values either): known ones in
    hookwise's spelling, the rest as they are, with one warning naming the values hookwise's own
    hosts never send."""
    table = LIFECYCLE_VALUES[claude_event]
    if not _SIMPLE_MATCHER.match(m):
        return MatcherResult(
            m,
            warnings=[
                f"matcher {m!r} is a regex; hookwise compares {claude_event} matchers "
                f"exactly (values: {', '.join(sorted(table))})"
            ],
        )
    values: list[str] = []
    unknown: list[str] = []
    for name in _split_simple(m):
        for v in table.get(name, [name]):
            if v not in values:
                values.append(v)
        if name not in table:
            unknown.append(name)
    sent = HOOKWISE_SENDS[claude_event]
    quiet = [v for v in values if v not in sent]
    warns: list[str] = []
    if quiet or unknown:
        what = [
            f"{v!r}" + (" (not a Claude Code value)" if v in unknown else "")
            for v in values
            if v in quiet or v in unknown
        ]
        warns.append(
            f"{claude_event} value{'s' if len(what) > 1 else ''} {', '.join(what)} kept in the "
            "matcher; hookwise's own hosts never send "
            + ("them" if len(what) > 1 else "it")
            + ", so the hook runs only when a host fires the event with "
            + ("one of them" if len(what) > 1 else "it")
        )
    return MatcherResult("|".join(values), [], warns)


_ANCHORED_LIST = re.compile(r"^\^(?:\((?P<many>[A-Za-z0-9_|\\-]+)\)|(?P<one>[A-Za-z0-9_\\-]+))\$$")


def translate_matcher_to_claude(event: str, matcher: Any) -> MatcherResult:
    """Translate a hookwise matcher into a Claude Code matcher for the corresponding event."""
    if matcher is None:
        return MatcherResult(None)
    if not isinstance(matcher, str):
        return MatcherResult(
            None, warnings=[f"matcher must be a string, got {kind_of(matcher)}; ignored"]
        )
    m = matcher.strip()
    if m in ("", "*"):
        return MatcherResult(matcher)
    notes: list[str] = []
    if event in GEMINI_TOOL_EVENTS:
        a = _ANCHORED_LIST.match(m)
        plain = re.fullmatch(r"[A-Za-z0-9_|]+", m)
        if a or plain:
            raw = (a.group("many") or a.group("one")) if a else m
            names = [p.replace("\\", "") for p in raw.split("|") if p]
            out: list[str] = []
            for name in names:
                if name.startswith("mcp_"):
                    c = mcp_to_claude(name)
                    if not name.startswith("mcp__") and name.count("_") > 2:
                        notes.append(
                            f"{name!r} split as server {c.split('__')[1]!r}, tool "
                            f"{c.split('__', 2)[2]!r}; check it"
                        )
                else:
                    c = GEMINI_TO_CLAUDE_TOOL.get(name, name)
                    if name not in GEMINI_TO_CLAUDE_TOOL:
                        notes.append(f"tool {name!r} has no Claude Code equivalent; kept unchanged")
                if c not in out:
                    out.append(c)
            return MatcherResult("|".join(out), notes)

        def tok(word: str) -> str:
            if word.startswith("mcp_") and not word.startswith("mcp__"):
                return mcp_to_claude(word)
            return GEMINI_TO_CLAUDE_TOOL.get(word, word)

        return MatcherResult(_regex_tokens(m, tok), notes)
    claude_event = GEMINI_TO_CLAUDE_EVENT.get(event, event)
    table = GEMINI_LIFECYCLE_TO_CLAUDE.get(event, {})
    if claude_event in LIFECYCLE_VALUES:
        vals: list[str] = []
        for v in m.split("|"):
            c = table.get(v.strip(), v.strip())
            if c and c not in vals:
                vals.append(c)
        return MatcherResult("|".join(vals), notes)
    return MatcherResult(None, [f"matcher {m!r} dropped: {claude_event} hooks have no matcher"])


def normalize_matcher(m: Any) -> str:
    """Matchers that mean "everything" compare equal (for duplicate detection)."""
    if not isinstance(m, str) or m.strip() in ("", "*"):
        return ""
    return m.strip()


# --------------------------------------------------------------------------- commands
