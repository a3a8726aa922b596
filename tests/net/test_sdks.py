"""The official SDKs against the replay server: they assemble the captures' exact text, and on a truncated
stream they do what is observed here (mostly: end silently), while consume() says ``truncated``.

Everything asserted about an SDK below was observed by running it (openai and anthropic as pinned in
requirements.txt); if an upgrade changes a behaviour, the test says which, and lesson 06 needs a look.
"""

from __future__ import annotations

import json

import anthropic
import httpx2
import openai
import pytest

from lesson_lib import Outcome, consume, parse_sse
from lesson_lib.captures import load, names
from lesson_lib.net.replay import ReplayServer

BOM = b"\xef\xbb\xbf"


def openai_chat_text(url: str) -> str:
    with openai.OpenAI(api_key="test-key", base_url=url, max_retries=0, timeout=10) as client:
        stream = client.chat.completions.create(
            model="replay-model", messages=[{"role": "user", "content": "hi"}], stream=True
        )
        return "".join(c.delta.content or "" for chunk in stream for c in chunk.choices)


def openai_responses_text(url: str) -> tuple[str, list[str]]:
    with openai.OpenAI(api_key="test-key", base_url=url, max_retries=0, timeout=10) as client:
        parts, types = [], []
        for event in client.responses.create(model="replay-model", input="hi", stream=True):
            types.append(event.type)
            if event.type == "response.output_text.delta":
                parts.append(event.delta)
        return "".join(parts), types


def anthropic_text(url: str) -> str:
    with anthropic.Anthropic(api_key="test-key", base_url=url, max_retries=0, timeout=10) as client:
        stream = client.messages.create(
            model="replay-model", max_tokens=256, messages=[{"role": "user", "content": "hi"}], stream=True
        )
        return "".join(
            e.delta.text for e in stream if e.type == "content_block_delta" and e.delta.type == "text_delta"
        )


def sdk_text(contract: str, url: str) -> str:
    if contract == "openai-responses":
        return openai_responses_text(url)[0]
    return {"openai-chat": openai_chat_text, "anthropic-messages": anthropic_text}[contract](url)


def served(body: bytes, **options):
    return ReplayServer(body, max_requests=5, **options)


COMPLETED = [
    "openai-chat/completed",
    "openai-chat/completed_with_usage",
    "anthropic-messages/completed",
    "anthropic-messages/completed_two_blocks",
    "openai-responses/completed",
]


@pytest.mark.parametrize("name", COMPLETED)
def test_the_sdks_assemble_the_expected_text(name):
    capture = load(name)
    with served(capture.body, cuts=range(7, len(capture.body), 97)) as server:
        assert sdk_text(capture.contract, server.url) == capture.text
        assert server.wait_idle(3.0)  # the SDK released its connection when its client closed
    assert consume([capture.body], capture.contract).final_text == capture.text


def test_the_sdks_call_their_own_paths():
    capture = load("openai-chat/completed")
    with served(capture.body) as server:
        openai_chat_text(server.url)
        openai_responses_text(server.url)
        anthropic_text(server.url)
        assert [(r.method, r.path) for r in server.requests] == [
            ("POST", "/chat/completions"),
            ("POST", "/responses"),
            ("POST", "/v1/messages"),
        ]


TRUNCATED = [
    n
    for contract in ("openai-chat", "anthropic-messages", "openai-responses")
    for n in names(contract)
    if n.split("/")[1] in ("truncated_clean_boundary", "truncated_mid_event", "truncated_mid_line")
]


@pytest.mark.parametrize("name", TRUNCATED)
def test_on_a_truncated_stream_the_sdks_end_silently(name):
    capture = load(name)
    with served(capture.body) as server:
        text = sdk_text(capture.contract, server.url)  # no exception
    result = consume([capture.body], capture.contract)
    assert text == capture.text == result.text
    assert result.outcome is Outcome.TRUNCATED


@pytest.mark.parametrize("contract", ["openai-chat", "anthropic-messages", "openai-responses"])
def test_a_body_ending_mid_character_raises_a_bare_unicode_error(contract):
    capture = load(f"{contract}/truncated_mid_character")
    with served(capture.body) as server, pytest.raises(UnicodeDecodeError) as raised:
        sdk_text(contract, server.url)
    assert type(raised.value) is UnicodeDecodeError  # not an SDK error type
    assert consume([capture.body], contract).truncated_at == "character"


