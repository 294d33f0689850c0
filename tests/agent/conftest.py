"""Helpers for agent tests: a project with real command hooks, a scripted responses file, and a
runner that starts ``python -m hookwise agent`` the way a user does.

Most hooks are one generic script, ``respond.py``: it appends its input to ``inputs.jsonl`` and
answers with the next entry of its list of outputs (the last one repeats). An output is a JSON
object to print, ``None`` for no output, or ``{"$exit": N, "$stdout": "...", "$stderr": "..."}``.
Tests that need logic write their own small scripts with :meth:`AgentEnv.script`.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

RESPOND = r"""
import json, os, sys
spec_path = sys.argv[1]
inp = json.load(sys.stdin)
log = os.path.join(os.path.dirname(spec_path), "inputs.jsonl")
with open(log, "a", encoding="utf-8") as fh:
    fh.write(json.dumps({"hook": os.path.basename(spec_path)[:-5], **inp}) + "\n")
with open(spec_path, encoding="utf-8") as fh:
    outputs = json.load(fh)
count_path = spec_path + ".count"
n = int(open(count_path).read()) if os.path.exists(count_path) else 0
with open(count_path, "w") as fh:
    fh.write(str(n + 1))
out = outputs[min(n, len(outputs) - 1)] if outputs else None
if out is None:
    sys.exit(0)
if isinstance(out, dict) and "$exit" in out:
    sys.stdout.write(out.get("$stdout", ""))
    sys.stderr.write(out.get("$stderr", ""))
    sys.exit(out["$exit"])
