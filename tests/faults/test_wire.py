"""The writers of the faults' streams write events as the captures in data/ do, and the official SDKs read
the control streams (over a real socket on 127.0.0.1: lesson_lib.net.replay, started and stopped here)."""

from __future__ import annotations

import json
from collections.abc import Iterable

import anthropic
import openai
import pytest

from lesson_lib import parse_json_array, parse_ndjson
from lesson_lib.captures import load, names
from lesson_lib.core.errors import BoundaryError
from lesson_lib.core.sse import SSEParser
from lesson_lib.faults import get_fault
from lesson_lib.faults.recipes import SAMPLE_CALL
from lesson_lib.faults.wire import Unit, sse_event
from lesson_lib.faults.wire_anthropic import AnthropicWire
from lesson_lib.faults.wire_gemini import GeminiArrayWire, GeminiWire
from lesson_lib.faults.wire_ollama import OllamaWire
from lesson_lib.faults.wire_openai import OpenAIChatWire, OpenAIResponsesWire
from lesson_lib.net.replay import ReplayServer
from tests.faults.catalogue_support import proper


def shape(value: object) -> object:
    """The fields of a JSON value in order, nested; lists as the set of their items' shapes; any scalar
    the same (the values differ, the structure must not)."""
    if isinstance(value, dict):
        return tuple((key, shape(item)) for key, item in value.items())
    if isinstance(value, list):
        return ("list", frozenset(shape(item) for item in value))
    return "scalar"


def units_of(contract: str, body: bytes) -> list[tuple[str, object]]:
    """``(event type, parsed JSON)`` of every complete unit in ``body`` (what a cut one completed first)."""
    if contract == "ollama":
        return [("line", value) for value in _completed(parse_ndjson, body)]
    if contract == "gemini-json-array":
        return [("element", value) for value in _completed(parse_json_array, body)]
    parser = SSEParser()
    events = _completed(lambda chunks: [*parser.feed(b"".join(chunks)), *parser.close()], body)
    out = []
    for event in events:
        try:
            out.append((event.type, json.loads(event.data)))
        except ValueError:  # [DONE], a priming event
            continue
    return out


def _completed(parse, body: bytes) -> list:
    try:
        return list(parse([body]))
    except BoundaryError as exc:
        return list(exc.outputs)


def capture_shapes(contract: str) -> set[tuple[str, object]]:
    return {
        (kind, shape(value))
        for name in names(contract)
        for kind, value in units_of(contract, load(name).body)
    }


chat, responses, anthropic_wire = OpenAIChatWire(), OpenAIResponsesWire(), AnthropicWire()
gemini, array, ollama = GeminiWire(), GeminiArrayWire(), OllamaWire()

WRITTEN: dict[str, list[list[Unit]]] = {
    "openai-chat": [
        chat.answer(SAMPLE_CALL),
        chat.answer(SAMPLE_CALL, usage=True),
        chat.answer(SAMPLE_CALL, error_after=3),
        chat.answer(SAMPLE_CALL, reason="length"),
        chat.reasoning(SAMPLE_CALL),
        chat.tool_call(SAMPLE_CALL),
    ],
    "openai-responses": [
        responses.answer(SAMPLE_CALL),
        responses.answer(SAMPLE_CALL, error_after=3),
        responses.answer(SAMPLE_CALL, reason="max_output_tokens"),
        responses.failed(SAMPLE_CALL, ["x"]),
        responses.reasoning(SAMPLE_CALL),
        responses.tool_call(SAMPLE_CALL),
        [responses.heartbeat(5)],
    ],
    "anthropic-messages": [
        anthropic_wire.answer(SAMPLE_CALL),
        anthropic_wire.answer(SAMPLE_CALL, error_after=3),
        anthropic_wire.answer(SAMPLE_CALL, reason="max_tokens"),
        anthropic_wire.reasoning(SAMPLE_CALL),
        anthropic_wire.tool_call(SAMPLE_CALL),
    ],
    "gemini": [
        gemini.answer(SAMPLE_CALL),
        gemini.answer(SAMPLE_CALL, error_after=3),
        gemini.reasoning(SAMPLE_CALL),
        gemini.answer(SAMPLE_CALL, reason="MAX_TOKENS"),
    ],
    "gemini-json-array": [array.answer(SAMPLE_CALL), array.answer(SAMPLE_CALL, error_after=3)],
    "ollama": [
        ollama.answer(SAMPLE_CALL),
        ollama.answer(SAMPLE_CALL, error_after=3),
        ollama.reasoning(SAMPLE_CALL),
        ollama.answer(SAMPLE_CALL, reason="length"),
    ],
}

#: Events the writers send that no capture holds, each with the reason it may differ.
NOT_CAPTURED = {
    # The DeepSeek capture has no service_tier and its own fingerprint fields: the faults keep OpenAI's
    # chunk and add reasoning_content, as OpenAI-compatible servers do.
    ("openai-chat", "reasoning_content"),
    # The reasoning capture comes from another model (o4-mini, fewer response fields): the faults keep the
    # response object of the text captures around a reasoning summary.
    ("openai-responses", '"type": "reasoning"'),
    ("openai-responses", "reasoning_summary"),
    ("openai-responses", '"type": "function_call"'),
    ("openai-responses", "function_call_arguments"),
    # Thinking that reached the token limit: a last chunk without content, as the SAFETY capture's last
    # chunk, without its safetyRatings (no capture reaches MAX_TOKENS while thinking).
    ("gemini", '"candidates": [{"finishReason": "MAX_TOKENS", "index": 0}]'),
}


