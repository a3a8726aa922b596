"""One stream's buffers stay within the documented bound (issue 23, item 7): tracemalloc peaks, no timing.

:func:`lesson_lib.core.options.stream_buffer_bound` is the bound; its docstring states its value at the
defaults. These tests run each parser, and ``consume``, on the inputs that cost the most memory per
counted character (many short data lines of Chinese in one event; one long line of emoji in large reads;
a long line of Chinese in 3-byte reads) up to a limit, and check the traced peak against the bound for
those limits. Before :mod:`lesson_lib.core.pieces`, the short lines took about 45 bytes per counted character
(this test's first case: about 22 MiB against a bound of under 8 MiB).
"""

from __future__ import annotations

import re
import tracemalloc
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest

from lesson_lib import SSEParser, consume
from lesson_lib.core.completion import DEFAULT_LIMITS
from lesson_lib.core.errors import LimitExceededError
from lesson_lib.core.lines import DEFAULT_MAX_LINE_CHARS
from lesson_lib.core.ndjson import JSONArrayParser, NDJSONParser
from lesson_lib.core.options import OptionError, stream_buffer_bound
from lesson_lib.core.pieces import CHECK_EVERY, compact_tail
from lesson_lib.core.sse_common import DEFAULT_MAX_EVENT_CHARS
from lesson_lib.core.sse_reference import ReferenceSSEParser

KiB, MiB = 1024, 1024 * 1024
EVENT, LINE = 512 * KiB, 64 * KiB


def _reads(pieces: Iterable[bytes], size: int) -> Iterator[bytes]:
    buffer = bytearray()
    for piece in pieces:
        buffer += piece
        while len(buffer) >= size:
            yield bytes(buffer[:size])
            del buffer[:size]
    if buffer:
        yield bytes(buffer)


