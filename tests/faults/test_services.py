"""Each imitated service's front door: what it accepts, and the requests it refuses with its own error, in its
own status and JSON shape (lesson_lib.faults.services). And no request, however malformed, makes a fault
raise: every answer is a plan the server may carry out."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib.faults import CATALOGUE, Plan, Request, check_plan, get_fault
from lesson_lib.faults.services import MCP_PROTOCOL_VERSIONS, mcp_event_id, parse_mcp_event_id, responses_id
from tests.faults.catalogue_support import MCP_HEADERS, body_of, proper

JSON = (("content-type", "application/json"),)
CONTROLS = {fault.contract: fault for fault in CATALOGUE if fault.name.endswith("-control")}


def payload(plan: Plan) -> object:
    assert plan.framing == "length" and dict(plan.headers)["Content-Type"] == "application/json"
    return json.loads(plan.body)


def refused(
    contract: str,
    *,
    method: str = "POST",
    path: str | None = None,
    query: str | None = None,
    headers=None,
    body: bytes | None = None,
    **fields: object,
) -> Plan:
    """The control fault of ``contract``'s answer to a proper request changed as given."""
    fault = CONTROLS[contract]
    good = proper(fault, **fields)
    request = Request(
        method,
        good.path if path is None else path,
        good.query if query is None else query,
        good.headers if headers is None else headers,
        good.body if body is None else body,
    )
    return fault.respond(request)


def without(contract: str, name: str) -> bytes:
    body = body_of(contract)
    del body[name]
    return json.dumps(body).encode()


# --- OpenAI -----------------------------------------------------------------------------------------------


def openai_error(plan: Plan, status: int) -> dict:
    assert plan.status == status
    error = payload(plan)["error"]
    assert set(error) == {"message", "type", "param", "code"} and error["type"] == "invalid_request_error"
    return error


@pytest.mark.parametrize("contract", ["openai-chat", "openai-responses"])
def test_openai_refusals(contract):
    error = openai_error(refused(contract, path="/v1/nope"), 404)
    assert error["message"] == "Invalid URL (POST /v1/nope)"
    error = openai_error(refused(contract, method="GET"), 404)
    assert error["message"].startswith("Invalid URL (GET /v1/")
    assert "parse the JSON" in openai_error(refused(contract, body=b"{not json"), 400)["message"]
    assert "parse the JSON" in openai_error(refused(contract, body=b"[1, 2]"), 400)["message"]
    assert openai_error(refused(contract, body=without(contract, "model")), 400)["message"].startswith(
        "you must"
    )
    assert openai_error(refused(contract, stream=False), 400)["param"] == "stream"
    assert openai_error(refused(contract, body=without(contract, "stream")), 400)["param"] == "stream"
    required = "messages" if contract == "openai-chat" else "input"
    error = openai_error(refused(contract, body=without(contract, required)), 400)
    assert (error["param"], error["code"]) == (required, "missing_required_parameter")


def test_responses_resuming_requests():
    fault = get_fault("openai-responses-resumable-drop")
    background = responses_id(fault.name, True)
    get = lambda path, query="stream=true": fault.respond(Request("GET", path, query, (), b""))  # noqa: E731
    assert get(f"/v1/responses/{background}").status == 200
    assert get(f"/v1/responses/{background}", "stream=true&starting_after=3").status == 200
    assert (
        "not found" in openai_error(get(f"/v1/responses/{responses_id(fault.name, False)}"), 404)["message"]
    )
    assert "not found" in openai_error(get("/v1/responses/resp_0123"), 404)["message"]
    assert openai_error(get(f"/v1/responses/{background}", ""), 400)["param"] == "stream"
    for bad in ("-1", "x", "1.5", "9" * 12, "٣"):
        error = openai_error(get(f"/v1/responses/{background}", f"stream=true&starting_after={bad}"), 400)
        assert error["param"] == "starting_after"
    assert openai_error(get("/v1/responses/not an id"), 404)["message"].startswith("Invalid URL")


def test_a_long_path_is_echoed_bounded():
    error = openai_error(refused("openai-chat", path="/v1/" + "x" * 5000), 404)
    assert len(error["message"]) < 250


# --- Anthropic --------------------------------------------------------------------------------------------


def anthropic_error(plan: Plan, status: int, kind: str) -> str:
    assert plan.status == status
    body = payload(plan)
    assert body["type"] == "error" and set(body["error"]) == {"type", "message"} and "request_id" in body
    assert body["error"]["type"] == kind
    return body["error"]["message"]


def test_anthropic_refusals():
    anthropic_error(refused("anthropic-messages", path="/v1/complete"), 404, "not_found_error")
    anthropic_error(refused("anthropic-messages", method="PUT"), 405, "invalid_request_error")
    anthropic_error(refused("anthropic-messages", body=b"\xff\xfe"), 400, "invalid_request_error")
    for name in ("model", "max_tokens", "messages"):
        message = anthropic_error(
            refused("anthropic-messages", body=without("anthropic-messages", name)),
            400,
            "invalid_request_error",
        )
        assert message == f"{name}: Field required"
    assert "stream" in anthropic_error(
        refused("anthropic-messages", stream=False), 400, "invalid_request_error"
    )