def _excused(contract: str, kind: str, value: object) -> bool:
    text = json.dumps(value)
    return any(c == contract and marker in text for c, marker in NOT_CAPTURED)


@pytest.mark.parametrize("contract", sorted(WRITTEN))
def test_every_event_a_writer_sends_has_a_twin_in_the_captures(contract):
    known = capture_shapes(contract)
    kinds = {kind for kind, _ in known}
    for units in WRITTEN[contract]:
        for kind, value in units_of(contract, b"".join(unit.data for unit in units)):
            assert kind in kinds, (contract, kind)
            if (kind, shape(value)) not in known and not _excused(contract, kind, value):
                pytest.fail(
                    f"{contract}: no capture has an event {kind!r} shaped like {json.dumps(value)[:300]}"
                )


def test_the_writers_write_the_captures_line_endings_and_raw_utf8():
    for contract, units in (
        ("openai-chat", chat.answer(SAMPLE_CALL)),
        ("gemini", gemini.answer(SAMPLE_CALL)),
    ):
        body = b"".join(unit.data for unit in units)
        capture = load(f"{contract}/completed").body
        assert (b"\r\n" in body) == (b"\r\n" in capture)
        assert "🙂".encode() in body and "你好".encode() in body


def test_an_sse_field_cannot_hold_a_line_break():
    with pytest.raises(ValueError, match="CR or LF"):
        sse_event([("data", "a\nb")])


# --- the official SDKs read the control streams -----------------------------------------------------------


def serve(name: str) -> ReplayServer:
    """The fault's plan for a proper request, played back with its own read boundaries."""
    fault = get_fault(name)
    plan = fault.respond(proper(fault))
    cuts = list(_offsets(plan.pieces))
    return ReplayServer(plan.body, cuts, content_type=dict(plan.headers)["Content-Type"], max_requests=3)


def _offsets(pieces: Iterable[bytes]) -> Iterable[int]:
    at = 0
    for piece in list(pieces)[:-1]:
        at += len(piece)
        yield at


@pytest.mark.parametrize(
    "name", ["openai-chat-control", "openai-chat-usage-before-done", "openai-chat-cut-in-4-byte-character"]
)
def test_the_openai_sdk_reads_the_chat_control(name):
    with (
        serve(name) as server,
        openai.OpenAI(api_key="k", base_url=server.url, max_retries=0, timeout=10) as client,
    ):
        stream = client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}], stream=True
        )
        chunks = list(stream)
    assert (
        "".join(c.delta.content or "" for chunk in chunks for c in chunk.choices)
        == get_fault(name).expected.text
    )
    assert [c.finish_reason for chunk in chunks for c in chunk.choices if c.finish_reason] == ["stop"]


def openai_client(server: ReplayServer) -> openai.OpenAI:
    return openai.OpenAI(api_key="k", base_url=server.url, max_retries=0, timeout=10)


def anthropic_client(server: ReplayServer) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key="k", base_url=server.url, max_retries=0, timeout=10)


def test_the_openai_sdk_reads_the_responses_control():
    name = "openai-responses-control"
    with (
        serve(name) as server,
        openai_client(server) as client,
        client.responses.stream(model="m", input="hi") as stream,
    ):
        for _ in stream:
            pass
        final = stream.get_final_response()
    assert final.output_text == get_fault(name).expected.text and final.status == "completed"


@pytest.mark.parametrize("name", ["anthropic-control", "anthropic-cut-inside-characters"])
def test_the_anthropic_sdk_reads_the_control(name):
    messages = [{"role": "user", "content": "hi"}]
    with (
        serve(name) as server,
        anthropic_client(server) as client,
        client.messages.stream(model="m", max_tokens=64, messages=messages) as stream,
    ):
        text = "".join(stream.text_stream)
        final = stream.get_final_message()
    assert text == get_fault(name).expected.text and final.stop_reason == "end_turn"


def test_the_sdks_read_the_tool_call_streams():
    messages = [{"role": "user", "content": "x"}]
    with serve_plan(chat.tool_call(SAMPLE_CALL)) as server, openai_client(server) as client:
        stream = client.chat.completions.create(model="m", messages=messages, stream=True)
        arguments = "".join(
            call.function.arguments or ""
            for chunk in stream
            for c in chunk.choices
            for call in (c.delta.tool_calls or [])
        )
    assert json.loads(arguments) == {"city": "北京", "days": 14, "unit": "celsius"}
    with (
        serve_plan(anthropic_wire.tool_call(SAMPLE_CALL)) as server,
        anthropic_client(server) as client,
        client.messages.stream(model="m", max_tokens=64, messages=messages) as stream,
    ):
        final = stream.get_final_message()
    assert final.content[-1].input == {"city": "北京", "days": 14, "unit": "celsius"}
    assert final.stop_reason == "tool_use"


def serve_plan(units: list[Unit]) -> ReplayServer:
    pieces = [unit.data for unit in units]
    return ReplayServer(b"".join(pieces), list(_offsets(pieces)), max_requests=3)
