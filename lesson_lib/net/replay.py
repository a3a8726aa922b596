"""A loopback HTTP server that sends chosen bytes with chosen cuts, delays, heartbeats and drops.

:class:`ReplayServer` plays one body back over a real socket, so that clients (lesson_lib's own
:mod:`lesson_lib.net.http`, httpx, httpx-sse, the official SDKs) read it the way they read a real service:

* it is the standard library's ``http.server.ThreadingHTTPServer`` with an HTTP/1.1 handler, bound to
  ``127.0.0.1`` at a free port (any other host is refused with ``ValueError``);
* it answers every method and path (``POST /chat/completions``, ``/v1/messages``, ``/responses``, ``GET /``)
  with ``200`` and the given content type, so an SDK can use :attr:`ReplayServer.url` as its base URL;
* the body goes out in *pieces*, cut at ``cuts``: each piece is one chunk of the chunked transfer encoding,
  written and flushed on its own with ``TCP_NODELAY`` set, ``delay`` seconds apart. A client reads a cut as
  a read boundary (it may split a piece further, never join two);
* ``heartbeat_every=n`` writes the SSE comment ``: ping`` and its blank line after every n-th piece, but only
  where the bytes sent so far end at an event boundary. Elsewhere that heartbeat is skipped: inside an event
  its blank line would dispatch the event early, cutting it in two, and inside a line it would corrupt the
  line. (A real proxy that injects keep-alives blindly has exactly this bug.);
* ``stall_after=k`` with ``stall_for=s`` makes the server hang after the k-th piece for s seconds before it
  goes on, as a generation that hangs does: silent, or, with ``heartbeat_every``, sending a heartbeat every
  ``delay`` seconds meanwhile (when the bytes so far end at an event boundary), so that the connection looks
  alive while the answer does not move. A client that closes its end is noticed at once, even while silent;
* ``drop_after=n`` ends a response abruptly after n body bytes: the socket is shut down and no terminating
  chunk is sent, so an HTTP client can tell the body was cut (``drop_count`` limits this to the first
  responses);
* a request with ``Last-Event-ID`` resumes after the event whose ``id`` field set that ID (the body is cut at
  event boundaries found by :class:`~lesson_lib.core.sse.SSEParser`); an unknown ID replays the whole body.
  Any method resumes, so an MCP client's ``GET`` with ``Last-Event-ID`` after a ``POST`` works;
* a request whose query has ``starting_after=N`` (OpenAI Responses background mode:
  ``GET /responses/{id}?stream=true&starting_after=N``) gets the events whose JSON ``sequence_number`` is
  above N, from the start of the first such event (nothing, if there is none); it takes precedence over
  ``Last-Event-ID``. ``drop_after`` counts from where a response starts.

The server is bounded: it stops by itself after ``max_lifetime`` seconds or ``max_requests`` requests, and
a connection idle for ``idle_timeout`` seconds is closed. It counts connections opened and closed, so a test
can prove that a client released its connection: after the response the server keeps an HTTP/1.1
connection open until the *client* closes it (or it idles out).
"""

from __future__ import annotations

import contextlib
import http.server
import ipaddress
import json
import select
import socket
import threading
import time
import urllib.parse
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..core.chunking import split_at
from ..core.options import check_int, check_number
from ..core.sse import Event, SSEParser
from ..i18n import text as _t

__all__ = ["HEARTBEAT", "ReplayRequest", "ReplayServer", "encode_events"]

#: What a heartbeat writes: an SSE comment line and a blank line.
HEARTBEAT = b": ping\n\n"

#: The values ReplayServer accepts for ``X-Accel-Buffering`` (``None`` leaves the header out).
_ACCEL_VALUES = frozenset({"yes", "no"})

#: The longest pause between two pieces, in seconds: a lesson's slow stream, not a hung thread.
MAX_DELAY = 60.0


