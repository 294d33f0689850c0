"""``python -m hookwise`` runs the command line."""

from __future__ import annotations

import sys

from hookwise.cli.main import console

if __name__ == "__main__":
    sys.exit(console())
