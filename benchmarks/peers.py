"""Issue 7: lesson_lib against the SSE parsers people use, and the whole pipeline against the openai SDK.

Four sections, each a function of a :class:`Config` returning a :class:`~benchmarks.linear_cost.Section`:

``agreement``   every parser finds lesson_lib's events in both streams at every read size, so the timings
                compare equivalent work; small edge cases show where a peer does less
``throughput``  MB/s on eight stream shapes (OpenAI chat, Anthropic messages, heartbeats, an id on every
                event, Gemini CRLF, 200 KiB tool calls; issue 24: an event, an id and a data line in
                every event, with LF and with CRLF endings) in reads of 1 B to 64 KiB, each parser's
                time as a ratio to lesson_lib's in the same round; the targets of issue 13, held or missed
``long_event``  one long ``data:`` line in 64-byte reads, 64 KiB against 1 MiB: which parsers are linear
``pipeline``    ``consume(reads, "openai-chat")`` against the openai SDK's own ``Stream`` over the same bytes

Every parser (:data:`PARSERS`) is driven as its library drives it, from one iterator of the same reads:

* **lesson_lib**: ``SSEParser.feed_each(reads)`` (strict, default limits): the parser loops over the reads
  itself, as each peer below does;
* **lesson_lib, feed per read**: ``SSEParser.feed`` per read in the benchmark's loop, as
  :mod:`benchmarks.linear_cost` drives it: what a caller's own loop costs (shown, not a target);
* **lesson_lib reference**: ``ReferenceSSEParser.feed_each(reads)``, the same way: what the fast path buys;
* **httpx-sse**: what ``EventSource.iter_sse`` does over ``Response.iter_text()``: httpx's ``TextDecoder``
  and ``TextChunker``, then httpx-sse's ``SSELineDecoder`` and ``SSEDecoder`` (no HTTP response around it);
* **openai**: ``openai._streaming.SSEDecoder().iter_bytes(reads)``, the iterator ``Stream`` consumes;
* **sseclient-py**: ``SSEClient(reads).events()``, the reads standing in for the HTTP response;
* **naive loop**: :func:`benchmarks.linear_cost.naive_lines` (``buffer += chunk; split``) plus the field
  handling people add to it;
* **lines-only baseline**: incremental decoding and line splitting (CR, LF, CRLF), no fields and no
  events. A baseline, not a lower bound: it is what an SSE parser does first, done plainly; lesson_lib,
  which does not decode a read until a line ends in it, is faster than it in 1-byte reads.
"""

from __future__ import annotations

import codecs
import random
import re
import statistics
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from lesson_lib import (
    Event,
    IncrementalUTF8Decoder,
    LineSplitter,
    ReferenceSSEParser,
    SSEParser,
    consume,
    parse_sse,
)

from . import linear_cost, workloads
from .harness import (
    ORDER_SEED,
    human_bytes,
    markdown_table,
    measure_bracketed,
    measure_interleaved,
    ns_per_byte,
    package_versions,
)
from .linear_cost import Section

KiB, MiB = 1024, 1024 * 1024
#: The libraries measured, whose versions head the results.
PACKAGES = ("httpx-sse", "httpx", "openai", "httpx2", "sseclient-py")
LESSON = "lesson_lib"
LESSON_FEED = "lesson_lib, feed per read"
REFERENCE = "lesson_lib reference"
BASELINE = "lines-only baseline"
#: ``(str, str)``: an event's type and data, the same shape from every parser.
EventData = tuple[str, str]


# -- the parsers --------------------------------------------------------------------------------------
def _count_each(parser: SSEParser | ReferenceSSEParser, reads: Iterable[bytes]) -> int:
    """A parser looping over the reads itself (``feed_each``), then closed: how many events."""
    count = 0
    for events in parser.feed_each(reads):
        count += len(events)
    return count + len(parser.close())


def lesson_lib_count(reads: Iterable[bytes]) -> int:
    """lesson_lib's ``SSEParser`` through ``feed_each``; how many events."""
    return _count_each(SSEParser(), reads)


def lesson_lib_events(reads: Iterable[bytes]) -> list[EventData]:
    return [(event.type, event.data) for event in parse_sse(reads)]


def lesson_lib_feed_events(reads: Iterable[bytes]) -> list[EventData]:
    parser = SSEParser()
    events = [event for read in reads for event in parser.feed(read)] + parser.close()
    return [(event.type, event.data) for event in events if isinstance(event, Event)]


def reference_count(reads: Iterable[bytes]) -> int:
    """lesson_lib's reference parser, driven as :func:`lesson_lib_count` drives ``SSEParser``."""
    return _count_each(ReferenceSSEParser(), reads)


def reference_events(reads: Iterable[bytes]) -> list[EventData]:
    parser = ReferenceSSEParser()
    events = [event for events in parser.feed_each(reads) for event in events] + parser.close()
    return [(event.type, event.data) for event in events]


