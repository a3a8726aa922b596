"""The exercise checkers: each accepts the reference solution, rejects the unsolved stub, and rejects
plausible wrong answers with a hint that names the kind of cut, never the fix.

The reference solutions and the stubs are taken from the notebooks themselves: the code cells of each
solution notebook and of its learner copy are executed here, so a solution that stops passing its own
checker fails this file, not only nbval.
"""

from __future__ import annotations

import ast
import asyncio
import codecs
import contextlib
import functools
import inspect
import json
import re
from pathlib import Path
from typing import Any

import nbformat
import pytest

from lesson_lib import Event, parse_sse
from lesson_lib.exercises.checkers import (
    BUGS,
    CHALLENGES,
    check_bug,
    check_cuts,
    check_event_assembler,
    check_line_splitter,
    check_pipeline,
)
from lesson_lib.exercises.checkers_bugs import CHAT_TEXT, FUNCTION_NAMES, chat_final_text
from lesson_lib.exercises.checkers_core import chunkings, classify_cut, shrink
from lesson_lib.i18n import get_language, set_language

EXERCISES = Path(__file__).resolve().parents[2] / "notebooks" / "exercises"

#: Words that would give a fix away; no hint may contain them.
ANSWER_WORDS = ("final=True", "finally", "try:", "getincrementaldecoder", "after_cr", "+ 1]", "index(")


@functools.cache
def namespace(name: str, solution: bool = True) -> dict[str, Any]:
    """Execute the code cells of an exercise notebook (solution or learner copy) and return its names."""
    path = EXERCISES / "solutions" / name if solution else EXERCISES / name
    names: dict[str, Any] = {"__name__": f"exercise_{path.stem}"}
    language = get_language()  # the notebook's first cell sets its own; the caller's stays
    try:
        _run_cells(path, names)
    finally:
        set_language(language)
    return names


def _run_cells(path: Path, names: dict[str, Any]) -> None:
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "code":
            code = "\n".join(line for line in cell.source.splitlines() if not line.lstrip().startswith("%"))
            compiled = compile(code, str(path.name), "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
            if (
                compiled.co_flags & inspect.CO_COROUTINE
            ):  # a cell with a top-level await, as ipykernel runs it
                asyncio.run(eval(compiled, names))
            else:
                exec(compiled, names)


def assert_rejected(result, *phrases: str) -> None:
    assert not result.correct, result
    assert "not attempted" not in result.message, result
    for phrase in phrases:
        assert phrase in result.message, (phrase, result.message)
    for word in ANSWER_WORDS:
        assert word not in result.message, (word, result.message)


# -- the bug hunt ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_bug_hunt_accepts_the_reference_fix(bug):
    fix = namespace("bug_hunt.ipynb")[FUNCTION_NAMES[bug]]
    result = check_bug(bug, fix)
    assert result.correct, result
    assert "passed" in result.message


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_bug_hunt_rejects_the_unsolved_stub(bug):
    stub = namespace("bug_hunt.ipynb", solution=False)[FUNCTION_NAMES[bug]]
    result = check_bug(bug, stub)
    assert not result.correct
    assert "not attempted yet" in result.message


@pytest.mark.parametrize("bug", sorted(BUGS))
def test_bug_hunt_rejects_the_buggy_original(bug):
    buggy = namespace("bug_hunt.ipynb")["buggy_" + FUNCTION_NAMES[bug]]
    assert_rejected(check_bug(bug, buggy))


def _lines_of(reads):
    return namespace("bug_hunt.ipynb")["lines_of"](reads)


def _events_of(reads):
    return namespace("bug_hunt.ipynb")["events_of"](reads)


# Bugs 1, 2, 3 and 6 are streaming exercises: their wrong fixes are generators, as the exercise asks.


def decode_without_final(reads):
    decoder = codecs.getincrementaldecoder("utf-8")()
    for read in reads:
        yield decoder.decode(read)


def decode_each_read_strictly(reads):
    for read in reads:
        yield read.decode("utf-8")


def decode_replacing_incrementally(reads):
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    for read in reads:
        yield decoder.decode(read)
    yield decoder.decode(b"", final=True)


def decode_holding_across_one_read_only(reads):
    """Keeps held bytes across one read boundary, loses them across two: only many cuts show it."""
    held = b""
    for read in reads:
        data = held + read
        text, used = codecs.utf_8_decode(data, "strict", False)
        held = data[used:] if not held else b""
        yield text


def lines_forgetting_a_cr(reads):
    decoder = codecs.getincrementaldecoder("utf-8")()
    tail = ""
    for read in reads:
        *complete, tail = re.split(r"\r\n|\r|\n", tail + decoder.decode(read))
        yield from complete


def lines_of_each_read_alone(reads):
    decoder = codecs.getincrementaldecoder("utf-8")()
    for read in reads:
        yield from re.split(r"\r\n|\r|\n", decoder.decode(read))[:-1]


def lines_keeping_the_unfinished_last(reads):
    seen = []

    def kept(reads):
        for read in reads:
            seen.append(read)
            yield read

    yield from namespace("bug_hunt.ipynb")["read_lines"](kept(reads))
    last = re.split(r"\r\n|\r|\n", b"".join(seen).decode())[-1]
    if last:
        yield last


def events_dispatched_at_eof(reads):
    data = []
    for line in _lines_of(reads):
        if line == "":
            if data:
                yield json.loads("\n".join(data))
            data = []
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
    if data:
        yield json.loads("\n".join(data))


def events_dispatched_without_data(reads):
    data = []
    for line in _lines_of(reads):
        if line == "":
            yield json.loads("\n".join(data))
            data = []
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))


