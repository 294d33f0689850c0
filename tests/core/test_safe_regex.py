"""Matchers that could backtrack catastrophically are matched in bounded time or refused, from any layer."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hookwise.core.plan import compile_matcher, matcher_warning
from hookwise.core.safe_regex import LinearMatcher, hazard, safe_search
from hookwise.events import MatcherKind

ADVERSARIAL = [
    ("^(a+)+$", "a" * 40 + "!"),
    ("(a|a)*b", "a" * 40),
    ("(a|aa)+$", "a" * 60 + "!"),
    ("^(\\w+\\s?)*$", "word " * 15 + "!"),
    ("(.*a){12}", "a" * 30),
    ("^(([a-z])+.)+[A-Z]([a-z])+$", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"),
    (".*.*.*.*=x", "=" * 3000),
    ("(x+x+)+y", "x" * 40),
]


@pytest.mark.parametrize(("pattern", "subject"), ADVERSARIAL)
def test_adversarial_patterns_are_flagged_and_answer_fast(pattern: str, subject: str) -> None:
    assert hazard(pattern) is not None
    pred = compile_matcher(pattern, MatcherKind.TOOL)
    t0 = time.perf_counter()
    pred(subject)
    pred(subject * 3)
    assert time.perf_counter() - t0 < 2.0
    assert matcher_warning(pattern, MatcherKind.TOOL) is not None


@pytest.mark.parametrize(
    "pattern",
    [
        "run_shell_command",
        "write_file|replace",
        "^mcp_.*",
        ".*",
        "read_.*_file$",
        "(write|edit)_file",
        "a{2,3}b",
    ],
)
def test_ordinary_matchers_are_not_flagged(pattern: str) -> None:
    assert hazard(pattern) is None
    assert matcher_warning(pattern, MatcherKind.TOOL) is None


def test_refused_pattern_is_compared_exactly() -> None:
    pattern = "^(a+)+\\1$"  # a back-reference: the linear matcher cannot express it
    search, note = safe_search(pattern)
    assert search is None and note is not None and "refused" in note
    pred = compile_matcher(pattern, MatcherKind.TOOL)
    assert pred(pattern) and not pred("aaaa")
    t0 = time.perf_counter()
    assert not pred("a" * 50 + "!")
    assert time.perf_counter() - t0 < 1.0


_ALPHABET = "ab_!"
_ATOMS = [
    "a",
    "b",
    "_",
    ".",
    "[ab]",
    "[^a]",
    "\\w",
    "\\W",
    "(a|b)",
    "(ab|a)",
    "(a+)",
    "(a*b?)",
    "(_|\\w)",
]
_QUANTS = ["", "*", "+", "?", "{2}", "{1,3}", "*?", "+?"]


def _random_pattern(rng: random.Random) -> str:
    parts = []
    if rng.random() < 0.3:
        parts.append("^")
    for _ in range(rng.randint(1, 4)):
        atom = rng.choice(_ATOMS)
        if rng.random() < 0.3:
            atom = "(" + atom + rng.choice(_QUANTS) + ")"
        parts.append(atom + rng.choice(_QUANTS))
    if rng.random() < 0.3:
        parts.append(rng.choice(["$", "\\Z", "\\b"]))
    return "".join(parts)


@pytest.mark.slow
def test_linear_matcher_agrees_with_re_on_random_patterns() -> None:
    rng = random.Random(1414)
    checked = 0
    for _ in range(1500):
        pattern = _random_pattern(rng)
        try:
            lm = LinearMatcher(pattern)
        except Exception:  # noqa: BLE001 - unsupported constructs are refused, not compared
            continue
        rx = re.compile(pattern)
        for _ in range(8):
            subject = "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 8)))
            assert lm.search(subject) == (rx.search(subject) is not None), (pattern, subject)
            checked += 1
    assert checked > 5000


def _fire(project: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(project), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


@pytest.mark.slow
@pytest.mark.parametrize("layer", ["project", "user", "extension"])
def test_cloned_project_with_catastrophic_matcher_cannot_hang_a_firing(
    tmp_path: Path, layer: str
) -> None:
    home = tmp_path / "home"
    proj = tmp_path / "proj"
    proj.mkdir()
    hooks = {
        "BeforeTool": [
            {
                "matcher": "^(a+)+$",
                "hooks": [
                    {"type": "command", "name": "guard", "command": 'echo \'{"decision":"deny"}\''}
                ],
            }
        ]
    }
    if layer == "project":
        path = proj / ".gemini" / "settings.json"
    elif layer == "user":
        path = home / ".gemini" / "settings.json"
    else:
        path = home / ".gemini" / "extensions" / "ext" / "hooks" / "hooks.json"
        (path.parent.parent / "gemini-extension.json").parent.mkdir(parents=True, exist_ok=True)
        (path.parent.parent / "gemini-extension.json").write_text(
            '{"name": "ext", "version": "1.0.0"}'
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": hooks}))
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "GEMINI_CLI_HOME": str(home),
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(tmp_path / "none.json"),
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(tmp_path / "none2.json"),
    }
    t0 = time.perf_counter()
    r = _fire(proj, env, "fire", "BeforeTool", "--tool", "a" * 30 + "!", "--json")
    assert time.perf_counter() - t0 < 30
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["hooks"] == []  # it does not match, and the answer came back
    assert (
        f"{path}:" in r.stderr
        and "/hooks/BeforeTool/0/matcher" in r.stderr
        and "catastroph" in r.stderr
    )
    r = _fire(proj, env, "fire", "BeforeTool", "--tool", "a" * 30, "--json")
    outcomes = [h["outcome"] for h in json.loads(r.stdout)["hooks"]]
    if layer == "user":
        assert outcomes == [
            "ok"
        ]  # user hooks are trusted: the matcher still matches what it should
        assert r.returncode == 2
    else:
        assert outcomes == [
            "skipped"
        ]  # untrusted, would have matched: reported, not silently dropped
