"""The Gemini writers: the same chunk objects (``GenerateContentResponse``) as SSE (``alt=sse``, one-line
JSON, CRLF) and as one pretty-printed growing JSON array (no ``alt``), as ``data/gemini`` and
``data/gemini-json-array``. The last chunk carries the ``finishReason``; in the array, the closing ``]``
ends the body."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .plan import Plan
from .request import Call
from .services import json_plan
from .wire import ANSWER, BASE62, REASONING, Unit, Wire, fake_id, sse_event

__all__ = ["GeminiArrayWire", "GeminiWire"]

_ERROR = {
    "error": {
        "code": 503,
        "message": "The model is overloaded. Please try again later.",
        "status": "UNAVAILABLE",
    }
}


def _chunk_objects(parts: Sequence[Sequence[dict[str, Any]]], finish: str) -> list[dict[str, Any]]:
    """One chunk object per item of ``parts`` (its parts); the last carries ``finish``."""
    response_id = fake_id("faults/gemini", 22, BASE62 + "-_")
    out = []
    total = 0
    for i, chunk_parts in enumerate(parts):
        total += len(chunk_parts)
        candidate: dict[str, Any] = {"content": {"parts": list(chunk_parts), "role": "model"}}
        usage: dict[str, Any] = {"promptTokenCount": 9, "totalTokenCount": 9 + total}
        if i == len(parts) - 1:
            candidate["finishReason"] = finish
            candidate["index"] = 0
            usage = {
                "promptTokenCount": 9,
                "candidatesTokenCount": total,
                "totalTokenCount": 9 + total,
                "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 9}],
            }
        out.append(
            {
                "candidates": [candidate],
                "usageMetadata": usage,
                "modelVersion": "gemini-2.5-flash",
                "responseId": response_id,
            }
        )
    return out


class GeminiWire(Wire):
    """Gemini with ``alt=sse``: ``data:`` lines of one-line JSON, CRLF endings."""

    contract = "gemini"
    eol = "\r\n"
    cut_reason = "MAX_TOKENS"

    def _unit(self, obj: dict[str, Any], kind: str, text: str = "") -> Unit:
        line = json.dumps(obj, ensure_ascii=False, separators=(",", ": "))
        return Unit(sse_event([("data", line)], self.eol), kind, text)

    def _units(self, objects: list[dict[str, Any]], texts: Sequence[str], kinds: Sequence[str]) -> list[Unit]:
        return [self._unit(obj, kind, text) for obj, text, kind in zip(objects, texts, kinds, strict=True)]

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
        if repeat_terminal or after_terminal or usage:
            raise NotImplementedError("Gemini has no terminal event to repeat or follow, nor a usage chunk")
        objects = _chunk_objects([[{"text": piece}] for piece in pieces], reason or "STOP")
        kinds = ["delta"] * (len(pieces) - 1) + ["terminal"]
        units = self._units(objects, pieces, kinds)
        if error_after is not None:
            return [*units[:error_after], self._unit(_ERROR, "error")]
        return units

    def reasoning(self, call: Call, pieces: Sequence[str] = REASONING) -> list[Unit]:
        # Thought parts, then a last chunk without content that only says why it ended (the shape of the
        # SAFETY capture's last chunk, without its safetyRatings).
        thoughts = [[{"text": piece, "thought": True}] for piece in pieces]
        objects = _chunk_objects([*thoughts, []], self.cut_reason)
        last = objects[-1]
        last["candidates"] = [{"finishReason": self.cut_reason, "index": 0}]
        last["usageMetadata"].pop("promptTokensDetails")
        kinds = ["reasoning"] * len(pieces) + ["terminal"]
        return self._units(objects, [""] * len(objects), kinds)

    def error_status(self) -> Plan:
        return json_plan(503, _ERROR)


class GeminiArrayWire(GeminiWire):
    """Gemini without ``alt``: ``[`` + element + (``\\n,\\r\\n`` + element)* + ``\\n]``, each element
    pretty-printed (two-space indent). Only the closing bracket proves the end."""

    contract = "gemini-json-array"
    eol = "\n"

    def _units(self, objects: list[dict[str, Any]], texts: Sequence[str], kinds: Sequence[str]) -> list[Unit]:
        units = [Unit(b"[", "framing")]
        for i, (obj, text, kind) in enumerate(zip(objects, texts, kinds, strict=True)):
            if i:
                units.append(Unit(b"\n,\r\n", "framing"))
            element = json.dumps(obj, ensure_ascii=False, indent=2).encode("utf-8")
            units.append(Unit(element, "finish" if kind == "terminal" else kind, text))
        units.append(Unit(b"\n]", "terminal"))
        return units

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
        if error_after is None:
            return super().answer(
                call,
                pieces,
                reason=reason,
                usage=usage,
                repeat_terminal=repeat_terminal,
                after_terminal=after_terminal,
            )
        # The chunks before piece k, none the last one (the error, not a reason, ends this answer).
        objects = _chunk_objects([[{"text": piece}] for piece in pieces[: error_after + 1]], "STOP")[:-1]
        objects.append(_ERROR)
        units = self._units(objects, [*pieces[:error_after], ""], ["delta"] * error_after + ["error"])
        return units
