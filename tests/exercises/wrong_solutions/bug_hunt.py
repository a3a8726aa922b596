"""Plausible wrong fixes for the bug hunt, and right ones written differently."""
# ruff: noqa: E501

from __future__ import annotations

import asyncio
import codecs
import contextlib
import json
import re

from lesson_lib import IncrementalUTF8Decoder, LineSplitter, SSEParser, parse_sse
from lesson_lib.core.completion import consume

# -- helpers a learner would have from the notebook ----------------------------------------------------


def lines_of(reads):
    decoder, splitter = IncrementalUTF8Decoder(), LineSplitter()
    for read in reads:
        yield from splitter.feed(decoder.feed(read))
    decoder.close()
    splitter.discard()


def events_of(reads):
    parser = SSEParser()
    for read in reads:
        yield from parser.feed(read)
    yield from parser.close()


def answer_text(reads):
    parts, done = [], False
    for event in events_of(reads):
        if event.data == "[DONE]":
            done = True
            break
        parts.append(json.loads(event.data)["choices"][0]["delta"].get("content") or "")
    if not done:
        raise EOFError("no [DONE]")
    return "".join(parts)


async def text_pieces(response):
    parser = SSEParser()
    try:
        async for read in response.aiter_bytes():
            for event in parser.feed(read):
                if event.data == "[DONE]":
                    return
                yield json.loads(event.data)["choices"][0]["delta"].get("content") or ""
    finally:
        await response.aclose()


def _gateway_frame(data):
    if data == "[DONE]":
        return b"data: [DONE]\n\n"
    chunk = json.loads(data)
    chunk["model"] = "gateway-model"
    return b"data: " + json.dumps(chunk, ensure_ascii=False).encode() + b"\n\n"


# -- 1. decode -------------------------------------------------------------------------------------------


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


def decode_ignoring_errors(reads):
    decoder = codecs.getincrementaldecoder("utf-8")("ignore")
    for read in reads:
        yield decoder.decode(read)
    yield decoder.decode(b"", final=True)


def decode_joining_every_read(reads):
    """A generator, but it joins every read and decodes the whole once, at the end: nothing is cut."""
    yield b"".join(reads).decode("utf-8")


def decode_returning_the_text(reads):
    """The right decoder, but the text is returned whole once the stream has ended."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    parts = [decoder.decode(read) for read in reads]
    return "".join(parts) + decoder.decode(b"", final=True)


def decode_one_read_late(reads):
    """Yields what a read completed only after it has asked for the next read."""
    decoder, ready = IncrementalUTF8Decoder(), ""
    for read in reads:
        yield ready
        ready = decoder.feed(read)
    yield ready + (decoder.close() or "")


def decode_yielding_pieces(reads):
    """Right: a generator of text pieces, with lesson_lib's decoder."""
    decoder = IncrementalUTF8Decoder()
    for read in reads:
        yield decoder.feed(read)
    yield decoder.close() or ""


def decode_with_codecs_generator(reads):
    """Right: the standard library's incremental decoder, one piece per read."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    for read in reads:
        if piece := decoder.decode(read):
            yield piece
    yield decoder.decode(b"", final=True)


# -- 2. splitlines ---------------------------------------------------------------------------------------


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


def lines_with_splitlines_and_the_cr_fixed(reads):
    """Keeps a CR that ends a read, but still splits with str.splitlines()."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    buffer = ""
    for read in reads:
        buffer += decoder.decode(read)
        if buffer.endswith("\r"):
            continue
        parts = buffer.splitlines(keepends=True)
        buffer = parts.pop() if parts and not parts[-1].endswith(("\r", "\n")) else ""
        yield from (part.rstrip("\r\n") for part in parts)


def lines_keeping_the_unfinished_last(reads):
    decoder, splitter = codecs.getincrementaldecoder("utf-8")(), LineSplitter()
    for read in reads:
        yield from splitter.feed(decoder.decode(read))
    if last := splitter.getstate()[0]:
        yield last


