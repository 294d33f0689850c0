"""Helpers for the ADK / openai-agents adapter tests: a temp project with real command hooks that
log their input.

``Hooks.on(event, answer, matcher=...)`` adds a command hook (a real subprocess) that appends its
stdin JSON to ``<project>/log.jsonl`` and prints ``answer`` (a dict), or the N-th answer of a list
on its N-th call (the last one repeats). ``Hooks.log(event)`` reads back what the hooks received.
"""

from __future__ import annotations

import json
import shlex
from collections import Counter
from pathlib import Path
from typing import Any

from hookwise import HookSystem
from hookwise.testing import HookTester

ANSWER = r"""
import json, os, sys
spec = json.loads(sys.argv[1])
data = json.load(sys.stdin)
root = os.environ["GEMINI_PROJECT_DIR"]
with open(os.path.join(root, "log.jsonl"), "a", encoding="utf-8") as f:
    f.write(json.dumps(data) + "\n")
counter = os.path.join(root, ".count-" + spec["key"])
n = int(open(counter).read()) if os.path.exists(counter) else 0
open(counter, "w").write(str(n + 1))
answers = spec["answers"]
answer = answers[min(n, len(answers) - 1)]
if answer.get("__exit__") is not None:
    sys.stderr.write("hook failed on purpose\n")
    sys.exit(answer["__exit__"])
print(json.dumps(answer))
"""


class Hooks:
    def __init__(self, root: Path) -> None:
        self.tester = HookTester(root)
        self.project = self.tester.project_dir
        self._cmd = self.tester.script("answer.py", ANSWER)
        self._n = 0

    def on(
        self,
        event: str,
        answer: dict[str, Any] | list[dict[str, Any]],
        *,
        matcher: str | None = None,
        **extra: Any,
    ) -> None:
        self._n += 1
        answers = answer if isinstance(answer, list) else [answer]
        spec = json.dumps({"key": f"{event}-{self._n}", "answers": answers})
        self.tester.add(
            event,
            f"{self._cmd} {shlex.quote(spec)}",
            matcher=matcher,
            name=f"{event}-{self._n}",
            **extra,
        )

    def system(self, session_id: str = "test-session") -> HookSystem:
        return HookSystem(
            str(self.project), trust_all=True, env=self.tester.env, session_id=session_id
        )

    def log(self, event: str | None = None) -> list[dict[str, Any]]:
        path = self.project / "log.jsonl"
        if not path.exists():
            return []
        rows = [
            json.loads(line)
            for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
        return [r for r in rows if event is None or r["hook_event_name"] == event]


class Tools:
    """Counts invocations per tool name (the proof that a framework really ran or skipped a
    tool)."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.args: list[tuple[str, dict[str, Any]]] = []

    def hit(self, name: str, **args: Any) -> str:
        self.calls[name] += 1
        self.args.append((name, args))
        return f"{name}:{next(iter(args.values()), '')}"


class Messages:
    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []

    def __call__(self, kind: str, text: str) -> None:
        self.lines.append((kind, text))

    def of(self, kind: str) -> list[str]:
        return [t for k, t in self.lines if k == kind]
