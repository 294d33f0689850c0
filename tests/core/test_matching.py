"""Every pattern hookwise evaluates runs in linear time (core/matching.py; docs/sources.md).

Tool matchers, ``if`` rules (Claude permission-rule globs) and wildcards go through
one matcher that answers as ``re`` would; a pattern it cannot bound is skipped with
a warning naming the file and key, and ``hookwise validate`` reports it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise import HookSystem
from hookwise.claude.conditions import call_matches
from hookwise.core.matching import Unbounded, compile_regex, unbounded, wildcard
from hookwise.core.plan import compile_matcher, matcher_warning
from hookwise.core.rules import bash_matches, parse_rule, rule_error
from hookwise.events import MatcherKind

#: each property's example count (stated in docs/sources.md)
EXAMPLES = 300
#: the CPU time one adversarial 10 000-character subject may take (search and full match)
BUDGET_S = 0.050

# --------------------------------------------------------------------------- random patterns

_ATOMS = [
    "a", "b", "_", "!", " ", ".", "[ab]", "[^a]", r"\w", r"\W", r"\d", r"\s", r"[a-c\s]",
    "(a|b)", "(ab|a)", "(a+)", "(a*b?)", r"(_|\w)", "(?i:A)", "(?s:.)", "\n",
]  # fmt: skip
_ASSERTS = [
    "^",
    "$",
    r"\b",
    r"\B",
    r"\A",
    r"\Z",
    "(?m:^)",
    "(?m:$)",
    "(?=a)",
    "(?!b)",
    "(?<=a)",
    "(?<!_)",
]
_QUANTS = ["", "", "*", "+", "?", "{2}", "{1,3}", "*?", "+?", "{0,2}"]


@st.composite
def patterns(draw: st.DrawFn) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.integers(0, 4)) == 0:
            parts.append(draw(st.sampled_from(_ASSERTS)))
            continue
        atom = draw(st.sampled_from(_ATOMS))
        if draw(st.booleans()):
            atom = "(" + atom + draw(st.sampled_from(_QUANTS)) + ")"
        parts.append(atom + draw(st.sampled_from(_QUANTS)))
    return draw(st.sampled_from(["", "", "(?i)"])) + "".join(parts)


subjects = st.text(st.sampled_from("aAb_! \n1é"), max_size=8)


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(patterns(), st.lists(subjects, min_size=1, max_size=6))
def test_answers_are_the_ones_re_gives(pattern: str, texts: list[str]) -> None:
    rx = re.compile(pattern)  # short subjects: re itself is safe here
    m = compile_regex(pattern)
    for s in texts:
        assert m.search(s) == (rx.search(s) is not None), (pattern, s)
        assert m.fullmatch(s) == (rx.fullmatch(s) is not None), (pattern, s)


def _adversarial(kind: int, seed: int) -> str:
    """10 000 characters shaped to make a backtracking matcher explode."""
    import random

    rng = random.Random(seed)
    if kind == 0:
        return "a" * 10_000
    if kind == 1:
        return "a" * 9_999 + "!"
    if kind == 2:
        return "ab" * 5_000
    if kind == 3:
        return "a_ " * 3_333 + "!"
    if kind == 4:
        return "".join(rng.choice("aAb_! \n1") for _ in range(10_000))
    return "".join(chr(rng.randint(32, 0x2FF)) for _ in range(10_000))


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(patterns(), st.integers(0, 5), st.integers(0, 1000))
def test_random_patterns_on_adversarial_subjects_finish_in_50_ms(
    pattern: str, kind: int, seed: int
) -> None:
    subject = _adversarial(kind, seed)
    m = compile_regex(pattern)
    assert _best_of_3(lambda: (m.search(subject), m.fullmatch(subject))) < BUDGET_S, pattern


def _best_of_3(work: Callable[[], object]) -> float:
    """The least CPU time of three runs (thread time: a busy shared machine's waits do not count)."""
    best = float("inf")
    for _ in range(3):
        t0 = time.thread_time()
        work()
        best = min(best, time.thread_time() - t0)
    return best


CATASTROPHIC = [
    ("^(a+)+$", "a" * 40 + "!"),
    ("(a|a)*b", "a" * 40),
    ("(a|aa)+$", "a" * 60 + "!"),
    ("^(\\w+\\s?)*$", "word " * 15 + "!"),
    ("(.*a){12}", "a" * 30),
    ("^(([a-z])+.)+[A-Z]([a-z])+$", "a" * 30 + "!"),
    (".*.*.*.*=x", "=" * 3000),
    ("(x+x+)+y", "x" * 40),
    ("\\w*\\w*!", "a" * 3000),  # two adjacent repeats: missed by the old static guard (55 s)
    ("(\\w|_)*\\d*[a-z]*!", "a_1" * 3000),
]


@pytest.mark.parametrize(("pattern", "subject"), CATASTROPHIC)
def test_catastrophic_patterns_answer_fast(pattern: str, subject: str) -> None:
    pred = compile_matcher(pattern, MatcherKind.TOOL)
    t0 = time.perf_counter()
    assert pred(subject * 3) is False or True
    assert time.perf_counter() - t0 < 0.5
    assert matcher_warning(pattern, MatcherKind.TOOL) is None  # bounded: nothing to warn about


@pytest.mark.parametrize(
    "pattern",
    [
        r"^(a+)+\1$",  # back-reference
        r"(?P<x>a)(?(x)b|c)",  # conditional
        "a*+b",  # possessive
        "(?>a+)b",  # atomic group
        "(?=a+)b",  # look-around with a repeat
        "x{5000}",  # too many states
    ],
)
def test_unboundable_patterns_are_refused(pattern: str) -> None:
    with pytest.raises(Unbounded):
        compile_regex(pattern)
    assert unbounded(pattern)
    warning = matcher_warning(pattern, MatcherKind.TOOL)
    assert warning and "bounded time" in warning and "skipped" in warning
    assert compile_matcher(pattern, MatcherKind.TOOL)("a" * 40) is False


def test_invalid_regex_is_still_compared_exactly() -> None:
    pred = compile_matcher("read_file(", MatcherKind.TOOL)
    assert pred("read_file(") and not pred("read_file")
    assert unbounded("read_file(") is None


def test_register_refuses_an_unboundable_matcher() -> None:
    hs = HookSystem(project_dir=".")
    with pytest.raises(ValueError, match="bounded time"):
        hs.register("BeforeTool", lambda i: None, name="x", matcher="(a+)\\1")


# --------------------------------------------------------------------------- wildcards and `if` rules


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.text(st.sampled_from("ab* "), max_size=8), st.text(st.sampled_from("ab *"), max_size=10))
def test_wildcards_answer_as_the_regex_they_stand_for(pattern: str, s: str) -> None:
    rx = re.compile(".*".join(re.escape(p) for p in pattern.split("*")), re.DOTALL)
    assert wildcard(pattern).fullmatch(s) == (rx.fullmatch(s) is not None)


