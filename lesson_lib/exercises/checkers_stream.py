"""When a streaming function's output comes out: the timing check of bug-hunt exercises 1, 2, 3 and 6.

Those exercises are about streaming: the learner's function is a generator that yields each unit (a piece
of text, a line, an event's value, a record) as soon as it is whole. A fix that joins every read and
processes the whole at the end gives the right final value, so comparing values cannot catch it. The
checker therefore hands the reads over one at a time (:class:`Upstream` counts how many the function has
taken) and records, for each unit, how many reads had been taken when it came out (:func:`run_timed`).
:func:`first_late` compares that with when the unit was due: the read that completed it, computed with
lesson_lib's incremental parsers on the same reads. A unit that comes out later, because the function waited
for the next read or for the end, is rejected; so is a finished list or str returned after the last read,
unless the whole stream came in one read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from lesson_lib.core.decoding import IncrementalUTF8Decoder
from lesson_lib.core.lines import LineSplitter
from lesson_lib.core.sse import SSEParser

from ..i18n import text
from .checkers_core import short

__all__ = [
    "LATE_TAG",
    "Timed",
    "Upstream",
    "characters_due",
    "events_due",
    "first_late",
    "lines_due",
    "records_due",
    "run_timed",
]

#: Marks a mismatch about timing (removed before the learner reads it), so the checker picks the late hint.
LATE_TAG = "LATE: "


class Upstream:
    """The reads of a stream, handed over one at a time, counting how many have been taken."""

    def __init__(self, pieces: Sequence[bytes]) -> None:
        self._pieces = iter(pieces)
        self.taken = 0

    def __iter__(self) -> Upstream:
        return self

    def __next__(self) -> bytes:
        piece = next(self._pieces)
        self.taken += 1
        return piece


@dataclass(frozen=True)
class Timed:
    """What a function gave for one chunking: ``items`` in order, with ``taken[i]`` the number of reads it
    had taken when ``items[i]`` came out; ``returned`` names the finished collection (``list``, ``str``,
    ...) it returned instead of yielding, if it did. ``raw`` is set (and ``items`` is None) when it gave
    neither a collection nor an iterator: that value is compared as it is."""

    items: list[Any] | None
    taken: list[int]
    returned: str | None = None
    raw: Any = None


def run_timed(function: Callable[..., Any], pieces: Sequence[bytes], **keywords: Any) -> Timed:
    """Call ``function(upstream, **keywords)`` and record when each of its outputs came out."""
    upstream = Upstream(pieces)
    out = function(upstream, **keywords)
    if isinstance(out, str | bytes | bytearray):
        if isinstance(out, str):
            return Timed([out], [upstream.taken], "str")
        return Timed(None, [], raw=out)
    if isinstance(out, list | tuple):
        return Timed(list(out), [upstream.taken] * len(out), type(out).__name__)
    if not isinstance(out, Iterator):
        return Timed(None, [], raw=out)
    items, taken = [], []
    for item in out:
        items.append(item)
        taken.append(upstream.taken)
    return Timed(items, taken)


# -- when each unit is due -------------------------------------------------------------------------------


def characters_due(pieces: Sequence[bytes]) -> list[int]:
    """For each character of the text, the read after which an incremental decoder has it."""
    decoder, due = IncrementalUTF8Decoder(errors="replace"), []
    for number, piece in enumerate(pieces, 1):
        due += [number] * len(decoder.feed(piece))
    return due


def lines_due(pieces: Sequence[bytes]) -> list[int]:
    """For each complete line, the read whose bytes ended it (a CR is an ending on its own)."""
    decoder, splitter, due = IncrementalUTF8Decoder(errors="replace"), LineSplitter(max_line_chars=None), []
    for number, piece in enumerate(pieces, 1):
        due += [number] * len(splitter.feed(decoder.feed(piece)))
    return due


def events_due(pieces: Sequence[bytes]) -> list[int]:
    """For each dispatched event, the read that brought its blank line."""
    parser, due = SSEParser(errors="replace", max_line_chars=None, max_event_chars=None), []
    for number, piece in enumerate(pieces, 1):
        due += [number] * len(parser.feed(piece))
    return due


def records_due(pieces: Sequence[bytes]) -> list[int]:
    """For each NDJSON record (one per LF-terminated line, none empty here), the read that brought its LF."""
    due: list[int] = []
    for number, piece in enumerate(pieces, 1):
        due += [number] * bytes(piece).count(b"\n")
    return due


def first_late(
    bug: str, name: str, units: Sequence[Any], taken: Sequence[int], due: Sequence[int], returned: str | None
) -> str | None:
    """The first unit that came out after the read that completed it, described (tagged with
    :data:`LATE_TAG`), or None. ``bug`` picks the catalogue's word for the unit; ``name`` is the function."""
    for index, (unit, out, ready) in enumerate(zip(units, taken, due, strict=False)):
        if out > ready:
            if returned is not None:
                return LATE_TAG + text("checkers.stream.returned", name=name, kind=returned)
            fields = {"index": index, "unit": short(unit, 40), "taken": out, "due": ready}
            return LATE_TAG + text(f"checkers.stream.late.{bug}", **fields)
    return None
