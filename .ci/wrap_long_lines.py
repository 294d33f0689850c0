"""Bring lines over the limit under it: re-wrap comments and docstrings, split string literals.

    python .ci/wrap_long_lines.py FILE...            # then read the diff
    python .ci/wrap_long_lines.py --limit 100 --only docstring,comment FILE...

Only the lines ruff's E501 reports (at ``--limit``) are touched, then ``ruff format`` runs on the
file. Comments and docstrings are re-wrapped from the long line to the end of its paragraph
(bullets, aligned name/meaning rows and ``# ---- title ----`` rules kept; literal blocks, doctests
and tables left alone); a trailing comment moves above its line (into the block for ``else:`` and
the like); a string literal is split at spaces by implicit concatenation (in parentheses when it is
not already inside brackets; a whole concatenation is re-split evenly). ``--ragged`` re-splits the
concatenations an earlier split left with a short piece. A file whose syntax tree changes
(docstrings compared up to whitespace) is put back as it was. What is left for a person is listed
on stderr. A development aid, not shipped.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import re
import subprocess
import sys
import tokenize
import unicodedata

LIMIT = 100
BULLET = re.compile(r"(?:[-*+•]|\d+[.)]|\([a-z0-9]\))\s+")
NOT_CONT = re.compile(
    r"(?:[-*+•]\s|\d+[.)]\s|>>>|\.\.\.|\.\. |:[A-Za-z][\w ]*:(?:\s|$)|=+\s*$|[|+]|#|"
    r'"""|\'\'\'|```|-{3,})'
)
BAD_START = re.compile(
    r'(?:[-*+•](?:\s|$)|\d+[.)](?:\s|$)|>>>|\.\.|:[A-Za-z][\w ]*:(?:\s|$)|=|[|]|#|"""|\'\'\'|```)'
)


def width(s: str) -> int:
    w = 0
    for ch in s:
        if unicodedata.combining(ch):
            continue
        w += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return w


def flagged(path: str) -> list[int]:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            path,
            "--select",
            "E501",
            "--config",
            f"lint.pycodestyle.max-line-length={LIMIT}",
            "--output-format",
            "json",
            "--no-cache",
        ],
        capture_output=True,
        text=True,
    ).stdout
    return sorted({d["location"]["row"] for d in json.loads(out)})


# ---------------------------------------------------------------------------------------------
# text blocks (docstrings and comment blocks)


class Block:
    """A run of lines holding prose: a docstring or consecutive full-line comments."""

    def __init__(self, kind: str, first: int, last: int, lead: str, base: int) -> None:
        self.kind = kind  # "doc" or "comment"
        self.first = first  # 0-based line indexes, inclusive
        self.last = last
        self.lead = lead  # comment: the "    # " before the text
        self.base = base  # docstring: the column of the opening quotes


def split_line(block: Block, line: str, idx: int) -> tuple[str, str]:
    """(lead, text) of one line of the block."""
    if block.kind == "comment":
        m = re.match(r"(\s*#:?)( ?)(.*)$", line)
        assert m
        return m.group(1) + m.group(2), m.group(3)
    if idx == block.first:
        m = re.match(r'(\s*[rRuU]?(?:"""|\'\'\'))(.*)$', line)
        assert m, line
        return m.group(1), m.group(2)
    return "", line


