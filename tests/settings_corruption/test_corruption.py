"""Random and targeted corruption of settings files: always a clear message naming the file, never a
traceback."""

from __future__ import annotations

import copy
import json
import math
import os
import socket
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faults._stats import counted, record
from hookwise import HookSystem
from hookwise.jsonc import parse as jsonc

from .conftest import VALID, Layers, cli

P = settings(
    max_examples=120,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
VALID_BYTES = VALID.encode()
VALID_DOC = jsonc.parse(VALID)


def load_quietly(layers: Layers, *, cli_too: bool = True) -> HookSystem:
    """Load through the API, and (``cli_too``) run ``list`` and ``validate`` as a user would: no
    crash."""
    hs = HookSystem(layers.project)
    assert any(e.name == "user-guard" for e in hs.entries)
    for w in hs.warnings:
        assert "Traceback" not in w
    if cli_too:
        for args in (("list",), ("validate",)):
            r = cli("--project", str(layers.project), *args)
            assert r.code in (0, 1), (args, r)
            assert "Traceback" not in r.err + r.out and "internal error" not in r.err, (args, r)
    return hs


# ---- random corruption (hypothesis) --------------------------------------------------------------


@pytest.mark.slow
@P
@given(cut=st.integers(0, len(VALID_BYTES) - 1))
@counted("corruption cases")
def test_truncated_settings(layers: Layers, cut: int) -> None:
    path = layers.write_project(VALID_BYTES[:cut])
    hs = load_quietly(layers)
    mine = [w for w in hs.warnings if str(path) in w]
    try:
        value = (
            jsonc.parse(VALID_BYTES[:cut].decode(), str(path)) if VALID_BYTES[:cut].strip() else {}
        )
    except jsonc.SettingsError:
        assert mine, "an unparseable file must be reported"
        assert any(
            f"{path}:" in w and "skipped" in w for w in mine
        )  # path:line:col: message; skipped
    else:
        assert isinstance(value, dict) or mine


@pytest.mark.slow
@P
@given(data=st.data())
@counted("corruption cases")
def test_random_bytes_spliced_in(layers: Layers, data: st.DataObject) -> None:
    raw = bytearray(VALID_BYTES)
    for _ in range(data.draw(st.integers(1, 4))):
        pos = data.draw(st.integers(0, len(raw)))
        junk = data.draw(
            st.one_of(
                st.binary(min_size=1, max_size=6),
                st.sampled_from(
                    [
                        b"\xff",
                        b"\xc3",
                        b"\x00",
                        b"\xed\xa0\x80",
                        b"{",
                        b"]",
                        b'"',
                        b"/*",
                        b"//",
                        b",",
                        b"\\",
                        b"NaN",
                    ]
                ),
            )
        )
        if data.draw(st.booleans()):
            raw[pos : pos + len(junk)] = junk  # overwrite
        else:
            raw[pos:pos] = junk  # insert
    path = layers.write_project(bytes(raw))
    hs = load_quietly(layers)
    try:
        bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        assert any(str(path) in w and "not valid UTF-8" in w for w in hs.warnings), hs.warnings


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_paths(v, (*prefix, i)))
    return out


ALL_PATHS = _paths(VALID_DOC)
wrong_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 10**20),
    st.floats(allow_nan=False),
    st.text(max_size=10),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
    st.sampled_from(["", "BeforeTool", "command", "*", "[", "(?P<", "\u0000"]),
)


