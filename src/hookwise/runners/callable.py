"""``"type": "python"`` hooks from settings: import ``package.module:function`` and call it in
process.

A project's (or extension's) own module is looked up in the project (extension)
directory first, and only once the hook is trusted: the engine checks trust
before it asks for the function. The trust key covers the module's files
(:func:`module_files`), so editing the module re-asks like editing a script;
a module that changed since it was imported is imported again. A module
from anywhere else (an installed package) is imported the usual way.

A project's module is loaded **from source only** (never a ``__pycache__`` ``.pyc``
or an extension module placed beside it), and the project directory is never put
on ``sys.path``: the standard library and installed packages come first, so a
project file named like a standard-library module (``colorsys.py``) cannot shadow
it for the hook (:func:`import_from_source`).

Failures are data: :func:`load` returns the function or one sentence naming the
cause (module missing, module raising on import, attribute missing, not
callable); the engine turns it into a ``not-run`` outcome.
"""

from __future__ import annotations

import _thread
import os
import sys
import time

from hookwise._records import TYPE_CHECKING
from hookwise.core.hook_kinds import check_callable

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_LOCK = _thread.RLock()  # threading's own (threading itself is not imported for it: start-up)
#: module name -> (root it was imported from, signature of its files then)
_IMPORTED: dict[str, tuple[str, str]] = {}
#: (reference, root) -> (signature of the module's files, the function, when the signature was last
#: found current (``time.monotonic``)): the fast path of a firing
_FOUND: dict[tuple[str, str | None], tuple[str, Callable[..., Any], float]] = {}


def module_files(spec: str, root: str) -> list[str]:
    """The files under ``root`` that the module of ``spec`` is made of (its package ``__init__``
    files too).

    Empty when the module does not come from ``root`` (an installed package).
    """
    module = spec.partition(":")[0]
    parts = module.split(".")
    out: list[str] = []
    base = root
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        pkg = os.path.join(base, part)
        init = os.path.join(pkg, "__init__.py")
        if os.path.isfile(init):
            out.append(init)
            base = pkg
        elif last:
            return [*out, pkg + ".py"] if os.path.isfile(pkg + ".py") else []
        elif os.path.isdir(pkg):  # a namespace package
            base = pkg
        else:
            return []
    return out


def _signature(files: list[str]) -> str:
    """The files' identity as of now (path, inode, size, modification time): changes when one is
    edited."""
    parts = []
    for f in files:
        try:
            st = os.stat(f)
            parts.append(f"{f}\0{st.st_ino}\0{st.st_size}\0{st.st_mtime_ns}")
        except OSError:
            parts.append(f"{f}\0missing")
    return "\n".join(parts)


def _evict(top: str) -> None:
    for name in [n for n in sys.modules if n == top or n.startswith(top + ".")]:
        del sys.modules[name]
        _IMPORTED.pop(name, None)


def _inside(path: str | None, root: str) -> bool:
    if not path:
        return False
    real = os.path.realpath(path)
    r = os.path.realpath(root).rstrip(os.sep) + os.sep
    return real.startswith(r)


def _known(
    key: tuple[str, str | None], recheck_s: float
) -> tuple[Callable[..., Any] | None, list[str], str]:
    """The function found before for ``key`` = (reference, root) if its module's files are unchanged
    (or were looked at less than ``recheck_s`` seconds ago), else None; and the files with their
    signature now."""
    hit = _FOUND.get(key)
    if hit is not None and recheck_s > 0.0 and time.monotonic() - hit[2] < recheck_s:
        return hit[1], [], hit[0]
    spec, root = key
    files = module_files(spec, root) if root else []
    sig = _signature(files) if files else ""
    if hit is not None and hit[0] == sig:
        if recheck_s > 0.0:
            _FOUND[key] = (sig, hit[1], time.monotonic())
        return hit[1], files, sig
    return None, files, sig


def load(
    spec: str, root: str | None = None, recheck_s: float = 0.0
) -> tuple[Callable[..., Any] | None, str | None]:
    """``(function, None)``, or ``(None, why)`` when the module cannot be imported or the name is
    not callable.

    ``root``: a directory searched first (a trusted project's or extension's dir). The module's
    files are looked at (``stat``) on every call, so an edited module is imported again; with
    ``recheck_s`` > 0 (a long-lived host: ``hookwise serve``) at most once per ``recheck_s``
    seconds: for that long after a look found them unchanged, the function found then is returned
    without looking. It is the function of a module that was trusted when it was imported; trust
    itself is checked before this, on every firing.
    """
    key = (spec, root)
    found, files, sig = _known(key, recheck_s)
    if found is not None:
        return found, None
    bad = check_callable(spec)
    if bad is not None:
        return None, bad
    module_name, _, attr = spec.partition(":")
    import importlib

    with _LOCK:
        if files and root is not None:
            known = _IMPORTED.get(module_name)
            mod = sys.modules.get(module_name)
            stale = known is not None and known != (root, sig)
            foreign = (
                mod is not None
                and known is None
                and not _inside(getattr(mod, "__file__", None), root)
            )
            if (
                stale or foreign
            ):  # edited since (and trusted again), or a same-named module of another place
                _evict(module_name.split(".")[0])
        try:
            if files and root is not None:
                mod = import_from_source(module_name, root)
                _IMPORTED[module_name] = (root, sig)
            else:
                mod = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and (
                module_name == exc.name or module_name.startswith(exc.name + ".")
            ):
                where = f" (looked in {root} and the installed packages)" if root else ""
                return None, f"module {module_name!r} not found{where}"
            return None, f"importing module {module_name!r} raised ModuleNotFoundError: {exc}"
        except BaseException as exc:  # noqa: BLE001 - SystemExit/KeyboardInterrupt in a module body are its bug too
            if isinstance(exc, KeyboardInterrupt):
                raise
            return None, f"importing module {module_name!r} raised {type(exc).__name__}: {exc}"
    obj: Any = mod
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            return None, f"module {module_name!r} has no attribute {attr!r}"
        except Exception as exc:
            return None, f"reading {spec!r} raised {type(exc).__name__}: {exc}"
    if not callable(obj):
        return None, f"{spec!r} is not callable (it is {type(obj).__name__})"
    _FOUND[key] = (sig, obj, time.monotonic())
    return obj, None


