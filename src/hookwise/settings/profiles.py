"""Product profiles (docs/sources.md, "Product profiles"): the same hook contract under another product's name.

A profile says where the user and project settings files are and which extra
variables hooks get (besides every ``GEMINI_*`` variable, which are always set).
Facts checked against each product's documentation are listed in docs/sources.md.
"""

from __future__ import annotations

import os

from hookwise._records import TYPE_CHECKING, dataclass
from hookwise.input_errors import ProfileError

if TYPE_CHECKING:
    from collections.abc import Mapping


@dataclass(frozen=True)
class Profile:
    """Where one product keeps hook settings, and what it calls the hook variables."""

    name: str
    product: str
    project_settings: str  # relative to the project directory
    user_settings: str  # relative to the home directory
    project_dir_var: str | None = None
    session_id_var: str | None = None
    system_settings_var: str | None = None  # overrides the system settings path (else Gemini CLI's)
    system_defaults_var: str | None = None
    legacy_hooks_disabled: bool = (
        False  # ``hooks.disabled`` (older docs) read as ``hooksConfig.disabled``
    )

    def hook_vars(self, project_dir: str, session_id: str) -> dict[str, str]:
        out = {}
        if self.project_dir_var:
            out[self.project_dir_var] = project_dir
        if self.session_id_var:
            out[self.session_id_var] = session_id
        return out

    @property
    def marker(self) -> str:
        """The project folder whose presence identifies the product (``.tabnine``)."""
        return self.project_settings.split("/", 1)[0]


#: every profile; ``gemini`` is the default (closed set: guarded by tests/settings/test_profiles.py)
PROFILES: dict[str, Profile] = {
    "gemini": Profile("gemini", "Gemini CLI", ".gemini/settings.json", ".gemini/settings.json"),
    "tabnine": Profile(
        "tabnine",
        "Tabnine CLI",
        ".tabnine/agent/settings.json",
        ".tabnine/agent/settings.json",
        project_dir_var="TABNINE_PROJECT_DIR",
        system_settings_var="TABNINE_CLI_SYSTEM_SETTINGS_PATH",
        system_defaults_var="TABNINE_CLI_SYSTEM_DEFAULTS_PATH",
    ),
    "terminai": Profile(
        "terminai",
        "TerminaI",
        ".terminai/settings.json",
        ".terminai/settings.json",
        project_dir_var="TERMINAI_PROJECT_DIR",
        session_id_var="TERMINAI_SESSION_ID",
        legacy_hooks_disabled=True,
    ),
}


def select_profile(
    project_dir: str, env: Mapping[str, str], requested: str | None
) -> tuple[Profile, list[str]]:
    """The profile to use and notes about the choice.

    Order: ``requested`` (``--profile``), then ``$HOOKWISE_PROFILE``, then detection:
    a project with another product's settings file and no ``.gemini`` folder uses
    that product's profile; anything else is ``gemini``.
    """
    name = requested or env.get("HOOKWISE_PROFILE") or None
    if name is not None:
        prof = PROFILES.get(name)
        if prof is None:
            raise ProfileError(f"unknown profile {name!r} (expected one of {', '.join(PROFILES)})")
        return prof, []
    found = [
        p
        for p in PROFILES.values()
        if p.name != "gemini" and os.path.isfile(os.path.join(project_dir, p.project_settings))
    ]
    has_gemini = os.path.isdir(os.path.join(project_dir, ".gemini"))
    if len(found) == 1 and not has_gemini:
        return found[0], []
    notes = []
    if found:
        names = ", ".join(f"{p.project_settings} ({p.product}: --profile {p.name})" for p in found)
        why = "a .gemini folder exists" if has_gemini else "more than one product's settings exist"
        notes.append(f"{project_dir}: also found {names}; not loaded because {why}")
    return PROFILES["gemini"], notes
