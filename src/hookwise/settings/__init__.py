"""Settings: the layers, the one schema of a hook, loading, validation, editing and diagnosis."""
