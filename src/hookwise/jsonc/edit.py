"""Byte-preserving edits of JSON-with-comments text (settings files).

Every function takes the file's text and returns the new text, in which only
the bytes of the requested change differ: comments, key order, indentation,
line endings and unrelated keys stay as the user wrote them. New content is
indented like the surrounding file (its indent unit and the indentation of the
neighbouring members) and uses the file's line ending.

- :func:`set_value` replaces the value at a JSON pointer, or inserts the member
  when it is missing (creating missing parent objects).
- :func:`append_to_array` appends to the array at a pointer (creating it).
- :func:`remove_value` removes an object member or an array element.
- :func:`write_atomic` writes a file atomically (temp file in the same
  directory, fsync, ``os.replace``), keeping its mode and refusing symlinks.

The input must parse (else :class:`~hookwise.errors.SettingsError` with line and
column). Every edit is checked by re-parsing: the result must equal the old
document with exactly the requested change, otherwise :class:`EditError`.
Object members that appear twice are edited at their last occurrence, the one
that ``json.loads`` (and so hookwise) honours.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from hookwise.atomic import write_atomic as _write_atomic
from hookwise.errors import EditError, SettingsError, WriteError
from hookwise.jsonc import parse as jsonc
from hookwise.jsonc.parse import kind_of, parse, strip_comments

__all__ = [
    "EditError",
    "append_to_array",
    "read_text",
    "remove_value",
    "set_value",
    "write_atomic",
]


# --------------------------------------------------------------------------- structure


@dataclass
class _Node:
    kind: str  # "object" | "array" | "scalar"
    start: int  # offset of the first character of the value
    end: int  # offset just past the value
    # object: (key, key_start, value); array: (None, value_start, value)
    children: list[tuple[str | None, int, _Node]] = field(default_factory=list)


class _Scanner:
    """Recursive-descent walk over comment-blanked, already-valid JSON text."""

    def __init__(self, clean: str) -> None:
        self.s = clean
        self.n = len(clean)

    def ws(self, i: int) -> int:
        s, n = self.s, self.n
        while i < n and s[i] in " \t\r\n\ufeff":
            i += 1
        return i

    def string_end(self, i: int) -> int:
        s, n = self.s, self.n
        i += 1
        while i < n and s[i] != '"':
            i += 2 if s[i] == "\\" else 1
        return i + 1

    def value(self, i: int) -> _Node:
        i = self.ws(i)
        c = self.s[i]
        if c == "{":
            node = _Node("object", i, i)
            j = self.ws(i + 1)
            while self.s[j] != "}":
                key_start = j
                key_end = self.string_end(j)
                key = json.loads(self.s[key_start:key_end])
                j = self.ws(key_end)  # at ':'
                child = self.value(j + 1)
                node.children.append((key, key_start, child))
                j = self.ws(child.end)
                if self.s[j] == ",":
                    j = self.ws(j + 1)
            node.end = j + 1
            return node
        if c == "[":
            node = _Node("array", i, i)
            j = self.ws(i + 1)
            while self.s[j] != "]":
                child = self.value(j)
                node.children.append((None, child.start, child))
                j = self.ws(child.end)
                if self.s[j] == ",":
                    j = self.ws(j + 1)
            node.end = j + 1
            return node
        if c == '"':
            return _Node("scalar", i, self.string_end(i))
        j = i
        while j < self.n and self.s[j] not in ",}] \t\r\n":
            j += 1
        return _Node("scalar", i, j)


def _tokens(ptr: str) -> list[str]:
    if ptr == "":
        return []
    if not ptr.startswith("/"):
        raise EditError(f"invalid JSON pointer {ptr!r} (must start with '/')")
    return [t.replace("~1", "/").replace("~0", "~") for t in ptr.split("/")[1:]]


def _ptr(tokens: list[str]) -> str:
    return "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in tokens) or "/"


@dataclass
class _Doc:
    text: str
    clean: str
    value: Any
    root: _Node | None  # None for an empty / blank file
    nl: str
    unit: str
    colon: str


def _load(text: str, path: str) -> _Doc:
    nl = "\r\n" if "\r\n" in text else "\n"
    if text.strip(" \t\r\n\ufeff") == "":
        return _Doc(text, text, None, None, nl, "  ", ": ")
    value = parse(text, path)  # raises SettingsError with line/column
    clean = strip_comments(text)
    root = _Scanner(clean).value(0)
    return _Doc(text, clean, value, root, nl, _indent_unit(clean), _colon_style(clean, root))


def _indent_unit(clean: str) -> str:
    """The file's indent step: a tab if lines are tab-indented, else the smallest space indent
    (default 2)."""
    smallest = 0
    for line in clean.splitlines():
        stripped = line.lstrip(" \t")
        if not stripped:
            continue
        lead = line[: len(line) - len(stripped)]
        if not lead:
            continue
        if lead.startswith("\t"):
            return "\t"
        if smallest == 0 or len(lead) < smallest:
            smallest = len(lead)
    return " " * (smallest or 2)


def _colon_style(clean: str, root: _Node | None) -> str:
    """``": "`` or whatever the file uses between a key and its value (first member found)."""
    stack = [root] if root else []
    while stack:
        node = stack.pop(0)
        if node.kind == "object" and node.children:
            key, key_start, child = node.children[0]
            sep = clean[_Scanner(clean).string_end(key_start) : child.start]
            if "\n" not in sep and "\r" not in sep and sep.strip() == ":":
                return sep
            return ": "
        stack.extend(c for _, _, c in node.children)
    return ": "


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def _line_indent(text: str, pos: int) -> str:
    start = _line_start(text, pos)
    j = start
    while j < len(text) and text[j] in " \t":
        j += 1
    if j < len(text) and text[j] == "\ufeff":
        return ""
    return text[start:j]


def _same_line(text: str, a: int, b: int) -> bool:
    lo, hi = min(a, b), max(a, b)
    return "\n" not in text[lo:hi]


def _render(value: Any, base: str, unit: str, nl: str, compact: bool) -> str:
    if compact or not isinstance(value, (list, dict)) or not value:
        if isinstance(value, (list, dict)) and not value:
            return "[]" if isinstance(value, list) else "{}"
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), allow_nan=False)
    inner = base + unit
    if isinstance(value, list):
        items = [inner + _render(v, inner, unit, nl, False) for v in value]
        return "[" + nl + ("," + nl).join(items) + nl + base + "]"
    members = [
        inner + json.dumps(k, ensure_ascii=False) + ": " + _render(v, inner, unit, nl, False)
        for k, v in value.items()
    ]
    return "{" + nl + ("," + nl).join(members) + nl + base + "}"


def _render_member(doc: _Doc, key: str, value: Any, base: str, compact: bool) -> str:
    return (
        json.dumps(key, ensure_ascii=False)
        + doc.colon
        + _render(value, base, doc.unit, doc.nl, compact)
    )


# --------------------------------------------------------------------------- low-level text ops


def _skip_inline_comments(text: str, i: int) -> int:
    """From ``i`` skip spaces/tabs and same-line ``/* */`` comments; stop at anything else."""
    n = len(text)
    while i < n:
        c = text[i]
        if c in " \t":
            i += 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0 or "\n" in text[i:j]:
                return i
            i = j + 2
        else:
            return i
    return i


def _end_of_line_after(text: str, i: int) -> int | None:
    """If only blanks/comments follow ``i`` on its line, the offset of that line's end (before
    CR/LF)."""
    j = _skip_inline_comments(text, i)
    if text.startswith("//", j):
        k = text.find("\n", j)
        k = len(text) if k < 0 else k
        return k - 1 if k > 0 and text[k - 1] == "\r" else k
    if j >= len(text):
        return j
    if text[j] == "\n":
        return j - 1 if j > 0 and text[j - 1] == "\r" else j
    if text[j] == "\r":
        return j
    return None


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply non-overlapping edits; edits at the same offset end up in list order."""
    order = sorted(range(len(edits)), key=lambda k: (edits[k][0], k), reverse=True)
    for k in order:
        start, end, repl = edits[k]
        text = text[:start] + repl + text[end:]
    return text


