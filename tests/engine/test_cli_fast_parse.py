"""``hookwise fire`` is parsed without argparse when the line is plain, and always exactly as
argparse would."""

from __future__ import annotations

import itertools

import pytest

from hookwise.cli.main import _parse_fast
from hookwise.cli.parser import build_parser

PLAIN = [
    [
        "fire",
        "BeforeTool",
        "--tool",
        "run_shell_command",
        "--tool-input",
        '{"command": "ls"}',
        "--json",
    ],
    [
        "--project",
        "/p",
        "--trace=/t.jsonl",
        "--claude-settings",
        "fire",
        "--json",
        "AfterAgent",
        "--prompt",
        "",
    ],
    ["fire", "SessionStart", "--source=resume", "--session-id", "s1", "--input", "-"],
    ["fire", "AfterTool", "--tool", "t", "--tool-response={}", "--stop-hook-active", "--tool", "u"],
    [
        "fire",
        "Notification",
        "--message",
        "m",
        "--details",
        "{}",
        "--notification-type",
        "ToolPermission",
    ],
    ["--project=", "fire", "x-not-an-event"],
]

ODD = [
    ["fire"],
    ["fire", "A", "B"],
    ["fire", "A", "--tool"],
    ["fire", "A", "--tool", "-x"],
    ["fire", "A", "--tool-in", "x"],
    ["fire", "A", "--json=1"],
    ["fire", "A", "-h"],
    ["fire", "--help"],
    ["--proj", "/p", "fire", "A"],
    ["--project", "-p", "fire", "A"],
    ["--version", "fire", "A"],
    ["fire", "A", "--", "x"],
    ["fire", "A", "--prompt", "-1"],
    ["fire", "-", "--json"],
    ["--claude-settings=1", "fire", "A"],
    ["--trace"],
]


def argparse_view(argv: list[str]) -> dict[str, object]:
    return vars(build_parser("fire").parse_args(argv))


@pytest.mark.parametrize("argv", PLAIN)
def test_plain_lines_are_parsed_as_argparse_does(argv: list[str]) -> None:
    fast = _parse_fast(argv)
    assert fast is not None
    assert vars(fast) == argparse_view(argv)


@pytest.mark.parametrize("argv", ODD)
def test_anything_else_is_left_to_argparse(argv: list[str]) -> None:
    assert _parse_fast(argv) is None


def test_every_flag_in_both_spellings() -> None:
    from hookwise.cli.fire import FLAGS

    for (flag, metavar, *_), spelled in itertools.product(FLAGS, ("split", "joined")):
        extra = (
            [flag] if metavar is None else ([flag, "v"] if spelled == "split" else [f"{flag}=v"])
        )
        argv = ["fire", "BeforeAgent", *extra]
        fast = _parse_fast(argv)
        assert fast is not None and vars(fast) == argparse_view(argv), argv


def test_every_global_option_in_both_spellings() -> None:
    """The fast reader and argparse are both built from GLOBAL_OPTIONS: each row reads alike in
    both."""
    from hookwise.cli.base import GLOBAL_OPTIONS

    for (flag, metavar, *_), spelled in itertools.product(GLOBAL_OPTIONS, ("split", "joined")):
        value = "." if flag in ("--project", "--plugin-dir") else "gemini"
        given = (
            [flag]
            if metavar is None
            else [flag, value]
            if spelled == "split"
            else [f"{flag}={value}"]
        )
        argv = [*given, "fire", "BeforeAgent", "--prompt", "p"]
        fast = _parse_fast(argv)
        assert fast is not None and vars(fast) == argparse_view(argv), argv
