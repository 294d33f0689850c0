"""The trace (docs/contract.md §10): one JSON object per line, one ``hook_call`` record per hook
call.

:func:`hook_call_record` is the record shape; :class:`TraceWriter` appends
records to a file, each line with a single ``write`` under a lock, so lines
from concurrent firings never interleave.
"""

from __future__ import annotations

import os
import threading

from hookwise._records import TYPE_CHECKING
from hookwise.errors import HookwiseError
from hookwise.result import HookOutcome, Outcome

if TYPE_CHECKING:
    from typing import Any


def hook_call_record(inp: dict[str, Any], o: HookOutcome) -> dict[str, Any]:
    """The ``hook_call`` trace record of docs/contract.md §10."""
    return {
        "type": "hook_call",
        "hook_event_name": o.event,
        "hook_name": o.name,
        "hook_type": o.hook_type,
        "source": o.source,
        "hook_input": inp,
        "hook_output": o.output,
        "exit_code": o.exit_code,
        "stdout": o.stdout,
        "stderr": o.stderr,
        "duration_ms": round(o.duration_ms, 3),
        "success": o.outcome is Outcome.OK,
        "outcome": o.outcome.value,
        "error": o.error,
    }


class TraceWriter:
    """Appends one JSON object per line; each line is a single ``write`` under a lock."""

    def __init__(self, path: str) -> None:
        self.path = os.fspath(path)
        self._lock = threading.Lock()
        # fail now, with the path, rather than after the first hooks ran (checked without creating
        # the file)
        parent = os.path.dirname(os.path.abspath(self.path))
        if os.path.isdir(self.path):
            raise HookwiseError(f"trace file {self.path} is a directory")
        if not os.path.isdir(parent):
            raise HookwiseError(f"trace file {self.path}: directory {parent} does not exist")
        if not os.access(self.path if os.path.exists(self.path) else parent, os.W_OK):
            raise HookwiseError(f"trace file {self.path}: permission denied")

    def write(self, record: dict[str, Any]) -> None:
        import json

        line = (json.dumps(record, ensure_ascii=False, default=str) + "\n").encode(
            "utf-8", "surrogatepass"
        )
        with self._lock:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                view = memoryview(line)
                while view:
                    n = os.write(fd, view)
                    view = view[n:]
            finally:
                os.close(fd)