def httpx_sse_iter(reads: Iterable[bytes]) -> Iterator[Any]:
    """httpx-sse's ``EventSource.iter_sse()`` over httpx's ``Response.iter_text()``, on these reads.

    The same decoders in the same order as httpx 0.28 and httpx-sse 0.4 (their code, inlined): httpx
    decodes each read with an incremental decoder (``errors="replace"``), ``TextChunker`` passes the text
    on, ``SSELineDecoder`` splits lines, ``SSEDecoder`` interprets them.
    """
    from httpx._decoders import TextChunker, TextDecoder
    from httpx_sse._decoders import SSEDecoder, SSELineDecoder

    def iter_text() -> Iterator[str]:  # httpx.Response.iter_text(), from iter_bytes() = the reads
        decoder, chunker = TextDecoder(encoding="utf-8"), TextChunker(chunk_size=None)
        for byte_content in reads:
            text_content = decoder.decode(byte_content)
            for chunk in chunker.decode(text_content):
                yield chunk
        for chunk in chunker.decode(decoder.flush()):
            yield chunk
        for chunk in chunker.flush():
            yield chunk

    def iter_sse_lines() -> Iterator[str]:  # httpx_sse._api._iter_sse_lines
        decoder = SSELineDecoder()
        for text in iter_text():
            for line in decoder.decode(text):
                yield line
        for line in decoder.flush():
            yield line

    decoder = SSEDecoder()  # EventSource.iter_sse
    for line in iter_sse_lines():
        line = line.rstrip("\n")
        sse = decoder.decode(line)
        if sse is not None:
            yield sse


def openai_iter(reads: Iterable[bytes]) -> Iterator[Any]:
    """The openai SDK's byte-level SSE decoder, as ``openai.Stream`` runs it over the response bytes."""
    from openai._streaming import SSEDecoder

    return SSEDecoder().iter_bytes(iter(reads))


def sseclient_iter(reads: Iterable[bytes]) -> Iterator[Any]:
    """sseclient-py's ``SSEClient`` over the reads (it iterates its event source for chunks)."""
    from sseclient import SSEClient

    return SSEClient(reads).events()


def naive_sse(reads: Iterable[bytes]) -> Iterator[EventData]:
    """THE WRONG WAY, with the fields: :func:`linear_cost.naive_lines` and the field handling people add."""
    data: list[str] = []
    kind = ""
    for line in linear_cost.naive_lines(reads):
        if not line:
            if data:
                yield kind or "message", "\n".join(data)
            data, kind = [], ""
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            data.append(value)
        elif name == "event":
            kind = value


_ANY_ENDING = re.compile(r"\r\n|\r|\n")


def split_lines(reads: Iterable[bytes]) -> Iterator[list[str]]:
    """The lines-only baseline: decode incrementally, split lines at CR, LF and CRLF (a CRLF cut between reads
    too), nothing else. Yields the lines each read completed; an unfinished last line is dropped."""
    decode = codecs.getincrementaldecoder("utf-8")().decode
    parts: list[str] = []
    after_cr = False
    for read in reads:
        text = decode(read)
        if not text:
            continue
        if after_cr:
            after_cr = False
            if text[0] == "\n":
                text = text[1:]
        if "\r" in text:
            lines = _ANY_ENDING.split(text)
            after_cr = text[-1] == "\r"
        elif "\n" in text:
            lines = text.split("\n")
        else:
            parts.append(text)
            continue
        if parts:
            parts.append(lines[0])
            lines[0] = "".join(parts)
        tail = lines.pop()
        parts = [tail] if tail else []
        yield lines


def lines_only(reads: Iterable[bytes]) -> int:
    """How many lines :func:`split_lines` found (the lines are built, then dropped)."""
    return sum(map(len, split_lines(reads)))


def _count(events: Callable[[Iterable[bytes]], Iterable[object]], reads: Iterable[bytes]) -> int:
    count = 0
    for _ in events(reads):
        count += 1
    return count


def _pairs(
    events: Callable[[Iterable[bytes]], Iterable[Any]], type_of: Callable[[Any], str], reads: Iterable[bytes]
) -> list[EventData]:
    return [(type_of(event), event.data) for event in events(reads)]


@dataclass(frozen=True)
class Parser:
    """One parser under test: how to time it, how to read its events, and what it leaves out."""

    name: str
    #: The timed work: parse the reads, return the number of events (the baseline: of lines).
    count: Callable[[Iterable[bytes]], int]
    #: ``(type, data)`` of every event, for the agreement checks; ``None`` for the baseline.
    events: Callable[[Iterable[bytes]], list[EventData]] | None
    peer: bool  # a library people use: the targets compare lesson_lib with these
    driven: str  # how the benchmark drives it
    leaves_out: str  # what lesson_lib does that this one does not (shown by the edge cases)
    #: Re-copies an event's text per read (quadratic in its length): not run on 200 KiB events in reads
    #: of a few bytes, where one round would take minutes.
    quadratic: bool = False
    #: Splits lines at LF only: finds no event in a CRLF stream, so it is not run there.
    lf_only: bool = False


