"""The agent's built-in tools, with Gemini CLI's names and parameter names, confined to the project.

=====================  ==============================================================  ========
tool                   parameters                                                      kind
=====================  ==============================================================  ========
``read_file``          ``file_path``, ``offset``?, ``limit``?                          read
``write_file``         ``file_path``, ``content``                                      edit
``replace``            ``file_path``, ``old_string``, ``new_string``, ``instruction``?, edit
                       ``allow_multiple``?, ``expected_replacements``?
``list_directory``     ``dir_path``, ``ignore``?                                       read
``glob``               ``pattern``, ``dir_path``?, ``case_sensitive``?                 read
``grep_search``        ``pattern``, ``dir_path``?, ``include``?                        read
``run_shell_command``  ``command``, ``description``?, ``dir_path``?                    exec
=====================  ==============================================================  ========

Paths may be relative (to the project directory) or absolute; a path that resolves (symlinks
followed) outside the project directory is refused. ``edit`` and ``exec`` tools describe a
confirmation (:class:`Confirmation`) that the agent shows, or refuses, depending on the approval
mode. A tool never raises for bad input: it returns a :class:`ToolResult` with an ``error``.
"""

from __future__ import annotations

import difflib
import os
import re
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

DEFAULT_SHELL_TIMEOUT_S = 120.0
MAX_READ_LINES = 2000
MAX_LINE_CHARS = 2000
MAX_OUTPUT_CHARS = 64_000
#: bytes of shell output kept: enough for MAX_OUTPUT_CHARS characters of any UTF-8 text, and one
#: more
SHELL_OUTPUT_CAP = 4 * MAX_OUTPUT_CHARS + 4
MAX_GREP_MATCHES = 100
SKIP_DIRS = frozenset(
    {".git", "__pycache__", "node_modules", ".venv", ".mypy_cache", ".pytest_cache", ".ruff_cache"}
)


@dataclass
class ToolResult:
    """What a tool produced: ``llm_content`` for the model, ``return_display`` for people.

    ``error`` is ``{"type", "message"}`` when the call failed.
    """

    llm_content: str
    return_display: str
    error: dict[str, str] | None = None

    @classmethod
    def failure(cls, kind: str, message: str) -> ToolResult:
        return cls(
            llm_content=message, return_display=message, error={"type": kind, "message": message}
        )

    @classmethod
    def from_hook(cls, response: dict[str, Any]) -> ToolResult:
        """The result an AfterTool hook's ``updatedToolOutput`` (merged over :meth:`to_hook`) stands
        for."""
        error = response.get("error")
        return cls(
            llm_content=str(response.get("llmContent", "")),
            return_display=str(response.get("returnDisplay", "")),
            error=dict(error) if isinstance(error, dict) else None,
        )

    def to_hook(self) -> dict[str, Any]:
        """The ``tool_response`` AfterTool hooks receive (``error`` omitted when there is none)."""
        out: dict[str, Any] = {"llmContent": self.llm_content, "returnDisplay": self.return_display}
        if self.error is not None:
            out["error"] = dict(self.error)
        return out


@dataclass
class Confirmation:
    """A confirmation prompt: ``kind`` is ``edit``, ``exec`` or ``info``; ``details`` goes to
    Notification."""

    kind: str
    title: str
    details: dict[str, Any]

    @property
    def message(self) -> str:
        """The Notification ``message`` (Gemini CLI's wording)."""
        verb = {"edit": "editing", "exec": "execution", "info": "information", "mcp": "MCP"}.get(
            self.kind
        )
        return f"Tool {self.title} requires {verb}" if verb else "Tool requires confirmation"


@dataclass
class ToolContext:
    """Where tools run."""

    project_dir: str
    shell_timeout_s: float = DEFAULT_SHELL_TIMEOUT_S
    env: dict[str, str] | None = None

    def __post_init__(self) -> None:
        self.root = os.path.realpath(self.project_dir)

    def resolve(self, path: str) -> str:
        """The real absolute path of ``path`` (relative to the project); ``ValueError`` if outside
        it."""
        if not isinstance(path, str) or not path.strip():
            raise ValueError("the path is empty")
        full = path if os.path.isabs(path) else os.path.join(self.root, path)
        real = os.path.realpath(full)
        if real != self.root and not real.startswith(self.root.rstrip(os.sep) + os.sep):
            raise ValueError(f"path is outside the project directory ({self.root}): {path}")
        return real

    def rel(self, real: str) -> str:
        r = os.path.relpath(real, self.root)
        return "." if r == "." else r