def indent_of(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


def protected_lines(lines: list[str], block: Block) -> set[int]:
    """Lines of a docstring that must stay as they are: literal blocks, doctests, tables, fences."""
    prot: set[int] = set()
    if block.kind != "doc":
        return prot
    literal_indent = None
    fence = False
    table = False
    for i in range(block.first, block.last + 1):
        text = split_line(block, lines[i], i)[1]
        s = text.strip()
        if s.startswith("```"):
            fence = not fence
            prot.add(i)
            continue
        if fence:
            prot.add(i)
            continue
        if re.fullmatch(r"=+(\s+=+)+", s) or re.fullmatch(r"[+][-=+]+[+]", s):
            table = True
            prot.add(i)
            continue
        if table:
            prot.add(i)
            if not s:
                table = False
            continue
        if literal_indent is not None:
            if s and indent_of(text) <= literal_indent:
                literal_indent = None
            else:
                prot.add(i)
                continue
        prev_blank = i > block.first and not split_line(block, lines[i - 1], i - 1)[1].strip()
        if (
            prev_blank
            and s
            and indent_of(text) > block.base
            and not BULLET.match(s)
            and (
                i - 2 < block.first
                or indent_of(split_line(block, lines[i - 2], i - 2)[1]) < indent_of(text)
                or i - 2 == block.first
            )
        ):
            literal_indent = block.base
            prot.add(i)
            continue
        if s.startswith((">>>", "... ", "|")):
            prot.add(i)
        if s.endswith("::") or s.endswith('::"""'):
            # the paragraph's indent: walk back to its first line
            j = i
            while j > block.first and split_line(block, lines[j - 1], j - 1)[1].strip():
                j -= 1
            t = split_line(block, lines[j], j)[1]
            literal_indent = block.base if j == block.first else indent_of(t)
    return prot


def hang_of(block: Block, text: str, idx: int) -> int:
    """Where the text of a continuation of this line starts (column in the text)."""
    if block.kind == "doc" and idx == block.first:
        return block.base
    ind = indent_of(text)
    m = BULLET.match(text[ind:])
    if m:
        return ind + m.end()
    c = colrow(text[ind:])
    if c:
        return ind + c
    return ind


COLROW = re.compile(r"(\S(?:[^ ]| (?! ))*?)( {2,})(?=\S)")


def colrow(text: str) -> int | None:
    """A 'term   description' row: the column where the description starts."""
    m = COLROW.match(text)
    if not m or len(m.group(1)) > 30 or len(m.group(1).split()) > 3 or m.group(1).endswith("."):
        return None
    return m.end()


def choose_break(full: str, text_start: int, limit: int, closing: str) -> int | None:
    """Index of the space to break at in ``full`` (None: no good place)."""
    best_any = None
    for k in range(len(full) - 1, text_start, -1):
        if full[k] != " ":
            continue
        head = full[:k].rstrip()
        if width(head) > limit or len(head) <= text_start:
            continue
        rest = full[k + 1 :].lstrip()
        if not rest or (closing and rest == closing):
            continue
        if BAD_START.match(rest):
            continue
        in_code = full[text_start:k].count("``") % 2 == 1 or full[text_start:k].count("`") % 2 == 1
        if not in_code:
            return k
        if best_any is None:
            best_any = k
    return best_any


def is_continuation(block: Block, lines: list[str], j: int, hang: int, prot: set[int]) -> bool:
    if j > block.last or j in prot:
        return False
    lead, text = split_line(block, lines[j], j)
    if not text.strip():
        return False
    if indent_of(text) != hang:
        return False
    s = text.strip()
    return not (NOT_CONT.match(s) or colrow(s))


def reflow_at(lines: list[str], block: Block, i: int, limit: int, problems: list[str]) -> int:
    """Wrap line i of the block (and cascade into its paragraph). Returns lines inserted."""
    inserted = 0
    prot = protected_lines(lines, block)
    if i in prot:
        problems.append(f"{i + 1}: protected (literal/table/doctest)")
        return 0
    if block.kind == "comment" and shrink_rule(lines, i, limit):
        return 0
    steps = 0
    while width(lines[i]) > limit and steps < 50:
        steps += 1
        lead, text = split_line(block, lines[i], i)
        hang = hang_of(block, text, i)
        text_start = len(lead) + (hang if block.kind == "comment" or i != block.first else 0)
        if block.kind == "doc" and i == block.first:
            text_start = len(lead)
        closing = ""
        if block.kind == "doc" and i == block.last:
            closing = lead.strip()[-3:] if i == block.first else lines[i].rstrip()[-3:]
        k = choose_break(lines[i], text_start, limit, closing)
        if k is None:
            problems.append(f"{i + 1}: no break point")
            return inserted
        head, rest = lines[i][:k].rstrip(), lines[i][k + 1 :].lstrip()
        lines[i] = head
        if block.kind == "comment":
            new_lead = block.lead
            pad = " " * hang
        else:
            new_lead = ""
            pad = " " * hang
        j = i + 1
        if is_continuation(block, lines, j, hang, prot):
            nlead, ntext = split_line(block, lines[j], j)
            lines[j] = nlead + pad + rest + " " + ntext.strip()
        else:
            lines.insert(j, new_lead + pad + rest)
            inserted += 1
            block.last += 1
            prot = {p + 1 if p >= j else p for p in prot}
        i = j
    return inserted


def shrink_rule(lines: list[str], i: int, limit: int) -> bool:
    """A section header comment (``# ---- title ----``): shorten its longest run of dashes."""
    runs = list(re.finditer(r"-{4,}|={4,}", lines[i]))
    if not runs:
        return False
    longest = max(runs, key=lambda m: len(m.group()))
    excess = width(lines[i]) - limit
    if len(longest.group()) - excess < 3:
        return False
    new = (
        lines[i][: longest.start()]
        + longest.group()[: len(longest.group()) - excess]
        + lines[i][longest.end() :]
    )
    lines[i] = new
    return True


def find_blocks(src: str, lines: list[str]) -> list[Block]:
    blocks: list[Block] = []
    tree = ast.parse(src)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            b = node.body
            if (
                b
                and isinstance(b[0], ast.Expr)
                and isinstance(b[0].value, ast.Constant)
                and isinstance(b[0].value.value, str)
            ):
                e = b[0]
                first = e.lineno - 1
                blocks.append(Block("doc", first, e.end_lineno - 1, "", e.col_offset))
    # comment blocks
    toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    full_comment = {}
    for t in toks:
        if t.type == tokenize.COMMENT and lines[t.start[0] - 1][: t.start[1]].strip() == "":
            full_comment[t.start[0] - 1] = t.start[1]
    seen: set[int] = set()
    for ln in sorted(full_comment):
        if ln in seen:
            continue
        col = full_comment[ln]
        last = ln
        while full_comment.get(last + 1) == col:
            last += 1
        for k in range(ln, last + 1):
            seen.add(k)
        m = re.match(r"(\s*#:?)( ?)", lines[ln])
        lead = m.group(1) + " "
        blocks.append(Block("comment", ln, last, lead, col))
    return blocks


# ---------------------------------------------------------------------------------------------
# string literals

PREFIX = re.compile(r"([rRbBuUfF]*)('''|\"\"\"|'|\")")


def split_points(body: str, is_f: bool, is_raw: bool) -> list[int]:
    """Indexes in body right after a space where the literal may be cut."""
    pts = []
    i = 0
    depth = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and not is_raw:
            if body.startswith("\\N{", i):
                i = body.index("}", i) + 1
                continue
            i += 2
            continue
        if c == "\\" and is_raw:
            i += 2
            continue
        if is_f:
            if c == "{":
                if depth == 0 and body.startswith("{{", i):
                    i += 2
                    continue
                depth += 1
            elif c == "}":
                if depth == 0 and body.startswith("}}", i):
                    i += 2
                    continue
                depth -= 1
        if c == " " and depth == 0 and i + 1 < len(body) and body[i + 1] != " ":
            pts.append(i + 1)
        i += 1
    return pts


def has_field(piece: str) -> bool:
    return bool(re.search(r"(?<!\{)\{(?!\{)", piece.replace("{{", "")))


def make_piece(prefix: str, q: str, piece: str) -> str:
    if "f" in prefix.lower() and not has_field(piece):
        p = prefix.replace("f", "").replace("F", "")
        return p + q + piece.replace("{{", "{").replace("}}", "}") + q
    return prefix + q + piece + q


def split_string(tok: str, first_width: int, width_rest: int) -> list[str] | None:
    m = PREFIX.match(tok)
    if not m or len(m.group(2)) == 3:
        return None
    prefix, q = m.group(1), m.group(2)
    body = tok[m.end() : -1]
    is_f = "f" in prefix.lower()
    is_raw = "r" in prefix.lower()
    pts = split_points(body, is_f, is_raw)
    pieces = []
    start = 0
    avail = first_width
    overhead = len(prefix) + 2
    while width(body[start:]) + overhead > avail:
        cands = [p for p in pts if p > start and width(body[start:p]) + overhead <= avail]
        if not cands:
            return None
        cut = cands[-1]
        pieces.append(body[start:cut])
        start = cut
        avail = width_rest
    pieces.append(body[start:])
    if len(pieces) < 2:
        return None
    return [make_piece(prefix, q, p) for p in pieces]


def fix_string(lines: list[str], toks, r: int, limit: int, problems: list[str]) -> bool:
    """Split the string literal that crosses the limit on line r (1-based)."""
    line = lines[r - 1]
    idx = None
    for n, t in enumerate(toks):
        one_line = t.type == tokenize.STRING and t.start[0] == r and t.end[0] == r
        if one_line and (width(line[: t.end[1]]) > limit or idx is None):
            idx = n
            if width(line[: t.start[1]]) < limit and width(line[: t.end[1]]) > limit - 2:
                break
    if idx is None:
        problems.append(f"{r}: no single-line string")
        return False
    t = toks[idx]
    sig = [
        x
        for x in toks
        if x.type
        not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT)
    ]
    k = sig.index(t)
    prev, nxt = sig[k - 1], sig[k + 1]
    depth = 0
    for x in sig[:k]:
        if x.type == tokenize.OP and x.string in "([{":
            depth += 1
        elif x.type == tokenize.OP and x.string in ")]}":
            depth -= 1
    first_on_line = line[: t.start[1]].strip() == ""
    concat = prev.type == tokenize.STRING or nxt.type == tokenize.STRING
    sole = prev.string in ("(",) and nxt.string == ")" and prev.type == tokenize.OP
    col = t.start[1]
    tail = line[t.end[1] :]
    if concat and depth == 0:
        problems.append(f"{r}: concatenation outside brackets")
        return False
    if concat:
        done = regroup(lines, toks, sig, k, limit, problems)
        if done is not None:
            return done
    if depth > 0 and (concat or (first_on_line and sole)):
        return carry(lines, r - 1, col, limit, problems)
    # wrap in parentheses; ruff format lays it out afterwards
    ind = len(line) - len(line.lstrip())
    inner = ind + 8
    pieces = split_string(t.string, limit - inner, limit - inner)
    if pieces is None:
        problems.append(f"{r}: string has no split point")
        return False
    new = [line[:col] + "(" + pieces[0]] + [" " * inner + p for p in pieces[1:]]
    new[-1] += ")" + tail
    lines[r - 1 : r] = new
    return True


