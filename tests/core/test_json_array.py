"""Gemini without ``alt=sse``: one growing JSON array, split into its elements as each one completes.

Every case is checked whole, at every two-piece split, one byte at a time and in seeded random partitions;
the property tests compare hypothesis-chunked parsing of hypothesis-made arrays with ``json.loads`` of the
whole body, the reference.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib.core import ndjson
from lesson_lib.core.chunking import one_byte_chunks
from lesson_lib.core.errors import (
    BoundaryError,
    FramingError,
    IncompleteStreamError,
    LimitExceededError,
    ParserStateError,
    StreamDecodeError,
    TruncatedCharacterError,
)
from lesson_lib.core.ndjson import DEFAULT_MAX_ELEMENT_CHARS, JSONArrayParser, parse_json_array
from tests.strategies import all_chunkings, feed_all, partitions, where


def gemini_chunk(text: str, finish: str | None = None) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"parts": [{"text": text}], "role": "model"}, "index": 0}
    if finish:
        candidate["finishReason"] = finish
    return {"candidates": [candidate], "modelVersion": "gemini-2.5-flash"}


CHUNKS = [
    gemini_chunk("Café, 日本語 "),
    gemini_chunk('🙂 [not] {an} "array", \\ a\u2028b\u2029c\x85d'),
    gemini_chunk("", "STOP") | {"usageMetadata": {"promptTokenCount": 3, "totalTokenCount": 9}},
]


def gemini_body(values: list[Any], ensure_ascii: bool = False) -> bytes:
    """The shape Gemini sends: ``[{`` ... ``}\\n,\\r\\n{`` ... ``}\\n]``, pretty-printed with indent 2."""
    parts = [json.dumps(v, indent=2, ensure_ascii=ensure_ascii) for v in values]
    return ("[" + "\n,\r\n".join(parts) + "\n]").encode()


GEMINI = gemini_body(CHUNKS)
GEMINI_ASCII = gemini_body(CHUNKS, ensure_ascii=True)


def run(chunks: list[bytes], **options: Any) -> tuple[list[Any], BoundaryError | None, JSONArrayParser]:
    """Feed everything to a fresh parser and close: what came out, the error (if any), the parser."""
    parser = JSONArrayParser(**options)
    return (*feed_all(parser, chunks), parser)


# -- the same elements in every chunking ----------------------------------------------------------------


@pytest.mark.parametrize("body", [GEMINI, GEMINI_ASCII], ids=["raw UTF-8", "ensure_ascii"])
def test_gemini_array_in_every_chunking(body):
    assert json.loads(body) == CHUNKS
    for name, chunks in all_chunkings(body):
        values, error, parser = run(chunks)
        assert error is None, name
        assert values == CHUNKS, name
        assert (parser.elements_out, parser.closed, parser.ended_mid) == (3, True, None), name
        assert parser.state == "closed", name


def test_each_element_comes_out_when_its_closing_brace_arrives():
    ends = [m.end() for m in re.finditer(rb"\n}", GEMINI)]  # the closing brace of each top-level object
    assert len(ends) == 3
    for chunks in ([GEMINI], one_byte_chunks(GEMINI)):
        parser = JSONArrayParser()
        position, out = 0, []
        for chunk in chunks:
            out.extend(parser.feed(chunk))
            position += len(chunk)
            assert len(out) == sum(end <= position for end in ends)
        assert out == CHUNKS


def test_scalar_elements_end_only_at_a_delimiter():
    body = b'[12345, -0.5e-3 ,true,null,"x\\"]",false\r\n]'
    expected = [12345, -0.5e-3, True, None, 'x"]', False]
    for name, chunks in all_chunkings(body):
        values, error, _ = run(chunks)
        assert (values, error) == (expected, None), name
    parser = JSONArrayParser()
    assert parser.feed(b"[123") == []  # 123 may go on: 1234
    assert parser.in_element and parser.pending_element == "123"
    assert parser.feed(b"4") == []
    assert parser.feed(b"]") == [1234]


def test_whitespace_around_everything_and_the_empty_array():
    assert parse_json_array([b" \r\n\t[ \n1 \r\n, \t2\n] \r\n\t"]) == [1, 2]
    assert parse_json_array(one_byte_chunks(b" [ ] \n")) == []
    assert parse_json_array([b"[[]]"]) == [[]]


def test_escapes_cut_anywhere_inside_strings():
    values = ['a\\"b', "\\", '"', '\\\\"', "\u2028\\u1234", "[{,}]"]
    body = json.dumps(values).encode()
    for name, chunks in all_chunkings(body):
        got, error, _ = run(chunks)
        assert (got, error) == (values, None), name


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
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet='ab"\\[]{},', max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def arrays(draw: st.DrawFn) -> tuple[bytes, list[Any]]:
    """A JSON array as a service might send it: compact, pretty-printed or Gemini-shaped, any whitespace."""
    values = draw(st.lists(json_values, max_size=6))
    ensure_ascii = draw(st.booleans())
    indent = draw(st.sampled_from([None, 2]))
    parts = [json.dumps(v, indent=indent, ensure_ascii=ensure_ascii) for v in values]
    separator = draw(st.sampled_from([",", ", ", "\n,\r\n", " \t,\n  "]))
    space = st.sampled_from(["", " ", "\r\n", "\n  "])
    lead, inner_lead, inner_trail, trail = (draw(space) for _ in range(4))
    text = lead + "[" + inner_lead + separator.join(parts) + inner_trail + "]" + trail
    return text.encode(), values


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_hypothesis_arrays_in_hypothesis_chunkings_equal_the_reference(data):
    body, _ = data.draw(arrays())
    chunks = data.draw(partitions(body))
    values, error, parser = run(chunks)
    assert error is None
    assert values == json.loads(body)
    assert (parser.elements_out, parser.bytes_in, parser.closed) == (len(values), len(body), True)


# -- bad input -----------------------------------------------------------------------------------------


def test_invalid_utf8_raises_at_its_exact_offset_in_every_chunking():
    body = '[{"a": "日本"}, "x'.encode() + b"\xc3\x28" + b'"]'
    for name, chunks in all_chunkings(body):
        values, error, parser = run(chunks)
        assert isinstance(error, StreamDecodeError), name
        assert error.offset == body.index(b"\xc3"), name
        assert values == [{"a": "日本"}], name
        assert parser.state == "failed", name


def test_replace_mode_decodes_like_a_browser():
    body = b'["x\xff\xe2\x82y", {"\xf0\x9f\x99\x82": "\xed\xa0\x80"}]'
    expected = json.loads(body.decode("utf-8", "replace"))
    assert expected == ["x\ufffd\ufffdy", {"🙂": "\ufffd\ufffd\ufffd"}]
    for name, chunks in all_chunkings(body):
        values, error, _ = run(chunks, errors="replace")
        assert (values, error) == (expected, None), name


def test_stream_that_ends_mid_character():
    body = '[1, "🙂'.encode()[:-1]
    for name, chunks in all_chunkings(body):
        values, error, parser = run(chunks)
        assert isinstance(error, TruncatedCharacterError), name
        assert (error.offset, values, parser.ended_mid) == (5, [1], "character"), name
        values, error, parser = run(chunks, errors="replace")
        assert isinstance(error, IncompleteStreamError), name
        assert (error.unit, error.offset, parser.ended_mid) == ("element", 4, "character"), name


@pytest.mark.parametrize(
    ("body", "unit", "offset", "ended_mid"),
    [
        (b"", "array", 0, "array"),  # no "[": the offset is the end of the input
        (b"  \n", "array", 3, "array"),
        (b" [", "array", 1, "array"),  # the offset of the "["
        (b'[{"a": 1}\n,\r\n', "array", 0, "array"),
        (b'[{"a": 1}\n]'[:-1], "array", 0, "array"),
        ('[{"a": 1}, {"é": ['.encode(), "element", 11, "element"),
        (b'[1, "abc', "element", 4, "element"),
        (b'[1, "abc\\', "element", 4, "element"),
        (b"[1, 23", "element", 4, "element"),  # a number is not known to be whole before a delimiter
    ],
)
def test_an_array_that_never_closes(body, unit, offset, ended_mid):
    for name, chunks in all_chunkings(body):
        values, error, parser = run(chunks)
        assert isinstance(error, IncompleteStreamError), name
        assert (error.unit, error.offset, parser.ended_mid) == (unit, offset, ended_mid), name
        assert parser.closed is False
        assert len(values) == parser.elements_out
        with pytest.raises(ParserStateError):
            parser.close()


@pytest.mark.parametrize(
    ("body", "offset", "index"),
    [
        ('[{"a": "é"} x {"b": 2}]'.encode(), 13, 1),  # garbage between elements
        (b'[{"a": 1}\n;\r\n{"b": 2}]', 10, 1),
        (b'[{"a": 1}{"b": 2}]', 9, 1),  # a missing comma
        (b"[1, 2] ,3", 7, 2),  # text after the closing ]
        ('["é"]\n[]'.encode(), 7, 1),
        (b"[1,]", 3, 1),  # a trailing comma
        (b"[,1]", 1, 0),
        (b"[1,,2]", 3, 1),
        (b"\xef\xbb\xbf[1]", 0, 0),  # no BOM: it is not whitespace
        (b'{"a": 1}', 0, 0),  # not an array
        ('[{"a": "é", "b": tru}]'.encode(), 18, 0),  # an invalid element: the offset is in bytes
        (b'[{"a": "tab\there"}]', 11, 0),  # a raw control character inside a string
        (b"[{]", 2, 0),  # mismatched brackets: depth returns to 0, json.loads judges
        (b"[1 2]", 3, 1),
        (b"[01]", 2, 0),
        ('["é", ü]'.encode(), 7, 1),  # a scalar that is no JSON
    ],
)
def test_framing_errors_name_the_byte_offset_and_the_element(body, offset, index):
    for name, chunks in all_chunkings(body):
        _, error, parser = run(chunks)
        assert isinstance(error, FramingError), name
        assert (error.offset, error.event_index) == (offset, index), name
        with pytest.raises(ParserStateError):
            parser.feed(b"]")


def test_replace_mode_error_offset_counts_the_invalid_bytes():
    body = b'["\xe2\x82\xff", nope]'  # three invalid bytes become two U+FFFD
    assert body[8:12] == b"nope"
    for name, chunks in all_chunkings(body):
        _, error, _ = run(chunks, errors="replace")
        assert isinstance(error, FramingError), name
        assert (error.offset, error.event_index) == (8, 1), name


@pytest.mark.parametrize("element", [b"[" * 100_000 + b"]" * 100_000, b"1" * 5000])
def test_json_module_limits_become_framing_errors(element):
    _, error, _ = run([b"[0, " + element + b"]"])
    assert isinstance(error, FramingError)
    assert (error.offset, error.event_index) == (4, 1)


def test_the_first_fault_in_the_stream_wins_whatever_the_chunking():
    body = b'[{"a": 1}, {bad}, "\xff", "' + b"x" * 50 + b'"]'
    for name, chunks in all_chunkings(body):
        values, error, _ = run(chunks, max_element_chars=20)
        assert isinstance(error, FramingError), name
        assert (error.offset, error.event_index, values) == (12, 1, [{"a": 1}]), name


# -- limits --------------------------------------------------------------------------------------------


def test_a_long_element_raises_with_its_offset_and_nothing_is_dropped():
    body = '[1, "éééééééé", 2]'.encode()  # element 1 has 10 characters (18 bytes), from byte 4
    for name, chunks in all_chunkings(body):
        values, error, parser = run(chunks, max_element_chars=6)
        assert isinstance(error, LimitExceededError), name
        assert (error.limit, error.maximum) == ("max_element_chars", 6), name
        assert (error.offset, error.event_index) == (4 + 11, 1), name  # past '"ééééé'
        assert values == [1], name
        assert parser.state == "failed"
        with pytest.raises(ParserStateError):
            parser.feed(b"]")


def test_an_element_of_exactly_the_limit_passes():
    body = b'[{"a":1}, 123456, "abcd"]'
    for name, chunks in all_chunkings(body):
        assert run(chunks, max_element_chars=7)[:2] == ([{"a": 1}, 123456, "abcd"], None), name


def test_an_open_element_over_the_limit_raises_before_it_ends():
    parser = JSONArrayParser(max_element_chars=10)
    assert parser.feed(b'[{"a": [1,') == []  # 9 characters of the element so far
    with pytest.raises(LimitExceededError) as info:
        parser.feed(b" 2, 3")
    assert (info.value.offset, info.value.event_index) == (11, 0)


def test_default_limit_and_option_checks():
    assert DEFAULT_MAX_ELEMENT_CHARS == 16 * 1024 * 1024
    for bad in (0, -1, 2.0, False):
        with pytest.raises(ValueError):
            JSONArrayParser(max_element_chars=bad)
    with pytest.raises(ValueError):
        JSONArrayParser(errors="surrogateescape")
    assert parse_json_array([b'["' + b"x" * 100 + b'"]'], max_element_chars=None) == ["x" * 100]


# -- state for inspectors --------------------------------------------------------------------------------


def test_inspection_properties_follow_the_scanner():
    parser = JSONArrayParser()
    assert (parser.expecting, parser.in_element, parser.closed) == ("[", False, False)
    assert parser.feed(b' [{"a": [1, "]\\') == []
    assert (parser.in_element, parser.depth, parser.in_string, parser.expecting) == (True, 2, True, None)
    assert parser.pending_element == '{"a": [1, "]\\'
    assert parser.pending_element_chars == 13
    assert parser.feed(b'"", "\xe6\x97') == []
    assert parser.held_bytes == b"\xe6\x97"
    assert parser.feed(b'\xa5"]}') == [{"a": [1, ']"', "日"]}]
    assert (parser.in_element, parser.depth, parser.in_string) == (False, 0, False)
    assert parser.expecting == ", or ]"
    assert parser.pending_element_chars == 0
    assert parser.feed(b",") == [] and parser.expecting == "element"
    assert parser.feed(b" []\n]") == [[]]
    snap = parser.snapshot()
    assert (snap["closed"], snap["expecting"], snap["elements"], snap["bytes_in"]) == (True, "end", 2, 32)
    assert parser.close() == [] and parser.state == "closed" and parser.ended_mid is None


# -- robustness and cost --------------------------------------------------------------------------------


def mutated(body: bytes) -> st.SearchStrategy[bytes]:
    """``body`` with one byte replaced by 0-3 random bytes, or cut short."""
    replace = st.tuples(st.integers(0, max(len(body) - 1, 0)), st.binary(max_size=3)).map(
        lambda t: body[: t[0]] + t[1] + body[t[0] + 1 :]
    )
    return replace | st.integers(0, len(body)).map(lambda k: body[:k])


@settings(max_examples=300, deadline=None)
@given(
    body=st.one_of(
        st.binary(max_size=80),
        st.text(alphabet='[]{},:" \\\n\r1atrue', max_size=40).map(str.encode),
        arrays().flatmap(lambda pair: mutated(pair[0])),
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
            parser.feed(b"]")
    # whole-body reference: success exactly when the body is one JSON array
    try:
        expected = json.loads(body.decode("utf-8", errors))
    except (ValueError, RecursionError):
        assert error is not None
    else:
        assert (error is None) == isinstance(expected, list)
        if error is None:
            assert repr(values) == repr(expected)


class _CountingPattern:
    """Stands in for one of the scanner's compiled patterns; records how many characters each call read
    (those it matched or skipped, plus the one that stopped it)."""

    def __init__(self, pattern: re.Pattern[str], log: list[int]) -> None:
        self.pattern, self.log = pattern, log

    def _record(self, match: re.Match[str] | None, text: str, pos: int) -> re.Match[str] | None:
        read = len(text) - pos if match is None else min(match.end() - pos + 1, len(text) - pos)
        self.log.append(read)
        return match

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self._record(self.pattern.match(text, pos), text, pos)

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self._record(self.pattern.search(text, pos), text, pos)


def test_scanner_work_per_read_does_not_grow_with_the_element(monkeypatch):
    log: list[int] = []
    for name in ("_CONTAINER_RUN", "_STRING_RUN", "_SCALAR_END", "_NON_WHITESPACE"):
        monkeypatch.setattr(ndjson, name, _CountingPattern(getattr(ndjson, name), log))
    loads_calls: list[int] = []
    real_loads = json.loads
    monkeypatch.setattr(ndjson.json, "loads", lambda text: loads_calls.append(len(text)) or real_loads(text))

    text = 'é "q" \\ [x] {y}, ' * 50_000  # about 1 MB
    big = {"candidates": [{"content": {"parts": [{"text": text}]}}], "n": [[1, 2]] * 500}
    body = gemini_body([big, gemini_chunk("end", "STOP")])
    parser = JSONArrayParser()
    values = []
    for chunk in one_byte_chunks(body):
        before = len(log)
        values.extend(parser.feed(chunk))
        # one read of one character: the scanner looks at that character, a bounded number of times
        assert len(log) - before <= 3
        assert all(offered <= 1 for offered in log[before:])
    values.extend(parser.close())
    assert values == [big, gemini_chunk("end", "STOP")]
    assert len(loads_calls) == 2  # each element parsed once, whole
    assert loads_calls[0] == len(json.dumps(big, indent=2, ensure_ascii=False))

    log.clear()
    assert parse_json_array([body]) == values
    assert sum(log) <= 2 * len(body.decode())  # whole body in one read: still linear, no re-scanning


def test_an_element_one_character_over_the_limit_is_refused_and_one_at_it_accepted():
    """issue 23 (mutant ndjson ~602, ``> max + 1``): exactly the limit passes, one more raises."""
    assert parse_json_array([b'["\xe4\xbd\xa0\xe5\xa5\xbd\xc3\xa9"]'], max_element_chars=5) == ["你好é"]
    with pytest.raises(LimitExceededError):
        parse_json_array([b'["\xe4\xbd\xa0\xe5\xa5\xbd\xc3\xa9!"]'], max_element_chars=5)
    with pytest.raises(LimitExceededError):
        parse_json_array([b"[123456]"], max_element_chars=5)


@pytest.mark.parametrize("ending", [b"\r]", b"\r\n]", b"\t]", b" ,7]"])
def test_a_scalar_ends_at_a_cr_and_the_cr_is_not_counted_in_it(ending):
    """issue 23 (mutant ndjson ~376, CR dropped from the scalar's end): ``[12345\\r]`` with
    ``max_element_chars=5`` is valid, in every chunking."""
    body = b"[12345" + ending
    expected = [12345, 7] if b"7" in ending else [12345]
    for name, chunks in all_chunkings(body):
        assert parse_json_array(chunks, max_element_chars=5) == expected, name
