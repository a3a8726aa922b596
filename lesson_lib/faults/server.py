"""The fault server: asyncio and h11 in a background thread, carrying out each request's plan exactly.

:class:`FaultServer` listens on ``127.0.0.1`` at a free port (or a given one); another address only when
asked (``host=``), with a one-line warning on standard error. It reads each request with h11, asks
:func:`~.routes.route` for its :class:`~.plan.Plan` and does exactly what the plan says, nothing else:

* the status line, the plan's headers in order, then ``Transfer-Encoding: chunked`` (each
  :class:`~.plan.Send` one chunk, written and flushed alone, ``TCP_NODELAY``) or ``Content-Length``, then
  ``Connection: close``: one request per connection;
* each :class:`~.plan.Pause` waits while watching the connection: a client that leaves (closes its end)
  stops the plan at once;
* the end: ``"clean"`` (the zero chunk; then the server shuts its sending side and waits a moment for the
  client to close), ``"no_terminator"`` (the sending side is shut after the last byte, no zero chunk),
  ``"reset"`` (once the kernel has sent every byte, ``SO_LINGER`` 0 and close: the client gets a reset).

Bad requests never stop the server; each gets a JSON error (:func:`~.routes.error_plan`): malformed HTTP
(400), headers over ``max_head_bytes`` (431), a body over ``max_body_bytes`` (413), a body that does not
arrive within ``body_timeout`` (408), more than ``max_connections`` open connections (503), and the
routes' own 404, 405, 400 and 507. An unexpected exception while answering is a 500 (or, once the head
is sent, a reset) and one line on standard error naming its type, never its content. A connection idle for
``idle_timeout`` before its request is closed. Every connection is its own task: one that fails touches
no other. Nothing of a body or a verdict is logged; the access log (off unless ``access_log=`` is given) is
one line per response: method, route kind, fault name, status, body bytes sent.

The server is bounded: it stops by itself after ``max_lifetime`` seconds (``None``: when stopped), every
plan is bounded by :func:`~.plan.check_plan`, and a client that stops reading is cut off after
``write_timeout``. It counts connections opened and closed (:attr:`FaultServer.counts`).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import ipaddress
import socket
import struct
import sys
import termios
import threading
from collections.abc import Iterable
from typing import TextIO

import h11

from ..core.options import check_int, check_number
from .http1 import LAST_CHUNK, chunk, response_head
from .plan import Pause, Plan, Send
from .routes import FaultLike, Faults, Incoming, Routed, error_plan, route
from .scoreboard import Scoreboard

__all__ = ["MAX_BODY_BYTES", "MAX_HEAD_BYTES", "FaultServer", "host_warning"]

#: The largest request body the server reads (a verdict, an SDK's JSON request).
MAX_BODY_BYTES = 1024 * 1024
#: The largest request head (request line and headers).
MAX_HEAD_BYTES = 16 * 1024
#: How long the server waits, after its last byte, for the client to close before it closes.
LINGER_SECONDS = 2.0
_READ = 65536


class _ClientGone(Exception):
    """The client closed its end, or the connection broke, while the plan was being carried out."""


class _Refused(Exception):
    """A request the server refuses before routing: the JSON error to answer."""

    def __init__(self, plan: Plan) -> None:
        super().__init__(plan.status)
        self.plan = plan


def host_warning(host: str) -> str | None:
    """The line :meth:`FaultServer.start` writes on standard error for ``host``: ``None`` for a loopback
    address (``127.0.0.0/8``, ``::1``, ``localhost``)."""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if loopback:
        return None
    return (
        f"boundary-lab faults: WARNING: listening on {host}, not the loopback address: anyone who can "
        "reach this machine can use the server and read its scoreboard"
    )


class FaultServer:
    """The fault server (see the module docstring); a context manager, or :meth:`start` / :meth:`stop`.

    ``port=0`` takes a free port. The scoreboard (:attr:`scoreboard`) lives as long as the server. The
    limits are keyword arguments: ``max_connections`` open at once, ``idle_timeout`` (seconds before a
    request's head is complete), ``body_timeout`` (seconds for its body), ``write_timeout`` (seconds a
    write may wait for a client that does not read), ``max_lifetime`` (seconds; ``None``: no bound),
    ``max_body_bytes`` and ``max_head_bytes``, ``max_clients`` (names on the scoreboard). ``faults``: the
    entries to serve (default: the catalogue, through ``get_fault`` and ``catalogue_json()``).
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        max_connections: int = 512,
        idle_timeout: float = 5.0,
        body_timeout: float = 5.0,
        write_timeout: float = 30.0,
        max_lifetime: float | None = 3600.0,
        max_body_bytes: int = MAX_BODY_BYTES,
        max_head_bytes: int = MAX_HEAD_BYTES,
        max_clients: int = 200,
        access_log: TextIO | None = None,
        faults: Iterable[FaultLike] | None = None,
    ) -> None:
        if not isinstance(host, str) or not host:
            raise ValueError(f"host must be an address or a host name, got {host!r}")
        check_int("port", port, minimum=0, maximum=65535)
        check_int("max_connections", max_connections, minimum=1, maximum=100_000)
        check_number("idle_timeout", idle_timeout, minimum=0, maximum=600, low_open=True)
        check_number("body_timeout", body_timeout, minimum=0, maximum=600, low_open=True)
        check_number("write_timeout", write_timeout, minimum=0, maximum=600, low_open=True)
        check_number("max_lifetime", max_lifetime, minimum=0, maximum=7 * 86400, low_open=True, none=True)
        check_int("max_body_bytes", max_body_bytes, minimum=0, maximum=64 * MAX_BODY_BYTES)
        check_int("max_head_bytes", max_head_bytes, minimum=1024, maximum=1024 * 1024)
        self.host = host
        self.requested_port = port
        self.max_connections = max_connections
        self.idle_timeout = idle_timeout
        self.body_timeout = body_timeout
        self.write_timeout = write_timeout
        self.max_lifetime = max_lifetime
        self.max_body_bytes = max_body_bytes
        self.max_head_bytes = max_head_bytes
        self.access_log = access_log
        self.faults = Faults(faults)
        self.scoreboard = Scoreboard(self.faults, max_clients=max_clients)
        self._lock = threading.Condition()
        self._counts = {
            "opened": 0,
            "closed": 0,
            "responses": 0,
            "refused": 0,
            "internal_errors": 0,
            "clients_gone": 0,
        }
        self._port: int | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop_event: asyncio.Event | None = None
        self._ready = threading.Event()
        self._stopped = threading.Event()
        self._tasks: dict[asyncio.Task[None], asyncio.StreamWriter] = {}
        self._failed: BaseException | None = None

    # -- life cycle -------------------------------------------------------------------------------------
    def start(self) -> FaultServer:
        """Bind (``OSError`` here if the port is taken) and serve in a background thread; returns ``self``."""
        if self._thread is not None:
            raise RuntimeError("a FaultServer starts once")
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self.requested_port))
            sock.listen(1024)
            sock.setblocking(False)
        except BaseException:
            sock.close()
            raise
        self._port = sock.getsockname()[1]
        warning = host_warning(self.host)
        if warning is not None:
            sys.stderr.write(warning + "\n")
        self._thread = threading.Thread(target=self._run, args=(sock,), name="FaultServer", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._failed is not None:
            message = f"the fault server did not start ({type(self._failed).__name__})"
            raise RuntimeError(message) from self._failed
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stop: close the listening socket, end every connection, join the thread. Idempotent."""
        loop, event = self._loop, self._stop_event
        if loop is not None and event is not None and not self._stopped.is_set():
            with contextlib.suppress(RuntimeError):  # the loop already closed: it stopped by itself
                loop.call_soon_threadsafe(event.set)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the server has stopped (or ``timeout``); whether it has."""
        return self._stopped.wait(timeout)

    def __enter__(self) -> FaultServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- what clients and tests see ---------------------------------------------------------------------
    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("the server is not started")
        return self._port

    @property
    def url(self) -> str:
        """``http://<host>:<port>``; the catalogue is at ``url + "/faults"``."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def running(self) -> bool:
        return self._thread is not None and not self._stopped.is_set()

    @property
    def counts(self) -> dict[str, int]:
        """Counters, no content: connections ``opened`` and ``closed``, ``responses`` begun, ``refused``
        (503: too many connections), ``internal_errors`` (500s and resets after a bug), ``clients_gone``
        (a client left before its plan ended)."""
        with self._lock:
            return dict(self._counts)

    @property
    def open_connections(self) -> int:
        with self._lock:
            return self._counts["opened"] - self._counts["closed"]

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until no connection is open; whether that happened within ``timeout`` seconds."""
        with self._lock:
            return self._lock.wait_for(lambda: self._counts["opened"] == self._counts["closed"], timeout)

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped" if self._thread else "not started"
        return f"<FaultServer {self.url if self._port else self.host} {state}>"

    # -- the event loop ---------------------------------------------------------------------------------
    def _count(self, name: str, by: int = 1) -> None:
        with self._lock:
            self._counts[name] += by
            self._lock.notify_all()

    def _run(self, sock: socket.socket) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._serve(sock))
        except BaseException as exc:  # start_server failed: start() raises it
            self._failed = exc
        finally:
            with contextlib.suppress(Exception):
                loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()
            sock.close()
            self._stopped.set()
            self._ready.set()

    async def _serve(self, sock: socket.socket) -> None:
        self._stop_event = asyncio.Event()
        server = await asyncio.start_server(self._connection, sock=sock, limit=_READ, backlog=1024)
        if self.max_lifetime is not None:
            asyncio.get_running_loop().call_later(self.max_lifetime, self._stop_event.set)
        self._ready.set()
        try:
            await self._stop_event.wait()
        finally:
            server.close()
            for task, writer in list(self._tasks.items()):
                writer.transport.abort()  # the connection ends even where a cancellation is not delivered
                task.cancel()
            if self._tasks:
                await asyncio.wait(list(self._tasks), timeout=5)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 5)

    # -- one connection -------------------------------------------------------------------------------
    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks[task] = writer
        self._count("opened")
        sock = writer.get_extra_info("socket")
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            if self.open_connections > self.max_connections:
                self._count("refused")
                plan = error_plan(503, f"more than {self.max_connections} connections open: try again later")
                await self._answer(Routed("error", None, plan), "-", reader, writer)
            else:
                await self._exchange(reader, writer)
        except (_ClientGone, ConnectionError, TimeoutError, OSError):
            self._count("clients_gone")
        except asyncio.CancelledError:
            pass  # the server is stopping: the connection is cut below
        except Exception as exc:  # a bug: one line naming its type, never the content
            self._internal_error(exc)
        finally:
            writer.transport.abort()  # a no-op after a graceful close; ends it otherwise
            self._tasks.pop(task, None)
            self._count("closed")

    def _internal_error(self, exc: BaseException) -> None:
        self._count("internal_errors")
        sys.stderr.write(f"boundary-lab faults: internal error answering a request ({type(exc).__name__})\n")

    async def _exchange(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = h11.Connection(h11.SERVER, max_incomplete_event_size=self.max_head_bytes)
        method = "-"
        try:
            request = await self._read_head(conn, reader)
            if request is None:
                return  # the client left, or idled out, before sending anything
            method = request.method.decode("ascii", "replace")
            body = await self._read_body(conn, reader, writer, request)
        except _Refused as refused:
            await self._answer(Routed("error", None, refused.plan), method, reader, writer)
            return
        incoming = Incoming(
            method,
            request.target.decode("ascii", "replace"),
            tuple((k.decode("latin-1"), v.decode("latin-1")) for k, v in request.headers),
            body,
        )
        try:
            routed = route(incoming, server_url=self.url, scoreboard=self.scoreboard, faults=self.faults)
        except Exception as exc:  # the catalogue's bug (a plan check_plan refuses, a respond that raised)
            self._internal_error(exc)
            routed = Routed("error", None, error_plan(500, "internal error: see the server's standard error"))
        await self._answer(routed, method, reader, writer)

    async def _read_head(self, conn: h11.Connection, reader: asyncio.StreamReader) -> h11.Request | None:
        received = 0
        try:
            async with asyncio.timeout(self.idle_timeout):
                while True:
                    try:
                        event = conn.next_event()
                    except h11.RemoteProtocolError as exc:
                        status = exc.error_status_hint
                        what = (
                            f"the request head is over {self.max_head_bytes} bytes"
                            if status == 431
                            else f"malformed HTTP request ({exc})"
                        )
                        raise _Refused(error_plan(status, what)) from None
                    if event is h11.NEED_DATA:
                        data = await reader.read(_READ)
                        received += len(data)
                        conn.receive_data(data)
                        continue
                    if isinstance(event, h11.Request):
                        # h11 bounds a head still arriving; one that came whole in a read is measured here
                        if received - len(conn.trailing_data[0]) > self.max_head_bytes:
                            message = f"the request head is over {self.max_head_bytes} bytes"
                            raise _Refused(error_plan(431, message))
                        return event
                    return None  # ConnectionClosed: the client left before a request
        except TimeoutError:
            if received:
                message = f"the request head did not arrive within {self.idle_timeout} s"
                raise _Refused(error_plan(408, message)) from None
            return None

    async def _read_body(
        self,
        conn: h11.Connection,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        request: h11.Request,
    ) -> bytes:
        too_big = f"the request body is over {self.max_body_bytes} bytes"
        for name, value in request.headers:  # h11 has checked that a Content-Length is digits
            if name == b"content-length" and int(value) > self.max_body_bytes:
                raise _Refused(error_plan(413, too_big))
        if conn.client_is_waiting_for_100_continue:
            writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        body = bytearray()
        try:
            async with asyncio.timeout(self.body_timeout):
                while True:
                    try:
                        event = conn.next_event()
                    except h11.RemoteProtocolError as exc:
                        raise _Refused(error_plan(400, f"malformed request body ({exc})")) from None
                    if event is h11.NEED_DATA:
                        conn.receive_data(await reader.read(_READ))
                    elif isinstance(event, h11.Data):
                        body += event.data
                        if len(body) > self.max_body_bytes:
                            raise _Refused(error_plan(413, too_big))
                    elif isinstance(event, h11.EndOfMessage):
                        return bytes(body)
                    else:  # ConnectionClosed mid-body
                        raise _ClientGone()
        except TimeoutError:
            message = f"the request body did not arrive within {self.body_timeout} s"
            raise _Refused(error_plan(408, message)) from None

    # -- carrying out a plan ----------------------------------------------------------------------------
    async def _answer(
        self,
        routed: Routed,
        method: str,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> None:
        """Carry out ``routed.plan`` on this connection, then end it as the plan says."""
        plan = routed.plan
        gone = asyncio.create_task(self._watch(reader))  # done when the client has left
        sent = 0
        try:
            self._count("responses")
            await self._write(writer, response_head(plan), gone)
            chunked = plan.framing == "chunked"
            for step in plan.steps:
                if isinstance(step, Send):
                    await self._write(writer, chunk(step.data) if chunked else step.data, gone)
                    sent += len(step.data)
                elif isinstance(step, Pause):
                    await asyncio.wait((gone,), timeout=step.seconds)
                    if gone.done():
                        raise _ClientGone()
            if plan.end == "reset":
                await self._reset(writer)
                return
            if plan.end == "clean" and chunked:
                await self._write(writer, LAST_CHUNK, gone)
            await self._close_gracefully(writer, gone)
        finally:
            gone.cancel()
            self._log(method, routed, sent)

    async def _watch(self, reader: asyncio.StreamReader) -> None:
        """Return when the client closes its end (or the connection breaks); what it sends meanwhile is read
        and dropped (one request per connection)."""
        with contextlib.suppress(ConnectionError, OSError):
            while await reader.read(_READ):
                pass

    async def _write(self, writer: asyncio.StreamWriter, data: bytes, gone: asyncio.Task[None]) -> None:
        if gone.done() or writer.transport.is_closing():
            raise _ClientGone()
        writer.write(data)
        try:
            await asyncio.wait_for(writer.drain(), self.write_timeout)
        except TimeoutError:
            raise _ClientGone() from None  # the client stopped reading: cut it off

    async def _close_gracefully(self, writer: asyncio.StreamWriter, gone: asyncio.Task[None]) -> None:
        """Shut the sending side (the client reads the end), wait a moment for the client to close, close."""
        if writer.can_write_eof() and not writer.transport.is_closing():
            writer.write_eof()
        await asyncio.wait((gone,), timeout=LINGER_SECONDS)
        writer.close()

    async def _reset(self, writer: asyncio.StreamWriter) -> None:
        """Reset the connection once the kernel has sent (and the peer acknowledged) every byte, so the
        client reads them all and then gets the reset."""
        sock = writer.get_extra_info("socket")
        for _ in range(200):  # at most about a second
            if writer.transport.get_write_buffer_size() == 0 and _unsent(sock) == 0:
                break
            await asyncio.sleep(0.005)
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()

    def _log(self, method: str, routed: Routed, sent: int) -> None:
        if self.access_log is None:
            return
        line = f"{method[:10]} {routed.kind} {routed.fault or '-'} {routed.plan.status} {sent}\n"
        with contextlib.suppress(Exception):
            self.access_log.write(line)
            self.access_log.flush()


def _unsent(sock: socket.socket) -> int:
    """Bytes in the kernel's send queue not yet acknowledged by the peer (0 where it cannot be asked)."""
    try:
        return int(struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0\0\0\0"))[0])
    except (OSError, AttributeError, ValueError):
        return 0