def neutral(body: str, q: str, is_raw: bool) -> str:
    """The body with its own quote escapes undone (``\\"`` -> ``"``); other escapes kept."""
    if is_raw:
        return body
    out = []
    i = 0
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body):
            out.append(body[i + 1] if body[i + 1] == q else body[i : i + 2])
            i += 2
            continue
        out.append(body[i])
        i += 1
    return "".join(out)


def encode(prefix: str, q: str, body: str, in_f: bool) -> str:
    """A literal for a neutral body: the quote escaped, ``f`` only when it has a field."""
    is_raw = "r" in prefix.lower()
    if not is_raw:
        out = []
        i = 0
        while i < len(body):
            if body[i] == "\\" and i + 1 < len(body):
                out.append(body[i : i + 2])
                i += 2
                continue
            out.append("\\" + q if body[i] == q else body[i])
            i += 1
        body = "".join(out)
    if in_f and has_field(body):
        return prefix + "f" + q + body + q
    if in_f:
        body = body.replace("{{", "{").replace("}}", "}")
    return prefix + q + body + q


def regroup(lines: list[str], toks, sig, k: int, limit: int, problems: list[str]) -> bool | None:
    """Re-split a whole implicit concatenation evenly; None when it is not one this can do."""
    a = k
    while a > 0 and sig[a - 1].type == tokenize.STRING:
        a -= 1
    b = k
    while b + 1 < len(sig) and sig[b + 1].type == tokenize.STRING:
        b += 1
    group = sig[a : b + 1]
    first, last = group[0], group[-1]
    if any(t.start[0] != t.end[0] for t in group):
        return None
    if any(t.type == tokenize.COMMENT and first.start <= t.start <= last.end for t in toks):
        return None
    parts = []
    for t in group:
        m = PREFIX.match(t.string)
        if not m or len(m.group(2)) == 3:
            return None
        parts.append((m.group(1), m.group(2), t.string[m.end() : -1]))
    base = {p.lower().replace("f", "") for p, _, _ in parts}
    if len(base) != 1 or "u" in next(iter(base)):
        return None
    base_prefix = parts[0][0].replace("f", "").replace("F", "")
    is_raw = "r" in base_prefix.lower()
    quotes = {q for _, q, _ in parts}
    in_f = any("f" in p.lower() for p, _, _ in parts)
    if len(quotes) > 1 and (is_raw or in_f):
        return None
    for _, _, body in parts[:-1]:
        if body.endswith("\\n"):
            return None  # one line of text per piece: written so on purpose
    text = ""
    for p, q, body in parts:
        nb = neutral(body, q, is_raw)
        if in_f and "f" not in p.lower():
            nb = nb.replace("{", "{{").replace("}", "}}")
        text += nb
    first_line = lines[first.start[0] - 1]
    last_line = lines[last.end[0] - 1]
    head = first_line[: first.start[1]]
    tail = last_line[last.end[1] :]
    depth = 0
    for x in sig[:a]:
        if x.type == tokenize.OP and x.string in "([{":
            depth += 1
        elif x.type == tokenize.OP and x.string in ")]}":
            depth -= 1
    ind = len(first_line) - len(first_line.lstrip())
    in_place = not head.strip() and depth > 0
    col = first.start[1] if in_place else ind + 4

    def enc(piece: str) -> str:
        if len(quotes) == 1:
            q = next(iter(quotes))
        else:
            q = "'" if ('"' in piece and "'" not in piece) else '"'
        return encode(base_prefix, q, piece, in_f)

    pts = split_points(text, in_f, is_raw)
    pieces = []
    start = 0
    tail_w = width(tail.split("  #")[0]) if in_place else 0
    while True:
        rest = enc(text[start:])
        if col + width(rest) + tail_w <= limit:
            pieces.append(rest)
            break
        cands = [p for p in pts if p > start and col + width(enc(text[start:p])) <= limit]
        if not cands:
            problems.append(f"{first.start[0]}: concatenation has no split point")
            return None
        pieces.append(enc(text[start : cands[-1]]))
        start = cands[-1]
    if in_place:
        new = [head + pieces[0]] + [" " * col + p for p in pieces[1:]]
        new[-1] += tail
    else:
        new = [head + "("] + [" " * col + p for p in pieces] + [" " * ind + ")" + tail]
    lines[first.start[0] - 1 : last.end[0]] = new
    GROUP_START[0] = first.start[0]
    return True


