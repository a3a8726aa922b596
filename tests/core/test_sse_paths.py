"""The reference parser and every path of the fast one give the same answer: the permanent differential test.

``ReferenceSSEParser`` (lesson_lib/core/sse_reference.py) is the spec's algorithm, layer by layer. The fast
parser, ``SSEParser`` (lesson_lib/core/sse_fast.py), reads bytes along three paths:

* the layers one by one: decoder, line splitter, field loop (``_feed_now``), the path that finds exact
  error offsets;
* the one-pass path for a read that ends lines (``_feed_lines``), with the no-line-ending shortcut;
* the run path inside it (:mod:`lesson_lib.core.sse_runs`), normally only for reads of 4 KiB and more;
  and, once 4 KiB wait undecoded, decoding them into the unfinished line (``_extend_line``).

The same bytes go through the reference, the fast parser's layers only, its one-pass path (runs off), its
one-pass path with runs forced on for every read, and one whole read of each parser. The events (comments
included), the errors with their offsets, the outputs they carry, and the parsers' state after every read
and after the last one must be identical. One thing may differ, and is documented: the reference reports
invalid UTF-8 in the read that brings it, the fast parser when its line ends; so states after each read
are compared up to the first read where either raised.
"""

from __future__ import annotations

from collections.abc import Callable
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import Event, ReferenceSSEParser, SSEParser
from lesson_lib.captures import load, manifest
from lesson_lib.core import sse_fast as sse
from lesson_lib.core.errors import BoundaryError
from tests.core.test_sse_runs import run_texts
from tests.strategies import all_chunkings, partitions, sse_streams, where

# -- the adapters: how each path is forced -----------------------------------------------------------------


class _LayersOnly(SSEParser):
    """Every read through the layers one by one: the one-pass and run paths are never tried."""

    def feed(self, chunk: bytes):  # type: ignore[override]
        return self._feed_now(chunk)


def _run(make: Callable[[], object], chunks: list[bytes], gate: int | None) -> tuple:
    """Feed, close, and describe everything observable: outputs, error and where, state after each read.

    ``gate`` forces the fast parser's size thresholds: 0 takes the run path and decodes every read
    without a line ending at once; a huge number never does either; ``None`` keeps the real thresholds.
    """
    runs = sse._RUN_MIN_CHARS if gate is None else gate
    eager = sse._RAW_MAX_BYTES if gate is None else gate
    with patch.object(sse, "_RUN_MIN_CHARS", runs), patch.object(sse, "_RAW_MAX_BYTES", eager):
        parser = make()
        out: list = []
        after_each: list = []  # (outputs of the read, state after it), until an error
        error: BoundaryError | None = None
        try:
            for chunk in chunks:
                got = parser.feed(chunk)
                out.extend(got)
                after_each.append((got, _state(parser)))
            state_before_close = _state(parser)
            out.extend(parser.close())
        except BoundaryError as exc:
            out.extend(exc.outputs)
            error, state_before_close = exc, None
    return _final(parser, out, error, state_before_close), after_each


def _final(parser, out: list, error: BoundaryError | None, state_before_close: object) -> tuple:
    """Everything observable at the end of a run: outputs, the error and where, state, the parser's views."""
    return (
        out,
        where(error),
        str(error) if error is not None else None,
        state_before_close,
        parser.last_event_id,
        parser.retry,
        parser.events_out,
        parser.ended_mid,
    )


def _run_each(make: Callable[[], object], chunks: list[bytes], gate: int | None) -> tuple:
    """As :func:`_run`, but the parser loops over the reads itself (``feed_each``). The state after each
    read is taken when ``feed_each`` asks for the next one; each yielded list is the outputs of the read it
    last took, so the result compares read by read with :func:`_run`'s."""
    runs = sse._RUN_MIN_CHARS if gate is None else gate
    eager = sse._RAW_MAX_BYTES if gate is None else gate
    with patch.object(sse, "_RUN_MIN_CHARS", runs), patch.object(sse, "_RAW_MAX_BYTES", eager):
        parser = make()
        out: list = []
        per_read: list[list] = [[] for _ in chunks]
        states: list = []
        taken = -1

        def reads():
            nonlocal taken
            for index, chunk in enumerate(chunks):
                if index:
                    states.append(_state(parser))
                taken = index
                yield chunk
            if chunks:
                states.append(_state(parser))

        error: BoundaryError | None = None
        try:
            for got in parser.feed_each(reads()):
                assert got, "feed_each yielded an empty list"
                assert not per_read[taken], "feed_each yielded twice for one read"
                per_read[taken] = list(got)
                out.extend(got)
            state_before_close = _state(parser)
            out.extend(parser.close())
        except BoundaryError as exc:
            out.extend(exc.outputs)
            error, state_before_close = exc, None
    return _final(parser, out, error, state_before_close), list(zip(per_read, states, strict=False))


