"""Boundary Lab's benchmarks: ``python -m benchmarks`` (``make bench``). See benchmarks/README.md."""
