"""A learner as a program: log in through the hub's form, get an API token, start the server, and run a
notebook's code cells through the kernel protocol (Jupyter server REST + the kernel's websocket).

``run_notebook`` reports, per learner, the seconds from login to the first executed cell and to the end,
and every cell that failed. The load test reuses it; the tests drive one learner at a time with it.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import requests
import websocket

RAISES = "raises-exception"  # the lessons' tag (nbval's too) for a cell whose exception is the lesson
KERNEL_LOST = ("KernelDied", "KernelLost", "Timeout")


class LoginFailed(RuntimeError):
    """The hub refused the name and password."""


@dataclass
class CellFailure:
    index: int
    error: str  # the exception's name and value (not its traceback)


@dataclass
class RunReport:
    """One learner's run of one notebook: seconds from login, and what failed (empty when nothing did)."""

    learner: str
    notebook: str
    cells: int = 0
    to_first_cell: float | None = None
    to_end: float | None = None
    failures: list[CellFailure] = field(default_factory=list)


class Learner:
    """One learner's session with the hub at ``hub_url`` (``http://127.0.0.1:<port>``)."""

    def __init__(self, hub_url: str, name: str) -> None:
        self.hub_url, self.name = hub_url.rstrip("/"), name
        self.session = requests.Session()
        self.token: str | None = None
        self.logged_in_at: float | None = None

    # -- the hub -------------------------------------------------------------------------------------
    def login(self, password: str) -> None:
        """Log in with the form (as a browser does), then ask the hub API for a token; LoginFailed if the
        hub refused."""
        self.logged_in_at = time.monotonic()
        self.session.get(f"{self.hub_url}/hub/login", timeout=30)
        xsrf = self.session.cookies.get("_xsrf") or ""
        response = self.session.post(
            f"{self.hub_url}/hub/login?next=",
            data={"username": self.name, "password": password, "_xsrf": xsrf},
            allow_redirects=False, timeout=60,
        )
        if response.status_code != 302 or not any(c.name.startswith("jupyterhub-hub-login") for c in
                                                   self.session.cookies):
            raise LoginFailed(f"{self.name}: the hub refused the login (HTTP {response.status_code})")
        response = self.session.post(
            f"{self.hub_url}/hub/api/users/{self.name}/tokens",
            headers={"X-XSRFToken": self.session.cookies.get("_xsrf") or xsrf or ""},
            json={"note": "boundary-lab client"}, timeout=30,
        )
        response.raise_for_status()
        self.token = response.json()["token"]

    @property
    def headers(self) -> dict[str, str]:
        if self.token is None:
            raise RuntimeError("log in first")
        return {"Authorization": f"token {self.token}"}

    def api(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        return requests.request(method, self.hub_url + path, headers=self.headers, timeout=60, **kwargs)

    def user(self) -> dict[str, Any]:
        response = self.api("GET", f"/hub/api/users/{self.name}")
        response.raise_for_status()
        return dict(response.json())

    def server_state(self) -> str:
        """``"ready"``, ``"stopped"`` (no server), or the hub's pending action (``"spawn"``, ``"stop"``)."""
        server = self.user().get("servers", {}).get("")
        if not server:
            return "stopped"
        if server.get("ready"):
            return "ready"
        return str(server.get("pending") or "spawn")

    def server_ready(self) -> bool:
        return self.server_state() == "ready"

    def start_server(self, timeout: float = 120.0) -> None:
        """Start the learner's server and return once it is ready: nothing to do if it runs; while the hub
        is still stopping it (the culler, say), wait for the stop, then start it again."""
        deadline = time.monotonic() + timeout
        while (state := self.server_state()) != "ready":
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: the server was not ready within {timeout:.0f} s ({state})")
            if state == "stopped":
                response = self.api("POST", f"/hub/api/users/{self.name}/server")
                if response.status_code not in (201, 202, 400):  # 400: a start or stop is pending
                    response.raise_for_status()
            time.sleep(0.5)

    def stop_server(self) -> None:
        self.api("DELETE", f"/hub/api/users/{self.name}/server")

    # -- the learner's server ------------------------------------------------------------------------
    @property
    def server_path(self) -> str:
        return f"/user/{self.name}"

    def server(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        """A request to the learner's Jupyter server through the hub's proxy."""
        return self.api(method, self.server_path + path, **kwargs)

    def notebook(self, path: str) -> dict[str, Any]:
        """The notebook at ``path`` (relative to the server's folder), through the contents API."""
        response = self.server("GET", f"/api/contents/{path}", params={"content": "1"})
        response.raise_for_status()
        return dict(response.json()["content"])

    def kernel(self, folder: str = "") -> Kernel:
        """A new python3 kernel whose working folder is ``folder``, with its channels open."""
        response = self.server("POST", "/api/kernels", json={"name": "python3", "path": folder})
        response.raise_for_status()
        kernel_id = response.json()["id"]
        url = self.hub_url.replace("http", "ws", 1) + f"{self.server_path}/api/kernels/{kernel_id}/channels"
        return Kernel(self, kernel_id, websocket.create_connection(url, header=self.headers, timeout=300))

    def run_notebook(self, path: str, cell_timeout: float = 300.0) -> RunReport:
        """Execute every code cell of the notebook at ``path`` in a fresh kernel started in its folder, in
        order (after a failure too). A failure is an error in a cell, except the expected exception of a
        cell tagged ``raises-exception``; such a cell that raises nothing is a failure too."""
        if self.logged_in_at is None:
            raise RuntimeError("log in first")
        report = RunReport(self.name, path)
        folder = path.rpartition("/")[0]
        cells = [c for c in self.notebook(path)["cells"] if c["cell_type"] == "code"]
        kernel = self.kernel(folder)
        try:
            for index, cell in enumerate(cells):
                source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
                error = kernel.execute(source, cell_timeout)
                expected = RAISES in cell.get("metadata", {}).get("tags", [])
                if error is not None and (not expected or error.startswith(KERNEL_LOST)):
                    report.failures.append(CellFailure(index, error))
                elif error is None and expected:
                    report.failures.append(CellFailure(index, f"no exception from a cell tagged {RAISES}"))
                report.cells += 1
                if report.to_first_cell is None:
                    report.to_first_cell = time.monotonic() - self.logged_in_at
        finally:
            kernel.shutdown()
        report.to_end = time.monotonic() - self.logged_in_at
        return report


@dataclass
class Kernel:
    """A kernel of a learner's server, spoken to over its websocket (the Jupyter messaging protocol)."""

    learner: Learner
    kernel_id: str
    ws: Any
    session: str = field(default_factory=lambda: uuid.uuid4().hex)
    stdout: str = ""  # what the last execute printed

    def _send(self, msg_type: str, content: dict[str, Any], channel: str = "shell") -> str:
        msg_id = uuid.uuid4().hex
        header = {"msg_id": msg_id, "msg_type": msg_type, "session": self.session, "username": "",
                  "date": "", "version": "5.3"}
        self.ws.send(json.dumps({"header": header, "parent_header": {}, "metadata": {}, "content": content,
                                 "channel": channel, "buffers": []}))
        return msg_id

    def execute(self, code: str, timeout: float = 300.0) -> str | None:
        """Run ``code``; None when it ran without error, else ``"Name: value"`` of the error. A kernel that
        dies (its status becomes ``dead`` or ``restarting``) or a timeout is an error too."""
        msg_id = self._send("execute_request", {"code": code, "silent": False, "store_history": True,
                                                "user_expressions": {}, "allow_stdin": False,
                                                "stop_on_error": True})
        deadline = time.monotonic() + timeout
        error: str | None = None
        replied = idle = False
        self.stdout = ""
        self.ws.settimeout(timeout)
        while not (replied and idle):
            if time.monotonic() > deadline:
                return f"Timeout: no reply within {timeout:.0f} s"
            try:
                msg = json.loads(_json_part(self.ws.recv()))
            except (websocket.WebSocketException, OSError) as exc:
                return f"KernelLost: the kernel's channel closed ({type(exc).__name__})"
            msg_type, content = msg.get("msg_type") or msg["header"]["msg_type"], msg.get("content", {})
            if msg_type == "status" and content.get("execution_state") in ("dead", "restarting"):
                return f"KernelDied: the kernel's status became {content['execution_state']}"
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            if msg_type == "stream" and content.get("name") == "stdout":
                self.stdout += content.get("text", "")
            elif msg_type == "error":
                error = f"{content.get('ename')}: {content.get('evalue')}"
            elif msg_type == "execute_reply":
                replied = True
                if content.get("status") != "ok" and error is None:
                    error = f"{content.get('ename', 'Error')}: {content.get('evalue', content.get('status'))}"
            elif msg_type == "status" and content.get("execution_state") == "idle":
                idle = True
        return error

    def evaluate(self, expression: str) -> str:
        """``str()`` of ``expression`` evaluated in the kernel; RuntimeError naming the error if it failed."""
        error = self.execute(f"print({expression})")
        if error is not None:
            raise RuntimeError(f"{expression}: {error}")
        return self.stdout.rstrip("\n")

    def shutdown(self) -> None:
        try:
            self.ws.close()
        finally:
            self.learner.server("DELETE", f"/api/kernels/{self.kernel_id}")


def _json_part(frame: str | bytes) -> str | bytes:
    """The message's JSON of a websocket frame: a text frame is JSON; a binary frame (a message with
    buffers, in jupyter_server's format) is a count n, n offsets (big-endian uint32), the JSON part first."""
    if isinstance(frame, str):
        return frame
    count = int.from_bytes(frame[:4], "big")
    offsets = [int.from_bytes(frame[4 + 4 * i: 8 + 4 * i], "big") for i in range(count)]
    end = offsets[1] if count > 1 else len(frame)
    return frame[offsets[0]:end]