def answer_after_finish_reason(reads):
    parts, finished = [], False
    for event in _events_of(reads):
        if event.data == "[DONE]":
            break
        choice = json.loads(event.data)["choices"][0]
        parts.append(choice["delta"].get("content") or "")
        finished = finished or choice.get("finish_reason") is not None
    if not finished:
        raise EOFError("no finish_reason")
    return "".join(parts)


def collect_closing_twice(response):
    try:
        return namespace("bug_hunt.ipynb")["buggy_collect"](response)
    except Exception:
        response.close()
        raise


def collect_closing_on_success_only(response):
    text = namespace("bug_hunt.ipynb")["answer_text"](response.iter_bytes())
    response.close()
    return text


def records_checking_complete_lines_only(reads, max_line_bytes=64):
    buffer = b""
    for read in reads:
        buffer += read
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            if len(line) > max_line_bytes:
                raise ValueError("too long")
            yield json.loads(line)


def records_bounding_the_read(reads, max_line_bytes=64):
    buffer = b""
    for read in reads:
        buffer += read
        if len(buffer) > max_line_bytes:
            raise ValueError("too long")
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            yield json.loads(line)


def records_off_by_one(reads, max_line_bytes=64):
    return namespace("bug_hunt.ipynb")["read_records"](reads, max_line_bytes - 1)


async def first_words_returning_inside_the_loop(response, n):
    text = ""
    async for piece in namespace("bug_hunt.ipynb")["text_pieces"](response):
        text += piece
        if len(text) >= n:
            return text[:n]
    return text[:n]


async def first_words_closing_twice(response, n):
    text = await namespace("bug_hunt.ipynb")["first_words"](response, n)
    await response.aclose()
    return text


def stalled_at_strictly_after_the_limit(arrivals, progress_timeout):
    last = 0.0
    for seconds, event in arrivals:
        if seconds - last > progress_timeout:
            return last + progress_timeout
        if event.type != "ping":
            last = seconds
    return None


def stalled_counting_only_text_deltas(arrivals, progress_timeout):
    last = 0.0
    for seconds, event in arrivals:
        if seconds - last >= progress_timeout:
            return last + progress_timeout
        if event.type == "content_block_delta":
            last = seconds
    return None
def tool_calls_at_end_of_stream(reads):
    """Joins the fragments and parses once, but takes the end of the stream for the close."""
    fixed = namespace("bug_hunt.ipynb")["tool_calls"]
    reads = list(reads)
    if b"[DONE]" in b"".join(reads):
        return fixed(reads)
    return fixed([*reads, b"\n\ndata: [DONE]\n\n"])


