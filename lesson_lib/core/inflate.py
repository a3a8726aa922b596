"""The content coding: a gzip or deflate body inflated read by read, sans-IO.

A body sent with ``Content-Encoding: gzip`` or ``deflate`` (RFC 9110, section 8.4.1) has one more boundary
below the chunk: the compressor's. A read of compressed bytes can inflate to nothing (a header, half a
block), to a few bytes, or to many, and what it inflates to is cut wherever the compressor flushed, not
where a character, a line or an event ends. :class:`Inflater` takes the compressed reads in any cut and
returns, per read, the bytes they inflate to; the parsers above read those as they read an uncompressed
body. Codings (the names ``Content-Encoding`` uses, lower case; ``x-gzip`` is ``gzip``):

* ``gzip`` (RFC 1952): one member or several in a row (a gzip body is a series of members, as
  ``gzip.decompress`` reads it); the bytes after a member are the next member's header or an error;
* ``deflate``: zlib-wrapped (RFC 1950), as RFC 9110 defines the coding, or raw deflate (RFC 1951), as some
  servers send it and browsers accept it, told apart by the first two bytes (the zlib header's check),
  held until both came. One stream; a byte after its end is an error.

What the end of a member proves, and what it does not. :attr:`Inflater.finished` is ``True`` when the
compressed input so far ends exactly at the end of a member (a gzip trailer whose CRC-32 and length match
the bytes inflated; a zlib stream's final block and Adler-32; a raw deflate stream's final block, which has
no checksum), with no byte of another after it. That proves the compressor finished ITS input, and that
the bytes inflated are whole and unchanged as they were compressed: a body cut inside a member (by a proxy,
a dropped connection, a server that stopped) is not ``finished``, and that is how a cut is told from a
whole body under compression. It does not prove that the service finished the answer: only the contract's
terminal signal says that. A proxy that compresses a stream it received cut ends its member cleanly, and a
server may end a member after each event, so ``finished`` is true between any two of them.

Bounded: one read may inflate to at most ``max_inflated_read`` bytes (:data:`MAX_INFLATED_READ` by
default; deflate inflates up to about 1032 times): past it,
:class:`~lesson_lib.core.errors.LimitExceededError`, not a dropped or a partial read (a decompression bomb
stops at the read that sets it off). Errors name an
offset in the COMPRESSED body: :class:`~lesson_lib.core.errors.InflateError` (a
:class:`~lesson_lib.core.errors.StreamDecodeError`) for data that does not inflate, at the byte where it
stopped being valid, found the same for every cut of the same bytes; the limit at the compressed byte the
read had reached when its output passed the bound. The bytes inflated before an error are what the data
inflated to, not proven right: a changed byte in a block can inflate to other bytes, and only the checksum
at the member's end (gzip's CRC-32, zlib's Adler-32; raw deflate has none) shows it. ``close()`` raises
:class:`~lesson_lib.core.errors.IncompleteStreamError` (``unit`` ``"member"``) when the input ended inside
a member. After an error or ``close()`` the inflater refuses more input
(:class:`~lesson_lib.core.errors.ParserStateError`).
"""

from __future__ import annotations

import zlib
from typing import Final

from .decoding import as_bytes
from .errors import IncompleteStreamError, InflateError, LimitExceededError, ParserStateError
from .options import check_int

__all__ = ["CODINGS", "MAX_INFLATED_READ", "Inflater", "coding_name"]

#: The content codings :class:`Inflater` undoes, as ``Content-Encoding`` names them (lower case).
CODINGS: Final = frozenset({"gzip", "x-gzip", "deflate"})

#: The most bytes one compressed read may inflate to, by default (16 MiB: a 64 KiB read of text that
#: compresses 250 times over).
MAX_INFLATED_READ: Final = 16 * 1024 * 1024

_GZIP_WBITS: Final = 16 + zlib.MAX_WBITS  # a gzip header and trailer around deflate
_ZLIB_WBITS: Final = zlib.MAX_WBITS  # a zlib header and Adler-32 around deflate
_RAW_WBITS: Final = -zlib.MAX_WBITS  # deflate alone


