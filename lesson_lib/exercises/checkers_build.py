"""The build-it exercise: the learner writes a line splitter and an event assembler; these check them.

Both are compared with ``lesson_lib`` as the reference, feed by feed: the same outputs must come out of
the same ``feed()`` call, for every chunking of a hidden corpus (every two-piece split, one-character or
one-byte reads, seeded random partitions, empty reads), plus named one-read cases for the rules.

First, one-character (or one-byte) reads tell whether the class streams at all: a class that gives
nothing out of ``feed()`` until the input ends, then everything at once, gets the right results the slow
way, and is told that collecting all the input and processing it once at the end is not streaming.
"""

from __future__ import annotations

from typing import Any

from lesson_lib.chunking import one_byte_chunks
from lesson_lib.decoding import IncrementalUTF8Decoder
from lesson_lib.lines import LineSplitter
from lesson_lib.sse import ReferenceSSEParser

from . import Result
from .checkers_core import (
    NotAttempted,
    Observed,
    classify_cut,
    classify_text_cut,
    count_summary,
    failure_result,
    first_difference,
    not_attempted,
    observe,
    short,
    sweep,
)

# -- the hidden corpora --------------------------------------------------------------------------------

SPLITTER_TEXT = (
    "data: 你好\r\n"
    "data: Ångström\u2028naïve\r"
    "\r\n"
    ": ping 🙂\x85\x0c\x0b\x1cend\r"
    "id: 7\n"
    "\n"
    "data: 完成\r\n"
    "\r"
)

SPLITTER_CASES = [
    ("LF endings", "a\nb\n"),
    ("CR endings", "a\rb\r"),
    ("CRLF endings", "a\r\nb\r\n"),
    ("a CR and then a CRLF (two line endings)", "a\r\r\nb\n"),
    ("blank lines", "\n\r\n\ra\n"),
    ("U+2028, U+0085, FF, VT and U+001C inside a line (data, not endings)", "a\u2028b\x85c\x0cd\x0be\x1cf\n"),
    ("Chinese and emoji", "你好🙂\n完成\r\n"),
]

ASSEMBLER_CASES = [
    ("one event", "data: 你好\n\n"),
    ("two data lines in one event", "data: a\ndata: b\n\n"),
    ("a comment line", ": ping\ndata: x\n\n"),
    ("a field with no colon", "data\n\n"),
    ("one space after the colon is removed, and only one", "data:  two\ndata:none\n\n"),
    ("a colon inside the value", "data: a: b\n\n"),
    ("an event type lasts for one event", "event: delta\ndata: a\n\ndata: b\n\n"),
    ("a blank line with no data dispatches nothing", "event: ping\n\ndata: x\n\n"),
    ("an id lasts across events", "id: 7\ndata: a\n\ndata: b\n\n"),
    ("an empty id resets it", "id: 7\ndata: a\n\nid\ndata: b\n\n"),
    ("an id containing U+0000 is ignored", "id: 7\ndata: a\n\nid: 8\x009\ndata: b\n\n"),
    ("an id before a blank line with no data still counts", "id: 5\n\ndata: x\n\n"),
    ("retry and unknown fields are not data", "retry: 3000\ncolour: blue\ndata: x\n\n"),
    ("field names are case-sensitive", "Data: no\ndata: yes\n\n"),
    ("the stream ends before the blank line", "data: a\n\ndata: b\n"),
]

STREAM = (
    "event: delta\r\n"
    "id: 1\r\n"
    "data: 你好\r\n"
    "data: 🙂\r\n"
    "\r\n"
    ": keep-alive\n"
    "\n"
    "event: ping\n"
    "\n"
    "retry: 3000\r"
    "data:Ångström\r"
    "data:  naïve\r"
    "\r"
    "id\n"
    "data: 完成\n"
    "\n"
    "id: 9\x000\n"
    "Data: no\n"
    "data: last\n"
    "\n"
    "data: pending\n"
).encode()

#: The pipeline's corpus also ends inside a line, which the line splitter's close() must report.
PIPELINE_STREAM = STREAM + "data: cut 🙂".encode()


class ShapeError(Exception):
    """The learner's method returned something of the wrong shape (not a list, not events)."""


# -- the line splitter ---------------------------------------------------------------------------------