# --- Gemini -------------------------------------------------------------------------------------------------


def gemini_error(plan: Plan, status: str) -> str:
    body = payload(plan)
    assert set(body["error"]) == {"code", "message", "status"}
    assert body["error"]["code"] == plan.status and body["error"]["status"] == status
    return body["error"]["message"]


@pytest.mark.parametrize("contract", ["gemini", "gemini-json-array"])
def test_gemini_refusals(contract):
    gemini_error(refused(contract, path="/v1beta/models/x:generateContent"), "NOT_FOUND")
    gemini_error(refused(contract, method="GET"), "NOT_FOUND")
    gemini_error(refused(contract, body=b"{"), "INVALID_ARGUMENT")
    assert "contents" in gemini_error(refused(contract, body=b"{}"), "INVALID_ARGUMENT")
    assert "contents" in gemini_error(refused(contract, contents=[]), "INVALID_ARGUMENT")
    other = "" if contract == "gemini" else "alt=sse"
    assert "alt" in gemini_error(refused(contract, query=other), "INVALID_ARGUMENT")


def test_gemini_takes_any_model_and_both_api_versions():
    fault = CONTROLS["gemini"]
    for path in (
        "/v1beta/models/gemini-2.0-flash-001:streamGenerateContent",
        "/v1/models/m:streamGenerateContent",
    ):
        assert fault.respond(Request("POST", path, "alt=sse&key=k", (), proper(fault).body)).status == 200


# --- Ollama -------------------------------------------------------------------------------------------------


def test_ollama_refusals():
    plan = refused("ollama", path="/api/generate")
    assert (plan.status, plan.body, dict(plan.headers)["Content-Type"]) == (
        404,
        b"404 page not found",
        "text/plain",
    )
    assert refused("ollama", method="GET").status == 405
    assert payload(refused("ollama", body=without("ollama", "model"))) == {"error": "model is required"}
    plan = refused("ollama", stream=False)
    assert plan.status == 400 and "stream" in payload(plan)["error"]
    assert refused("ollama", stream=True).status == 200  # Ollama streams by default; true is the default
    assert set(payload(refused("ollama", body=b""))) == {"error"}


# --- MCP Streamable HTTP ----------------------------------------------------------------------------------


def rpc(message: dict, *, method: str = "POST", headers=MCP_HEADERS, fault: str = "mcp-control") -> Plan:
    return get_fault(fault).respond(Request(method, "/mcp", "", headers, json.dumps(message).encode()))


def rpc_error(plan: Plan, status: int, code: int) -> str:
    assert plan.status == status
    body = payload(plan)
    assert body["jsonrpc"] == "2.0" and "id" in body and set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == code
    return body["error"]["message"]


def test_mcp_initialize_list_ping_and_notifications():
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t"}},
    }
    result = payload(rpc(init))["result"]
    assert result["protocolVersion"] == "2025-06-18" and "tools" in result["capabilities"]
    init["params"]["protocolVersion"] = "1999-01-01"  # unknown: the server answers with one it speaks
    assert payload(rpc(init))["result"]["protocolVersion"] in MCP_PROTOCOL_VERSIONS
    tools = payload(rpc({"jsonrpc": "2.0", "id": "l", "method": "tools/list"}))
    assert tools["id"] == "l" and [t["name"] for t in tools["result"]["tools"]] == ["answer"]
    assert payload(rpc({"jsonrpc": "2.0", "id": 2, "method": "ping"}))["result"] == {}
    for message in (
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 9, "result": {}},
    ):
        plan = rpc(message)
        assert (plan.status, plan.body, plan.framing) == (202, b"", "length")


