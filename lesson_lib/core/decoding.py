"""The character boundary: UTF-8 decoding that survives any chunking.

A UTF-8 character is 1 to 4 bytes, and a network read may end after any of them. The incremental
decoder holds the 0-3 bytes of an unfinished character until the next read completes it; ``close()``
(``final=True``) is what tells a stream that ended mid-character from one that ended cleanly.

``decode_each_chunk`` is kept beside it, named as the wrong way, so the lessons can show what it does.
"""

from __future__ import annotations

import re
from codecs import utf_8_decode
from collections.abc import Iterable

from .enums import ValueEnum
from .errors import ParserStateError, StreamDecodeError, TruncatedCharacterError

#: The error modes a decoder accepts. ``surrogateescape`` keeps each invalid byte as a lone surrogate
#: (U+DC80..U+DCFF) so that text maps back to bytes one for one; the parsers use it internally for
#: ``errors="replace"`` and turn the escapes into U+FFFD with :func:`replace_escapes` on output.
ERROR_MODES = ("strict", "replace", "surrogateescape")


def as_bytes(chunk: object) -> bytes:
    """A read as ``bytes``: ``bytearray`` and ``memoryview`` are copied; anything else (``str`` above all)
    is the caller's mistake: ``TypeError("feed() takes bytes, got str")``. Every byte-fed ``feed()`` calls
    this before it changes any state, so the same mistake gets the same message on every read."""
    if isinstance(chunk, bytes):
        return chunk
    if isinstance(chunk, (bytearray, memoryview)):
        return bytes(chunk)
    raise TypeError(f"feed() takes bytes, got {type(chunk).__name__}")


class IncrementalUTF8Decoder:
    """Decode UTF-8 piece by piece, holding the bytes of an unfinished character between pieces.

    Guarantees, for every way of cutting the same bytes into pieces:

    * the concatenated output of ``feed()`` calls and ``close()`` equals ``data.decode("utf-8", errors)``;
    * in ``strict`` mode, invalid bytes raise :class:`StreamDecodeError` naming the absolute byte offset
      of the first bad byte (its ``text_before`` is what this call decoded before it), and ``close()``
      raises :class:`TruncatedCharacterError` if the input ended mid-character;
    * at most 3 bytes are ever held (:attr:`held_bytes`).

    After an error or ``close()`` the decoder refuses more input (:class:`ParserStateError`).
    """

    __slots__ = ("_bytes_in", "_done", "_errors", "_held")

    def __init__(self, errors: str = "strict") -> None:
        if errors not in ERROR_MODES:
            raise ValueError(f"errors must be one of {ERROR_MODES}, got {errors!r}")
        self._errors = errors
        self._held = b""
        self._bytes_in = 0
        self._done = False

    @property
    def errors(self) -> str:
        return self._errors

    @property
    def held_bytes(self) -> bytes:
        """The 0-3 bytes of a character that has started but not finished."""
        return self._held

    @property
    def bytes_in(self) -> int:
        """How many bytes have been fed in total."""
        return self._bytes_in

    @property
    def bytes_decoded(self) -> int:
        """The absolute offset just past the last byte turned into text (``bytes_in`` minus held)."""
        return self._bytes_in - len(self._held)

    def feed(self, data: bytes) -> str:
        """Decode ``data`` together with any held bytes; return the characters now complete."""
        if data.__class__ is not bytes:
            data = as_bytes(data)
        if self._done:
            raise ParserStateError("decoder already closed or failed", offset=self._bytes_in)
        held = self._held
        if held:
            data = held + data
        try:
            text, consumed = utf_8_decode(data, self._errors, False)
        except UnicodeDecodeError as exc:
            self._done = True
            offset = self._bytes_in - len(held) + exc.start
            self._bytes_in += len(data) - len(held)
            error = StreamDecodeError(
                exc.object[exc.start : exc.end], 0, exc.end - exc.start, exc.reason, offset=offset
            )
            error.text_before = data[: exc.start].decode("utf-8")
            raise error from None
        self._bytes_in += len(data) - len(held)
        self._held = data[consumed:] if consumed != len(data) else b""
        return text

    def getstate(self) -> tuple[bytes, int]:
        """The decoder's state as ``(held_bytes, bytes_in)``, as ``codecs.IncrementalDecoder.getstate``.

        For a caller that decodes some input itself (:mod:`lesson_lib.core.sse_fast` does, in one pass with
        the lines) and hands the state back with :meth:`setstate`. Open or not, this only reads.
        """
        return self._held, self._bytes_in

    def setstate(self, state: tuple[bytes, int]) -> None:
        """Continue from ``state``, as if the input that led to it had been fed here.

        ``state`` is ``(held, bytes_in)``: ``held`` the 0-3 bytes of a valid but unfinished character
        (what :func:`incomplete_tail_length` finds), ``bytes_in`` the bytes fed so far, held included.
        Guarantee: after ``setstate(other.getstate())`` this decoder gives the same text, errors and
        offsets as ``other`` on every continuation. A state no input could lead to raises ``ValueError``
        and changes nothing; a closed or failed decoder refuses (:class:`ParserStateError`).
        """
        held, bytes_in = state
        if self._done:
            raise ParserStateError("decoder already closed or failed", offset=self._bytes_in)
        if held.__class__ is not bytes or len(held) > 3 or incomplete_tail_length(held) != len(held):
            raise ValueError(f"held must be the bytes of one unfinished character, got {held!r}")
        if bytes_in.__class__ is not int or bytes_in < len(held):
            raise ValueError(f"bytes_in must be an int >= len(held), got {bytes_in!r}")
        self._held, self._bytes_in = held, bytes_in

    def close(self) -> str:
        """End of input (``final=True``): flush, or raise if the input ended mid-character."""
        if self._done:
            raise ParserStateError("decoder already closed or failed", offset=self._bytes_in)
        self._done = True
        held, self._held = self._held, b""
        if not held:
            return ""
        if self._errors == "strict":
            raise TruncatedCharacterError(held, offset=self._bytes_in - len(held))
        text, _ = utf_8_decode(held, self._errors, True)
        return text


