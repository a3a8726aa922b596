"""The completion boundary, one service at a time: what each complete unit means.

Streams here are tiny and hand-written; each test feeds complete units (events or JSON values) to one
contract and checks the signals. Chunking is the business of tests/core/test_completion.py.
"""

from __future__ import annotations

import json

import pytest

from lesson_lib.core.contracts import (
    CONTRACTS,
    FinishReason,
    Heartbeat,
    ReasoningDelta,
    ServiceError,
    Stage,
    Terminal,
    TextDelta,
    Unknown,
    get_contract,
)
from lesson_lib.core.errors import FramingError
from lesson_lib.core.sse import Comment, Event


def ev(payload: object, event_type: str = "message") -> Event:
    data = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
    return Event(event_type, data, "")


def texts(signals) -> str:
    return "".join(s.text for s in signals if isinstance(s, TextDelta))


def run(name: str, items) -> list:
    contract = get_contract(name)
    out = []
    for item in items:
        out.extend(contract.interpret(item))
    return out


# --- registry --------------------------------------------------------------------------------------


def test_registry_names_framings_and_fresh_instances():
    assert set(CONTRACTS) == {
        "openai-chat",
        "openai-responses",
        "anthropic-messages",
        "gemini",
        "gemini-json-array",
        "ollama",
        "mcp",
        "dashscope",
    }
    framings = {name: cls.framing for name, cls in CONTRACTS.items()}
    assert framings == {
        "openai-chat": "sse",
        "openai-responses": "sse",
        "anthropic-messages": "sse",
        "gemini": "sse",
        "gemini-json-array": "json-array",
        "ollama": "ndjson",
        "mcp": "sse",
        "dashscope": "sse",
    }
    a, b = get_contract("openai-chat"), get_contract("openai-chat")
    assert a is not b and isinstance(a, CONTRACTS["openai-chat"])


def test_unknown_contract_name_lists_the_known_ones():
    with pytest.raises(ValueError, match="openai-chat"):
        get_contract("openai")


def fresh(name: str):
    return get_contract(name, request_id=1) if name == "mcp" else get_contract(name)


@pytest.mark.parametrize("name", [n for n, c in CONTRACTS.items() if c.framing == "sse"])
def test_sse_comment_is_a_heartbeat_for_every_sse_contract(name):
    assert fresh(name).interpret(Comment("ping")) == [Heartbeat("comment")]


@pytest.mark.parametrize("name", [n for n, c in CONTRACTS.items() if c.framing == "sse"])
@pytest.mark.parametrize("bad", ['{"choices": [', "[" * 100_000 + "]" * 100_000, "1" * 5000])
def test_malformed_json_data_is_a_framing_error(name, bad):
    with pytest.raises(FramingError):
        fresh(name).interpret(ev(bad, "message"))


# --- OpenAI Chat Completions ----------------------------------------------------------------------


def chat_chunk(content=None, finish=None, role=None, index=0):
    delta = {}
    if role is not None:
        delta["role"] = role
    if content is not None:
        delta["content"] = content
    return ev(
        {
            "object": "chat.completion.chunk",
            "choices": [{"index": index, "delta": delta, "finish_reason": finish}],
        }
    )


def test_chat_text_finish_reason_then_done_is_terminal():
    signals = run(
        "openai-chat",
        [
            chat_chunk("", role="assistant"),
            chat_chunk("你好🙂"),
            ev({"choices": [{"index": 0, "delta": {"content": None}, "finish_reason": None}]}),
            chat_chunk(" café"),
            chat_chunk(finish="stop"),
            ev({"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 4}}),
            ev("[DONE]"),
        ],
    )
    assert texts(signals) == "你好🙂 café"
    assert FinishReason("stop") in signals
    assert Stage("usage") in signals
    assert signals[-1] == Terminal("stop", True)
    assert not any(isinstance(s, Terminal) for s in signals[:-1]), "finish_reason alone is not terminal"


@pytest.mark.parametrize(
    ("reason", "complete"),
    [
        ("stop", True),
        ("tool_calls", True),
        ("function_call", True),
        ("length", False),
        ("content_filter", False),
    ],
)
def test_chat_reasons_decide_whether_the_answer_is_whole(reason, complete):
    signals = run("openai-chat", [chat_chunk("第二行"), chat_chunk(finish=reason), ev("[DONE]")])
    assert signals[-1] == Terminal(reason, complete)


def test_chat_done_without_finish_reason_is_incomplete():
    assert run("openai-chat", [chat_chunk("完成"), ev("[DONE]")])[-1] == Terminal(None, False)


def test_chat_only_choice_zero_is_followed():
    signals = run(
        "openai-chat", [chat_chunk("a", index=0), chat_chunk("b", index=1), chat_chunk("c", index=0)]
    )
    assert texts(signals) == "ac"


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        ({"message": "boom", "type": "server_error", "code": None}, ServiceError("server_error", "boom")),
        (
            {"message": "slow down", "type": None, "code": "rate_limit_exceeded"},
            ServiceError("rate_limit_exceeded", "slow down"),
        ),
        ("plain string", ServiceError(None, "plain string")),
    ],
)
def test_chat_top_level_error_object_is_a_service_error(error, expected):
    assert run("openai-chat", [ev({"error": error})]) == [expected]


