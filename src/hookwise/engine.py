"""The hook system a host embeds: :class:`HookSystem`.

``fire()`` / ``fire_async()`` = plan (pure) → run (command hooks as processes,
Python hooks in process) → interpret each answer (pure) → merge (pure). This is
the only module that knows about concurrency: parallel command hooks are
driven from one thread by :mod:`hookwise.runners._process`; ``fire_async`` hands
that work to a worker thread. Python hooks that could block a loop run on
:mod:`hookwise.runners._workers` workers and are abandoned at their deadline.
"""

from __future__ import annotations

import inspect
import json
import os
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from hookwise.core.expand import expand_command
from hookwise.core.interpret import Interpretation, fail_closed_output, interpret, interpret_python
from hookwise.core.merge import merge
from hookwise.core.plan import Plan, Planner
from hookwise.core.registry import DEFAULT_TIMEOUT_MS, HookEntry, Registry
from hookwise.errors import HookwiseError, PayloadError
from hookwise.events import EVENT_SPECS, ChainKind, HookEvent, parse_event
from hookwise.result import FireResult, HookOutcome, Outcome
from hookwise.runners import _process as _subprocess
from hookwise.runners import _workers as _pyhooks
from hookwise.runners.env import is_strict, sanitize
from hookwise.settings.layers import user_dir
from hookwise.settings.load import LoadedSettings, load_settings
from hookwise.trust import TrustStore

PythonHook = Callable[[dict[str, Any]], "dict[str, Any] | None | Awaitable[dict[str, Any] | None]"]
Monitor = Callable[[dict[str, Any]], None]

_EVENTS: dict[str, HookEvent] = {e.value: e for e in HookEvent}
_MATCH_FIELD: dict[HookEvent, str | None] = {e: s.match_field for e, s in EVENT_SPECS.items()}

#: input fields and the JSON type each must have (checked before any hook runs)
FIELD_TYPES: dict[str, type | tuple[type, ...]] = {
    "session_id": str, "transcript_path": str, "cwd": str, "timestamp": str,
    "tool_name": str, "tool_input": dict, "tool_response": dict, "mcp_context": dict,
    "original_request_name": str, "prompt": str, "prompt_response": str, "stop_hook_active": bool,
    "llm_request": dict, "llm_response": dict, "source": str, "reason": str, "trigger": str,
    "notification_type": str, "message": str, "details": dict,
}

_TYPE_NAMES: dict[Any, str] = {str: "a string", dict: "an object", bool: "true or false"}


def _now_iso() -> str:
    """The current UTC time as ``2025-01-31T12:34:56.789Z`` (no datetime import: CLI start-up stays fast)."""
    ns = time.time_ns()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ns // 1_000_000_000)) + f".{ns // 1_000_000 % 1000:03d}Z"


def _uuid4() -> str:
    """A random (version 4) UUID string, without importing :mod:`uuid`."""
    b = bytearray(os.urandom(16))
    b[6] = (b[6] & 0x0F) | 0x40
    b[8] = (b[8] & 0x3F) | 0x80
    h = b.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _encode(obj: Any) -> bytes:
    try:
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8",
                                                                                                "surrogatepass")
    except ValueError as exc:
        raise PayloadError(f"the event input cannot be sent as JSON: {exc} (NaN and Infinity are not JSON)") from None
    except TypeError as exc:
        raise PayloadError(f"the event input cannot be sent as JSON: {exc}") from None


_POOL_LOCK = threading.Lock()  # creating a HookSystem's persistent-hook pool


class _TraceWriter:
    """Appends one JSON object per line; each line is a single ``write`` under a lock."""

    def __init__(self, path: str) -> None:
        self.path = os.fspath(path)
        self._lock = threading.Lock()
        # fail now, with the path, rather than after the first hooks ran (checked without creating the file)
        parent = os.path.dirname(os.path.abspath(self.path))
        if os.path.isdir(self.path):
            raise HookwiseError(f"trace file {self.path} is a directory")
        if not os.path.isdir(parent):
            raise HookwiseError(f"trace file {self.path}: directory {parent} does not exist")
        if not os.access(self.path if os.path.exists(self.path) else parent, os.W_OK):
            raise HookwiseError(f"trace file {self.path}: permission denied")

    def write(self, record: dict[str, Any]) -> None:
        line = (json.dumps(record, ensure_ascii=False, default=str) + "\n").encode("utf-8", "surrogatepass")
        with self._lock:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                view = memoryview(line)
                while view:
                    n = os.write(fd, view)
                    view = view[n:]
            finally:
                os.close(fd)


