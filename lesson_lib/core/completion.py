"""The completion boundary: one stream, through every layer, to an honest outcome.

``consume(chunks, contract)`` feeds each read to the framing parser (SSE, NDJSON or a JSON array), hands each
complete unit to the service's contract (:mod:`lesson_lib.core.contracts`), and decides what the stream
proves:

* ``completed`` needs BOTH the service's terminal signal with a whole-answer reason AND a clean end of the
  body (no held bytes, no unfinished line, no unfinished event, and for a JSON array its ``]``);
* a terminal signal with a cut reason (length, max tokens, safety) and a clean end is ``incomplete``;
* ``end_verified`` says whether the bytes prove where the answer ends: the terminal signal came on the last
  event and nothing but heartbeats followed it. It is ``False`` when the signal had already come on an event
  that more events followed (Gemini models that put ``STOP`` on every chunk) or when events arrived after
  the terminal: a stream cut between two events would then look the same, so such a stream keeps its
  outcome (``completed`` says what the service's signals said) but gets no ``final_text``;
* no terminal signal is ``truncated``, and ``truncated_at`` names the innermost unit the body stopped in (a
  :class:`Unit`): ``"character"``, ``"line"``, ``"event"``, or ``"completion"`` (every unit was whole; the
  service just never said it was done);
* what the stream contains never raises: invalid UTF-8 and malformed framing or JSON are ``decode_error``,
  a bound reached is ``limit_exceeded``, an in-band error is ``service_error``, an exception from the chunk
  source (a network error) is ``truncated`` with the error recorded, and ``cancel`` gives ``cancelled``. A
  source that decodes below the chunk boundary (a content coding: :mod:`lesson_lib.core.inflate`) and
  raises :class:`~lesson_lib.core.errors.StreamDecodeError` or
  :class:`~lesson_lib.core.errors.LimitExceededError` is judged as a parser raising it:
  ``decode_error`` or ``limit_exceeded``, its offset as that layer gave it.

The one question to ask before storing or acting on an answer is ``result.is_final``: ``completed`` AND
``end_verified`` (then, and only then, ``final_text`` is set). Branching on ``outcome`` alone accepts the cut
streams above that keep ``completed``.

``stream_updates`` is the same pipeline as a generator, for live display; ``consume`` simply drains it.
Either way the chunk source is closed exactly once, on every path (see :func:`stream_updates`).

``StreamResult.describe()`` says all this in words, but this module has none: the words (and their language)
come from the wording ``lesson_lib.i18n`` registers (:mod:`lesson_lib.core.wording`).
"""

from __future__ import annotations

import asyncio
import enum
import time
from collections.abc import AsyncGenerator, AsyncIterable, Callable, Generator, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, Unpack

