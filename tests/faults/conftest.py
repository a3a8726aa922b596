"""A fault server per test, on 127.0.0.1 at a free port, stopped afterwards with every connection closed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lesson_lib.faults.server import FaultServer


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer(max_lifetime=300) as running:
        yield running
    assert running.open_connections == 0
