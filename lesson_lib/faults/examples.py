"""A first request for each contract, as the service's SDK would send it: what a raw client (a test, the
load benchmark, a learner's own code) sends to a fault's ``base_url`` + its service path.

Each body asks for a stream the way its service does: ``"stream": true`` in OpenAI Chat Completions,
Responses, Anthropic Messages and Ollama bodies; the URL (``:streamGenerateContent?alt=sse``) for Gemini;
a JSON-RPC ``tools/call`` request with an ``Accept`` header naming both ``application/json`` and
``text/event-stream`` for MCP Streamable HTTP.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from .catalogue import Request

__all__ = ["MCP_REQUEST_ID", "ExampleRequest", "example_request"]

#: The JSON-RPC id of the MCP example request (``consume(..., "mcp", request_id=...)`` needs it).
MCP_REQUEST_ID = 1
_MESSAGES = [{"role": "user", "content": "Say hello."}]
_BODIES: dict[str, dict[str, object]] = {
    "openai-chat": {"model": "gpt-test", "messages": _MESSAGES, "stream": True},
    "openai-responses": {"model": "gpt-test", "input": "Say hello.", "stream": True},
    "anthropic-messages": {"model": "claude-test", "max_tokens": 256, "messages": _MESSAGES, "stream": True},
    "gemini": {"contents": [{"role": "user", "parts": [{"text": "Say hello."}]}]},
    "gemini-json-array": {"contents": [{"role": "user", "parts": [{"text": "Say hello."}]}]},
    "ollama": {"model": "llama-test", "messages": _MESSAGES, "stream": True},
    "mcp": {
        "jsonrpc": "2.0",
        "id": MCP_REQUEST_ID,
        "method": "tools/call",
        "params": {"name": "hello", "arguments": {}},
    },
}
_ACCEPT = {"mcp": "application/json, text/event-stream"}


@dataclass(frozen=True)
class ExampleRequest:
    """``method``, ``target`` (the service path with its query, to append to a base URL's path),
    ``headers`` and ``body``."""

    method: str
    target: str
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def encode(self, prefix: str, host: str) -> bytes:
        """The request as bytes, to ``prefix`` + :attr:`target` (``prefix``: ``/faults/<name>``), with
        ``Host`` first and ``Content-Length`` last (what :meth:`as_fault_request` assumes)."""
        lines = [f"{self.method} {prefix}{self.target} HTTP/1.1", f"Host: {host}"]
        lines += [f"{name}: {value}" for name, value in self.headers]
        lines.append(f"Content-Length: {len(self.body)}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8") + self.body

    def as_fault_request(self, host: str) -> Request:
        """The :class:`~.catalogue.Request` a fault's ``respond`` gets for :meth:`encode`'s bytes."""
        path, _, query = self.target.partition("?")
        headers = (
            ("host", host),
            *((name.lower(), value) for name, value in self.headers),
            ("content-length", str(len(self.body))),
        )
        return Request(self.method, path, query, headers, self.body)


def example_request(contract: str, service_path: str) -> ExampleRequest:
    """The first request a client of ``contract`` sends to ``service_path`` (a fault's ``path``); a contract
    without an example here gets the OpenAI Chat body (``"stream": true``)."""
    body = json.dumps(_BODIES.get(contract, _BODIES["openai-chat"])).encode("utf-8")
    headers = (
        ("Content-Type", "application/json"),
        ("Accept", _ACCEPT.get(contract, "text/event-stream")),
    )
    return ExampleRequest("POST", service_path, headers, body)
