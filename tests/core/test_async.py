"""aconsume / astream_updates: the same results as consume / stream_updates, and the source closed once.

The async functions feed the same ``_Run`` as the sync ones (one implementation of the layers and
contracts), so for the same bytes in the same reads they must give equal results and equal update
sequences: property tests compare them over every capture and arbitrary bytes, in any chunking.

Cleanup: every path closes the source exactly once (``aclose()``), including a ``CancelledError`` (which
is re-raised, never swallowed) and an ``asyncio.timeout()`` around the caller's loop. pytest-asyncio is not
installed: each test runs its coroutine with ``asyncio.run``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import (
    Outcome,
    StreamResult,
    aconsume,
    astream_updates,
    consume,
    one_byte_chunks,
    stream_updates,
)
from lesson_lib.captures import load, names
from lesson_lib.core.contracts import CONTRACTS, NEEDS_REQUEST_ID, TextDelta
from tests.core.test_completion import TEXT, CountingSource, anthropic, chat, data, sse
from tests.strategies import partitions, sse_streams


def ids(contract: str) -> dict:
    return {"request_id": 1} if contract in NEEDS_REQUEST_ID else {}


class ASource:
    """An async chunk source that counts reads and aclose() calls; it can fail or pause on a chosen read."""

    def __init__(self, chunks, fail_at=None, error=None, pause_at=None, pause=0.0) -> None:
        self.chunks = list(chunks)
        self.fail_at = fail_at
        self.error = error or ConnectionResetError("connection reset by peer")
        self.pause_at, self.pause = pause_at, pause
        self.reads = 0
        self.closes = 0
        self.interrupted = 0  # reads that were cancelled while they waited

    def __aiter__(self):
        return self

    async def __anext__(self) -> bytes:
        if self.closes:
            raise AssertionError("read after aclose")
        if self.pause_at is not None and self.reads >= self.pause_at:
            try:
                await asyncio.sleep(self.pause)
            except asyncio.CancelledError:
                self.interrupted += 1
                raise
        if self.fail_at is not None and self.reads == self.fail_at:
            self.reads += 1
            raise self.error
        if self.reads >= len(self.chunks):
            raise StopAsyncIteration
        self.reads += 1
        return self.chunks[self.reads - 1]

    async def aclose(self) -> None:
        self.closes += 1


async def collect(updates) -> list:
    return [update async for update in updates]


def both(chunks: list[bytes], contract: str, **options) -> tuple[StreamResult, StreamResult]:
    return consume(list(chunks), contract, **options), asyncio.run(
        aconsume(ASource(chunks), contract, **options)
    )


# --- the same results, every chunking -----------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(names()), st.data())
def test_aconsume_equals_consume_for_every_capture_and_chunking(name, draw):
    capture = load(name)
    chunks = draw.draw(partitions(capture.body))
    sync, async_ = both(chunks, capture.contract)
    assert async_ == sync  # every field, the stats included
    assert async_.outcome == capture.outcome
    sync_updates = list(stream_updates(list(chunks), capture.contract))
    assert asyncio.run(collect(astream_updates(ASource(chunks), capture.contract))) == sync_updates


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(CONTRACTS)), st.one_of(st.binary(max_size=200), sse_streams()), st.data())
def test_astream_updates_equals_stream_updates_for_any_bytes(contract, body, draw):
    chunks = draw.draw(partitions(body))
    options = {"max_line_chars": 50, "max_event_chars": 50, **ids(contract)}
    sync = list(stream_updates(list(chunks), contract, **options))
    async_ = asyncio.run(collect(astream_updates(ASource(chunks), contract, **options)))
    assert async_ == sync


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_the_same_when_the_source_fails_or_is_cancelled(draw):
    body = anthropic(*TEXT, pings=True)
    chunks = draw.draw(partitions(body))
    fail_at = draw.draw(st.integers(0, len(chunks)))
    sync = consume(CountingSource(chunks, fail_at=fail_at), "anthropic-messages")
    async_ = asyncio.run(aconsume(ASource(chunks, fail_at=fail_at), "anthropic-messages"))
    assert async_ == sync
    stop_after = draw.draw(st.integers(0, len(chunks)))

    def cancel_counter():
        reads = {"n": 0}

        def cancelled() -> bool:
            reads["n"] += 1
            return reads["n"] > stop_after

        return cancelled

    sync = consume(list(chunks), "anthropic-messages", cancel=cancel_counter())
    async_ = asyncio.run(aconsume(ASource(chunks), "anthropic-messages", cancel=cancel_counter()))
    assert async_ == sync


def test_mcp_and_limits_give_the_same_verdicts():
    body = chat(*TEXT)
    for options in ({"max_events": 2}, {"max_bytes_without_progress": 5}, {"max_line_chars": 10}):
        sync, async_ = both(one_byte_chunks(body), "openai-chat", **options)
        assert async_ == sync and sync.outcome is Outcome.LIMIT_EXCEEDED


# --- the source closed exactly once, on every path ------------------------------------------------------


def run(coro):
    return asyncio.run(coro)


def test_closed_once_on_completion_service_error_limit_and_source_error():
    cases = [
        (ASource(one_byte_chunks(chat("完成"))), {}, Outcome.COMPLETED),
        (
            ASource([chat("你好", finish=None, done=False) + sse(data({"error": {"message": "x"}})), b"x"]),
            {},
            Outcome.SERVICE_ERROR,
        ),
        (ASource(one_byte_chunks(chat(*TEXT))), {"max_events": 1}, Outcome.LIMIT_EXCEEDED),
        (ASource(one_byte_chunks(chat(*TEXT)), fail_at=9), {}, Outcome.TRUNCATED),
    ]
    for source, options, outcome in cases:
        assert run(aconsume(source, "openai-chat", **options)).outcome is outcome
        assert source.closes == 1


def test_a_loop_run_to_the_end_has_closed_the_source_when_the_result_arrives():
    async def main() -> list[int]:
        source = ASource(one_byte_chunks(chat(*TEXT)))
        seen = []
        async for update in astream_updates(source, "openai-chat"):  # no aclosing: not needed here
            seen.append(source.closes)
            if isinstance(update, StreamResult):
                return seen
        return seen

    seen = run(main())
    assert seen[-1] == 1 and seen[0] == 0


def test_bad_arguments_raise_before_any_read_and_aconsume_still_closes():
    source = ASource([chat("你好")])
    with pytest.raises(ValueError, match=r"^idle_timeout must be"):
        run(aconsume(source, "openai-chat", idle_timeout=0))
    assert (source.reads, source.closes) == (0, 1)
    with pytest.raises(ValueError, match="request_id"):
        run(aconsume(ASource([b""]), "mcp"))
    with pytest.raises(TypeError, match="async iterable"):
        astream_updates([chat("你好")], "openai-chat")
    untouched = ASource([chat("你好")])
    with pytest.raises(ValueError, match="unknown contract"):
        astream_updates(untouched, "openai")
    assert (untouched.reads, untouched.closes) == (0, 0)


def test_early_break_inside_aclosing_closes_at_the_break():
    async def main() -> tuple[int, int]:
        source = ASource(one_byte_chunks(chat(*TEXT)))
        async with contextlib.aclosing(astream_updates(source, "openai-chat")) as updates:
            async for update in updates:
                if isinstance(update, TextDelta):
                    break
            closes_at_break = source.closes  # still inside the block: not closed yet
        return closes_at_break, source.closes

    assert run(main()) == (0, 1)


def test_aclose_twice_and_before_the_first_read_closes_once():
    async def main() -> int:
        source = ASource([chat("你好")])
        updates = astream_updates(source, "openai-chat")
        await updates.aclose()
        await updates.aclose()
        return source.closes

    assert run(main()) == 1


def test_an_exception_in_the_callers_loop_closes_the_source():
    async def main(source: ASource) -> None:
        async with contextlib.aclosing(astream_updates(source, "openai-chat")) as updates:
            async for update in updates:
                if isinstance(update, TextDelta):
                    raise KeyError("the caller's own bug")

    source = ASource(one_byte_chunks(chat(*TEXT)))
    with pytest.raises(KeyError):
        run(main(source))
    assert source.closes == 1 and source.reads < len(source.chunks)


def test_cancellation_closes_the_source_then_propagates():
    async def main() -> tuple[bool, ASource]:
        source = ASource(one_byte_chunks(chat(*TEXT)), pause_at=5, pause=10.0)
        task = asyncio.create_task(aconsume(source, "openai-chat"))
        while source.reads < 5:
            await asyncio.sleep(0)
        await asyncio.sleep(0.01)  # the task now waits inside the sixth read
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            return True, source
        return False, source

    cancelled, source = run(main())
    assert cancelled  # never swallowed: the task ends cancelled, not with a result
    assert source.closes == 1


def test_asyncio_timeout_around_the_loop_closes_the_source():
    async def main(source: ASource) -> None:
        async with asyncio.timeout(0.05):
            async for _ in astream_updates(source, "openai-chat"):
                pass

    source = ASource(one_byte_chunks(chat(*TEXT)), pause_at=3, pause=10.0)
    with pytest.raises(TimeoutError):
        run(main(source))
    assert source.closes == 1


def test_an_idle_timeout_on_an_async_source_times_out_and_closes():
    source = ASource(one_byte_chunks(chat(*TEXT)), pause_at=40, pause=10.0)
    result = run(aconsume(source, "openai-chat", idle_timeout=0.05))
    assert result.outcome is Outcome.TIMED_OUT and result.error.kind == "idle_timeout"
    assert result.stats.bytes == 40 and source.closes == 1
    assert source.interrupted == 1  # the clock ended the read itself, it did not wait for it


def test_an_abandoned_generator_is_not_closed_at_the_break():
    # What lesson 08 teaches: without aclosing, a held async iterator keeps its source open after the
    # break; it is closed only when it is dropped (here: del, then the loop runs the scheduled close).
    async def main() -> tuple[int, int]:
        source = ASource(one_byte_chunks(chat(*TEXT)))
        updates = astream_updates(source, "openai-chat")
        async for update in updates:
            if isinstance(update, TextDelta):
                break
        for _ in range(5):
            await asyncio.sleep(0)
        held = source.closes
        del updates, update
        gc.collect()
        for _ in range(5):
            await asyncio.sleep(0)
        return held, source.closes

    assert run(main()) == (0, 1)