def _state(parser) -> dict[str, object]:
    snapshot = parser.snapshot()
    held, line, event, inside = parser.pending_sizes()
    snapshot["pending_sizes"] = (held, event, inside)
    snapshot["pending_event_chars"] = parser.pending_event_chars
    snapshot["has_pending_event"] = parser.has_pending_event
    # The unfinished line's size is documented as approximate while bytes wait undecoded (each counts
    # one): between its characters and its bytes, and the same in both views.
    pending = parser.pending_line
    size_in_bytes = len(pending.encode("utf-8", "surrogatepass")) + held
    snapshot["line size within bounds"] = len(pending) <= line == parser.pending_line_chars <= size_in_bytes
    return snapshot


def all_paths(body: bytes, chunks: list[bytes], **options: object) -> dict[str, tuple]:
    return {
        "reference": _run(lambda: ReferenceSSEParser(**options), chunks, None),
        "fast, layers only": _run(lambda: _LayersOnly(**options), chunks, None),
        "fast, one pass, runs off": _run(lambda: SSEParser(**options), chunks, 1 << 62),
        "fast, one pass, runs forced on": _run(lambda: SSEParser(**options), chunks, 0),
        "fast, real thresholds": _run(lambda: SSEParser(**options), chunks, None),
        "fast, feed_each": _run_each(lambda: SSEParser(**options), chunks, None),
        "fast, feed_each, runs forced on": _run_each(lambda: SSEParser(**options), chunks, 0),
        "fast, one whole read": _run(lambda: SSEParser(**options), [body], None),
        "reference, one whole read": _run(lambda: ReferenceSSEParser(**options), [body], None),
    }


def assert_all_agree(results: dict[str, tuple], same_chunks: tuple[str, ...] = ()) -> None:
    """Every path's final result equals the reference's; paths fed the same chunks also agree read by read
    (outputs and state), up to the first read where either raised."""
    reference, reference_reads = results["reference"]
    for name, (final, reads) in results.items():
        assert final == reference, name
        if name in same_chunks:
            common = min(len(reads), len(reference_reads))
            assert reads[:common] == reference_reads[:common], name


SAME_CHUNKS = (
    "fast, layers only",
    "fast, one pass, runs off",
    "fast, one pass, runs forced on",
    "fast, real thresholds",
    "fast, feed_each",
    "fast, feed_each, runs forced on",
)


# -- the bodies -------------------------------------------------------------------------------------------
_INSERTS = [b"\xff", b"\xc3", b"\xe4\xbd", b"\xf0\x9f\x99", b"\r", b"\n\n", b"\xef\xbb\xbf", b"\x00", b":\n"]


@st.composite
def fuzzed_bodies(draw: st.DrawFn) -> bytes:
    """Large SSE bodies: runs of one-shape events, random fields and endings, long values, stray bytes."""
    parts = []
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["runs", "runs", "fields", "long"]))
        if kind == "runs":
            text = draw(run_texts())
            if draw(st.booleans()):  # heartbeats: a comment line between two events
                ping = draw(st.sampled_from([": ping\n", ":\n", ": 你好 🙂\n"]))
                text = text.replace("\n\n", "\n\n" + ping + "\n", draw(st.integers(1, 3)))
            if draw(st.booleans()):
                text = text.replace("\n", draw(st.sampled_from(["\r\n", "\r"])))
            parts.append(text.encode())
        elif kind == "fields":
            parts.append(draw(sse_streams()))
        else:
            name = draw(st.sampled_from(["data", "retry", "id", "event", ""]))
            value = draw(st.sampled_from(["你好" * 700, "9" * 4400, "é🙂" * 600, "x" * 5000]))
            parts.append(f"{name}: {value}\n\n".encode())
    body = b"".join(parts)
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(body)))
        body = body[:at] + draw(st.sampled_from(_INSERTS)) + body[at:]
    return body


