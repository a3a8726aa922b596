"""The event boundary: WHATWG "Interpreting an event stream", in every chunking.

Each case is checked whole, at every two-piece split and one byte at a time; the property tests compare
hypothesis-chunked parsing of hypothesis-made streams with a whole-input reference written from the spec.

Every test runs against both parsers: ``ReferenceSSEParser`` (lesson_lib/core/sse_reference.py, the one to
read) and ``SSEParser`` (lesson_lib/core/sse_fast.py, the one the library uses); they must behave alike.
"""

from __future__ import annotations

import re
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import Comment, Event, ReferenceSSEParser, SSEParser
from lesson_lib.core.chunking import one_byte_chunks
from lesson_lib.core.errors import (
    BoundaryError,
    LimitExceededError,
    ParserStateError,
    StreamDecodeError,
    TruncatedCharacterError,
)
from lesson_lib.core.sse import MAX_RETRY_MS
from tests.core.spec_oracle import reference_parse
from tests.core.test_sse_paths import SAME_CHUNKS, _run, all_paths, assert_all_agree, fuzzed_bodies
from tests.core.test_sse_paths import options as path_options
from tests.strategies import all_chunkings, partitions, sse_streams

#: Both parsers, for every test of this module: the reference (to read) and the fast one (to use).
PARSERS = {"reference": ReferenceSSEParser, "fast": SSEParser}
pytestmark = pytest.mark.parametrize("Parser", list(PARSERS.values()), ids=list(PARSERS))


def parse(Parser, chunks, **options):
    """``parse_sse`` with the given parser class: feed every chunk, close, return everything out."""
    parser = Parser(**options)
    out = [item for chunk in chunks for item in parser.feed(chunk)]
    return out + parser.close()


def parse_all_ways(Parser, body: bytes, **options):
    """Parse every chunking; assert they agree; return the events and the parser of the whole body."""
    results = {}
    for name, pieces in all_chunkings(body, seeds=0):
        parser = Parser(**options)
        events = [e for piece in pieces for e in parser.feed(piece)] + parser.close()
        results[name] = (events, parser.last_event_id, parser.retry)
    first = results["whole"]
    for name, result in results.items():
        assert result == first, name
    return first


def ev(data, type="message", last_event_id=""):
    return Event(type, data, last_event_id)


