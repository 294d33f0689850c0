"""Property tests (hypothesis): strategies shared by the modules of this directory."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from hookwise.events import HookEvent

#: settings for every property: enough examples to find edge cases, fast enough for CI
EXAMPLES = 250


def pytest_terminal_summary(terminalreporter: Any) -> None:
    from faults._stats import terminal_summary

    terminal_summary(terminalreporter)


events = st.sampled_from(list(HookEvent))

# JSON values with the strings that matter: empty, tags, control characters, lone surrogates
# excluded
text = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
keys = st.one_of(
    st.sampled_from(
        [
            "decision",
            "reason",
            "continue",
            "stopReason",
            "systemMessage",
            "suppressOutput",
            "hookSpecificOutput",
            "additionalContext",
            "tool_input",
            "clearContext",
            "toolConfig",
            "llm_request",
            "llm_response",
            "mode",
            "allowedFunctionNames",
            "hookEventName",
            "permissionDecision",
        ]
    ),
    text,
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    text,
    st.sampled_from(["allow", "deny", "block", "ask", "approve", "AUTO", "ANY", "NONE"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=5)),
    max_leaves=8,
)
decisions = st.sampled_from([None, "allow", "deny", "block", "ask", "approve", "", "DENY", 1, True])


small_json = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=2), st.dictionaries(keys, inner, max_size=2)),
    max_leaves=3,
)
_strings = st.one_of(text, scalars)
_hso = st.fixed_dictionaries(
    {},
    optional={
        "additionalContext": _strings,
        "tool_input": st.one_of(st.dictionaries(text, small_json, max_size=3), scalars),
        "toolConfig": st.one_of(
            st.fixed_dictionaries(
                {},
                optional={
                    "mode": st.sampled_from(["AUTO", "ANY", "NONE", "x", None]),
                    "allowedFunctionNames": st.one_of(
                        st.lists(st.sampled_from(["a", "b", "c", ""]), max_size=3), scalars
                    ),
                },
            ),
            scalars,
        ),
        "clearContext": scalars,
        "llm_request": small_json,
        "llm_response": small_json,
        "permissionDecision": st.sampled_from(["allow", "deny", "ask", "defer", "x"]),
        "hookEventName": text,
        "extra": small_json,
    },
)
_outputs = st.fixed_dictionaries(
    {},
    optional={
        "decision": decisions,
        "continue": st.sampled_from([True, False, None, 0, "false"]),
        "reason": _strings,
        "stopReason": _strings,
        "systemMessage": _strings,
        "suppressOutput": scalars,
        "hookSpecificOutput": st.one_of(_hso, _hso, scalars),
        "extra": small_json,
    },
)


def hook_outputs() -> st.SearchStrategy[dict[str, Any]]:
    """A hook answer: the wire fields with plausible and implausible values, plus an arbitrary
    extra."""
    return _outputs
