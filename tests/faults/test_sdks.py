"""The official SDKs, unmodified, pointed at a fault's base URL: the real ``openai`` and ``anthropic`` clients
(sync and async) read the control streams' text through the fault server, and the server sees every
connection closed afterwards.

``openai-chat-control`` is the control of the skeleton catalogue and of the full one; the controls of the
other SDK-pointable contracts are found in ``CATALOGUE`` (a test says so and skips when there is none).
"""

from __future__ import annotations

import asyncio

import anthropic
import openai
import pytest

from lesson_lib.captures import load
from lesson_lib.faults import CATALOGUE, Plan, Send, get_fault
from lesson_lib.faults.server import FaultServer

from .helpers import PlanFault

MESSAGES = [{"role": "user", "content": "hi"}]
#: What each SDK appends to its base URL: the fault's service path without it is the SDK's base URL.
SDK_SUFFIX = {
    "openai-chat": "/chat/completions",
    "openai-responses": "/responses",
    "anthropic-messages": "/v1/messages",
}


def sdk_base(server: FaultServer, name: str) -> str:
    fault = get_fault(name)
    suffix = SDK_SUFFIX[fault.contract]
    assert fault.service_path.endswith(suffix), fault.service_path
    return f"{server.url}/faults/{name}{fault.service_path.removesuffix(suffix)}"


def control(contract: str) -> str:
    found = [f.name for f in CATALOGUE if f.contract == contract and "control" in f.name]
    if not found:
        pytest.skip(f"the catalogue has no {contract} control entry yet (the skeleton has openai-chat only)")
    return found[0]


def openai_chat(url: str) -> str:
    with openai.OpenAI(api_key="unused", base_url=url, max_retries=0, timeout=20) as client:
        stream = client.chat.completions.create(model="m", messages=MESSAGES, stream=True)
        return "".join(c.delta.content or "" for chunk in stream for c in chunk.choices)


async def openai_chat_async(url: str) -> str:
    async with openai.AsyncOpenAI(api_key="unused", base_url=url, max_retries=0, timeout=20) as client:
        stream = await client.chat.completions.create(model="m", messages=MESSAGES, stream=True)
        return "".join([c.delta.content or "" async for chunk in stream for c in chunk.choices])


def openai_responses(url: str) -> str:
    with openai.OpenAI(api_key="unused", base_url=url, max_retries=0, timeout=20) as client:
        events = client.responses.create(model="m", input="hi", stream=True)
        return "".join(e.delta for e in events if e.type == "response.output_text.delta")


async def openai_responses_async(url: str) -> str:
    async with openai.AsyncOpenAI(api_key="unused", base_url=url, max_retries=0, timeout=20) as client:
        events = await client.responses.create(model="m", input="hi", stream=True)
        return "".join([e.delta async for e in events if e.type == "response.output_text.delta"])


def _anthropic_text(event) -> str:
    if event.type == "content_block_delta" and event.delta.type == "text_delta":
        return event.delta.text
    return ""


def anthropic_messages(url: str) -> str:
    with anthropic.Anthropic(api_key="unused", base_url=url, max_retries=0, timeout=20) as client:
        stream = client.messages.create(model="m", max_tokens=256, messages=MESSAGES, stream=True)
        return "".join(_anthropic_text(event) for event in stream)


async def anthropic_messages_async(url: str) -> str:
    async with anthropic.AsyncAnthropic(api_key="unused", base_url=url, max_retries=0, timeout=20) as client:
        stream = await client.messages.create(model="m", max_tokens=256, messages=MESSAGES, stream=True)
        return "".join([_anthropic_text(event) async for event in stream])


READERS = {
    "openai-chat": (openai_chat, openai_chat_async),
    "openai-responses": (openai_responses, openai_responses_async),
    "anthropic-messages": (anthropic_messages, anthropic_messages_async),
}


def test_the_openai_sdk_sync_and_async_reads_the_control_text(server: FaultServer) -> None:
    name = "openai-chat-control"
    expected = get_fault(name).expected.text
    assert expected  # the control carries text: a client that read nothing would not pass
    assert openai_chat(sdk_base(server, name)) == expected
    assert asyncio.run(openai_chat_async(sdk_base(server, name))) == expected
    assert server.wait_idle()
    assert server.counts["opened"] == server.counts["closed"] == 2


@pytest.mark.parametrize("contract", ["openai-responses", "anthropic-messages"])
def test_the_other_sdks_read_their_control_text(server: FaultServer, contract: str) -> None:
    name = control(contract)
    sync, async_ = READERS[contract]
    expected = get_fault(name).expected.text
    assert sync(sdk_base(server, name)) == expected
    assert asyncio.run(async_(sdk_base(server, name))) == expected
    assert server.wait_idle()


def test_a_request_the_service_refuses_reaches_the_sdk_as_its_api_error(server: FaultServer) -> None:
    """The fault's own check of the request (here: a wrong path) is an HTTP error the SDK raises as its
    status error, and the server goes on."""
    wrong = f"{server.url}/faults/openai-chat-control/v9"
    with (
        openai.OpenAI(api_key="unused", base_url=wrong, max_retries=0) as client,
        pytest.raises(openai.APIStatusError) as raised,
    ):
        client.chat.completions.create(model="m", messages=MESSAGES, stream=True)
    assert raised.value.status_code == 404
    name = "openai-chat-control"
    assert openai_chat(sdk_base(server, name)) == get_fault(name).expected.text


@pytest.mark.parametrize("contract", list(READERS))
def test_every_sdk_reads_a_capture_served_as_a_plan(contract: str) -> None:
    """Until the catalogue has a control for each SDK, the server's side is proven with the course's own
    capture of each contract served as a plan (one Send per event), sync and async."""
    capture = load(f"{contract}/completed")
    events = [piece for piece in capture.body.split(b"\n\n") if piece]
    steps = tuple(Send(event + b"\n\n") for event in events)
    plan = Plan(200, (("Content-Type", "text/event-stream; charset=utf-8"),), steps)
    with FaultServer(faults=[PlanFault("capture", plan, contract=contract)]) as running:
        path = {"openai-chat": "/v1", "openai-responses": "/v1", "anthropic-messages": ""}[contract]
        url = f"{running.url}/faults/capture{path}"
        sync, async_ = READERS[contract]
        assert sync(url) == capture.text
        assert asyncio.run(async_(url)) == capture.text
        assert running.wait_idle()
