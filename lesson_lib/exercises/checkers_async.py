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

from ..i18n import text
from . import Result
from .checkers_core import (
    Observed,
    classify_cut,
    compare_value,
    count_summary,
    failure_result,
    observe,
    sweep,
)

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

#: Mark a mismatch about the response left open, or closed more than once (removed before it is shown).
_OPEN_TAG, _CLOSES_TAG = "OPEN: ", "CLOSES: "
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
        raise TypeError(text("checkers.async.not_async"))
    return await result


# -- 7. an async generator abandoned without aclosing -----------------------------------------------------


def check_abandoned(key: str, function: Callable[..., Any]) -> Result:
    truth = "".join(_PIECES)[:FIRST_WORDS]

    def run(pieces: list[bytes]) -> Observed:
        response = FakeAsyncResponse(pieces)

        async def call() -> tuple[Any, int]:
            answer = await function(response, FIRST_WORDS)
            return answer, response.closes  # counted at the moment the function returns: no await since

        observed = observe(lambda: _in_own_loop(call))
        return Observed(observed.value, observed.error)

    def compare(observed: Observed, expected: Any) -> str | None:
        if observed.raised:
            return text("checkers.async.your_function", did=observed.describe())
        answer, closes = observed.value
        if answer != expected:
            return compare_value(Observed(answer), expected)
        if closes == 0:
            return _OPEN_TAG + text("checkers.async.still_open")
        if closes > 1:
            return _CLOSES_TAG + text("checkers.async.closed_times", closes=closes)
        return None

    failure, counts = sweep(CHAT, run, lambda _: truth, compare, lambda cut: classify_cut(CHAT, cut, "sse"))
    if failure is not None:
        if failure.mismatch.startswith(_OPEN_TAG):
            failure.mismatch = failure.mismatch.removeprefix(_OPEN_TAG)
            hint = text("checkers.async.hint.left_open")
        elif failure.mismatch.startswith(_CLOSES_TAG):
            failure.mismatch = failure.mismatch.removeprefix(_CLOSES_TAG)
            hint = text("checkers.async.hint.close_once")
        else:
            hint = text("checkers.async.hint.text")
        return failure_result(key, failure, {}, hint)
    return Result(key, True, text("checkers.async.passed", summary=count_summary(counts)))


# -- 8. a progress timeout that counts heartbeats -----------------------------------------------------------


def _event(kind: str, payload: dict[str, Any]) -> bytes:
    return f"event: {kind}\ndata: {json.dumps({'type': kind, **payload}, ensure_ascii=False)}\n\n".encode()


def _delta(text: str) -> bytes:
    return _event("content_block_delta", {"index": 0, "delta": {"type": "text_delta", "text": text}})


_START = _event("message_start", {"message": {"id": "msg_1"}})
_PING = _event("ping", {})
_STOP = _event("message_delta", {"delta": {"stop_reason": "end_turn"}}) + _event("message_stop", {})

#: Timelines of (seconds since the body started, the bytes that arrive then), with progress_timeout; each
#: is described to the learner by the catalogue string ``checkers.async.timeline.<name>``.
TIMELINES: dict[str, tuple[list[tuple[float, bytes]], float]] = {
    "hangs_behind_pings": (
        [(0.5, _START), (1.0, _delta("你好")), *((1.0 + 2 * i, _PING) for i in range(1, 8)), (20.0, _STOP)],
        5.0,
    ),
    "pings_between_deltas": (
        [(0.5, _START), *((1.0 + i, _delta("é🙂") if i % 2 else _PING) for i in range(12)), (13.5, _STOP)],
        3.0,
    ),
    "silent_gap": (
        [(0.5, _START), (1.0, _delta("Ång")), (9.0, _delta("ström"))],
        4.0,
    ),
    "delta_at_the_limit": (
        [(1.0, _delta("你")), (3.0, _delta("好")), (4.0, _STOP)],
        2.0,
    ),
    "nothing_at_all": ([], 2.0),
    "pings_then_answer": (
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
        case = text(f"checkers.async.timeline.{name}")
        if observed.raised:
            message = text("checkers.async.timeline_raised", case=case, did=observed.describe())
            return Result(key, False, message)
        if observed.value != truth:
            if truth is None:
                hint = text("checkers.async.hint.kept_progressing")
            elif name == "delta_at_the_limit":
                hint = text("checkers.async.hint.at_the_limit")
            elif observed.value is None or observed.value > truth:
                hint = text("checkers.async.hint.reset_by_pings")
            else:
                hint = text("checkers.async.hint.from_last_progress")
            got = repr(observed.value)
            if truth is None:
                message = text("checkers.async.not_no_timeout", case=case, got=got, hint=hint)
            else:
                message = text("checkers.async.not_the_timeout", case=case, got=got, at=truth, hint=hint)
            return Result(key, False, message)
        passed += 1
    return Result(key, True, text("checkers.async.passed_timelines", n=passed))
