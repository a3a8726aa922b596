"""OpenAI Responses (``openai-responses``): typed SSE events, ``response.completed``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..sse import Event
from .base import SSEContract, _error_signal, _loads, _obj, _str_or_none
from .registry import register
from .signals import (
    Heartbeat,
    ReasoningDelta,
    Signal,
    Stage,
    Terminal,
    TextDelta,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallStart,
    Unknown,
)

__all__ = ["OpenAIResponses"]


@register
class OpenAIResponses(SSEContract):
    """OpenAI Responses: typed events with a strictly increasing ``sequence_number``; no ``[DONE]``.

    Terminal: ``response.completed`` (whole), ``response.incomplete`` (cut, reason from
    ``incomplete_details.reason``); ``response.failed`` and ``error`` (flat or nested shape) are service
    errors. ``keepalive`` is a heartbeat. A non-increasing sequence number is counted, not fatal.

    Tool calls: ``response.output_item.added`` with a ``function_call`` item opens one (key: the item id;
    ``call_id`` and ``name`` from the item); ``response.function_call_arguments.delta`` (by ``item_id``)
    is a fragment; ``response.function_call_arguments.done`` closes it, and its ``arguments`` (the whole
    text) is compared with the joined fragments; ``response.output_item.done`` closes it too if still
    open. ``response.reasoning_summary_text.delta`` and ``response.reasoning_text.delta`` are reasoning.
    """

    name = "openai-responses"
    complete_reasons: ClassVar[frozenset[str]] = frozenset()  # completion is the event, not a reason

    def __init__(self) -> None:
        super().__init__()
        self.last_sequence_number: int | None = None

    def _check_sequence(self, payload: Mapping[str, Any]) -> None:
        seq = payload.get("sequence_number")
        if not isinstance(seq, int) or isinstance(seq, bool):
            return
        if self.last_sequence_number is not None and seq <= self.last_sequence_number:
            self._count("sequence_not_increasing")
        self.last_sequence_number = seq

    def _function_call(self, kind: str, payload: Mapping[str, Any]) -> list[Signal] | None:
        """The signals of a function-call event, or None if ``kind`` is not one."""
        if kind in ("response.output_item.added", "response.output_item.done"):
            item = _obj(payload.get("item"))
            if item.get("type") != "function_call":
                return None
            key = _str_or_none(item.get("id")) or f"output:{payload.get('output_index')}"
            arguments = item.get("arguments")
            whole = arguments if isinstance(arguments, str) else None
            if kind == "response.output_item.done":
                return [ToolCallEnd(key, whole)]
            signals: list[Signal] = [
                ToolCallStart(key, _str_or_none(item.get("call_id")), _str_or_none(item.get("name")) or "")
            ]
            if whole:
                signals.append(ToolCallDelta(key, whole))
            return signals
        if kind in ("response.function_call_arguments.delta", "response.function_call_arguments.done"):
            key = _str_or_none(payload.get("item_id")) or f"output:{payload.get('output_index')}"
            if kind.endswith(".done"):
                arguments = payload.get("arguments")
                return [ToolCallEnd(key, arguments if isinstance(arguments, str) else None)]
            delta = payload.get("delta")
            return [ToolCallDelta(key, delta)] if isinstance(delta, str) and delta else []
        return None

    def interpret_event(self, event: Event) -> list[Signal]:
        payload = _obj(_loads(event.data))
        self._check_sequence(payload)
        kind = _str_or_none(payload.get("type")) or event.type
        if kind == "response.output_text.delta":
            delta = payload.get("delta")
            return [TextDelta(delta)] if isinstance(delta, str) and delta else []
        if kind in ("response.reasoning_summary_text.delta", "response.reasoning_text.delta"):
            delta = payload.get("delta")
            return [ReasoningDelta(delta)] if isinstance(delta, str) and delta else []
        calls = self._function_call(kind, payload)
        if calls is not None:
            return calls
        response = _obj(payload.get("response"))
        if kind == "response.completed":
            # The only whole-answer terminal; Responses names no finish reason for it.
            return [Terminal(None, True)]
        if kind == "response.incomplete":
            reason = _str_or_none(_obj(response.get("incomplete_details")).get("reason"))
            return [Terminal(reason, False)]
        if kind == "response.failed":
            return [_error_signal(response.get("error"), "code", "type")]
        if kind == "error":
            if type(payload.get("error")) is dict:  # observed nested shape
                return [_error_signal(payload["error"], "type", "code")]
            return [_error_signal(payload, "code")]  # documented flat shape
        if kind == "keepalive":
            return [Heartbeat("keepalive")]
        if kind.startswith("response."):
            return [Stage(kind)]
        return [Unknown(kind)]
