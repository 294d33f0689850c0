"""The runner of command hooks (``type: "command"``; ``persistent: true`` included).

For each planned hook: encode the input in the hook's dialect (once per
dialect and firing), build the process request (hook variables, child
environment, argv, direct exec when bash would only exec, see
:mod:`hookwise.runners._direct`), run every one-shot hook of the firing
concurrently through :func:`hookwise.runners._process.run_many` and every
persistent hook through the host's :class:`~hookwise.runners.persistent.PersistentPool`,
then build each answer once in :func:`command_outcome`: decode → interpret
(docs/contract.md §6) → output cap → dialect → fail-closed.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING
from hookwise.core.expand import expand_command
from hookwise.core.interpret import Interpretation, interpret
from hookwise.core.keys import FLAG, Key, OneOf, Text
from hookwise.core.registry import CommandSpec, HookEntry, KindSpec
from hookwise.events import HookEvent
from hookwise.input_errors import PayloadError
from hookwise.jsonc.codec import dumps
from hookwise.result import HookOutcome, Outcome
from hookwise.runners import _process
from hookwise.runners.base import Firing, Host, check_answer, finish
from hookwise.runners.dialects import dialect
from hookwise.runners.kind import HookKind, Material, env_lines

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any


def encode(obj: Any) -> bytes:
    """``obj`` as compact UTF-8 JSON (what a hook reads on stdin); not JSON is a :class:`PayloadError`."""
    try:
        text = dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError as exc:
        raise PayloadError(
            f"the event input cannot be sent as JSON: {exc} (NaN and Infinity are not JSON)"
        ) from None
    except TypeError as exc:
        raise PayloadError(f"the event input cannot be sent as JSON: {exc}") from None
    return text.encode("utf-8", "surrogatepass")


def hook_vars(host: Host, inp: Mapping[str, Any]) -> dict[str, str]:
    """The variables a hook sees both in its command text and in its environment (docs/contract.md §5)."""
    session_id = str(inp.get("session_id", host.session_id))
    return {
        "GEMINI_PROJECT_DIR": host.project_dir,
        "GEMINI_CWD": str(inp.get("cwd", host.cwd)),
        "GEMINI_SESSION_ID": session_id,
        "CLAUDE_PROJECT_DIR": host.project_dir,
        **host.extra_vars(
            session_id
        ),  # a product profile's names (TABNINE_PROJECT_DIR...), CLAUDE_PLUGIN_ROOT
    }


def child_env(host: Host, entry: HookEntry, variables: Mapping[str, str]) -> dict[str, str]:
    """The hook's environment: the host's (sanitised for project/extension hooks), the variables, its ``env``."""
    env = {**host.env_for(entry), **variables, **entry.env}
    telemetry = getattr(host, "telemetry", None)
    if telemetry is not None:  # W3C TRACEPARENT naming this hook call's span (docs/telemetry.md)
        env.update(telemetry.child_env(entry))
    return env


def argv(entry: HookEntry, variables: Mapping[str, str]) -> list[str]:
    """``bash -c <command>``, or ``pwsh -NoProfile -Command <command>`` for ``"shell": "powershell"``."""
    spec = _spec(entry)
    if spec.shell == "powershell":
        return ["pwsh", "-NoProfile", "-Command", expand_command(spec.command, dict(variables))]
    return ["bash", "-c", expand_command(spec.command, dict(variables))]


def _spec(entry: HookEntry) -> CommandSpec:
    spec = entry.spec
    if not isinstance(spec, CommandSpec):
        raise TypeError(f"hook {entry.display_name!r} of type {entry.type!r} has no command")
    return spec


def spawn_request(
    host: Host, entry: HookEntry, inp: Mapping[str, Any], data: bytes
) -> _process.Spawn:
    """The process request for a command hook: direct exec when that is identical to ``bash -c``."""
    variables = hook_vars(host, inp)
    args = argv(entry, variables)
    env = child_env(host, entry, variables)
    timeout = entry.timeout_ms / 1000.0
    shell = _process.Spawn(args, host.project_dir, env, data, timeout, host.output_cap)
    if host.direct_spawn and args[0] == "bash":
        from hookwise.runners import _direct

        denv = dict(env)
        direct = _direct.plan(args[2], denv, host.project_dir)
        if direct is not None:
            return _process.Spawn(
                direct[0],
                host.project_dir,
                denv,
                data,
                timeout,
                host.output_cap,
                executable=direct[1],
                fallback=shell,
            )
    return shell


def command_outcome(
    entry: HookEntry,
    event: HookEvent,
    c: _process.Completed,
    inp: Mapping[str, Any] | None,
    cap: int,
    protocol_error: str | None = None,
) -> HookOutcome:
    """One hook's answer, built once: decode → interpret → output cap → dialect → fail-closed."""
    stdout = c.stdout.decode("utf-8", "replace")
    stderr = c.stderr.decode("utf-8", "replace")
    truncated = c.stdout_truncated or c.stderr_truncated
    if protocol_error is not None:  # a persistent hook broke its line protocol: no answer to read
        return finish(
            entry,
            event,
            Interpretation(Outcome.FAILED, None, protocol_error),
            None,
            c.duration_ms,
            stdout,
            stderr,
            truncated,
        )
    it = interpret(
        entry.display_name,
        exit_code=c.returncode,
        signal=c.signal,
        stdout=stdout,
        stderr=stderr,
        timed_out=c.timed_out,
        timeout_ms=entry.timeout_ms,
        spawn_error=c.spawn_error,
    )
    d = dialect(entry.dialect)
    it = d.interpret(
        it, exit_code=c.returncode, stdout=stdout, stderr=stderr, name=entry.display_name
    )
    outcome, output, error = it.outcome, it.output, it.error
    if outcome in (Outcome.OK, Outcome.FAILED) and (
        c.stdout_truncated or (c.stderr_truncated and not stdout.strip())
    ):
        # a cut-off answer is not the hook's answer: never read a prefix as text (an allow) or JSON
        output = None
        outcome, error = (
            Outcome.FAILED,
            f"its output passed the {cap}-byte cap and was cut off; the answer was ignored",
        )
    elif output is not None:
        if it.is_json:
            output = d.normalize_output(event, output, inp)
        elif c.returncode == 0 and outcome is Outcome.OK:
            output = d.text_output(event, stdout.strip()) or output
    o = finish(
        entry,
        event,
        Interpretation(outcome, output, error),
        c.returncode,
        c.duration_ms,
        stdout,
        stderr,
        truncated,
    )
    return check_answer(o, event, entry, inp)