PARSERS: dict[str, Parser] = {
    parser.name: parser
    for parser in (
        Parser(
            LESSON,
            lesson_lib_count,
            lesson_lib_events,
            peer=False,
            driven="`SSEParser().feed_each(reads)`, strict, default limits: the parser loops over the "
            "reads, as each peer does",
            leaves_out="(the reference)",
        ),
        Parser(
            LESSON_FEED,
            linear_cost.lesson_lib_sse,
            lesson_lib_feed_events,
            peer=False,
            driven="`SSEParser().feed(read)` per read in the benchmark's own loop: a method call per "
            "read (shown, not a target)",
            leaves_out="nothing: the same parser as `lesson_lib`",
        ),
        Parser(
            REFERENCE,
            reference_count,
            reference_events,
            peer=False,
            driven="`ReferenceSSEParser().feed_each(reads)`, strict, default limits: the parser written "
            "to be read (lesson_lib/core/sse_reference.py)",
            leaves_out="nothing: the same events, state and errors as lesson_lib's `SSEParser` (tested)",
        ),
        Parser(
            "httpx-sse",
            partial(_count, httpx_sse_iter),
            partial(_pairs, httpx_sse_iter, lambda e: e.event),
            peer=True,
            driven="httpx `TextDecoder` + `TextChunker`, then `SSELineDecoder` + `SSEDecoder`, as "
            "`EventSource.iter_sse()` over `Response.iter_text()`",
            leaves_out="invalid UTF-8 silently becomes U+FFFD (httpx decodes with `errors='replace'`); "
            "a leading BOM is not removed (the first event is lost); an `id:` or `event:` line without "
            "data dispatches an empty event; no bound on a line or an event",
        ),
        Parser(
            "openai",
            partial(_count, openai_iter),
            partial(_pairs, openai_iter, lambda e: e.event or "message"),
            peer=True,
            driven="`openai._streaming.SSEDecoder().iter_bytes(reads)`, what `openai.Stream` iterates",
            leaves_out="invalid UTF-8 raises a plain `UnicodeDecodeError` whose position is in the line, "
            "not the stream; a leading BOM is not removed; an `id:` or `event:` line without data "
            "dispatches an empty event; no bound on a line or an event",
        ),
        Parser(
            "sseclient-py",
            partial(_count, sseclient_iter),
            partial(_pairs, sseclient_iter, lambda e: e.event),
            peer=True,
            driven="`SSEClient(reads).events()`",
            leaves_out="an event ends only at `\\n\\n`, `\\r\\r` or `\\r\\n\\r\\n`, so mixed line "
            "endings merge events; an event cut off by the end of the stream is dispatched; invalid UTF-8 "
            "raises a plain `UnicodeDecodeError` (position in the line); a leading BOM is not removed; "
            "`buffer += line` per read re-copies the event (quadratic in its length); no bounds",
            quadratic=True,
        ),
        Parser(
            "naive loop",
            partial(_count, naive_sse),
            lambda reads: list(naive_sse(reads)),
            peer=False,
            driven="`buffer += chunk; while b'\\n' in buffer: line, buffer = buffer.split(b'\\n', 1)`, "
            "then `partition(':')`",
            leaves_out="LF only (no CR or CRLF); no `id` or `retry`; a BOM is not removed; re-scans and "
            "re-copies the buffer on every read: quadratic in the length of a line, and in the read size",
            quadratic=True,
            lf_only=True,
        ),
        Parser(
            BASELINE,
            lines_only,
            None,
            peer=False,
            driven="`codecs` incremental UTF-8 decoder + `str.split` (a regex split when a CR is present)",
            leaves_out="everything above the line: no fields, no events (a baseline, not a lower bound)",
        ),
    )
}
PEERS = [name for name, parser in PARSERS.items() if parser.peer]


# -- the whole pipeline: consume() against the openai SDK -----------------------------------------------
def consume_chat(reads: Iterable[bytes]) -> tuple[str, str | None, str]:
    """lesson_lib's whole pipeline: ``(text, finish reason, outcome)``."""
    result = consume(reads, "openai-chat")
    return result.text, result.finish_reason, str(result.outcome)


class OpenAISDK:
    """The openai SDK's own streaming, over given reads: ``client.chat.completions.create(stream=True)``
    on an ``httpx2.MockTransport`` whose response body is the reads, iterated as an application does."""

    def __init__(self) -> None:
        import httpx2
        import openai

        self._reads: Iterable[bytes] = ()

        def respond(request: Any) -> Any:
            return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=self._reads)

        self.client = openai.OpenAI(
            api_key="sk-benchmark",
            base_url="http://openai.invalid/v1",
            max_retries=0,
            http_client=httpx2.Client(transport=httpx2.MockTransport(respond)),
        )

    def __call__(self, reads: Iterable[bytes]) -> tuple[str, str | None, str]:
        """``(text, finish reason, how the iteration ended)``, as :func:`consume_chat`."""
        self._reads = iter(reads)
        stream = self.client.chat.completions.create(
            model="gpt-4o-mini", messages=[{"role": "user", "content": "Hello"}], stream=True
        )
        parts, finish_reason = [], None
        try:
            for chunk in stream:
                for choice in chunk.choices:
                    if choice.delta.content:
                        parts.append(choice.delta.content)
                    if choice.finish_reason:
                        finish_reason = choice.finish_reason
        except Exception as exc:  # what the SDK raises for what the stream contains
            return "".join(parts), finish_reason, f"raised {type(exc).__name__}"
        return "".join(parts), finish_reason, "ended without error"


# -- configuration ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Config:
    """Sizes and repeats of one run; :meth:`quick` is the smoke-run variant."""

    stream_size: int = 2 * MiB
    read_sizes: tuple[int, ...] = (1, 7, 64, 1 * KiB, 64 * KiB)
    #: Interleaved rounds in 1- and 7-byte reads (seconds per run), and in larger reads (milliseconds).
    repeats: int = 5
    fast_repeats: int = 9
    #: Size of each stream for the agreement checks, run at every read size.
    agreement_size: int = 512 * KiB
    long_event_sizes: tuple[int, int] = (64 * KiB, 1 * MiB)
    long_event_read: int = 64
    pipeline_size: int = 1 * MiB
    pipeline_read_sizes: tuple[int, ...] = (1, 7, 64, 1 * KiB, 64 * KiB)

    @classmethod
    def quick(cls) -> Config:
        return cls(
            stream_size=512 * KiB,
            repeats=3,
            fast_repeats=5,
            agreement_size=128 * KiB,
            long_event_sizes=(32 * KiB, 256 * KiB),
            pipeline_size=256 * KiB,
        )

    def rounds(self, read_size: int) -> int:
        return self.repeats if read_size < 64 else self.fast_repeats


