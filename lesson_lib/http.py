"""Feeding lesson_lib from a real HTTP response, with httpx.

The reads are ``response.iter_raw()``: the body bytes exactly as the transport handed them over, not
re-cut into lines or text. Everything above the chunk boundary is :func:`~lesson_lib.completion.consume`'s
job, so this module only opens, reads and closes:

* :class:`HTTPReads` (made by :func:`open_reads`) is one response's body as an iterable of reads with a
  ``close()``. It records every read's size in :attr:`HTTPReads.sizes`; ``consume`` also counts them in
  ``stats.reads`` and ``stats.read_sizes``. Since ``consume`` closes its source exactly once on every path,
  the response (and a client made for it) is released on a terminal signal, an error, an early break, a
  cancel or a transport failure alike.
* :func:`stream_http` is ``consume(open_reads(...))``; :func:`stream_http_updates` is the same as a
  generator of live updates, and opens the request only when first advanced (so a generator that is never
  started holds no connection).
* :func:`resume_sse` reconnects after a drop, as an ``EventSource`` does: it waits the stream's ``retry``
  time and sends ``Last-Event-ID``. That repairs a stream whose events carry ids and whose server honours
  the header. It cannot repair a stream without ids (OpenAI, Anthropic): the only way to "reconnect" there is
  to send the request again, which starts a new answer (and bills it again, or repeats a tool's side effect).
  So by default it refuses to re-send without an id; ``resend_without_id=True`` shows what happens.

What is raised, and what is an outcome: a failure before the body starts (connection refused, an HTTP error
status) raises, as httpx does; everything from the first body byte on is the :class:`StreamResult`'s
outcome (a transport error mid-body is ``truncated``, with the exception's name in ``error.kind``).
"""

from __future__ import annotations

import functools
import ssl
import time
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from .completion import Outcome, StreamResult, consume, stream_updates
from .contracts import Signal
from .errors import BoundaryError, TruncatedCharacterError
from .replay import encode_events
from .sse import Event, SSEParser

__all__ = [
    "HTTPReads",
    "ResumeAttempt",
    "Resumed",
    "open_reads",
    "resume_sse",
    "stream_http",
    "stream_http_updates",
]


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    # Building a client's default SSL context reads the CA bundle each time; one is enough per process.
    return httpx.create_ssl_context()


class HTTPReads:
    """One HTTP response's body, as the reads httpx returned; ``close()`` releases the response.

    Made by :func:`open_reads`, which has already received the status line and headers. Iterate it once.
    If it made its own ``httpx.Client`` (no ``client`` given), ``close()`` closes that client too.
    """

    def __init__(self, response: httpx.Response, own_client: httpx.Client | None = None) -> None:
        self.response = response
        self.sizes: list[int] = []  # the size of every read, in arrival order
        self._own_client = own_client
        self._closed = False

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self.response.iter_raw():
            self.sizes.append(len(chunk))
            yield chunk

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Close the response (a connection not read to the end is discarded, not reused). Idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            self.response.close()
        finally:
            if self._own_client is not None:
                self._own_client.close()

    def __enter__(self) -> HTTPReads:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        return f"HTTPReads({self.response.status_code}, {len(self.sizes)} reads so far, {state})"


