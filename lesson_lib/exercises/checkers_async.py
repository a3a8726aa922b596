"""The bug hunt's two async and clock bugs: an async generator abandoned without ``aclosing``, and a
progress timeout that counts heartbeats as progress.

Each checker runs the learner's function on a hidden corpus and compares with ``lesson_lib``. The async
function is run in a thread of its own, with its own event loop (a notebook cell already runs one, so
``asyncio.run`` cannot be called there). A failure names the case and asks a question; it never shows the
fix.

``first_words`` is checked on every path: it must return the first characters having closed the response
exactly once, and never again once the loop has shut down (a generator left suspended closes it a second
time then), without reading past the read that brought those characters (reading the whole answer closes
the generator too, the slow way); every async generator it starts is kept referenced, so that dropping the
last reference cannot do the closing; and a task cancelled while it waits for a read, or a read that fails,
must end with the response closed once and the cancellation or error passed on.

``stalled_at`` is checked on timelines that end in heartbeats only (a clock consulted only when a progress
event arrives never runs out there), and must return a number of seconds or ``None``.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from lesson_lib.core.activity import ActivityLog
from lesson_lib.core.completion import consume
from lesson_lib.core.sse import Event, SSEParser
from lesson_lib.teach.viz.timeline import expiry

from ..i18n import text
from . import Result
from .checkers_core import (
    Observed,
    classify_cut,
    compare_value,
    count_summary,
    differs,
    failure_result,
    observe,
    short,
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
_OPEN_TAG, _CLOSES_TAG, _LATER_TAG, _READ_TAG = "OPEN: ", "CLOSES: ", "LATER: ", "READ: "
FIRST_WORDS = 9  # characters: the answer's first nine, which end inside its third delta


class FakeAsyncResponse:
    """An async HTTP response stand-in: ``aiter_bytes()`` yields the reads, ``aclose()`` counts, and
    ``reads_after_close`` counts reads asked for after it was closed (a bug of its own)."""

    def __init__(self, pieces: list[bytes]) -> None:
        self._pieces = pieces
        self.closes = 0
        self.reads = 0

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        for piece in self._pieces:
            await asyncio.sleep(0)
            self.reads += 1
            yield piece

    async def aclose(self) -> None:
        self.closes += 1

    def __repr__(self) -> str:
        return f"<FakeAsyncResponse: {len(self._pieces)} reads>"


def _in_own_loop(call: Callable[[], Any], kept: list[Any] | None = None) -> Any:
    """Run ``call()`` (which returns a coroutine) to completion in a new thread with its own event loop.

    With ``kept`` (a list), every async generator started in that loop is appended to it: a strong
    reference, so that dropping the learner's last reference cannot close a generator early (the loop's
    asyncgen finalizer would schedule ``aclose()`` then); ``asyncio.run`` closes what is left at shutdown.
    """
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(_awaited(call, kept))
        except BaseException as exc:  # handed back to the caller's thread as it is
            box["error"] = exc

    thread = threading.Thread(target=target, name="bug-hunt-async")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


async def _awaited(call: Callable[[], Any], kept: list[Any] | None = None) -> Any:
    if kept is not None:
        firstiter, finalizer = sys.get_asyncgen_hooks()

        def keep(agen: Any) -> None:
            kept.append(agen)
            if firstiter is not None:
                firstiter(agen)

        sys.set_asyncgen_hooks(firstiter=keep, finalizer=finalizer)
    result = call()
    if not inspect.isawaitable(result):
        raise TypeError(text("checkers.async.not_async"))
    return await result


# -- 7. an async generator abandoned without aclosing -----------------------------------------------------


def reads_needed(pieces: list[bytes]) -> int:
    """How many reads a reader must take to have the answer's first FIRST_WORDS characters (all, if the
    answer is shorter): the read that completes the event carrying the last of them."""
    parser, seen = SSEParser(), 0
    for number, piece in enumerate(pieces, 1):
        for event in parser.feed(piece):
            assert isinstance(event, Event)  # comments=False: the parser returns events only
            if event.data != "[DONE]":
                seen += len(json.loads(event.data)["choices"][0]["delta"].get("content") or "")
        if seen >= FIRST_WORDS:
            return number
    return len(pieces)


class _Cancelled(Exception):
    """Raised inside the checker when the learner's function returned although its task was cancelled."""


class _HangingResponse(FakeAsyncResponse):
    """A response whose next read after ``pieces`` never comes (the answer stalls): for cancellation; or,
    with ``fail``, whose next read fails with a network error."""

    def __init__(self, pieces: list[bytes], fail: bool = False) -> None:
        super().__init__(pieces)
        self._fail = fail

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        async for piece in super().aiter_bytes():
            yield piece
        if self._fail:
            raise ConnectionResetError("connection reset by peer")
        await asyncio.Event().wait()  # never set: only a cancellation ends this wait


def _run_first_words(function: Callable[..., Any], pieces: list[bytes]) -> Observed:
    """The learner's first_words on ``pieces``: (answer, reads taken, closes when it returned, closes once
    the loop has shut down) or the error; every async generator it starts is kept referenced."""
    response = FakeAsyncResponse(pieces)
    kept: list[Any] = []

    async def call() -> tuple[Any, int, int]:
        pending = function(response, FIRST_WORDS)
        if not inspect.isawaitable(pending):
            raise TypeError(text("checkers.async.not_async"))
        answer = await pending
        return answer, response.reads, response.closes  # at the moment the function returns

    try:
        observed = observe(lambda: _in_own_loop(call, kept))
        later = response.closes  # after asyncio.run closed every generator still open
    finally:
        kept.clear()
    if observed.raised:
        return observed
    return Observed((*observed.value, later))