def encode_events(events: Iterable[Event]) -> bytes:
    """Write events back as an event stream (LF endings) that :class:`SSEParser` reads as the same events.

    ``event:`` is written unless the type is ``message``; ``id:`` whenever the last event ID changes (an
    empty ``id`` line resets it); data with LF becomes several ``data:`` lines. Event fields cannot hold CR
    or LF other than data's joining LF, so nothing is lost.
    """
    out: list[str] = []
    last_id = ""
    for event in events:
        if event.type != "message":
            out.append(f"event: {event.type}\n")
        if event.last_event_id != last_id:
            out.append(f"id: {event.last_event_id}\n" if event.last_event_id else "id\n")
            last_id = event.last_event_id
        out.extend(f"data: {line}\n" for line in event.data.split("\n"))
        out.append("\n")
    return "".join(out).encode("utf-8")


@dataclass(frozen=True)
class ReplayRequest:
    """One request the server answered: ``start`` is the body offset it began at (after a resumption)."""

    method: str
    path: str
    last_event_id: str | None
    start: int
    starting_after: int | None = None  # a Responses-style resumption: the sequence number asked after


class _Analysis:
    """Where the body's events end, found once with SSEParser fed one byte at a time (bodies are small)."""

    def __init__(self, body: bytes) -> None:
        parser = SSEParser(errors="replace", max_line_chars=None, max_event_chars=None)
        self.boundaries = {0}  # offsets where the bytes before end at an event boundary
        self.id_ends: dict[str, int] = {}  # last event ID -> offset just after the block that set it
        self.sequence_starts: list[tuple[int, int]] = []  # (sequence_number, offset its event starts at)
        last_id = ""
        block_start = 0
        for offset in range(len(body)):
            dispatched = parser.feed(body[offset : offset + 1])
            end = offset + 1
            for event in dispatched:
                assert isinstance(event, Event)  # comments=False: the parser returns events only
                number = _sequence_number(event.data)
                if number is not None:
                    self.sequence_starts.append((number, block_start))
            if parser.last_event_id != last_id:
                last_id = parser.last_event_id
                # A blank line ended by CR dispatches at the CR; its LF still belongs to that line ending.
                skip = body[offset : offset + 1] == b"\r" and body[end : end + 1] == b"\n"
                self.id_ends.setdefault(last_id, end + skip)
            if not parser.has_pending_event and parser.pending_line_chars == 0 and not parser.after_cr:
                self.boundaries.add(end)
                block_start = end

    def after_sequence(self, after: int) -> int | None:
        """Where the first event whose ``sequence_number`` is above ``after`` starts (None: no such event)."""
        return next((start for number, start in self.sequence_starts if number > after), None)


