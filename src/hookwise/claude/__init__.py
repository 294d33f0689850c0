"""Claude Code compatibility in one wing.

Name tables, matchers, conversion, the dialect used while firing, the ``.claude/`` loader and
migration.
"""