def _insert_child(doc: _Doc, node: _Node, rendered: Any, key: str | None) -> str:
    """Insert a new last member (``key`` given) or element into the container ``node``.

    ``rendered`` is the raw value; it is rendered here with the right indentation.
    """
    text, clean = doc.text, doc.clean
    minified = "\n" not in text
    close = node.end - 1
    if node.children:
        first_start = node.children[0][1]
        last_key_start = node.children[-1][1]
        last = node.children[-1][2]
        inline = minified or _same_line(clean, node.start, first_start)
        if inline:
            body = (
                _render_member(doc, key, rendered, "", True)
                if key is not None
                else _render(rendered, "", doc.unit, doc.nl, True)
            )
            return _apply(text, [(last.end, last.end, ", " + body)])
        indent = _line_indent(text, last_key_start)
        body = (
            _render_member(doc, key, rendered, indent, False)
            if key is not None
            else _render(rendered, indent, doc.unit, doc.nl, False)
        )
        eol = _end_of_line_after(text, last.end)
        if eol is None:  # something (the closing bracket) follows on the same line
            return _apply(text, [(last.end, last.end, "," + doc.nl + indent + body)])
        return _apply(text, [(last.end, last.end, ","), (eol, eol, doc.nl + indent + body)])
    # empty container
    if minified:
        body = (
            _render_member(doc, key, rendered, "", True)
            if key is not None
            else _render(rendered, "", doc.unit, doc.nl, True)
        )
        interior = text[node.start + 1 : close]
        if interior.strip(" \t") == "":
            return _apply(text, [(node.start + 1, close, body)])
        return _apply(text, [(close, close, " " + body + " ")])
    outer = _line_indent(text, node.start)
    inner = outer + doc.unit
    body = (
        _render_member(doc, key, rendered, inner, False)
        if key is not None
        else _render(rendered, inner, doc.unit, doc.nl, False)
    )
    interior = text[node.start + 1 : close]
    if interior.strip(" \t\r\n") == "":
        return _apply(text, [(node.start + 1, close, doc.nl + inner + body + doc.nl + outer)])
    # only comments inside: put the member after them
    pos = close
    while pos > node.start + 1 and text[pos - 1] in " \t\r\n":
        pos -= 1
    tail = "" if "\n" in text[pos:close] else doc.nl + outer
    return _apply(text, [(pos, pos, doc.nl + inner + body + tail)])


