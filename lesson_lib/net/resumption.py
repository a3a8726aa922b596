"""Resuming a dropped event stream, sans-IO: what to send next, and when to stop.

The decisions of :func:`~lesson_lib.net.http.resume_sse`, :func:`~lesson_lib.net.http.resume_responses`
and their async twins live here, once, as plain objects a driver steps through, in the manner of h11's
connection (the protocol is a state machine; the caller owns the sockets):

* a *plan* (:class:`LastEventIDPlan` for ``Last-Event-ID`` resumption, SSE and MCP; :class:`StartingAfterPlan`
  for an OpenAI Responses background stream) checks its arguments when made, then answers
  :meth:`~ResumePlan.next_request`: the next :class:`Request` to send (method, URL, body, the headers with
  ``Last-Event-ID``, or the URL with ``starting_after``, and how long to wait first), or ``None`` when it
  gives up or is done (:attr:`~ResumePlan.stopped` says why);
* a driver sends that request, feeds the body's reads to an :class:`EventReader` (which turns them into
  events and the :class:`ResumeAttempt` that describes the connection) and hands the attempt back with
  :meth:`~ResumePlan.record`; :meth:`~ResumePlan.result` is the :class:`Resumed` at the end.

What a reconnection cannot repair is one list, :data:`UNREPAIRABLE`, read by :func:`cannot_repair` for
every plan: a byte stream that is not UTF-8, a limit, a body in a content coding lesson_lib does not read
(it would come so again), compressed data that does not inflate, and any HTTP error status. A gzip or
deflate body cut inside a member is a cut like any other (``CompressedBodyCutError``): worth a retry.

Nothing here opens a socket, sleeps or imports httpx: the plans are tested on their own, for any sequence
of attempts, and the sync and async drivers in :mod:`lesson_lib.net.http` differ only in the I/O they do.
The one network-layer import is :func:`~lesson_lib.net.replay.encode_events` (a pure function), which is
why this module is in ``lesson_lib.net`` and not in the core.
"""

from __future__ import annotations

import json as jsonlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..core.completion import Outcome, StreamResult, check_options, consume
from ..core.errors import (
    BoundaryError,
    InflateError,
    LimitExceededError,
    StreamDecodeError,
    TruncatedCharacterError,
)
from ..core.options import check_int, check_number
from ..core.sse import Event, SSEParser
from ..i18n import text
from .replay import encode_events

__all__ = [
    "MAX_WAIT",
    "UNREPAIRABLE",
    "EventReader",
    "LastEventIDPlan",
    "Request",
    "ResumeAttempt",
    "ResumePlan",
    "Resumed",
    "StartingAfterPlan",
    "cannot_repair",
    "default_resume_url",
    "describe_reason",
]

#: The names of the endings (:attr:`ResumeAttempt.ended`) a new connection cannot repair: the same bytes
#: would come again. ``ContentEncodingError`` is :class:`lesson_lib.net.http.ContentEncodingError` (a
#: content coding other than gzip and deflate, or a list of them); ``InflateError`` is gzip or deflate data
#: that does not inflate; an HTTP error status (``"HTTP 503"``) is not repaired either
#: (:func:`cannot_repair`).
UNREPAIRABLE: Final[frozenset[str]] = frozenset(
    {StreamDecodeError.__name__, InflateError.__name__, LimitExceededError.__name__, "ContentEncodingError"}
)

#: The longest wait (seconds) before a reconnection that ``max_wait`` accepts.
MAX_WAIT: Final = 3600.0


def cannot_repair(ended: str) -> bool:
    """Whether an attempt that ended so is final: an HTTP error status (``"HTTP 4xx/5xx"``) or a name in
    :data:`UNREPAIRABLE`. A transport error (a drop, a timeout, a refused connection) is worth a retry."""
    return ended.startswith("HTTP ") or ended in UNREPAIRABLE


#: The suffix of a ``stopped`` that names an ending a new connection cannot repair.
_CANNOT_REPAIR = ": a new connection cannot repair it"


