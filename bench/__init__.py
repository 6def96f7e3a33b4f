"""Benchmarks: scripts that print numbers (run them as `python bench/<name>.py`). A package so that
their shared parts import as `bench.<module>` and type-check apart from the project's own `engine`
and `render`."""
