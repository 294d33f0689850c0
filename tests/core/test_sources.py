"""Hook sources are one table (core/registry.py: SOURCES): the code switches on its rows, the docs and the loader
agree with it (docs/architecture.md, "Closed sets are written once")."""

from __future__ import annotations

import ast
import json
import pathlib
import re
import subprocess
import sys
from typing import Any

import hookwise
from hookwise import HookSystem
from hookwise.core.keys import EVERY_LAYER, HOOK_SOURCES
from hookwise.core.registry import (
    OWN_DIR_SOURCES,
    PROJECT,
    RUNTIME,
    SOURCE_ORDER,
    SOURCES,
    SYSTEM,
    UNTRUSTED_SOURCES,
    USER,
    HookEntry,
)
from hookwise.events import HookEvent

PKG = pathlib.Path(hookwise.__file__).parent
DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"


def test_the_derived_sets_are_read_from_the_rows() -> None:
    assert list(SOURCE_ORDER) == list(SOURCES)
    assert {s: SOURCES[s].order for s in SOURCES} == SOURCE_ORDER
    assert {s.label for s in SOURCES.values() if not s.trusted} == UNTRUSTED_SOURCES
    assert {s.label for s in SOURCES.values() if s.own_dir} == OWN_DIR_SOURCES
    assert tuple(s.label for s in SOURCES.values() if s.settings) == EVERY_LAYER
    assert tuple(s.label for s in SOURCES.values() if s.in_files) == HOOK_SOURCES


def test_the_rows_are_consistent() -> None:
    for s in SOURCES.values():
        assert s.switched_by in {SYSTEM, USER, "any", ""}, s
        assert s.module_root in {PROJECT, "own", ""}, s
        # a project file may switch off exactly the hooks that need trust (docs/security.md)
        assert (s.switched_by == "any") == (not s.trusted), s
        # only hooks registered from code are out of every file's reach, and they are in no file
        assert (s.switched_by == "") == (not s.in_files), s
        assert not (s.own_dir and s.trusted), (
            s
        )  # a directory of its own is someone else's: approved first
        assert s.module_root != "own" or s.own_dir, s
    assert [s for s in SOURCES.values() if not s.in_files] == [SOURCES[RUNTIME]]
    assert min(SOURCE_ORDER.values()) == SOURCE_ORDER[RUNTIME]  # runtime hooks run first


def _bare_label(node: ast.AST) -> str | None:
    """A source label written as a string (or a tuple/list/set of them) instead of a name from the table."""
    if isinstance(node, ast.Constant) and node.value in SOURCES:
        return str(node.value)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        for elt in node.elts:
            if _bare_label(elt):
                return _bare_label(elt)
    return None


def _offences(tree: ast.AST) -> list[tuple[int, str]]:
    """Switches on a source written with bare strings: ``x.source == "plugin"``, ``x.label in ("user", ...)``."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr in ("source", "label") for s in sides):
                found = [lbl for s in sides if (lbl := _bare_label(s))]
                if found:
                    out.append((node.lineno, f"compares a source with {found[0]!r}"))
    return out


def _labels_written(tree: ast.AST) -> list[tuple[int, str]]:
    """The source labels written as text where an entry or a layer is made (``HookEntry(source="runtime")``)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name in ("HookEntry", "SettingsLayer"):
                values = [kw.value for kw in node.keywords if kw.arg in ("source", "label")]
                if name == "SettingsLayer" and node.args:
                    values.append(node.args[0])
                out.extend(
                    (node.lineno, v.value)
                    for v in values
                    if isinstance(v, ast.Constant) and isinstance(v.value, str)
                )
    return out


def test_no_code_compares_a_source_with_a_bare_string() -> None:
    """Every switch on a hook's source reads the table (a column, or a label constant of core/registry.py)."""
    bad = []
    for path in sorted(PKG.rglob("*.py")):
        for line, what in _offences(ast.parse(path.read_text(encoding="utf-8"))):
            bad.append(f"{path.relative_to(PKG)}:{line}: {what}")
    assert bad == []


def test_every_label_written_is_a_row() -> None:
    bad = []
    for path in sorted(PKG.rglob("*.py")):
        for line, label in _labels_written(ast.parse(path.read_text(encoding="utf-8"))):
            if label not in SOURCES:
                bad.append(f"{path.relative_to(PKG)}:{line}: {label!r}")
    assert bad == []