GROUP_START = [0]


def parse_lit(line: str, col: int):
    """(prefix, quote, body, end) of the one-line string literal starting at ``col``, else None."""
    m = PREFIX.match(line, col)
    if not m or len(m.group(2)) == 3:
        return None
    try:
        t = next(tokenize.generate_tokens(io.StringIO(line[col:] + "\n").readline))
    except (tokenize.TokenError, SyntaxError, StopIteration):
        return None
    if t.type != tokenize.STRING or t.start != (1, 0):
        return None
    end = col + t.end[1]
    return m.group(1), m.group(2), line[m.end() : end - 1], end


def to_f(prefix: str, body: str) -> str:
    """The body as it reads inside an f-string with the same other prefixes."""
    if "f" in prefix.lower() or "b" in prefix.lower():
        return body
    return body.replace("{", "{{").replace("}", "}}")


def flags(prefix: str) -> tuple[bool, bool]:
    p = prefix.lower()
    return ("r" in p, "b" in p)


def carry(lines: list[str], i: int, col: int, limit: int, problems: list[str]) -> bool:
    """Split the literal at (i, col) at a space; the rest goes into the next piece of the
    concatenation (or a new line), cascading."""
    steps = 0
    while width(lines[i]) > limit and steps < 40:
        steps += 1
        lit = parse_lit(lines[i], col)
        if lit is None:
            problems.append(f"{i + 1}: no literal to carry from")
            return steps > 1
        prefix, q, body, end = lit
        tail = lines[i][end:]
        is_f = "f" in prefix.lower()
        is_raw = "r" in prefix.lower()
        overhead = len(prefix) + 2
        pts = [
            p for p in split_points(body, is_f, is_raw) if col + width(body[:p]) + overhead <= limit
        ]
        if not pts:
            problems.append(f"{i + 1}: string has no split point")
            return steps > 1
        p = pts[-1]
        head, rest = body[:p], body[p:]
        j = i + 1
        nxt = None
        if j < len(lines) and not tail.strip() and not lines[j][:col].strip():
            nxt = parse_lit(lines[j], col)
        if nxt is not None and nxt[1] == q and flags(nxt[0]) == flags(prefix):
            merged = to_f(prefix, rest) + to_f(nxt[0], nxt[2])
            mprefix = nxt[0] if ("f" in nxt[0].lower() or "b" in nxt[0].lower()) else nxt[0] + "f"
            if "b" in prefix.lower():
                mprefix = nxt[0]
            lines[i] = lines[i][:col] + make_piece(prefix, q, head)
            lines[j] = " " * col + make_piece(mprefix, q, merged) + lines[j][nxt[3] :]
        else:
            lines[i] = lines[i][:col] + make_piece(prefix, q, head)
            lines.insert(j, " " * col + make_piece(prefix, q, rest) + tail)
        i = j
    return True


