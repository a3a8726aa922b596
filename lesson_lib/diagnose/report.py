"""The diagnosis of one capture, built in one pass over its reads: :func:`diagnose` and :class:`Diagnosis`.

The body's reads go once through :func:`~lesson_lib.core.completion.stream_updates` (the verdict, exactly
as ``consume`` gives it for the same reads) and, beside it, through the observers that only count: the
events table (:class:`~lesson_lib.diagnose.events.EventTable`), the naive client (one
``decode(errors="replace")`` per REAL read, EOF taken as done), the ``EF BF BD`` sequences already on the
wire (U+FFFD sent by the upstream, counted apart), the times of the reads, and a window of the bytes around
the cut. Everything kept is bounded: the tables hold the first and last rows, the window a few dozen bytes,
so a capture of any size is diagnosed in one linear pass; the answer text is kept (``keep_text``) only with
``show_text``, so without it the memory is bounded by the limits whatever the answer's length.

The naive client is shown only when the input holds the real reads (a ``curl --trace``): for a raw body or
a HAR, where the reads fell is unknown, and ``naive`` and ``reads`` are ``None``; nothing is invented.

No answer text is kept unless ``show_text`` is set.
"""

from __future__ import annotations

import itertools
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..core.completion import Outcome, StreamResult, Unit, stream_updates
from ..core.contracts import TextDelta
from ..core.decoding import ByteRole, byte_role
from ..core.framing import framing as framing_named
from .detect import SAMPLE, Detection, detect_contract
from .errors import InputError
from .events import EventTable
from .inputs import Read, Source

__all__ = ["KEEP", "TEXT_PREVIEW", "WINDOW", "Diagnosis", "diagnose", "stopped_layer"]

#: Bytes of the window before and after the cut.
WINDOW = (32, 16)
#: Bytes held before the current read, for the window: the cut can be found a little after it was read.
KEEP = 64 * 1024
#: Characters of answer text a ``show_text`` report holds at most (the start and the end).
TEXT_PREVIEW = 2000
#: Reads that arrive within this many seconds of the first all came "at once" (a buffering hop).
AT_ONCE = 0.010
_WIRE_FFFD = b"\xef\xbf\xbd"
_LAYER_OF_ERROR = {
    "StreamDecodeError": "character",
    "TruncatedCharacterError": "character",
    "FramingError": "event",
    "ServiceError": "completion",
}


@dataclass(frozen=True)
class Diagnosis:
    """What one capture proves, layer by layer; :meth:`as_json` is the ``--json`` object (its schema is
    ``lesson_lib/diagnose/schema.json``). No field holds stream content unless ``show_text`` was set
    (``text``, ``naive["text"]``, ``hexdump["hex"]``)."""

    format: str
    contract: str
    framing: str
    evidence: tuple[str, ...]
    outcome: str
    end_verified: bool
    is_final: bool
    truncated_at: str | None
    finish_reason: str | None
    stopped: dict[str, Any]
    last_clean_offset: int
    bytes: dict[str, Any]
    characters: dict[str, Any]
    lines: dict[str, Any]
    events: dict[str, Any]
    values: dict[str, Any]
    reads: dict[str, Any] | None
    naive: dict[str, Any] | None
    timing: dict[str, Any]
    http: dict[str, Any]
    hexdump: dict[str, Any]
    notes: tuple[str, ...]
    text: str | None = None

    @property
    def exit_status(self) -> int:
        """0 only when the stream is proven complete (``result.is_final``), else 1."""
        return 0 if self.is_final else 1

    def as_json(self) -> dict[str, Any]:
        """The ``--json`` object: every field, JSON types only."""
        return {
            "schema": "boundary-lab-diagnose/1",
            "format": self.format,
            "contract": self.contract,
            "framing": self.framing,
            "evidence": list(self.evidence),
            "outcome": self.outcome,
            "end_verified": self.end_verified,
            "is_final": self.is_final,
            "truncated_at": self.truncated_at,
            "finish_reason": self.finish_reason,
            "stopped": self.stopped,
            "last_clean_offset": self.last_clean_offset,
            "bytes": self.bytes,
            "characters": self.characters,
            "lines": self.lines,
            "events": self.events,
            "values": self.values,
            "reads": self.reads,
            "naive": self.naive,
            "timing": self.timing,
            "http": self.http,
            "hexdump": self.hexdump,
            "notes": list(self.notes),
            "text": self.text,
            "exit_status": self.exit_status,
        }