@pytest.mark.slow
@P
@given(
    where=st.lists(st.sampled_from(ALL_PATHS), min_size=1, max_size=3),
    values=st.lists(wrong_values, min_size=3, max_size=3),
)
@counted("corruption cases")
def test_wrong_types_anywhere(
    layers: Layers, where: list[tuple[Any, ...]], values: list[Any]
) -> None:
    doc: Any = copy.deepcopy(VALID_DOC)
    for ptr, value in zip(where, values, strict=False):
        if not ptr:
            doc = value
            continue
        node = doc
        try:
            for k in ptr[:-1]:
                node = node[k]
            node[ptr[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier replacement removed this path
    path = layers.write_project(json.dumps(doc))
    hs = load_quietly(layers)
    if not isinstance(doc, dict):
        # json.dumps writes a non-finite float as Infinity / NaN, which is not JSON at all
        said = (
            "is not valid JSON"
            if doc != doc or doc in (math.inf, -math.inf)
            else "expected a JSON object"
        )
        assert any(str(path) in w and said in w for w in hs.warnings), hs.warnings
    for e in hs.entries:  # whatever survived is well-formed
        assert isinstance(e.command, str) and e.command.strip()
        assert isinstance(e.timeout_ms, int) and e.timeout_ms > 0
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in e.env.items())
    for tool in (
        "write_file",
        "read_file",
    ):  # and it fires: planning and running never trip over it
        r = hs.fire("BeforeTool", tool_name=tool, tool_input={})
        # a corrupted timeout can be a few milliseconds, so "timeout" is a correct outcome too
        assert all(
            h.outcome.value in ("ok", "failed", "not-run", "blocked", "timeout") for h in r.hooks
        ), r.hooks


# ---- targeted cases ------------------------------------------------------------------------------


def test_deep_nesting(layers: Layers) -> None:
    for text in (
        "[" * 100_000,
        '{"hooks": ' * 50_000 + "{}" + "}" * 50_000,
        "[" * 5000 + "]" * 5000,
    ):
        path = layers.write_project(text)
        layers.check_broken(path, cli_too=text.startswith("{"))
        record("corruption cases")


def test_deep_nesting_inside_a_valid_section_is_reported_not_fatal(layers: Layers) -> None:
    path = layers.write_project('{"hooks": {"BeforeTool": ' + "[" * 3000 + "]" * 3000 + "}}")
    layers.check_broken(path)
    record("corruption cases")


def test_huge_file_is_refused_with_a_message(layers: Layers) -> None:
    path = layers.write_project(b'{"x": "' + b"a" * (jsonc.MAX_FILE_BYTES + 10) + b'"}')
    layers.check_broken(path, expect="larger than 16 MiB")
    record("corruption cases")


def test_large_but_allowed_file_loads(layers: Layers) -> None:
    text = "// " + "x" * (8 << 20) + "\n" + VALID
    layers.write_project(text)
    hs = load_quietly(layers, cli_too=False)
    assert any(e.name == "guard" for e in hs.entries)
    record("corruption cases")


@pytest.mark.parametrize(
    "raw",
    [
        b'{"hooks": "\xff\xfe"}',
        b"\xef\xbb\xbf\xff{}",
        b'{"a": "\xed\xa0\x80"}',
        b'{"a":\n "ok",\n "b": "\xc3"}',
    ],
)
def test_invalid_utf8(layers: Layers, raw: bytes) -> None:
    path = layers.write_project(raw)
    msgs = layers.check_broken(path, expect="not valid UTF-8")
    assert any(f"{path}:" in m for m in msgs)  # with a line and column
    record("corruption cases")


def test_directory_where_the_file_should_be(layers: Layers) -> None:
    layers.project_file.parent.mkdir(parents=True, exist_ok=True)
    layers.project_file.mkdir()
    layers.check_broken(layers.project_file, expect="is a directory")
    record("corruption cases")


@pytest.mark.parametrize(
    "target", ["/dev/zero", "/dev/urandom", "fifo", "socket", "dangling", "loop"]
)
def test_special_files_and_bad_symlinks(layers: Layers, target: str, tmp_path: Path) -> None:
    """A cloned repository can plant any of these; none may hang, exhaust memory or crash."""
    p = layers.project_file
    p.parent.mkdir(parents=True, exist_ok=True)
    sock = None
    if target == "fifo":
        os.mkfifo(p)
    elif target == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(p))
    elif target == "dangling":
        p.symlink_to(tmp_path / "nowhere.json")
    elif target == "loop":
        p.symlink_to(p)
    else:
        p.symlink_to(target)
    try:
        if (
            target == "dangling"
        ):  # a dangling link is a missing file: nothing to load, nothing to say
            hs = load_quietly(layers)
            assert not [w for w in hs.warnings if str(p) in w] or any(
                "No such file" in w for w in hs.warnings
            )
        else:
            layers.check_broken(p)
    finally:
        if sock is not None:
            sock.close()
    record("corruption cases")


