"""Hook packages: hooks from installed distributions' ``hookwise.hooks`` entry points
(docs/hook-types.md).

The distributions here are real: a package plus its ``*.dist-info`` directory on
``PYTHONPATH`` (what pip lays out), found by :mod:`importlib.metadata`, and, in
the slow test, a wheel built with ``pip wheel`` and installed into a fresh venv.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import venv
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import Project

from hookwise.settings import packages

SRC = Path(__file__).resolve().parents[2] / "src"

ACME_INIT = """
SECTION = {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
    {"type": "python", "callable": "acme_hooks.guards:no_rm", "name": "acme-no-rm"},
    {"type": "command", "command": "echo acme command ran", "name": "acme-echo"},
]}]}
NOT_A_SECTION = 42


def later():
    hook = {"type": "python", "callable": "acme_hooks.guards:after", "name": "acme-after"}
    return {"AfterAgent": [{"hooks": [hook]}]}
"""

ACME_GUARDS = """
import hookwise


@hookwise.hook("BeforeTool")
def no_rm(inp):
    if "rm -rf" in inp["tool_input"].get("command", ""):
        return {"decision": "deny", "reason": "acme says no rm -rf"}
    return None


def after(inp):
    return {"systemMessage": "acme after " + inp["prompt"]}
"""


def write_dist(
    root: Path, name: str, modules: dict[str, str], entry_points: dict[str, str]
) -> None:
    """A distribution as pip installs it: its files plus ``<name>-1.0.dist-info`` with the entry
    points."""
    for rel, text in modules.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    info = root / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    eps = "".join(f"{k} = {v}\n" for k, v in entry_points.items())
    (info / "entry_points.txt").write_text(f"[hookwise.hooks]\n{eps}")


@pytest.fixture
def site(tmp_path: Path) -> Path:
    d = tmp_path / "site"
    write_dist(
        d,
        "acme-hooks",
        {"acme_hooks/__init__.py": ACME_INIT, "acme_hooks/guards.py": ACME_GUARDS},
        {"guards": "acme_hooks:SECTION", "later": "acme_hooks:later"},
    )
    return d


def cli(
    project: Project, site: Path | None, *args: str, python: str = sys.executable
) -> tuple[int, Any, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("HOOKWISE_TRUST_ALL", "PYTHONPATH")}
    if site is not None:
        env["PYTHONPATH"] = str(site)
    out = subprocess.run(
        [python, "-m", "hookwise", "--project", str(project.root), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    try:
        data = json.loads(out.stdout)
    except ValueError:
        data = None
    return out.returncode, data, out.stderr


@pytest.mark.slow
def test_package_hooks_fire_at_user_trust(project: Project, site: Path) -> None:
    code, data, err = cli(
        project,
        site,
        "fire",
        "BeforeTool",
        "--tool",
        "run_shell_command",
        "--tool-input",
        '{"command": "rm -rf /"}',
        "--json",
    )
    assert code == 2, err
    assert data["reason"] == "acme says no rm -rf" and data["systemMessage"] == "acme command ran"
    assert [(h["name"], h["source"], h["outcome"]) for h in data["hooks"]] == [
        ("acme-no-rm", "package", "ok"),
        ("acme-echo", "package", "ok"),
    ]
    assert data["warnings"] == []  # no trust prompt: the user installed the package
    code, data, err = cli(
        project, site, "fire", "AfterAgent", "--prompt", "p", "--prompt-response", "r", "--json"
    )
    assert code == 0 and data["systemMessage"] == "acme after p", (
        err
    )  # the zero-argument callable's section


@pytest.mark.slow
def test_list_names_the_package(project: Project, site: Path) -> None:
    code, data, err = cli(project, site, "list", "--json")
    assert code == 0, err
    rows = {h["name"]: h for h in data["hooks"]}
    assert set(rows) == {"acme-no-rm", "acme-echo", "acme-after"}
    assert {(h["source"], h["package"], h["trusted"]) for h in rows.values()} == {
        ("package", "acme-hooks", True)
    }
    assert rows["acme-no-rm"]["type"] == "python" and rows["acme-echo"]["type"] == "command"
    assert rows["acme-no-rm"]["file"] == "<hook package acme-hooks: guards = acme_hooks:SECTION>"


@pytest.mark.slow
def test_list_text_shows_the_package(project: Project, site: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "HOOKWISE_TRUST_ALL"}
    env["PYTHONPATH"] = str(site)
    out = subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project.root), "list"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert out.returncode == 0 and "package (acme-hooks)" in out.stdout, out.stdout + out.stderr


@pytest.mark.slow
def test_package_hooks_are_disabled_by_name(project: Project, site: Path) -> None:
    project.write_settings({"hooksConfig": {"disabled": ["acme-no-rm"]}}, "user")
    code, data, err = cli(
        project,
        site,
        "fire",
        "BeforeTool",
        "--tool",
        "run_shell_command",
        "--tool-input",
        '{"command": "rm -rf /"}',
        "--json",
    )
    assert code == 0, err
    assert [h["name"] for h in data["hooks"]] == ["acme-echo"]


@pytest.mark.slow
def test_a_broken_package_is_a_warning_never_a_crash(project: Project, site: Path) -> None:
    write_dist(
        site,
        "broken-hooks",
        {"broken_hooks/__init__.py": "raise ImportError('needs libfoo')\n"},
        {"x": "broken_hooks:SECTION"},
    )
    write_dist(
        site,
        "odd-hooks",
        {"odd_hooks/__init__.py": "VALUE = 42\ndef boom():\n    raise KeyError('k')\n"},
        {"value": "odd_hooks:VALUE", "boom": "odd_hooks:boom", "missing": "odd_hooks:NOPE"},
    )
    project.hooks("BeforeTool", 'echo \'{"systemMessage": "project hook ran"}\'', layer="user")
    code, data, err = cli(
        project,
        site,
        "fire",
        "BeforeTool",
        "--tool",
        "run_shell_command",
        "--tool-input",
        '{"command": "ls"}',
        "--json",
    )
    assert code == 0, err
    assert [h["name"] for h in data["hooks"]][0] == 'echo \'{"systemMessage": "project hook ran"}\''
    assert {h["name"] for h in data["hooks"]} >= {"acme-no-rm", "acme-echo"}
    assert (
        "hook package broken-hooks (entry point x = broken_hooks:SECTION): importing it raised"
        in err
    )
    code, data, err = cli(project, site, "list", "--json")
    w = data["warnings"]
    assert (
        "hook package broken-hooks (entry point x = broken_hooks:SECTION): importing it raised "
        "ImportError: needs libfoo; its hooks were not loaded" in w
    )
    assert (
        "hook package odd-hooks (entry point boom = odd_hooks:boom): calling it raised KeyError: "
        "'k'; its hooks were not loaded" in w
    )
    assert any(
        x.startswith(
            "hook package odd-hooks (entry point value = odd_hooks:VALUE): expected a hooks section"
        )
        and "got int" in x
        for x in w
    )
    assert any(
        x.startswith(
            "hook package odd-hooks (entry point missing = odd_hooks:NOPE): importing it raised "
            "AttributeError"
        )
        for x in w
    )
    assert len(w) == 4


@pytest.mark.slow
def test_a_malformed_section_is_reported_with_the_package(project: Project, tmp_path: Path) -> None:
    site = tmp_path / "site2"
    write_dist(
        site,
        "sloppy-hooks",
        {"sloppy_hooks/__init__.py": "S = {'PreToolUse': [], 'BeforeTool': 'x'}\n"},
        {"s": "sloppy_hooks:S"},
    )
    code, data, err = cli(project, site, "list", "--json")
    assert code == 0, err
    assert data["hooks"] == []
    assert any(
        x.startswith("<hook package sloppy-hooks: s = sloppy_hooks:S>: /PreToolUse: unknown event")
        for x in data["warnings"]
    ), data["warnings"]


def test_no_metadata_import_without_a_package_declaring_the_group(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    write_dist(empty, "other", {"other/__init__.py": ""}, {})
    (empty / "other-1.0.dist-info" / "entry_points.txt").write_text(
        "[console_scripts]\nother = other:main\n"
    )
    assert packages.discover([str(empty)]) == []
    assert not packages._may_declare_group([str(empty), str(tmp_path / "missing")])
    code = (
        "import sys\nfrom hookwise.settings.load import load_settings\n"
        f"load_settings({str(tmp_path)!r})\nprint('importlib.metadata' in sys.modules)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(empty)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert out.stdout.strip() == "False", out.stderr


def _offline_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_") and k != "PYTHONPATH"}
    env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    return env


@pytest.mark.slow
def test_wheel_installed_into_a_fresh_venv_fires_through_the_cli(
    project: Project, tmp_path: Path
) -> None:
    pytest.importorskip(
        "setuptools", minversion="70.1"
    )  # the test extra pins it; builds the wheel offline
    src = tmp_path / "acme-src"
    (src / "acme_hooks").mkdir(parents=True)
    (src / "acme_hooks" / "__init__.py").write_text(textwrap.dedent(ACME_INIT))
    (src / "acme_hooks" / "guards.py").write_text(textwrap.dedent(ACME_GUARDS))
    (src / "pyproject.toml").write_text(
        textwrap.dedent("""
        [build-system]
        requires = ["setuptools>=70.1"]
        build-backend = "setuptools.build_meta"

        [project]
        name = "acme-hooks"
        version = "1.0"

        [project.entry-points."hookwise.hooks"]
        guards = "acme_hooks:SECTION"
        later = "acme_hooks:later"

        [tool.setuptools]
        packages = ["acme_hooks"]
    """)
    )
    dist = tmp_path / "dist"
    env = _offline_env()
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(dist),
            str(src),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    [wheel] = list(dist.glob("acme_hooks-1.0-*.whl"))

    fresh = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(fresh)
    py = str(fresh / "bin" / "python")
    purelib = subprocess.run(
        [py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(purelib, "hookwise-src.pth").write_text(
        str(SRC) + "\n"
    )  # hookwise itself, from this checkout
    inst = subprocess.run(
        [sys.executable, "-m", "pip", "--python", py, "install", "--no-deps", "-q", str(wheel)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert inst.returncode == 0, inst.stdout + inst.stderr
    assert Path(purelib, "acme_hooks", "guards.py").is_file()

    code, data, err = cli(
        project,
        None,
        "fire",
        "BeforeTool",
        "--tool",
        "run_shell_command",
        "--tool-input",
        '{"command": "rm -rf /"}',
        "--json",
        python=py,
    )
    assert code == 2, err
    assert data["reason"] == "acme says no rm -rf"
    assert [(h["name"], h["source"], h["outcome"]) for h in data["hooks"]] == [
        ("acme-no-rm", "package", "ok"),
        ("acme-echo", "package", "ok"),
    ]
    code, data, err = cli(project, None, "list", "--json", python=py)
    assert {h["package"] for h in data["hooks"]} == {"acme-hooks"} and len(data["hooks"]) == 3, err
    # and the interpreter running the tests does not have it: the hooks came from the fresh venv
    # only
    code, data, err = cli(project, None, "list", "--json")
    assert data["hooks"] == [], err


def _cache() -> dict[str, Any]:
    return dict(json.loads(Path(packages.cache_path()).read_text())["dirs"])


def test_discovery_remembers_each_directory_until_it_changes(tmp_path: Path) -> None:
    plain, site = tmp_path / "plain", tmp_path / "site3"
    write_dist(plain, "other", {"other/__init__.py": ""}, {})
    (plain / "other-1.0.dist-info" / "entry_points.txt").write_text(
        "[console_scripts]\nother = other:main\n"
    )
    site.mkdir()
    assert not packages._may_declare_group([str(plain), str(site)])
    cache = _cache()
    assert cache[str(plain)] == [plain.stat().st_mtime_ns, False]
    assert cache[str(site)] == [site.stat().st_mtime_ns, False]
    # installing a distribution adds a *.dist-info directory: the directory changes and is read
    # again
    write_dist(
        site,
        "acme-hooks",
        {"acme_hooks/__init__.py": ACME_INIT, "acme_hooks/guards.py": ACME_GUARDS},
        {"guards": "acme_hooks:SECTION"},
    )
    assert packages._may_declare_group([str(plain), str(site)])
    assert [name for name, *_ in packages.discover([str(plain), str(site)])] == ["acme-hooks"]
    assert _cache()[str(site)] == [site.stat().st_mtime_ns, True]
    # an unchanged directory is not read again: an entry_points.txt edited in place keeps the cached
    # answer (documented: delete the cache file after such an edit), and the metadata scan then
    # finds no entry point
    (site / "acme_hooks-1.0.dist-info" / "entry_points.txt").write_text(
        "[console_scripts]\nx = y:z\n"
    )
    assert packages._may_declare_group([str(site)])
    assert packages.discover([str(site)]) == []
    Path(packages.cache_path()).unlink()
    assert not packages._may_declare_group([str(site)])
    # removing the distribution changes the directory again
    (site / "acme_hooks-1.0.dist-info" / "entry_points.txt").write_text(
        "[hookwise.hooks]\ng = acme_hooks:SECTION\n"
    )
    assert not packages._may_declare_group([str(site)])  # cached "no", directory unchanged
    import shutil

    shutil.rmtree(site / "acme_hooks-1.0.dist-info")
    assert (
        not packages._may_declare_group([str(site)])
        and _cache()[str(site)][0] == site.stat().st_mtime_ns
    )


@pytest.mark.parametrize(
    "content",
    ["not json", "[]", '{"version": 99, "dirs": {}}', '{"version": 1, "dirs": {"X": "yes"}}'],
)
def test_a_malformed_cache_is_read_again_from_the_directories(
    tmp_path: Path, site: Path, content: str
) -> None:
    path = Path(packages.cache_path())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content.replace("X", str(site)))
    assert [ep for _, ep, *_ in packages.discover([str(site)])] == ["guards", "later"]
    assert _cache()[str(site)] == [site.stat().st_mtime_ns, True]  # and the file is whole again


def test_an_unwritable_cache_changes_nothing(
    tmp_path: Path, site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "cache-is-a-file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # hookwise/ cannot be created under a file
    assert [ep for _, ep, *_ in packages.discover([str(site)])] == ["guards", "later"]
    assert not packages._may_declare_group([str(tmp_path / "missing")])


@pytest.mark.slow
def test_the_cli_finds_a_package_installed_after_a_first_run(
    project: Project, tmp_path: Path
) -> None:
    site = tmp_path / "late-site"
    site.mkdir()
    code, data, err = cli(project, site, "list", "--json")
    assert code == 0 and data["hooks"] == [], err
    write_dist(
        site,
        "acme-hooks",
        {"acme_hooks/__init__.py": ACME_INIT, "acme_hooks/guards.py": ACME_GUARDS},
        {"guards": "acme_hooks:SECTION"},
    )
    code, data, err = cli(project, site, "list", "--json")
    assert code == 0, err
    assert {h["name"] for h in data["hooks"]} == {"acme-no-rm", "acme-echo"}