def _sequence_number(data: str) -> int | None:
    try:
        payload = json.loads(data)
    except ValueError:
        return None
    value = payload.get("sequence_number") if isinstance(payload, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _starting_after(path: str) -> int | None:
    """The ``starting_after`` query parameter of a request path, if it is an int."""
    values = urllib.parse.parse_qs(urllib.parse.urlsplit(path).query).get("starting_after")
    if not values:
        return None
    try:
        return int(values[-1])
    except ValueError:
        return None


def heartbeat_at_boundary(owner: ReplayServer, offset: int) -> bool:
    """Do the body's bytes before ``offset`` end at an event boundary (where a heartbeat is harmless)?"""
    return offset in owner._analysed().boundaries


class _BodyWriter:
    """Writes one response's body as chunks, through a gzip compressor when asked (one member per body).

    ``write`` takes uncompressed bytes; with ``flush`` ("piece") the compressor is sync-flushed after each
    write, so the bytes leave at once; with "end" only what the compressor gives up on its own is written.
    """

    def __init__(self, wfile: Any, gzip: bool, flush_each: bool, owner: ReplayServer) -> None:
        self._wfile = wfile
        self._owner = owner
        self._zip = zlib.compressobj(wbits=31) if gzip else None
        self._flush_each = flush_each

    def _chunk(self, data: bytes) -> None:
        if data:  # an empty chunk would be the terminating one
            self._wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self._owner._count("bytes_sent", len(data))  # counted once written (sendall returned)

    def write(self, data: bytes) -> None:
        """Send ``data`` (uncompressed): as it is, or compressed (at once under "piece")."""
        if self._zip is None:
            self._chunk(data)
            return
        out = self._zip.compress(data)
        if self._flush_each:
            out += self._zip.flush(zlib.Z_SYNC_FLUSH)
        self._chunk(out)

    def finish(self, whole: bool) -> None:
        """End the body: ``whole`` closes the gzip member; otherwise it is sync-flushed and left open."""
        if self._zip is not None:
            self._chunk(self._zip.flush(zlib.Z_FINISH if whole else zlib.Z_SYNC_FLUSH))


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = False  # handler threads are joined by server_close(), so counts are final after stop()
    block_on_close = True

    def __init__(self, owner: ReplayServer) -> None:
        self.owner = owner
        super().__init__((owner.host, 0), _Handler)

    def verify_request(self, request: Any, client_address: Any) -> bool:
        self.owner._opened(request)  # every accepted connection passes here once...
        return True

    def shutdown_request(self, request: Any) -> None:
        try:
            super().shutdown_request(request)
        finally:
            self.owner._closed(request)  # ...and here once, when the server has closed its socket

    def handle_error(self, request: Any, client_address: Any) -> None:
        self.owner._count("handler_errors")  # quiet: a notebook shows no server tracebacks


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def setup(self) -> None:
        super().setup()
        # This server's idle timeout on this connection (``timeout`` is class-wide in StreamRequestHandler).
        self.connection.settimeout(self.server.owner.idle_timeout)
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("do_"):  # every method, whatever its name
            return self._replay
        raise AttributeError(name)

    def log_message(self, format: str, *args: Any) -> None:  # quiet: no log lines in notebooks
        pass

    def _replay(self) -> None:
        owner = self.server.owner
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)  # the request body (an SDK's JSON) is read and ignored
        raw_id = self.headers.get("Last-Event-ID")
        last_event_id = None if raw_id is None else raw_id.encode("latin-1").decode("utf-8", "replace")
        plan = owner._plan(self.command, self.path, last_event_id)
        if plan is None:  # over max_requests: refuse, and the server stops
            self.send_response(503)
            self.send_header("Content-Length", "0")
            self.send_header("Connection", "close")
            self.end_headers()  # sent: the stop below cannot cut the 503 off any more
            self.close_connection = True
            threading.Thread(target=owner.stop, daemon=True).start()
            return
        pieces, drop_after, self._start = plan
        self.send_response(200)
        self.send_header("Content-Type", owner.content_type)
        self.send_header("Cache-Control", "no-cache")
        if owner.x_accel_buffering is not None:
            self.send_header("X-Accel-Buffering", owner.x_accel_buffering)
        if owner.content_encoding is not None:
            self.send_header("Content-Encoding", owner.content_encoding)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()  # the writer is unbuffered: every write below is one sendall()
        if self.command == "HEAD":
            return
        gzip = owner.content_encoding == "gzip"
        self._body = _BodyWriter(self.wfile, gzip, owner.compress_flush == "piece", owner)
        try:
            self._write_pieces(owner, pieces, drop_after)
        except OSError:  # the client went away mid-body (it closed its response early)
            self.close_connection = True

    def _peer_closed(self, wait: float) -> bool:
        """Wait up to ``wait`` seconds; ``True`` as soon as the client has closed its end."""
        readable, _, _ = select.select([self.connection], [], [], wait)
        if not readable:
            return False
        try:
            if self.connection.recv(1, socket.MSG_PEEK) == b"":
                return True
        except OSError:
            return True
        self.server.owner._stopping.wait(wait)  # the client sent bytes (not a close): just wait
        return False

    def _stall(self, owner: ReplayServer, at_boundary: bool) -> None:
        """Hang for ``stall_for`` seconds: silent, or a heartbeat every ``delay`` (at an event boundary)."""
        deadline = time.monotonic() + owner.stall_for
        step = owner.delay if owner.heartbeat_every is not None and owner.delay else 0.05
        while not owner._stopping.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            if self._peer_closed(min(step, left)):
                raise ConnectionResetError("the client closed its end during the stall")
            if owner.heartbeat_every is not None and at_boundary and time.monotonic() < deadline:
                self._body.write(HEARTBEAT)
                owner._count("heartbeats_sent")

    def _write_pieces(self, owner: ReplayServer, pieces: list[tuple[bytes, bool]], drop: int | None) -> None:
        sent = 0
        for index, (piece, heartbeat) in enumerate(pieces):
            if index and index == owner.stall_after:
                self._stall(owner, heartbeat_at_boundary(owner, self._start + sent))
            if index and owner.delay:
                owner._stopping.wait(owner.delay)
            if owner._stopping.is_set():
                drop = sent  # the server is stopping: end abruptly here
            if drop is not None and sent + len(piece) >= drop:
                self._body.write(piece[: drop - sent])  # under "end", what the compressor holds stays there
                owner._count("body_bytes_sent", drop - sent)
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)  # no terminating chunk: the body is cut
                return
            self._body.write(piece)
            owner._count("body_bytes_sent", len(piece))
            sent += len(piece)
            if heartbeat:
                self._body.write(HEARTBEAT)
                owner._count("heartbeats_sent")
        self._body.finish(whole=owner.chunked_terminator)
        if owner.chunked_terminator:
            self.wfile.write(b"0\r\n\r\n")
        else:  # every body byte is out, the framing is not finished: a clean FIN, then the server closes
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_WR)