def lines_of_the_joined_stream(reads):
    """Joins every read, decodes once, and splits the whole text with the right splitter."""
    splitter = LineSplitter()
    yield from splitter.feed(b"".join(reads).decode("utf-8"))


def lines_collected_in_a_list(reads):
    """The right splitter per read, but the lines are returned in a list when the stream has ended."""
    decoder, splitter, lines = IncrementalUTF8Decoder(), LineSplitter(), []
    for read in reads:
        lines += splitter.feed(decoder.feed(read))
    decoder.close()
    return lines


def lines_holding_a_cr_for_the_next_read(reads):
    """Waits for the byte after a CR to see whether it is a CRLF before it lets the line go."""
    decoder, buffer = IncrementalUTF8Decoder(), ""
    for read in reads:
        buffer += decoder.feed(read)
        while (match := re.search(r"\r\n|\r(?=.)|\n", buffer, re.S)) is not None:
            yield buffer[: match.start()]
            buffer = buffer[match.end() :]
    if buffer.endswith("\r"):
        yield buffer[:-1]


def lines_as_a_generator(reads):
    """Right: a generator, with lesson_lib's decoder and splitter."""
    decoder, splitter = IncrementalUTF8Decoder(), LineSplitter()
    for read in reads:
        yield from splitter.feed(decoder.feed(read))
    yield from splitter.feed(decoder.close() or "")


# -- 3. blank line ---------------------------------------------------------------------------------------


def events_dispatched_at_eof(reads):
    data = []
    for line in lines_of(reads):
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
    for line in lines_of(reads):
        if line == "":
            yield json.loads("\n".join(data))
            data = []
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))


def events_joined_with_nothing_and_stripped(reads):
    """Data lines joined with "" and each value strip()ped: JSON ignores the difference, most of the time."""
    data = []
    for line in lines_of(reads):
        if line == "":
            if data:
                yield json.loads("".join(data))
            data = []
        elif line.startswith("data:"):
            data.append(line[5:].strip())


def events_stripped(reads):
    """Joined with LF, but strip() for "the space after the colon"."""
    data = []
    for line in lines_of(reads):
        if line == "":
            if data:
                yield json.loads("\n".join(data))
            data = []
        elif line.startswith("data:"):
            data.append(line[5:].strip())


def events_left_stripped(reads):
    data = []
    for line in lines_of(reads):
        if line == "":
            if data:
                yield json.loads("\n".join(data))
            data = []
        elif line.startswith("data:"):
            data.append(line[5:].lstrip())


def events_with_parse_sse(reads):
    """lesson_lib's parse_sse, as a generator: but parse_sse takes every read before it gives an event."""
    for event in parse_sse(reads):
        yield json.loads(event.data)


def events_of_the_joined_stream(reads):
    """Joins every read and parses the whole body once, event by event."""
    body = b"".join(reads)
    for event in SSEParser().feed(body):
        yield json.loads(event.data)


def events_with_sse_parser(reads):
    """Right: lesson_lib's SSEParser, fed read by read."""
    parser = SSEParser()
    for read in reads:
        for event in parser.feed(read):
            yield json.loads(event.data)


# -- 4. eof ----------------------------------------------------------------------------------------------


def answer_after_finish_reason(reads):
    parts, finished = [], False
    for event in events_of(reads):
        if event.data == "[DONE]":
            break
        choice = json.loads(event.data)["choices"][0]
        parts.append(choice["delta"].get("content") or "")
        finished = finished or choice.get("finish_reason") is not None
    if not finished:
        raise EOFError("no finish_reason")
    return "".join(parts)


def answer_if_any_text(reads):
    parts = []
    for event in events_of(reads):
        if event.data == "[DONE]":
            break
        parts.append(json.loads(event.data)["choices"][0]["delta"].get("content") or "")
    if not "".join(parts):
        raise EOFError("empty answer")
    return "".join(parts)