class HookSystem:
    """Every configured hook of a project, ready to fire.

    :param project_dir: the project (default: the current directory). Hooks run
        there, ``$GEMINI_PROJECT_DIR`` is it, and ``<project>/.gemini/settings.json``
        is the project settings layer.
    :param trace: a file to append one JSON line per hook call to (CONTRACT §10).
    :param trust_all: trust every project/extension hook; ``None`` reads
        ``HOOKWISE_TRUST_ALL=1`` from the environment.
    :param env: the environment used to find the settings layers and given to
        hooks (default ``os.environ`` at construction).
    :param claude_settings: also load hooks from ``.claude/`` settings (``None``:
        as ``hooksConfig.claudeSettings`` says).
    :param cwd: the ``cwd`` field of inputs (default: the project dir).
    """

    def __init__(self, project_dir: str | os.PathLike[str] | None = None, *,
                 trace: str | os.PathLike[str] | None = None,
                 trust_all: bool | None = None, session_id: str | None = None, transcript_path: str = "",
                 env: Mapping[str, str] | None = None, claude_settings: bool | None = None,
                 cwd: str | os.PathLike[str] | None = None, output_cap: int = _subprocess.DEFAULT_CAP) -> None:
        self.project_dir = os.path.abspath(os.fspath(project_dir) if project_dir is not None else os.getcwd())
        self.cwd = os.path.abspath(os.fspath(cwd)) if cwd is not None else self.project_dir
        self.env: dict[str, str] = dict(os.environ if env is None else env)
        self.session_id = session_id or _uuid4()
        self.transcript_path = transcript_path
        self.trust_all = (self.env.get("HOOKWISE_TRUST_ALL") == "1") if trust_all is None else trust_all
        self.output_cap = output_cap
        self._claude_settings = claude_settings
        self._runtime: list[HookEntry] = []
        self._monitors: list[Monitor] = []
        self._trace = _TraceWriter(os.fspath(trace)) if trace is not None else None
        self.trust_store = TrustStore(user_dir(self.env), self.project_dir)
        self.settings: LoadedSettings
        self.warnings: list[str] = []
        self.reload()

    # ---- configuration ---------------------------------------------------------------------
    def reload(self) -> None:
        """Re-read every settings layer (runtime hooks are kept; persistent hooks restart when next fired)."""
        self.close()
        loaded = load_settings(self.project_dir, self.env, self._claude_settings)
        self.settings = loaded
        self.warnings = list(loaded.warnings)
        self._registry = Registry([*self._runtime, *loaded.entries])
        self._planner = Planner(self._registry.for_event)
        red = loaded.redaction
        sanitized = sanitize(self.env, red.allowed, red.blocked, is_strict(self.env))
        self._env_trusted = sanitized if red.enabled_for_trusted else self.env
        self._env_untrusted = sanitized if red.enabled_for_untrusted else self.env

    @property
    def entries(self) -> list[HookEntry]:
        """Every configured hook, disabled ones included, runtime hooks first."""
        return list(self._registry.all)

    def register(self, event: str | HookEvent, func: PythonHook, *, name: str, matcher: str | None = None,
                 timeout_ms: int = DEFAULT_TIMEOUT_MS, sequential: bool = False) -> HookEntry:
        """Register an in-process Python hook (source ``runtime``). Returns its entry (for :meth:`unregister`).

        ``func(input)`` gets the same input dict a command hook reads on stdin and
        returns the same answer as a dict, or None for no opinion; it may be a
        coroutine function. An exception makes the outcome ``failed``. Coroutine
        functions (and every hook fired through :meth:`fire_async`) run on a
        worker thread with its own loop: at the timeout the firing goes on with
        outcome ``timeout``, even if the hook blocks its loop (docs/reliability.md).
        A plain function fired through :meth:`fire` runs inline (the fast path) and
        cannot be interrupted: one that overruns has its answer discarded.
        """
        ev = parse_event(event)
        if not callable(func):
            raise TypeError(f"hook {name!r}: func must be callable")
        if not name:
            raise ValueError("a Python hook needs a name")
        entry = HookEntry(event=ev, name=name, type="python", matcher=matcher, sequential=sequential,
                          timeout_ms=int(timeout_ms), source="runtime", func=func)
        self._runtime.append(entry)
        self._registry.add(entry)
        self._planner.invalidate()
        return entry

    def hook(self, event: str | HookEvent, *, name: str | None = None, matcher: str | None = None,
             timeout_ms: int = DEFAULT_TIMEOUT_MS, sequential: bool = False) -> Callable[[PythonHook], PythonHook]:
        """Decorator form of :meth:`register` (the name defaults to the function's name)."""

        def deco(func: PythonHook) -> PythonHook:
            self.register(event, func, name=name or str(getattr(func, "__name__", "python-hook")), matcher=matcher,
                          timeout_ms=timeout_ms, sequential=sequential)
            return func

        return deco

    def unregister(self, entry: HookEntry) -> None:
        self._runtime = [e for e in self._runtime if e is not entry]
        self._registry.remove(entry)
        self._planner.invalidate()

    # ---- trust -----------------------------------------------------------------------------
    def is_trusted(self, entry: HookEntry) -> bool:
        return self.trust_all or not entry.needs_trust or self.trust_store.is_trusted(entry)

    def untrusted(self) -> list[HookEntry]:
        """Enabled project/extension hooks that would be skipped (de-duplicated by identity)."""
        seen: set[str] = set()
        out = []
        for e in self._registry.all:
            if e.needs_trust and e.identity not in seen and not self.trust_store.is_trusted(e):
                seen.add(e.identity)
                out.append(e)
        return out

    def trust(self, entries: Iterable[HookEntry]) -> list[HookEntry]:
        """Record ``entries`` as trusted; returns the ones that were not trusted before."""
        return self.trust_store.trust(entries)

    def has_hooks(self, event: str | HookEvent, value: str | None = None) -> bool:
        """Would firing ``event`` (with ``value`` for its matcher field) run any hook? Cheap (plan cache);
        hosts use it to skip building an expensive input when nothing listens."""
        ev = _EVENTS.get(event) if isinstance(event, str) else event  # type: ignore[call-overload]
        if ev is None:
            ev = parse_event(event)
        return bool(self._planner.plan(ev, value))

    # ---- monitoring ------------------------------------------------------------------------
    def add_monitor(self, callback: Monitor) -> Callable[[], None]:
        """Call ``callback(record)`` for every trace record; returns a function that removes it."""
        self._monitors.append(callback)

        def remove() -> None:
            if callback in self._monitors:
                self._monitors.remove(callback)

        return remove

    def trace_record(self, record: dict[str, Any]) -> None:
        """Append a record (``hook_call``, ``tool_call``, ``model_call``…) to the trace and the monitors."""
        if self._trace is not None:
            self._trace.write(record)
        for m in list(self._monitors):
            m(record)

    # ---- firing ----------------------------------------------------------------------------
    def _prepare(self, event: str | HookEvent, payload: Mapping[str, Any] | None,
                 fields: dict[str, Any]) -> tuple[HookEvent, dict[str, Any], Plan]:
        ev = _EVENTS.get(event) if isinstance(event, str) else None  # type: ignore[call-overload]
        if ev is None:
            ev = parse_event(event)
        if payload is None:
            data = fields
        elif isinstance(payload, Mapping):
            data = {**payload, **fields} if fields else dict(payload)
        else:
            raise PayloadError(f"the event input must be a JSON object, got {type(payload).__name__}")
        mf = _MATCH_FIELD[ev]
        value = data.get(mf) if mf is not None else None
        plan = self._planner.plan(ev, value if isinstance(value, str) else None)
        return ev, data, plan

    def build_input(self, event: HookEvent, data: Mapping[str, Any]) -> dict[str, Any]:
        """The full input of a firing: base fields filled in, ``None`` values dropped, types checked."""
        inp: dict[str, Any] = {"session_id": self.session_id, "transcript_path": self.transcript_path,
                               "cwd": self.cwd, "hook_event_name": event.value, "timestamp": _now_iso()}
        for k, v in data.items():
            if v is None:
                continue
            want = FIELD_TYPES.get(k)
            if want is not None and (not isinstance(v, want) or (want is not bool and isinstance(v, bool))):
                raise PayloadError(f"input field {k!r} must be {_TYPE_NAMES.get(want, want)}, "
                                   f"got {type(v).__name__}")
            inp[k] = v
        inp["hook_event_name"] = event.value
        return inp

    def fire(self, event: str | HookEvent, payload: Mapping[str, Any] | None = None, /,
             **fields: Any) -> FireResult:
        """Fire ``event`` with ``payload``/``fields`` as its input; block until every hook has answered."""
        ev, data, plan = self._prepare(event, payload, fields)
        if not plan:
            return FireResult(ev, data)
        inp = self.build_input(ev, data)
        outcomes = self._run_sequential(ev, inp, plan) if plan.sequential else self._run_parallel(ev, inp, plan)
        return self._result(ev, inp, outcomes)

    def run_entry(self, entry: HookEntry, payload: Mapping[str, Any] | None = None, /,
                  **fields: Any) -> HookOutcome:
        """Run one configured hook on an input, outside planning (for diagnostics and tests).

        The input is completed like a firing's; trust still applies (an untrusted
        project hook comes back ``skipped``). The hook's own answer is returned as
        its :class:`HookOutcome`; nothing is merged.
        """
        data = {**(payload or {}), **fields}
        inp = self.build_input(entry.event, data)
        if entry.type == "python":
            return self._python_sync(entry, entry.event, inp)
        return self._run_commands(entry.event, [entry], inp)[0]

    async def fire_async(self, event: str | HookEvent, payload: Mapping[str, Any] | None = None, /,
                         **fields: Any) -> FireResult:
        """Like :meth:`fire`, for asyncio hosts: processes are driven in a worker thread."""
        import asyncio
        ev, data, plan = self._prepare(event, payload, fields)
        if not plan:
            return FireResult(ev, data)
        inp = self.build_input(ev, data)
        if plan.sequential:
            outcomes: list[HookOutcome] = []
            cur = inp
            for entry in plan.entries:
                if entry.type == "python":
                    o = await self._python_async(entry, ev, cur)
                else:
                    o = (await _pyhooks.in_thread(self._run_commands, ev, [entry], cur))[0]
                outcomes.append(o)
                cur = self._chain(ev, cur, o)
        else:
            py = [e for e in plan.entries if e.type == "python"]
            cmds = [e for e in plan.entries if e.type != "python"]
            cmd_task = asyncio.ensure_future(_pyhooks.in_thread(self._run_commands, ev, cmds, inp)) if cmds else None
            py_out = list(await asyncio.gather(*(self._python_async(e, ev, inp) for e in py)))
            cmd_out = list(await cmd_task) if cmd_task is not None else []
            by_id = {id(e): o for e, o in zip(py, py_out)}
            by_id.update({id(e): o for e, o in zip(cmds, cmd_out)})
            outcomes = [by_id[id(e)] for e in plan.entries]
        return self._result(ev, inp, outcomes)

    # ---- running ---------------------------------------------------------------------------
    def _run_sequential(self, ev: HookEvent, inp: dict[str, Any], plan: Plan) -> list[HookOutcome]:
        outcomes = []
        cur = inp
        for entry in plan.entries:
            if entry.type == "python":
                o = self._python_sync(entry, ev, cur)
            else:
                o = self._run_commands(ev, [entry], cur)[0]
            outcomes.append(o)
            cur = self._chain(ev, cur, o)
        return outcomes

    def _run_parallel(self, ev: HookEvent, inp: dict[str, Any], plan: Plan) -> list[HookOutcome]:
        py = [e for e in plan.entries if e.type == "python"]
        cmds = [e for e in plan.entries if e.type != "python"]
        py_out: list[HookOutcome] = []

        def run_python() -> None:
            py_out.extend(self._python_sync(e, ev, inp) for e in py)

        cmd_out = self._run_commands(ev, cmds, inp, during=run_python) if cmds else []
        if not cmds:
            run_python()
        if not py:
            return cmd_out
        if not cmds:
            return py_out
        by_id = {id(e): o for e, o in zip(py, py_out)}
        by_id.update({id(e): o for e, o in zip(cmds, cmd_out)})
        return [by_id[id(e)] for e in plan.entries]

    def _chain(self, ev: HookEvent, cur: dict[str, Any], o: HookOutcome) -> dict[str, Any]:
        """The input the next hook of a sequential chain sees (CONTRACT §4)."""
        if o.outcome is not Outcome.OK or not o.output:
            return cur
        kind = EVENT_SPECS[ev].chain
        if kind is ChainKind.NONE:
            return cur
        hso = o.output.get("hookSpecificOutput")
        if not isinstance(hso, dict):
            return cur
        if kind is ChainKind.PROMPT_CONTEXT:
            ctx = hso.get("additionalContext")
            if isinstance(ctx, str) and ctx:
                return {**cur, "prompt": f"{cur.get('prompt', '')}\n\n{ctx}"}
        elif kind is ChainKind.LLM_REQUEST:
            req = hso.get("llm_request")
            if isinstance(req, dict):
                base = cur.get("llm_request")
                return {**cur, "llm_request": {**(base if isinstance(base, dict) else {}), **req}}
        elif kind is ChainKind.TOOL_INPUT:
            ti = hso.get("tool_input")
            if isinstance(ti, dict):
                base = cur.get("tool_input")
                return {**cur, "tool_input": {**(base if isinstance(base, dict) else {}), **ti}}
        return cur

    def _skipped(self, entry: HookEntry, ev: HookEvent) -> HookOutcome:
        where = entry.file or entry.source
        return HookOutcome(
            name=entry.display_name, command=entry.command, source=entry.source, event=ev.value,
            outcome=Outcome.SKIPPED, hook_type=entry.type,
            error=f"not trusted: {entry.source} hook from {where} has not been approved (run `hookwise trust`)",
        )

    def _hook_vars(self, inp: Mapping[str, Any]) -> dict[str, str]:
        """The variables a hook sees both in its command text and in its environment (CONTRACT §5)."""
        return {
            "GEMINI_PROJECT_DIR": self.project_dir,
            "GEMINI_CWD": str(inp.get("cwd", self.cwd)),
            "GEMINI_SESSION_ID": str(inp.get("session_id", self.session_id)),
            "CLAUDE_PROJECT_DIR": self.project_dir,
        }

    def _child_env(self, entry: HookEntry, inp: Mapping[str, Any],
                   hook_vars: dict[str, str] | None = None) -> dict[str, str]:
        base = self._env_untrusted if entry.sanitized_env else self._env_trusted
        return {**base, **(hook_vars or self._hook_vars(inp)), **entry.env}

    def _argv(self, entry: HookEntry, inp: Mapping[str, Any], hook_vars: dict[str, str] | None = None) -> list[str]:
        return ["bash", "-c", expand_command(entry.command, hook_vars or self._hook_vars(inp))]

    #: run a command without ``bash -c`` when bash would only exec it (see :mod:`hookwise.runners._direct`)
    direct_spawn: bool = True

    def _spawn(self, entry: HookEntry, inp: Mapping[str, Any], data: bytes) -> _subprocess.Spawn:
        """The process request for a command hook: direct exec when that is identical to ``bash -c``."""
        hook_vars = self._hook_vars(inp)
        argv = self._argv(entry, inp, hook_vars)
        env = self._child_env(entry, inp, hook_vars)
        timeout = entry.timeout_ms / 1000.0
        if self.direct_spawn:
            from hookwise.runners import _direct

            denv = dict(env)
            direct = _direct.plan(argv[2], denv, self.project_dir)
            if direct is not None:
                fallback = _subprocess.Spawn(argv, self.project_dir, env, data, timeout, self.output_cap)
                return _subprocess.Spawn(direct[0], self.project_dir, denv, data, timeout, self.output_cap,
                                         executable=direct[1], fallback=fallback)
        return _subprocess.Spawn(argv, self.project_dir, env, data, timeout, self.output_cap)

    _pool: Any = None  # hookwise.runners.persistent.PersistentPool, created on first use

    def _persistent_job(self, entry: HookEntry, ev: HookEvent, inp: Mapping[str, Any], data: bytes) -> Any:
        from hookwise.runners.persistent import Job

        sig = (id(entry), str(inp.get("cwd", self.cwd)), str(inp.get("session_id", self.session_id)),
               id(self._env_trusted), id(self._env_untrusted))
        return Job((ev.value, entry.identity, entry.source), sig, lambda: self._spawn(entry, inp, data), data,
                   entry.timeout_ms / 1000.0, entry.display_name, self.output_cap)

    def _run_persistent(self, ev: HookEvent, entries: list[HookEntry], jobs: list[Any],
                        inp: Mapping[str, Any] | None = None) -> list[HookOutcome]:
        from hookwise.runners.persistent import Answer, PersistentPool

        with _POOL_LOCK:
            pool = self._pool
            if pool is None:
                import weakref

                pool = self._pool = PersistentPool()
                weakref.finalize(self, pool.close)
        try:
            answers = pool.exchange(jobs)
        except Exception as exc:  # never drop a hook's outcome: a bug here is a visible not-run
            answers = [Answer(_subprocess.Completed(spawn_error=f"internal error: {type(exc).__name__}: {exc}"))
                       for _ in jobs]
        out = []
        for e, a in zip(entries, answers):
            if a.protocol_error is not None:
                c = a.completed
                o = self._finish(e, ev, Interpretation(Outcome.FAILED, None, a.protocol_error), None, c.duration_ms,
                                 c.stdout.decode("utf-8", "replace"), c.stderr.decode("utf-8", "replace"),
                                 c.stdout_truncated or c.stderr_truncated)
            else:
                o = self._command_outcome(e, ev, a.completed, inp)
            o.notes.extend(a.notes)
            out.append(o)
        return out

    def close(self) -> None:
        """Stop the processes of persistent hooks (idempotent; the next firing starts them again)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()

    def __enter__(self) -> HookSystem:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def after_model_per_response(self) -> bool:
        """``hooksConfig.afterModel: "response"``: hosts fire AfterModel once per complete response."""
        return self.settings.hooks_config.get("afterModel") == "response"

    def _run_commands(self, ev: HookEvent, entries: list[HookEntry], inp: dict[str, Any],
                      during: Callable[[], None] | None = None) -> list[HookOutcome]:
        """Run command hooks concurrently with the same input; ``during`` runs once they have started."""
        results: list[HookOutcome | None] = [None] * len(entries)
        requests: list[_subprocess.Spawn] = []
        index: list[int] = []
        pjobs: list[Any] = []
        pindex: list[int] = []
        payload: bytes | None = None
        claude_payloads: dict[str | None, bytes] = {}
        for i, e in enumerate(entries):
            if not self.is_trusted(e):
                results[i] = self._skipped(e, ev)
                continue
            if e.dialect == "claude":
                claude_event = e.extra.get("claude_event")
                if claude_event not in claude_payloads:
                    from hookwise.claude.dialect import to_claude_input

                    claude_payloads[claude_event] = _encode(to_claude_input(ev, inp, claude_event=claude_event))
                data = claude_payloads[claude_event]
            else:
                if payload is None:
                    payload = _encode(inp)
                data = payload
            if e.persistent:
                pjobs.append(self._persistent_job(e, ev, inp, data))
                pindex.append(i)
                continue
            requests.append(self._spawn(e, inp, data))
            index.append(i)
        if pjobs:  # persistent hooks: alongside the one-shot processes (in a helper thread), or right here
            pentries = [entries[i] for i in pindex]
            if requests:
                box: list[HookOutcome] = []
                helper = threading.Thread(target=lambda: box.extend(self._run_persistent(ev, pentries, pjobs, inp)),
                                          name="hookwise-persistent", daemon=True)
                helper.start()
                try:
                    completed = _subprocess.run_many(requests, during=during)
                finally:
                    helper.join()
                pout = box
            else:
                if during is not None:
                    during()
                pout = self._run_persistent(ev, pentries, pjobs, inp)
                completed = []
            for i, o in zip(pindex, pout):
                results[i] = o
        else:
            completed = _subprocess.run_many(requests, during=during) if requests else []
            if not requests and during is not None:
                during()
        for i, c in zip(index, completed):
            results[i] = self._command_outcome(entries[i], ev, c, inp)
        return [r for r in results if r is not None]

    def _command_outcome(self, entry: HookEntry, ev: HookEvent, c: _subprocess.Completed,
                         inp: Mapping[str, Any] | None = None) -> HookOutcome:
        stdout = c.stdout.decode("utf-8", "replace")
        stderr = c.stderr.decode("utf-8", "replace")
        name = entry.display_name
        it = interpret(name, exit_code=c.returncode, signal=c.signal, stdout=stdout, stderr=stderr,
                       timed_out=c.timed_out, timeout_ms=entry.timeout_ms, spawn_error=c.spawn_error)
        if it.outcome in (Outcome.OK, Outcome.FAILED) and (c.stdout_truncated or (c.stderr_truncated
                                                                                 and not stdout.strip())):
            # a cut-off answer is not the hook's answer: never read a prefix as text (an allow) or JSON
            it = Interpretation(Outcome.FAILED, None, f"its output passed the {self.output_cap}-byte cap and was "
                                                      "cut off; the answer was ignored")
        output = it.output
        if output is not None:
            if it.is_json:
                output = _normalize(ev, output, entry.dialect, inp)
            elif entry.dialect == "claude" and c.returncode == 0 and it.outcome is Outcome.OK:
                from hookwise.claude.dialect import text_output

                mapped = text_output(ev, stdout.strip(), entry.dialect)
                if mapped is not None:
                    output = mapped
        return self._finish(entry, ev, Interpretation(it.outcome, output, it.error), c.returncode, c.duration_ms,
                            stdout, stderr, c.stdout_truncated or c.stderr_truncated)

    def _finish(self, entry: HookEntry, ev: HookEvent, it: Interpretation, exit_code: int | None,
                duration_ms: float, stdout: str = "", stderr: str = "", truncated: bool = False) -> HookOutcome:
        output = it.output
        if entry.fail_closed and it.outcome in (Outcome.FAILED, Outcome.NOT_RUN, Outcome.TIMEOUT):
            output = fail_closed_output(entry.display_name, it.outcome, it.error, output)
        return HookOutcome(
            name=entry.display_name, command=entry.command, source=entry.source, event=ev.value,
            outcome=it.outcome, hook_type=entry.type, exit_code=exit_code, duration_ms=duration_ms, output=output,
            stdout=stdout, stderr=stderr, error=it.error, truncated=truncated,
        )

    def _python_sync(self, entry: HookEntry, ev: HookEvent, inp: dict[str, Any]) -> HookOutcome:
        func = entry.func
        assert func is not None
        t0 = time.perf_counter()
        try:
            if _pyhooks.is_async(func):  # may block a loop: on a worker, abandoned at the deadline
                value = _pyhooks.call(func, inp, entry.timeout_ms / 1000.0)
            else:  # the fast path: inline on the caller's thread
                value = func(inp)
                if inspect.isawaitable(value):
                    value = _pyhooks.call(None, None, entry.timeout_ms / 1000.0, awaitable=value)
        except _pyhooks.HookTimeout as exc:
            return self._finish(entry, ev, Interpretation(Outcome.TIMEOUT, None, _pyhooks.timeout_text(
                entry.timeout_ms, exc)), None, (time.perf_counter() - t0) * 1000)
        except Exception as exc:  # a hook's bug is its outcome, not ours
            return self._finish(entry, ev, Interpretation(Outcome.FAILED, None,
                                                          f"raised {type(exc).__name__}: {exc}"),
                                None, (time.perf_counter() - t0) * 1000)
        elapsed = (time.perf_counter() - t0) * 1000
        if elapsed > entry.timeout_ms:
            return self._finish(entry, ev, Interpretation(
                Outcome.TIMEOUT, None, f"took {elapsed:.0f} ms, over its timeout of {entry.timeout_ms} ms "
                                       "(its answer was discarded)"), None, elapsed)
        return self._finish(entry, ev, interpret_python(entry.display_name, value), None, elapsed)

    async def _python_async(self, entry: HookEntry, ev: HookEvent, inp: dict[str, Any]) -> HookOutcome:
        func = entry.func
        assert func is not None
        t0 = time.perf_counter()
        timeout = entry.timeout_ms / 1000.0
        try:  # on a worker, never on the caller's loop: a hook that blocks cannot stall the host
            value = await _pyhooks.call_async(func, inp, timeout)
        except _pyhooks.HookTimeout as exc:
            return self._finish(entry, ev, Interpretation(Outcome.TIMEOUT, None, _pyhooks.timeout_text(
                entry.timeout_ms, exc)), None, (time.perf_counter() - t0) * 1000)
        except Exception as exc:
            return self._finish(entry, ev, Interpretation(Outcome.FAILED, None,
                                                          f"raised {type(exc).__name__}: {exc}"),
                                None, (time.perf_counter() - t0) * 1000)
        elapsed = (time.perf_counter() - t0) * 1000
        if elapsed > entry.timeout_ms:
            return self._finish(entry, ev, Interpretation(
                Outcome.TIMEOUT, None, f"took {elapsed:.0f} ms, over its timeout of {entry.timeout_ms} ms "
                                       "(its answer was discarded)"), None, elapsed)
        return self._finish(entry, ev, interpret_python(entry.display_name, value), None, elapsed)

    # ---- result ----------------------------------------------------------------------------
    def _result(self, ev: HookEvent, inp: dict[str, Any], outcomes: list[HookOutcome]) -> FireResult:
        outputs = [o.output for o in outcomes if o.output]
        merged = merge(ev, outputs, inp)
        warnings = []
        for o in outcomes:
            w = outcome_warning(o)
            if w:
                warnings.append(w)
            warnings.extend(f"{n} ({ev.value})" for n in o.notes)
            if o.truncated:
                cap = f"{self.output_cap // (1 << 20)} MiB" if self.output_cap % (1 << 20) == 0 else \
                    f"{self.output_cap} bytes"
                warnings.append(f"output of hook {o.name} ({ev.value}) truncated at {cap}")
        result = FireResult(ev, inp, merged, outcomes, warnings)
        if self._trace is not None or self._monitors:
            for o in outcomes:
                try:
                    self.trace_record(hook_call_record(inp, o))
                except Exception as exc:  # the verdict must survive a broken trace file or monitor
                    result.warnings.append(f"could not record hook {o.name} ({ev.value}) in the trace: "
                                           f"{type(exc).__name__}: {exc}")
                    break
        return result


_CLAUDE_ANSWER_KEYS = ("permissionDecision", "permissionDecisionReason", "updatedInput")


def _normalize(ev: HookEvent, output: dict[str, Any], dialect: str | None,
               inp: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Claude-style answers are understood from any hook; the mapping module loads only when needed."""
    if dialect is None and output.get("decision") != "approve":
        hso = output.get("hookSpecificOutput")
        if not any(k in output for k in _CLAUDE_ANSWER_KEYS) and not (
                isinstance(hso, dict) and any(k in hso for k in _CLAUDE_ANSWER_KEYS)):
            return output
    from hookwise.claude.dialect import normalize_output

    return normalize_output(ev, output, dialect, payload=inp)


