"""Ollama (``ollama``): NDJSON objects, the last with ``"done": true``."""

from __future__ import annotations

from typing import Any

from .base import Contract, _arguments_json, _error_signal, _obj, _str_or_none
from .registry import register
from .signals import (
    ReasoningDelta,
    Signal,
    TextDelta,
    ToolCallWhole,
    Unknown,
)

__all__ = ["Ollama"]


@register
class Ollama(Contract):
    """Ollama ``/api/chat`` and ``/api/generate``: NDJSON objects, the last with ``"done": true``.

    Text is ``message.content`` (chat) or ``response`` (generate); ``done_reason`` ``"stop"`` is whole,
    anything else (``"length"``, ``"load"``, missing) is cut. ``{"error": "..."}`` is a service error.
    ``message.thinking`` (``thinking`` for generate) is reasoning; each entry of ``message.tool_calls``
    (``function.name``, ``function.arguments`` object) is a whole tool call.
    """

    name = "ollama"
    framing = "ndjson"
    complete_reasons = frozenset({"stop"})

    def interpret(self, item: Any) -> list[Signal]:
        if type(item) is not dict:
            return [Unknown(type(item).__name__)]
        if item.get("error") is not None:
            return [_error_signal(item["error"], "type")]
        signals: list[Signal] = []
        message = _obj(item.get("message"))
        text = message.get("content", item.get("response"))
        if isinstance(text, str) and text:
            signals.append(TextDelta(text))
        thinking = message.get("thinking", item.get("thinking"))
        if isinstance(thinking, str) and thinking:
            signals.insert(0, ReasoningDelta(thinking))
        tool_calls = message.get("tool_calls")
        for entry in map(_obj, tool_calls if isinstance(tool_calls, list) else []):
            function = _obj(entry.get("function"))
            name = _str_or_none(function.get("name")) or ""
            arguments = _arguments_json(function.get("arguments"))
            signals.append(ToolCallWhole(_str_or_none(entry.get("id")), name, arguments))
        if item.get("done") is True:
            signals.append(self.terminal(_str_or_none(item.get("done_reason"))))
        elif not signals and "message" not in item and "response" not in item:
            signals.append(Unknown("object"))
        return signals