def _stream(name: str, size: int) -> tuple[bytes, int]:
    """The named workload as one ``bytes`` (generated before timing), and how many events it carries."""
    stream, expected = workloads.STREAMS[name]
    return b"".join(stream(size)), expected(size)[0]


def _read_label(size: int) -> str:
    return f"{size} B" if size < 1024 else human_bytes(size)


def _check(actual: object, expected: object, what: str) -> None:
    if actual != expected:
        raise AssertionError(f"{what}: expected {expected}, got {actual} (the benchmark measured wrong work)")


def _run(
    count: Callable[[Iterable[bytes]], int], data: bytes, read_size: int, expected: int, what: str
) -> None:
    """The timed work: parse ``data`` in reads of ``read_size``; check the count, so the work was real."""
    _check(count(workloads.reads(data, read_size)), expected, what)


# -- 1. agreement: the same events, and the edge cases -----------------------------------------------
#: Small streams where parsers differ: name -> (body, read size; 0 for the whole body in one read).
EDGE_CASES: dict[str, tuple[bytes, int]] = {
    "CRLF endings, CR and LF in different reads": (b"data: a\r\n\r\ndata: b\r\n\r\n", 1),
    "an LF line, then a CRLF blank line": (b"data: a\n\r\ndata: b\n\n", 0),
    "a CRLF line, then a CR blank line": (b"data: a\r\n\rdata: b\n\n", 0),
    "a BOM before the first field": (b"\xef\xbb\xbfdata: a\n\ndata: b\n\n", 0),
    "invalid UTF-8 in the second event": (b"data: a\n\ndata: \xff\n\n", 0),
    "the stream ends before the blank line": (b"data: a\n\ndata: b", 0),
    "`id:` alone, then an event": (b"id: 7\n\ndata: a\n\n", 0),
    "`event:` alone, then an event": (b"event: x\n\ndata: a\n\n", 0),
    "characters cut by 1-byte reads": ("data: 你好 🙂 é\n\n".encode(), 1),
    "U+2028 and NEL inside data": ("data: a\u2028b\x85c\n\n".encode(), 0),
}


def _outcome(events: Callable[[Iterable[bytes]], list[EventData]], body: bytes, read_size: int) -> str:
    """What a parser made of an edge case, as a short markdown cell: the events' data, or the error."""
    reads = list(workloads.reads(body, read_size)) if read_size else [body]
    try:
        found = events(reads)
    except Exception as exc:  # the probe reports what happened; it must not stop the benchmark
        offset = getattr(exc, "offset", None)
        where = f" at byte {offset}" if offset is not None else ""
        if isinstance(exc, UnicodeDecodeError) and offset is None:
            where = f" at position {exc.start} of its line"
        return f"raises `{type(exc).__name__}`{where}"
    shown = ", ".join(repr(data) if kind == "message" else f"{kind}: {data!r}" for kind, data in found)
    return f"[{shown}]".replace("|", "\\|")


def agreement(config: Config) -> Section:
    section = Section("agreement", "Same events as lesson_lib, and where the peers do less")
    rows, failures = [], []
    for stream_name in workloads.STREAMS:
        data, expected_events = _stream(stream_name, config.agreement_size)
        splitter = LineSplitter("any", None)
        reference_lines = splitter.feed(IncrementalUTF8Decoder().feed(data))
        for read_size in config.read_sizes:
            reference = lesson_lib_events(workloads.reads(data, read_size))
            _check(len(reference), expected_events, f"lesson_lib, {stream_name}, {read_size} B")
            cells = []
            for name, parser in PARSERS.items():
                if name == LESSON:
                    continue
                if skipped(name, stream_name, read_size):
                    cells.append("not run")
                    continue
                if parser.events is None:
                    same = [line for lines in split_lines(workloads.reads(data, read_size)) for line in lines]
                    ok = same == reference_lines
                else:
                    ok = parser.events(workloads.reads(data, read_size)) == reference
                cells.append("same" if ok else "**DIFFERENT**")
                if not ok:
                    failures.append(f"{name}, {stream_name}, {read_size} B")
            rows.append([stream_name, _read_label(read_size), f"{len(reference):,}", *cells])
    section.ok = not failures
    others = [name for name in PARSERS if name != LESSON]
    edge_rows = []
    for case, (body, read_size) in EDGE_CASES.items():
        reference = _outcome(lesson_lib_events, body, read_size)
        cells = []
        for name in others:
            events = PARSERS[name].events
            if events is not None:
                found = _outcome(events, body, read_size)
                cells.append("same" if found == reference else found)
        how = "1-byte reads" if read_size == 1 else "one read"
        edge_rows.append([case, how, reference, *cells])
    section.say(
        f"Each parser on the first {human_bytes(config.agreement_size)} of each stream, at every read size: "
        "`same` means the same `(type, data)` for every event as lesson_lib (for the lines-only baseline: "
        "the same lines as lesson_lib's `LineSplitter`). Verdict: "
        f"**{'every parser agrees' if section.ok else 'DISAGREEMENT: ' + '; '.join(failures)}**, so the "
        "timings below compare equivalent work. Every timed run also checks its event count.",
        "",
        *markdown_table(["stream", "reads", "events", *others], rows, align="l"),
        "",
        "Where they differ: small streams, in one read or in 1-byte reads. Cells show the events' data "
        "(`type: data` when the type is not `message`), or the error; `same` means as lesson_lib.",
        "",
        *markdown_table(
            ["case", "reads", LESSON, *[n for n in others if PARSERS[n].events is not None]],
            edge_rows,
            align="l" * 7,
        ),
        "",
        *markdown_table(
            ["parser", "driven as", "what it does not do that lesson_lib does"],
            [[name, parser.driven, parser.leaves_out] for name, parser in PARSERS.items() if name != LESSON],
            align="lll",
        ),
    )
    section.data = {"failures": failures}
    return section