# Each case: body, expected events, expected last event ID string, expected retry.
SPEC_CASES = {
    "data lines join with LF": (b"data: msg\ndata: msg\n\n", [ev("msg\nmsg")], "", None),
    "data with no value dispatches empty data": (b"data:\n\ndata\ndata\n\ndata:test\n\n",
                                                 [ev(""), ev("\n"), ev("test")], "", None),
    "only one space is removed": (b"data:  two\ndata:none\n\n", [ev(" two\nnone")], "", None),
    "CR, LF and CRLF all end lines": (b"data:1\rdata:2\ndata:3\r\n\r\n", [ev("1\n2\n3")], "", None),
    "comments are ignored wherever they are": (
        b"data:1\r:\x00\n:\r\ndata:2\n:" + b"x" * 2048 + b"\rdata:3\n:data:fail\r:" + b"x" * 2048
        + b"\ndata:4\n\n", [ev("1\n2\n3\n4")], "", None),
    "event type applies once, then resets": ("event: 完成\ndata: a\n\ndata: b\n\n".encode(),
                                             [ev("a", "完成"), ev("b")], "", None),
    "empty event field means message": (b"event\ndata: x\n\n", [ev("x")], "", None),
    "field names are case-sensitive": (b"Data: no\nDATA: no\ndata : no\ndata: yes\n\n",
                                       [ev("yes")], "", None),
    "unknown fields are ignored": ("foo: bar\ndata: 你好\n\n".encode(), [ev("你好")], "", None),
    "a full-width colon is not a colon": ("data：你好\nid：7\n\ndata: 注意：明天见\n\n".encode(),
                                          [ev("注意：明天见")], "", None),
    "a line without colon is a field name": (b"data\n\n", [ev("")], "", None),
    "id persists across events": (b"id: 1\ndata: a\n\ndata: b\n\n",
                                  [ev("a", last_event_id="1"), ev("b", last_event_id="1")], "1", None),
    "empty id resets it": (b"id: 1\ndata: a\n\nid\ndata: b\n\n",
                           [ev("a", last_event_id="1"), ev("b")], "", None),
    "id with NUL is ignored": (b"id: 7\n\nid: a\x00b\ndata: x\n\n", [ev("x", last_event_id="7")], "7", None),
    "id of a data-less event still becomes the last event ID": (b"id: 42\n\n", [], "42", None),
    "id of an unterminated event is not committed": (b"data:test1\n\nid:test\ndata:test2\n",
                                                      [ev("test1")], "", None),
    "retry only when all ASCII digits": (b"retry: 1000\nretry: 5000x\nretry: \xd9\xa3\nretry\ndata: x\n\n",
                                         [ev("x")], "", 1000),
    "retry with a leading zero is decimal": (b"retry: 03000\n\n", [], "", 3000),
    "retry is set even without dispatch": (b"retry: 250\n", [], "", 250),
    "one leading BOM is stripped": (b"\xef\xbb\xbfdata: 1\n\n", [ev("1")], "", None),
    "a second BOM is part of the first field name": (b"\xef\xbb\xbf\xef\xbb\xbfdata:1\n\ndata:2\n\n",
                                                      [ev("2")], "", None),
    "a BOM later in the stream is data": (b"data: \xef\xbb\xbfx\n\n", [ev("\ufeffx")], "", None),
    "NUL in data is data": (b"data:\x00\n\n", [ev("\x00")], "", None),
    "an event without its blank line is not dispatched": ("data: 你好\n\ndata: 第二".encode(),
                                                          [ev("你好")], "", None),
    "splitlines characters are data": ("data: a\x85b\u2028c\x0cd\n\n".encode(), [ev("a\x85b\u2028c\x0cd")],
                                       "", None),
    "always UTF-8": ("data:ok…\n\n".encode(), [ev("ok…")], "", None),
}


@pytest.mark.parametrize("name", list(SPEC_CASES))
def test_spec_case_in_every_chunking(Parser, name):
    body, events, last_id, retry = SPEC_CASES[name]
    assert parse_all_ways(Parser, body) == (events, last_id, retry)
    assert reference_parse(body) == (events, last_id, retry)  # the reference agrees with the spec case


def test_comments_are_reported_on_request_without_changing_events(Parser):
    body = b": ping\ndata: a\n:keep-alive\n\n:\n"
    assert parse(Parser, [body]) == [ev("a")]
    assert parse(Parser, one_byte_chunks(body), comments=True) == [
        Comment("ping"), Comment("keep-alive"), ev("a"), Comment("")]


def test_cr_at_end_of_one_read_and_lf_at_start_of_next_is_one_ending(Parser):
    parser = Parser()
    assert parser.feed(b"data: \xe4\xbd\xa0\r") == []
    assert parser.after_cr
    assert parser.feed(b"\n") == []
    assert parser.feed(b"\r") == [ev("你")]  # CR alone ends the blank line: dispatch now, not later


def test_pending_state_is_visible_per_layer(Parser):
    parser = Parser()
    parser.feed("event: done\ndata: 你好\ndata: 🙂".encode()[:-1])
    assert parser.held_bytes == "🙂".encode()[:3]
    assert parser.pending_line == "data: "
    assert parser.pending_data == ["你好"]
    assert parser.pending_event_type == "done"
    assert parser.has_pending_event
    snapshot = parser.snapshot()
    assert snapshot["held_bytes"] == b"\xf0\x9f\x99" and snapshot["events"] == 0


@pytest.mark.parametrize(("body", "ended_mid"), [
    (b"data: a\n\n", None),
    (b"data: a\n\n: ping\n", None),
    (b"data: a\n", "event"),
    (b"id: 3\n", "event"),
    (b"data: a", "line"),
    (b"data: a\r", "event"),
])
def test_close_records_what_was_cut(Parser, body, ended_mid):
    parser = Parser()
    parser.feed(body)
    assert parser.close() == []
    assert parser.ended_mid == ended_mid