def test_chat_done_literal_only_counts_exactly():
    with pytest.raises(FramingError):
        run("openai-chat", [ev("[DONE] ")])  # not the literal: neither terminal nor JSON


# --- OpenAI Responses -----------------------------------------------------------------------------


def resp(kind: str, seq: int, **fields) -> Event:
    return ev({"type": kind, "sequence_number": seq, **fields}, kind)


def test_responses_text_stages_and_completed():
    signals = run(
        "openai-responses",
        [
            resp("response.created", 0, response={"status": "in_progress"}),
            resp("response.output_item.added", 1, output_index=0),
            resp("response.output_text.delta", 2, delta="你好，"),
            resp("keepalive", 3),
            resp("response.output_text.delta", 4, delta="第二行\u2028完成"),
            resp("response.output_text.done", 5, text="你好，第二行\u2028完成"),
            resp("response.completed", 6, response={"status": "completed"}),
        ],
    )
    assert texts(signals) == "你好，第二行\u2028完成"
    assert Heartbeat("keepalive") in signals
    assert Stage("response.created") in signals and Stage("response.output_text.done") in signals
    assert signals[-1] == Terminal(None, True)


def test_responses_incomplete_carries_its_reason():
    signals = run(
        "openai-responses",
        [
            resp("response.output_text.delta", 0, delta="café"),
            resp("response.incomplete", 1, response={"incomplete_details": {"reason": "max_output_tokens"}}),
        ],
    )
    assert signals[-1] == Terminal("max_output_tokens", False)


def test_responses_failed_is_a_service_error():
    signals = run(
        "openai-responses",
        [resp("response.failed", 3, response={"error": {"code": "server_error", "message": "try again"}})],
    )
    assert signals == [ServiceError("server_error", "try again")]


def test_responses_error_event_in_both_shapes():
    flat = run("openai-responses", [resp("error", 7, code="server_error", message="flat", param=None)])
    nested = run(
        "openai-responses",
        [resp("error", 7, error={"type": "server_error", "code": "server_error", "message": "nested"})],
    )
    assert flat == [ServiceError("server_error", "flat")]
    assert nested == [ServiceError("server_error", "nested")]


def test_responses_unknown_types_are_tolerated():
    assert run("openai-responses", [resp("codex.telemetry", 0)]) == [Unknown("codex.telemetry")]


def test_responses_sequence_regressions_are_counted_not_fatal():
    contract = get_contract("openai-responses")
    for seq in (0, 1, 1, 3, 2, 4):
        contract.interpret(resp("response.output_text.delta", seq, delta="é"))
    assert contract.counters == {"sequence_not_increasing": 2}


def test_responses_type_falls_back_to_the_sse_event_name():
    signals = run("openai-responses", [ev({"delta": "你好"}, "response.output_text.delta")])
    assert signals == [TextDelta("你好")]


# --- Anthropic Messages ---------------------------------------------------------------------------


def anth(kind: str, **fields) -> Event:
    return ev({"type": kind, **fields}, kind)


def anthropic_stream(stop_reason):
    return [
        anth("message_start", message={"id": "msg_1", "content": [], "stop_reason": None}),
        anth("content_block_start", index=0, content_block={"type": "text", "text": ""}),
        anth("ping"),
        anth("content_block_delta", index=0, delta={"type": "text_delta", "text": "你好🙂"}),
        anth("content_block_delta", index=0, delta={"type": "text_delta", "text": " crème brûlée"}),
        anth("content_block_stop", index=0),
        anth(
            "message_delta",
            delta={"stop_reason": stop_reason, "stop_sequence": None},
            usage={"output_tokens": 9},
        ),
        anth("message_stop"),
    ]


@pytest.mark.parametrize(
    ("reason", "complete"),
    [
        ("end_turn", True),
        ("stop_sequence", True),
        ("tool_use", True),
        ("max_tokens", False),
        ("refusal", False),
        ("pause_turn", False),
        (None, False),
    ],
)
def test_anthropic_stop_reason_then_message_stop(reason, complete):
    signals = run("anthropic-messages", anthropic_stream(reason))
    assert texts(signals) == "你好🙂 crème brûlée"
    assert Heartbeat("ping") in signals
    assert signals[-1] == Terminal(reason, complete)
    assert (FinishReason(reason) in signals) == (reason is not None)


def test_anthropic_non_text_deltas_are_never_text():
    """Thinking is reasoning, a signature is a stage, tool input JSON outside a tool_use block a stage."""
    signals = run(
        "anthropic-messages",
        [
            anth("content_block_delta", index=0, delta={"type": "thinking_delta", "thinking": "hmm"}),
            anth("content_block_delta", index=0, delta={"type": "signature_delta", "signature": "EqQB"}),
            anth("content_block_delta", index=1, delta={"type": "input_json_delta", "partial_json": '{"a"'}),
            anth("content_block_delta", index=2, delta={"type": "text_delta", "text": "完成"}),
        ],
    )
    assert signals == [
        ReasoningDelta("hmm"),
        Stage("signature_delta"),
        Stage("input_json_delta"),
        TextDelta("完成"),
    ]


