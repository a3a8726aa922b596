"""A gateway between an upstream stream and a browser: Starlette on uvicorn, on 127.0.0.1.

:class:`RelayServer` is the last mile of a streamed answer as most applications build it: the app's own
server reads the LLM stream (here an upstream URL, e.g. a :class:`~lesson_lib.net.replay.ReplayServer`) with
lesson_lib's async reader (:func:`~lesson_lib.net.http.open_areads`) and re-emits it to its client as
Server-Sent Events:

* ``GET /stream`` relays one upstream request. Every complete upstream unit (an SSE event or comment, an
  NDJSON value, a JSON array element) becomes one SSE event, written and flushed once lesson_lib has judged
  the read it came in (nothing after the point where the outcome was decided is forwarded; ids are passed
  on, resets included); the upstream's verdict follows as a last event, ``event: outcome`` with a JSON
  summary (outcome, truncated_at, finish_reason, error kind, offset, offset_exact: no content). An upstream
  event named ``outcome`` is forwarded as ``upstream:outcome`` (see :mod:`lesson_lib.net.relay_variants`), so
  the upstream cannot forge the verdict. The headers are those a stream needs:
  ``Content-Type: text/event-stream; charset=utf-8``, ``Cache-Control: no-cache``, ``X-Accel-Buffering:
  no`` (a buffering proxy such as nginx passes it on at once), and no compression (no ``Content-Encoding``:
  a compressor keeps bytes until it has enough to write, unless it is made to flush);
* an upstream that fails still ends in that outcome event: refused connection, an error status or a
  content coding that lesson_lib does not undo (``br``, ``zstd``: gzip and deflate are inflated) give
  ``"outcome": "upstream_failed"`` (``error.kind`` names it, ``error.status`` the
  status); a drop, a cut or a timeout give the :class:`~lesson_lib.core.completion.StreamResult` outcome
  (``truncated``, ``timed_out``...). The browser is never left with a page that hangs or a stream that just
  stops;
* when the client disconnects, the request's task is cancelled: lesson_lib closes the upstream response, so
  the upstream connection is closed at once (the tests prove it within a second with ReplayServer's
  counters). Whether the service then stops generating (and billing) is the service's own rule: a
  Responses request in background mode goes on until it is cancelled (``POST /v1/responses/{id}/cancel``);
* a client slower than the upstream paces it (issue 27). The relay queues nothing: its pipeline takes the next
  upstream read only after it has sent what the last one completed, and each send is uvicorn's ``send``, which
  waits while the connection's write buffer is over its high-water mark (64 KiB; the check comes before the
  write, so one frame may go past it). While a send waits, nothing reads the upstream socket (httpx's anyio
  stream pauses the transport between reads), so TCP flow control pauses the upstream. What the relay holds
  that no send has taken is one upstream read (at most 64 KiB, httpcore's read size; a gzip or deflate
  read inflates to at most :data:`~lesson_lib.core.inflate.MAX_INFLATED_READ` bytes, or the stream fails at
  the limit) plus the unit it has not completed (bounded by lesson_lib's line and event limits);
  :attr:`RelayServer.max_held` measures it. The rest of the upstream's lead is in the kernel's socket
  buffers, on loopback up to the ``tcp_rmem`` and ``tcp_wmem`` maxima
  (``tests/net/test_relay_backpressure.py``, ``benchmarks/relay_backpressure.py``);
* a client that stops reading is given up: when one send has waited ``client_stall_timeout`` seconds (default
  30), the pipeline is cancelled, so the upstream connection is closed at once, :attr:`RelayServer.gave_up`
  counts it and :attr:`RelayServer.last_outcome` is ``client_too_slow`` (an outcome event cannot reach a
  client that does not read, so the counters are the record). If the client reads again within another
  ``client_stall_timeout``, its stream ends with ``event: outcome``, ``"outcome": "client_too_slow"`` after
  what was already buffered for it; if not, the app raises :class:`ClientTooSlow` and uvicorn closes the
  connection (the client sees a chunked body without its end). The timeout is per send, and a send waits until
  the buffers before it have room: a client that reads, but too slowly for them to make room within
  ``client_stall_timeout``, is given up too (measured: 64 bytes per 50 ms, with a 1 s timeout);
* ``?variant=NAME`` chooses the pipeline per request (default: the server's ``variant``): ``correct`` or one
  of the named faulty ones in :data:`~lesson_lib.net.relay_variants.VARIANTS`, each a real incident's pattern.
  ``?recut=1`` writes each event that holds a multi-byte character in two pieces, cut inside the first one
  (as any hop on the way may re-cut bytes; an event of ASCII only goes out whole), so a browser's reads
  end inside a character;
* ``GET /`` is a page (plain JavaScript in ``relay_static/``, no build step, nothing from a CDN) with three
  readers of the stream: ``fetch`` + ``TextDecoder`` without ``{stream: true}``, a correct reader, and an
  ``EventSource``. ``GET /info`` is the contract and the variants, as JSON.

Arguments are checked when the relay is created, before any request: a bad ``upstream_url`` or ``contract``
raises ``ValueError`` naming the argument. The server is bounded like ReplayServer: it stops by itself
after ``max_lifetime`` seconds; ``stop()`` (or leaving the ``with`` block) shuts uvicorn down, closes its
socket and joins its thread.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import socket
import threading
from collections.abc import AsyncIterable, AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from ..core.activity import CallClock
from ..core.completion import StreamResult, check_options, consume
from ..core.contracts import CONTRACTS, contract_class
from ..core.framing import framing
from ..core.options import ConsumeOptions, check_number
from ..core.sse import Event, SSEParser
from ..i18n import text as _t
from .http import MAX_TIMEOUT, ContentEncodingError, open_areads, open_reads, read_events
from .relay_variants import (
    OUTCOME_EVENT,
    VARIANTS,
    Plan,
    check_variant,
    outcome_frame,
    run_variant,
    unescape_type,
)
from .replay import encode_events

__all__ = [
    "CLIENT_TOO_SLOW",
    "STATIC_DIR",
    "STREAM_HEADERS",
    "ClientTooSlow",
    "RelayReply",
    "RelayServer",
    "read_relay",
]

#: The relay's outcome when it gave a request up: one send to its client waited ``client_stall_timeout``.
CLIENT_TOO_SLOW = "client_too_slow"

#: The page and its script, served by the relay.
STATIC_DIR = Path(__file__).resolve().parent / "relay_static"

#: The response headers of ``/stream``: what a streaming endpoint needs, and nothing that compresses.
STREAM_HEADERS: tuple[tuple[str, str], ...] = (
    ("content-type", "text/event-stream; charset=utf-8"),
    ("cache-control", "no-cache"),
    ("x-accel-buffering", "no"),
)


def _check_upstream_url(url: object) -> str:
    if not isinstance(url, str):
        raise ValueError(f"upstream_url must be a str (an http:// or https:// URL), got {type(url).__name__}")
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError) as exc:
        raise ValueError(f"upstream_url is not a valid URL: {url!r} ({exc})") from None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ValueError(f"upstream_url must be an http:// or https:// URL with a host, got {url!r}")
    return url


def _check_rewrite(rewrite: object) -> tuple[str, str] | None:
    if rewrite is None:
        return None
    if (
        not isinstance(rewrite, tuple)
        or len(rewrite) != 2
        or not all(isinstance(part, str) for part in rewrite)
        or not rewrite[0]
    ):
        raise ValueError(f"rewrite must be None or a pair of str (old, new), old not empty; got {rewrite!r}")
    if any(ch in part for part in rewrite for ch in "\r\n"):
        raise ValueError("rewrite must not contain CR or LF (it would change the framing)")
    return rewrite


class _RelayStream(Response):
    """One relayed request: the SSE response, the pipeline, and the watch for the client's disconnect."""

    def __init__(self, relay: RelayServer, variant: str, recut: bool) -> None:
        super().__init__(status_code=200)
        self.relay, self.variant, self.recut = relay, variant, recut

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in STREAM_HEADERS]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        relay, stall = self.relay, self.relay.client_stall_timeout
        too_slow = asyncio.Event()

        async def emit(frame: bytes) -> None:
            # uvicorn's send waits while the transport's write buffer is over its high-water mark (the
            # client is not reading): the pipeline waits here, so it reads nothing more from the upstream.
            try:
                async with asyncio.timeout(stall):
                    await send({"type": "http.response.body", "body": frame, "more_body": True})
            except TimeoutError:
                too_slow.set()  # the request's task cancels the pipeline (which closes the upstream)
                await asyncio.Event().wait()  # until then; a TimeoutError here would read as a source error
            relay._sent(len(frame))

        work = asyncio.ensure_future(self.relay._relay_once(self.variant, self.recut, emit))
        gave_up = asyncio.ensure_future(too_slow.wait())
        if self.variant == "no-disconnect":  # THE BUG of that variant: nobody listens to the client
            try:
                await asyncio.wait({work, gave_up}, return_when=asyncio.FIRST_COMPLETED)
                if gave_up.done():
                    work.cancel()
                    await asyncio.wait({work})
            finally:
                work.cancel()  # only when the server itself stops (or the client is too slow)
                gave_up.cancel()
        else:
            watch = asyncio.ensure_future(_client_gone(receive))
            try:
                done, _ = await asyncio.wait({work, watch, gave_up}, return_when=asyncio.FIRST_COMPLETED)
                if watch in done:  # the client left: cancel the pipeline, which closes the upstream
                    work.cancel()
                    self.relay._count("client_disconnects")
                    await asyncio.wait({work})
                elif gave_up in done:  # one send waited client_stall_timeout: cancel, close the upstream
                    work.cancel()
                    await asyncio.wait({work})
            finally:
                watch.cancel()
                work.cancel()
                gave_up.cancel()
        if too_slow.is_set():
            await self._give_up(send, stall)
            return
        if not work.cancelled() and work.exception() is not None:
            self.relay._count("pipeline_errors")  # quiet: counted, not logged
        try:  # the end of the body waits for a stalled client no longer than any other send
            async with asyncio.timeout(stall):
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except TimeoutError:
            self.relay._gave_up()
            raise ClientTooSlow(f"the client read nothing for {stall} s; the relay gave up") from None

    async def _give_up(self, send: Send, stall: float) -> None:
        """The client did not read for ``stall`` seconds: the upstream is closed; record it, and end the
        stream with ``outcome: client_too_slow`` if the client reads within ``stall`` seconds more; if it
        does not, raise :class:`ClientTooSlow`, so uvicorn closes the connection."""
        self.relay._gave_up()
        frame = _client_too_slow()
        try:
            async with asyncio.timeout(stall):
                await send({"type": "http.response.body", "body": frame, "more_body": True})
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except TimeoutError:
            raise ClientTooSlow(f"the client read nothing for {stall} s twice; the relay gave up") from None


