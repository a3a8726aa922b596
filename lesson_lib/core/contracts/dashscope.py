"""Alibaba Cloud DashScope, native API (``dashscope``): Qwen's own SSE stream, cumulative by default."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from ..errors import FramingError
from ..sse import Comment, Event
from .base import SSEContract, _loads, _obj, _str_or_none
from .registry import register
from .signals import FinishReason, ReasoningDelta, Signal, TextDelta, Unknown

__all__ = ["DashScope"]

#: The comment DashScope writes in every event, after ``event:result``: the event's HTTP status
#: (``:HTTP_STATUS/200`` in the documentation's examples), not a heartbeat.
_STATUS_LINE = re.compile(r"HTTP_STATUS/[0-9]{3}")
#: The finish reasons the documentation shows ending a stream (``stop``; ``length`` at ``max_tokens``).
_ENDING_REASONS = frozenset({"stop", "length"})


@register
class DashScope(SSEContract):
    """DashScope's native text generation stream (``POST .../api/v1/services/aigc/text-generation/generation``
    with the header ``X-DashScope-SSE: enable``), ``result_format`` ``"message"``.

    Each event is ``id:<n>``, ``event:result``, the comment ``:HTTP_STATUS/200`` and ``data:<json>`` (no
    space after the colons, which SSE allows). The SSE layer hands the comment line over as a comment; this
    contract knows it as the event's status line, not a heartbeat (:meth:`interpret` gives no signal for
    it), so a result's
    :attr:`~lesson_lib.core.completion.StreamStats.heartbeats` counts only other comments. Any comment says
    nothing about progress. The text is ``output.choices[0].message.content``, the reasoning
    ``output.choices[0].message.reasoning_content``. ``finish_reason`` is the *string* ``"null"`` while the
    answer grows; the stream is done only when it is ``"stop"`` (whole) or ``"length"`` (cut at
    ``max_tokens``): those two are what the documentation shows. Any other finish reason is reported
    (:class:`FinishReason`) but does not end the stream, so a body that ends there is ``truncated``.
    There is no ``[DONE]``.

    **Cumulative or incremental.** With the request's ``parameters.incremental_output`` false, every event
    carries the WHOLE text generated so far and the last event the complete answer; with it true, each
    event carries only the new text. The stream does not say which (the field is not echoed), so the
    contract takes it from the caller: ``incremental_output``
    (:func:`~lesson_lib.core.contracts.get_contract`, :func:`~lesson_lib.consume`), default ``False``,
    the parameter's documented default ("default false; true by default for Qwen3-Max, Qwen3-VL, the
    Qwen3 open-source models, QwQ and QVQ": DashScope's API reference,
    https://help.aliyun.com/zh/model-studio/qwen-api-via-dashscope, page dated 2026-02-24, as read for
    ``docs/research/chinese_services.md``). Pass what the request sent when it is not the default.

    In cumulative mode the contract turns each event's text into the part that extends the text so far
    (a :class:`TextDelta` of the new characters only), so the library's text is the last event's text and
    is never appended twice. An event whose text does NOT extend the text so far (shorter, or different
    in an earlier character) raises :class:`~lesson_lib.core.errors.FramingError` naming the character
    where they differ, never the text: the stream becomes ``decode_error`` (with ``errors="replace"``
    too: that option is about bytes, and no text can be appended to take back what was shown), its
    ``error.offset`` the end of the read the event came in. The usual cause is an incremental stream read
    as cumulative. An event with empty ``content`` carries no text in either mode. Reasoning follows the
    same rule (DashScope refuses thinking with ``incremental_output`` false, so it is incremental).

    Not handled, because the documentation read does not show it (``docs/research/chinese_services.md``,
    "Not verified"): an error after the stream started (third parties show ``event:error`` with
    ``:HTTP_STATUS/400``; such an event is :class:`Unknown` here, and the body that follows decides: a
    stream that never says ``stop``/``length`` is ``truncated``), ``result_format`` ``"text"``
    (``output.text``: :class:`Unknown`), resuming from ``id:`` (never claimed).
    """

    name = "dashscope"
    complete_reasons = frozenset({"stop"})
    takes_incremental_output: ClassVar[bool] = True
    #: ``incremental_output`` when the caller gives none: the parameter's documented default.
    default_incremental_output: ClassVar[bool] = False

    def __init__(self, incremental_output: bool = False) -> None:
        super().__init__()
        self.incremental = incremental_output
        #: Cumulative mode: the whole text and reasoning so far, which each event must extend.
        self.so_far = {"content": "", "reasoning_content": ""}

    @classmethod
    def for_stream(
        cls, request_id: str | int | None = None, incremental_output: bool | None = None
    ) -> DashScope:
        return cls(cls.default_incremental_output if incremental_output is None else incremental_output)

    def interpret(self, item: Any) -> list[Signal]:
        if isinstance(item, Comment) and _STATUS_LINE.fullmatch(item.text):
            return []  # the event's status line: neither a heartbeat nor progress
        return super().interpret(item)

    def interpret_event(self, event: Event) -> list[Signal]:
        chunk = _obj(_loads(event.data))
        if event.type != "result":
            return [Unknown(f"event:{event.type[:32]}")]
        output = _obj(chunk.get("output"))
        choices = output.get("choices")
        if not isinstance(choices, list) or not choices:
            return [Unknown("no-choices")]
        if len(choices) > 1:
            self._count("other_choices")
        choice = _obj(choices[0])
        message = _obj(choice.get("message"))
        signals: list[Signal] = []
        reasoning = self._new_part(message, "reasoning_content")
        if reasoning:
            signals.append(ReasoningDelta(reasoning))
        text = self._new_part(message, "content")
        if text:
            signals.append(TextDelta(text))
        reason = _str_or_none(choice.get("finish_reason"))
        if reason is not None and reason != "null":
            signals.append(self.terminal(reason) if reason in _ENDING_REASONS else FinishReason(reason))
        return signals  # an event that adds nothing (the same text again, "" content) is neither

    def _new_part(self, message: object, field: str) -> str:
        """The text of ``message[field]`` that is new: all of it (incremental), else what extends the text
        so far; raises FramingError for cumulative text that does not extend it."""
        value = _obj(message).get(field)
        if not isinstance(value, str) or not value:
            return ""
        if self.incremental:
            return value
        before = self.so_far[field]
        if not value.startswith(before):
            same = next((i for i, (a, b) in enumerate(zip(before, value, strict=False)) if a != b), None)
            where = min(len(before), len(value)) if same is None else same
            raise FramingError(
                f"dashscope: with incremental_output false each event's {field} is the "
                f"whole text so far, but this one does not extend the previous one (they differ at "
                f"character {where}; previous {len(before)} characters, this {len(value)}); if the "
                f"request set incremental_output true, pass incremental_output=True"
            )
        self.so_far[field] = value
        return value[len(before) :]
