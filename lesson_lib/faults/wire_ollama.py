"""The Ollama ``/api/chat`` writer: NDJSON, one LF-terminated object per line as Go's ``encoding/json``
writes it (``<``, ``>``, ``&``, U+2028, U+2029 escaped), the last with ``"done": true``, as
``data/ollama``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .plan import Plan
from .request import Call
from .services import json_plan
from .wire import ANSWER, REASONING, Unit, Wire

__all__ = ["OllamaWire"]

_GO_ESCAPES = (
    ("<", "\\u003c"),
    (">", "\\u003e"),
    ("&", "\\u0026"),
    ("\u2028", "\\u2028"),
    ("\u2029", "\\u2029"),
)


def _line(obj: dict[str, Any]) -> bytes:
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    for char, escape in _GO_ESCAPES:  # these occur only inside JSON strings: replacing them is safe
        text = text.replace(char, escape)
    return (text + "\n").encode("utf-8")


class OllamaWire(Wire):
    """Ollama ``/api/chat``."""

    contract = "ollama"
    cut_reason = "length"

    @staticmethod
    def _object(i: int, message: dict[str, Any]) -> dict[str, Any]:
        created = f"2026-03-14T09:26:0{i // 40}.{(i % 40) * 23_456_789:09d}Z"
        return {"model": "llama3.2:3b", "created_at": created, "message": message, "done": False}

    def _done(self, i: int, reason: str) -> Unit:
        obj = self._object(i, {"role": "assistant", "content": ""})
        del obj["done"]
        obj.update(
            {"done_reason": reason, "done": True, "total_duration": 1_874_326_209, "eval_count": i + 1}
        )
        return Unit(_line(obj), "terminal")

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
        if usage:
            raise NotImplementedError("Ollama counts tokens in its last object, not in a chunk of its own")
        units: list[Unit] = []
        for i, piece in enumerate(pieces):
            if i == error_after:
                error = {"error": "an error was encountered while running the model: unexpected EOF"}
                return [*units, Unit(_line(error), "error")]
            units.append(
                Unit(_line(self._object(i, {"role": "assistant", "content": piece})), "delta", piece)
            )
        done = self._done(len(pieces), reason or "stop")
        units.append(done)
        if repeat_terminal:
            units.append(done)
        for j, piece in enumerate(after_terminal, len(pieces) + 1):
            units.append(Unit(_line(self._object(j, {"role": "assistant", "content": piece})), "after"))
        return units

    def reasoning(self, call: Call, pieces: Sequence[str] = REASONING) -> list[Unit]:
        units = [
            Unit(_line(self._object(i, {"role": "assistant", "content": "", "thinking": piece})), "reasoning")
            for i, piece in enumerate(pieces)
        ]
        return [*units, self._done(len(pieces), self.cut_reason)]

    def error_status(self) -> Plan:
        return json_plan(500, {"error": "llama runner process has terminated: signal: killed"})
