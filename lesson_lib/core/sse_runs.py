"""Runs of whole events of one shape, found in a read's text without a loop over its lines.

A large read of an LLM stream (a replay, a stored capture) holds hundreds of whole events, and nearly
all of them have one of three shapes:

* one ``data:`` line, then the blank line (OpenAI, Gemini, Mistral, Ollama's SSE mode ...);
* an ``event:`` line, a ``data:`` line, then the blank line (Anthropic);
* an ``id:`` line, a ``data:`` line, then the blank line (MCP's Streamable HTTP, gateways that let a
  client resume).

One regular expression's split of the text at what starts every event gives the values: the blank line,
the field lines of the shape (``event: `` or ``id: ``, each with its value as a group), ``data: `` and its
value up to the line's end (a group too), so each event's type (or id) and data come in one pass. The text
left between the end of one event's data line and the next event's start is then empty for every event of
the run but the last; anything there (a second ``data`` line, a comment, an ``id`` line in a run of data
events ...) means the events are not all of the shape. Heartbeats (comment lines between two events, each
followed by a blank line) do nothing to the events or the state: when the caller expects them, the text
left between two events may be made of them. Anything else makes :func:`find_event_run` return
``None``, and the field loop in :mod:`lesson_lib.core.sse_fast` reads the lines one by one. Either way
the events are the same; this is a speed path, proved against the field loop by
``tests/core/test_sse_runs.py``.

Measured on the benchmark streams in 64 KiB reads (interleaved CPU-time medians on this 2-core machine):

* capturing the data line's value in the pattern, then asking whether any text is left between two events
  (``any`` over the list's slice: empty strings are false), costs less than splitting at the event start
  (``str.split`` at ``"\\n\\ndata: "`` for the data shape) and then checking each value for a line
  ending (``operator.contains`` mapped over them), which this module did before: 1.5-4 % less time for the
  whole parse (A/B in one process, issue 24);
* that check cost about half of counting the line endings of the whole run (``str.count``, a loop over
  every character), the proof this module used before it: about 50 ns less per event;
* the regular expression's split of the ``id:`` and ``event:`` shapes costs what ``str.split`` at one
  separator costs, where splitting at the event start and then ``str.partition`` of each event at
  ``"\\ndata: "`` made every value twice: about 280 ns less per event on the id stream (1.3x);
* heartbeats, when expected, are left in the text between two events, and each distinct such text is
  read once (a ``set`` of them): matching an optional heartbeat at every event start, as this module did
  before, cost about 40 ns more per event (issue 24: 1.03x on the heartbeat stream in 64 KiB reads,
  in-process A/B); taking them out of the text before the split (a regular expression's ``subn``, or
  ``str.replace`` of the exact line) or out of the values after it cost about twice that.

What is left at 64 KiB is mostly what the lines-only baseline pays too (decoding, one string per line or
value) and building one :class:`~lesson_lib.core.sse_common.Event` per event: knocking the events out
(returning the values) made the parse 1.4x faster (about 180 ns less per event on the id stream).
"""

from __future__ import annotations

import re
from typing import NamedTuple

_DATA_LINE = "data: "
_TYPE_LINE = "event: "
_ID_LINE = "id: "
_LF = "\n"
#: A data line's value, as the group of a regular expression: up to the line's end.
_DATA_VALUE = "([^\n]*)"
#: The field lines an event may have before its data line, as regular expressions whose group is the
#: value. A type is never empty (an empty one means ``message``: left to the field loop); an id never
#: holds U+0000 (the spec ignores such an id: left to the field loop too).
_FIELD_PATTERNS = {_TYPE_LINE: "event: ([^\n]+)\n", _ID_LINE: "id: ([^\n\x00]*)\n"}
#: The start of an event after the blank line before it, as a compiled regular expression whose groups
#: are the values of the field lines before the data line, then the data line's: field lines -> pattern,
#: compiled when a shape is first met (at most 5 shapes: no field, one, or both in either order).
_EVENT_STARTS: dict[tuple[str, ...], re.Pattern[str]] = {}
_BLANK = "\n\n"
#: What heartbeats between two events start with: the blank line that ends the event, a comment line.
_HEARTBEAT_START = "\n\n:"


def _event_start(fields: tuple[str, ...]) -> re.Pattern[str]:
    """The pattern that splits a text at the start of every event of this shape (see
    :data:`_EVENT_STARTS`)."""
    pattern = _EVENT_STARTS.get(fields)
    if pattern is None:
        lines = "".join(_FIELD_PATTERNS[field] for field in fields)
        pattern = _EVENT_STARTS[fields] = re.compile(_BLANK + lines + _DATA_LINE + _DATA_VALUE)
    return pattern


def _heartbeat_lines(gaps: list[str]) -> int | None:
    """How many lines the heartbeats between a run's events are made of, or ``None`` if a text between
    two events is not heartbeats.

    Each text left between one event's data line and the next event's start must be empty, or a blank
    line then a comment line (``:`` first), once or more: ``"\\n\\n: ping"`` (the blank line after the
    last comment line begins the next event's start). Each distinct text is read once.
    """
    lines = 0
    for gap in set(gaps):
        if not gap:
            continue
        if not gap.startswith(_HEARTBEAT_START):
            return None
        comments = gap.split(_BLANK)  # "", then the comment lines
        if not all(comment[:1] == ":" and _LF not in comment for comment in comments[1:]):
            return None
        lines += 2 * (len(comments) - 1) * gaps.count(gap)
    return lines