# -- 2. throughput and the targets ---------------------------------------------------------------------
@dataclass(frozen=True)
class Target:
    text: str
    stream: str
    measured: str
    holds: bool


#: stream -> read size -> parser -> (MB/s, time ratio to lesson_lib, ns per event of the stream, the lowest
#: and highest ratio of a round), or ``None`` for a parser not run there (see :func:`skipped`)
Figures = dict[str, dict[int, dict[str, tuple[float, float, float, tuple[float, float]] | None]]]
#: The 64 KiB target holds for streams whose events average more than this many bytes: below, building
#: one ``Event`` per event is a floor the lines-only baseline does not pay (README, "Where it stands").
LARGE_EVENT_BYTES = 200


def skipped(name: str, stream_name: str, read_size: int) -> bool:
    """Parsers quadratic in an event's length are not run on 200 KiB events in reads under 64 bytes:
    one round would take minutes (each 1-byte read re-copies up to 200 KiB). The naive loop splits at LF
    only: on a CRLF stream it finds no event at all, so there is nothing to time."""
    parser = PARSERS[name]
    if parser.lf_only and stream_name in workloads.CRLF_STREAMS:
        return True
    return parser.quadratic and stream_name in workloads.LONG_EVENT_STREAMS and read_size < 64


def event_bytes(config: Config) -> dict[str, float]:
    """Average bytes per dispatched event of each stream (heartbeat comments are bytes, not events)."""
    return {name: size / events for name, (size, events) in _sizes(config.stream_size).items()}


def _sizes(stream_size: int) -> dict[str, tuple[int, int]]:
    out = {}
    for name, (_, expected) in workloads.STREAMS.items():
        events, _, size = expected(stream_size)
        out[name] = (size, events)
    return out


def throughput_figures(config: Config) -> Figures:
    """stream -> read size -> parser -> (MB/s from the median time, median over rounds of the parser's
    time / lesson_lib's time around it, median time per event of the stream in ns, the lowest and highest
    of those ratios). Per read size, rounds; in each round every stream, in a shuffled order, and on each
    stream every parser run between two runs of lesson_lib (:func:`harness.measure_bracketed`)."""
    streams = {name: _stream(name, config.stream_size) for name in workloads.STREAMS}
    figures: Figures = {name: {} for name in streams}
    order = random.Random(ORDER_SEED)
    for read_size in config.read_sizes:
        works: dict[str, dict[str, Callable[[], None]]] = {}
        for stream_name, (data, events) in streams.items():
            expected_lines = data.count(b"\n")  # the workloads end lines with LF or CRLF, never CR alone
            works[stream_name] = {
                name: partial(
                    _run,
                    parser.count,
                    data,
                    read_size,
                    expected_lines if name == BASELINE else events,
                    f"{name}, {stream_name}, {read_size} B reads",
                )
                for name, parser in PARSERS.items()
                if not skipped(name, stream_name, read_size)
            }
        runs: dict[tuple[str, str], list[float]] = {}
        ratios: dict[tuple[str, str], list[float]] = {}
        names = list(streams)
        for _ in range(config.rounds(read_size)):
            order.shuffle(names)
            for stream_name in names:
                others = dict(works[stream_name])
                round_ = measure_bracketed(others.pop(LESSON), others, order)
                runs.setdefault((stream_name, LESSON), []).extend(round_.base_runs)
                for name, seconds in round_.times.items():
                    runs.setdefault((stream_name, name), []).append(seconds)
                    ratios.setdefault((stream_name, name), []).append(round_.ratios[name])
        for stream_name, (data, events) in streams.items():
            figures[stream_name][read_size] = {}
            for name in PARSERS:
                if (stream_name, name) not in runs:
                    figures[stream_name][read_size][name] = None
                    continue
                median = statistics.median(runs[(stream_name, name)])
                spread = ratios.get((stream_name, name), [1.0])
                figures[stream_name][read_size][name] = (
                    len(data) / median / 1e6,
                    statistics.median(spread),
                    median * 1e9 / events,
                    (min(spread), max(spread)),
                )
    return figures


TARGET_PEERS = "lesson_lib at least as fast as the fastest peer, at every read size"
TARGET_2X = "lesson_lib at least 2x as fast as httpx-sse and openai in 1- and 7-byte reads"
TARGET_BASELINE = (
    f"lesson_lib within 2x of the lines-only baseline in 64 KiB reads (events over {LARGE_EVENT_BYTES} bytes)"
)