def open_reads(
    url: str,
    *,
    method: str = "POST",
    json: Any = None,
    headers: Mapping[str, str | bytes] | None = None,
    client: httpx.Client | None = None,
    timeout: float = 10.0,
) -> HTTPReads:
    """Send the request and return the response body as :class:`HTTPReads`, not read yet.

    ``timeout`` (seconds) bounds connecting and every single read, so a stalled stream cannot hang the
    caller. Raises ``httpx.HTTPStatusError`` for a non-2xx status (after closing the response) and httpx's
    own errors for a failed connection.
    """
    own = httpx.Client(timeout=timeout, trust_env=False, verify=_ssl_context()) if client is None else None
    http = own if own is not None else client
    assert http is not None
    try:
        request = http.build_request(method, url, json=json, headers=dict(headers or {}))
        response = http.send(request, stream=True)
    except BaseException:
        if own is not None:
            own.close()
        raise
    reads = HTTPReads(response, own)
    if not response.is_success:
        reads.close()
        response.raise_for_status()
    return reads


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

    ``consume_options`` are :func:`~lesson_lib.completion.consume`'s (``cancel``, ``errors``, limits...).
    The response is closed before this returns, whatever the outcome.
    """
    reads = open_reads(url, method=method, json=json, headers=headers, client=client, timeout=timeout)
    return consume(reads, contract, **consume_options)


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
    """:func:`~lesson_lib.completion.stream_updates` over a real response: live signals, the result last.

    The request is sent when the generator is first advanced. Closing the generator early (``break``
    inside ``with contextlib.closing(...)``, or dropping it) closes the response.
    """
    reads = open_reads(url, method=method, json=json, headers=headers, client=client, timeout=timeout)
    yield from stream_updates(reads, contract, **update_options)


# --- reconnecting ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ResumeAttempt:
    """One connection of :func:`resume_sse`.

    ``sent_id`` is the ``Last-Event-ID`` it sent (``None``: none); ``events`` how many complete events it
    delivered; ``ended`` ``"end of body"`` or the name of what cut it (``"RemoteProtocolError"``...);
    ``cut_inside`` the unit the end fell in (``"character"``, ``"line"``, ``"event"``) or ``None``. An
    attempt that could not connect has ``ended`` set to the exception's name; a refused one ``"HTTP 503"``.
    """

    sent_id: str | None
    events: int
    bytes: int
    ended: str
    cut_inside: str | None
    last_event_id: str  # the last event ID string this connection's parser ended with
    retry: int | None  # the last valid retry this connection sent


@dataclass(frozen=True)
class Resumed:
    """What :func:`resume_sse` put together from one or more connections.

    ``events`` are the complete events of every attempt, in order (a partial event at a drop is discarded,
    as the spec says); ``body`` is them written back as one event stream, and ``result`` is
    ``consume(body, contract)`` when a contract was given. ``stopped`` says why the reader stopped.
    """

    events: list[Event]
    attempts: list[ResumeAttempt]
    last_event_id: str
    retry: int | None
    stopped: str
    result: StreamResult | None

    @property
    def body(self) -> bytes:
        return encode_events(self.events)


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
) -> Resumed:
    """Read an event stream, reconnecting after a cut with ``Last-Event-ID``, at most ``max_attempts`` times.

    Before each reconnection it waits the stream's last valid ``retry`` (milliseconds), else ``retry_ms``,
    never more than ``max_wait`` seconds. It stops when the stream is done: with a ``contract``, when
    ``consume`` of the events so far is no longer ``truncated``; without one, at an end of body that falls at
    an event boundary. It also stops at invalid UTF-8 or a limit (reconnecting would not repair those), and,
    unless ``resend_without_id``, when no event ID arrived: then the only retry is the same request again.

    Each connection has its own :class:`SSEParser`, started from the last event ID string so far, as a
    browser's ``EventSource`` keeps it across connections: an event on a resumed connection carries the id
    it was resumed from until that connection sends another.
    """
    if max_attempts < 1:
        raise ValueError(f"max_attempts must be at least 1, got {max_attempts}")
    events: list[Event] = []
    attempts: list[ResumeAttempt] = []
    last_id, retry, stopped = "", None, "max_attempts"
    for number in range(max_attempts):
        if number:
            if not last_id and not resend_without_id:
                stopped = "no event ID to resume from"
                break
            sleep(min((retry if retry is not None else retry_ms) / 1000, max_wait))
        sent: dict[str, str | bytes] = dict(headers or {})
        if last_id:
            sent["Last-Event-ID"] = last_id.encode("utf-8")
        attempt = _read_once(url, method, json, sent, client, timeout, events)
        attempts.append(attempt)
        if attempt.ended.startswith("HTTP ") or attempt.ended in ("StreamDecodeError", "LimitExceededError"):
            stopped = f"{attempt.ended}: a new connection cannot repair it"
            break
        last_id = attempt.last_event_id
        retry = attempt.retry if attempt.retry is not None else retry
        if contract is not None:
            outcome = consume([encode_events(events)], contract).outcome
            if outcome is not Outcome.TRUNCATED:
                stopped = str(outcome)
                break
        elif attempt.ended == "end of body" and attempt.cut_inside is None:
            stopped = "end of body"
            break
    result = consume([encode_events(events)], contract) if contract is not None else None
    return Resumed(events, attempts, last_id, retry, stopped, result)


def _read_once(
    url: str,
    method: str,
    json: Any,
    headers: dict[str, str | bytes],
    client: httpx.Client | None,
    timeout: float,
    events: list[Event],
) -> ResumeAttempt:
    """One connection of :func:`resume_sse`: append its complete events to ``events``, say how it ended."""
    sent = headers.get("Last-Event-ID")
    sent_id = sent.decode("utf-8") if isinstance(sent, bytes) else sent
    parser, before, ended, cut = SSEParser(last_event_id=sent_id or ""), len(events), "end of body", None
    try:
        reads = open_reads(url, method=method, json=json, headers=headers, client=client, timeout=timeout)
    except httpx.HTTPStatusError as exc:
        status = f"HTTP {exc.response.status_code}"
        return ResumeAttempt(sent_id, 0, 0, status, None, parser.last_event_id, None)
    except httpx.TransportError as exc:  # could not connect: an attempt with nothing in it
        return ResumeAttempt(sent_id, 0, 0, type(exc).__name__, None, parser.last_event_id, None)
    try:
        try:
            for chunk in reads:
                events.extend(parser.feed(chunk))  # type: ignore[arg-type]
        except httpx.TransportError as exc:  # the connection was cut mid-body: worth resuming
            ended = type(exc).__name__
        try:
            parser.close()
            cut = parser.ended_mid
        except TruncatedCharacterError:
            cut = "character"
    except BoundaryError as exc:  # invalid UTF-8 or a limit
        ended = type(exc).__name__
    finally:
        reads.close()
    return ResumeAttempt(
        sent_id, len(events) - before, sum(reads.sizes), ended, cut, parser.last_event_id, parser.retry
    )
