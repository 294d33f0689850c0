"""Byte-preserving JSONC edits: only the intended bytes change."""

from __future__ import annotations

import difflib
import json
import os
import stat

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookwise.errors import EditError, SettingsError
from hookwise.jsonc.edit import append_to_array, read_text, remove_value, set_value, write_atomic
from hookwise.jsonc.parse import parse

MESSY = """\
// user settings, hand written
{
   /* theme first */
   "ui": {"theme": "dark"},   // inline object
   "hooks": {
      "BeforeTool": [
         {"matcher": "write_file", "hooks": [{"type": "command", "command": "./x.sh"}]}
      ]
   },
   "hooksConfig": {
      "disabled": [
         "old-hook" // keep this comment
      ],
      "notifications": false
   },
   "otherTool": {"keep": [1, 2, 3]}
}
"""


def changed_lines(a: str, b: str) -> list[str]:
    return [ln for ln in difflib.ndiff(a.splitlines(), b.splitlines()) if ln[:1] in "+-"]


def test_append_keeps_everything_else() -> None:
    out = append_to_array(MESSY, "/hooksConfig/disabled", "secret-scan")
    assert parse(out)["hooksConfig"]["disabled"] == ["old-hook", "secret-scan"]
    diff = changed_lines(MESSY, out)
    assert diff == [
        '-          "old-hook" // keep this comment',
        '+          "old-hook", // keep this comment',
        '+          "secret-scan"',
    ]


def test_remove_last_element_removes_its_line_and_previous_comma() -> None:
    text = append_to_array(MESSY, "/hooksConfig/disabled", "secret-scan")
    back = remove_value(text, "/hooksConfig/disabled/1")
    assert back == MESSY


def test_remove_first_element() -> None:
    text = append_to_array(MESSY, "/hooksConfig/disabled", "secret-scan")
    out = remove_value(text, "/hooksConfig/disabled/0")
    assert parse(out)["hooksConfig"]["disabled"] == ["secret-scan"]
    assert "keep this comment" not in out  # the trailing comment belonged to the removed line
    assert changed_lines(text, out) == ['-          "old-hook", // keep this comment']


def test_remove_only_element_gives_empty_array() -> None:
    out = remove_value(MESSY, "/hooksConfig/disabled/0")
    assert parse(out)["hooksConfig"]["disabled"] == []
    assert '"notifications": false' in out and "inline object" in out


def test_set_value_creates_parents_with_file_indentation() -> None:
    text = '{\n   "ui": {"theme": "dark"} // c\n}\n'
    out = set_value(text, "/hooksConfig/disabled", ["a"])
    assert out == (
        '{\n   "ui": {"theme": "dark"}, // c\n   "hooksConfig": {\n      "disabled": [\n'
        '         "a"\n      ]\n   }\n}\n'
    )


def test_tab_indentation_and_crlf() -> None:
    text = '{\r\n\t"a": 1\r\n}\r\n'
    out = append_to_array(text, "/hooksConfig/disabled", "x")
    assert out == (
        '{\r\n\t"a": 1,\r\n\t"hooksConfig": {\r\n\t\t"disabled": [\r\n\t\t\t"x"\r\n'
        "\t\t]\r\n\t}\r\n}\r\n"
    )


def test_inline_object_stays_inline() -> None:
    text = '{"a": 1, "hooksConfig": {"disabled": ["x"]}}'
    out = append_to_array(text, "/hooksConfig/disabled", "y")
    assert out == '{"a": 1, "hooksConfig": {"disabled": ["x", "y"]}}'
    out2 = remove_value(out, "/hooksConfig/disabled/0")
    assert out2 == '{"a": 1, "hooksConfig": {"disabled": ["y"]}}'
    out3 = remove_value(out2, "/hooksConfig/disabled/0")
    assert out3 == '{"a": 1, "hooksConfig": {"disabled": []}}'
    out4 = set_value(out3, "/b", True)
    assert out4 == '{"a": 1, "hooksConfig": {"disabled": []}, "b": true}'


def test_empty_file_and_empty_object() -> None:
    assert set_value("", "/hooksConfig/disabled", ["a"]) == (
        '{\n  "hooksConfig": {\n    "disabled": [\n      "a"\n    ]\n  }\n}\n'
    )
    assert json.loads(set_value("{}\n", "/hooksConfig/disabled", [])) == {
        "hooksConfig": {"disabled": []}
    }
    out = set_value("{\n  // only a comment\n}\n", "/x", 1)
    assert out == '{\n  // only a comment\n  "x": 1\n}\n'


