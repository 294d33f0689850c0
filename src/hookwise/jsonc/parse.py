"""Reading JSON with comments (the format of Gemini CLI settings files).

``//`` line comments and ``/* */`` block comments are allowed anywhere white
space is; strings are left alone. Comments are replaced by spaces of the same
length (newlines kept), so positions in error messages are positions in the
user's file. Values are parsed strictly: ``NaN``/``Infinity`` are rejected as
they are by JavaScript's ``JSON.parse``.

:func:`locate` maps a JSON pointer to the line and column where its value
starts, for messages of the form ``path:line:col: /hooks/BeforeTool/0: ...``.
"""

from __future__ import annotations

import os
import stat

from hookwise._records import TYPE_CHECKING
from hookwise.input_errors import SettingsError
from hookwise.jsonc.codec import loads

if TYPE_CHECKING:
    from typing import Any


def strip_comments(text: str) -> str:
    """Return ``text`` with comments blanked out; every other character keeps its offset.

    An unterminated block comment is left in place so that the JSON parser
    reports it where it starts.
    """
    if "/" not in text:
        return text
    out: list[str] = []
    i, n = 0, len(text)
    start = 0
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
        elif c == "/" and i + 1 < n and text[i + 1] == "/":
            out.append(text[start:i])
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = start = j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            if j < 0:
                break
            out.append(text[start:i])
            out.append("".join(ch if ch in "\r\n" else " " for ch in text[i : j + 2]))
            i = start = j + 2
        else:
            i += 1
    out.append(text[start:])
    return "".join(out)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def loads_strict(text: str) -> Any:
    """``json.loads`` that rejects ``NaN``, ``Infinity`` and ``-Infinity`` (strict JSON)."""
    return loads(text, parse_constant=_reject_constant)


def parse(text: str, path: str = "<string>") -> Any:
    """Parse JSON-with-comments text; raise :class:`SettingsError` with line and column on failure."""
    if text.startswith("\ufeff"):
        text = text[1:]
    clean = strip_comments(text)
    try:
        return loads(clean, parse_constant=_reject_constant)
    except ValueError as exc:
        from json import JSONDecodeError  # imported with the error (hookwise.jsonc.codec)

        if isinstance(exc, JSONDecodeError):
            raise SettingsError(path, exc.msg, exc.lineno, exc.colno) from None
        line, col = _find_constant(clean)
        raise SettingsError(path, str(exc), line, col) from None
    except RecursionError:
        raise SettingsError(path, "nesting too deep", 1, 1) from None


def _find_constant(text: str) -> tuple[int | None, int | None]:
    for word in ("NaN", "-Infinity", "Infinity"):
        k = text.find(word)
        if k >= 0:
            return line_col(text, k)
    return None, None


#: settings files larger than this are refused with a message (they are a few KB in practice)
MAX_FILE_BYTES = 16 << 20


def read_bytes(path: str) -> bytes:
    """The bytes of a settings file, refusing what is not one.

    Raises what ``open`` raises (``FileNotFoundError``, ``IsADirectoryError``,
    ``PermissionError``...) and :class:`SettingsError` for a FIFO, device or
    socket (a FIFO would block forever, ``/dev/zero`` would never end: a cloned
    repository can plant either as a symlink) and for a file over
    :data:`MAX_FILE_BYTES`.
    """
    st = os.stat(path)
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(21, "Is a directory", path)
    if not stat.S_ISREG(st.st_mode):
        raise SettingsError(
            path, "is not a regular file (a device, FIFO or socket); refusing to read it"
        )
    with open(path, "rb") as f:
        raw = f.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise SettingsError(
            path, f"is larger than {MAX_FILE_BYTES >> 20} MiB; refusing to read it as settings"
        )
    return raw


def read_text(path: str) -> str:
    """The text of a settings file, exactly as stored (BOM and line endings kept).

    Raises :class:`SettingsError` naming the file for every failure to read it
    (permission, a directory, a FIFO or device, a huge file, invalid UTF-8 with
    its line and column). ``FileNotFoundError`` passes through: callers decide
    whether a missing file is an error.
    """
    try:
        raw = read_bytes(path)  # refuses FIFOs, devices and huge files
    except FileNotFoundError:
        raise
    except IsADirectoryError:
        raise SettingsError(path, "is a directory, not a settings file") from None
    except PermissionError:
        raise SettingsError(path, "permission denied") from None
    except OSError as exc:
        raise SettingsError(path, exc.strerror or str(exc)) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = line_col(raw[: exc.start].decode("utf-8", "replace"), exc.start)
        raise SettingsError(path, "not valid UTF-8", line, col) from None


