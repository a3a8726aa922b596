"""tools/classroom's place in the design (docs/design.md, "The classroom hub"), checked from the source:
no import between it and lesson_lib, and the modules copied into the hub root need no third-party package
but jupyterhub (and traitlets, which jupyterhub brings)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLASSROOM = ROOT / "tools" / "classroom"


def imported(path: Path) -> set[str]:
    """The top-level names of the modules ``path`` imports (relative imports as ``.``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add("." if node.level else (node.module or "").split(".")[0])
    return names


def test_lesson_lib_and_the_classroom_do_not_import_each_other():
    for path in CLASSROOM.glob("*.py"):
        assert "lesson_lib" not in imported(path), path
    for path in (ROOT / "lesson_lib").rglob("*.py"):
        assert not imported(path) & {"classroom", "tools"}, path


def test_the_modules_copied_into_the_hub_root_need_only_the_standard_library_and_jupyterhub():
    allowed = set(sys.stdlib_module_names) | {".", "__future__", "jupyterhub", "traitlets"}
    for name in ("cgroups.py", "learners.py", "ports.py", "hubside.py"):
        assert imported(CLASSROOM / name) <= allowed, name
    for name in ("cgroups.py", "learners.py", "ports.py"):
        assert imported(CLASSROOM / name) <= set(sys.stdlib_module_names) | {".", "__future__"}, name


def test_the_port_pool_gives_distinct_free_ports_below_the_ephemeral_range_and_skips_a_busy_one():
    import socket

    sys.path.insert(0, str(ROOT / "tools"))
    from classroom.ports import PortPool

    low, high = 20000, 20004
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", low))
        busy.listen()
        pool = PortPool(low, high)
        ports = [pool.take() for _ in range(high - low - 1)]
        assert sorted(ports) == list(range(low + 1, high))  # distinct, in the range, not the busy one
        try:
            pool.take(tries=50)
        except RuntimeError as exc:
            assert "20000-20004" in str(exc)
        else:
            raise AssertionError("a full pool gave a port")
    pool.give_back(low + 1)
    assert pool.take(tries=200) in (low, low + 1)
    try:
        PortPool(30000, 20000)
    except ValueError as exc:
        assert "30000-20000" in str(exc)
    else:
        raise AssertionError("a backwards range was accepted")


def test_the_servers_ports_are_checked_against_the_machines_ephemeral_range(tmp_path):
    sys.path.insert(0, str(ROOT / "tools"))
    from classroom.ports import (
        EPHEMERAL_RANGE_FILE,
        SERVER_PORTS,
        PortRangeError,
        below_ephemeral,
        ephemeral_ports,
    )

    linux_default = tmp_path / "ip_local_port_range"
    linux_default.write_text("32768\t60999\n", encoding="ascii")
    assert ephemeral_ports(linux_default) == (32768, 60999)
    assert ephemeral_ports(tmp_path / "absent") is None
    below_ephemeral(*SERVER_PORTS, (32768, 60999))  # the default: below
    below_ephemeral(20000, 30000, (30000, 60999))  # [low, high): 30000 is not a server's port
    below_ephemeral(20000, 30000, None)  # nothing to check against
    for ephemeral in ((29999, 60999), (1024, 65535), (10000, 20000), (25000, 25001)):
        try:
            below_ephemeral(20000, 30000, ephemeral)
        except PortRangeError as exc:
            message = str(exc)
            assert "20000-29999" in message and f"{ephemeral[0]}-{ephemeral[1]}" in message, message
            assert "net.ipv4.ip_local_port_range" in message and str(EPHEMERAL_RANGE_FILE) in message
        else:
            raise AssertionError(f"{ephemeral} overlaps 20000-29999 and was accepted")
    if EPHEMERAL_RANGE_FILE.exists():  # this machine: what make hub checks before it makes anything
        below_ephemeral(*SERVER_PORTS, ephemeral_ports())