def test_empty_array_with_comment_inside() -> None:
    text = '{\n  "hooksConfig": {\n    "disabled": [ /* none yet */ ]\n  }\n}\n'
    out = append_to_array(text, "/hooksConfig/disabled", "a")
    assert parse(out)["hooksConfig"]["disabled"] == ["a"]
    assert "/* none yet */" in out


def test_replace_existing_value() -> None:
    out = set_value(MESSY, "/hooksConfig/disabled", [])
    assert parse(out)["hooksConfig"]["disabled"] == []
    assert changed_lines(MESSY, out) == [
        '-       "disabled": [',
        '+       "disabled": [],',
        '-          "old-hook" // keep this comment',
        "-       ],",
    ]
    out2 = set_value(MESSY, "/hooksConfig/notifications", True)
    assert changed_lines(MESSY, out2) == [
        '-       "notifications": false',
        '+       "notifications": true',
    ]


def test_remove_member_middle_and_last() -> None:
    out = remove_value(MESSY, "/hooksConfig/disabled")
    assert parse(out)["hooksConfig"] == {"notifications": False}
    out2 = remove_value(MESSY, "/hooksConfig/notifications")
    assert parse(out2)["hooksConfig"] == {"disabled": ["old-hook"]}
    assert changed_lines(MESSY, out2) == [
        "-       ],",
        "+       ]",
        '-       "notifications": false',
    ]


def test_comment_like_strings_are_not_comments() -> None:
    text = '{\n  "url": "http://x//y/*z*/",\n  "a": [1]\n}\n'
    out = append_to_array(text, "/a", 2)
    assert parse(out) == {"url": "http://x//y/*z*/", "a": [1, 2]}


def test_duplicate_keys_edit_the_effective_one() -> None:
    text = '{"hooksConfig": {"disabled": ["a"]}, "hooksConfig": {"disabled": ["b"]}}'
    out = append_to_array(text, "/hooksConfig/disabled", "c")
    assert parse(out)["hooksConfig"]["disabled"] == ["b", "c"]
    assert '["a"]' in out


def test_pointer_escapes_and_unicode() -> None:
    out = set_value('{"a/b": {}}', "/a~1b/k~0", "é")
    assert parse(out) == {"a/b": {"k~": "é"}}


def test_parse_error_is_reported_with_position() -> None:
    with pytest.raises(SettingsError) as info:
        append_to_array('{\n  "a": 1,\n  oops\n}', "/x", 1, path="s.json")
    assert info.value.line == 3 and info.value.path == "s.json"


def test_non_object_parent_is_refused() -> None:
    with pytest.raises(EditError, match="/hooksConfig is a string"):
        set_value('{"hooksConfig": "nope"}', "/hooksConfig/disabled", [])
    with pytest.raises(EditError, match="not an array"):
        append_to_array('{"hooksConfig": {"disabled": "x"}}', "/hooksConfig/disabled", "y")
    with pytest.raises(EditError, match="nothing at"):
        remove_value("{}", "/a")


def test_bom_is_kept() -> None:
    text = '\ufeff{\n  "a": 1\n}\n'
    out = set_value(text, "/b", 2)
    assert out.startswith("\ufeff{") and parse(out) == {"a": 1, "b": 2}


def test_closing_bracket_on_value_line() -> None:
    text = '{\n  "a": 1}'
    assert set_value(text, "/b", 2) == '{\n  "a": 1,\n  "b": 2}'


# ----------------------------------------------------------------------------- files


def test_write_atomic_keeps_mode_and_creates_dir(tmp_path: os.PathLike[str]) -> None:
    d = os.path.join(str(tmp_path), ".gemini")
    path = os.path.join(d, "settings.json")
    write_atomic(path, "{}\n")
    assert read_text(path) == "{}\n"
    os.chmod(path, 0o600)
    write_atomic(path, '{"a": 1}\r\n')
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    with open(path, "rb") as f:
        assert f.read() == b'{"a": 1}\r\n'
    assert os.listdir(d) == ["settings.json"]  # no temp files left behind


def test_write_atomic_refuses_symlinks(tmp_path: os.PathLike[str]) -> None:
    real = os.path.join(str(tmp_path), "real.json")
    with open(real, "w") as f:
        f.write("{}")
    link = os.path.join(str(tmp_path), "settings.json")
    os.symlink(real, link)
    with pytest.raises(EditError, match="symbolic link"):
        write_atomic(link, "{}")
    realdir = os.path.join(str(tmp_path), "realdir")
    os.mkdir(realdir)
    linkdir = os.path.join(str(tmp_path), ".gemini")
    os.symlink(realdir, linkdir)
    with pytest.raises(EditError, match=r"\.gemini is a symbolic link"):
        write_atomic(os.path.join(linkdir, "settings.json"), "{}")
    assert read_text(real) == "{}"