# ---------------------------------------------------------------------------------------------
# a tiny JSON-schema subset for argument validation
# ---------------------------------------------------------------------------------------------
_JSON_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def validate_args(schema: dict[str, Any], args: Any) -> str | None:
    """Why ``args`` do not fit ``schema`` (None when they do)."""
    if not isinstance(args, dict):
        return "params must be an object"
    for name in schema.get("required", []):
        if name not in args or args[name] is None:
            return f"params must have required property '{name}'"
    props: dict[str, Any] = schema.get("properties", {})
    for name, value in args.items():
        spec = props.get(name)
        if spec is None or value is None:
            continue
        kind = spec.get("type")
        if kind and not _JSON_TYPES[kind](value):
            return f"params/{name} must be {kind}"
        if (
            kind == "array"
            and spec.get("items", {}).get("type") == "string"
            and not all(isinstance(x, str) for x in value)
        ):
            return f"params/{name} must be an array of strings"
    return None


def _s(description: str) -> dict[str, Any]:
    return {"type": "string", "description": description}


# ---------------------------------------------------------------------------------------------
# globbing (shared by glob, grep_search's include and list_directory's ignore)
# ---------------------------------------------------------------------------------------------
def glob_to_regex(pattern: str, case_sensitive: bool = True) -> re.Pattern[str]:
    """Compile a glob (``*``, ``?``, ``[...]``, ``{a,b}``, ``**``) matched against ``/``-separated
    paths."""
    out = ""
    i = 0
    n = len(pattern)
    depth = 0
    while i < n:
        c = pattern[i]
        if c == "*":
            if pattern[i : i + 2] == "**":
                i += 2
                if i < n and pattern[i] == "/":
                    out += "(?:.*/)?"
                    i += 1
                else:
                    out += ".*"
                continue
            out += "[^/]*"
        elif c == "?":
            out += "[^/]"
        elif c == "[":
            j = pattern.find("]", i + 1)
            if j == -1:
                out += re.escape(c)
            else:
                body = pattern[i + 1 : j]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out += "[" + body.replace("\\", "\\\\") + "]"
                i = j
        elif c == "{":
            out += "(?:"
            depth += 1
        elif c == "}" and depth:
            out += ")"
            depth -= 1
        elif c == "," and depth:
            out += "|"
        else:
            out += re.escape(c)
        i += 1
    out += ")" * depth
    return re.compile(r"\A" + out + r"\Z", 0 if case_sensitive else re.IGNORECASE)