def test_strict_mode_names_the_offset_of_invalid_utf8(Parser):
    body = "data: 第二行\n\ndata: ".encode() + b"\xe5\x00\n\n"
    for _, pieces in all_chunkings(body, seeds=0):
        parser = Parser()
        events = []
        with pytest.raises(StreamDecodeError) as info:
            for piece in pieces:
                events.extend(parser.feed(piece))
        assert events + info.value.outputs == [ev("第二行")]
        assert info.value.offset == len("data: 第二行\n\ndata: ".encode())
        assert isinstance(info.value, UnicodeDecodeError)
        with pytest.raises(ParserStateError):
            parser.feed(b"\n")


def test_strict_mode_raises_at_close_when_the_stream_ends_mid_character(Parser):
    parser = Parser()
    parser.feed("data: 你好\n\ndata: 🙂".encode()[:-2])
    with pytest.raises(TruncatedCharacterError) as info:
        parser.close()
    assert info.value.offset == len("data: 你好\n\ndata: ".encode())
    assert parser.ended_mid == "character"


def test_replace_mode_behaves_as_a_browser(Parser):
    body = b"data: caf\xc3 ok\xff\xed\xa0\x80\n\nid: \xe4\xbd\ndata: x\n\ndata: \xf0\x9f"
    expected = [ev("caf\ufffd ok\ufffd\ufffd\ufffd\ufffd"), ev("x", last_event_id="\ufffd")]
    assert parse_all_ways(Parser, body, errors="replace") == (expected, "\ufffd", None)
    assert reference_parse(body, "replace")[0] == expected


def test_line_limit_names_the_byte_offset_and_drops_nothing(Parser):
    body = "data: ok\n\ndata: 你好你好你好\n\n".encode()
    for _, pieces in all_chunkings(body, seeds=0):
        parser = Parser(max_line_chars=10)
        events = []
        with pytest.raises(LimitExceededError) as info:
            for piece in pieces:
                events.extend(parser.feed(piece))
        error = info.value
        assert events + error.outputs == [ev("ok")]  # the event before the long line is not lost
        assert error.limit == "max_line_chars" and error.maximum == 10
        assert error.offset == len("data: ok\n\ndata: 你好你好".encode())  # the 11th character of the line
        assert error.line_index == 2 and error.event_index == 1
        assert "byte offset" in str(error)
        with pytest.raises(ParserStateError):
            parser.feed(b"\n")


@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_event_limit_names_the_end_of_the_line_that_crossed_it(Parser, ending):
    # The line is complete at the character that ends it, the CR of a CRLF: the offset must not depend on
    # whether the LF came in the same read (the fuzzer found one whole read saying 1 byte more than a cut
    # between the CR and the LF).
    body = f"data: 你好{ending}data: 第二行{ending}data: more{ending}{ending}".encode()
    for name, pieces in all_chunkings(body, seeds=0):
        parser = Parser(max_event_chars=5)
        with pytest.raises(LimitExceededError) as info:
            for piece in pieces:
                parser.feed(piece)
        assert info.value.limit == "max_event_chars"
        assert info.value.offset == len(f"data: 你好{ending}data: 第二行{ending[0]}".encode()), name
        assert info.value.line_index == 1


def test_events_before_an_error_are_the_same_in_every_chunking(Parser):
    body = "data: 一\n\ndata: 二\n\n".encode() + b"data: x" * 3 + b"\n\ndata: \xff\n\n"
    cases = [
        ({"max_line_chars": 12}, [ev("一"), ev("二")]),
        ({"max_event_chars": 8}, [ev("一"), ev("二")]),
        ({}, [ev("一"), ev("二"), ev("xdata: xdata: x")]),  # no limit: the decode error comes last
    ]
    for limits, expected in cases:
        for name, pieces in all_chunkings(body, seeds=0):
            parser = Parser(**limits)
            events = []
            with pytest.raises(BoundaryError) as info:
                for piece in pieces:
                    events.extend(parser.feed(piece))
                parser.close()
            assert events + info.value.outputs == expected, (limits, name)


