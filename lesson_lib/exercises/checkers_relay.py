"""Bug 10 of the bug hunt: a gateway that renames the model in each event, splitting each read on its own.

The learner's ``relay_events(reads)`` returns the frames a gateway writes to its client: one
``data: <json>\\n\\n`` per upstream event, with the chunk's ``"model"`` renamed to :data:`GATEWAY_MODEL`,
and ``data: [DONE]\\n\\n`` passed on as it is. The truth comes from lesson_lib (:func:`~lesson_lib.parse_sse`
on the same reads, then :func:`relay_frame` per event); the corpus is a Chat Completions stream with Chinese,
accented Latin and emoji, cut in every way of :mod:`.checkers_core`, plus a stream cut inside its last event.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from lesson_lib.sse import parse_sse

from ..i18n import text
from . import Result
from .checkers_core import classify_cut, compare_value, count_summary, failure_result, observe, sweep

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


def _frames(function: Callable[..., Any], pieces: list[bytes]) -> Any:
    return list(function(iter(pieces)))


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
        _truth,
        compare_value,
        lambda cut: classify_cut(RELAY_STREAM, cut, "sse"),
    )
    if failure is not None:
        return failure_result(key, failure, hints, default)
    cut = RELAY_STREAM[: RELAY_STREAM.index(b"data: [DONE]") - 20]  # inside the finish_reason chunk
    observed = observe(lambda: _frames(function, [cut[:40], cut[40:]]))
    mismatch = compare_value(observed, _truth([cut]))
    if mismatch is not None:
        return Result(key, False, text("checkers.relay.cut_inside_event", mismatch=mismatch))
    return Result(key, True, text("checkers.relay.passed", summary=count_summary(counts)))
