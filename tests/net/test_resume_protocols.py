"""Resuming, each protocol its own way: MCP Streamable HTTP (Last-Event-ID), OpenAI Responses in background
mode (starting_after), and Chat Completions (cannot be resumed). Also StreamResult.last_event_id / retry.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import Outcome, aconsume, consume, split_at
from lesson_lib.core.contracts import (
    Heartbeat,
    ServiceError,
    Stage,
    Terminal,
    TextDelta,
    Unknown,
    get_contract,
)
from lesson_lib.core.sse import Event, SSEParser
from lesson_lib.net.http import resume_responses, resume_sse, stream_http
from lesson_lib.net.replay import ReplayServer
from tests.core.test_completion import chat, ollama
from tests.strategies import partitions

ANSWER = "你好，café 🙂 完成"


def mcp_event(message: dict, event_id: str | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return head + f"data: {json.dumps(message, ensure_ascii=False)}\n\n"


def progress(step: int) -> dict:
    params = {"progressToken": "t-1", "progress": step, "total": 3}
    return {"jsonrpc": "2.0", "method": "notifications/progress", "params": params}


def result(request_id, text: str = ANSWER, is_error: bool = False) -> dict:
    content = [{"type": "text", "text": text}, {"type": "image", "data": "AAAA", "mimeType": "image/png"}]
    return {"jsonrpc": "2.0", "id": request_id, "result": {"content": content, "isError": is_error}}


PRIMING = "id: ev-0\nretry: 20\ndata:\n\n"  # an id and an empty data field: nothing to parse
HEAD = PRIMING + mcp_event(progress(1), "ev-1") + mcp_event(progress(2), "ev-2")
MCP_BODY = (HEAD + mcp_event(result(7), "ev-3")).encode("utf-8")
CUT = len(HEAD.encode("utf-8"))  # the server closes here, before the response


# --- the MCP contract ---------------------------------------------------------------------------------------


def test_mcp_completes_on_the_response_with_the_request_id():
    res = consume([MCP_BODY], "mcp", request_id=7)
    assert res.outcome is Outcome.COMPLETED and res.final_text == ANSWER
    assert (res.last_event_id, res.retry) == ("ev-3", 20)
    assert res.stats.stages == 2 and res.stats.heartbeats == 1  # two progress notifications, the priming


def test_the_priming_event_is_never_parsed_as_json():
    contract = get_contract("mcp", request_id=7)
    assert contract.interpret(Event("message", "", "ev-0")) == [Heartbeat("priming")]
    # An id with no data line at all is never dispatched: only the ID is remembered.
    parser = SSEParser()
    assert parser.feed(b"id: ev-9\n\n") == [] and parser.last_event_id == "ev-9"


def test_mcp_signals():
    contract = get_contract("mcp", request_id="req-1")
    assert contract.interpret(Event("message", json.dumps(progress(1)))) == [Stage("progress")]
    assert contract.interpret(Event("message", json.dumps(result(1)))) == [Unknown("other-response")]
    assert contract.interpret(Event("message", json.dumps(result("1")))) == [Unknown("other-response")]
    ping = {"jsonrpc": "2.0", "id": 5, "method": "ping"}
    assert contract.interpret(Event("message", json.dumps(ping))) == [Heartbeat("ping")]
    assert contract.interpret(Event("message", json.dumps(result("req-1")))) == [
        TextDelta(ANSWER),
        Terminal(None, True),
    ]


def test_json_rpc_ids_match_with_their_type():
    for request_id, other in ((1, "1"), ("1", 1), (1, True), (1, 1.0)):
        contract = get_contract("mcp", request_id=request_id)
        assert contract.interpret(Event("message", json.dumps(result(other)))) == [Unknown("other-response")]
        assert contract.counters == {"other_responses": 1}


def test_mcp_errors_protocol_and_tool():
    error = {"jsonrpc": "2.0", "id": 7, "error": {"code": -32602, "message": "Unknown tool: 天气"}}
    res = consume([(HEAD + mcp_event(error, "ev-3")).encode()], "mcp", request_id=7)
    assert res.outcome is Outcome.SERVICE_ERROR
    assert (res.error.error_type, res.error.message) == ("-32602", "Unknown tool: 天气")
    tool = consume([(HEAD + mcp_event(result(7, "API 限流 🙁", True))).encode()], "mcp", request_id=7)
    assert tool.outcome is Outcome.SERVICE_ERROR and tool.error.message == "API 限流 🙁"
    assert get_contract("mcp", request_id=7).interpret(
        Event("message", json.dumps(result(7, "x", True)))
    ) == [ServiceError("tool_error", "x")]


@pytest.mark.parametrize("bad", [None, True, 1.5, ["7"]])
def test_request_id_is_required_by_mcp_and_refused_elsewhere(bad):
    with pytest.raises(ValueError, match="request_id"):
        consume([MCP_BODY], "mcp", request_id=bad)
    with pytest.raises(ValueError, match="request_id is only for the mcp contract"):
        consume([chat("你好")], "openai-chat", request_id=7)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(MCP_BODY)), st.data())
def test_an_eof_after_an_event_id_is_truncated_at_completion_in_every_chunking(cut, draw):
    body = MCP_BODY[:cut]
    chunks = draw.draw(partitions(body))
    res = consume(chunks, "mcp", request_id=7)
    assert asyncio.run(aconsume(_agen(chunks), "mcp", request_id=7)) == res
    whole = consume([body], "mcp", request_id=7)
    verdict = ("outcome", "text", "final_text", "truncated_at", "last_event_id", "retry", "error")
    assert [getattr(res, k) for k in verdict] == [getattr(whole, k) for k in verdict]  # any chunking
    if cut == CUT:
        assert (res.outcome, res.truncated_at, res.last_event_id) == (Outcome.TRUNCATED, "completion", "ev-2")
        assert "Last-Event-ID: ev-2" in res.describe()


async def _agen(chunks):
    for chunk in chunks:
        yield chunk


def test_resume_sse_finishes_an_mcp_stream_with_get_and_last_event_id():
    request = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "weather"}}
    with ReplayServer(MCP_BODY, drop_after=CUT, drop_count=2) as server:
        first = stream_http(server.url, "mcp", json=request, request_id=7)
        assert first.outcome is Outcome.TRUNCATED and first.last_event_id == "ev-2"
        resumed = resume_sse(
            server.url, "mcp", method="POST", json=request, resume_method="GET", request_id=7
        )
        asked = [(r.method, r.last_event_id, r.start) for r in server.requests]
    assert resumed.result.outcome is Outcome.COMPLETED and resumed.result.final_text == ANSWER
    assert [a.sent_id for a in resumed.attempts] == [None, "ev-2"]
    assert asked == [("POST", None, 0), ("POST", None, 0), ("GET", "ev-2", CUT)]


# --- last_event_id and retry on every SSE contract --------------------------------------------------


def test_last_event_id_and_retry_are_reported_for_sse_only():
    body = b"retry: 1500\nid: \xe4\xbd\xa0-1\n" + chat("你好")
    res = consume(split_at(body, [3, 17]), "openai-chat")
    assert (res.last_event_id, res.retry) == ("你-1", 1500)
    assert (
        consume([chat("你好")], "openai-chat").last_event_id,
        consume([chat("x")], "openai-chat").retry,
    ) == (
        "",
        None,
    )
    assert (consume([ollama("你好")], "ollama").last_event_id, consume([ollama("x")], "ollama").retry) == (
        "",
        None,
    )


# --- OpenAI Responses, background mode: starting_after --------------------------------------------------


def responses_event(kind: str, number: int, **fields) -> str:
    payload = {"type": kind, "sequence_number": number, **fields}
    return f"event: {kind}\ndata: {json.dumps(payload, ensure_ascii=False)}\n\n"


PIECES = ["你好", "，café", " 🙂", " 完成"]
RESPONSES_EVENTS = [
    responses_event("response.created", 0, response={"id": "resp_1", "status": "in_progress"}),
    responses_event("response.in_progress", 1),
    *(responses_event("response.output_text.delta", 2 + i, delta=p) for i, p in enumerate(PIECES)),
    responses_event("response.completed", 2 + len(PIECES), response={"id": "resp_1", "status": "completed"}),
]
RESPONSES_BODY = "".join(RESPONSES_EVENTS).encode("utf-8")
LAST = 2 + len(PIECES)


def numbers(events) -> list[int]:
    return [json.loads(e.data)["sequence_number"] for e in events]


def test_replay_server_serves_starting_after_for_every_n():
    import httpx

    with ReplayServer(RESPONSES_BODY) as server:
        for after in range(-1, LAST + 1):
            body = httpx.get(f"{server.url}/v1/responses/resp_1?stream=true&starting_after={after}").content
            parser = SSEParser()
            events = parser.feed(body) + parser.close()
            assert numbers(events) == list(range(after + 1, LAST + 1))
        assert server.requests[0].starting_after == -1


def boundaries() -> list[int]:
    offsets, total = [], 0
    for event in RESPONSES_EVENTS:
        total += len(event.encode("utf-8"))
        offsets.append(total)
    return offsets


@pytest.mark.parametrize("drop", sorted({*boundaries()[:-1], *(b + 9 for b in boundaries()[:-1])}))
def test_a_resumed_responses_stream_is_completed_with_no_event_duplicated_or_skipped(drop):
    with ReplayServer(RESPONSES_BODY, drop_after=drop, drop_count=1) as server:
        resumed = resume_responses(f"{server.url}/v1/responses", json={"background": True, "stream": True})
        asked = server.requests
    assert numbers(resumed.events) == list(range(LAST + 1))
    assert resumed.result.outcome is Outcome.COMPLETED and resumed.result.final_text == "".join(PIECES)
    assert resumed.result.stats.contract.get("sequence_not_increasing", 0) == 0
    assert [r.method for r in asked] == ["POST", "GET"]
    assert asked[1].path.startswith("/v1/responses/resp_1?stream=true&starting_after=")


def test_a_drop_before_the_first_complete_event_leaves_nothing_to_resume_from():
    with ReplayServer(RESPONSES_BODY, drop_after=40, drop_count=1) as server:
        resumed = resume_responses(server.url, json={"background": True, "stream": True})
        assert len(server.requests) == 1
    assert resumed.stopped == "no sequence number to resume from"
    assert resumed.result.outcome is Outcome.TRUNCATED


def test_chat_completions_cannot_be_resumed():
    body = chat(*PIECES)
    with ReplayServer(body, drop_after=len(body) // 2, drop_count=1) as server:
        resumed = resume_sse(server.url, "openai-chat", method="POST")
        assert len(server.requests) == 1  # nothing to resume from: no second request is sent
    assert resumed.stopped == "no event ID to resume from"
    assert resumed.result.outcome is Outcome.TRUNCATED
