"""Hooks that ``hookwise install --take-over`` moved out of an agent's own file (docs/agents.md).

The store ``hookwise-takeover.<agent>.json`` beside the agent's file holds the file's original text;
the bridge runs the hooks of that text: Claude Code's format for the agents of Claude's dialect (as
``"dialect": "claude"`` hooks), the contract's for the Gemini-contract agents. They keep the scope
of the file they came from (a project file's hooks need ``hookwise trust``, as every project hook
does).
"""

from __future__ import annotations

import os

from hookwise._records import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from hookwise.bridge.agents import Agent
    from hookwise.core.registry import HookEntry


def taken_over_entries(
    agent: Agent, project: str, env: Mapping[str, str]
) -> tuple[list[HookEntry], list[str]]:
    """The hooks moved out of the agent's user and project files, plus warnings about them."""
    entries: list[HookEntry] = []
    warnings: list[str] = []
    from hookwise.bridge.moved import STYLES

    if agent.config != "groups" and agent.config not in STYLES:
        return entries, warnings
    user_file = agent.config_path(project, env, user=True)
    for label, path in (("user", user_file), ("project", agent.config_path(project, env))):
        store = _store(agent, path)
        if label == "project" and os.path.abspath(path) == os.path.abspath(user_file):
            continue  # the project is the home directory: one file, read once
        if os.path.isfile(store):
            more, notes = _entries_of(agent, label, store)
            entries.extend(more)
            warnings.extend(notes)
    return entries, warnings


def _store(agent: Agent, path: str) -> str:
    if agent.own_file:  # Copilot: beside its hooks folder (bridge.copilot_takeover)
        from hookwise.bridge.copilot_takeover import store_path

        return store_path(path, agent)
    return os.path.join(os.path.dirname(path), f"hookwise-takeover.{agent.name}.json")


def _copilot_entries(agent: Agent, label: str, store: str) -> tuple[list[HookEntry], list[str]]:
    from hookwise.bridge.copilot_takeover import originals
    from hookwise.bridge.moved import entries_of

    docs, warnings = originals(store)
    entries: list[HookEntry] = []
    for _name, doc in docs:
        more, notes = entries_of(agent, label, store, doc if isinstance(doc, dict) else {})
        entries.extend(more)
        warnings.extend(notes)
    return entries, warnings


def _entries_of(agent: Agent, label: str, store: str) -> tuple[list[HookEntry], list[str]]:
    if agent.own_file:
        return _copilot_entries(agent, label, store)
    from hookwise.errors import SettingsError
    from hookwise.jsonc.parse import parse, read_file

    try:
        _text, rec = read_file(store)
        original = rec.get("original") if isinstance(rec, dict) else None
        if not isinstance(original, str):
            return [], [f"{store}: /original is missing; the taken-over hooks are not run"]
        doc = parse(original, store) if original.strip() else {}
    except SettingsError as exc:
        return [], [f"{exc}; the taken-over hooks are not run"]
    if not isinstance(doc, dict):
        return [], [f"{store}: /original is not a JSON object; the taken-over hooks are not run"]
    if agent.config != "groups":  # Cursor, agy, Windsurf: run in their own format
        from hookwise.bridge.moved import entries_of

        return entries_of(agent, label, store, doc)
    if agent.own_profile is not None:
        return _contract_entries(label, store, original, doc)
    return _claude_entries(label, store, original, doc)


def _claude_entries(
    label: str, store: str, text: str, doc: dict[str, Any]
) -> tuple[list[HookEntry], list[str]]:
    from hookwise.claude.convert import convert_claude_document, plugin_root_candidates
    from hookwise.claude.loader import converted_entries

    roots = plugin_root_candidates(store, os.path.dirname(os.path.dirname(store)))
    converted, warnings = convert_claude_document(
        doc, file=store, text=text, plugin_roots=roots, native=True
    )
    return converted_entries(converted, label, store, warnings), warnings


def _contract_entries(
    label: str, store: str, text: str, doc: dict[str, Any]
) -> tuple[list[HookEntry], list[str]]:
    from hookwise.settings.layers import SettingsLayer
    from hookwise.settings.load import _Reporter, parse_hooks_section

    if "hooks" not in doc:
        return [], []
    warnings: list[str] = []
    layer = SettingsLayer(label, label, store, exists=True, text=text, data=doc)
    return parse_hooks_section(doc["hooks"], layer, "/hooks", _Reporter(warnings)), warnings