def test_failed_write_leaves_old_file(tmp_path: os.PathLike[str]) -> None:
    path = os.path.join(str(tmp_path), "settings.json")
    write_atomic(path, '{"old": true}')
    with pytest.raises(UnicodeEncodeError):
        write_atomic(path, '{"bad": "\udc80"}')  # lone surrogate: cannot be encoded
    assert read_text(path) == '{"old": true}'
    assert os.listdir(str(tmp_path)) == ["settings.json"]
    os.chmod(str(tmp_path), 0o500)  # directory not writable: a clear error, old file intact
    try:
        if os.geteuid() != 0:
            with pytest.raises(EditError, match="cannot write"):
                write_atomic(path, "{}")
    finally:
        os.chmod(str(tmp_path), 0o700)
    assert read_text(path) == '{"old": true}'
    with pytest.raises(EditError, match="is a directory"):
        write_atomic(str(tmp_path), "{}")


def test_new_file_mode_follows_umask(tmp_path: os.PathLike[str]) -> None:
    old = os.umask(0o027)
    try:
        path = os.path.join(str(tmp_path), "new.json")
        write_atomic(path, "{}")
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    finally:
        os.umask(old)


def test_read_text_missing_and_bad_utf8(tmp_path: os.PathLike[str]) -> None:
    assert read_text(os.path.join(str(tmp_path), "none.json")) == ""
    bad = os.path.join(str(tmp_path), "bad.json")
    with open(bad, "wb") as f:
        f.write(b'{"a": "\xff"}')
    with pytest.raises(SettingsError, match="UTF-8"):
        read_text(bad)


# ----------------------------------------------------------------------------- property

_scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text('ab/*\\"é ', max_size=4))
_json = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text("abk", max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    doc=st.dictionaries(st.text("abk", min_size=1, max_size=3), _json, max_size=4),
    indent=st.sampled_from([None, 1, 2, 3, 4, "\t"]),
    value=_json,
    comment=st.booleans(),
)
def test_insert_then_remove_round_trips(
    doc: dict[str, object], indent: int | str | None, value: object, comment: bool
) -> None:
    text = json.dumps(doc, indent=indent, ensure_ascii=False) + "\n"
    if comment:
        text = "// header\n" + text
    out = set_value(text, "/zz_new", value)
    assert parse(out) == {**doc, "zz_new": value}
    assert remove_value(out, "/zz_new") == text
    out2 = append_to_array(text, "/hooksConfig/disabled", "h")
    assert parse(out2)["hooksConfig"]["disabled"] == ["h"]


_FILLERS = [" ", "\n", "\t", "  // note\n", "/* c */", "\n  /* multi\n line */\n", "\r\n"]


def _decorate(text: str, picks: list[int]) -> str:
    """Insert comments/whitespace after structural characters (outside strings)."""
    out: list[str] = []
    in_str = esc = False
    k = 0
    for ch in text:
        out.append(ch)
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch in "{[,:" and picks:
            out.append(_FILLERS[picks[k % len(picks)] % len(_FILLERS)])
            k += 1
    return "".join(out)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    doc=st.dictionaries(st.sampled_from(["hooks", "hooksConfig", "a", "b"]), _json, max_size=4),
    picks=st.lists(st.integers(0, 20), max_size=12),
    indent=st.sampled_from([None, 2, 3]),
)
def test_edits_survive_comments_everywhere(
    doc: dict[str, object], picks: list[int], indent: int | None
) -> None:
    text = _decorate(json.dumps(doc, indent=indent), picks)
    base = parse(text)
    cfg = base.get("hooksConfig")
    if "hooksConfig" in base and not isinstance(cfg, dict):
        with pytest.raises(EditError):
            append_to_array(text, "/hooksConfig/disabled", "x")
        return
    disabled = cfg.get("disabled") if isinstance(cfg, dict) else None
    if isinstance(cfg, dict) and "disabled" in cfg and not isinstance(disabled, list):
        with pytest.raises(EditError):
            append_to_array(text, "/hooksConfig/disabled", "x")
        return
    out = append_to_array(text, "/hooksConfig/disabled", "x")
    assert parse(out)["hooksConfig"]["disabled"] == [*(disabled or []), "x"]
    n = len(disabled or [])
    back = remove_value(out, f"/hooksConfig/disabled/{n}")
    assert parse(back)["hooksConfig"]["disabled"] == list(disabled or [])
    for key in list(base):
        assert key not in parse(remove_value(text, "/" + key.replace("~", "~0").replace("/", "~1")))
