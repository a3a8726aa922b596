"""The bug hunt's value item: tool-call arguments parsed per event, and the checker for the fix.

The learner writes ``tool_calls(reads)``: the ``(name, arguments)`` of every tool call of an OpenAI Chat
Completions stream, in the order the calls started, with ``arguments`` the parsed JSON object; and an
exception (any) when the stream did not close the calls (no ``data: [DONE]`` after a whole-answer finish
reason: ``tool_calls``, ``stop`` or ``function_call``; after ``length`` the calls stay open even when
``[DONE]`` follows). The hidden stream has two calls whose fragments interleave by index, cut inside keys,
a number that is valid JSON on its own, a ``\\u`` escape and between the halves of a surrogate pair.

Unlike bugs 1, 2, 3, 6 and 10, this one is not checked for streaming: its point is a whole-stream
verdict. A call is closed only by the stream's end (a whole-answer finish reason, then ``[DONE]``, the
last event), and the calls' fragments interleave by index, so no call is known whole earlier; a function
that handed calls on before that would be handing on calls that may still be cut. The checker therefore
accepts a list returned at the end (or a generator), and checks the verdict on streams that stop early.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from lesson_lib.core.completion import consume

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

_CALLS = [
    ("get_weather", ['{"city": "北', '京", "days": ', "14", ', "unit": "cel', 'sius"}']),
    ("send_message", ['{"to": "Zo\\u00', 'eb", "text": "\\u4f', "60\\u597d \\ud83d", '\\ude80 café"}']),
]


def _event(delta: dict, finish: str | None = None) -> bytes:
    chunk = {
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return b"data: " + json.dumps(chunk, ensure_ascii=False, separators=(",", ":")).encode() + b"\n\n"


def tool_stream(
    *, finish: bool = True, done: bool = True, fragments: int | None = None, reason: str = "tool_calls"
) -> bytes:
    """The hidden chat stream: starts, interleaved fragments (the first ``fragments`` of them), the end.

    ``finish`` adds the chunk with finish_reason ``reason``, ``done`` the ``data: [DONE]`` after it.
    """
    parts = [_event({"role": "assistant", "content": None})]
    for index, (name, _) in enumerate(_CALLS):
        start = {"index": index, "id": f"call_{index}", "type": "function", "function": {"name": name}}
        parts.append(_event({"tool_calls": [start]}))
    pieces = [
        (index, fragment)
        for position in range(max(len(f) for _, f in _CALLS))
        for index, (_, f) in enumerate(_CALLS)
        if position < len(f)
        for fragment in [f[position]]
    ]
    for index, fragment in pieces[:fragments]:
        parts.append(_event({"tool_calls": [{"index": index, "function": {"arguments": fragment}}]}))
    if finish:
        parts.append(_event({}, reason))
    if done:
        parts.append(b"data: [DONE]\n\n")
    return b"".join(parts)


TOOL_STREAM = tool_stream()


def tool_truth() -> list[tuple[str, Any]]:
    """lesson_lib's verdict on the hidden stream (checked in the tests): the closed, parsed calls."""
    result = consume([TOOL_STREAM], "openai-chat")
    return [(c.name, c.arguments) for c in result.tool_calls if c.complete]


def _cut_at_length() -> tuple[str, bytes]:
    """A stream the service ended at its token limit: every fragment (the text even parses), ``length``,
    then ``[DONE]``. The calls stay open: the service said it cut the answer."""
    return (text("checkers.values.where.length"), tool_stream(reason="length"))


def _truncations() -> list[tuple[str, bytes]]:
    return [
        (text("checkers.values.where.before_done"), tool_stream(done=False)),
        (text("checkers.values.where.before_finish"), tool_stream(finish=False, done=False)),
        (text("checkers.values.where.after_number"), tool_stream(finish=False, done=False, fragments=6)),
        (text("checkers.values.where.inside_data_line"), tool_stream(done=False)[:-40]),
        _cut_at_length(),
    ]


class _NotPairs(Exception):
    """tool_calls returned something that is not (name, arguments) pairs."""


def _pairs(calls: Any) -> list[tuple[Any, ...]]:
    """The learner's calls as tuples; a hint (as _NotPairs) when they are not pairs one after another."""
    if isinstance(calls, str | bytes) or not isinstance(calls, Iterable):
        raise _NotPairs(text("checkers.values.not_calls", got=short(calls)))
    out = []
    for call in calls:
        if isinstance(call, str | bytes) or not isinstance(call, Iterable):
            raise _NotPairs(text("checkers.values.not_a_pair", got=short(call)))
        out.append(tuple(call))
    return out


def _compare(observed: Observed, truth: Any) -> str | None:
    if isinstance(observed.error, _NotPairs):
        return str(observed.error)
    return compare_value(observed, truth)


def check_tool_args(key: str, function: Callable[..., Any]) -> Result:
    truth = tool_truth()
    hints = {"whole": text("checkers.values.hint.whole")}
    default = text("checkers.values.hint.default")

    def run(pieces: list[bytes]):
        return observe(lambda: _pairs(function(pieces)))

    failure, counts = sweep(
        TOOL_STREAM,
        run,
        lambda pieces: truth,
        _compare,
        lambda cut: classify_cut(TOOL_STREAM, cut, "sse"),
    )
    if failure is not None:
        return failure_result(key, failure, hints, default)
    for where, body in _truncations():
        observed = run([body])
        if not observed.raised and (where, body) == _cut_at_length():
            message = text("checkers.values.length_taken_as_whole", where=where, did=observed.describe())
            return Result(key, False, message)
        if not observed.raised:
            message = text("checkers.values.open_taken_as_whole", where=where, did=observed.describe())
            return Result(key, False, message)
    message = text("checkers.values.passed", summary=count_summary(counts), n=len(_truncations()))
    return Result(key, True, message)
