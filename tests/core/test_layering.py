"""The layout's rules, checked on the imports themselves (docs/architecture.md)."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import hookwise

PKG = pathlib.Path(hookwise.__file__).parent

#: modules the pure rules may not import: they would mean I/O, processes, threads or the clock
IMPURE = {
    "os",
    "subprocess",
    "threading",
    "socket",
    "time",
    "datetime",
    "selectors",
    "signal",
    "asyncio",
    "concurrent",
    "http",
    "urllib",
    "shutil",
    "tempfile",
}


#: the exceptions, each for a reason: the plan executor awaits the runners' coroutines (it starts no
#: thread or process itself), interpret turns a signal number into its name, and the http hook rules split
#: URLs with urllib.parse (string parsing only, no I/O), and the linear-time matcher's lazily built DFA,
#: shared by concurrent firings, grows under a lock (it starts no thread)
ALLOWED = {
    ("execute.py", "asyncio"),
    ("interpret.py", "signal"),
    ("hook_kinds.py", "urllib.parse"),
    ("matching.py", "threading"),
}


def _imports(path: pathlib.Path) -> set[str]:
    """Module names imported by ``path``, leaving out ``if TYPE_CHECKING:`` blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING"
        ):
            node.body = []
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_core_is_pure() -> None:
    bad = []
    for path in sorted((PKG / "core").glob("*.py")):
        for name in _imports(path):
            if name.split(".")[0] in IMPURE and (path.name, name) not in ALLOWED:
                bad.append(f"core/{path.name} imports {name}")
            if name.startswith("hookwise.") and name.split(".")[1] in {
                "runners",
                "settings",
                "cli",
                "agent",
                "adapters",
                "telemetry",
                "engine",
            }:
                bad.append(f"core/{path.name} imports {name} (a layer above the pure rules)")
    assert bad == []


def test_runners_never_import_settings_engine_or_cli() -> None:
    bad = []
    for path in sorted((PKG / "runners").glob("*.py")):
        for name in _imports(path):
            if name.startswith(
                ("hookwise.settings", "hookwise.engine", "hookwise.cli", "hookwise.agent")
            ):
                bad.append(f"runners/{path.name} imports {name}")
    assert bad == []


def test_import_hookwise_loads_only_the_package_init() -> None:
    code = "import sys, hookwise; print(sorted(m for m in sys.modules if m.startswith('hookwise')))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={}
    )
    assert out.stdout.strip() == "['hookwise']"
