"""AsyncOpenAI and AsyncAnthropic read ReplayServer over real HTTP, beside astream_http on the same bytes;
and zero leaked connections after 100 runs of each path of astream_http (completion, break, exception,
cancel, timeout), counted by ReplayServer.

What is asserted about an SDK was observed by running it (openai and anthropic as installed): if an
upgrade changes a behaviour, the test says which, and lesson 08 needs a look.
"""

from __future__ import annotations

import asyncio
import contextlib
import math

import anthropic
import httpx
import openai
import pytest

from lesson_lib import Outcome
from lesson_lib.captures import load
from lesson_lib.core.contracts import TextDelta
from lesson_lib.net.http import astream_http, astream_http_updates
from lesson_lib.net.replay import ReplayServer

MESSAGES = [{"role": "user", "content": "你好"}]


async def openai_chat(client: openai.AsyncOpenAI) -> tuple[str, str | None]:
    """The text an AsyncOpenAI stream yields, and the name of what it raised (None: it ended quietly)."""
    parts: list[str] = []
    try:
        stream = await client.chat.completions.create(model="replay", messages=MESSAGES, stream=True)
        async with stream:
            async for chunk in stream:
                parts.extend(choice.delta.content or "" for choice in chunk.choices)
    except Exception as exc:
        return "".join(parts), type(exc).__name__
    return "".join(parts), None


async def anthropic_messages(client: anthropic.AsyncAnthropic) -> tuple[str, str | None]:
    parts: list[str] = []
    try:
        stream = await client.messages.create(model="replay", max_tokens=64, messages=MESSAGES, stream=True)
        async with stream:
            async for event in stream:
                if event.type == "content_block_delta" and event.delta.type == "text_delta":
                    parts.append(event.delta.text)
    except Exception as exc:
        return "".join(parts), type(exc).__name__
    return "".join(parts), None


SDKS = {
    "openai-chat": (
        lambda url: openai.AsyncOpenAI(api_key="test-key", base_url=url, max_retries=0, timeout=10),
        openai_chat,
    ),
    "anthropic-messages": (
        lambda url: anthropic.AsyncAnthropic(api_key="test-key", base_url=url, max_retries=0, timeout=10),
        anthropic_messages,
    ),
}


async def sdk_read(contract: str, url: str) -> tuple[str, str | None]:
    make, read = SDKS[contract]
    async with make(url) as client:
        return await read(client)


# --- a cut stream --------------------------------------------------------------------------------


@pytest.mark.parametrize("contract", sorted(SDKS))
def test_a_body_that_ends_cleanly_but_early_the_sdks_accept_in_silence(contract):
    capture = load(f"{contract}/truncated_clean_boundary")
    with ReplayServer(capture.body, max_requests=5) as server:
        text, raised = asyncio.run(sdk_read(contract, server.url))
        ours = asyncio.run(astream_http(server.url, contract))
        assert server.wait_idle(3.0)
    assert raised is None and text == capture.text  # a partial answer, and no sign of it
    assert ours.outcome is Outcome.TRUNCATED and ours.text == text and ours.final_text is None


#: What each SDK raised when the connection was cut (no terminating chunk) in the middle of the body.
CUT_RAISES = {"openai-chat": "APIConnectionError", "anthropic-messages": "RemoteProtocolError"}


@pytest.mark.parametrize("contract", sorted(SDKS))
def test_a_dropped_connection_the_sdks_raise_and_astream_http_reports(contract):
    capture = load(f"{contract}/completed")
    with ReplayServer(capture.body, drop_after=len(capture.body) // 2, max_requests=5) as server:
        text, raised = asyncio.run(sdk_read(contract, server.url))
        ours = asyncio.run(astream_http(server.url, contract))
        assert server.wait_idle(3.0)
    assert raised == CUT_RAISES[contract]  # the text so far is in a local the exception unwound past
    assert capture.text.startswith(text) and text != capture.text
    assert ours.outcome is Outcome.TRUNCATED and ours.error.kind == "RemoteProtocolError"
    assert ours.text == text  # the same complete events, kept, and called provisional


# --- a cancel --------------------------------------------------------------------------------


@pytest.mark.parametrize("contract", sorted(SDKS))
def test_a_cancel_releases_the_connection_for_the_sdks_and_for_astream_http(contract):
    capture = load(f"{contract}/completed")

    async def cancel_after_first_read(make_task, server: ReplayServer) -> bool:
        task = asyncio.create_task(make_task())
        while not server.requests:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)  # a few pieces have arrived; the task waits for the next one
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            return True
        return False

    make, read = SDKS[contract]
    with ReplayServer(capture.body, range(20, len(capture.body), 20), delay=0.03) as server:
        client = make(server.url)  # a long-lived client, as a web service keeps one

        async def main() -> tuple[bool, bool, bool, bool]:
            sdk = await cancel_after_first_read(lambda: read(client), server)
            sdk_idle = server.wait_idle(3.0)
            ours = await cancel_after_first_read(lambda: astream_http(server.url, contract), server)
            ours_idle = server.wait_idle(3.0)
            await client.close()
            return sdk, sdk_idle, ours, ours_idle

        assert asyncio.run(main()) == (True, True, True, True)  # cancelled (not swallowed), and released


