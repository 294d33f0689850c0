"""Settings layers (docs/contract.md §1): where hook settings files are and in which order they combine."""

from __future__ import annotations

import os

from hookwise._records import TYPE_CHECKING, dataclass
from hookwise.core.registry import EXTENSION, PROJECT, SYSTEM, USER
from hookwise.home import user_dir as user_dir  # the user layer's directory (hookwise/home.py)
from hookwise.input_errors import SettingsError
from hookwise.jsonc import parse as jsonc
from hookwise.jsonc.parse import kind_of

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from hookwise.settings.profiles import Profile


def user_settings_path(env: Mapping[str, str] | None = None) -> str:
    return os.path.join(user_dir(env), "settings.json")


def project_settings_path(project_dir: str) -> str:
    return os.path.join(project_dir, ".gemini", "settings.json")


@dataclass
class SettingsLayer:
    """One settings file at one scope.

    ``label`` is the source label hooks from it carry (``system``, ``user``,
    ``project``, ``extension``); ``kind`` tells the layers apart
    (``system-defaults``, ``user``, ``project``, ``system``, ``extension``).
    ``data`` is the parsed document (``None`` when missing or broken), ``error``
    the reason it could not be used, ``text`` the raw file text.
    """

    label: str
    kind: str
    path: str
    exists: bool = False
    text: str = ""
    data: dict[str, Any] | None = None
    error: SettingsError | None = None
    extension_dir: str | None = None
    extension_name: str | None = None
    claude_plugin: bool = (
        False  # an extension installed from a Claude Code plugin: Claude semantics
    )

    def load(self) -> SettingsLayer:
        """Read and parse the file (idempotent). Missing files are not errors."""
        if self.text or self.data is not None or self.error is not None:
            return self
        try:
            os.lstat(self.path)
        except (FileNotFoundError, NotADirectoryError):
            return self
        except OSError:
            pass  # e.g. a directory on the way cannot be searched: reading it reports why, never silently
        self.exists = True
        try:
            self.text, value = jsonc.read_file(self.path)
        except SettingsError as exc:
            self.error = exc
            return self
        if not isinstance(value, dict):
            self.error = SettingsError(
                self.path,
                f"expected a JSON object at the top level, got {kind_of(value)}",
                *jsonc.locate(self.text, ""),
            )
            return self
        self.data = value
        return self


def discover_layers(
    project_dir: str, env: Mapping[str, str] | None = None, profile: Profile | None = None
) -> list[SettingsLayer]:
    """Every settings layer in merge order (docs/contract.md §1), whether or not its file exists.

    ``profile`` (docs/sources.md) moves the project file to another product's folder
    and adds that product's user file after ``~/.gemini/settings.json`` (which is
    always read); extensions always come from the gemini user directory, and
    disabled ones (``hookwise extensions disable``) are left out.
    """
    env = os.environ if env is None else env
    udir = user_dir(env)
    user_path = os.path.join(udir, "settings.json")
    proj_path = project_settings_path(project_dir)
    sys_defaults = (
        env.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH") or "/etc/gemini-cli/system-defaults.json"
    )
    sys_settings = env.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH") or "/etc/gemini-cli/settings.json"
    if profile is not None and profile.name != "gemini":
        home = os.path.dirname(udir)
        user_path = os.path.join(home, *profile.user_settings.split("/"))
        proj_path = os.path.join(project_dir, *profile.project_settings.split("/"))
        sys_defaults = (
            profile.system_defaults_var and env.get(profile.system_defaults_var)
        ) or sys_defaults
        sys_settings = (
            profile.system_settings_var and env.get(profile.system_settings_var)
        ) or sys_settings
    layers = [SettingsLayer(SYSTEM, "system-defaults", sys_defaults)]
    gemini_user = os.path.join(udir, "settings.json")
    if os.path.abspath(user_path) != os.path.abspath(gemini_user):
        # another product's profile adds its user file; it never drops the user's own Gemini settings (their
        # guard hooks, URL allow-list and redaction list): a cloned project's .tabnine/ or .terminai/
        # folder can choose the profile (docs/security.md)
        layers.append(SettingsLayer(USER, "user", gemini_user))
    layers.append(SettingsLayer(USER, "user", user_path))
    if os.path.abspath(proj_path) != os.path.abspath(user_path):
        layers.append(SettingsLayer(PROJECT, "project", proj_path))
    layers.append(SettingsLayer(SYSTEM, "system", sys_settings))
    ext_root = os.path.join(udir, "extensions")
    try:
        names = sorted(os.listdir(ext_root))
    except OSError:
        names = []
    enablement = None
    if names:
        from hookwise.settings.enablement import Enablement

        enablement = Enablement.read(ext_root)
    for name in names:
        ext_dir = os.path.join(ext_root, name)
        if name.startswith(".") or not os.path.isdir(ext_dir):
            continue  # staging directories of an install in progress, the enablement file
        if enablement is not None and not enablement.is_enabled(name, project_dir):
            continue
        hooks_file = os.path.join(ext_dir, "hooks", "hooks.json")
        claude_manifest = os.path.join(ext_dir, ".claude-plugin", "plugin.json")
        if not os.path.isfile(os.path.join(ext_dir, "gemini-extension.json")) and os.path.isfile(
            claude_manifest
        ):
            layers.append(
                SettingsLayer(
                    EXTENSION,
                    "extension",
                    claude_manifest,
                    extension_dir=ext_dir,
                    extension_name=name,
                    claude_plugin=True,
                )
            )
        elif os.path.isfile(hooks_file):
            layers.append(
                SettingsLayer(
                    EXTENSION, "extension", hooks_file, extension_dir=ext_dir, extension_name=name
                )
            )
    return layers
