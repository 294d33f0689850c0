"""``hookwise doctor``: run every configured hook once on a harmless synthetic input and diagnose it.

Each enabled command hook runs once, exactly as configured (``bash -c`` in the
project dir, its own timeout and environment), on an input built for its event
and matcher whose paths all point into a fresh temporary sandbox directory (the
input's ``cwd``, ``transcript_path``, the file a ``write_file`` would write...).
Nothing of the project is copied or touched by hookwise itself, but the hook is
a program: it may still have side effects, which is why the CLI asks for
``--yes`` (``--dry-run`` lists what would run).

Per hook the verdict is one of:

- ``ok`` — it ran and answered sensibly;
- ``error`` — it did not run (command or script not found, interpreter missing,
  not executable, a path that only exists relative to another directory than
  the project dir the hook runs in) or it timed out;
- ``warning`` — it ran but: failed (non-zero exit), was slow (near its timeout),
  printed text that is not JSON where JSON was probably meant (a log line
  before the JSON), or blocked the harmless input;
- ``skipped`` — disabled, or not trusted yet (``hookwise trust``).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import tempfile
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hookwise.core.expand import expand_command
from hookwise.core.plan import compile_matcher
from hookwise.core.registry import HookEntry
from hookwise.events import (
    EVENT_SPECS,
    PRE_COMPRESS_TRIGGERS,
    SESSION_END_REASONS,
    SESSION_START_SOURCES,
    HookEvent,
)
from hookwise.result import HookOutcome, Outcome, asks_to_block

OK = "ok"
WARNING = "warning"
ERROR = "error"
SKIPPED = "skipped"

#: a hook that takes at least this share of its timeout is "slow"
SLOW_FRACTION = 0.8

#: tool names tried, in order, to find one a BeforeTool/AfterTool matcher matches
TOOL_CANDIDATES = (
    "read_file",
    "write_file",
    "replace",
    "run_shell_command",
    "list_directory",
    "glob",
    "grep_search",
    "read_many_files",
    "web_fetch",
    "google_web_search",
    "save_memory",
)

#: programs that run a script given as their next argument
INTERPRETERS = (
    "python",
    "python3",
    "python2",
    "node",
    "nodejs",
    "bash",
    "sh",
    "zsh",
    "ruby",
    "perl",
    "php",
    "deno",
    "bun",
    "pwsh",
    "lua",
    "Rscript",
    "tsx",
    "ts-node",
)

_SHELL_WORDS = {
    "cd",
    "exec",
    "env",
    "command",
    "builtin",
    "time",
    "nohup",
    "if",
    "then",
    "for",
    "while",
    "case",
    "{",
    "(",
    "[",
    "[[",
    "test",
    "echo",
    "printf",
    "true",
    "false",
    "exit",
    "set",
    "export",
    "source",
    ".",
    "cat",
    "read",
    "!",
}

if TYPE_CHECKING:
    from hookwise.engine import HookSystem


@dataclass
class Finding:
    severity: str  # error | warning
    message: str


@dataclass
class HookCheck:
    """One hook: what would run, and after running, what doctor found."""

    entry: HookEntry
    input: dict[str, Any]
    status: str = OK
    findings: list[Finding] = field(default_factory=list)
    outcome: HookOutcome | None = None

    @property
    def summary(self) -> str:
        if not self.findings:
            return "ran fine"
        return "; ".join(f.message for f in self.findings)

    def add(self, severity: str, message: str) -> None:
        self.findings.append(Finding(severity, message))
        rank = {OK: 0, SKIPPED: 0, WARNING: 1, ERROR: 2}
        if rank[severity] > rank[self.status] or self.status == SKIPPED:
            self.status = severity


# --------------------------------------------------------------------------- synthetic inputs


def _match_value(entry: HookEntry, candidates: tuple[str, ...]) -> str:
    spec = EVENT_SPECS[entry.event]
    pred = compile_matcher(entry.matcher, spec.matcher)
    for c in candidates:
        if pred(c):
            return c
    m = (entry.matcher or "").strip()
    for part in m.split("|"):
        part = part.strip()
        if part and re.fullmatch(r"[A-Za-z0-9_.:-]+", part) and pred(part):
            return part
    return candidates[0]


def _tool_input(tool: str, sandbox: str) -> dict[str, Any]:
    f = os.path.join(sandbox, "hookwise-doctor.txt")
    inputs: dict[str, dict[str, Any]] = {
        "read_file": {"file_path": f},
        "write_file": {"file_path": f, "content": "hello from hookwise doctor\n"},
        "replace": {"file_path": f, "old_string": "hello", "new_string": "hi"},
        "run_shell_command": {
            "command": "echo hello",
            "description": "print a greeting",
            "dir_path": sandbox,
        },
        "list_directory": {"dir_path": sandbox},
        "glob": {"pattern": "*.txt", "dir_path": sandbox},
        "grep_search": {"pattern": "hello", "dir_path": sandbox},
        "read_many_files": {"paths": [f]},
        "web_fetch": {"prompt": "Summarize https://example.com"},
        "google_web_search": {"query": "hookwise"},
        "save_memory": {"fact": "The user likes tea."},
    }
    return inputs.get(tool, {})


def _llm_request() -> dict[str, Any]:
    return {
        "model": "gemini-2.5-flash",
        "messages": [{"role": "user", "content": "Say hello."}],
        "config": {"temperature": 0},
    }


def synthetic_input(entry: HookEntry, sandbox: str) -> dict[str, Any]:
    """A harmless, complete input for ``entry``'s event that its matcher matches (base fields excluded)."""
    ev = entry.event
    prompt = "Say hello. (synthetic prompt from hookwise doctor)"
    if ev in (HookEvent.BEFORE_TOOL, HookEvent.AFTER_TOOL):
        tool = _match_value(entry, TOOL_CANDIDATES)
        data: dict[str, Any] = {"tool_name": tool, "tool_input": _tool_input(tool, sandbox)}
        if ev is HookEvent.AFTER_TOOL:
            data["tool_response"] = {"llmContent": "hello", "returnDisplay": "hello"}
        return data
    if ev is HookEvent.BEFORE_AGENT:
        return {"prompt": prompt}
    if ev is HookEvent.AFTER_AGENT:
        return {"prompt": prompt, "prompt_response": "Hello!", "stop_hook_active": False}
    if ev in (HookEvent.BEFORE_MODEL, HookEvent.BEFORE_TOOL_SELECTION):
        return {"llm_request": _llm_request()}
    if ev is HookEvent.AFTER_MODEL:
        return {
            "llm_request": _llm_request(),
            "llm_response": {
                "text": "Hello!",
                "candidates": [
                    {
                        "content": {"role": "model", "parts": ["Hello!"]},
                        "finishReason": "STOP",
                        "index": 0,
                    }
                ],
            },
        }
    if ev is HookEvent.SESSION_START:
        return {"source": _match_value(entry, SESSION_START_SOURCES)}
    if ev is HookEvent.SESSION_END:
        return {"reason": _match_value(entry, SESSION_END_REASONS)}
    if ev is HookEvent.PRE_COMPRESS:
        return {"trigger": _match_value(entry, PRE_COMPRESS_TRIGGERS)}
    return {
        "notification_type": _match_value(entry, ("ToolPermission",)),
        "message": "Allow run_shell_command: echo hello?",
        "details": {"type": "exec", "title": "Confirm shell command", "command": "echo hello"},
    }