def test_a_break_without_closing_keeps_the_sdk_connection_open_aclosing_does_not():
    capture = load("openai-chat/completed")
    with ReplayServer(capture.body, range(20, len(capture.body), 20), delay=0.02) as server:

        async def main() -> tuple[bool, bool, bool]:
            async with openai.AsyncOpenAI(api_key="k", base_url=server.url, max_retries=0) as client:
                stream = await client.chat.completions.create(model="replay", messages=MESSAGES, stream=True)
                async for _ in stream:
                    break
                held_open = not server.wait_idle(0.3)
                await stream.close()
                sdk_closed = server.wait_idle(3.0)
            updates = astream_http_updates(server.url, "openai-chat")
            async with contextlib.aclosing(updates):
                async for update in updates:
                    if isinstance(update, TextDelta):
                        break
            return held_open, sdk_closed, server.wait_idle(3.0)

        assert asyncio.run(main()) == (True, True, True)


# --- zero leaked connections after 100 runs of each path ------------------------------------------------


RUNS = 100


async def path_completion(url: str, **client) -> None:
    assert (await astream_http(url, "openai-chat", **client)).outcome is Outcome.COMPLETED


async def path_break(url: str, **client) -> None:
    async with contextlib.aclosing(astream_http_updates(url, "openai-chat", **client)) as updates:
        async for update in updates:
            if isinstance(update, TextDelta):
                break


async def path_exception(url: str, **client) -> None:
    with contextlib.suppress(KeyError):
        async with contextlib.aclosing(astream_http_updates(url, "openai-chat", **client)) as updates:
            async for update in updates:
                if isinstance(update, TextDelta):
                    raise KeyError("the caller's bug")


async def path_cancel(url: str, **client) -> None:
    started = asyncio.Event()

    async def read() -> None:
        async with contextlib.aclosing(astream_http_updates(url, "openai-chat", **client)) as updates:
            async for update in updates:
                if isinstance(update, TextDelta):
                    started.set()

    task = asyncio.create_task(read())
    await started.wait()  # cancelled in the middle of the body
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    assert task.cancelled()


async def path_timeout(url: str, **client) -> None:
    loop = asyncio.get_running_loop()
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(None) as bound:
            async for update in astream_http_updates(url, "openai-chat", **client):
                if isinstance(update, TextDelta):  # from the first text on, 10 ms left
                    bound.reschedule(min(bound.when() or math.inf, loop.time() + 0.01))
            raise AssertionError("the body outlived its timeout")


async def path_idle_timeout(url: str, **client) -> None:
    assert (await astream_http(url, "openai-chat", idle_timeout=0.02, **client)).outcome is Outcome.TIMED_OUT


PATHS = {
    "completion": (path_completion, {}),
    "break": (path_break, {}),
    "exception": (path_exception, {}),
    "cancel": (path_cancel, {"delay": 0.005}),
    # A stall after the first event: the 10 ms left after the first text always run out inside the body,
    # however late a loaded machine schedules the loop.
    "timeout": (path_timeout, {"delay": 0.005, "stall_after": 8, "stall_for": 0.3}),
    "idle_timeout": (path_idle_timeout, {"stall_after": 2, "stall_for": 5.0}),
}


@pytest.mark.parametrize("client", ["own", "shared"])
@pytest.mark.parametrize("path", sorted(PATHS))
def test_no_connection_leaks_after_100_runs(path, client):
    # "own": each call makes (and closes) its client. "shared": one caller's client without keep-alive,
    # alive through all runs, so a response that was not released would hold its connection open (the
    # garbage collector cannot hide it by collecting a client).
    body = b"".join(
        b'data: {"choices":[{"index":0,"delta":{"content":"%s"},"finish_reason":null}]}\n\n' % piece.encode()
        for piece in ("你好", "café", "🙂")
    )
    body += b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
    run, options = PATHS[path]
    with ReplayServer(body, range(16, len(body), 16), max_requests=RUNS + 10, **options) as server:

        async def main() -> bool:
            if client == "own":
                for _ in range(RUNS):
                    await run(server.url)
                return server.wait_idle(5.0)
            limits = httpx.Limits(max_keepalive_connections=0)
            async with httpx.AsyncClient(limits=limits) as shared:
                for _ in range(RUNS):
                    await run(server.url, client=shared)
                return server.wait_idle(5.0)  # before the client closes

        assert asyncio.run(main()), f"{server.open_connections} connections left open"
        assert server.connections_opened >= RUNS and server.open_connections == 0


def test_httpx_async_client_of_the_caller_is_left_open_and_its_connection_released():
    capture = load("openai-chat/completed")
    with ReplayServer(capture.body) as server:

        async def main() -> tuple[bool, bool]:
            async with httpx.AsyncClient() as client:
                result = await astream_http(server.url, "openai-chat", client=client)
                return result.outcome is Outcome.COMPLETED, not client.is_closed

        assert asyncio.run(main()) == (True, True)
        assert server.wait_idle(3.0)
