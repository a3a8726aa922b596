"""The services Chinese engineers call (issue 29): DashScope's native stream (``dashscope``), cumulative or
incremental; Zhipu GLM's finish reasons and Qwen's compatible-mode usage chunk (``openai-chat``).

The bodies are built here in the documented wire formats (``docs/research/chinese_services.md``) and run
through :func:`consume` whole, byte by byte, at every two-piece split and in hypothesis-chosen chunkings:
the completion, cut and error rules must hold in every chunking.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import consume, set_language
from lesson_lib.core.chunking import one_byte_chunks, two_piece_splits
from lesson_lib.core.completion import Outcome, Unit
from lesson_lib.core.contracts import TextDelta, Unknown, get_contract
from lesson_lib.core.errors import FramingError
from lesson_lib.core.sse import Event
from lesson_lib.i18n import get_language
from tests.strategies import partitions, tricky_text

PIECES = ["你好", "，Café", " 与 naïve", " Ångström", "🙂", " 👩\u200d💻", " 完成。"]
WHOLE = "".join(PIECES)


@pytest.fixture
def restore_language():
    before = get_language()
    yield
    set_language(before)


# --- DashScope native: the wire format as documented --------------------------------------------------


def ds_event(number: int, content: str, finish: str = "null", reasoning: str | None = None) -> bytes:
    message = {"content": content, "role": "assistant"}
    if reasoning is not None:
        message["reasoning_content"] = reasoning
    payload = {
        "output": {"choices": [{"message": message, "finish_reason": finish}]},
        "usage": {"total_tokens": 11 + number, "output_tokens": number, "input_tokens": 11},
        "request_id": "00000000-0000-4000-8000-000000000009",
    }
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return f"id:{number}\nevent:result\n:HTTP_STATUS/200\ndata:{data}\n\n".encode()


def ds_stream(pieces, *, cumulative: bool, finish: str | None = "stop") -> bytes:
    """The events of one answer: cumulative (each the whole text so far, the last the whole answer) or
    incremental (each the new text, the last empty); ``finish=None``: no final event."""
    events, so_far = [], ""
    for number, piece in enumerate(pieces, 1):
        so_far += piece
        events.append(ds_event(number, so_far if cumulative else piece))
    if finish is not None:
        events.append(ds_event(len(pieces) + 1, so_far if cumulative else "", finish))
    return b"".join(events)


def every_chunking(body: bytes):
    yield [body]
    yield one_byte_chunks(body)
    for _, pieces in two_piece_splits(body):
        yield pieces


@pytest.mark.parametrize("cumulative", [False, True])
def test_dashscope_completed_in_every_two_piece_split_and_byte_by_byte(cumulative):
    body = ds_stream(PIECES, cumulative=cumulative)
    options = {} if cumulative else {"incremental_output": True}
    for pieces in every_chunking(body):
        result = consume(pieces, "dashscope", **options)
        assert result.outcome is Outcome.COMPLETED and result.is_final
        assert result.text == result.final_text == WHOLE
        assert result.finish_reason == "stop" and result.error is None


def test_cumulative_is_the_documented_default_and_is_never_appended():
    body = ds_stream(PIECES, cumulative=True)
    contents = [
        json.loads(line[5:])["output"]["choices"][0]["message"]["content"]
        for line in body.decode().split("\n")
        if line.startswith("data:")
    ]
    appended = "".join(contents)  # what a client that appends every event shows
    assert appended != WHOLE and appended.startswith("你好你好，Café")
    result = consume([body], "dashscope")  # no option: incremental_output false, as documented
    assert result.final_text == WHOLE == contents[-1]  # the last event's text
    assert result.stats.text_chars == len(WHOLE)  # each character counted once
    assert consume([body], "dashscope", incremental_output=False).final_text == WHOLE


@settings(max_examples=60, deadline=None)
@given(st.lists(tricky_text, min_size=1, max_size=6), st.booleans(), st.data())
def test_dashscope_any_text_any_chunking_both_modes(pieces, cumulative, draw):
    pieces = [p for p in pieces if p] or ["é"]
    body = ds_stream(pieces, cumulative=cumulative)
    result = consume(draw.draw(partitions(body)), "dashscope", incremental_output=not cumulative)
    assert result.outcome is Outcome.COMPLETED
    assert result.final_text == "".join(pieces)


@settings(max_examples=80, deadline=None)
@given(st.booleans(), st.data())
def test_dashscope_no_strict_prefix_completes_and_the_text_only_grows(cumulative, draw):
    body = ds_stream(PIECES, cumulative=cumulative)
    cut = draw.draw(st.integers(0, len(body) - 1))
    result = consume(draw.draw(partitions(body[:cut])), "dashscope", incremental_output=not cumulative)
    assert result.outcome is Outcome.TRUNCATED
    assert result.final_text is None and not result.is_final
    assert WHOLE.startswith(result.text)


def test_dashscope_eof_before_stop_is_truncated_even_at_an_event_boundary():
    for cumulative in (False, True):
        body = ds_stream(PIECES, cumulative=cumulative, finish=None)
        for pieces in every_chunking(body):
            result = consume(pieces, "dashscope", incremental_output=not cumulative)
            assert (result.outcome, result.truncated_at) == (Outcome.TRUNCATED, Unit.COMPLETION)
            assert result.text == WHOLE and result.final_text is None and result.finish_reason is None


def test_dashscope_cut_inside_a_character_is_truncated_at_the_character():
    body = ds_stream(PIECES, cumulative=True)
    at = body.index("🙂".encode()) + 2
    for pieces in every_chunking(body[:at]):
        result = consume(pieces, "dashscope")
        assert (result.outcome, result.truncated_at) == (Outcome.TRUNCATED, Unit.CHARACTER)
        assert result.text == "".join(PIECES[:4])


def test_dashscope_length_is_incomplete_and_other_reasons_do_not_end_the_stream():
    for cumulative in (False, True):
        option = {"incremental_output": not cumulative}
        cut = consume([ds_stream(PIECES, cumulative=cumulative, finish="length")], "dashscope", **option)
        assert (cut.outcome, cut.finish_reason, cut.end_verified) == (Outcome.INCOMPLETE, "length", True)
        assert cut.text == WHOLE and cut.final_text is None
        other = consume(
            [ds_stream(PIECES, cumulative=cumulative, finish="tool_calls")], "dashscope", **option
        )
        assert (other.outcome, other.truncated_at) == (Outcome.TRUNCATED, Unit.COMPLETION)
        assert other.finish_reason == "tool_calls"


def rewritten_body() -> tuple[bytes, int]:
    """A cumulative stream whose third event does not extend the second; and where that event ends."""
    events = [ds_event(1, "你好"), ds_event(2, "你好，Café"), ds_event(3, "你好，Cafe\u0301 naïve")]
    events.append(ds_event(4, "你好，Cafe\u0301 naïve", "stop"))
    return b"".join(events), len(b"".join(events[:3]))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["strict", "replace"]), st.data())
def test_cumulative_text_that_does_not_extend_is_a_decode_error_in_every_chunking(errors, draw):
    body, third_end = rewritten_body()
    result = consume(draw.draw(partitions(body)), "dashscope", errors=errors)
    assert result.outcome is Outcome.DECODE_ERROR
    error = result.error
    assert error is not None and error.kind == "FramingError" and error.event_index == 2
    assert third_end <= error.offset <= len(body) and error.offset_exact is False
    assert "differ at character 6" in error.message  # é precomposed vs e + combining accent
    assert "naïve" not in error.message and "Caf" not in error.message  # never the text
    assert result.text == "你好，Café" and result.final_text is None


def test_an_incremental_stream_read_as_cumulative_says_how_to_fix_it():
    body = ds_stream(PIECES, cumulative=False)
    wrong = consume([body], "dashscope")
    assert wrong.outcome is Outcome.DECODE_ERROR and "incremental_output=True" in wrong.error.message
    assert consume([body], "dashscope", incremental_output=True).final_text == WHOLE


def test_dashscope_reasoning_stays_apart_from_the_text():
    body = b"".join(
        [
            ds_event(1, "", reasoning="嗯，用户问"),
            ds_event(2, "", reasoning=" café 🙂"),
            ds_event(3, "你好"),
            ds_event(4, "", "stop"),
        ]
    )
    result = consume([body], "dashscope", incremental_output=True)
    assert (result.final_text, result.reasoning_text) == ("你好", "嗯，用户问 café 🙂")


def test_dashscope_event_error_is_not_interpreted_and_the_stream_stays_truncated():
    """Mid-stream errors are not verified in DashScope's documentation: an ``event:error`` is Unknown."""
    error = b'id:2\nevent:error\n:HTTP_STATUS/400\ndata:{"code":"InvalidParameter","message":"x"}\n\n'
    body = ds_event(1, "你好") + error
    result = consume([body], "dashscope")
    assert (result.outcome, result.truncated_at) == (Outcome.TRUNCATED, Unit.COMPLETION)
    assert result.stats.unknown_events == 1 and result.text == "你好"
    signals = get_contract("dashscope").interpret(Event("error", '{"code":"InvalidParameter"}', "2"))
    assert signals == [Unknown("event:error")]


