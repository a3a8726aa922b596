"""The whole pipeline on tiny hand-written streams: outcomes, limits, stats, and cleanup on every path."""

from __future__ import annotations

import contextlib
import gc
import json
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib.core.activity import Watchdog
from lesson_lib.core.chunking import one_byte_chunks, split_at, two_piece_splits
from lesson_lib.core.completion import (
    DEFAULT_LIMITS,
    Outcome,
    StreamResult,
    consume,
    stream_updates,
)
from lesson_lib.core.contracts import CONTRACTS, NEEDS_REQUEST_ID, Heartbeat, Stage, Terminal, TextDelta
from lesson_lib.core.sse import SSEParser
from tests.strategies import partitions, sse_streams, tricky_text

# --- stream builders -------------------------------------------------------------------------------


def ids(contract: str) -> dict:
    """The per-request option a contract needs (MCP answers one JSON-RPC request id)."""
    return {"request_id": 1} if contract in NEEDS_REQUEST_ID else {}


def sse(*events: str) -> bytes:
    return "".join(events).encode("utf-8")


def data(payload: object, event: str | None = None) -> str:
    body = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
    return (f"event: {event}\n" if event else "") + f"data: {body}\n\n"


def chat(*pieces: str, finish: str | None = "stop", done: bool = True) -> bytes:
    events = [
        data({"choices": [{"index": 0, "delta": {"content": p}, "finish_reason": None}]}) for p in pieces
    ]
    if finish is not None:
        events.append(data({"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}))
    if done:
        events.append(data("[DONE]"))
    return sse(*events)


def anthropic(*pieces: str, stop_reason: str | None = "end_turn", pings: bool = False) -> bytes:
    events = [
        data({"type": "message_start", "message": {"id": "m"}}, "message_start"),
        data({"type": "content_block_start", "index": 0}, "content_block_start"),
    ]
    for piece in pieces:
        if pings:
            events.append(data({"type": "ping"}, "ping"))
        delta = {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": piece}}
        events.append(data(delta, "content_block_delta"))
    events += [
        data({"type": "content_block_stop", "index": 0}, "content_block_stop"),
        data({"type": "message_delta", "delta": {"stop_reason": stop_reason}}, "message_delta"),
        data({"type": "message_stop"}, "message_stop"),
    ]
    return sse(*events)


def responses(*pieces: str, end: dict | None = None) -> bytes:
    events = [data({"type": "response.created", "sequence_number": 0}, "response.created")]
    for number, piece in enumerate(pieces, 1):
        delta = {"type": "response.output_text.delta", "sequence_number": number, "delta": piece}
        events.append(data(delta, "response.output_text.delta"))
    if end is None:
        end = {"type": "response.completed", "response": {"status": "completed"}}
    events.append(data({**end, "sequence_number": len(pieces) + 1}, end["type"]))
    return sse(*events)


def ollama(*pieces: str, done_reason: str | None = "stop") -> bytes:
    lines = [{"message": {"role": "assistant", "content": p}, "done": False} for p in pieces]
    if done_reason is not None:
        lines.append(
            {"message": {"role": "assistant", "content": ""}, "done": True, "done_reason": done_reason}
        )
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode("utf-8")


def gemini_array(*pieces: str, finish: str | None = "STOP", close: bool = True) -> bytes:
    elements = [{"candidates": [{"content": {"parts": [{"text": p}]}}]} for p in pieces]
    if finish is not None:
        elements[-1]["candidates"][0]["finishReason"] = finish
    text = "[" + "\n,\r\n".join(json.dumps(e, ensure_ascii=False, indent=2) for e in elements)
    return (text + ("\n]" if close else "")).encode("utf-8")


class CountingSource:
    """A chunk source that counts reads and close() calls, and can fail on a chosen read."""

    def __init__(self, chunks, fail_at: int | None = None, error: Exception | None = None) -> None:
        self.chunks = list(chunks)
        self.fail_at = fail_at
        self.error = error or ConnectionResetError("connection reset by peer")
        self.reads = 0
        self.closes = 0

    def __iter__(self):
        return self

    def __next__(self) -> bytes:
        if self.closes:
            raise AssertionError("read after close")
        if self.fail_at is not None and self.reads == self.fail_at:
            self.reads += 1
            raise self.error
        if self.reads >= len(self.chunks):
            raise StopIteration
        self.reads += 1
        return self.chunks[self.reads - 1]

    def close(self) -> None:
        self.closes += 1


TEXT = ["你好", "🙂 ", "café", "\n第二行", " 完成"]
WHOLE = "".join(TEXT)

# --- outcomes --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "body"),
    [
        ("openai-chat", chat(*TEXT)),
        ("anthropic-messages", anthropic(*TEXT)),
        ("openai-responses", responses(*TEXT)),
        ("ollama", ollama(*TEXT)),
        ("gemini-json-array", gemini_array(*TEXT)),
        (
            "gemini",
            sse(*(data({"candidates": [{"content": {"parts": [{"text": p}]}}]}) for p in TEXT[:-1]))
            + sse(
                data({"candidates": [{"content": {"parts": [{"text": TEXT[-1]}]}, "finishReason": "STOP"}]})
            ),
        ),
    ],
)
def test_completed_in_every_two_piece_split_and_byte_by_byte(contract, body):
    for pieces in [[body], one_byte_chunks(body), *(p for _, p in two_piece_splits(body))]:
        result = consume(pieces, contract)
        assert result.outcome is Outcome.COMPLETED
        assert result.text == result.final_text == WHOLE
        assert result.truncated_at is None and result.error is None


@pytest.mark.parametrize(
    ("contract", "body", "reason"),
    [
        ("openai-chat", chat("café", finish="length"), "length"),
        ("openai-chat", chat("café", finish="content_filter"), "content_filter"),
        ("anthropic-messages", anthropic("café", stop_reason="max_tokens"), "max_tokens"),
        (
            "openai-responses",
            responses(
                "café",
                end={
                    "type": "response.incomplete",
                    "response": {"incomplete_details": {"reason": "max_output_tokens"}},
                },
            ),
            "max_output_tokens",
        ),
        ("ollama", ollama("café", done_reason="length"), "length"),
        ("gemini-json-array", gemini_array("café", finish="SAFETY"), "SAFETY"),
    ],
)
def test_terminal_with_a_cut_reason_is_incomplete(contract, body, reason):
    result = consume(split_at(body, [len(body) // 2]), contract)
    assert result.outcome is Outcome.INCOMPLETE
    assert result.finish_reason == reason
    assert result.text == "café" and result.final_text is None


@pytest.mark.parametrize(
    ("body", "cut_before_end", "where"),
    [
        (chat("你好"), len("[DONE]\n\n") + 1, "line"),  # "data: [DONE" ... without its ending
        (chat("你好"), 1, "event"),  # "data: [DONE]\n" without the blank line
        (chat("你好", done=False), 0, "completion"),  # finish_reason arrived, [DONE] did not
        (chat("你好", finish=None, done=False), 0, "completion"),
    ],
)
def test_truncation_names_the_innermost_unfinished_unit(body, cut_before_end, where):
    cut = body[: len(body) - cut_before_end]
    result = consume([cut], "openai-chat")
    assert result.outcome is Outcome.TRUNCATED
    assert result.truncated_at == where
    assert result.text == "你好" and result.final_text is None


def test_truncated_mid_character_for_every_cut_inside_the_emoji():
    body = chat("ok 🙂 done")
    start = body.index("🙂".encode())
    for cut in range(start + 1, start + 4):
        result = consume([body[:cut]], "openai-chat")
        assert (result.outcome, result.truncated_at) == (Outcome.TRUNCATED, "character")
        assert result.text == "" and result.stats.max_held_bytes == cut - start


def test_finish_reason_without_done_keeps_the_services_word():
    result = consume([chat("完成", done=False)], "openai-chat")
    assert (result.outcome, result.truncated_at, result.finish_reason) == (
        Outcome.TRUNCATED,
        "completion",
        "stop",
    )


def test_json_array_without_its_closing_bracket_is_truncated():
    result = consume([gemini_array("你好", finish="STOP", close=False)], "gemini-json-array")
    assert (result.outcome, result.truncated_at, result.finish_reason) == (
        Outcome.TRUNCATED,
        "completion",
        "STOP",
    )
    inside = gemini_array("你好", "第二行")
    result = consume([inside[: inside.rindex("第".encode())]], "gemini-json-array")
    assert (result.outcome, result.truncated_at, result.text) == (Outcome.TRUNCATED, "event", "你好")


def test_ndjson_half_line_is_truncated_at_the_line():
    body = ollama("你好", "第二行")
    result = consume([body[: body.rindex(b'"done": true')]], "ollama")
    assert (result.outcome, result.truncated_at, result.text) == (Outcome.TRUNCATED, "line", "你好第二行")


def test_gemini_last_chunk_without_reason_is_not_completed():
    chunks = [
        data({"candidates": [{"content": {"parts": [{"text": "你好"}]}, "finishReason": "STOP"}]}),
        data({"candidates": [{"content": {"parts": [{"text": "，第二行"}]}}]}),
    ]
    result = consume([sse(*chunks)], "gemini")
    assert (result.outcome, result.truncated_at) == (Outcome.TRUNCATED, "completion")
    assert result.text == "你好，第二行" and result.finish_reason == "STOP"


def test_bytes_and_events_after_the_terminal_are_counted_not_appended():
    body = chat("你好") + sse(data({"choices": [{"index": 0, "delta": {"content": "extra"}}]}), ": bye\n\n")
    done_end = body.index(b"[DONE]\n\n") + len(b"[DONE]\n\n")
    updates = list(stream_updates(split_at(body, [done_end]), "openai-chat"))
    result = updates[-1]
    assert result.outcome is Outcome.COMPLETED and result.text == "你好"
    assert result.stats.events_after_terminal == 1
    assert result.stats.bytes_after_terminal == len(body) - done_end
    assert not any(isinstance(u, TextDelta) and u.text == "extra" for u in updates)
    assert "not appended" in result.describe()


def test_terminal_then_an_unfinished_tail_is_truncated():
    body = anthropic("café") + b'event: ping\ndata: {"type": "ping"}\n'
    result = consume([body], "anthropic-messages")
    assert (result.outcome, result.truncated_at, result.finish_reason) == (
        Outcome.TRUNCATED,
        "event",
        "end_turn",
    )


# --- in-band errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "error_event",
    [
        {"type": "error", "code": "server_error", "message": "flat shape", "param": None},
        {
            "type": "error",
            "error": {"type": "server_error", "code": "server_error", "message": "nested shape"},
        },
    ],
)
def test_responses_error_event_in_both_shapes(error_event):
    body = responses("你好").replace(b"response.completed", b"response.zzz")  # no terminal
    body = body[: body.index(b"event: response.zzz")] + sse(
        data({**error_event, "sequence_number": 9}, "error")
    )
    source = CountingSource([*split_at(body, [5, len(body) - 3]), b"never read"])
    result = consume(source, "openai-responses")
    assert result.outcome is Outcome.SERVICE_ERROR
    assert result.error.error_type == "server_error"
    assert result.error.message.endswith("shape")
    assert result.text == "你好"
    assert source.closes == 1 and source.reads == 3, "reading stops at the error"
    assert "server_error" in result.describe() and "你好" not in result.describe()


def test_anthropic_pings_are_tolerated_and_counted():
    result = consume(one_byte_chunks(anthropic(*TEXT, pings=True)), "anthropic-messages")
    assert result.outcome is Outcome.COMPLETED and result.text == WHOLE
    assert result.stats.heartbeats == len(TEXT)


def test_sse_comments_and_unknown_events_are_counted():
    body = anthropic("你好")
    extra = sse(": keep-alive\n\n", data({"type": "content_block_future"}, "content_block_future"))
    body = body.replace(b"event: content_block_stop", extra + b"event: content_block_stop", 1)
    result = consume([body], "anthropic-messages")
    assert result.outcome is Outcome.COMPLETED and result.text == "你好"
    assert (result.stats.heartbeats, result.stats.unknown_events) == (1, 1)


def test_invalid_utf8_is_a_decode_error_with_the_exact_offset():
    body = chat("你好", "café")
    bad_at = body.index("é".encode())
    broken = body[:bad_at] + b"\xff" + body[bad_at + 1 :]
    for pieces in ([broken], one_byte_chunks(broken)):
        source = CountingSource(pieces)
        result = consume(source, "openai-chat")
        assert source.closes == 1
        assert result.outcome is Outcome.DECODE_ERROR
        assert result.error.offset == bad_at and result.stats.error_offset == bad_at
        assert result.error.kind == "StreamDecodeError"
    assert consume(one_byte_chunks(broken), "openai-chat").text == "你好"
    replaced = consume([broken], "openai-chat", errors="replace")
    assert replaced.outcome is Outcome.COMPLETED and replaced.text == "你好caf\ufffd\ufffd"


@pytest.mark.parametrize(("fault", "before"), [("decode", "你好"), ("limit", "你好café")])
def test_sse_events_before_a_fault_in_the_same_read_still_count(fault, before):
    body = chat("你好", "café", "x" * 80)
    options = {"max_line_chars": 100} if fault == "limit" else {}  # the 162-char line crosses it
    if fault == "decode":
        bad_at = body.index("é".encode())
        body = body[:bad_at] + b"\xff" + body[bad_at + 1 :]
    assert consume(one_byte_chunks(body), "openai-chat", **options).text == before
    assert consume([body], "openai-chat", **options).text == before


def test_malformed_event_json_is_a_decode_error_naming_the_event():
    body = chat("你好").replace(b"[DONE]", b'{"choices": [')
    result = consume([body], "openai-chat")
    assert result.outcome is Outcome.DECODE_ERROR
    assert result.error.kind == "FramingError" and result.error.event_index == 2
    assert result.text == "你好"


def test_values_completed_before_a_fault_in_the_same_read_still_count():
    body = ollama("你好", "第二行", done_reason=None) + b"{not json}\n"
    for pieces in ([body], one_byte_chunks(body)):
        result = consume(pieces, "ollama")
        assert result.outcome is Outcome.DECODE_ERROR and result.text == "你好第二行"
        assert result.error.offset == len(body) - len(b"{not json}\n") + 1


def test_source_exception_is_truncation_with_the_error_recorded():
    body = chat("你好", "第二行")
    cut = body.index("第".encode()) + 1
    source = CountingSource(split_at(body, [cut]), fail_at=1)
    result = consume(source, "openai-chat")
    assert (result.outcome, result.truncated_at) == (Outcome.TRUNCATED, "character")
    assert result.error.kind == "ConnectionResetError" and result.error.offset == cut
    assert source.closes == 1


def test_source_failing_after_the_terminal_at_a_clean_boundary_keeps_the_verdict():
    source = CountingSource([chat("完成")], fail_at=1)
    result = consume(source, "openai-chat")
    assert result.outcome is Outcome.COMPLETED and result.final_text == "完成"
    assert result.error is not None and result.error.kind == "ConnectionResetError"
    assert source.closes == 1


# --- limits ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "body", "limits", "limit"),
    [
        ("openai-chat", chat("x" * 200), {"max_line_chars": 100}, "max_line_chars"),
        ("openai-chat", sse("data: 你好\n" * 50 + "\n"), {"max_event_chars": 60}, "max_event_chars"),
        ("openai-chat", chat(*["é"] * 20), {"max_events": 10}, "max_events"),
        (
            "openai-chat",
            sse(": ping\n\n" * 400) + chat("late"),
            {"max_bytes_without_progress": 1000},
            "max_bytes_without_progress",
        ),
        ("ollama", ollama("y" * 300), {"max_line_chars": 100}, "max_line_chars"),
        ("gemini-json-array", gemini_array("z" * 300), {"max_element_chars": 100}, "max_element_chars"),
    ],
)
def test_limits_stop_the_stream_and_close_the_source(contract, body, limits, limit):
    for pieces in (split_at(body, [len(body) // 3]), [body[i : i + 7] for i in range(0, len(body), 7)]):
        source = CountingSource([*pieces, b"x" * 10])
        result = consume(source, contract, **limits)
        assert result.outcome is Outcome.LIMIT_EXCEEDED
        assert result.error.limit == limit and result.error.maximum == limits[limit]
        assert result.error.offset is not None and 0 < result.error.offset <= len(body)
        assert source.closes == 1 and source.reads <= len(pieces)
        assert limit in result.describe()


def test_limits_none_lifts_a_bound_and_defaults_are_finite():
    assert all(isinstance(v, int) and v > 0 for v in DEFAULT_LIMITS.values())
    body = sse(": ping\n\n" * 400) + chat("late")
    assert consume([body], "openai-chat", max_bytes_without_progress=None).outcome is Outcome.COMPLETED


def test_heartbeats_do_not_count_as_progress_but_text_does():
    pings = sse(": ping\n\n" * 20)  # 160 bytes
    interleaved = b"".join(
        chat(*(["你好"] * 20), done=False).split(b"\n\n")[i] + b"\n\n" + pings for i in range(20)
    )
    body = interleaved + chat(finish="stop")
    result = consume(one_byte_chunks(body), "openai-chat", max_bytes_without_progress=300)
    assert result.outcome is Outcome.COMPLETED and result.stats.heartbeats == 400
    silent = consume([pings * 2, chat("你好")], "openai-chat", max_bytes_without_progress=300)
    assert silent.outcome is Outcome.LIMIT_EXCEEDED and silent.error.offset == 320  # the end of that read


# --- cleanup on every path -------------------------------------------------------------------------


def test_cleanup_after_terminal():
    source = CountingSource(one_byte_chunks(chat("完成")))
    assert consume(source, "openai-chat").outcome is Outcome.COMPLETED
    assert source.closes == 1


def test_cleanup_after_service_error():
    body = chat("你好", finish=None, done=False) + sse(
        data({"error": {"type": "server_error", "message": "x"}})
    )
    source = CountingSource([body, b"data: never\n\n"])
    assert consume(source, "openai-chat").outcome is Outcome.SERVICE_ERROR
    assert (source.closes, source.reads) == (1, 1)


def test_cleanup_when_the_callers_loop_raises():
    source = CountingSource(one_byte_chunks(chat(*TEXT)))
    with pytest.raises(KeyError), contextlib.closing(stream_updates(source, "openai-chat")) as updates:
        for update in updates:
            if isinstance(update, TextDelta):
                raise KeyError("the caller's own bug")
    assert source.closes == 1
    assert source.reads < len(source.chunks)


def test_cleanup_when_the_caller_breaks_early():
    source = CountingSource(one_byte_chunks(chat(*TEXT)))
    for update in stream_updates(source, "openai-chat"):
        if isinstance(update, TextDelta):
            break  # the generator is dropped here and closed by reference counting
    assert source.closes == 1
    source = CountingSource(one_byte_chunks(chat(*TEXT)))
    updates = stream_updates(source, "openai-chat")
    next(u for u in updates if isinstance(u, TextDelta))
    updates.close()
    updates.close()
    assert source.closes == 1


def test_the_source_is_closed_when_the_result_is_yielded():
    source = CountingSource(one_byte_chunks(chat(*TEXT)))
    closes = [
        source.closes for update in stream_updates(source, "openai-chat") if isinstance(update, StreamResult)
    ]
    assert closes == [1]


@pytest.mark.parametrize("kind", ["callable", "event"])
def test_cancel_between_reads(kind):
    source = CountingSource(one_byte_chunks(chat(*TEXT)))
    flag = threading.Event()
    cancel = flag if kind == "event" else flag.is_set
    texts = []
    for update in stream_updates(source, "openai-chat", cancel=cancel):
        if isinstance(update, TextDelta):
            texts.append(update.text)
            flag.set()
        elif isinstance(update, StreamResult):
            result = update
    assert result.outcome is Outcome.CANCELLED and result.text == TEXT[0] == "".join(texts)
    assert source.closes == 1 and source.reads < len(source.chunks)
    assert "cancelled" in result.describe()


def test_cancel_before_the_first_read():
    source = CountingSource([chat("你好")])
    result = consume(source, "openai-chat", cancel=lambda: True)
    assert result.outcome is Outcome.CANCELLED and source.reads == 0 and source.closes == 1


def test_unknown_contract_raises_but_still_closes_the_source():
    source = CountingSource([b""])
    with pytest.raises(ValueError, match="known contracts"):
        consume(source, "openai")
    assert source.closes == 1


def test_plain_iterables_without_close_work():
    assert consume(iter([chat("你好")]), "openai-chat").text == "你好"
    assert consume((c for c in [chat("你好")]), "openai-chat").outcome is Outcome.COMPLETED


# --- updates, stats, describe ----------------------------------------------------------------------


def test_updates_stream_in_order_and_end_with_the_result():
    updates = list(stream_updates(one_byte_chunks(anthropic(*TEXT, pings=True)), "anthropic-messages"))
    assert isinstance(updates[-1], StreamResult)
    assert not any(isinstance(u, StreamResult) for u in updates[:-1])
    assert "".join(u.text for u in updates if isinstance(u, TextDelta)) == updates[-1].text == WHOLE
    assert Stage("message_start") in updates and Heartbeat("ping") in updates
    assert updates[-2] == Terminal("end_turn", True)


def test_stats_count_reads_bytes_and_pending_state():
    body = chat(*TEXT)
    pieces = split_at(body, [1, 3, 7, 20, 21, 60])
    stats = consume([*pieces, b""], "openai-chat").stats
    assert (stats.bytes, stats.reads) == (len(body), len(pieces) + 1)
    assert sum(stats.read_sizes.values()) == stats.reads and stats.read_sizes[0] == 1
    assert all(k == 0 or k & (k - 1) == 0 for k in stats.read_sizes)
    assert stats.events == len(TEXT) + 2 and stats.deltas == len(TEXT)
    assert stats.text_chars == len(WHOLE)
    assert stats.reads_ending_mid_line >= 5 and stats.max_pending_line_chars > 0
    assert stats.as_dict()["bytes"] == len(body)


@given(st.data())
def test_per_read_stats_agree_with_the_parser_views_after_every_read(draw):
    """Every per-read counter equals what the parser's public views say after each read, recounted here."""
    body = chat(*TEXT) + b"data: {\"choices\": [{\"delta\": {\"content\": \"\xe4\xbd"  # cut mid-character
    pieces = draw.draw(partitions(body))
    stats = consume(pieces, "openai-chat", max_bytes_without_progress=None).stats
    parser = SSEParser(comments=True)
    expected = {"character": 0, "line": 0, "event": 0, "held": 0, "line_chars": 0, "event_chars": 0}
    sizes: dict[int, int] = {}
    for piece in pieces:
        parser.feed(piece)
        bucket = 0 if not piece else 2 ** (len(piece).bit_length() - 1)
        sizes[bucket] = sizes.get(bucket, 0) + 1
        held, line, event = len(parser.held_bytes), parser.pending_line_chars, parser.pending_event_chars
        expected["character"] += held > 0
        expected["line"] += line > 0
        expected["event"] += parser.has_pending_event
        expected["held"] = max(expected["held"], held)
        expected["line_chars"] = max(expected["line_chars"], line)
        expected["event_chars"] = max(expected["event_chars"], event)
    assert stats.read_sizes == sizes
    assert (
        stats.reads_ending_mid_character,
        stats.reads_ending_mid_line,
        stats.reads_ending_mid_event,
        stats.max_held_bytes,
        stats.max_pending_line_chars,
        stats.max_pending_event_chars,
    ) == tuple(expected.values())
    assert stats.reads_ending_mid_character >= 1  # the last read ends inside 你: the check is not vacuous


def test_describe_is_one_paragraph_without_payload_text():
    secret = "秘密的回答 secret answer"
    for body, contract in [
        (chat(secret), "openai-chat"),
        (chat(secret, done=False), "openai-chat"),
        (chat(secret)[:-1], "openai-chat"),
        (anthropic(secret, stop_reason="max_tokens"), "anthropic-messages"),
    ]:
        result = consume([body], contract)
        text = result.describe()
        assert "\n" not in text and secret not in text and "secret" not in text
        assert result.contract in text
    truncated = consume([chat(secret, done=False)], "openai-chat").describe()
    assert "truncated" in truncated and "provisional" in truncated


def test_activity_clocks_see_bytes_events_and_progress():
    now = [0.0]
    dog = Watchdog(byte_idle=5, event_idle=5, progress_idle=5, clock=lambda: now[0])
    consume([sse(": ping\n\n") for _ in range(3)], "openai-chat", activity=dog)
    assert (dog.bytes, dog.events, dog.progress) == (24, 3, 0)
    consume([chat("你好")], "openai-chat", activity=dog)
    assert dog.progress == 3  # the text delta, the finish reason, the [DONE] terminal


# --- never raises for what the stream contains ------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(sorted(CONTRACTS)), st.one_of(st.binary(max_size=200), sse_streams()), st.data())
def test_arbitrary_bytes_never_raise(contract, body, draw):
    result = consume(
        draw.draw(partitions(body)), contract, max_line_chars=50, max_event_chars=50, **ids(contract)
    )
    assert isinstance(result.outcome, Outcome)
    assert (result.final_text is not None) == (result.outcome is Outcome.COMPLETED and result.end_verified)
    assert not result.end_verified or result.outcome in (Outcome.COMPLETED, Outcome.INCOMPLETE)


@settings(max_examples=40, deadline=None)
@given(st.lists(tricky_text, min_size=1, max_size=6), st.data())
def test_any_text_any_chunking_round_trips(pieces, draw):
    pieces = [p for p in pieces if p] or ["é"]
    for contract, body in [
        ("openai-chat", chat(*pieces)),
        ("anthropic-messages", anthropic(*pieces)),
        ("ollama", ollama(*pieces)),
        ("gemini-json-array", gemini_array(*pieces)),
    ]:
        result = consume(draw.draw(partitions(body)), contract)
        assert result.outcome is Outcome.COMPLETED, contract
        assert result.final_text == "".join(pieces)


@pytest.mark.parametrize("how", ["close", "with", "garbage"])
def test_the_source_is_closed_even_if_the_updates_were_never_read(how):
    closes = []

    class Source:
        def __iter__(self):
            yield b"data: {}\n\n"

        def close(self):
            closes.append(1)

    updates = stream_updates(Source(), "openai-chat")
    if how == "close":
        updates.close()
        updates.close()  # twice is still once
    elif how == "with":
        with updates:
            pass
    else:
        del updates
        gc.collect()
    assert closes == [1]


def test_a_bad_contract_name_raises_at_once_and_releases_the_source():
    closes = []

    class Source(list):
        def close(self):
            closes.append(1)

    with pytest.raises(ValueError):
        stream_updates(Source(), "no-such-service")
    assert closes == [1]


# --- an end the bytes cannot prove ------------------------------------------------------------------------


def gemini_sse(*pieces: str, stop_every_chunk: bool) -> bytes:
    chunks = []
    for number, piece in enumerate(pieces, 1):
        candidate: dict = {"content": {"parts": [{"text": piece}]}}
        if stop_every_chunk or number == len(pieces):
            candidate["finishReason"] = "STOP"
        chunks.append(f"data: {json.dumps({'candidates': [candidate]}, ensure_ascii=False)}\r\n\r\n")
    return "".join(chunks).encode("utf-8")


@pytest.mark.parametrize("cut_after", [2, 3])
def test_a_finish_reason_on_every_chunk_leaves_the_end_unverified(cut_after):
    pieces = ("你好", "café ", "🙂!")
    body = gemini_sse(*pieces[:cut_after], stop_every_chunk=True)
    result = consume([body], "gemini")
    assert result.outcome is Outcome.COMPLETED and result.text == "".join(pieces[:cut_after])
    assert result.end_verified is False and result.final_text is None
    assert "cannot be verified" in result.describe() and "is final" not in result.describe()
    assert result.stats.contract["finish_reason_then_more"] == cut_after - 1


def test_a_finish_reason_on_the_last_chunk_only_proves_the_end():
    result = consume([gemini_sse("你好", "café ", "🙂!", stop_every_chunk=False)], "gemini")
    assert result.end_verified and result.final_text == "你好café 🙂!"
    assert "is final" in result.describe()


def test_the_json_array_bracket_proves_the_end_even_with_stop_on_every_chunk():
    elements = [{"candidates": [{"content": {"parts": [{"text": p}]}, "finishReason": "STOP"}]} for p in "ab"]
    body = ("[" + ",".join(json.dumps(e) for e in elements) + "]").encode("utf-8")
    result = consume([body], "gemini-json-array")
    assert result.end_verified and result.final_text == "ab"


def test_events_after_the_terminal_leave_the_end_unverified():
    body = chat("你好") + sse(data({"choices": [{"index": 0, "delta": {"content": "more"}}]}))
    result = consume([body], "openai-chat")
    assert result.outcome is Outcome.COMPLETED and result.text == "你好"
    assert not result.end_verified and result.final_text is None
    assert "1 more event came after the terminal signal" in result.describe()
    heartbeat_after = consume([chat("你好") + b": ping\n\n"], "openai-chat")
    assert heartbeat_after.end_verified and heartbeat_after.final_text == "你好"


def test_incomplete_streams_carry_end_verified_too():
    assert consume([chat("café", finish="length")], "openai-chat").end_verified
    cut = consume([chat("café", done=False)], "openai-chat")
    assert cut.outcome is Outcome.TRUNCATED and not cut.end_verified


# --- hardening: options, off-by-ones, and what survived mutation --------------------------------------------


@pytest.mark.parametrize("contract", sorted(CONTRACTS))
@pytest.mark.parametrize(
    ("option", "bad"),
    [
        ("max_events", 0),
        ("max_events", -1),
        ("max_events", True),
        ("max_bytes_without_progress", -1),
        ("max_bytes_without_progress", 2.5),
        ("max_line_chars", "100"),
        ("max_event_chars", 0.5),
        ("max_element_chars", False),
    ],
)
def test_every_limit_is_checked_whatever_the_framing_uses(contract, option, bad):
    source = CountingSource([chat("你好")])
    with pytest.raises(ValueError, match=rf"^{option} must be an int >= 1, or None; got "):
        consume(source, contract, **{option: bad}, **ids(contract))
    assert source.reads == 0 and source.closes == 1


def test_max_events_allows_exactly_that_many_events():
    body = chat("你好", "café", "🙂")  # 3 deltas, the finish, [DONE]: 5 events
    assert consume(one_byte_chunks(body), "openai-chat", max_events=5).outcome is Outcome.COMPLETED
    result = consume([body], "openai-chat", max_events=4)
    assert result.outcome is Outcome.LIMIT_EXCEEDED and result.error.event_index == 4
    # Comments (heartbeats) are not events.
    pinged = sse(": ping\n\n" * 3) + body
    assert consume([pinged], "openai-chat", max_events=5).outcome is Outcome.COMPLETED


def test_the_stall_check_allows_exactly_the_bound():
    first = chat("你好", finish=None, done=False)  # progress, in its own read
    ping = b": " + b"p" * 6 + b"\n\n"  # 10 bytes without progress
    rest = chat(finish="stop")
    for pings, outcome in ((3, Outcome.COMPLETED), (4, Outcome.LIMIT_EXCEEDED)):
        result = consume([first, ping * pings, rest], "openai-chat", max_bytes_without_progress=30 + 5)
        assert result.outcome is outcome, pings
    exact = consume([first, ping * 3, rest], "openai-chat", max_bytes_without_progress=30)
    assert exact.outcome is Outcome.COMPLETED  # 30 bytes since progress, bound 30: not past it
    over = consume([first, ping * 3 + b":", rest], "openai-chat", max_bytes_without_progress=30)
    # Crossed inside the second read: the offset is that read's end, and says it is not exact.
    assert over.outcome is Outcome.LIMIT_EXCEEDED and over.error.offset == len(first) + 31
    assert not over.error.offset_exact and f"in the read ending at byte {len(first) + 31}" in over.describe()


def test_terminal_then_an_unfinished_tail_then_a_source_error_is_truncated():
    body = chat("你好", "完成")  # the [DONE] terminal arrives whole
    for tail, cut in ((b"data: {\"x", "line"), (b"data: {}\n", "event"), ("é".encode()[:1], "character")):
        source = CountingSource([body, tail], fail_at=2)
        result = consume(source, "openai-chat")
        assert result.outcome is Outcome.TRUNCATED and result.truncated_at == cut, tail
        assert result.final_text is None and result.error.kind == "ConnectionResetError"
    # The same error after a clean boundary changes nothing: the terminal's verdict stands.
    clean = consume(CountingSource([body, b": bye\n\n"], fail_at=2), "openai-chat")
    assert clean.outcome is Outcome.COMPLETED and clean.final_text == "你好完成"


@pytest.mark.parametrize("done", [1, "true", [True], {"x": 1}, 1.0])
def test_ollama_done_must_be_the_json_true(done):
    lines = [
        {"message": {"role": "assistant", "content": "你好 café"}, "done": False},
        {"message": {"role": "assistant", "content": ""}, "done": done, "done_reason": "stop"},
    ]
    body = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode()
    result = consume([body], "ollama")
    assert result.outcome is Outcome.TRUNCATED and result.truncated_at == "completion"
    assert consume([ollama("你好 café")], "ollama").outcome is Outcome.COMPLETED


def test_describe_never_prints_an_exact_looking_offset_that_is_only_a_read_end():
    error_event = data({"error": {"message": "overloaded", "type": "server_error"}})
    body = chat("你好", finish=None, done=False) + sse(error_event)
    result = consume([body, b": more\n\n"], "openai-chat")
    assert result.outcome is Outcome.SERVICE_ERROR and not result.error.offset_exact
    assert f"in the read ending at byte {len(body)}" in result.describe()
    assert "at byte offset" not in result.describe()
    too_many = consume([chat("é", "🙂")], "openai-chat", max_events=2)
    assert not too_many.error.offset_exact and "in the read ending at byte" in too_many.describe()
    bad_json = consume([chat("你好") + sse(data("{not json"))], "openai-chat")
    assert bad_json.outcome is Outcome.COMPLETED  # after the terminal: checked by the framing only
    broken = consume([sse(data("{not json")) + chat("x")], "openai-chat")
    assert broken.outcome is Outcome.DECODE_ERROR and not broken.error.offset_exact
    assert "in the read ending at byte" in broken.describe()
    # An offset the parser found exactly keeps its wording.
    decode = consume([chat("你好")[:20] + b"\xff" + chat("x")], "openai-chat")
    assert decode.error.offset == 20 and decode.error.offset_exact
    assert "at byte offset 20" in decode.describe()


_LONG = st.sampled_from(["9" * 4301, "0" * 4400 + "7", "你" * 3000, "é🙂" * 2000, "x" * 20_000])


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(sorted(CONTRACTS)),
    st.lists(st.tuples(st.sampled_from(["retry", "data", "id", "event", ":"]), _LONG), max_size=4),
    st.data(),
)
def test_long_fields_never_raise_at_the_default_limits(contract, fields, draw):
    # The fuzz test above sets tiny limits; this one keeps the defaults and sends long fields, the
    # class of input that once let int()'s 4,300-digit limit escape as a ValueError.
    body = sse(*(f"{name}: {value}\n" for name, value in fields), "\n") + chat("完成")
    result = consume(draw.draw(partitions(body)), contract, **ids(contract))
    assert isinstance(result.outcome, Outcome)


def test_parsers_refuse_str_reads_on_every_read():
    from lesson_lib.core.ndjson import JSONArrayParser, NDJSONParser

    for parser in (NDJSONParser(), JSONArrayParser(), SSEParser()):
        for _ in range(2):
            with pytest.raises(TypeError, match=r"^feed\(\) takes bytes, got str$"):
                parser.feed('{"a": "你好"}\n')
            parser.feed(b" ")


def test_a_terminal_without_any_finish_reason_is_not_called_a_cut_answer():
    result = consume([chat("你好", finish=None)], "openai-chat")  # [DONE] with no finish_reason chunk
    assert result.outcome is Outcome.INCOMPLETE and result.final_text is None
    assert "gave no finish reason" in result.describe() and "is a cut answer" not in result.describe()
    cut = consume([chat("你好", finish="length")], "openai-chat").describe()
    assert "is a cut answer" in cut


@pytest.mark.parametrize("tail", [b"   ", b" \t ", b"\r", b"  \r"])
def test_an_ndjson_body_ending_in_whitespace_without_lf_is_not_cut_in_a_line(tail):
    """issue 23 (mutant completion ~663, ``if line:``): NDJSON ignores blank lines, so whitespace after the
    last LF is no unfinished line: the answer is completed in every chunking."""
    body = ollama("你好", "café 🙂") + tail
    for chunks in ([body], list(one_byte_chunks(body))):
        result = consume(chunks, "ollama")
        assert (result.outcome, result.truncated_at, result.text) == ("completed", None, "你好café 🙂")


@pytest.mark.parametrize(
    "name", ["openai-chat/completed", "anthropic-messages/truncated_mid_line", "gemini/completed"]
)
def test_keep_text_false_keeps_no_text_and_changes_nothing_else(name):
    from dataclasses import replace

    from lesson_lib.captures import load

    capture = load(name)
    reads = [capture.body[i : i + 7] for i in range(0, len(capture.body), 7)]
    kept = consume(reads, capture.contract)
    unkept = consume(reads, capture.contract, keep_text=False)
    assert unkept.text == "" and unkept.final_text == ("" if kept.is_final else None)
    assert unkept.stats.text_chars == kept.stats.text_chars > 0
    assert replace(unkept, text=kept.text, final_text=kept.final_text) == kept
    assert list(stream_updates(reads, capture.contract, keep_text=False))[:-1] == list(
        stream_updates(reads, capture.contract)
    )[:-1]


def test_keep_text_must_be_a_bool():
    with pytest.raises(TypeError, match="keep_text"):
        consume([b""], "openai-chat", keep_text="no")
