#!/usr/bin/env python3
"""Start-up of ``hookwise fire`` as a whole process, side by side with its floor.

The floor is what any Python tool that runs one hook must pay: ``python -c pass``
plus one raw spawn of the hook's program (``true``). The measured process is
``hookwise fire BeforeAgent --json`` in two temporary projects: one whose only hook
is a user hook running ``true``, and one whose only hook is a trusted project hook
(a project script whose ``#!`` names ``true``, approved with ``hookwise trust --all``;
each firing checks its trust). Each variant runs N times (interleaved, so a noisy neighbour hurts all
of them alike); wall time is taken around ``posix_spawn`` + ``os.wait4``, and
the children's CPU time comes from ``wait4``'s rusage.

    python bench/startup.py            # N=40
    BENCH_N=100 python bench/startup.py
    BENCH_PYTHONPATH=other-checkout/src python bench/startup.py   # the same for another checkout

Prints the median wall and CPU milliseconds of each variant and the ratios of
both ``hookwise fire`` rows to the floor (target: at most 2.0 each). On a busy machine the CPU
ratio is the steadier of the two.

One more row splits the program's time: the imports of the firing path alone
(no settings read, no hook run), ending with ``os._exit`` as a plain ``fire``
does. It minus ``python -c pass`` is the modules a firing loads (hookwise's and
the few of the standard library they need); ``hookwise fire`` minus it and the
spawn of ``true`` is the firing itself. A last row, ``import json, re``, shows
what the firing path does not load (hookwise.jsonc.codec drives json's C code).
Never used by the test-suite.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from functools import partial

from _spawn_timing import interleaved, spawn  # bench/_spawn_timing.py (the scripts' own directory)

#: what a ``hookwise fire`` imports (the program's module, the fire command, the engine, hook package discovery,
#: direct exec), without reading settings or running a hook
_FIRING_IMPORTS = (
    "import os, hookwise.cli.main, hookwise.cli.fire, hookwise.engine, "
    "hookwise.settings.packages, hookwise.runners._direct; os._exit(0)"
)


def _setup(tmp: str, true: str, where: str) -> tuple[dict[str, str], str]:
    """A project and a home whose one hook runs ``true``: a user hook, or a trusted project hook.

    The project hook is a script of the project (``#!`` naming ``true``, so its process is the same one
    spawn as the floor's) that ``hookwise trust --all`` approved: each firing checks its trust key
    (the trust store read, the script hashed or its cached signature checked)."""
    project = os.path.join(tmp, where, "project")
    home = os.path.join(tmp, where, "home")
    os.makedirs(os.path.join(project, ".gemini", "hooks"))
    os.makedirs(os.path.join(home, ".gemini"))
    command = "true"
    if where == "project":
        hook_file = os.path.join(project, ".gemini", "hooks", "check.sh")
        with open(hook_file, "w") as f:
            f.write(f"#!{true}\n")
        os.chmod(hook_file, 0o755)
        command = '"$GEMINI_PROJECT_DIR"/.gemini/hooks/check.sh'
    hooks = {"hooks": {"BeforeAgent": [{"hooks": [{"type": "command", "command": command}]}]}}
    settings = os.path.join(home if where == "user" else project, ".gemini", "settings.json")
    with open(settings, "w") as f:
        json.dump(hooks, f)
    env = {
        "PATH": os.path.dirname(true) + ":/usr/bin:/bin",
        "HOME": home,
        "GEMINI_CLI_HOME": home,
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": os.path.join(tmp, "none.json"),
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": os.path.join(tmp, "none.json"),
        "LANG": "C.UTF-8",
    }
    if os.environ.get("BENCH_PYTHONPATH"):  # time another checkout's src/ with the same interpreter
        env["PYTHONPATH"] = os.environ["BENCH_PYTHONPATH"]
    if where == "project":
        import subprocess

        subprocess.run(
            [sys.executable, "-m", "hookwise", "trust", "--all"],
            env=env,
            cwd=project,
            check=True,
            capture_output=True,
        )
    return env, project


#: the rows whose ratio to the floor has a target, and the target
TARGETS = {"hookwise fire (user hook)": 2.0, "hookwise fire (trusted project hook)": 2.0}


def main() -> int:
    n = int(os.environ.get("BENCH_N", "40"))
    true = shutil.which("true") or "/bin/true"
    script = os.path.join(os.path.dirname(sys.executable), "hookwise")
    with tempfile.TemporaryDirectory() as tmp:
        user = _setup(tmp, true, "user")
        trusted = _setup(tmp, true, "project")
        fire = ["fire", "BeforeAgent", "--json"]
        program = [script] if os.path.exists(script) else [sys.executable, "-m", "hookwise"]
        variants: dict[str, tuple[list[str], tuple[dict[str, str], str]]] = {
            "python -c pass": ([sys.executable, "-c", "pass"], user),
            "true (raw spawn)": ([true], user),
            "hookwise fire (user hook)": ([*program, *fire], user),
            "hookwise fire (trusted project hook)": ([*program, *fire], trusted),
            "python -m hookwise fire (user hook)": (
                [sys.executable, "-m", "hookwise", *fire],
                user,
            ),
            "python -c 'import <firing path>'": ([sys.executable, "-c", _FIRING_IMPORTS], user),
            "python -c 'import json, re'": (
                [sys.executable, "-c", "import json, os, re; os._exit(0)"],
                user,
            ),
        }
        # check the hooks really run (one outcome, ok) before timing anything
        check = _check(variants)
        if check:
            print(check, file=sys.stderr)
            return 1
        both = interleaved(
            {name: partial(spawn, argv, env, cwd) for name, (argv, (env, cwd)) in variants.items()},
            n,
        )
    med = {k: wall for k, (wall, _) in both.items()}
    medc = {k: cpu for k, (_, cpu) in both.items()}
    print(f"start-up, N={n} (median wall ms / median child CPU ms)")
    for k in variants:
        print(f"  {k:38s} {med[k]:7.2f} ms  {medc[k]:7.2f} ms cpu")
    floor = med["python -c pass"] + med["true (raw spawn)"]
    floorc = medc["python -c pass"] + medc["true (raw spawn)"]
    print(f"  {'floor (python -c pass + true)':38s} {floor:7.2f} ms  {floorc:7.2f} ms cpu")
    for k in variants:
        if "fire" in k:
            # the target is the program's; `python -m` runs runpy, which imports modules of its own first
            note = (
                f"target <= {TARGETS[k]}"
                if k in TARGETS
                else "for comparison: runpy's own imports come first"
            )
            print(f"  ratio {k}: {med[k] / floor:.2f}x wall, {medc[k] / floorc:.2f}x cpu ({note})")
    _split(medc, floorc, "hookwise fire (user hook)")
    return 0


def _split(medc: dict[str, float], floorc: float, fire: str) -> None:
    imports = medc["python -c 'import <firing path>'"]
    parts = {
        "floor": 1.0,
        "the modules it loads": (imports - medc["python -c pass"]) / floorc,
        "the firing and its exit": (medc[fire] - imports - medc["true (raw spawn)"]) / floorc,
        "(not loaded: json and re": (medc["python -c 'import json, re'"] - medc["python -c pass"])
        / floorc,
    }
    print(
        f"  {fire}, CPU in units of the floor: "
        + ", ".join(f"{k} {v:.2f}" for k, v in parts.items())
        + ")"
    )


def _check(variants: dict[str, tuple[list[str], tuple[dict[str, str], str]]]) -> str | None:
    import subprocess

    for name, (argv, (env, cwd)) in variants.items():
        if "fire" not in argv:
            continue
        p = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, check=False)
        try:
            hooks = json.loads(p.stdout)["hooks"]
        except (ValueError, KeyError):
            return f"{name}: unexpected output: {p.stdout!r} {p.stderr!r}"
        if len(hooks) != 1 or hooks[0]["outcome"] != "ok":
            return f"{name}: the hook did not run once with outcome ok: {hooks!r} {p.stderr!r}"
    return None


if __name__ == "__main__":
    sys.exit(main())
