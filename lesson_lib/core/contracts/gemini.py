"""Gemini ``streamGenerateContent``: over SSE (``gemini``) and as one JSON array (``gemini-json-array``)."""

from __future__ import annotations

from typing import Any, ClassVar

from ..sse import Event
from .base import Contract, SSEContract, _arguments_json, _error_signal, _loads, _obj, _str_or_none
from .registry import register
from .signals import (
    FinishReason,
    ReasoningDelta,
    Signal,
    Stage,
    TextDelta,
    ToolCallWhole,
    Unknown,
)

__all__ = ["Gemini", "GeminiJSONArray"]


class _GeminiBase(Contract):
    """Gemini chunks (``GenerateContentResponse``), shared by the SSE and JSON-array framings.

    Text is ``candidates[0].content.parts[*].text`` without thought parts; a part with ``"thought": true``
    is reasoning, and a ``functionCall`` part (``name``, ``args`` object, optional ``id``) is a whole tool
    call. There is no terminal event: the
    answer is complete when the LAST chunk carried a ``finishReason`` and the framing ended cleanly. Older
    models put ``STOP`` on every chunk, so a reason is only a :class:`FinishReason` until the end; and once a
    reason has come on a chunk that more chunks followed, a cut between two chunks of the SSE framing looks
    exactly like the end, so :attr:`end_signal_repeated` is set and ``consume`` calls no text final.
    """

    complete_reasons = frozenset({"STOP"})
    #: Does the framing itself prove where the body ends (the JSON array's ``]``)?
    framing_proves_end: ClassVar[bool] = False

    def __init__(self) -> None:
        super().__init__()
        self.last_chunk_reason: str | None = None

    def interpret_chunk(self, chunk: Any) -> list[Signal]:
        if self.last_chunk_reason is not None:  # the reason that would end the stream was not the last
            self._count("finish_reason_then_more")
            self.end_signal_repeated = not self.framing_proves_end
        if type(chunk) is not dict:
            self.last_chunk_reason = None
            return [Unknown(type(chunk).__name__)]
        if chunk.get("error") is not None:
            return [_error_signal(chunk["error"], "status", "code")]
        signals: list[Signal] = []
        candidates = chunk.get("candidates")
        first = _obj(candidates[0]) if isinstance(candidates, list) and candidates else {}
        parts = _obj(first.get("content")).get("parts")
        for part in map(_obj, parts if isinstance(parts, list) else []):
            if part.get("thought") is True:
                thought = part.get("text")
                signals.append(
                    ReasoningDelta(thought) if isinstance(thought, str) and thought else Stage("thought")
                )
            elif type(part.get("functionCall")) is dict:
                call = part["functionCall"]
                name = _str_or_none(call.get("name")) or ""
                signals.append(
                    ToolCallWhole(_str_or_none(call.get("id")), name, _arguments_json(call.get("args")))
                )
            elif isinstance(part.get("text"), str):
                if part["text"]:
                    signals.append(TextDelta(part["text"]))
            elif part:
                signals.append(Stage(next(iter(part))))  # functionCall, executableCode, ...
        # A prompt blocked before any candidate names its reason in promptFeedback instead.
        reason = first.get("finishReason") or _obj(chunk.get("promptFeedback")).get("blockReason")
        self.last_chunk_reason = _str_or_none(reason)
        if self.last_chunk_reason is not None:
            signals.append(FinishReason(self.last_chunk_reason))
        return signals

    def end(self) -> list[Signal]:
        if self.last_chunk_reason is None:
            return []
        return [self.terminal(self.last_chunk_reason)]


@register
class Gemini(_GeminiBase, SSEContract):
    """Gemini ``streamGenerateContent?alt=sse``: ``data:`` lines, each one JSON chunk."""

    name = "gemini"
    framing = "sse"

    def interpret_event(self, event: Event) -> list[Signal]:
        return self.interpret_chunk(_loads(event.data))


@register
class GeminiJSONArray(_GeminiBase):
    """Gemini ``streamGenerateContent`` without ``alt``: one growing JSON array; its ``]`` ends the body.

    The closing ``]`` proves where the body ends, so a finish reason repeated on every chunk costs nothing
    here: :attr:`end_signal_repeated` stays ``False``.
    """

    name = "gemini-json-array"
    framing = "json-array"
    framing_proves_end = True

    def interpret(self, item: Any) -> list[Signal]:
        return self.interpret_chunk(item)
