"""What the catalogue's tests share: a request each service accepts, and the course's judgement of a plan.

``judge`` is what a correct client concludes from a plan without a socket: an error status is a
``service_error`` (there is no stream to read: lesson_lib.net.http raises ``HTTPStatusError``, the course
calls it the service refusing), a gzip body is decompressed as a client that accepts gzip does, and a
plan that ends with a reset or without its chunked terminator has its reads followed by the transport's
exception, as httpx raises one after the last bytes (lesson_lib.net.http reports it as ``truncated``, the
exception's name in ``error.kind``: tests/net/test_http.py).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterator, Sequence

from lesson_lib import StreamResult, consume
from lesson_lib.faults import Fault, Pause, Plan, Request, Send

#: The JSON-RPC id of the tools/call request the MCP tests send.
MCP_ID = 7
MCP_HEADERS = (("accept", "application/json, text/event-stream"), ("content-type", "application/json"))


def body_of(contract: str, **extra: object) -> dict[str, object]:
    """The JSON body of a streaming request each service accepts."""
    if contract == "openai-chat":
        body: dict[str, object] = {
            "model": "m",
            "messages": [{"role": "user", "content": "hi"}],
            "stream": True,
        }
    elif contract == "openai-responses":
        body = {"model": "m", "input": "hi", "stream": True, "background": True}
    elif contract == "anthropic-messages":
        body = {
            "model": "m",
            "max_tokens": 64,
            "messages": [{"role": "user", "content": "hi"}],
            "stream": True,
        }
    elif contract in ("gemini", "gemini-json-array"):
        body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    elif contract == "ollama":
        body = {"model": "llama3.2", "messages": [{"role": "user", "content": "hi"}]}
    else:
        params = {"name": "answer", "arguments": {}, "_meta": {"progressToken": "t-1"}}
        body = {"jsonrpc": "2.0", "id": MCP_ID, "method": "tools/call", "params": params}
    body.update(extra)
    return body


def proper(fault: Fault, **extra: object) -> Request:
    """A request the fault's service accepts (``extra`` fields added to, or replacing, the body's)."""
    path, _, query = fault.service_path.partition("?")
    headers = MCP_HEADERS if fault.contract == "mcp" else (("content-type", "application/json"),)
    return Request("POST", path, query, headers, json.dumps(body_of(fault.contract, **extra)).encode())


def consume_options(fault: Fault) -> dict[str, object]:
    return {"request_id": MCP_ID} if fault.contract == "mcp" else {}


class TransportError(Exception):
    """What a client's transport raises after the last bytes of a reset or unterminated body."""


def reads(plan: Plan) -> list[bytes]:
    """The plan's pieces as a client that decodes the content coding reads them."""
    pieces = plan.pieces
    if dict(plan.headers).get("Content-Encoding") == "gzip":
        decompressor = zlib.decompressobj(wbits=31)
        pieces = [decompressor.decompress(piece) for piece in pieces]
        assert decompressor.eof and not decompressor.unused_data
    return pieces


def source(pieces: Sequence[bytes], end: str) -> Iterator[bytes]:
    """The reads, then the transport's exception if the plan does not end cleanly."""
    yield from pieces
    if end != "clean":
        raise TransportError(end)


def judge(
    fault: Fault, plan: Plan, pieces: Sequence[bytes] | None = None, **options: object
) -> tuple[str, str]:
    """``(outcome, text)`` as a correct client concludes from ``plan`` (its own pieces, or ``pieces``: the
    same bytes cut otherwise)."""
    if plan.status >= 400:
        return "service_error", ""
    result = consume(source(reads(plan) if pieces is None else pieces, plan.end), fault.contract,
                     **consume_options(fault), **options)  # fmt: skip
    return str(result.outcome), result.text


class FakeClock:
    """A clock a test moves: the plan's pauses, without waiting for them."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def timed_reads(plan: Plan, clock: FakeClock) -> Iterator[bytes]:
    """The plan's sends, each read after the pauses before it have passed on ``clock``."""
    for step in plan.steps:
        if isinstance(step, Pause):
            clock.now += step.seconds
        elif isinstance(step, Send):
            yield step.data
    if plan.end != "clean":
        raise TransportError(plan.end)


def judge_in_time(fault: Fault, plan: Plan, **timeouts: float) -> StreamResult:
    """``consume`` over the plan's reads on a fake clock that the pauses move, with ``timeouts``."""
    clock = FakeClock()
    return consume(
        timed_reads(plan, clock), fault.contract, clock=clock, **consume_options(fault), **timeouts
    )


def faults_where(predicate: Callable[[Fault], bool]) -> list[Fault]:
    from lesson_lib.faults import CATALOGUE

    return [fault for fault in CATALOGUE if predicate(fault)]
