"""A memory limit per learner's server: one cgroup each, under cgroup v1's memory controller or cgroup v2.

The hub (root) creates the group and sets its limit, and the learner's server process joins it before it
executes (``join``, called in the spawner's pre-exec, still as root): every kernel it starts is in the group
too, so the limit covers the server and its kernels together. The kernel asks for more memory than the
limit allows, the kernel's own out-of-memory killer ends the largest process of the group (the kernel),
and the hub and other learners are not touched.

This module is copied into the hub root (``install``) and imported by the hub's configuration, so it uses
the standard library only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

V1_ROOT = Path("/sys/fs/cgroup/memory")
V2_ROOTS = (Path("/sys/fs/cgroup/unified"), Path("/sys/fs/cgroup"))
PARENT = "boundary-lab"


@dataclass(frozen=True)
class Controller:
    """A writable memory controller: ``version`` 1 or 2, ``root`` the course's parent group in it."""

    version: int
    root: Path

    def group(self, learner: str) -> Path:
        return self.root / learner

    def create(self, learner: str, limit_bytes: int) -> Path:
        """The learner's group, created if needed, with its memory limit set (no swap beyond it)."""
        group = self.group(learner)
        group.mkdir(parents=True, exist_ok=True)
        if self.version == 1:
            (group / "memory.limit_in_bytes").write_text(str(limit_bytes))
            memsw = group / "memory.memsw.limit_in_bytes"
            if memsw.exists():
                memsw.write_text(str(limit_bytes))
        else:
            (group / "memory.max").write_text(str(limit_bytes))
            swap = group / "memory.swap.max"
            if swap.exists():
                swap.write_text("0")
        return group

    def limit(self, learner: str) -> int | None:
        """The limit of the learner's group in bytes, or None when there is no group."""
        name = "memory.limit_in_bytes" if self.version == 1 else "memory.max"
        try:
            text = (self.group(learner) / name).read_text().strip()
        except OSError:
            return None
        return None if text == "max" else int(text)

    def usage(self, learner: str) -> int | None:
        """The group's memory use now in bytes (its own count, page cache included); None without a group."""
        return self._read_int(learner, "memory.usage_in_bytes" if self.version == 1 else "memory.current")

    def peak(self, learner: str) -> int | None:
        """The highest memory use the group has had in bytes, by the kernel's own counter (v1
        ``memory.max_usage_in_bytes``, v2 ``memory.peak``), or None without a group or counter."""
        return self._read_int(learner, "memory.max_usage_in_bytes" if self.version == 1 else "memory.peak")

    def _read_int(self, learner: str, name: str) -> int | None:
        try:
            text = (self.group(learner) / name).read_text().strip()
        except OSError:
            return None
        return int(text) if text.isdigit() else None

    def oom_kills(self, learner: str) -> int:
        """How many processes of the learner's group the out-of-memory killer ended (0 if unknown)."""
        name = "memory.oom_control" if self.version == 1 else "memory.events"
        try:
            lines = (self.group(learner) / name).read_text().splitlines()
        except OSError:
            return 0
        for line in lines:
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def pids(self, learner: str) -> list[int]:
        try:
            text = (self.group(learner) / "cgroup.procs").read_text()
        except OSError:
            return []
        return [int(line) for line in text.split()]

    def remove(self, learner: str) -> bool:
        """Remove the learner's group; False when it still holds a process (or removing failed)."""
        try:
            self.group(learner).rmdir()
        except FileNotFoundError:
            return True
        except OSError:
            return False
        return True


def join(group: Path) -> None:
    """Move the calling process into ``group`` (its children follow): call before exec, as root."""
    (group / "cgroup.procs").write_text(str(os.getpid()))


def detect() -> tuple[Controller | None, str]:
    """The writable memory controller with the course's parent group created in it, or None and why not."""
    if (V1_ROOT / "memory.limit_in_bytes").exists():
        try:
            (V1_ROOT / PARENT).mkdir(exist_ok=True)
            return Controller(1, V1_ROOT / PARENT), f"cgroup v1 memory controller at {V1_ROOT}"
        except OSError as exc:
            return None, f"cgroup v1 memory controller at {V1_ROOT} is not writable ({exc.strerror})"
    for root in V2_ROOTS:
        controllers = root / "cgroup.controllers"
        if not controllers.exists():
            continue
        if "memory" not in controllers.read_text().split():
            continue
        try:
            parent = root / PARENT
            parent.mkdir(exist_ok=True)
            subtree = root / "cgroup.subtree_control"
            if "memory" not in subtree.read_text().split():
                subtree.write_text("+memory")
            if "memory" not in (parent / "cgroup.subtree_control").read_text().split():
                (parent / "cgroup.subtree_control").write_text("+memory")
            return Controller(2, parent), f"cgroup v2 memory controller at {root}"
        except OSError as exc:
            return None, f"cgroup v2 at {root}: its memory controller is not usable here ({exc.strerror})"
    return None, "no memory controller found under /sys/fs/cgroup (neither cgroup v1 memory nor cgroup v2)"
