"""Exceptions hookwise raises on purpose.

Hook failures (a non-zero exit, a timeout, garbage on stdout) are never
exceptions: they are outcomes on a :class:`~hookwise.result.HookOutcome`.
Exceptions are for bad input from the user or the host, and for bugs::

    HookwiseError
    ├── SettingsError        a settings file cannot be read or parsed (.path, .line, .column)
    ├── UnknownEventError    an event name that is not one of the eleven (.name, .suggestion)
    ├── PayloadError         an event input that is not a JSON object or misses fields
    ├── HookNotFoundError    a hook name that no settings layer defines (.name, .suggestions)
    ├── EditError            a settings edit that cannot be made (a parent is not an object, ...)
    ├── WriteError           a file that cannot be written safely (a symlink in the way, an OS error)
    ├── CaseFileError        a hook test case file that cannot be read or is malformed
    ├── LlmFormatError       a hook's llm_request / llm_response / toolConfig that cannot be applied
    ├── ModelError           the agent host's model cannot answer (none configured, API failure)
    │   └── ResponsesFileError   a scripted responses file that cannot be replayed (.path, .line)
    ├── PluginError          a Claude Code plugin directory that cannot be used (names path and key)
    ├── ExtensionError       an extension operation that cannot be done; nothing was changed
    ├── ProfileError         an unknown product profile name (--profile, HOOKWISE_PROFILE)
    └── AgentStopped         a hook stopped a framework agent that can only stop by raising (.reason)

Every class is exported from :mod:`hookwise` (``tests/engine/test_tables.py`` checks it). The five a firing
can raise (HookwiseError, SettingsError, UnknownEventError, PayloadError, ProfileError) are defined in
:mod:`hookwise.input_errors`, which the modules of the firing path import (start-up time).
"""

from __future__ import annotations

from hookwise.input_errors import HookwiseError as HookwiseError
from hookwise.input_errors import PayloadError as PayloadError
from hookwise.input_errors import ProfileError as ProfileError
from hookwise.input_errors import SettingsError as SettingsError
from hookwise.input_errors import UnknownEventError as UnknownEventError


class HookNotFoundError(HookwiseError, LookupError):
    """A hook name that no settings layer defines."""

    def __init__(self, name: str, suggestions: list[str] | None = None) -> None:
        self.name = name
        self.suggestions = suggestions or []
        msg = f"no hook named {name!r}"
        if self.suggestions:
            msg += " (did you mean " + ", ".join(repr(s) for s in self.suggestions) + "?)"
        super().__init__(msg)


class EditError(HookwiseError):
    """An edit that cannot be made (a parent is not an object, a symlinked file, ...)."""


class WriteError(HookwiseError):
    """A file could not be written safely (a symlink in the way, a directory, an OS error)."""


class CaseFileError(HookwiseError):
    """A case file that cannot be read or is malformed (the message names file and place)."""


class LlmFormatError(HookwiseError, ValueError):
    """A hook returned an ``llm_request`` / ``llm_response`` / ``toolConfig`` that cannot be applied."""


class ModelError(HookwiseError):
    """A model could not answer: no model configured, an exhausted script, an API failure."""


class ResponsesFileError(ModelError):
    """A responses file that cannot be replayed; ``str()`` names the file and the line."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path = path
        self.line = line
        self.message = message
        where = path if line is None else f"{path}, line {line}"
        super().__init__(f"responses file {where}: {message}")


class PluginError(HookwiseError):
    """A Claude Code plugin directory that cannot be used; the message names the path and the key."""


class ExtensionError(HookwiseError):
    """An extension operation that cannot be done (``hookwise extensions``); names path and key; nothing changed."""


class AgentStopped(HookwiseError):
    """A hook said ``continue: false`` inside a framework whose only way to end a run is an exception.

    Raised by :mod:`hookwise.adapters` (docs/adapters.md says which framework stops this way);
    ``reason`` is the hook's ``stopReason`` (or ``reason``); ``messages`` the framework's conversation
    up to the stop when it has one (to resume from), else None.
    """

    def __init__(self, reason: str, messages: list[object] | None = None) -> None:
        self.reason = reason
        self.messages = messages
        super().__init__(f"Agent execution stopped: {reason}")


#: every exception class above; hookwise/__init__.py exports exactly these
class UngovernedError(HookwiseError, RuntimeError):
    """An adapter found tools that no hook can see (the OpenAI Agents SDK's hosted tools) while a ``failClosed``
    tool hook is configured: the agent is not run (a fail-closed hook must never be bypassed silently)."""


ERRORS: tuple[type[HookwiseError], ...] = (
    HookwiseError,
    SettingsError,
    UnknownEventError,
    PayloadError,
    HookNotFoundError,
    EditError,
    WriteError,
    CaseFileError,
    LlmFormatError,
    ModelError,
    ResponsesFileError,
    PluginError,
    ExtensionError,
    ProfileError,
    AgentStopped,
    UngovernedError,
)

for _cls in ERRORS:
    _cls.__module__ = "hookwise"
