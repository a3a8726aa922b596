"""The reference SSE parser: WHATWG HTML "Interpreting an event stream", written to be read.

Read this one first. Each read goes down three layers, each a call into its own module:

1. bytes -> characters: :class:`~lesson_lib.core.decoding.IncrementalUTF8Decoder` (it holds the bytes of a
   character cut by the read);
2. characters -> lines: :class:`~lesson_lib.core.lines.LineSplitter` (it holds the unfinished line, and a CR
   that may pair with the next LF);
3. lines -> events: the spec's field loop, :meth:`ReferenceSSEParser._process_line`, and its
   "dispatch the event" steps, :meth:`ReferenceSSEParser._dispatch`.

:class:`lesson_lib.SSEParser` (:mod:`lesson_lib.core.sse_fast`) gives the same events, state and errors in
fewer steps per byte; ``tests/core/test_sse_paths.py`` compares the two on every chunking. One difference is
*when*, never *what*: this parser reports invalid UTF-8 in the read that brings it, the fast one may wait
until that line ends; both name the same byte offset and complete the same events before it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .decoding import IncrementalUTF8Decoder, as_bytes, replace_escapes, utf8_length
from .errors import LimitExceededError, ParserStateError, StreamDecodeError
from .lines import DEFAULT_MAX_LINE_CHARS, LineSplitter
from .pieces import CHECK_EVERY, compact_tail
from .sse_common import DEFAULT_MAX_EVENT_CHARS, Comment, Event, ParserViews, check_options, retry_ms


class ReferenceSSEParser(ParserViews):
    """Sans-IO Server-Sent Events parser, the reference: the same API and behaviour as ``SSEParser``.

    ``errors="strict"``: invalid UTF-8 raises :class:`StreamDecodeError` naming the byte offset;
    ``errors="replace"``: invalid bytes become U+FFFD, as in a browser's ``EventSource``.
    ``max_line_chars`` and ``max_event_chars`` bound a line and an event's data (``None``: no bound);
    past either, :class:`LimitExceededError` with the byte offset, and nothing dropped. Memory, in bytes:
    within :func:`lesson_lib.core.options.stream_buffer_bound` for the same limits. ``comments=True``
    also returns :class:`Comment` lines. ``last_event_id`` is where a reconnection starts from.
    """

    def __init__(
        self,
        errors: str = "strict",
        max_line_chars: int | None = DEFAULT_MAX_LINE_CHARS,
        max_event_chars: int | None = DEFAULT_MAX_EVENT_CHARS,
        comments: bool = False,
        last_event_id: str = "",
    ) -> None:
        check_options(errors, max_line_chars, max_event_chars, last_event_id)
        self._errors, self._comments, self._max_event = errors, comments, max_event_chars
        # Replace mode decodes invalid bytes to escapes (one character per byte, so offsets stay exact);
        # they become U+FFFD when a value leaves the parser (_visible).
        self._decoder = IncrementalUTF8Decoder("strict" if errors == "strict" else "surrogateescape")
        self._lines = LineSplitter("any", max_line_chars)
        # The spec's buffers: data (kept as a list of lines), event type, last event ID; and the
        # event source's last event ID string and reconnection time.
        self._data: list[str] = []
        self._data_chars = 0  # the data buffer's length: each line and its LF
        self._event_type = ""
        self._id_buffer = self._last_event_id = last_event_id
        self._retry: int | None = None
        self._retry_log: list[tuple[int, int | None]] = []  # see ParserViews.retry_after_event
        self._retry_log_read = -1
        self._fields_pending = False  # a field line since the last blank line
        self._started = False  # has the stream's first character (maybe a BOM) arrived?
        self._state = "open"  # "open", "closed" or "failed"
        self._events_out = 0
        self._ended_mid: str | None = None
        self._where = ("", 0, 0)  # the text being split, its first character's and byte's positions

    # -- the two verbs -----------------------------------------------------------------------------
    def feed(self, chunk: bytes) -> list[Event | Comment]:
        """Parse one read of any size (0 bytes included); return the events it completed, in order."""
        chunk = as_bytes(chunk)
        self._refuse_unless_open()
        try:
            byte_base = self._decoder.bytes_decoded
            try:
                text = self._decoder.feed(chunk)  # 1. bytes -> characters
            except StreamDecodeError as error:
                # What came before the bad byte is still interpreted: its events are not lost.
                error.outputs = self._interpret(error.text_before, byte_base)
                raise
            return self._interpret(text, byte_base)
        except BaseException:
            self._state = "failed"  # whatever escaped, refuse all further input
            raise

    def feed_each(self, reads: Iterable[bytes]) -> Iterator[list[Event | Comment]]:
        """Feed every read of ``reads`` in order, as ``feed(read)`` one by one; yield each non-empty list of
        events a read completed. Does not close the parser. Errors as ``feed``'s."""
        for chunk in reads:
            out = self.feed(chunk)
            if out:
                yield out

    def flush(self) -> list[Event | Comment]:
        """Nothing waits undecoded here (every read is decoded at once): ``[]``; refuses when not open."""
        self._refuse_unless_open()
        return []

    def close(self) -> list[Event | Comment]:
        """End of the stream: the spec discards an event without its blank line; record what was cut."""
        self._refuse_unless_open()
        try:
            held = self._decoder.held_bytes
            byte_base = self._decoder.bytes_decoded
            try:
                tail = self._decoder.close()  # strict: raises if the stream ended mid-character
            except StreamDecodeError:
                self._ended_mid = "character"
                raise
            self._state = "closed"
            self._interpret(tail, byte_base)  # replace mode: U+FFFD, never a line ending
            if held:
                self._ended_mid = "character"
            elif self._lines.pending_chars:
                self._ended_mid = "line"
            elif self._fields_pending:
                self._ended_mid = "event"
            self._lines.discard()  # the unfinished line is never processed
            self._data, self._data_chars, self._event_type, self._fields_pending = [], 0, "", False
            return []
        except BaseException:
            self._state = "failed"
            raise

    # -- 2. characters -> lines ---------------------------------------------------------------------
    def _interpret(self, text: str, byte_base: int) -> list[Event | Comment]:
        if not text:
            return []
        if not self._started:  # the decoder strips one BOM, at the start of the stream only
            self._started = True
            if text[0] == "\ufeff":
                text, byte_base = text[1:], byte_base + 3
        self._where = (text, self._lines.chars_in, byte_base)
        try:
            lines = self._lines.feed(text)
        except LimitExceededError as error:  # a line too long: finish the lines before it, then raise
            error.offset = self._byte_offset(error.char_index)
            error.outputs = self._process(error.outputs)
            error.event_index = self._events_out
            raise
        return self._process(lines)

    # -- 3. lines -> events: the field loop ---------------------------------------------------------
    def _process(self, lines: list[str]) -> list[Event | Comment]:
        out: list[Event | Comment] = []
        max_event = self._max_event
        for number, line in enumerate(lines):
            self._process_line(line, out)
            if max_event is not None and self._data_chars - 1 > max_event:
                self._fail_event_limit(max_event, number, len(lines), out)
        return out

    def _process_line(self, line: str, out: list[Event | Comment]) -> None:
        if line == "":  # an empty line: dispatch the event
            self._dispatch(out)
            return
        # A line with a colon: the field name is what comes before the first colon, the value what
        # comes after it, less one leading space. A line without one: all name, empty value.
        name, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if name == "":  # the line starts with a colon: a comment, ignored (or reported on request)
            if self._comments:
                out.append(Comment(self._visible(value)))
            return
        self._fields_pending = True
        # Process the field, by its name (case-sensitive); any other name is ignored.
        if name == "event":  # set the event type buffer
            self._event_type = value
        elif name == "data":  # append the value and one LF to the data buffer
            self._data.append(value)
            self._data_chars += len(value) + 1
            if not len(self._data) % CHECK_EVERY:  # many short lines: join them in groups (memory)
                compact_tail(self._data, "\n")
        elif name == "id" and "\x00" not in value:  # the last event ID buffer; a U+0000 voids it
            self._id_buffer = self._visible(value)
        elif name == "retry" and value.isascii() and value.isdigit():  # only ASCII digits count
            self._note_retry(self._events_out, self._decoder.bytes_in)
            self._retry = retry_ms(value)  # the reconnection time, in milliseconds

    def _dispatch(self, out: list[Event | Comment]) -> None:
        # The last event ID buffer becomes the last event ID string, even if nothing is dispatched.
        self._last_event_id = self._id_buffer
        self._fields_pending = False
        if self._data:  # an empty data buffer dispatches nothing; the lines, LF-joined, are the data
            data, kind = self._visible("\n".join(self._data)), self._visible(self._event_type or "message")
            out.append(Event(kind, data, self._last_event_id))
            self._events_out += 1
        self._data, self._data_chars, self._event_type = [], 0, ""  # the buffers start again

    # -- errors, and what a learner may inspect ------------------------------------------------------
    def _refuse_unless_open(self) -> None:
        if self._state != "open":
            raise ParserStateError(f"parser is {self._state}", offset=self.bytes_in)

    def _visible(self, text: str) -> str:
        return replace_escapes(text) if self._errors == "replace" else text

    def _byte_offset(self, char_index: int | None) -> int | None:
        """Absolute byte offset of a character of the text being split."""
        text, char_base, byte_base = self._where
        return None if char_index is None else byte_base + utf8_length(text[: char_index - char_base])

    def _fail_event_limit(self, maximum: int, number: int, count: int, done: list[Event | Comment]) -> None:
        """Raise at the end of the ``number``-th of the ``count`` lines just split: it crossed ``maximum``."""
        error = LimitExceededError(
            "max_event_chars",
            maximum,
            offset=self._byte_offset(self._lines.line_end_char(number)),
            line_index=self._lines.lines_out - count + number,
            event_index=self._events_out,
        )
        error.outputs = done
        raise error

    @property
    def bytes_in(self) -> int:
        return self._decoder.bytes_in

    @property
    def held_bytes(self) -> bytes:
        return self._decoder.held_bytes

    @property
    def pending_line(self) -> str:
        return self._visible(self._lines.pending_text)

    @property
    def pending_line_chars(self) -> int:
        return self._lines.pending_chars + len(self._decoder.held_bytes)

    def pending_sizes(self) -> tuple[int, int, int, bool]:
        """(held bytes, unfinished line, pending event data, inside an event), as ``SSEParser``'s."""
        return len(self.held_bytes), self.pending_line_chars, self.pending_event_chars, self._fields_pending

    @property
    def after_cr(self) -> bool:
        return self._lines.after_cr and not self._decoder.held_bytes

    @property
    def pending_data(self) -> list[str]:
        return [self._visible(line) for group in self._data for line in group.split("\n")]

    @property
    def pending_event_type(self) -> str:
        return self._visible(self._event_type)

    @property
    def lines_in(self) -> int:
        return self._lines.lines_out