def test_limits_exactly_at_the_bound_pass_and_none_lifts_them(Parser):
    assert parse(Parser, [b"data: 12345\n\n"], max_event_chars=5) == [ev("12345")]
    assert parse(Parser, [b"data: 12345\n\n"], max_line_chars=11) == [ev("12345")]
    assert parse(Parser, [b"data: " + b"x" * 100 + b"\n\n"], max_line_chars=None, max_event_chars=None)


def test_bad_options_are_refused(Parser):
    with pytest.raises(ValueError):
        Parser(errors="ignore")
    with pytest.raises(ValueError):
        Parser(max_event_chars=0)


def test_close_twice_is_a_state_error(Parser):
    parser = Parser()
    parser.close()
    with pytest.raises(ParserStateError):
        parser.close()


@settings(deadline=None)
@given(st.data(), sse_streams())
def test_every_chunking_matches_the_whole_input_reference(Parser, data, body):
    pieces = data.draw(partitions(body))
    parser = Parser(max_line_chars=None, max_event_chars=None)
    events = [e for piece in pieces for e in parser.feed(piece)] + parser.close()
    assert (events, parser.last_event_id, parser.retry) == reference_parse(body)


@settings(deadline=None)
@given(st.data(), sse_streams())
def test_comments_never_change_the_events(Parser, data, body):
    pieces = data.draw(partitions(body))
    with_comments = parse(Parser, pieces, comments=True)
    assert [e for e in with_comments if isinstance(e, Event)] == parse(Parser, [body])


@settings(deadline=None)
@given(st.data(), st.binary(max_size=60), st.sampled_from(["strict", "replace"]))
def test_fuzz_only_boundary_errors_escape(Parser, data, body, errors):
    parser = Parser(errors=errors, max_line_chars=16, max_event_chars=24)
    try:
        for piece in data.draw(partitions(body)):
            parser.feed(piece)
        parser.close()
    except BoundaryError as error:
        assert error.offset is not None and 0 <= error.offset <= len(body)


@settings(deadline=None)
@given(st.data(), st.binary(max_size=60))
def test_replace_mode_matches_the_reference_on_arbitrary_bytes(Parser, data, body):
    pieces = data.draw(partitions(body))
    parser = Parser(errors="replace", max_line_chars=None, max_event_chars=None)
    events = [e for piece in pieces for e in parser.feed(piece)] + parser.close()
    assert (events, parser.last_event_id, parser.retry) == reference_parse(body, "replace")


@settings(deadline=None)
@given(st.data(), sse_streams())
def test_layer_views_after_every_read_match_the_bytes_so_far(Parser, data, body):
    """held_bytes, pending_line and after_cr describe exactly the bytes read so far, whatever the reads."""
    parser = Parser(max_line_chars=None, max_event_chars=None)
    seen = b""
    for piece in data.draw(partitions(body)):
        parser.feed(piece)
        seen += piece
        if len(seen) < 3 and b"\xef\xbb\xbf".startswith(seen):
            continue  # maybe the start of a BOM: nothing to say yet
        started = seen.removeprefix(b"\xef\xbb\xbf")
        unfinished = started[max(started.rfind(b"\n"), started.rfind(b"\r")) + 1 :]
        suffixes = [unfinished[i:] for i in range(max(0, len(unfinished) - 3), len(unfinished))]
        held = next((tail for tail in suffixes if _unfinished(tail)), b"")
        assert parser.held_bytes == held
        assert parser.pending_line == unfinished[: len(unfinished) - len(held)].decode("utf-8")
        assert parser.after_cr == started.endswith(b"\r")
        assert parser.bytes_in == len(seen)


def _unfinished(tail: bytes) -> bool:
    """True if ``tail`` is the start of a valid character that needs more bytes."""
    try:
        tail.decode("utf-8")
    except UnicodeDecodeError as error:
        return error.reason == "unexpected end of data" and error.start == 0
    return False


