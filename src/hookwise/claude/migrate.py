"""None"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hookwise.claude.convert import (
    HookReport,
    PluginRoot,
    convert_claude_document,
    convert_gemini_hook,
)
from hookwise.claude.matchers import (
    normalize_matcher,
    translate_matcher_from_claude,
    translate_matcher_to_claude,
)
from hookwise.claude.names import (
    _PROJECT_DIR_REF,
    CLAUDE_EVENTS_WITHOUT_EQUIVALENT,
    CLAUDE_TO_GEMINI_EVENT,
)
from hookwise.jsonc import parse as jsonc


@dataclass
class Addition:
    """One definition to append to ``hooks.<event>`` of the target file."""

    event: str
    definition: dict[str, Any]


@dataclass
class MigrationPlan:
    """Everything a migration would do: additions to the target file, plus the full report."""

    direction: str  # "from-claude" | "to-claude"
    target: str
    sources: list[str]
    additions: list[Addition] = field(default_factory=list)
    hooks: list[HookReport] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        c = {"migrated": 0, "duplicate": 0, "skipped": 0, "neverFires": 0}
        for h in self.hooks:
            c[h.status] = c.get(h.status, 0) + 1
            if h.status == "skipped" and h.source_event in CLAUDE_EVENTS_WITHOUT_EQUIVALENT:
                c["neverFires"] += 1  # a Claude Code event hookwise cannot fire (PreModelSwitch…)
        return c

    def to_json(self) -> dict[str, Any]:
        return {
            "direction": self.direction,
            "target": self.target,
            "sources": list(self.sources),
            "counts": self.counts,
            "hooks": [h.to_json() for h in self.hooks],
            "findings": list(self.findings),
            "additions": [{"event": a.event, "definition": a.definition} for a in self.additions],
        }


def _identity(h: Mapping[str, Any]) -> str:
    name = h.get("name", "")
    cmd = (
        h.get("command") or h.get("url") or h.get("callable") or ""
    )  # an http/python hook: its URL/callable
    return f"{name if isinstance(name, str) else ''}:{cmd if isinstance(cmd, str) else ''}"


def existing_keys(doc: Any) -> set[tuple[str, str, str]]:
    """``(event, matcher, name:command)`` of every hook already in a hookwise settings document."""
    keys: set[tuple[str, str, str]] = set()
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    if not isinstance(hooks, dict):
        return keys
    for event, defs in hooks.items():
        if not isinstance(defs, list):
            continue
        for d in defs:
            if not isinstance(d, dict) or not isinstance(d.get("hooks"), list):
                continue
            m = normalize_matcher(d.get("matcher"))
            for h in d["hooks"]:
                if isinstance(h, dict):
                    keys.add((event, m, _identity(h)))
    return keys


def plan_from_claude(
    sources: Sequence[tuple[str, str, Any]],
    target_path: str,
    target_doc: Any,
    roots_for: Callable[[str], Sequence[PluginRoot]],
) -> MigrationPlan:
    """Plan a migration of Claude settings into a hookwise settings document.

    ``sources`` are ``(path, text, parsed document)`` in reading order (later
    files after earlier ones, as Claude Code reads ``settings.local.json``
    after ``settings.json``). ``target_doc`` is the current parsed target (or
    ``{}``). Hooks already present (same event, matcher and ``name:command``)
    are reported as duplicates and not added again.
    """
    plan = MigrationPlan("from-claude", target_path, [s[0] for s in sources])
    seen = existing_keys(target_doc)
    for path, text, doc in sources:
        converted, findings = convert_claude_document(
            doc, file=path, text=text, plugin_roots=roots_for(path)
        )
        plan.findings.extend(findings)
        if isinstance(doc, dict) and "allowedHttpHookUrls" in doc:
            plan.findings.append(
                f"{path}: /allowedHttpHookUrls: not migrated; the http hooks' URL allow-list is "
                "hooksConfig.allowedHttpHookUrls in hookwise settings (docs/hook-types.md); set it "
                "in your user settings so a project cannot widen it"
            )
        groups: dict[tuple[str, str, int], Addition] = {}
        for c in converted:
            plan.hooks.append(c.report)
            if c.hook is None or c.event is None:
                continue
            key = (c.event, normalize_matcher(c.matcher), _identity(c.hook))
            if key in seen:
                c.report.status = "duplicate"
                c.report.reason = (
                    f"already in {os.path.basename(target_path)} (same event, matcher and command)"
                )
                continue
            seen.add(key)
            gkey = (c.event, c.claude_event, c.definition_index)
            add = groups.get(gkey)
            if add is None:
                definition: dict[str, Any] = {}
                if c.matcher is not None:
                    definition["matcher"] = c.matcher
                if c.sequential:
                    definition["sequential"] = True
                definition["hooks"] = []
                add = groups[gkey] = Addition(c.event, definition)
                plan.additions.append(add)
            add.definition["hooks"].append(c.hook)
    return plan


def plan_to_claude(
    source_path: str,
    source_text: str,
    source_doc: Any,
    target_path: str,
    existing_claude: Sequence[tuple[str, str, Any]],
    roots_for: Callable[[str], Sequence[PluginRoot]],
) -> MigrationPlan:
    """Plan writing a hookwise settings document's hooks into a Claude settings file.

    Duplicates are detected against every hook already in ``existing_claude``
    (``(path, text, doc)`` of the Claude files of that scope), compared after
    translating both sides into hookwise form.
    """
    plan = MigrationPlan("to-claude", target_path, [source_path])
    seen: set[tuple[str, str, str]] = set()
    for path, text, doc in existing_claude:
        conv, _ = convert_claude_document(doc, file=path, text=text, plugin_roots=roots_for(path))
        for c in conv:
            if c.hook is not None and c.event is not None:
                what = c.hook.get("command") or c.hook.get(
                    "url", ""
                )  # an http hook is known by its URL
                seen.add((c.event, normalize_matcher(c.matcher), ":" + str(what)))
    cfg = source_doc.get("hooksConfig") if isinstance(source_doc, dict) else None
    if isinstance(cfg, dict) and "allowedHttpHookUrls" in cfg:
        plan.findings.append(
            f"{source_path}: /hooksConfig/allowedHttpHookUrls: not migrated; Claude Code reads "
            "allowedHttpHookUrls from its own (managed or user) settings"
        )
    hooks = source_doc.get("hooks") if isinstance(source_doc, dict) else None
    if hooks is None:
        return plan
    if not isinstance(hooks, dict):
        plan.findings.append(f"{source_path}: /hooks: must be an object; nothing to migrate")
        return plan
    for event, defs in hooks.items():
        eptr = jsonc.pointer("hooks", event)
        if not isinstance(defs, list):
            plan.findings.append(f"{source_path}: {eptr}: must be an array of definitions; skipped")
            continue
        for i, d in enumerate(defs):
            dptr = f"{eptr}/{i}"
            if not isinstance(d, dict) or not isinstance(d.get("hooks"), list):
                plan.findings.append(f"{source_path}: {dptr}: not a valid definition; skipped")
                continue
            mraw = d.get("matcher")
            mres = translate_matcher_to_claude(event, mraw)
            if d.get("sequential") is True:
                plan.findings.append(
                    f"{source_path}: {dptr}/sequential: Claude Code always runs hooks in "
                    "parallel; sequential dropped"
                )
            definition: dict[str, Any] | None = None
            for j, h in enumerate(d["hooks"]):
                out, rep = convert_gemini_hook(
                    h,
                    event=event,
                    matcher=mres,
                    matcher_raw=mraw,
                    file=source_path,
                    text=source_text,
                    pointer=f"{dptr}/hooks/{j}",
                )
                plan.hooks.append(rep)
                if out is None or rep.target_event is None:
                    continue
                # compare in hookwise form: translate the candidate back the way existing files were
                back = translate_matcher_from_claude(rep.target_event, mres.value)
                back_cmd = _PROJECT_DIR_REF.sub(
                    lambda mt: (
                        "${GEMINI_PROJECT_DIR}"
                        if mt.group(1).startswith("{")
                        else "$GEMINI_PROJECT_DIR"
                    ),
                    out.get("command") or out["url"],
                )
                key = (
                    CLAUDE_TO_GEMINI_EVENT[rep.target_event],
                    normalize_matcher(back.value),
                    ":" + back_cmd,
                )
                if key in seen:
                    rep.status = "duplicate"
                    rep.reason = (
                        "already in the Claude Code settings (same event, matcher and command)"
                    )
                    continue
                seen.add(key)
                if definition is None:
                    definition = {}
                    if mres.value is not None:
                        definition["matcher"] = mres.value
                    definition["hooks"] = []
                    plan.additions.append(Addition(rep.target_event, definition))
                definition["hooks"].append(out)
    return plan


def apply_plan(text: str, plan: MigrationPlan, path: str) -> str:
    """The target file's new text: each addition appended with byte-preserving edits."""
    from hookwise.jsonc.edit import append_to_array

    for add in plan.additions:
        text = append_to_array(text, jsonc.pointer("hooks", add.event), add.definition, path=path)
    return text


