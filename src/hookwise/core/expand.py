"""Replacing ``$GEMINI_PROJECT_DIR`` and friends in a command's text (docs/contract.md §5).

The value is inserted so that bash sees it literally in whatever quoting the
author used: unquoted → one single-quoted word; inside ``"..."`` → backslash,
double quote, dollar and backtick escaped; inside ``'...'`` → left alone, as
bash would. No value can inject a command.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

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


def expand_command(
    command: str, values: Mapping[str, str], *, in_single_quotes: bool = False
) -> str:
    """Replace ``$NAME`` / ``${NAME}`` for the names in ``values`` with shell-safe text.

    Follows bash's quoting rules to know the context of each reference. The
    context is a stack: a command substitution ``$(...)`` or a backtick inside a
    double-quoted string starts a fresh, unquoted context, so
    ``"x $(cat "$CLAUDE_PROJECT_DIR/f")"`` is expanded correctly. ``$NAME_MORE``
    is a different variable and is left alone, and so is an escaped ``\\$NAME``.
    """
    if "$" not in command:
        return command
    out: list[str] = []
    # each frame: [kind, paren depth]; kind is "" (unquoted), "'", '"', "$(" or "`"
    stack: list[list[Any]] = [["", 0]]
    i, n = 0, len(command)
    while i < n:
        frame = stack[-1]
        kind = frame[0]
        c = command[i]
        if kind == "'":
            if (
                in_single_quotes and c == "$"
            ):  # textual placeholders (extension hydration): '\'' keeps it one word
                name, end = _reference(command, i)
                if name is not None and name in values:
                    out.append(values[name].replace("'", "'\\''"))
                    i = end
                    continue
            out.append(c)
            if c == "'":
                stack.pop()
            i += 1
            continue
        if c == "\\" and i + 1 < n:
            out.append(command[i : i + 2])
            i += 2
            continue
        if command.startswith("$(", i):
            stack.append(["$(", 0])
            out.append("$(")
            i += 2
            continue
        if c == "$":
            name, end = _reference(command, i)
            if name is not None and name in values:
                v = values[name]
                text = quote_in_double(v) if kind == '"' else quote_word(v)
                for f in stack:  # legacy backticks process \\, ` and $ once more per level
                    if f[0] == "`":
                        text = _backtick_escape(text)
                out.append(text)
                i = end
                continue
            out.append(c)
            i += 1
            continue
        if kind == '"':
            if c == '"':
                stack.pop()
            elif c == "`":
                stack.append(["`", 0])
            out.append(c)
            i += 1
            continue
        # unquoted-like contexts: top level, $( ... ), ` ... `
        if c == "'":
            stack.append(["'", 0])
        elif c == '"':
            stack.append(['"', 0])
        elif c == "`":
            if kind == "`":
                stack.pop()
            else:
                stack.append(["`", 0])
        elif kind == "$(" and c == "(":
            frame[1] += 1
        elif kind == "$(" and c == ")":
            if frame[1] == 0:
                stack.pop()
            else:
                frame[1] -= 1
        out.append(c)
        i += 1
    return "".join(out)


def _backtick_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("`", "\\`").replace("$", "\\$")


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
