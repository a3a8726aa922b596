"""Real reverse proxies between a stream and its reader: nginx, Caddy and mitmproxy, on 127.0.0.1.

:class:`Proxy` starts one proxy program, as its users run it, in front of an upstream URL, with one of the
course's configurations (:data:`SETTINGS`; the files are in ``proxy_configs/``, each saying what it sets),
at a free port, in a scratch folder of its own, and stops it: a context manager, like
:class:`~lesson_lib.net.replay.ReplayServer`. Nothing here imitates a proxy; where a program is missing,
:class:`ProxyUnavailable` says how to install it.

The settings are the ones that decide what a stream becomes on its way (docs/proxy_matrix.md measures
each): nginx's ``defaults`` (``proxy_buffering on``), ``buffering_off``, ``gzip`` (``gzip_types`` naming
``text/event-stream``), ``gzip_default_types`` (``gzip on`` alone), ``read_timeout_1s`` and
``two_hops_gzip`` (an inner hop that honours ``X-Accel-Buffering`` in front of an outer one that
gzips); Caddy's ``defaults`` and ``flush_interval_-1``; mitmproxy's ``defaults`` and
``stream_large_bodies_1``.

Where each program is looked for: ``executable=`` if given; else the environment variable
``BOUNDARY_LAB_<KIND>`` (``BOUNDARY_LAB_NGINX``, ``BOUNDARY_LAB_CADDY``, ``BOUNDARY_LAB_MITMPROXY``); else
the ``PATH`` and Debian's place for it (``/usr/sbin/nginx``, ``/usr/bin/caddy``); mitmproxy also in
``.venv-mitmproxy/bin/mitmdump`` of the course's checkout (``make mitmproxy`` makes that venv: mitmproxy
11 pins an ``h11`` older than the course's, so it cannot share the course's venv).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.parse
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import TracebackType

from ..core.options import check_number
from ..i18n import text

__all__ = ["KINDS", "SETTINGS", "Proxy", "ProxySetting", "ProxyUnavailable", "find_executable"]


class ProxyUnavailable(RuntimeError):
    """The proxy program is not installed here (the message names the command that installs it), or it did
    not start (the message carries the last lines of its own log)."""


@dataclass(frozen=True)
class _Kind:
    program: str
    debian_path: str | None
    install: str


#: The proxy programs, by kind: the program's name and how to install it.
KINDS: dict[str, _Kind] = {
    "nginx": _Kind("nginx", "/usr/sbin/nginx", "apt-get install nginx (as root; .ci/run does it)"),
    "caddy": _Kind("caddy", "/usr/bin/caddy", "apt-get install caddy (as root; .ci/run does it)"),
    "mitmproxy": _Kind(
        "mitmdump", None, "make mitmproxy (its own venv, .venv-mitmproxy, from requirements-mitmproxy.txt)"
    ),
}


@dataclass(frozen=True)
class ProxySetting:
    """One configuration of one proxy: its ``kind``, its ``name`` and the file under ``proxy_configs/``."""

    kind: str
    name: str
    filename: str

    def text(self) -> str:
        """The configuration file as committed (placeholders ``@PORT@``, ``@PORT2@``, ``@UPSTREAM@`` and
        ``@DIR@`` not yet filled in)."""
        return resources.files(__package__).joinpath("proxy_configs", self.filename).read_text("utf-8")

    def describe(self) -> str:
        """What this setting is, in the current language (the catalogue's ``proxies.<kind>.<name>``): in
        English the file's leading comment, without the part shared by every nginx file
        (``tests/net/test_proxies.py`` keeps the two in step)."""
        return text(f"proxies.{self.kind}.{self.name}")

    @property
    def summary(self) -> str:
        """The file's first comment line, without its ``#``: what this setting is."""
        return next(line.lstrip("# ").rstrip() for line in self.text().splitlines() if line.startswith("#"))


def _settings() -> dict[tuple[str, str], ProxySetting]:
    names = {
        "nginx": (
            "defaults",
            "buffering_off",
            "gzip",
            "gzip_default_types",
            "read_timeout_1s",
            "two_hops_gzip",
            "gzip_buffering_off",
            "gzip_ignore_header",
        ),
        "caddy": ("defaults", "flush_interval_-1"),
        "mitmproxy": ("defaults", "stream_large_bodies_1"),
    }
    suffix = {"nginx": ".conf", "caddy": ".Caddyfile", "mitmproxy": ".yaml"}
    return {
        (kind, name): ProxySetting(kind, name, f"{kind}-{name}{suffix[kind]}")
        for kind, kind_names in names.items()
        for name in kind_names
    }


#: Every (kind, setting name) the course has a configuration for, in table order.
SETTINGS: dict[tuple[str, str], ProxySetting] = _settings()


def _checkout_root() -> Path:
    return Path(__file__).resolve().parents[2]


def find_executable(kind: str, executable: str | os.PathLike[str] | None = None) -> str:
    """The path of ``kind``'s program, looked for as the module says; :class:`ProxyUnavailable` naming the
    install command if there is none, ``ValueError`` naming ``kind`` if it is not one of :data:`KINDS`."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    spec = KINDS[kind]
    candidates: list[str] = []
    if executable is not None:
        candidates.append(os.fspath(executable))
    else:
        variable = os.environ.get(f"BOUNDARY_LAB_{kind.upper()}")
        if variable:
            candidates.append(variable)
        else:
            found = shutil.which(spec.program)
            candidates += [found] if found else []
            candidates += [spec.debian_path] if spec.debian_path else []
            if kind == "mitmproxy":
                candidates += [
                    str(root / ".venv-mitmproxy" / "bin" / "mitmdump")
                    for root in (_checkout_root(), *Path.cwd().resolve().parents[:3], Path.cwd().resolve())
                ]
    for candidate in candidates:
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    variable_name = f"BOUNDARY_LAB_{kind.upper()}"
    if executable is not None:
        where = f"{candidates[0]!r} is not an executable file"
    elif os.environ.get(variable_name):
        where = f"{variable_name}={candidates[0]!r} is not an executable file"
    else:
        where = "not found"
    raise ProxyUnavailable(f"{kind} ({spec.program}): {where}; install it with: {spec.install}")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def _upstream_authority(upstream_url: str) -> str:
    if not isinstance(upstream_url, str):
        raise TypeError(f"upstream_url must be a str, got {type(upstream_url).__name__}")
    parts = urllib.parse.urlsplit(upstream_url)
    if parts.scheme != "http" or not parts.hostname or parts.port is None:
        raise ValueError(f"upstream_url must be http://host:port (as ReplayServer.url), not {upstream_url!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise ValueError(f"upstream_url must name only a host and port, not {upstream_url!r}")
    return f"{parts.hostname}:{parts.port}"


class Proxy:
    """``kind``'s program (``"nginx"``, ``"caddy"``, ``"mitmproxy"``) proxying to ``upstream_url`` with the
    configuration ``setting`` (see :data:`SETTINGS`), listening on ``127.0.0.1`` at a free port.

    :attr:`url` is the proxy's base URL once started: a request for ``url + path`` reaches
    ``upstream_url + path``. :meth:`start` returns once the proxy accepts connections (within
    ``start_timeout`` seconds) or raises :class:`ProxyUnavailable` with the last lines of its log;
    :meth:`stop` ends the process and removes its scratch folder. Bad arguments raise before any I/O:
    ``ValueError`` naming ``kind``, ``setting``, ``upstream_url`` or ``start_timeout``.
    """

    def __init__(
        self,
        kind: str,
        upstream_url: str,
        setting: str = "defaults",
        *,
        executable: str | os.PathLike[str] | None = None,
        start_timeout: float = 15.0,
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
        if (kind, setting) not in SETTINGS:
            known = ", ".join(name for k, name in SETTINGS if k == kind)
            raise ValueError(f"setting for {kind} must be one of {known}, not {setting!r}")
        self._upstream = _upstream_authority(upstream_url)
        check_number("start_timeout", start_timeout, minimum=0, maximum=600, low_open=True)
        self.kind = kind
        self.setting = SETTINGS[(kind, setting)]
        self.upstream_url = upstream_url
        self.start_timeout = float(start_timeout)
        self._executable = executable
        self._process: subprocess.Popen[bytes] | None = None
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._log_path: Path | None = None
        self._last_log = ""
        self.port: int | None = None

    # -- the life of the process --------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``; ``RuntimeError`` before :meth:`start`."""
        if self.port is None or self._process is None:
            raise RuntimeError("the proxy is not started: call start() or use it as a context manager")
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Proxy:
        """Start the program (up to three free ports are tried, in case another process takes one first)
        and wait until it accepts connections; returns ``self``."""
        if self._process is not None:
            raise RuntimeError("the proxy is already started")
        program = find_executable(self.kind, self._executable)
        failure = ""
        for _attempt in range(3):
            self._folder = tempfile.TemporaryDirectory(prefix=f"boundary-lab-{self.kind}-")
            folder = Path(self._folder.name)
            self.port, inner = _free_port(), _free_port()
            command, env = self._command(program, folder, self.port, inner)
            self._log_path = folder / "program.log"
            with open(self._log_path, "wb") as log:
                self._process = subprocess.Popen(
                    command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env,
                    cwd=folder, start_new_session=True,
                )
            failure = self._wait_until_ready(inner if self.setting.name == "two_hops_gzip" else None)
            if not failure:
                return self
            self.stop()
            if "address already in use" not in failure.lower():
                break
        raise ProxyUnavailable(f"{self.kind} ({self.setting.name}) did not start: {failure}")

    def _command(self, program: str, folder: Path, port: int, inner: int) -> tuple[list[str], dict[str, str]]:
        text = (
            self.setting.text()
            .replace("@PORT@", str(port))
            .replace("@PORT2@", str(inner))
            .replace("@UPSTREAM@", self._upstream)
            .replace("@DIR@", str(folder))
        )
        home = str(folder)
        env = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": home, "XDG_DATA_HOME": home}
        if self.kind == "nginx":
            (folder / "nginx.conf").write_text(text, "utf-8")
            return [program, "-p", str(folder), "-e", str(folder / "error.log"), "-c", "nginx.conf"], env
        if self.kind == "caddy":
            (folder / "Caddyfile").write_text(text, "utf-8")
            return [program, "run", "--config", "Caddyfile", "--adapter", "caddyfile"], env
        confdir = folder / "mitmproxy"
        confdir.mkdir()
        (confdir / "config.yaml").write_text(text, "utf-8")
        mode = f"reverse:http://{self._upstream}"
        listen = ["--listen-host", "127.0.0.1", "--listen-port", str(port)]
        return [program, "--set", f"confdir={confdir}", "--mode", mode, *listen], env

    def _wait_until_ready(self, inner: int | None) -> str:
        """'' once the proxy (and its inner hop, if any) accepts; else why not."""
        assert self._process is not None
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                return f"it exited with status {self._process.returncode}: {self.log_tail()}"
            if _accepts(self.port or 0) and (inner is None or _accepts(inner)):
                return ""
            time.sleep(0.05)
        return f"it did not accept connections within {self.start_timeout:g} s: {self.log_tail()}"

    def log_tail(self, lines: int = 5) -> str:
        """The last ``lines`` lines the program wrote to its log (its errors and warnings: the
        configurations ask for no access log, so no request or body is in it)."""
        return " | ".join(self.log().strip().splitlines()[-lines:]) or "(nothing in its log)"

    def log(self) -> str:
        """Everything the program wrote to its log so far, or until :meth:`stop` (see :meth:`log_tail`)."""
        if self._folder is None:
            return self._last_log
        paths = [p for p in (self._log_path, self._nginx_error_log()) if p is not None and p.exists()]
        return "\n".join(p.read_text("utf-8", "replace") for p in paths)

    def _nginx_error_log(self) -> Path | None:
        if self.kind != "nginx" or self._folder is None:
            return None
        return Path(self._folder.name) / "error.log"

    def stop(self) -> None:
        """End the program (SIGTERM, then SIGKILL after 5 s) and remove its scratch folder; idempotent."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)
        if self._folder is not None:
            self._last_log = self.log()
            self._folder.cleanup()
            self._folder = None

    def __enter__(self) -> Proxy:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