def _remove_child(doc: _Doc, node: _Node, index: int) -> str:
    text, clean = doc.text, doc.clean
    _, start, child = node.children[index]
    end = child.end
    n_children = len(node.children)
    sc = _Scanner(clean)
    after = sc.ws(end)
    has_next_comma = after < len(clean) and clean[after] == ","
    prev_comma: int | None = None
    if index > 0:
        j = start - 1
        while j > node.start and clean[j] in " \t\r\n":
            j -= 1
        if clean[j] == ",":
            prev_comma = j
    if n_children == 1:
        interior = text[node.start + 1 : node.end - 1]
        rest = interior.replace(text[start:end], "", 1)
        if rest.strip(" \t\r\n") == "":
            return _apply(text, [(node.start + 1, node.end - 1, "")])
    own_line_start = text[_line_start(text, start) : start].strip(" \t\ufeff") == ""
    tail_from = (after + 1) if has_next_comma else end
    eol = _end_of_line_after(text, tail_from)
    if own_line_start and eol is not None:
        # the element occupies whole lines: drop them (a trailing // comment goes with it)
        line_from = _line_start(text, start)
        line_to = eol
        if text.startswith("\r\n", line_to):
            line_to += 2
        elif text.startswith("\n", line_to):
            line_to += 1
        edits = [(line_from, line_to, "")]
        if not has_next_comma and prev_comma is not None:
            edits.append((prev_comma, prev_comma + 1, ""))
        return _apply(text, edits)
    if has_next_comma:
        nxt = sc.ws(after + 1)
        if index + 1 < n_children and text[after + 1 : nxt].strip(" \t") == "":
            return _apply(text, [(start, nxt, "")])
        return _apply(text, [(start, after + 1, "")])
    if prev_comma is not None:
        if text[prev_comma + 1 : start].strip(" \t\r\n") == "":
            return _apply(text, [(prev_comma, end, "")])
        return _apply(text, [(prev_comma, prev_comma + 1, ""), (start, end, "")])
    return _apply(text, [(start, end, "")])


# --------------------------------------------------------------------------- pointer resolution