def _splitter_outputs(splitter: Any, pieces: list[str]) -> list[list[str]]:
    outputs = []
    for piece in pieces:
        lines = splitter.feed(piece)
        if not isinstance(lines, list):
            raise ShapeError(f"feed() returned {short(lines)}; it must return a list of lines")
        outputs.append(lines)
    return outputs


def _reference_lines(pieces: list[str]) -> list[list[str]]:
    splitter = LineSplitter(max_line_chars=None)
    return [*_splitter_outputs(splitter, pieces), splitter.close()]


def _compare_feeds(observed: Observed, truth: list[list[Any]], what: str) -> str | None:
    """Compare outputs feed by feed: first their content, then which feed each one came out of."""
    if isinstance(observed.error, ShapeError):
        return str(observed.error)
    if observed.raised:
        return f"your code {observed.describe()}"
    got = observed.value
    flat_got = [item for out in got for item in out]
    flat_truth = [item for out in truth for item in out]
    if flat_got != flat_truth:
        return f"the {what} differ {first_difference(flat_got, flat_truth)}"
    if got != truth:

        def where(outputs: list[list[Any]], index: int) -> int:
            seen = 0
            for number, out in enumerate(outputs):
                seen += len(out)
                if seen > index:
                    return number
            return len(outputs)

        index = next(i for i in range(len(flat_got)) if where(got, i) != where(truth, i))
        came, due = where(got, index), where(truth, index)
        def name(number: int) -> str:
            return "close()" if number == len(truth) - 1 else f"feed() number {number + 1}"

        return (
            f"TIMING: the {what} are right, but {what[:-1]} {index} ({short(flat_truth[index], 40)}) came "
            f"out of {name(came)} instead of {name(due)}"
        )
    return None


SPLITTER_HINTS = {
    "whole": "even in one feed the lines differ: only CR, LF and CRLF end a line.",
    "crlf": "a read ended between a CR and its LF. A CRLF cut in two is still one line ending: what must "
    "survive from the end of one feed() to the start of the next?",
    "line": "a read ended inside a line. Where does the unfinished part wait for its ending?",
    "empty": "an empty read changed the result. An empty read carries nothing and must change nothing, "
    "not even what you remembered about the read before.",
}
SPLITTER_TIMING = (
    "each line must come out of the feed() that completes its ending. A CR completes a line at once, "
    "before anyone knows whether an LF follows."
)


def check_line_splitter(splitter_class: Any) -> Result:
    key = "build_it.line_splitter"
    if not isinstance(splitter_class, type):
        return Result(key, False, f"pass the class itself, MyLineSplitter, not {short(splitter_class)}.")
    try:
        return _check_line_splitter(key, splitter_class)
    except NotAttempted:
        return not_attempted(key, "MyLineSplitter")


def _check_line_splitter(key: str, cls: type) -> Result:
    def run(pieces: list[str]) -> Observed:
        def go() -> list[list[str]]:
            splitter = cls()
            outputs = _splitter_outputs(splitter, pieces)
            tail = splitter.close()
            if not isinstance(tail, list):
                raise ShapeError(f"close() returned {short(tail)}; it must return a list (empty here)")
            return [*outputs, tail]

        return observe(go)

    pieces = list(SPLITTER_TEXT)
    late = _not_streaming(key, run(pieces), _reference_lines(pieces), "with one-character reads", "lines")
    if late is not None:
        return late
    for name, text in SPLITTER_CASES:
        mismatch = _compare_feeds(run([text]), _reference_lines([text]), "lines")
        if mismatch is not None:
            return _case_failure(key, name, f"{short(text)} in one feed", mismatch, SPLITTER_TIMING)

    failure, counts = sweep(
        SPLITTER_TEXT,
        run,
        _reference_lines,
        lambda observed, truth: _compare_feeds(observed, truth, "lines"),
        lambda cut: classify_text_cut(SPLITTER_TEXT, cut),
        empty_reads=True,
    )
    if failure is not None:
        return _report(key, failure, SPLITTER_HINTS, SPLITTER_TIMING, "character")
    ended = observe(lambda: _close_after(cls, "a\nunfinished"))
    if not ended.raised:
        return Result(
            key,
            False,
            f"after feed('a\\nunfinished'), close() {ended.describe()} instead of raising. Hint: the input "
            "ended inside a line; an unfinished line is not a line, and close() is where you can say so.",
        )
    ended = observe(lambda: _close_after(cls, "a\r"))
    if ended.raised or ended.value != []:
        return Result(
            key,
            False,
            f"after feed('a\\r'), close() {ended.describe()}; it should return []. Hint: a CR on its own is "
            "a whole line ending, so nothing is left unfinished.",
        )
    cases = len(SPLITTER_CASES) + 2
    return Result(key, True, f"passed {cases} named cases and {count_summary(counts, 'character')}.")


