"""Everything that starts a process or a thread for a hook: one runner per hook kind, one process driver."""
