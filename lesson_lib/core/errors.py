"""Exception types for every boundary.

Every error raised by lesson_lib is a :class:`BoundaryError`. Each one says what went wrong and where:
``offset`` is the absolute byte offset in the stream (counting from the first byte ever fed, 0-based),
and ``line_index`` / ``event_index`` give the 0-based line or event number where they apply. A layer that
only sees text (the line splitter used on its own) gives ``char_index`` instead; the byte-fed parsers
always fill in ``offset``.

Errors never carry stream content beyond the few offending bytes of a decoding error, so they are
safe to log.

Nothing is lost when a ``feed()`` raises: ``outputs`` holds what that call had completed before the
error (events, lines, JSON values), in order, so the events before an error are the same for every
chunking.

The decoding errors are also :class:`UnicodeDecodeError`, so code that already handles Unicode
errors keeps working; their ``start``/``end`` are positions in ``object`` (the offending bytes, as
the codec convention requires), while ``offset`` is the absolute position in the stream.
"""

from __future__ import annotations

from typing import Any


class BoundaryError(Exception):
    """Base class: something at one of the boundaries went wrong at a known place."""

    def __init__(
        self,
        message: str,
        *,
        offset: int | None = None,
        line_index: int | None = None,
        event_index: int | None = None,
        char_index: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.line_index = line_index
        self.event_index = event_index
        self.char_index = char_index
        #: What the failing call completed before the error, of the raising layer's output type: lines
        #: (``str``) from a line splitter, ``Event``/``Comment`` from an SSE parser, JSON values from an
        #: NDJSON or JSON-array parser. A layer that catches its lower layer's error knows which, so the
        #: element type is ``Any`` (one attribute, several types, decided where the error is raised).
        self.outputs: list[Any] = []
        #: ``False`` when ``offset`` is only the end of the read in which the problem was detected (set by
        #: whoever filled the offset in, e.g. ``consume`` for an error found in a whole event).
        self.offset_exact = True

    def where(self) -> str:
        """A short human description of the location, e.g. ``at byte offset 17 (line 2)``."""
        parts = []
        if self.offset is not None and not self.offset_exact:
            parts.append(f"in the read ending at byte {self.offset}")
        elif self.offset is not None:
            parts.append(f"at byte offset {self.offset}")
        elif self.char_index is not None:
            parts.append(f"at character {self.char_index}")
        extra = []
        if self.line_index is not None:
            extra.append(f"line {self.line_index}")
        if self.event_index is not None:
            extra.append(f"event {self.event_index}")
        if extra:
            parts.append("(" + ", ".join(extra) + ")")
        return " ".join(parts)

    def __str__(self) -> str:
        where = self.where()
        return f"{self.message} {where}" if where else self.message

    def describe(self) -> str:
        """What went wrong and where, in the current language (the registered wording,
        :mod:`lesson_lib.core.wording`): what a lesson prints. ``str(error)`` stays English, for logs."""
        from .wording import wording

        return wording().error(self)


class StreamDecodeError(UnicodeDecodeError, BoundaryError):
    """Bytes that are not valid UTF-8 (strict mode only).

    ``offset`` is the absolute stream offset of the first offending byte; ``object[start:end]`` are
    the offending bytes themselves.
    """

    def __init__(self, bad: bytes, start: int, end: int, reason: str, *, offset: int) -> None:
        UnicodeDecodeError.__init__(self, "utf-8", bad, start, end, reason)
        self.message = f"invalid UTF-8 ({reason})"
        self.offset = offset
        self.line_index = None
        self.event_index = None
        self.char_index = None
        self.outputs: list[Any] = []  # see BoundaryError.outputs
        self.offset_exact = True
        #: The text the failing feed decoded before the bad byte (for the layers above to finish).
        self.text_before = ""

    def __str__(self) -> str:
        bad = self.object[self.start : self.end]
        return f"invalid UTF-8 ({self.reason}): byte(s) {bad.hex(' ')} at byte offset {self.offset}"


class TruncatedCharacterError(StreamDecodeError):
    """The input ended in the middle of a multi-byte character (detected by ``final=True``).

    ``offset`` is where the unfinished character starts; ``object`` holds its 1-3 bytes.
    """

    def __init__(self, held: bytes, *, offset: int) -> None:
        super().__init__(held, 0, len(held), "input ended mid-character", offset=offset)

    def __str__(self) -> str:
        return (
            f"input ended mid-character: {len(self.object)} byte(s) {self.object.hex(' ')} "
            f"of an unfinished character at byte offset {self.offset}"
        )


class InflateError(StreamDecodeError):
    """Compressed bytes (the ``gzip`` or ``deflate`` content coding) that do not inflate: a bad header, an
    invalid block, a checksum or length in a trailer that does not match, bytes after a deflate stream's
    end (raised by :class:`~lesson_lib.core.inflate.Inflater`).

    ``offset`` is an offset in the COMPRESSED body (as it crossed the wire), not in the inflated bytes the
    parsers count: the byte at which the data stopped being a valid stream (``object`` holds that byte,
    ``encoding`` the coding). ``outputs`` holds the bytes the failing call inflated before it, as one
    ``bytes`` item (none if it inflated nothing).
    """

    def __init__(self, coding: str, bad: bytes, reason: str, *, offset: int) -> None:
        super().__init__(bad, 0, len(bad), reason, offset=offset)
        self.encoding = coding
        self.message = f"corrupt {coding} data ({reason})"

    def __str__(self) -> str:
        return f"{self.message} at compressed byte offset {self.offset}"


class LimitExceededError(BoundaryError):
    """A buffer bound was reached. Nothing was dropped: the parser stops here.

    ``limit`` names the setting (``max_line_chars``, ``max_event_chars``, ...), ``maximum`` its value.
    """

    def __init__(
        self,
        limit: str,
        maximum: int,
        *,
        offset: int | None,
        line_index: int | None = None,
        event_index: int | None = None,
        char_index: int | None = None,
    ) -> None:
        super().__init__(
            f"{limit}={maximum} exceeded",
            offset=offset,
            line_index=line_index,
            event_index=event_index,
            char_index=char_index,
        )
        self.limit = limit
        self.maximum = maximum


class FramingError(BoundaryError):
    """The bytes are valid text but do not follow the framing (NDJSON line, JSON array element)."""


class IncompleteStreamError(BoundaryError):
    """``close()`` found input that ended mid-unit: a line without its newline, an open JSON array.

    ``unit`` says which boundary was left open (``"line"``, ``"element"``, ``"array"``).
    """

    def __init__(self, unit: str, message: str, *, offset: int | None, **where: int | None) -> None:
        super().__init__(message, offset=offset, **where)
        self.unit = unit


class ParserStateError(BoundaryError):
    """The parser was used after ``close()`` or after it raised: it keeps no half-valid state."""
