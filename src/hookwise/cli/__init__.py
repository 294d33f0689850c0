"""The ``hookwise`` command line. :func:`hookwise.cli.main.main` is the entry point."""
