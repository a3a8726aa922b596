"""The bug hunt's two async and clock bugs: an async generator abandoned without ``aclosing``, and a
progress timeout that counts heartbeats as progress.

Each checker runs the learner's function on a hidden corpus and compares with ``lesson_lib``. The async
function is run in a thread of its own, with its own event loop (a notebook cell already runs one, so
``asyncio.run`` cannot be called there). A failure names the case and asks a question; it never shows the
fix.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import threading
from collections.abc import Callable, Iterator
from typing import Any

from lesson_lib.activity import ActivityLog
from lesson_lib.completion import consume
from lesson_lib.sse import Event, SSEParser
from lesson_lib.viz.timeline import expiry

from . import Result
from .checkers_core import Observed, classify_cut, compare_value, count_summary, observe, sweep

__all__ = [
    "TIMELINES",
    "FakeAsyncResponse",
    "arrivals_of",
    "check_abandoned",
    "check_heartbeat_clock",
    "timed_out_at",
]

_PIECES = ["你好", "！Café ", "au lait 🙂", " 第二行", "：完成。"]


def _chat(pieces: list[str]) -> bytes:
    events = [
        "data: "
        + json.dumps({"choices": [{"index": 0, "delta": {"content": p}}]}, ensure_ascii=False)
        + "\n\n"
        for p in pieces
    ]
    return ("".join(events) + "data: [DONE]\n\n").encode("utf-8")


CHAT = _chat(_PIECES)
FIRST_WORDS = 9  # characters: the answer's first nine, which end inside its third delta


class FakeAsyncResponse:
    """An async HTTP response stand-in: ``aiter_bytes()`` yields the reads, ``aclose()`` counts, and
    ``reads_after_close`` counts reads asked for after it was closed (a bug of its own)."""

    def __init__(self, pieces: list[bytes]) -> None:
        self._pieces = pieces
        self.closes = 0
        self.reads = 0

    async def aiter_bytes(self) -> Iterator[bytes]:  # type: ignore[misc]
        for piece in self._pieces:
            await asyncio.sleep(0)
            self.reads += 1
            yield piece

    async def aclose(self) -> None:
        self.closes += 1

    def __repr__(self) -> str:
        return f"<FakeAsyncResponse: {len(self._pieces)} reads>"


def _in_own_loop(call: Callable[[], Any]) -> Any:
    """Run ``call()`` (which returns a coroutine) to completion in a new thread with its own event loop."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(_awaited(call))
        except BaseException as exc:  # handed back to the caller's thread as it is
            box["error"] = exc

    thread = threading.Thread(target=target, name="bug-hunt-async")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


async def _awaited(call: Callable[[], Any]) -> Any:
    result = call()
    if not inspect.isawaitable(result):
        raise TypeError("first_words must be an async function (async def), so that it can be awaited")
    return await result


# -- 7. an async generator abandoned without aclosing -----------------------------------------------------


def check_abandoned(key: str, function: Callable[..., Any]) -> Result:
    truth = "".join(_PIECES)[:FIRST_WORDS]

    def run(pieces: list[bytes]) -> Observed:
        response = FakeAsyncResponse(pieces)

        async def call() -> tuple[Any, int]:
            text = await function(response, FIRST_WORDS)
            return text, response.closes  # counted at the moment the function returns: no await since

        observed = observe(lambda: _in_own_loop(call))
        return Observed(observed.value, observed.error)

    def compare(observed: Observed, expected: Any) -> str | None:
        if observed.raised:
            return f"your function {observed.describe()}"
        text, closes = observed.value
        if text != expected:
            return compare_value(Observed(text), expected)
        if closes == 0:
            return "the response was still open when your function returned"
        if closes > 1:
            return f"the response was closed {closes} times; it must be closed exactly once"
        return None

    failure, counts = sweep(CHAT, run, lambda _: truth, compare, lambda cut: classify_cut(CHAT, cut, "sse"))
    if failure is not None:
        if failure.mismatch.startswith("the response was still open"):
            hint = (
                "you left the async for early. Which code closes the response, and when does Python run an "
                "async generator's cleanup if nobody closes it?"
            )
        elif "closed" in failure.mismatch:
            hint = "close the response in one place only."
        else:
            hint = "compare the text you return with the first characters of the answer."
        return Result(key, False, f"{failure.where()}: {failure.mismatch}. Hint: {hint}")
    return Result(key, True, f"passed {count_summary(counts)} (closed once, before returning, each time).")


