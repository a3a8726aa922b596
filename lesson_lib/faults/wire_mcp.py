"""The MCP Streamable HTTP writer: the SSE stream that answers a ``tools/call`` request.

A priming event first (an ``id``, a ``retry`` and an empty ``data`` field: nothing to parse, an ID to resume
from), then ``notifications/progress`` if the request gave a ``progressToken`` (the specification allows
progress only for a token the client sent), then the JSON-RPC response with the request's own ``id``. Every
event but a comment carries an ID (:func:`~lesson_lib.faults.services.mcp_event_id`: its number and the
request id), so a ``GET`` with ``Last-Event-ID`` can be answered with the events after it. There are no MCP
captures in ``data/``: the shapes are the specification's, as ``tests/net/test_resume_protocols.py`` writes
them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .request import Call
from .services import mcp_event_id
from .wire import ANSWER, Unit, Wire, compact, sse_comment, sse_event

__all__ = ["RETRY_MS", "MCPWire"]

#: The ``retry`` (milliseconds) the priming event sets: how long a client waits before it resumes.
RETRY_MS = 50
#: The text of a tool result that is an error (``isError``).
TOOL_ERROR = "API 限流 🙁 rate limited"


def _progress_token(call: Call) -> str | int | None:
    params = call.body.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    token = meta.get("progressToken") if isinstance(meta, dict) else None
    return token if isinstance(token, (str, int)) and not isinstance(token, bool) else None


class MCPWire(Wire):
    """MCP Streamable HTTP (a ``tools/call`` answer)."""

    contract = "mcp"
    cut_reason = ""  # a tool result has no token limit

    def _event(
        self, call: Call, number: int, message: dict[str, Any] | None, kind: str, text: str = ""
    ) -> Unit:
        request_id = call.request_id if call.request_id is not None else 1
        fields = [("id", mcp_event_id(number, request_id))]
        if message is None:  # the priming event
            fields += [("retry", str(RETRY_MS)), ("data", "")]
        else:
            fields.append(("data", compact(message)))
        return Unit(sse_event(fields), kind, text, number)

    def _head(self, call: Call) -> list[Unit]:
        units = [self._event(call, 0, None, "meta")]
        token = _progress_token(call)
        if token is not None:
            for step in (1, 2):
                params = {"progressToken": token, "progress": step, "total": 3}
                message = {"jsonrpc": "2.0", "method": "notifications/progress", "params": params}
                units.append(self._event(call, step, message, "meta"))
        return units

    def _response(self, call: Call, body: dict[str, Any], kind: str, text: str = "") -> Unit:
        message = {"jsonrpc": "2.0", "id": call.request_id if call.request_id is not None else 1, **body}
        return self._event(call, 3, message, kind, text)

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
        if reason is not None or usage or after_terminal:
            raise NotImplementedError("an MCP answer has no finish reason, usage or text after its response")
        units = self._head(call)
        if error_after is not None:  # a protocol error answers the request instead of a result
            error = {"code": -32603, "message": "Internal error: the tool's backend failed"}
            return [*units, self._response(call, {"error": error}, "error")]
        half = len(pieces) // 2
        content = [
            {"type": "text", "text": "".join(pieces[:half])},
            {"type": "text", "text": "".join(pieces[half:])},
        ]
        response = self._response(
            call, {"result": {"content": content, "isError": False}}, "terminal", "".join(pieces)
        )
        units.append(response)
        if repeat_terminal:
            units.append(response)
        return units

    def tool_error(self, call: Call) -> list[Unit]:
        """The tool failed: a result with ``isError`` (a service error, its text the message)."""
        result = {"content": [{"type": "text", "text": TOOL_ERROR}], "isError": True}
        return [*self._head(call), self._response(call, {"result": result}, "error")]

    def heartbeat(self, number: int) -> Unit:
        return Unit(sse_comment(" keep-alive"), "heartbeat")
