"""The exceptions a firing can raise: bad input from the user or the host (settings, event names, payloads,
profiles), under the base class of every exception hookwise raises on purpose.

They live apart from the rest of :mod:`hookwise.errors` so that a ``hookwise fire`` builds only the classes
it can raise (each class costs its creation at every start-up). Import them from :mod:`hookwise.errors` or
:mod:`hookwise` (where the whole hierarchy is documented); the modules of the firing path import them from
here.
"""

from __future__ import annotations


class HookwiseError(Exception):
    """Base class of every exception hookwise raises on purpose."""


class SettingsError(HookwiseError):
    """A settings file could not be read or parsed.

    ``str(err)`` is ``path:line:col: message`` (line and column are 1-based and
    omitted when unknown).
    """

    def __init__(
        self, path: str, message: str, line: int | None = None, column: int | None = None
    ) -> None:
        self.path = path
        self.message = message
        self.line = line
        self.column = column
        super().__init__(self.location() + ": " + message)

    def location(self) -> str:
        if self.line is None:
            return self.path
        if self.column is None:
            return f"{self.path}:{self.line}"
        return f"{self.path}:{self.line}:{self.column}"


class UnknownEventError(HookwiseError, ValueError):
    """An event name that is not one of the eleven hook events."""

    def __init__(self, name: str, suggestion: str | None = None) -> None:
        self.name = name
        self.suggestion = suggestion
        msg = f"unknown event {name!r}"
        if suggestion:
            msg += f" (did you mean {suggestion!r}?)"
        super().__init__(msg)


class PayloadError(HookwiseError, ValueError):
    """An event input that is not a JSON object, or whose fields have the wrong type."""


class ProfileError(HookwiseError, ValueError):
    """An unknown product profile name (``--profile``, ``HOOKWISE_PROFILE``)."""


for _cls in (HookwiseError, SettingsError, UnknownEventError, PayloadError, ProfileError):
    _cls.__module__ = "hookwise"
