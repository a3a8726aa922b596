"""Runs of whole events of one shape, found in a read's text without a loop over its lines.

A large read of an LLM stream (a replay, a stored capture) holds hundreds of whole events, and nearly
all of them have one of three shapes:

* one ``data:`` line, then the blank line (OpenAI, Gemini, Mistral, Ollama's SSE mode ...);
* an ``event:`` line, a ``data:`` line, then the blank line (Anthropic);
* an ``id:`` line, a ``data:`` line, then the blank line (MCP's Streamable HTTP, gateways that let a
  client resume).

For a run of such events, one ``str.split`` at the text that starts every event gives the values, and
counting the line endings in the run proves that nothing else is there. Anything else (a comment, an
``id``, two ``data`` lines, an empty type) makes :func:`find_event_run` return ``None``, and the field
loop in :mod:`lesson_lib.sse` reads the lines one by one. Either way the events are the same; this is a
speed path, proved against the field loop by ``tests/test_sse_runs.py``.
"""

from __future__ import annotations

from itertools import repeat
from typing import NamedTuple

_DATA_LINE = "data: "
_TYPE_LINE = "event: "
_DATA_EVENT_START = "\n\ndata: "  # the end of one event's blank line, then the next event's data line
_TYPED_EVENT_START = "\n\nevent: "
_ID_LINE = "id: "
_ID_EVENT_START = "\n\nid: "
_THEN_DATA = "\ndata: "


class EventRun(NamedTuple):
    """Where a run of whole events lies in a text, and the run's events."""

    lines_before: list[str]
    """The complete lines before the run, the last one blank. The first may end a line begun earlier."""
    types: tuple[str, ...] | None
    """Each event's type (never empty); ``None`` when every event is a ``message``."""
    ids: tuple[str, ...] | None
    """Each event's ``id`` (no U+0000 in any), which is also its last event ID; ``None``: no id lines."""
    datas: list[str] | tuple[str, ...]
    """Each event's data."""
    lines_in_run: int
    """How many lines the run is made of (its blank lines included)."""
    after: str
    """The text after the run: more complete lines, then the unfinished last line."""


def find_event_run(text: str) -> EventRun | None:
    """The whole events between the first and the last blank line of ``text``, if they share a shape.

    ``text`` has only LF line endings (no CR) and is cut anywhere: its first line may continue an
    unfinished line, its last may be unfinished. Returns ``None`` if there are no whole events between
    the first and the last blank line, or if any of them is not of the first event's shape.

    Guarantee: when it returns a run, the lines of ``text`` are exactly ``lines_before``, then for each
    event ``event: <type>`` (shape two only) or ``id: <id>`` (shape three only), ``data: <data>`` and a
    blank line, then the lines of ``after``; so interpreting them one by one gives the same events.
    """
    first = text.find("\n\n")  # the first blank line ends at first + 2 ...
    if first < 0:
        return None
    last = text.rfind("\n\n")  # ... and the last one at last + 2
    start, end = first + 2, last + 2
    if start == end:
        return None
    # Why the counts prove the shape (the data shape; the typed one adds one LF per event, below). Let n
    # be the number of event starts "\n\ndata: " from first on that end inside the run. Each has two LFs,
    # inside the run except for the first one's; the run ends with two more. So the run has at least 2n
    # LFs, and exactly 2n only if there is no other LF: every event is one data line and a blank line.
    # No start can lie before first (it begins with a blank line), and after the run only one can: the
    # one that begins with the run's final blank line, if the text goes on with "data: ".
    if text.startswith(_DATA_LINE, start):
        pieces = text.split(_DATA_EVENT_START)
        count = len(pieces) - 1 - text.startswith(_DATA_LINE, end)
        if text.count("\n", start, end) != 2 * count:
            return None
        datas = pieces[1 : count + 1]
        last_data = datas[-1]
        ending = last_data.find("\n")
        if ending >= 0:  # the last event's piece runs on past its blank line
            datas[-1] = last_data[:ending]
        types = ids = None
        lines_per_event = 2
    elif text.startswith(_TYPE_LINE, start) or text.startswith(_ID_LINE, start):
        typed = text.startswith(_TYPE_LINE, start)
        first_line = _TYPE_LINE if typed else _ID_LINE
        pieces = text.split(_TYPED_EVENT_START if typed else _ID_EVENT_START)
        count = len(pieces) - 1 - text.startswith(first_line, end)
        blocks = pieces[1 : count + 1]
        last_block = blocks[-1]
        ending = last_block.find("\n\n")
        if ending >= 0:
            blocks[-1] = last_block[:ending]
        # Each block must hold "\ndata: "; with the count, that leaves no room for any other LF.
        firsts, found, datas = zip(*map(str.partition, blocks, repeat(_THEN_DATA)), strict=True)
        if "" in found or text.count("\n", start, end) != 3 * count:
            return None
        if typed:
            if "" in firsts:  # an empty type means "message": left to the field loop
                return None
            types, ids = firsts, None
        else:
            if "\x00" in "".join(firsts):  # an id with U+0000 is ignored: left to the field loop
                return None
            types, ids = None, firsts
        lines_per_event = 3
    else:
        return None
    lines_before = pieces[0].split("\n")
    lines_before.append("")  # the blank line that ends at start
    return EventRun(lines_before, types, ids, datas, lines_per_event * count, text[end:])