def _walk(doc: _Doc, tokens: list[str]) -> tuple[list[_Node], list[Any]]:
    """Nodes and values along ``tokens`` as far as they exist (index 0 = root)."""
    assert doc.root is not None
    nodes = [doc.root]
    values = [doc.value]
    for tok in tokens:
        node, value = nodes[-1], values[-1]
        if node.kind == "object" and isinstance(value, dict):
            idx = _member_index(node, tok)
            if idx is None:
                break
            nodes.append(node.children[idx][2])
            values.append(value[tok])
        elif node.kind == "array" and isinstance(value, list):
            if not tok.isdigit() or int(tok) >= len(node.children):
                break
            nodes.append(node.children[int(tok)][2])
            values.append(value[int(tok)])
        else:
            break
    return nodes, values


def _member_index(node: _Node, key: str) -> int | None:
    found = None
    for i, (k, _, _) in enumerate(node.children):
        if k == key:
            found = i  # last occurrence wins, as in json.loads
    return found


def _expected(value: Any, tokens: list[str], op: str, new: Any = None) -> Any:
    """The document after the edit, computed on the parsed value (to check the text edit)."""
    root = copy.deepcopy(value) if value is not None else {}
    if not tokens:
        return new
    cur = root
    for tok in tokens[:-1]:
        if isinstance(cur, list):
            cur = cur[int(tok)]
        else:
            cur = cur.setdefault(tok, {})
    last = tokens[-1]
    if op == "set":
        if isinstance(cur, list):
            if last == "-" or int(last) == len(cur):
                cur.append(new)
            else:
                cur[int(last)] = new
        else:
            cur[last] = new
    elif op == "remove":
        if isinstance(cur, list):
            del cur[int(last)]
        else:
            del cur[last]
    return root


def _check(doc: _Doc, result: str, expected: Any, path: str, what: str) -> str:
    try:
        got = parse(result, path)
    except SettingsError as exc:  # pragma: no cover - a bug in this module
        raise EditError(
            f"{path}: internal error while {what}: result does not parse ({exc.message})"
        ) from None
    if got != expected:  # pragma: no cover - a bug in this module
        raise EditError(
            f"{path}: internal error while {what}: result differs from the intended change"
        )
    return result


# --------------------------------------------------------------------------- public API


def set_value(text: str, pointer: str, value: Any, *, path: str = "<settings>") -> str:
    """Set the value at JSON ``pointer`` (``/hooksConfig/disabled``) in JSONC ``text``.

    An existing value is replaced in place; a missing member is inserted as the
    last member of its object, creating missing parent objects. For an array
    parent, the token ``-`` (or the array's length) appends. Raises
    :class:`SettingsError` when ``text`` does not parse and :class:`EditError`
    when a parent on the way is not an object/array.
    """
    tokens = _tokens(pointer)
    doc = _load(text, path)
    json.dumps(value, allow_nan=False)  # reject what cannot be written as strict JSON
    expected_tokens = tokens
    if doc.root is None:
        if not tokens:
            return _render(value, "", "  ", "\n", False) + "\n"
        bom = "\ufeff" if text.startswith("\ufeff") else ""
        nested: Any = value
        for tok in reversed(tokens[1:]):
            nested = {tok: nested}
        body = (
            "{"
            + doc.nl
            + "  "
            + _render_member(
                _Doc("", "", None, None, doc.nl, "  ", ": "), tokens[0], nested, "  ", False
            )
            + doc.nl
            + "}"
        )
        return bom + body + doc.nl
    if not tokens:
        return _check(
            doc,
            _apply(
                text,
                [
                    (
                        doc.root.start,
                        doc.root.end,
                        _render(value, "", doc.unit, doc.nl, "\n" not in text),
                    )
                ],
            ),
            value,
            path,
            f"setting {pointer}",
        )
    nodes, values = _walk(doc, tokens)
    depth = len(nodes) - 1  # number of tokens resolved
    if depth == len(tokens):
        node = nodes[-1]
        base = _line_indent(text, node.start)
        compact = "\n" not in text or (
            node.kind != "scalar"
            and "\n" not in text[node.start : node.end]
            and bool(node.children)
        )
        new_text = _apply(
            text, [(node.start, node.end, _render(value, base, doc.unit, doc.nl, compact))]
        )
        return _check(
            doc,
            new_text,
            _expected(doc.value, expected_tokens, "set", value),
            path,
            f"setting {pointer}",
        )
    parent_node, parent_value = nodes[-1], values[-1]
    tok = tokens[depth]
    remaining = tokens[depth + 1 :]
    if parent_node.kind == "object" and isinstance(parent_value, dict):
        nested = value
        for t in reversed(remaining):
            nested = {t: nested}
        new_text = _insert_child(doc, parent_node, nested, tok)
    elif parent_node.kind == "array" and isinstance(parent_value, list):
        if remaining or not (tok == "-" or (tok.isdigit() and int(tok) == len(parent_value))):
            raise EditError(
                f"{path}: {_ptr(tokens[: depth + 1])}: no such array element "
                f"(the array has {len(parent_value)})"
            )
        new_text = _insert_child(doc, parent_node, value, None)
    else:
        raise EditError(
            f"{path}: {_ptr(tokens[:depth])} is {kind_of(parent_value)}, not an object; "
            f"cannot set {pointer} (fix the file by hand)"
        )
    return _check(
        doc,
        new_text,
        _expected(doc.value, expected_tokens, "set", value),
        path,
        f"setting {pointer}",
    )


