"""The events table of a capture, as a browser's EventStream view shows it, kept bounded.

:class:`EventTable` is fed the same reads as ``consume`` and runs the framing's own parser (never a second
implementation of it) on pieces of each read cut just after every line ending (and, for JSON values, every
``}`` and ``]``), so that a unit's end offset is the end of the piece in which the parser dispatched it:
exact for SSE and NDJSON, and for a JSON array element that ends with ``}`` or ``]``. It keeps the first
and the last :attr:`EventTable.rows` rows, the count of those left out, and the ends of the last
:data:`_ENDS` units, so that the offset where a given event ended can be told after the run.

A row carries the event's index (0-based, as ``StreamError.event_index``), its type (SSE ``event`` field;
for a JSON value its string ``type`` member, else ``object``/``array``/``value``), its ID (SSE), its size in
bytes (from the end of the previous unit, heartbeats included), and the time of the read that completed it.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from typing import Any

from ..core.errors import BoundaryError
from ..core.framing import Framing
from ..core.sse import Comment, Event

__all__ = ["EventRow", "EventTable"]

_ENDS = 4096
_LINE_ENDS = re.compile(rb"\r\n|\r|\n")
_VALUE_ENDS = re.compile(rb"\r\n|[\r\n}\]]")


@dataclass(frozen=True)
class EventRow:
    """One row of the events table (no content: the type and ID are the stream's framing fields)."""

    index: int
    type: str
    id: str | None
    size: int
    end: int
    time: float | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "type": self.type,
            "id": self.id,
            "size": self.size,
            "end": self.end,
            "time": self.time,
        }


def _kind(unit: Any) -> tuple[str, str | None]:
    if isinstance(unit, Event):
        return unit.type[:64], unit.last_event_id[:64] or None
    if isinstance(unit, dict):
        kind = unit.get("type")
        return (kind[:64] if isinstance(kind, str) else "object"), None
    return ("array" if isinstance(unit, list) else "value"), None


class EventTable:
    """The events found in a stream's reads, the first and last ``rows`` of them kept."""

    def __init__(self, framing: Framing[Any], rows: int = 10) -> None:
        self.parser = framing.new_parser(errors="replace")
        self.cuts = _LINE_ENDS if framing.units_are_events else _VALUE_ENDS
        self.rows = rows
        self.first: list[EventRow] = []
        self.last: deque[EventRow] = deque(maxlen=rows)
        self.ends: deque[tuple[int, int]] = deque(maxlen=_ENDS)  # (event index, end offset)
        self.count = 0
        self.heartbeats = 0
        self.offset = 0
        self.last_end = 0  # where the last complete unit (event or heartbeat) ended
        self.failed = False  # the framing could not go on (then the table stops)

    def feed(self, data: bytes, time: float | None) -> None:
        """One read: every unit it completes becomes a row."""
        if self.failed:
            return
        start = 0
        for cut in self.cuts.finditer(data):
            self._piece(data[start : cut.end()], time)
            start = cut.end()
            if self.failed:
                return
        if start < len(data):
            self._piece(data[start:], time)

    def _piece(self, piece: bytes, time: float | None) -> None:
        try:
            units = self.parser.feed(piece)
        except BoundaryError as exc:
            units, self.failed = list(exc.outputs), True
        self.offset += len(piece)
        for unit in units:
            if isinstance(unit, Comment):
                self.heartbeats += 1
                self.last_end = self.offset
                continue
            kind, event_id = _kind(unit)
            row = EventRow(self.count, kind, event_id, self.offset - self.last_end, self.offset, time)
            self.count += 1
            self.last_end = self.offset
            self.ends.append((row.index, row.end))
            if len(self.first) < self.rows:
                self.first.append(row)
            else:
                self.last.append(row)

    def end_of(self, index: int) -> int | None:
        """Where event ``index`` ended, if it is among the last events kept (or the first rows)."""
        for row in self.first:
            if row.index == index:
                return row.end
        for number, end in reversed(self.ends):
            if number == index:
                return end
        return None

    def table(self, upto: int | None = None) -> tuple[list[EventRow], int]:
        """The rows kept (events up to index ``upto`` only) and how many rows are left out between."""
        rows = [*self.first, *self.last]
        total = self.count
        if upto is not None:
            rows = [row for row in rows if row.index <= upto]
            total = min(total, max(0, upto + 1))
        return rows, max(0, total - len(rows))