print(json.dumps(out))
"""


# ---- responses file helpers ------------------------------------------------------------------
def text(s: str) -> dict[str, Any]:
    return {"text": s}


def thought(s: str) -> dict[str, Any]:
    return {"text": s, "thought": True}


def call(name: str, **args: Any) -> dict[str, Any]:
    return {"functionCall": {"name": name, "args": args}}


def chunk(*parts: dict[str, Any], finish: str | None = None, usage: bool = False) -> dict[str, Any]:
    cand: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}, "index": 0}
    if finish:
        cand["finishReason"] = finish
    c: dict[str, Any] = {"candidates": [cand]}
    if usage:
        c["usageMetadata"] = {
            "promptTokenCount": 10,
            "candidatesTokenCount": 5,
            "totalTokenCount": 15,
        }
    return c


def stream(*chunks: dict[str, Any]) -> dict[str, Any]:
    return {"method": "generateContentStream", "response": list(chunks)}


def say(*parts: dict[str, Any]) -> dict[str, Any]:
    """A one-chunk streamed answer."""
    return stream(chunk(*parts, finish="STOP"))


def generate(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"method": "generateContent", "response": chunk(*parts, finish="STOP")}


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    trace: list[dict[str, Any]] = field(default_factory=list)

    def records(self, kind: str) -> list[dict[str, Any]]:
        return [r for r in self.trace if r.get("type") == kind]

    def hook_calls(self, event: str | None = None) -> list[dict[str, Any]]:
        return [
            r for r in self.records("hook_call") if event is None or r["hook_event_name"] == event
        ]

    def model_requests(self) -> list[list[dict[str, Any]]]:
        """The contents of every model call, parsed from ``request_text``."""
        return [json.loads(r["request_text"]) for r in self.records("model_call")]

    @property
    def stderr_lines(self) -> list[str]:
        return self.stderr.splitlines()


class AgentEnv:
    """A project under ``tmp_path/proj`` with hooks, and a responses file."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp = tmp_path
        self.root = tmp_path / "proj"
        self.hooks_dir = self.root / ".gemini" / "hooks"
        self.hooks_dir.mkdir(parents=True)
        self.settings: dict[str, Any] = {"hooks": {}}
        self.responses_path = tmp_path / "responses.jsonl"
        self.trace_path = tmp_path / "trace.jsonl"
        self._n = 0

    # ---- hooks -----------------------------------------------------------------------------
    def _add(
        self, event: str, name: str, command: str, matcher: str | None, sequential: bool
    ) -> None:
        definition: dict[str, Any] = {
            "hooks": [{"type": "command", "name": name, "command": command, "timeout": 20000}]
        }
        if matcher is not None:
            definition["matcher"] = matcher
        if sequential:
            definition["sequential"] = True
        self.settings["hooks"].setdefault(event, []).append(definition)
        self.save_settings()

    def save_settings(self) -> None:
        (self.root / ".gemini" / "settings.json").write_text(json.dumps(self.settings, indent=1))

    def hook(
        self,
        event: str,
        *outputs: Any,
        matcher: str | None = None,
        name: str | None = None,
        sequential: bool = False,
    ) -> str:
        """A ``respond.py`` hook answering ``outputs`` in turn (the last one repeats)."""
        self._n += 1
        name = name or f"{event.lower()}-{self._n}"
        respond = self.hooks_dir / "respond.py"
        if not respond.exists():
            respond.write_text(RESPOND)
        spec = self.hooks_dir / f"{name}.json"
        spec.write_text(json.dumps(list(outputs)))
        cmd = (
            f'{shlex.quote(sys.executable)} "$GEMINI_PROJECT_DIR/.gemini/hooks/respond.py" '
            f'"$GEMINI_PROJECT_DIR/.gemini/hooks/{name}.json"'
        )
        self._add(event, name, cmd, matcher, sequential)
        return name

    def script(
        self, event: str, code: str, *, matcher: str | None = None, name: str | None = None
    ) -> str:
        """A hook that is a small Python script (``code``; it reads the input from stdin itself)."""
        self._n += 1
        name = name or f"{event.lower()}-script-{self._n}"
        path = self.hooks_dir / f"{name}.py"
        path.write_text(textwrap.dedent(code))
        self._add(
            event,
            name,
            f'{shlex.quote(sys.executable)} "$GEMINI_PROJECT_DIR/.gemini/hooks/{name}.py"',
            matcher,
            False,
        )
        return name

    def inputs(self, event: str | None = None, hook: str | None = None) -> list[dict[str, Any]]:
        log = self.hooks_dir / "inputs.jsonl"
        if not log.exists():
            return []
        rows = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
        return [
            r
            for r in rows
            if (event is None or r["hook_event_name"] == event)
            and (hook is None or r["hook"] == hook)
        ]

    # ---- model -----------------------------------------------------------------------------
    def responses(self, *lines: dict[str, Any] | str) -> Path:
        self.responses_path.write_text(
            "".join((ln if isinstance(ln, str) else json.dumps(ln)) + "\n" for ln in lines)
        )
        return self.responses_path

    # ---- running ---------------------------------------------------------------------------
    def env(self, *, trust_all: bool = True, **extra: str) -> dict[str, str]:
        env = dict(os.environ)
        if trust_all:
            env["HOOKWISE_TRUST_ALL"] = "1"
        env.pop("GEMINI_API_KEY", None)
        env.pop("HOOKWISE_DEBUG", None)
        env.update(extra)
        return env

    def run(
        self,
        *args: str,
        prompt: str | None = "go",
        stdin: str | None = None,
        responses: bool = True,
        trace: bool = True,
        timeout: float = 60,
        trust_all: bool = True,
    ) -> Run:
        argv = [sys.executable, "-m", "hookwise", "--project", str(self.root), "agent"]
        if prompt is not None:
            argv += ["-p", prompt]
        if responses:
            if not self.responses_path.exists():
                self.responses()
            argv += ["--responses", str(self.responses_path)]
        if trace:
            if self.trace_path.exists():
                self.trace_path.unlink()
            argv += ["--trace", str(self.trace_path)]
        argv += list(args)
        proc = subprocess.run(
            argv,
            input=stdin if stdin is not None else "",
            capture_output=True,
            text=True,
            env=self.env(trust_all=trust_all),
            cwd=str(self.tmp),
            timeout=timeout,
        )
        records = []
        if trace and self.trace_path.exists():
            records = [
                json.loads(line)
                for line in self.trace_path.read_text().splitlines()
                if line.strip()
            ]
        return Run(proc.returncode, proc.stdout, proc.stderr, records)

    def transcript(self, run: Run) -> list[dict[str, Any]]:
        """The saved history of the run's session."""
        sid = run.hook_calls()[0]["hook_input"]["session_id"]
        found = list(
            (Path(os.environ["GEMINI_CLI_HOME"]) / ".gemini" / "tmp" / "hookwise").rglob(
                f"session-{sid}.json"
            )
        )
        assert found, f"no transcript for session {sid}"
        return json.loads(found[0].read_text())["messages"]


@pytest.fixture
def agent(tmp_path: Path) -> AgentEnv:
    return AgentEnv(tmp_path)