def describe_reason(reason: str) -> str:
    """An attempt's :attr:`~ResumeAttempt.ended` or a plan's ``stopped``, as a learner reads it in the current
    language (:func:`lesson_lib.set_language`). Each phrase this module writes (``"end of body"``, ``"no
    event ID to resume from"``, ``"no sequence number to resume from"``, ``"<name>: a new connection cannot
    repair it"``) comes from the catalogue; anything else (an exception's name, an outcome, ``max_attempts``,
    ``"HTTP 503"``) is a name, returned unchanged. The values stay as they are: code compares them."""
    if reason == "end of body":
        return text("http.resume.end_of_body")
    if reason == "no event ID to resume from":
        return text("http.resume.no_event_id")
    if reason == "no sequence number to resume from":
        return text("http.resume.no_sequence_number")
    if reason.endswith(_CANNOT_REPAIR):
        return text("http.resume.cannot_repair", ended=reason.removesuffix(_CANNOT_REPAIR))
    return reason


@dataclass(frozen=True)
class ResumeAttempt:
    """One connection of :func:`~lesson_lib.net.http.resume_sse` (or ``resume_responses``).

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
    """What :func:`~lesson_lib.net.http.resume_sse` put together from one or more connections.

    ``events`` are the complete events of the answer, in order (a partial event at a drop is discarded, as
    the spec says); ``body`` is them written back as one event stream, and ``result`` is
    ``consume(body, contract)`` when a contract was given. ``stopped`` says why the reader stopped.

    ``discarded_events`` counts the events of earlier attempts that were dropped because a request was
    re-sent without ``Last-Event-ID`` (``resend_without_id=True``): a re-sent request starts a new answer,
    so ``events`` and ``result`` hold the newest answer alone, never two answers stitched together. More
    than 0 means the service was asked (and billed) for the answer more than once.
    """

    events: list[Event]
    attempts: list[ResumeAttempt]
    last_event_id: str
    retry: int | None
    stopped: str
    result: StreamResult | None
    discarded_events: int = 0

    @property
    def body(self) -> bytes:
        return encode_events(self.events)


@dataclass(frozen=True)
class Request:
    """The next request of a resumption: send ``method`` to ``url`` with ``json`` (``None``: no body) and
    ``headers``, after sleeping ``wait`` seconds (``None``: the first request, sent at once, no sleep).

    ``new_answer`` says the request is the same one sent again without ``Last-Event-ID``: if it is
    answered, its events replace the earlier ones rather than continue them."""

    method: str
    url: str
    json: Any
    headers: dict[str, str | bytes]
    wait: float | None = None
    new_answer: bool = False

    @property
    def sent_id(self) -> str | None:
        """The ``Last-Event-ID`` the request carries (decoded), or ``None``."""
        sent = self.headers.get("Last-Event-ID")
        return sent.decode("utf-8") if isinstance(sent, bytes) else sent


class EventReader:
    """One connection's body, fed read by read into an :class:`SSEParser`; its complete events are appended
    to ``events``. Sans-IO: the driver reads and calls :meth:`feed`, then :meth:`cut` (a transport error ended
    the body) or :meth:`fail` (a parser error), and :meth:`close`, which closes the parser and says how the
    body ended.

    The events a read completed before a parser error (invalid UTF-8, a limit) in that same read are kept
    (the error's ``outputs``), so the events are the same however the bytes were cut.
    """

    def __init__(self, parser: SSEParser, events: list[Event]) -> None:
        self.parser = parser
        self.events = events
        self.ended = "end of body"
        self.cut_inside: str | None = None
        self._failed = False

    @classmethod
    def for_request(cls, request: Request) -> EventReader:
        """A reader with a new parser started from the request's ``Last-Event-ID`` (as an ``EventSource``
        keeps the last event ID across connections) and a new list of events."""
        return cls(SSEParser(last_event_id=request.sent_id or ""), [])

    def feed(self, chunk: bytes) -> None:
        """Parse one read. A :class:`~lesson_lib.core.errors.BoundaryError` (invalid UTF-8, a limit)
        propagates: the driver stops reading and hands it to :meth:`fail`."""
        self.events.extend(self.parser.feed(chunk))  # type: ignore[arg-type]

    def cut(self, error: BaseException) -> None:
        """The transport cut the body (a drop, a read timeout): the error's name is how it ended."""
        self.ended = type(error).__name__

    def fail(self, error: BoundaryError) -> None:
        """The parser (or the source) raised ``error``: keep the events it completed first (its
        ``outputs``); the error's name is how the body ended, and the parser is not closed."""
        self.events.extend(e for e in error.outputs if isinstance(e, Event))
        self.ended = type(error).__name__
        self._failed = True

    def close(self) -> tuple[str, str | None]:
        """Close the parser (unless it failed) and return ``(ended, cut_inside)``: ``ended`` is ``"end of
        body"``, the transport error's name or the parser error's name; ``cut_inside`` is the unit the end
        fell in (``"character"`` for a character cut by the end), or ``None``."""
        if not self._failed:
            try:
                self.parser.close()
                self.cut_inside = self.parser.ended_mid
            except TruncatedCharacterError:
                self.cut_inside = "character"
            except BoundaryError as exc:
                self.fail(exc)
        return self.ended, self.cut_inside

    def attempt(self, request: Request, read_bytes: int) -> ResumeAttempt:
        """The :class:`ResumeAttempt` of a connection that was answered, after :meth:`close`."""
        return ResumeAttempt(
            request.sent_id,
            len(self.events),
            read_bytes,
            self.ended,
            self.cut_inside,
            self.parser.last_event_id,
            self.parser.retry,
        )

    def refused(self, request: Request, ended: str) -> ResumeAttempt:
        """The :class:`ResumeAttempt` of a connection with no body to read (``ended``: ``"HTTP 503"``, an
        exception's name)."""
        return ResumeAttempt(request.sent_id, 0, 0, ended, None, self.parser.last_event_id, None)


