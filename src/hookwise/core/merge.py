"""Merging the outputs of one firing (docs/contract.md §8). Pure and deterministic.

Outputs are merged in plan order, never in completion order. Rules that hold
for every event (except BeforeToolSelection, which ignores decisions):

* decisions only tighten: any ``deny``/``block`` wins (the last blocking
  spelling is kept), else any ``ask``, else ``allow``;
* ``continue: false`` from any hook wins; stop reasons are joined with newlines.

Per event: OR-merge (tool, agent and SessionStart events) joins reasons, system
messages and ``additionalContext`` with ``\\n``, merges ``hookSpecificOutput``
in order, keeps ``clearContext`` once true and merges ``tool_input`` objects
(later keys win). Replace-merge (model events) lets the later
``llm_request``/``llm_response`` win. Tool-selection merge: ``NONE`` wins, else
``ANY``, else ``AUTO``; allowed names are the sorted union; no toolConfig
anywhere means no change. Simple merge (Notification, SessionEnd, PreCompress)
is a shallow merge where later fields win.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING
from hookwise.events import BLOCKING_DECISIONS, EVENT_SPECS, HookEvent, MergeKind

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any


_KINDS: dict[HookEvent, MergeKind] = {e: spec.merge for e, spec in EVENT_SPECS.items()}
_OR = MergeKind.OR
#: the fields _common_fields reads besides ``decision``
_OTHER_FIELDS = frozenset({"continue", "stopReason", "reason", "systemMessage", "suppressOutput"})
_BEFORE_TOOL = HookEvent.BEFORE_TOOL


def _str(v: Any) -> str | None:
    return v if isinstance(v, str) and v else None


def _decisions(outputs: Sequence[dict[str, Any]], merged: dict[str, Any]) -> None:
    """Apply the tightening rules for ``decision`` and ``continue``/``stopReason``."""
    decision: str | None = None
    blocked = False
    stopped = False
    stop_reasons: list[str] = []
    for o in outputs:
        d = o.get("decision")
        if d in BLOCKING_DECISIONS:
            decision, blocked = d, True
        elif d == "ask" and not blocked:
            decision = "ask"
        if o.get("continue") is False:
            stopped = True
            sr = _str(o.get("stopReason"))
            if sr:
                stop_reasons.append(sr)
    _write_decision(merged, decision, stopped, stop_reasons)


def _write_decision(
    merged: dict[str, Any], decision: str | None, stopped: bool, stop_reasons: list[str]
) -> None:
    """``decision``, ``continue`` and ``stopReason`` of the merged answer (a REPLACE merge's dict
    may hold them already): the tightest decision, else ``allow`` unless a hook stopped."""
    if decision is not None:
        merged["decision"] = decision
    elif not stopped:
        merged["decision"] = "allow"
    else:
        merged.pop("decision", None)
    merged["continue"] = not stopped
    if stop_reasons:
        merged["stopReason"] = "\n".join(stop_reasons)
    else:
        merged.pop("stopReason", None)


def _join(outputs: Sequence[dict[str, Any]], key: str) -> str | None:
    parts = []
    for o in outputs:
        v = o.get(key)
        if isinstance(v, str) and v:
            parts.append(v)
    return "\n".join(parts) if parts else None


def _common_fields(outputs: Sequence[dict[str, Any]], merged: dict[str, Any]) -> None:
    """The top-level fields OR and REPLACE merges treat alike, in one pass (every firing that ran a
    hook merges): ``decision``/``continue``/``stopReason`` as :func:`_decisions` sets them,
    ``reason`` and ``systemMessage`` joined, ``suppressOutput`` if any hook set it."""
    decision: str | None = None
    blocked = stopped = suppress = False
    stop_reasons: list[str] = []
    reasons: list[str] = []
    messages: list[str] = []
    for o in outputs:
        d = o.get("decision")
        if d in BLOCKING_DECISIONS:
            decision, blocked = d, True
        elif d == "ask" and not blocked:
            decision = "ask"
        if not _OTHER_FIELDS.isdisjoint(o):  # more than a decision (the usual answer)
            stops, suppresses = _texts(o, stop_reasons, reasons, messages)
            stopped = stopped or stops
            suppress = suppress or suppresses
    _write_decision(merged, decision, stopped, stop_reasons)
    if reasons:
        merged["reason"] = "\n".join(reasons)
    if messages:
        merged["systemMessage"] = "\n".join(messages)
    merged["suppressOutput"] = suppress


def _texts(
    o: dict[str, Any], stop_reasons: list[str], reasons: list[str], messages: list[str]
) -> tuple[bool, bool]:
    """One answer's ``continue``/``stopReason``, ``reason`` and ``systemMessage`` (its texts
    appended): whether it stops, whether it sets ``suppressOutput``."""
    stops = o.get("continue") is False
    if stops:
        sr = o.get("stopReason")
        if isinstance(sr, str) and sr:
            stop_reasons.append(sr)
    r = o.get("reason")
    if isinstance(r, str) and r:
        reasons.append(r)
    m = o.get("systemMessage")
    if isinstance(m, str) and m:
        messages.append(m)
    return stops, bool(o.get("suppressOutput"))


def merge_or(outputs: Sequence[dict[str, Any]], base_tool_input: Any = None) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    _common_fields(outputs, merged)
    for o in outputs:
        if isinstance(o.get("hookSpecificOutput"), dict):
            hso = _specific(outputs, base_tool_input)
            if hso:
                merged["hookSpecificOutput"] = hso
            break  # (no hook-specific output, the usual answers: nothing more to merge)
    return merged


def _specific(outputs: Sequence[dict[str, Any]], base_tool_input: Any) -> dict[str, Any]:
    """The OR merge of the answers' ``hookSpecificOutput``: ``additionalContext`` joined,
    ``clearContext`` once true, ``tool_input`` objects merged over the original arguments, other
    fields later wins."""
    hso: dict[str, Any] = {}
    contexts: list[str] = []
    clear = False
    tool_input: dict[str, Any] | None = None
    for o in outputs:
        h = o.get("hookSpecificOutput")
        if not isinstance(h, dict):
            continue
        for k, v in h.items():
            if k == "additionalContext":
                if isinstance(v, str):
                    contexts.append(v)
            elif k == "clearContext":
                if v is True:
                    clear = True
            elif k == "tool_input":
                if isinstance(v, dict):
                    if tool_input is None:
                        tool_input = (
                            dict(base_tool_input) if isinstance(base_tool_input, dict) else {}
                        )
                    tool_input.update(v)
            else:
                hso[k] = v
    if contexts:
        hso["additionalContext"] = "\n".join(contexts)
    if clear:
        hso["clearContext"] = True
    if tool_input is not None:
        hso["tool_input"] = tool_input
    return hso


def merge_replace(outputs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    hso: dict[str, Any] = {}
    for o in outputs:
        for k, v in o.items():
            if k == "hookSpecificOutput":
                if isinstance(v, dict):
                    hso.update(v)
            else:
                merged[k] = v
    _common_fields(outputs, merged)
    if hso:
        merged["hookSpecificOutput"] = hso
    return merged


MODES = ("AUTO", "ANY", "NONE")


def merge_tool_selection(outputs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    configs = []
    for o in outputs:
        h = o.get("hookSpecificOutput")
        if isinstance(h, dict) and isinstance(h.get("toolConfig"), dict):
            configs.append(h["toolConfig"])
    merged: dict[str, Any] = {}
    msg = _join(outputs, "systemMessage")
    if msg is not None:
        merged["systemMessage"] = msg
    if not configs:
        return merged
    modes = {c.get("mode") for c in configs}
    names: set[str] = set()
    for c in configs:
        allowed = c.get("allowedFunctionNames")
        if isinstance(allowed, list):
            names.update(n for n in allowed if isinstance(n, str))
    if "NONE" in modes:
        mode, allowed_names = "NONE", []
    elif "ANY" in modes:
        mode, allowed_names = "ANY", sorted(names)
    else:
        mode, allowed_names = "AUTO", sorted(names)
    merged["hookSpecificOutput"] = {
        "hookEventName": "BeforeToolSelection",
        "toolConfig": {"mode": mode, "allowedFunctionNames": allowed_names},
    }
    return merged


def merge_simple(outputs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for o in outputs:
        merged.update(o)
    _decisions(outputs, merged)
    return merged


def merge(
    event: HookEvent, outputs: Sequence[dict[str, Any]], input_: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The merged output of one firing (``{}`` when no hook answered)."""
    if not outputs:
        return {}
    kind = _KINDS[event]
    if kind is _OR:
        if input_ is not None and event is _BEFORE_TOOL:
            return merge_or(outputs, input_.get("tool_input"))
        return merge_or(outputs)
    if kind is MergeKind.REPLACE:
        return merge_replace(outputs)
    if kind is MergeKind.TOOL_SELECTION:
        return merge_tool_selection(outputs)
    return merge_simple(outputs)
