"""The wire format of a plan, for every plan: what the server writes parses back to the plan (offline and
through a real socket, hypothesis-chosen plans), ``differences`` sees each kind of departure, and
``check_plan`` bounds ``declared_length``."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lesson_lib.faults import Pause, Plan, PlanError, Send, check_plan
from lesson_lib.faults.http1 import (
    LAST_CHUNK,
    chunk,
    differences,
    encode_request,
    parse_response,
    response_head,
)
from lesson_lib.faults.server import FaultServer

from .helpers import PlanFault, exchange

HEADERS = st.lists(
    st.tuples(
        st.text("abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=12).filter(
            lambda n: n.lower() not in ("transfer-encoding", "content-length", "connection")
        ),
        st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=20).map(str.strip),
    ),
    max_size=4,
).map(tuple)
PIECES = st.lists(st.binary(min_size=1, max_size=300), min_size=1, max_size=8)


@st.composite
def plans(draw: st.DrawFn, pauses: bool = False) -> Plan:
    pieces = draw(PIECES)
    steps: list[Send | Pause] = []
    for piece in pieces:
        if steps and pauses and draw(st.booleans()):
            steps.append(Pause(0.001))
        steps.append(Send(piece))
    framing = draw(st.sampled_from(["chunked", "length"]))
    end = draw(st.sampled_from(["clean", "no_terminator", "reset"]))
    declared = None
    if framing == "length" and end != "clean" and draw(st.booleans()):
        declared = sum(map(len, pieces)) + draw(st.integers(1, 1000))
    status = draw(st.sampled_from([200, 200, 400, 404, 429, 500, 503, 529]))
    return check_plan(Plan(status, draw(HEADERS), tuple(steps), framing, end, declared))  # type: ignore[arg-type]


def encoded(plan: Plan) -> bytes:
    """What the server writes for ``plan``, offline."""
    body = b"".join(chunk(p) if plan.framing == "chunked" else p for p in plan.pieces)
    last = LAST_CHUNK if plan.framing == "chunked" and plan.end == "clean" else b""
    return response_head(plan) + body + last


@given(plans())
def test_the_encoding_parses_back_to_the_plan(plan: Plan) -> None:
    assert differences(plan, parse_response(encoded(plan), reset=plan.end == "reset")) == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plans(pauses=True))
def test_every_plan_goes_through_the_server_exactly(plan: Plan) -> None:
    with FaultServer(faults=[PlanFault("p", plan)], max_lifetime=60) as server:
        got = exchange(server.port, encode_request("POST", "/faults/p/x", "h", body=b"{}"))
        assert got.raw == encoded(plan)
        assert differences(plan, got.response) == []


def test_differences_names_each_departure() -> None:
    plan = Plan(200, (("Content-Type", "text/event-stream"),), (Send(b"ab"), Send(b"cd")))
    good = parse_response(encoded(plan))
    assert differences(plan, good) == []
    joined = parse_response(response_head(plan) + chunk(b"abcd") + LAST_CHUNK)
    assert differences(plan, joined) == ["1 chunks, planned 2 (one per Send)"]
    cut = parse_response(response_head(plan) + chunk(b"ab") + chunk(b"cd"))
    assert differences(plan, cut) == ["terminated=False for end='clean'"]
    reset = parse_response(encoded(plan), reset=True)
    assert differences(plan, reset) == ["reset=True for end='clean'"]
    other = Plan(201, (("Content-Type", "text/plain"),), plan.steps)
    assert len(differences(other, good)) == 2  # the status and the headers
    extra = parse_response(encoded(plan) + b"junk")
    assert differences(plan, extra) == ["4 bytes after the body's end"]


def test_a_cut_inside_a_chunk_keeps_what_came() -> None:
    plan = Plan(200, (), (Send(b"hello"), Send(b"world")))
    raw = encoded(plan)
    cut = parse_response(raw[: raw.index(b"world") + 2])
    assert cut.chunks == (b"hello", b"wo") and not cut.terminated
    with pytest.raises(ValueError):
        parse_response(b"HTTP/1.1 200 OK\r\nno end of head")
    with pytest.raises(ValueError):
        parse_response(b"SMTP 220 hi\r\n\r\n")


def test_check_plan_bounds_declared_length() -> None:
    body = (Send(b"abc"),)
    assert (
        check_plan(Plan(200, (), body, "length", "no_terminator", declared_length=10)).declared_length == 10
    )
    assert check_plan(Plan(200, (), body, "length", "clean", declared_length=3)).declared_length == 3
    for bad in (
        Plan(200, (), body, "chunked", "no_terminator", declared_length=10),  # not a Content-Length body
        Plan(
            200, (), body, "length", "clean", declared_length=10
        ),  # a clean end would leave the client waiting
        Plan(200, (), body, "length", "reset", declared_length=2),  # shorter than the body
        Plan(200, (), body, "length", "reset", declared_length=True),  # type: ignore[arg-type]
    ):
        with pytest.raises(PlanError):
            check_plan(bad)
    head = response_head(Plan(200, (("A", "1"),), body, "length", "no_terminator", declared_length=10))
    assert head == b"HTTP/1.1 200 OK\r\nA: 1\r\nContent-Length: 10\r\nConnection: close\r\n\r\n"