def answer_if_done_anywhere(reads):
    reads = list(reads)
    text = answer_if_any_text(reads)
    if b"[DONE" not in b"".join(reads):
        raise EOFError("no [DONE]")
    return text


def answer_with_consume(reads):
    """Right: lesson_lib's consume() and its verdict."""
    result = consume(reads, "openai-chat")
    if result.final_text is None:
        raise EOFError(result.outcome)
    return result.final_text


# -- 5. cleanup ------------------------------------------------------------------------------------------


def collect_closing_on_success_only(response):
    text = answer_text(response.iter_bytes())
    response.close()
    return text


def collect_closing_on_exception_only(response):
    """Closes on success and in ``except Exception``: a cancellation is not an Exception."""
    try:
        text = answer_text(response.iter_bytes())
    except Exception:
        response.close()
        raise
    response.close()
    return text


def collect_relying_on_the_last_reference(response):
    """Puts close() in a generator's finally and trusts reference counting to run it."""

    def reads():
        try:
            yield from response.iter_bytes()
        finally:
            response.close()

    return answer_text(reads())


def collect_closing_twice(response):
    try:
        return answer_text(response.iter_bytes())
    finally:
        response.close()
        if response.closes == 1:
            response.close()


def collect_with_closing(response):
    """Right: contextlib.closing instead of try/finally."""
    with contextlib.closing(response):
        return answer_with_consume(response.iter_bytes())


# -- 6. bound --------------------------------------------------------------------------------------------


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
    buffer = b""
    for read in reads:
        buffer += read
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            if len(line) >= max_line_bytes:
                raise ValueError("too long")
            yield json.loads(line)
        if len(buffer) >= max_line_bytes:
            raise ValueError("too long")


def records_of_the_joined_stream(reads, max_line_bytes=64):
    """Joins every read, then checks and parses each line of the whole body."""
    *lines, rest = b"".join(reads).split(b"\n")
    for line in [*lines, rest]:
        if len(line) > max_line_bytes:
            raise ValueError("too long")
    for line in lines:
        yield json.loads(line)


def records_in_a_list(reads, max_line_bytes=64):
    """Bounded per read as it should be, but the records are returned in a list at the end."""
    buffer, records = b"", []
    for read in reads:
        *lines, buffer = (buffer + read).split(b"\n")
        for line in lines:
            if len(line) > max_line_bytes:
                raise ValueError("too long")
            records.append(json.loads(line))
        if len(buffer) > max_line_bytes:
            raise ValueError("too long")
    return records


def records_as_a_generator(reads, max_line_bytes=64):
    """Right: a generator that measures the unfinished line as it grows."""
    buffer = b""
    for read in reads:
        *lines, buffer = (buffer + read).split(b"\n")
        for line in lines:
            if len(line) > max_line_bytes:
                raise ValueError("too long")
            yield json.loads(line)
        if len(buffer) > max_line_bytes:
            raise ValueError("too long")


# -- 7. tool args ----------------------------------------------------------------------------------------


def tool_calls_at_end_of_stream(reads):
    calls = {}
    for event in parse_sse(reads):
        if event.data == "[DONE]":
            break
        for entry in json.loads(event.data)["choices"][0]["delta"].get("tool_calls") or []:
            _, parts = calls.setdefault(entry["index"], (entry["function"].get("name"), []))
            parts.append(entry["function"].get("arguments") or "")
    return [(name, json.loads("".join(parts))) for name, parts in calls.values()]


def tool_calls_closed_by_done_alone(reads):
    calls, done = {}, False
    for event in parse_sse(reads):
        if event.data == "[DONE]":
            done = True
            break
        for entry in json.loads(event.data)["choices"][0]["delta"].get("tool_calls") or []:
            _, parts = calls.setdefault(entry["index"], (entry["function"].get("name"), []))
            parts.append(entry["function"].get("arguments") or "")
    if not done:
        raise ValueError("open")
    return [(name, json.loads("".join(parts))) for name, parts in calls.values()]


