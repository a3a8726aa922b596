"""Boundary Lab's one shared library: a sans-IO streaming parser, layer by layer (the core's public names).

chunk -> character (:mod:`.core.decoding`) -> line (:mod:`.core.lines`) -> event (:mod:`.core.sse`,
:mod:`.core.ndjson`) -> business completion (:mod:`.core.contracts`, :mod:`.core.completion`). Each layer has
``feed()`` and ``close()``. The other public packages: :mod:`.net` (sockets, HTTP, the relay),
:mod:`.teach.widgets` and :mod:`.teach.viz` (explorers and pictures), :mod:`.exercises` (self-checks),
:mod:`.captures` (the course's captures); ``docs/design.md`` draws the layers.

The SSE parser comes twice, with one behaviour: :class:`ReferenceSSEParser` (:mod:`.core.sse_reference`), the
spec's algorithm written to be read, and :class:`SSEParser` (:mod:`.core.sse_fast`), the one to use.
"""

from .core.activity import ActivityLog, Clock, IdleLimit, Watchdog
from .core.chunking import (
    fixed_size_chunks,
    one_byte_chunks,
    random_cuts,
    random_partition,
    split_at,
    two_piece_splits,
)
from .core.completion import (
    Outcome,
    StreamJudge,
    StreamResult,
    Unit,
    aconsume,
    astream_updates,
    consume,
    stream_updates,
)
from .core.contracts import ReasoningDelta, TextDelta
from .core.decoding import (
    ByteRole,
    IncrementalUTF8Decoder,
    byte_role,
    decode_each_chunk,
    incremental_decode,
    naive_decode,
)
from .core.errors import (
    BoundaryError,
    FramingError,
    IncompleteStreamError,
    InflateError,
    LimitExceededError,
    ParserStateError,
    StreamDecodeError,
    TruncatedCharacterError,
)
from .core.lines import LineSplitter
from .core.ndjson import JSONArrayParser, NDJSONParser, parse_json_array, parse_ndjson
from .core.options import ConsumeOptions
from .core.sse import Comment, Event, ReferenceSSEParser, SSEParser, parse_sse
from .core.think_tags import ThinkTagSplitter
from .core.values import ToolCall
from .i18n import get_language, set_language
from .teach.provisional import provisional

__all__ = [
    "ActivityLog",
    "BoundaryError",
    "ByteRole",
    "Clock",
    "Comment",
    "ConsumeOptions",
    "Event",
    "FramingError",
    "IdleLimit",
    "IncompleteStreamError",
    "IncrementalUTF8Decoder",
    "InflateError",
    "JSONArrayParser",
    "LimitExceededError",
    "LineSplitter",
    "NDJSONParser",
    "Outcome",
    "ParserStateError",
    "ReasoningDelta",
    "ReferenceSSEParser",
    "SSEParser",
    "StreamDecodeError",
    "StreamJudge",
    "StreamResult",
    "TextDelta",
    "ThinkTagSplitter",
    "ToolCall",
    "TruncatedCharacterError",
    "Unit",
    "Watchdog",
    "aconsume",
    "astream_updates",
    "byte_role",
    "consume",
    "decode_each_chunk",
    "fixed_size_chunks",
    "get_language",
    "incremental_decode",
    "naive_decode",
    "one_byte_chunks",
    "parse_json_array",
    "parse_ndjson",
    "parse_sse",
    "provisional",
    "random_cuts",
    "random_partition",
    "set_language",
    "split_at",
    "stream_updates",
    "two_piece_splits",
]
