"""What both SSE parsers share: the event and comment types, the defaults, the option check, the retry rule.

:mod:`lesson_lib.sse_reference` (written to be read) and :mod:`lesson_lib.sse_fast` (written to be fast)
import these, so that they cannot differ in what they return or in how they refuse a bad option.
:mod:`lesson_lib.sse` re-exports all of it.
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


def parser_snapshot(parser: Any) -> dict[str, object]:
    """Every layer's pending state of an SSE parser, read through its public views only, for inspectors
    and logs: counts and the pending units themselves. Both parsers' ``snapshot()`` return this."""
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