def decode_each_chunk(chunks: Iterable[bytes], errors: str = "replace") -> list[str]:
    """THE WRONG WAY, kept for the lessons: decode every read on its own.

    A character cut by a read boundary becomes U+FFFD (``errors="replace"``) or raises a plain
    ``UnicodeDecodeError`` whose position is relative to the read, not the stream (``errors="strict"``).
    """
    return [chunk.decode("utf-8", errors) for chunk in chunks]


def naive_decode(chunks: Iterable[bytes], errors: str = "replace") -> str:
    """THE WRONG WAY joined up: ``"".join(chunk.decode(...) for chunk in chunks)``."""
    return "".join(decode_each_chunk(chunks, errors))


def incremental_decode(chunks: Iterable[bytes], errors: str = "strict") -> str:
    """The right way: one :class:`IncrementalUTF8Decoder` for the whole stream, closed at the end."""
    decoder = IncrementalUTF8Decoder(errors)
    parts = [decoder.feed(chunk) for chunk in chunks]
    parts.append(decoder.close())
    return "".join(parts)


def utf8_length(text: str) -> int:
    """How many bytes ``text`` took on the wire (lone surrogates from ``surrogateescape`` count as one)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-8", "surrogateescape"))


def replace_escapes(text: str) -> str:
    """Turn ``surrogateescape`` escapes into U+FFFD exactly as decoding with ``errors="replace"`` would.

    The escaped bytes are the original bytes, so re-decoding them substitutes one U+FFFD per maximal
    invalid subpart, the WHATWG/Unicode practice that browsers follow.
    """
    if text.isascii() or _SURROGATE.search(text) is None:  # no escape in it: the same text, not copied
        return text
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


#: Any surrogate code point: escapes are U+DC80..U+DCFF; a text with none is returned as it is (a scan
#: instead of two copies of a long value; any other surrogate still goes through the codec, which raises).
_SURROGATE = re.compile("[\ud800-\udfff]")


def incomplete_tail_length(data: bytes) -> int:
    """How many trailing bytes of ``data`` are a valid but unfinished character (0-3)."""
    _, consumed = utf_8_decode(data[-3:], "surrogateescape", False)
    return len(data[-3:]) - consumed


def char_spans(data: bytes) -> list[tuple[int, int]]:
    """The byte span ``(start, end)`` of every character of ``data``; an invalid byte is its own span.

    A trailing unfinished character is one span too. Used by the pictures that colour bytes by the
    character they belong to.
    """
    tail = incomplete_tail_length(data)
    text = data[: len(data) - tail].decode("utf-8", "surrogateescape")
    spans, start = [], 0
    for ch in text:
        end = start + (1 if "\udc80" <= ch <= "\udcff" else len(ch.encode("utf-8")))
        spans.append((start, end))
        start = end
    if tail:
        spans.append((start, len(data)))
    return spans


class ByteRole(ValueEnum):
    """What one byte is in UTF-8 on its own (:func:`byte_role`); a ``str`` enum that prints as its value."""

    ASCII = "ascii"  # a whole character: U+0000 to U+007F
    LEAD = "lead"  # starts a character of 2 to 4 bytes
    CONTINUATION = "continuation"  # the 2nd to 4th byte of a character
    INVALID = "invalid"  # never in UTF-8 (C0, C1, F5 to FF)

    def label(self) -> str:
        """The role's name as a learner reads it, in the current language (the registered wording,
        :mod:`lesson_lib.core.wording`); the value itself (``"lead"``...) is what code compares."""
        from .wording import wording

        return wording().byte_role(self)


def byte_role(byte: int) -> ByteRole:
    """What one byte is in UTF-8 on its own: ``ascii``, ``lead``, ``continuation`` or ``invalid``."""
    if byte < 0x80:
        return ByteRole.ASCII
    if byte < 0xC0:
        return ByteRole.CONTINUATION
    if 0xC2 <= byte <= 0xF4:
        return ByteRole.LEAD
    return ByteRole.INVALID