def _close_after(cls: type, text: str) -> Any:
    splitter = cls()
    splitter.feed(text)
    return splitter.close()


def _case_failure(key: str, name: str, what: str, mismatch: str, timing: str) -> Result:
    hint = f" Hint: {timing}" if mismatch.startswith("TIMING: ") else ""
    return Result(key, False, f"in the case '{name}', {what}: {_untag(mismatch)}.{hint}")


def _untag(mismatch: str) -> str:
    return mismatch.removeprefix("TIMING: ")


def _first_output(outputs: list[list[Any]]) -> int | None:
    return next((number for number, out in enumerate(outputs) if out), None)


def _collects_everything(observed: Observed, truth: list[list[Any]]) -> bool:
    """True when nothing came out before the input ended (all of it from the last feed() or close()),
    while the reference gave some of it out earlier: the input was collected and processed once."""
    if observed.raised or not isinstance(observed.value, list) or len(observed.value) != len(truth):
        return False
    first, due = _first_output(observed.value), _first_output(truth)
    return first is not None and due is not None and first >= len(truth) - 2 and due < len(truth) - 2


def _not_streaming(
    key: str, observed: Observed, truth: list[list[Any]], reads: str, what: str
) -> Result | None:
    """The report for code that collects all its input and processes it once at the end, or None."""
    if not _collects_everything(observed, truth):
        return None
    return Result(
        key,
        False,
        f"not streaming: {reads}, nothing came out of feed() until the input ended, then all the {what} at "
        f"once. Collecting all the input and processing it once at the end gives the right {what}, but it "
        f"is not streaming: a reader sees nothing until the stream is over (a chat window stays blank, then "
        f"fills at once), and memory grows with the whole stream. Hint: each of the {what} must come out of "
        "the feed() that completes it; what must you keep between feeds, and what can you give out now?",
    )


def _report(key: str, failure: Any, hints: dict[str, str], timing: str, unit: str) -> Result:
    if failure.mismatch.startswith("TIMING: "):
        failure.mismatch = _untag(failure.mismatch)
        hints, default = {}, timing
    else:
        default = "compare what your code keeps between feed() calls with what lesson_lib keeps."
    return failure_result(key, failure, hints, default, unit)


# -- the event assembler -------------------------------------------------------------------------------


def _event_tuples(events: Any, method: str) -> list[tuple[str, str, str]]:
    if not isinstance(events, list):
        raise ShapeError(f"{method} returned {short(events)}; it must return a list of events")
    out = []
    for event in events:
        try:
            out.append((event.type, event.data, event.last_event_id))
        except AttributeError:
            raise ShapeError(
                f"{method} returned {short(event)} in its list; events are Event(type, data, last_event_id)"
            ) from None
    return out


def _reference_events(pieces: list[bytes]) -> list[list[tuple[str, str, str]]]:
    parser = ReferenceSSEParser(max_line_chars=None, max_event_chars=None)
    outputs = [_event_tuples(parser.feed(piece), "feed()") for piece in pieces]
    return [*outputs, _event_tuples(parser.close(), "close()")]


def _assemble(assembler: Any, pieces: list[bytes], splitter: Any = None) -> list[list[tuple[str, str, str]]]:
    """lesson_lib's decoder, a line splitter (lesson_lib's unless given), then the learner's assembler."""
    decoder = IncrementalUTF8Decoder()
    lines = splitter if splitter is not None else LineSplitter(max_line_chars=None)
    outputs = []
    for piece in pieces:
        complete = lines.feed(decoder.feed(piece))
        if not isinstance(complete, list):
            raise ShapeError(f"the line splitter's feed() returned {short(complete)}; it must return a list")
        outputs.append(_event_tuples(assembler.feed(complete), "feed()"))
    decoder.close()
    if splitter is None:
        lines.discard()  # the SSE rule: a line cut off by the end of the stream is dropped
    else:
        try:
            tail = splitter.close()
        except Exception:  # the learner's close() reports the unfinished line: the stream ended inside it
            tail = []
        if tail:
            outputs[-1] = outputs[-1] + _event_tuples(assembler.feed(tail), "feed()")
    return [*outputs, _event_tuples(assembler.close(), "close()")]