def test_mcp_refusals():
    call = body_of("mcp")
    assert "Not Acceptable" in rpc_error(
        rpc(call, headers=(("content-type", "application/json"),)), 406, -32000
    )
    only_json = (("accept", "application/json"), ("content-type", "application/json"))
    rpc_error(rpc(call, headers=only_json), 406, -32000)
    rpc_error(rpc(call, headers=(("accept", "application/json, text/event-stream"),)), 415, -32000)
    rpc_error(rpc(call, headers=(*MCP_HEADERS, ("mcp-protocol-version", "2024-01-01"))), 400, -32000)
    assert rpc(call, headers=(*MCP_HEADERS, ("mcp-protocol-version", "2025-06-18"))).status == 200
    bad_json = get_fault("mcp-control").respond(Request("POST", "/mcp", "", MCP_HEADERS, b"{"))
    rpc_error(bad_json, 400, -32700)
    rpc_error(rpc([call]), 400, -32600)  # a batch: the 2025-06-18 revision has none
    rpc_error(rpc({"id": 1, "method": "tools/call"}), 400, -32600)  # no "jsonrpc": "2.0"
    rpc_error(rpc({"jsonrpc": "2.0", "id": True, "method": "tools/call"}), 400, -32600)
    rpc_error(rpc({"jsonrpc": "2.0", "id": "x" * 100, "method": "tools/call"}), 400, -32600)
    rpc_error(rpc({"jsonrpc": "2.0", "id": 1}), 400, -32600)
    rpc_error(rpc({"jsonrpc": "2.0", "id": 1, "method": "resources/list"}), 200, -32601)
    rpc_error(
        rpc({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "other"}}), 200, -32602
    )
    rpc_error(get_fault("mcp-control").respond(Request("POST", "/other", "", MCP_HEADERS, b"")), 404, -32000)
    for method in ("GET", "DELETE"):  # no server-initiated stream here; no session to end
        plan = get_fault("mcp-control").respond(Request(method, "/mcp", "", MCP_HEADERS, b""))
        rpc_error(plan, 405, -32000)
        assert dict(plan.headers)["Allow"] == "POST"


def test_mcp_resuming_requests():
    fault = "mcp-resumable-close-before-response"
    get = lambda *headers: get_fault(fault).respond(Request("GET", "/mcp", "", headers, b""))  # noqa: E731
    accept = ("accept", "text/event-stream")
    assert get(accept, ("last-event-id", mcp_event_id(2, 7))).status == 200
    assert get(accept).status == 405
    rpc_error(get(("accept", "application/json"), ("last-event-id", mcp_event_id(2, 7))), 406, -32000)
    for bad in ("x", "2", "2/", "2/true", "2/[1]", "-1/7", "99999999/7", "2/" + json.dumps("y" * 80)):
        rpc_error(get(accept, ("last-event-id", bad)), 400, -32000)


@pytest.mark.parametrize("request_id", [0, 7, -3, "a", "中文 id", 'quote"d', "\u2028"])
def test_mcp_event_ids_round_trip(request_id):
    event_id = mcp_event_id(12, request_id)
    assert event_id.isascii() and "\n" not in event_id and "\r" not in event_id
    assert parse_mcp_event_id(event_id) == (12, request_id)


def test_the_mcp_answer_carries_the_request_id_with_its_type():
    fault = get_fault("mcp-control")
    for request_id in ("7", 7):
        plan = fault.respond(proper(fault, id=request_id))
        last = json.loads(plan.pieces[-1].split(b"data: ", 1)[1])
        assert last["id"] == request_id and type(last["id"]) is type(request_id)


# --- nothing raises -----------------------------------------------------------------------------------------

ONE_PER_SERVICE = [
    *CONTROLS.values(),
    get_fault("openai-responses-resumable-drop"),
    get_fault("mcp-resumable-reset-mid-response"),
]
header_names = st.sampled_from(
    ["accept", "content-type", "last-event-id", "mcp-protocol-version", "x-api-key"]
)
requests = st.builds(
    Request,
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "post", ""]),
    path=st.sampled_from(
        ["/v1/chat/completions", "/v1/responses", "/v1/messages", "/api/chat", "/mcp", "/", ""]
    )
    | st.text(max_size=40).map(lambda s: "/v1/responses/" + s)
    | st.text(max_size=40),
    query=st.text(max_size=40) | st.sampled_from(["alt=sse", "stream=true&starting_after=2", "stream=true"]),
    headers=st.lists(st.tuples(header_names, st.text(max_size=60)), max_size=4).map(tuple),
    body=st.binary(max_size=200)
    | st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=12,
    ).map(lambda v: json.dumps(v).encode()),
)


@settings(max_examples=300, deadline=None)
@given(fault=st.sampled_from(ONE_PER_SERVICE), request=requests)
def test_no_request_makes_a_fault_raise(fault, request):
    plan = fault.respond(request)
    assert check_plan(plan) is plan and 200 <= plan.status <= 599


@settings(max_examples=100, deadline=None)
@given(
    fault=st.sampled_from(ONE_PER_SERVICE),
    body=st.dictionaries(
        st.sampled_from(
            [
                "model",
                "messages",
                "input",
                "max_tokens",
                "contents",
                "stream",
                "background",
                "jsonrpc",
                "id",
                "method",
                "params",
            ]
        ),
        st.none() | st.booleans() | st.integers() | st.text(max_size=5) | st.lists(st.integers()),
        max_size=8,
    ),
)
def test_no_body_shape_makes_a_fault_raise(fault, body):
    good = proper(fault)
    plan = fault.respond(Request("POST", good.path, good.query, good.headers, json.dumps(body).encode()))
    assert check_plan(plan) is plan


def test_a_deeply_nested_body_is_refused_not_raised():
    deep = b"[" * 100_000 + b"]" * 100_000
    for fault in ONE_PER_SERVICE:
        good = proper(fault)
        assert fault.respond(Request("POST", good.path, good.query, good.headers, deep)).status == 400
