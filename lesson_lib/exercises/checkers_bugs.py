"""The bug hunt: ten functions, each with one streaming bug, and a checker for each fix.

Bugs 8 and 9 (an async generator abandoned without ``aclosing``; a progress timeout that counts heartbeats)
are checked in :mod:`.checkers_async`; bug 10 (a gateway that splits each read on its own) in
:mod:`.checkers_relay`.

Each checker runs the learner's fixed function on a hidden corpus (Chinese, accented Latin, emoji, CR, LF
and CRLF) in every chunking of :mod:`.checkers_core`, plus the end-of-stream cases that bug is about, and
compares with ``lesson_lib``. A failure names the kind of cut or case that broke the function and asks a
question; it never shows the fix. The hint answers the real fault: a decoder that replaces invalid bytes
is told about U+FFFD (the invalid byte is tried before the end of input), and only a decoder that is never
told the input ended is asked what would tell it.

Bugs 1, 2, 3 and 6 are streaming exercises: the learner's function is a generator, and its checker
hands over the reads one at a time and rejects a piece of text, line, value or record that comes out later
than the read that completed it (:mod:`.checkers_stream`), so a fix that joins every read and processes
the whole at the end, or returns a finished list, is told that it waits. Bug 4 (the end of the stream
taken for success) and bug 5 (cleanup) return one verdict on the whole stream: whether the answer is
final is known only at its end, so nothing there can come out earlier, and they are not timed. Bug 7 is
the same kind (:mod:`.checkers_values` says why).

Bug 3 yields JSON values, and JSON ignores the whitespace ``strip()`` removes and the line break between
two data lines, most of the time; so its checker adds events where the data rules show: data lines that
run together into one value (``1`` and ``2``) and characters next to the value that are not JSON
whitespace (U+3000, U+00A0), whose data is not JSON, so parsing must fail. ASCII spaces at the ends of a
data line cannot show through a JSON value at all; the build-it assembler, whose output is the data string,
is checked on them. Bug 5 also runs a cancellation (a ``BaseException`` from a read), and the checkers
keep the learner's error while they count the closes, so that a traceback cannot let reference counting
close the response.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Iterator
from typing import Any

from lesson_lib.core.chunking import split_at
from lesson_lib.core.completion import consume
from lesson_lib.core.decoding import incremental_decode
from lesson_lib.core.lines import LineSplitter
from lesson_lib.core.ndjson import parse_ndjson
from lesson_lib.core.sse import parse_sse

from ..i18n import text
from . import Result
from .checkers_async import check_abandoned, check_heartbeat_clock
from .checkers_core import (
    NotAttempted,
    Observed,
    as_list,
    classify_cut,
    compare_value,
    count_summary,
    describe_error,
    failure_result,
    not_attempted,
    observe,
    short,
    sweep,
)
from .checkers_relay import check_relay_split
from .checkers_stream import (
    LATE_TAG,
    Timed,
    characters_due,
    events_due,
    first_late,
    lines_due,
    records_due,
    run_timed,
)
from .checkers_values import check_tool_args

# -- the hidden corpora --------------------------------------------------------------------------------

TEXT = "你好，世界！Café au lait, naïve Ångström façade.\r\n第二行：🙂 🚀 👩‍💻 ß€𝄞 done.\rend\n".encode()

LINES = (
    'data: {"text":"你好\u2028世界"}\r\n'
    'data: {"text":"Ångström\x85naïve"}\n'
    "\r\n"
    ": ping\r"
    "data: 🙂 🚀\x0cform\x0bfeed\x1cend\r\n"
    "\r"
    "data: 完成\n"
    "\n"
).encode()

EVENTS = (
    "event: delta\r\n"
    'data: {"text":\r\n'
    'data:  "你好，"}\r\n'
    "\r\n"
    ": keep-alive\n"
    "\n"
    "event: ping\n"
    "\n"
    'data:{"text": "Ångström 🙂",\n'
    'data: "n": 2}\n'
    "\n"
    "id: 7\r"
    'data: {"text": "完成"}\r'
    "\r"
).encode()

_CHAT_CONTENT = ["你好", "！Café ", "au lait 🙂", " 第二行", "：完成。"]


def _chat_event(chunk: dict[str, Any]) -> bytes:
    return b"data: " + json.dumps(chunk, ensure_ascii=False, separators=(",", ":")).encode() + b"\n\n"


def chat_stream(content: list[str], finish: bool = True, done: bool = True) -> bytes:
    base = {"id": "chatcmpl-7Qx", "object": "chat.completion.chunk", "model": "gpt-fiction"}
    parts = [_chat_event({**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]})]
    parts.append(b": keep-alive\n\n")
    for piece in content:
        parts.append(_chat_event({**base, "choices": [{"index": 0, "delta": {"content": piece}}]}))
    if finish:
        parts.append(_chat_event({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}))
    if done:
        parts.append(b"data: [DONE]\n\n")
    return b"".join(parts)


CHAT = chat_stream(_CHAT_CONTENT)
CHAT_TEXT = "".join(_CHAT_CONTENT)

MAX_LINE_BYTES = 64


def _ndjson_line(content: str, done: bool = False) -> bytes:
    value = {"message": {"content": content}, "done": done}
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def _line_of_exactly(size: int, start: str) -> bytes:
    """An NDJSON line whose JSON is exactly ``size`` bytes long (its LF not counted)."""
    padding = size - len(_ndjson_line(start)) + 1
    line = _ndjson_line(start + "!" * padding)
    assert len(line) - 1 == size, len(line)
    return line


RECORDS = b"".join(
    [
        _ndjson_line("你好"),
        _ndjson_line("Ångström 🙂"),
        _line_of_exactly(MAX_LINE_BYTES, "完成"),
        _ndjson_line("ok", done=True),
    ]
)


def _truth_lines(pieces: list[bytes]) -> list[str]:
    splitter = LineSplitter(max_line_chars=None)
    lines = splitter.feed(incremental_decode(pieces))
    splitter.discard()
    return lines


# -- one sweep, reported -------------------------------------------------------------------------------


def _sweep_result(
    key: str,
    data: bytes,
    run: Callable[[list[bytes]], Observed],
    truth: Callable[[list[bytes]], Any],
    framing: str,
    hints: dict[str, str],
    default: str,
    compare: Callable[[Observed, Any], str | None] = compare_value,
) -> tuple[Result | None, dict[str, int]]:
    failure, counts = sweep(data, run, truth, compare, lambda cut: classify_cut(data, cut, framing))
    if failure is not None:
        return failure_result(key, failure, hints, default), counts
    return None, counts


def _streamed_result(
    key: str,
    bug: str,
    data: bytes,
    function: Callable[..., Any],
    truth: Callable[[list[bytes]], Any],
    due: Callable[[list[bytes]], list[int]],
    framing: str,
    hints: dict[str, str],
    default: str,
    *,
    joined: bool = False,
    **keywords: Any,
) -> tuple[Result | None, dict[str, int]]:
    """Sweep a streaming exercise: the values must be the truth, and each unit must come out no later
    than the read that completed it (:mod:`.checkers_stream`). ``joined`` means the units are text pieces
    whose join is the value, timed character by character."""
    name = FUNCTION_NAMES[bug]

    def run(pieces: list[bytes]) -> Observed:
        return observe(lambda: run_timed(function, pieces, **keywords))

    def compare(observed: Observed, pieces: list[bytes]) -> str | None:
        if observed.raised:
            return compare_value(observed, None)
        timed: Timed = observed.value
        if timed.items is None:
            return compare_value(Observed(timed.raw), truth(pieces))
        items = timed.items
        is_text = joined and all(isinstance(item, str) for item in items)
        mismatch = compare_value(Observed("".join(items) if is_text else items), truth(pieces))
        if mismatch is not None:
            return mismatch
        units, taken = items, timed.taken
        if is_text:
            units = [char for item in items for char in item]
            taken = [out for item, out in zip(items, timed.taken, strict=True) for _ in item]
        return first_late(bug, name, units, taken, due(pieces), timed.returned)

    failure, counts = sweep(
        data, run, lambda pieces: pieces, compare, lambda cut: classify_cut(data, cut, framing)
    )
    if failure is None:
        return None, counts
    if failure.mismatch.startswith(LATE_TAG):
        failure.mismatch = failure.mismatch.removeprefix(LATE_TAG)
        hints, default = {}, text(f"checkers.stream.hint.late.{bug}")
    return failure_result(key, failure, hints, default), counts


# -- 1. decoding each read on its own ------------------------------------------------------------------


def check_decode(key: str, function: Callable[..., Any]) -> Result:
    hints = {
        "whole": text("checkers.bugs.decode.hint.whole"),
        "character": text("checkers.bugs.decode.hint.character"),
    }
    default = text("checkers.bugs.decode.hint.default")
    truth = TEXT.decode("utf-8")
    result, counts = _streamed_result(
        key, "decode", TEXT, function, lambda _: truth, characters_due, "text", hints, default, joined=True
    )
    if result is not None:
        return result
    # The invalid byte first: a decoder that replaces is told so, before anything about the end of input.
    bad = TEXT[:20] + b"\xff" + TEXT[20:]
    observed = observe(lambda: _text_of(function([bad[:7], bad[7:]])))
    if not isinstance(observed.error, UnicodeDecodeError):
        hint = _hidden_loss(observed)
        message = text("checkers.bugs.decode.invalid_byte", did=observed.describe(), hint=hint)
        return Result(key, False, message)
    cut_char = TEXT[: TEXT.index("🙂".encode()) + 2]
    observed = observe(lambda: _text_of(function([cut_char[:-1], cut_char[-1:]])))
    if not isinstance(observed.error, UnicodeDecodeError):
        if _replaced(observed):
            hint = text("checkers.bugs.decode.hint.replaced_at_end")
        else:
            hint = text("checkers.bugs.decode.hint.never_told")
        message = text("checkers.bugs.decode.cut_character", did=observed.describe(), hint=hint)
        return Result(key, False, message)
    return Result(key, True, text("checkers.bugs.decode.passed", summary=count_summary(counts)))


def _text_of(value: Any) -> Any:
    """The learner's text: a str, or the pieces of it from a generator (a right variant), joined."""
    value = as_list(value)
    if isinstance(value, list) and all(isinstance(piece, str) for piece in value):
        return "".join(value)
    return value


