"""HookTester: a temporary settings tree and one-line firings (exported as
:class:`hookwise.testing.HookTester`)."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hookwise.core.registry import HookEntry
    from hookwise.engine import HookSystem
    from hookwise.result import FireResult
    from hookwise.testing.cases import CaseResult

_LAYERS = ("project", "user", "system", "system-defaults")


class HookTester:
    """A project dir plus isolated user/system layers, and helpers to write hooks and fire events.

    :param root: a scratch directory; the project is ``root/project`` (unless
        ``project_dir`` is given), the user dir ``root/home/.gemini``.
    :param env: base environment for hooks (default ``os.environ``); the user dir
        and system settings paths are overridden to point into ``root``.
    :param trust_all: trust project/extension hooks (default True).
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        project_dir: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        trust_all: bool = True,
    ) -> None:
        self.root = Path(root)
        self.project_dir = Path(project_dir) if project_dir is not None else self.root / "project"
        self.project_dir.mkdir(parents=True, exist_ok=True)
        self.home = self.root / "home"
        self.home.mkdir(parents=True, exist_ok=True)
        base = dict(os.environ if env is None else env)
        base["GEMINI_CLI_HOME"] = str(self.home)
        base["GEMINI_CLI_SYSTEM_SETTINGS_PATH"] = str(self.root / "system" / "settings.json")
        base["GEMINI_CLI_SYSTEM_DEFAULTS_PATH"] = str(self.root / "system" / "system-defaults.json")
        base.pop("HOOKWISE_TRUST_ALL", None)
        self.env: dict[str, str] = base
        self.trust_all = trust_all
        self._system: HookSystem | None = None
        self._runtime: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    # ---- settings --------------------------------------------------------------------------
    def settings_path(self, layer: str = "project") -> Path:
        """The settings file of ``layer`` (project, user, system, system-defaults)."""
        if layer == "project":
            return self.project_dir / ".gemini" / "settings.json"
        if layer == "user":
            return self.home / ".gemini" / "settings.json"
        if layer == "system":
            return Path(self.env["GEMINI_CLI_SYSTEM_SETTINGS_PATH"])
        if layer == "system-defaults":
            return Path(self.env["GEMINI_CLI_SYSTEM_DEFAULTS_PATH"])
        raise ValueError(f"unknown layer {layer!r} (one of {', '.join(_LAYERS)})")

    def settings(self, content: Mapping[str, Any] | str, layer: str = "project") -> Path:
        """Write a whole settings file (a dict is written as JSON; a string as is)."""
        path = self.settings_path(layer)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = content if isinstance(content, str) else json.dumps(content, indent=2) + "\n"
        path.write_text(text, encoding="utf-8")
        self._system = None
        return path

    def read_settings(self, layer: str = "project") -> dict[str, Any]:
        from hookwise.jsonc.parse import read_file

        path = self.settings_path(layer)
        if not path.exists():
            return {}
        value = read_file(str(path))[1]
        return value if isinstance(value, dict) else {}

    def add(
        self,
        event: str,
        command: str,
        *,
        matcher: str | None = None,
        name: str | None = None,
        timeout: int | None = None,
        sequential: bool | None = None,
        layer: str = "project",
        **extra: Any,
    ) -> None:
        """Append one command hook (in its own definition) to ``layer``'s settings file."""
        doc = self.read_settings(layer)
        hook: dict[str, Any] = {"type": "command", "command": command}
        if name is not None:
            hook["name"] = name
        if timeout is not None:
            hook["timeout"] = timeout
        hook.update(extra)
        definition: dict[str, Any] = {"hooks": [hook]}
        if matcher is not None:
            definition["matcher"] = matcher
        if sequential is not None:
            definition["sequential"] = sequential
        doc.setdefault("hooks", {}).setdefault(event, []).append(definition)
        self.settings(doc, layer)

    def disable(self, name: str, layer: str = "project") -> None:
        """Add ``name`` to ``hooksConfig.disabled`` of ``layer``."""
        doc = self.read_settings(layer)
        doc.setdefault("hooksConfig", {}).setdefault("disabled", []).append(name)
        self.settings(doc, layer)

    def script(self, name: str, body: str, *, python: bool = True) -> str:
        """Write a hook script under ``<project>/.gemini/hooks/`` and return the command that runs
        it.

        ``python=True``: the body is Python, run with this interpreter. Otherwise
        the file is made executable and run directly (give it a ``#!`` line).
        """
        path = self.project_dir / ".gemini" / "hooks" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
        rel = f".gemini/hooks/{name}"
        if python:
            return f'{_shell_quote(sys.executable)} "$GEMINI_PROJECT_DIR/{rel}"'
        path.chmod(0o755)
        return f'"$GEMINI_PROJECT_DIR/{rel}"'

    def copy_project(self, source: str | os.PathLike[str]) -> Path:
        """Copy an existing project tree (its ``.gemini/`` settings and scripts included) into the
        project dir.

        Hooks then run against the copy, so they cannot touch the original.
        """
        shutil.copytree(
            source,
            self.project_dir,
            dirs_exist_ok=True,
            symlinks=True,
            ignore=shutil.ignore_patterns(".git", "__pycache__", "node_modules"),
        )
        self._system = None
        return self.project_dir

    # ---- firing ----------------------------------------------------------------------------
    @property
    def system(self) -> HookSystem:
        """The :class:`~hookwise.HookSystem` for the current settings (rebuilt after every settings
        change)."""
        if self._system is None:
            from hookwise.engine import HookSystem

            hs = HookSystem(
                str(self.project_dir),
                trust_all=self.trust_all,
                env=self.env,
                session_id="hookwise-testing",
            )
            for args, kwargs in self._runtime:
                hs.register(*args, **kwargs)
            self._system = hs
        return self._system

    def reload(self) -> None:
        self._system = None

    def register(self, event: str, func: Any, *, name: str, **kwargs: Any) -> HookEntry:
        """Register an in-process Python hook (kept across settings changes)."""
        self._runtime.append(((event, func), {"name": name, **kwargs}))
        return self.system.register(event, func, name=name, **kwargs)

    @property
    def entries(self) -> list[HookEntry]:
        return self.system.entries

    @property
    def warnings(self) -> list[str]:
        """Settings-load warnings (malformed hooks, unknown events...)."""
        return self.system.warnings

    def fire(
        self,
        event: str,
        payload: Mapping[str, Any] | None = None,
        /,
        *,
        tool: str | None = None,
        **fields: Any,
    ) -> FireResult:
        """Fire ``event``; ``tool=`` is short for ``tool_name=``. Base input fields are filled
        in."""
        if tool is not None:
            fields["tool_name"] = tool
        return self.system.fire(event, payload, **fields)

    def run_cases(self, *paths: str | os.PathLike[str]) -> list[CaseResult]:
        """Run ``*.hooktest.json`` files (or directories) against this project."""
        from hookwise.testing.cases import discover, load_file, run_cases

        cases = [c for f in discover([os.fspath(p) for p in paths]) for c in load_file(f)]
        for c in cases:
            c.project = None
            c.isolated = True
        return run_cases(cases, str(self.project_dir), env=self.env)

    def assert_cases(self, *paths: str | os.PathLike[str]) -> list[CaseResult]:
        """Run case files and fail (AssertionError listing every failed case) unless all pass."""
        results = self.run_cases(*paths)
        if not results:
            raise AssertionError(
                "no hook test cases found in " + ", ".join(os.fspath(p) for p in paths)
            )
        bad = [r for r in results if not r.passed]
        if bad:
            lines = []
            for r in bad:
                lines.append(f"{r.case.file}: {r.case.name}")
                lines.extend("    " + x for x in ([r.error] if r.error else r.failures))
            raise AssertionError(
                f"{len(bad)} of {len(results)} hook test case(s) failed:\n" + "\n".join(lines)
            )
        return results


def _shell_quote(s: str) -> str:
    import shlex

    return shlex.quote(s)