def tool_calls_closed_by_done_alone(reads):
    """Joins the fragments and parses once, but closes the calls on [DONE] whatever the finish reason."""
    calls, done = {}, False
    for event in parse_sse(reads):
        if event.data == "[DONE]":
            done = True
            break
        for entry in json.loads(event.data)["choices"][0]["delta"].get("tool_calls") or []:
            _, parts = calls.setdefault(entry["index"], (entry["function"].get("name"), []))
            parts.append(entry["function"].get("arguments") or "")
    if not done:
        raise ValueError("the stream did not close its tool calls")
    return [(name, json.loads("".join(parts))) for name, parts in calls.values()]


def tool_calls_parsed_at_each_event_as_a_prefix(reads):
    """Parses the joined text after every event and keeps the last success: a prefix can parse."""
    calls, done = {}, False
    for event in parse_sse(reads):
        if event.data == "[DONE]":
            done = True
            break
        for entry in json.loads(event.data)["choices"][0]["delta"].get("tool_calls") or []:
            call = calls.setdefault(entry["index"], [entry["function"].get("name"), "", None])
            call[1] += entry["function"].get("arguments") or ""
            with contextlib.suppress(json.JSONDecodeError):
                call[2] = json.loads(call[1])
    if not done and not all(call[2] is not None for call in calls.values()):
        raise ValueError("open")
    return [(name, value) for name, _, value in calls.values()]


def _gateway_frame(data: str) -> bytes:
    if data == "[DONE]":
        return b"data: [DONE]\n\n"
    chunk = json.loads(data)
    chunk["model"] = "gateway-model"
    return b"data: " + json.dumps(chunk, ensure_ascii=False).encode() + b"\n\n"


# the gateway streams: its wrong fixes are generators, kept with the corpus
from .wrong_solutions.bug_hunt import (  # noqa: E402
    relay_buffering_text_decoded_per_read,
    relay_forwarding_the_half_event_at_the_end,
)

WRONG_FIXES = [
    ("decode", decode_without_final, ["stopped in the middle of a character"]),
    ("decode", decode_each_read_strictly, ["two reads cut at byte 1", "inside a multi-byte UTF-8 character"]),
    ("decode", decode_replacing_incrementally, ["instead of raising UnicodeDecodeError"]),
    ("decode", decode_holding_across_one_read_only, ["one-byte reads", "inside a multi-byte UTF-8"]),
    ("splitlines", lines_forgetting_a_cr, ["between a CR and the LF after it"]),
    ("splitlines", lines_of_each_read_alone, ["inside a line"]),
    ("splitlines", lines_keeping_the_unfinished_last, ["last line has no ending"]),
    ("blank_line", events_dispatched_at_eof, ["before the last event's blank line"]),
    ("blank_line", events_dispatched_without_data, ["whole stream in one read", "JSONDecodeError"]),
    ("eof", answer_after_finish_reason, ["after the chunk with finish_reason"]),
    ("cleanup", collect_closing_twice, ["closed 2 times"]),
    ("cleanup", collect_closing_on_success_only, ["never closed"]),
    ("bound", records_checking_complete_lines_only, ["a line that never ends"]),
    ("bound", records_bounding_the_read, ["whole stream in one read", "per line, not per read"]),
    ("bound", records_off_by_one, ["exactly as long as the bound"]),
    ("aclosing", first_words_returning_inside_the_loop, ["still open when your function returned"]),
    ("aclosing", first_words_closing_twice, ["closed 2 times"]),
    ("heartbeat_clock", stalled_at_strictly_after_the_limit, ["exactly at the limit", "very moment"]),
    ("heartbeat_clock", stalled_counting_only_text_deltas, ["kept progressing"]),
    ("tool_args", tool_calls_at_end_of_stream, ["before data: [DONE]"]),
    ("tool_args", tool_calls_closed_by_done_alone, ["finish_reason 'length'", "what does finish_reason"]),
    ("relay_split", relay_forwarding_the_half_event_at_the_end, ["stopped inside its next-to-last event"]),
    ("relay_split", relay_buffering_text_decoded_per_read, ["inside a multi-byte UTF-8 character"]),
    ("tool_args", tool_calls_parsed_at_each_event_as_a_prefix, ["before data: [DONE]", "as if the calls"]),
]