def _shape_at(text: str, start: int) -> tuple[str, ...] | None:
    """The shape of the event that starts at ``start``: its field lines (``event: `` and ``id: ``, each at
    most once, in either order) before its data line. If they are not followed by a data line, the first
    field line alone (the run may start at a later event); ``None`` if the line there is none of the three.
    """
    fields: tuple[str, ...] = ()
    while not text.startswith(_DATA_LINE, start):
        if text.startswith(_TYPE_LINE, start):
            field = _TYPE_LINE
        elif text.startswith(_ID_LINE, start):
            field = _ID_LINE
        else:
            return fields[:1] or None
        start = text.find(_LF, start) + 1
        if field in fields or not start:
            return fields[:1]
        fields += (field,)
    return fields


class EventRun(NamedTuple):
    """Where a run of whole events lies in a text, and the run's events."""

    lines_before: list[str]
    """The complete lines before the run, the last one blank. The first may end a line begun earlier."""
    types: list[str] | None
    """Each event's type (never empty); ``None`` when every event is a ``message``."""
    ids: list[str] | None
    """Each event's ``id`` (no U+0000 in any), which is also its last event ID; ``None``: no id lines."""
    datas: list[str]
    """Each event's data."""
    lines_in_run: int
    """How many lines the run is made of (its blank lines and heartbeats included)."""
    after: str
    """The text after the run: more complete lines, then the unfinished last line."""
    gaps: list[str] | None = None
    """With heartbeats looked for: for each event, the heartbeats that follow its blank line inside the run
    (see :func:`_heartbeat_lines`), or ``""``; ``None``: heartbeats were not looked for. The last event's
    are in ``after``, unless the text ends inside the event after it."""
    fields: tuple[str, ...] = ()
    """The field lines of every event before its data line, in their order: ``"event: "`` (``types``),
    ``"id: "`` (``ids``), both, or none."""


def find_event_run(text: str, heartbeats: bool = False) -> EventRun | None:
    """The whole events of one shape that follow the first blank line of ``text``, if there are any.

    ``text`` has only LF line endings (no CR) and is cut anywhere: its first line may continue an
    unfinished line, its last may be unfinished. The shape is the one of the line after the first blank
    line (after the heartbeats there, with ``heartbeats``). The run starts at the first event of that shape
    and goes on while each event's data line is followed by its blank line and the next event (with
    ``heartbeats``: or by heartbeats, each a comment line then a blank line, then the next event); the last
    event of the text ends it if it is whole. Returns ``None`` if there is no whole event of that shape,
    or if an event of the run is followed by anything else before the next one.

    Guarantee: when it returns a run, the lines of ``text`` are exactly ``lines_before``, then for each
    event ``event: <type>`` (shape two only) or ``id: <id>`` (shape three only), ``data: <data>``, a blank
    line and (with ``heartbeats``) the comment lines of its ``gaps``, each followed by a blank line, then
    the lines of ``after``; so interpreting them one by one gives the same events.
    """
    first = text.find("\n\n")  # the first blank line ends at first + 2
    if first < 0:
        return None
    start = first + 2
    while heartbeats and text.startswith(":", start):  # the shape is the one after the heartbeats
        first = text.find("\n\n", start)
        if first < 0:
            return None
        start = first + 2
    fields = _shape_at(text, start)
    if fields is None:
        return None
    # pieces: the text before the first event start, then for each event the groups of its pattern (the
    # type and the id, as the shape has them, then the data line's value, which holds no line ending) and
    # the text between the end of that line and the next event start.
    pieces = _event_start(fields).split(text)
    step = 2 + len(fields)
    if len(pieces) == 1:
        return None
    # Every event but the last is whole and of the shape if the next event's start, which begins with the
    # blank line, follows its data line at once (with heartbeats: or after heartbeats only); the last is
    # whole if a blank line follows it.
    gaps = pieces[step:-1:step]
    heartbeat_lines = 0
    if any(gaps):
        found = _heartbeat_lines(gaps) if heartbeats else None
        if found is None:
            return None
        heartbeat_lines = found
    values = [pieces[1 + number :: step] for number in range(len(fields))]
    datas = pieces[step - 1 :: step]
    last = pieces[-1]
    if last.startswith(_BLANK):
        after = last[2:]
        gaps.append("")  # the last event's heartbeats, if any, are in the text after the run
    else:  # the text ends inside the last event: it goes back to the text after the run, as it came
        began = len(text) - len(last) - len(datas.pop()) - len(_DATA_LINE)  # where its data line began
        for field, field_values in zip(fields, values, strict=True):
            began -= len(field) + len(field_values.pop()) + 1  # and its field lines, before that
        after = text[began:]
        if not datas:
            return None
    lines_before = pieces[0].split(_LF)
    lines_before.append("")  # the blank line that ends where the first event starts
    lines = (2 + len(fields)) * len(datas) + heartbeat_lines
    types = values[fields.index(_TYPE_LINE)] if _TYPE_LINE in fields else None
    ids = values[fields.index(_ID_LINE)] if _ID_LINE in fields else None
    return EventRun(lines_before, types, ids, datas, lines, after, gaps if heartbeats else None, fields)
