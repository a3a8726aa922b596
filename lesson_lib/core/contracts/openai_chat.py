"""OpenAI Chat Completions (``openai-chat``): SSE chunks, then ``data: [DONE]``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..sse import Event
from .base import SSEContract, _error_signal, _loads, _obj, _str_or_none
from .registry import register
from .signals import (
    FinishReason,
    ReasoningDelta,
    ServiceError,
    Signal,
    Stage,
    TextDelta,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallStart,
    Unknown,
)

__all__ = ["OpenAIChat"]


@register
class OpenAIChat(SSEContract):
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

    A chunk whose ``choices`` is an empty list carries no text: with ``usage`` it is the usage chunk
    (OpenAI's ``stream_options.include_usage``). Qwen's OpenAI-compatible mode ends the same way with
    ``include_usage``, its last chunk's ``choices`` an empty list: so said the April 2025 copy of
    https://www.alibabacloud.com/help/en/model-studio/stream and the copy of the Chinese page updated
    2025-02-14, https://help.aliyun.com/zh/model-studio/user-guide/streaming-output-1, which told clients to
    test ``if chunk.choices:`` (``docs/research/chinese_services.md``). A chunk with no ``choices`` list at
    all is not a Chat Completions chunk: :class:`Unknown`.

    The same contract judges Zhipu GLM's stream (``open.bigmodel.cn/api/paas/v4/chat/completions``: the
    same chunks and ``data: [DONE]``), whose documentation adds two finish reasons (the chat completion
    API reference, https://docs.bigmodel.cn/api-reference/模型-api/对话补全): ``sensitive``, the safety
    review stopped the answer and the client should judge whether to withdraw what it already showed
    (a cut answer, ``incomplete``, and a :attr:`withdraw_reasons` reason), and ``network_error``, the
    model's inference failed (a :class:`ServiceError` of that type at once, whether ``[DONE]`` follows or
    not). Neither word is one OpenAI sends, so they change nothing for OpenAI's streams.
    """

    name = "openai-chat"
    complete_reasons = frozenset({"stop", "tool_calls", "function_call"})
    withdraw_reasons = frozenset({"sensitive"})
    #: Finish reasons that report a failure, not the end of an answer: the stream is a service error.
    failure_reasons = frozenset({"network_error"})

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
            return [Unknown("no-choices")]
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
                if self.finish_reason in self.failure_reasons:
                    message = f"the service ended the answer with finish_reason {self.finish_reason}"
                    signals.append(ServiceError(self.finish_reason, message))
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
