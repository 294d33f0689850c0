"""Claude Code permission rules (``Bash(git push *)``, ``Edit(src/**)``, ``mcp__github``), as a
hook's ``if`` filter.

Claude Code's hook field ``if`` holds exactly one permission rule; the hook runs only
when the tool call matches it (docs/claude.md, "The `if` filter"). This module parses
such a rule and evaluates it against one tool call. It is pure: no I/O, no clock; the
caller passes the working directory, project directory and home directory.

What a rule means, following Claude Code's permissions and hooks references:

- ``Tool`` (no parentheses) or ``Tool(*)``: every call of that tool.
- ``Bash(pattern)``: ``*`` matches any text, spaces included; a trailing `` *`` after a
  space is a word boundary (``Bash(ls *)`` matches ``ls -la`` and ``ls``, not ``lsof``);
  the older ``prefix:*`` form means the same as ``prefix *``. The pattern must match a
  whole subcommand. A command is split at ``&&``, ``||``, ``;``, ``|``, ``&`` and new
  lines; the commands inside ``$(...)`` and backticks are checked too; leading
  ``VAR=value`` assignments are stripped. When the command's own name is computed
  (``$TOOL git push``), or when the pattern says more than the command name and the
  command holds ``$(...)``, backticks or ``$VAR``, the rule matches: the filter runs the
  hook whenever it cannot tell (it only ever narrows a hook, never hides a call).
- File rules (``Read``, ``Edit``, ``Write``...): gitignore-style patterns. ``//path`` is
  absolute, ``~/path`` is under the home directory, ``/path`` is under the project
  directory, ``path`` and ``./path`` are under the current directory. ``*`` stays
  within one directory, ``**`` crosses directories; a pattern without a ``/`` (such
  as ``*.ts`` or ``.env``) matches a file name at any depth. ``Edit`` rules cover every
  file-editing tool (Edit, MultiEdit, Write, NotebookEdit); ``Read`` rules also cover
  the tools that read files (Glob, Grep, LS).
- ``WebFetch(domain:example.com)``: the URL's host (exactly; subdomains need their own rule).
- ``mcp__server`` (every tool of that server), ``mcp__server__tool``, ``mcp__server__*``.
- Any other ``Tool(spec)``: the spec is compared as a ``*`` pattern with the tool's main
  argument when hookwise knows it, else the rule matches (cannot tell, so the hook runs).

A rule that does not parse raises :class:`ValueError`; the loaders turn that into one
warning naming the hook, and the hook is skipped (see docs/claude.md).
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hookwise.core.matching import Unbounded, Wildcard, compile_regex, wildcard

#: rule tool -> the Claude tools it covers (any other tool name covers itself only)
TOOL_FAMILIES: dict[str, frozenset[str]] = {
    "Edit": frozenset({"Edit", "MultiEdit", "Write", "NotebookEdit"}),
    "Read": frozenset({"Read", "Glob", "Grep", "LS"}),
}

#: Claude tools whose argument is a file path, and the ``tool_input`` key holding it
PATH_FIELDS: dict[str, str] = {
    "Read": "file_path",
    "Write": "file_path",
    "Edit": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
    "NotebookRead": "notebook_path",
    "Glob": "path",
    "Grep": "path",
    "LS": "path",
}

#: other Claude tools and the ``tool_input`` key a rule's specifier is compared with
ARGUMENT_FIELDS: dict[str, str] = {
    "Bash": "command",
    "PowerShell": "command",
    "WebSearch": "query",
    "Agent": "subagent_type",
    "Task": "subagent_type",
    "Skill": "skill",
    "WebFetch": "url",
}

_TOOL_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-.*]*$")
_DYNAMIC = re.compile(r"\$\(|`|\$\{|\$[A-Za-z_]")


@dataclass(frozen=True)
class PermissionRule:
    """One parsed rule: the tool part and the optional specifier between the parentheses."""

    text: str
    tool: str
    specifier: str | None

    def matches(
        self, tool: str, tool_input: Mapping[str, Any], *, cwd: str, project_dir: str, home: str
    ) -> bool:
        """Whether a call of Claude tool ``tool`` with (Claude-named) ``tool_input`` matches."""
        if not _tool_matches(self.tool, tool):
            return False
        spec = self.specifier
        if spec is None or spec == "*" or self.tool.startswith("mcp__"):
            return True
        if tool in ("Bash", "PowerShell"):
            cmd = tool_input.get("command")
            return bash_matches(spec, cmd) if isinstance(cmd, str) else True
        if tool in PATH_FIELDS:
            value = tool_input.get(PATH_FIELDS[tool])
            if value is None and tool in ("Glob", "Grep", "LS"):
                value = cwd  # these tools search the current directory by default
            if not isinstance(value, str) or not value:
                return True  # cannot tell which file: run the hook
            return path_matches(spec, value, cwd=cwd, project_dir=project_dir, home=home)
        if tool == "WebFetch" and spec.startswith("domain:"):
            url = tool_input.get("url")
            if not isinstance(url, str):
                return True
            from urllib.parse import urlsplit

            host = (urlsplit(url if "//" in url else "//" + url).hostname or "").lower()
            return host == spec[len("domain:") :].strip().lower()
        field = ARGUMENT_FIELDS.get(tool)
        value = tool_input.get(field) if field else None
        if not isinstance(value, str):
            return (
                True  # hookwise does not know this tool's argument: cannot tell, so the hook runs
            )
        return wildcard(spec).fullmatch(value)


@functools.lru_cache(maxsize=512)
def parse_rule(text: str) -> PermissionRule:
    """Parse one rule; raises :class:`ValueError` with the reason (without the rule itself) when it
    does not parse."""
    if not isinstance(text, str):
        raise ValueError(f'must be a string such as "Bash(git push *)", got {type(text).__name__}')
    s = text.strip()
    if not s:
        raise ValueError(
            'is empty (expected a permission rule such as "Bash(git push *)" or "Edit(src/**)")'
        )
    open_at = s.find("(")
    if open_at < 0:
        if ")" in s:
            raise ValueError("has a ')' without a matching '('")
        tool, spec = s, None
    else:
        tool = s[:open_at].strip()
        if not s.endswith(")"):
            raise ValueError(
                "must end with ')' (one rule, such as \"Bash(git *)\"; Claude Code has no "
                "&&, || or lists in `if`: write one hook per rule)"
            )
        spec = s[open_at + 1 : -1]
        depth = 0
        for ch in spec:
            depth += 1 if ch == "(" else -1 if ch == ")" else 0
            if depth < 0:
                raise ValueError(
                    "holds more than one rule or unbalanced parentheses (Claude Code's `if` takes "
                    "exactly one rule; write one hook per rule)"
                )
        if depth != 0:
            raise ValueError("has unbalanced parentheses")
        if not spec.strip():
            raise ValueError(
                f'has an empty specifier; write "{tool}" or "{tool}(*)" for every call'
            )
    if not tool:
        raise ValueError("has no tool name before '('")
    if not _TOOL_NAME.match(tool):
        why = (
            (
                "Claude Code's `if` takes exactly one rule, with no &&, || or lists; write one "
                "hook per rule"
            )
            if any(op in tool for op in ("&", "|", ",", " "))
            else "expected a tool name such as Bash, Edit, Read, WebFetch or mcp__server__tool"
        )
        raise ValueError(f"has an invalid tool name {tool!r} ({why})")
    if spec is not None and (tool in PATH_FIELDS or tool in TOOL_FAMILIES):
        _check_path_glob(spec.strip())
    return PermissionRule(text, tool, spec)


def _check_path_glob(spec: str) -> None:
    """A file rule's glob must be one the linear-time matcher can bound (else the rule is
    refused)."""
    try:
        compile_regex("(?s)" + _glob_regex(spec.lstrip("/~.")))
    except Unbounded as exc:
        raise ValueError(f"cannot be matched in bounded time ({exc})") from None
    except re.error:
        pass  # such a glob matches every path (cannot tell, so the hook runs)


def rule_error(text: Any) -> str | None:
    """Why ``text`` is not a valid rule, or None when it is."""
    try:
        parse_rule(text)
    except ValueError as exc:
        return str(exc)
    except TypeError:  # unhashable value (a list, an object)
        return f'must be a string such as "Bash(git push *)", got {type(text).__name__}'
    return None


# --------------------------------------------------------------------------- tools


def _tool_matches(rule_tool: str, tool: str) -> bool:
    if rule_tool.startswith("mcp__"):
        if not tool.startswith("mcp__"):
            return False
        if "*" in rule_tool:
            return wildcard(rule_tool).fullmatch(tool)
        if rule_tool.count("__") == 1:  # mcp__server: every tool of the server
            return tool == rule_tool or tool.startswith(rule_tool + "__")
        return tool == rule_tool
    family = TOOL_FAMILIES.get(rule_tool)
    return tool in family if family is not None else tool == rule_tool


# --------------------------------------------------------------------------- Bash


@functools.lru_cache(maxsize=512)
def _bash_pattern(pattern: str) -> tuple[Wildcard, ...]:
    """The wildcards of which one must match a whole subcommand (``git *`` is ``git`` or
    ``git *``)."""
    p = " ".join(pattern.split())
    if p.endswith(":*"):  # the older prefix form: "npm run test:*"
        p = p[:-2].rstrip() + " *"
    if p.endswith(" *"):
        return (wildcard(p[:-2]), wildcard(p))
    return (wildcard(p),)


def strip_assignments(command: str) -> str:
    """``command`` without its leading ``NAME=value`` words (one linear pass; no regex
    backtracking)."""
    i, n = 0, len(command)
    while True:
        end = _assignment_end(command, i)
        if end is None:
            return command[i:]
        k = end
        while k < n and command[k].isspace():
            k += 1
        if k == end:  # an assignment counts only when a word follows it
            return command[i:]
        i = k


def _assignment_end(s: str, i: int) -> int | None:
    """Index just past a ``NAME=value`` word starting at ``i`` (value: quoted or bare parts), or
    None."""
    n = len(s)
    if i >= n or not (s[i].isascii() and (s[i].isalpha() or s[i] == "_")):
        return None
    j = i + 1
    while j < n and s[j].isascii() and (s[j].isalnum() or s[j] == "_"):
        j += 1
    if j >= n or s[j] != "=":
        return None
    j += 1
    while j < n and not s[j].isspace():
        if s[j] == "'":
            close = s.find("'", j + 1)
            if close < 0:
                return None
            j = close + 1
        elif s[j] == '"':
            j = _double_quoted_end(s, j)
            if j < 0:
                return None
        else:
            j += 1
    return j


def _double_quoted_end(s: str, j: int) -> int:
    """Index just past the ``"..."`` starting at ``j`` (backslash escapes), or -1 when unclosed."""
    j += 1
    while j < len(s):
        if s[j] == "\\":
            j += 2
        elif s[j] == '"':
            return j + 1
        else:
            j += 1
    return -1


def _says_more_than_the_name(pattern: str) -> bool:
    p = " ".join(pattern.split())
    if p.endswith(":*"):
        p = p[:-2].rstrip()
    elif p.endswith(" *"):
        p = p[:-2]
    return " " in p


def split_commands(command: str) -> list[str] | None:
    """The simple commands of a shell command line, with those inside ``$(...)`` and backticks.

    Returns None when the line cannot be read (an unclosed quote, ``$(`` or backtick).
    """
    out: list[str] = []
    if not _split_into(command, out, 0):
        return None
    return out


def _split_into(text: str, out: list[str], depth: int) -> bool:
    if depth > 8:
        return False
    cur: list[str] = []
    i, n = 0, len(text)

    def flush() -> None:
        s = "".join(cur).strip()
        if s:
            out.append(s)
        cur.clear()

    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n:
            cur.append(text[i : i + 2])
            i += 2
            continue
        if ch == "'":
            j = text.find("'", i + 1)
            if j < 0:
                return False
            cur.append(text[i : j + 1])
            i = j + 1
            continue
        if ch == '"':
            j = i + 1
            while j < n and text[j] != '"':
                if text[j] == "\\":
                    j += 1
                elif text.startswith("$(", j) or text[j] == "`":
                    end = _inner_end(text, j)
                    if end < 0:
                        return False
                    if not _split_into(_inner_text(text, j, end), out, depth + 1):
                        return False
                    j = end
                    continue
                j += 1
            if j >= n:
                return False
            cur.append(text[i : j + 1])
            i = j + 1
            continue
        if text.startswith("$(", i) or ch == "`":
            end = _inner_end(text, i)
            if end < 0:
                return False
            if not _split_into(_inner_text(text, i, end), out, depth + 1):
                return False
            cur.append(text[i:end])
            i = end
            continue
        if text.startswith(("&&", "||", "|&"), i):
            flush()
            i += 2
            continue
        if ch in ";|&\n":
            flush()
            i += 1
            continue
        cur.append(ch)
        i += 1
    flush()
    return True


def _inner_end(text: str, start: int) -> int:
    """Index just past the ``$(...)`` or backtick group starting at ``start``, or -1."""
    if text[start] == "`":
        j = start + 1
        while j < len(text):
            if text[j] == "\\":
                j += 2
                continue
            if text[j] == "`":
                return j + 1
            j += 1
        return -1
    depth, j, quote = 0, start + 1, ""
    while j < len(text):
        c = text[j]
        if quote:
            if c == "\\" and quote == '"':
                j += 2
                continue
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c == "\\":
            j += 2
            continue
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return -1


def _inner_text(text: str, start: int, end: int) -> str:
    return text[start + 1 : end - 1] if text[start] == "`" else text[start + 2 : end - 1]


def bash_matches(pattern: str, command: str) -> bool:
    """Whether a ``Bash(pattern)`` rule selects ``command`` (best effort, never narrower than Claude
    Code)."""
    if pattern.strip() == "*":
        return True
    subs = split_commands(command)
    if subs is None:
        return True  # cannot read the command line: run the hook
    alternatives = _bash_pattern(pattern)
    for sub in subs:
        s = strip_assignments(sub.strip()).strip()
        if s[:1] in "({":  # a subshell or group: ( cmd ) / { cmd; }
            s = s.lstrip("({ \t").rstrip(")} \t")
        if not s:
            continue
        first = s.split()[0]
        if "$" in first or "`" in first:
            return True  # the command's name is computed: cannot tell what runs
        words = " ".join(s.split())
        if any(w.fullmatch(words) for w in alternatives):
            return True
    return bool(_DYNAMIC.search(command)) and _says_more_than_the_name(pattern)


# --------------------------------------------------------------------------- paths


@functools.lru_cache(maxsize=512)
def _glob_regex(pattern: str) -> str:
    """The regex source of a gitignore-style glob (run by the linear-time matcher, never by
    ``re``)."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            if pattern.startswith("**", i):
                i += 2
                if i < n and pattern[i] == "/":
                    out.append("(?:.*/)?")
                    i += 1
                else:
                    out.append(".*")
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = pattern.find("]", i + 1)
            if j < 0:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1 : j].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def path_matches(pattern: str, path: str, *, cwd: str, project_dir: str, home: str) -> bool:
    """Whether a file rule's gitignore-style ``pattern`` selects ``path`` (see the module docs)."""
    p = pattern.strip()
    bare = False
    if p.startswith("//"):
        base, rest = "/", p[2:]
    elif p == "~" or p.startswith("~/"):
        base, rest = home, p[2:]
    elif p.startswith("/"):
        base, rest = project_dir, p[1:]
    elif p.startswith("./"):
        base, rest = cwd, p[2:]
    else:
        base, rest, bare = cwd, p, True
    target = posixpath.normpath(path if posixpath.isabs(path) else posixpath.join(cwd, path))
    base = posixpath.normpath(base)
    if rest in ("", "."):
        return target == base or target.startswith(base.rstrip("/") + "/")
    directory = rest.endswith("/")
    rest = rest.rstrip("/")
    anywhere = (
        bare and "/" not in rest
    )  # gitignore: a bare name without a slash matches at any depth
    inside = rest.endswith(
        "/**"
    )  # dir/** : the directory's contents (and the directory, for search tools)
    if inside:
        rest = rest[:-3]
    prefix = "" if base == "/" else base
    body = _glob_regex(rest)
    tail = "(?:/.*)?" if inside or not directory else "/.*"
    source = "(?s)" + re.escape(prefix) + "/" + ("(?:.*/)?" if anywhere else "") + body + tail
    try:
        return compile_regex(source).fullmatch(target)
    except (re.error, Unbounded):
        return True  # a glob hookwise cannot read or bound: cannot tell, so the hook runs