def walk_files(root: str) -> Iterator[str]:
    """Every regular file under ``root`` (real paths), skipping VCS and cache directories,
    sorted."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for f in sorted(filenames):
            yield os.path.join(dirpath, f)


def _is_binary(data: bytes) -> bool:
    return b"\0" in data[:8192]


# ---------------------------------------------------------------------------------------------
# the tools
# ---------------------------------------------------------------------------------------------
@dataclass
class Tool:
    """A built-in tool: declaration (name, description, schema), kind, confirmation and
    execution."""

    name: str
    description: str
    schema: dict[str, Any]
    kind: str  # read | edit | exec
    run: Callable[[ToolContext, dict[str, Any]], ToolResult] = field(repr=False)
    confirm: Callable[[ToolContext, dict[str, Any]], Confirmation] | None = field(
        default=None, repr=False
    )

    def declaration(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "parametersJsonSchema": self.schema,
        }

    def validate(self, args: Any) -> str | None:
        return validate_args(self.schema, args)

    def confirmation(self, ctx: ToolContext, args: dict[str, Any]) -> Confirmation:
        if self.confirm is not None:
            try:
                return self.confirm(ctx, args)
            except (OSError, ValueError):
                pass
        text = ", ".join(f"{k}={v!r}" for k, v in args.items())
        return Confirmation(
            "info",
            f"Confirm {self.name}",
            {
                "type": "info",
                "title": f"Confirm {self.name}",
                "prompt": f"{self.name}({text})",
                "urls": [],
            },
        )

    def execute(self, ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
        try:
            return self.run(ctx, args)
        except ValueError as exc:  # path outside the project, bad pattern...
            return ToolResult.failure("invalid_tool_params", str(exc))
        except OSError as exc:
            return ToolResult.failure(
                "execution_failed", f"{self.name} failed: {exc.strerror or exc}"
            )


def _read_text(path: str) -> str:
    with open(path, "rb") as fh:
        data = fh.read()
    return data.decode("utf-8", errors="replace")


# -- read_file --------------------------------------------------------------------------------
def _read_file(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    path = ctx.resolve(args["file_path"])
    if not os.path.exists(path):
        return ToolResult.failure("file_not_found", f"File not found: {args['file_path']}")
    if os.path.isdir(path):
        return ToolResult.failure(
            "target_is_directory", f"Path is a directory, not a file: {args['file_path']}"
        )
    with open(path, "rb") as fh:
        data = fh.read()
    if _is_binary(data):
        return ToolResult(
            f"Cannot display content of binary file: {ctx.rel(path)}",
            f"Skipped binary file: {ctx.rel(path)}",
        )
    lines = data.decode("utf-8", errors="replace").splitlines(keepends=True)
    offset = int(args.get("offset") or 0)
    limit = int(args["limit"]) if args.get("limit") else MAX_READ_LINES
    if offset < 0 or limit <= 0:
        return ToolResult.failure("invalid_tool_params", "offset must be >= 0 and limit > 0")
    chosen = lines[offset : offset + limit]
    chosen = [
        ln if len(ln) <= MAX_LINE_CHARS else ln[:MAX_LINE_CHARS] + "... [truncated]\n"
        for ln in chosen
    ]
    body = "".join(chosen)
    if offset > 0 or offset + limit < len(lines):
        first, last = offset + 1, offset + len(chosen)
        header = (
            f"[File content truncated: showing lines {first}-{last} of {len(lines)} total lines. "
            f"Use offset and limit to read more.]\n"
        )
        return ToolResult(
            header + body, f"Read lines {first}-{last} of {len(lines)} from {ctx.rel(path)}"
        )
    return ToolResult(body, f"Read {len(lines)} line(s) from {ctx.rel(path)}")


# -- write_file / replace ---------------------------------------------------------------------
def _diff(rel: str, old: str, new: str) -> str:
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=f"{rel} (current)",
            tofile=f"{rel} (proposed)",
        )
    )


def _edit_confirmation(
    title: str, ctx: ToolContext, path: str, old: str | None, new: str
) -> Confirmation:
    rel = ctx.rel(path)
    return Confirmation(
        "edit",
        title,
        {
            "type": "edit",
            "title": title,
            "fileName": os.path.basename(path),
            "filePath": path,
            "fileDiff": _diff(rel, old or "", new),
            "originalContent": old,
            "newContent": new,
            "isModifying": False,
        },
    )


def _write_confirm(ctx: ToolContext, args: dict[str, Any]) -> Confirmation:
    path = ctx.resolve(args["file_path"])
    old = _read_text(path) if os.path.isfile(path) else None
    return _edit_confirmation(f"Confirm Write: {ctx.rel(path)}", ctx, path, old, args["content"])


def _write_file(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    path = ctx.resolve(args["file_path"])
    if os.path.isdir(path):
        return ToolResult.failure(
            "target_is_directory", f"Path is a directory, not a file: {args['file_path']}"
        )
    existed = os.path.exists(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(args["content"])
    if existed:
        return ToolResult(f"Successfully overwrote file: {path}.", f"Wrote {ctx.rel(path)}")
    return ToolResult(
        f"Successfully created and wrote to new file: {path}.", f"Created {ctx.rel(path)}"
    )


def _plan_replace(
    ctx: ToolContext, args: dict[str, Any]
) -> tuple[str, str | None, str] | ToolResult:
    """(path, old content or None, new content) or a failure."""
    path = ctx.resolve(args["file_path"])
    old_s, new_s = args["old_string"], args["new_string"]
    if not os.path.exists(path):
        if old_s == "":
            return path, None, new_s
        return ToolResult.failure("file_not_found", f"File not found: {args['file_path']}")
    if os.path.isdir(path):
        return ToolResult.failure(
            "target_is_directory", f"Path is a directory, not a file: {args['file_path']}"
        )
    current = _read_text(path)
    if old_s == "":
        return ToolResult.failure(
            "attempt_to_create_existing_file",
            f"Failed to edit: old_string is empty but {args['file_path']} already exists.",
        )
    count = current.count(old_s)
    if count == 0:
        return ToolResult.failure(
            "edit_no_occurrence_found",
            f"Failed to edit, could not find the string to replace in {args['file_path']}.",
        )
    expected = args.get("expected_replacements")
    if expected is None:
        expected = count if args.get("allow_multiple") else 1
    if count != expected:
        return ToolResult.failure(
            "edit_expected_occurrence_mismatch",
            (
                f"Failed to edit, expected {expected} occurrence(s) but found {count} in "
                f"{args['file_path']}."
            ),
        )
    return path, current, current.replace(old_s, new_s)


def _replace_confirm(ctx: ToolContext, args: dict[str, Any]) -> Confirmation:
    plan = _plan_replace(ctx, args)
    if isinstance(plan, ToolResult):
        raise ValueError(plan.llm_content)
    path, old, new = plan
    return _edit_confirmation(f"Confirm Edit: {ctx.rel(path)}", ctx, path, old, new)


def _replace(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    plan = _plan_replace(ctx, args)
    if isinstance(plan, ToolResult):
        return plan
    path, old, new = plan
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(new)
    if old is None:
        return ToolResult(
            f"Created new file: {path} with provided content.", f"Created {ctx.rel(path)}"
        )
    n = old.count(args["old_string"])
    return ToolResult(
        f"Successfully modified file: {path} ({n} replacement{'s' if n != 1 else ''}).",
        f"Edited {ctx.rel(path)}",
    )


# -- list_directory / glob / grep_search ------------------------------------------------------
def _list_directory(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    path = ctx.resolve(args["dir_path"])
    if not os.path.isdir(path):
        return ToolResult.failure("file_not_found", f"Directory not found: {args['dir_path']}")
    ignores = [glob_to_regex(p) for p in (args.get("ignore") or [])]
    dirs: list[str] = []
    files: list[str] = []
    for entry in sorted(os.listdir(path)):
        if any(rx.match(entry) for rx in ignores):
            continue
        (dirs if os.path.isdir(os.path.join(path, entry)) else files).append(entry)
    lines = [f"[DIR] {d}" for d in dirs] + files
    if not lines:
        return ToolResult(f"Directory {ctx.rel(path)} is empty.", "Directory is empty.")
    return ToolResult(
        f"Directory listing for {path}:\n" + "\n".join(lines), f"Listed {len(lines)} item(s)."
    )


def _search_root(ctx: ToolContext, args: dict[str, Any]) -> str:
    d = args.get("dir_path")
    path = ctx.resolve(d) if d else ctx.root
    if not os.path.isdir(path):
        raise ValueError(f"Directory not found: {d}")
    return path


def _glob(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    root = _search_root(ctx, args)
    pattern = args["pattern"]
    if os.path.isabs(pattern):
        pattern = os.path.relpath(pattern, root)
    rx = glob_to_regex(pattern.replace(os.sep, "/"), bool(args.get("case_sensitive", False)))
    found = [p for p in walk_files(root) if rx.match(os.path.relpath(p, root).replace(os.sep, "/"))]
    where = ctx.rel(root)
    if not found:
        return ToolResult(
            f'No files found matching pattern "{args["pattern"]}" within {where}', "No files found"
        )
    return ToolResult(
        f'Found {len(found)} file(s) matching "{args["pattern"]}" within {where}, '
        f"sorted by path:\n" + "\n".join(found),
        f"Found {len(found)} matching file(s)",
    )


def _grep_search(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    root = _search_root(ctx, args)
    try:
        rx = re.compile(args["pattern"])
    except re.error as exc:
        return ToolResult.failure(
            "invalid_tool_params", f"Invalid regular expression {args['pattern']!r}: {exc}"
        )
    include = args.get("include")
    inc = glob_to_regex(include) if include else None
    matches: dict[str, list[tuple[int, str]]] = {}
    total = 0
    truncated = False
    for path in walk_files(root):
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        if inc is not None and not (inc.match(rel) or inc.match(os.path.basename(rel))):
            continue
        try:
            if os.path.getsize(path) > 4 * 1024 * 1024:
                continue
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError:
            continue
        if _is_binary(data):
            continue
        for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), start=1):
            if rx.search(line):
                if total >= MAX_GREP_MATCHES:
                    truncated = True
                    break
                matches.setdefault(ctx.rel(path), []).append((number, line[:MAX_LINE_CHARS]))
                total += 1
        if truncated:
            break
    where = ctx.rel(root)
    filt = f' (filter: "{include}")' if include else ""
    if not total:
        return ToolResult(
            f'No matches found for pattern "{args["pattern"]}" in path "{where}"{filt}.',
            "No matches found",
        )
    out = [
        f'Found {total} match{"es" if total != 1 else ""} for pattern "{args["pattern"]}" '
        f'in path "{where}"{filt}'
        + (f" (limited to {MAX_GREP_MATCHES})" if truncated else "")
        + ":",
        "---",
    ]
    for rel, hits in matches.items():
        out.append(f"File: {rel}")
        out.extend(f"L{n}: {text}" for n, text in hits)
        out.append("---")
    return ToolResult("\n".join(out), f"Found {total} match{'es' if total != 1 else ''}")


# -- run_shell_command ------------------------------------------------------------------------
def _root_command(command: str) -> str:
    word = command.strip().split(maxsplit=1)[0] if command.strip() else ""
    return os.path.basename(word)


def _shell_confirm(ctx: ToolContext, args: dict[str, Any]) -> Confirmation:
    return Confirmation(
        "exec",
        "Confirm Shell Command",
        {
            "type": "exec",
            "title": "Confirm Shell Command",
            "command": args["command"],
            "rootCommand": _root_command(args["command"]),
        },
    )


def _run_shell_command(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    command = args["command"]
    if not command.strip():
        return ToolResult.failure("invalid_tool_params", "Command cannot be empty.")
    cwd = _search_root(ctx, args)
    env = dict(ctx.env if ctx.env is not None else os.environ)
    env["GEMINI_CLI"] = "1"
    # the hooks' process driver: own process group, TERM then KILL of the group at the timeout, no
    # leftovers
    from hookwise.runners._process import Spawn, run_one

    done = run_one(
        Spawn(
            ["bash", "-c", command],
            cwd,
            env,
            b"",
            ctx.shell_timeout_s,
            SHELL_OUTPUT_CAP,
            merge_stderr=True,
        )
    )
    if done.spawn_error is not None:
        return ToolResult.failure(
            "execution_failed", f"Command could not be started: {done.spawn_error}"
        )
    timed_out = done.timed_out
    output = done.stdout.decode("utf-8", errors="replace").rstrip("\n")
    if len(output) > MAX_OUTPUT_CHARS:
        output = (
            output[:MAX_OUTPUT_CHARS] + f"\n... [output truncated at {MAX_OUTPUT_CHARS} characters]"
        )
    code = done.returncode
    signal_name = None
    if done.signal is not None:
        try:
            signal_name = signal.Signals(done.signal).name
        except ValueError:
            signal_name = str(done.signal)
    error = (
        f"Command timed out after {ctx.shell_timeout_s:g} s and was killed"
        if timed_out
        else "(none)"
    )
    lines = [
        f"Command: {command}",
        f"Directory: {ctx.rel(cwd) if cwd != ctx.root else '(root)'}",
        f"Output: {output or '(empty)'}",
        f"Error: {error}",
        f"Exit Code: {code if code is not None and code >= 0 else '(none)'}",
    ]
    if signal_name:
        lines.append(f"Signal: {signal_name}")
    display = output or (
        f"Command exited with code {code}" if code else "Command completed with no output"
    )
    if timed_out:
        return ToolResult("\n".join(lines), display, {"type": "shell_timeout", "message": error})
    return ToolResult("\n".join(lines), display)


# ---------------------------------------------------------------------------------------------
# registry
# ---------------------------------------------------------------------------------------------
def builtin_tools() -> list[Tool]:
    """The seven built-in tools, in declaration order."""
    return [
        Tool(
            "read_file",
            "Reads a text file in the project and returns its content. Use offset and limit "
            "(line numbers) to read part of a large file.",
            {
                "type": "object",
                "properties": {
                    "file_path": _s(
                        "The path of the file to read (relative to the project or absolute)."
                    ),
                    "offset": {
                        "type": "number",
                        "description": "Optional: the 0-based line to start from.",
                    },
                    "limit": {
                        "type": "number",
                        "description": "Optional: the maximum number of lines to read.",
                    },
                },
                "required": ["file_path"],
            },
            "read",
            _read_file,
        ),
        Tool(
            "write_file",
            "Writes content to a file in the project, creating it (and its directories) "
            "or overwriting it.",
            {
                "type": "object",
                "properties": {
                    "file_path": _s("The path of the file to write."),
                    "content": _s("The full content to write."),
                },
                "required": ["file_path", "content"],
            },
            "edit",
            _write_file,
            _write_confirm,
        ),
        Tool(
            "replace",
            "Replaces text in a file. old_string must match exactly (whitespace included) and, "
            "unless allow_multiple is true, exactly once. An empty old_string creates a new file.",
            {
                "type": "object",
                "properties": {
                    "file_path": _s("The path of the file to modify."),
                    "instruction": _s("Optional: what the change is for."),
                    "old_string": _s("The exact text to replace."),
                    "new_string": _s("The text to put in its place."),
                    "allow_multiple": {
                        "type": "boolean",
                        "description": "Optional: replace every occurrence.",
                    },
                    "expected_replacements": {
                        "type": "number",
                        "description": "Optional: the number of occurrences expected.",
                    },
                },
                "required": ["file_path", "old_string", "new_string"],
            },
            "edit",
            _replace,
            _replace_confirm,
        ),
        Tool(
            "list_directory",
            "Lists the files and subdirectories of a directory in the project.",
            {
                "type": "object",
                "properties": {
                    "dir_path": _s("The directory to list."),
                    "ignore": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "Optional: glob patterns of names to leave out.",
                    },
                },
                "required": ["dir_path"],
            },
            "read",
            _list_directory,
        ),
        Tool(
            "glob",
            "Finds files whose path matches a glob pattern (e.g. 'src/**/*.py').",
            {
                "type": "object",
                "properties": {
                    "pattern": _s("The glob pattern."),
                    "dir_path": _s("Optional: the directory to search in (default: the project)."),
                    "case_sensitive": {
                        "type": "boolean",
                        "description": "Optional: match case (default false).",
                    },
                },
                "required": ["pattern"],
            },
            "read",
            _glob,
        ),
        Tool(
            "grep_search",
            "Searches file contents for a regular expression; returns matching lines "
            "with file names and line numbers.",
            {
                "type": "object",
                "properties": {
                    "pattern": _s("The regular expression to search for."),
                    "dir_path": _s("Optional: the directory to search in (default: the project)."),
                    "include": _s("Optional: a glob of the files to search (e.g. '*.py')."),
                },
                "required": ["pattern"],
            },
            "read",
            _grep_search,
        ),
        Tool(
            "run_shell_command",
            "Runs a command with bash -c in the project directory and returns its "
            "output and exit code.",
            {
                "type": "object",
                "properties": {
                    "command": _s("The exact bash command to run."),
                    "description": _s("Optional: a short description of what the command does."),
                    "dir_path": _s("Optional: the directory to run it in (default: the project)."),
                },
                "required": ["command"],
            },
            "exec",
            _run_shell_command,
            _shell_confirm,
        ),
    ]


class ToolRegistry:
    """The tools the agent offers, by name."""

    def __init__(self, tools: list[Tool] | None = None) -> None:
        self.tools = {t.name: t for t in (tools if tools is not None else builtin_tools())}

    def get(self, name: str) -> Tool | None:
        return self.tools.get(name)

    def names(self) -> list[str]:
        return list(self.tools)

    def declarations(self) -> list[dict[str, Any]]:
        return [t.declaration() for t in self.tools.values()]

    def not_found(self, name: str) -> str:
        close = difflib.get_close_matches(name, self.names(), n=3, cutoff=0.5)
        hint = f" Did you mean one of: {', '.join(repr(c) for c in close)}?" if close else ""
        return (
            f'Tool "{name}" not found in registry. Available tools: '
            f"{', '.join(self.names())}.{hint}"
        )


#: approval mode -> tool kinds that run without asking
AUTO_APPROVED: dict[str, frozenset[str]] = {
    "default": frozenset({"read"}),
    "auto_edit": frozenset({"read", "edit"}),
    "yolo": frozenset({"read", "edit", "exec"}),
}
APPROVAL_MODES = tuple(AUTO_APPROVED)


def needs_confirmation(tool: Tool, approval_mode: str) -> bool:
    """Does ``tool`` ask before running in ``approval_mode`` (hooks aside)?"""
    return tool.kind not in AUTO_APPROVED[approval_mode]
