"""The completion boundary: one stream, through every layer, to an honest outcome.

``consume(chunks, contract)`` feeds each read to the framing parser (SSE, NDJSON or a JSON array), hands each
complete unit to the service's contract (:mod:`lesson_lib.contracts`), and decides what the stream proves:

* ``completed`` needs BOTH the service's terminal signal with a whole-answer reason AND a clean end of the
  body (no held bytes, no unfinished line, no unfinished event, and for a JSON array its ``]``);
* a terminal signal with a cut reason (length, max tokens, safety) and a clean end is ``incomplete``;
* ``end_verified`` says whether the bytes prove where the answer ends: the terminal signal came on the last
  event and nothing but heartbeats followed it. It is ``False`` when the signal had already come on an event
  that more events followed (Gemini models that put ``STOP`` on every chunk) or when events arrived after
  the terminal: a stream cut between two events would then look the same, so such a stream keeps its
  outcome (``completed`` says what the service's signals said) but gets no ``final_text``;
* no terminal signal is ``truncated``, and ``truncated_at`` names the innermost unit the body stopped in:
  ``"character"``, ``"line"``, ``"event"``, or ``"completion"`` (every unit was whole; the service just
  never said it was done);
* what the stream contains never raises: invalid UTF-8 and malformed framing or JSON are ``decode_error``,
  a bound reached is ``limit_exceeded``, an in-band error is ``service_error``, an exception from the chunk
  source (a network error) is ``truncated`` with the error recorded, and ``cancel`` gives ``cancelled``.

``stream_updates`` is the same pipeline as a generator, for live display; ``consume`` simply drains it.
Either way the chunk source is closed exactly once, on every path (see :func:`stream_updates`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from .contracts import (
    FinishReason,
    Heartbeat,
    ServiceError,
    Signal,
    Stage,
    Terminal,
    TextDelta,
    Unknown,
    get_contract,
)
from .errors import (
    BoundaryError,
    FramingError,
    IncompleteStreamError,
    LimitExceededError,
    StreamDecodeError,
    TruncatedCharacterError,
)
from .lines import DEFAULT_MAX_LINE_CHARS
from .ndjson import DEFAULT_MAX_ELEMENT_CHARS, JSONArrayParser, NDJSONParser
from .options import check_int
from .sse import DEFAULT_MAX_EVENT_CHARS, Comment, SSEParser
from .values import VALUE_SIGNALS, ToolCall, ValueAssembler

__all__ = [
    "DEFAULT_LIMITS",
    "Outcome",
    "StreamError",
    "StreamResult",
    "StreamStats",
    "StreamUpdates",
    "check_options",
    "consume",
    "stream_updates",
]

#: The default bounds. Every buffer is bounded unless the caller passes ``None`` for a limit.
DEFAULT_LIMITS: dict[str, int] = {
    "max_line_chars": DEFAULT_MAX_LINE_CHARS,  # one SSE or NDJSON line, in characters (4 Mi)
    "max_event_chars": DEFAULT_MAX_EVENT_CHARS,  # one SSE event's data, in characters (16 Mi)
    "max_element_chars": DEFAULT_MAX_ELEMENT_CHARS,  # one JSON array element, in characters (16 Mi)
    "max_events": 1_000_000,  # events (SSE events, NDJSON values, array elements) in one stream
    "max_bytes_without_progress": 1024 * 1024,  # bytes since the last text delta or business stage
    "max_tool_arguments_chars": DEFAULT_MAX_EVENT_CHARS,  # one tool call's arguments text, in characters
}


class Outcome(enum.StrEnum):
    """What a stream proved. ``str(outcome)`` is its value, e.g. ``"completed"``."""

    COMPLETED = "completed"  # terminal signal with a whole-answer reason, and a clean end of body
    INCOMPLETE = "incomplete"  # the service ended it, but cut: length, max tokens, safety...
    TRUNCATED = "truncated"  # the stream stopped before the service said it was done
    SERVICE_ERROR = "service_error"  # the service reported an error in-band
    DECODE_ERROR = "decode_error"  # invalid UTF-8, or malformed framing or JSON
    LIMIT_EXCEEDED = "limit_exceeded"  # a buffer or count bound was reached
    CANCELLED = "cancelled"  # the caller cancelled between reads


@dataclass(frozen=True)
class StreamError:
    """What went wrong and where. Carries no answer text.

    ``kind`` is the exception's class name (``"StreamDecodeError"``, ``"FramingError"``,
    ``"LimitExceededError"``, the source's own exception such as ``"ConnectionResetError"``) or
    ``"ServiceError"``. ``offset`` is an absolute byte offset: exact when the parser reports it
    (``offset_exact`` is ``True``), otherwise the end of the read in which the problem was detected
    (``offset_exact`` is ``False``: an in-band service error, ``max_events``, a contract's JSON error). For
    a source error it is how many bytes had arrived; for ``max_bytes_without_progress`` the first byte past
    the bound, counted from the end of the read that carried the last progress signal.
    ``event_index`` is 0-based.
    """

    kind: str
    message: str
    offset: int | None = None
    event_index: int | None = None
    line_index: int | None = None
    error_type: str | None = None  # the service's own error type or code (service errors)
    limit: str | None = None  # which limit (limit_exceeded)
    maximum: int | None = None  # its value
    offset_exact: bool = True  # False: ``offset`` is only the end of the read where it was detected


@dataclass
class StreamStats:
    """Counts about one stream, never its content.

    ``read_sizes`` is a histogram of read sizes in power-of-two buckets: key ``k`` counts reads of
    ``k`` to ``2k - 1`` bytes (key 0 counts empty reads). ``reads_ending_mid_*`` count the reads after
    which a unit was unfinished (what a per-chunk parser would corrupt). ``*_after_terminal`` count what
    arrived after the service's terminal signal (bytes: in reads after the one that carried it).
    """

    bytes: int = 0
    reads: int = 0
    read_sizes: dict[int, int] = field(default_factory=dict)
    events: int = 0
    heartbeats: int = 0
    unknown_events: int = 0
    deltas: int = 0
    stages: int = 0
    text_chars: int = 0
    max_held_bytes: int = 0
    max_pending_line_chars: int = 0
    max_pending_event_chars: int = 0
    reads_ending_mid_character: int = 0
    reads_ending_mid_line: int = 0
    reads_ending_mid_event: int = 0
    bytes_after_terminal: int = 0
    events_after_terminal: int = 0
    error_offset: int | None = None
    error_event_index: int | None = None
    contract: dict[str, int] = field(default_factory=dict)  # contract anomaly counters

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class StreamResult:
    """The outcome of one stream.

    ``text`` is the text of the complete events received (provisional unless completed); ``final_text`` is
    the same text only when ``outcome`` is ``completed`` AND ``end_verified`` (the bytes prove the end), else
    ``None``. ``finish_reason`` is the service's own word (the terminal's, else the last one seen).
    ``truncated_at`` is set only for ``truncated``. ``end_verified`` is ``True`` only for ``completed`` and
    ``incomplete`` streams whose terminal signal came on the last event: see the module docstring.

    ``tool_calls`` are the tool calls in the order they started (:class:`~lesson_lib.values.ToolCall`):
    each says whether the service closed it (``complete``), and only a complete call whose whole text
    parses has ``arguments``; a complete call whose text does not parse has ``error`` instead. A complete
    call in a stream that is not ``completed`` is whole, but the answer around it is not.
    ``reasoning_text`` is the reasoning (thinking) the service sent beside the answer: never in ``text``.
    """

    outcome: Outcome
    text: str
    final_text: str | None
    finish_reason: str | None
    truncated_at: str | None
    error: StreamError | None
    stats: StreamStats
    contract: str = ""
    end_verified: bool = False
    tool_calls: list[ToolCall] = field(default_factory=list)
    reasoning_text: str = ""

    def describe(self) -> str:
        """One human paragraph about what happened and why; counts only, never the answer text."""
        s, err = self.stats, self.error
        name = f"The {self.contract} stream" if self.contract else "The stream"
        reason = (
            f'finish reason "{self.finish_reason}"' if self.finish_reason is not None else "no finish reason"
        )
        where = _where(err)
        if self.outcome is Outcome.COMPLETED and self.end_verified:
            text = f"{name} completed: the service's terminal signal arrived ({reason}) and the body ended "
            text += "cleanly, so the text is final."
        elif self.outcome is Outcome.COMPLETED:
            text = f"{name} completed by its signals ({reason}, and the body ended cleanly), but its end "
            text += f"cannot be verified: {self._unverified_why()} A stream cut there would look the same, "
            text += "so the text is not called final."
        elif self.outcome is Outcome.INCOMPLETE:
            text = f"{name} ended incomplete: the service said it was done ({reason}), but not with a "
            text += "whole-answer reason, so the text is a cut answer."
            if not self.end_verified:
                text += f" Its end cannot be verified either: {self._unverified_why()}"
        elif self.outcome is Outcome.TRUNCATED:
            cut = _TRUNCATION[self.truncated_at or "completion"]
            if self.truncated_at == "event":
                cut += _EVENT_END.get(self.contract, " (its end never came)")
            text = f"{name} was truncated {cut}, with {reason} seen"
            if err is not None:
                text += f"; the source raised {err.kind}{where}"
            text += ", so the text is provisional."
        elif self.outcome is Outcome.SERVICE_ERROR:
            kind = f" of type {err.error_type}" if err is not None and err.error_type else ""
            message = f": {err.message!r}" if err is not None and err.message else ""
            text = f"{name} ended with an in-band service error{kind}{message}{where}; the text before it "
            text += "is provisional."
        elif self.outcome is Outcome.DECODE_ERROR:
            text = f"{name} stopped at a decoding error ({err.kind if err else 'unknown'}){where}; nothing "
            text += "after it was used and the text before it is provisional."
        elif self.outcome is Outcome.LIMIT_EXCEEDED:
            limit = f"{err.limit}={err.maximum}" if err is not None else "a limit"
            text = f"{name} stopped because {limit} was exceeded{where}; the source was closed and the text "
            text += "is provisional."
        else:
            text = f"{name} was cancelled by the caller between reads; the text is provisional."
        if err is not None and self.outcome in (Outcome.COMPLETED, Outcome.INCOMPLETE):
            text += f" The source then raised {err.kind} after the end, which changed nothing."
        text += (
            f" {_plural(s.bytes, 'byte')} arrived in {_plural(s.reads, 'read')}, carrying "
            f"{_plural(s.events, 'event')} ({_plural(s.deltas, 'text delta')}, "
            f"{_plural(s.heartbeats, 'heartbeat')}, {s.unknown_events} unknown) and "
            f"{_plural(s.text_chars, 'character')} of text."
        )
        text += _values_sentence(self.tool_calls, self.reasoning_text)
        if s.events_after_terminal or s.bytes_after_terminal:
            text += (
                f" After the terminal signal {_plural(s.events_after_terminal, 'more event')} and "
                f"{_plural(s.bytes_after_terminal, 'more byte')} arrived; they were checked, not appended."
            )
        return text


    def _unverified_why(self) -> str:
        if self.stats.events_after_terminal:
            return (
                f"{_plural(self.stats.events_after_terminal, 'more event')} came after the terminal signal."
            )
        return "the same signal had already come on an earlier event that more events followed."


def _values_sentence(calls: list[ToolCall], reasoning: str) -> str:
    """Counts only: how many tool calls, how many closed, how many unparseable; reasoning length."""
    if not calls and not reasoning:
        return ""
    parts = []
    if calls:
        closed = sum(call.complete for call in calls)
        bad = sum(call.complete and call.error is not None for call in calls)
        part = f"{_plural(len(calls), 'tool call')} ({closed} closed by the service, "
        part += f"{len(calls) - closed} open" + (f", {bad} whose arguments did not parse" if bad else "")
        parts.append(part + ")")
    if reasoning:
        parts.append(f"{_plural(len(reasoning), 'character')} of reasoning, kept apart from the text")
    return " It carried " + " and ".join(parts) + "."


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


_TRUNCATION = {
    "character": "in the middle of a UTF-8 character, the decoder still holding its first bytes",
    "line": "in the middle of a line",
    "event": "inside an event",
    "completion": "at a clean boundary, before the service's own completion signal",
}


#: What would have ended an event, in each framing.
_EVENT_END = {
    "gemini-json-array": " (an array element whose closing bracket never came)",
    "ollama": " (a JSON line whose line feed never came)",
    **{
        name: " (its fields arrived, its blank line never did)"
        for name in ("openai-chat", "openai-responses", "anthropic-messages", "gemini")
    },
}


def _where(err: StreamError | None) -> str:
    if err is None:
        return ""
    parts = []
    if err.offset is not None:
        # Never an exact-looking offset that is only where the read ended.
        parts.append(
            f" at byte offset {err.offset}"
            if err.offset_exact
            else f" in the read ending at byte {err.offset}"
        )
    if err.event_index is not None:
        parts.append(f" (event {err.event_index})")
    return "".join(parts)


class _Activity(Protocol):
    """What ``stream_updates`` reports to, e.g. :class:`lesson_lib.activity.ActivityClocks`."""

    def on_bytes(self, n: int) -> None: ...
    def on_event(self) -> None: ...
    def on_progress(self) -> None: ...


_PROGRESS = (TextDelta, Stage, FinishReason, Terminal, *VALUE_SIGNALS)


def _cancel_check(cancel: object) -> Callable[[], bool]:
    if cancel is None:
        return lambda: False
    is_set = getattr(cancel, "is_set", None)  # threading.Event, asyncio.Event
    if callable(is_set):
        return lambda: bool(is_set())
    if callable(cancel):
        return lambda: bool(cancel())
    raise TypeError("cancel must be a callable or have an is_set() method (threading.Event)")


class _Run:
    """The state of one stream through the pipeline. ``updates()`` drives it; ``result()`` judges it."""

    def __init__(self, contract: str, errors: str, limits: dict[str, int | None], activity: Any) -> None:
        self.contract = get_contract(contract)
        self.framing = self.contract.framing
        self.limits = limits
        self.activity = activity
        if self.framing == "sse":
            self.parser: Any = SSEParser(
                errors=errors,
                max_line_chars=limits["max_line_chars"],
                max_event_chars=limits["max_event_chars"],
                comments=True,
            )
        elif self.framing == "ndjson":
            self.parser = NDJSONParser(errors=errors, max_line_chars=limits["max_line_chars"])
        else:
            self.parser = JSONArrayParser(errors=errors, max_element_chars=limits["max_element_chars"])
        self.stats = StreamStats()
        self.parts: list[str] = []
        self.outcome: Outcome | None = None
        self.truncated_at: str | None = None
        self.error: StreamError | None = None
        self.terminal: Terminal | None = None
        self.finish_reason: str | None = None
        self.progress_mark = 0  # stream offset (end of the read) of the last progress signal
        self.values = ValueAssembler(limits["max_tool_arguments_chars"])

    # -- driving -----------------------------------------------------------------------------------------
    def updates(self, chunks: Iterable[bytes], cancelled: Callable[[], bool]) -> Iterator[Signal]:
        """Yield the signals worth showing (none after the terminal) until the stream's outcome is known."""
        try:
            reads = iter(chunks)
        except Exception as exc:
            self.source_failed(exc)
            return
        stall_limit = self.limits["max_bytes_without_progress"]
        while True:
            if cancelled():
                self.outcome = Outcome.CANCELLED
                return
            try:
                chunk = next(reads)
            except StopIteration:
                break
            except Exception as exc:  # the transport failed: the body stopped here
                self.source_failed(exc)
                return
            fault: BoundaryError | None = None
            try:
                items = self.feed(chunk)
            except BoundaryError as exc:
                # What the same read completed before the fault still counts: the same text for every
                # chunking (every parser attaches it to the error as ``outputs``).
                items, fault = exc.outputs, exc
            try:
                if items:  # most reads of a live stream complete nothing
                    yield from self.handle(items)
                    if self.outcome is not None:
                        return
                if fault is not None:
                    raise fault
                if stall_limit is not None and self.stats.bytes - self.progress_mark > stall_limit:
                    self.fail_progress(stall_limit)
            except BoundaryError as exc:
                self.failed(exc)
                return
        yield from self.finish()

    def feed(self, chunk: bytes) -> list[Any]:
        s = self.stats
        size = len(chunk)
        s.reads += 1
        s.bytes += size
        sizes = s.read_sizes
        bucket = 1 << (size.bit_length() - 1) if size else 0  # powers of two: k counts k to 2k - 1 bytes
        sizes[bucket] = sizes.get(bucket, 0) + 1
        if self.terminal is not None:
            s.bytes_after_terminal += size
        if self.activity is not None and size:
            self.activity.on_bytes(size)
        items = self.parser.feed(chunk)
        # Sampled only after a successful feed: a failed parser's buffers mean nothing.
        held, line, event, in_event = self.parser.pending_sizes()
        if held:
            s.reads_ending_mid_character += 1
            if held > s.max_held_bytes:
                s.max_held_bytes = held
        if line:
            s.reads_ending_mid_line += 1
            if line > s.max_pending_line_chars:
                s.max_pending_line_chars = line
        if event > s.max_pending_event_chars:
            s.max_pending_event_chars = event
        if in_event:
            s.reads_ending_mid_event += 1
        return items

    def handle(self, items: list[Any]) -> Iterator[Signal]:
        s = self.stats
        for item in items:
            if self.activity is not None:
                self.activity.on_event()
            if isinstance(item, Comment):
                s.heartbeats += 1
                if self.terminal is None:
                    yield Heartbeat("comment")
                continue
            s.events += 1
            maximum = self.limits["max_events"]
            if maximum is not None and s.events > maximum:
                raise _inexact(
                    LimitExceededError(
                        "max_events", maximum, offset=self.parser.bytes_in, event_index=s.events - 1
                    )
                )
            if self.terminal is not None:  # checked by the layers below, never appended
                s.events_after_terminal += 1
                continue
            try:
                signals = self.contract.interpret(item)
            except FramingError as exc:
                if exc.offset is None:  # the contract sees an event, not its bytes: the read's end
                    exc.offset = self.parser.bytes_in
                    _inexact(exc)
                exc.event_index = s.events - 1 if exc.event_index is None else exc.event_index
                raise
            for signal in signals:
                self.apply(signal)
                yield signal
                if self.outcome is not None or self.terminal is not None:
                    break  # a service error ends the stream; after a terminal nothing is appended
            if self.outcome is not None:
                return

    def apply(self, signal: Signal) -> None:
        s = self.stats
        if isinstance(signal, _PROGRESS):
            self.progress_mark = self.parser.bytes_in
            if self.activity is not None:
                self.activity.on_progress()
        if isinstance(signal, TextDelta):
            s.deltas += 1
            s.text_chars += len(signal.text)
            self.parts.append(signal.text)
        elif isinstance(signal, Stage):
            s.stages += 1
        elif isinstance(signal, FinishReason):
            self.finish_reason = signal.reason
        elif isinstance(signal, Terminal):
            self.terminal = signal
            self.finish_reason = signal.finish_reason
        elif isinstance(signal, Heartbeat):
            s.heartbeats += 1
        elif isinstance(signal, Unknown):
            s.unknown_events += 1
        elif isinstance(signal, VALUE_SIGNALS):  # tool calls and reasoning: lesson_lib.values
            self.values.apply(signal, offset=self.parser.bytes_in, event_index=s.events - 1)
        elif isinstance(signal, ServiceError):
            self.outcome = Outcome.SERVICE_ERROR
            self.error = StreamError(
                "ServiceError",
                signal.message,
                offset=self.parser.bytes_in,
                event_index=s.events - 1,
                error_type=signal.error_type,
                offset_exact=False,
            )

    def in_event(self) -> bool:
        if self.framing == "sse":
            return bool(self.parser.has_pending_event)
        if self.framing == "json-array":
            return bool(self.parser.in_element)
        return False  # NDJSON: a value is one line

    def fail_progress(self, maximum: int) -> None:
        """Raise: more than ``maximum`` bytes arrived since the last sign of progress."""
        # Exact by the documented count: the first byte past the bound, counted from the end of the read
        # that carried the last progress signal.
        raise LimitExceededError(
            "max_bytes_without_progress",
            maximum,
            offset=self.progress_mark + maximum,
            event_index=self.stats.events,
        )

    def finish(self) -> Iterator[Signal]:
        """End of body: find the innermost unfinished unit, close the parser, apply implied signals."""
        cut = self.cut_unit()
        fault: BoundaryError | None = None
        try:
            items = self.parser.close()
        except TruncatedCharacterError as exc:
            items, cut = getattr(exc, "completed", None) or [], "character"
        except IncompleteStreamError as exc:
            items = getattr(exc, "completed", None) or []
            cut = cut or {"line": "line", "element": "event"}.get(exc.unit, "completion")
        except BoundaryError as exc:
            items, fault = getattr(exc, "completed", None) or [], exc
        try:
            yield from self.handle(items)
            if fault is not None and self.outcome is None:
                raise fault
        except BoundaryError as exc:
            self.failed(exc)
            return
        if self.outcome is not None:
            return
        array_open = self.framing == "json-array" and not self.parser.closed
        if cut is None and not array_open and self.terminal is None:
            for signal in self.contract.end():
                self.apply(signal)
                yield signal
        if self.terminal is not None and cut is None and not array_open:
            self.outcome = Outcome.COMPLETED if self.terminal.complete else Outcome.INCOMPLETE
        else:
            self.outcome = Outcome.TRUNCATED
            self.truncated_at = cut or "completion"

    def cut_unit(self) -> str | None:
        """The innermost unit the body is inside right now, or None at a clean unit boundary."""
        if self.parser.held_bytes:
            return "character"
        line = getattr(self.parser, "pending_line", "")
        if line and (self.framing == "sse" or line.strip()):  # NDJSON ignores blank lines
            return "line"
        if self.in_event():
            return "event"
        return None

    # -- failures ----------------------------------------------------------------------------------------
    def failed(self, exc: BoundaryError) -> None:
        if isinstance(exc, LimitExceededError):
            self.outcome = Outcome.LIMIT_EXCEEDED
            limit, maximum = exc.limit, exc.maximum
        else:  # StreamDecodeError, FramingError, and any other boundary error the parsers raise
            self.outcome = Outcome.DECODE_ERROR
            limit = maximum = None
        message = str(exc) if isinstance(exc, StreamDecodeError) else exc.message
        self.error = StreamError(
            type(exc).__name__,
            message,
            offset=exc.offset,
            event_index=self.stats.events if exc.event_index is None else exc.event_index,
            line_index=exc.line_index,
            limit=limit,
            maximum=maximum,
            offset_exact=exc.offset_exact,
        )

    def source_failed(self, exc: Exception) -> None:
        """The chunk source raised: the body stopped where it was (truncated), with the error recorded."""
        cut = self.cut_unit()
        self.error = StreamError(type(exc).__name__, str(exc), offset=self.stats.bytes)
        if self.terminal is not None and cut is None:
            # Every byte up to a clean boundary after the service's own terminal arrived: what failed came
            # after the answer, so the terminal's verdict stands (the error is kept in ``error``).
            self.outcome = Outcome.COMPLETED if self.terminal.complete else Outcome.INCOMPLETE
        else:
            self.outcome = Outcome.TRUNCATED
            self.truncated_at = cut or "completion"

    # -- verdict -----------------------------------------------------------------------------------------
    def result(self) -> StreamResult:
        assert self.outcome is not None
        s = self.stats
        s.contract = dict(self.contract.counters)
        if self.error is not None:
            s.error_offset, s.error_event_index = self.error.offset, self.error.event_index
        text = "".join(self.parts)
        end_verified = (
            self.outcome in (Outcome.COMPLETED, Outcome.INCOMPLETE)
            and not self.contract.end_signal_repeated
            and not s.events_after_terminal
        )
        return StreamResult(
            outcome=self.outcome,
            text=text,
            final_text=text if self.outcome is Outcome.COMPLETED and end_verified else None,
            finish_reason=self.finish_reason,
            truncated_at=self.truncated_at,
            error=self.error,
            stats=s,
            contract=self.contract.name,
            end_verified=end_verified,
            tool_calls=self.values.tool_calls(),
            reasoning_text=self.values.reasoning_text,
        )


