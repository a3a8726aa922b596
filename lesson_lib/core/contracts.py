"""What one service's stream means: the completion boundary.

The layers below turn bytes into complete units: a Server-Sent :class:`~lesson_lib.core.sse.Event` (or
:class:`~lesson_lib.core.sse.Comment`), an NDJSON value, a JSON array element. A *contract* says what each
unit
means for one service, as a list of small frozen *signals* (h11 style):

=================  ==========================================================================
``TextDelta``      a piece of the answer text
``Stage``          a business stage changed (a block started, a tool call grew, usage arrived)
``FinishReason``   the service named a finish reason, but the stream is not over yet
``Terminal``       the service's own "done"; ``complete`` says whether the answer is whole
``ServiceError``   the service reported an error in-band (after the 200 status)
``Heartbeat``      a keep-alive: proof that the connection lives, not that the answer grows
``Unknown``        a unit the contract does not know; tolerated and counted
``ToolCallStart``  a tool call opened (its assembly key, id and name); ``ToolCallDelta`` a fragment of
                   its arguments JSON *text*; ``ToolCallEnd`` the service closed it; ``ToolCallWhole``
                   a call that arrived whole (see :mod:`lesson_lib.core.values`, which assembles them)
``ReasoningDelta`` a piece of reasoning ("thinking"): never part of the answer text
=================  ==========================================================================

JSON is parsed here, from ``event.data``, and only once the event is complete: a data line cut in two
never reaches a contract. Malformed JSON raises :class:`~lesson_lib.core.errors.FramingError`; a JSON value of
an unexpected shape never raises (missing fields are simply absent).

Contracts are small stateful objects, one per stream: ``get_contract(name)`` returns a fresh one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from lesson_lib.core.errors import FramingError
from lesson_lib.core.sse import Comment, Event

__all__ = [
    "CONTRACTS",
    "MCP",
    "AnthropicMessages",
    "Contract",
    "FinishReason",
    "Gemini",
    "GeminiJSONArray",
    "Heartbeat",
    "Ollama",
    "OpenAIChat",
    "OpenAIResponses",
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
    "get_contract",
]


# --- signals ---------------------------------------------------------------------------------------


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


# --- helpers ---------------------------------------------------------------------------------------


def _loads(data: str) -> Any:
    try:
        return json.loads(data)
    except json.JSONDecodeError as exc:  # its msg and pos name a place, never content
        raise FramingError(f"event data is not valid JSON: {exc.msg} (char {exc.pos})") from None
    except (ValueError, RecursionError) as exc:  # a number too long for int(), nesting too deep
        raise FramingError(f"event data is not usable JSON ({type(exc).__name__})") from None


_EMPTY: Mapping[str, Any] = MappingProxyType({})


def _obj(value: Any) -> Mapping[str, Any]:
    """``value`` if it is a JSON object, else an empty one: shape surprises never raise."""
    return value if type(value) is dict else _EMPTY


def _str_or_none(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else str(value)


def _arguments_json(value: Any) -> str:
    """The arguments a service sent as a JSON value, as compact JSON text (a string is kept as sent)."""
    if isinstance(value, str):
        return value
    return json.dumps({} if value is None else value, ensure_ascii=False, separators=(",", ":"))


def _error_signal(error: Any, *type_keys: str) -> ServiceError:
    """A ServiceError from an error object (first present key of ``type_keys``) or a bare string."""
    if type(error) is not dict:
        return ServiceError(None, _str_or_none(error) or "")
    error_type = next((_str_or_none(error[k]) for k in type_keys if error.get(k) is not None), None)
    return ServiceError(error_type, _str_or_none(error.get("message")) or "")


# --- contracts -------------------------------------------------------------------------------------


class Contract:
    """Base class. Subclasses set ``name``, ``framing``, ``complete_reasons`` and implement ``interpret``.

    ``counters`` holds per-stream anomaly counts (never content) that ``consume`` copies into its stats.
    """

    name: ClassVar[str]
    framing: ClassVar[str]  # "sse", "ndjson" or "json-array"
    complete_reasons: ClassVar[frozenset[str]]

    def __init__(self) -> None:
        self.counters: dict[str, int] = {}
        #: The signal this contract ends on has been seen on a unit that more units followed, so it can no
        #: longer prove where the stream ends (Gemini models that put ``STOP`` on every chunk).
        self.end_signal_repeated = False

    def _count(self, key: str) -> None:
        self.counters[key] = self.counters.get(key, 0) + 1

    def terminal(self, reason: str | None) -> Terminal:
        """The Terminal signal for ``reason``: complete only for this service's whole-answer reasons."""
        return Terminal(reason, reason in self.complete_reasons)

    def interpret(self, item: Any) -> list[Signal]:
        """The signals carried by one complete unit (an Event, a Comment or a parsed JSON value)."""
        raise NotImplementedError

    def end(self) -> list[Signal]:
        """Signals implied by a clean end of the framing; only Gemini, which has no terminal event, has any.

        ``consume`` calls this only when the body ended cleanly (no held bytes, no unfinished line or event,
        and for a JSON array its closing ``]``).
        """
        return []


class _SSEContract(Contract):
    framing = "sse"

    def interpret(self, item: Any) -> list[Signal]:
        if isinstance(item, Comment):
            return [Heartbeat("comment")]
        if not isinstance(item, Event):
            raise TypeError(f"{self.name} expects sse.Event or sse.Comment, got {type(item).__name__}")
        return self.interpret_event(item)

    def interpret_event(self, event: Event) -> list[Signal]:
        raise NotImplementedError