def test_the_guards_see_a_bare_label() -> None:
    code = 'if e.source in ("extension", "plugin"): pass\nx.label == "user"\nif e.source == EXTENSION: pass'
    assert len(_offences(ast.parse(code))) == 2
    made = 'HookEntry(ev, source="plugins")\nSettingsLayer("user", "user", p)\nfire("SessionStart", source="x")'
    assert _labels_written(ast.parse(made)) == [(1, "plugins"), (2, "user")]


def _table_rows(text: str, header: str) -> list[list[str]]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split("|")])
    return rows


def test_docs_sources_table_names_every_source_with_its_trust() -> None:
    rows = _table_rows((DOCS / "sources.md").read_text(encoding="utf-8"), "| Source | Where |")
    named: set[str] = set()
    for row in rows:
        labels = {m.split()[0] for m in re.findall(r"`([^`]+)`", row[2])}
        named |= labels
        if len(labels) == 1:
            (label,) = labels
            assert row[3].startswith("trusted") == SOURCES[label].trusted, row
    assert named == set(SOURCES)


def test_docs_security_names_the_untrusted_sources() -> None:
    text = (DOCS / "security.md").read_text(encoding="utf-8")
    sentence = re.search(r'"Untrusted" below means a hook\s+whose source is ([^:]+):', text)
    assert sentence is not None
    assert set(re.findall(r"`([^`]+)`", sentence.group(1))) == UNTRUSTED_SOURCES


def _write(path: pathlib.Path, doc: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc), encoding="utf-8")


def _gemini_hooks(name: str) -> dict[str, Any]:
    return {"BeforeTool": [{"hooks": [{"type": "command", "name": name, "command": "true"}]}]}


def test_the_loader_gives_every_source_its_label_and_trust(tmp_path: pathlib.Path) -> None:
    """Real files of every source, read by `hookwise list --json` as a user runs it (and runtime, from code)."""
    home, project = tmp_path / "home", tmp_path / "project"
    _write(tmp_path / "system.json", {"hooks": _gemini_hooks("system-hook")})
    _write(home / ".gemini" / "settings.json", {"hooks": _gemini_hooks("user-hook")})
    _write(project / ".gemini" / "settings.json", {"hooks": _gemini_hooks("project-hook")})
    ext = home / ".gemini" / "extensions" / "ext"
    _write(ext / "gemini-extension.json", {"name": "ext", "version": "1.0"})
    _write(ext / "hooks" / "hooks.json", {"hooks": _gemini_hooks("extension-hook")})
    plugin = tmp_path / "plugin"
    _write(plugin / ".claude-plugin" / "plugin.json", {"name": "plug", "version": "1.0"})
    claude = {"hooks": [{"type": "command", "command": "true"}]}
    _write(plugin / "hooks" / "hooks.json", {"hooks": {"PreToolUse": [claude]}})
    site = (
        tmp_path / "site"
    )  # an installed distribution (one inside the project would be the project's)
    site.mkdir()
    (site / "pkg_hooks.py").write_text(f"SECTION = {_gemini_hooks('package-hook')!r}\n")
    info = site / "pkg_hooks-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pkg-hooks\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[hookwise.hooks]\nguards = pkg_hooks:SECTION\n")
    env = {
        "HOME": str(home),
        "PYTHONPATH": str(site),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(tmp_path / "system.json"),
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(tmp_path / "no-defaults.json"),
    }
    out = subprocess.run(
        [sys.executable, "-m", "hookwise", "--plugin-dir", str(plugin), "list", "--json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(project),
        stdin=subprocess.DEVNULL,
        timeout=120,
        check=True,
    )
    rows = json.loads(out.stdout)["hooks"]
    assert {r["source"] for r in rows} == set(SOURCES) - {RUNTIME}
    for r in rows:
        assert r["trusted"] == SOURCES[r["source"]].trusted, r

    hs = HookSystem(project, env=env)
    entry = hs.register(HookEvent.BEFORE_TOOL, lambda inp: None, name="code-hook")
    assert entry.source == RUNTIME and hs.is_trusted(entry)
    assert [e.source for e in hs.entries].count(RUNTIME) == 1  # the one source no file gives
    assert (
        HookEntry(HookEvent.BEFORE_TOOL).source == PROJECT
    )  # an entry made without a source needs trust