def test_a_reconnection_starts_from_the_last_event_id_it_has(Parser):
    parser = Parser(last_event_id="41")
    assert parser.last_event_id == "41"
    events = parser.feed("data: 你好\n\nid: 42\ndata: 完成\n\nid\ndata: x\n\n".encode())
    assert [e.last_event_id for e in events] == ["41", "42", ""]  # kept, replaced, reset by an empty id


# -- hardening: nothing the bytes contain escapes as anything but a BoundaryError --------------------------
def test_a_retry_of_thousands_of_digits_is_bounded_and_never_raises(Parser):
    # 5,000 digits: past Python's int() limit of 4,300; it raised a plain ValueError and left the parser open.
    huge = b"retry: " + b"9" * 5000 + b"\n"
    body = "data: 你好\n\n".encode() + huge + b"data: caf\xc3\xa9\n\n"
    events, _, retry = parse_all_ways(Parser, body)
    assert [e.data for e in events] == ["你好", "café"] and retry == MAX_RETRY_MS
    # Leading zeros do not count: the value is read exactly, whatever its length.
    assert parse_all_ways(Parser, b"retry: " + b"0" * 5000 + b"1500\n")[2] == 1500
    assert parse_all_ways(Parser, b"retry: " + str(MAX_RETRY_MS).encode() + b"\n")[2] == MAX_RETRY_MS
    assert parse_all_ways(Parser, b"retry: 1" + b"0" * 18 + b"\n")[2] == MAX_RETRY_MS


def test_any_exception_inside_feed_or_close_leaves_the_parser_failed(Parser):
    runs = "".join(f"data: {word}\n\n" for word in ["你好", "café", "🙂"] * 400).encode()
    cases = [  # (a first read, what raises inside the second, the second read): each path in turn
        (b"", "lesson_lib.core.lines.LineSplitter.feed", "\ufeffdata: 你好\n\n".encode()),  # a BOM
        (b": warm up\n", "lesson_lib.core.decoding.IncrementalUTF8Decoder.feed", "data: 你好\n\n".encode()),
    ]
    if Parser is SSEParser:  # the fast parser's own paths: one pass, one data event, lines read in their
        # bytes, runs of whole events
        cases[1:] = [
            (b": warm up\n", "lesson_lib.core.sse_fast.utf_8_decode", "event: x\ndata: 你\n\n".encode() * 20),
            (b": warm up\n", "lesson_lib.core.sse_fast._new_object", "data: 你好\n\n".encode()),
            (b": warm up\n", "lesson_lib.core.sse_fast._new_object", "event: x\ndata: 你好\n\n".encode()),
            (b": warm up\n", "lesson_lib.core.sse_fast.find_event_run", runs),
        ]
    for first, target, body in cases:
        parser = Parser()
        parser.feed(first)
        with patch(target, side_effect=RuntimeError("injected")), pytest.raises(RuntimeError):
            parser.feed(body)
        with pytest.raises(ParserStateError):
            parser.feed(b"data: after\n\n")
        with pytest.raises(ParserStateError):
            parser.close()
    parser = Parser(errors="replace")
    parser.feed(b"data: x")
    close = "lesson_lib.core.decoding.IncrementalUTF8Decoder.close"
    with patch(close, side_effect=MemoryError), pytest.raises(MemoryError):
        parser.close()
    with pytest.raises(ParserStateError):
        parser.feed(b"\n\n")


def test_feed_takes_bytes_and_says_so_on_every_read(Parser):
    parser = Parser()
    for _ in range(3):  # before the first read, and after reads that took the fast paths
        with pytest.raises(TypeError, match=r"^feed\(\) takes bytes, got str$"):
            parser.feed("data: 你好\n\n")
        assert parser.feed("data: 你好\n\n".encode()) == [ev("你好")]
        assert parser.feed(b"data: x") == []
        with pytest.raises(TypeError, match=r"^feed\(\) takes bytes, got str$"):
            parser.feed("y")
        assert parser.feed(bytearray(b"\n")) == [] and parser.feed(memoryview(b"\n")) == [ev("x")]


