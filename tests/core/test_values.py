"""The value boundary: tool calls, their arguments text, and reasoning, for every service and chunking.

What must hold (lesson_lib.core.values, fed by lesson_lib.core.contracts):

* the same ``tool_calls`` and ``reasoning_text`` whatever the reads (property, below, and over every capture
  in tests/core/test_captures_outcomes.py);
* ``arguments`` only when the service closed the call and the whole text parses strictly; a closed call
  whose text does not parse says so in ``error``;
* a closed call's text never grows, and no prefix of a stream yields a closed call shorter than the final;
* reasoning is never answer text;
* ``max_tool_arguments_chars`` bounds one call's text and raises, never drops.
"""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import Outcome, ToolCall, consume, provisional
from lesson_lib.captures import load, names
from lesson_lib.core.chunking import one_byte_chunks, split_at
from lesson_lib.core.completion import check_options
from lesson_lib.core.options import OptionError
from lesson_lib.core.values import Provisional, ValueAssembler, parse_arguments
from tests.strategies import partitions, tricky_text

# -- little stream builders (wire shapes as in CONTRACTS.md) ------------------------------------------------


def sse(*payloads: object, done: bool = False, named: bool = False) -> bytes:
    out = []
    for payload in payloads:
        data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        head = f"event: {payload['type']}\n" if named else ""  # type: ignore[index]
        out.append(f"{head}data: {data}\n\n")
    if done:
        out.append("data: [DONE]\n\n")
    return "".join(out).encode()