def _replaced(observed: Observed) -> bool:
    return isinstance(observed.value, str) and "\ufffd" in observed.value


def _hidden_loss(observed: Observed) -> str:
    """Why returning text for invalid bytes is worse than raising, for what the function did with them."""
    if _replaced(observed):
        return text("checkers.bugs.decode.hint.replaced")
    if observed.raised:
        return text("checkers.bugs.decode.hint.other_error")
    return text("checkers.bugs.decode.hint.vanished")


# -- 2. splitlines() -----------------------------------------------------------------------------------


def check_lines(key: str, function: Callable[..., Any]) -> Result:
    hints = {
        "whole": text("checkers.bugs.splitlines.hint.whole"),
        "crlf": text("checkers.bugs.splitlines.hint.crlf"),
        "line": text("checkers.bugs.splitlines.hint.line"),
        "character": text("checkers.bugs.splitlines.hint.character"),
    }
    default = text("checkers.bugs.splitlines.hint.default")
    result, counts = _streamed_result(
        key, "splitlines", LINES, function, _truth_lines, lines_due, "lines", hints, default
    )
    if result is not None:
        return result
    cases = [
        (text("checkers.bugs.splitlines.case.no_ending"), b"data: a\r\ndata: \xe5\xae\x8c", ["data: a"]),
        (text("checkers.bugs.splitlines.case.lone_cr"), b"data: a\ndata: b\r", ["data: a", "data: b"]),
    ]
    for name, body, expected in cases:
        for pieces in ([body], [body[:-1], body[-1:]]):

            def split(pieces: list[bytes] = pieces) -> Any:
                return as_list(function(pieces))

            observed = observe(split)
            mismatch = compare_value(observed, expected)
            if mismatch is not None:
                message = text("checkers.bugs.splitlines.unended", case=name, mismatch=mismatch)
                return Result(key, False, message)
    return Result(key, True, text("checkers.bugs.splitlines.passed", summary=count_summary(counts)))


