"""The SSE parsers cost linear work in the bytes, in both error modes, at every read size: counted, not timed.

A profile hook adds up, during every ``feed`` and the ``close``, the characters and bytes carried into and
out of every call of a ``lesson_lib`` function: each ``str``, ``bytes`` or ``bytearray`` argument (``self``
left out) and return value, and those directly inside a tuple or list (a layer's state, the lines a split
returns). The count is deterministic and does not depend on the machine.

What it catches: a parser that hands its unfinished line (or any buffer that grows with the line) across a
call on every read. That is how ``SSEParser`` was quadratic in ``errors="replace"`` mode (issue 23, item 1):
every read round-tripped the decoder's and the splitter's state, the whole unfinished line, through
``setstate``/``getstate``. On that code this count grew with the line: 20 units per byte for a 32 KiB line,
56 for a 128 KiB one, in 1-byte reads; the bound below is 20 per byte at every size, and four times
the line must not cost more than 1.1 times the work per byte. What it cannot see is
work inside one C call (a ``buffer += read`` and a scan of it within one function); the benchmark's
cost-per-byte verdict for both modes (``benchmarks/linear_cost.py``) is the timed check of that.
"""

from __future__ import annotations

import os
import sys

import pytest

import lesson_lib
from lesson_lib import ReferenceSSEParser, SSEParser
from lesson_lib.core.pieces import LONG, compact_tail

_LIB = os.path.dirname(lesson_lib.__file__)
#: Units carried per byte that both parsers stay under at every size and read size (measured: 2-12 for
#: SSEParser, up to 15 for the reference, which copies each line more often).
PER_BYTE = 20


def _units(value: object, nested: bool = False) -> int:
    if isinstance(value, (str, bytes, bytearray)):
        return len(value)
    if not nested and isinstance(value, (tuple, list)):
        return sum(_units(item, True) for item in value)
    return 0


def carried(parser: object, reads: list[bytes]) -> int:
    """Characters and bytes carried across the calls of lesson_lib's functions while ``reads`` are parsed."""
    total = 0

    def hook(frame, event, arg):  # type: ignore[no-untyped-def]
        nonlocal total
        code = frame.f_code
        if not code.co_filename.startswith(_LIB):
            return
        if event == "call":
            arguments = frame.f_locals
            if code is compact_tail.__code__:
                # It gets the whole list but reads only the strings after the last long one (what it may
                # join): count those, not the list's every character (which no call copies).
                parts = arguments["parts"]
                start = len(parts)
                while start and len(parts[start - 1]) < LONG:
                    start -= 1
                total += sum(len(part) for part in parts[start:])
                return
            total += sum(_units(arguments.get(name)) for name in code.co_varnames[: code.co_argcount])
        elif event == "return":
            total += _units(arg)

    sys.setprofile(hook)
    try:
        for read in reads:
            parser.feed(read)  # type: ignore[attr-defined]
        parser.close()  # type: ignore[attr-defined]
    finally:
        sys.setprofile(None)
    return total


def _cut(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


def _long_comment(n: int) -> bytes:
    return b": " + "心跳é".encode() * (n // 6) + b"\n\n"


def _long_data_line(n: int) -> bytes:
    return b"data: " + "日本語 café 🙂 ".encode() * (n // 22) + b"\r\n\r\n"


def _invalid_bytes_line(n: int) -> bytes:
    """Invalid UTF-8 throughout a long line: replace mode only."""
    return b"data: " + b"ab\xffcd\xc3" * (n // 6) + b"\n\n"


def _many_lines(n: int) -> bytes:
    """One event of many short data lines, then short events with ids: lines complete on most reads."""
    event = b"".join(b"data: \xe4\xb8\xad%d\n" % i for i in range(n // 12)) + b"\n"
    return event + b"".join(b"id: %d\ndata: {\"x\":\"\xf0\x9f\x99\x82\"}\n\n" % i for i in range(n // 30))


WORKLOADS = {
    "long comment": _long_comment,
    "long data line": _long_data_line,
    "many lines": _many_lines,
    "invalid bytes": _invalid_bytes_line,
}


def _per_byte(parser_class: type, errors: str, workload: str, size: int, read_size: int) -> float:
    if workload == "many lines":  # lines end on nearly every read: nothing long is ever pending
        size //= 8  # (and the hook's cost per call dominates this test's time)
    data = WORKLOADS[workload](size)
    parser = parser_class(errors=errors, max_line_chars=None, max_event_chars=None)
    return carried(parser, _cut(data, read_size)) / len(data)


CASES = [
    (errors, workload)
    for errors in ("strict", "replace")
    for workload in WORKLOADS
    if not (workload == "invalid bytes" and errors == "strict")  # strict stops there (tests/core/test_sse.py)
]


@pytest.mark.parametrize(("errors", "workload"), CASES)
@pytest.mark.parametrize("read_size", [7, 64, 1024, 65536])
def test_work_per_byte_is_bounded_at_every_read_size(errors, workload, read_size):
    """128 KiB: a copy of the unfinished line every 4 KiB would carry about 16 units per byte more."""
    assert _per_byte(SSEParser, errors, workload, 128 * 1024, read_size) <= PER_BYTE


@pytest.mark.parametrize("errors", ["strict", "replace"])
def test_work_per_byte_is_bounded_and_flat_in_one_byte_reads(errors):
    small, large = (_per_byte(SSEParser, errors, "long data line", n, 1) for n in (12 * 1024, 48 * 1024))
    assert large <= PER_BYTE and large <= 1.1 * small, (small, large)


@pytest.mark.parametrize(("errors", "workload"), CASES)
def test_work_per_byte_does_not_grow_with_the_line(errors, workload):
    """Four times the line, the same work per byte (a quadratic parser's grows with the line).

    An event of many short data lines is measured at 128 and 512 KiB: its lines are joined in groups
    (:func:`lesson_lib.core.pieces.compact_tail`), and a group is joined again at each check until it reaches
    ``LONG`` characters, so the work per byte steps up once, where the event first grows past ``LONG``
    (between the 4 and 16 KiB this workload's 32 and 128 KiB give), and is flat after it."""
    sizes = (128 * 1024, 512 * 1024) if workload == "many lines" else (32 * 1024, 128 * 1024)
    small, large = (_per_byte(SSEParser, errors, workload, n, 1024) for n in sizes)
    assert large <= 1.1 * small, (small, large)


@pytest.mark.parametrize(("errors", "workload"), CASES)
@pytest.mark.parametrize("read_size", [64, 65536])
def test_the_reference_parser_too(errors, workload, read_size):
    assert _per_byte(ReferenceSSEParser, errors, workload, 128 * 1024, read_size) <= PER_BYTE


class _CopyingParser(SSEParser):
    """A parser that hands its whole unfinished line across a call on every read (as the replace mode did
    through the layers' ``getstate``/``setstate``)."""

    def feed(self, chunk: bytes):  # type: ignore[override]
        _ = self.pending_line  # a lesson_lib call returning the unfinished line
        return super().feed(chunk)


def test_the_count_catches_a_parser_that_copies_its_unfinished_line_on_every_read():
    """The measure can fail: the copying parser is past the bound, and grows with the line."""
    data = {n: _long_comment(n) for n in (32 * 1024, 128 * 1024)}
    small, large = (carried(_CopyingParser(), _cut(data[n], 1024)) / len(data[n]) for n in data)
    assert large > PER_BYTE and large > 3 * small