# --------------------------------------------------------------------------- loading from source


class _SourceOnlyLoader:
    """Executes a module from its ``.py`` source; never reads or writes bytecode."""

    def __init__(self, name: str, path: str) -> None:
        self.name = name
        self.path = path

    def create_module(self, spec: Any) -> None:
        return None  # the default module object

    def exec_module(self, module: Any) -> None:
        with open(self.path, "rb") as f:
            source = f.read()
        code = compile(source, self.path, "exec", dont_inherit=True)
        exec(code, module.__dict__)

    def get_filename(self, name: str | None = None) -> str:
        return self.path

    def get_source(self, name: str | None = None) -> str:
        with open(self.path, encoding="utf-8", errors="replace") as f:
            return f.read()


def _spec_in(name: str, directory: str) -> Any:
    """The source-only spec of module ``name`` in ``directory`` (package, module or namespace), or
    None."""
    from importlib.machinery import ModuleSpec
    from importlib.util import spec_from_file_location

    last = name.rpartition(".")[2]
    pkg = os.path.join(directory, last)
    init = os.path.join(pkg, "__init__.py")
    if os.path.isfile(init):
        return spec_from_file_location(
            name,
            init,
            loader=_SourceOnlyLoader(name, init),  # type: ignore[arg-type]
            submodule_search_locations=[pkg],
        )
    path = pkg + ".py"
    if os.path.isfile(path):
        return spec_from_file_location(name, path, loader=_SourceOnlyLoader(name, path))  # type: ignore[arg-type]
    if os.path.isdir(pkg):
        spec = ModuleSpec(name, None, is_package=True)
        spec.submodule_search_locations = [pkg]
        return spec
    return None


class _ProjectFinder:
    """Finds modules inside trusted hook directories, from source only.

    ``front`` (first on ``sys.meta_path``): submodules of packages that live in such a
    directory (``from . import util``), so no ``.pyc`` or ``.so`` beside them is used.
    Otherwise (last on ``sys.meta_path``): top-level names that neither the standard
    library nor an installed package provides (a hook's sibling ``helpers.py``).
    """

    def __init__(self, front: bool) -> None:
        self.front = front

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if self.front:
            if path is None:
                return None
            dirs = [d for d in path if any(_inside(d, r) for r in _ROOTS)]
            if not dirs:
                return None
        else:
            if path is not None:
                return None
            dirs = sorted(_ROOTS)
        for d in dirs:
            spec = _spec_in(name, d)
            if spec is not None:
                return spec
        if self.front:  # compiled files only: refused rather than handed to the path finder
            raise ModuleNotFoundError(
                f"no source for module {name!r} in {dirs[0]} (hookwise loads project modules from "
                "source only)",
                name=name,
            )
        return None

    def invalidate_caches(self) -> None:
        pass


#: trusted directories whose modules hooks import (project and extension dirs), real paths
_ROOTS: set[str] = set()
_FINDERS: list[_ProjectFinder] = []


def import_from_source(module_name: str, root: str) -> Any:
    """Import ``module_name`` (each package level) from ``root``'s source files, ``root`` never on
    ``sys.path``."""
    import importlib.util

    if not _FINDERS:
        _FINDERS.extend((_ProjectFinder(front=True), _ProjectFinder(front=False)))
        sys.meta_path.insert(0, _FINDERS[0])  # type: ignore[arg-type]
        sys.meta_path.append(_FINDERS[1])  # type: ignore[arg-type]
    _ROOTS.add(os.path.realpath(root))
    parts = module_name.split(".")
    mod: Any = None
    directory = root
    for i in range(len(parts)):
        name = ".".join(parts[: i + 1])
        mod = sys.modules.get(name)
        if mod is None:
            spec = _spec_in(name, directory)
            if spec is None:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            mod = importlib.util.module_from_spec(spec)
            sys.modules[name] = mod
            try:
                if spec.loader is not None:
                    spec.loader.exec_module(mod)
            except BaseException:
                sys.modules.pop(name, None)
                raise
            if i:
                setattr(sys.modules[".".join(parts[:i])], parts[i], mod)
        locations = getattr(mod, "__path__", None)
        directory = list(locations)[0] if locations else directory
    return mod
