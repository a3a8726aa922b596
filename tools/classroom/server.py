"""The hub as a process: its configuration written into the hub root, started on 127.0.0.1, stopped with
every learner's server.

``Classroom.prepare()`` does the I/O of ``make hub`` (hub root, accounts, copies, passwords),
``start()`` runs JupyterHub and returns once its API answers, ``stop()`` ends the hub, then any process
a learner account still runs, then the learners' cgroups.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from . import install, learners
from .cgroups import detect
from .ports import SERVER_PORTS, below_ephemeral, ephemeral_ports

HOST = "127.0.0.1"
DEFAULT_ROOT = Path("/srv/boundary-lab-hub")
MIB = 1024 * 1024
PASSWORDS = "learners.txt"  # for the instructor: name and password, one a line (0600)
SECRETS = "secrets.json"  # for the hub: name -> hash (0600)


def free_port() -> int:
    """A port on 127.0.0.1 that was free when asked."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


@dataclass
class Settings:
    """What a classroom is: checked by ``tools/hub.py`` before anything is written."""

    checkout: Path
    learners: list[str]
    root: Path = DEFAULT_ROOT
    port: int = 0  # 0: a free port
    memory_mib: int = 1024  # per learner: the server and its kernels together
    cull_timeout: int = 3600  # seconds of no activity before the culler stops a learner's server
    cull_every: int = 300
    activity_interval: int = 300  # how often servers and the proxy report activity to the hub
    progress: bool = False  # the learners' kernels record their check() calls (BOUNDARY_LAB_PROGRESS)


