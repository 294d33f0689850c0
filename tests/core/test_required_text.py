"""A secret-looking value is found without importing re when the value cannot match (core/required_text.py)."""

from __future__ import annotations

import random
import re

from hookwise.core.required_text import required_texts
from hookwise.runners import env

SECRETS = [
    "-----BEGIN RSA PRIVATE KEY-----",
    "postgres://user:pw@localhost/db",
    "ghp_" + "a" * 36,
    "github_pat_" + "a" * 40,
    "AIzaSy" + "a" * 33,
    "AKIA" + "A" * 16,
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc",
    "sk_live_" + "a" * 12,
    "rk_test_" + "a" * 12,
    "xoxb-123-abc",
]


def test_every_alternative_has_a_required_text() -> None:
    assert (
        required_texts(env.SECRET_VALUE_PATTERN) is not None
    )  # else every value is searched (slower, safe)
    assert required_texts(r"a*b|cd") is None  # an alternative without two required characters
    assert required_texts(r"\b(?:sk|rk)_(?:live|test)_x{2,}|\.git/") == ("sk_", "rk_", ".git/")


def test_the_written_markers_are_what_the_pattern_requires() -> None:
    # env._MARKERS is written out (not computed at import): it must stay what the pattern requires
    assert required_texts(env.SECRET_VALUE_PATTERN) == env._MARKERS


def test_the_prefilter_agrees_with_the_expression() -> None:
    pattern = re.compile(env.SECRET_VALUE_PATTERN)
    for s in SECRETS:
        assert env.looks_secret(s) and env.looks_secret(f"x {s} y"), s
    rng = random.Random(7)
    pieces = [
        *SECRETS,
        "://",
        "ghp_",
        "AKIA",
        "eyJ",
        "a",
        "B",
        "0",
        ":",
        "@",
        "/",
        ".",
        "_",
        "-",
        " ",
    ]
    for _ in range(5000):
        value = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 6)))
        assert env.looks_secret(value) == bool(pattern.search(value)), value
    assert not env.looks_secret("/usr/local/bin:/usr/bin")
