"""Which extensions are enabled where: ``<user dir>/extensions/extension-enablement.json``
(docs/sources.md).

``{"<name>": {"overrides": ["!/*", "/home/me/project/*"]}}``: a leading ``!`` disables,
a trailing ``*`` covers sub-directories, the last matching rule wins, no rule means
enabled. Discovery (:mod:`hookwise.settings.layers`) reads it; the extension manager
(:mod:`hookwise.settings.extensions`) writes it. Nothing here installs or reads an extension.
"""

from __future__ import annotations

import json
import os
from typing import Any

from hookwise._records import dataclass

ENABLEMENT_FILE = "extension-enablement.json"


def extensions_root(user_dir: str) -> str:
    return os.path.join(user_dir, "extensions")


# --------------------------------------------------------------------------- enablement


def _rule_base(rule: str) -> tuple[str, bool, bool]:
    """``(path, disables, covers sub-directories)`` of an override rule."""
    disables = rule.startswith("!")
    body = rule[1:] if disables else rule
    subdirs = body.endswith("*")
    if subdirs:
        body = body[:-1]
    body = body.rstrip("/") or "/"
    return body, disables, subdirs


def _rule_matches(rule: str, path: str) -> bool:
    base, _dis, subdirs = _rule_base(rule)
    path = path.rstrip("/") or "/"
    if path == base:
        return True
    return subdirs and (base == "/" or path.startswith(base + "/"))


@dataclass
class Enablement:
    """``extension-enablement.json``: per-extension override rules."""

    path: str
    data: dict[str, Any]

    @classmethod
    def read(cls, root: str) -> Enablement:
        path = os.path.join(root, ENABLEMENT_FILE)
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError):
            data = {}
        return cls(path, data if isinstance(data, dict) else {})

    def rules(self, name: str) -> list[str]:
        entry = self.data.get(name)
        rules = entry.get("overrides") if isinstance(entry, dict) else None
        return [r for r in rules if isinstance(r, str)] if isinstance(rules, list) else []

    def is_enabled(self, name: str, project_dir: str) -> bool:
        enabled = True
        for rule in self.rules(name):
            if _rule_matches(rule, os.path.abspath(project_dir)):
                enabled = not rule.startswith("!")
        return enabled

    def set(self, name: str, enabled: bool, scope: str, project_dir: str) -> None:
        base = "/" if scope == "user" else os.path.abspath(project_dir).rstrip("/")
        rules = [r for r in self.rules(name) if _rule_base(r)[0] != base]
        if scope == "user":
            rules = []  # a user-wide choice replaces every per-project one
        rules.append(("" if enabled else "!") + (base.rstrip("/") + "/*"))
        old = self.data.get(name)
        self.data[name] = {**(old if isinstance(old, dict) else {}), "overrides": rules}
        self.write()

    def forget(self, name: str) -> None:
        if name in self.data:
            del self.data[name]
            self.write()

    def write(self) -> None:
        from hookwise.atomic import write_atomic

        write_atomic(self.path, json.dumps(self.data, indent=2) + "\n")