# --------------------------------------------------------------------------- static diagnosis


def _words(command: str, project_dir: str) -> list[str]:
    values = {
        "GEMINI_PROJECT_DIR": project_dir,
        "CLAUDE_PROJECT_DIR": project_dir,
        "GEMINI_CWD": project_dir,
        "GEMINI_SESSION_ID": "doctor",
    }
    expanded = expand_command(command, values)
    try:
        return shlex.split(expanded, comments=True)
    except ValueError:
        return expanded.split()


def _first_command(words: list[str]) -> tuple[str | None, list[str]]:
    """The program of the first simple command (after ``VAR=x`` assignments), and its arguments."""
    i = 0
    while i < len(words) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[i]):
        i += 1
    if i >= len(words):
        return None, []
    rest = []
    for w in words[i + 1 :]:
        if w in (";", "&&", "||", "|", "&") or w.endswith(";"):
            break
        rest.append(w)
    return words[i], rest


def _shebang(path: str) -> list[str] | None:
    if not os.path.isfile(path):  # never open a FIFO or a device: it could block
        return None
    try:
        with open(path, "rb") as f:
            head = f.read(256)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    line = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").strip()
    return line.split() or None


def static_problems(entry: HookEntry, project_dir: str, env: Mapping[str, str]) -> list[Finding]:
    """Why ``entry``'s command cannot run, found without running it (empty when nothing is wrong)."""
    words = _words(entry.command, project_dir)
    prog, args = _first_command(words)
    if prog is None or prog in _SHELL_WORDS:
        return []
    where = _Where(entry, project_dir)
    path_env = env.get("PATH", os.defpath)
    if "/" in prog:
        found = _program_problems(prog, where, path_env)
        if found:
            return found
    elif shutil.which(prog, path=path_env) is None:
        kind = "interpreter" if _is_interpreter(prog) else "command"
        return [Finding(ERROR, f"did not run: {kind} {prog!r} not found on PATH")]
    return _script_problems(prog, args, where) if _is_interpreter(prog) else []