def chat_chunk(delta: dict, finish: str | None = None) -> dict:
    return {
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def chat_calls(calls: list[tuple[str, list[str]]], finish: str = "tool_calls", done: bool = True) -> bytes:
    """Chat tool calls interleaved by index: all starts, then fragment 0 of each, fragment 1 of each..."""
    chunks = [chat_chunk({"role": "assistant", "content": None})]
    for index, (name, _) in enumerate(calls):
        start = {"index": index, "id": f"call_{index}", "type": "function", "function": {"name": name}}
        chunks.append(chat_chunk({"tool_calls": [start]}))
    for position in range(max(len(f) for _, f in calls)):
        for index, (_, fragments) in enumerate(calls):
            if position < len(fragments):
                entry = {"index": index, "function": {"arguments": fragments[position]}}
                chunks.append(chat_chunk({"tool_calls": [entry]}))
    chunks.append(chat_chunk({}, finish))
    return sse(*chunks, done=done)


def anth(kind: str, **fields: object) -> dict:
    return {"type": kind, **fields}


def anthropic_tool(fragments: list[str], *, stop: bool = True) -> bytes:
    events = [
        anth("message_start", message={"id": "msg_1", "content": []}),
        anth("content_block_start", index=0, content_block={"type": "thinking", "thinking": ""}),
        anth("content_block_delta", index=0, delta={"type": "thinking_delta", "thinking": "先想一想🙂"}),
        anth("content_block_delta", index=0, delta={"type": "signature_delta", "signature": "EqQBCg=="}),
        anth("content_block_stop", index=0),
        anth(
            "content_block_start",
            index=1,
            content_block={"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}},
        ),
    ]
    for fragment in fragments:
        events.append(
            anth("content_block_delta", index=1, delta={"type": "input_json_delta", "partial_json": fragment})
        )
    if stop:
        events.append(anth("content_block_stop", index=1))
    events += [
        anth("message_delta", delta={"stop_reason": "tool_use", "stop_sequence": None}),
        anth("message_stop"),
    ]
    return sse(*events, named=True)


def split_text(text: str, cuts: list[int]) -> list[str]:
    """``text`` cut at character offsets (a fragment may be empty)."""
    points = [0, *sorted(c for c in cuts if 0 < c < len(text)), len(text)]
    return [text[a:b] for a, b in itertools.pairwise(points)]


# -- per service --------------------------------------------------------------------------------------------


def test_openai_chat_parallel_calls_interleave_by_index_and_close_at_done():
    body = chat_calls([("get_weather", ['{"city": "北', '京"}']), ("send", ['{"t": "\\ud83d', '\\ude80"}'])])
    result = consume(one_byte_chunks(body), "openai-chat")
    assert result.outcome is Outcome.COMPLETED
    assert [c.name for c in result.tool_calls] == ["get_weather", "send"]
    assert [c.id for c in result.tool_calls] == ["call_0", "call_1"]
    assert result.tool_calls[0] == ToolCall(
        "call_0", "get_weather", '{"city": "北京"}', {"city": "北京"}, True
    )
    assert result.tool_calls[1].arguments == {"t": "🚀"}
    assert result.text == "" and result.final_text == ""


def test_openai_chat_calls_stay_open_without_done_or_after_length():
    calls = [("f", ['{"a": 1', "2}"])]
    for body in (chat_calls(calls, done=False), chat_calls(calls, finish="length")):
        result = consume([body], "openai-chat")
        (call,) = result.tool_calls
        assert call.arguments_text == '{"a": 12}' and not call.complete and call.arguments is None
        assert call.error is None


def test_openai_chat_reasoning_content_is_reasoning_not_text():
    body = sse(
        chat_chunk({"role": "assistant", "content": None, "reasoning_content": "想一想，"}),
        chat_chunk({"content": None, "reasoning_content": "naïve 🙂"}),
        chat_chunk({"content": "答案", "reasoning_content": None}),
        chat_chunk({}, "stop"),
        done=True,
    )
    result = consume([body], "openai-chat")
    assert (result.reasoning_text, result.text, result.final_text) == ("想一想，naïve 🙂", "答案", "答案")


def responses_call(deltas: list[str], done_text: str | None = None, *, item_done: bool = True) -> bytes:
    whole = "".join(deltas) if done_text is None else done_text
    item = {"id": "fc_1", "type": "function_call", "call_id": "call_9", "name": "f", "arguments": ""}
    events = [
        {"type": "response.created", "response": {}},
        {"type": "response.reasoning_summary_text.delta", "item_id": "rs_1", "delta": "**想**"},
        {"type": "response.output_item.added", "output_index": 1, "item": item},
    ]
    events += [
        {"type": "response.function_call_arguments.delta", "item_id": "fc_1", "delta": d} for d in deltas
    ]
    events.append({"type": "response.function_call_arguments.done", "item_id": "fc_1", "arguments": whole})
    if item_done:
        events.append(
            {"type": "response.output_item.done", "output_index": 1, "item": dict(item, arguments=whole)}
        )
    events.append({"type": "response.completed", "response": {}})
    for n, event in enumerate(events):
        event["sequence_number"] = n
    return sse(*events, named=True)


def test_openai_responses_function_call_items_and_reasoning_summary():
    result = consume(one_byte_chunks(responses_call(['{"q": "Zü', 'rich 苏黎世"}'])), "openai-responses")
    assert result.tool_calls == [
        ToolCall("call_9", "f", '{"q": "Zürich 苏黎世"}', {"q": "Zürich 苏黎世"}, True)
    ]
    assert result.reasoning_text == "**想**" and result.text == ""


@pytest.mark.parametrize("item_done", [True, False])
def test_openai_responses_done_text_that_differs_from_the_fragments_is_reported(item_done):
    body = responses_call(['{"a": 1}'], done_text='{"a": 2}', item_done=item_done)
    result = consume([body], "openai-responses")
    (call,) = result.tool_calls
    assert call.complete and call.arguments is None
    assert call.error is not None and "differs" in call.error


def test_openai_responses_output_item_done_that_differs_is_reported_too():
    body = responses_call(['{"a": 1}'])  # .done agrees with the fragments
    body = body.replace(b'"arguments":"{\\"a\\": 1}"}', b'"arguments":"{\\"a\\": 3}"}', 1)
    assert body.count(b'\\"a\\": 3') == 1  # only the output_item.done item changed
    (call,) = consume([body], "openai-responses").tool_calls
    assert call.complete and call.arguments is None and "differs" in (call.error or "")


def test_anthropic_thinking_signature_and_tool_use():
    result = consume(
        one_byte_chunks(anthropic_tool(["", '{"city": "苏', '黎世", "n": ', "3}"])), "anthropic-messages"
    )
    assert result.outcome is Outcome.COMPLETED
    assert result.reasoning_text == "先想一想🙂"  # the signature is not text of any kind
    assert "EqQB" not in result.reasoning_text + result.text
    assert result.tool_calls == [
        ToolCall("toolu_1", "f", '{"city": "苏黎世", "n": 3}', {"city": "苏黎世", "n": 3}, True)
    ]


def test_anthropic_tool_use_without_fragments_has_the_start_input():
    (call,) = consume([anthropic_tool([])], "anthropic-messages").tool_calls
    assert (call.arguments_text, call.arguments, call.complete) == ("{}", {}, True)


def test_anthropic_block_stop_closes_the_call_before_message_stop():
    body = anthropic_tool(['{"a": ', "1}"])
    cut = body.index(b"event: message_delta")
    result = consume([body[:cut]], "anthropic-messages")
    assert result.outcome is Outcome.TRUNCATED and result.truncated_at == "completion"
    assert result.tool_calls[0].complete and result.tool_calls[0].arguments == {"a": 1}


def test_a_closed_call_whose_text_does_not_parse_says_so_and_is_never_guessed():
    result = consume([anthropic_tool(['{"city": "北京", "n": '])], "anthropic-messages")
    (call,) = result.tool_calls
    assert call.complete and call.arguments is None
    assert call.error is not None and "not valid JSON" in call.error and "北京" not in call.error
    assert "1 whose arguments did not parse" in result.describe()
    assert "北京" not in result.describe()


@pytest.mark.parametrize("text", ['{"n": NaN}', '{"n": Infinity}', '{"n": -Infinity}', "", "{", '{"a": 1} x'])
def test_strict_parse_refuses_what_is_not_rfc_8259_json(text):
    value, error = parse_arguments(text)
    assert value is None and error is not None


def gemini_chunk(*parts: dict, finish: str | None = None) -> dict:
    candidate: dict = {"content": {"parts": list(parts), "role": "model"}}
    if finish:
        candidate["finishReason"] = finish
    return {"candidates": [candidate]}


@pytest.mark.parametrize("contract", ["gemini", "gemini-json-array"])
def test_gemini_function_call_parts_arrive_whole_and_thought_parts_are_reasoning(contract):
    chunks = [
        gemini_chunk({"text": "**思考** 🙂", "thought": True}),
        gemini_chunk(
            {"text": "好的"},
            {"functionCall": {"name": "f", "args": {"city": "北京", "n": [1, 2]}}},
            finish="STOP",
        ),
    ]
    if contract == "gemini":
        body = sse(*chunks)
    else:
        body = (
            "[" + ",\r\n".join(json.dumps(c, ensure_ascii=False, indent=2) for c in chunks) + "]"
        ).encode()
    result = consume(one_byte_chunks(body), contract)
    assert result.outcome is Outcome.COMPLETED
    assert (result.text, result.reasoning_text) == ("好的", "**思考** 🙂")
    assert result.tool_calls == [
        ToolCall(None, "f", '{"city":"北京","n":[1,2]}', {"city": "北京", "n": [1, 2]}, True)
    ]


def test_ollama_thinking_and_whole_tool_calls():
    lines = [
        {"message": {"role": "assistant", "content": "", "thinking": "想🙂"}, "done": False},
        {
            "message": {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {"function": {"name": "f", "arguments": {"city": "Zürich"}}},
                    {"function": {"name": "g", "arguments": {}}},
                ],
            },
            "done": False,
        },
        {"message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop"},
    ]
    body = b"".join(json.dumps(x, ensure_ascii=False).encode() + b"\n" for x in lines)
    result = consume(one_byte_chunks(body), "ollama")
    assert result.reasoning_text == "想🙂"
    assert [(c.name, c.arguments, c.complete) for c in result.tool_calls] == [
        ("f", {"city": "Zürich"}, True),
        ("g", {}, True),
    ]


# -- strictness: a closed call never grows ------------------------------------------------------------------


def test_a_fragment_after_the_call_closed_is_a_decode_error_not_an_append():
    events = anthropic_tool(['{"a": 1}']).split(b"event: message_delta")[0]
    late = sse(anth("content_block_delta", index=1, delta={"type": "input_json_delta", "partial_json": "x"}),
               named=True)  # fmt: skip
    assembler = ValueAssembler()
    from lesson_lib.core.contracts import ToolCallDelta, ToolCallEnd, ToolCallStart

    assembler.apply(ToolCallStart("k", "id", "f"))
    assembler.apply(ToolCallDelta("k", "{}"))
    assembler.apply(ToolCallEnd("k"))
    with pytest.raises(Exception, match="after it was closed"):
        assembler.apply(ToolCallDelta("k", " "))
    with pytest.raises(Exception, match="never started"):
        assembler.apply(ToolCallDelta("other", "{"))
    assert assembler.tool_calls()[0].arguments_text == "{}"
    # Through the contract, an input_json_delta for a closed block is not a tool fragment (the block is no
    # longer a tool_use block in progress): it never reaches the call.
    result = consume([events + late], "anthropic-messages")
    assert result.tool_calls[0].arguments_text == '{"a": 1}'


# -- limits -------------------------------------------------------------------------------------------------


def test_max_tool_arguments_chars_allows_exactly_the_bound_and_raises_past_it():
    text = '{"city": "北京🙂"}'
    body = chat_calls([("f", split_text(text, [3, 11]))])
    exact = consume(one_byte_chunks(body), "openai-chat", max_tool_arguments_chars=len(text))
    assert exact.outcome is Outcome.COMPLETED and exact.tool_calls[0].arguments == {"city": "北京🙂"}
    over = consume(one_byte_chunks(body), "openai-chat", max_tool_arguments_chars=len(text) - 1)
    assert over.outcome is Outcome.LIMIT_EXCEEDED
    assert over.error is not None and over.error.limit == "max_tool_arguments_chars"
    assert over.error.offset is not None and not over.error.offset_exact
    assert consume([body], "openai-chat", max_tool_arguments_chars=None).outcome is Outcome.COMPLETED


@pytest.mark.parametrize("bad", [0, -1, True, 1.5, "10"])
def test_max_tool_arguments_chars_is_checked_before_any_io(bad):
    with pytest.raises(OptionError, match="max_tool_arguments_chars"):
        check_options("openai-chat", max_tool_arguments_chars=bad)


# -- the provisional view -----------------------------------------------------------------------------------


def test_provisional_is_a_marked_guess_and_never_part_of_a_result():
    assert isinstance(provisional('{"city": "北'), Provisional)
    assert provisional('{"city": "北').value == {"city": "北"}
    assert provisional('{"days": 1').value == {"days": 1}  # the final value may be 14: a guess
    assert provisional("").value is None and provisional("garbage").value is None
    assert "display only" in repr(provisional('{"a": "b'))
    assert not any(isinstance(getattr(ToolCall, f, None), Provisional) for f in ToolCall.__dataclass_fields__)
    result = consume([chat_calls([("f", ['{"a": "b'])], done=False)], "openai-chat")
    assert result.tool_calls[0].arguments is None  # the provisional {"a": "b"} is not stored


# -- properties ---------------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | tricky_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(tricky_text, inner, max_size=3),
    max_leaves=8,
)