class ClientTooSlow(Exception):
    """Raised out of the ASGI app when a client that stalled a send did not read the outcome either: uvicorn
    then closes the connection (what it does when an app fails after the response started)."""


async def _client_gone(receive: Receive) -> None:
    """Return when the client disconnects (the request body, if any, is read and ignored)."""
    while (await receive())["type"] != "http.disconnect":
        pass


class RelayServer:
    """Relay ``upstream_url`` (read as ``contract``) to clients as SSE, on 127.0.0.1 at a free port.

    A context manager (or ``start()`` / ``stop()``); :attr:`url` is ``http://127.0.0.1:<port>``, the page
    is at ``url + "/"`` and the stream at :attr:`stream_url`. ``variant`` is the default pipeline
    (``?variant=`` overrides it per request); ``upstream_method`` and ``upstream_json`` are the request
    sent upstream; ``timeout`` bounds connecting to the upstream and each read; ``idle_timeout``,
    ``progress_timeout`` and ``deadline`` are lesson_lib's stream clocks (outcome ``timed_out``; the
    deadline counts from the relay's request upstream, connecting and the headers included);
    ``rewrite=(old, new)`` replaces text in what is forwarded (as a gateway renames a model); ``recut``
    and ``recut_delay`` re-cut each forwarded event inside a character (see the module docstring);
    ``client_stall_timeout`` is how long one send to a client that does not read may wait before the relay
    gives the request up (see the module docstring).

    Counters (for tests): :attr:`requests`, :attr:`client_disconnects`, :attr:`upstream_closed`,
    :attr:`gave_up` and :attr:`last_outcome`, :attr:`upstream_bytes`, :attr:`client_bytes`, :attr:`max_held`.
    """

    def __init__(
        self,
        upstream_url: str,
        contract: str,
        *,
        variant: str = "correct",
        upstream_method: str = "POST",
        upstream_json: Any = None,
        timeout: float = 10.0,
        idle_timeout: float | None = None,
        progress_timeout: float | None = None,
        deadline: float | None = None,
        rewrite: tuple[str, str] | None = None,
        recut: bool = False,
        recut_delay: float = 0.05,
        client_stall_timeout: float = 30.0,
        max_lifetime: float = 60.0,
        host: str = "127.0.0.1",
    ) -> None:
        self.upstream_url = _check_upstream_url(upstream_url)
        if not isinstance(contract, str):
            raise ValueError(f"contract must be a str naming a contract, got {type(contract).__name__}")
        if contract in CONTRACTS and contract_class(contract).needs_request_id:
            raise ValueError(
                f"contract {contract!r} needs a JSON-RPC request id; the relay relays LLM streams"
            )
        try:
            check_options(contract)
        except ValueError as exc:
            raise ValueError(f"contract: {exc}") from None
        self.contract = contract
        self.variant = check_variant(variant, contract)
        if not isinstance(upstream_method, str) or not upstream_method:
            raise ValueError(f"upstream_method must be a non-empty str, got {upstream_method!r}")
        check_number("timeout", timeout, minimum=0, maximum=MAX_TIMEOUT, low_open=True)
        self.consume_options: ConsumeOptions = {}
        if idle_timeout is not None:
            self.consume_options["idle_timeout"] = idle_timeout
        if progress_timeout is not None:
            self.consume_options["progress_timeout"] = progress_timeout
        if deadline is not None:
            self.consume_options["deadline"] = deadline
        check_options(contract, **self.consume_options)  # names a bad timeout, before any request
        self.rewrite = _check_rewrite(rewrite)
        if not isinstance(recut, bool):
            raise ValueError(f"recut must be a bool, got {recut!r}")
        check_number("recut_delay", recut_delay, minimum=0, maximum=5)
        check_number(
            "client_stall_timeout", client_stall_timeout, minimum=0, maximum=MAX_TIMEOUT, low_open=True
        )
        self.client_stall_timeout = client_stall_timeout
        check_number("max_lifetime", max_lifetime, minimum=0, maximum=3600, low_open=True)
        try:
            loopback = ipaddress.IPv4Address(host).is_loopback
        except ValueError:
            loopback = False
        if not loopback:
            raise ValueError(f"RelayServer binds only an IPv4 loopback address (127.0.0.1), not {host!r}")
        self.upstream_method, self.upstream_json, self.timeout = upstream_method, upstream_json, timeout
        self.recut, self.recut_delay = recut, recut_delay
        self.max_lifetime, self.host = max_lifetime, host
        self._lock = threading.Lock()
        self._counts = {
            "requests": 0,
            "client_disconnects": 0,
            "upstream_closed": 0,
            "pipeline_errors": 0,
            "gave_up": 0,
            "upstream_bytes": 0,
            "client_bytes": 0,
            "max_held": 0,
        }
        self._last_outcome: str | None = None
        self._server: uvicorn.Server | None = None
        self._socket: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._timer: threading.Timer | None = None
        self._stop_lock = threading.Lock()

    # -- the ASGI app -------------------------------------------------------------------------------------
    def app(self) -> Starlette:
        """The Starlette application (also usable with any ASGI server or test client)."""
        return Starlette(
            routes=[
                Route("/", lambda request: FileResponse(STATIC_DIR / "index.html")),
                Route("/info", self._info),
                Route("/stream", self._stream),
                Mount("/static", StaticFiles(directory=STATIC_DIR)),
            ]
        )

    async def _info(self, request: Request) -> Response:
        return JSONResponse({"contract": self.contract, "variant": self.variant, "variants": list(VARIANTS)})

    async def _stream(self, request: Request) -> Response:
        variant = request.query_params.get("variant", self.variant)
        try:
            check_variant(variant, self.contract)
        except ValueError as exc:
            return PlainTextResponse(str(exc), status_code=400)
        recut = request.query_params.get("recut")
        self._count("requests")
        return _RelayStream(self, variant, self.recut if recut is None else recut == "1")

    async def _relay_once(self, variant: str, recut: bool, emit: Any) -> None:
        """Open the upstream, run the pipeline, and close the upstream on every path (cancel included).

        A ``deadline`` counts from here (connecting to the upstream and its headers included): if it runs
        out before the upstream's body starts, the pipeline runs on no body and says ``timed_out``."""
        clock = CallClock()
        # The relay forwards the events and sends a verdict without content: it keeps no answer text, so
        # what one request holds is bounded by the limits, whatever the answer's length.
        options: ConsumeOptions = {**self.consume_options, "clock": clock, "keep_text": False}
        bound = asyncio.timeout(self.consume_options.get("deadline"))
        try:
            async with bound:
                reads = await open_areads(
                    self.upstream_url,
                    method=self.upstream_method,
                    json=self.upstream_json,
                    timeout=self.timeout,
                )
        except TimeoutError:
            if not bound.expired():
                raise
            plan = Plan(self.contract, options, self.rewrite, recut, self.recut_delay)
            await run_variant(variant, _no_body(), emit, plan)
            return
        except httpx.HTTPStatusError as exc:
            await emit(_failed("HTTPStatusError", status=exc.response.status_code))
            return
        except (httpx.TransportError, ContentEncodingError) as exc:
            await emit(_failed(type(exc).__name__))
            return
        plan = Plan(self.contract, options, self.rewrite, recut, self.recut_delay)
        try:
            await run_variant(variant, _Counted(reads, self), emit, plan)
        finally:
            await reads.aclose()
            self._count("upstream_closed")

    # -- life cycle ---------------------------------------------------------------------------------------
    def start(self) -> RelayServer:
        """Bind a free port on 127.0.0.1 and serve in a background thread; return once it accepts."""
        if self._server is not None:
            raise RuntimeError("a RelayServer starts once")
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, 0))
        self._socket = sock
        config = uvicorn.Config(
            self.app(),
            log_level="critical",  # quiet in notebooks: outcomes are events, not logs
            access_log=False,
            lifespan="off",
            http="h11",
            loop="asyncio",
            timeout_graceful_shutdown=1,
            timeout_keep_alive=2,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, name="RelayServer", daemon=True
        )
        self._thread.start()
        for _ in range(200):  # up to 10 s for the loop to start listening
            if self._server.started or not self._thread.is_alive():
                break
            threading.Event().wait(0.05)
        if not self._server.started:
            self.stop()
            raise RuntimeError("the relay did not start")
        self._timer = threading.Timer(self.max_lifetime, self.stop)
        self._timer.daemon = True
        self._timer.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Shut uvicorn down (open streams are cancelled), close the socket, join the thread. Idempotent."""
        with self._stop_lock:
            if self._timer is not None:
                self._timer.cancel()
            if self._server is not None:
                self._server.should_exit = True
            if self._thread is not None and self._thread is not threading.current_thread():
                self._thread.join(timeout)
            if self._socket is not None:
                self._socket.close()

    def __enter__(self) -> RelayServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def port(self) -> int:
        if self._socket is None:
            raise RuntimeError("the relay is not started")
        return self._socket.getsockname()[1]

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``: the page is at ``/``, the stream at ``/stream``."""
        return f"http://{self.host}:{self.port}"

    @property
    def page_url(self) -> str:
        """The page's address for a browser: ``url + "/"``; but in a kernel of a JupyterHub learner's server
        (``JUPYTERHUB_SERVICE_PREFIX`` set, ``/user/<name>/``), the path through that server's
        jupyter-server-proxy, ``/user/<name>/proxy/<port>/``, to open on the hub's address: the relay listens
        on the hub machine's 127.0.0.1, which the learner's browser cannot reach."""
        prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "").strip()
        if prefix:
            return f"/{prefix.strip('/')}/proxy/{self.port}/"
        return f"{self.url}/"

    def stream_url(self, variant: str | None = None, *, recut: bool | None = None) -> str:
        """The URL of ``/stream`` for ``variant`` (checked; default the server's) and ``recut``."""
        query = []
        if variant is not None:
            query.append(f"variant={check_variant(variant, self.contract)}")
        if recut is not None:
            query.append(f"recut={int(recut)}")
        return f"{self.url}/stream" + ("?" + "&".join(query) if query else "")

    # -- counters -----------------------------------------------------------------------------------------
    def _count(self, name: str) -> None:
        with self._lock:
            self._counts[name] += 1

    def _read(self, size: int) -> None:
        """The pipeline took an upstream read of ``size`` bytes (it takes the next one only after sending
        what this one completed): what the relay holds now is this read plus the previous ones not sent."""
        with self._lock:
            counts = self._counts
            counts["upstream_bytes"] += size
            counts["max_held"] = max(counts["max_held"], counts["upstream_bytes"] - counts["client_bytes"])

    def _sent(self, size: int) -> None:
        with self._lock:
            self._counts["client_bytes"] += size

    def _gave_up(self) -> None:
        with self._lock:
            self._counts["gave_up"] += 1
            self._last_outcome = CLIENT_TOO_SLOW

    @property
    def gave_up(self) -> int:
        """Requests the relay gave up because one send to the client waited ``client_stall_timeout``."""
        with self._lock:
            return self._counts["gave_up"]

    @property
    def last_outcome(self) -> str | None:
        """``"client_too_slow"`` once the relay has given a request up (the only outcome recorded here; the
        upstream's verdicts go to the client as the ``outcome`` event)."""
        with self._lock:
            return self._last_outcome

    @property
    def upstream_bytes(self) -> int:
        """Bytes the relay's pipelines have read from upstreams (all requests)."""
        with self._lock:
            return self._counts["upstream_bytes"]

    @property
    def client_bytes(self) -> int:
        """Bytes the relay's pipelines have handed to uvicorn for clients, sends that returned (all requests;
        the last outcome of a given-up request not counted)."""
        with self._lock:
            return self._counts["client_bytes"]

    @property
    def max_held(self) -> int:
        """The most ``upstream_bytes - client_bytes`` has been at an upstream read: what the pipelines held
        that no send had taken (for one request at a time, and an upstream whose units the relay
        re-encodes byte for byte, e.g. ``data:`` events without ids, this is its buffer's high-water mark)."""
        with self._lock:
            return self._counts["max_held"]

    @property
    def requests(self) -> int:
        with self._lock:
            return self._counts["requests"]

    @property
    def client_disconnects(self) -> int:
        with self._lock:
            return self._counts["client_disconnects"]

    @property
    def upstream_closed(self) -> int:
        with self._lock:
            return self._counts["upstream_closed"]

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped" if self._server else "not_started"
        return f"RelayServer({self.contract}, variant={self.variant!r}, {_t(f'relay.state.{state}')})"