@dataclass
class Classroom:
    settings: Settings
    passwords: dict[str, str] = field(default_factory=dict)
    memory_note: str = ""
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.settings.port}"

    @property
    def state(self) -> Path:
        return self.settings.root / "state"

    def prepare(self) -> None:
        """Make the hub root current, each learner's account and notebook copy, and new passwords.
        PortRangeError, before anything is made, if this machine's ephemeral ports overlap the servers'."""
        below_ephemeral(*SERVER_PORTS, ephemeral_ports())
        s = self.settings
        s.root.mkdir(parents=True, exist_ok=True)
        python = install.make_venv(s.root, s.checkout)
        install.copy_hub_side(s.root)
        self.state.mkdir(exist_ok=True)
        os.chmod(self.state, 0o700)
        learners.ensure_group()
        for name in s.learners:
            home = learners.ensure_account(name)
            copy = learners.copy_notebooks(s.checkout, home, name)
            trust(s.root, name, copy)
        self.passwords = {name: learners.new_password() for name in s.learners}
        hashes = {name: learners.hash_password(pw) for name, pw in self.passwords.items()}
        learners.write_private(s.root / SECRETS, json.dumps(hashes, indent=1))
        lines = [f"{name} {pw}" for name, pw in self.passwords.items()]
        learners.write_private(s.root / PASSWORDS, "\n".join(lines) + "\n")
        if s.port == 0:
            s.port = free_port()
        controller, why = detect()
        self.memory_note = (
            f"memory limit {s.memory_mib} MiB per learner ({why})"
            if controller is not None
            else f"NO memory limit is enforced: {why}"
        )
        self._write_config(python, install.proxy_command(s.checkout))

    def _write_config(self, python: Path, proxy: Path) -> None:
        s = self.settings
        venv_bin = python.parent
        settings = {
            "port": s.port,
            "hub_port": free_port(),
            "proxy_api_port": free_port(),
            "proxy": str(proxy),
            "state": str(self.state),
            "secrets": str(s.root / SECRETS),
            "learners": s.learners,
            "singleuser": str(venv_bin / "jupyterhub-singleuser"),
            "python": str(python),
            "path": f"{venv_bin}:/usr/local/bin:/usr/bin:/bin",
            "ld_library_path": str(s.root / "python" / "lib"),
            "memory_bytes": s.memory_mib * MIB,
            "cull_timeout": s.cull_timeout,
            "cull_every": s.cull_every,
            "activity_interval": s.activity_interval,
            "progress": s.progress,
        }
        config = s.root / "config"
        learners.write_private(config / "settings.json", json.dumps(settings, indent=1))
        text = CONFIG_TEMPLATE.format(config=str(config))
        (config / "jupyterhub_config.py").write_text(text, encoding="utf-8")

    def start(self, timeout: float = 60.0) -> None:
        """Run JupyterHub (its log in ``state/hub.log``) and return once its API answers on 127.0.0.1."""
        s = self.settings
        env = install.python_env(s.root)
        env["PATH"] = f"{s.root / 'venv' / 'bin'}:{env.get('PATH', '/usr/bin:/bin')}"
        log = (self.state / "hub.log").open("ab")
        try:
            self.process = subprocess.Popen(
                [str(s.root / "venv" / "bin" / "python"), "-m", "jupyterhub", "-f",
                 str(s.root / "config" / "jupyterhub_config.py")],
                cwd=self.state, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True, preexec_fn=_default_sigint,
            )
        finally:
            log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the hub exited with code {self.process.returncode}: see {self.log_path}")
            try:
                with urllib.request.urlopen(self.url + "/hub/api/", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.3)
        raise RuntimeError(f"the hub did not answer within {timeout:.0f} s: see {self.log_path}")

    @property
    def log_path(self) -> Path:
        return self.state / "hub.log"

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout: float = 20.0) -> None:
        """Stop the hub (it stops the learners' servers and its proxy), then end whatever a learner account
        or the hub's process group still runs, then remove the learners' cgroups."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
        end_learner_processes(self.settings.learners)
        controller, _ = detect()
        if controller is not None:
            for name in self.settings.learners:
                controller.remove(name)


def trust(root: Path, name: str, folder: Path) -> None:
    """Sign the learner's notebooks in that learner's own Jupyter data folder (``jupyter trust`` run as the
    learner), so JupyterLab draws their stored widgets on open."""
    notebooks = [str(p) for p in sorted(folder.rglob("*.ipynb"))]
    env = install.python_env(root)
    env.update(HOME=str(folder.parents[1]), USER=name)  # folder is <home>/boundary-lab/notebooks
    result = subprocess.run(
        ["runuser", "-u", name, "--", str(root / "venv" / "bin" / "jupyter"), "trust", *notebooks],
        env=env, capture_output=True, text=True, timeout=300, cwd="/",
    )
    if result.returncode != 0:
        raise RuntimeError(f"jupyter trust as {name} failed: {result.stderr.strip()[-300:]}")


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def end_learner_processes(names: list[str], timeout: float = 5.0) -> None:
    """SIGTERM, then SIGKILL, every process running as one of these learner accounts."""
    users = set(names)
    found = []
    for proc in psutil.process_iter(["username"]):
        if proc.info["username"] in users:
            found.append(proc)
    for proc in found:
        with contextlib.suppress(psutil.NoSuchProcess):
            proc.terminate()
    _, alive = psutil.wait_procs(found, timeout=timeout)
    for proc in alive:
        with contextlib.suppress(psutil.NoSuchProcess):
            proc.kill()
    psutil.wait_procs(alive, timeout=timeout)


CONFIG_TEMPLATE = '''"""JupyterHub's configuration for make hub, written by tools/classroom/server.py
(do not edit: rewritten at each start; the values are in settings.json beside it)."""
import json
import sys

sys.path.insert(0, {config!r})
from boundary_lab_hub.hubside import LearnerAuthenticator, LearnerSpawner  # noqa: E402

c = get_config()  # noqa: F821
with open({config!r} + "/settings.json", encoding="utf-8") as handle:
    s = json.load(handle)

c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = s["port"]
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = s["hub_port"]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:%d" % s["proxy_api_port"]
c.ConfigurableHTTPProxy.command = [s["proxy"]]
c.JupyterHub.db_url = "sqlite:///" + s["state"] + "/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = s["state"] + "/jupyterhub_cookie_secret"
c.JupyterHub.cleanup_servers = True
c.JupyterHub.last_activity_interval = s["activity_interval"]

c.JupyterHub.authenticator_class = LearnerAuthenticator
c.LearnerAuthenticator.secrets_file = s["secrets"]
c.Authenticator.allowed_users = set(s["learners"])

c.JupyterHub.spawner_class = LearnerSpawner
c.LearnerSpawner.memory_limit_bytes = s["memory_bytes"]
c.Spawner.cmd = [s["singleuser"]]
# Kernels talk to their server over Unix sockets in the learner's own runtime folder (in a 0700 home), not
# TCP ports on 127.0.0.1: with TCP, a server picks free ports and its kernel binds them later, so servers
# starting kernels at the same moment can pick the same port (benchmarks/hub_load.py at 20 learners: a
# kernel failed with "Address already in use" and a server reached another learner's kernel, refused only
# by its message signature). The learners' kernels are then out of each other's reach too.
c.Spawner.args = ["--KernelManager.transport=ipc",
                  # lessons raise on purpose: a Voila app shows the exception, not "There was an error"
                  "--VoilaConfiguration.show_tracebacks=True"]
c.Spawner.notebook_dir = "~/boundary-lab"
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 90
c.Spawner.env_keep = ["LANG", "LC_ALL"]
c.Spawner.environment = {{
    "PATH": s["path"],
    "LD_LIBRARY_PATH": s["ld_library_path"],
    "JUPYTERHUB_ACTIVITY_INTERVAL": str(s["activity_interval"]),
}}
if s["progress"]:  # lesson_lib.exercises.progress expands ~ with the HOME the spawner gives the learner
    c.Spawner.environment["BOUNDARY_LAB_PROGRESS"] = "~/.boundary-lab"

c.JupyterHub.services = [{{
    "name": "idle-culler",
    "command": [s["python"], "-m", "jupyterhub_idle_culler",
                "--timeout=%d" % s["cull_timeout"], "--cull-every=%d" % s["cull_every"]],
}}]
c.JupyterHub.load_roles = [{{
    "name": "idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}}]
'''