def targets(config: Config, figures: Figures, sizes: dict[str, float]) -> list[Target]:
    """Issue 13's targets, each checked on each stream. A ratio is the other parser's time / lesson_lib's."""
    out = []
    small = [size for size in config.read_sizes if size in (1, 7)]
    for stream_name, by_read in figures.items():
        # 1. At least as fast as the fastest peer that ran, at every read size.
        ratio, peer, size = min(
            (by_read[size][peer][1], peer, size)
            for size in config.read_sizes
            for peer in PEERS
            if by_read[size][peer] is not None
        )
        out.append(
            Target(
                TARGET_PEERS,
                stream_name,
                f"closest: {peer} at {_read_label(size)} reads, {ratio:.2f}x lesson_lib's time"
                f"{_rounds(by_read[size][peer])}",
                ratio >= 1.0,
            )
        )
        # 2. At least twice as fast as httpx-sse and openai in 1- and 7-byte reads.
        if small:
            ratio, peer, size = min(
                (by_read[size][peer][1], peer, size) for size in small for peer in ("httpx-sse", "openai")
            )
            out.append(
                Target(
                    TARGET_2X,
                    stream_name,
                    f"closest: {peer} at {_read_label(size)} reads, {ratio:.2f}x lesson_lib's time"
                    f"{_rounds(by_read[size][peer])}",
                    ratio >= 2.0,
                )
            )
        # 3. Within 2x of the lines-only baseline at 64 KiB, where events are large enough.
        if 64 * KiB in by_read and sizes[stream_name] > LARGE_EVENT_BYTES:
            at_64k = by_read[64 * KiB]
            baseline = at_64k[BASELINE]
            assert baseline is not None
            ratio = 1 / baseline[1]
            low, high = baseline[3]
            per_event = f"{at_64k[LESSON][2]:.0f} ns per event against {baseline[2]:.0f} ns"
            out.append(
                Target(
                    TARGET_BASELINE,
                    stream_name,
                    f"lesson_lib takes {ratio:.2f}x the baseline's time ({per_event}; "
                    f"rounds {1 / high:.2f} to {1 / low:.2f})",
                    ratio <= 2.0,
                )
            )
    return out


def _rounds(figure: tuple[float, float, float, tuple[float, float]] | None) -> str:
    """How far the rounds' ratios went either side of their median."""
    assert figure is not None
    low, high = figure[3]
    return f" (rounds {low:.2f} to {high:.2f})"


def _cell(figure: tuple[float, float, float, tuple[float, float]] | None, index: int, digits: int) -> str:
    return "not run" if figure is None else f"{figure[index]:.{digits}f}"


def throughput(config: Config) -> Section:
    section = Section(
        "throughput", f"Throughput against the peers ({human_bytes(config.stream_size)} streams, strict)"
    )
    figures = throughput_figures(config)
    sizes = event_bytes(config)
    names = list(PARSERS)
    lines = [
        f"Each parser on the same {human_bytes(config.stream_size)} stream, cut into reads of each size; "
        f"{config.repeats} rounds in 1- and 7-byte reads and {config.fast_repeats} in larger reads; in each "
        "round every stream, and on each stream every parser run between two runs of lesson_lib, in an "
        "order shuffled anew each round from a fixed seed (CPU time of the process, on a shared 2-core "
        "machine). MB/s is 10^6 bytes per second, from the median time. **Ratio** = the parser's time / "
        "the mean of lesson_lib's two runs just before and after it (median over rounds; the targets also "
        "give the lowest and highest round): above 1, lesson_lib is faster. `lesson_lib` is "
        f"`SSEParser` (lesson_lib/core/sse_fast.py) looping over the reads itself (`feed_each`), as every "
        f"peer does; `{LESSON_FEED}` is the same parser called once per read by the benchmark's loop "
        "(shown, not a target: the calls are the caller's); "
        f"`{REFERENCE}` is `ReferenceSSEParser` "
        "(lesson_lib/core/sse_reference.py), the same behaviour written to be read: its ratio is what "
        "the fast path buys. `not run`: a parser that re-copies an event per read, on 200 KiB events in "
        "reads of a few bytes (minutes per round; the long-event section shows its growth); the naive loop "
        "on the CRLF stream (it splits at LF only and finds no event).",
    ]
    for stream_name, by_read in figures.items():
        rows = [
            [_read_label(size), *[_cell(by_read[size][name], 0, 1) for name in names]]
            for size in config.read_sizes
        ]
        ratio_rows = [
            [_read_label(size), *[_cell(by_read[size][name], 1, 2) for name in names[1:]]]
            for size in config.read_sizes
        ]
        lines += [
            "",
            f"**{stream_name}** ({sizes[stream_name]:,.0f} bytes per event): MB/s, then time ratio to "
            "lesson_lib",
            "",
            *markdown_table(["reads", *names], rows),
            "",
            *markdown_table(["reads", *[f"{name} / {LESSON}" for name in names[1:]]], ratio_rows),
        ]
    checked = targets(config, figures, sizes)
    section.ok = all(target.holds for target in checked)
    lines += [
        "",
        f"Targets: **{'all hold' if section.ok else 'NOT all hold'}**.",
        "",
        *markdown_table(
            ["target", "stream", "measured", "holds"],
            [[t.text, t.stream, t.measured, "yes" if t.holds else "**no**"] for t in checked],
            align="llll",
        ),
    ]
    section.say(*lines)
    section.data = {"figures": figures, "read_sizes": config.read_sizes, "targets": checked, "sizes": sizes}
    return section


