"""The sequential chain (docs/contract.md §4): the input the next hook of a sequential firing sees.

Pure: one function of the event, the current input and the previous hook's
outcome. Only an ``ok`` outcome with a ``hookSpecificOutput`` rewrites the input,
and only the field its event chains (``EVENT_SPECS[event].chain``):

* ``PROMPT_CONTEXT`` — ``additionalContext`` is appended to ``prompt`` after a blank line;
* ``LLM_REQUEST`` — ``llm_request`` is merged over the current request;
* ``TOOL_INPUT`` — ``tool_input`` is merged over the current tool input.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING
from hookwise.events import EVENT_SPECS, ChainKind, HookEvent
from hookwise.result import HookOutcome, Outcome

if TYPE_CHECKING:
    from typing import Any


def merged_over(base: object, changes: dict[str, Any]) -> dict[str, Any]:
    """``changes`` merged over ``base`` (a non-object base counts as empty): the one "merge over"
    rule."""
    return {**(base if isinstance(base, dict) else {}), **changes}


def next_input(event: HookEvent, cur: dict[str, Any], outcome: HookOutcome) -> dict[str, Any]:
    """The input of the hook after ``outcome`` in a sequential chain (``cur`` itself when nothing
    changes)."""
    if outcome.outcome is not Outcome.OK or not outcome.output:
        return cur
    kind = EVENT_SPECS[event].chain
    if kind is ChainKind.NONE:
        return cur
    hso = outcome.output.get("hookSpecificOutput")
    if not isinstance(hso, dict):
        return cur
    if kind is ChainKind.PROMPT_CONTEXT:
        ctx = hso.get("additionalContext")
        if isinstance(ctx, str) and ctx:
            return {**cur, "prompt": f"{cur.get('prompt', '')}\n\n{ctx}"}
    elif kind is ChainKind.LLM_REQUEST:
        req = hso.get("llm_request")
        if isinstance(req, dict):
            return {**cur, "llm_request": merged_over(cur.get("llm_request"), req)}
    elif kind is ChainKind.TOOL_INPUT:
        ti = hso.get("tool_input")
        if isinstance(ti, dict):
            return {**cur, "tool_input": merged_over(cur.get("tool_input"), ti)}
    return cur
