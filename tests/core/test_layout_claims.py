"""Claims of docs/architecture.md that no other test held: what ``core/`` may import of hookwise,
``agent/`` and ``adapters/`` apart, ``import hookwise`` and the start-up rule's list as written."""

from __future__ import annotations

import ast
import pathlib
import re
import subprocess
import sys

from tests.perf.test_fast_paths import HEAVY

import hookwise

PKG = pathlib.Path(hookwise.__file__).parent
DOC = PKG.parent.parent / "docs" / "architecture.md"

#: what the pure rules may import of hookwise: the vocabulary and the JSON codec
CORE_MAY_IMPORT = (
    "hookwise._records",
    "hookwise.core",
    "hookwise.events",
    "hookwise.result",
    "hookwise.wire",
    "hookwise.errors",
    "hookwise.input_errors",
    "hookwise.jsonc",
)


def _hookwise_imports(path: pathlib.Path) -> set[str]:
    """The hookwise modules ``path`` imports, inside functions too, leaving out ``if
    TYPE_CHECKING:`` blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            node.body = []
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return {n for n in names if n == "hookwise" or n.startswith("hookwise.")}


def test_core_imports_only_the_vocabulary_and_jsonc() -> None:
    bad = [
        f"core/{path.name} imports {name}"
        for path in sorted((PKG / "core").glob("*.py"))
        for name in sorted(_hookwise_imports(path))
        if not any(name == ok or name.startswith(ok + ".") for ok in CORE_MAY_IMPORT)
    ]
    assert bad == []


def test_agent_and_adapters_never_import_each_other() -> None:
    bad = [
        f"{path.relative_to(PKG)} imports {name}"
        for here, other in (("agent", "adapters"), ("adapters", "agent"))
        for path in sorted((PKG / here).rglob("*.py"))
        for name in sorted(_hookwise_imports(path))
        if name == f"hookwise.{other}" or name.startswith(f"hookwise.{other}.")
    ]
    assert bad == []


def test_import_hookwise_loads_none_of_the_start_up_list() -> None:
    """Beside the package's ``__init__`` (tests/core/test_layering.py), no module of the start-up
    rule: what the interpreter loads for ``import hookwise`` beyond an empty program."""

    def loaded(code: str) -> set[str]:
        out = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={},
        )
        return {
            line.rsplit("|", 1)[1].strip()
            for line in out.stderr.splitlines()
            if line.startswith("import time:")
        }

    new = loaded("import hookwise") - loaded("pass")
    assert sorted(m for m in HEAVY if m in new) == []
    assert new <= {"hookwise", "__future__"}, sorted(new)


def test_the_documented_start_up_list_is_the_tested_one() -> None:
    """docs/architecture.md, "The start-up rule": its bullets name exactly the modules of
    ``HEAVY``."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## The start-up rule\n", 1)[1].split("\n## ", 1)[0]
    named: list[str] = []
    for line in section.split("\n- ")[1:]:
        head = line.split(": ", 1)[0]  # the bullet's names, before its reason
        named += re.findall(r"`([\w.]+)`", head)
    assert len(named) == len(set(named)), "a module is listed twice"
    assert sorted(named) == sorted(HEAVY)
