"""What the hub imports: the learners' authenticator and the spawner that puts each server in a cgroup.

Copied into ``<hub root>/config/boundary_lab_hub/`` and imported by the generated ``jupyterhub_config.py``;
it runs inside the hub (root), with jupyterhub importable.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

from jupyterhub.auth import Authenticator
from jupyterhub.spawner import LocalProcessSpawner
from traitlets import Integer, Tuple, Unicode

from .cgroups import detect, join
from .learners import verify_password
from .ports import SERVER_PORTS, PortPool, below_ephemeral, ephemeral_ports


class LearnerAuthenticator(Authenticator):
    """Accept a learner's name with that learner's password, checked against the salted hashes in
    ``secrets_file`` (JSON, name -> hash, mode 0600): any other name or password is refused."""

    secrets_file = Unicode(config=True, help="JSON file: learner name -> scrypt hash of the password")

    async def authenticate(self, handler: Any, data: dict[str, str]) -> str | None:
        name = (data.get("username") or "").strip()
        password = data.get("password") or ""
        table = json.loads(Path(self.secrets_file).read_text(encoding="utf-8"))
        stored = table.get(name)
        if isinstance(stored, str) and verify_password(password, stored):
            return name
        return None


_POOLS: dict[tuple[int, int], PortPool] = {}  # one per range, shared by the hub's spawners


class LearnerSpawner(LocalProcessSpawner):
    """LocalProcessSpawner (the server runs as the learner's OS account) whose process joins the learner's
    memory cgroup before it executes, with SIGINT back at its default (a hub started from a background shell
    inherits SIGINT ignored; its servers would then not stop on the hub's SIGINT)."""

    memory_limit_bytes = Integer(0, config=True, help="the cgroup memory limit per learner; 0 for none")
    port_range = Tuple(Integer(), Integer(), default_value=SERVER_PORTS, config=True,
                       help="the learners' servers' ports, [low, high): below the ephemeral ports")
    _port_pool: PortPool | None = None  # the pool this spawner's port came from, while it holds one

    def make_preexec_fn(self, name: str) -> Any:
        become_user = super().make_preexec_fn(name)
        group = getattr(self, "_cgroup", None)

        def preexec() -> None:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            if group is not None:
                join(group)
            become_user()

        return preexec

    async def start(self) -> Any:
        self._cgroup = None
        if self.memory_limit_bytes:
            controller, why = detect()
            if controller is None:
                self.log.warning("no memory limit for %s: %s", self.user.name, why)
            else:
                self._cgroup = controller.create(self.user.name, self.memory_limit_bytes)
        low, high = self.port_range
        if (low, high) not in _POOLS:
            below_ephemeral(low, high, ephemeral_ports())  # PortRangeError: the hub logs it, the spawn fails
        pool = _POOLS.setdefault((low, high), PortPool(low, high))
        self._give_back()
        self.port = pool.take()
        self._port_pool = pool
        return await super().start()

    def _give_back(self) -> None:
        pool = getattr(self, "_port_pool", None)
        if pool is not None:
            pool.give_back(self.port)
            self._port_pool = None

    async def stop(self, now: bool = False) -> None:
        await super().stop(now=now)
        self._give_back()
        controller, _ = detect()
        if controller is not None:
            controller.remove(self.user.name)