def append_to_array(text: str, pointer: str, value: Any, *, path: str = "<settings>") -> str:
    """Append ``value`` to the array at ``pointer``, creating the array (and parents) when
    missing."""
    tokens = _tokens(pointer)
    doc = _load(text, path)
    if doc.root is None:
        return set_value(text, pointer, [value], path=path)
    nodes, values = _walk(doc, tokens)
    if len(nodes) - 1 < len(tokens):
        return set_value(text, pointer, [value], path=path)
    node, current = nodes[-1], values[-1]
    if node.kind != "array" or not isinstance(current, list):
        raise EditError(
            f"{path}: {pointer} is {kind_of(current)}, not an array; "
            f"cannot add {json.dumps(value)} to it (fix the file by hand)"
        )
    json.dumps(value, allow_nan=False)
    new_text = _insert_child(doc, node, value, None)
    return _check(
        doc,
        new_text,
        _expected(doc.value, tokens + ["-"], "set", value),
        path,
        f"appending to {pointer}",
    )


def remove_value(text: str, pointer: str, *, path: str = "<settings>") -> str:
    """Remove the object member or array element at ``pointer``.

    A member that occupies whole lines is removed with its lines (including a
    ``//`` comment at the end of its last line); comments on other lines stay.
    Raises :class:`EditError` when nothing is at ``pointer``.
    """
    tokens = _tokens(pointer)
    if not tokens:
        raise EditError("cannot remove the whole document")
    doc = _load(text, path)
    if doc.root is None:
        raise EditError(f"{path}: nothing at {pointer} (the file is empty)")
    nodes, values = _walk(doc, tokens)
    if len(nodes) - 1 < len(tokens):
        raise EditError(f"{path}: nothing at {pointer}")
    parent = nodes[-2]
    if parent.kind == "object":
        idx = _member_index(parent, tokens[-1])
        assert idx is not None
        # drop every occurrence of a duplicated key, last first, so the key is really gone
        dup = [i for i, (k, _, _) in enumerate(parent.children) if k == tokens[-1]]
        new_text = text
        for i in reversed(dup):
            sub = _load(new_text, path)
            sub_nodes, _ = _walk(sub, tokens[:-1])
            new_text = _remove_child(sub, sub_nodes[-1], i)
    else:
        new_text = _remove_child(doc, parent, int(tokens[-1]))
    return _check(
        doc, new_text, _expected(doc.value, tokens, "remove"), path, f"removing {pointer}"
    )


# --------------------------------------------------------------------------- files


def read_text(path: str) -> str:
    """Read a settings file as text exactly (BOM and line endings kept); '' when it does not exist.

    Raises :class:`SettingsError` naming the file for unreadable or non-UTF-8 files.
    """
    try:
        return jsonc.read_text(path)
    except FileNotFoundError:
        return ""


def write_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` atomically (see :func:`hookwise.atomic.write_atomic`); raises
    :class:`EditError`."""
    try:
        _write_atomic(path, text)
    except WriteError as exc:
        raise EditError(str(exc)) from None