def tool_calls_parsed_at_each_event_as_a_prefix(reads):
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


def tool_calls_with_consume(reads):
    """Right: lesson_lib's consume(), as a generator."""
    result = consume(reads, "openai-chat")
    if not result.tool_calls or not all(call.complete for call in result.tool_calls):
        raise ValueError("the stream did not close its tool calls")
    for call in result.tool_calls:
        yield call.name, call.arguments


# -- 8. aclosing -----------------------------------------------------------------------------------------


async def first_words_breaking_without_aclosing(response, n):
    text = ""
    async for piece in text_pieces(response):
        text += piece
        if len(text) >= n:
            break
    return text[:n]


async def first_words_dropping_the_reference(response, n):
    """Breaks, deletes its reference, and lets the event loop finalize the generator."""
    text, pieces = "", text_pieces(response)
    async for piece in pieces:
        text += piece
        if len(text) >= n:
            break
    del pieces
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    return text[:n]


async def first_words_reading_everything(response, n):
    """No break, so the generator runs to its end and closes: the right text, after every read."""
    text = ""
    async for piece in text_pieces(response):
        text += piece
    return text[:n]


async def first_words_closing_the_response_by_hand(response, n):
    """Closes the response after the break, and leaves the generator suspended."""
    text = ""
    async for piece in text_pieces(response):
        text += piece
        if len(text) >= n:
            break
    await response.aclose()
    return text[:n]


async def first_words_swallowing_the_cancellation(response, n):
    text = ""
    try:
        async with contextlib.aclosing(text_pieces(response)) as pieces:
            async for piece in pieces:
                text += piece
                if len(text) >= n:
                    break
    except asyncio.CancelledError:
        pass  # "a cancelled preview is just shorter"
    return text[:n]


async def first_words_returning_inside_aclosing(response, n):
    """Right: return inside the block."""
    text = ""
    async with contextlib.aclosing(text_pieces(response)) as pieces:
        async for piece in pieces:
            text += piece
            if len(text) >= n:
                return text[:n]
    return text[:n]


async def first_words_closing_in_finally(response, n):
    """Right: an explicit aclose() of the generator in a finally."""
    text, pieces = "", text_pieces(response)
    try:
        async for piece in pieces:
            text += piece
            if len(text) >= n:
                break
    finally:
        await pieces.aclose()
    return text[:n]


# -- 9. heartbeat clock ----------------------------------------------------------------------------------


def stalled_counting_pings(arrivals, progress_timeout):
    last = 0.0
    for seconds, _ in arrivals:
        if seconds - last >= progress_timeout:
            return last + progress_timeout
        last = seconds
    return None


def stalled_strictly_after_the_limit(arrivals, progress_timeout):
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


def stalled_clock_read_at_progress_only(arrivals, progress_timeout):
    """Looks at the clock only when a progress event arrives: behind pings, it never looks."""
    last = 0.0
    for seconds, event in arrivals:
        if event.type == "ping":
            continue
        if seconds - last >= progress_timeout:
            return last + progress_timeout
        last = seconds
    return None


def stalled_at_the_late_arrival(arrivals, progress_timeout):
    """Answers with the moment the late event came, not the moment the limit ran out."""
    last = 0.0
    for seconds, event in arrivals:
        if seconds - last >= progress_timeout:
            return seconds
        if event.type != "ping":
            last = seconds
    return None


def stalled_as_text(arrivals, progress_timeout):
    """Right logic, but returns the moment as a string."""
    last = 0.0
    for seconds, event in arrivals:
        if seconds - last >= progress_timeout:
            return f"{last + progress_timeout}"
        if event.type != "ping":
            last = seconds
    return None


def stalled_with_next(arrivals, progress_timeout):
    """Right: written with a generator expression and next()."""
    last = [0.0]

    def late():
        for seconds, event in arrivals:
            if seconds - last[0] >= progress_timeout:
                yield last[0] + progress_timeout
            if event.type != "ping":
                last[0] = seconds

    return next(late(), None)