# -- 3. parsing before the blank line ------------------------------------------------------------------


def _truth_values(pieces: list[bytes]) -> list[Any]:
    return [json.loads(event.data) for event in parse_sse(pieces)]


def check_events(key: str, function: Callable[..., Any]) -> Result:
    hints = {
        "whole": text("checkers.bugs.blank_line.hint.whole"),
        "in-event": text("checkers.bugs.blank_line.hint.in_event"),
    }
    default = text("checkers.bugs.blank_line.hint.default")
    result, counts = _streamed_result(
        key, "blank_line", EVENTS, function, _truth_values, events_due, "sse", hints, default
    )
    if result is not None:
        return result
    cut = EVENTS[: EVENTS.rindex(b"\r")]  # the last event's blank line never arrives
    observed = observe(lambda: as_list(function([cut])))
    mismatch = compare_value(observed, _truth_values([cut]))
    if mismatch is not None:
        return Result(key, False, text("checkers.bugs.blank_line.unfinished", mismatch=mismatch))
    for name, body in DATA_RULE_CASES:
        case = text(f"checkers.bugs.blank_line.case.{name}")

        def parse(body: bytes = body) -> Any:
            return as_list(function(split_at(body, [len(body) // 2])))

        observed = observe(parse)
        try:
            truth = _truth_values([body])
        except ValueError:  # this event's data is not one JSON value: parsing it must fail
            if not observed.raised:
                hint = text(f"checkers.bugs.blank_line.hint.{name}")
                did = observed.describe()
                message = text("checkers.bugs.blank_line.not_json", case=case, did=did, hint=hint)
                return Result(key, False, message)
            continue
        mismatch = compare_value(observed, truth)
        if mismatch is not None:
            message = text("checkers.bugs.blank_line.rule_case", case=case, mismatch=mismatch)
            return Result(key, False, message)
    n = len(DATA_RULE_CASES)
    message = text("checkers.bugs.blank_line.passed_rules", summary=count_summary(counts), n=n)
    return Result(key, True, message)


#: Events where the SSE data rules show through JSON: with the lines run together, or with more removed
#: than the one space after the colon, an event whose data is not JSON would parse. Each is named by
#: ``checkers.bugs.blank_line.case.<name>``; those whose data is not JSON must make the function raise.
DATA_RULE_CASES = [
    ("lines_run_together", b"data: 1\ndata: 2\n\n"),
    ("words_run_together", b"data: tr\ndata: ue\n\n"),
    ("wide_space_at_end", 'data: ["你好"]\u3000\n\n'.encode()),
    ("no_break_space_first", 'data:\u00a0{"a": "é"}\n\n'.encode()),
    ("no_space_no_colon", 'data:[1,\ndata\ndata:"🙂"]\n\n'.encode()),
]


# -- 4. end of stream taken for success ----------------------------------------------------------------


def _chat_truncations() -> list[tuple[str, bytes]]:
    full = CHAT
    before_finish = chat_stream(_CHAT_CONTENT, finish=False, done=False)
    before_done = chat_stream(_CHAT_CONTENT, done=False)
    early = chat_stream(_CHAT_CONTENT[:2], finish=False, done=False)
    return [
        (text("checkers.bugs.eof.where.early"), early),
        (text("checkers.bugs.eof.where.before_finish"), before_finish),
        (text("checkers.bugs.eof.where.before_done"), before_done),
        (text("checkers.bugs.eof.where.before_blank_line"), full[:-1]),
        (text("checkers.bugs.eof.where.inside_data_line"), full[:-4]),
        (text("checkers.bugs.eof.where.inside_json"), before_done[:-30]),
    ]


def _chat_truth(pieces: list[bytes]) -> str:
    """The text of the finished chat stream: what consume() calls final (checked once, in the tests)."""
    return CHAT_TEXT


def chat_final_text() -> str | None:
    """lesson_lib's verdict on the hidden chat stream, for the tests: its final text."""
    return consume([CHAT], "openai-chat").final_text


def check_eof(key: str, function: Callable[..., Any]) -> Result:
    """Bug 4: the text of a finished stream, or an exception. Not timed: its point is the whole-stream
    verdict (only the service's last event says the answer is final), so the text cannot leave earlier."""
    hints = {"whole": text("checkers.bugs.eof.hint.whole")}
    default = text("checkers.bugs.eof.hint.default")

    result, counts = _sweep_result(
        key, CHAT, lambda pieces: observe(lambda: function(pieces)), _chat_truth, "sse", hints, default
    )
    if result is not None:
        return result
    for where, body in _chat_truncations():

        def read(body: bytes = body) -> Any:
            return function([body])

        observed = observe(read)
        if not observed.raised:
            message = text("checkers.bugs.eof.stopped", where=where, did=observed.describe())
            return Result(key, False, message)
    message = text("checkers.bugs.eof.passed", summary=count_summary(counts), n=len(_chat_truncations()))
    return Result(key, True, message)


# -- 5. no cleanup on every path -----------------------------------------------------------------------


class ReadCancelled(BaseException):
    """A read cancelled under the reader: a ``BaseException``, not an ``Exception``, as
    ``KeyboardInterrupt`` and ``asyncio.CancelledError`` are."""


class FakeResponse:
    """An HTTP response stand-in: ``iter_bytes()`` yields the reads (and may raise ``error``, by default
    a ``ConnectionResetError``, before read ``fail_after``), ``close()`` counts."""

    def __init__(
        self, pieces: list[bytes], fail_after: int | None = None, error: BaseException | None = None
    ) -> None:
        self._pieces = pieces
        self._fail_after = fail_after
        self._error = error
        self.closes = 0

    def iter_bytes(self) -> Iterator[bytes]:
        for number, piece in enumerate(self._pieces):
            if number == self._fail_after:
                raise self._error or ConnectionResetError("connection reset by peer")
            yield piece

    def close(self) -> None:
        self.closes += 1

    def __repr__(self) -> str:
        return f"<FakeResponse: {len(self._pieces)} reads>"


def _cleanup_paths() -> list[tuple[str, list[bytes], int | None, BaseException | None]]:
    content = list(_CHAT_CONTENT)
    invalid = CHAT.replace("第二行".encode(), b"\xff\xfe", 1)
    malformed = CHAT.replace(b'{"content":"au', b'{"content:"au', 1)
    reads = [CHAT[i : i + 40] for i in range(0, len(CHAT), 40)]
    return [
        (text("checkers.bugs.cleanup.path.closes_early"), [chat_stream(content, done=False)], None, None),
        (text("checkers.bugs.cleanup.path.invalid_utf8"), [invalid], None, None),
        (text("checkers.bugs.cleanup.path.malformed_json"), [malformed], None, None),
        (text("checkers.bugs.cleanup.path.network_fails"), reads, len(reads) // 2, None),
        (text("checkers.bugs.cleanup.path.cancelled"), reads, len(reads) // 3, ReadCancelled()),
    ]


#: Marks a mismatch about how often the response was closed (removed before the learner reads it).
_CLOSES_TAG = "CLOSES: "


def check_cleanup(key: str, function: Callable[..., Any]) -> Result:
    hints = {"whole": text("checkers.bugs.cleanup.hint.whole")}
    default = text("checkers.bugs.cleanup.hint.default")

    def run(pieces: list[bytes]) -> Observed:
        response = FakeResponse(pieces)
        observed = observe(lambda: function(response))
        return Observed((observed.value, response.closes), observed.error)

    def compare(observed: Observed, truth: Any) -> str | None:
        if observed.raised:
            return text("checkers.bugs.your_function", did=observed.describe())
        answer, closes = observed.value
        if answer != CHAT_TEXT:
            return compare_value(Observed(answer), CHAT_TEXT)
        if closes != 1:
            return _CLOSES_TAG + text("checkers.bugs.cleanup.closed_times", closes=closes)
        return None

    failure, counts = sweep(CHAT, run, lambda _: None, compare, lambda cut: classify_cut(CHAT, cut, "sse"))
    if failure is not None:
        if failure.mismatch.startswith(_CLOSES_TAG):
            failure.mismatch = failure.mismatch.removeprefix(_CLOSES_TAG)
            hints = {"whole": text("checkers.bugs.cleanup.hint.close_once")}
            default = text("checkers.bugs.cleanup.hint.close_once")
        return failure_result(key, failure, hints, default)
    for name, pieces, fail_after, error in _cleanup_paths():
        response = FakeResponse(pieces, fail_after, error)

        def read_response(response: FakeResponse = response) -> Any:
            return function(response)

        observed = observe(read_response)
        raised = observed.error
        if raised is None:
            message = text("checkers.bugs.cleanup.did_not_raise", case=name, did=observed.describe())
            return Result(key, False, message)
        if response.closes == 0:  # the error is still held here: a traceback cannot let refcounting close it
            described = describe_error(raised)
            if isinstance(raised, ReadCancelled):
                message = text("checkers.bugs.cleanup.never_closed_cancelled", case=name, error=described)
            else:
                message = text("checkers.bugs.cleanup.never_closed", case=name, error=described)
            return Result(key, False, message)
        if response.closes > 1:
            hint = text("checkers.bugs.cleanup.hint.close_once")
            message = text("checkers.bugs.cleanup.closed_often", case=name, closes=response.closes, hint=hint)
            return Result(key, False, message)
    message = text("checkers.bugs.cleanup.passed", summary=count_summary(counts), n=len(_cleanup_paths()))
    return Result(key, True, message)


# -- 6. an unbounded buffer ----------------------------------------------------------------------------


def _endless_line(prefix: bytes, read_size: int, limit: int, pulled: list[int]) -> Iterator[bytes]:
    """``prefix``, then one line that never ends, in reads of ``read_size``; stops after ``limit`` bytes."""
    body = prefix + b'{"message":{"content":"'
    for start in range(0, len(body), read_size):
        pulled[0] += len(body[start : start + read_size])
        yield body[start : start + read_size]
    while pulled[0] < limit:
        pulled[0] += read_size
        yield "é".encode() * (read_size // 2)


def check_bound(key: str, function: Callable[..., Any]) -> Result:
    bound = MAX_LINE_BYTES
    default = text("checkers.bugs.bound.hint.default", bound=bound)

    def run(pieces: Any) -> Observed:
        return observe(lambda: as_list(function(pieces, max_line_bytes=bound)))

    hints = {"whole": text("checkers.bugs.bound.hint.whole", bound=bound)}
    result, counts = _streamed_result(
        key,
        "bound",
        RECORDS,
        function,
        parse_ndjson,
        records_due,
        "lines",
        hints,
        default,
        max_line_bytes=bound,
    )
    if result is not None:
        return result
    prefix = _ndjson_line("你好") + _ndjson_line("🙂")
    long_line = prefix + _line_of_exactly(bound + 1, "Ångström")
    observed = run([long_line])
    if not observed.raised:
        message = text("checkers.bugs.bound.long_line", size=bound + 1, bound=bound, did=observed.describe())
        return Result(key, False, message)
    read_size, source_size = 16, 64 * 1024
    pulled = [0]
    observed = run(_endless_line(prefix, read_size, source_size, pulled))
    allowed = len(prefix) + bound + read_size
    if not observed.raised or pulled[0] > allowed:
        fields = {"read_size": read_size, "pulled": pulled[0], "bound": bound, "allowed": allowed}
        if not observed.raised:
            return Result(key, False, text("checkers.bugs.bound.endless_returned", **fields))
        return Result(key, False, text("checkers.bugs.bound.endless_raised", **fields))
    return Result(key, True, text("checkers.bugs.bound.passed", summary=count_summary(counts)))


BUGS: dict[str, Callable[[str, Callable[..., Any]], Result]] = {
    "decode": check_decode,
    "splitlines": check_lines,
    "blank_line": check_events,
    "eof": check_eof,
    "cleanup": check_cleanup,
    "bound": check_bound,
    "tool_args": check_tool_args,
    "aclosing": check_abandoned,
    "heartbeat_clock": check_heartbeat_clock,
    "relay_split": check_relay_split,
}

FUNCTION_NAMES = {
    "decode": "decode_reads",
    "splitlines": "read_lines",
    "blank_line": "parse_events",
    "eof": "answer_text",
    "cleanup": "collect",
    "bound": "read_records",
    "tool_args": "tool_calls",
    "aclosing": "first_words",
    "heartbeat_clock": "stalled_at",
    "relay_split": "relay_events",
}


#: How each checker calls the learner's function: the positional arguments' names, then keywords.
CALLS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "decode": (("reads",), ()),
    "splitlines": (("reads",), ()),
    "blank_line": (("reads",), ()),
    "eof": (("reads",), ()),
    "cleanup": (("response",), ()),
    "bound": (("reads",), ("max_line_bytes",)),
    "tool_args": (("reads",), ()),
    "aclosing": (("response", "n"), ()),
    "heartbeat_clock": (("arrivals", "progress_timeout"), ()),
    "relay_split": (("reads",), ()),
}


def _wrong_signature(name: str, function: Callable[..., Any]) -> str | None:
    """A hint when the checker cannot call ``function`` the way the exercise says, else None."""
    positional, keywords = CALLS[name]
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # a builtin or an object whose signature Python cannot tell
        return None
    try:
        signature.bind(*positional, **{word: None for word in keywords})
    except TypeError:
        call = ", ".join([*positional, *(f"{word}=..." for word in keywords)])
        return text("checkers.bugs.wrong_signature", name=FUNCTION_NAMES[name], call=call, got=f"{signature}")
    return None


def check_bug(name: str, function: Callable[..., Any]) -> Result:
    """Check the learner's fix for the bug-hunt exercise ``name`` (see :data:`BUGS`)."""
    key = f"bug_hunt.{name}"
    if name not in BUGS:
        raise KeyError(f"no bug-hunt exercise {name!r}; known: {', '.join(BUGS)}")
    if not callable(function):
        message = text("checkers.bugs.not_a_function", name=FUNCTION_NAMES[name], got=short(function))
        return Result(key, False, message)
    wrong = _wrong_signature(name, function)
    if wrong is not None:
        return Result(key, False, wrong)
    try:
        return BUGS[name](key, function)
    except NotAttempted:
        return not_attempted(key, f"{FUNCTION_NAMES[name]}()")