def stopped_layer(result: StreamResult) -> str | None:
    """The layer the stream stopped in: its ``truncated_at`` for a truncated stream, the layer of its error
    otherwise (``character``, ``event``, ``completion``, or the limit's name); ``None`` when it ended."""
    if result.outcome is Outcome.TRUNCATED:
        return str(result.truncated_at) if result.truncated_at is not None else None
    if result.error is None or result.outcome in (Outcome.COMPLETED, Outcome.INCOMPLETE):
        return None
    if result.error.limit is not None:
        return result.error.limit
    return _LAYER_OF_ERROR.get(result.error.kind, "completion")


class _Observer:
    """Watches each read on its way to the completion boundary; keeps counts and a bounded window."""

    def __init__(self, table: EventTable, reads_known: bool, show_text: bool) -> None:
        self.table, self.reads_known, self.show_text = table, reads_known, show_text
        self.count = 0
        self.offset = 0
        self.times: list[float] = []  # only the first and last are needed, and the largest gap
        self.first_time: float | None = None
        self.last_time: float | None = None
        self.largest_gap: tuple[float, int] | None = None  # (seconds, index of the read after it)
        self.current_time: float | None = None
        self.wire_fffd = 0
        self.first_wire_fffd: int | None = None
        self.held = bytearray()  # the last bytes read: the current read and up to KEEP before it
        self.held_start = 0
        self.naive_made = 0
        self.naive_reads_hit = 0
        self.naive_text: list[str] = []
        self.naive_chars = 0
        self.drained = 0

    def feed(self, reads: Iterator[Read]) -> Iterator[bytes]:
        """The reads' bytes, each seen first. Closing this leaves ``reads`` open: the caller drains it."""
        for read in reads:
            self.see(read)
            yield read.data

    def see(self, read: Read) -> None:
        data = read.data
        if read.time is not None:
            if self.last_time is not None:
                gap = read.time - self.last_time
                if self.largest_gap is None or gap > self.largest_gap[0]:
                    self.largest_gap = (gap, self.count)
            else:
                self.first_time = read.time
            self.last_time = read.time
        self.current_time = read.time
        before = bytes(self.held[-2:])
        joined = before + data
        found = joined.count(_WIRE_FFFD)
        if found:
            if self.first_wire_fffd is None:
                self.first_wire_fffd = self.offset - len(before) + joined.find(_WIRE_FFFD)
            self.wire_fffd += found
        if self.reads_known:
            shown = data.decode("utf-8", "replace")
            made = shown.count("\ufffd") - data.count(_WIRE_FFFD)
            if made > 0:
                self.naive_made += made
                self.naive_reads_hit += 1
            if self.show_text and self.naive_chars < TEXT_PREVIEW:
                self.naive_text.append(shown[: TEXT_PREVIEW - self.naive_chars])
                self.naive_chars += len(self.naive_text[-1])
        self.held += data
        extra = len(self.held) - len(data) - KEEP
        if extra > KEEP:  # trimmed now and then, so that keeping the window costs O(1) per byte
            del self.held[:extra]
            self.held_start += extra
        self.offset += len(data)
        self.count += 1
        self.table.feed(data, read.time)

    def after_cut(self, data: bytes, cut: int) -> None:
        """A read after the verdict: kept only as far as the window after ``cut`` reaches, so that the
        window is the same however far the reads had gone when the cut was found."""
        need = cut + WINDOW[1] - (self.held_start + len(self.held))
        if need > 0:
            self.held += data[:need]

    def window(self, cut: int) -> tuple[int, bytes]:
        """``(start offset, bytes)`` around ``cut``, within what is still held."""
        held, held_start = self.held, self.held_start
        start = max(held_start, cut - WINDOW[0])
        end = min(held_start + len(held), cut + WINDOW[1])
        return start, bytes(held[start - held_start : max(start, end) - held_start])