def _inexact(exc: BoundaryError) -> BoundaryError:
    """Mark an error raised here whose offset is only the end of the current read."""
    exc.offset_exact = False
    return exc


def _close_source(chunks: object) -> None:
    close = getattr(chunks, "close", None)
    if callable(close):
        close()


def stream_updates(
    chunks: Iterable[bytes],
    contract: str,
    *,
    cancel: Callable[[], bool] | Any = None,
    activity: _Activity | None = None,
    errors: str = "strict",
    max_line_chars: int | None = DEFAULT_LIMITS["max_line_chars"],
    max_event_chars: int | None = DEFAULT_LIMITS["max_event_chars"],
    max_element_chars: int | None = DEFAULT_LIMITS["max_element_chars"],
    max_events: int | None = DEFAULT_LIMITS["max_events"],
    max_bytes_without_progress: int | None = DEFAULT_LIMITS["max_bytes_without_progress"],
    max_tool_arguments_chars: int | None = DEFAULT_LIMITS["max_tool_arguments_chars"],
) -> StreamUpdates:
    """Run one stream through every layer, yielding live updates, then the :class:`StreamResult` last.

    Updates are the contract's signals (:class:`TextDelta`, :class:`Stage`, :class:`Heartbeat`,
    :class:`FinishReason`, :class:`Terminal`, :class:`ServiceError`, :class:`Unknown`) in stream order;
    nothing is yielded for events after the terminal signal. The final item is always the result, yielded
    after the source has been closed.

    Cleanup guarantee: ``chunks.close()`` (if it exists) is called exactly once on every path: terminal
    and end of body, service error, decode error, limit, source exception, ``cancel``, and the caller
    closing the updates early (``break`` then ``close()``, a ``with`` block, or garbage collection), even
    before the first read. ``cancel`` (a callable or a ``threading.Event``) is checked before every read.

    ``activity``, if given, is told ``on_bytes(n)`` per read, ``on_event()`` per event or comment and
    ``on_progress()`` per text delta, stage, finish reason or terminal (see :mod:`lesson_lib.activity`).

    Limits (``None`` lifts one; defaults in :data:`DEFAULT_LIMITS`): ``max_line_chars`` (SSE and NDJSON
    lines), ``max_event_chars`` (SSE event data), ``max_element_chars`` (JSON array element),
    ``max_events``, ``max_bytes_without_progress`` (checked after each read, counted from the end of the
    read that carried the last progress signal), ``max_tool_arguments_chars`` (one tool call's arguments
    text). ``errors="replace"`` decodes as a browser does.

    Raises only for the caller's mistakes: an unknown contract name (``ValueError``) or a bad option.
    """
    limits = {
        "max_line_chars": max_line_chars,
        "max_event_chars": max_event_chars,
        "max_element_chars": max_element_chars,
        "max_events": max_events,
        "max_bytes_without_progress": max_bytes_without_progress,
        "max_tool_arguments_chars": max_tool_arguments_chars,
    }
    try:
        run, cancelled = _prepare(contract, cancel, activity, errors, limits)
    except BaseException:
        _close_source(chunks)  # the caller's mistake: the source is still released
        raise
    return StreamUpdates(run, chunks, cancelled)