def test_feed_each_refuses_what_feed_refuses_at_the_read_that_brings_it(Parser):
    closed = Parser()
    closed.close()
    for read in (b"x", b"data: x\n\n", b""):  # a read without a line ending too: it takes no call to feed
        with pytest.raises(ParserStateError):
            list(closed.feed_each([read]))
    parser = Parser()
    events = parser.feed_each([b"data: a\n\n", b"data: b", "\n\n", b"data: c\n\n"])
    assert next(events) == [ev("a")]
    with pytest.raises(TypeError, match=r"^feed\(\) takes bytes, got str$"):
        next(events)
    failed = Parser()
    with pytest.raises(StreamDecodeError) as caught:
        list(failed.feed_each([b"data: a\n\ndata: \xff", b"\n\n"]))
    assert caught.value.offset == 15
    with pytest.raises(ParserStateError):
        list(failed.feed_each([b"data: x"]))


@settings(deadline=None, max_examples=150)
@given(st.data(), sse_streams())
def test_feed_each_yields_each_read_s_events_as_feed_returns_them(Parser, data, body):
    """In every chunking, with feed calls between the batches: the same events, read by read."""
    chunks = data.draw(partitions(body))
    cuts = sorted(set(data.draw(st.lists(st.integers(0, len(chunks)), max_size=3))))
    one_by_one, batched = Parser(), Parser()
    expected: list = []
    try:
        for chunk in chunks:
            expected.append(one_by_one.feed(chunk))
        expected.append(one_by_one.close())
    except BoundaryError as exc:
        expected.append(("raised", type(exc), exc.offset, exc.outputs))
    got: list = []
    start = 0
    try:
        for cut in [*cuts, len(chunks)]:  # feed_each over a slice, then one read through feed
            got.extend(batched.feed_each(chunks[start:cut]))
            if cut < len(chunks):
                got.append(batched.feed(chunks[cut]))
            start = cut + 1
        got.append(batched.close())
    except BoundaryError as exc:
        got.append(("raised", type(exc), exc.offset, exc.outputs))
    assert [out for out in got if out] == [out for out in expected if out]
    assert batched.snapshot() == one_by_one.snapshot()


@pytest.mark.parametrize(("option", "bad"), [
    ("max_line_chars", True), ("max_line_chars", 1.5), ("max_line_chars", 0), ("max_line_chars", "4096"),
    ("max_event_chars", 0.5), ("max_event_chars", False), ("max_event_chars", -1),
])
def test_numeric_options_are_checked_by_name_and_range(Parser, option, bad):
    message = rf"^{option} must be an int >= 1, or None; got {re.escape(repr(bad))}$"
    with pytest.raises(ValueError, match=message):
        Parser(**{option: bad})
    with pytest.raises(TypeError):  # a wrong type is also a TypeError
        Parser(**{option: bad})


_LONG_VALUES = st.sampled_from([
    "9" * 4301, "0" * 4400 + "7", "1" * 6000, "你" * 5000, "é🙂" * 3000, "x" * 70_000, "",
])


@st.composite
def streams_with_long_fields(draw: st.DrawFn) -> bytes:
    """SSE bodies whose fields are long (thousands of digits, tens of KiB), at the default limits."""
    parts = []
    for _ in range(draw(st.integers(1, 6))):
        name = draw(st.sampled_from(["retry", "data", "id", "event", ":", "retry"]))
        ending = draw(st.sampled_from(["\n", "\r", "\r\n", "\n\n"]))
        parts.append(f"{name}: {draw(_LONG_VALUES)}{ending}")
    body = "".join(parts).encode()
    if draw(st.booleans()):  # a stray invalid byte somewhere
        at = draw(st.integers(0, len(body)))
        body = body[:at] + b"\xff" + body[at:]
    return body