def _is_interpreter(prog: str) -> bool:
    return os.path.basename(prog).rstrip("0123456789.") in INTERPRETERS


class _Where:
    """Where a hook's relative paths are looked up, and the hint when one is elsewhere."""

    def __init__(self, entry: HookEntry, project_dir: str) -> None:
        self.entry = entry
        self.project_dir = project_dir
        self.base = entry.own_dir or project_dir

    def resolve(self, word: str) -> str:
        if os.path.isabs(word):
            return word
        return os.path.normpath(os.path.join(self.project_dir, word))

    def elsewhere(self, word: str) -> str:
        """A hint when a relative path exists relative to the settings file's dir but not the project."""
        if os.path.isabs(word):
            return ""
        project_dir = self.project_dir
        dirs = {
            os.path.dirname(self.entry.file or ""),
            os.path.join(project_dir, ".gemini"),
            self.base,
        }
        for d in dirs:
            if d and os.path.exists(os.path.join(d, word)) and d != project_dir:
                return (
                    f" (it exists relative to {d}, but hooks run in the project dir {project_dir}: "
                    f'write "$GEMINI_PROJECT_DIR/{os.path.relpath(os.path.join(d, word), project_dir)}")'
                )
        return ""


def _program_problems(prog: str, where: _Where, path_env: str) -> list[Finding]:
    """A program named by a path: it must exist, be a file, be executable, and its #! interpreter too."""
    p = where.resolve(prog)
    if not os.path.exists(p):
        why = f"did not run: {prog} does not exist (looked for {p})" + where.elsewhere(prog)
        return [Finding(ERROR, why)]
    if os.path.isdir(p):
        return [Finding(ERROR, f"did not run: {prog} is a directory")]
    if not os.access(p, os.X_OK):
        return [Finding(ERROR, f"did not run: {prog} is not executable (chmod +x {prog})")]
    sb = _shebang(p)
    if not sb:
        return []
    interp = sb[0]
    if os.path.basename(interp) == "env" and len(sb) > 1:
        names = [w for w in sb[1:] if not w.startswith("-")]
        if names and shutil.which(names[0], path=path_env) is None:
            return [
                Finding(
                    ERROR,
                    f"did not run: interpreter {names[0]!r} (from the #! line of {prog}) "
                    "is not installed or not on PATH",
                )
            ]
    elif not os.path.exists(interp):
        return [
            Finding(
                ERROR,
                f"did not run: interpreter {interp} (from the #! line of {prog}) does not exist",
            )
        ]
    return []


def _script_problems(prog: str, args: list[str], where: _Where) -> list[Finding]:
    """An interpreter's script argument (``python3 hooks/x.py``) must exist."""
    script = next((a for a in args if not a.startswith("-")), None)
    if not script or not (
        "/" in script or re.search(r"\.(py|js|mjs|cjs|ts|sh|rb|pl|php|lua)$", script)
    ):
        return []
    if any(a in ("-c", "-e", "-m") for a in args[: args.index(script)]):
        return []
    p = where.resolve(script)
    if os.path.exists(p):
        return []
    why = f"did not run: script {script} does not exist (looked for {p})" + where.elsewhere(script)
    return [Finding(ERROR, why)]


# --------------------------------------------------------------------------- output analysis


def _json_after_text(out: str) -> tuple[int, str] | None:
    """If ``out`` is text followed by a JSON object, (offset of the object, the text before it)."""
    dec = json.JSONDecoder()
    for m in re.finditer(r"\{", out):
        i = m.start()
        if i == 0:
            continue
        try:
            obj, end = dec.raw_decode(out, i)
        except ValueError:
            continue
        if isinstance(obj, dict) and not out[end:].strip():
            return i, out[:i].strip()
    return None


def analyse_output(check: HookCheck) -> None:
    o = check.outcome
    assert o is not None
    out = o.stdout.strip()
    if not out or o.outcome in (Outcome.NOT_RUN, Outcome.TIMEOUT):
        return
    try:
        value = json.loads(out)
    except ValueError:
        value = None
        found = _json_after_text(out)
        if found is not None:
            before = found[1].splitlines()[-1] if found[1] else ""
            check.add(
                WARNING,
                f"stdout is not JSON: a line of text ({before[:60]!r}) comes before the JSON "
                "object, so the whole answer is read as plain text; print logs to stderr",
            )
            return
        if out.startswith("{") or out.startswith("["):
            try:
                json.loads(out)
            except ValueError as exc:
                check.add(
                    WARNING,
                    f"stdout looks like JSON but does not parse ({exc}); it is read as plain text",
                )
            return
        lines = out.splitlines()
        if len(lines) > 1 and any(ln.strip().startswith("{") for ln in lines):
            check.add(
                WARNING,
                "stdout mixes text and JSON lines; only one JSON object is read as the answer",
            )
        return
    if not isinstance(value, dict) and not (
        isinstance(value, str) and value.strip().startswith("{")
    ):
        check.add(
            WARNING, f"stdout is JSON but not an object ({out[:40]!r}); it is read as plain text"
        )