class _Counted:
    """The upstream's reads, each counted with :meth:`RelayServer._read` as the pipeline takes it (a class,
    not an async generator: nothing to finalise when the pipeline is cancelled)."""

    def __init__(self, reads: AsyncIterable[bytes], relay: RelayServer) -> None:
        self.reads, self.relay = aiter(reads), relay

    def __aiter__(self) -> _Counted:
        return self

    async def __anext__(self) -> bytes:
        chunk = await anext(self.reads)
        self.relay._read(len(chunk))
        return chunk


def _client_too_slow() -> bytes:
    summary = {"outcome": CLIENT_TOO_SLOW, "truncated_at": None, "finish_reason": None, "error": None}
    return outcome_frame(summary)


async def _no_body() -> AsyncIterator[bytes]:
    """The upstream body when the deadline ran out before it started: nothing."""
    return
    yield  # an async generator that yields nothing


def _failed(kind: str, **extra: Any) -> bytes:
    error: dict[str, Any] = {"kind": kind, "offset": None, "offset_exact": None, "event_index": None, **extra}
    summary = {"outcome": "upstream_failed", "truncated_at": None, "finish_reason": None, "error": error}
    return outcome_frame(summary)


# --- a client, for notebooks and tests ---------------------------------------------------------------------


@dataclass(frozen=True)
class RelayReply:
    """What a client of the relay got: the relayed events, the relay's outcome summary (``None`` if none
    came), the raw bytes and the size of every read."""

    events: list[Event]
    outcome: dict[str, Any] | None
    body: bytes
    read_sizes: list[int]
    ended: str  # "end of body" or the name of what cut the relay's own response

    def result(self, contract: str) -> StreamResult:
        """What a client that knows the service's contract concludes from the relayed events alone."""
        upstream = framing(contract_class(contract).framing)
        if upstream.units_are_events:
            body = encode_events(self.events)
        else:  # each relayed event's data is one upstream JSON value, as the upstream wrote it
            body = upstream.join_values([event.data for event in self.events])
        return consume([body], contract)