@st.composite
def tool_call_streams(draw: st.DrawFn) -> tuple[bytes, list[tuple[str, str]]]:
    """A chat stream of 1-3 calls whose arguments JSON (raw or \\u-escaped) is cut at any characters."""
    calls = []
    for _ in range(draw(st.integers(1, 3))):
        value = draw(st.dictionaries(tricky_text, json_values, max_size=3))
        text = json.dumps(value, ensure_ascii=draw(st.booleans()))
        cuts = draw(st.lists(st.integers(1, max(1, len(text) - 1)), max_size=6))
        calls.append((text, split_text(text, cuts)))
    body = chat_calls([(f"f{i}", fragments) for i, (_, fragments) in enumerate(calls)])
    return body, [(f"f{i}", text) for i, (text, _) in enumerate(calls)]


@settings(deadline=None, max_examples=150)
@given(data=st.data(), stream=tool_call_streams())
def test_any_fragments_any_reads_give_the_same_calls(data, stream):
    body, expected = stream
    whole = consume([body], "openai-chat")
    assert [(c.name, c.arguments_text) for c in whole.tool_calls] == expected
    assert all(
        c.complete and c.arguments == json.loads(t)
        for c, (_, t) in zip(whole.tool_calls, expected, strict=True)
    )
    chunked = consume(data.draw(partitions(body)), "openai-chat")
    assert chunked.tool_calls == whole.tool_calls and chunked.reasoning_text == whole.reasoning_text