def coding_name(coding: str) -> str:
    """``coding`` (a ``Content-Encoding`` token, any case, spaces around it ignored) as :class:`Inflater`
    names it: ``"gzip"`` (``x-gzip`` too) or ``"deflate"``; anything else raises ``ValueError``."""
    if not isinstance(coding, str):
        raise TypeError(f"coding must be a str, got {type(coding).__name__}")
    name = coding.strip().lower()
    if name not in CODINGS:
        raise ValueError(f"coding must be gzip, x-gzip or deflate, got {coding!r}")
    return "gzip" if name == "x-gzip" else name


def _zlib_wrapped(first: int, second: int) -> bool:
    """Whether two bytes are a zlib header (RFC 1950: method 8, a window of at most 32 KiB, the check)."""
    return first & 0x0F == 8 and first >> 4 <= 7 and ((first << 8) | second) % 31 == 0


class Inflater:
    """Inflate one body's compressed reads, in any cut; see the module for what :attr:`finished` proves.

    Guarantees, for every way of cutting the same compressed bytes into reads:

    * the concatenated output of ``feed()`` calls and ``close()`` is the inflated body
      (``zlib.decompress`` of it, or ``gzip.decompress`` of several gzip members);
    * data that does not inflate raises :class:`~lesson_lib.core.errors.InflateError` at the same
      compressed offset, with what the failing read inflated before it in ``outputs``;
    * one read inflates to at most ``max_inflated_read`` bytes (``None``: no bound), else
      :class:`~lesson_lib.core.errors.LimitExceededError` (``limit`` ``"max_inflated_read"``);
    * ``close()`` raises :class:`~lesson_lib.core.errors.IncompleteStreamError` (``unit`` ``"member"``,
      ``offset`` the compressed length) unless the input ended at a member's end.
    """

    __slots__ = (
        "_bytes_in", "_bytes_out", "_done", "_held", "_in_member", "_members", "_z", "coding", "limit"
    )

    def __init__(self, coding: str, *, max_inflated_read: int | None = MAX_INFLATED_READ) -> None:
        self.coding = coding_name(coding)
        self.limit = check_int("max_inflated_read", max_inflated_read, minimum=1, none=True)
        self._z = zlib.decompressobj(_GZIP_WBITS) if self.coding == "gzip" else None  # deflate: told later
        self._held = b""  # deflate: the first byte, until the second tells the wrapper
        self._bytes_in = 0
        self._bytes_out = 0
        self._members = 0
        self._in_member = False  # a byte of a member that has not ended was taken
        self._done = False

    @property
    def bytes_in(self) -> int:
        """Compressed bytes taken so far."""
        return self._bytes_in

    @property
    def bytes_out(self) -> int:
        """Inflated bytes returned so far."""
        return self._bytes_out

    @property
    def members(self) -> int:
        """Members (gzip) or streams (deflate) that ended so far."""
        return self._members

    @property
    def finished(self) -> bool:
        """``True`` when the compressed bytes so far end exactly at a member's end (at least one member
        ended, and no byte of another followed): the compressor finished its input. Not that the answer
        is whole: see the module."""
        return self._members > 0 and not self._in_member

    def feed(self, data: bytes) -> bytes:
        """Inflate one compressed read; return what it completes (often ``b""``: a header, part of a
        block). Raises as the class says; after an error the inflater refuses more input."""
        data = as_bytes(data)
        if self._done:
            raise ParserStateError("inflater already closed or failed", offset=self._bytes_in)
        if not data:
            return b""
        start = self._bytes_in
        self._bytes_in += len(data)
        if self._z is None:  # deflate, its first two bytes not both seen yet
            data, start, self._held = self._held + data, start - len(self._held), b""
            self._in_member = True
            if len(data) < 2:
                self._held = data
                return b""
            wbits = _ZLIB_WBITS if _zlib_wrapped(data[0], data[1]) else _RAW_WBITS
            self._z = zlib.decompressobj(wbits)
        try:
            out = self._inflate(data, start)
        except (InflateError, LimitExceededError):
            self._done = True
            raise
        self._bytes_out += len(out)
        return out

    def _inflate(self, data: bytes, start: int) -> bytes:
        """Inflate ``data`` (whose first byte is at compressed offset ``start``) across member ends."""
        z = self._z
        assert z is not None
        out: list[bytes] = []
        made = 0
        while data:
            if z.eof:  # a member ended: what follows is the next member, or an error
                if self.coding != "gzip":
                    raise self._corrupt(data[:1], "bytes after the end of the deflate stream", start, out)
                z = self._z = zlib.decompressobj(_GZIP_WBITS)
            before = z.copy()  # to find the exact byte, should this read be corrupt
            room = 0 if self.limit is None else self.limit - made + 1  # 0: zlib's "no bound"
            self._in_member = True
            try:
                piece = z.decompress(data, room)
            except zlib.error:
                raise self._locate(before, data, start, out) from None
            made += len(piece)
            if self.limit is not None and made > self.limit:
                taken = len(data) - len(z.unconsumed_tail)
                raise self._too_much(start + taken)
            out.append(piece)
            if not z.eof:
                break  # every byte taken (the bound was not reached, so zlib read them all)
            self._members += 1
            self._in_member = False
            rest = z.unused_data
            start += len(data) - len(rest)
            data = rest
        return b"".join(out)

    def _locate(self, before: zlib._Decompress, data: bytes, start: int, out: list[bytes]) -> InflateError:
        """The error of a read that zlib refused: replayed a byte at a time from the state before it, the
        first byte zlib refuses is the offset (the same however the bytes were cut)."""
        made: list[bytes] = []
        for index in range(len(data)):
            try:
                made.append(before.decompress(data[index : index + 1]))
            except zlib.error as exc:
                return self._corrupt(data[index : index + 1], _reason(exc), start + index, [*out, *made])
        # zlib refused the read whole but not byte by byte: not seen, but the read is still refused
        end = start + len(data) - 1
        return self._corrupt(data[-1:], "the data does not inflate", end, [*out, *made])

    def _corrupt(self, bad: bytes, reason: str, offset: int, out: list[bytes]) -> InflateError:
        error = InflateError(self.coding, bad, reason, offset=offset)
        inflated = b"".join(out)
        error.outputs = [inflated] if inflated else []
        return error

    def _too_much(self, offset: int) -> LimitExceededError:
        assert self.limit is not None
        error = LimitExceededError("max_inflated_read", self.limit, offset=offset)
        error.message = (
            f"max_inflated_read={self.limit} exceeded: one read of the {self.coding} body inflates to more "
            "(the offset is in the compressed body)"
        )
        return error

    def close(self) -> bytes:
        """End of the compressed input: the last inflated bytes (normally none: each read returned all it
        could), or :class:`~lesson_lib.core.errors.IncompleteStreamError` if it ended inside a member
        (those bytes then in its ``outputs``). The inflater refuses more input afterwards."""
        if self._done:
            raise ParserStateError("inflater already closed or failed", offset=self._bytes_in)
        self._done = True
        rest = b"" if self._z is None or self._z.eof else bytes(self._z.flush())
        self._bytes_out += len(rest)
        if not self.finished:
            where = "before any member" if self._bytes_in == 0 else "inside a member"
            error = IncompleteStreamError(
                "member",
                f"the {self.coding} body ended {where}, after {self._bytes_in} compressed bytes",
                offset=self._bytes_in,
            )
            error.outputs = [rest] if rest else []
            raise error
        return rest


def _reason(exc: zlib.error) -> str:
    """zlib's own words without its error number: ``"invalid block type"``, ``"incorrect data check"``."""
    text = str(exc)
    return text.split(": ", 1)[1] if ": " in text else text
