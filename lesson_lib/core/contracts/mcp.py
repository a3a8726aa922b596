"""MCP Streamable HTTP (``mcp``): JSON-RPC messages over SSE, answering one request."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..sse import Event
from .base import SSEContract, _error_signal, _loads, _obj
from .registry import register
from .signals import (
    Heartbeat,
    ServiceError,
    Signal,
    Stage,
    Terminal,
    TextDelta,
    Unknown,
)

__all__ = ["MCP"]


@register
class MCP(SSEContract):
    """MCP Streamable HTTP: JSON-RPC messages over SSE, answering one request (``request_id``).

    The stream is done when the JSON-RPC *response* whose ``id`` equals ``request_id`` arrives (same JSON
    type: ``1`` and ``"1"`` are different ids): ``result`` is the answer (each ``content`` item of type
    ``text`` is a :class:`TextDelta`, in order, then a complete :class:`Terminal`); ``error`` (a protocol
    error) and ``result.isError`` (the tool failed) are service errors, the latter with the tool's text as
    its message. ``notifications/progress`` is business progress (a :class:`Stage`); a ``ping`` request is
    a heartbeat; other notifications, server requests and responses to other ids are :class:`Unknown`.

    A priming event (an ``id`` and an empty ``data`` field, sent so the client has an ID to resume from)
    carries no JSON and is never parsed: it is a :class:`Heartbeat`. An event with an ``id`` and no
    ``data`` line at all is never dispatched by the SSE layer; only its ID is remembered.
    """

    name = "mcp"
    complete_reasons: ClassVar[frozenset[str]] = frozenset()  # completion is the response, not a reason
    needs_request_id = True
    resumable_by_event_id = True

    def __init__(self, request_id: str | int) -> None:
        super().__init__()
        self.request_id = request_id

    @classmethod
    def for_stream(
        cls, request_id: str | int | None = None, incremental_output: bool | None = None
    ) -> MCP:
        if request_id is None:
            raise ValueError("request_id is required by the mcp contract")
        return cls(request_id)

    def _matches(self, message_id: Any) -> bool:
        # JSON-RPC ids are strings or numbers, compared with their type (a bool is never an id).
        return type(message_id) is type(self.request_id) and message_id == self.request_id

    def interpret_event(self, event: Event) -> list[Signal]:
        if event.data == "":
            return [Heartbeat("priming")]
        payload = _loads(event.data)
        messages = payload if isinstance(payload, list) else [payload]  # a 2025-03-26 batch
        signals: list[Signal] = []
        for message in map(_obj, messages):
            signals.extend(self._message(message))
        return signals

    def _message(self, message: Mapping[str, Any]) -> list[Signal]:
        method = message.get("method")
        if isinstance(method, str):
            if method == "notifications/progress":
                return [Stage("progress")]
            if method == "ping":
                return [Heartbeat("ping")]
            return [Unknown(method)]
        if "result" not in message and "error" not in message:
            return [Unknown("message")]
        if not self._matches(message.get("id")):
            self._count("other_responses")
            return [Unknown("other-response")]
        if message.get("error") is not None:
            return [_error_signal(message["error"], "code")]
        result = _obj(message.get("result"))
        content = result.get("content")
        texts = [
            item["text"]
            for item in map(_obj, content if isinstance(content, list) else [])
            if item.get("type") == "text" and isinstance(item.get("text"), str)
        ]
        if result.get("isError") is True:
            return [ServiceError("tool_error", "".join(texts))]
        signals: list[Signal] = [TextDelta(text) for text in texts if text]
        signals.append(Terminal(None, True))
        return signals