options = st.fixed_dictionaries(
    {
        "errors": st.sampled_from(["strict", "replace"]),
        "comments": st.booleans(),
        "max_line_chars": st.sampled_from([None, 4 * 1024 * 1024, 12, 40, 300, 3000]),
        "max_event_chars": st.sampled_from([None, 16 * 1024 * 1024, 10, 64, 2000]),
    }
)


@settings(deadline=None, max_examples=300)
@given(st.data(), fuzzed_bodies(), options)
def test_the_reference_and_every_fast_path_agree(data, body, parser_options):
    chunks = data.draw(partitions(body))
    assert_all_agree(all_paths(body, chunks, **parser_options), SAME_CHUNKS)


@settings(deadline=None, max_examples=200)
@given(st.data(), sse_streams(), options)
def test_they_agree_on_random_fields_and_endings(data, body, parser_options):
    chunks = data.draw(partitions(body))
    assert_all_agree(all_paths(body, chunks, **parser_options), SAME_CHUNKS)


@settings(deadline=None, max_examples=60)
@given(st.data(), st.lists(run_texts(), min_size=20, max_size=40).map("".join))
def test_large_reads_agree_on_every_path(data, text):
    # Reads of 4 KiB and more take the run path by itself, without forcing.
    body = text.encode() * 4
    size = data.draw(st.sampled_from([4096, 8192, 65536]))
    chunks = [body[i : i + size] for i in range(0, len(body), size)]
    assert_all_agree(all_paths(body, chunks), SAME_CHUNKS)


CAPTURES = [entry["file"].rsplit(".", 1)[0] for entry in manifest() if entry["file"].endswith(".sse")]


def test_every_capture_in_every_chunking_through_both_parsers():
    """The stored streams in data/ (real services' shapes, cut and uncut): the hold-out vectors."""
    assert CAPTURES
    for name in CAPTURES:
        body = load(name).body
        for errors in ("strict", "replace"):
            for cut, chunks in all_chunkings(body, seeds=2):
                if cut.startswith("cut at") and int(cut.split()[-1]) % 97:
                    continue  # every 97th two-piece split: the captures are long
                results = all_paths(body, chunks, errors=errors, comments=True)
                assert_all_agree(results, SAME_CHUNKS)


def test_heartbeats_ids_and_crlf_in_large_reads_agree_on_every_path():
    """The shapes the benchmarks added (issue 13), in 1-byte, 7-byte, 4 KiB and whole reads."""
    events = [f"data: {word}\n\n" for word in ["你好", "café", "🙂", "Ångström"] * 300]
    heartbeats = "".join(event + (": ping\n\n" if i % 5 == 4 else "") for i, event in enumerate(events))
    with_ids = "".join(f"id: {i}\n{event}" for i, event in enumerate(events))
    for text in (heartbeats, with_ids, heartbeats.replace("\n", "\r\n"), with_ids.replace("\n", "\r\n")):
        body = text.encode()
        for size in (1, 7, 4096, len(body)):
            chunks = [body[i : i + size] for i in range(0, len(body), size)]
            for comments in (False, True):
                assert_all_agree(all_paths(body, chunks, comments=comments), SAME_CHUNKS)


#: Small bodies where a CR or an LF stands alone next to CRLF endings, each cut every way: a small read
#: that looks like a CRLF data line and its blank line takes a shortcut (``FastSSEParser._feed_lines``)
#: that must not swallow a CR inside the line or the unfinished one.
MIXED_ENDINGS = [
    "data: a\rb\r\n\r\ndata: c\r\n\r\n",
    "data: 你\rb\r\n\r\ndata: c\r\n\r\n",
    "data: a\r\n\r\ndata: b\rc\r\n\r\n",
    "data: a\r\n\rdata: b\r\n\r\n",
    "data: a\n\r\ndata: b\r\n\r\n",
    "\r\n\r\ndata: é🙂\r\n\r\n",
    "data: a\r\rdata: 你好\r\rdata: b\r\r",  # CR endings alone, a non-ASCII line after each blank one
    "data: a\n\ndata: 你好\n\ndata: b\r\n\r\n",
]


