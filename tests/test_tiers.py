"""The quick tier's every-module check (``pytest_sessionfinish`` in conftest.py) checks what it
says."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import PROCESS_ONLY

import hookwise
from _tiers import package_modules

ROOT = Path(__file__).resolve().parent.parent


def test_package_modules_lists_modules_and_packages_by_file(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    for name in ("__init__.py", "a.py", "sub/__init__.py", "sub/b.py"):
        (pkg / name).write_text("")
    assert package_modules(pkg) == {"pkg", "pkg.a", "pkg.sub", "pkg.sub.b"}


def test_every_process_only_module_and_its_test_exist() -> None:
    modules = package_modules(Path(hookwise.__file__).parent)
    for module, (test_file, evidence) in PROCESS_ONLY.items():
        assert module in modules, f"{module} is listed in PROCESS_ONLY but no longer exists"
        assert (ROOT / test_file).is_file(), f"{test_file} (for {module}) does not exist"
        assert evidence in (ROOT / test_file).read_text(), f"{test_file} no longer runs {module}"