def test_dashscope_shapes_that_are_not_a_message_result_never_raise():
    contract = get_contract("dashscope")
    assert contract.interpret(Event("result", '{"output":{"text":"你好","finish_reason":"null"}}', "")) == [
        Unknown("no-choices")
    ]
    assert contract.interpret(Event("result", "[]", "")) == [Unknown("no-choices")]
    with pytest.raises(FramingError):
        contract.interpret(Event("result", '{"output":', ""))


def test_incremental_output_is_checked_before_any_io_and_only_dashscope_takes_it():
    class Source:
        closed = 0

        def __iter__(self):
            raise AssertionError("read")

        def close(self):
            Source.closed += 1

    with pytest.raises(ValueError, match="incremental_output is only for the dashscope contract"):
        consume(Source(), "openai-chat", incremental_output=True)
    with pytest.raises(ValueError, match="incremental_output must be True, False or None"):
        consume(Source(), "dashscope", incremental_output=1)
    assert Source.closed == 2
    assert get_contract("dashscope").incremental is False
    assert get_contract("dashscope", incremental_output=True).incremental is True


def test_describe_says_it_in_both_languages_without_the_text(restore_language):
    body, _ = rewritten_body()
    result = consume([body], "dashscope")
    said = {}
    for code in ("en", "zh-CN"):
        set_language(code)
        said[code] = result.describe()
        assert "dashscope" in said[code] and "Café" not in said[code]
    assert "decoding error" in said["en"]
    assert said["en"] != said["zh-CN"]