def _repeat(unit: bytes, count: int) -> Iterator[bytes]:
    per = 65536 // len(unit)
    for _ in range(count // per):
        yield unit * per
    yield unit * (count % per)


def short_lines(value: str, chars: int) -> Iterator[bytes]:
    yield from _repeat(f"data:{value}\n".encode(), chars // (len(value) + 1) + 2)  # just over
    yield b"\n"


def long_line(char: str, chars: int, prefix: bytes = b"data: ", suffix: bytes = b"\n\n") -> Iterator[bytes]:
    yield prefix
    yield from _repeat(char.encode(), chars)
    yield suffix


def traced_peak(work: Callable[[], Any]) -> tuple[int, Any]:
    """The tracemalloc peak of ``work()`` above what was traced when it started, and its result."""
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        result = work()
        return tracemalloc.get_traced_memory()[1] - base, result
    finally:
        tracemalloc.stop()


def feed_all(parser: Any, reads: Iterable[bytes]) -> str:
    try:
        for read in reads:
            parser.feed(read)
        parser.close()
    except LimitExceededError as error:
        assert error.offset is not None  # a limit names its offset
        return error.limit
    return "no limit"


SSE_CASES = {
    # name: (input, read size, limits, the limit it crosses)
    "short lines of Chinese": (lambda: short_lines("中", EVENT), 64 * KiB, "max_event_chars"),
    "short lines of ASCII": (lambda: short_lines("ab", EVENT), 64 * KiB, "max_event_chars"),
    "a long line of emoji": (lambda: long_line("🙂", LINE + 1), 64 * KiB, "max_line_chars"),
    "a long line of Chinese, 3-byte reads": (lambda: long_line("中", 16 * KiB + 1), 3, "max_line_chars"),
}


@pytest.mark.parametrize("errors", ["strict", "replace"])
@pytest.mark.parametrize("parser_class", [SSEParser, ReferenceSSEParser], ids=["fast", "reference"])
@pytest.mark.parametrize("case", list(SSE_CASES))
def test_sse_parser_peak_within_the_bound(case: str, parser_class: type, errors: str) -> None:
    make, read_size, limit = SSE_CASES[case]
    line = 16 * KiB if read_size == 3 else LINE
    parser = parser_class(errors=errors, max_line_chars=line, max_event_chars=EVENT)
    peak, crossed = traced_peak(lambda: feed_all(parser, _reads(make(), read_size)))
    assert crossed == limit  # the parser stopped at the limit the input crosses, with an error
    bound = stream_buffer_bound(
        max_line_chars=line, max_event_chars=EVENT, read_bytes=read_size, errors=errors
    )
    assert peak <= bound, f"{case}: peak {peak / MiB:.1f} MiB over the bound {bound / MiB:.1f} MiB"


def test_a_long_event_of_long_lines_within_the_bound() -> None:
    """Two long lines in one event: the data held, a line being joined, then the joined data."""
    body = [b"data: ", "🙂".encode() * (LINE - 8), b"\ndata: ", "🙂".encode() * (LINE - 8), b"\n\n"]
    for parser_class in (SSEParser, ReferenceSSEParser):
        for errors in ("strict", "replace"):
            parser = parser_class(errors=errors, max_line_chars=LINE, max_event_chars=2 * LINE)
            peak, crossed = traced_peak(lambda p=parser: feed_all(p, _reads(body, 64 * KiB)))
            assert crossed == "no limit"
            bound = stream_buffer_bound(max_line_chars=LINE, max_event_chars=2 * LINE, errors=errors)
            assert peak <= bound, (parser_class.__name__, errors, peak, bound)


def test_consume_peak_within_the_bound() -> None:
    limits = {"max_line_chars": LINE, "max_event_chars": EVENT, "max_bytes_without_progress": None}
    peak, result = traced_peak(
        lambda: consume(_reads(short_lines("中", EVENT), 64 * KiB), "openai-chat", **limits)
    )
    assert str(result.outcome) == "limit_exceeded" and result.error.limit == "max_event_chars"
    assert peak <= stream_buffer_bound(max_line_chars=LINE, max_event_chars=EVENT)


def test_ndjson_and_json_array_peaks_within_the_bound() -> None:
    for read_size, char, chars in ((64 * KiB, "🙂", LINE + 1), (3, "中", 16 * KiB + 1)):
        limit = LINE if read_size > 3 else 16 * KiB
        parser = NDJSONParser(max_line_chars=limit)
        peak, crossed = traced_peak(
            lambda p=parser, c=char, n=chars, r=read_size: feed_all(
                p, _reads(long_line(c, n, b'"', b'"\n'), r)
            )
        )
        assert crossed == "max_line_chars"
        assert peak <= stream_buffer_bound(max_line_chars=limit, max_event_chars=0, read_bytes=read_size)
        array = JSONArrayParser(max_element_chars=limit)
        peak, crossed = traced_peak(
            lambda p=array, c=char, n=chars, r=read_size: feed_all(
                p, _reads(long_line(c, n, b'["', b'"]'), r)
            )
        )
        assert crossed == "max_element_chars"
        assert peak <= stream_buffer_bound(
            max_line_chars=0, max_event_chars=0, max_element_chars=limit, read_bytes=read_size
        )


def test_the_documented_size_at_the_defaults() -> None:
    """The docstring's figure is the bound at the defaults; a default raised (tenfold, say) fails here."""
    stated = re.search(r"the bound is (\d+) MiB", " ".join(stream_buffer_bound.__doc__.split()))
    assert stated is not None
    for line, event in (
        (DEFAULT_MAX_LINE_CHARS, DEFAULT_MAX_EVENT_CHARS),
        (DEFAULT_LIMITS["max_line_chars"], DEFAULT_LIMITS["max_event_chars"]),
    ):
        bound = stream_buffer_bound(max_line_chars=line, max_event_chars=event)
        assert round(bound / MiB) == int(stated.group(1)) <= 192


def test_the_bound_refuses_bad_arguments() -> None:
    with pytest.raises(OptionError, match="max_line_chars"):
        stream_buffer_bound(max_line_chars=None, max_event_chars=1)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="errors"):
        stream_buffer_bound(max_line_chars=1, max_event_chars=1, errors="ignore")


@pytest.mark.parametrize("sep", ["", "\n"])
def test_compact_tail_keeps_the_joined_text(sep: str) -> None:
    """Appending with the owners' check: the joined text never changes, and short strings stay few."""
    parts: list[str] = []
    pieces = ["中", "", "ab", "🙂" * 5000, "é", "x" * 70, *(["z"] * 300), "q" * 4096]
    expected: list[str] = []
    for round_ in range(3):
        for piece in pieces:
            parts.append(piece)
            expected.append(piece)
            if not len(parts) % CHECK_EVERY:
                compact_tail(parts, sep)
            assert sep.join(parts) == sep.join(expected), round_
    assert len(parts) < len(expected) // 4
    if sep == "\n":
        assert [line for group in parts for line in group.split("\n")] == expected
