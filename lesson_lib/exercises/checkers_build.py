"""The build-it exercise: the learner writes a line splitter and an event assembler; these check them.

Both are compared with ``lesson_lib`` as the reference, feed by feed: the same outputs must come out of
the same ``feed()`` call, for every chunking of a hidden corpus (every two-piece split, one-character or
one-byte reads, seeded random partitions, empty reads), plus named one-read cases for the rules.

First, one-character (or one-byte) reads tell whether the class streams at all: a class that gives
nothing out of ``feed()`` until the input ends, then everything at once, gets the right results the slow
way, and is told that collecting all the input and processing it once at the end is not streaming.

The assembler's cases put every field where the standard allows it: ``id``, ``event``, ``retry`` and
comments before, between and after the data lines, and values whose spaces, tabs and empty lines are kept.

Last, the line splitter's cost: a long line fed one character at a time, then in 7-character pieces, must
not make the class touch more than :data:`COST_PER_CHARACTER` characters per character fed. The count is
made by :mod:`.checkers_meter` (the pieces are a ``str`` subclass that counts), so it is the same on every
machine, however loaded; that module says what the meter cannot see.
"""

from __future__ import annotations

import inspect
from typing import Any

from lesson_lib.core.chunking import one_byte_chunks
from lesson_lib.core.decoding import IncrementalUTF8Decoder
from lesson_lib.core.lines import LineSplitter
from lesson_lib.core.sse import ReferenceSSEParser

from ..i18n import text
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
from .checkers_meter import Meter, metered

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

#: Named one-read cases; each name is described to the learner by ``checkers.build.splitter_case.<name>``.
SPLITTER_CASES = [
    ("lf", "a\nb\n"),
    ("cr", "a\rb\r"),
    ("crlf", "a\r\nb\r\n"),
    ("cr_then_crlf", "a\r\r\nb\n"),
    ("blank_lines", "\n\r\n\ra\n"),
    ("not_endings", "a\u2028b\x85c\x0cd\x0be\x1cf\n"),
    ("chinese_and_emoji", "你好🙂\n完成\r\n"),
]

#: Named one-read cases; each name is described to the learner by ``checkers.build.assembler_case.<name>``.
ASSEMBLER_CASES = [
    ("one_event", "data: 你好\n\n"),
    ("two_data_lines", "data: a\ndata: b\n\n"),
    ("comment", ": ping\ndata: x\n\n"),
    ("no_colon", "data\n\n"),
    ("one_space", "data:  two\ndata:none\n\n"),
    ("colon_in_value", "data: a: b\n\n"),
    ("type_lasts_one_event", "event: delta\ndata: a\n\ndata: b\n\n"),
    ("blank_without_data", "event: ping\n\ndata: x\n\n"),
    ("id_lasts", "id: 7\ndata: a\n\ndata: b\n\n"),
    ("empty_id_resets", "id: 7\ndata: a\n\nid\ndata: b\n\n"),
    ("id_with_nul", "id: 7\ndata: a\n\nid: 8\x009\ndata: b\n\n"),
    ("id_without_data", "id: 5\n\ndata: x\n\n"),
    ("retry_and_unknown", "retry: 3000\ncolour: blue\ndata: x\n\n"),
    ("case_sensitive", "Data: no\ndata: yes\n\n"),
    ("ends_before_blank_line", "data: a\n\ndata: b\n"),
    # every field order the spec allows: a field may come before, between or after the data lines
    ("id_after_data", "data: 你好\nid: 3\n\n"),
    ("event_after_data", "data: a\nevent: delta\n\n"),
    ("fields_between_data", "data: a\nid: 4\nretry: 10\n: ping\nevent: x\ndata: b\n\n"),
    # the only character removed is one U+0020 after the colon: other spaces, tabs and ends are kept
    ("spaces_kept", "data: a \ndata:\tb\ndata:  c \n\n"),
    ("empty_data_lines", "data\ndata:\ndata: x\n\n"),
    ("not_line_endings", "data: a\u2028b\x85c\x0cd\x0be\n\n"),
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
    "data:  naïve\u2028\x85\x0c\r"
    "\r"
    "id\n"
    "data: 完成\n"
    "\n"
    "id: 9\x000\n"
    "Data: no\n"
    "data: last\n"
    "\n"
    "data: 🙂 \r\n"
    "id: 12\r\n"
    ": between\r\n"
    "data\r\n"
    "event: late\r\n"
    "data:\tend\r\n"
    "\r\n"
    "data: pending\n"
).encode()

