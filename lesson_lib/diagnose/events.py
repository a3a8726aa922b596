"""The events table of a capture, as a browser's EventStream view shows it, kept bounded.

:class:`EventTable` is fed the same reads as ``consume`` and runs the framing's own parser (never a second
implementation of it) on pieces of each read, cut where a unit can end (SSE: after a blank line or a
comment line; JSON values: after a line ending, a ``}`` or a ``]``), so that a unit's end offset is the end
of the piece in which the parser dispatched it: exact for SSE and NDJSON, and for a JSON array element that
ends with ``}`` or ``]``. It keeps the first
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
#: SSE: where an event can be dispatched or a comment completed: the end of a blank line or of a comment
#: line (a line start is after CR or LF, or the start of a read). Extra cuts cost time, never exactness.
_EVENT_ENDS = re.compile(rb"[\r\n](?=(:[^\r\n]*)?(\r\n|\r|\n))")  # a line ending, then such a line
_LINE_START_END = re.compile(rb"(:[^\r\n]*)?(\r\n|\r|\n)")  # the same at the start of a read
_LINE_END = re.compile(rb"\r\n|\r|\n")
#: JSON values: where a value can end (an NDJSON line's end; an array element's closing bracket).
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
        self.events = framing.units_are_events
        self.cuts = _EVENT_ENDS if self.events else _VALUE_ENDS
        self.in_comment = False  # SSE: the last read ended inside a comment line
        self.line_start = True  # SSE: the last read ended with a line ending (or nothing was read)
        self.rows = rows
        self.first: list[EventRow] = []
        self.last: deque[EventRow] = deque(maxlen=rows)
        self.ends: deque[tuple[int, int]] = deque(maxlen=_ENDS)  # (event index, end offset)
        self.count = 0
        self.heartbeats = 0
        self.offset = 0
        self.last_end = 0  # where the last complete unit (event or heartbeat) ended
        self.failed = False  # the framing could not go on (then the table stops)
        self.pending: tuple[list[Any], int, float | None] | None = None

    def feed(self, data: bytes, time: float | None) -> None:
        """One read: every unit it completes becomes a row."""
        if self.failed:
            return
        if self.events:
            cuts = [cut.end() + len(cut[1] or b"") + len(cut[2]) for cut in self.cuts.finditer(data)]
            first_line = _LINE_START_END.match(data)
            if first_line is not None:
                cuts.insert(0, first_line.end())
            if self.in_comment:  # a comment line that began in an earlier read ends at its line's end
                first = _LINE_END.search(data)
                if first is not None:
                    cuts.insert(0, first.end())
            last = max(data.rfind(b"\n"), data.rfind(b"\r"))
            if last >= 0:
                self.in_comment = data[last + 1 : last + 2] == b":"
            elif self.line_start and data[:1] == b":":
                self.in_comment = True
            self.line_start = last == len(data) - 1
            cuts.sort()
        else:
            cuts = [cut.end() for cut in self.cuts.finditer(data)]
        start = 0
        for cut in cuts:
            if cut <= start:
                continue
            self._piece(data[start:cut], time)
            start = cut
            if self.failed:
                return
        if start < len(data):
            self._piece(data[start:], time)

    def _piece(self, piece: bytes, time: float | None) -> None:
        if self.pending is not None:  # a unit dispatched at a CR: the LF after it is still its line's end
            units, end, when = self.pending
            self.pending = None
            self._record(units, end + (piece[:1] == b"\n"), when)
        try:
            units = self.parser.feed(piece)
        except BoundaryError as exc:
            units, self.failed = list(exc.outputs), True
        self.offset += len(piece)
        if units and piece.endswith(b"\r") and not self.failed:
            self.pending = (units, self.offset, time)
        elif units:
            self._record(units, self.offset, time)

    def finish(self) -> None:
        """The end of the reads: a unit held back for the LF of a CRLF is recorded as it is."""
        if self.pending is not None:
            units, end, when = self.pending
            self.pending = None
            self._record(units, end, when)

    def _record(self, units: list[Any], end: int, time: float | None) -> None:
        for unit in units:
            if isinstance(unit, Comment):
                self.heartbeats += 1
                self.last_end = end
                continue
            kind, event_id = _kind(unit)
            row = EventRow(self.count, kind, event_id, end - self.last_end, end, time)
            self.count += 1
            self.last_end = end
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
