"""The line boundary: text split at line endings, whatever the reads did to them.

Server-Sent Events end a line with CR, LF or CRLF, and a read may end between the CR and the LF; that
is still one line ending, not two. NDJSON ends lines with LF (a CR before it is tolerated).

``str.splitlines()`` is not used: it also splits at FF, VT, U+001C-U+001E, U+0085, U+2028 and U+2029, which
are ordinary data inside an event (U+0085, U+2028 and U+2029 even inside a JSON string, which may hold them
raw; JSON must escape the control characters).

Cost is linear in the text whatever the chunking: each piece is scanned once, and the unfinished line is
kept as a list of fragments joined once when its ending arrives (never ``buffer += piece`` per read).
"""

from __future__ import annotations

import re

from .errors import IncompleteStreamError, LimitExceededError, ParserStateError
from .options import check_int
from .pieces import CHECK_EVERY, compact_tail

#: Default bound on one line, in characters. Larger than any event a service documented in 2026 sends
#: on one line; set ``max_line_chars`` to raise or lower it, or ``None`` to lift it for trusted input.
DEFAULT_MAX_LINE_CHARS = 4 * 1024 * 1024

_ANY_ENDING = re.compile(r"\r\n|\r|\n")

ENDINGS = ("any", "lf")


class LineSplitter:
    """Split text fed in arbitrary pieces into complete lines (without their endings).

    ``endings="any"``: CR, LF and CRLF end a line (the SSE rule); a CR at the end of one piece followed
    by an LF at the start of the next is one ending. ``endings="lf"``: only LF ends a line, and one CR
    just before it is removed (NDJSON).

    Guarantees: for every way of cutting the same text, the same lines come out in the same order, each
    as soon as its ending has arrived. A line longer than ``max_line_chars`` raises
    :class:`LimitExceededError` with ``char_index`` at its first character past the limit; nothing is
    dropped: the lines completed before the long one are the error's ``outputs``. ``close()`` raises
    :class:`IncompleteStreamError` if an unfinished line is pending.
    """

    __slots__ = (
        "_after_cr",
        "_chars_in",
        "_closed",
        "_endings",
        "_last_text",
        "_last_text_start",
        "_lines_out",
        "_max",
        "_parts",
        "_pending",
    )

    def __init__(self, endings: str = "any", max_line_chars: int | None = DEFAULT_MAX_LINE_CHARS) -> None:
        if endings not in ENDINGS:
            raise ValueError(f"endings must be one of {ENDINGS}, got {endings!r}")
        check_int("max_line_chars", max_line_chars, minimum=1, none=True)
        self._endings = endings
        self._max = max_line_chars
        self._parts: list[str] = []
        self._pending = 0
        self._after_cr = False
        self._chars_in = 0
        self._lines_out = 0
        self._closed = False
        self._last_text = ""
        self._last_text_start = 0

    # -- state, for the lessons' inspectors ---------------------------------------------------------
    @property
    def pending_text(self) -> str:
        """The unfinished line so far (joined on demand; the splitter itself never re-joins per read)."""
        return "".join(self._parts)

    @property
    def pending_chars(self) -> int:
        return self._pending

    @property
    def after_cr(self) -> bool:
        """True if the last character seen was a CR, so an LF arriving next belongs to that ending."""
        return self._after_cr

    @property
    def chars_in(self) -> int:
        return self._chars_in

    @property
    def lines_out(self) -> int:
        """How many complete lines have been returned."""
        return self._lines_out

    # -- the two verbs ------------------------------------------------------------------------------
    def feed(self, text: str) -> list[str]:
        """Add ``text``; return the lines it completed, in order, without their line endings."""
        if text.__class__ is not str and not isinstance(text, str):  # a str subclass is text too
            raise TypeError(f"feed() takes str, got {type(text).__name__}")
        if self._closed:
            raise ParserStateError("line splitter already closed", char_index=self._chars_in)
        if not text:
            return []
        start = self._chars_in
        self._chars_in = start + len(text)
        after_cr = self._after_cr
        if self._endings == "any":
            if after_cr:
                self._after_cr = False
                if text[0] == "\n":
                    if len(text) == 1:
                        return []
                    text = text[1:]
                    start += 1
            if "\r" in text:
                pieces = _ANY_ENDING.split(text)
                self._after_cr = text[-1] == "\r"
            elif "\n" in text:
                pieces = text.split("\n")
            else:
                return self._extend(text, start)
        elif "\n" in text:
            pieces = text.split("\n")
        else:
            return self._extend(text, start)

        self._last_text, self._last_text_start = text, start
        tail = pieces.pop()
        if self._parts:
            self._parts.append(pieces[0])
            pieces[0] = "".join(self._parts)
        if self._endings == "lf":
            pieces = [p[:-1] if p.endswith("\r") else p for p in pieces]
        if self._max is not None and (max(map(len, pieces)) > self._max or self._pending_too_long(tail)):
            self._fail_long_line(pieces, tail)
        self._parts = [tail] if tail else []
        self._pending = len(tail)
        self._lines_out += len(pieces)
        return pieces

    def getstate(self) -> tuple[str, bool, int, int]:
        """The splitter's state as ``(pending_text, after_cr, chars_in, lines_out)``.

        As ``codecs.IncrementalDecoder.getstate``: for a caller that splits some text itself
        (:mod:`lesson_lib.core.sse_fast` does, in one pass with the decoding and the fields) and hands the
        state back with :meth:`setstate`. Joins the unfinished line: linear in its length. Only reads.
        """
        return "".join(self._parts), self._after_cr, self._chars_in, self._lines_out

    def setstate(self, state: tuple[str, bool, int, int]) -> None:
        """Continue from ``state``, as if the text that led to it had been fed here.

        ``state`` is ``(pending_text, after_cr, chars_in, lines_out)``: the unfinished line (no line
        ending in it), whether the last character was a CR (``any`` mode only), how many characters were
        fed and how many lines came out. Guarantee: after ``setstate(other.getstate())`` this splitter
        returns the same lines, errors and indexes as ``other`` on every continuation (``line_end_char``
        refers to the next ``feed``). A state no text could lead to raises ``ValueError`` and changes
        nothing; a closed splitter refuses (:class:`ParserStateError`).
        """
        pending, after_cr, chars_in, lines_out = state
        if self._closed:
            raise ParserStateError("line splitter already closed", char_index=self._chars_in)
        if not isinstance(pending, str) or "\n" in pending or (self._endings == "any" and "\r" in pending):
            raise ValueError("pending_text must be a str without a line ending")
        if self._max is not None and self._pending_too_long(pending):
            raise ValueError(f"pending_text is longer than max_line_chars={self._max}")
        if after_cr.__class__ is not bool or (after_cr and (pending or self._endings != "any")):
            raise ValueError("after_cr must be a bool, and True only in 'any' mode with no pending text")
        counts = (("chars_in", chars_in, len(pending) + after_cr), ("lines_out", lines_out, 0))
        for name, value, least in counts:
            if value.__class__ is not int or value < least:
                raise ValueError(f"{name} must be an int >= {least}, got {value!r}")
        self._parts = [pending] if pending else []
        self._pending = len(pending)
        self._after_cr, self._chars_in, self._lines_out = after_cr, chars_in, lines_out
        self._last_text, self._last_text_start = "", chars_in

    def close(self) -> list[str]:
        """End of input. Returns ``[]``; raises :class:`IncompleteStreamError` if a line is unfinished."""
        if self._closed:
            raise ParserStateError("line splitter already closed", char_index=self._chars_in)
        self._closed = True
        if self._pending:
            raise IncompleteStreamError(
                "line",
                f"input ended in the middle of a line ({self._pending} characters without a line ending)",
                offset=None,
                line_index=self._lines_out,
                char_index=self._chars_in - self._pending,
            )
        return []

    def discard(self) -> int:
        """Drop the unfinished line (the SSE rule at end of stream) and close; return its length."""
        dropped = self._pending
        self._parts, self._pending, self._closed = [], 0, True
        return dropped

    def line_end_char(self, index_in_last_feed: int) -> int:
        """Absolute character index just past the character that ended the ``index``-th line the last feed
        returned: its LF or its CR; the CR of a CRLF, which ends the line whichever read brings the LF, so
        the index is the same for every chunking of the same text.

        For error reports only: it re-scans the last piece, so it costs nothing on the normal path.
        """
        pattern = _ANY_ENDING if self._endings == "any" else re.compile(r"\n")
        for number, match in enumerate(pattern.finditer(self._last_text)):
            if number == index_in_last_feed:
                return self._last_text_start + match.start() + 1
        raise IndexError(index_in_last_feed)

    # -- internals ----------------------------------------------------------------------------------
    def _pending_too_long(self, tail: str, length: int | None = None) -> bool:
        """Is the unfinished line past the limit? In ``lf`` mode its last CR may be the first half of a
        CRLF, which is not part of the line."""
        assert self._max is not None
        length = len(tail) if length is None else length
        if length <= self._max:
            return False
        return not (length == self._max + 1 and self._endings == "lf" and tail.endswith("\r"))

    def _extend(self, text: str, start: int) -> list[str]:
        self._parts.append(text)
        if not len(self._parts) % CHECK_EVERY:  # a long line in small reads: join its pieces (memory)
            compact_tail(self._parts, "")
        self._pending += len(text)
        if self._max is not None and self._pending_too_long(text, self._pending):
            over = self._max - (self._pending - len(text))  # index in text of the first char past the limit
            self._closed = True
            raise LimitExceededError(
                "max_line_chars", self._max, offset=None, line_index=self._lines_out, char_index=start + over
            )
        return []

    def _fail_long_line(self, pieces: list[str], tail: str) -> None:
        """Raise for the first line (complete or pending) that is longer than the limit."""
        self._closed = True
        assert self._max is not None
        line_starts = [self._chars_in - len(self._last_text) - self._pending]  # where pieces[0] began
        for match in (_ANY_ENDING if self._endings == "any" else re.compile(r"\n")).finditer(self._last_text):
            line_starts.append(self._last_text_start + match.end())
        for number, line in enumerate([*pieces, tail]):
            if len(line) > self._max if number < len(pieces) else self._pending_too_long(line):
                error = LimitExceededError(
                    "max_line_chars",
                    self._max,
                    offset=None,
                    line_index=self._lines_out + number,
                    char_index=line_starts[number] + self._max,
                )
                complete = pieces[:number]
                error.outputs = list(complete)
                self._lines_out += len(complete)
                raise error
