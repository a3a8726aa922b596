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
from traitlets import Integer, Unicode

from .cgroups import detect, join
from .learners import verify_password


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


class LearnerSpawner(LocalProcessSpawner):
    """LocalProcessSpawner (the server runs as the learner's OS account) whose process joins the learner's
    memory cgroup before it executes, with SIGINT back at its default (a hub started from a background shell
    inherits SIGINT ignored; its servers would then not stop on the hub's SIGINT)."""

    memory_limit_bytes = Integer(0, config=True, help="the cgroup memory limit per learner; 0 for none")

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
        return await super().start()

    async def stop(self, now: bool = False) -> None:
        await super().stop(now=now)
        controller, _ = detect()
        if controller is not None:
            controller.remove(self.user.name)
