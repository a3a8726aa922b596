"""The OpenAI writers: Chat Completions (``data:`` chunks, ``data: [DONE]``) and Responses (typed events with
a ``sequence_number``, ``response.completed``), as ``data/openai-chat`` and ``data/openai-responses``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .plan import Plan
from .request import Call
from .services import json_plan, responses_id
from .wire import (
    ANSWER,
    BASE62,
    REASONING,
    TOOL_FRAGMENTS,
    TOOL_NAME,
    Unit,
    Wire,
    compact,
    fake_id,
    sse_comment,
    sse_event,
)

__all__ = ["OpenAIChatWire", "OpenAIResponsesWire"]

_RETRY_FAST = (("retry-after-ms", "20"),)  # an SDK that retries (max_retries) comes back at once


class OpenAIChatWire(Wire):
    """Chat Completions: the chunks of ``data/openai-chat/completed.sse``."""

    contract = "openai-chat"
    cut_reason = "length"

    def _chunk(self, delta: dict[str, Any], finish: str | None = None, usage: bool = False) -> bytes:
        obj: dict[str, Any] = {
            "id": "chatcmpl-" + fake_id("faults/openai-chat", 29, BASE62),
            "object": "chat.completion.chunk",
            "created": 1767225600,
            "model": "gpt-4o-mini-2024-07-18",
            "service_tier": "default",
            "system_fingerprint": "fp_" + fake_id("faults/fp", 10),
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        }
        if usage:
            obj["usage"] = None
        return sse_event([("data", compact(obj))])

    def _usage(self, tokens: int) -> bytes:
        obj = {
            "id": "chatcmpl-" + fake_id("faults/openai-chat", 29, BASE62),
            "object": "chat.completion.chunk",
            "created": 1767225600,
            "model": "gpt-4o-mini-2024-07-18",
            "service_tier": "default",
            "system_fingerprint": "fp_" + fake_id("faults/fp", 10),
            "choices": [],
            "usage": {
                "prompt_tokens": 19,
                "completion_tokens": tokens,
                "total_tokens": 19 + tokens,
                "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
                "completion_tokens_details": {
                    "reasoning_tokens": 0,
                    "audio_tokens": 0,
                    "accepted_prediction_tokens": 0,
                    "rejected_prediction_tokens": 0,
                },
            },
        }
        return sse_event([("data", compact(obj))])

    def error_unit(self) -> Unit:
        error = {
            "error": {
                "message": "The server had an error while processing your request. Sorry about that!",
                "type": "server_error",
                "param": None,
                "code": None,
            }
        }
        return Unit(sse_event([("data", compact(error))]), "error")

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
        units = [Unit(self._chunk({"role": "assistant", "content": "", "refusal": None}, usage=usage))]
        for i, piece in enumerate(pieces):
            if i == error_after:
                return [*units, self.error_unit()]  # no [DONE] follows an error
            units.append(Unit(self._chunk({"content": piece}, usage=usage), "delta", piece))
        units.append(Unit(self._chunk({}, reason or "stop", usage=usage), "finish"))
        if usage:
            units.append(Unit(self._usage(len(pieces) + 1), "usage"))
        done = Unit(b"data: [DONE]\n\n", "terminal")
        units.append(done)
        if repeat_terminal:
            units.append(done)
        units.extend(Unit(self._chunk({"content": piece}), "after") for piece in after_terminal)
        return units

    def heartbeat(self, number: int) -> Unit:
        return Unit(sse_comment(" keep-alive"), "heartbeat")

    def reasoning(self, call: Call, pieces: Sequence[str] = REASONING) -> list[Unit]:
        # An OpenAI-compatible reasoning server (DeepSeek): delta.reasoning_content, content null.
        units = [Unit(self._chunk({"role": "assistant", "content": None, "reasoning_content": ""}))]
        for piece in pieces:
            units.append(Unit(self._chunk({"content": None, "reasoning_content": piece}), "reasoning"))
        units.append(Unit(self._chunk({}, self.cut_reason), "finish"))
        units.append(Unit(b"data: [DONE]\n\n", "terminal"))
        return units

    def tool_call(self, call: Call) -> list[Unit]:
        start = {
            "index": 0,
            "id": "call_" + fake_id("faults/call", 24, BASE62),
            "type": "function",
            "function": {"name": TOOL_NAME, "arguments": ""},
        }
        units = [
            Unit(self._chunk({"role": "assistant", "content": None, "refusal": None})),
            Unit(self._chunk({"tool_calls": [start]})),
        ]
        for fragment in TOOL_FRAGMENTS:
            delta = {"tool_calls": [{"index": 0, "function": {"arguments": fragment}}]}
            units.append(Unit(self._chunk(delta), "call"))
        units.append(Unit(self._chunk({}, "tool_calls"), "finish"))
        units.append(Unit(b"data: [DONE]\n\n", "terminal"))
        return units

    def error_status(self) -> Plan:
        payload = {
            "error": {
                "message": "Rate limit reached for requests. Please try again in 20ms.",
                "type": "requests",
                "param": None,
                "code": "rate_limit_exceeded",
            }
        }
        return json_plan(429, payload, (("Content-Type", "application/json"), *_RETRY_FAST))


class OpenAIResponsesWire(Wire):
    """Responses: the events of ``data/openai-responses/completed.sse`` (and of ``tools_completed.sse``)."""

    contract = "openai-responses"
    cut_reason = "max_output_tokens"

    def _response(self, call: Call, status: str, output: list[Any], **extra: Any) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "id": call.response_id or responses_id("openai-responses", call.background),
            "object": "response",
            "created_at": 1767225600,
            "status": status,
            "background": call.background,
            "error": None,
            "incomplete_details": None,
            "instructions": None,
            "max_output_tokens": None,
            "model": "gpt-4.1-mini-2025-04-14",
            "output": output,
            "parallel_tool_calls": True,
            "previous_response_id": None,
            "reasoning": {"effort": None, "summary": None},
            "service_tier": "default",
            "store": True,
            "temperature": 1.0,
            "text": {"format": {"type": "text"}, "verbosity": "medium"},
            "tool_choice": "auto",
            "tools": [],
            "top_p": 1.0,
            "truncation": "disabled",
            "usage": None,
            "user": None,
            "metadata": {},
        }
        obj.update(extra)
        return obj

    @staticmethod
    def _event(number: int, payload: dict[str, Any], kind: str = "meta", text: str = "") -> Unit:
        payload = {"type": payload["type"], "sequence_number": number, **payload}
        return Unit(sse_event([("event", payload["type"]), ("data", compact(payload))]), kind, text, number)

    @staticmethod
    def _usage(tokens: int) -> dict[str, Any]:
        return {
            "input_tokens": 23,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": tokens,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 23 + tokens,
        }

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
        item_id = "msg_" + fake_id("faults/responses-item", 48)
        where = {"item_id": item_id, "output_index": 0, "content_index": 0}
        units: list[Unit] = []

        def add(payload: dict[str, Any], kind: str = "meta", text: str = "") -> None:
            units.append(self._event(len(units), payload, kind, text))

        def part(text: str) -> dict[str, Any]:
            return {"type": "output_text", "annotations": [], "logprobs": [], "text": text}

        add({"type": "response.created", "response": self._response(call, "in_progress", [])})
        add({"type": "response.in_progress", "response": self._response(call, "in_progress", [])})
        item = {"id": item_id, "type": "message", "status": "in_progress", "content": [], "role": "assistant"}
        add({"type": "response.output_item.added", "output_index": 0, "item": item})
        add({"type": "response.content_part.added", **where, "part": part("")})
        for i, piece in enumerate(pieces):
            if i == error_after:
                message = "An error occurred while processing your request. Please retry."
                add({"type": "error", "code": "server_error", "message": message, "param": None}, "error")
                return units
            add(
                {"type": "response.output_text.delta", **where, "delta": piece, "logprobs": []},
                "delta",
                piece,
            )
        text = "".join(pieces)
        cut = reason is not None and reason != "completed"
        status = "incomplete" if cut else "completed"
        add({"type": "response.output_text.done", **where, "text": text, "logprobs": []})
        add({"type": "response.content_part.done", **where, "part": part(text)})
        done_item = dict(item, status=status, content=[part(text)])
        add({"type": "response.output_item.done", "output_index": 0, "item": done_item}, "finish")
        if cut:
            final = self._response(
                call,
                "incomplete",
                [done_item],
                incomplete_details={"reason": reason},
                usage=self._usage(len(pieces)),
            )
            terminal = {"type": "response.incomplete", "response": final}
        else:
            final = self._response(call, "completed", [done_item], usage=self._usage(len(pieces)))
            terminal = {"type": "response.completed", "response": final}
        add(terminal, "terminal")
        if repeat_terminal:
            add(terminal, "after")
        for piece in after_terminal:
            add({"type": "response.output_text.delta", **where, "delta": piece, "logprobs": []}, "after")
        return units

    def failed(self, call: Call, pieces: Sequence[str]) -> list[Unit]:
        """``pieces`` of text, then ``response.failed`` (a terminal event that is an error)."""
        units = self.answer(call, pieces)[: 4 + len(pieces)]
        error = {"code": "server_error", "message": "The model failed to generate a response. Please retry."}
        failed = self._response(call, "failed", [], error=error)
        units.append(self._event(len(units), {"type": "response.failed", "response": failed}, "error"))
        return units

    def heartbeat(self, number: int) -> Unit:
        return self._event(number, {"type": "keepalive"}, "heartbeat")

    def reasoning(self, call: Call, pieces: Sequence[str] = REASONING) -> list[Unit]:
        item_id = "rs_" + fake_id("faults/responses-reasoning", 48)
        where = {"item_id": item_id, "output_index": 0, "summary_index": 0}
        units: list[Unit] = []

        def add(payload: dict[str, Any], kind: str = "meta") -> None:
            units.append(self._event(len(units), payload, kind))

        add({"type": "response.created", "response": self._response(call, "in_progress", [])})
        add({"type": "response.in_progress", "response": self._response(call, "in_progress", [])})
        add(
            {
                "type": "response.output_item.added",
                "output_index": 0,
                "item": {"id": item_id, "type": "reasoning", "summary": []},
            }
        )
        add(
            {
                "type": "response.reasoning_summary_part.added",
                **where,
                "part": {"type": "summary_text", "text": ""},
            }
        )
        for piece in pieces:
            add({"type": "response.reasoning_summary_text.delta", **where, "delta": piece}, "reasoning")
        summary = {"type": "summary_text", "text": "".join(pieces)}
        add({"type": "response.reasoning_summary_text.done", **where, "text": summary["text"]})
        add({"type": "response.reasoning_summary_part.done", **where, "part": summary})
        done = {"id": item_id, "type": "reasoning", "summary": [summary]}
        add({"type": "response.output_item.done", "output_index": 0, "item": done}, "finish")
        final = self._response(
            call, "incomplete", [done], incomplete_details={"reason": self.cut_reason}, usage=self._usage(0)
        )
        add({"type": "response.incomplete", "response": final}, "terminal")
        return units

    def tool_call(self, call: Call) -> list[Unit]:
        item_id = "fc_" + fake_id("faults/responses-call", 48)
        item = {
            "id": item_id,
            "type": "function_call",
            "status": "in_progress",
            "arguments": "",
            "call_id": "call_" + fake_id("faults/call", 24, BASE62),
            "name": TOOL_NAME,
        }
        units: list[Unit] = []

        def add(payload: dict[str, Any], kind: str = "meta") -> None:
            units.append(self._event(len(units), payload, kind))

        add({"type": "response.created", "response": self._response(call, "in_progress", [])})
        add({"type": "response.in_progress", "response": self._response(call, "in_progress", [])})
        add({"type": "response.output_item.added", "output_index": 0, "item": item})
        for fragment in TOOL_FRAGMENTS:
            add(
                {
                    "type": "response.function_call_arguments.delta",
                    "item_id": item_id,
                    "output_index": 0,
                    "delta": fragment,
                },
                "call",
            )
        arguments = "".join(TOOL_FRAGMENTS)
        add(
            {
                "type": "response.function_call_arguments.done",
                "item_id": item_id,
                "output_index": 0,
                "arguments": arguments,
            }
        )
        done = dict(item, status="completed", arguments=arguments)
        add({"type": "response.output_item.done", "output_index": 0, "item": done}, "finish")
        final = self._response(call, "completed", [done], usage=self._usage(len(TOOL_FRAGMENTS)))
        add({"type": "response.completed", "response": final}, "terminal")
        return units

    def error_status(self) -> Plan:
        payload = {
            "error": {
                "message": "The server had an error while processing your request. Sorry about that!",
                "type": "server_error",
                "param": None,
                "code": None,
            }
        }
        return json_plan(500, payload, (("Content-Type", "application/json"), *_RETRY_FAST))
