"""``hookwise trace report``: per-hook statistics and a one-page HTML timeline from a ``--trace``
file or a telemetry ``outfile`` (docs/telemetry.md). Standard library only."""
