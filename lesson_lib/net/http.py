"""Feeding lesson_lib from a real HTTP response, with httpx.

The reads are ``response.iter_raw()``: the body bytes exactly as the transport handed them over, not
re-cut into lines or text (a gzip or deflate body inflated read by read: see "Compression" below).
Everything above the chunk boundary is :func:`~lesson_lib.core.completion.consume`'s job, so this module
only opens, reads and closes:

* :class:`HTTPReads` (made by :func:`open_reads`) is one response's body as an iterable of reads with a
  ``close()``. It records every read's size in :attr:`HTTPReads.sizes`; ``consume`` also counts them in
  ``stats.reads`` and ``stats.read_sizes``. Since ``consume`` closes its source exactly once on every path,
  the response (and a client made for it) is released on a terminal signal, an error, an early break, a
  cancel or a transport failure alike.
* :func:`stream_http` is ``consume(open_reads(...))``; :func:`stream_http_updates` is the same as a
  generator of live updates, and opens the request only when first advanced (so a generator that is never
  started holds no connection).
* :class:`HTTPAReads` / :func:`open_areads`, :func:`astream_http` and :func:`astream_http_updates` are the
  same over ``httpx.AsyncClient`` (``aiter_raw()``): the same arguments, checks and guarantees, and the
  response is released on every path, a cancelled task included (the ``CancelledError`` then propagates);
  :func:`aresume_sse` and :func:`aresume_responses` are the resume functions below over it;
* the stream timeouts (``idle_timeout``, ``progress_timeout``, ``deadline``) are enforced on the socket, and
  ``deadline`` bounds the whole call from the moment it is made: connecting, the headers and the body
  (``idle_timeout`` and ``progress_timeout`` count from the start of the body, so they do not bound the wait
  for the headers: that wait is bounded by httpx's timeout (``timeout``, or a caller's ``client``'s own),
  per connect and per read as httpx counts it, and by the time left on ``deadline``). Each read waits at
  most the time left on the nearest clock: async, it is awaited inside ``asyncio.timeout`` set to that time;
  sync, a watchdog thread shuts the socket down when that time is up (see "What a blocked sync read cannot
  do" below). The outcome is then ``timed_out``, also when the deadline runs out before or during the
  headers (``error.kind`` ``"deadline"``, no body byte read);
* :func:`resume_sse` reconnects after a drop, as an ``EventSource`` does: it waits the stream's ``retry``
  time and sends ``Last-Event-ID``. That repairs a stream whose events carry ids and whose server honours
  the header. It cannot repair a stream without ids (OpenAI, Anthropic): the only way to "reconnect" there is
  to send the request again, which starts a new answer (and bills it again, or repeats a tool's side effect).
  So by default it refuses to re-send without an id; ``resend_without_id=True`` shows what happens. With
  ``contract="mcp"`` it resumes an MCP Streamable HTTP stream (``POST``, then ``GET`` with
  ``Last-Event-ID``); :func:`resume_responses` resumes an OpenAI Responses background stream from its last
  ``sequence_number`` (``starting_after``).

One code path, two drivers. What to send and what to conclude is decided once, without I/O, and the sync and
async functions only do the I/O around it: the request (its checks, its headers, ``Accept-Encoding:
identity``: :func:`_check_request`), whether a response may be read (:func:`_check_response`), the stream's
clocks (:class:`_Clocks`), and for resumption the plans of :mod:`lesson_lib.net.resumption` (which request
comes next, with ``Last-Event-ID`` or ``starting_after``, how long to wait, which ending a new connection
cannot repair, :data:`~lesson_lib.net.resumption.UNREPAIRABLE`, and when the answer is complete), with its
:class:`~lesson_lib.net.resumption.EventReader` turning one body's reads into events. Generating the sync
code from the async with ``unasync`` (as httpcore does) was the alternative, rejected because the two
drivers do not differ only by ``async``/``await``: a sync read is bounded by a watchdog thread that shuts the
socket down, an async one by ``asyncio.timeout``; the sync request takes a per-phase httpx timeout cut to the
deadline, the async one is awaited inside the deadline. Rewriting tokens cannot express that, so the
generated file would need hand-written shims on both sides, and a build step, to save the few lines each
driver still has; a plan with two small drivers keeps the decisions in one place that is tested on its own
(``tests/net/test_resumption.py``: the plans alone, and both drivers on the same servers).

What is raised, and what is an outcome (the same in the sync and the async functions): a bad argument (an
unknown contract, a bad option or limit) raises ``ValueError``/``TypeError`` before any request is sent
(against a real API a request is billed); a failure before there is a response to read (connection refused,
httpx's own timeout running out while connecting or before the headers: ``httpx.ConnectTimeout`` or
``httpx.ReadTimeout``, an HTTP error status, a content coding other than gzip and deflate) raises, as httpx
does: there is no stream yet to have an outcome. The one exception is the deadline, a stream clock: when it
runs out before or during the headers the result is ``timed_out`` (``deadline``). Everything once the
headers are in is the :class:`StreamResult`'s outcome (a transport error in the body, httpx's read timeout
included, is ``truncated``, with the exception's name in ``error.kind``).

What a blocked sync read cannot do. A thread blocked in ``recv()`` cannot be interrupted by a clock in that
thread, and httpx 0.28 (httpcore 1.0) takes a request's read timeout once per phase (once for the headers,
once for the body, from ``extensions["timeout"]``), not per read: a per-read timeout of "the time left" is not
something httpx can be told. So the request's own timeout (connecting and every read, the headers' and the
body's) is the client's timeout with each part cut to the deadline's time left, never the idle or progress
clock, which count from the body; and a sync stream with a clock set runs a watchdog thread that, when the
nearest clock runs out, shuts the socket down (``shutdown(SHUT_RDWR)``, which wakes the blocked read); the
read then fails and the outcome is ``timed_out``. What it cannot do: reach a socket it does not know. It knows
the socket of a connection this call opened (httpcore's ``trace`` extension) and, once the headers are in, the
response's socket; on a connection reused from the caller's ``client``, the headers are bounded per read only
(each read waits at most its timeout cut to the deadline's time left), not in total. And over any other sync
source (a generator, a file), :func:`~lesson_lib.core.completion.consume` judges the clocks only between
reads: a read that blocks returns when it returns. Tolerance: a clock fires within about 0.1 s of running out
(the watchdog's wake-up, then the close; measured 0.001-0.064 s past the deadline on a busy two-core machine);
``tests/net/test_timeouts.py`` allows 0.7 s.

Compression. httpx asks for ``Accept-Encoding: gzip, deflate`` by default and decodes in ``iter_bytes()``;
this module reads ``iter_raw()`` and asks for ``Accept-Encoding: identity`` (unless the caller sets the
header), because the course wants the reads as sent: every offset ``lesson_lib`` reports (an invalid byte,
a limit, a drop) is then an offset in the body as it crossed the wire, each read's size is the
transport's, and there is no compressor's boundary below the chunk (a compressed read can inflate to no
bytes or to many) for the lessons to teach first. A compressor also holds output until its block fills
unless the server flushes it per event, so a compressing server or proxy risks the "buffering proxy"
failure of an event stream (nothing arrives, then much at once). ``identity`` is the token for "no content
coding"; a request that lists no other coding makes every other one unacceptable, and the server then
SHOULD send the content without a coding (RFC 9110, section 12.5.3).

A server or proxy may compress anyway (the fault catalogue's ``openai-chat-gzip`` and ``anthropic-gzip``
do), and a caller may ask for gzip. Browsers and the official SDKs read gzip and deflate, and so does this
module (:mod:`lesson_lib.net.content_coding` over :class:`~lesson_lib.core.inflate.Inflater`, for
``Content-Encoding: gzip``, ``x-gzip`` or ``deflate`` in any case), the same in the sync and the async
readers and the resume functions:

* each raw read is inflated and handed on as one read (a read that inflates to nothing is left out), so
  ``consume`` sees the inflated bytes: its offsets, ``stats.bytes`` and ``stats.reads`` count those, while
  :attr:`HTTPReads.sizes` keeps the raw reads' sizes (the wire's);
* a body that the transport ended cleanly inside a gzip member or a deflate stream was cut: its reads end
  with :class:`CompressedBodyCutError`, an ``httpx.RemoteProtocolError`` as for a chunked body without its
  last chunk, so the outcome is ``truncated`` (``error.kind`` ``"CompressedBodyCutError"``) and a resume
  function reconnects. A member's end proves the compressor finished its input, not that the service
  finished the answer: the contract's terminal signal still decides (a proxy that compresses a stream it
  got cut ends its member cleanly);
* data that does not inflate is ``decode_error`` (``error.kind`` ``"InflateError"``), and a raw read that
  inflates to more than ``max_inflated_read`` bytes (:data:`MAX_INFLATED_READ`, 16 MiB, by default:
  :func:`open_reads`) is ``limit_exceeded``; both name an offset in the compressed body, and a
  reconnection does not repair them (:data:`~lesson_lib.net.resumption.UNREPAIRABLE`);
* another coding (``br``, ``zstd``, ``compress``) or a list of codings (``gzip, br``) raises
  :class:`ContentEncodingError`, naming the ``Content-Encoding``, before the body is read.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import socket
import ssl
import threading
import time
from collections.abc import (
    AsyncGenerator,
    AsyncIterable,
    AsyncIterator,
    Awaitable,
    Callable,
    Generator,
    Iterable,
    Iterator,
    Mapping,
)
from typing import Any, Generic, TypeVar, cast

import httpx

from ..core.activity import TIMEOUT_KINDS, CallClock
from ..core.completion import (
    AStreamUpdates,
    StreamResult,
    aconsume,
    astream_updates,
    check_options,
    consume,
    stream_updates,
)
from ..core.contracts import Signal
from ..core.errors import BoundaryError
from ..core.inflate import MAX_INFLATED_READ
from ..core.options import check_int, check_number
from ..core.sse import Event, SSEParser
from ..i18n import text as _t
from .content_coding import BodyDecoder, CompressedBodyCutError, ContentEncodingError, body_coding
from .resumption import (
    EventReader,
    LastEventIDPlan,
    Request,
    ResumeAttempt,
    Resumed,
    ResumePlan,
    StartingAfterPlan,
)
from .resumption import default_resume_url as _default_resume_url

__all__ = [
    "MAX_INFLATED_READ",
    "CompressedBodyCutError",
    "ContentEncodingError",
    "HTTPAReads",
    "HTTPReads",
    "ResumeAttempt",
    "Resumed",
    "aresume_responses",
    "aresume_sse",
    "astream_http",
    "astream_http_updates",
    "open_areads",
    "open_reads",
    "read_events",
    "resume_responses",
    "resume_sse",
    "stream_http",
    "stream_http_updates",
]


#: The longest ``timeout`` (seconds) a request accepts: per connect and per read, not for the whole stream.
MAX_TIMEOUT = 3600.0


# --- the decisions both drivers share (no I/O) -----------------------------------------------------------


def _check_request(
    url: object,
    method: object,
    headers: object,
    client: object,
    timeout: object,
    client_type: type = httpx.Client,
) -> dict[str, str | bytes]:
    """Check the request arguments (no I/O); return the headers to send, ``Accept-Encoding`` included."""
    if not isinstance(url, (str, httpx.URL)):
        raise TypeError(f"url must be a str, got {type(url).__name__}")
    if not isinstance(method, str) or not method:
        raise ValueError(f"method must be a non-empty str, got {method!r}")
    if headers is not None and not isinstance(headers, Mapping):
        raise TypeError(f"headers must be a mapping, got {type(headers).__name__}")
    if client is not None and not isinstance(client, client_type):
        raise TypeError(f"client must be an httpx.{client_type.__name__}, got {type(client).__name__}")
    check_number("timeout", timeout, minimum=0, maximum=MAX_TIMEOUT, low_open=True)
    sent: dict[str, str | bytes] = dict(headers or {})
    if not any(name.lower() == "accept-encoding" for name in sent):
        sent["Accept-Encoding"] = "identity"  # the body is read raw: ask for it uncompressed
    return sent


def _as_headers(sent: dict[str, str | bytes]) -> Mapping[str, str]:
    """``sent`` as httpx's type hints name it: httpx takes a str or bytes value per header (bytes are sent
    as they are: ``Last-Event-ID`` is UTF-8)."""
    return cast(Mapping[str, str], sent)


def _check_response(response: httpx.Response, request: httpx.Request) -> None:
    """Raise if the body is not to be read: ``httpx.HTTPStatusError`` for a status other than 2xx,
    :class:`ContentEncodingError` for a content coding other than gzip and deflate (or a list of them).
    The caller closes the response."""
    if not response.is_success:
        response.raise_for_status()
    body_coding(response.headers.get("Content-Encoding"), request=request)


def _header_bound(base: httpx.Timeout, deadline_left: float | None) -> httpx.Timeout:
    """The httpx timeout of a sync request with stream clocks: ``base`` (the client's), each part (connect,
    read, write, pool) cut to the time left on the deadline if that is sooner (at least 1 ms).

    Only the deadline: ``idle_timeout`` and ``progress_timeout`` count from the start of the body, so they do
    not bound the wait for the headers (the watchdog bounds the body's reads, read by read)."""
    if deadline_left is None:
        return base
    left = max(deadline_left, 0.001)

    def cut(part: float | None) -> float:
        return left if part is None else min(part, left)

    return httpx.Timeout(
        connect=cut(base.connect), read=cut(base.read), write=cut(base.write), pool=cut(base.pool)
    )


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    # Building a client's default SSL context reads the CA bundle each time; one is enough per process.
    return httpx.create_ssl_context()


def _own_client_options(timeout: float) -> dict[str, Any]:
    """The arguments of the client a call makes for itself (no ``client`` given), sync or async."""
    return {"timeout": timeout, "trust_env": False, "verify": _ssl_context()}


class _Clocks:
    """The stream clocks of one call: how long is left on the deadline, and how long the next read may wait.

    Made by :meth:`start` at the call, so that the deadline counts from it: the consume options it returns
    carry a :class:`~lesson_lib.core.activity.CallClock` around the caller's ``clock``."""

    def __init__(self, clock: CallClock, deadline: float | None, running: bool) -> None:
        self.clock, self.deadline = clock, deadline
        self.running = running  # a stream clock (idle, progress or deadline) is set

    @classmethod
    def start(cls, options: Mapping[str, Any]) -> tuple[_Clocks, dict[str, Any]]:
        clock = CallClock(options.get("clock", time.monotonic))
        running = any(options.get(name) is not None for name in TIMEOUT_KINDS)
        return cls(clock, options.get("deadline"), running), {**options, "clock": clock}

    def deadline_left(self) -> float | None:
        if self.deadline is None:
            return None
        return self.deadline - (self.clock() - self.clock.started)

    def budget(self) -> float | None:
        timeouts = self.clock.timeouts
        if timeouts is None:  # the stream has not started: only the deadline runs
            return self.deadline_left()
        budget = timeouts.budget()
        return None if budget is None else budget[0]


class _NoBody:
    """The source of a stream whose deadline ran out before its body started, sync or async: never read
    (consume sees the clock expired before the first read and says ``timed_out``)."""

    def __iter__(self) -> Iterator[bytes]:
        return iter(())

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self

    async def __anext__(self) -> bytes:
        raise StopAsyncIteration


_ClientT = TypeVar("_ClientT", httpx.Client, httpx.AsyncClient)


class _Body(Generic[_ClientT]):
    """What :class:`HTTPReads` and :class:`HTTPAReads` share: the response, the size of every read, the
    client made for the call (closed with the response), whether it is closed, and the repr."""

    _repr_key = ""

    def __init__(
        self,
        response: httpx.Response,
        own_client: _ClientT | None = None,
        max_inflated_read: int | None = MAX_INFLATED_READ,
    ) -> None:
        self.response = response
        self.sizes: list[int] = []  # the size of every raw read (as it crossed the wire), in arrival order
        self._own_client: _ClientT | None = own_client
        self._max_inflated_read = max_inflated_read
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def content_coding(self) -> str | None:
        """The coding undone read by read: ``"gzip"``, ``"deflate"``, or ``None`` (the body as sent)."""
        return body_coding(self.response.headers.get("Content-Encoding"))

    def _decoder(self) -> BodyDecoder:
        """The decoder of this body's raw reads (made when the iteration starts)."""
        request = self.response.request
        return BodyDecoder(self.content_coding, max_inflated_read=self._max_inflated_read, request=request)

    def _repr_fields(self) -> dict[str, object]:
        """The fields of the repr (status, reads so far, open or closed); each driver names its own key."""
        state = _t("http.state.closed") if self._closed else _t("http.state.open")
        return {"status": self.response.status_code, "reads": len(self.sizes), "state": state}


# --- sync: httpx.Client, a watchdog thread for the clocks ------------------------------------------------


class _Watchdog:
    """A thread that shuts a socket down when a time set by :meth:`arm` passes (sync reads only).

    ``arm(seconds)`` before a read, ``disarm()`` after it; ``socket`` is the connection's socket, set as
    soon as it is known. :attr:`fired` says it shut the socket down. ``stop()`` ends the thread (idempotent).
    """

    def __init__(self) -> None:
        self.socket: socket.socket | None = None
        self.fired = False
        self._at: float | None = None
        self._stopped = False
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="lesson_lib-http-watchdog", daemon=True)
        self._thread.start()

    def arm(self, seconds: float) -> None:
        with self._cond:
            self._at = time.monotonic() + max(seconds, 0.0)
            self._cond.notify()

    def disarm(self) -> None:
        with self._cond:
            self._at = None

    def stop(self) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify()

    def trace(self, event: str, info: Mapping[str, Any]) -> None:
        """httpcore's ``trace`` extension: learn the socket of a connection this request opens."""
        if event in ("connection.connect_tcp.complete", "connection.start_tls.complete"):
            stream = info.get("return_value")
            sock = stream.get_extra_info("socket") if stream is not None else None
            if isinstance(sock, socket.socket):
                with self._cond:
                    self.socket = sock
                    self._cond.notify()

    def watch(self, response: httpx.Response) -> None:
        """Learn the socket of ``response``'s connection (a reused one included)."""
        stream = response.extensions.get("network_stream")
        sock = stream.get_extra_info("socket") if stream is not None else None
        if isinstance(sock, socket.socket):
            with self._cond:
                self.socket = sock
                self._cond.notify()

    def _run(self) -> None:
        with self._cond:
            while not self._stopped:
                if self._at is None:
                    self._cond.wait()
                    continue
                left = self._at - time.monotonic()
                if left > 0:
                    self._cond.wait(left)
                    continue
                self._at = None
                if self.socket is not None:
                    self.fired = True
                    with contextlib.suppress(OSError):
                        self.socket.shutdown(socket.SHUT_RDWR)  # wakes the read blocked on it