DATABASE = "DATABASE_URL=postgres://user:pw@localhost:5432/app_test_db_01"


@pytest.mark.parametrize(
    "command",
    [
        DATABASE,
        DATABASE * 150,
        f"{DATABASE} npm test",
        "A=" + "'x'" * 3000 + "b",
        'A="' + "\\x" * 3000,
        "git " + "a" * 10_000,
        "x=" + "a=" * 5000 + " git push",
    ],
)
def test_bash_rules_are_linear(command: str) -> None:
    t0 = time.perf_counter()
    bash_matches("git push *", command)
    bash_matches("git * origin *", command)
    assert time.perf_counter() - t0 < BUDGET_S * 4


@pytest.mark.parametrize(
    ("rule", "path"),
    [
        ("Edit(**/*a*a*a*a*a*a*b)", "/p/" + "a" * 10_000),
        ("Read(src/**/x/**/y/**/z)", "/p/src/" + "x/" * 5000),
        ("Edit(*.[ch]*)", "/p/" + "a.c" * 3000),
    ],
)
def test_path_rules_are_linear(rule: str, path: str) -> None:
    payload = {"tool_name": "replace", "tool_input": {"file_path": path}, "cwd": "/p"}
    t0 = time.perf_counter()
    call_matches(parse_rule(rule), payload, project_dir="/p", home="/h")
    assert time.perf_counter() - t0 < BUDGET_S * 4