class ResumePlan:
    """What the resume functions share: at most ``max_attempts`` requests; stop at an attempt that
    :func:`cannot_repair`, or when ``consume`` of the events so far (with ``contract``) is no longer
    ``truncated``. Subclasses say which request comes next and what an attempt adds.

    The protocol: ``while (request := plan.next_request()) is not None: ...; plan.record(attempt, events,
    answered)``, then :meth:`result`. :meth:`record` without a pending request is a ``RuntimeError``.
    """

    def __init__(self, max_attempts: int, contract: str | None, contract_options: Mapping[str, Any]) -> None:
        check_int("max_attempts", max_attempts, minimum=1, maximum=100)
        self.max_attempts = max_attempts
        self.contract = contract
        self.contract_options = dict(contract_options)
        self.events: list[Event] = []
        self.attempts: list[ResumeAttempt] = []
        self.stopped = "max_attempts"
        self._done = False
        self._pending: Request | None = None

    def next_request(self) -> Request | None:
        """The next request to send, or ``None``: the plan is done or gives up (see :attr:`stopped`)."""
        if self._pending is not None:
            raise RuntimeError("record() the attempt of the request already given before asking again")
        if self._done or len(self.attempts) >= self.max_attempts:
            return None
        self._pending = self._next()
        if self._pending is None:
            self._done = True
        return self._pending

    def record(self, attempt: ResumeAttempt, events: list[Event], answered: bool) -> None:
        """Take the attempt of the request :meth:`next_request` gave: the ``events`` it completed, and
        whether the server answered it (a 2xx response whose body could be read)."""
        request, self._pending = self._pending, None
        if request is None:
            raise RuntimeError("record() follows next_request(): no request is pending")
        self._take(request, attempt, events, answered)
        self.attempts.append(attempt)
        if cannot_repair(attempt.ended):
            self._stop(f"{attempt.ended}{_CANNOT_REPAIR}")
        elif (reason := self._finished(attempt)) is not None:
            self._stop(reason)

    def result(self) -> Resumed:
        """The answer put together so far (normally called once :meth:`next_request` gave ``None``)."""
        raise NotImplementedError

    def _outcome_result(self) -> StreamResult | None:
        if self.contract is None:
            return None
        return consume([encode_events(self.events)], self.contract, **self.contract_options)

    def _finished(self, attempt: ResumeAttempt) -> str | None:
        """Why the answer is complete after ``attempt``, or ``None`` (worth another connection)."""
        result = self._outcome_result()
        if result is not None and result.outcome is not Outcome.TRUNCATED:
            return str(result.outcome)
        return None

    def _stop(self, reason: str) -> None:
        self.stopped, self._done = reason, True

    def _next(self) -> Request | None:
        raise NotImplementedError

    def _take(self, request: Request, attempt: ResumeAttempt, events: list[Event], answered: bool) -> None:
        raise NotImplementedError