class OpenAIChat(_SSEContract):
    """OpenAI Chat Completions: ``data:`` chunks, then the literal ``data: [DONE]`` (not JSON).

    Text is ``delta.content`` of choice 0; its ``finish_reason`` arrives on a chunk before ``[DONE]``.
    Only ``[DONE]`` is terminal. A top-level ``error`` object is a service error (no ``[DONE]`` follows).

    Tool calls: ``delta.tool_calls[]`` keyed by ``index``; the first entry of an index opens the call (with
    ``id`` and ``function.name``), every ``function.arguments`` piece is a fragment; calls interleave by
    index. Nothing in the chunks closes one call, so all of them close together when ``[DONE]`` ends a
    stream whose finish reason is a whole-answer one (``tool_calls``, ``stop``, ``function_call``); after
    ``length`` they stay open. The deprecated ``delta.function_call`` is one call under the key
    ``function_call``. ``delta.reasoning_content`` (DeepSeek and other OpenAI-compatible servers) is
    reasoning.
    """

    name = "openai-chat"
    complete_reasons = frozenset({"stop", "tool_calls", "function_call"})

    def __init__(self) -> None:
        super().__init__()
        self.finish_reason: str | None = None
        self.call_keys: list[str] = []

    def interpret_event(self, event: Event) -> list[Signal]:
        if event.data == "[DONE]":
            terminal = self.terminal(self.finish_reason)
            ends: list[Signal] = [ToolCallEnd(key) for key in self.call_keys] if terminal.complete else []
            return [*ends, terminal]
        chunk = _obj(_loads(event.data))
        if chunk.get("error") is not None:
            return [_error_signal(chunk["error"], "type", "code")]
        choices = chunk.get("choices")
        if not isinstance(choices, list):
            return [Unknown("no-choices")] if "usage" not in chunk else [Stage("usage")]
        signals: list[Signal] = []
        for choice in map(_obj, choices):
            if choice.get("index", 0) != 0:  # n > 1: the lessons follow choice 0 only
                self._count("other_choices")
                continue
            delta = _obj(choice.get("delta"))
            if delta.get("role") is not None:
                signals.append(Stage("role"))
            reasoning = delta.get("reasoning_content")
            if isinstance(reasoning, str) and reasoning:
                signals.append(ReasoningDelta(reasoning))
            content = delta.get("content")
            if isinstance(content, str) and content:
                signals.append(TextDelta(content))
            tool_calls = delta.get("tool_calls")
            for entry in map(_obj, tool_calls if isinstance(tool_calls, list) else []):
                index = entry.get("index")
                key = str(index) if isinstance(index, int) and not isinstance(index, bool) else "0"
                signals.extend(self._call_fragment(key, entry.get("id"), _obj(entry.get("function"))))
            if type(delta.get("function_call")) is dict:  # deprecated single-call form
                signals.extend(self._call_fragment("function_call", None, delta["function_call"]))
            reason = choice.get("finish_reason")
            if reason is not None:
                self.finish_reason = _str_or_none(reason)
                signals.append(FinishReason(self.finish_reason or ""))
        if not choices and chunk.get("usage") is not None:
            signals.append(Stage("usage"))
        return signals

    def _call_fragment(self, key: str, call_id: Any, function: Mapping[str, Any]) -> list[Signal]:
        signals: list[Signal] = []
        if key not in self.call_keys:
            self.call_keys.append(key)
            signals.append(
                ToolCallStart(key, _str_or_none(call_id), _str_or_none(function.get("name")) or "")
            )
        arguments = function.get("arguments")
        if isinstance(arguments, str) and arguments:
            signals.append(ToolCallDelta(key, arguments))
        return signals or [Stage("tool_call_delta")]


class OpenAIResponses(_SSEContract):
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


class AnthropicMessages(_SSEContract):
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


class Gemini(_GeminiBase, _SSEContract):
    """Gemini ``streamGenerateContent?alt=sse``: ``data:`` lines, each one JSON chunk."""

    name = "gemini"
    framing = "sse"

    def interpret_event(self, event: Event) -> list[Signal]:
        return self.interpret_chunk(_loads(event.data))


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


class MCP(_SSEContract):
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

    def __init__(self, request_id: str | int) -> None:
        super().__init__()
        self.request_id = request_id

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


CONTRACTS: dict[str, type[Contract]] = {
    cls.name: cls
    for cls in (OpenAIChat, OpenAIResponses, AnthropicMessages, Gemini, GeminiJSONArray, Ollama, MCP)
}

#: Contracts that answer one request among many on a stream, and so need its id (``request_id``).
NEEDS_REQUEST_ID = frozenset({"mcp"})


def get_contract(name: str, *, request_id: str | int | None = None) -> Contract:
    """A fresh contract object for ``name`` (a key of :data:`CONTRACTS`); each stream needs its own.

    Raises ``ValueError`` naming the known contracts if ``name`` is not one of them. ``request_id`` (a str
    or an int, the JSON-RPC id of the request the stream answers) is required by ``"mcp"`` and refused by
    every other contract, by name.
    """
    try:
        cls = CONTRACTS[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(CONTRACTS))
        raise ValueError(f"unknown contract {name!r}; known contracts: {known}") from None
    if name in NEEDS_REQUEST_ID:
        if isinstance(request_id, bool) or not isinstance(request_id, (str, int)):
            raise ValueError(
                f"request_id must be the JSON-RPC id (a str or an int) of the request the {name} stream "
                f"answers; got {request_id!r}"
            )
        return MCP(request_id)
    if request_id is not None:
        raise ValueError(f"request_id is only for the mcp contract, not {name!r}")
    return cls()
