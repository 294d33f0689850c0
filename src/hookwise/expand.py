"""Replacing ``$GEMINI_PROJECT_DIR`` and friends in a command's text (CONTRACT §5).

The value is inserted so that bash sees it literally in whatever quoting the
author used: unquoted → one single-quoted word; inside ``"..."`` → backslash,
double quote, dollar and backtick escaped; inside ``'...'`` → left alone, as
bash would. No value can inject a command.
"""

from __future__ import annotations

from collections.abc import Mapping

EXPANDED_VARS = ("GEMINI_PROJECT_DIR", "GEMINI_CWD", "GEMINI_SESSION_ID", "CLAUDE_PROJECT_DIR")

_IDENT = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def quote_word(value: str) -> str:
    """A single-quoted shell word with the literal value ``value``."""
    return "'" + value.replace("'", "'\\''") + "'"


def quote_in_double(value: str) -> str:
    """``value`` escaped for use inside a double-quoted shell string."""
    out = []
    for ch in value:
        if ch in '\\"$`':
            out.append("\\")
        out.append(ch)
    return "".join(out)


def expand_command(command: str, values: Mapping[str, str]) -> str:
    """Replace ``$NAME`` / ``${NAME}`` for the names in ``values`` with shell-safe text.

    Follows bash's own quoting rules to know the context of each reference;
    ``$NAME_MORE`` is a different variable and is left alone, and so is an
    escaped ``\\$NAME``.
    """
    if "$" not in command:
        return command
    out: list[str] = []
    i, n = 0, len(command)
    quote = ""  # "", "'", '"'
    while i < n:
        c = command[i]
        if quote == "'":
            out.append(c)
            if c == "'":
                quote = ""
            i += 1
            continue
        if c == "\\" and i + 1 < n:
            out.append(command[i : i + 2])
            i += 2
            continue
        if c == "'" and quote == "":
            quote = "'"
            out.append(c)
            i += 1
            continue
        if c == '"':
            quote = "" if quote == '"' else '"'
            out.append(c)
            i += 1
            continue
        if c == "$":
            name, end = _reference(command, i)
            if name is not None and name in values:
                v = values[name]
                out.append(quote_in_double(v) if quote == '"' else quote_word(v))
                i = end
                continue
        out.append(c)
        i += 1
    return "".join(out)


def _reference(s: str, i: int) -> tuple[str | None, int]:
    """The variable name referenced at ``s[i] == "$"`` and the index after it."""
    n = len(s)
    if i + 1 < n and s[i + 1] == "{":
        j = s.find("}", i + 2)
        if j < 0:
            return None, i + 1
        name = s[i + 2 : j]
        return (name, j + 1) if name and all(ch in _IDENT for ch in name) else (None, i + 1)
    j = i + 1
    while j < n and s[j] in _IDENT:
        j += 1
    return (s[i + 1 : j] or None), j
