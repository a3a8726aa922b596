"""The content coding: gzip and deflate inflated read by read (lesson_lib.core.inflate), in every chunking.

* any bytes compressed with gzip, zlib-wrapped or raw deflate, at any level, flushed per piece or not,
  inflate in every chunking to what zlib gives for the whole body, and end ``finished``;
* a body cut anywhere inside a member is not ``finished``, and ``close()`` says so (``IncompleteStreamError``,
  unit ``member``, the compressed length); several gzip members in a row are one body, finished at each
  member's end and only there;
* corrupt data raises ``InflateError`` (a ``StreamDecodeError``) at the same compressed offset in every
  chunking, never before the corrupted byte, with what the read inflated before it in ``outputs``;
* one read inflates to at most ``max_inflated_read`` bytes, else ``LimitExceededError`` at an offset in the
  compressed body.
"""

from __future__ import annotations

import gzip
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import Outcome, StreamJudge, consume
from lesson_lib.core.chunking import one_byte_chunks, split_at
from lesson_lib.core.errors import (
    BoundaryError,
    IncompleteStreamError,
    InflateError,
    LimitExceededError,
    ParserStateError,
    StreamDecodeError,
)
from lesson_lib.core.inflate import MAX_INFLATED_READ, Inflater, coding_name
from lesson_lib.core.options import OptionError
from tests.strategies import partitions

#: The three ways a body is compressed: (Content-Encoding, zlib's wbits).
WRAPPERS = {"gzip": ("gzip", 31), "zlib deflate": ("deflate", 15), "raw deflate": ("deflate", -15)}

SSE = "".join(f'data: {{"delta": "café 你好 🙂 {i}"}}\n\n' for i in range(40)).encode()


def compress(data: bytes, wbits: int, level: int = 6, pieces: list[bytes] | None = None) -> bytes:
    """``data`` compressed (each of ``pieces`` followed by a sync flush, as a streaming server sends)."""
    packer = zlib.compressobj(level, zlib.DEFLATED, wbits)
    if pieces is None:
        return packer.compress(data) + packer.flush()
    out = [packer.compress(piece) + packer.flush(zlib.Z_SYNC_FLUSH) for piece in pieces]
    return b"".join(out) + packer.flush()


def inflate_all(
    coding: str, reads: list[bytes], **options: int | None
) -> tuple[bytes, Inflater, BoundaryError | None]:
    """Feed every read and close: the bytes inflated (an error's ``outputs`` included), the inflater, the
    error."""
    inflater = Inflater(coding, **options)
    out: list[bytes] = []
    try:
        for read in reads:
            out.append(inflater.feed(read))
        out.append(inflater.close())
    except BoundaryError as exc:
        out.extend(exc.outputs)
        return b"".join(out), inflater, exc
    return b"".join(out), inflater, None


def where(exc: BoundaryError | None) -> tuple[object, ...] | None:
    return None if exc is None else (type(exc).__name__, exc.offset, str(exc))


# --- whole bodies: the same bytes as zlib, in every chunking ---------------------------------------------


body_bytes = st.one_of(st.binary(max_size=600), st.just(SSE), st.text(max_size=300).map(str.encode))


@settings(max_examples=300, deadline=None)
@given(st.data(), body_bytes, st.sampled_from(sorted(WRAPPERS)), st.integers(0, 9), st.booleans())
def test_any_body_at_any_level_inflates_in_every_chunking_as_zlib_does(data, body, wrapper, level, flushed):
    coding, wbits = WRAPPERS[wrapper]
    pieces = data.draw(partitions(body)) if flushed else None
    compressed = compress(body, wbits, level, pieces)
    assert zlib.decompress(compressed, wbits) == body  # the oracle
    reads = data.draw(partitions(compressed))
    out, inflater, error = inflate_all(coding, reads)
    assert error is None and out == body
    assert inflater.finished and inflater.members == 1
    assert inflater.bytes_in == len(compressed) and inflater.bytes_out == len(body)


def test_per_read_output_is_what_the_compressor_flushed():
    # A server that flushes each event: each compressed read inflates to exactly that event.
    events = [b"data: %d\n\n" % i for i in range(5)]
    packer = zlib.compressobj(wbits=31)
    reads = [packer.compress(event) + packer.flush(zlib.Z_SYNC_FLUSH) for event in events]
    reads.append(packer.flush())
    inflater = Inflater("gzip")
    assert [inflater.feed(read) for read in reads] == [*events, b""]
    assert inflater.finished and inflater.close() == b""


