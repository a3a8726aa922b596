"""The Anthropic Messages writer: ``message_start`` ... ``message_delta`` (``stop_reason``), ``message_stop``,
as ``data/anthropic-messages/completed.sse`` and ``tools_thinking.sse``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .plan import Plan
from .request import Call
from .services import json_plan
from .wire import (
    ANSWER,
    BASE62,
    REASONING,
    TOOL_FRAGMENTS,
    TOOL_NAME,
    TOOL_TEXT,
    Unit,
    Wire,
    compact,
    fake_id,
    sse_event,
)

__all__ = ["AnthropicWire"]

#: The API writes its ping's data with spaces (as the captures keep it).
PING = '{"type": "ping"}'


class AnthropicWire(Wire):
    """Anthropic Messages."""

    contract = "anthropic-messages"
    cut_reason = "max_tokens"

    @staticmethod
    def _event(payload: dict[str, Any], kind: str = "meta", text: str = "") -> Unit:
        return Unit(sse_event([("event", payload["type"]), ("data", compact(payload))]), kind, text)

    def _start(self) -> Unit:
        message: dict[str, Any] = {
            "id": "msg_01" + fake_id("faults/anthropic", 22, BASE62),
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5-20250929",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {
                "input_tokens": 27,
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 0,
                "output_tokens": 1,
                "service_tier": "standard",
            },
        }
        return self._event({"type": "message_start", "message": message})

    def _text_block(self, index: int, pieces: Sequence[str], error_after: int | None = None) -> list[Unit]:
        units = [
            self._event(
                {"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}
            )
        ]
        if index == 0:
            units.append(self.heartbeat(0))  # the API sends one right after the first content_block_start
        for i, piece in enumerate(pieces):
            if i == error_after:
                units.append(self.error_unit())
                return units
            delta = {
                "type": "content_block_delta",
                "index": index,
                "delta": {"type": "text_delta", "text": piece},
            }
            units.append(self._event(delta, "delta", piece))
        units.append(self._event({"type": "content_block_stop", "index": index}))
        return units

    def _end(self, reason: str, tokens: int) -> list[Unit]:
        delta = {
            "type": "message_delta",
            "delta": {"stop_reason": reason, "stop_sequence": None},
            "usage": {"output_tokens": tokens},
        }
        return [self._event(delta, "finish"), self._event({"type": "message_stop"}, "terminal")]

    def error_unit(self) -> Unit:
        return self._event(
            {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}, "error"
        )

    def answer(
        self,
        call: Call,
        pieces: Sequence[str] = ANSWER,
        *,
        reason: str | None = None,
        usage: bool = False,
        error_after: int | None = None,
        repeat_terminal: bool = False,
        after_terminal: Sequence[str] = (),
    ) -> list[Unit]:
        units = [self._start(), *self._text_block(0, pieces, error_after)]
        if units[-1].kind == "error":
            return units
        units.extend(self._end(reason or "end_turn", len(pieces) + 2))
        if repeat_terminal:
            units.append(units[-1])
        for piece in after_terminal:
            delta = {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": piece},
            }
            units.append(self._event(delta, "after"))
        return units

    def heartbeat(self, number: int) -> Unit:
        return Unit(sse_event([("event", "ping"), ("data", PING)]), "heartbeat")

    def reasoning(self, call: Call, pieces: Sequence[str] = REASONING) -> list[Unit]:
        start = {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "thinking", "thinking": "", "signature": ""},
        }
        units = [self._start(), self._event(start), self.heartbeat(0)]
        for piece in pieces:
            delta = {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "thinking_delta", "thinking": piece},
            }
            units.append(self._event(delta, "reasoning"))
        signature = {"type": "signature_delta", "signature": fake_id("faults/signature", 64, BASE62 + "+/")}
        units.append(self._event({"type": "content_block_delta", "index": 0, "delta": signature}))
        units.append(self._event({"type": "content_block_stop", "index": 0}))
        return [*units, *self._end(self.cut_reason, 64)]

    def tool_call(self, call: Call) -> list[Unit]:
        units = [self._start(), *self._text_block(0, TOOL_TEXT)]
        tool_id = "toolu_01" + fake_id("faults/toolu", 22, BASE62)
        block = {"type": "tool_use", "id": tool_id, "name": TOOL_NAME, "input": {}}
        units.append(self._event({"type": "content_block_start", "index": 1, "content_block": block}))
        for fragment in TOOL_FRAGMENTS:
            delta = {
                "type": "content_block_delta",
                "index": 1,
                "delta": {"type": "input_json_delta", "partial_json": fragment},
            }
            units.append(self._event(delta, "call"))
        units.append(self._event({"type": "content_block_stop", "index": 1}))
        return [*units, *self._end("tool_use", 40)]

    def error_status(self) -> Plan:
        payload = {
            "type": "error",
            "error": {"type": "overloaded_error", "message": "Overloaded"},
            "request_id": "req_fault",
        }
        return json_plan(529, payload, (("Content-Type", "application/json"), ("retry-after-ms", "20")))
