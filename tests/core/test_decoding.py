"""The character boundary: incremental UTF-8 against the whole-input decode, in every chunking."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib.core.chunking import one_byte_chunks, split_at, two_piece_splits
from lesson_lib.core.decoding import (
    IncrementalUTF8Decoder,
    byte_role,
    char_spans,
    decode_each_chunk,
    incomplete_tail_length,
    incremental_decode,
    naive_decode,
    replace_escapes,
)
from lesson_lib.core.errors import BoundaryError, ParserStateError, StreamDecodeError, TruncatedCharacterError
from tests.strategies import partitions, tricky_text

SAMPLE = "café 你好🙂 第二行".encode()


def test_byte_lengths_the_lessons_quote():
    assert [len(c.encode()) for c in "aé€你🙂"] == [1, 2, 3, 3, 4]


def test_naive_decode_corrupts_a_cut_character_and_incremental_does_not():
    chunks = split_at(SAMPLE, [4])  # inside é (bytes 3-4)
    assert naive_decode(chunks) == "caf\ufffd\ufffd 你好🙂 第二行"
    assert incremental_decode(chunks) == "café 你好🙂 第二行"


def test_naive_strict_decode_raises_with_a_chunk_relative_position():
    with pytest.raises(UnicodeDecodeError) as info:
        decode_each_chunk(split_at(SAMPLE, [8]), errors="strict")  # inside 你 (bytes 6-8)
    assert info.value.start == 6  # relative to the first read, which only happens to start at 0


def test_every_two_piece_split_gives_the_whole_text():
    for _cut, pieces in two_piece_splits(SAMPLE):
        assert incremental_decode(pieces) == SAMPLE.decode()


def test_held_bytes_show_the_unfinished_character():
    decoder = IncrementalUTF8Decoder()
    assert decoder.feed("你".encode()[:2]) == ""
    assert decoder.held_bytes == b"\xe4\xbd"
    assert decoder.feed(b"\xa0") == "你"
    assert decoder.held_bytes == b""
    assert decoder.close() == ""


def test_close_detects_a_stream_that_ended_mid_character():
    decoder = IncrementalUTF8Decoder()
    decoder.feed(b"ok ")
    decoder.feed("🙂".encode()[:3])
    with pytest.raises(TruncatedCharacterError) as info:
        decoder.close()
    error = info.value
    assert isinstance(error, UnicodeDecodeError)
    assert error.offset == 3
    assert error.object == b"\xf0\x9f\x99"
    assert "byte offset 3" in str(error)


def test_invalid_byte_names_the_absolute_offset_across_reads():
    decoder = IncrementalUTF8Decoder()
    decoder.feed("第二".encode())
    decoder.feed(b"\xe8")  # lead byte of a 3-byte character
    with pytest.raises(StreamDecodeError) as info:
        decoder.feed(b"x")  # not a continuation byte
    assert info.value.offset == 6
    assert "byte offset 6" in str(info.value)
    with pytest.raises(ParserStateError):
        decoder.feed(b"more")


def test_replace_mode_flushes_held_bytes_as_one_replacement():
    decoder = IncrementalUTF8Decoder("replace")
    assert decoder.feed(b"ok\xe4\xbd") == "ok"
    assert decoder.close() == "\ufffd"


def test_surrogateescape_round_trips_and_replace_escapes_matches_replace():
    raw = b"caf\xc3 \xf0\x9f\x99 ok \xff\xed\xa0\x80"
    escaped = incremental_decode(one_byte_chunks(raw), errors="surrogateescape")
    assert escaped.encode("utf-8", "surrogateescape") == raw
    assert replace_escapes(escaped) == raw.decode("utf-8", "replace")


def test_unknown_error_mode_is_refused():
    with pytest.raises(ValueError):
        IncrementalUTF8Decoder("ignore")


def test_helpers_for_the_pictures():
    assert [byte_role(b) for b in "é".encode() + b"a\xff"] == ["lead", "continuation", "ascii", "invalid"]
    assert char_spans("a你🙂".encode()) == [(0, 1), (1, 4), (4, 8)]
    assert char_spans(b"a\xe4\xbd") == [(0, 1), (1, 3)]  # an unfinished character is one span
    assert incomplete_tail_length("你".encode()[:2]) == 2
    assert incomplete_tail_length("你".encode()) == 0


@settings(deadline=None)
@given(st.data(), tricky_text)
def test_incremental_equals_whole_decode_for_every_chunking(data, text):
    raw = text.encode()
    pieces = data.draw(partitions(raw))
    decoder = IncrementalUTF8Decoder()
    out = []
    for piece in pieces:
        out.append(decoder.feed(piece))
        assert len(decoder.held_bytes) <= 3
    out.append(decoder.close())
    assert "".join(out) == text


@settings(deadline=None)
@given(st.data(), st.binary(max_size=40), st.sampled_from(["replace", "surrogateescape"]))
def test_lenient_modes_equal_whole_decode_on_arbitrary_bytes(data, raw, errors):
    pieces = data.draw(partitions(raw))
    assert incremental_decode(pieces, errors) == raw.decode("utf-8", errors)


@settings(deadline=None)
@given(st.data(), st.binary(max_size=40))
def test_strict_mode_fails_exactly_where_the_whole_decode_fails(data, raw):
    pieces = data.draw(partitions(raw))
    try:
        expected = raw.decode("utf-8")
    except UnicodeDecodeError as whole:
        with pytest.raises(StreamDecodeError) as info:
            incremental_decode(pieces)
        assert info.value.offset == whole.start
    else:
        assert incremental_decode(pieces) == expected


@settings(deadline=None)
@given(st.data(), st.binary(max_size=40))
def test_only_boundary_errors_escape(data, raw):
    decoder = IncrementalUTF8Decoder()
    try:
        for piece in data.draw(partitions(raw)):
            decoder.feed(piece)
        decoder.close()
    except BoundaryError:
        pass


# -- getstate / setstate: the state a caller that decodes itself hands back (lesson_lib.core.sse_fast)
# ----------
def _continue(decoder: IncrementalUTF8Decoder, pieces: list[bytes]) -> tuple:
    """Feed the rest and close; everything observable: text, error and its offset, the state before close."""
    text, error, state = [], None, None
    try:
        for piece in pieces:
            text.append(decoder.feed(piece))
        state = decoder.getstate()
        text.append(decoder.close())
    except StreamDecodeError as exc:
        error = (type(exc).__name__, exc.offset, exc.start, exc.end)
    return "".join(text), error, state


@settings(deadline=None)
@given(
    st.data(), st.binary(max_size=40) | tricky_text.map(str.encode), st.sampled_from(["strict", "replace"])
)
def test_setstate_of_getstate_continues_exactly_as_the_original(data, body, errors):
    pieces = data.draw(partitions(body))
    handover = data.draw(st.integers(0, len(pieces)))
    original = IncrementalUTF8Decoder(errors)
    try:
        for piece in pieces[:handover]:
            original.feed(piece)
    except StreamDecodeError:
        return  # a failed decoder hands over nothing
    copy = IncrementalUTF8Decoder(errors)
    copy.setstate(original.getstate())
    assert (copy.held_bytes, copy.bytes_in, copy.bytes_decoded) == (
        original.held_bytes, original.bytes_in, original.bytes_decoded
    )
    assert _continue(copy, pieces[handover:]) == _continue(original, pieces[handover:])


@settings(deadline=None)
@given(st.data(), tricky_text.map(str.encode))
def test_a_state_computed_from_the_bytes_so_far_continues_to_the_whole_text(data, body):
    """What the fast SSE parser does: decode a prefix itself, hand the state over, let the decoder go on."""
    cut = data.draw(st.integers(0, len(body)))
    prefix = body[:cut]
    held = prefix[len(prefix) - incomplete_tail_length(prefix) :] if prefix else b""
    decoder = IncrementalUTF8Decoder()
    decoder.setstate((held, cut))
    head = prefix[: len(prefix) - len(held)].decode()
    assert head + decoder.feed(body[cut:]) + decoder.close() == body.decode()
    assert decoder.bytes_in == len(body)


@pytest.mark.parametrize("state", [
    (b"\xff", 1), (b"\xe4\xbd\xa0", 3), (b"a", 1), (b"\xf0\x9f\x99\x82", 4), ("\xe4", 1),
    (b"\xe4", 0), (b"", -1), (b"", 1.0),
])
def test_setstate_refuses_a_state_no_input_leads_to_and_changes_nothing(state):
    decoder = IncrementalUTF8Decoder()
    decoder.feed("你".encode()[:2])
    with pytest.raises(ValueError):
        decoder.setstate(state)
    assert decoder.getstate() == (b"\xe4\xbd", 2)


def test_a_closed_decoder_refuses_setstate():
    decoder = IncrementalUTF8Decoder()
    decoder.close()
    with pytest.raises(ParserStateError):
        decoder.setstate((b"", 0))