@pytest.mark.parametrize("text", MIXED_ENDINGS)
def test_a_cr_alone_beside_crlf_endings_agrees_on_every_path_in_every_chunking(text):
    body = text.encode()
    for _, chunks in all_chunkings(body, seeds=3):
        assert_all_agree(all_paths(body, chunks), SAME_CHUNKS)


@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_limits_after_data_events_read_whole_agree_on_every_path(ending):
    """Reads that each end a data line and its blank line (``FastSSEParser._feed_data_event``), then a line
    and an event past their limits: the same errors, offsets and character indexes on every path."""
    events = "".join(f"data: {word}{ending}{ending}" for word in ["你好", "é", "🙂", "ok"])
    for tail, limits in (
        (f"data: {'x' * 30}{ending}{ending}", {"max_line_chars": 20}),
        (f"data: {'x' * 9}{ending}{ending}", {"max_event_chars": 8}),
        (f"data: {'x' * 8}{ending}{ending}", {"max_event_chars": 8}),  # exactly at the bound: no error
    ):
        body = (events + tail).encode()
        for _, chunks in all_chunkings(body, seeds=3):
            assert_all_agree(all_paths(body, chunks, **limits), SAME_CHUNKS)


#: ``id:`` and ``event:`` lines in the smallest reads, whose bytes all waited undecoded: each is set from its
#: bytes (``FastSSEParser._feed_field_line``). After a line ended by a CR alone (the LF that may follow
#: it must not be waited for any more), at and one past the line limit, and before invalid UTF-8 (its
#: character index counts the field lines' characters).
FIELD_LINES = [
    ("id: 1\nevent: 好\ndata: é🙂\n\nid: 2\ndata: x\n\n".encode(), {}),
    (b"data: a\r\rid: 7\n\ndata: b\n\n", {}),
    (b"data: a\r\revent: t\n\ndata: b\r\n\r\n", {}),
    (b"id: 1\nevent: \xe4\xbd\xa0\ndata: a\n\nid: 22\ndata: \xff\n\n", {}),
    (b"data: a\n\nid: 1\x002\ndata: b\n\n", {}),
    (b"id: 1\r\nevent: t\r\ndata: b\r\n\r\nid: a\rb\nevent: u\rdata: c\n\n", {}),
    ("id: 1\nevent: 好\ndata: ".encode() + b"x" * 20 + b"\n\n", {"max_line_chars": 12}),
    (b"data: a\n\nid: " + b"x" * 8 + b"\ndata: b\n\n", {"max_line_chars": 12}),
    (b"data: a\n\nid: " + b"x" * 9 + b"\ndata: b\n\n", {"max_line_chars": 12}),
    (b"data: a\n\nevent: " + b"x" * 5 + b"\ndata: b\n\n", {"max_line_chars": 12}),
    (b"data: a\n\nevent: " + b"x" * 6 + b"\ndata: b\n\n", {"max_line_chars": 12}),
]


@pytest.mark.parametrize(("body", "limits"), FIELD_LINES)
def test_field_lines_in_the_smallest_reads_agree_on_every_path(body, limits):
    chunkings = [chunks for _, chunks in all_chunkings(body, seeds=2)]
    chunkings += [[body[i : i + size] for i in range(0, len(body), size)] for size in range(2, 18)]
    for chunks in chunkings:
        assert_all_agree(all_paths(body, chunks, **limits), SAME_CHUNKS)