def _classify_event_cut(data: bytes, cut: int) -> str:
    """For the assembler, only events matter: is the cut inside an event, or between two?"""
    parser = ReferenceSSEParser(max_line_chars=None, max_event_chars=None)
    parser.feed(data[:cut])
    return "inside-event" if parser.has_pending_event or parser.pending_line else "between-events"


ASSEMBLER_HINTS = {
    "whole": "even in one read the events differ: go through the rules above one at a time.",
    "inside-event": "a read ended inside an event, so its lines arrived in different feed() calls. The "
    "fields of the event so far must survive from one feed() to the next.",
    "in-event": "a read ended between two lines of one event. The fields of the event so far must survive "
    "from one feed() to the next.",
    "between-events": "a read ended between two events. What does your assembler keep from one event to "
    "the next, and what must it forget?",
    "empty": "an empty read (so feed([])) changed the events. An empty list of lines must change nothing.",
}
ASSEMBLER_TIMING = "an event must come out of the feed() that delivers its blank line, not later."


def check_event_assembler(assembler_class: Any) -> Result:
    key = "build_it.event_assembler"
    if not isinstance(assembler_class, type):
        return Result(key, False, f"pass the class itself, MyEventAssembler, not {short(assembler_class)}.")
    try:
        return _check_event_assembler(key, assembler_class)
    except NotAttempted:
        return not_attempted(key, "MyEventAssembler")


def _check_event_assembler(key: str, cls: type) -> Result:
    pieces = one_byte_chunks(STREAM)
    observed = observe(lambda: _assemble(cls(), pieces))
    late = _not_streaming(key, observed, _reference_events(pieces), "with one-byte reads", "events")
    if late is not None:
        return late
    for name, text in ASSEMBLER_CASES:
        body = text.encode()
        observed = observe(lambda body=body: _assemble(cls(), [body]))
        mismatch = _compare_feeds(observed, _reference_events([body]), "events")
        if mismatch is not None:
            return _case_failure(key, name, f"{short(text)} in one read", mismatch, ASSEMBLER_TIMING)

    failure, counts = sweep(
        STREAM,
        lambda pieces: observe(lambda: _assemble(cls(), pieces)),
        _reference_events,
        lambda observed, truth: _compare_feeds(observed, truth, "events"),
        lambda cut: _classify_event_cut(STREAM, cut),
        empty_reads=True,
    )
    if failure is not None:
        return _report(key, failure, ASSEMBLER_HINTS, ASSEMBLER_TIMING, "byte")
    return Result(key, True, f"passed {len(ASSEMBLER_CASES)} named cases and {count_summary(counts)}.")


# -- both together -------------------------------------------------------------------------------------


def check_pipeline(splitter_class: Any, assembler_class: Any) -> Result:
    key = "build_it.pipeline"
    for name, cls in (("MyLineSplitter", splitter_class), ("MyEventAssembler", assembler_class)):
        if not isinstance(cls, type):
            return Result(key, False, f"pass the classes themselves; {name} is {short(cls)}.")
    try:
        pieces = one_byte_chunks(STREAM)
        observed = observe(lambda: _assemble(assembler_class(), pieces, splitter_class()))
        late = _not_streaming(key, observed, _reference_events(pieces), "with one-byte reads", "events")
        if late is not None:
            return late
        failure, counts = sweep(
            PIPELINE_STREAM,
            lambda pieces: observe(lambda: _assemble(assembler_class(), pieces, splitter_class())),
            _reference_events,
            lambda observed, truth: _compare_feeds(observed, truth, "events"),
            lambda cut: classify_cut(PIPELINE_STREAM, cut, "sse"),
            empty_reads=True,
        )
    except NotAttempted:
        return not_attempted(key, "MyLineSplitter or MyEventAssembler")
    if failure is not None:
        hints = {**SPLITTER_HINTS, **ASSEMBLER_HINTS}
        return _report(key, failure, hints, ASSEMBLER_TIMING, "byte")
    return Result(
        key,
        True,
        f"your splitter and assembler, behind lesson_lib's decoder, give ReferenceSSEParser's events feed by "
        f"feed in {count_summary(counts)}: together they are an SSE parser.",
    )