def test_a_header_alone_inflates_to_nothing_and_is_not_finished():
    compressed = gzip.compress(b"hello", mtime=0)
    inflater = Inflater("gzip")
    assert inflater.feed(compressed[:10]) == b"" and not inflater.finished  # the gzip header
    assert inflater.feed(compressed[10:]) == b"hello" and inflater.finished


@pytest.mark.parametrize("name, expected", [("gzip", "gzip"), ("GZIP", "gzip"), (" x-gzip ", "gzip"),
                                            ("X-Gzip", "gzip"), ("Deflate", "deflate")])  # fmt: skip
def test_coding_names_in_any_case(name, expected):
    assert coding_name(name) == expected and Inflater(name).coding == expected


def test_deflate_tells_zlib_from_raw_by_the_first_two_bytes_however_they_arrive():
    for wbits in (15, -15):
        compressed = compress(SSE, wbits)
        for reads in ([compressed], one_byte_chunks(compressed), split_at(compressed, [1, 2, 3])):
            out, inflater, error = inflate_all("deflate", reads)
            assert error is None and out == SSE and inflater.finished


# --- cuts: a member's end is what finished says ----------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.data(), body_bytes, st.sampled_from(sorted(WRAPPERS)), st.integers(0, 9))
def test_a_cut_anywhere_inside_a_member_is_not_finished(data, body, wrapper, level):
    coding, wbits = WRAPPERS[wrapper]
    compressed = compress(body, wbits, level)
    cut = data.draw(st.integers(0, len(compressed) - 1))
    reads = data.draw(partitions(compressed[:cut]))
    out, inflater, error = inflate_all(coding, reads)
    assert not inflater.finished
    assert isinstance(error, IncompleteStreamError) and error.unit == "member" and error.offset == cut
    assert body.startswith(out)  # what did inflate is the body's start, nothing made up


def test_several_gzip_members_are_one_body_finished_at_each_members_end_only():
    first, second = "café 你好".encode(), SSE
    one, two = gzip.compress(first), gzip.compress(second, compresslevel=1)
    body = one + two
    for reads in ([body], one_byte_chunks(body), split_at(body, [len(one)]), split_at(body, [len(one) + 1])):
        out, inflater, error = inflate_all("gzip", reads)
        assert error is None and out == first + second and inflater.members == 2
    assert gzip.decompress(body) == first + second  # the oracle for several members
    inflater = Inflater("gzip")
    finished_after = []
    for offset, byte in enumerate(one_byte_chunks(body), start=1):
        inflater.feed(byte)
        finished_after.append(offset) if inflater.finished else None
    assert finished_after == [len(one), len(body)]
    cut = body[: len(one) + 1]  # one byte of the second member
    out, inflater, error = inflate_all("gzip", [cut])
    assert isinstance(error, IncompleteStreamError) and out == first and inflater.members == 1


def test_an_empty_body_or_a_lone_deflate_byte_is_not_a_member():
    for coding, reads in [("gzip", []), ("deflate", []), ("deflate", [b"x"]), ("gzip", [b"", b""])]:
        _out, inflater, error = inflate_all(coding, reads)
        assert isinstance(error, IncompleteStreamError) and not inflater.finished


# --- corrupt data: an error at a compressed offset, the same in every chunking ------------------------------


@settings(max_examples=300, deadline=None)
@given(st.data(), st.sampled_from(sorted(WRAPPERS)), st.integers(1, 255))
def test_a_corrupted_byte_gives_one_verdict_in_every_chunking_never_before_it(data, wrapper, flip):
    coding, wbits = WRAPPERS[wrapper]
    compressed = bytearray(compress(SSE, wbits))
    at = data.draw(st.integers(0, len(compressed) - 1))
    compressed[at] ^= flip
    body = bytes(compressed)
    whole = inflate_all(coding, [body])
    for reads in (one_byte_chunks(body), data.draw(partitions(body))):
        out, _inflater, error = inflate_all(coding, reads)
        assert (out, where(error)) == (whole[0], where(whole[2]))
    error = whole[2]
    if isinstance(error, InflateError):
        assert at <= error.offset < len(body)  # at or after the byte that changed, in the compressed body
        # (what inflated before it need not be the body's start: a changed byte inflates to other bytes,
        # and gzip's CRC-32 at the member's end is what finds it; the module docstring says so)
    if coding == "gzip" and at >= 10:  # past the header (mtime, flags: not checked), the CRC-32 sees it
        assert isinstance(error, (InflateError, IncompleteStreamError))