@pytest.mark.parametrize(("bug", "fix", "phrases"), WRONG_FIXES, ids=[f.__name__ for _, f, _ in WRONG_FIXES])
def test_bug_hunt_rejects_plausible_wrong_fixes(bug, fix, phrases):
    assert_rejected(check_bug(bug, fix), *phrases)


def test_every_tool_args_truncation_leaves_lesson_lib_s_calls_open():
    """The checker's streams that must raise are streams lesson_lib does not close (the length one too)."""
    from lesson_lib.core.completion import consume
    from lesson_lib.exercises.checkers_values import _truncations

    wheres = [where for where, _ in _truncations()]
    assert any("'length'" in where for where in wheres)
    for where, body in _truncations():
        calls = consume([body], "openai-chat").tool_calls
        assert calls and not any(call.complete for call in calls), where


def test_every_bug_has_at_least_one_plausible_wrong_fix():
    assert {bug for bug, _, _ in WRONG_FIXES} == set(BUGS)


def test_a_failure_found_with_many_cuts_is_shrunk_to_a_few():
    message = check_bug("decode", decode_holding_across_one_read_only).message
    assert "it still fails with only 2 of those cuts" in message


def test_reports_are_deterministic():
    for bug, fix, _ in WRONG_FIXES:
        assert check_bug(bug, fix).message == check_bug(bug, fix).message


def test_the_hidden_chat_stream_is_complete_by_lesson_lib():
    assert chat_final_text() == CHAT_TEXT


def test_check_bug_refuses_what_is_not_a_function():
    result = check_bug("decode", "decode_reads")
    assert not result.correct and "pass your function itself" in result.message
    with pytest.raises(KeyError):
        check_bug("no such bug", decode_without_final)


# -- the adversarial cuts --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CHALLENGES))
def test_adversarial_accepts_the_reference_cuts(name):
    cuts = namespace("adversarial_cuts.ipynb")[f"{name}_cuts"]
    result = check_cuts(name, cuts)
    assert result.correct, result


@pytest.mark.parametrize("name", sorted(CHALLENGES))
def test_adversarial_rejects_the_unsolved_stub(name):
    cuts = namespace("adversarial_cuts.ipynb", solution=False)[f"{name}_cuts"]
    assert cuts is ...
    result = check_cuts(name, cuts)
    assert not result.correct and "not attempted yet" in result.message


@pytest.mark.parametrize("name", sorted(CHALLENGES))
def test_adversarial_lesson_lib_gets_every_single_cut_right_and_some_break_the_naive_client(name):
    challenge = CHALLENGES[name]
    truth = challenge.right([challenge.body])
    breaking = []
    for _, pieces in ((c.cuts, c.pieces) for c in chunkings(challenge.body) if c.kind == "two-piece"):
        assert challenge.right(pieces) == truth
        breaking.append(challenge.naive(pieces) != truth)
    assert any(breaking) and not all(breaking)


WRONG_CUTS = [
    ("character", [3], ["between two characters", "still gives the truth"]),
    ("character", [1, 12], ["exactly one cut", "you gave 2 distinct cuts."]),
    ("event", [29, 62, 85], ["one or two cuts", "you gave 3 distinct cuts."]),
    ("line", [47], ["between a CR and the LF after it", "Try another CRLF"]),
    ("line", [31], ["inside a line", "two characters long"]),
    ("event", [28], ["between two lines of one event", "still gives the truth"]),
    ("event", [62], ["between two events"]),
    ("event", [27], ["does not fall just after an LF"]),
    ("completion", [5], ["inside a line", "still gives the truth"]),
    ("completion", 585, ["a list of byte offsets"]),
    ("completion", [0], ["outside 0 < cut <"]),
    ("completion", ["585"], ["whole numbers"]),
]


