"""Escaping of additional context is total: no text a hook returns can leave ``<hook_context>``."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faults._stats import counted
from hookwise.core.merge import merge
from hookwise.events import EVENT_SPECS, HookEvent, MergeKind
from hookwise.result import FireResult, escape_context, hook_context_block

from .conftest import EXAMPLES

P = settings(max_examples=EXAMPLES, deadline=None, database=None)

nasty = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "<",
                ">",
                "</hook_context>",
                "<hook_context>",
                "&lt;",
                "&gt;",
                "&",
                "<system>",
                "]]>",
                "<!--",
                "-->",
                "\u2039",
                "\uff1c",
                "\x00",
                "\n",
            ]
        ),
        st.text(max_size=8),
    ),
    max_size=12,
).map("".join)
OR_EVENTS = [e for e, s in EVENT_SPECS.items() if s.merge is MergeKind.OR]


def check_block(block: str) -> None:
    assert block.startswith("<hook_context>") and block.endswith("</hook_context>")
    inner = block[len("<hook_context>") : -len("</hook_context>")]
    assert "<" not in inner and ">" not in inner
    assert block.count("<") == 2 and block.count(">") == 2


@pytest.mark.slow
@P
@given(text=nasty)
@counted("property examples")
def test_escape_is_total(text: str) -> None:
    escaped = escape_context(text)
    assert "<" not in escaped and ">" not in escaped
    assert escaped.replace("&lt;", "<").replace("&gt;", ">").count("<") == text.count(
        "<"
    ) + text.count("&lt;")  # every bracket is still there, as an entity
    check_block(hook_context_block(text))


@pytest.mark.slow
@P
@given(
    event=st.sampled_from(OR_EVENTS),
    contexts=st.lists(st.one_of(nasty, st.integers(), st.none()), min_size=1, max_size=5),
)
@counted("property examples")
def test_merged_context_reaches_the_model_escaped(event: HookEvent, contexts: list[Any]) -> None:
    outputs = [{"hookSpecificOutput": {"additionalContext": c}} for c in contexts]
    result = FireResult(event, {}, merge(event, outputs))
    block = result.hook_context
    strings = [c for c in contexts if isinstance(c, str)]
    if not any(strings):
        assert block is None or block == "<hook_context></hook_context>" or "\n" in block
        return
    assert block is not None
    check_block(block)
    assert result.additional_context is not None
    assert "<" not in result.additional_context and ">" not in result.additional_context