class LastEventIDPlan(ResumePlan):
    """``Last-Event-ID`` resumption, as an ``EventSource`` does (:func:`~lesson_lib.net.http.resume_sse`).

    Before each reconnection it waits the stream's last valid ``retry`` (milliseconds), else ``retry_ms``,
    never more than ``max_wait`` seconds, and sends ``Last-Event-ID`` (with ``resume_method``, if given, and
    no body). Without an event id there is nothing to resume from: it stops, unless ``resend_without_id``,
    and then the same request is sent again and, once it is answered, replaces the earlier events
    (:attr:`Resumed.discarded_events`). It is done when ``consume`` with ``contract`` is no longer
    ``truncated``; without a contract, at an end of body that falls at an event boundary.

    Checks (before anything is sent): ``contract`` (a known name or ``None``) and ``request_id`` (a
    contract's option: MCP's), ``max_attempts`` (1 to 100), ``retry_ms`` (an int >= 0), ``max_wait`` (0 to
    :data:`MAX_WAIT`), ``resend_without_id`` (a bool). The request itself (URL, methods, headers) is the
    driver's to check.
    """

    def __init__(
        self,
        url: str,
        contract: str | None = None,
        *,
        method: str = "GET",
        json: Any = None,
        headers: Mapping[str, str] | None = None,
        max_attempts: int = 3,
        retry_ms: int = 1000,
        max_wait: float = 5.0,
        resend_without_id: bool = False,
        request_id: str | int | None = None,
        resume_method: str | None = None,
    ) -> None:
        options: dict[str, Any] = {} if request_id is None else {"request_id": request_id}
        if contract is not None:
            check_options(contract, **options)
        elif request_id is not None:
            raise ValueError("request_id needs a contract (mcp)")
        super().__init__(max_attempts, contract, options)
        check_int("retry_ms", retry_ms, minimum=0)
        check_number("max_wait", max_wait, minimum=0, maximum=MAX_WAIT)
        if not isinstance(resend_without_id, bool):
            raise TypeError(f"resend_without_id must be a bool, got {type(resend_without_id).__name__}")
        self.url, self.method, self.json, self.resume_method = url, method, json, resume_method
        self.headers: dict[str, str] = dict(headers or {})
        self.retry_ms, self.max_wait, self.resend_without_id = retry_ms, max_wait, resend_without_id
        self.last_event_id = ""
        self.retry: int | None = None
        self.discarded_events = 0

    def _next(self) -> Request | None:
        number, last_id = len(self.attempts), self.last_event_id
        new_answer = number > 0 and not last_id
        wait = None
        if number:
            if new_answer and not self.resend_without_id:
                self._stop("no event ID to resume from")
                return None
            wait = min((self.retry if self.retry is not None else self.retry_ms) / 1000, self.max_wait)
        sent: dict[str, str | bytes] = dict(self.headers)
        if last_id:
            sent["Last-Event-ID"] = last_id.encode("utf-8")
        if number and last_id and self.resume_method is not None:
            return Request(self.resume_method, self.url, None, sent, wait, new_answer)
        return Request(self.method, self.url, self.json, sent, wait, new_answer)

    def _take(self, request: Request, attempt: ResumeAttempt, events: list[Event], answered: bool) -> None:
        if request.new_answer:
            if answered:  # the new answer replaces the old one; a refused resend changes nothing
                self.discarded_events += len(self.events)
                self.events = list(events)
        else:
            self.events.extend(events)
        self.last_event_id = attempt.last_event_id  # (an attempt that was refused keeps the id it sent)
        self.retry = attempt.retry if attempt.retry is not None else self.retry

    def _finished(self, attempt: ResumeAttempt) -> str | None:
        if self.contract is not None:
            return super()._finished(attempt)
        if attempt.ended == "end of body" and attempt.cut_inside is None:
            return "end of body"
        return None

    def result(self) -> Resumed:
        return Resumed(
            self.events,
            self.attempts,
            self.last_event_id,
            self.retry,
            self.stopped,
            self._outcome_result(),
            self.discarded_events,
        )