def outcome_warning(o: HookOutcome) -> str | None:
    """The one warning an outcome other than ``ok``/``blocked`` produces (CONTRACT §6)."""
    if o.outcome is Outcome.FAILED:
        return f"hook {o.name} ({o.event}) failed: {o.error}"
    if o.outcome is Outcome.NOT_RUN:
        return f"hook {o.name} ({o.event}) did not run: {o.error}"
    if o.outcome is Outcome.TIMEOUT:
        return f"hook {o.name} ({o.event}) {o.error}"
    if o.outcome is Outcome.SKIPPED:
        return f"hook {o.name} ({o.event}) was skipped: {o.error}"
    return None


def hook_call_record(inp: dict[str, Any], o: HookOutcome) -> dict[str, Any]:
    """The ``hook_call`` trace record of CONTRACT §10."""
    return {
        "type": "hook_call",
        "hook_event_name": o.event,
        "hook_name": o.name,
        "hook_type": o.hook_type,
        "source": o.source,
        "hook_input": inp,
        "hook_output": o.output,
        "exit_code": o.exit_code,
        "stdout": o.stdout,
        "stderr": o.stderr,
        "duration_ms": round(o.duration_ms, 3),
        "success": o.outcome is Outcome.OK,
        "outcome": o.outcome.value,
        "error": o.error,
    }