def _runs(data: bytes, start: int, cut: int) -> list[dict[str, Any]]:
    """The window's bytes as runs of classes: ASCII, line endings, whole or cut characters, stray bytes."""
    runs: list[dict[str, Any]] = []
    i = 0
    while i < len(data):
        byte = data[i]
        role = byte_role(byte)
        if role is ByteRole.LEAD:
            need = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            have = 1
            while have < need and i + have < len(data) and byte_role(data[i + have]) is ByteRole.CONTINUATION:
                have += 1
            runs.append({"class": "character", "offset": start + i, "bytes": have, "of": need})
            i += have
            continue
        kind = {0x0A: "line_feed", 0x0D: "carriage_return"}.get(byte, str(role))
        if runs and runs[-1]["class"] == kind and kind != "character" and start + i != cut:
            runs[-1]["bytes"] += 1
        else:
            runs.append({"class": kind, "offset": start + i, "bytes": 1})
        i += 1
    return runs


def _url(url: str | None) -> str | None:
    """The URL without its query's values or any user info (an API key can be in either)."""
    if not url:
        return None
    parts = urllib.parse.urlsplit(url)
    keys = [key for key, _ in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)]
    query = "&".join(f"{key}=..." for key in keys)
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, query, ""))


def _preview(text: str) -> str:
    if len(text) <= TEXT_PREVIEW:
        return text
    half = TEXT_PREVIEW // 2
    return f"{text[:half]}\n[... {len(text) - TEXT_PREVIEW} characters ...]\n{text[-half:]}"


def _sample(reads: Iterator[Read]) -> tuple[list[Read], bytes]:
    head: list[Read] = []
    size = 0
    for read in reads:
        head.append(read)
        size += len(read.data)
        if size >= SAMPLE:
            break
    return head, b"".join(read.data for read in head)[:SAMPLE]


def diagnose(
    source: Source, contract: str | None = None, *, show_text: bool = False, rows: int = 10
) -> Diagnosis:
    """Diagnose ``source``'s stream: detect (or take) its contract, run every read through the completion
    boundary once, and say what it proves. Raises :class:`InputError` (exit status 2) for a body that is
    empty or whose contract cannot be told."""
    reads = source.reads()
    head, sample = _sample(reads)
    if not sample:
        status = f" (status {source.http.status})" if source.http.status is not None else ""
        raise InputError(f"the {source.format} input holds no response body{status}: there is no stream")
    detection: Detection = detect_contract(sample, source.http.url, contract)
    table = EventTable(framing_named(detection.framing), rows)
    observer = _Observer(table, source.reads_known, show_text)
    # The answer text is kept only to be shown: without --show-text the memory stays bounded by the limits.
    options: dict[str, Any] = {"keep_text": show_text}
    if detection.request_id is not None:
        options["request_id"] = detection.request_id
    rest = itertools.chain(head, reads)
    result: StreamResult | None = None
    first_text: float | None = None
    text_seen = False
    for update in stream_updates(observer.feed(rest), detection.contract, **options):
        if isinstance(update, StreamResult):
            result = update
        elif isinstance(update, TextDelta) and not text_seen:
            text_seen, first_text = True, observer.current_time
    assert result is not None
    table.finish()
    error = result.error
    cut = error.offset if error is not None and error.offset is not None else result.stats.bytes
    for read in rest:  # after a decision: the rest is only counted (curl's exit status comes last)
        observer.drained += len(read.data)
        observer.after_cut(read.data, cut)
    return _build(source, detection, result, observer, first_text, show_text)