@pytest.mark.parametrize(("name", "cuts", "phrases"), WRONG_CUTS)
def test_adversarial_rejects_wrong_cuts(name, cuts, phrases):
    assert_rejected(check_cuts(name, cuts), *phrases)


def test_every_challenge_has_a_wrong_answer():
    assert {name for name, _, _ in WRONG_CUTS} == set(CHALLENGES)


def test_cut_kinds():
    body = "a\r\n你\n\ndata: x\n".encode()
    kinds = [classify_cut(body, cut, "sse") for cut in range(1, len(body))]
    assert kinds[:5] == ["line", "crlf", "in-event", "character", "character"]
    assert "between-events" in kinds


def test_shrink_is_greedy_and_deterministic():
    assert shrink((1, 2, 3, 4), lambda cuts: 2 in cuts and 4 in cuts) == (2, 4)


# -- build it --------------------------------------------------------------------------------------------


def test_build_it_accepts_the_reference_classes():
    names = namespace("build_it.ipynb")
    assert check_line_splitter(names["MyLineSplitter"]).correct
    assert check_event_assembler(names["MyEventAssembler"]).correct
    assert check_pipeline(names["MyLineSplitter"], names["MyEventAssembler"]).correct


def test_build_it_rejects_the_unsolved_stubs():
    names = namespace("build_it.ipynb", solution=False)
    for result in (
        check_line_splitter(names["MyLineSplitter"]),
        check_event_assembler(names["MyEventAssembler"]),
        check_pipeline(names["MyLineSplitter"], names["MyEventAssembler"]),
    ):
        assert not result.correct and "not attempted yet" in result.message


class GoodSplitter:
    """A correct line splitter, written here so that the wrong ones below differ from it in one way."""

    def __init__(self):
        self._parts, self._after_cr = [], False

    def feed(self, text):
        if self._after_cr and text.startswith("\n"):
            text, self._after_cr = text[1:], False
        if not text:
            return []
        self._after_cr = text.endswith("\r")
        *lines, tail = re.split(r"\r\n|\r|\n", text)
        if lines:
            lines[0] = "".join(self._parts) + lines[0]
            self._parts = []
        if tail:
            self._parts.append(tail)
        return lines

    def close(self):
        if self._parts:
            raise ValueError("unfinished line")
        return []


class GoodAssembler:
    """A correct event assembler, for the same purpose."""

    def __init__(self):
        self._data, self._type, self._id = [], "", ""

    def feed(self, lines):
        events = []
        for line in lines:
            if line == "":
                if self._data:
                    events.append(Event(self._type or "message", "\n".join(self._data), self._id))
                self._data, self._type = [], ""
            elif not line.startswith(":"):
                name, colon, value = line.partition(":")
                value = value[1:] if colon and value.startswith(" ") else value
                if name == "data":
                    self._data.append(value)
                elif name == "event":
                    self._type = value
                elif name == "id" and "\x00" not in value:
                    self._id = value
        return events

    def close(self):
        self._data, self._type = [], ""
        return []


def test_the_good_classes_here_pass():
    assert check_line_splitter(GoodSplitter).correct
    assert check_event_assembler(GoodAssembler).correct


def splitter_forgetting_a_cr():
    class ForgetsCR(GoodSplitter):
        def feed(self, text):
            self._after_cr = False
            return super().feed(text)

    return ForgetsCR


def splitter_holding_a_cr_back():
    class HoldsCR(GoodSplitter):
        """Waits to see the character after a CR before it gives the line out: one read late."""

        def __init__(self):
            super().__init__()
            self._waiting = False

        def feed(self, text):
            out = []
            if self._waiting and text:
                self._waiting = False
                text = text.removeprefix("\n")
                out.append("".join(self._parts))
                self._parts = []
            if text.endswith("\r"):
                self._waiting, text = True, text[:-1]
            self._after_cr = False
            return out + (super().feed(text) if text else [])

        def close(self):
            return ["".join(self._parts)] if self._waiting else super().close()

    return HoldsCR


def splitter_forgetting_a_cr_on_an_empty_read():
    class EmptyForgets(GoodSplitter):
        def feed(self, text):
            if not text:
                self._after_cr = False
            return super().feed(text)

    return EmptyForgets