def _prepare(
    contract: str, cancel: object, activity: Any, errors: str, limits: dict[str, int | None]
) -> tuple[_Run, Callable[[], bool]]:
    """Check every argument (every limit, whatever the framing uses) and build the run; no I/O."""
    for name, value in limits.items():
        check_int(name, value, minimum=1, none=True)
    cancelled = _cancel_check(cancel)
    return _Run(contract, errors, limits, activity), cancelled


def check_options(
    contract: str,
    *,
    cancel: Callable[[], bool] | Any = None,
    activity: _Activity | None = None,
    errors: str = "strict",
    max_line_chars: int | None = DEFAULT_LIMITS["max_line_chars"],
    max_event_chars: int | None = DEFAULT_LIMITS["max_event_chars"],
    max_element_chars: int | None = DEFAULT_LIMITS["max_element_chars"],
    max_events: int | None = DEFAULT_LIMITS["max_events"],
    max_bytes_without_progress: int | None = DEFAULT_LIMITS["max_bytes_without_progress"],
    max_tool_arguments_chars: int | None = DEFAULT_LIMITS["max_tool_arguments_chars"],
) -> None:
    """Raise exactly what :func:`stream_updates` would raise for these arguments, without a source.

    For callers that must refuse a bad argument before any I/O (:mod:`lesson_lib.http` checks the
    contract and the options before it sends a request). An unknown keyword is a ``TypeError``.
    """
    limits = {
        "max_line_chars": max_line_chars,
        "max_event_chars": max_event_chars,
        "max_element_chars": max_element_chars,
        "max_events": max_events,
        "max_bytes_without_progress": max_bytes_without_progress,
        "max_tool_arguments_chars": max_tool_arguments_chars,
    }
    _prepare(contract, cancel, activity, errors, limits)


