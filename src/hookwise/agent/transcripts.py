"""Where an agent session keeps its transcript (the file ``transcript_path`` names)."""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any


class TranscriptStore:
    """Conversation files under ``<user dir>/tmp/hookwise/<project hash>/`` (the hooks'
    ``transcript_path``)."""

    def __init__(self, user_dir: str, project_dir: str) -> None:
        digest = hashlib.sha256(os.path.realpath(project_dir).encode("utf-8")).hexdigest()[:16]
        self.dir = os.path.join(user_dir, "tmp", "hookwise", digest)
        self.project_dir = project_dir

    def path(self, session_id: str) -> str:
        return os.path.join(self.dir, f"session-{session_id}.json")

    def save(self, session_id: str, history: list[dict[str, Any]]) -> None:
        from hookwise.atomic import write_atomic

        doc = {"sessionId": session_id, "projectDir": self.project_dir, "messages": history}
        write_atomic(self.path(session_id), json.dumps(doc, ensure_ascii=False, indent=1) + "\n")

    def latest(self) -> str | None:
        try:
            names = [
                n for n in os.listdir(self.dir) if n.startswith("session-") and n.endswith(".json")
            ]
        except FileNotFoundError:
            return None
        if not names:
            return None
        best = max(names, key=lambda n: os.path.getmtime(os.path.join(self.dir, n)))
        return best[len("session-") : -len(".json")]

    def load(self, session_id: str) -> list[dict[str, Any]]:
        """The saved history of ``session_id``; ``ValueError`` with a clear message when
        unusable."""
        path = self.path(session_id)
        try:
            with open(path, encoding="utf-8") as fh:
                doc = json.load(fh)
        except FileNotFoundError:
            raise ValueError(
                f"no saved session {session_id!r} for this project (looked for {path})"
            ) from None
        except (OSError, ValueError) as exc:
            raise ValueError(f"cannot read saved session {path}: {exc}") from None
        messages = doc.get("messages") if isinstance(doc, dict) else None
        if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
            raise ValueError(f'saved session {path} has no valid "messages" list')
        return messages


# ---------------------------------------------------------------------------------------------
# the session
# ---------------------------------------------------------------------------------------------