# ---------------------------------------------------------------------------------------------
# trailing comments

PRAGMA = re.compile(r"#\s*(noqa|type:|pragma|fmt:)")


def fix_trailing(lines: list[str], toks, r: int, problems: list[str]) -> int:
    line = lines[r - 1]
    com = [t for t in toks if t.type == tokenize.COMMENT and t.start[0] == r]
    if not com:
        return 0
    c = com[0]
    code = line[: c.start[1]].rstrip()
    text = c.string
    if PRAGMA.search(text):
        problems.append(f"{r}: trailing pragma comment")
        return 0
    ind = len(line) - len(line.lstrip())
    s = code.strip()
    if s[:1] in ")]}":
        problems.append(f"{r}: trailing comment on a closing bracket")
        return 0
    if s.endswith(":") and re.match(
        r"(else|try|finally|if|elif|for|while|with|except|def|class)\b", s
    ):
        # into the block it opens
        nxt = r
        while nxt < len(lines) and not lines[nxt].strip():
            nxt += 1
        bind = len(lines[nxt]) - len(lines[nxt].lstrip())
        if bind <= ind:
            problems.append(f"{r}: block opener without block")
            return 0
        lines[r - 1 : r] = [code, " " * bind + text]
        return 1
    lines[r - 1 : r] = [" " * ind + text, code]
    return 1