def _cancelled_path(function: Callable[..., Any], fail: bool) -> tuple[str, Observed, int]:
    """Two deltas (fewer characters than asked for), then a read that never comes and the task is
    cancelled, or (``fail``) a read that fails: (the path's name, what happened, closes afterwards)."""
    response = _HangingResponse([_chat(_PIECES[:2])[: -len(b"data: [DONE]\n\n")]], fail)
    kept: list[Any] = []

    async def call() -> Any:
        task = asyncio.ensure_future(function(response, FIRST_WORDS))
        if fail:
            return await task  # the network error must come out of the learner's function
        for _ in range(200):  # until the one read was taken and the next one is awaited
            await asyncio.sleep(0)
            if task.done() or response.reads >= 1:
                break
        for _ in range(5):
            await asyncio.sleep(0)
        task.cancel()
        try:
            value = await task
        except asyncio.CancelledError:
            return "cancelled"
        raise _Cancelled(short(value))

    try:
        observed = observe(lambda: _in_own_loop(call, kept))
        closes = response.closes
    finally:
        kept.clear()
    return ("failed" if fail else "cancelled"), observed, closes


def check_abandoned(key: str, function: Callable[..., Any]) -> Result:
    truth = "".join(_PIECES)[:FIRST_WORDS]

    def compare(observed: Observed, pieces: list[bytes]) -> str | None:
        if observed.raised:
            return text("checkers.async.your_function", did=observed.describe())
        answer, reads, closes, later = observed.value
        if differs(answer, truth):
            return compare_value(Observed(answer), truth)
        if closes == 0:
            return _OPEN_TAG + text("checkers.async.still_open")
        if closes > 1:
            return _CLOSES_TAG + text("checkers.async.closed_times", closes=closes)
        if later > 1:
            return _LATER_TAG + text("checkers.async.closed_later", closes=later)
        needed = reads_needed(pieces)
        if reads > needed:
            return _READ_TAG + text("checkers.async.read_too_much", reads=reads, needed=needed, n=FIRST_WORDS)
        return None

    failure, counts = sweep(
        CHAT,
        lambda pieces: _run_first_words(function, pieces),
        lambda pieces: pieces,
        compare,
        lambda cut: classify_cut(CHAT, cut, "sse"),
    )
    if failure is not None:
        hint = text("checkers.async.hint.text")
        for tag, key_hint in (
            (_OPEN_TAG, "left_open"),
            (_CLOSES_TAG, "close_once"),
            (_LATER_TAG, "closed_later"),
            (_READ_TAG, "read_too_much"),
        ):
            if failure.mismatch.startswith(tag):
                failure.mismatch = failure.mismatch.removeprefix(tag)
                hint = text(f"checkers.async.hint.{key_hint}")
                break
        return failure_result(key, failure, {}, hint)
    for fail in (False, True):
        path, observed, closes = _cancelled_path(function, fail)
        case = text(f"checkers.async.path.{path}")
        if isinstance(observed.error, _Cancelled):
            return Result(key, False, text("checkers.async.swallowed", case=case, got=str(observed.error)))
        if fail and not observed.raised:
            return Result(key, False, text("checkers.async.error_hidden", case=case, did=observed.describe()))
        if closes != 1:
            hint = text("checkers.async.hint.left_open" if closes == 0 else "checkers.async.hint.close_once")
            return Result(key, False, text("checkers.async.path_closes", case=case, closes=closes, hint=hint))
    return Result(key, True, text("checkers.async.passed_paths", summary=count_summary(counts)))


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
    # timelines that end in heartbeats: no progress event comes after the limit ran out, only pings
    "ends_in_pings": (
        [(0.5, _START), (1.0, _delta("你好")), *((1.0 + 1.5 * i, _PING) for i in range(1, 9))],
        4.0,
    ),
    "pings_only": ([(1.0 * i, _PING) for i in range(1, 8)], 3.0),
}


def arrivals_of(timeline: list[tuple[float, bytes]]) -> list[tuple[float, Event]]:
    """What the learner's function receives: ``(seconds, Event)`` for each event, in order."""
    parser = SSEParser()
    out: list[tuple[float, Event]] = []
    for seconds, data in timeline:
        for event in parser.feed(data):
            assert isinstance(event, Event)  # comments=False: the parser returns events only
            out.append((seconds, event))
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

        def watch(timeline: list[tuple[float, bytes]] = timeline, limit: float = limit) -> Any:
            return function(arrivals_of(timeline), limit)

        observed = observe(watch)
        truth = timed_out_at(timeline, limit)
        case = text(f"checkers.async.timeline.{name}")
        if observed.raised:
            message = text("checkers.async.timeline_raised", case=case, did=observed.describe())
            return Result(key, False, message)
        value = observed.value
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            kind = type(value).__name__
            message = text("checkers.async.not_seconds", case=case, got=short(value), kind=kind)
            return Result(key, False, message)
        if value != truth:
            if truth is None:
                hint = text("checkers.async.hint.kept_progressing")
            elif name in ("ends_in_pings", "pings_only") and observed.value is None:
                hint = text("checkers.async.hint.clock_not_consulted")
            elif name == "delta_at_the_limit":
                hint = text("checkers.async.hint.at_the_limit")
            elif value is not None and value == min((t for t, _ in timeline if t >= truth), default=None):
                hint = text("checkers.async.hint.late_by_an_event")
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
