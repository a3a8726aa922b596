"""A response body's content coding, sans-IO: which ``Content-Encoding`` lesson_lib reads, and its raw reads
undone one by one for :mod:`lesson_lib.net.http`'s sync and async drivers alike.

* :func:`body_coding` reads the header: no header, an empty one or ``identity`` is the body as sent
  (``None``); ``gzip``, ``x-gzip`` and ``deflate``, in any case, are undone
  (:class:`~lesson_lib.core.inflate.Inflater`); any other coding (``br``, ``zstd``, ``compress``) or a list
  of codings (``gzip, br``: applied in turn, and a proxy's doing) is refused with
  :class:`ContentEncodingError` before the body is read.
* :class:`BodyDecoder` turns each raw read into one piece (``b""`` when the read inflated to nothing: the
  driver drops it) and says at the end of the raw body whether the body was whole as compressed: a body
  that the transport ended cleanly inside a gzip member or a deflate stream is a cut, raised as
  :class:`CompressedBodyCutError`, an ``httpx.RemoteProtocolError`` as httpx raises for a chunked body
  without its last chunk, so every reader of :mod:`lesson_lib.net.http` treats it as the transport cut
  it is (``truncated``, with the error's name in ``error.kind``; a resume function reconnects). Data
  that does not inflate is :class:`~lesson_lib.core.errors.InflateError` and a read past the bound
  :class:`~lesson_lib.core.errors.LimitExceededError`, each at an offset in the compressed body, after
  the piece the read inflated before it.

A member's end proves the compressor finished its input, not that the service finished the answer: the
contract's terminal signal is still what says that (see :mod:`lesson_lib.core.inflate`).
"""

from __future__ import annotations

import httpx

from ..core.errors import IncompleteStreamError, InflateError, LimitExceededError
from ..core.inflate import MAX_INFLATED_READ, Inflater, coding_name

__all__ = ["BodyDecoder", "CompressedBodyCutError", "ContentEncodingError", "body_coding"]

_READ = ("gzip", "x-gzip", "deflate")


class ContentEncodingError(httpx.DecodingError):
    """The body has a ``Content-Encoding`` lesson_lib does not undo: one other than gzip and deflate (``br``,
    ``zstd``, ``compress``), or a list of codings.

    ``content_encoding`` is the header's value. Raised by :func:`~lesson_lib.net.http.open_reads` after
    closing the response, before any body byte is read.
    """

    def __init__(self, content_encoding: str, *, request: httpx.Request | None = None) -> None:
        super().__init__(
            f"the response has Content-Encoding: {content_encoding}; lesson_lib reads gzip and deflate (one "
            "coding) and the body as sent (identity), which it asks for: have the server or proxy send this "
            "stream uncompressed, or with gzip",
            request=request,
        )
        self.content_encoding = content_encoding


class CompressedBodyCutError(httpx.RemoteProtocolError):
    """The transport ended the body cleanly, but inside a gzip member or a deflate stream: the body was cut
    (by the server, a proxy, a dropped upstream), as a chunked body without its last chunk is.

    ``coding`` is the coding, ``compressed_bytes`` how many compressed bytes arrived."""

    def __init__(self, coding: str, compressed_bytes: int, *, request: httpx.Request | None = None) -> None:
        super().__init__(
            f"the {coding} body ended inside a compressed member, after {compressed_bytes} compressed bytes: "
            "it was cut",
            request=request,
        )
        self.coding = coding
        self.compressed_bytes = compressed_bytes


def body_coding(content_encoding: str | None, *, request: httpx.Request | None = None) -> str | None:
    """The coding to undo for a body with this ``Content-Encoding`` value: ``None`` (the body as sent, for
    no header, an empty one or ``identity``), ``"gzip"`` (``gzip``, ``x-gzip``) or ``"deflate"``, in any
    case; else :class:`ContentEncodingError` (another coding, or a list of codings)."""
    value = (content_encoding or "").strip()
    if value.lower() in ("", "identity"):
        return None
    if value.lower() not in _READ:
        raise ContentEncodingError(value, request=request)
    return coding_name(value)


class BodyDecoder:
    """One body's raw reads, undone (sans-IO). ``feed(raw)`` and ``end()`` each return ``(piece, error)``:
    pass the piece on if it is not empty, then raise the error if there is one (what the read inflated
    before bad data is passed on first, so the text before it is the same however the bytes were cut).

    ``coding`` ``None`` passes every read through; ``"gzip"`` or ``"deflate"`` inflates, each read to at
    most ``max_inflated_read`` bytes. :attr:`finished` says the compressed body so far ends at a member's
    end (always ``True`` for ``None``)."""

    def __init__(
        self,
        coding: str | None,
        *,
        max_inflated_read: int | None = MAX_INFLATED_READ,
        request: httpx.Request | None = None,
    ) -> None:
        self.coding = coding
        self.request = request
        self.inflater = None if coding is None else Inflater(coding, max_inflated_read=max_inflated_read)

    @property
    def finished(self) -> bool:
        return self.inflater is None or self.inflater.finished

    def feed(self, raw: bytes) -> tuple[bytes, Exception | None]:
        """One raw read: the bytes it decodes to, and the error to raise after them (bad data, the bound)."""
        if self.inflater is None:
            return raw, None
        try:
            return self.inflater.feed(raw), None
        except InflateError as exc:
            return (exc.outputs[0] if exc.outputs else b""), exc
        except LimitExceededError as exc:  # the bound: nothing of the read is passed on
            return b"", exc

    def end(self) -> tuple[bytes, Exception | None]:
        """The raw body ended cleanly: the last bytes, and :class:`CompressedBodyCutError` if it ended
        inside a member."""
        if self.inflater is None:
            return b"", None
        try:
            return self.inflater.close(), None
        except IncompleteStreamError as exc:
            assert self.coding is not None
            cut = CompressedBodyCutError(self.coding, self.inflater.bytes_in, request=self.request)
            cut.__cause__ = exc
            return (exc.outputs[0] if exc.outputs else b""), cut