#: The pipeline's corpus also ends inside a line, which the line splitter's close() must report.
PIPELINE_STREAM = STREAM + "data: cut 🙂".encode()


def wrong_methods(cls: type, name: str, fed: str) -> Result | None:
    """A hint when ``cls()``, ``feed(x)`` or ``close()`` cannot be called as the exercise says, else None."""
    methods = (("__init__", (), f"{name}()"), ("feed", (None,), f"feed({fed})"), ("close", (), "close()"))
    for method, args, call in methods:
        function = getattr(cls, method, None)
        if function is None:
            return Result("", False, text("checkers.build.missing_method", name=name, method=method))
        try:
            signature = inspect.signature(function)
        except (TypeError, ValueError):  # a builtin (object.__init__): nothing to tell
            continue
        try:
            signature.bind(None, *args)
        except TypeError:
            message = text("checkers.build.wrong_method", name=name, call=call, got=f"{signature}")
            return Result("", False, message)
    return None


class ShapeError(Exception):
    """The learner's method returned something of the wrong shape (not a list, not events)."""


# -- the line splitter ---------------------------------------------------------------------------------


def _splitter_outputs(splitter: Any, pieces: list[str]) -> list[list[str]]:
    outputs = []
    for piece in pieces:
        lines = splitter.feed(piece)
        if not isinstance(lines, list):
            raise ShapeError(text("checkers.build.shape.feed_lines", got=short(lines)))
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
        return text("checkers.build.your_code", did=observed.describe())
    got = observed.value
    flat_got = [item for out in got for item in out]
    flat_truth = [item for out in truth for item in out]
    if flat_got != flat_truth:
        return text(f"checkers.build.output_{what}.differ", difference=first_difference(flat_got, flat_truth))
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
            if number == len(truth) - 1:
                return text("checkers.build.close_call")
            return text("checkers.build.feed_number", number=number + 1)

        item = short(flat_truth[index], 40)
        return "TIMING: " + text(
            f"checkers.build.output_{what}.timing", index=index, item=item, came=name(came), due=name(due)
        )
    return None


def splitter_hints() -> dict[str, str]:
    """The line splitter's hint for each kind of cut, in the current language."""
    return {
        "whole": text("checkers.build.splitter_hint.whole"),
        "crlf": text("checkers.build.splitter_hint.crlf"),
        "line": text("checkers.build.splitter_hint.line"),
        "empty": text("checkers.build.splitter_hint.empty"),
    }


def splitter_timing() -> str:
    return text("checkers.build.splitter_timing")


def check_line_splitter(splitter_class: Any) -> Result:
    key = "build_it.line_splitter"
    if not isinstance(splitter_class, type):
        message = text("checkers.build.pass_the_class", name="MyLineSplitter", got=short(splitter_class))
        return Result(key, False, message)
    wrong = wrong_methods(splitter_class, "MyLineSplitter", "text")
    if wrong is not None:
        return Result(key, False, wrong.message)
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
                raise ShapeError(text("checkers.build.shape.close_list", got=short(tail)))
            return [*outputs, tail]

        return observe(go)

    pieces = list(SPLITTER_TEXT)
    reads = text("checkers.build.reads.one_character")
    late = _not_streaming(key, run(pieces), _reference_lines(pieces), reads, "lines")
    if late is not None:
        return late
    for name, body in SPLITTER_CASES:
        mismatch = _compare_feeds(run([body]), _reference_lines([body]), "lines")
        if mismatch is not None:
            case = text(f"checkers.build.splitter_case.{name}")
            what = text("checkers.build.in_one_feed", text=short(body))
            return _case_failure(key, case, what, mismatch, splitter_timing())

    failure, counts = sweep(
        SPLITTER_TEXT,
        run,
        _reference_lines,
        lambda observed, truth: _compare_feeds(observed, truth, "lines"),
        lambda cut: classify_text_cut(SPLITTER_TEXT, cut),
        empty_reads=True,
    )
    if failure is not None:
        return _report(key, failure, splitter_hints(), splitter_timing(), "character")
    ended = observe(lambda: _close_after(cls, "a\nunfinished"))
    if not ended.raised:
        return Result(key, False, text("checkers.build.close_unfinished", did=ended.describe()))
    ended = observe(lambda: _close_after(cls, "a\r"))
    if ended.raised or ended.value != []:
        return Result(key, False, text("checkers.build.close_after_cr", did=ended.describe()))
    costly = _splitter_cost(key, cls)
    if costly is not None:
        return costly
    cases = len(SPLITTER_CASES) + 2
    summary = count_summary(counts, "character")
    return Result(key, True, text("checkers.build.passed_linear", cases=cases, summary=summary))