def test_an_unboundable_path_glob_is_a_rule_error() -> None:
    assert "bounded time" in (rule_error("Edit(" + "[ab]?" * 1500 + ")") or "")


# --------------------------------------------------------------------------- through the CLI


def _env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "GEMINI_CLI_HOME": str(home),
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(tmp_path / "none.json"),
        "GEMINI_CLI_SYSTEM_DEFAULTS_PATH": str(tmp_path / "none2.json"),
    }


def _hookwise(proj: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookwise", "--project", str(proj), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


@pytest.mark.parametrize("trusted", [False, True])
def test_if_rule_cannot_hang_a_firing(tmp_path: Path, trusted: bool) -> None:
    proj = tmp_path / "proj"
    (proj / ".gemini").mkdir(parents=True)
    hook = {"type": "command", "name": "guard", "if": "Bash(git push *)", "command": "exit 2"}
    (proj / ".gemini" / "settings.json").write_text(
        json.dumps({"hooks": {"BeforeTool": [{"hooks": [hook]}]}})
    )
    env = _env(tmp_path)
    if trusted:
        env["HOOKWISE_TRUST_ALL"] = "1"
    for command, blocked in [(DATABASE * 20, False), (f"{DATABASE} git push origin", True)]:
        t0 = time.perf_counter()
        r = _hookwise(
            proj, env, "fire", "BeforeTool", "--tool", "run_shell_command",
            "--tool-input", json.dumps({"command": command}), "--json",
        )  # fmt: skip
        assert time.perf_counter() - t0 < 20
        outcomes = [h["outcome"] for h in json.loads(r.stdout)["hooks"]]
        if not blocked:
            assert outcomes == [] and r.returncode == 0, r.stderr
        else:
            assert outcomes == (["blocked"] if trusted else ["skipped"])
            assert r.returncode == (2 if trusted else 0)
        t0 = time.perf_counter()
        result = HookSystem(proj, trust_all=trusted).fire(
            "BeforeTool", tool_name="run_shell_command", tool_input={"command": command}
        )  # the Python API
        assert time.perf_counter() - t0 < 5
        assert len(result.hooks) == (1 if blocked else 0)


@pytest.mark.parametrize("layer", ["project", "user"])
def test_unboundable_matcher_is_skipped_with_a_warning_and_fails_validate(
    tmp_path: Path, layer: str
) -> None:
    proj = tmp_path / "proj"
    proj.mkdir()
    env = _env(tmp_path)
    env["HOOKWISE_TRUST_ALL"] = "1"
    path = (
        proj / ".gemini" / "settings.json"
        if layer == "project"
        else Path(env["HOME"]) / ".gemini" / "settings.json"
    )
    path.parent.mkdir(parents=True)
    guard = {"type": "command", "name": "guard", "command": "exit 2"}
    path.write_text(
        json.dumps({"hooks": {"BeforeTool": [{"matcher": "(a+)+\\1", "hooks": [guard]}]}})
    )
    r = _hookwise(proj, env, "fire", "BeforeTool", "--tool", "aa", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["hooks"] == []
    assert f"{path}:" in r.stderr and "/hooks/BeforeTool/0/matcher" in r.stderr
    assert "bounded time" in r.stderr and "back-reference" in r.stderr
    v = _hookwise(proj, env, "validate")
    assert v.returncode == 1 and "bounded time" in (v.stdout + v.stderr)


def test_unboundable_if_rule_fails_validate_and_skips_its_hook(tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    (proj / ".gemini").mkdir(parents=True)
    hook = {
        "type": "command",
        "name": "g",
        "if": "Edit(" + "[ab]?" * 1500 + ")",
        "command": "exit 2",
    }
    (proj / ".gemini" / "settings.json").write_text(
        json.dumps({"hooks": {"BeforeTool": [{"hooks": [hook]}]}})
    )
    env = _env(tmp_path)
    env["HOOKWISE_TRUST_ALL"] = "1"
    v = _hookwise(proj, env, "validate")
    assert v.returncode == 1 and "bounded time" in (v.stdout + v.stderr)
    r = _hookwise(proj, env, "fire", "BeforeTool", "--tool", "replace", "--json")
    assert json.loads(r.stdout)["hooks"] == [] and "bounded time" in r.stderr
