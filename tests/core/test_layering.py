"""The layout's rules, checked on the imports themselves (docs/architecture.md)."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import pytest

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
#: thread or process itself), interpret turns a signal number into its name, the http hook rules and
#: the `if` rules' WebFetch(domain:...) split URLs with urllib.parse (string parsing only, no I/O), and the
#: linear-time matcher's lazily built DFA, shared by concurrent firings, grows under a lock (no thread)
ALLOWED = {
    ("execute.py", "asyncio"),
    ("interpret.py", "signal"),
    ("hook_kinds.py", "urllib.parse"),
    ("rules.py", "urllib.parse"),
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
                "claude",
                "host",
            }:
                bad.append(f"core/{path.name} imports {name} (a layer above the pure rules)")
    assert bad == []


def test_runners_never_import_settings_engine_cli_or_claude() -> None:
    """The runners reach a dialect's wing only through the ``Dialect`` strategy (looked up by name)."""
    bad = []
    for path in sorted((PKG / "runners").glob("*.py")):
        for name in _imports(path):
            if name.startswith(
                (
                    "hookwise.settings",
                    "hookwise.engine",
                    "hookwise.cli",
                    "hookwise.agent",
                    "hookwise.claude",
                )
            ):
                bad.append(f"runners/{path.name} imports {name}")
    assert bad == []


def test_import_hookwise_loads_only_the_package_init() -> None:
    code = "import sys, hookwise; print(sorted(m for m in sys.modules if m.startswith('hookwise')))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={}
    )
    assert out.stdout.strip() == "['hookwise']"


def _module_graph() -> dict[str, set[str]]:
    """hookwise module -> the hookwise modules it imports (inside functions too; not type-only imports)."""
    mods = {
        ".".join(p.relative_to(PKG.parent).with_suffix("").parts).removesuffix(".__init__"): p
        for p in PKG.rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for mod, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
                node.body = []
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for a in node.names:  # `from pkg import submodule` is an import of the submodule
                    sub = f"{node.module}.{a.name}"
                    found.add(sub if sub in mods else node.module)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
        graph[mod] = {m for m in found if m in mods and m != mod}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


@pytest.mark.slow
def test_the_import_graph_has_no_cycle() -> None:
    """No module imports itself through others, counting imports made inside functions."""
    assert _cycles(_module_graph()) == []


def _package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The same graph one level up: ``hookwise.settings`` -> the other top-level packages and modules it imports."""
    pkg: dict[str, set[str]] = {}
    for mod, targets in graph.items():
        top = ".".join(mod.split(".")[:2])
        pkg.setdefault(top, set()).update(
            ".".join(t.split(".")[:2]) for t in targets if not t.startswith(top + ".") and t != top
        )
    return pkg


@pytest.mark.slow
def test_packages_form_no_loop() -> None:
    """No package imports itself through others, counting imports made inside functions: the Claude wing reads
    a hook's keys from ``runners/hook_keys.py`` and the user directory from ``home.py``, never ``settings/``."""
    assert _cycles(_package_graph(_module_graph())) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_a_package_loop_is_found_through_imports_inside_functions() -> None:
    """The package test would see the loop this layout removed (claude.plugins -> settings.layers)."""
    graph = {
        "hookwise.settings.load": {"hookwise.claude.plugins"},
        "hookwise.claude.plugins": {"hookwise.settings.layers"},
        "hookwise.settings.layers": set(),
    }
    assert _cycles(_package_graph(graph)) == [["hookwise.claude", "hookwise.settings"]]
