"""Each imitated service's front door: the path, method and body it accepts, and its own errors.

One :class:`Service` per contract (:data:`SERVICES`, keyed by the contract's name as
:func:`lesson_lib.consume` spells it). :meth:`Service.accept` reads a
:class:`~lesson_lib.faults.request.Request` as that service would and returns either a
:class:`~lesson_lib.faults.request.Call` (the fault answers it) or a :class:`~lesson_lib.faults.plan.Plan`
the service itself sends: its error for a request it refuses, in its own status and JSON shape, or (MCP)
its answer to a protocol message that is not the tool call. It never
raises for what a request contains.

The error shapes, from each service's documentation (``CONTRACTS.md``; the ``search`` tool's pages):

* OpenAI (Chat Completions, Responses): ``{"error": {"message", "type", "param", "code"}}``; an unknown
  path or method is ``404`` ``Invalid URL (POST /v1/x)``, type ``invalid_request_error``;
* Anthropic: ``{"type": "error", "error": {"type", "message"}, "request_id"}``, ``invalid_request_error``
  (400, and other 4xx), ``not_found_error`` (404);
* Gemini: ``{"error": {"code", "message", "status"}}`` with ``INVALID_ARGUMENT`` (400), ``NOT_FOUND`` (404);
* Ollama: ``{"error": "..."}`` (``model is required``, 400); an unknown route is Gin's plain-text
  ``404 page not found``, a wrong method its ``405 method not allowed``;
* MCP Streamable HTTP: JSON-RPC errors (``{"jsonrpc": "2.0", "error": {"code", "message"}, "id"}``): 406
  when ``Accept`` does not list both ``application/json`` and ``text/event-stream``, 415 for a body that is
  not ``application/json``, 400 for a parse error (-32700) or an invalid message (-32600), 405 for a
  ``GET`` without ``Last-Event-ID`` (no server-initiated stream here) and for ``DELETE``. Notifications
  and responses get ``202 Accepted``, ``initialize``, ``ping`` and ``tools/list`` a JSON answer; only
  ``tools/call`` of the tool ``answer`` reaches the fault.

What the services do not check: API keys (``Authorization``, ``x-api-key``, ``?key=``) and version
headers, so that any client can be pointed at a fault without a secret. Streaming is checked:
``"stream": true`` (OpenAI, Anthropic), ``:streamGenerateContent`` and ``alt=sse`` or not (Gemini; an
entry imitates one framing), ``"stream"`` not ``false`` (Ollama, which streams by default).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from .plan import Plan, Send
from .request import Call, Request

__all__ = [
    "MCP_PROTOCOL_VERSIONS",
    "MCP_TOOL",
    "SERVICES",
    "Service",
    "json_plan",
    "mcp_event_id",
    "parse_mcp_event_id",
    "responses_id",
]

#: The MCP protocol revisions the imitated server accepts in ``MCP-Protocol-Version`` (the first is the one
#: a client that sends none is taken to speak, as the 2025-06-18 revision says).
MCP_PROTOCOL_VERSIONS = ("2025-03-26", "2025-06-18", "2025-11-25")
#: The one tool the imitated MCP server lists; ``tools/call`` of it is the fault's stream.
MCP_TOOL = "answer"
#: The longest JSON-RPC id (as JSON text) the MCP service takes: it is carried in every event ID.
MAX_MCP_ID_CHARS = 64
#: How much of a refused path an error message repeats.
_MAX_ECHO = 200

_JSON = (("Content-Type", "application/json"),)


def json_plan(status: int, payload: object, headers: tuple[tuple[str, str], ...] = _JSON) -> Plan:
    """A whole JSON response (``Content-Length``): a service's error or answer."""
    body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    return Plan(status, headers, (Send(body),), framing="length")


def _text_plan(status: int, text: str) -> Plan:
    return Plan(status, (("Content-Type", "text/plain"),), (Send(text.encode("utf-8")),), framing="length")


def _json_object(request: Request) -> dict[str, Any] | str:
    """The body as a JSON object, or a short reason it is not one (no content of the body)."""
    if not request.body.strip():
        return "the request body is empty"
    try:
        value = json.loads(request.body)
    except (ValueError, RecursionError):  # not JSON, not UTF-8, too deep, a number too long
        return "the request body is not valid JSON"
    if not isinstance(value, dict):
        return "the request body is not a JSON object"
    return value


def responses_id(fault_name: str, background: bool) -> str:
    """The id an OpenAI Responses fault's stream announces: ``resp_`` and 48 hex digits, one for a
    background request and another for a foreground one (only a background response can be resumed)."""
    kind = "background" if background else "foreground"
    return "resp_" + hashlib.sha256(f"{fault_name}/{kind}".encode()).hexdigest()[:48]