def _sequence_number(event: Event) -> int | None:
    try:
        payload = jsonlib.loads(event.data)
    except ValueError:
        return None
    value = payload.get("sequence_number") if isinstance(payload, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _response_id(events: Iterable[Event]) -> str | None:
    for event in events:
        try:
            payload = jsonlib.loads(event.data)
        except ValueError:
            continue
        response = payload.get("response") if isinstance(payload, dict) else None
        if isinstance(response, dict) and isinstance(response.get("id"), str):
            return str(response["id"])
    return None


def default_resume_url(url: str, response_id: str | None, after: int) -> str:
    """``{url}/{response_id}?stream=true&starting_after={after}`` (``url`` alone if there is no id)."""
    base = f"{url.rstrip('/')}/{response_id}" if response_id else url
    return f"{base}?stream=true&starting_after={after}"


class StartingAfterPlan(ResumePlan):
    """An OpenAI Responses background stream, resumed from its last ``sequence_number``
    (:func:`~lesson_lib.net.http.resume_responses`).

    The first request POSTs ``json`` to ``url``; after a drop, each one GETs ``resume_url(url, response_id,
    N)`` (by default :func:`default_resume_url`), ``N`` the sequence number of the last complete event and
    ``response_id`` the id in the ``response.created`` event. No wait between them. It stops when there is
    no sequence number to resume from, and is done when ``consume(events, "openai-responses")`` is no
    longer ``truncated``. Checks: ``max_attempts`` (1 to 100), ``resume_url`` (callable).
    """

    def __init__(
        self,
        url: str,
        *,
        json: Any = None,
        headers: Mapping[str, str | bytes] | None = None,
        max_attempts: int = 3,
        resume_url: Callable[[str, str | None, int], str] = default_resume_url,
    ) -> None:
        super().__init__(max_attempts, "openai-responses", {})
        if not callable(resume_url):
            raise TypeError("resume_url must be callable (url, response_id, after) -> str")
        self.url, self.json, self.resume_url = url, json, resume_url
        self.headers: dict[str, str | bytes] = dict(headers or {})
        self.last: int | None = None  # the sequence number of the last complete event

    def _next(self) -> Request | None:
        if not self.attempts:
            return Request("POST", self.url, self.json, dict(self.headers))
        if self.last is None:
            self._stop("no sequence number to resume from")
            return None
        target = self.resume_url(self.url, _response_id(self.events), self.last)
        return Request("GET", target, None, dict(self.headers))

    def _take(self, request: Request, attempt: ResumeAttempt, events: list[Event], answered: bool) -> None:
        numbers = [n for n in map(_sequence_number, events) if n is not None]
        self.last = numbers[-1] if numbers else self.last
        self.events.extend(events)

    def result(self) -> Resumed:
        last = "" if self.last is None else str(self.last)
        return Resumed(self.events, self.attempts, last, None, self.stopped, self._outcome_result())
