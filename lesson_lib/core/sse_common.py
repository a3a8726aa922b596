"""What both SSE parsers share: the event and comment types, the defaults, the option check, the retry rule.

:mod:`lesson_lib.core.sse_reference` (written to be read) and :mod:`lesson_lib.core.sse_fast` (written to be
fast) import these, so that they cannot differ in what they return or in how they refuse a bad option.
:mod:`lesson_lib.core.sse` re-exports all of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .options import check_int

#: Default bound on one event's data, in characters (the data lines plus their joining LFs).
DEFAULT_MAX_EVENT_CHARS = 16 * 1024 * 1024

#: The largest reconnection time a parser's ``retry`` reports, in milliseconds (about 31.7 million
#: years): a ``retry`` value of more significant digits is clamped to it, never converted with ``int()``.
MAX_RETRY_MS = 10**18 - 1
_RETRY_DIGITS = len(str(MAX_RETRY_MS))


@dataclass(frozen=True, slots=True)
class Event:
    """One dispatched event. ``last_event_id`` is the last event ID string at the time of dispatch."""

    type: str = "message"
    data: str = ""
    last_event_id: str = ""


@dataclass(frozen=True, slots=True)
class Comment:
    """A comment line (``:`` first), returned only with ``comments=True``; servers use them as heartbeats.

    ``text`` is what follows the colon, with one leading space removed, as for field values.
    """

    text: str


def retry_ms(digits: str) -> int:
    """The reconnection time a ``retry`` value of ASCII digits sets, bounded by :data:`MAX_RETRY_MS`.

    The value is read exactly up to the bound and clamped above it: Python's ``int()`` refuses more than
    4,300 digits, and a field of 5,000 digits must not raise.
    """
    if len(digits) > _RETRY_DIGITS:
        digits = digits.lstrip("0")
        if len(digits) > _RETRY_DIGITS:
            return MAX_RETRY_MS
    return int(digits) if digits else 0


def check_options(
    errors: str, max_line_chars: object, max_event_chars: object, last_event_id: object
) -> None:
    """Refuse a bad parser option before anything is built, naming the option (the same for both parsers)."""
    if errors not in ("strict", "replace"):
        raise ValueError(f"errors must be 'strict' or 'replace', got {errors!r}")
    check_int("max_line_chars", max_line_chars, minimum=1, none=True)
    check_int("max_event_chars", max_event_chars, minimum=1, none=True)
    if not isinstance(last_event_id, str):
        raise TypeError(f"last_event_id must be a str, got {type(last_event_id).__name__}")


class ParserViews:
    """The public views both SSE parsers read the same way from the spec's buffers.

    ``ReferenceSSEParser`` and ``SSEParser`` inherit them, so they cannot differ; each parser sets the
    attributes read here (``_errors``, ``_last_event_id``, ``_retry``, ``_data_chars``, ``_id_buffer``,
    ``_fields_pending``, ``_events_out``, ``_ended_mid``) and adds the views of its own layers (bytes in, the
    held bytes, the unfinished line, ...).
    """

    _errors: str
    _last_event_id: str
    _retry: int | None
    _data_chars: int
    _id_buffer: str
    _fields_pending: bool
    _events_out: int
    _ended_mid: str | None
    # The values ``retry`` had before each valid retry field of the last read that held one, as
    # (events dispatched before that field, the value it replaced); and which read that was (how many bytes
    # had been fed at its end). One entry per event at most: bounded by one read.
    _retry_log: list[tuple[int, int | None]]
    _retry_log_read: int

    def _note_retry(self, events_before: int, read_end: int) -> None:
        """Called just before a valid ``retry`` field changes :attr:`retry` (rare: not a hot path)."""
        log = self._retry_log
        if self._retry_log_read != read_end:  # the first retry field of another read: forget the last one's
            log.clear()
            self._retry_log_read = read_end
        if not log or log[-1][0] != events_before:  # only the first field after an event matters
            log.append((events_before, self._retry))

    def retry_after_event(self, events: int) -> int | None:
        """The reconnection time :attr:`retry` had just after the ``events``-th event was dispatched (``0``:
        before the first), leaving out the ``retry`` fields that came after it.

        Exact for an event the last read that ended lines dispatched, and for the last event before that
        read; what an application that stopped at such an event (and never took the rest of the read) has
        seen of the stream. Constant memory per read; for any other event it is not defined.
        """
        for count, previous in self._retry_log:
            if count >= events:
                return previous
        return self._retry

    def flush(self) -> list[Event | Comment]:
        """Decode the bytes a parser may still hold undecoded (no line ending came after them), so that
        invalid UTF-8 among them raises now, as in the read that brought it: for a caller whose source
        failed (the stream will not be closed normally). Returns ``[]``: nothing without a line ending
        completes an event. Raises what ``feed`` would; a parser that decodes every read at once (the
        reference) has nothing to do."""
        return []

    @property
    def errors(self) -> str:
        return self._errors

    @property
    def last_event_id(self) -> str:
        """The spec's "last event ID string": what a reconnecting client sends as ``Last-Event-ID``."""
        return self._last_event_id

    @property
    def retry(self) -> int | None:
        """The reconnection time in milliseconds from the last valid ``retry`` field, or ``None``."""
        return self._retry

    @property
    def pending_event_chars(self) -> int:
        """Event layer: characters in the pending event's data (what ``max_event_chars`` bounds)."""
        return max(self._data_chars - 1, 0)

    @property
    def pending_id(self) -> str:
        """Event layer: the last event ID buffer (becomes :attr:`last_event_id` at the next dispatch)."""
        return self._id_buffer

    @property
    def has_pending_event(self) -> bool:
        """Event layer: a field line arrived since the last blank line (the event is not finished)."""
        return self._fields_pending

    @property
    def events_out(self) -> int:
        """How many events have been dispatched."""
        return self._events_out

    @property
    def ended_mid(self) -> str | None:
        """After ``close()``: ``"character"``, ``"line"`` or ``"event"`` if the stream ended inside one
        (the innermost unfinished unit), ``None`` if it ended at an event boundary."""
        return self._ended_mid

    def snapshot(self) -> dict[str, object]:
        """Every layer's pending state, read through the public views only, for inspectors and logs:
        counts and the pending units themselves."""
        parser: Any = self  # the layer views (bytes_in, held_bytes, ...) are each parser's own
        return {
            "bytes_in": parser.bytes_in,
            "held_bytes": parser.held_bytes,
            "pending_line": parser.pending_line,
            "after_cr": parser.after_cr,
            "lines": parser.lines_in,
            "pending_data": parser.pending_data,
            "pending_event_type": parser.pending_event_type,
            "pending_id": parser.pending_id,
            "has_pending_event": parser.has_pending_event,
            "events": parser.events_out,
            "last_event_id": parser.last_event_id,
            "retry": parser.retry,
        }