# -- 10. relay -------------------------------------------------------------------------------------------


def relay_forwarding_the_half_event_at_the_end(reads):
    decoder, buffer = codecs.getincrementaldecoder("utf-8")(), ""
    for read in reads:
        buffer += decoder.decode(read)
        *blocks, buffer = buffer.split("\n\n")
        yield from (_gateway_frame(b[len("data: ") :]) for b in blocks if b.startswith("data: "))
    if buffer.startswith("data: "):
        yield _gateway_frame(buffer[len("data: ") :])


def relay_buffering_text_decoded_per_read(reads):
    buffer = ""
    for read in reads:
        buffer += read.decode("utf-8", errors="replace")
        *blocks, buffer = buffer.split("\n\n")
        yield from (_gateway_frame(b[len("data: ") :]) for b in blocks if b.startswith("data: "))


def relay_returning_a_list(reads):
    """Right frames, collected in a list and returned when the upstream has ended."""
    parser, frames = SSEParser(), []
    for read in reads:
        frames += [_gateway_frame(event.data) for event in parser.feed(read)]
    parser.close()
    return frames


def relay_buffering_the_whole_upstream(reads):
    """A generator, but it reads the whole upstream before it yields anything."""
    for event in parse_sse(reads):
        yield _gateway_frame(event.data)


def relay_one_read_late(reads):
    """Yields the events of a read only after it has asked for the next one."""
    parser, ready = SSEParser(), []
    for read in reads:
        yield from ready
        ready = [_gateway_frame(event.data) for event in parser.feed(read)]
    yield from ready
    parser.close()


def relay_with_a_decoder_and_buffer(reads):
    """Right: an incremental decoder and an event buffer by hand (LF-only upstream), as a generator."""
    decoder, buffer = codecs.getincrementaldecoder("utf-8")(), ""
    for read in reads:
        buffer += decoder.decode(read)
        *blocks, buffer = buffer.split("\n\n")
        for block in blocks:
            data = [line[len("data: ") :] for line in block.split("\n") if line.startswith("data: ")]
            if data:
                yield _gateway_frame("\n".join(data))