@settings(deadline=None, max_examples=60)
@given(stream=tool_call_streams(), cut=st.floats(0, 1, exclude_max=True))
def test_no_prefix_closes_a_call_early_and_arguments_only_when_closed(stream, cut):
    body, expected = stream
    n = int(len(body) * cut)
    for pieces in ([body[:n]], split_at(body[:n], [n // 2]) if n > 1 else [body[:n]]):
        result = consume(pieces, "openai-chat")
        for call, (_, text) in zip(result.tool_calls, expected, strict=False):
            assert text.startswith(call.arguments_text)
            assert not call.complete, "only [DONE] closes a chat call, and it is the last event"
            assert call.arguments is None and call.error is None


@settings(deadline=None, max_examples=60)
@given(data=st.data(), fragments=st.lists(tricky_text, min_size=1, max_size=5), answer=tricky_text)
def test_reasoning_is_never_answer_text(data, fragments, answer):
    chunks = [chat_chunk({"reasoning_content": f}) for f in fragments]
    body = sse(*chunks, chat_chunk({"content": answer}), chat_chunk({}, "stop"), done=True)
    result = consume(data.draw(partitions(body)), "openai-chat")
    assert result.reasoning_text == "".join(fragments)
    assert result.text == answer


def test_a_responses_delta_after_done_stops_the_stream_as_a_decode_error():
    body = responses_call(['{"a": 1}'], item_done=False)
    late = {
        "type": "response.function_call_arguments.delta",
        "item_id": "fc_1",
        "delta": "2",
        "sequence_number": 99,
    }
    cut = body.index(b"event: response.completed")
    result = consume([body[:cut] + sse(late, named=True)], "openai-responses")
    assert result.outcome is Outcome.DECODE_ERROR
    assert result.error is not None and "after it was closed" in result.error.message
    assert result.tool_calls[0].arguments_text == '{"a": 1}' and result.tool_calls[0].complete


VALUE_CAPTURES = [n for n in names() if load(n).tool_calls or load(n).reasoning_text]


@settings(deadline=None, max_examples=120)
@given(data=st.data(), name=st.sampled_from(VALUE_CAPTURES))
def test_every_value_capture_gives_its_manifest_values_for_any_reads(data, name):
    capture = load(name)
    result = consume(data.draw(partitions(capture.body)), capture.contract)
    assert result.reasoning_text == capture.reasoning_text
    assert [
        {
            "id": c.id,
            "name": c.name,
            "arguments_text": c.arguments_text,
            "arguments": c.arguments,
            "complete": c.complete,
        }
        for c in result.tool_calls
    ] == list(capture.tool_calls)
    assert all(c.error is None for c in result.tool_calls)


def test_a_second_start_of_the_same_call_is_a_framing_error_not_an_orphaned_call():
    """issue 23 (mutant values ~168): a second ToolCallStart for one key must not replace the first."""
    from lesson_lib.core.contracts import ToolCallStart
    from lesson_lib.core.errors import FramingError

    assembler = ValueAssembler()
    assembler.apply(ToolCallStart("0", "call_天气", "get_weather"))
    with pytest.raises(FramingError, match="started twice"):
        assembler.apply(ToolCallStart("0", "call_é", "other"), offset=40, event_index=2)