#: Reads that end a data line, its blank line and field lines, taken in their bytes
#: (``FastSSEParser._feed_event_then_fields``, ``_feed_line_bytes``), and the near misses they must leave
#: to the field loop: the data line not the read's first, a field line without its space or unknown,
#: LF and CRLF mixed, a CR alone, two blank lines, an id with U+0000, a field line past the line limit;
#: and two event: lines, non-ASCII types and ids before a line past its limit.
EVENT_THEN_FIELDS = [
    (b"data: a\n\nevent: x\nid: 1\ndata: b\n\ndata: c\n\nid: 2\nevent: y\ndata: d\n\n", {}),
    (b"data: a\r\n\r\nevent: x\r\nid: 1\r\ndata: b\r\n\r\nid: 2\r\ndata: c\r\n\r\n", {}),
    (b"data: a\nid: 1\n\nevent: x\ndata: b\n\ndata: c\nevent: z\n\nid: 3\ndata: d\n\n", {}),
    (b"data: a\n\nretry: 5\nid: 1\ndata: b\n\ndata: c\n\nid:7\nevent:q\ndata: d\n\n", {}),
    (b"data: a\r\n\r\nid: 1\nevent: x\r\ndata: b\r\n\r\n", {}),
    (b"data: a\r\n\r\nid: 1\revent: x\r\ndata: b\r\n\r\nid: 2\r\ndata: c\r\r", {}),
    (b"data: a\n\n\nevent: x\ndata: b\n\n\nid: 4\n\ndata: c\n\n", {}),
    ("data: é\n\nid: 1\x002\nevent: 好\ndata: b\n\nid: 🙂\nid: 2\ndata: c\n\n".encode(), {}),
    (b"data: a\n\n: ping\nid: 1\ndata: b\n\nevent: x\n: pong\ndata: c\n\n", {}),
    (
        b"data: a\n\nid: 1\nevent: " + b"x" * 5 + b"\ndata: b\n\nid: " + b"y" * 9 + b"\ndata: c\n\n",
        {"max_line_chars": 12},
    ),
    (b"data: a\n\nevent: t\nid: 1\ndata: " + b"x" * 9 + b"\n\n", {"max_event_chars": 8}),
    (b"data: a\n\nid: 1\nevent: \xe4\xbd\ndata: b\n\n", {}),
    # two event: lines (the last sets the type), and non-ASCII types and ids counted as characters: the
    # limit's error after them counts every character before it
    (b"data: a\n\nevent: x\nevent: y\ndata: b\n\ndata: c\r\n\r\nevent: u\r\nevent: v\r\ndata: d\r\n\r\n", {}),
    (
        "data: a\n\nevent: 好\nid: é\ndata: b\n\nid: 🙂\nevent: 你好\ndata: c\n\nevent: ü\nevent: 好\ndata: "
        .encode() + b"x" * 30 + b"\n\n",
        {"max_line_chars": 24},
    ),
]


@pytest.mark.parametrize(("body", "limits"), EVENT_THEN_FIELDS)
def test_events_then_field_lines_in_small_reads_agree_on_every_path(body, limits):
    chunkings = [chunks for _, chunks in all_chunkings(body, seeds=2)]
    chunkings += [[body[i : i + size] for i in range(0, len(body), size)] for size in range(1, 40)]
    chunkings += [[body[:cut], body[cut:]] for cut in range(len(body) + 1)]
    for chunks in chunkings:
        assert_all_agree(all_paths(body, chunks, **limits), SAME_CHUNKS)