def test_corrupt_data_is_a_stream_decode_error_naming_the_compressed_offset():
    compressed = gzip.compress(SSE)
    bad = compressed[:-8] + bytes([compressed[-8] ^ 1]) + compressed[-7:]  # the CRC-32's first byte
    for reads in ([bad], one_byte_chunks(bad)):
        out, _inflater, error = inflate_all("gzip", reads)
        assert isinstance(error, InflateError) and isinstance(error, StreamDecodeError)
        assert isinstance(error, UnicodeDecodeError) and error.encoding == "gzip"
        assert len(bad) - 8 <= error.offset < len(bad) - 4  # inside the CRC-32
        expected = f"corrupt gzip data (incorrect data check) at compressed byte offset {error.offset}"
        assert str(error) == expected
        assert out == SSE  # every byte inflated before the check, in outputs when one read held them all


def test_bytes_after_a_deflate_stream_are_refused_at_their_first_byte():
    compressed = zlib.compress(SSE)
    for extra in (b"\x00", b"junk"):
        for reads in ([compressed + extra], one_byte_chunks(compressed + extra), [compressed, extra]):
            out, _inflater, error = inflate_all("deflate", reads)
            assert isinstance(error, InflateError) and error.offset == len(compressed)
            assert "after the end of the deflate stream" in str(error) and out == SSE


def test_bytes_after_a_gzip_member_must_be_another_member():
    compressed = gzip.compress(SSE)
    out, _inflater, error = inflate_all("gzip", [compressed + b"junk"])
    assert isinstance(error, InflateError) and len(compressed) <= error.offset < len(compressed) + 4
    assert out == SSE


def test_an_inflater_that_failed_or_closed_refuses_more():
    inflater = Inflater("gzip")
    with pytest.raises(InflateError):
        inflater.feed(b"not gzip at all")
    with pytest.raises(ParserStateError):
        inflater.feed(gzip.compress(b"a"))
    inflater = Inflater("deflate")
    inflater.feed(zlib.compress(b"a"))
    assert inflater.close() == b""
    with pytest.raises(ParserStateError):
        inflater.feed(b"")
    with pytest.raises(ParserStateError):
        inflater.close()


# --- the bound --------------------------------------------------------------------------------------------


def test_a_decompression_bomb_stops_at_the_read_that_sets_it_off():
    bomb = gzip.compress(b"\0" * 20_000_000)  # about 20 KB that inflate to 20 MB
    assert len(bomb) < 30_000
    inflater = Inflater("gzip")
    with pytest.raises(LimitExceededError) as info:
        inflater.feed(bomb)
    error = info.value
    assert error.limit == "max_inflated_read" and error.maximum == MAX_INFLATED_READ
    assert 0 < error.offset < len(bomb)  # how far into the COMPRESSED body the bound was passed
    assert "compressed body" in str(error) and f"at byte offset {error.offset}" in str(error)
    with pytest.raises(ParserStateError):
        inflater.feed(b"")


def test_the_bound_is_per_read_exact_and_settable():
    compressed = gzip.compress(b"a" * 1000)
    out, _inflater, error = inflate_all("gzip", [compressed], max_inflated_read=1000)
    assert error is None and out == b"a" * 1000  # exactly the bound: accepted
    _out, _inflater, error = inflate_all("gzip", [compressed], max_inflated_read=999)
    assert isinstance(error, LimitExceededError) and error.maximum == 999
    assert 0 < error.offset <= len(compressed)
    # the same body in small reads, none of which inflates to more than the bound
    packer = zlib.compressobj(wbits=31)
    reads = [packer.compress(b"a" * 100) + packer.flush(zlib.Z_SYNC_FLUSH) for _ in range(10)]
    reads.append(packer.flush())
    out, _inflater, error = inflate_all("gzip", reads, max_inflated_read=100)
    assert error is None and out == b"a" * 1000
    out, _inflater, error = inflate_all("gzip", [compressed], max_inflated_read=None)
    assert error is None and out == b"a" * 1000