def _as_nobody(func: Any) -> Any:
    """Call ``func`` with permissions enforced: as root, with the effective uid of nobody."""
    if os.geteuid() != 0:
        return func()
    os.seteuid(65534)
    try:
        return func()
    finally:
        os.seteuid(0)


@pytest.mark.parametrize("what", ["file", "directory"])
def test_unreadable_settings_are_reported(layers: Layers, what: str) -> None:
    """A file that cannot be read, or one in a directory that cannot be searched, is never silently
    ignored."""
    import shutil
    import tempfile

    root = Path(tempfile.mkdtemp(prefix="hookwise-perm-"))
    try:
        root.chmod(0o755)
        project = root / "project"
        settings_file = project / ".gemini" / "settings.json"
        settings_file.parent.mkdir(parents=True)
        settings_file.write_text(VALID)
        project.chmod(0o755)
        settings_file.parent.chmod(0o755)
        if what == "file":
            settings_file.chmod(0)
        else:
            settings_file.parent.chmod(0)
        warnings = _as_nobody(
            lambda: list(
                HookSystem(
                    project,
                    env={
                        "GEMINI_CLI_HOME": str(root / "home"),
                        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(root / "s.json"),
                        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(root / "d.json"),
                    },
                ).warnings
            )
        )
        assert any(
            str(settings_file) in w and "permission denied" in w.lower() for w in warnings
        ), warnings
    finally:
        for p in (root / "project" / ".gemini", root / "project" / ".gemini" / "settings.json"):
            if p.exists() or p.parent.exists():
                try:
                    p.chmod(0o755)
                except OSError:
                    pass
        shutil.rmtree(root, ignore_errors=True)
    record("corruption cases")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n",
        "// only a comment\n",
        "/* block */",
        "\ufeff{}",
        "null",
        "[]",
        '"settings"',
        "42",
        "true",
        "{}garbage",
        "{/* unterminated",
        '{"a": 1,}',
        "{'single': 'quotes'}",
        '{"hooks": {"BeforeTool": NaN}}',
        "\x00",
    ],
)
def test_odd_but_small_files(layers: Layers, text: str) -> None:
    path = layers.write_project(text)
    hs = load_quietly(layers)
    try:
        value = jsonc.parse(text, str(path)) if text.strip() else {}
    except jsonc.SettingsError:
        layers.check_broken(path)
    else:
        if not isinstance(value, dict):
            assert any(str(path) in w and "expected a JSON object" in w for w in hs.warnings)
    record("corruption cases")


def test_every_layer_broken_at_once(
    layers: Layers, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    sys_file = tmp_path / "system.json"
    sys_file.write_bytes(b"{\xff")
    defaults = tmp_path / "defaults.json"
    defaults.mkdir()
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(sys_file))
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", str(defaults))
    ext = layers.home / ".gemini" / "extensions" / "bad" / "hooks"
    ext.mkdir(parents=True)
    (ext / "hooks.json").write_text('{"hooks": [1, 2')
    layers.write_project(
        '{"hooks": {"BeforeTool": [{"hooks": [{"type": "command"}]}]}'
    )  # missing command
    layers.user_file.write_text("{")
    hs = HookSystem(layers.project)
    assert hs.entries == []
    for p in (sys_file, defaults, ext / "hooks.json", layers.project_file, layers.user_file):
        assert any(str(p) in w for w in hs.warnings), (p, hs.warnings)
    r = cli("--project", str(layers.project), "list")
    assert r.code == 0 and "Traceback" not in r.err
    record("corruption cases", 5)
