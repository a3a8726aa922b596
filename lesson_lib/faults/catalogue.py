"""The named faults: what each sends, for which service, and the verdict a correct client reaches.

A :class:`Fault` is one entry of the catalogue: a name (unique, URL-safe), the contract it imitates (as
:func:`lesson_lib.consume` names it), the lesson that explains it, a one-line description, the expected
verdict (:class:`Expected`), and :meth:`Fault.respond`, which turns a request into a
:class:`~lesson_lib.faults.plan.Plan` without I/O: it checks the request as the service would (path,
method, a streaming request), then answers with the fault's bytes and pacing.

SKELETON (issue 26): two entries so that the server can be built against this interface; the full
catalogue replaces them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from .plan import Pause, Plan, Send, check_plan

__all__ = ["CATALOGUE", "Expected", "Fault", "Request", "catalogue_json", "get_fault"]


@dataclass(frozen=True)
class Expected:
    """The verdict a correct client reaches: ``outcome`` as :class:`lesson_lib.Outcome` names it, the answer
    ``text`` it keeps (for a cut stream: the text of what arrived whole), and ``also``: other outcomes that
    are right too (a client with an idle timeout may say ``timed_out`` of a stall)."""

    outcome: str
    text: str
    also: tuple[str, ...] = ()

    def accepts(self, outcome: str, text: str | None) -> bool:
        """Whether a client's verdict is right: its outcome is one of the expected ones and, if it gave its
        text, the text is the expected text exactly."""
        return (outcome == self.outcome or outcome in self.also) and (text is None or text == self.text)


@dataclass(frozen=True)
class Request:
    """One request to a fault: ``path`` is what follows ``/faults/<name>`` (``"/v1/chat/completions"``),
    ``query`` the raw query string without ``?``, header names lower-case, ``body`` the whole body."""

    method: str
    path: str
    query: str
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (lower-case), or ``None``."""
        for key, value in self.headers:
            if key == name:
                return value
        return None


@dataclass(frozen=True)
class Fault:
    """One entry of the catalogue (see the module docstring)."""

    name: str
    contract: str
    lesson: str
    description: str
    expected: Expected
    #: The service's path a client appends to the entry's base URL (``/faults/<name>``).
    service_path: str
    #: The fault's response to a request the service would accept.
    plan: Callable[[Request], Plan] = field(repr=False, compare=False)

    def respond(self, request: Request) -> Plan:
        """The response to ``request``: the service's own kind of error for a request it would refuse (a
        wrong path or method, no streaming asked), else the fault's plan. Never raises for a bad request."""
        if request.path != self.service_path.split("?", 1)[0]:
            return _json_error(404, {"error": {"message": "Not found", "type": "invalid_request_error"}})
        if request.method != "POST":
            return _json_error(
                405, {"error": {"message": "Method not allowed", "type": "invalid_request_error"}}
            )
        try:
            body = json.loads(request.body)
        except (ValueError, UnicodeDecodeError):
            return _json_error(
                400, {"error": {"message": "Invalid JSON body", "type": "invalid_request_error"}}
            )
        if not isinstance(body, dict) or body.get("stream") is not True:
            return _json_error(
                400,
                {
                    "error": {
                        "message": "this fault streams: send stream: true",
                        "type": "invalid_request_error",
                    }
                },
            )
        return check_plan(self.plan(request))

    def as_json(self) -> dict[str, object]:
        """The entry as ``GET /faults`` lists it."""
        return {
            "name": self.name,
            "contract": self.contract,
            "lesson": self.lesson,
            "description": self.description,
            "path": self.service_path,
            "expected": {
                "outcome": self.expected.outcome,
                "text": self.expected.text,
                "also": list(self.expected.also),
            },
        }


def _json_error(status: int, payload: object) -> Plan:
    body = json.dumps(payload).encode()
    return Plan(status, (("Content-Type", "application/json"),), (Send(body),), framing="length")


def _chat(text_pieces: list[str], cuts: list[int] | None = None) -> Callable[[Request], Plan]:
    def plan(request: Request) -> Plan:
        events = [
            'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":'
            + json.dumps(piece, ensure_ascii=False)
            + '},"finish_reason":null}]}\n\n'
            for piece in text_pieces
        ]
        stop = '"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]'
        events.append('data: {"id":"c1","object":"chat.completion.chunk",' + stop + "}\n\n")
        events.append("data: [DONE]\n\n")
        body = "".join(events).encode()
        pieces = [body[a:b] for a, b in zip([0, *(cuts or [])], [*(cuts or []), len(body)], strict=True)]
        steps: list[Send | Pause] = []
        for piece in pieces:
            if steps:
                steps.append(Pause(0.02))
            steps.append(Send(piece))
        return Plan(200, (("Content-Type", "text/event-stream; charset=utf-8"),), tuple(steps))

    return plan


_TEXT = ["你好", ", café ", "🙂"]
_EMOJI_AT = (
    "".join(
        'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":'
        + json.dumps(piece, ensure_ascii=False)
        + '},"finish_reason":null}]}\n\n'
        for piece in _TEXT
    )
    .encode()
    .index("🙂".encode())
    + 2
)

CATALOGUE: tuple[Fault, ...] = (
    Fault(
        "openai-chat-control",
        "openai-chat",
        "03",
        "a whole stream, nothing wrong: the control",
        Expected("completed", "".join(_TEXT)),
        "/v1/chat/completions",
        _chat(_TEXT),
    ),
    Fault(
        "openai-chat-cut-in-4-byte-character",
        "openai-chat",
        "01",
        "a read boundary inside a 4-byte character (an emoji); the stream is whole",
        Expected("completed", "".join(_TEXT)),
        "/v1/chat/completions",
        _chat(_TEXT, [_EMOJI_AT]),
    ),
)


def get_fault(name: str) -> Fault:
    """The entry called ``name``; ``KeyError`` if there is none."""
    for fault in CATALOGUE:
        if fault.name == name:
            return fault
    raise KeyError(name)


def catalogue_json() -> list[dict[str, object]]:
    """Every entry as ``GET /faults`` lists it, in catalogue order."""
    return [fault.as_json() for fault in CATALOGUE]