def test_a_dropped_connection_openai_wraps_it():
    capture = load("openai-chat/completed")
    with served(capture.body, drop_after=1500) as server, pytest.raises(openai.APIConnectionError):
        openai_chat_text(server.url)


def test_a_dropped_connection_anthropic_lets_the_transport_error_through():
    capture = load("anthropic-messages/completed")
    with served(capture.body, drop_after=700) as server, pytest.raises(httpx2.RemoteProtocolError) as raised:
        anthropic_text(server.url)
    assert not isinstance(raised.value, anthropic.APIError)


def test_service_errors_in_the_sdks():
    with served(load("openai-chat/service_error").body) as server, pytest.raises(openai.APIError):
        openai_chat_text(server.url)
    overloaded = pytest.raises(anthropic.APIStatusError, match="overloaded_error")
    with served(load("anthropic-messages/service_error").body) as server, overloaded:
        anthropic_text(server.url)
    with served(load("openai-responses/service_error").body) as server:
        _, types = openai_responses_text(server.url)  # the flat error is an event, not an exception
        assert types[-1] == "error"
    with served(load("openai-responses/service_error_nested").body) as server, pytest.raises(openai.APIError):
        openai_responses_text(server.url)


def test_the_stream_helpers_on_a_truncated_stream():
    capture = load("anthropic-messages/truncated_clean_boundary")
    with served(capture.body) as server:
        with anthropic.Anthropic(api_key="k", base_url=server.url, max_retries=0) as client:
            messages = [{"role": "user", "content": "hi"}]
            with client.messages.stream(model="replay-model", max_tokens=9, messages=messages) as stream:
                message = stream.get_final_message()  # returns the partial message...
        assert message.stop_reason is None and message.content[0].text == capture.text  # ...unmarked
    capture = load("openai-responses/truncated_clean_boundary")
    with (
        served(capture.body) as server,
        openai.OpenAI(api_key="k", base_url=server.url, max_retries=0) as client,
        client.responses.stream(model="replay-model", input="hi") as stream,
        pytest.raises(RuntimeError, match=r"response\.completed"),
    ):
        stream.get_final_response()


def test_a_bom_costs_the_sdks_their_first_event():
    capture = load("anthropic-messages/completed")
    with served(BOM + capture.body) as server:
        assert anthropic_text(server.url) == capture.text  # the lost event was message_start: no text
        with anthropic.Anthropic(api_key="k", base_url=server.url, max_retries=0) as client:
            messages = [{"role": "user", "content": "hi"}]
            with (
                client.messages.stream(model="replay-model", max_tokens=9, messages=messages) as stream,
                pytest.raises(AssertionError),  # no message_start, so no message to finish
            ):
                stream.get_final_message()
    assert consume([BOM + capture.body], capture.contract).outcome is Outcome.COMPLETED


def test_the_openai_stream_helper_closes_interleaved_calls_too_early():
    """Lesson 09: the Chat Completions format has no per-call end; the SDK's helper infers one when a piece
    of another index arrives, which is wrong when calls take turns. lesson_lib waits for [DONE]."""
    from openai.lib.streaming.chat import ChatCompletionStreamState
    from openai.types.chat import ChatCompletionChunk

    capture = load("openai-chat/tools_parallel")
    state, done = ChatCompletionStreamState(), {}
    for event in parse_sse([capture.body]):
        if event.data == "[DONE]":
            break
        chunk = ChatCompletionChunk.model_validate(json.loads(event.data))
        for update in state.handle_chunk(chunk):
            if update.type == "tool_calls.function.arguments.done":
                done.setdefault(update.index, update.arguments)
    ours = consume([capture.body], "openai-chat").tool_calls
    assert len(ours) == 2 and all(call.complete and call.arguments is not None for call in ours)
    # The helper announced both calls done while their text was still arriving.
    assert sorted(done) == [0, 1]
    assert all(done[index] != ours[index].arguments_text for index in done)
