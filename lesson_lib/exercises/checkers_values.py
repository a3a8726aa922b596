"""The bug hunt's value item: tool-call arguments parsed per event, and the checker for the fix.

The learner writes ``tool_calls(reads)``: the ``(name, arguments)`` of every tool call of an OpenAI Chat
Completions stream, in the order the calls started, with ``arguments`` the parsed JSON object; and an
exception (any) when the stream did not close the calls (no ``data: [DONE]`` after a whole-answer finish
reason: ``tool_calls``, ``stop`` or ``function_call``; after ``length`` the calls stay open even when
``[DONE]`` follows). The hidden stream has two calls whose fragments interleave by index, cut inside keys,
a number that is valid JSON on its own, a ``\\u`` escape and between the halves of a surrogate pair.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from lesson_lib.completion import consume

from . import Result
from .checkers_core import classify_cut, compare_value, count_summary, failure_result, observe, sweep

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
        (index, text)
        for position in range(max(len(f) for _, f in _CALLS))
        for index, (_, f) in enumerate(_CALLS)
        if position < len(f)
        for text in [f[position]]
    ]
    for index, text in pieces[:fragments]:
        parts.append(_event({"tool_calls": [{"index": index, "function": {"arguments": text}}]}))
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
    return (
        "at the token limit: finish_reason 'length' came after the last fragment, and data: [DONE] followed",
        tool_stream(reason="length"),
    )


def _truncations() -> list[tuple[str, bytes]]:
    return [
        ("after every fragment and the finish_reason, before data: [DONE]", tool_stream(done=False)),
        ("after every fragment, before the finish_reason", tool_stream(finish=False, done=False)),
        (
            "between two fragments, after a number that is valid JSON on its own",
            tool_stream(finish=False, done=False, fragments=6),
        ),
        ("inside the data line of a fragment", tool_stream(done=False)[:-40]),
        _cut_at_length(),
    ]


def check_tool_args(key: str, function: Callable[..., Any]) -> Result:
    truth = tool_truth()
    hints = {
        "whole": "even the whole, finished stream does not give the right calls. What is one fragment of the "
        "arguments: a JSON value, or a piece of JSON text?"
    }
    default = "compare your calls with consume(reads, 'openai-chat').tool_calls."

    def run(pieces: list[bytes]):
        return observe(lambda: [tuple(call) for call in function(pieces)])

    failure, counts = sweep(
        TOOL_STREAM,
        run,
        lambda pieces: truth,
        compare_value,
        lambda cut: classify_cut(TOOL_STREAM, cut, "sse"),
    )
    if failure is not None:
        return failure_result(key, failure, hints, default)
    for where, body in _truncations():
        observed = run([body])
        if not observed.raised and (where, body) == _cut_at_length():
            return Result(
                key,
                False,
                f"the service stopped {where}, and your function {observed.describe()} as if the calls were "
                "whole. Hint: [DONE] only says the stream ended; what does finish_reason 'length' say about "
                "the arguments that came before it?",
            )
        if not observed.raised:
            return Result(
                key,
                False,
                f"the stream stopped {where}, and your function {observed.describe()} as if the calls were "
                "whole. Hint: in Chat Completions nothing closes one call; what closes them all?",
            )
    closing = f"{len(_truncations())} streams that never close their calls"
    return Result(key, True, f"passed {count_summary(counts)}, and {closing}.")
