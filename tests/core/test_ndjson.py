"""NDJSON (Ollama): one JSON value per LF-terminated line, the same values in every chunking.

Every case is checked whole, at every two-piece split, one byte at a time and in seeded random partitions;
the property tests compare hypothesis-chunked parsing of hypothesis-made streams with ``json.loads`` of
each line of the whole body, the reference.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib.core import ndjson
from lesson_lib.core.chunking import one_byte_chunks, split_at
from lesson_lib.core.errors import (
    BoundaryError,
    FramingError,
    IncompleteStreamError,
    LimitExceededError,
    ParserStateError,
    StreamDecodeError,
    TruncatedCharacterError,
)
from lesson_lib.core.ndjson import DEFAULT_MAX_LINE_CHARS, NDJSONParser, parse_ndjson
from tests.strategies import all_chunkings, feed_all, partitions, where

OLLAMA = (
    '{"model":"llama3","created_at":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":"Café "},'
    '"done":false}\n'
    '{"model":"llama3","message":{"role":"assistant","content":"日本語 🙂"},"done":false}\n'
    '{"model":"llama3","message":{"role":"assistant","content":"a\u2028b\u2029c\x85d"},"done":false}\n'
    '{"model":"llama3","message":{"role":"assistant","content":"\\u00e9\\ud83d\\ude42"},"done":false}\n'
    '{"model":"llama3","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}\n'
).encode()


def reference(body: bytes, errors: str = "strict") -> list[Any]:
    """``json.loads`` of every complete, non-blank line of the whole body (the part after the last LF
    must be blank)."""
    *lines, rest = body.decode("utf-8", errors).split("\n")
    assert not rest.strip(" \t\r"), "reference streams end at a line boundary"
    return [json.loads(line) for line in lines if line.strip(" \t\r")]


def run(chunks: list[bytes], **options: Any) -> tuple[list[Any], BoundaryError | None, NDJSONParser]:
    """Feed everything to a fresh parser and close: what came out, the error (if any), the parser."""
    parser = NDJSONParser(**options)
    return (*feed_all(parser, chunks), parser)


# -- the same values in every chunking ------------------------------------------------------------------


def test_ollama_stream_in_every_chunking():
    expected = reference(OLLAMA)
    texts = ["Café ", "日本語 🙂", "a\u2028b\u2029c\x85d", "é🙂", ""]
    assert [v["message"]["content"] for v in expected] == texts
    for name, chunks in all_chunkings(OLLAMA):
        values, error, parser = run(chunks)
        assert error is None, name
        assert values == expected, name
        assert (parser.values_out, parser.lines_in, parser.ended_mid) == (5, 5, None), name


def test_values_come_out_as_soon_as_their_line_ends_and_not_before():
    parser = NDJSONParser()
    assert parser.feed(b'{"a": 1}') == []  # complete JSON, but no LF yet
    assert parser.pending_line == '{"a": 1}'
    assert parser.feed(b"\r") == []  # a CR alone does not end an NDJSON line
    assert parser.feed(b'\n{"b"') == [{"a": 1}]
    assert parser.feed(b": 2}\n\n") == [{"b": 2}]
    assert parser.close() == []
    assert (parser.lines_in, parser.values_out, parser.state) == (3, 2, "closed")


def test_raw_line_separators_inside_strings_are_data():
    # raw U+2028, U+2029, U+0085 are data; FF and VT, control characters, must be escaped in JSON
    body = '{"t": "1\u20282\u20293\x854\\f5\\u000b6"}\n'.encode()
    for name, chunks in all_chunkings(body):
        values, error, _ = run(chunks)
        assert error is None, name
        assert values == [{"t": "1\u20282\u20293\x854\x0c5\x0b6"}], name


def test_lf_and_crlf_give_the_same_values_and_blank_lines_are_skipped():
    lf = b'{"a": 1}\n[2]\n"three"\n'
    mixed = b'{"a": 1}\r\n\r\n  \t \n[2]\n\n"three"\r\n \r\n'
    assert parse_ndjson([lf]) == parse_ndjson(one_byte_chunks(mixed)) == [{"a": 1}, [2], "three"]
    _, error, parser = run([mixed])
    assert error is None and parser.lines_in == 7


def test_surrounding_whitespace_on_a_line_is_allowed():
    assert parse_ndjson([b'  {"a": 1}\t \r\n\t2 \n']) == [{"a": 1}, 2]


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(
        alphabet=st.sampled_from('aé你🙂\u2028\u2029\x85\x00\x1f"\\/[]{},:\r\n\t ')
        | st.characters(codec="utf-8"),
        max_size=10,
    )
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def ndjson_streams(draw: st.DrawFn) -> bytes:
    """Lines of JSON (ASCII-escaped or raw UTF-8), LF or CRLF, with blank and whitespace-only lines."""
    parts = []
    for value in draw(st.lists(json_values, max_size=8)):
        for _ in range(draw(st.integers(0, 2))):
            blank = draw(st.sampled_from(["", " ", "\t", "  \t"]))
            parts.append(blank + draw(st.sampled_from(["\n", "\r\n"])))
        line = json.dumps(value, ensure_ascii=draw(st.booleans()))
        pad = draw(st.sampled_from(["", " ", "\t"]))
        parts.append(pad + line + pad + draw(st.sampled_from(["\n", "\r\n"])))
    return "".join(parts).encode("utf-8")


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_hypothesis_streams_in_hypothesis_chunkings_equal_the_reference(data):
    body = data.draw(ndjson_streams())
    chunks = data.draw(partitions(body))
    values, error, parser = run(chunks)
    assert error is None
    assert values == reference(body)
    assert parser.bytes_in == len(body)
    assert parser.values_out == len(values)
    assert parser.lines_in == body.count(b"\n")


# -- bad input: the error and its place are the same in every chunking ---------------------------------


def test_invalid_utf8_raises_at_its_exact_offset_in_every_chunking():
    body = b'{"a": "caf\xc3\xa9"}\n{"b": "x\xff"}\n'
    for name, chunks in all_chunkings(body):
        values, error, parser = run(chunks)
        assert isinstance(error, StreamDecodeError), name
        assert isinstance(error, UnicodeDecodeError)
        assert error.offset == body.index(b"\xff") == 23, name
        assert values == [{"a": "café"}], name  # the line before the bad byte was not lost
        assert parser.state == "failed"


def test_replace_mode_decodes_like_a_browser():
    body = b'{"a": "x\xff\xe2\x82y"}\n{"b": "\xf0\x9f\x99\x82"}\n'
    expected = reference(body, "replace")
    assert expected == [{"a": "x\ufffd\ufffdy"}, {"b": "🙂"}]
    for name, chunks in all_chunkings(body):
        values, error, _ = run(chunks, errors="replace")
        assert error is None, name
        assert values == expected, name


def test_stream_that_ends_mid_character():
    body = '{"a": "é"}\n{"b": "🙂'.encode()[:-2]  # two bytes of the four of 🙂
    for name, chunks in all_chunkings(body):
        values, error, parser = run(chunks)
        assert isinstance(error, TruncatedCharacterError), name
        assert error.offset == len(body) - 2, name
        assert values == [{"a": "é"}], name
        assert parser.ended_mid == "character", name
        values, error, parser = run(chunks, errors="replace")
        assert isinstance(error, IncompleteStreamError) and error.unit == "line", name
        assert error.offset == 12, name  # where the cut line starts
        assert parser.ended_mid == "character", name


def test_a_complete_value_without_its_line_feed_is_a_cut_line_never_parsed_at_close():
    body = '{"a": "é"}\n\n{"done": true, "done_reason": "stop"}'.encode()
    for name, chunks in all_chunkings(body):
        values, error, parser = run(chunks)
        assert values == [{"a": "é"}], name
        assert isinstance(error, IncompleteStreamError), name
        assert (error.unit, error.offset, error.line_index) == ("line", 13, 2), name
        assert parser.ended_mid == "line", name
        assert parser.state == "failed"


def test_a_blank_unfinished_line_at_the_end_is_not_a_cut():
    for body in (b"1\n", b"1\n  \t", b"1\r\n\r"):
        values, error, parser = run(one_byte_chunks(body))
        assert (values, error, parser.ended_mid, parser.state) == ([1], None, None, "closed")


def test_empty_stream_is_clean():
    assert parse_ndjson([]) == [] == parse_ndjson([b""])


def test_invalid_json_names_the_byte_offset_and_the_line():
    body = '{"a": "日本"}\n\n{"b": "ü", x}\n{"c": 3}\n'.encode()
    # line 2 starts at byte 17; '{"b": "ü", ' is 12 bytes (ü takes two): the error is at byte 29
    assert body[29:30] == b"x"
    for name, chunks in all_chunkings(body):
        values, error, parser = run(chunks)
        assert isinstance(error, FramingError), name
        assert (error.offset, error.line_index) == (29, 2), name
        assert values == [{"a": "日本"}], name
        with pytest.raises(ParserStateError):
            parser.feed(b"\n")
        with pytest.raises(ParserStateError):
            parser.close()


def test_replace_mode_error_offset_counts_the_invalid_bytes():
    # three invalid bytes become two U+FFFD; the offset must still count bytes of the stream
    body = b'{"a": "\xe2\x82\xff"} nope\n'
    assert body[13:17] == b"nope"
    for name, chunks in all_chunkings(body):
        _, error, _ = run(chunks, errors="replace")
        assert isinstance(error, FramingError), name
        assert (error.offset, error.line_index) == (13, 0), name


@pytest.mark.parametrize(
    ("line", "column"),
    [
        (b'{"a": 1} {"b": 2}', 9),  # two values on one line
        (b'{"a": "tab\there"}', 10),  # a raw control character in a string
        (b"{'a': 1}", 1),
        (b'{"a": tru}', 6),
        (b"\xef\xbb\xbf1", 0),  # a BOM is not JSON whitespace
        (b"\x0c1", 0),  # nor is FF
    ],
)
def test_what_json_rejects_is_a_framing_error(line, column):
    body = b"[0]\r\n" + line + b"\n"
    _, error, _ = run(one_byte_chunks(body))
    assert isinstance(error, FramingError)
    assert (error.offset, error.line_index) == (5 + column, 1)


@pytest.mark.parametrize("line", [b"[" * 100_000, b"1" * 5000])
def test_json_module_limits_become_framing_errors(line):
    # json.loads raises RecursionError and a plain ValueError for these; they must not escape
    _, error, _ = run([b"1\n" + line + b"\n"], max_line_chars=None)
    assert isinstance(error, FramingError)
    assert (error.offset, error.line_index) == (2, 1)


def test_the_first_fault_in_the_stream_wins_whatever_the_chunking():
    body = b'{"a": 1}\n{bad}\n{"c": "\xff"}\n' + b"x" * 50 + b"\n"
    for name, chunks in all_chunkings(body):
        values, error, _ = run(chunks, max_line_chars=20)
        assert isinstance(error, FramingError), name
        assert (error.offset, error.line_index, values) == (10, 1, [{"a": 1}]), name


# -- limits ---------------------------------------------------------------------------------------------


def test_a_long_line_raises_with_its_offset_and_nothing_is_dropped():
    body = '1\n"éééééééé"\n2\n'.encode()  # line 1 has 10 characters (18 bytes)
    for name, chunks in all_chunkings(body):
        values, error, parser = run(chunks, max_line_chars=6)
        assert isinstance(error, LimitExceededError), name
        assert (error.limit, error.maximum) == ("max_line_chars", 6), name
        # first character past the limit: '"ééééé' is 1 + 10 bytes after the line start at byte 2
        assert (error.offset, error.line_index) == (13, 1), name
        assert values == [1], name
        assert parser.state == "failed"
        with pytest.raises(ParserStateError):
            parser.feed(b"2\n")


def test_the_limit_counts_the_line_without_its_crlf():
    exact = b'"abcd"\r\n"abcd"\n'
    over = b'"abcde"\r\n'
    for name, chunks in all_chunkings(exact):
        assert run(chunks, max_line_chars=6)[:2] == (["abcd", "abcd"], None), name
    for name, chunks in all_chunkings(over):
        _, error, _ = run(chunks, max_line_chars=6)
        assert isinstance(error, LimitExceededError) and error.offset == 6, name


def test_an_unfinished_line_over_the_limit_raises_before_its_end_arrives():
    parser = NDJSONParser(max_line_chars=8)
    parser.feed(b"[1,2,")
    with pytest.raises(LimitExceededError) as info:
        parser.feed(b"3,4,5")
    assert info.value.offset == 8
    assert parser.held_bytes == b"" and parser.state == "failed"


def test_default_limit_and_option_checks():
    assert DEFAULT_MAX_LINE_CHARS == 4 * 1024 * 1024
    parser = NDJSONParser()
    assert parser.errors == "strict"
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError):
            NDJSONParser(max_line_chars=bad)
    with pytest.raises(ValueError):
        NDJSONParser(errors="ignore")
    assert parse_ndjson([b'"' + b"x" * 100 + b'"\n'], max_line_chars=None) == ["x" * 100]


# -- state for inspectors --------------------------------------------------------------------------------


def test_inspection_properties_show_every_layer():
    parser = NDJSONParser()
    assert parser.feed('{"a": 1}\n{"t": "日'.encode()[:-1]) == [{"a": 1}]
    assert parser.held_bytes == "日".encode()[:2]
    assert parser.pending_line == '{"t": "'
    assert parser.pending_line_chars == 7
    assert parser.pending_line_start == 9
    snap = parser.snapshot()
    assert snap["held_bytes"] == b"\xe6\x97" and snap["lines"] == 1 and snap["values"] == 1
    assert parser.feed(b'\xa5"}\n') == [{"t": "日"}]
    assert parser.bytes_in == len(b'{"a": 1}\n{"t": "') + 6
    assert (parser.held_bytes, parser.pending_line) == (b"", "")


def test_replace_mode_pending_line_shows_u_fffd():
    parser = NDJSONParser(errors="replace")
    parser.feed(b'{"a": "\xff')
    assert parser.pending_line == '{"a": "\ufffd'


# -- robustness and cost --------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    body=st.one_of(
        st.binary(max_size=80),
        ndjson_streams().flatmap(lambda b: st.integers(0, len(b)).map(lambda k: b[:k])),
        ndjson_streams()
        .flatmap(lambda b: st.tuples(st.just(b), st.integers(0, max(len(b) - 1, 0)), st.binary(max_size=3)))
        .map(lambda t: t[0][: t[1]] + t[2] + t[0][t[1] + 1 :]),
    ),
    errors=st.sampled_from(["strict", "replace"]),
    data=st.data(),
)
def test_fuzz_only_boundary_errors_escape_and_the_outcome_ignores_the_chunking(body, errors, data):
    chunks = data.draw(partitions(body))
    values, error, parser = run(chunks, errors=errors)
    whole_values, whole_error, _ = run([body], errors=errors)
    assert where(error) == where(whole_error)
    assert repr(values) == repr(whole_values)
    if error is not None:
        with pytest.raises(ParserStateError):
            parser.feed(b"1\n")
    # whole-body reference: success exactly when every line is JSON and nothing is cut
    try:
        expected = reference(body, errors)
    except (ValueError, RecursionError, AssertionError):
        assert error is not None
    else:
        assert error is None
        assert repr(values) == repr(expected)


def test_each_line_is_parsed_once_and_offsets_are_only_computed_on_error_paths(monkeypatch):
    loads_calls: list[int] = []
    length_calls: list[int] = []
    real_loads, real_length = json.loads, ndjson.utf8_length

    def counting_loads(text: str, *args: Any, **kwargs: Any) -> Any:
        loads_calls.append(len(text))
        return real_loads(text, *args, **kwargs)

    def counting_length(text: str) -> int:
        length_calls.append(len(text))
        return real_length(text)

    monkeypatch.setattr(ndjson.json, "loads", counting_loads)
    monkeypatch.setattr(ndjson, "utf8_length", counting_length)
    long_line = json.dumps({"content": "日本語🙂" * 20_000}, ensure_ascii=False).encode() + b"\n"
    body = OLLAMA + long_line + b"\n\n" + OLLAMA
    values = parse_ndjson(one_byte_chunks(body))
    assert len(values) == 11
    assert len(loads_calls) == 11  # one call per value line, none for blank lines, none at close
    assert length_calls == []  # no character-to-byte mapping on the normal path


def test_split_at_cuts_inside_every_kind_of_character():
    body = '{"s": "aé日🙂"}\n'.encode()
    cuts = range(1, len(body))
    assert parse_ndjson(split_at(body, cuts)) == [{"s": "aé日🙂"}]


def test_any_exception_inside_feed_leaves_the_parser_failed():
    from unittest.mock import patch

    from lesson_lib.core.errors import ParserStateError
    from lesson_lib.core.ndjson import JSONArrayParser

    cases = ((NDJSONParser(), '{"a": "你好"}\n'.encode()), (JSONArrayParser(), '[{"a": "é"}'.encode()))
    for parser, body in cases:
        with patch("lesson_lib.core.ndjson.json.loads", side_effect=MemoryError), pytest.raises(MemoryError):
            parser.feed(body)
        assert parser.state == "failed"
        with pytest.raises(ParserStateError):
            parser.feed(b"\n")