def read_relay(url: str, *, timeout: float = 10.0) -> RelayReply:
    """GET the relay's ``url`` (a :meth:`RelayServer.stream_url`) and read it to its end, with lesson_lib.

    The relay's output is parsed with :class:`~lesson_lib.core.sse.SSEParser` (``errors="replace"``, as a
    browser's EventSource: a faulty variant's broken bytes show as U+FFFD instead of stopping the read).
    The outcome is the relay's own: the ``outcome`` event that ends the body (the relay escapes upstream
    events of that name, see :data:`~lesson_lib.net.relay_variants.ESCAPE_PREFIX`); an ``outcome`` event with
    anything after it is not a verdict and stays among the events. Relayed event types are unescaped.
    """
    parser = SSEParser(errors="replace")
    events: list[Event] = []
    raw = bytearray()
    with open_reads(url, method="GET", timeout=timeout) as reads:

        def recorded() -> Iterator[bytes]:
            for chunk in reads:
                raw.extend(chunk)
                yield chunk

        ended, _ = read_events(recorded(), parser, events)
        sizes = list(reads.sizes)
    outcome = None
    if events and events[-1].type == OUTCOME_EVENT:
        outcome = json.loads(events.pop().data)
    relayed = [Event(unescape_type(event.type), event.data, event.last_event_id) for event in events]
    return RelayReply(relayed, outcome, bytes(raw), sizes, ended)