def test_anthropic_error_event_and_unknown_events():
    signals = run(
        "anthropic-messages",
        [
            anth("content_block_future", index=0),
            anth("error", error={"type": "overloaded_error", "message": "Overloaded"}),
        ],
    )
    assert signals == [Unknown("content_block_future"), ServiceError("overloaded_error", "Overloaded")]


# --- Gemini ---------------------------------------------------------------------------------------


def gem(*parts, finish=None) -> dict:
    candidate: dict = {"content": {"parts": list(parts), "role": "model"}}
    if finish is not None:
        candidate["finishReason"] = finish
    return {"candidates": [candidate], "modelVersion": "gemini-2.5-flash"}


@pytest.mark.parametrize("name", ["gemini", "gemini-json-array"])
def test_gemini_text_skips_thoughts_and_terminal_comes_from_the_end(name):
    wrap = ev if name == "gemini" else (lambda value: value)
    contract = get_contract(name)
    signals = []
    for chunk in (
        gem({"text": "thinking...", "thought": True}, {"text": "你好，"}),
        gem({"text": "résumé"}, {"text": " 第二行"}),
        gem({"text": " 🙂"}, finish="STOP"),
    ):
        signals.extend(contract.interpret(wrap(chunk)))
    assert texts(signals) == "你好，résumé 第二行 🙂"
    assert ReasoningDelta("thinking...") in signals
    assert FinishReason("STOP") in signals
    assert not any(isinstance(s, Terminal) for s in signals), "Gemini has no terminal event"
    assert contract.end() == [Terminal("STOP", True)]


@pytest.mark.parametrize("reason", ["MAX_TOKENS", "SAFETY", "RECITATION", "OTHER"])
def test_gemini_cut_reasons_are_incomplete(reason):
    contract = get_contract("gemini")
    contract.interpret(ev(gem({"text": "café"})))
    contract.interpret(ev(gem(finish=reason)))
    assert contract.end() == [Terminal(reason, False)]


def test_gemini_stop_on_every_chunk_counts_later_text_and_only_the_last_chunk_decides():
    contract = get_contract("gemini")
    signals = []
    for piece in ("你", "好", "！"):
        signals.extend(contract.interpret(ev(gem({"text": piece}, finish="STOP"))))
    assert texts(signals) == "你好！"
    assert contract.end() == [Terminal("STOP", True)]
    contract.interpret(ev(gem({"text": "more"})))  # a later chunk without a reason
    assert contract.end() == [], "the LAST chunk must carry the finish reason"


def test_gemini_error_object_and_prompt_block():
    error = {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}
    assert run("gemini", [ev(error)]) == [ServiceError("UNAVAILABLE", "The model is overloaded.")]
    assert run("gemini-json-array", [{"error": {"code": 500, "message": "x"}}]) == [ServiceError("500", "x")]
    contract = get_contract("gemini")
    assert contract.interpret(ev({"promptFeedback": {"blockReason": "SAFETY"}})) == [FinishReason("SAFETY")]
    assert contract.end() == [Terminal("SAFETY", False)]


# --- Ollama ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reason", "complete"), [("stop", True), ("length", False), ("load", False), (None, False)]
)
def test_ollama_chat_done_with_reason(reason, complete):
    lines = [
        {"model": "m", "message": {"role": "assistant", "content": "你好"}, "done": False},
        {"model": "m", "message": {"role": "assistant", "content": "，café"}, "done": False},
        {"model": "m", "message": {"role": "assistant", "content": ""}, "done": True, "done_reason": reason},
    ]
    if reason is None:
        del lines[-1]["done_reason"]
    signals = run("ollama", lines)
    assert texts(signals) == "你好，café"
    assert signals[-1] == Terminal(reason, complete)


def test_ollama_generate_uses_response_and_error_lines():
    signals = run(
        "ollama",
        [{"response": "第二行", "done": False}, {"response": "🙂", "done": True, "done_reason": "stop"}],
    )
    assert signals == [TextDelta("第二行"), TextDelta("🙂"), Terminal("stop", True)]
    assert run("ollama", [{"error": "model crashed"}]) == [ServiceError(None, "model crashed")]


def test_ollama_tolerates_values_it_does_not_know():
    assert run("ollama", [[1, 2], {"status": "pulling manifest"}]) == [Unknown("list"), Unknown("object")]


def test_shape_surprises_never_raise():
    odd = [
        {"choices": "nope"},
        {"choices": [None, 3]},
        {"candidates": {}},
        {"type": 5},
        {"delta": []},
        [],
        7,
        None,
    ]
    for name, cls in CONTRACTS.items():
        contract = get_contract(name, request_id=1) if name == "mcp" else get_contract(name)
        for value in odd:
            item = ev(value) if cls.framing == "sse" else value
            contract.interpret(item)  # must not raise
        contract.end()