class HTTPReads(_Body[httpx.Client]):
    """One HTTP response's body, as the reads httpx returned; ``close()`` releases the response.

    Made by :func:`open_reads`, which has already received the status line and headers. Iterate it once.
    If it made its own ``httpx.Client`` (no ``client`` given), ``close()`` closes that client too.
    """

    def __repr__(self) -> str:
        return _t("http.repr.sync", **self._repr_fields())

    def __init__(
        self,
        response: httpx.Response,
        own_client: httpx.Client | None = None,
        *,
        max_inflated_read: int | None = MAX_INFLATED_READ,
        _guard: tuple[_Watchdog, _Clocks] | None = None,
    ) -> None:
        super().__init__(response, own_client, max_inflated_read)
        self._guard = _guard

    def __iter__(self) -> Iterator[bytes]:
        """The body's reads, decoded: one piece per raw read (a gzip or deflate read that inflates to
        nothing is left out); a compressed body that ends inside a member raises
        :class:`CompressedBodyCutError` after its last piece."""
        decoder = self._decoder()
        for read in self._raw():
            self.sizes.append(len(read))
            piece, error = decoder.feed(read)
            if piece:
                yield piece
            if error is not None:
                raise error
        piece, error = decoder.end()
        if piece:
            yield piece
        if error is not None:
            raise error

    def _raw(self) -> Iterator[bytes]:
        """The raw reads (``iter_raw``), each bounded by the watchdog when the stream has clocks."""
        if self._guard is None:
            yield from self.response.iter_raw()
            return
        watchdog, clocks = self._guard
        raw = self.response.iter_raw()
        while True:
            budget = clocks.budget()
            if budget is not None:
                watchdog.arm(budget)
            try:
                chunk = next(raw, None)
            except httpx.TransportError:
                if watchdog.fired:
                    raise httpx.ReadTimeout("the nearest stream clock ran out during the read") from None
                raise
            finally:
                watchdog.disarm()
            if watchdog.fired:  # the socket was shut down: what follows is not the server's end
                raise httpx.ReadTimeout("the nearest stream clock ran out during the read")
            if chunk is None:
                return
            yield chunk

    def close(self) -> None:
        """Close the response (a connection not read to the end is discarded, not reused). Idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            self.response.close()
        finally:
            if self._guard is not None:
                self._guard[0].stop()
            if self._own_client is not None:
                self._own_client.close()

    def __enter__(self) -> HTTPReads:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def open_reads(
    url: str,
    *,
    method: str = "POST",
    json: Any = None,
    headers: Mapping[str, str | bytes] | None = None,
    client: httpx.Client | None = None,
    timeout: float = 10.0,
    read_timeout: float | None = None,
    max_inflated_read: int | None = MAX_INFLATED_READ,
) -> HTTPReads:
    """Send the request and return the response body as :class:`HTTPReads`, not read yet.

    ``timeout`` (seconds, above 0 and at most :data:`MAX_TIMEOUT`) bounds connecting and every single read, so
    a stalled stream cannot hang the caller (it is the timeout of the client made for the call; a caller's
    ``client`` keeps its own); ``read_timeout`` (seconds), if given, bounds each read instead (the
    headers' reads too: httpx takes one read timeout per request). The request asks for ``Accept-Encoding:
    identity`` unless ``headers`` set that header. A gzip or deflate body is inflated read by read, each
    raw read to at most ``max_inflated_read`` bytes (``None``: no bound; see the module's "Compression").
    Bad arguments raise ``ValueError``/``TypeError`` before any I/O. Raises ``httpx.HTTPStatusError`` for
    a non-2xx status and :class:`ContentEncodingError` for a content coding other than gzip and deflate
    (after closing the response), and httpx's own errors for a failed connection.
    """
    sent = _check_request(url, method, headers, client, timeout)
    check_number("read_timeout", read_timeout, minimum=0, maximum=MAX_TIMEOUT, low_open=True, none=True)
    check_int("max_inflated_read", max_inflated_read, minimum=1, none=True)
    return _open_reads(url, method, json, sent, client, timeout, read_timeout, None, max_inflated_read)


def _open_reads(
    url: str,
    method: str,
    json: Any,
    sent: dict[str, str | bytes],
    client: httpx.Client | None,
    timeout: float,
    read_timeout: float | None,
    clocks: _Clocks | None,
    max_inflated_read: int | None = MAX_INFLATED_READ,
) -> HTTPReads:
    """:func:`open_reads` after its checks; with ``clocks``, under a :class:`_Watchdog` (see the module)."""
    own = httpx.Client(**_own_client_options(timeout)) if client is None else None
    http = own if own is not None else client
    assert http is not None
    watchdog = None
    try:
        extra: dict[str, Any] = {}
        if clocks is not None:
            left = clocks.deadline_left()
            extra["timeout"] = _header_bound(http.timeout, left)  # the client's: the caller's, or ours
            watchdog = _Watchdog()
            extra["extensions"] = {"trace": watchdog.trace}
            if left is not None:
                watchdog.arm(left)
        elif read_timeout is not None:
            base = http.timeout
            extra["timeout"] = httpx.Timeout(
                connect=base.connect, read=read_timeout, write=base.write, pool=base.pool
            )
        request = http.build_request(method, url, json=json, headers=_as_headers(sent), **extra)
        try:
            response = http.send(request, stream=True)
        finally:
            if watchdog is not None:
                watchdog.disarm()
        if watchdog is not None:
            watchdog.watch(response)
    except BaseException:
        if watchdog is not None:
            watchdog.stop()
        if own is not None:
            own.close()
        raise
    guard = None if watchdog is None or clocks is None else (watchdog, clocks)
    reads = HTTPReads(response, own, max_inflated_read=max_inflated_read, _guard=guard)
    try:
        _check_response(response, request)
    except BaseException:
        reads.close()
        raise
    return reads


def _timed_open(
    url: str,
    method: str,
    json: Any,
    headers: Mapping[str, str | bytes] | None,
    client: httpx.Client | None,
    timeout: float,
    options: dict[str, Any],
) -> tuple[Iterable[bytes], dict[str, Any]]:
    """Open the response with the stream's clocks running from now: ``(source, consume options)``.

    If the deadline runs out before the body starts, the source is empty and ``consume`` reports
    ``timed_out`` (``deadline``) without reading."""
    clocks, options = _Clocks.start(options)
    sent = _check_request(url, method, headers, client, timeout)
    if not clocks.running:
        return _open_reads(url, method, json, sent, client, timeout, None, None), options
    try:
        reads = _open_reads(url, method, json, sent, client, timeout, None, clocks)
    except httpx.TransportError:
        # The deadline ran out while connecting or waiting for the headers (the request's timeout was its
        # time left, or the watchdog shut the socket down): timed_out. Else httpx's own timeout or another
        # failure before any response: raised, as astream_http raises it.
        left = clocks.deadline_left()
        if left is not None and left <= 0:
            return _NoBody(), options
        raise
    return reads, options


def stream_http(
    url: str,
    contract: str,
    *,
    method: str = "POST",
    json: Any = None,
    headers: Mapping[str, str | bytes] | None = None,
    client: httpx.Client | None = None,
    timeout: float = 10.0,
    **consume_options: Any,
) -> StreamResult:
    """Read one streamed response through every layer: ``consume(open_reads(...), contract)``.

    ``consume_options`` are :func:`~lesson_lib.core.completion.consume`'s (``cancel``, ``errors``, limits,
    ``idle_timeout``, ``progress_timeout``, ``deadline``...). The contract and every option are checked
    before the request is sent. The response is closed before this returns, whatever the outcome.

    Timeouts on a real socket (sync): ``deadline`` counts from this call, so it bounds connecting, the headers
    and the body together; ``idle_timeout`` and ``progress_timeout`` count from the start of the body, so
    the wait for the headers is bounded by httpx's timeout (``timeout``, or a caller's ``client``'s own;
    per connect and per read, as httpx counts it) and by the deadline alone. If httpx's timeout runs out
    first, before the headers, httpx's ``ConnectTimeout``/``ReadTimeout`` is raised (no response, no
    outcome), as :func:`astream_http` raises it; once the headers are in, it ends the stream as
    ``truncated`` (``error.kind`` ``"ReadTimeout"``). Each read waits at most the time left on the nearest
    clock (a watchdog thread shuts the socket down when it is up: see the module's "What a blocked sync
    read cannot do" for the one case it cannot reach, headers on a reused connection of the caller's
    ``client``). When one runs out the response is closed and the outcome is ``timed_out``, also when the
    deadline runs out before the body starts. Tolerance: within about 0.1 s of the clock
    (``tests/net/test_timeouts.py`` allows 0.7 s, and runs this and :func:`astream_http` side by side on
    servers that answer late).
    """
    check_options(contract, **consume_options)  # before any request is sent
    reads, options = _timed_open(url, method, json, headers, client, timeout, consume_options)
    return consume(reads, contract, **options)


def stream_http_updates(
    url: str,
    contract: str,
    *,
    method: str = "POST",
    json: Any = None,
    headers: Mapping[str, str | bytes] | None = None,
    client: httpx.Client | None = None,
    timeout: float = 10.0,
    **update_options: Any,
) -> Generator[Signal | StreamResult, None, None]:
    """:func:`~lesson_lib.core.completion.stream_updates` over a real response: live signals, the result last.

    The contract and every option are checked here, at the call, before any I/O; the request is sent when
    the generator is first advanced, and ``deadline`` counts from then (as :func:`stream_http`'s from its
    call). Closing the generator early (``break`` inside
    ``with contextlib.closing(...)``, or dropping it) closes the response.
    """
    check_options(contract, **update_options)
    _check_request(url, method, headers, client, timeout)
    return _updates(url, contract, method, json, headers, client, timeout, update_options)


def _updates(
    url: str,
    contract: str,
    method: str,
    json: Any,
    headers: Mapping[str, str | bytes] | None,
    client: httpx.Client | None,
    timeout: float,
    update_options: dict[str, Any],
) -> Generator[Signal | StreamResult, None, None]:
    reads, options = _timed_open(url, method, json, headers, client, timeout, update_options)
    yield from stream_updates(reads, contract, **options)


# --- async: httpx.AsyncClient, asyncio.timeout for the clocks --------------------------------------------


class HTTPAReads(_Body[httpx.AsyncClient]):
    """One HTTP response's body as async reads (``aiter_raw``); ``aclose()`` releases the response.

    The async mirror of :class:`HTTPReads`, made by :func:`open_areads`. If it made its own
    ``httpx.AsyncClient``, ``aclose()`` closes that client too. Iterate it once.
    """

    def __repr__(self) -> str:
        return _t("http.repr.async", **self._repr_fields())

    def __init__(
        self,
        response: httpx.Response,
        own_client: httpx.AsyncClient | None = None,
        *,
        max_inflated_read: int | None = MAX_INFLATED_READ,
    ) -> None:
        super().__init__(response, own_client, max_inflated_read)

    async def __aiter__(self) -> AsyncIterator[bytes]:
        """:meth:`HTTPReads.__iter__` over ``aiter_raw()``: the same pieces, the same errors."""
        decoder = self._decoder()
        async for read in self.response.aiter_raw():
            self.sizes.append(len(read))
            piece, error = decoder.feed(read)
            if piece:
                yield piece
            if error is not None:
                raise error
        piece, error = decoder.end()
        if piece:
            yield piece
        if error is not None:
            raise error

    async def aclose(self) -> None:
        """Close the response (and an own client). Idempotent; completes even if cancelled meanwhile."""
        if self._closed:
            return
        self._closed = True
        try:
            await self.response.aclose()
        finally:
            if self._own_client is not None:
                await self._own_client.aclose()

    async def __aenter__(self) -> HTTPAReads:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


async def open_areads(
    url: str,
    *,
    method: str = "POST",
    json: Any = None,
    headers: Mapping[str, str | bytes] | None = None,
    client: httpx.AsyncClient | None = None,
    timeout: float = 10.0,
    max_inflated_read: int | None = MAX_INFLATED_READ,
) -> HTTPAReads:
    """:func:`open_reads` over ``httpx.AsyncClient``: send the request, return the unread body.

    The same checks (before any I/O), the same ``Accept-Encoding: identity``, the same decoding of a gzip
    or deflate body, the same errors; a cancellation while connecting closes what was opened and
    propagates.
    """
    sent = _check_request(url, method, headers, client, timeout, httpx.AsyncClient)
    check_int("max_inflated_read", max_inflated_read, minimum=1, none=True)
    own = httpx.AsyncClient(**_own_client_options(timeout)) if client is None else None
    http = own if own is not None else client
    assert http is not None
    try:
        request = http.build_request(method, url, json=json, headers=_as_headers(sent))
        response = await http.send(request, stream=True)
    except BaseException:
        if own is not None:
            await own.aclose()
        raise
    reads = HTTPAReads(response, own, max_inflated_read=max_inflated_read)
    try:
        _check_response(response, request)
    except BaseException:
        await reads.aclose()
        raise
    return reads


async def _atimed_open(
    url: str,
    method: str,
    json: Any,
    headers: Mapping[str, str | bytes] | None,
    client: httpx.AsyncClient | None,
    timeout: float,
    options: dict[str, Any],
) -> tuple[AsyncIterable[bytes], dict[str, Any]]:
    """:func:`_timed_open` over ``open_areads``: connecting and the headers inside the deadline."""
    clocks, options = _Clocks.start(options)
    left = clocks.deadline_left()
    bound = asyncio.timeout(None if left is None else max(left, 0.0))
    try:
        async with bound:
            reads = await open_areads(
                url, method=method, json=json, headers=headers, client=client, timeout=timeout
            )
    except TimeoutError:
        if bound.expired():  # our bound, not the caller's: the deadline ran out before the body
            return _NoBody(), options
        raise
    return reads, options


async def astream_http(
    url: str,
    contract: str,
    *,
    method: str = "POST",
    json: Any = None,
    headers: Mapping[str, str | bytes] | None = None,
    client: httpx.AsyncClient | None = None,
    timeout: float = 10.0,
    **consume_options: Any,
) -> StreamResult:
    """:func:`stream_http` over async reads: ``await aconsume(await open_areads(...), contract)``.

    The same arguments and guarantees: every argument checked before the request; the response closed before
    this returns, whatever the outcome, and also when the calling task is cancelled (the
    ``CancelledError`` then propagates). Timeouts: ``deadline`` counts from this call (connecting and the
    headers are awaited inside ``asyncio.timeout`` set to it: if it runs out there, the outcome is
    ``timed_out``, ``deadline``), ``idle_timeout`` and ``progress_timeout`` from the start of the body
    (they do not bound the wait for the headers); httpx's timeout (``timeout``, or a caller's ``client``'s
    own) running out before the headers raises ``httpx.ConnectTimeout``/``ReadTimeout``, in the body it is
    ``truncated``, as in :func:`stream_http`; each read is awaited inside ``asyncio.timeout`` set to the
    nearest clock, so a clock fires on time even in the middle of a read (tolerance: the event loop's
    wake-up, well under 0.1 s; ``tests/net/test_timeouts.py`` allows 0.7 s).
    """
    check_options(contract, **consume_options)
    _check_request(url, method, headers, client, timeout, httpx.AsyncClient)
    reads, options = await _atimed_open(url, method, json, headers, client, timeout, consume_options)
    return await aconsume(reads, contract, **options)


def astream_http_updates(
    url: str,
    contract: str,
    *,
    method: str = "POST",
    json: Any = None,
    headers: Mapping[str, str | bytes] | None = None,
    client: httpx.AsyncClient | None = None,
    timeout: float = 10.0,
    **update_options: Any,
) -> AsyncGenerator[Signal | StreamResult, None]:
    """:func:`stream_http_updates` over async reads: live signals, the result last.

    Arguments are checked here, at the call; the request is sent when the generator is first advanced.
    Leave it early inside ``async with contextlib.aclosing(astream_http_updates(...)) as updates``: that
    closes the response at the ``break`` (without it, only the garbage collector's asyncgen hooks would).
    """
    check_options(contract, **update_options)
    _check_request(url, method, headers, client, timeout, httpx.AsyncClient)
    return _aupdates(url, contract, method, json, headers, client, timeout, update_options)


async def _aupdates(
    url: str,
    contract: str,
    method: str,
    json: Any,
    headers: Mapping[str, str | bytes] | None,
    client: httpx.AsyncClient | None,
    timeout: float,
    update_options: dict[str, Any],
) -> AsyncGenerator[Signal | StreamResult, None]:
    reads, options = await _atimed_open(url, method, json, headers, client, timeout, update_options)
    updates: AStreamUpdates = astream_updates(reads, contract, **options)
    async with contextlib.aclosing(updates):
        async for update in updates:
            yield update


# --- reconnecting: the plans of .resumption, driven sync and async ---------------------------------------

#: What opening a connection may raise that is an attempt, not a failure of the call: it has no body.
_UNANSWERED = (httpx.HTTPStatusError, ContentEncodingError, httpx.TransportError)


def _unanswered(
    reader: EventReader, request: Request, exc: Exception
) -> tuple[ResumeAttempt, list[Event], bool]:
    """The attempt of a request that got no body to read: refused (``"HTTP 503"``), compressed, or not
    connected (the exception's name)."""
    if isinstance(exc, httpx.HTTPStatusError):
        return reader.refused(request, f"HTTP {exc.response.status_code}"), [], False
    return reader.refused(request, type(exc).__name__), [], False


def _check_resume_io(
    url: str,
    method: str,
    resume_method: str | None,
    headers: Mapping[str, str] | None,
    client: object,
    timeout: float,
    sleep: object,
    client_type: type,
    sleep_returns: str,
) -> None:
    """The checks of a resume function that its plan leaves to the driver: the requests and ``sleep``."""
    if resume_method is not None:
        _check_request(url, resume_method, headers, client, timeout, client_type)
    if not callable(sleep):
        raise TypeError(f"sleep must be callable (seconds -> {sleep_returns})")
    _check_request(url, method, headers, client, timeout, client_type)


def resume_sse(
    url: str,
    contract: str | None = None,
    *,
    method: str = "GET",
    json: Any = None,
    headers: Mapping[str, str] | None = None,
    client: httpx.Client | None = None,
    max_attempts: int = 3,
    retry_ms: int = 1000,
    max_wait: float = 5.0,
    resend_without_id: bool = False,
    timeout: float = 10.0,
    sleep: Callable[[float], None] = time.sleep,
    request_id: str | int | None = None,
    resume_method: str | None = None,
) -> Resumed:
    """Read an event stream, reconnecting after a cut with ``Last-Event-ID``, at most ``max_attempts`` times.

    Before each reconnection it waits the stream's last valid ``retry`` (milliseconds), else ``retry_ms``,
    never more than ``max_wait`` seconds. It stops when the stream is done: with a ``contract``, when
    ``consume`` of the events so far is no longer ``truncated``; without one, at an end of body that falls at
    an event boundary. It also stops at invalid UTF-8, a limit, a content coding it does not read or
    compressed data that does not inflate (reconnecting would not repair those:
    :data:`~lesson_lib.net.resumption.UNREPAIRABLE`), at an HTTP error status, and, unless
    ``resend_without_id``, when no event ID arrived: then the only retry is the same request again.
    With ``resend_without_id`` that request is sent again, and once it is answered the events of the earlier
    attempts are discarded (:attr:`Resumed.discarded_events`): it is a new answer, not the rest of the old.

    Each connection has its own :class:`SSEParser`, started from the last event ID string so far, as a
    browser's ``EventSource`` keeps it across connections: an event on a resumed connection carries the id
    it was resumed from until that connection sends another. The events a connection completed before an
    error in the same read are kept, whatever the cuts.

    MCP Streamable HTTP (``contract="mcp"``, with the ``request_id`` of the JSON-RPC request): the first
    connection is the ``POST`` of the request, and the server may close it before the response, after an
    event id (a priming event); the client then resumes with ``GET`` and ``Last-Event-ID``: pass
    ``method="POST"``, ``json=<the request>``, ``resume_method="GET"``. A resumption sends no body.

    Every argument is checked before the first request: ``contract`` (a known name or ``None``) and its
    ``request_id``, ``max_attempts`` (1 to 100), ``retry_ms`` (an int >= 0), ``max_wait`` (0 to 3600 s),
    ``timeout``, ``resume_method`` (a method name or ``None``: the same as ``method``). The decisions are
    :class:`~lesson_lib.net.resumption.LastEventIDPlan`'s; :func:`aresume_sse` is the same over async I/O.
    """
    plan = LastEventIDPlan(
        url,
        contract,
        method=method,
        json=json,
        headers=headers,
        max_attempts=max_attempts,
        retry_ms=retry_ms,
        max_wait=max_wait,
        resend_without_id=resend_without_id,
        request_id=request_id,
        resume_method=resume_method,
    )
    _check_resume_io(url, method, resume_method, headers, client, timeout, sleep, httpx.Client, "None")
    return _drive(plan, client, timeout, sleep)


def resume_responses(
    url: str,
    *,
    json: Any = None,
    headers: Mapping[str, str] | None = None,
    client: httpx.Client | None = None,
    max_attempts: int = 3,
    timeout: float = 10.0,
    resume_url: Callable[[str, str | None, int], str] = _default_resume_url,
) -> Resumed:
    """Read an OpenAI Responses stream, resuming a dropped one from its last ``sequence_number``.

    The first connection POSTs ``json`` to ``url`` (a background response: ``"background": true`` and
    ``"stream": true``). After a drop, each reconnection GETs ``resume_url(url, response_id, N)``, by
    default ``{url}/{response_id}?stream=true&starting_after=N``, where ``N`` is the sequence number of the
    last complete event received and ``response_id`` comes from the ``response.created`` event: the server
    replays the events after ``N``, so none is duplicated or skipped. It stops when
    ``consume(events, "openai-responses")`` is no longer ``truncated``, or after ``max_attempts``, and at
    the endings a reconnection cannot repair, the same as :func:`resume_sse`'s.

    Chat Completions has no such thing: its events carry no sequence number or id, and re-sending the
    request starts a new, different answer. ``Resumed.last_event_id`` holds the last sequence number as
    a string (Responses events carry no SSE ``id``). The decisions are
    :class:`~lesson_lib.net.resumption.StartingAfterPlan`'s; :func:`aresume_responses` is the same over
    async I/O.
    """
    plan = StartingAfterPlan(
        url, json=json, headers=headers, max_attempts=max_attempts, resume_url=resume_url
    )
    _check_request(url, "POST", headers, client, timeout)
    return _drive(plan, client, timeout, time.sleep)


def read_events(reads: Iterable[bytes], parser: SSEParser, events: list[Event]) -> tuple[str, str | None]:
    """Feed ``reads`` to ``parser`` and close it, appending every complete event to ``events``.

    Sans-IO (any iterable of reads), so it is tested in every chunking. Returns ``(ended, cut_inside)``:
    ``ended`` is ``"end of body"``, the name of a transport error that cut the body, or the name of the
    parser's error (invalid UTF-8, a limit); ``cut_inside`` is the unit the end fell in, or ``None``. The
    events a read completed before an error in that same read are kept (the error's ``outputs``), so the
    events are the same however the bytes were cut. (The sync driver of
    :class:`~lesson_lib.net.resumption.EventReader`.)
    """
    return _read_body(reads, EventReader(parser, events))


def _read_body(reads: Iterable[bytes], reader: EventReader) -> tuple[str, str | None]:
    try:
        for chunk in reads:
            reader.feed(chunk)
    except httpx.TransportError as exc:  # the connection was cut mid-body: worth resuming
        reader.cut(exc)
    except BoundaryError as exc:  # invalid UTF-8 or a limit
        reader.fail(exc)
    return reader.close()


def _drive(
    plan: ResumePlan, client: httpx.Client | None, timeout: float, sleep: Callable[[float], None]
) -> Resumed:
    """Send the plan's requests, one connection each, until it says stop."""
    while (request := plan.next_request()) is not None:
        if request.wait is not None:
            sleep(request.wait)
        plan.record(*_read_once(request, client, timeout))
    return plan.result()


def _read_once(
    request: Request, client: httpx.Client | None, timeout: float
) -> tuple[ResumeAttempt, list[Event], bool]:
    """One connection: its attempt, its complete events, and whether the server answered (a 2xx response
    whose body could be read)."""
    reader = EventReader.for_request(request)
    try:
        reads = open_reads(
            request.url,
            method=request.method,
            json=request.json,
            headers=request.headers,
            client=client,
            timeout=timeout,
        )
    except _UNANSWERED as exc:
        return _unanswered(reader, request, exc)
    try:
        _read_body(reads, reader)
    finally:
        reads.close()
    return reader.attempt(request, sum(reads.sizes)), reader.events, True


async def aresume_sse(
    url: str,
    contract: str | None = None,
    *,
    method: str = "GET",
    json: Any = None,
    headers: Mapping[str, str] | None = None,
    client: httpx.AsyncClient | None = None,
    max_attempts: int = 3,
    retry_ms: int = 1000,
    max_wait: float = 5.0,
    resend_without_id: bool = False,
    timeout: float = 10.0,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    request_id: str | int | None = None,
    resume_method: str | None = None,
) -> Resumed:
    """:func:`resume_sse` over ``httpx.AsyncClient``: the same plan, checks and result; ``sleep`` is awaited
    (``asyncio.sleep``). A cancellation closes the connection in progress and propagates."""
    plan = LastEventIDPlan(
        url,
        contract,
        method=method,
        json=json,
        headers=headers,
        max_attempts=max_attempts,
        retry_ms=retry_ms,
        max_wait=max_wait,
        resend_without_id=resend_without_id,
        request_id=request_id,
        resume_method=resume_method,
    )
    _check_resume_io(
        url, method, resume_method, headers, client, timeout, sleep, httpx.AsyncClient, "awaitable"
    )
    return await _adrive(plan, client, timeout, sleep)


async def aresume_responses(
    url: str,
    *,
    json: Any = None,
    headers: Mapping[str, str] | None = None,
    client: httpx.AsyncClient | None = None,
    max_attempts: int = 3,
    timeout: float = 10.0,
    resume_url: Callable[[str, str | None, int], str] = _default_resume_url,
) -> Resumed:
    """:func:`resume_responses` over ``httpx.AsyncClient``: the same plan, checks and result."""
    plan = StartingAfterPlan(
        url, json=json, headers=headers, max_attempts=max_attempts, resume_url=resume_url
    )
    _check_request(url, "POST", headers, client, timeout, httpx.AsyncClient)
    return await _adrive(plan, client, timeout, asyncio.sleep)


async def _adrive(
    plan: ResumePlan,
    client: httpx.AsyncClient | None,
    timeout: float,
    sleep: Callable[[float], Awaitable[None]],
) -> Resumed:
    """:func:`_drive` over async I/O."""
    while (request := plan.next_request()) is not None:
        if request.wait is not None:
            await sleep(request.wait)
        plan.record(*await _aread_once(request, client, timeout))
    return plan.result()


async def _aread_once(
    request: Request, client: httpx.AsyncClient | None, timeout: float
) -> tuple[ResumeAttempt, list[Event], bool]:
    """:func:`_read_once` over async I/O."""
    reader = EventReader.for_request(request)
    try:
        reads = await open_areads(
            request.url,
            method=request.method,
            json=request.json,
            headers=request.headers,
            client=client,
            timeout=timeout,
        )
    except _UNANSWERED as exc:
        return _unanswered(reader, request, exc)
    try:
        await _aread_body(reads, reader)
    finally:
        await reads.aclose()
    return reader.attempt(request, sum(reads.sizes)), reader.events, True


async def _aread_body(reads: AsyncIterable[bytes], reader: EventReader) -> tuple[str, str | None]:
    """:func:`_read_body` over async reads."""
    try:
        async for chunk in reads:
            reader.feed(chunk)
    except httpx.TransportError as exc:
        reader.cut(exc)
    except BoundaryError as exc:
        reader.fail(exc)
    return reader.close()
