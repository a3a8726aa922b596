"""The event boundary: Server-Sent Events, as WHATWG HTML "Interpreting an event stream" defines them.

Two parsers with one behaviour, as CPython keeps ``_pyio`` beside ``_io``:

* :class:`ReferenceSSEParser` (:mod:`lesson_lib.core.sse_reference`): the spec's algorithm written to be read,
  each step a call into its layer: the UTF-8 decoder, the line splitter, the field loop;
* :class:`SSEParser` (:mod:`lesson_lib.core.sse_fast`, class ``FastSSEParser``): the same public API, events,
  state and errors, in fewer steps per byte. This is the one the library uses.

Both pass the same tests (``tests/core/test_sse.py`` runs against each; ``tests/core/test_sse_paths.py``
compares them on every chunking, errors and offsets included).

Spec points both implement, all tested in every chunking:

* one leading U+FEFF (BOM) is ignored, at the start of the stream only;
* a line starting with ``:`` is a comment; a line without ``:`` is a field with an empty value;
* one space after the colon is removed, and only one;
* ``data`` lines are joined with LF; ``event`` sets the type, reset after every dispatch;
* ``id`` sets the last event ID buffer unless the value contains U+0000; it persists across events and
  becomes the "last event ID string" at every dispatch, even of an event with no data;
* ``retry`` sets the reconnection time only if the value is all ASCII digits; the value is read exactly up
  to :data:`MAX_RETRY_MS` and clamped to it above;
* a blank line with an empty data buffer dispatches nothing;
* unknown fields are ignored; field names are case-sensitive;
* an event cut off by the end of the stream is never dispatched.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, TypedDict, Unpack, overload

from .sse_common import DEFAULT_MAX_EVENT_CHARS, MAX_RETRY_MS, Comment, Event
from .sse_fast import FastSSEParser
from .sse_reference import ReferenceSSEParser

#: The SSE parser the library uses: :class:`~lesson_lib.core.sse_fast.FastSSEParser`.
SSEParser = FastSSEParser

__all__ = [
    "DEFAULT_MAX_EVENT_CHARS",
    "MAX_RETRY_MS",
    "Comment",
    "Event",
    "FastSSEParser",
    "ReferenceSSEParser",
    "SSEParser",
    "SSEParserOptions",
    "SSEParserSettings",
    "parse_sse",
]


class SSEParserSettings(TypedDict, total=False):
    """The keywords of :class:`SSEParser` but ``comments`` (which decides what :func:`parse_sse` returns)."""

    errors: str
    max_line_chars: int | None
    max_event_chars: int | None
    last_event_id: str


class SSEParserOptions(SSEParserSettings, total=False):
    """Every keyword of :class:`SSEParser` (and :class:`ReferenceSSEParser`), for ``**options`` that are
    passed on to one."""

    comments: bool


@overload
def parse_sse(
    chunks: Iterable[bytes], *, comments: Literal[False] = False, **parser_options: Unpack[SSEParserSettings]
) -> list[Event]: ...
@overload
def parse_sse(
    chunks: Iterable[bytes], *, comments: bool, **parser_options: Unpack[SSEParserSettings]
) -> list[Event | Comment]: ...
def parse_sse(
    chunks: Iterable[bytes], *, comments: bool = False, **parser_options: Unpack[SSEParserSettings]
) -> list[Event] | list[Event | Comment]:
    """Feed every chunk to a fresh :class:`SSEParser`, close it, and return all events in order
    (:class:`Comment` lines too with ``comments=True``; without it, :class:`Event` objects only)."""
    parser = SSEParser(comments=comments, **parser_options)
    out: list[Event | Comment] = []
    for events in parser.feed_each(chunks):
        out.extend(events)
    out.extend(parser.close())
    return out