# -- 3. one long event: which parsers are linear ----------------------------------------------------------
def long_event(config: Config) -> Section:
    small, large = config.long_event_sizes
    read = config.long_event_read
    section = Section(
        "long_event",
        f"One long `data:` line in {read}-byte reads: {human_bytes(small)} against {human_bytes(large)}",
    )
    streams = {size: workloads.long_line_stream(size) for size in (small, large)}
    works = {
        (name, size): partial(
            _run, parser.count, data, read, 2 if name == BASELINE else 1, f"{name}, {size} B line"
        )
        for name, parser in PARSERS.items()
        for size, data in streams.items()
    }
    keys = list(works)
    timings = measure_interleaved({str(i): works[key] for i, key in enumerate(keys)}, config.repeats)
    per_byte = {key: ns_per_byte(timings[str(i)].median, len(streams[key[1]])) for i, key in enumerate(keys)}
    rows, growth = [], {}
    for name in PARSERS:
        growth[name] = per_byte[(name, large)] / per_byte[(name, small)]
        verdict = "linear" if growth[name] <= linear_cost.FLAT_WITHIN else "**grows with the line**"
        rows.append(
            [
                name,
                f"{per_byte[(name, small)]:.0f}",
                f"{per_byte[(name, large)]:.0f}",
                f"{growth[name]:.2f}",
                verdict,
            ]
        )
    section.ok = growth[LESSON] <= linear_cost.FLAT_WITHIN
    section.say(
        f"ns per byte, median of {config.repeats} interleaved runs. The line is {large // small}x longer; "
        "a linear parser's cost per byte stays flat, a parser that re-copies or re-scans the unfinished "
        f"line on every read pays per byte in proportion to the line. Verdict for lesson_lib: "
        f"**{'linear' if section.ok else 'NOT linear'}**.",
        "",
        *markdown_table(
            ["parser", f"{human_bytes(small)} line", f"{human_bytes(large)} line", "ratio", "cost per byte"],
            rows,
            align="l",
        ),
    )
    section.data = {"per_byte": per_byte, "sizes": (small, large)}
    return section


# -- 4. the whole pipeline against the openai SDK ----------------------------------------------------------
def pipeline(config: Config) -> Section:
    section = Section("pipeline", "The whole pipeline: `consume` against the openai SDK's own streaming")
    data, _ = _stream("OpenAI chat", config.pipeline_size)
    sdk = OpenAISDK()
    expected_text = workloads.expected_chat(config.pipeline_size)[1]
    for name, run in (("consume", consume_chat), ("openai SDK", sdk)):
        text, finish_reason, _ = run(workloads.reads(data, 64 * KiB))
        _check((text, finish_reason), (expected_text, "stop"), f"{name}: text and finish reason")

    def work(run: Callable[[Iterable[bytes]], tuple[str, str | None, str]], read_size: int) -> None:
        text, _, _ = run(workloads.reads(data, read_size))
        _check(len(text), len(expected_text), "text length")

    rows, figures = [], {}
    for read_size in config.pipeline_read_sizes:
        timings = measure_interleaved(
            {"consume": partial(work, consume_chat, read_size), "sdk": partial(work, sdk, read_size)},
            config.rounds(read_size),
        )
        ratio = statistics.median(
            s / c for s, c in zip(timings["sdk"].runs, timings["consume"].runs, strict=True)
        )
        mbs = {name: len(data) / timing.median / 1e6 for name, timing in timings.items()}
        figures[read_size] = (mbs["consume"], mbs["sdk"], ratio)
        rows.append([_read_label(read_size), f"{mbs['consume']:.2f}", f"{mbs['sdk']:.2f}", f"{ratio:.2f}"])
    # What each says about a cut stream: the same bytes, stopped before the finish chunk and [DONE].
    cut = data[: data.rindex(b"data: {")]
    truncated_rows = []
    for name, run in (("`consume`", consume_chat), ("openai SDK `Stream`", sdk)):
        text, finish_reason, ended = run(workloads.reads(cut, 64 * KiB))
        truncated_rows.append([name, f"{len(text):,}", str(finish_reason), ended])
    section.say(
        f"The same {human_bytes(config.pipeline_size)} OpenAI-chat stream, from bytes to the answer's text: "
        "`consume(reads, 'openai-chat')` (SSE, JSON per event, contract, outcome, statistics) against "
        "`client.chat.completions.create(stream=True)` on an `httpx2.MockTransport` whose body is the "
        "same reads (SSE, JSON per event, a pydantic `ChatCompletionChunk` per event). Both give the same "
        f"text and finish reason. MB/s from the median of interleaved rounds ({config.repeats} in 1- and "
        f"7-byte reads, {config.fast_repeats} above); ratio = SDK time / consume time in the same round.",
        "",
        *markdown_table(["reads", "consume MB/s", "openai SDK MB/s", "SDK / consume"], rows),
        "",
        "The same stream cut before its finish chunk and `data: [DONE]` (a dropped connection, say): the "
        "SDK's iteration ends as if the answer were whole; `consume` says it was truncated.",
        "",
        *markdown_table(
            ["pipeline", "text characters", "finish reason", "outcome"], truncated_rows, align="l"
        ),
    )
    section.data = {"figures": figures}
    return section


SECTIONS: dict[str, Callable[[Config], Section]] = {
    "agreement": agreement,
    "throughput": throughput,
    "long_event": long_event,
    "pipeline": pipeline,
}


# -- report -------------------------------------------------------------------------------------------
def render(sections: list[Section], environment: dict[str, str], quick: bool) -> str:
    """The markdown report: the machine and the versions, then every section that ran."""
    out = ["# lesson_lib against the SSE parsers people use", ""]
    out += [f"- {key}: {value}" for key, value in environment.items()]
    versions = ", ".join(f"{name} {version}" for name, version in package_versions(PACKAGES).items())
    out += [
        f"- Peers: {versions}",
        f"- Run: `python -m benchmarks{' --quick' if quick else ''}`; "
        "timings are medians of rounds (each round in a new order, shuffled from a fixed seed; in "
        "`throughput`, each parser between two runs of lesson_lib) on a shared machine, compare ratios, "
        "not absolutes.",
    ]
    for section in sections:
        out += ["", f"## {section.title}", "", *section.lines]
    return "\n".join(out) + "\n"