@settings(deadline=None, max_examples=60)
@given(st.data(), streams_with_long_fields(), st.sampled_from(["strict", "replace"]), st.booleans())
def test_never_raises_but_boundary_errors_at_the_default_limits(Parser, data, body, errors, comments):
    pieces = data.draw(st.sampled_from(["whole", "partitions"]))
    chunks = [body] if pieces == "whole" else data.draw(partitions(body))
    parser = Parser(errors=errors, comments=comments)  # the default limits
    try:
        for chunk in chunks:
            parser.feed(chunk)
        parser.close()
    except BoundaryError as error:
        assert error.offset is not None and 0 <= error.offset <= len(body)
    if errors == "replace":
        assert (parse(Parser, [body], errors="replace"), parser.retry) == (
            reference_parse(body, "replace")[0], reference_parse(body, "replace")[2]
        )


def test_a_comment_loses_one_leading_space_only(Parser):
    body = ":  两 spaces\n: café\n:none 🙂\n:\n\n".encode()
    for _, pieces in all_chunkings(body, seeds=2):
        out = parse(Parser, pieces, comments=True)
        assert [c.text for c in out] == [" 两 spaces", "café", "none 🙂", ""]


def test_pending_sizes_report_inside_an_event_as_has_pending_event_does(Parser):
    body = "id: 1\n\ndata: 你好\n: ping\nevent: x\n\nretry: 5\n".encode()
    expected_inside = []
    for end in range(len(body) + 1):  # after every prefix, computed from the whole-prefix parse
        probe = Parser()
        probe.feed(body[:end])
        expected_inside.append(probe.has_pending_event)
    assert True in expected_inside and False in expected_inside
    for _, pieces in all_chunkings(body, seeds=3):
        parser, seen = Parser(), 0
        for piece in pieces:
            parser.feed(piece)
            seen += len(piece)
            held, line, event, inside = parser.pending_sizes()
            assert inside is expected_inside[seen], (pieces, seen)
            assert line == parser.pending_line_chars and held == len(parser.held_bytes)
            assert event == parser.pending_event_chars


@settings(deadline=None)
@given(st.data(), st.binary(max_size=60).map(lambda b: b"event: \xff\xc3\nid: a\xe4\xbd\n" + b))
def test_replace_mode_shows_u_fffd_in_every_public_view(Parser, data, body):
    parser = Parser(errors="replace", max_line_chars=None, max_event_chars=None)
    for piece in data.draw(partitions(body)):
        parser.feed(piece)
        snapshot = parser.snapshot()
        views = [parser.pending_line, parser.pending_event_type, parser.pending_id, parser.last_event_id,
                 *parser.pending_data, *(v for v in snapshot.values() if isinstance(v, str)),
                 *snapshot["pending_data"]]
        assert not any("\udc80" <= ch <= "\udcff" for view in views for ch in view)
        assert snapshot["pending_event_type"] == parser.pending_event_type
        assert snapshot["pending_id"] == parser.pending_id
        assert snapshot["pending_line"] == parser.pending_line


def test_replace_mode_event_type_and_id_buffers_show_what_the_event_will_carry(Parser):
    parser = Parser(errors="replace")
    parser.feed(b"event: caf\xe9\nid: \xff1\ndata: x\n")
    assert parser.pending_event_type == "caf\ufffd" and parser.pending_id == "\ufffd1"
    snapshot = parser.snapshot()
    assert snapshot["pending_event_type"] == "caf\ufffd" and snapshot["pending_id"] == "\ufffd1"
    (event,) = parser.feed(b"\n")
    assert (event.type, event.last_event_id) == ("caf\ufffd", "\ufffd1")


@pytest.mark.parametrize("before_close", ["data: unfinished 你".encode(), b"data: x\n\n", b""])
@pytest.mark.parametrize("errors", ["strict", "replace"])
def test_after_close_every_read_is_refused_even_one_without_a_line_ending(Parser, errors, before_close):
    """issue 23 (mutant sse_fast ~741: the room to wait undecoded not reset at close()): a read without a
    line ending after close() must raise, not be remembered."""
    parser = Parser(errors=errors)
    for chunk in one_byte_chunks(before_close):
        parser.feed(chunk)
    parser.close()
    for chunk in (b"xyz", b"\xe4", b"", b"data: a\n\n"):
        with pytest.raises(ParserStateError):
            parser.feed(chunk)
    with pytest.raises(ParserStateError):
        parser.flush()