def splitter_with_splitlines():
    class SplitLines(GoodSplitter):
        def feed(self, text):
            lines = super().feed(text)
            return [piece for line in lines for piece in (line.splitlines() or [""])]

    return SplitLines


def splitter_that_never_complains():
    class Quiet(GoodSplitter):
        def close(self):
            return []

    return Quiet


WRONG_SPLITTERS = [
    (splitter_forgetting_a_cr, ["between a CR and the LF after it"]),
    (splitter_holding_a_cr_back, ["came out of", "A CR completes a line at once"]),
    (splitter_forgetting_a_cr_on_an_empty_read, ["empty read"]),
    (splitter_with_splitlines, ["in the case 'U+2028"]),
    (splitter_that_never_complains, ["close() returned [] instead of raising"]),
]


@pytest.mark.parametrize(("make", "phrases"), WRONG_SPLITTERS, ids=[m.__name__ for m, _ in WRONG_SPLITTERS])
def test_build_it_rejects_plausible_wrong_splitters(make, phrases):
    assert_rejected(check_line_splitter(make()), *phrases)


def assembler_dispatching_at_eof():
    class AtEOF(GoodAssembler):
        def close(self):
            return self.feed([""])

    return AtEOF


def assembler_forgetting_between_reads():
    class Forgets(GoodAssembler):
        def feed(self, lines):
            self._data, self._type = [], ""
            return super().feed(lines)

    return Forgets


def assembler_stripping_every_space():
    class Strips(GoodAssembler):
        def feed(self, lines):
            return super().feed([re.sub(r"^(\w+): *", r"\1:", line) for line in lines])

    return Strips


def assembler_keeping_the_type():
    class KeepsType(GoodAssembler):
        def feed(self, lines):
            kept, events = self._type, []
            for line in lines:
                self._type = self._type or kept
                events += super().feed([line])
                kept = self._type or kept
            return events

    return KeepsType


def assembler_returning_tuples():
    class Tuples(GoodAssembler):
        def feed(self, lines):
            return [(e.type, e.data, e.last_event_id) for e in super().feed(lines)]

    return Tuples


WRONG_ASSEMBLERS = [
    (assembler_dispatching_at_eof, ["the stream ends before the blank line"]),
    (assembler_forgetting_between_reads, ["inside an event", "survive from one feed() to the next"]),
    (assembler_stripping_every_space, ["one space after the colon is removed"]),
    (assembler_keeping_the_type, ["an event type lasts for one event"]),
    (assembler_returning_tuples, ["Event(type, data, last_event_id)"]),
]


@pytest.mark.parametrize(("make", "phrases"), WRONG_ASSEMBLERS, ids=[m.__name__ for m, _ in WRONG_ASSEMBLERS])
def test_build_it_rejects_plausible_wrong_assemblers(make, phrases):
    assert_rejected(check_event_assembler(make()), *phrases)


def test_build_it_pipeline_rejects_either_wrong_half():
    assert check_pipeline(GoodSplitter, GoodAssembler).correct
    assert_rejected(check_pipeline(splitter_forgetting_a_cr(), GoodAssembler), "between a CR and the LF")
    assert_rejected(check_pipeline(GoodSplitter, assembler_dispatching_at_eof()))
    result = check_pipeline(GoodSplitter, "not a class")
    assert not result.correct and "pass the classes themselves" in result.message


def test_build_it_reference_events_are_lesson_lib_events():
    assembler = namespace("build_it.ipynb")["MyEventAssembler"]()
    assert assembler.feed(["id: 1", "data: x", ""]) == [Event("message", "x", "1")]


# -- the right hint for the real fault -------------------------------------------------------------------

#: The hint for a decoder that is never told the input ended.
FINAL_HINT = "no more bytes will come"


def decode_replacing_without_final(reads):
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    for read in reads:
        yield decoder.decode(read)