class ReplayServer:
    """Serve ``body`` on ``127.0.0.1`` at a free port; a context manager (or ``start()`` / ``stop()``).

    ``cuts`` are byte offsets into ``body`` (as for :func:`~lesson_lib.core.chunking.split_at`); ``delay`` is
    the pause between pieces in seconds; ``heartbeat_every`` a number of pieces; ``drop_after`` a number of
    body bytes per response, for the first ``drop_count`` responses (``None``: every response).

    ``x_accel_buffering`` is the value sent in the ``X-Accel-Buffering`` response header (``"yes"`` or
    ``"no"``, the default); ``None`` sends no such header, as most upstreams do, so a proxy in front falls
    back to its own buffering setting.

    ``chunked_terminator=False`` ends each whole body (one that is neither dropped nor stopped) by shutting
    the server's side of the connection down cleanly (a FIN, not a reset) after the last piece, without the
    terminating ``0`` chunk: every body byte arrives, the HTTP framing is not finished, and the connection is
    not reused.

    ``content_encoding="gzip"`` sends ``Content-Encoding: gzip`` and compresses each response's body (its
    pieces and heartbeats, in order) as one gzip member, written as the pieces go. ``compress_flush``
    (only with a ``content_encoding``; default ``"piece"``): ``"piece"`` sync-flushes the compressor
    (``Z_SYNC_FLUSH``) after every piece and heartbeat, so each piece's compressed bytes leave with it and
    what has arrived inflates to exactly the pieces sent so far; ``"end"`` never flushes before the body
    ends, so the compressor keeps output until its own block fills (a small body arrives all at the end).
    A whole body closes the member; ``chunked_terminator=False`` leaves it unfinished after a sync flush
    (every body byte inflates, the gzip trailer is missing); a drop or a stop leaves it unfinished where it
    is cut (under ``"end"``, what the compressor held is lost). With or without compression, ``cuts``,
    ``drop_after`` and ``stall_after``/``heartbeat_every`` (pieces) count the *uncompressed* body.

    Counters: :attr:`connections_opened`, :attr:`connections_closed`, :attr:`open_connections`,
    :attr:`heartbeats_sent`, :attr:`bytes_sent` (as sent: compressed), :attr:`body_bytes_sent`
    (uncompressed), and :attr:`requests` (what was asked, and where each answer began).
    """

    def __init__(
        self,
        body: bytes,
        cuts: Iterable[int] = (),
        *,
        delay: float = 0.0,
        heartbeat_every: int | None = None,
        stall_after: int | None = None,
        stall_for: float = 0.0,
        drop_after: int | None = None,
        drop_count: int | None = None,
        content_type: str = "text/event-stream; charset=utf-8",
        x_accel_buffering: str | None = "no",
        chunked_terminator: bool = True,
        content_encoding: str | None = None,
        compress_flush: str | None = None,
        max_lifetime: float = 60.0,
        max_requests: int = 1000,
        idle_timeout: float = 5.0,
        host: str = "127.0.0.1",
    ) -> None:
        try:
            loopback = ipaddress.IPv4Address(host).is_loopback
        except ValueError:
            loopback = False
        if not loopback:
            raise ValueError(f"ReplayServer binds only an IPv4 loopback address (127.0.0.1), not {host!r}")
        check_number("delay", delay, minimum=0, maximum=MAX_DELAY)
        check_int("heartbeat_every", heartbeat_every, minimum=1, none=True)
        check_int("stall_after", stall_after, minimum=0, none=True)
        check_number("stall_for", stall_for, minimum=0, maximum=MAX_DELAY)
        check_int("drop_after", drop_after, minimum=0, none=True)
        check_int("drop_count", drop_count, minimum=0, none=True)
        check_number("max_lifetime", max_lifetime, minimum=0, maximum=3600, low_open=True)
        check_number("idle_timeout", idle_timeout, minimum=0, maximum=600, low_open=True)
        check_int("max_requests", max_requests, minimum=1)
        accel = x_accel_buffering
        accel_ok = accel is None or (isinstance(accel, str) and accel in _ACCEL_VALUES)
        if not accel_ok:  # (a str first: an unhashable value would fail the set lookup unnamed)
            raise ValueError(f'x_accel_buffering must be "yes", "no" or None, not {x_accel_buffering!r}')
        if not (content_encoding is None or content_encoding == "gzip"):
            raise ValueError(f'content_encoding must be "gzip" or None, not {content_encoding!r}')
        if compress_flush is not None and content_encoding is None:
            raise ValueError("compress_flush needs content_encoding (there is no compressor to flush)")
        if compress_flush is None:
            compress_flush = "piece"
        elif not (isinstance(compress_flush, str) and compress_flush in ("piece", "end")):
            raise ValueError(f'compress_flush must be "piece" or "end", not {compress_flush!r}')
        if not isinstance(chunked_terminator, bool):
            raise TypeError(f"chunked_terminator must be a bool, got {type(chunked_terminator).__name__}")
        if not isinstance(body, (bytes, bytearray, memoryview)):
            raise TypeError(f"body must be bytes, got {type(body).__name__}")
        if heartbeat_every is not None and "text/event-stream" not in content_type:
            raise ValueError("heartbeats are SSE comments: they need a text/event-stream body")
        self.body = bytes(body)
        cuts = list(cuts)
        split_at(self.body, cuts)  # validates every cut (an int in 0 < cut < len(body)) by name
        self.cuts = sorted(set(cuts))
        self.delay = delay
        self.heartbeat_every = heartbeat_every
        self.stall_after = stall_after
        self.stall_for = stall_for
        self.drop_after = drop_after
        self.drop_count = drop_count
        self.content_type = content_type
        self.x_accel_buffering = x_accel_buffering
        self.chunked_terminator = chunked_terminator
        self.content_encoding = content_encoding
        self.compress_flush = compress_flush
        self.max_lifetime = max_lifetime
        self.max_requests = max_requests
        self.idle_timeout = idle_timeout
        self.host = host
        self._lock = threading.Condition()
        self._stopping = threading.Event()
        self._stopped = threading.Event()
        self._analysis: _Analysis | None = None
        self._server: _Server | None = None
        self._sockets: set[socket.socket] = set()
        self._counts = {"opened": 0, "closed": 0, "heartbeats_sent": 0, "handler_errors": 0, "bytes_sent": 0,
                        "body_bytes_sent": 0}
        self._requests: list[ReplayRequest] = []
        self._timer: threading.Timer | None = None
        self._thread: threading.Thread | None = None

    # -- life cycle -------------------------------------------------------------------------------------
    def start(self) -> ReplayServer:
        """Bind a free port on the loopback address and serve in a background thread; returns ``self``."""
        if self._server is not None:
            raise RuntimeError("a ReplayServer starts once")
        self._server = _Server(self)
        serve = self._server.serve_forever
        self._thread = threading.Thread(target=serve, args=(0.05,), name="ReplayServer", daemon=True)
        self._thread.start()
        self._timer = threading.Timer(self.max_lifetime, self.stop)
        self._timer.daemon = True
        self._timer.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stop serving: cut open connections, close the listening socket, join every handler thread.

        Safe to call more than once and from any thread but a handler's; returns when the server stopped.
        """
        with self._lock:
            server = self._server
            first = not self._stopping.is_set()
            self._stopping.set()
        if server is None or not first:
            self._stopped.wait(timeout if server is not None else 0)
            return
        try:
            if self._timer is not None:
                self._timer.cancel()
            server.shutdown()  # ends serve_forever
            with self._lock:
                sockets = list(self._sockets)
            for sock in sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)  # wakes a handler waiting for a next request
            server.server_close()  # closes the listening socket, joins the handler threads
        finally:
            self._stopped.set()

    def __enter__(self) -> ReplayServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- what clients see -------------------------------------------------------------------------------
    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the server is not started")
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``, usable as an SDK's ``base_url``."""
        return f"http://{self.host}:{self.port}"

    @property
    def running(self) -> bool:
        """Started and not yet stopped (a stop in progress still counts as running)."""
        return self._server is not None and not self._stopped.is_set()

    @property
    def connections_opened(self) -> int:
        with self._lock:
            return self._counts["opened"]

    @property
    def connections_closed(self) -> int:
        with self._lock:
            return self._counts["closed"]

    @property
    def open_connections(self) -> int:
        with self._lock:
            return self._counts["opened"] - self._counts["closed"]

    @property
    def heartbeats_sent(self) -> int:
        with self._lock:
            return self._counts["heartbeats_sent"]

    @property
    def bytes_sent(self) -> int:
        """Body bytes written to all clients so far, as sent: after compression, heartbeats included, chunk
        framing (sizes, CRLFs, the last chunk) excluded."""
        with self._lock:
            return self._counts["bytes_sent"]

    @property
    def body_bytes_sent(self) -> int:
        """Bytes of ``body`` written to all clients so far, uncompressed, heartbeats excluded (under
        ``compress_flush="end"`` a cut body counts bytes the compressor took but never gave up)."""
        with self._lock:
            return self._counts["body_bytes_sent"]

    @property
    def requests(self) -> list[ReplayRequest]:
        with self._lock:
            return list(self._requests)

    def wait_idle(self, timeout: float = 2.0) -> bool:
        """Wait until no connection is open (the server notices a client's close a moment later)."""
        with self._lock:
            return self._lock.wait_for(lambda: self._counts["opened"] == self._counts["closed"], timeout)

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped" if self._server else "not_started"
        return _t(
            "replay.repr",
            bytes=len(self.body),
            pieces=len(self.cuts) + 1,
            state=_t(f"replay.state.{state}"),
        )

    # -- internals --------------------------------------------------------------------------------------
    def _count(self, name: str, amount: int = 1) -> None:
        with self._lock:
            self._counts[name] += amount

    def _opened(self, sock: socket.socket) -> None:
        with self._lock:
            self._counts["opened"] += 1
            self._sockets.add(sock)

    def _closed(self, sock: socket.socket) -> None:
        with self._lock:
            self._counts["closed"] += 1
            self._sockets.discard(sock)
            self._lock.notify_all()

    def _analysed(self) -> _Analysis:
        if self._analysis is None:
            self._analysis = _Analysis(self.body)
        return self._analysis

    def _plan(
        self, method: str, path: str, last_event_id: str | None
    ) -> tuple[list[tuple[bytes, bool]], int | None, int] | None:
        """The pieces of one response, each with "a heartbeat follows", its drop point and its start."""
        start = 0
        after = _starting_after(path)
        if after is not None:  # OpenAI Responses: the events whose sequence_number is above ``after``
            found = self._analysed().after_sequence(after)
            start = len(self.body) if found is None else found
        elif last_event_id:
            start = self._analysed().id_ends.get(last_event_id, 0)
        with self._lock:
            number = len(self._requests)
            if number >= self.max_requests:
                refuse = True
            else:
                refuse = False
                self._requests.append(ReplayRequest(method, path, last_event_id, start, after))
        if refuse:  # the handler answers 503, then stops the server
            return None
        bounds = [start, *(c for c in self.cuts if c > start), len(self.body)]
        pieces = []
        for index in range(len(bounds) - 1):
            end = bounds[index + 1]
            heartbeat = (
                self.heartbeat_every is not None
                and (index + 1) % self.heartbeat_every == 0
                and end < len(self.body)
                and end in self._analysed().boundaries
            )
            if end > bounds[index]:  # an empty chunk would be the terminating one
                pieces.append((self.body[bounds[index] : end], heartbeat))
        drops = self.drop_after is not None and (self.drop_count is None or number < self.drop_count)
        return pieces, self.drop_after if drops else None, start
