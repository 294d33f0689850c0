"""``python -m hookwise`` runs the command line."""

from __future__ import annotations

import os
import sys

# `python -m` puts the current directory first on sys.path: in a cloned repository, its `difflib.py`
# or `json/` would shadow the modules hookwise imports later, before any `hookwise trust`
# (docs/security.md). The `hookwise` program never has it there; `python -m hookwise` leaves it out
# too, like `python -P`.
try:
    _here = os.getcwd()
except OSError:  # the current directory was removed
    _here = ""
if sys.path and sys.path[0] in ("", _here):
    del sys.path[0]

from hookwise.cli.main import console  # noqa: E402 - after the current directory is off sys.path

if __name__ == "__main__":
    sys.exit(console())