# ---------------------------------------------------------------------------------------------


def normalized_tree(src: str) -> str:
    """The file's syntax tree, docstrings with their whitespace collapsed."""
    tree = ast.parse(src)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            b = node.body
            if (
                b
                and isinstance(b[0], ast.Expr)
                and isinstance(b[0].value, ast.Constant)
                and isinstance(b[0].value.value, str)
            ):
                b[0].value.value = " ".join(b[0].value.value.split())
        if isinstance(node, ast.JoinedStr):
            vals: list[ast.expr] = []
            for v in node.values:
                last = vals[-1] if vals else None
                if isinstance(v, ast.Constant) and isinstance(last, ast.Constant):
                    vals[-1] = ast.Constant(last.value + v.value)
                else:
                    vals.append(v)
            node.values = vals
    return ast.dump(tree)


def ragged_rows(toks, lines: list[str], limit: int) -> list[int]:
    """Lines of concatenations with a short piece before a long one (left by an earlier split)."""
    sig = [
        x
        for x in toks
        if x.type
        not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT)
    ]
    rows = []
    for n in range(len(sig) - 1):
        t, u = sig[n], sig[n + 1]
        if t.type != tokenize.STRING or u.type != tokenize.STRING:
            continue
        if t.start[0] != t.end[0] or u.start[0] != u.end[0] or t.end[0] == u.start[0]:
            continue
        if t.string.endswith('\\n"') or t.string.endswith("\\n'"):
            continue
        room = limit - t.start[1]
        if len(t.string) < room * 0.5 and len(u.string) + len(t.string) > room * 0.5:
            rows.append(t.start[0])
    return rows