_STYLE = {
    LESSON: {"color": "black", "linewidth": 2.5, "marker": "o"},
    LESSON_FEED: {"color": "dimgrey", "marker": "o", "linestyle": ":"},
    REFERENCE: {"color": "tab:purple", "marker": "P", "linestyle": "-."},
    "httpx-sse": {"color": "tab:blue", "marker": "s"},
    "openai": {"color": "tab:green", "marker": "^"},
    "sseclient-py": {"color": "tab:orange", "marker": "D"},
    "naive loop": {"color": "tab:red", "marker": "x", "linestyle": ":"},
    BASELINE: {"color": "grey", "marker": ".", "linestyle": "--"},
}


def plot(sections: list[Section], path: str, quick: bool) -> None:
    """One PNG: throughput per stream, the long event, the pipeline (a section not run says so)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ran = {section.name: section for section in sections}
    streams = len(workloads.STREAMS)
    rows = -(-(streams + 3) // 3)  # a panel per stream, then the long line, the pipeline, what it buys
    fig, axes = plt.subplots(rows, 3, figsize=(16, 13 * rows / 3), dpi=90)
    flat = list(axes.flat)
    stream_axes = dict(zip(workloads.STREAMS, flat[:streams], strict=True))
    long_ax, pipeline_ax, buys_ax = flat[streams : streams + 3]
    for ax in flat[streams + 3 :]:
        ax.set_axis_off()
    if "throughput" in ran:
        data = ran["throughput"].data
        sizes = list(data["read_sizes"])
        for number, (stream_name, ax) in enumerate(stream_axes.items(), start=1):
            by_read = data["figures"][stream_name]
            for name in PARSERS:
                points = [(size, by_read[size][name]) for size in sizes if by_read[size][name] is not None]
                ax.plot([x for x, _ in points], [f[0] for _, f in points], label=name, **_STYLE[name])
            ax.set(
                xscale="log",
                yscale="log",
                xlabel="read size (bytes)",
                ylabel="MB/s",
                title=f"{number}. {stream_name}",
            )
            ax.minorticks_off()
            ax.set_xticks(sizes, [_read_label(size) for size in sizes])
            ax.legend(fontsize=7)
        for stream_name in workloads.STREAMS:
            by_read = data["figures"][stream_name]
            ratios = [by_read[size][REFERENCE][1] for size in sizes]
            buys_ax.plot(sizes, ratios, marker="o", label=stream_name)
        buys_ax.set(
            xscale="log",
            xlabel="read size (bytes)",
            ylabel="reference time / SSEParser time",
            title=f"{streams + 3}. What the fast path buys",
        )
        buys_ax.axhline(1.0, color="grey", linewidth=0.8)
        buys_ax.minorticks_off()
        buys_ax.set_xticks(sizes, [_read_label(size) for size in sizes])
        buys_ax.legend(fontsize=7)
    else:
        buys_ax.set_axis_off()
        for ax in stream_axes.values():
            ax.text(0.5, 0.5, "throughput: not run", ha="center", va="center", transform=ax.transAxes)
            ax.set_axis_off()
    if "long_event" in ran:
        data = ran["long_event"].data
        small, large = data["sizes"]
        names = list(PARSERS)
        width = 0.38
        for offset, size in ((-width / 2, small), (width / 2, large)):
            bars = long_ax.bar(
                [i + offset for i in range(len(names))],
                [data["per_byte"][(name, size)] for name in names],
                width=width,
                label=f"{human_bytes(size)} line",
            )
            long_ax.bar_label(bars, fmt="%.0f", fontsize=7)
        long_ax.set_xticks(range(len(names)), names, fontsize=7, rotation=20)
        long_ax.set(yscale="log", ylabel="ns per byte", title=f"{streams + 1}. One long line: flat = linear")
        long_ax.legend(fontsize=8)
    else:
        long_ax.text(0.5, 0.5, "long_event: not run", ha="center", va="center", transform=long_ax.transAxes)
        long_ax.set_axis_off()
    if "pipeline" in ran:
        figures = ran["pipeline"].data["figures"]
        sizes = list(figures)
        pipeline_ax.plot(sizes, [figures[s][0] for s in sizes], label="lesson_lib consume", **_STYLE[LESSON])
        pipeline_ax.plot(sizes, [figures[s][1] for s in sizes], label="openai SDK Stream", **_STYLE["openai"])
        pipeline_ax.set(
            xscale="log",
            yscale="log",
            xlabel="read size (bytes)",
            ylabel="MB/s",
            title=f"{streams + 2}. Whole pipeline: consume against the openai SDK",
        )
        pipeline_ax.minorticks_off()
        pipeline_ax.set_xticks(sizes, [_read_label(size) for size in sizes])
        pipeline_ax.legend(fontsize=8)
    else:
        pipeline_ax.text(
            0.5, 0.5, "pipeline: not run", ha="center", va="center", transform=pipeline_ax.transAxes
        )
        pipeline_ax.set_axis_off()
    fig.suptitle(
        "lesson_lib (SSEParser through feed_each, as each peer loops over the reads) against the SSE parsers"
        " people use" + (" (quick run)" if quick else "")
    )
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
