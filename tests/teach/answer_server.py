"""A loopback server for what ReplayServer does not send: an error status with a JSON body, a reset mid-body.

``AnswerServer(status=..., body=...)`` answers every request (its body read first) with that status, the
``Content-Type`` given (and any other ``headers``, such as ``Content-Encoding``) and a ``Content-Length``
body. ``AnswerServer(reset_after=b"...")`` answers ``200``
with a chunked ``text/event-stream`` body, sends those bytes as one chunk and then resets the connection
(``SO_LINGER`` 0): the client's next read fails. Bound to 127.0.0.1 at a free port, in a background thread,
started and stopped by the test (a context manager).
"""

from __future__ import annotations

import http.server
import socket
import struct
import threading
from typing import Any


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        owner = self.server.owner
        self.close_connection = True
        if owner.reset_after is not None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            data = owner.reset_after
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            return
        self.send_response(owner.status)
        self.send_header("Content-Type", owner.content_type)
        for name, value in owner.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(owner.body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(owner.body)

    do_GET = do_POST


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, owner: AnswerServer) -> None:
        self.owner = owner
        super().__init__(("127.0.0.1", 0), _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a reset connection's handler may fail on its way out: quiet


class AnswerServer:
    """See the module docstring."""

    def __init__(
        self,
        *,
        status: int = 200,
        body: bytes = b"",
        content_type: str = "application/json",
        reset_after: bytes | None = None,
        headers: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.status = status
        self.body = body
        self.content_type = content_type
        self.reset_after = reset_after
        self.headers = headers
        self._server = _Server(self)
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> AnswerServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)