class _OwnedSource:
    """A chunk source and whether it has been closed: closed once, by whoever gets there first."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self.chunks = chunks
        self.open = True

    def release(self) -> None:
        if self.open:
            self.open = False
            _close_source(self.chunks)


def _generate(
    run: _Run, source: _OwnedSource, cancelled: Callable[[], bool]
) -> Generator[Signal | StreamResult, None, None]:
    try:
        yield from run.updates(source.chunks, cancelled)
    finally:
        source.release()
    yield run.result()


class StreamUpdates:
    """What :func:`stream_updates` returns: an iterator of live updates ending with the result.

    It owns the chunk source from the moment it exists, not from the first ``next()``: a generator that
    is closed (or dropped) before it ever ran would skip its ``finally``, and an HTTP response passed in
    would leak. So ``close()``, the end of a ``with`` block, or garbage collection closes the source,
    exactly once, whether or not anything was read.
    """

    def __init__(self, run: _Run, chunks: Iterable[bytes], cancelled: Callable[[], bool]) -> None:
        # The generator must not refer back to this object: a cycle would keep it alive after a
        # ``break`` until the garbage collector runs, and the source open with it.
        self._source = _OwnedSource(chunks)
        self._updates = _generate(run, self._source, cancelled)

    def __iter__(self) -> StreamUpdates:
        return self

    def __next__(self) -> Signal | StreamResult:
        return next(self._updates)

    def close(self) -> None:
        """Stop reading: the source is closed (once), and no result follows."""
        self._updates.close()
        self._source.release()

    def __enter__(self) -> StreamUpdates:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()


def consume(chunks: Iterable[bytes], contract: str, **options: Any) -> StreamResult:
    """Read the whole stream and return its :class:`StreamResult`. Never raises for what the stream
    contains; closes the source exactly once. ``options`` are those of :func:`stream_updates`."""
    result: StreamResult | None = None
    for update in stream_updates(chunks, contract, **options):
        if isinstance(update, StreamResult):
            result = update
    assert result is not None
    return result
