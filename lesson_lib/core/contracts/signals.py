"""The signals a contract turns a service's units into: small frozen values, h11 style.

See :mod:`lesson_lib.core.contracts` for what each one means.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "FinishReason",
    "Heartbeat",
    "ReasoningDelta",
    "ServiceError",
    "Signal",
    "Stage",
    "Terminal",
    "TextDelta",
    "ToolCallDelta",
    "ToolCallEnd",
    "ToolCallStart",
    "ToolCallWhole",
    "Unknown",
]


@dataclass(frozen=True)
class TextDelta:
    """A piece of the answer text, already decoded from JSON."""

    text: str


@dataclass(frozen=True)
class Stage:
    """A business stage changed (e.g. ``message_start``, ``response.output_item.added``): progress."""

    name: str


@dataclass(frozen=True)
class FinishReason:
    """The service named a finish reason, but the stream is not over (more events may follow)."""

    reason: str


@dataclass(frozen=True)
class Terminal:
    """The service's own end of the answer.

    ``finish_reason`` is the service's word (``"stop"``, ``"max_tokens"``, ...), ``None`` if it gave none;
    ``complete`` is true only for reasons that mean the answer is whole.
    """

    finish_reason: str | None
    complete: bool


@dataclass(frozen=True)
class ServiceError:
    """An error reported in-band by the service. ``error_type`` is its type or code, when it gave one."""

    error_type: str | None
    message: str


@dataclass(frozen=True)
class Heartbeat:
    """A keep-alive (SSE comment, Anthropic ``ping``, Responses ``keepalive``): alive, not progressing."""

    kind: str


@dataclass(frozen=True)
class Unknown:
    """A unit this contract does not know. Tolerated: the stream goes on."""

    kind: str


@dataclass(frozen=True)
class ToolCallStart:
    """A tool call opened. ``key`` identifies it within this stream for its later fragments (the chat
    ``index``, the Responses item id, the Anthropic block index); ``call_id`` is the service's call id."""

    key: str
    call_id: str | None
    name: str


@dataclass(frozen=True)
class ToolCallDelta:
    """A fragment of a tool call's arguments: JSON TEXT, cut anywhere; never parse it alone."""

    key: str
    fragment: str


@dataclass(frozen=True)
class ToolCallEnd:
    """The service closed the call ``key``. ``whole_text`` is the service's own copy of the whole
    arguments text when it sends one (Responses ``.done``), to be compared with the joined fragments."""

    key: str
    whole_text: str | None = None


@dataclass(frozen=True)
class ToolCallWhole:
    """A tool call that arrived whole in one unit (Gemini ``functionCall``, Ollama ``tool_calls``);
    ``arguments_text`` is the compact JSON of the arguments object the service sent."""

    call_id: str | None
    name: str
    arguments_text: str


@dataclass(frozen=True)
class ReasoningDelta:
    """A piece of reasoning text (thinking, a reasoning summary): shown apart, never answer text."""

    text: str


Signal = (
    TextDelta
    | Stage
    | FinishReason
    | Terminal
    | ServiceError
    | Heartbeat
    | Unknown
    | ToolCallStart
    | ToolCallDelta
    | ToolCallEnd
    | ToolCallWhole
    | ReasoningDelta
)