K = "checkers.async.hint."
B = "checkers.bugs."
S = "checkers.stream."
WRONG = [
    ("bug:decode", "decode_without_final", decode_without_final, [B + "decode.hint.never_told"]),
    ("bug:decode", "decode_each_read_strictly", decode_each_read_strictly, [B + "decode.hint.character"]),
    ("bug:decode", "decode_replacing_incrementally", decode_replacing_incrementally, [B + "decode.hint.replaced"]),
    ("bug:decode", "decode_ignoring_errors", decode_ignoring_errors, [B + "decode.hint.vanished"]),
    ("bug:decode", "decode_joining_every_read", decode_joining_every_read, [S + "hint.late.decode"]),
    ("bug:decode", "decode_returning_the_text", decode_returning_the_text, [S + "hint.late.decode"]),
    ("bug:decode", "decode_one_read_late", decode_one_read_late, [S + "hint.late.decode"]),
    ("bug:splitlines", "lines_forgetting_a_cr", lines_forgetting_a_cr, [B + "splitlines.hint.crlf"]),
    ("bug:splitlines", "lines_of_each_read_alone", lines_of_each_read_alone, [B + "splitlines.hint.line"]),
    ("bug:splitlines", "lines_with_splitlines_and_the_cr_fixed", lines_with_splitlines_and_the_cr_fixed, [B + "splitlines.hint.whole"]),
    ("bug:splitlines", "lines_keeping_the_unfinished_last", lines_keeping_the_unfinished_last, [B + "splitlines.case.no_ending"]),
    ("bug:splitlines", "lines_of_the_joined_stream", lines_of_the_joined_stream, [S + "hint.late.splitlines"]),
    ("bug:splitlines", "lines_collected_in_a_list", lines_collected_in_a_list, [S + "hint.late.splitlines"]),
    ("bug:splitlines", "lines_holding_a_cr_for_the_next_read", lines_holding_a_cr_for_the_next_read, [S + "hint.late.splitlines"]),
    ("bug:blank_line", "events_dispatched_at_eof", events_dispatched_at_eof, ["checkers.bugs.blank_line.unfinished"]),
    ("bug:blank_line", "events_dispatched_without_data", events_dispatched_without_data, [B + "blank_line.hint.whole"]),
    ("bug:blank_line", "events_joined_with_nothing_and_stripped", events_joined_with_nothing_and_stripped, [B + "blank_line.hint.lines_run_together"]),
    ("bug:blank_line", "events_stripped", events_stripped, [B + "blank_line.hint.wide_space_at_end"]),
    ("bug:blank_line", "events_left_stripped", events_left_stripped, [B + "blank_line.hint.no_break_space_first"]),
    ("bug:blank_line", "events_with_parse_sse", events_with_parse_sse, [S + "hint.late.blank_line"]),
    ("bug:blank_line", "events_of_the_joined_stream", events_of_the_joined_stream, [S + "hint.late.blank_line"]),
    ("bug:eof", "answer_after_finish_reason", answer_after_finish_reason, [B + "eof.where.before_done"]),
    ("bug:eof", "answer_if_any_text", answer_if_any_text, [B + "eof.where.early"]),
    ("bug:eof", "answer_if_done_anywhere", answer_if_done_anywhere, [B + "eof.where.before_blank_line"]),
    ("bug:cleanup", "collect_closing_on_success_only", collect_closing_on_success_only, [B + "cleanup.path.closes_early"]),
    ("bug:cleanup", "collect_closing_on_exception_only", collect_closing_on_exception_only, [B + "cleanup.never_closed_cancelled"]),
    ("bug:cleanup", "collect_relying_on_the_last_reference", collect_relying_on_the_last_reference, [B + "cleanup.path.invalid_utf8"]),
    ("bug:cleanup", "collect_closing_twice", collect_closing_twice, [B + "cleanup.hint.close_once"]),
    ("bug:bound", "records_checking_complete_lines_only", records_checking_complete_lines_only, []),
    ("bug:bound", "records_bounding_the_read", records_bounding_the_read, []),
    ("bug:bound", "records_off_by_one", records_off_by_one, []),
    ("bug:bound", "records_of_the_joined_stream", records_of_the_joined_stream, [S + "hint.late.bound"]),
    ("bug:bound", "records_in_a_list", records_in_a_list, [S + "hint.late.bound"]),
    ("bug:tool_args", "tool_calls_at_end_of_stream", tool_calls_at_end_of_stream, ["checkers.values.where.before_done"]),
    ("bug:tool_args", "tool_calls_closed_by_done_alone", tool_calls_closed_by_done_alone, ["checkers.values.where.length"]),
    ("bug:tool_args", "tool_calls_parsed_at_each_event_as_a_prefix", tool_calls_parsed_at_each_event_as_a_prefix, ["checkers.values.where.before_done"]),
    ("bug:aclosing", "first_words_breaking_without_aclosing", first_words_breaking_without_aclosing, [K + "left_open"]),
    ("bug:aclosing", "first_words_dropping_the_reference", first_words_dropping_the_reference, [K + "left_open"]),
    ("bug:aclosing", "first_words_reading_everything", first_words_reading_everything, [K + "read_too_much"]),
    ("bug:aclosing", "first_words_closing_the_response_by_hand", first_words_closing_the_response_by_hand, [K + "closed_later"]),
    ("bug:aclosing", "first_words_swallowing_the_cancellation", first_words_swallowing_the_cancellation, ["checkers.async.path.cancelled"]),
    ("bug:heartbeat_clock", "stalled_counting_pings", stalled_counting_pings, [K + "reset_by_pings"]),
    ("bug:heartbeat_clock", "stalled_strictly_after_the_limit", stalled_strictly_after_the_limit, [K + "at_the_limit"]),
    ("bug:heartbeat_clock", "stalled_counting_only_text_deltas", stalled_counting_only_text_deltas, [K + "kept_progressing"]),
    ("bug:heartbeat_clock", "stalled_clock_read_at_progress_only", stalled_clock_read_at_progress_only, [K + "clock_not_consulted"]),
    ("bug:heartbeat_clock", "stalled_at_the_late_arrival", stalled_at_the_late_arrival, [K + "late_by_an_event"]),
    ("bug:heartbeat_clock", "stalled_as_text", stalled_as_text, []),
    ("bug:relay_split", "relay_forwarding_the_half_event_at_the_end", relay_forwarding_the_half_event_at_the_end, []),
    ("bug:relay_split", "relay_buffering_text_decoded_per_read", relay_buffering_text_decoded_per_read, ["checkers.relay.hint.character"]),
    ("bug:relay_split", "relay_returning_a_list", relay_returning_a_list, ["checkers.relay.hint.late"]),
    ("bug:relay_split", "relay_buffering_the_whole_upstream", relay_buffering_the_whole_upstream, ["checkers.relay.hint.late"]),
    ("bug:relay_split", "relay_one_read_late", relay_one_read_late, ["checkers.relay.hint.late"]),
]