from .activity import StreamTimeouts, check_timeouts, timeout_message
from .contracts import (
    CONTRACTS,
    Contract,
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
from .enums import ValueEnum
from .errors import (
    BoundaryError,
    FramingError,
    IncompleteStreamError,
    LimitExceededError,
    StreamDecodeError,
    TruncatedCharacterError,
)
from .framing import DispatchMarks, Framing, FramingParser, framing
from .lines import DEFAULT_MAX_LINE_CHARS
from .ndjson import DEFAULT_MAX_ELEMENT_CHARS
from .options import ActivityReporter as _Activity
from .options import ConsumeOptions, check_int
from .sse import DEFAULT_MAX_EVENT_CHARS, Comment
from .think_tags import ThinkTagSplitter
from .values import VALUE_SIGNALS, ToolCall, ValueAssembler
from .wording import wording

__all__ = [
    "DEFAULT_LIMITS",
    "AStreamUpdates",
    "ConsumeOptions",
    "Outcome",
    "StreamError",
    "StreamJudge",
    "StreamResult",
    "StreamStats",
    "StreamUpdates",
    "Unit",
    "aconsume",
    "astream_updates",
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
    TIMED_OUT = "timed_out"  # a clock ran out (idle_timeout, progress_timeout or deadline: error.kind)


class Unit(ValueEnum):
    """The unit a truncated stream stopped in (``StreamResult.truncated_at``), innermost first. A ``str``
    enum that prints, formats and reprs as its value (:mod:`lesson_lib.core.enums`)."""

    CHARACTER = "character"  # the decoder held the first bytes of a UTF-8 character
    LINE = "line"  # a line had begun, its line feed never came
    EVENT = "event"  # an event (SSE fields, a JSON array element) had begun, its end never came
    COMPLETION = "completion"  # every unit was whole; the service never said it was done


@dataclass(frozen=True)
class StreamError:
    """What went wrong and where. Carries no answer text.

    ``kind`` is the exception's class name (``"StreamDecodeError"``, ``"FramingError"``,
    ``"LimitExceededError"``, the source's own exception such as ``"ConnectionResetError"``) or
    ``"ServiceError"``. ``offset`` is an absolute byte offset: exact when the parser reports it
    (``offset_exact`` is ``True``), otherwise the end of the read in which the problem was detected
    (``offset_exact`` is ``False``: an in-band service error, ``max_events``, a contract's JSON error). For
    a source error it is how many bytes had arrived; ``max_bytes_without_progress`` is checked after each
    read, counting from the end of the read that carried the last progress signal, so its offset is the end
    of the read in which the bound was crossed (not exact).
    ``event_index`` is 0-based.

    A ``timed_out`` stream's ``kind`` (and ``limit``) is the :class:`~lesson_lib.core.activity.Clock` that
    ran out: ``"idle_timeout"``, ``"progress_timeout"`` or ``"deadline"``.
    """

    kind: str
    message: str
    offset: int | None = None
    event_index: int | None = None
    line_index: int | None = None
    error_type: str | None = None  # the service's own error type or code (service errors)
    limit: str | None = None  # which limit (limit_exceeded)
    maximum: float | None = None  # its value (a timed_out error: the clock's limit in seconds)
    offset_exact: bool = True  # False: ``offset`` is only the end of the read where it was detected
    cause: str | None = None  # timed_out: the exception that ended the read, if one did

    def describe(self) -> str:
        """The message in the current language (the registered wording, :mod:`lesson_lib.core.wording`): a
        clock that ran out worded by the course; any other message as it was written (a service's own words,
        an exception's English message). ``message`` itself stays as it is."""
        return wording().error(self)


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

    ``tool_calls`` are the tool calls in the order they started (:class:`~lesson_lib.core.values.ToolCall`):
    each says whether the service closed it (``complete``), and only a complete call whose whole text
    parses has ``arguments``; a complete call whose text does not parse has ``error`` instead. A complete
    call in a stream that is not ``completed`` is whole, but the answer around it is not.
    ``reasoning_text`` is the reasoning (thinking) the service sent beside the answer: never in ``text``.

    ``last_event_id`` (SSE) is the last event ID string, what a reconnection sends (``""`` if none);
    ``retry`` (SSE) the last valid ``retry`` field in milliseconds, or ``None``. Both are those of the last
    event the application was given: at the end of the body, the parser's; when the stream stopped inside
    a read (a service error, ``max_events``, a contract's or a tool call's error), those at that event's
    dispatch, not those of fields the parser read after it, so they are the same in every chunking and a
    resume from them skips no event that was not handled.

    :attr:`is_final` is the one question to ask before storing or acting on the answer: is it final?
    Branching on ``outcome`` alone is not enough (``completed`` with ``end_verified=False`` is a Gemini
    stream that may have been cut between two events, or one with events after its terminal signal).
    """

    outcome: Outcome
    text: str
    final_text: str | None
    finish_reason: str | None
    truncated_at: Unit | None
    error: StreamError | None
    stats: StreamStats
    contract: str = ""
    end_verified: bool = False
    tool_calls: list[ToolCall] = field(default_factory=list)
    reasoning_text: str = ""
    last_event_id: str = ""  # SSE: the last event ID string (what a reconnection sends): see above
    retry: int | None = None  # SSE: the last valid retry field, in milliseconds

    @property
    def is_final(self) -> bool:
        """``True`` exactly when this answer is final and safe to store: the outcome is ``completed`` AND
        the bytes prove where the answer ends (``end_verified``). Then, and only then, ``final_text`` is
        set (``is_final == (final_text is not None)``). Every other result, including ``completed`` with
        ``end_verified=False`` and ``incomplete`` (whole stream, cut answer), is provisional: show it as
        such, do not store it as the answer. A source error reported after a proven end (``error`` set on
        a completed result) does not change it: the answer's bytes were all there."""
        return self.outcome is Outcome.COMPLETED and self.end_verified

    @property
    def withdraw_shown_text(self) -> bool:
        """``True`` when the service ended the answer with a finish reason its documentation says may call
        for withdrawing the text already shown (the contract's ``withdraw_reasons``: Zhipu's ``sensitive``,
        a stop by its safety review), whatever the outcome (a cut before ``[DONE]`` too). Then a UI should
        not only mark the text provisional but decide whether to take it back."""
        cls = CONTRACTS.get(self.contract)
        reason = self.finish_reason
        return cls is not None and reason is not None and reason in cls.withdraw_reasons

    def describe(self) -> str:
        """One human paragraph about what happened and why, in the current language; counts only, never the
        answer text. The words are the registered wording's (:mod:`lesson_lib.core.wording`: the course's
        catalogues, :mod:`lesson_lib.i18n`, in the package as shipped; plain ``name=value`` text without)."""
        return wording().describe(self)


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
    """The state of one stream through the pipeline: the ONE implementation of the layers and contracts.

    A driver feeds it; it never reads. :func:`stream_updates` (sync reads) and :func:`astream_updates`
    (async reads) are both the same few lines around these verbs, so the two cannot disagree:

    * ``stop_before_read(cancelled)``: ``True`` when the caller cancelled or a clock ran out (outcome set);
    * ``read_budget()``: how long the next read may wait (``(seconds, clock)``), ``None`` without timeouts;
    * ``step(chunk)``: one read through every layer; returns the signals worth showing, and sets the
      outcome when the read decided the stream (a service error, a decode error, a limit);
    * ``check_clocks()``: after a read returned, was it too late (a clock ran out while it was awaited)?
    * ``finish()``: the end of the body; always sets the outcome;
    * ``source_failed(exc)``, ``timed_out(clock)``: what the driver saw instead of a read;
    * ``result()``: the verdict, once the outcome is set.
    """

    def __init__(
        self,
        contract: str,
        errors: str,
        limits: dict[str, int | None],
        activity: Any,
        timeouts: StreamTimeouts | None = None,
        request_id: str | int | None = None,
        incremental_output: bool | None = None,
    ) -> None:
        self.contract: Contract = get_contract(
            contract, request_id=request_id, incremental_output=incremental_output
        )
        self.framing: Framing[Any] = framing(self.contract.framing)
        self.limits = limits
        self.activity = activity
        self.timeouts = timeouts if timeouts is not None and timeouts.active else None
        self.parser: FramingParser = self.framing.new_parser(
            errors=errors,
            max_line_chars=limits["max_line_chars"],
            max_event_chars=limits["max_event_chars"],
            max_element_chars=limits["max_element_chars"],
        )
        #: SSE: ``(unit, events) -> (last event ID, retry)`` just after a dispatch; ``None`` for the others.
        self.marks: DispatchMarks | None = self.framing.dispatch_marks(self.parser)
        self.stats = StreamStats()
        self.parts: list[str] = []
        self.keep_text = True  # False: the text deltas are counted, not kept (``keep_text=False``)
        #: ``think_tags=True``: the answer text's ``<think>`` ... ``</think>`` parts become reasoning.
        self.think: ThinkTagSplitter | None = None
        self.outcome: Outcome | None = None
        self.truncated_at: Unit | None = None
        self.error: StreamError | None = None
        self.terminal: Terminal | None = None
        self.finish_reason: str | None = None
        self.progress_mark = 0  # stream offset (end of the read) of the last progress signal
        self.values = ValueAssembler(limits["max_tool_arguments_chars"])
        # SSE: the last event ID string and the retry just after the dispatch of the last event the
        # application was given, for when the stream stops in the middle of a read (the parser has read
        # past that point).
        self.given_id: str = self.framing.resume_point(self.parser)[0]
        self.given_retry: int | None = None
        self.stopped_in_handle = False

    # -- what a driver calls ------------------------------------------------------------------------------
    def stop_before_read(self, cancelled: Callable[[], bool]) -> bool:
        """Before a read: ``True`` (outcome set) if the caller cancelled or a clock has run out."""
        if cancelled():
            self.outcome = Outcome.CANCELLED
            return True
        return self.check_clocks()

    def check_clocks(self) -> bool:
        """``True`` (outcome set) if one of the stream's timeouts has run out; ``False`` without any."""
        if self.timeouts is None:
            return False
        clock = self.timeouts.expired()
        if clock is None:
            return False
        self.timed_out(clock)
        return True

    def read_budget(self) -> tuple[float, str] | None:
        """``(seconds, clock)`` the next read may wait before the nearest timeout runs out, else ``None``."""
        return None if self.timeouts is None else self.timeouts.budget()

    def step(self, chunk: bytes) -> list[Signal]:
        """One read through every layer. Returns the signals worth showing (none after the terminal) and
        sets :attr:`outcome` when this read decided the stream. Never raises for what the bytes contain."""
        out: list[Signal] = []
        fault: BoundaryError | None = None
        try:
            items = self.feed(chunk)
        except BoundaryError as exc:
            # What the same read completed before the fault still counts: the same text for every
            # chunking (every parser attaches it to the error as ``outputs``).
            items, fault = exc.outputs, exc
        try:
            if items:  # most reads of a live stream complete nothing
                self.handle(items, out)
                if self.outcome is not None:
                    return out
            if fault is not None:
                raise fault
            stall_limit = self.limits["max_bytes_without_progress"]
            if stall_limit is not None and self.stats.bytes - self.progress_mark > stall_limit:
                self.fail_progress(stall_limit)
        except BoundaryError as exc:
            self.failed(exc)
        return out

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
        if self.timeouts is not None:
            self.timeouts.on_bytes(size)
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

    def handle(self, items: list[Any], out: list[Signal]) -> None:
        """Interpret complete units, appending the signals worth showing to ``out`` (kept if this raises)."""
        try:
            self._handle(items, out)
        except BoundaryError:
            self.stopped_in_handle = True
            raise
        if self.outcome is not None:
            self.stopped_in_handle = True

    def _handle(self, items: list[Any], out: list[Signal]) -> None:
        s = self.stats
        marks = self.marks
        for item in items:
            if self.activity is not None:
                self.activity.on_event()
            if self.timeouts is not None:
                self.timeouts.on_event()
            if isinstance(item, Comment):
                # A comment is a heartbeat unless the contract knows it as something else (DashScope's
                # status line on every event): proof the connection lives, never progress.
                for signal in self.contract.interpret(item):
                    if isinstance(signal, Heartbeat):
                        s.heartbeats += 1
                        if self.terminal is None:
                            out.append(signal)
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
                if marks is not None:
                    self.given_id, self.given_retry = marks(item, s.events)
                continue
            try:
                signals = self.contract.interpret(item)
            except FramingError as exc:
                if exc.offset is None:  # the contract sees an event, not its bytes: the read's end
                    exc.offset = self.parser.bytes_in
                    _inexact(exc)
                exc.event_index = s.events - 1 if exc.event_index is None else exc.event_index
                raise
            if marks is not None:  # (the retry fields read after this event in the same read left out)
                self.given_id, self.given_retry = marks(item, s.events)
            if self.think is not None:
                signals = self.think.split(signals)
            for signal in signals:
                self.apply(signal)
                out.append(signal)
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
            if self.timeouts is not None:
                self.timeouts.on_progress()
        if isinstance(signal, TextDelta):
            s.deltas += 1
            s.text_chars += len(signal.text)
            if self.keep_text:
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
        elif isinstance(signal, VALUE_SIGNALS):  # tool calls and reasoning: lesson_lib.core.values
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

    def fail_progress(self, maximum: int) -> None:
        """Raise: more than ``maximum`` bytes arrived since the last sign of progress."""
        # Checked after each read, counting from the end of the read that carried the last progress
        # signal: the bound was crossed somewhere in this read, so the offset is this read's end.
        raise _inexact(
            LimitExceededError(
                "max_bytes_without_progress",
                maximum,
                offset=self.stats.bytes,
                event_index=self.stats.events,
            )
        )

    def finish(self) -> list[Signal]:
        """End of body: find the innermost unfinished unit, close the parser, apply implied signals.
        Always sets :attr:`outcome`; returns the signals worth showing."""
        out: list[Signal] = []
        cut = self.cut_unit()
        fault: BoundaryError | None = None
        try:
            items = self.parser.close()
        except TruncatedCharacterError as exc:  # what close() completed before it raised still counts
            items, cut = exc.outputs, "character"
        except IncompleteStreamError as exc:
            items = exc.outputs
            cut = cut or {"line": "line", "element": "event"}.get(exc.unit, "completion")
        except BoundaryError as exc:
            items, fault = exc.outputs, exc
        try:
            self.handle(items, out)
            if fault is not None and self.outcome is None:
                raise fault
        except BoundaryError as exc:
            self.failed(exc)
            return out
        if self.outcome is not None:
            return out
        self.release_held_text(out)
        array_open = self.framing.open_at_end(self.parser)
        if cut is None and not array_open and self.terminal is None:
            for signal in self.contract.end():
                self.apply(signal)
                out.append(signal)
        if self.terminal is not None and cut is None and not array_open:
            self.outcome = Outcome.COMPLETED if self.terminal.complete else Outcome.INCOMPLETE
        else:
            self.outcome = Outcome.TRUNCATED
            self.truncated_at = Unit(cut or Unit.COMPLETION)
        return out

    def cut_unit(self) -> str | None:
        """The innermost unit the body is inside right now, or None at a clean unit boundary."""
        return self.framing.cut_unit(self.parser)

    # -- failures ----------------------------------------------------------------------------------------
    def failed(self, exc: BoundaryError) -> None:
        limit: str | None
        maximum: float | None
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
        """The chunk source raised: the body stopped where it was (truncated), with the error recorded.

        If one of the stream's timeouts has run out by now, the failure is that timeout (a sync read
        timeout set from it raises here): ``timed_out``, naming the clock, with the exception's name. A
        source that decodes (a content coding) and raises a decode error or a limit is judged as a parser
        raising it (:meth:`failed`): bad bytes are not a cut."""
        if isinstance(exc, (StreamDecodeError, LimitExceededError)):
            self.failed(exc)
            return
        if self.timeouts is not None:
            clock = self.timeouts.expired()
            if clock is not None:
                self.timed_out(clock, cause=exc)
                return
        self.error = StreamError(type(exc).__name__, str(exc), offset=self.stats.bytes)
        if self._flush_failed():
            return
        self._end_early(Outcome.TRUNCATED)

    def _flush_failed(self) -> bool:
        """The body stops early: bytes the SSE parser holds undecoded are decoded now, so that invalid
        UTF-8 among them is a ``decode_error`` however the reads were cut (``True``: the outcome is set)."""
        try:
            self.framing.flush(self.parser)  # (the NDJSON and JSON-array parsers decode every read at once)
        except BoundaryError as exc:
            self.failed(exc)
            return True
        return False

    def timed_out(self, clock: str, cause: BaseException | None = None) -> None:
        """A clock ran out (``"idle_timeout"``, ``"progress_timeout"`` or ``"deadline"``): ``timed_out``.

        The driver closes the source; ``error.kind`` names the clock, ``offset`` and ``event_index`` say
        how much had arrived. As for a failed source, a clock that runs out after the service's terminal
        signal (at a clean boundary) changes nothing but ``error``."""
        assert self.timeouts is not None
        limit = self.timeouts.limits[clock]
        assert limit is not None  # only a clock with a limit runs out
        cause_name = None if cause is None else type(cause).__name__
        self.error = StreamError(
            clock,
            timeout_message(clock, limit, cause_name),
            offset=self.stats.bytes,
            event_index=self.stats.events,
            limit=clock,
            maximum=limit,
            cause=cause_name,
        )
        self._end_early(Outcome.TIMED_OUT)

    def _end_early(self, outcome: Outcome) -> None:
        cut = self.cut_unit()
        if self.terminal is not None and cut is None:
            # Every byte up to a clean boundary after the service's own terminal arrived: what failed came
            # after the answer, so the terminal's verdict stands (the error is kept in ``error``).
            self.outcome = Outcome.COMPLETED if self.terminal.complete else Outcome.INCOMPLETE
        else:
            self.outcome = outcome
            if outcome is Outcome.TRUNCATED:
                self.truncated_at = Unit(cut or Unit.COMPLETION)

    def release_held_text(self, out: list[Signal] | None = None) -> None:
        """``think_tags``: the end of the answer text, so the characters held back in case they began a tag
        are text (a tag never finished is not one); applied, and appended to ``out`` if given."""
        if self.think is not None:
            for signal in self.think.close():
                self.apply(signal)
                if out is not None:
                    out.append(signal)

    # -- verdict -----------------------------------------------------------------------------------------
    def result(self) -> StreamResult:
        assert self.outcome is not None
        self.release_held_text()  # a stream stopped before its end (cancelled, timed out, failed)
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
            last_event_id=self.resume_point()[0],
            retry=self.resume_point()[1],
        )

    def resume_point(self) -> tuple[str, int | None]:
        """SSE: ``(last_event_id, retry)`` as of the last event the application was given, the same for
        every chunking: the parser's at the end when every event was handled; when the stream stopped
        inside a read (a service error, ``max_events``, a contract or tool-call error), those at that
        event's dispatch, not those of the fields the parser read after it."""
        if not self.stopped_in_handle:
            return self.framing.resume_point(self.parser)
        return self.given_id, self.given_retry  # ("", None) for a framing without them



def _inexact(exc: BoundaryError) -> BoundaryError:
    """Mark an error raised here whose offset is only the end of the current read."""
    exc.offset_exact = False
    return exc


def _close_source(chunks: object) -> None:
    close = getattr(chunks, "close", None)
    if callable(close):
        close()


def _prepare(
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
    idle_timeout: float | None = None,
    progress_timeout: float | None = None,
    deadline: float | None = None,
    clock: Callable[[], float] = time.monotonic,
    request_id: str | int | None = None,
    incremental_output: bool | None = None,
    keep_text: bool = True,
    think_tags: bool = False,
) -> tuple[_Run, Callable[[], bool]]:
    """Check every argument (every limit, whatever the framing uses; every timeout) and build the run.
    No I/O. An unknown keyword is a ``TypeError``; a bad value an ``OptionError`` (a ``ValueError``)."""
    limits = {
        "max_line_chars": max_line_chars,
        "max_event_chars": max_event_chars,
        "max_element_chars": max_element_chars,
        "max_events": max_events,
        "max_bytes_without_progress": max_bytes_without_progress,
        "max_tool_arguments_chars": max_tool_arguments_chars,
    }
    for name, value in limits.items():
        check_int(name, value, minimum=1, none=True)
    check_timeouts(idle_timeout, progress_timeout, deadline)
    if not callable(clock):
        raise TypeError("clock must be callable (-> seconds), e.g. time.monotonic")
    if not isinstance(keep_text, bool):
        raise TypeError(f"keep_text must be True or False, got {type(keep_text).__name__}")
    if not isinstance(think_tags, bool):
        raise TypeError(f"think_tags must be True or False, got {type(think_tags).__name__}")
    cancelled = _cancel_check(cancel)
    # get_contract checks the contract, request_id and incremental_output
    run = _Run(contract, errors, limits, activity, None, request_id, incremental_output)
    run.keep_text = keep_text
    if think_tags:
        run.think = ThinkTagSplitter()
    # The clocks start last, when every argument is known good: the body is about to be read.
    run.timeouts = _timeouts(idle_timeout, progress_timeout, deadline, clock)
    return run, cancelled


def _timeouts(
    idle_timeout: float | None,
    progress_timeout: float | None,
    deadline: float | None,
    clock: Callable[[], float],
) -> StreamTimeouts | None:
    if idle_timeout is None and progress_timeout is None and deadline is None:
        return None
    return StreamTimeouts(idle_timeout, progress_timeout, deadline, clock)


def check_options(contract: str, **options: Unpack[ConsumeOptions]) -> None:
    """Raise exactly what :func:`stream_updates` would raise for these arguments, without a source.

    For callers that must refuse a bad argument before any I/O (:mod:`lesson_lib.net.http` checks the
    contract and the options before it sends a request). An unknown keyword is a ``TypeError``.
    """
    _prepare(contract, **options)


def stream_updates(
    chunks: Iterable[bytes], contract: str, **options: Unpack[ConsumeOptions]
) -> StreamUpdates:
    """Run one stream through every layer, yielding live updates, then the :class:`StreamResult` last.

    Updates are the contract's signals (:class:`TextDelta`, :class:`Stage`, :class:`Heartbeat`,
    :class:`FinishReason`, :class:`Terminal`, :class:`ServiceError`, :class:`Unknown`) in stream order;
    nothing is yielded for events after the terminal signal. The final item is always the result, yielded
    after the source has been closed.

    Cleanup guarantee: ``chunks.close()`` (if it exists) is called exactly once on every path: terminal
    and end of body, service error, decode error, limit, source exception, ``cancel``, a timeout, and the
    caller closing the updates early (``break`` then ``close()``, a ``with`` block, or garbage
    collection), even before the first read.

    Raises only for the caller's mistakes: an unknown contract name (``ValueError``) or a bad option.

    Options (keyword-only, :class:`~lesson_lib.core.options.ConsumeOptions`; each checked before anything
    is read, a bad one raising an error that names it):

    * ``cancel``: a callable or an object with ``is_set()`` (``threading.Event``, ``asyncio.Event``),
      checked before every read: set, the outcome is ``cancelled``;
    * ``activity``: told ``on_bytes(n)`` per read, ``on_event()`` per event or comment and
      ``on_progress()`` per text delta, stage, finish reason or terminal (see
      :mod:`lesson_lib.core.activity`);
    * ``errors``: ``"strict"`` (default) or ``"replace"`` (decode as a browser does);
    * limits (``None`` lifts one; defaults in :data:`DEFAULT_LIMITS`): ``max_line_chars`` (SSE and NDJSON
      lines), ``max_event_chars`` (SSE event data), ``max_element_chars`` (JSON array element),
      ``max_events``, ``max_bytes_without_progress`` (checked after each read, counted from the end of the
      read that carried the last progress signal), ``max_tool_arguments_chars`` (one tool call's arguments
      text). In bytes, the framing's buffers stay within :func:`lesson_lib.core.options.stream_buffer_bound`
      for these limits (179 MiB at the defaults on SSE, strict); the answer being built (text, tool calls)
      and the JSON value of the event being handled come on top;
    * timeouts, in seconds, ``None`` by default (a positive finite number, else ``ValueError`` naming it):
      ``idle_timeout`` (no byte at all), ``progress_timeout`` (no text delta or business stage: bytes and
      heartbeats do not count), ``deadline`` (the whole answer, from the call). When one runs out the
      source is closed and the outcome is ``timed_out`` with the clock in ``error.kind``. Over sync reads
      they are judged between reads (a read that comes back after a clock ran out is not used; a sync
      source cannot be interrupted, which is why :func:`lesson_lib.net.http.stream_http` also sets its read
      timeout from them); over async reads each read is also bounded by the nearest clock. ``clock``
      (default ``time.monotonic``) is what they are measured with;
    * ``request_id``: the JSON-RPC id of the request an ``"mcp"`` stream answers (that contract only);
    * ``incremental_output``: what a ``"dashscope"`` request sent as ``parameters.incremental_output``
      (that contract only; ``None``, the default, means the parameter's documented default, ``False``:
      each event carries the whole text so far, see :class:`~lesson_lib.core.contracts.dashscope.DashScope`);
    * ``keep_text`` (``True``, a ``bool``): ``False`` keeps no answer text: the result's ``text`` is ``""``
      and its ``final_text`` ``""`` when final (``None`` otherwise, as always), while the counts
      (``stats.text_chars``, ``stats.deltas``), the outcome and every signal yielded are the same. For a
      caller that needs the verdict and not the text (``boundary-lab diagnose``): then the memory a stream
      holds is bounded by the limits, whatever the answer's length;
    * ``think_tags`` (``False``, a ``bool``): ``True`` when the service sends a model's reasoning inside the
      answer text, between ``<think>`` and ``</think>`` (Zhipu's GLM-Z1; a server not told to parse
      reasoning out): that text goes to ``reasoning_text`` (as ``ReasoningDelta`` updates), the tags to
      neither, the rest to ``text``, the same for every way the text was cut into deltas, a tag cut between
      two deltas included (:mod:`lesson_lib.core.think_tags`).
    """
    try:
        run, cancelled = _prepare(contract, **options)
    except BaseException:
        _close_source(chunks)  # the caller's mistake: the source is still released
        raise
    return StreamUpdates(run, chunks, cancelled)



class StreamJudge:
    """:func:`consume` turned inside out: the caller pushes each read, the judge never reads (sans-IO).

    For code that does not own the loop over the reads, such as a transport wrapped around someone else's
    client (:mod:`lesson_lib.guard`). It drives the same pipeline as :func:`stream_updates`, with the same
    calls in the same order, so feeding every read then calling :meth:`close` gives the result
    :func:`consume` gives for the same reads (``tests/core/test_judge.py`` holds it to that for every
    capture, in many chunkings):

    * ``feed(chunk)``: one read; returns the signals worth showing (those :func:`stream_updates` yields
      for it). Once the stream is decided (a service error, a decode error, a limit, or after
      :meth:`close`) further reads are ignored and ``[]`` returned, as :func:`consume` stops reading;
    * ``close()``: the end of the body (EOF); ``fail(exc)``: the source raised ``exc`` instead of a read;
      ``cancel()``: the reader stopped early (the outcome is ``cancelled``, as with ``consume``'s
      ``cancel=``). Each returns the :class:`StreamResult`; once decided, each returns the same result.
      The signals the end itself gave are in :attr:`end_signals`;
    * :attr:`done` and :attr:`result` (``None`` until done); :attr:`bytes_in`, :attr:`events`: counts so
      far, never content.

    ``options`` are those of :func:`stream_updates`, checked here before anything is fed (a bad one
    raises, naming it). ``cancel`` and the timeouts are judged when a read is fed, as the sync driver
    judges them before each read.
    """

    def __init__(self, contract: str, **options: Unpack[ConsumeOptions]) -> None:
        self._run, self._cancelled = _prepare(contract, **options)
        self._result: StreamResult | None = None
        #: The signals the end of the body gave (a contract whose end is implied: Gemini's last event), set
        #: by :meth:`close`: what :func:`stream_updates` yields last, before the result.
        self.end_signals: list[Signal] = []

    @property
    def done(self) -> bool:
        """``True`` once the outcome is decided (by a read, or by close, fail or cancel)."""
        return self._run.outcome is not None

    @property
    def result(self) -> StreamResult | None:
        """The verdict once :attr:`done`, else ``None``."""
        if self._run.outcome is None:
            return None
        if self._result is None:
            self._result = self._run.result()
        return self._result

    @property
    def bytes_in(self) -> int:
        """Bytes fed so far (counting only the reads the pipeline took)."""
        return self._run.stats.bytes

    @property
    def events(self) -> int:
        """Events (SSE events, NDJSON values, array elements) complete so far, heartbeats not counted."""
        return self._run.stats.events

    def feed(self, chunk: bytes) -> list[Signal]:
        """One read through every layer: the signals worth showing. Never raises for what it contains."""
        if not isinstance(chunk, (bytes, bytearray, memoryview)):
            raise TypeError(f"chunk must be bytes, got {type(chunk).__name__}")
        run = self._run
        if run.outcome is not None or run.stop_before_read(self._cancelled):
            return []
        return run.step(bytes(chunk))

    def close(self) -> StreamResult:
        """The end of the body: the verdict (the same result as :func:`consume` on the reads fed)."""
        run = self._run
        if run.outcome is None and not run.stop_before_read(self._cancelled):
            self.end_signals = run.finish()
        return self._verdict()

    def fail(self, exc: Exception) -> StreamResult:
        """The source raised ``exc`` instead of the next read: ``truncated`` with the error recorded (or the
        terminal's verdict, if the answer had already ended at a clean boundary), as :func:`consume`; a
        ``StreamDecodeError`` or ``LimitExceededError`` (a decoding source's) is ``decode_error`` or
        ``limit_exceeded``, as :func:`consume` judges it."""
        run = self._run
        if run.outcome is None and not run.stop_before_read(self._cancelled):
            run.source_failed(exc)
        return self._verdict()

    def cancel(self) -> StreamResult:
        """The reader stopped before the end: ``cancelled`` unless the stream was already decided."""
        run = self._run
        if run.outcome is None:
            run.outcome = Outcome.CANCELLED
        return self._verdict()

    def _verdict(self) -> StreamResult:
        result = self.result
        assert result is not None
        return result


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
    """The sync driver: blocking reads into the one pipeline (:class:`_Run`)."""
    try:
        try:
            reads = iter(source.chunks)
        except Exception as exc:
            run.source_failed(exc)
        else:
            while not run.stop_before_read(cancelled):
                try:
                    chunk = next(reads)
                except StopIteration:
                    yield from run.finish()
                    break
                except Exception as exc:  # the transport failed (or its read timeout fired)
                    run.source_failed(exc)
                    break
                if run.check_clocks():  # the read came back after a clock ran out: not used
                    break
                yield from run.step(chunk)
                if run.outcome is not None:
                    break
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


def consume(chunks: Iterable[bytes], contract: str, **options: Unpack[ConsumeOptions]) -> StreamResult:
    """Read the whole stream and return its :class:`StreamResult`. Never raises for what the stream
    contains; closes the source exactly once. ``options`` are those of :func:`stream_updates`
    (:class:`~lesson_lib.core.options.ConsumeOptions`)."""
    result: StreamResult | None = None
    for update in stream_updates(chunks, contract, **options):
        if isinstance(update, StreamResult):
            result = update
    assert result is not None
    return result


# --- async: the same pipeline, awaited reads -------------------------------------------------------------


async def _aclose_source(chunks: object) -> None:
    aclose = getattr(chunks, "aclose", None)
    if callable(aclose):
        await aclose()
    else:
        _close_source(chunks)


class _AOwnedSource:
    """An async chunk source and whether it has been closed: ``aclose()``d once, by whoever is first."""

    def __init__(self, chunks: AsyncIterable[bytes]) -> None:
        self.chunks = chunks
        self.open = True

    async def release(self) -> None:
        if self.open:
            self.open = False
            await _aclose_source(self.chunks)


async def _agenerate(
    run: _Run, source: _AOwnedSource, cancelled: Callable[[], bool]
) -> AsyncGenerator[Signal | StreamResult, None]:
    """The async driver: awaited reads, each bounded by the nearest clock, into the one pipeline.

    The same calls in the same order as :func:`_generate`; only ``next`` became ``await anext`` inside
    ``asyncio.timeout``. A ``CancelledError`` (the task was cancelled, or an ``asyncio.timeout()`` around
    the caller's loop fired) is not caught: the ``finally`` closes the source, then it propagates."""
    try:
        try:
            reads = aiter(source.chunks)
        except Exception as exc:
            run.source_failed(exc)
        else:
            while not run.stop_before_read(cancelled):
                budget = run.read_budget()
                bound = asyncio.timeout(None if budget is None else budget[0])
                try:
                    async with bound:
                        chunk = await anext(reads)
                except StopAsyncIteration:
                    for signal in run.finish():
                        yield signal
                    break
                except Exception as exc:
                    if budget is not None and bound.expired():  # our bound fired, not the source
                        run.timed_out(run.timeouts.expired() or budget[1])  # type: ignore[union-attr]
                    else:
                        run.source_failed(exc)
                    break
                if run.check_clocks():
                    break
                for signal in run.step(chunk):
                    yield signal
                if run.outcome is not None:
                    break
    finally:
        await source.release()
    yield run.result()


#: Cleanups scheduled by AStreamUpdates.__del__, kept alive until they finish.
_PENDING_CLOSES: set[asyncio.Task[None]] = set()


class AStreamUpdates:
    """What :func:`astream_updates` returns: an async iterator of live updates ending with the result.

    Like :class:`StreamUpdates` it owns the source from the moment it exists: ``aclose()`` (or
    ``async with``, or ``contextlib.aclosing``) closes it exactly once, whether or not anything was read.
    Leave the loop early WITHOUT one of these and nothing closes the source at the ``break``: an async
    generator cannot run its cleanup without the event loop, so Python only schedules it when the
    object is garbage-collected (the loop's async-generator hooks), or at ``loop.shutdown_asyncgens()``
    (the end of ``asyncio.run``). If this object is collected with its source still open while a loop
    runs, it schedules the ``aclose()`` itself.
    """

    def __init__(self, run: _Run, chunks: AsyncIterable[bytes], cancelled: Callable[[], bool]) -> None:
        self._source = _AOwnedSource(chunks)
        self._updates = _agenerate(run, self._source, cancelled)

    def __aiter__(self) -> AStreamUpdates:
        return self

    async def __anext__(self) -> Signal | StreamResult:
        return await anext(self._updates)

    async def aclose(self) -> None:
        """Stop reading: the source is closed (once), and no result follows."""
        try:
            await self._updates.aclose()
        finally:
            await self._source.release()

    async def __aenter__(self) -> AStreamUpdates:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    def __del__(self) -> None:
        if not self._source.open:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop: nothing can await the close now (the asyncgen hooks may, later)
        task = loop.create_task(self._source.release())
        _PENDING_CLOSES.add(task)
        task.add_done_callback(_PENDING_CLOSES.discard)


def _check_async_source(chunks: object) -> None:
    if not hasattr(chunks, "__aiter__"):
        raise TypeError(
            f"chunks must be an async iterable of bytes, got {type(chunks).__name__}; "
            "for a sync iterable use consume / stream_updates"
        )


def astream_updates(
    chunks: AsyncIterable[bytes], contract: str, **options: Unpack[ConsumeOptions]
) -> AStreamUpdates:
    """:func:`stream_updates` over async reads: the same signals in the same order, the result last.

    The same :class:`_Run` is fed, so the signals and the result are those of :func:`stream_updates`
    for the same bytes, whatever the chunking. The source is ``aclose()``d (``close()`` if it has no
    ``aclose``) exactly once on every path the loop itself reaches (end of body, service error, limit,
    source exception, ``cancel``, timeout) and on ``aclose()`` of the updates; for an early ``break`` or
    an exception in the caller's loop, use ``async with contextlib.aclosing(astream_updates(...)) as
    updates``. Cancellation of the task (``CancelledError``, an ``asyncio.timeout`` around the loop)
    closes the source, then propagates; it is never swallowed.

    Arguments are checked here, at the call, before anything is read: a bad one raises and the source
    is left untouched (nothing can be awaited in this plain function; :func:`aconsume` closes it).
    ``options`` are those of :func:`stream_updates` (:class:`~lesson_lib.core.options.ConsumeOptions`).
    """
    _check_async_source(chunks)
    run, cancelled = _prepare(contract, **options)
    return AStreamUpdates(run, chunks, cancelled)



async def aconsume(
    chunks: AsyncIterable[bytes], contract: str, **options: Unpack[ConsumeOptions]
) -> StreamResult:
    """Read the whole async stream and return its :class:`StreamResult`: the result :func:`consume`
    gives for the same bytes. Never raises for what the stream contains; closes the source exactly once
    (also on a bad argument, then raises, and on cancellation, then re-raises ``CancelledError``).
    ``options`` are those of :func:`stream_updates` (:class:`~lesson_lib.core.options.ConsumeOptions`)."""
    try:
        updates = astream_updates(chunks, contract, **options)
    except BaseException:
        await _aclose_source(chunks)
        raise
    result: StreamResult | None = None
    async with updates:
        async for update in updates:
            if isinstance(update, StreamResult):
                result = update
    assert result is not None
    return result