class CommandRunner:
    """Runs command hooks as processes; one outcome per entry, in order."""

    kind = "command"
    #: its processes run while the executor runs other kinds on the calling thread (``during``)
    background = True

    def run(
        self,
        firing: Firing,
        entries: Sequence[HookEntry],
        inp: dict[str, Any],
        during: Callable[[], None] | None = None,
    ) -> list[HookOutcome]:
        """Run ``entries`` concurrently with the same input; ``during()`` runs once they have started."""
        host, ev = firing.host, firing.event
        encoded: dict[tuple[str | None, object], bytes] = {}
        oneshot: list[tuple[int, _process.Spawn]] = []
        persistent: list[tuple[int, Any]] = []
        for i, e in enumerate(entries):
            d = dialect(e.dialect)
            key = (d.name, d.input_key(e))
            data = encoded.get(key)
            if data is None:
                data = encoded[key] = encode(d.encode_input(ev, inp, e))
            if _spec(e).persistent:
                persistent.append((i, _persistent_job(host, e, ev, inp, data)))
            else:
                oneshot.append((i, spawn_request(host, e, inp, data)))
        completed, answers = _drive(
            host, [s for _, s in oneshot], [j for _, j in persistent], during
        )
        results: list[HookOutcome | None] = [None] * len(entries)
        for (i, _), c in zip(oneshot, completed, strict=True):
            results[i] = command_outcome(entries[i], ev, c, inp, host.output_cap)
        for (i, _), a in zip(persistent, answers, strict=True):
            o = command_outcome(entries[i], ev, a.completed, inp, host.output_cap, a.protocol_error)
            o.notes.extend(a.notes)
            results[i] = o
        return _every(entries, results)

    async def run_async(
        self, firing: Firing, entries: Sequence[HookEntry], inp: dict[str, Any]
    ) -> list[HookOutcome]:
        """:meth:`run` on a thread of its own (the processes are driven from there)."""
        from hookwise.runners._workers import in_thread

        out: list[HookOutcome] = await in_thread(self.run, firing, entries, inp)
        return out


def _every(entries: Sequence[HookEntry], results: list[HookOutcome | None]) -> list[HookOutcome]:
    """``results`` when every entry has its outcome; a missing one is a bug, never a silent drop."""
    out = [r for r in results if r is not None]
    if len(out) != len(entries):
        missing = [e.display_name for e, r in zip(entries, results, strict=True) if r is None]
        raise RuntimeError(f"internal error: no outcome for hook(s) {', '.join(missing)}")
    return out