#: Phrases (English) for the entries whose hint has fields, or whose message names the case.
PHRASES = {
    "records_checking_complete_lines_only": ["a line that never ends"],
    "records_bounding_the_read": ["per line, not per read"],
    "records_off_by_one": ["exactly as long as the bound"],
    "stalled_as_text": ["(a str); it must return a number of seconds, or None"],
    "relay_forwarding_the_half_event_at_the_end": ["stopped inside its next-to-last event"],
    "relay_returning_a_list": ["returned a finished list"],
    "relay_buffering_the_whole_upstream": ["came out after"],
    "relay_one_read_late": ["came out after"],
    "collect_relying_on_the_last_reference": ["never closed the response"],
    "first_words_swallowing_the_cancellation": ["instead of letting the cancellation go on"],
    "events_dispatched_at_eof": ["before the last event's blank line"],
    "decode_joining_every_read": ["came out after"],
    "decode_returning_the_text": ["decode_reads returned a finished str"],
    "decode_one_read_late": ["came out after"],
    "lines_of_the_joined_stream": ["came out after"],
    "lines_collected_in_a_list": ["read_lines returned a finished list"],
    "lines_holding_a_cr_for_the_next_read": ["came out after"],
    "events_with_parse_sse": ["came out after"],
    "events_of_the_joined_stream": ["came out after"],
    "records_of_the_joined_stream": ["came out after"],
    "records_in_a_list": ["read_records returned a finished list"],
}

RIGHT = [
    ("bug:decode", "decode_yielding_pieces", decode_yielding_pieces),
    ("bug:decode", "decode_with_codecs_generator", decode_with_codecs_generator),
    ("bug:splitlines", "lines_as_a_generator", lines_as_a_generator),
    ("bug:blank_line", "events_with_sse_parser", events_with_sse_parser),
    ("bug:eof", "answer_with_consume", answer_with_consume),
    ("bug:cleanup", "collect_with_closing", collect_with_closing),
    ("bug:bound", "records_as_a_generator", records_as_a_generator),
    ("bug:tool_args", "tool_calls_with_consume", tool_calls_with_consume),
    ("bug:aclosing", "first_words_returning_inside_aclosing", first_words_returning_inside_aclosing),
    ("bug:aclosing", "first_words_closing_in_finally", first_words_closing_in_finally),
    ("bug:heartbeat_clock", "stalled_with_next", stalled_with_next),
    ("bug:relay_split", "relay_with_a_decoder_and_buffer", relay_with_a_decoder_and_buffer),
]