# --------------------------------------------------------------------------- report text


def format_report(plan: MigrationPlan, *, relative_to: str | None = None) -> str:
    """A human-readable report: every hook with every field, then the summary."""

    def rel(p: str) -> str:
        if relative_to:
            try:
                r = os.path.relpath(p, relative_to)
                if not r.startswith(".." + os.sep) and r != "..":
                    return r
            except ValueError:
                pass
        return p

    lines: list[str] = []
    arrow = (
        "Claude Code → hookwise" if plan.direction == "from-claude" else "hookwise → Claude Code"
    )
    lines.append(f"Migrating hooks ({arrow}) into {rel(plan.target)}")
    current = None
    for h in plan.hooks:
        if h.file != current:
            current = h.file
            lines.append(f"From {rel(h.file)}:")
        mark = {"migrated": "+", "duplicate": "=", "skipped": "-"}[h.status]
        src = h.source_event + (f"[{h.matcher_from}]" if h.matcher_from else "")
        loc = f"{rel(h.file)}:{h.line}:{h.column}" if h.line is not None else rel(h.file)
        if h.status == "skipped":
            lines.append(f"  {mark} {src} {h.pointer} ({loc}) not migrated: {h.reason}")
        else:
            tgt = (h.target_event or "?") + (f"[{h.matcher_to}]" if h.matcher_to else "")
            state = "" if h.status == "migrated" else f" — {h.reason}"
            lines.append(f"  {mark} {src} → {tgt} {h.pointer} ({loc}){state}")
        if h.command is not None:
            lines.append(f"      {h.target_label}: {h.command}")
            if h.command_to is not None and h.command_to != h.command:
                lines.append(f"            → {h.command_to}")
        if h.status != "skipped":
            for f in h.fields:
                if f.field == "type" and f.action == "carried":
                    continue
                lines.append(
                    f"      {f.field}: {f.action}" + (f" — {f.detail}" if f.detail else "")
                )
        for n in h.warnings:
            lines.append(f"      warning: {n}")
        for n in h.notes:
            lines.append(f"      note: {n}")
    for finding in plan.findings:
        if relative_to and finding.startswith(relative_to.rstrip(os.sep) + os.sep):
            finding = finding[len(relative_to.rstrip(os.sep)) + 1 :]
        lines.append(f"  ! {finding}")
    c = plan.counts
    never = f" ({c['neverFires']} on events that never fire here)" if c["neverFires"] else ""
    lines.append(
        f"{c['migrated']} migrated, {c['duplicate']} already present, {c['skipped']} not migrated"
        f"{never}."
    )
    return "\n".join(lines)


def dump_definition(definition: Mapping[str, Any]) -> str:
    """Compact JSON of a definition (for messages)."""
    return json.dumps(definition, ensure_ascii=False)
