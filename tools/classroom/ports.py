"""The learners' servers' ports: a range below the kernel's ephemeral ports, and a pool that lends them.

Standard library only: copied into the hub root with hubside.py (the spawner's pool) and imported by the
checkout's tools (make hub checks the machine's ephemeral range before it starts anything).
"""

from __future__ import annotations

import random
import socket
import threading
from pathlib import Path

#: The learners' servers' ports, ``[low, high)``: below Linux's default ephemeral range (32768-60999).
SERVER_PORTS = (20000, 30000)
#: Where Linux says which ports it hands out for a bind to port 0: two numbers, both ends included.
EPHEMERAL_RANGE_FILE = Path("/proc/sys/net/ipv4/ip_local_port_range")


class PortRangeError(RuntimeError):
    """The servers' port range overlaps the ports the kernel hands out for port 0 (it names both)."""


def ephemeral_ports(path: Path = EPHEMERAL_RANGE_FILE) -> tuple[int, int] | None:
    """The kernel's ephemeral range ``(first, last)``, both included, or None where ``path`` does not exist
    (not Linux: nothing to check against)."""
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        return None
    first, last = (int(part) for part in text.split())
    return first, last


def below_ephemeral(low: int, high: int, ephemeral: tuple[int, int] | None) -> None:
    """Return if ``[low, high)`` shares no port with the ephemeral range (or there is none to check);
    else PortRangeError naming both ranges and the setting to change."""
    if ephemeral is None:
        return
    first, last = ephemeral
    if low <= last and first < high:
        raise PortRangeError(
            f"the learners' servers' ports {low}-{high - 1} overlap the ports this machine hands out to any "
            f"program asking for a free one ({first}-{last}, {EPHEMERAL_RANGE_FILE}): another program could "
            "take a learner's port before the server binds it; raise the range's start above "
            f"{high - 1} (sysctl net.ipv4.ip_local_port_range) or give the spawner a port_range below {first}"
        )


class PortPool:
    """Ports for the learners' servers from ``[low, high)``, a range below the kernel's ephemeral ports
    (``/proc/sys/net/ipv4/ip_local_port_range``, 32768-60999 by default).

    LocalProcessSpawner asks the kernel for a free port (bind to port 0, close) and the server binds it
    seconds later; meanwhile anything else binding port 0 on the machine (a relay in a kernel, a test's
    server) can get it, and the hub then takes that program for the learner's server (seen in
    benchmarks/hub_load.py at 10 learners: "Single-user server has no version header", then a 503). The
    kernel does not hand out ports of this range for port 0 while its ephemeral range starts above it; the
    pool gives a port to one server at a time."""

    def __init__(self, low: int, high: int) -> None:
        if not 1024 <= low < high <= 65536:
            raise ValueError(f"a port range from 1024 up, low < high: got {low}-{high}")
        self.low, self.high = low, high
        self._taken: set[int] = set()
        self._lock = threading.Lock()

    def take(self, tries: int = 500) -> int:
        """A port of the range that no server of the pool holds and that nothing listens on now."""
        with self._lock:
            for _ in range(tries):
                port = random.randrange(self.low, self.high)
                if port in self._taken:
                    continue
                with socket.socket() as probe:
                    try:
                        probe.bind(("127.0.0.1", port))
                    except OSError:
                        continue
                self._taken.add(port)
                return port
        raise RuntimeError(f"no free port in {self.low}-{self.high} after {tries} tries")

    def give_back(self, port: int) -> None:
        with self._lock:
            self._taken.discard(port)


