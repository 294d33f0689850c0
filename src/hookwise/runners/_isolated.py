"""``"isolate": true`` python hooks: the function runs in a child process (docs/hook-types.md).

In process, a hook that calls ``os._exit`` ends the host, and one stuck in C code
that holds the GIL cannot be abandoned. Isolated, the function is called in
``python -m hookwise.runners._isolated``, started by the one process driver
(:mod:`hookwise.runners._process`): it gets the environment a command hook of the
same source gets, its whole process group is killed at the timeout, and its
answer is read by the command table (docs/contract.md §6): it prints the
function's answer as JSON and exits 0; a raised exception is exit 1 with the
error on stderr (``failed``); :class:`hookwise.Block` is exit 2 (``blocked``).
The child loads the function as the in-process runner does (from source, with
the project or extension directory searched for the hook's own modules only).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from hookwise.core.interpret import Interpretation, interpret
from hookwise.core.registry import HookEntry
from hookwise.result import HookOutcome
from hookwise.runners.base import Firing, check_answer, finish


def run(
    firing: Firing, entry: HookEntry, inp: dict[str, Any], d: Any, root: str | None
) -> HookOutcome:
    """Call the hook's function in a child process (its own modules looked up in ``root``); its outcome as
    for a command hook."""
    from hookwise.runners import _process
    from hookwise.runners.command import child_env, hook_vars

    host = firing.host
    request = {"callable": entry.spec.target, "root": root, "input": inp}
    env = child_env(host, entry, hook_vars(host, inp))
    spawn = _process.Spawn(
        [sys.executable, "-m", "hookwise.runners._isolated"],
        host.project_dir,
        env,
        json.dumps(request).encode("utf-8", "surrogatepass"),
        entry.timeout_ms / 1000.0,
        host.output_cap,
        executable=sys.executable,
    )
    c = _process.run_one(spawn)
    stdout = c.stdout.decode("utf-8", "replace")
    stderr = c.stderr.decode("utf-8", "replace")
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
    if d is not None and it.output is not None and it.is_json:
        it = Interpretation(it.outcome, d.normalize_output(firing.event, it.output, inp), it.error)
    o = finish(entry, firing.event, it, c.returncode, c.duration_ms, stdout, stderr)
    return check_answer(o, firing.event, entry, inp)


def _call(request: dict[str, Any]) -> int:
    """The child: load, call, print the answer; the exit code says how it went."""
    from hookwise.runners import callable as _callable

    func, why = _callable.load(str(request.get("callable", "")), request.get("root"))
    if func is None:
        print(why, file=sys.stderr)
        return 1
    try:
        value = func(request.get("input"))
        import inspect

        if inspect.isawaitable(value):
            import asyncio

            value = asyncio.run(_await(value))
    except BaseException as exc:  # noqa: BLE001 - everything the hook raises is its outcome
        authoring = sys.modules.get("hookwise.authoring")
        if authoring is not None and isinstance(exc, authoring.Block):
            print(json.dumps({"decision": "deny", "reason": exc.reason or ""}))
            return 2
        print(f"raised {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    if value is not None:
        try:
            print(json.dumps(value, allow_nan=False))
        except (TypeError, ValueError) as exc:
            print(f"returned a value that is not JSON-serialisable: {exc}", file=sys.stderr)
            return 1
    return 0


async def _await(aw: Any) -> Any:
    return await aw


def main() -> int:
    sys.dont_write_bytecode = True
    return _call(json.loads(sys.stdin.buffer.read().decode("utf-8", "surrogatepass")))


if __name__ == "__main__":
    sys.stdout.flush()
    code = main()
    sys.stdout.flush()
    import os

    os._exit(code)  # never run the hook's atexit handlers or wait for its threads


def import_root(firing: Firing, entry: HookEntry) -> str | None:
    """The directory a settings hook's own module is looked up in (project or extension), else None."""
    return entry.module_dir(firing.host.project_dir)