def diagnose(check: HookCheck, project_dir: str, env: Mapping[str, str]) -> None:
    """Turn a finished run (``check.outcome``) into findings."""
    o = check.outcome
    assert o is not None
    e = check.entry
    if o.outcome is Outcome.SKIPPED:
        check.status = SKIPPED
        check.findings.append(Finding(SKIPPED, o.error or "not trusted (run `hookwise trust`)"))
        return
    static = static_problems(e, project_dir, env)
    if o.outcome is Outcome.NOT_RUN:
        if static:
            for f in static:
                check.add(ERROR, f.message)
        else:
            check.add(ERROR, f"did not run: {o.error}")
        return
    if o.outcome is Outcome.TIMEOUT:
        check.add(
            ERROR,
            f'timed out after {e.timeout_ms} ms (it never answered; raise "timeout" or make it '
            "faster)",
        )
        return
    if static and o.outcome is not Outcome.OK:
        # e.g. `python3 missing.py` exits 2 ("can't open file"), which would read as a block
        for f in static:
            check.add(ERROR, f.message)
        return
    if o.outcome is Outcome.FAILED:
        check.add(WARNING, f"failed: {o.error}")
    if o.duration_ms >= SLOW_FRACTION * e.timeout_ms:
        check.add(WARNING, f"slow: took {o.duration_ms:.0f} ms of its {e.timeout_ms} ms timeout")
    analyse_output(check)
    out = o.output or {}
    if o.outcome is Outcome.BLOCKED or asks_to_block(out):
        reason = out.get("reason") or out.get("stopReason") or ""
        check.add(WARNING, "blocks a harmless input" + (f": {str(reason)[:120]}" if reason else ""))
    elif out.get("continue") is False:
        check.add(
            WARNING,
            "stops the agent on a harmless input"
            + (f": {str(out.get('stopReason'))[:120]}" if out.get("stopReason") else ""),
        )


# --------------------------------------------------------------------------- driver


def plan_checks(
    entries: list[HookEntry], sandbox: str, is_trusted: Callable[[HookEntry], bool] | None = None
) -> list[HookCheck]:
    """One check per distinct configured command hook (disabled and untrusted ones are listed as skipped)."""
    checks: list[HookCheck] = []
    seen: set[tuple[str, str]] = set()
    for e in entries:
        if not e.command:  # a hook without a shell command (another kind) is not run by the doctor
            continue
        key = (e.event.value, e.identity)
        if key in seen:
            continue
        seen.add(key)
        c = HookCheck(e, synthetic_input(e, sandbox))
        if not e.enabled:
            c.status = SKIPPED
            c.findings.append(Finding(SKIPPED, "disabled (hooksConfig.disabled); not run"))
        elif is_trusted is not None and not is_trusted(e):
            c.status = SKIPPED
            c.findings.append(
                Finding(
                    SKIPPED,
                    f"not trusted yet: {e.source} hooks run only once approved "
                    "(`hookwise trust`); not run",
                )
            )
        checks.append(c)
    return checks


def make_sandbox() -> str:
    """A fresh temporary directory with the files the synthetic inputs mention."""
    d = tempfile.mkdtemp(prefix="hookwise-doctor-")
    with open(os.path.join(d, "hookwise-doctor.txt"), "w", encoding="utf-8") as f:
        f.write("hello\n")
    with open(os.path.join(d, "transcript.jsonl"), "w", encoding="utf-8"):
        pass
    return d


def run_checks(hs: HookSystem, checks: list[HookCheck], *, max_workers: int = 8) -> list[HookCheck]:
    """Run every non-skipped check once (concurrently) through ``hs`` and diagnose it."""
    todo = [c for c in checks if c.status != SKIPPED]

    def one(c: HookCheck) -> None:
        # a single hook, outside planning: the engine's command runner, same env/timeout/trust rules
        c.outcome = hs.run_entry(c.entry, c.input)
        diagnose(c, hs.project_dir, hs.env)

    if todo:
        with ThreadPoolExecutor(max_workers=max(1, min(max_workers, len(todo)))) as pool:
            list(pool.map(one, todo))
    return checks
