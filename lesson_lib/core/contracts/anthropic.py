"""Anthropic Messages (``anthropic-messages``): typed SSE events, ``message_stop``."""

from __future__ import annotations

from typing import Any

from ..sse import Event
from .base import SSEContract, _arguments_json, _error_signal, _loads, _obj, _str_or_none
from .registry import register
from .signals import (
    FinishReason,
    Heartbeat,
    ReasoningDelta,
    Signal,
    Stage,
    TextDelta,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallStart,
    Unknown,
)

__all__ = ["AnthropicMessages"]


@register
class AnthropicMessages(SSEContract):
    """Anthropic Messages: ``message_start`` ... ``message_delta`` (``stop_reason``) then ``message_stop``.

    Only ``text_delta`` deltas are answer text. ``thinking_delta`` is reasoning; ``signature_delta`` is an
    opaque signature, not text of any kind (a stage). A ``tool_use`` block (``content_block_start`` with
    ``id`` and ``name``) is a tool call keyed by its block index: each ``input_json_delta``
    ``partial_json`` is a fragment, its ``content_block_stop`` closes it (a block that received no fragment
    has the start's ``input``, ``{}``, as its text). ``ping`` is a heartbeat; unknown event types are
    tolerated, as the API asks of clients.
    """

    name = "anthropic-messages"
    complete_reasons = frozenset({"end_turn", "stop_sequence", "tool_use"})
    _STAGES = frozenset({"message_start", "content_block_start", "content_block_stop"})

    def __init__(self) -> None:
        super().__init__()
        self.stop_reason: str | None = None
        #: Open tool_use blocks: block key -> [the start's input as JSON text, whether a fragment came].
        self.tool_blocks: dict[str, list[Any]] = {}

    def interpret_event(self, event: Event) -> list[Signal]:
        payload = _obj(_loads(event.data))
        kind = _str_or_none(payload.get("type")) or event.type
        key = str(payload.get("index"))
        if kind == "content_block_delta":
            delta = _obj(payload.get("delta"))
            delta_type = _str_or_none(delta.get("type")) or "delta"
            if delta_type == "text_delta":
                text = delta.get("text")
                return [TextDelta(text)] if isinstance(text, str) and text else []
            if delta_type == "thinking_delta":
                thinking = delta.get("thinking")
                return [ReasoningDelta(thinking)] if isinstance(thinking, str) and thinking else []
            if delta_type == "input_json_delta" and key in self.tool_blocks:
                partial = delta.get("partial_json")
                if not isinstance(partial, str) or not partial:
                    return []
                self.tool_blocks[key][1] = True
                return [ToolCallDelta(key, partial)]
            return [Stage(delta_type)]
        if kind == "content_block_start":
            block = _obj(payload.get("content_block"))
            if block.get("type") == "tool_use":
                self.tool_blocks[key] = [_arguments_json(block.get("input")), False]
                name = _str_or_none(block.get("name")) or ""
                return [ToolCallStart(key, _str_or_none(block.get("id")), name)]
        if kind == "content_block_stop" and key in self.tool_blocks:
            initial, fragments = self.tool_blocks.pop(key)
            return [ToolCallEnd(key)] if fragments else [ToolCallDelta(key, initial), ToolCallEnd(key)]
        if kind in self._STAGES:
            return [Stage(kind)]
        if kind == "message_delta":
            signals: list[Signal] = [Stage(kind)]
            reason = _obj(payload.get("delta")).get("stop_reason")
            if reason is not None:
                self.stop_reason = _str_or_none(reason)
                signals.append(FinishReason(self.stop_reason or ""))
            return signals
        if kind == "message_stop":
            return [self.terminal(self.stop_reason)]
        if kind == "ping":
            return [Heartbeat("ping")]
        if kind == "error":
            return [_error_signal(payload.get("error"), "type")]
        return [Unknown(kind)]