def decode_replacing_only_at_the_end(reads):
    """Strict on every read, then errors='replace' for the final call: the end is seen, and hidden."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    for read in reads:
        yield decoder.decode(read)
    decoder.errors = "replace"
    yield decoder.decode(b"", final=True)


@pytest.mark.parametrize(
    "fix", [decode_replacing_incrementally, decode_replacing_without_final, decode_replacing_only_at_the_end]
)
def test_the_final_hint_does_not_fire_when_the_fault_is_replace(fix):
    result = check_bug("decode", fix)
    assert_rejected(result, "U+FFFD", "error mode")
    assert FINAL_HINT not in result.message


def test_the_final_hint_fires_when_the_decoder_is_never_told_the_input_ended():
    result = check_bug("decode", decode_without_final)
    assert_rejected(result, FINAL_HINT)
    assert "U+FFFD" not in result.message


# -- collecting everything, then processing once, is not streaming ----------------------------------------


class SplitterCollectingEverything:
    """Right lines, all from close(): the text is collected and split once at the end."""

    def __init__(self):
        self._text = []

    def feed(self, text):
        self._text.append(text)
        return []

    def close(self):
        *lines, tail = re.split(r"\r\n|\r|\n", "".join(self._text))
        if tail:
            raise ValueError("unfinished line")
        return lines


class AssemblerCollectingEverything(GoodAssembler):
    """Right events, all from close(): the lines are collected and assembled once at the end."""

    def __init__(self):
        super().__init__()
        self._lines = []

    def feed(self, lines):
        self._lines += lines
        return []

    def close(self):
        return GoodAssembler.feed(self, self._lines)


NOT_STREAMING = "is not streaming"


def test_a_splitter_that_splits_once_at_close_is_not_streaming():
    assert_rejected(check_line_splitter(SplitterCollectingEverything), NOT_STREAMING, "one-character reads")


def test_an_assembler_that_assembles_once_at_close_is_not_streaming():
    assert_rejected(check_event_assembler(AssemblerCollectingEverything), NOT_STREAMING, "one-byte reads")


def test_a_pipeline_with_either_half_collecting_everything_is_not_streaming():
    assert_rejected(check_pipeline(SplitterCollectingEverything, GoodAssembler), NOT_STREAMING)
    assert_rejected(check_pipeline(GoodSplitter, AssemblerCollectingEverything), NOT_STREAMING)


@pytest.mark.parametrize("make", [splitter_holding_a_cr_back, splitter_forgetting_a_cr])
def test_a_late_or_wrong_splitter_is_not_called_collecting(make):
    assert NOT_STREAMING not in check_line_splitter(make()).message


# -- the streaming exercises: generators in both editions, and their bug is still the bug -------------------

STREAMING_BUGS = ("decode", "splitlines", "blank_line", "bound", "relay_split")
LATE_HINTS = ("came out after", "returned a finished")


def _yielding_functions(path: Path) -> dict[str, bool]:
    """Each function defined in the notebook's code cells: whether it yields (a generator function)."""
    found = {}
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        code = "\n".join(line for line in cell.source.splitlines() if not line.lstrip().startswith("%"))
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.FunctionDef):
                found[node.name] = any(isinstance(n, ast.Yield | ast.YieldFrom) for n in ast.walk(node))
    return found


EDITIONS = [EXERCISES, EXERCISES.parent / "zh-CN" / "exercises"]


@pytest.mark.parametrize("edition", EDITIONS, ids=["en", "zh-CN"])
def test_the_streaming_exercises_are_generators_buggy_and_fixed(edition):
    functions = _yielding_functions(edition / "solutions" / "bug_hunt.ipynb")
    for bug in STREAMING_BUGS:
        name = FUNCTION_NAMES[bug]
        assert functions[name], name
        if bug != "relay_split":  # bug 10's buggy gateway returns its frames: the exercise makes it stream
            assert functions["buggy_" + name], "buggy_" + name


@pytest.mark.parametrize("bug", STREAMING_BUGS[:-1])
def test_a_buggy_streaming_original_is_rejected_for_its_bug_not_for_waiting(bug):
    buggy = namespace("bug_hunt.ipynb")["buggy_" + FUNCTION_NAMES[bug]]
    result = check_bug(bug, buggy)
    assert_rejected(result)
    assert not any(hint in result.message for hint in LATE_HINTS), result.message