def test_the_bound_counts_every_member_of_one_read():
    two = gzip.compress(b"a" * 60) + gzip.compress(b"b" * 60)
    _out, _inflater, error = inflate_all("gzip", [two], max_inflated_read=100)
    assert isinstance(error, LimitExceededError)
    assert len(gzip.compress(b"a" * 60)) < error.offset <= len(two)  # passed inside the second member


# --- bad arguments ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("coding", ["br", "zstd", "compress", "identity", "gzip, br", ""])
def test_an_unknown_coding_is_refused_naming_it(coding):
    with pytest.raises(ValueError, match="coding must be gzip, x-gzip or deflate"):
        Inflater(coding)


@pytest.mark.parametrize("bound", [0, -1, 1.5, True, "10"])
def test_a_bad_bound_is_refused_naming_it(bound):
    with pytest.raises(OptionError, match="max_inflated_read"):
        Inflater("gzip", max_inflated_read=bound)


def test_feed_takes_bytes():
    with pytest.raises(TypeError, match="feed\\(\\) takes bytes, got str"):
        Inflater("gzip").feed("text")  # type: ignore[arg-type]
    assert Inflater("gzip").feed(bytearray(gzip.compress(b"x"))) == b"x"


# --- consume over an inflating source: bad bytes are decode_error, a bound limit_exceeded, a cut truncated --


def inflating(coding: str, reads: list[bytes], **options: int | None):
    """The reads a client that inflates hands on: one piece per read (empty ones left out), what a read
    inflated before bad data first, then the error; ``close()``'s error (a cut) at the end."""
    inflater = Inflater(coding, **options)
    for read in reads:
        try:
            piece = inflater.feed(read)
        except InflateError as exc:
            yield from exc.outputs
            raise
        if piece:
            yield piece
    yield inflater.close()


CHAT = b"".join(
    b'data: {"choices": [{"index": 0, "delta": {"content": "%s"}, "finish_reason": null}]}\n\n' % piece
    for piece in ("café ".encode(), "你好".encode(), b" ok")
)
CHAT += b'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}\n\ndata: [DONE]\n\n'


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_consume_over_an_inflating_source_judges_the_same_in_every_chunking(data):
    compressed = gzip.compress(CHAT)
    whole = consume(inflating("gzip", data.draw(partitions(compressed))), "openai-chat")
    assert whole.outcome is Outcome.COMPLETED and whole.text == "café 你好 ok"
    corrupt = compressed[:-8] + bytes([compressed[-8] ^ 1]) + compressed[-7:]
    chunkings = ([corrupt], one_byte_chunks(corrupt), data.draw(partitions(corrupt)))
    results = [consume(inflating("gzip", reads), "openai-chat") for reads in chunkings]
    for result in results:
        assert result.outcome is Outcome.DECODE_ERROR and result.error is not None
        assert result.error.kind == "InflateError" and result.error.offset == results[0].error.offset
        assert len(corrupt) - 8 <= result.error.offset < len(corrupt) - 4  # the compressed offset
        assert "at compressed byte offset" in result.error.message and result.text == "café 你好 ok"
    cut = consume(inflating("gzip", data.draw(partitions(compressed[:-4]))), "openai-chat")
    assert cut.outcome is Outcome.COMPLETED  # the terminal came at a clean boundary: the cut changes nothing
    assert cut.error is not None and cut.error.kind == "IncompleteStreamError"  # but it is kept


def test_a_cut_source_is_truncated_and_a_bound_is_limit_exceeded():
    compressed = gzip.compress(CHAT)
    for at in (40, len(compressed) // 2):
        result = consume(inflating("gzip", [compressed[:at]]), "openai-chat")
        assert result.outcome is Outcome.TRUNCATED and result.error is not None  # a cut, not bad bytes
        assert result.error.kind == "IncompleteStreamError"
    result = consume(inflating("gzip", [compressed], max_inflated_read=50), "openai-chat")
    assert result.outcome is Outcome.LIMIT_EXCEEDED and result.error is not None
    assert result.error.limit == "max_inflated_read" and 0 < result.error.offset <= len(compressed)
    judge = StreamJudge("openai-chat")
    judge.feed(CHAT[:30])
    error = InflateError("gzip", b"\x00", "invalid block type", offset=7)
    failed = judge.fail(error)
    assert failed.outcome is Outcome.DECODE_ERROR and failed.error is not None and failed.error.offset == 7
