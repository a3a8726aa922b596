"""Bug 10 of the bug hunt: a gateway that renames the model in each event, splitting each read on its own.

The learner's ``relay_events(reads)`` is a generator of the frames a gateway writes to its client: one
``data: <json>\\n\\n`` per upstream event, with the chunk's ``"model"`` renamed to :data:`GATEWAY_MODEL`,
and ``data: [DONE]\\n\\n`` passed on as it is. The truth comes from lesson_lib (:func:`~lesson_lib.parse_sse`
on the same reads, then :func:`relay_frame` per event); the corpus is a Chat Completions stream with Chinese,
accented Latin and emoji, cut in every way of :mod:`.checkers_core`, plus a stream cut inside its last event.

A gateway streams: each frame must come out as soon as the read that completes its event has arrived,
before the gateway asks for the next read. The checker hands the reads over one at a time and records how
many had been taken when each frame came out; a gateway that waits for every read, or buffers the whole
upstream and relays at the end (a returned list is such a gateway), is told so.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from lesson_lib.core.sse import SSEParser, parse_sse

from ..i18n import text
from . import Result
from .checkers_core import (
    Observed,
    classify_cut,
    compare_value,
    count_summary,
    failure_result,
    observe,
    short,
    sweep,
)

__all__ = ["GATEWAY_MODEL", "RELAY_STREAM", "check_relay_split", "relay_frame"]

#: The name the gateway gives the model.
GATEWAY_MODEL = "gateway-model"


def _chunk(content: str | None, finish: str | None = None) -> str:
    delta = {} if content is None else {"content": content}
    chunk = {"model": "gpt-4o-mini", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return "data: " + json.dumps(chunk, ensure_ascii=False) + "\n\n"


#: The hidden corpus: what the upstream sends (LF line endings, as OpenAI does).
RELAY_STREAM = (
    _chunk("你好，")
    + ": keep-alive\n\n"
    + _chunk("Ångström naïve 🙂")
    + _chunk("第二行 👩\u200d💻")
    + _chunk(None, "stop")
    + "data: [DONE]\n\n"
).encode("utf-8")


def relay_frame(data: str) -> bytes:
    """What the gateway writes for one upstream event's data: the model renamed, ``[DONE]`` as it is."""
    if data == "[DONE]":
        return b"data: [DONE]\n\n"
    chunk = json.loads(data)
    chunk["model"] = GATEWAY_MODEL
    return b"data: " + json.dumps(chunk, ensure_ascii=False).encode("utf-8") + b"\n\n"


def _truth(pieces: list[bytes]) -> list[bytes]:
    return [relay_frame(event.data) for event in parse_sse(pieces)]


def frames_due(pieces: list[bytes]) -> list[int]:
    """For each frame, how many reads the gateway has taken when that frame is due: the read that
    completes its event (a gateway forwards an event as soon as it is whole, before asking for more)."""
    parser, due = SSEParser(), []
    for number, piece in enumerate(pieces, 1):
        due += [number] * len(parser.feed(piece))
    return due


class _Upstream:
    """The reads of the upstream body, counting how many the gateway has taken."""

    def __init__(self, pieces: list[bytes]) -> None:
        self._pieces = iter(pieces)
        self.taken = 0

    def __iter__(self) -> _Upstream:
        return self

    def __next__(self) -> bytes:
        piece = next(self._pieces)
        self.taken += 1
        return piece


class _NotFrames(Exception):
    """relay_events returned something that is not frames one after another."""


def _frames(function: Callable[..., Any], pieces: list[bytes]) -> tuple[list[tuple[Any, int]], str | None]:
    """Each frame the learner's gateway gives, with the number of reads it had taken at that moment; and
    the kind of finished collection it returned instead of yielding (``list``, ``tuple``), if it did."""
    upstream = _Upstream(pieces)
    out = function(upstream)
    if isinstance(out, list | tuple):
        return [(frame, upstream.taken) for frame in out], type(out).__name__
    if not isinstance(out, Iterator):
        raise _NotFrames(text("checkers.relay.not_frames", got=short(out)))
    return [(frame, upstream.taken) for frame in out], None


_LATE_TAG = "LATE: "


def _compare(observed: Observed, pieces: list[bytes]) -> str | None:
    if isinstance(observed.error, _NotFrames):
        return str(observed.error)
    if observed.raised:
        return compare_value(observed, None)
    timed, collection = observed.value
    frames = [frame for frame, _ in timed]
    mismatch = compare_value(Observed(frames), _truth(pieces))
    if mismatch is not None:
        return mismatch
    for index, ((frame, taken), due) in enumerate(zip(timed, frames_due(pieces), strict=True)):
        if taken > due:
            if collection is not None:
                return _LATE_TAG + text("checkers.relay.returned_collection", kind=collection)
            return _LATE_TAG + text(
                "checkers.relay.late", index=index, frame=short(frame, 40), taken=taken, due=due
            )
    return None


def check_relay_split(key: str, function: Callable[..., Any]) -> Result:
    hints = {
        "whole": text("checkers.relay.hint.whole"),
        "character": text("checkers.relay.hint.character"),
        "line": text("checkers.relay.hint.line"),
        "in-event": text("checkers.relay.hint.in_event"),
    }
    default = text("checkers.relay.hint.default")
    failure, counts = sweep(
        RELAY_STREAM,
        lambda pieces: observe(lambda: _frames(function, pieces)),
        lambda pieces: pieces,
        _compare,
        lambda cut: classify_cut(RELAY_STREAM, cut, "sse"),
    )
    if failure is not None:
        if failure.mismatch.startswith(_LATE_TAG):
            failure.mismatch = failure.mismatch.removeprefix(_LATE_TAG)
            hints, default = {}, text("checkers.relay.hint.late")
        return failure_result(key, failure, hints, default)
    cut = RELAY_STREAM[: RELAY_STREAM.index(b"data: [DONE]") - 20]  # inside the finish_reason chunk
    observed = observe(lambda: [frame for frame, _ in _frames(function, [cut[:40], cut[40:]])[0]])
    mismatch = compare_value(observed, _truth([cut]))
    if mismatch is not None:
        return Result(key, False, text("checkers.relay.cut_inside_event", mismatch=mismatch))
    return Result(key, True, text("checkers.relay.passed_streaming", summary=count_summary(counts)))