def _drive(
    host: Host, spawns: list[_process.Spawn], jobs: list[Any], during: Callable[[], None] | None
) -> tuple[list[_process.Completed], list[Any]]:
    """Run the one-shot processes and the persistent exchanges side by side; ``during`` once all started."""
    if not jobs:
        if not spawns:
            if during is not None:
                during()
            return [], []
        return _process.run_many(spawns, during=during), []
    if not spawns:
        if during is not None:
            during()
        return [], _exchange(host, jobs)
    import threading

    box: list[Any] = []
    helper = threading.Thread(
        target=lambda: box.extend(_exchange(host, jobs)), name="hookwise-persistent", daemon=True
    )
    helper.start()
    try:
        completed = _process.run_many(spawns, during=during)
    finally:
        helper.join()
    return completed, box


def _persistent_job(
    host: Host, entry: HookEntry, ev: HookEvent, inp: Mapping[str, Any], data: bytes
) -> Any:
    from hookwise.runners.persistent import Job

    sig = (
        id(entry),
        str(inp.get("cwd", host.cwd)),
        str(inp.get("session_id", host.session_id)),
        id(host.env_for(entry)),
    )
    return Job(
        (ev.value, entry.identity, entry.source),
        sig,
        lambda: spawn_request(host, entry, inp, data),
        data,
        entry.timeout_ms / 1000.0,
        entry.display_name,
        host.output_cap,
    )


def _exchange(host: Host, jobs: list[Any]) -> list[Any]:
    """One answer per job from the host's pool; a bug in the pool is a visible not-run, never a lost outcome."""
    from hookwise.runners.persistent import Answer

    try:
        answers: list[Any] = host.persistent_pool().exchange(jobs)
    except Exception as exc:
        answers = [
            Answer(_process.Completed(spawn_error=f"internal error: {type(exc).__name__}: {exc}"))
            for _ in jobs
        ]
    return answers


#: (command, variables...) -> the words of the expanded command (trust material; at most 256 kept)
_WORDS: dict[tuple[object, ...], list[str]] = {}


class CommandKind(CommandRunner, HookKind):
    """``"type": "command"``: a shell command (docs/contract.md §5); one row of :data:`hookwise.runners.KINDS`."""

    name = "command"
    doc = "A shell command, run with bash -c in the project directory."
    spec = CommandSpec
    keys = (
        Key(
            "command",
            Text(nonempty=True),
            "Shell command (run with bash -c in the project directory). "
            "$GEMINI_PROJECT_DIR is replaced safely.",
            types=("command",),
            required=True,
            attr="command",
            missing='missing "command": the shell command to run',
        ),
        Key(
            "persistent",
            FLAG,
            "hookwise: one long-lived process answers one JSON line per event.",
            types=("command",),
            attr="persistent",
            default=False,
            claude="not a Claude Code field",
        ),
        Key(
            "shell",
            OneOf("bash", "powershell"),
            "The shell that runs the command: bash (default) or powershell "
            "(pwsh -NoProfile -Command).",
            types=("command",),
            attr="shell",
            default=None,
        ),
    )

    def make_spec(self, values: dict[str, Any]) -> KindSpec:
        return CommandSpec(**values)

    def trust_material(self, entry: HookEntry, root: str, values: Mapping[str, str]) -> Material:
        """The command (in the identity), its shell, its ``env``, and every project file the command or an
        ``env`` value names, also glued to operators and redirections (``x.sh;``, ``bash<x.sh``)."""
        from hookwise.runners.kind import command_words, env_words, named_files, search_dirs

        spec = _spec(entry)
        lines = env_lines(entry)
        if spec.shell is not None:
            lines.insert(0, ("shell", spec.shell))
        cwd = values.get("GEMINI_PROJECT_DIR", root)
        memo = (spec.command, *values.items())
        words = _WORDS.get(memo)
        if words is None:  # pure text work, the same at every firing: done once per command
            if len(_WORDS) >= 256:
                _WORDS.clear()
            words = _WORDS[memo] = command_words(expand_command(spec.command, dict(values)))
        search = search_dirs(entry.env, root, cwd)
        files = named_files([*words, *env_words(entry.env)], root, cwd, search)
        return Material(lines, files)

    def display(self, entry: HookEntry) -> tuple[str, str]:
        return ("command", _spec(entry).command)

    def from_claude(self, raw: dict[str, Any]) -> KindSpec | None:
        command = raw.get("command")
        if not isinstance(command, str) or not command.strip():
            return None
        shell = raw.get("shell")
        return CommandSpec(command, shell if isinstance(shell, str) else None)

    def to_claude(self, spec: KindSpec) -> dict[str, Any]:
        assert isinstance(spec, CommandSpec)
        out: dict[str, Any] = {"type": "command", "command": spec.command}
        if spec.shell is not None:
            out["shell"] = spec.shell
        return out
