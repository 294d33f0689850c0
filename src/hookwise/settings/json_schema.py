"""The JSON Schema (draft-07) of the hooks sections, generated from the tables of :mod:`hookwise.settings.schema`.

Kept apart from the tables: reading settings (every ``hookwise fire``) never needs it, only editors, ``validate``'s
tooling and the shipped ``settings/schema.json``. Regenerate that file with
``python -m hookwise.settings.json_schema --write``; ``tests/tooling/test_schema.py`` checks it is current.
"""

from __future__ import annotations

from hookwise._records import TYPE_CHECKING
from hookwise.core.keys import EVERY_LAYER, HOOK_SOURCES, Key
from hookwise.events import EVENT_SPECS, HookEvent, MatcherKind
from hookwise.jsonc.codec import dumps_indented
from hookwise.runners.hook_keys import HOOK_KEYS, HOOK_MARKERS, HOOK_TYPES, sync_kinds
from hookwise.settings.schema import (
    DEFINITION_KEYS,
    EXACT_VALUES,
    HOOKS_CONFIG_KEYS,
    OLD_LOCATIONS,
    REDACTION_KEYS,
    SCHEMA_FILE,
    TELEMETRY_KEYS,
)

if TYPE_CHECKING:
    from typing import Any


def _prop(row: Key) -> dict[str, Any]:
    out = dict(row.kind.json())
    origin = row.source_rule
    limited = not set(HOOK_SOURCES).issubset(origin.layers) and origin.layers != EVERY_LAYER
    description = " ".join([row.doc, origin.statement()] if limited else [row.doc]).strip()
    if description:
        out["description"] = description
    if limited:  # the origin rule (core/keys.py Origin), for tools that read it
        out["x-hookwise-layers"] = list(origin.layers)
    if row.default is not None and not row.required:
        out["default"] = row.default
    return out


def _event_doc(event: HookEvent) -> str:
    spec = EVENT_SPECS[event]
    text = spec.description[:1].upper() + spec.description[1:] + "."
    if spec.matcher is MatcherKind.TOOL:
        return (
            text
            + ' Matcher: regular expression searched in the tool name, e.g. "write_file|replace".'
        )
    if spec.matcher is MatcherKind.NONE:
        return text + " Matchers are ignored."
    return text + f" Matcher: {', '.join(EXACT_VALUES.get(event, ()))} (exact, '|'-separated)."


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft-07) of the hooks sections, generated from the tables above."""
    sync_kinds()
    # a key of some hook types only is checked under those types (on another type it is ignored, not an error)
    hook_props: dict[str, dict[str, Any]] = {
        name: _prop(row) if not row.types else ({"description": row.doc} if row.doc else {})
        for name, row in HOOK_KEYS.items()
    }
    hook_props["type"]["enum"] = [n for n, t in HOOK_TYPES.items() if t.loads]
    per_type = []
    for name, t in HOOK_TYPES.items():
        runs = t.runs_as or name
        needed = [
            k
            for k, row in HOOK_KEYS.items()
            if row.required and k != "type" and row.applies_to(runs)
        ]
        own = {k: _prop(row) for k, row in HOOK_KEYS.items() if row.types and runs in row.types}
        if t.loads and (needed or own):
            then: dict[str, Any] = {"required": needed} if needed else {}
            if own:
                then["properties"] = own
            per_type.append(
                {
                    "if": {"properties": {"type": {"const": name}}, "required": ["type"]},
                    "then": then,
                }
            )
    hook: dict[str, Any] = {"type": "object", "required": ["type"], "properties": hook_props}
    if per_type:
        hook["allOf"] = per_type
    definition_props = {name: _prop(row) for name, row in DEFINITION_KEYS.items()}
    events: dict[str, Any] = {
        e.value: {
            "description": _event_doc(e),
            "type": "array",
            "items": {"$ref": "#/definitions/definition"},
        }
        for e in HookEvent
    }
    for old in OLD_LOCATIONS:
        events[old] = {"description": f"Old location, not read: use hooksConfig.{old}."}
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://hookwise.dev/schema/settings.schema.json",
        "title": "hookwise / Gemini CLI hook settings",
        "description": 'The "hooks" and "hooksConfig" sections of .gemini/settings.json (and the "hooks" '
        "object of an extension's hooks/hooks.json). Other keys of the settings file are not "
        "described here and are allowed. Generated from hookwise.settings.schema.",
        "type": "object",
        "properties": {
            "hooks": {"$ref": "#/definitions/hooks"},
            "hooksConfig": {"$ref": "#/definitions/hooksConfig"},
            "security": {
                "properties": {"environmentVariableRedaction": {"$ref": "#/definitions/redaction"}}
            },
            "telemetry": {"$ref": "#/definitions/telemetry"},
        },
        "definitions": {
            "hooks": {
                "description": "Hook definitions keyed by event name. Each value is an array of definitions.",
                "type": "object",
                "properties": events,
                "additionalProperties": False,
            },
            "definition": {
                "type": "object",
                "required": ["hooks"],
                "properties": definition_props,
                "not": {
                    "description": '"type"/"command" belong to the hooks inside the definition\'s "hooks" array',
                    "anyOf": [{"required": [k]} for k in HOOK_MARKERS],
                },
            },
            "hook": hook,
            "hooksConfig": {
                "type": "object",
                "properties": {n: _prop(row) for n, row in HOOKS_CONFIG_KEYS.items()},
            },
            "redaction": {
                "type": "object",
                "properties": {n: _prop(row) for n, row in REDACTION_KEYS.items()},
            },
            "telemetry": {
                "type": "object",
                "properties": {n: _prop(row) for n, row in TELEMETRY_KEYS.items()},
            },
        },
    }


def json_schema_text() -> str:
    """:func:`json_schema` as the text of the shipped file."""
    return dumps_indented(json_schema(), ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m hookwise.settings.schema [--write]``: print the JSON Schema, or rewrite the shipped file."""
    import sys
    from pathlib import Path

    args = sys.argv[1:] if argv is None else argv
    if args == ["--write"]:
        target = Path(__file__).resolve().parent.parent / SCHEMA_FILE
        target.write_text(json_schema_text(), encoding="utf-8")
        print(target)
        return 0
    sys.stdout.write(json_schema_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