#: The long line of the cost check, and the bound: characters touched per character fed.
COST_LINE = "你好，Ångström naïve 🙂 第二行 façade " * 90
COST_PER_CHARACTER = 16


def cost_pieces(meter: Meter) -> list[str]:
    """The cost check's input: :data:`COST_LINE` one character at a time, a CRLF cut in two, then the line
    again in 7-character pieces and an LF; every piece a :class:`~.checkers_meter.MeteredStr`."""
    pieces = [*COST_LINE, "\r", "\n"]
    pieces += [COST_LINE[i : i + 7] for i in range(0, len(COST_LINE), 7)] + ["\n"]
    return [metered(piece, meter) for piece in pieces]


def _splitter_cost(key: str, cls: type) -> Result | None:
    """Whether the class's work stays linear on a long line fed in small pieces (see checkers_meter)."""
    meter = Meter()
    pieces = cost_pieces(meter)
    size = sum(len(piece) for piece in pieces)

    def go() -> list[str]:
        splitter = cls()
        lines = [line for out in _splitter_outputs(splitter, pieces) for line in out]
        tail = splitter.close()
        return lines + (tail if isinstance(tail, list) else [])

    observed = observe(go)
    if observed.raised or observed.value != [COST_LINE, COST_LINE]:
        did = observed.describe() if observed.raised else first_difference(observed.value, [COST_LINE] * 2)
        return Result(key, False, text("checkers.build.cost_wrong", n=len(COST_LINE), did=did))
    if meter.touched > COST_PER_CHARACTER * size:
        fields = {"touched": meter.touched, "size": size, "n": len(COST_LINE), "ratio": meter.touched // size}
        return Result(key, False, text("checkers.build.cost_quadratic", **fields))
    return None


def _close_after(cls: type, text: str) -> Any:
    splitter = cls()
    splitter.feed(text)
    return splitter.close()


def _case_failure(key: str, name: str, what: str, mismatch: str, timing: str) -> Result:
    fields = {"case": name, "what": what, "mismatch": _untag(mismatch)}
    if mismatch.startswith("TIMING: "):
        message = text("checkers.build.case_timing", hint=timing, **fields)
    else:
        message = text("checkers.build.case", **fields)
    return Result(key, False, message)


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
    return Result(key, False, text(f"checkers.build.output_{what}.not_streaming", reads=reads))


def _report(key: str, failure: Any, hints: dict[str, str], timing: str, unit: str) -> Result:
    if failure.mismatch.startswith("TIMING: "):
        failure.mismatch = _untag(failure.mismatch)
        hints, default = {}, timing
    else:
        default = text("checkers.build.hint.default")
    return failure_result(key, failure, hints, default, unit)


# -- the event assembler -------------------------------------------------------------------------------


def _event_tuples(events: Any, method: str) -> list[tuple[str, str, str]]:
    if not isinstance(events, list):
        raise ShapeError(text("checkers.build.shape.events_list", method=method, got=short(events)))
    out = []
    for event in events:
        try:
            out.append((event.type, event.data, event.last_event_id))
        except AttributeError:
            message = text("checkers.build.shape.not_event", method=method, got=short(event))
            raise ShapeError(message) from None
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
            raise ShapeError(text("checkers.build.shape.splitter_feed", got=short(complete)))
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


def assembler_hints() -> dict[str, str]:
    """The event assembler's hint for each kind of cut, in the current language."""
    return {
        "whole": text("checkers.build.assembler_hint.whole"),
        "inside-event": text("checkers.build.assembler_hint.inside_event"),
        "in-event": text("checkers.build.assembler_hint.in_event"),
        "between-events": text("checkers.build.assembler_hint.between_events"),
        "empty": text("checkers.build.assembler_hint.empty"),
    }


def assembler_timing() -> str:
    return text("checkers.build.assembler_timing")


def check_event_assembler(assembler_class: Any) -> Result:
    key = "build_it.event_assembler"
    if not isinstance(assembler_class, type):
        message = text("checkers.build.pass_the_class", name="MyEventAssembler", got=short(assembler_class))
        return Result(key, False, message)
    wrong = wrong_methods(assembler_class, "MyEventAssembler", "lines")
    if wrong is not None:
        return Result(key, False, wrong.message)
    try:
        return _check_event_assembler(key, assembler_class)
    except NotAttempted:
        return not_attempted(key, "MyEventAssembler")


def _check_event_assembler(key: str, cls: type) -> Result:
    pieces = one_byte_chunks(STREAM)
    observed = observe(lambda: _assemble(cls(), pieces))
    reads = text("checkers.build.reads.one_byte")
    late = _not_streaming(key, observed, _reference_events(pieces), reads, "events")
    if late is not None:
        return late
    for name, case_text in ASSEMBLER_CASES:
        body = case_text.encode()

        def assemble(body: bytes = body) -> list[list[tuple[str, str, str]]]:
            return _assemble(cls(), [body])

        observed = observe(assemble)
        mismatch = _compare_feeds(observed, _reference_events([body]), "events")
        if mismatch is not None:
            case = text(f"checkers.build.assembler_case.{name}")
            what = text("checkers.build.in_one_read", text=short(case_text))
            return _case_failure(key, case, what, mismatch, assembler_timing())

    failure, counts = sweep(
        STREAM,
        lambda pieces: observe(lambda: _assemble(cls(), pieces)),
        _reference_events,
        lambda observed, truth: _compare_feeds(observed, truth, "events"),
        lambda cut: _classify_event_cut(STREAM, cut),
        empty_reads=True,
    )
    if failure is not None:
        return _report(key, failure, assembler_hints(), assembler_timing(), "byte")
    message = text("checkers.build.passed", cases=len(ASSEMBLER_CASES), summary=count_summary(counts))
    return Result(key, True, message)


# -- both together -------------------------------------------------------------------------------------


def check_pipeline(splitter_class: Any, assembler_class: Any) -> Result:
    key = "build_it.pipeline"
    for name, cls in (("MyLineSplitter", splitter_class), ("MyEventAssembler", assembler_class)):
        if not isinstance(cls, type):
            return Result(key, False, text("checkers.build.pass_the_classes", name=name, got=short(cls)))
        wrong = wrong_methods(cls, name, "text" if name == "MyLineSplitter" else "lines")
        if wrong is not None:
            return Result(key, False, wrong.message)
    try:
        pieces = one_byte_chunks(STREAM)
        observed = observe(lambda: _assemble(assembler_class(), pieces, splitter_class()))
        reads = text("checkers.build.reads.one_byte")
        late = _not_streaming(key, observed, _reference_events(pieces), reads, "events")
        if late is not None:
            return late
        for name, case_text in ASSEMBLER_CASES:  # the named cases first, through both classes
            body = case_text.encode()

            def assemble(body: bytes = body) -> list[list[tuple[str, str, str]]]:
                return _assemble(assembler_class(), [body], splitter_class())

            observed = observe(assemble)
            mismatch = _compare_feeds(observed, _reference_events([body]), "events")
            if mismatch is not None:
                case = text(f"checkers.build.assembler_case.{name}")
                what = text("checkers.build.in_one_read", text=short(case_text))
                return _case_failure(key, case, what, mismatch, assembler_timing())
        failure, counts = sweep(
            PIPELINE_STREAM,
            lambda pieces: observe(lambda: _assemble(assembler_class(), pieces, splitter_class())),
            _reference_events,
            lambda observed, truth: _compare_feeds(observed, truth, "events"),
            lambda cut: classify_cut(PIPELINE_STREAM, cut, "sse"),
            empty_reads=True,
        )
    except NotAttempted:
        either = text("checkers.build.either_class", first="MyLineSplitter", second="MyEventAssembler")
        return not_attempted(key, either)
    if failure is not None:
        hints = {**splitter_hints(), **assembler_hints()}
        return _report(key, failure, hints, assembler_timing(), "byte")
    return Result(key, True, text("checkers.build.pipeline_passed", summary=count_summary(counts)))