def mcp_event_id(number: int, request_id: str | int) -> str:
    """An MCP event ID: the event's number in the stream and the JSON-RPC id it answers (as JSON), so that
    a ``GET`` with ``Last-Event-ID`` says which answer to resume and from where."""
    return f"{number}/{json.dumps(request_id)}"


def parse_mcp_event_id(value: str) -> tuple[int, str | int] | None:
    """``(number, request_id)`` from an ID :func:`mcp_event_id` wrote, else ``None``."""
    number, slash, rest = value.partition("/")
    if not slash or not number.isascii() or not number.isdigit() or len(number) > 6:
        return None
    try:
        request_id = json.loads(rest)
    except (ValueError, RecursionError):
        return None
    if not _valid_rpc_id(request_id):
        return None
    return int(number), request_id


def _valid_rpc_id(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return False
    return len(json.dumps(value)) <= MAX_MCP_ID_CHARS


class Service:
    """One service's front door. Subclasses set :attr:`contract` and :attr:`path` and implement
    :meth:`accept`."""

    #: The contract, as :func:`lesson_lib.consume` names it.
    contract: str
    #: What a client appends to a fault's base URL (``.../faults/<name>``), the query included.
    path: str
    #: The ``Content-Type`` of the service's stream.
    content_type: str

    def accept(self, request: Request, fault_name: str, resumable: bool) -> Call | Plan:
        """The :class:`Call` the fault answers, or the :class:`Plan` the service sends itself. ``resumable``:
        the fault answers the service's resuming request too. Never raises for a bad request."""
        raise NotImplementedError


# --- OpenAI: Chat Completions and Responses -----------------------------------------------------------------


def _openai_error(
    status: int,
    message: str,
    type_: str = "invalid_request_error",
    param: str | None = None,
    code: str | None = None,
) -> Plan:
    return json_plan(status, {"error": {"message": message, "type": type_, "param": param, "code": code}})


def _invalid_url(request: Request) -> Plan:
    return _openai_error(404, f"Invalid URL ({request.method[:16]} {request.path[:_MAX_ECHO]})")


def _openai_body(request: Request, required: tuple[str, ...]) -> dict[str, Any] | Plan:
    body = _json_object(request)
    if isinstance(body, str):
        return _openai_error(400, f"We could not parse the JSON body of your request: {body}.")
    model = body.get("model")
    if not isinstance(model, str) or not model:
        return _openai_error(400, "you must provide a model parameter")
    for name in required:
        if name not in body:
            return _openai_error(
                400, f"Missing required parameter: '{name}'.", param=name, code="missing_required_parameter"
            )
    if body.get("stream") is not True:
        return _openai_error(400, 'This fault streams: send "stream": true.', param="stream")
    return body


class OpenAIChatService(Service):
    """``POST /v1/chat/completions`` with ``model``, ``messages`` and ``"stream": true``."""

    contract = "openai-chat"
    path = "/v1/chat/completions"
    content_type = "text/event-stream; charset=utf-8"

    def accept(self, request: Request, fault_name: str, resumable: bool) -> Call | Plan:
        if request.path != self.path or request.method != "POST":
            return _invalid_url(request)
        body = _openai_body(request, ("messages",))
        return body if isinstance(body, Plan) else Call(request, body)


_RESPONSE_PATH = re.compile(r"/v1/responses/(resp_[0-9a-z]{1,64})")


class OpenAIResponsesService(Service):
    """``POST /v1/responses`` with ``model``, ``input`` and ``"stream": true`` (``"background": true`` for a
    response that can be resumed); for a resumable fault also ``GET /v1/responses/{id}?stream=true
    [&starting_after=N]``, the background response's events after sequence number N."""

    contract = "openai-responses"
    path = "/v1/responses"
    content_type = "text/event-stream; charset=utf-8"

    def accept(self, request: Request, fault_name: str, resumable: bool) -> Call | Plan:
        if request.path == self.path and request.method == "POST":
            body = _openai_body(request, ("input",))
            if isinstance(body, Plan):
                return body
            background = body.get("background") is True
            return Call(
                request, body, background=background, response_id=responses_id(fault_name, background)
            )
        match = _RESPONSE_PATH.fullmatch(request.path)
        if match is None or request.method != "GET":
            return _invalid_url(request)
        wanted = match.group(1)
        if not resumable or wanted != responses_id(fault_name, True):
            return _openai_error(404, f"Response with id '{wanted}' not found.")
        if request.query_value("stream") != "true":
            return _openai_error(400, "This fault streams: add ?stream=true.", param="stream")
        after = request.query_value("starting_after")
        if after is None:
            return Call(request, resume_after=-1, background=True, response_id=wanted)
        if not (after.isascii() and after.isdigit() and len(after) <= 9):
            return _openai_error(
                400,
                "Invalid 'starting_after': expected an integer >= 0.",
                param="starting_after",
                code="invalid_value",
            )
        return Call(request, resume_after=int(after), background=True, response_id=wanted)


# --- Anthropic Messages ---------------------------------------------------------------------------------


def _anthropic_error(status: int, type_: str, message: str) -> Plan:
    payload = {"type": "error", "error": {"type": type_, "message": message}, "request_id": "req_fault"}
    return json_plan(status, payload)


class AnthropicService(Service):
    """``POST /v1/messages`` with ``model``, ``max_tokens``, ``messages`` and ``"stream": true``."""

    contract = "anthropic-messages"
    path = "/v1/messages"
    content_type = "text/event-stream; charset=utf-8"

    def accept(self, request: Request, fault_name: str, resumable: bool) -> Call | Plan:
        if request.path != self.path:
            return _anthropic_error(404, "not_found_error", "Not Found")
        if request.method != "POST":
            return _anthropic_error(405, "invalid_request_error", "Method Not Allowed")
        body = _json_object(request)
        if isinstance(body, str):
            return _anthropic_error(
                400, "invalid_request_error", f"There was an issue with your request: {body}"
            )
        for name in ("model", "max_tokens", "messages"):
            if name not in body:
                return _anthropic_error(400, "invalid_request_error", f"{name}: Field required")
        if body.get("stream") is not True:
            return _anthropic_error(
                400, "invalid_request_error", 'stream: this fault streams, send "stream": true'
            )
        return Call(request, body)


# --- Gemini ---------------------------------------------------------------------------------------------

#: Gemini's query value (``?alt=sse``) that asks for an event stream: a URL parameter's value, not the
#: name of a framing.
_ALT_EVENT_STREAM = "sse"
_GEMINI_PATH = re.compile(r"/v1(?:beta)?/models/[A-Za-z0-9._-]{1,100}:streamGenerateContent")


def _gemini_error(code: int, status: str, message: str) -> Plan:
    return json_plan(code, {"error": {"code": code, "message": message, "status": status}})


class GeminiService(Service):
    """``POST /v1beta/models/{model}:streamGenerateContent`` with ``contents``; ``?alt=sse`` for the SSE
    framing (``gemini``), no ``alt`` for the growing JSON array (``gemini-json-array``). A request for the
    other framing is refused: each entry imitates one."""

    def __init__(self, sse: bool) -> None:
        self.sse = sse
        self.contract = "gemini" if sse else "gemini-json-array"
        model_path = "/v1beta/models/gemini-2.5-flash:streamGenerateContent"
        self.path = model_path + "?alt=sse" if sse else model_path
        self.content_type = "text/event-stream" if sse else "application/json; charset=UTF-8"

    def accept(self, request: Request, fault_name: str, resumable: bool) -> Call | Plan:
        if _GEMINI_PATH.fullmatch(request.path) is None or request.method != "POST":
            return _gemini_error(404, "NOT_FOUND", "Method not found.")
        alt = request.query_value("alt")
        if self.sse and alt != _ALT_EVENT_STREAM:
            return _gemini_error(400, "INVALID_ARGUMENT", "This fault streams with alt=sse: add ?alt=sse.")
        if not self.sse and alt not in (None, "json"):
            return _gemini_error(400, "INVALID_ARGUMENT", "This fault streams a JSON array: leave alt out.")
        body = _json_object(request)
        if isinstance(body, str):
            return _gemini_error(400, "INVALID_ARGUMENT", f"Invalid JSON payload received: {body}.")
        contents = body.get("contents")
        if not isinstance(contents, list) or not contents:
            return _gemini_error(
                400, "INVALID_ARGUMENT", "* GenerateContentRequest.contents: contents is not specified\n"
            )
        return Call(request, body)


# --- Ollama ---------------------------------------------------------------------------------------------


class OllamaService(Service):
    """``POST /api/chat`` with ``model``; ``"stream"`` left out or ``true`` (Ollama streams by default)."""

    contract = "ollama"
    path = "/api/chat"
    content_type = "application/x-ndjson"

    def accept(self, request: Request, fault_name: str, resumable: bool) -> Call | Plan:
        if request.path != self.path:
            return _text_plan(404, "404 page not found")
        if request.method != "POST":
            return _text_plan(405, "405 method not allowed")
        body = _json_object(request)
        if isinstance(body, str):
            return json_plan(400, {"error": body})
        model = body.get("model")
        if not isinstance(model, str) or not model:
            return json_plan(400, {"error": "model is required"})
        if body.get("stream", True) is not True:
            return json_plan(400, {"error": 'this fault streams: leave "stream" out or send true'})
        return Call(request, body)


# --- MCP Streamable HTTP --------------------------------------------------------------------------------


def _rpc_error(status: int, code: int, message: str, rpc_id: object = None) -> Plan:
    return json_plan(status, {"jsonrpc": "2.0", "error": {"code": code, "message": message}, "id": rpc_id})


def _not_allowed() -> Plan:
    """405: this endpoint takes POST only (no server-initiated stream to GET, no session to DELETE)."""
    payload = {"jsonrpc": "2.0", "error": {"code": -32000, "message": "Method not allowed."}, "id": None}
    return json_plan(405, payload, (*_JSON, ("Allow", "POST")))


#: A message that is not a request: accepted, nothing to answer.
_ACCEPTED = Plan(202, (), (), framing="length")


def _rpc_result(rpc_id: object, result: Mapping[str, Any]) -> Plan:
    return json_plan(200, {"jsonrpc": "2.0", "id": rpc_id, "result": result})


def _accepts(request: Request, *types: str) -> bool:
    accept = (request.header("accept") or "").lower()
    return all(t in accept for t in types)


class MCPService(Service):
    """MCP Streamable HTTP at ``/mcp`` (see the module docstring). A resumable fault also answers ``GET``
    with a ``Last-Event-ID`` its stream sent: the rest of the answer, from the event after it."""

    contract = "mcp"
    path = "/mcp"
    content_type = "text/event-stream"

    def accept(self, request: Request, fault_name: str, resumable: bool) -> Call | Plan:
        if request.path != self.path:
            return _rpc_error(404, -32000, "Not Found")
        version = request.header("mcp-protocol-version")
        if version is not None and version.strip() not in MCP_PROTOCOL_VERSIONS:
            return _rpc_error(400, -32000, "Bad Request: Unsupported protocol version")
        if request.method == "GET":
            return self._resume(request, resumable)
        if request.method != "POST":
            return _not_allowed()
        if not _accepts(request, "application/json", "text/event-stream"):
            return _rpc_error(
                406, -32000, "Not Acceptable: Client must accept both application/json and text/event-stream"
            )
        content_type = (request.header("content-type") or "").lower()
        if not content_type.startswith("application/json"):
            return _rpc_error(415, -32000, "Unsupported Media Type: Content-Type must be application/json")
        try:
            message = json.loads(request.body)
        except (ValueError, RecursionError):
            return _rpc_error(400, -32700, "Parse error")
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            return _rpc_error(400, -32600, "Invalid Request")
        return self._message(request, message)

    def _message(self, request: Request, message: dict[str, Any]) -> Call | Plan:
        method = message.get("method")
        if not isinstance(method, str):
            if "result" in message or "error" in message:  # a response to a request of ours
                return _ACCEPTED
            return _rpc_error(400, -32600, "Invalid Request")
        if "id" not in message:  # a notification
            return _ACCEPTED
        rpc_id = message["id"]
        if not _valid_rpc_id(rpc_id):
            return _rpc_error(400, -32600, "Invalid Request: the id must be a string or an integer, short")
        params = message.get("params")
        if method == "initialize":
            asked = params.get("protocolVersion") if isinstance(params, dict) else None
            version = asked if asked in MCP_PROTOCOL_VERSIONS else MCP_PROTOCOL_VERSIONS[1]
            return _rpc_result(
                rpc_id,
                {
                    "protocolVersion": version,
                    "capabilities": {"tools": {"listChanged": False}},
                    "serverInfo": {"name": "boundary-lab-faults", "version": "1.0"},
                },
            )
        if method == "ping":
            return _rpc_result(rpc_id, {})
        if method == "tools/list":
            tool = {
                "name": MCP_TOOL,
                "description": "Streams this fault's answer.",
                "inputSchema": {"type": "object", "properties": {}},
            }
            return _rpc_result(rpc_id, {"tools": [tool]})
        if method != "tools/call":
            return _rpc_error(200, -32601, "Method not found", rpc_id)
        if not isinstance(params, dict) or params.get("name") != MCP_TOOL:
            return _rpc_error(200, -32602, f"Unknown tool: the one tool is {MCP_TOOL!r}", rpc_id)
        return Call(request, message, request_id=rpc_id)

    def _resume(self, request: Request, resumable: bool) -> Call | Plan:
        last = request.header("last-event-id")
        if last is None or not resumable:
            return _not_allowed()
        if not _accepts(request, "text/event-stream"):
            return _rpc_error(406, -32000, "Not Acceptable: Client must accept text/event-stream")
        parsed = parse_mcp_event_id(last.strip())
        if parsed is None:
            return _rpc_error(400, -32000, "Bad Request: unknown Last-Event-ID")
        number, request_id = parsed
        return Call(request, request_id=request_id, resume_after=number)


#: One service per contract, keyed by the contract's name.
SERVICES: dict[str, Service] = {
    service.contract: service
    for service in (
        OpenAIChatService(),
        OpenAIResponsesService(),
        AnthropicService(),
        GeminiService(sse=True),
        GeminiService(sse=False),
        OllamaService(),
        MCPService(),
    )
}