# --- Zhipu GLM and Qwen's compatible mode: openai-chat -------------------------------------------------


def glm_chunk(delta: dict, finish: str | None = None, usage: bool = False) -> bytes:
    payload: dict = {
        "id": "20260101000000abcdef",
        "created": 1767225600,
        "model": "glm-4.6",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    if usage:
        payload["usage"] = {"prompt_tokens": 8, "completion_tokens": 7, "total_tokens": 15}
    return ("data: " + json.dumps(payload, ensure_ascii=False, separators=(",", ":")) + "\n\n").encode()


def glm_stream(finish: str, done: bool = True) -> bytes:
    events = [glm_chunk({"content": piece}) for piece in PIECES]
    events.append(glm_chunk({"role": "assistant", "content": ""}, finish, usage=True))
    return b"".join(events) + (b"data: [DONE]\n\n" if done else b"")


def test_zhipu_stop_then_done_is_completed():
    for pieces in every_chunking(glm_stream("stop")):
        result = consume(pieces, "openai-chat")
        assert result.is_final and result.final_text == WHOLE and not result.withdraw_shown_text


def test_zhipu_sensitive_is_a_cut_answer_to_withdraw_in_every_chunking(restore_language):
    for done in (True, False):
        for pieces in every_chunking(glm_stream("sensitive", done)):
            result = consume(pieces, "openai-chat")
            want = Outcome.INCOMPLETE if done else Outcome.TRUNCATED
            assert (result.outcome, result.finish_reason) == (want, "sensitive")
            assert result.withdraw_shown_text and result.final_text is None
            assert result.text == WHOLE  # what was shown: the UI decides whether to take it back
    result = consume([glm_stream("sensitive")], "openai-chat")
    set_language("en")
    assert "withdraw the text already shown" in result.describe()
    set_language("zh-CN")
    assert "撤回已经显示的文本" in result.describe()
    for other in ("length", "stop", "content_filter"):
        assert not consume([glm_stream(other)], "openai-chat").withdraw_shown_text


@settings(max_examples=60, deadline=None)
@given(st.booleans(), st.data())
def test_zhipu_network_error_is_a_failure_whether_or_not_done_follows(done, draw):
    body = glm_stream("network_error", done)
    result = consume(draw.draw(partitions(body)), "openai-chat")
    assert result.outcome is Outcome.SERVICE_ERROR and not result.is_final
    assert (result.error.error_type, result.finish_reason) == ("network_error", "network_error")
    assert result.text == WHOLE and result.final_text is None


def test_qwen_compatible_usage_chunk_with_empty_choices_is_no_text_and_no_error():
    base = {
        "object": "chat.completion.chunk",
        "created": 1767225600,
        "model": "qwen-plus",
        "id": "chatcmpl-9",
    }

    def chunk(choices, usage=None) -> bytes:
        payload = {"choices": choices, **base, "usage": usage, "system_fingerprint": None}
        return ("data: " + json.dumps(payload, ensure_ascii=False) + "\n\n").encode()

    def choice(delta, finish=None):
        return [{"delta": delta, "index": 0, "logprobs": None, "finish_reason": finish}]

    body = (
        chunk(choice({"content": "", "role": "assistant"}))
        + chunk(choice({"content": "你好，Café 🙂"}))
        + chunk(choice({"content": ""}, "stop"))
        + chunk([], {"prompt_tokens": 11, "completion_tokens": 3, "total_tokens": 14})
        + b"data: [DONE]\n\n"
    )
    for pieces in every_chunking(body):
        result = consume(pieces, "openai-chat")
        assert result.is_final and result.final_text == "你好，Café 🙂"
        assert result.stats.deltas == 1 and result.stats.unknown_events == 0
    usage = get_contract("openai-chat").interpret(
        Event("message", json.dumps({"choices": [], "usage": {}}), "")
    )
    assert not any(isinstance(s, TextDelta) for s in usage)


def test_a_chunk_without_a_choices_list_is_not_a_chat_chunk():
    contract = get_contract("openai-chat")
    assert contract.interpret(Event("message", '{"output":{},"usage":{"total_tokens":3}}', "")) == [
        Unknown("no-choices")
    ]


def test_the_plain_wording_says_withdraw_too():
    from lesson_lib.core import wording

    result = consume([glm_stream("sensitive")], "openai-chat")
    assert "withdraw_shown_text=True" in wording.PLAIN.describe(result)
    assert "withdraw" not in wording.PLAIN.describe(consume([glm_stream("stop")], "openai-chat"))


def test_dashscope_status_comments_are_not_heartbeats_and_other_comments_are():
    """``:HTTP_STATUS/200`` comes with every DashScope event: the event's status line, not a sign that the
    connection lives while nothing else comes (a heartbeat). A comment of any other text still is one."""
    from lesson_lib import stream_updates
    from lesson_lib.captures import load
    from lesson_lib.core.contracts import Heartbeat

    capture = load("dashscope/completed")
    assert capture.body.count(b":HTTP_STATUS/200\n") > 1
    updates = list(stream_updates([capture.body], "dashscope"))
    assert not any(isinstance(u, Heartbeat) for u in updates)
    assert updates[-1].stats.heartbeats == 0 and updates[-1].outcome.value == "completed"
    status = b":HTTP_STATUS/200\n"
    with_ping = b": ping\n\n" + capture.body.replace(status, status + b": keep-alive\n", 1)
    result = consume([with_ping], "dashscope")
    assert result.stats.heartbeats == 2 and result.text == consume([capture.body], "dashscope").text
