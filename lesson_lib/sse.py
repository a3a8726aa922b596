"""The event boundary: Server-Sent Events, as WHATWG HTML "Interpreting an event stream" defines them.

Bytes go through three layers, each fed incrementally: the UTF-8 decoder (held bytes), the line splitter
(the unfinished line, a CR that may pair with the next LF), and the event assembler below (the fields
of the event so far). An event exists only when its blank line arrives; an event cut off by the end of
the stream is never dispatched.

Cost: a read with no CR or LF in it is only remembered (appended to a byte buffer); the bytes are
decoded when the read that ends their line arrives. Line endings are ASCII and can never sit inside a
multi-byte character, so this changes nothing in the result, only the work per read. Consequence, in
strict mode: invalid UTF-8 is reported when its line ends (or at ``close()``), with its exact offset.

Spec points this module implements, all tested in every chunking:

* one leading U+FEFF (BOM) is ignored, at the start of the stream only;
* a line starting with ``:`` is a comment; a line without ``:`` is a field with an empty value;
* one space after the colon is removed, and only one;
* ``data`` lines are joined with LF; ``event`` sets the type, reset after every dispatch;
* ``id`` sets the last event ID buffer unless the value contains U+0000; it persists across events and
  becomes the "last event ID string" at every dispatch, even of an event with no data;
* ``retry`` sets the reconnection time only if the value is all ASCII digits;
* a blank line with an empty data buffer dispatches nothing;
* unknown fields are ignored; field names are case-sensitive.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .decoding import IncrementalUTF8Decoder, incomplete_tail_length, replace_escapes, utf8_length
from .errors import BoundaryError, LimitExceededError, ParserStateError, StreamDecodeError
from .lines import DEFAULT_MAX_LINE_CHARS, LineSplitter

#: Default bound on one event's data, in characters (the data lines plus their joining LFs).
DEFAULT_MAX_EVENT_CHARS = 16 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Event:
    """One dispatched event. ``last_event_id`` is the last event ID string at the time of dispatch."""

    type: str = "message"
    data: str = ""
    last_event_id: str = ""


# A frozen dataclass's generated __init__ goes through object.__setattr__ once per field; setting the
# slots through their descriptors builds the same object at about half the cost, once per event.
_new_object = object.__new__
_set_type = Event.__dict__["type"].__set__
_set_data = Event.__dict__["data"].__set__
_set_last_event_id = Event.__dict__["last_event_id"].__set__


def _make_event(event_type: str, data: str, last_event_id: str) -> Event:
    event = _new_object(Event)
    _set_type(event, event_type)
    _set_data(event, data)
    _set_last_event_id(event, last_event_id)
    return event


@dataclass(frozen=True, slots=True)
class Comment:
    """A comment line (``:`` first), returned only with ``comments=True``; servers use them as heartbeats.

    ``text`` is what follows the colon, with one leading space removed, as for field values.
    """

    text: str


class SSEParser:
    """Sans-IO Server-Sent Events parser: ``feed(bytes)`` and ``close()``, no I/O, no threads.

    ``errors="strict"`` (default): invalid UTF-8 raises :class:`StreamDecodeError` (a
    ``UnicodeDecodeError``) with the absolute byte offset, and ``close()`` raises
    :class:`TruncatedCharacterError` if the stream ended mid-character. ``errors="replace"``: as a
    browser's ``EventSource``, every maximal invalid subpart becomes U+FFFD.

    ``max_line_chars`` bounds one line and ``max_event_chars`` one event's data; past either the parser
    raises :class:`LimitExceededError` with the byte offset and drops nothing. ``None`` lifts a bound.

    Guarantees: the same events, ``last_event_id`` and ``retry`` for every chunking of the same bytes;
    cost linear in the bytes; memory bounded by the limits. After an error or ``close()`` the parser
    refuses input (:class:`ParserStateError`).
    """

    def __init__(
        self,
        errors: str = "strict",
        max_line_chars: int | None = DEFAULT_MAX_LINE_CHARS,
        max_event_chars: int | None = DEFAULT_MAX_EVENT_CHARS,
        comments: bool = False,
    ) -> None:
        if errors not in ("strict", "replace"):
            raise ValueError(f"errors must be 'strict' or 'replace', got {errors!r}")
        if max_event_chars is not None and max_event_chars < 1:
            raise ValueError(f"max_event_chars must be positive or None, got {max_event_chars}")
        self._errors = errors
        self._replace = errors == "replace"
        # In replace mode the decoder keeps invalid bytes as escapes so that every character still maps
        # to its bytes (exact error offsets); they become U+FFFD when a value leaves the parser.
        self._decoder = IncrementalUTF8Decoder("strict" if errors == "strict" else "surrogateescape")
        self._lines = LineSplitter("any", max_line_chars)
        self._max_line = max_line_chars
        self._max_event = max_event_chars
        # Bytes of reads without a line ending, not yet decoded, and how many more may wait there
        # before the line limit could be crossed (a byte never makes more than one character).
        self._raw = bytearray()
        self._raw_room = 0
        self._fast = False  # may the next read take the fast path? (open, past the BOM check)
        self._comments = comments
        self._started = False  # has the first character (a possible BOM) been seen?
        self._data: list[str] = []
        self._data_chars = 0
        self._event_type = ""
        self._id_buffer = ""
        self._last_event_id = ""
        self._retry: int | None = None
        self._fields_pending = False
        self._events_out = 0
        self._state = "open"  # "open", "closed" or "failed"
        self._ended_mid: str | None = None
        # Where the text of the current feed starts, for turning character positions into byte offsets.
        self._text = ""
        self._text_char_base = 0
        self._text_byte_base = 0

    # -- public state ----------------------------------------------------------------------------------
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
    def bytes_in(self) -> int:
        return self._decoder.bytes_in + len(self._raw)

    @property
    def held_bytes(self) -> bytes:
        """Character layer: the 0-3 bytes of an unfinished UTF-8 character (constant time)."""
        raw = self._raw
        if not (self._decoder.held_bytes or (raw and raw[-1] >= 0x80)):
            return b""  # the last byte is ASCII (or nothing waits): no character is unfinished
        tail = self._decoder.held_bytes + bytes(raw[-3:])
        return tail[len(tail) - incomplete_tail_length(tail) :]

    @property
    def pending_line(self) -> str:
        """Line layer: the unfinished line (invalid bytes shown as U+FFFD). Builds a string: for display."""
        pending = self._decoder.held_bytes + bytes(self._raw)
        complete = pending[: len(pending) - len(self.held_bytes)]
        text = self._lines.pending_text
        return (replace_escapes(text) if self._replace else text) + complete.decode("utf-8", "replace")

    @property
    def pending_line_chars(self) -> int:
        """Line layer: size of the unfinished line in constant time. Bytes not yet decoded count one each,
        so this is the number of characters, or slightly more while multi-byte characters wait."""
        return self._lines.pending_chars + len(self._decoder.held_bytes) + len(self._raw)

    @property
    def pending_event_chars(self) -> int:
        """Event layer: characters in the pending event's data (what ``max_event_chars`` bounds)."""
        return max(self._data_chars - 1, 0)

    def pending_sizes(self) -> tuple[int, int, int, bool]:
        """Every layer's pending size at once, in constant time, for per-read statistics: (held bytes,
        unfinished line as in :attr:`pending_line_chars`, pending event data, inside an event)."""
        return (
            len(self.held_bytes),
            self._lines.pending_chars + len(self._decoder.held_bytes) + len(self._raw),
            max(self._data_chars - 1, 0),
            self._fields_pending,
        )

    @property
    def after_cr(self) -> bool:
        """Line layer: the last byte was a CR, so an LF arriving next is part of the same ending."""
        return self._lines.after_cr and not self._raw and not self._decoder.held_bytes

    @property
    def pending_data(self) -> list[str]:
        """Event layer: the data lines of the event being assembled."""
        return [replace_escapes(v) for v in self._data] if self._replace else list(self._data)

    @property
    def pending_event_type(self) -> str:
        """Event layer: the event type buffer (empty means ``message``)."""
        return self._event_type

    @property
    def pending_id(self) -> str:
        """Event layer: the last event ID buffer (becomes :attr:`last_event_id` at the next dispatch)."""
        return self._id_buffer

    @property
    def has_pending_event(self) -> bool:
        """Event layer: a field line arrived since the last blank line (the event is not finished)."""
        return self._fields_pending

    @property
    def lines_in(self) -> int:
        return self._lines.lines_out

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
        """Every layer's pending state, for inspectors and logs: counts and the pending units themselves."""
        return {
            "bytes_in": self.bytes_in,
            "held_bytes": self.held_bytes,
            "pending_line": self.pending_line,
            "after_cr": self.after_cr,
            "lines": self.lines_in,
            "pending_data": self.pending_data,
            "pending_event_type": self._event_type,
            "pending_id": self._id_buffer,
            "has_pending_event": self._fields_pending,
            "events": self._events_out,
            "last_event_id": self._last_event_id,
            "retry": self._retry,
        }

    # -- the two verbs ---------------------------------------------------------------------------------
    def feed(self, chunk: bytes) -> list[Event | Comment]:
        """Parse one read of any size (0 bytes included); return the events it completed, in order."""
        if self._fast and 10 not in chunk and 13 not in chunk and len(chunk) <= self._raw_room:  # LF, CR
            self._raw += chunk  # no line ends here: nothing can complete, so only remember it
            self._raw_room -= len(chunk)
            return []
        return self._feed_now(chunk)

    def _feed_now(self, chunk: bytes) -> list[Event | Comment]:
        if self._state != "open":
            raise ParserStateError(f"parser is {self._state}", offset=self.bytes_in)
        if self._raw:
            self._raw += chunk
            chunk, self._raw = bytes(self._raw), bytearray()
        self._fast = False
        out = self._decode_and_split(chunk)
        if self._state == "open" and self._started:
            self._fast = True
            self._raw_room = (
                self._max_line - self._lines.pending_chars - len(self._decoder.held_bytes)
                if self._max_line is not None
                else 1 << 62
            )
        return out

    def _decode_and_split(self, chunk: bytes) -> list[Event | Comment]:
        byte_base = self._decoder.bytes_decoded
        try:
            text = self._decoder.feed(chunk)
        except StreamDecodeError as exc:
            self._state = "failed"
            # Finish what came before the bad byte; an error earlier in the stream wins.
            exc.outputs = self._feed_text(exc.text_before, byte_base) if exc.text_before else []
            raise
        if not text:
            return []
        try:
            return self._feed_text(text, byte_base)
        except BoundaryError:
            self._state = "failed"
            raise

    def close(self) -> list[Event | Comment]:
        """End of stream. Dispatches nothing: an event without its blank line is discarded (the spec).

        Records in :attr:`ended_mid` what was cut. Strict mode raises
        :class:`TruncatedCharacterError` if the stream ended mid-character.
        """
        if self._raw:
            self._feed_now(b"")  # decode what was only remembered; may raise, as feed() would have
        if self._state != "open":
            raise ParserStateError(f"parser is {self._state}", offset=self.bytes_in)
        self._fast = False
        held = len(self._decoder.held_bytes)
        try:
            byte_base = self._decoder.bytes_decoded
            tail = self._decoder.close()
        except StreamDecodeError:
            self._state = "failed"
            self._ended_mid = "character"
            raise
        self._state = "closed"
        if tail:
            # Replace mode: the held bytes became text; it cannot contain a line ending.
            try:
                self._feed_text(tail, byte_base)
            except BoundaryError:
                self._state = "failed"
                raise
        if held:
            self._ended_mid = "character"
        elif self._lines.pending_chars:
            self._ended_mid = "line"
        elif self._fields_pending:
            self._ended_mid = "event"
        self._lines.discard()
        self._data, self._data_chars, self._event_type, self._fields_pending = [], 0, "", False
        return []

    # -- internals -------------------------------------------------------------------------------------
    def _feed_text(self, text: str, byte_base: int) -> list[Event | Comment]:
        if not self._started:
            self._started = True
            if text[0] == "\ufeff":
                text = text[1:]
                byte_base += 3
                if not text:
                    return []
        self._text, self._text_char_base, self._text_byte_base = text, self._lines.chars_in, byte_base
        try:
            lines = self._lines.feed(text)
        except LimitExceededError as exc:
            exc.offset = self._byte_offset(exc.char_index)
            complete_lines, exc.outputs = exc.outputs, []
            exc.outputs = self._process(complete_lines, len(complete_lines))  # may raise an earlier error
            exc.event_index = self._events_out
            raise
        return self._process(lines, len(lines)) if lines else []

    def _byte_offset(self, char_index: int | None) -> int | None:
        """Absolute byte offset of a character of the current feed's text (error paths only)."""
        if char_index is None:
            return None
        return self._text_byte_base + utf8_length(self._text[: char_index - self._text_char_base])

    def _process(self, lines: list[str], lines_in_feed: int) -> list[Event | Comment]:
        out: list[Event | Comment] = []
        data = self._data
        for number, line in enumerate(lines):
            if not line:
                self._dispatch(out)
                data = self._data
                continue
            colon = line.find(":")
            if colon == 0:
                if self._comments:
                    text = line[2:] if line.startswith(" ", 1) else line[1:]
                    out.append(Comment(replace_escapes(text) if self._replace else text))
                continue
            if colon < 0:
                name, value = line, ""
            else:
                name = line[:colon]
                value = line[colon + 2 :] if line.startswith(" ", colon + 1) else line[colon + 1 :]
            self._fields_pending = True
            if name == "data":
                data.append(value)
                self._data_chars += len(value) + 1
                if self._max_event is not None and self._data_chars - 1 > self._max_event:
                    self._fail_event_limit(number, lines_in_feed, out)
            elif name == "event":
                self._event_type = value
            elif name == "id" and "\x00" not in value:
                self._id_buffer = replace_escapes(value) if self._replace else value
            elif name == "retry" and value.isascii() and value.isdigit():
                self._retry = int(value)
        return out

    def _dispatch(self, out: list[Event | Comment]) -> None:
        self._last_event_id = self._id_buffer
        self._fields_pending = False
        if not self._data:
            self._event_type = ""
            return
        data = "\n".join(self._data)
        event_type = self._event_type or "message"
        if self._replace:
            data, event_type = replace_escapes(data), replace_escapes(event_type)
        out.append(_make_event(event_type, data, self._last_event_id))
        self._events_out += 1
        self._data, self._data_chars, self._event_type = [], 0, ""

    def _fail_event_limit(self, number: int, lines_in_feed: int, done: list[Event | Comment]) -> None:
        """Raise at the end of this feed's ``number``-th line, whose data took the event past the limit."""
        assert self._max_event is not None
        error = LimitExceededError(
            "max_event_chars",
            self._max_event,
            offset=self._byte_offset(self._lines.line_end_char(number)),
            line_index=self._lines.lines_out - lines_in_feed + number,
            event_index=self._events_out,
        )
        error.outputs = done
        raise error


def parse_sse(chunks: Iterable[bytes], **parser_options: object) -> list[Event | Comment]:
    """Feed every chunk to a fresh :class:`SSEParser`, close it, and return all events in order."""
    parser = SSEParser(**parser_options)  # type: ignore[arg-type]
    out: list[Event | Comment] = []
    for chunk in chunks:
        out.extend(parser.feed(chunk))
    out.extend(parser.close())
    return out