#: Reads that end one line (``FastSSEParser._feed_one_line``): by LF, by CRLF, by a CR that ends the read,
#: after the LF of a CRLF whose CR ended the last read or that LF alone; and the near misses it leaves to
#: the other paths: a CR alone inside the read, two CRs, an LF alone beside a CR, a comment, an unknown
#: field, an id with U+0000, invalid UTF-8, and a line at and past each limit after CRLFs cut by reads
#: (the limit's error counts every character before it: the CRLFs' included).
ONE_LINE_READS = [
    ("event: message\r\nid: 1\r\ndata: 你好\r\n\r\n".encode() * 3 + b"data: " + b"x" * 30 + b"\r\n", {}),
    ("event: message\r\nid: 1\r\ndata: é🙂\r\n\r\n".encode() * 3 + b"data: " + b"x" * 30 + b"\r\n\r\n",
     {"max_line_chars": 20}),
    (b"event: m\r\nid: 22\r\ndata: a\r\n\r\n" * 2 + b"id: " + b"y" * 17 + b"\r\ndata: b\r\n\r\n",
     {"max_line_chars": 20}),
    (b"event: m\r\nid: 22\r\ndata: a\r\n\r\n" * 2 + b"id: " + b"y" * 16 + b"\r\ndata: b\r\n\r\n",
     {"max_line_chars": 20}),
    (
        b"id: 1\r\ndata: abc\r\ndata: def\r\n\r\n" * 2 + b"data: " + b"z" * 12 + b"\r\n\r\n",
        {"max_event_chars": 10},
    ),
    (b"id: 1\ndata: a\n\nid: 2\rdata: b\r\rid: 3\r\ndata: c\n\r\n", {}),
    (b"event: a\r\n: ping\r\nretry: 5\r\nid: 1\x002\r\ndata: x\r\n\r\nfoo: 1\r\ndata: y\r\n\r\n", {}),
    (b"id: 1\r\ndata: a\r\n\r\nid: 2\r\ndata: \xe4\xbd\r\n\r\n", {}),
    (b"data: a\r\n\r\ndata: b\r\n\r\n\r\n\r\ndata: c\r\n\r\n", {}),
]


@pytest.mark.parametrize(("body", "limits"), ONE_LINE_READS)
def test_reads_that_end_one_line_agree_on_every_path(body, limits):
    chunkings = [chunks for _, chunks in all_chunkings(body, seeds=2)]
    chunkings += [[body[i : i + size] for i in range(0, len(body), size)] for size in range(1, 24)]
    for chunks in chunkings:
        assert_all_agree(all_paths(body, chunks, **limits), SAME_CHUNKS)


def test_the_read_that_brings_the_first_heartbeats_takes_the_run_path():
    events = "".join(
        f"data: {word}\n\n" + (": ping\n\n" if i % 5 == 4 else "") for i, word in enumerate(["é", "你"] * 400)
    )
    body = events.encode()
    for comments, runs in ((False, 1), (True, 0)):  # comments to report must go through the field loop
        parser = SSEParser(comments=comments)
        with patch.object(
            SSEParser, "_dispatch_run", autospec=True, side_effect=SSEParser._dispatch_run
        ) as spy:
            out = parser.feed(body)
        assert spy.call_count == runs
        assert [event.data for event in out if isinstance(event, Event)] == ["é", "你"] * 400


def test_a_cr_inside_a_crlf_data_line_ends_the_line():
    parser = SSEParser()
    events = parser.feed(b"data: a\rb\r\n\r\n")  # lines: "data: a", "b" (a field, ignored), ""
    assert [event.data for event in events] == ["a"]


_BOM = b"\xef\xbb\xbf"
_STARTS = [b"", _BOM, _BOM + _BOM, _BOM[:2], _BOM[:1], "！é".encode(), "！".encode()[:2]]


@settings(deadline=None, max_examples=150)
@given(st.data(), st.sampled_from(_STARTS), sse_streams(), options)
def test_the_first_reads_agree_with_or_without_a_byte_order_mark(data, start, rest, parser_options):
    # The first read that ends lines takes the one-pass path unless the stream starts with a BOM (or
    # bytes that may begin one); cut anywhere, before and inside the mark.
    body = start + rest
    chunks = data.draw(partitions(body))
    assert_all_agree(all_paths(body, chunks, **parser_options), SAME_CHUNKS)


def test_the_first_read_takes_the_one_pass_path_unless_a_bom_starts_it():
    body = "data: 你好\n\ndata: 🙂\n\n".encode()
    with patch("lesson_lib.core.lines.LineSplitter.feed", side_effect=AssertionError("the layers")):
        parser = SSEParser()
        assert [e.data for e in parser.feed(body[:13]) + parser.feed(body[13:])] == ["你好", "🙂"]
        for first in (b"\xef\xbb\xbf" + body, b"\xef\xbb", b"\xef"):
            parser = SSEParser()
            with pytest.raises(AssertionError, match="the layers"):
                parser.feed(first)
                parser.feed(b"\xbf" + body if len(first) == 2 else b"\xbb\xbf" + body)