# -- 8. a progress timeout that counts heartbeats -----------------------------------------------------------


def _event(kind: str, payload: dict[str, Any]) -> bytes:
    return f"event: {kind}\ndata: {json.dumps({'type': kind, **payload}, ensure_ascii=False)}\n\n".encode()


def _delta(text: str) -> bytes:
    return _event("content_block_delta", {"index": 0, "delta": {"type": "text_delta", "text": text}})


_START = _event("message_start", {"message": {"id": "msg_1"}})
_PING = _event("ping", {})
_STOP = _event("message_delta", {"delta": {"stop_reason": "end_turn"}}) + _event("message_stop", {})

#: Timelines of (seconds since the body started, the bytes that arrive then), with progress_timeout.
TIMELINES: dict[str, tuple[list[tuple[float, bytes]], float]] = {
    "a generation that hangs behind pings": (
        [(0.5, _START), (1.0, _delta("你好")), *((1.0 + 2 * i, _PING) for i in range(1, 8)), (20.0, _STOP)],
        5.0,
    ),
    "pings between deltas that keep coming": (
        [(0.5, _START), *((1.0 + i, _delta("é🙂") if i % 2 else _PING) for i in range(12)), (13.5, _STOP)],
        3.0,
    ),
    "a silent gap longer than the limit": (
        [(0.5, _START), (1.0, _delta("Ång")), (9.0, _delta("ström"))],
        4.0,
    ),
    "a delta that arrives exactly at the limit": (
        [(1.0, _delta("你")), (3.0, _delta("好")), (4.0, _STOP)],
        2.0,
    ),
    "nothing at all": ([], 2.0),
    "pings first, then the answer in time": (
        [(1.0, _PING), (2.0, _PING), (2.9, _START), (3.5, _delta("完成")), (4.0, _STOP)],
        3.0,
    ),
}


def arrivals_of(timeline: list[tuple[float, bytes]]) -> list[tuple[float, Event]]:
    """What the learner's function receives: ``(seconds, Event)`` for each event, in order."""
    parser, out = SSEParser(), []
    for seconds, data in timeline:
        out.extend((seconds, event) for event in parser.feed(data))
    return out


def timed_out_at(timeline: list[tuple[float, bytes]], progress_timeout: float) -> float | None:
    """The truth, from ``lesson_lib``: when the progress clock runs out (``None``: the stream ends first)."""
    now = [0.0]

    def reads() -> Iterator[bytes]:
        for seconds, data in timeline:
            now[0] = seconds
            yield data

    log = ActivityLog(lambda: now[0])
    result = consume(
        reads(), "anthropic-messages", progress_timeout=progress_timeout, activity=log, clock=lambda: now[0]
    )
    if result.error is None or result.error.kind != "progress_timeout":
        return None
    return expiry(log.marks, "progress_timeout", progress_timeout)[1]


def check_heartbeat_clock(key: str, function: Callable[..., Any]) -> Result:
    passed = 0
    for name, (timeline, limit) in TIMELINES.items():
        observed = observe(lambda timeline=timeline, limit=limit: function(arrivals_of(timeline), limit))
        truth = timed_out_at(timeline, limit)
        if observed.raised:
            return Result(key, False, f"for {name}, your function {observed.describe()}.")
        if observed.value != truth:
            if truth is None:
                hint = "this stream kept progressing: which events moved your clock, and which should?"
            elif name == "a delta that arrives exactly at the limit":
                hint = "the delta came at the very moment the limit was reached. Was the limit still running?"
            elif observed.value is None or observed.value > truth:
                hint = (
                    "this stream stopped progressing while events still arrived, and your clock kept "
                    "being reset. Does a ping carry any of the answer?"
                )
            else:
                hint = "measure from the last event that carried progress, not from an earlier one."
            expected = "no timeout" if truth is None else f"a timeout at {truth:g} s"
            return Result(
                key,
                False,
                f"for {name}, your function returned {observed.value!r}, not {expected}. Hint: {hint}",
            )
        passed += 1
    return Result(key, True, f"passed {passed} timelines, with and without heartbeats.")