def read_file(path: str) -> tuple[str, Any]:
    """Read and parse a settings file. Returns ``(text, value)``.

    Raises :class:`SettingsError` naming the file for every failure: missing
    permission, a directory, invalid UTF-8, a parse error (with line and column).
    """
    try:
        text = read_text(path)
    except FileNotFoundError as exc:
        raise SettingsError(path, exc.strerror or "no such file") from None
    if not text.strip():
        return text, {}
    return text, parse(text, path)


def kind_of(v: Any) -> str:
    """A short English name for a JSON value's type, for messages ("a string", "an array"...)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "an array"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of ``offset`` in ``text``."""
    offset = min(offset, len(text))
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def escape_pointer_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def pointer(*tokens: str | int) -> str:
    """Build a JSON pointer from tokens: ``pointer("hooks", "BeforeTool", 0)`` → ``/hooks/BeforeTool/0``."""
    return "".join("/" + escape_pointer_token(str(t)) for t in tokens)


def locate(text: str, ptr: str) -> tuple[int, int]:
    """Line and column (1-based) where the value at JSON pointer ``ptr`` starts in ``text``.

    For an object member the position of its key is returned (that is where an
    editor should point). Falls back to the deepest parent found.
    """
    clean = strip_comments(text[1:] if text.startswith("\ufeff") else text)
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in ptr.split("/")[1:]] if ptr else []
    pos = _skip_ws(clean, 0)
    best = pos
    for tok in tokens:
        if pos >= len(clean):
            break
        c = clean[pos]
        if c == "{":
            found = _find_member(clean, pos, tok)
            if found is None:
                break
            key_pos, value_pos = found
            best = key_pos
            pos = value_pos
        elif c == "[":
            if not tok.isdigit():
                break
            found_el = _find_element(clean, pos, int(tok))
            if found_el is None:
                break
            pos = best = found_el
        else:
            break
    else:
        if not tokens:
            best = pos
    return line_col(clean, best)


def _skip_ws(s: str, i: int) -> int:
    n = len(s)
    while i < n and s[i] in " \t\r\n":
        i += 1
    return i


def _skip_value(s: str, i: int) -> int:
    """Index just past the JSON value starting at ``i`` (tolerant; never raises)."""
    n = len(s)
    if i >= n:
        return n
    c = s[i]
    if c == '"':
        i += 1
        while i < n and s[i] != '"':
            i += 2 if s[i] == "\\" else 1
        return i + 1
    if c in "{[":
        depth = 0
        while i < n:
            ch = s[i]
            if ch == '"':
                i = _skip_value(s, i)
                continue
            if ch in "{[":
                depth += 1
            elif ch in "}]":
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        return n
    while i < n and s[i] not in ",}] \t\r\n":
        i += 1
    return i


def _find_member(s: str, i: int, key: str) -> tuple[int, int] | None:
    i = _skip_ws(s, i + 1)
    n = len(s)
    while i < n and s[i] != "}":
        if s[i] != '"':
            return None
        key_start = i
        end = _skip_value(s, i)
        try:
            k = loads(s[i:end])
        except ValueError:
            return None
        i = _skip_ws(s, end)
        if i >= n or s[i] != ":":
            return None
        i = _skip_ws(s, i + 1)
        if k == key:
            return key_start, i
        i = _skip_ws(s, _skip_value(s, i))
        if i < n and s[i] == ",":
            i = _skip_ws(s, i + 1)
    return None


def _find_element(s: str, i: int, index: int) -> int | None:
    i = _skip_ws(s, i + 1)
    n = len(s)
    k = 0
    while i < n and s[i] != "]":
        if k == index:
            return i
        i = _skip_ws(s, _skip_value(s, i))
        if i < n and s[i] == ",":
            i = _skip_ws(s, i + 1)
        k += 1
    return None