@pytest.mark.parametrize("bad", [5, None, b"7", ["7"]])
def test_a_last_event_id_that_is_not_a_str_is_refused_before_anything_is_built(Parser, bad):
    """issue 23 (mutant sse_common ~64): ``last_event_id=5`` must not be accepted and put in events."""
    with pytest.raises(TypeError, match="last_event_id must be a str"):
        Parser(last_event_id=bad)


# -- a fast differential check: every path of the fast parser against the reference ------------------------
# tests/core/test_sse_paths.py is the full check (minutes); this one runs in seconds, so that a change that
# breaks one path of the fast parser fails here too. Each body is fed in 1- and 7-byte reads (the long
# one only in 64-byte reads), in 64-byte reads and in two pieces, with and without small limits, through
# every forced path (the layers only; one pass with runs off; runs forced on for every read, which also
# decodes every read without a line ending at once; the real thresholds).
_SHAPES = [
    "data: 你好\n\ndata: café 🙂\n\n",
    "event: delta\ndata: {\"t\":\"é\"}\n\nevent: delta\ndata: {\"t\":\"👩\u200d💻\"}\n\n",
    "id: 7\ndata: a\n\nid: 8\ndata: b\n\nid:\ndata: c\n\n",
    "data: 你好\r\n\r\n: ping\r\n\r\ndata: 第二行\r\n\r\n",
    "data: a\rdata: b\r\rretry: 1500\r\n: 心跳\n\ndata:\n\n",
    "data: line one\ndata: line two\nevent: x\nid: 9\nretry: x1\n\n",
    "id: 7\ndata: a\n\nid: 8\ndata: b\n\ndata: no id here\n\nid: 9\nevent: 长\ndata: " + "é" * 40 + "\n\n",
    "\ufeffdata: 开始\n\n" + "data: " + "长" * 1500 + "\n\n",
]
_STRAYS = [b"", b"\xff", b"\xe4\xbd", b"\r", b"\x00", b"data: unfinished"]


def _fast_corpus():
    for shape in _SHAPES:
        text = shape.encode()
        for number, stray in enumerate(_STRAYS):
            body = text * 2 if not stray else text + stray + text
            at = (len(text) + 1) * number % (len(body) + 1)
            for size in (1, 7, 64) if len(body) < 500 else (64,):
                chunks = [body[i : i + size] for i in range(0, len(body), size)]
                yield body, chunks, {"errors": "replace" if number % 2 else "strict"}
            yield body, [body[:at], body[at:]], {"comments": True, "max_line_chars": 600}
            if not stray:  # limits: their offsets count every character the paths took
                for size in (1, 7):
                    chunks = [body[i : i + size] for i in range(0, len(body), size)]
                    yield body, chunks, {"max_line_chars": 30, "max_event_chars": 24}


def test_every_fast_path_agrees_with_the_reference_on_a_small_corpus(Parser):
    """The fast parser: every forced path agrees with the reference, read by read. The reference: its
    result is the same in every cutting (what the fast paths are compared with)."""
    for body, chunks, options in _fast_corpus():
        if Parser is SSEParser:
            assert_all_agree(all_paths(body, chunks, **options), SAME_CHUNKS)
        else:
            whole = _run(lambda options=options: Parser(**options), [body], None)[0]
            assert _run(lambda options=options: Parser(**options), chunks, None)[0] == whole


@settings(deadline=None, max_examples=25)
@given(st.data())
def test_every_fast_path_agrees_with_the_reference_on_fuzzed_bodies(Parser, data):
    body = data.draw(fuzzed_bodies() if Parser is SSEParser else sse_streams())
    chunks = data.draw(partitions(body))
    options = data.draw(path_options)
    if Parser is SSEParser:
        assert_all_agree(all_paths(body, chunks, **options), SAME_CHUNKS)
    else:
        whole = _run(lambda: Parser(**options), [body], None)[0]
        assert _run(lambda: Parser(**options), chunks, None)[0] == whole