def process(path: str, only: set[str], limit: int, ragged: bool = False) -> list[str]:
    problems: list[str] = []
    rows = flagged(path)
    with open(path, encoding="utf-8") as fh:
        src = fh.read()
    lines = src.split("\n")
    toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    if ragged:
        rows = sorted(set(ragged_rows(toks, lines, limit)))
    if not rows:
        return problems
    blocks = find_blocks(src, lines)
    GROUP_START[0] = 10**9
    for r in sorted(rows, reverse=True):
        if r >= GROUP_START[0]:
            continue
        i = r - 1
        if ragged:
            sig = [
                x
                for x in toks
                if x.type
                not in (
                    tokenize.NL,
                    tokenize.NEWLINE,
                    tokenize.COMMENT,
                    tokenize.INDENT,
                    tokenize.DEDENT,
                )
            ]
            k = next(n for n, x in enumerate(sig) if x.type == tokenize.STRING and x.start[0] == r)
            regroup(lines, toks, sig, k, limit, problems)
            continue
        blk = next((b for b in blocks if b.first <= i <= b.last), None)
        if blk is not None and blk.kind == "doc":
            if "docstring" in only:
                reflow_at(lines, blk, i, limit, problems)
            continue
        if blk is not None and blk.kind == "comment":
            if "comment" in only:
                reflow_at(lines, blk, i, limit, problems)
            continue
        # token at the limit
        kind = None
        for t in toks:
            if t.start[0] <= r <= t.end[0] and t.type in (tokenize.STRING, tokenize.COMMENT):
                if t.type == tokenize.COMMENT and width(lines[i][: t.start[1]]) <= limit:
                    kind = "trailing"
                    break
                if t.type == tokenize.STRING and t.start[0] == t.end[0] == r:
                    if width(lines[i][: t.start[1]]) < limit:
                        kind = "string"
                elif t.type == tokenize.STRING:
                    kind = "mlstring"
                    break
        if kind == "trailing" and "trailing" in only:
            fix_trailing(lines, toks, r, problems)
        elif kind == "string" and "string" in only:
            fix_string(lines, toks, r, limit, problems)
        else:
            problems.append(f"{r}: {kind or 'code'}: left for a person")
    new = "\n".join(lines)
    if new != src:
        compile(new, path, "exec")  # must still parse
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(new)
    return problems


def main() -> int:
    global LIMIT
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=100)
    ap.add_argument("--only", default="docstring,comment,trailing,string")
    ap.add_argument(
        "--ragged", action="store_true", help="re-split concatenations with a short piece"
    )
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    LIMIT = a.limit
    only = set(a.only.split(","))
    status = 0
    for f in a.files:
        with open(f, encoding="utf-8") as fh:
            before = fh.read()
        problems: list[str] = []
        for _ in range(2):  # a split the formatter re-indented may need a second look
            problems = process(f, only, a.limit, a.ragged)
            fmt = [sys.executable, "-m", "ruff", "format", "-q", f"--line-length={a.limit}", f]
            subprocess.run(fmt, check=False)
        with open(f, encoding="utf-8") as fh:
            after = fh.read()
        if after != before and normalized_tree(after) != normalized_tree(before):
            with open(f, "w", encoding="utf-8") as fh:
                fh.write(before)
            print(
                f"{f}: the syntax tree changed: file left as it was (a bug of this script)",
                file=sys.stderr,
            )
            status = 1
            continue
        for p in problems:
            print(f"{f}:{p}", file=sys.stderr)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
