"""Servers for the browser tests: free ports, bounded waits, processes in their own process group.

Nothing here is shared between tests: every server gets its own port, folders and log, and is stopped by
the test that started it, by process id (its process group, then any descendant left over).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

HOST = "127.0.0.1"


# -- waiting ---------------------------------------------------------------------------------------------
def wait_for(check: Callable[[], Any], timeout: float, what: str, interval: float = 0.25) -> Any:
    """Call ``check`` until it returns something truthy (returned); fail after ``timeout`` seconds.

    Other exceptions count as "not yet"; an AssertionError (a server died, say) fails at once.
    """
    deadline = time.monotonic() + timeout
    last_error: Exception | None = None
    while True:
        try:
            value = check()
        except AssertionError:
            raise
        except Exception as exc:  # a server not up yet, a page still loading
            value, last_error = None, exc
        if value:
            return value
        if time.monotonic() > deadline:
            detail = f" (last error: {last_error!r})" if last_error else ""
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}{detail}")
        time.sleep(interval)


def http_get(url: str, timeout: float = 5.0) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


# -- processes -------------------------------------------------------------------------------------------
@dataclass
class Server:
    """A server process in its own process group, its output in a log file."""

    argv: list[str]
    cwd: Path
    env: dict[str, str]
    log_path: Path
    process: subprocess.Popen | None = None
    descendants: list[psutil.Process] = field(default_factory=list)
    commands: dict[int, str] = field(default_factory=dict)  # descendant pid -> its command line

    def start(self) -> Server:
        log = self.log_path.open("ab")
        try:
            self.process = subprocess.Popen(
                self.argv,
                cwd=self.cwd,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        finally:
            log.close()
        return self

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def check_alive(self, name: str) -> bool:
        """True while running; an AssertionError with the log once the process has exited."""
        assert self.process is not None
        code = self.process.poll()
        assert code is None, f"{name} exited with code {code}:\n{self.log()}"
        return True

    def log(self, tail: int = 4000) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-tail:]
        except OSError:
            return ""

    def remember_descendants(self) -> None:
        """Note every process the server started (kernels have their own process group)."""
        if not self.alive():
            return
        try:
            children = psutil.Process(self.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return
        for child in children:
            if child.pid in self.commands:
                continue
            try:
                self.commands[child.pid] = " ".join(child.cmdline())
            except psutil.Error:  # it ended meanwhile
                continue
            self.descendants.append(child)

    def wait_descendants(self, timeout: float) -> list[str]:
        """Wait up to ``timeout`` s for the remembered descendants to end; return those still running."""
        deadline = time.monotonic() + timeout
        while (running := self.running_descendants()) and time.monotonic() < deadline:
            time.sleep(0.2)
        return running

    def running_descendants(self) -> list[str]:
        """The command lines of the remembered descendants still running (zombies count as ended)."""
        running = []
        for child in self.descendants:
            try:
                if child.is_running() and child.status() != psutil.STATUS_ZOMBIE:
                    running.append(self.commands[child.pid])
            except psutil.Error:
                pass
        return running

    def signal_group(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signum)

    def stop(self, signum: int = signal.SIGTERM, timeout: float = 20.0) -> int | None:
        """Signal the process group, wait, kill if needed; then end any descendant left over."""
        if self.process is None:
            return None
        self.remember_descendants()
        if self.process.poll() is None:
            self.signal_group(signum)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.signal_group(signal.SIGKILL)
                self.process.wait(10)
        _, alive = psutil.wait_procs(self.descendants, timeout=10)
        for child in alive:
            with contextlib.suppress(psutil.NoSuchProcess):
                child.kill()
        psutil.wait_procs(alive, timeout=5)
        return self.process.returncode


def isolated_env(base: Path, token: str) -> dict[str, str]:
    """The environment for a server: its own Jupyter config, runtime, data, IPython and matplotlib
    folders, and the token (from the environment, so it is not on a command line)."""
    dirs = {name: base / name for name in ("config", "runtime", "ipython", "data", "matplotlib")}
    for path in dirs.values():
        path.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    for key in ("JUPYTER_TOKEN_FILE", "JUPYTER_PREFER_ENV_PATH", "MPLBACKEND"):
        env.pop(key, None)
    env.update(
        JUPYTER_TOKEN=token,
        JUPYTER_CONFIG_DIR=str(dirs["config"]),
        JUPYTER_RUNTIME_DIR=str(dirs["runtime"]),
        JUPYTER_DATA_DIR=str(dirs["data"]),
        IPYTHONDIR=str(dirs["ipython"]),
        # matplotlib's own font list, built in half a second: it sees the fonts installed now (a cache
        # built before fonts-noto-cjk was installed would draw U+4F60 where the glyph 你 belongs).
        MPLCONFIGDIR=str(dirs["matplotlib"]),
        PYDEVD_DISABLE_FILE_VALIDATION="1",
        PYTHONUNBUFFERED="1",
    )
    return env