def _build(
    source: Source,
    detection: Detection,
    result: StreamResult,
    observer: _Observer,
    first_text: float | None,
    show_text: bool,
) -> Diagnosis:
    s, error, table = result.stats, result.error, observer.table
    layer = stopped_layer(result)
    offset = error.offset if error is not None and error.offset is not None else s.bytes
    event_index = error.event_index if error is not None and error.event_index is not None else s.events
    if error is not None and error.event_index is not None and result.outcome is not Outcome.TRUNCATED:
        done = error.event_index if error.kind == "ServiceError" else error.event_index - 1
        last_clean = (table.end_of(done) if done >= 0 else 0) or 0
        upto: int | None = done  # the table stops where the verdict did
    else:
        last_clean, upto = table.last_end, None
    start, window = observer.window(offset)
    runs = _runs(window, start, offset)
    cut_char = next(
        (run for run in reversed(runs) if run["class"] == "character" and run["bytes"] < run["of"]), None
    )
    http = source.http
    rows, omitted = table.table(upto)
    known = source.reads_known
    reads = None
    if known:
        reads = {
            "count": s.reads,
            "sizes": {str(k): v for k, v in sorted(s.read_sizes.items())},
            "ending_mid_character": s.reads_ending_mid_character,
            "ending_mid_line": s.reads_ending_mid_line,
            "ending_mid_event": s.reads_ending_mid_event,
        }
    naive = None
    if known:
        naive = {
            "replacement_chars": observer.naive_made,
            "reads_with_replacement": observer.naive_reads_hit,
            "upstream_replacement_chars": observer.wire_fffd,
            "finished": http.curl_exit in (None, 0),
            "agrees": (http.curl_exit in (None, 0)) == result.is_final and observer.naive_made == 0,
            "text": _preview("".join(observer.naive_text)) if show_text else None,
        }
    timing: dict[str, Any] = {
        "known": source.timed,
        "time_to_first_byte": observer.first_time
        if source.timed
        else source.timing.get("time_to_first_byte"),
        "time_to_first_text": first_text if source.timed else None,
        "largest_gap": observer.largest_gap[0] if observer.largest_gap else None,
        "largest_gap_before_read": observer.largest_gap[1] if observer.largest_gap else None,
        "duration": (observer.last_time - observer.first_time)
        if source.timed and observer.first_time is not None and observer.last_time is not None
        else None,
        "all_at_once": None,
    }
    if source.timed and observer.first_time is not None and observer.last_time is not None:
        timing["all_at_once"] = observer.last_time - observer.first_time <= AT_ONCE
    tool_calls = result.tool_calls
    return Diagnosis(
        format=source.format,
        contract=result.contract,
        framing=detection.framing,
        evidence=detection.evidence,
        outcome=str(result.outcome),
        end_verified=result.end_verified,
        is_final=result.is_final,
        truncated_at=None if result.truncated_at is None else str(result.truncated_at),
        finish_reason=result.finish_reason,
        stopped={
            "layer": layer,
            "offset": offset,
            "offset_exact": True if error is None else error.offset_exact,
            "event_index": event_index,
            "error_kind": None if error is None else error.kind,
            "error_type": None if error is None else error.error_type,
            "limit": None if error is None else error.limit,
        },
        last_clean_offset=last_clean,
        bytes={
            "read": s.bytes,
            "not_read": observer.drained,
            "after_terminal": s.bytes_after_terminal,
            "after_last_clean": max(0, offset - last_clean),
        },
        characters={
            "upstream_replacement_chars": observer.wire_fffd,
            "first_upstream_replacement_offset": observer.first_wire_fffd,
            "invalid_utf8_offset": offset if layer == "character" and error is not None else None,
            "cut_character": None
            if cut_char is None or result.truncated_at is None
            else {"offset": cut_char["offset"], "bytes": cut_char["bytes"], "of": cut_char["of"]},
        },
        lines={
            # A cut character is the end of an unfinished line too: its bytes are that line's last.
            "ended_mid_line": result.truncated_at in (Unit.CHARACTER, Unit.LINE),
            "max_pending_line_chars": s.max_pending_line_chars if known else None,
        },
        events={
            "count": s.events,
            "heartbeats": s.heartbeats,
            "unknown": s.unknown_events,
            "after_terminal": s.events_after_terminal,
            "index_at_stop": event_index,
            "table": [row.as_dict() for row in rows],
            "table_omitted": omitted,
            "table_complete": not table.failed,
        },
        values={
            "text_chars": s.text_chars,
            "deltas": s.deltas,
            "stages": s.stages,
            "tool_calls": len(tool_calls),
            "tool_calls_complete": sum(call.complete for call in tool_calls),
            "tool_calls_parsed": sum(call.arguments is not None for call in tool_calls),
            "reasoning_chars": len(result.reasoning_text),
        },
        reads=reads,
        naive=naive,
        timing=timing,
        http={
            "url": _url(http.url),
            "status": http.status,
            "content_type": http.content_type,
            "charset": http.charset,
            "content_encoding": http.content_encoding,
            "x_accel_buffering": http.x_accel_buffering,
            "chunked": http.chunked,
            "chunked_terminator": http.chunked_terminator,
            "chunked_error": http.chunked_error,
            "curl_exit": http.curl_exit,
        },
        hexdump={
            "start": start,
            "end": start + len(window),
            "cut": offset,
            "runs": runs,
            "hex": window.hex(" ") if show_text else None,
        },
        notes=tuple(source.notes),
        text=_preview(result.text) if show_text else None,
    )
