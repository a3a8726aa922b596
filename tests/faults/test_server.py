"""The fault server on a real socket: each plan carried out exactly (status, headers in order, one chunk per
Send, the end), a client that leaves, concurrency without mixing, and every bad request answered with a
JSON error while the server goes on.

The assertions are about bytes and their order, not durations: a pause is asserted only to separate two
reads (a loopback client blocked in ``recv`` gets a chunk as soon as it is flushed).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import socket
import threading

import pytest

from lesson_lib.faults import CATALOGUE, Pause, Plan, PlanError, Send
from lesson_lib.faults.http1 import differences, encode_request, fetch, parse_response
from lesson_lib.faults.server import FaultServer, host_warning

from .helpers import PlanFault, exchange, first_request, get, post

SSE = (("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-cache"))
EVENTS = [b'data: {"n":1}\n\n', b'data: {"n":2}\n', b"\ndata: [DONE]\n\n"]


def _plan(end: str = "clean", framing: str = "chunked", pause: float = 0.2, **extra: object) -> Plan:
    steps: list[Send | Pause] = []
    for piece in EVENTS:
        if steps:
            steps.append(Pause(pause))
        steps.append(Send(piece))
    return Plan(200, SSE, tuple(steps), framing=framing, end=end, **extra)  # type: ignore[arg-type]


PLANS = {
    "chunked-clean": _plan(),
    "chunked-no-terminator": _plan("no_terminator"),
    "chunked-reset": _plan("reset"),
    "length-clean": _plan(framing="length"),
    "length-short": _plan("no_terminator", "length", declared_length=len(b"".join(EVENTS)) + 10),
    "length-reset": _plan("reset", "length"),
    "status-503-json": Plan(
        503, (("Content-Type", "application/json"),), (Send(b'{"error":"busy"}'),), "length"
    ),
}


@pytest.fixture
def plan_server():
    faults = [PlanFault(name, plan) for name, plan in PLANS.items()]
    with FaultServer(faults=faults, max_lifetime=300) as running:
        yield running
    assert running.open_connections == 0


def _read_until(sock: socket.socket, marker: bytes) -> bytes:
    """Read until ``marker`` has arrived (or the server ends the connection)."""
    data = b""
    while marker not in data:
        piece = sock.recv(65536)
        if not piece:
            break
        data += piece
    return data


def _stream(port: int, name: str) -> bytes:
    return encode_request("POST", f"/faults/{name}/stream", f"127.0.0.1:{port}", body=b'{"stream": true}')


@pytest.mark.parametrize("name", list(PLANS))
def test_each_plan_is_carried_out_exactly(plan_server: FaultServer, name: str) -> None:
    got = exchange(plan_server.port, _stream(plan_server.port, name))
    received = got.response
    assert differences(PLANS[name], received) == []
    # the head: the status line, the plan's headers in order, then the server's two
    head = got.raw.split(b"\r\n\r\n", 1)[0].decode().split("\r\n")
    assert head[0] == f"HTTP/1.1 {PLANS[name].status} {received.reason}"
    assert [line.split(":", 1)[0] for line in head[1:]][: len(PLANS[name].headers)] == [
        key for key, _ in PLANS[name].headers
    ]
    assert head[-1] == "Connection: close"


def test_one_chunk_per_send_and_a_pause_separates_reads(plan_server: FaultServer) -> None:
    got = exchange(plan_server.port, _stream(plan_server.port, "chunked-clean"))
    assert got.response.chunks == tuple(EVENTS)
    assert got.response.terminated and not got.reset
    assert got.raw.endswith(b"\r\n0\r\n\r\n")
    # No read holds bytes of two Sends that a pause separates: the reads after the head are the chunks.
    body_reads = [read for read in got.reads if b"HTTP/1.1" not in read]
    joined = b"".join(body_reads)
    for piece in EVENTS[1:]:
        framed = b"%x\r\n%s\r\n" % (len(piece), piece)
        assert any(read.startswith(framed) for read in body_reads), (framed, got.reads)
    assert joined.endswith(b"0\r\n\r\n")


def test_no_terminator_ends_after_the_last_chunk_without_the_zero_chunk(plan_server: FaultServer) -> None:
    got = exchange(plan_server.port, _stream(plan_server.port, "chunked-no-terminator"))
    assert got.response.chunks == tuple(EVENTS)
    assert not got.response.terminated and not got.reset
    assert not got.raw.endswith(b"0\r\n\r\n")


def test_reset_delivers_every_byte_then_resets(plan_server: FaultServer) -> None:
    for name in ("chunked-reset", "length-reset"):
        got = exchange(plan_server.port, _stream(plan_server.port, name))
        assert got.reset, name
        assert got.response.body == b"".join(EVENTS)


def test_a_reset_after_a_large_body_comes_after_its_last_byte() -> None:
    """The server resets only once the kernel has sent every byte: megabytes still queued when the last
    write returns arrive whole, then the reset."""
    big = Plan(200, SSE, (Send(b"data: " + b"x" * (3 * 1024 * 1024) + b"\n\n"),), end="reset")
    with FaultServer(faults=[PlanFault("big", big)]) as running:
        got = exchange(running.port, _stream(running.port, "big"))
    assert got.reset and got.response.body == big.body


def test_content_length_bodies_whole_and_short(plan_server: FaultServer) -> None:
    whole = exchange(plan_server.port, _stream(plan_server.port, "length-clean")).response
    assert whole.header("content-length") == str(len(b"".join(EVENTS))) and whole.terminated
    assert whole.header("transfer-encoding") is None
    short = exchange(plan_server.port, _stream(plan_server.port, "length-short")).response
    assert short.header("content-length") == str(len(b"".join(EVENTS)) + 10)
    assert short.body == b"".join(EVENTS) and not short.terminated and not short.reset


def test_every_catalogue_entry_sends_its_plan(server: FaultServer) -> None:
    """The catalogue's own entries, each sent the example request of its contract: the bytes on the wire
    are exactly the plan that ``respond`` makes of the same request."""
    for fault in CATALOGUE:
        raw, request = first_request(fault, server.port)
        plan = fault.respond(request)
        received = exchange(server.port, raw).response
        assert differences(plan, received) == [], fault.name
    assert server.wait_idle()


def test_the_request_reaches_respond_as_the_fault_sees_it() -> None:
    fault = PlanFault("seen", PLANS["chunked-clean"])
    with FaultServer(faults=[fault]) as running:
        target = "/faults/seen/v1/chat/completions?alt=sse&x=1"
        body = b'{"stream": true, "model": "m"}'
        exchange(running.port, encode_request("POST", target, "here", (("X-Mixed-Case", "V"),), body))
    (request,) = fault.seen
    assert (request.method, request.path, request.query, request.body) == (
        "POST",
        "/v1/chat/completions",
        "alt=sse&x=1",
        body,
    )
    assert request.header("x-mixed-case") == "V" and request.header("host") == "here"


def test_a_client_that_leaves_during_a_pause_stops_the_plan() -> None:
    long = Plan(200, SSE, (Send(b"data: 1\n\n"), Pause(25.0), Send(b"data: 2\n\n")))
    with FaultServer(faults=[PlanFault("long", long)]) as running:
        with socket.create_connection(("127.0.0.1", running.port), timeout=10) as sock:
            sock.sendall(_stream(running.port, "long"))
            assert b"data: 1" in _read_until(sock, b"data: 1")
        assert running.wait_idle(timeout=10)  # far less than the 25 s pause: the server noticed
        assert running.counts["clients_gone"] == 1


def test_a_stalled_connection_does_not_hold_up_another() -> None:
    faults = [
        PlanFault("stall", Plan(200, SSE, (Send(b": x\n\n"), Pause(20.0), Send(b"data: 1\n\n")))),
        PlanFault("quick", PLANS["chunked-clean"]),
    ]
    with (
        FaultServer(faults=faults) as running,
        socket.create_connection(("127.0.0.1", running.port), timeout=10) as stalled,
    ):
        stalled.sendall(_stream(running.port, "stall"))
        assert b": x" in _read_until(stalled, b": x")
        quick = exchange(running.port, _stream(running.port, "quick"))
        assert differences(PLANS["chunked-clean"], quick.response) == []


def test_fifty_concurrent_streams_each_get_their_own_plan() -> None:
    """50 streams at once over the catalogue and plans of distinct bodies: each response is its plan's,
    byte for byte and chunk for chunk (no mixing)."""
    own = {
        f"own-{i}": Plan(200, SSE, (Send(b"data: %d\n\n" % i), Pause(0.05), Send(b"data: [DONE]-%d\n\n" % i)))
        for i in range(25)
    }
    faults = [*CATALOGUE, *(PlanFault(name, plan) for name, plan in own.items())]
    with FaultServer(faults=faults) as running:
        jobs: list[tuple[bytes, Plan]] = []
        for i in range(50):
            if i % 2 and CATALOGUE:
                fault = CATALOGUE[i // 2 % len(CATALOGUE)]
                raw, request = first_request(fault, running.port)
                jobs.append((raw, fault.respond(request)))
            else:
                name = f"own-{i // 2 % 25}"
                jobs.append((_stream(running.port, name), own[name]))

        async def run_all() -> list[tuple[bytes, bool]]:
            async with asyncio.timeout(60):
                return await asyncio.gather(*(fetch("127.0.0.1", running.port, raw) for raw, _ in jobs))

        results = asyncio.run(run_all())
        for (_, plan), (data, reset) in zip(jobs, results, strict=True):
            assert differences(plan, parse_response(data, reset=reset)) == []
        assert running.wait_idle()
        assert running.counts["opened"] == running.counts["closed"] == 50


# -- bad requests: a JSON error each, and the server goes on ---------------------------------------------
def _error(received) -> dict:
    assert received.header("content-type") == "application/json"
    return json.loads(received.body)["error"]


def test_unknown_fault_and_unknown_route_are_404(server: FaultServer) -> None:
    fault = get(server.port, "/faults/no-such-fault/v1/chat/completions")
    assert fault.status == 404 and "no-such-fault" in _error(fault)["message"]
    route = get(server.port, "/nothing/here")
    assert route.status == 404 and "/nothing/here" in _error(route)["message"]
    assert get(server.port, "/faults/").status == 200  # the catalogue, with or without its slash


def test_wrong_methods_are_405_with_allow(server: FaultServer) -> None:
    for target, allowed in (("/faults", "GET"), ("/scoreboard", "GET"), ("/", "GET")):
        got = post(server.port, target, b"{}")
        assert got.status == 405 and got.header("allow") == allowed and _error(got)["status"] == 405
    name = CATALOGUE[0].name
    verdict = get(server.port, f"/faults/{name}/verdict")
    assert verdict.status == 405 and verdict.header("allow") == "POST"


def test_an_oversized_body_is_413_declared_or_sent() -> None:
    with FaultServer(max_body_bytes=1000) as running:
        name = CATALOGUE[0].name
        head = b"POST /faults/%s/verdict HTTP/1.1\r\nHost: x\r\n" % name.encode()
        declared = exchange(running.port, head + b"Content-Length: 5000\r\n\r\n").response
        assert declared.status == 413 and "1000 bytes" in _error(declared)["message"]
        big = b"x" * 3000
        chunked = head + b"Transfer-Encoding: chunked\r\n\r\n"
        chunked += b"%x\r\n%s\r\n0\r\n\r\n" % (len(big), big)
        sent = exchange(running.port, chunked).response
        assert sent.status == 413
    # the default bound is 1 MiB
    assert FaultServer().max_body_bytes == 1024 * 1024


def test_oversized_headers_are_431(server: FaultServer) -> None:
    huge = b"GET /faults HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 40_000 + b"\r\n\r\n"
    got = exchange(server.port, huge).response
    assert got.status == 431 and "head" in _error(got)["message"]


@pytest.mark.parametrize(
    "raw",
    [
        b"HELLO\r\n\r\n",
        b"GET /faults HTTP/1.1\r\nno colon here\r\n\r\n",
        b"GET /faults HTTP/1.1\r\nHost: x\r\nContent-Length: nine\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",  # TLS to a plain HTTP port
    ],
)
def test_malformed_http_is_400(server: FaultServer, raw: bytes) -> None:
    got = exchange(server.port, raw).response
    assert got.status == 400 and "malformed" in _error(got)["message"]
    assert get(server.port, "/faults").status == 200


def test_too_many_connections_is_503() -> None:
    with FaultServer(max_connections=2, idle_timeout=30) as running:
        held = [socket.create_connection(("127.0.0.1", running.port), timeout=10) for _ in range(2)]
        try:
            assert _wait(lambda: running.open_connections == 2)
            got = get(running.port, "/faults")
            assert got.status == 503 and "2 connections" in _error(got)["message"]
            assert running.counts["refused"] == 1
        finally:
            for sock in held:
                sock.close()
        assert running.wait_idle()
        assert get(running.port, "/faults").status == 200


def _wait(condition, timeout: float = 5.0) -> bool:
    done = threading.Event()
    for _ in range(int(timeout / 0.02)):
        if condition():
            return True
        done.wait(0.02)
    return condition()


def test_an_idle_connection_is_closed_and_a_slow_head_or_body_is_408() -> None:
    with FaultServer(idle_timeout=0.3, body_timeout=0.3) as running:
        silent = exchange(running.port, b"")
        assert silent.raw == b"" and not silent.reset  # closed, nothing said
        partial = exchange(running.port, b"GET /faults HTTP/1.1\r\nHost: x\r\n").response
        assert partial.status == 408 and "head" in _error(partial)["message"]
        name = CATALOGUE[0].name
        slow = b"POST /faults/%s/verdict HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{" % name.encode()
        body = exchange(running.port, slow).response
        assert body.status == 408 and "body" in _error(body)["message"]
        assert running.wait_idle()


def test_expect_100_continue_gets_continue_then_the_answer(server: FaultServer) -> None:
    name = CATALOGUE[0].name
    body = json.dumps({"client": "c", "outcome": "completed"}).encode()
    head = (
        b"POST /faults/%s/verdict HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: %d\r\n\r\n"
        % (name.encode(), len(body))
    )

    def send_body(sock: socket.socket) -> None:
        assert sock.recv(100) == b"HTTP/1.1 100 Continue\r\n\r\n"
        sock.sendall(body)

    got = exchange(server.port, head, then=send_body).response
    assert got.status == 200 and "right" in json.loads(got.body)


def test_an_exception_in_a_fault_is_a_500_naming_its_type_on_stderr_only(capfd) -> None:
    def boom(request):
        raise RuntimeError("SECRET-CONTENT")

    faults = [
        PlanFault("boom", respond_with=boom),
        PlanFault("unbounded", Plan(200, SSE, (Send(b"x"), Pause(99999.0)))),
        PlanFault("fine", PLANS["chunked-clean"]),
    ]
    with FaultServer(faults=faults) as running:
        for name in ("boom", "unbounded"):
            got = exchange(running.port, _stream(running.port, name)).response
            assert got.status == 500 and "internal error" in _error(got)["message"]
            assert "SECRET" not in got.body.decode() and "RuntimeError" not in got.body.decode()
        fine = exchange(running.port, _stream(running.port, "fine")).response
        assert differences(PLANS["chunked-clean"], fine) == []
        assert running.counts["internal_errors"] == 2
    err = capfd.readouterr().err
    assert "(RuntimeError)" in err and f"({PlanError.__name__})" in err
    assert "SECRET" not in err
    assert len(err.strip().splitlines()) == 2


def test_the_host_warning_is_for_other_addresses_only() -> None:
    for loopback in ("127.0.0.1", "127.0.0.2", "::1", "localhost"):
        assert host_warning(loopback) is None
    for other in ("0.0.0.0", "192.168.1.2", "::", "example.org"):
        warning = host_warning(other)
        assert warning is not None and other in warning and "\n" not in warning


def test_bad_arguments_fail_before_any_socket() -> None:
    for kwargs in ({"port": 70000}, {"port": -1}, {"idle_timeout": 0}, {"max_connections": 0}, {"host": ""}):
        with pytest.raises((ValueError, TypeError)):
            FaultServer(**kwargs)  # type: ignore[arg-type]


def test_a_taken_port_raises_at_start_and_stop_ends_every_connection() -> None:
    with FaultServer() as first:
        with pytest.raises(OSError):
            FaultServer(port=first.port).start()
        long = Plan(200, SSE, (Send(b"data: 1\n\n"), Pause(25.0)))
    with FaultServer(faults=[PlanFault("long", long)]) as running:
        sockets = []
        for _ in range(3):
            sock = socket.create_connection(("127.0.0.1", running.port), timeout=10)
            sock.sendall(_stream(running.port, "long"))
            assert b"data: 1" in _read_until(sock, b"data: 1")
            sockets.append(sock)
        running.stop()
        assert not running.running and running.open_connections == 0
        for sock in sockets:  # each client sees its connection end, its body cut (no zero chunk)
            sock.settimeout(5)
            rest = b""
            with contextlib.suppress(ConnectionResetError):
                while piece := sock.recv(65536):
                    rest += piece
            assert not rest.endswith(b"0\r\n\r\n")
            sock.close()


def test_the_access_log_is_counts_and_names_not_content() -> None:
    log = io.StringIO()
    with FaultServer(access_log=log, faults=[PlanFault("p", PLANS["chunked-clean"])]) as running:
        exchange(running.port, _stream(running.port, "p"))
        body = json.dumps({"client": "c", "outcome": "completed", "text": "SECRET-TEXT"}).encode()
        post(running.port, "/faults/p/verdict", body)
        get(running.port, "/nowhere")
    lines = [line.split() for line in log.getvalue().splitlines()]
    assert [line[:4] for line in lines] == [
        ["POST", "fault", "p", "200"],
        ["POST", "verdict", "p", "200"],
        ["GET", "error", "-", "404"],
    ]
    assert lines[0][4] == str(len(PLANS["chunked-clean"].body)) and all(line[4].isdigit() for line in lines)
    assert "SECRET" not in log.getvalue() and "data:" not in log.getvalue()
    assert FaultServer().access_log is None  # off unless asked for


def test_a_client_that_never_reads_is_let_go_within_the_bounds() -> None:
    """A plan's megabytes to a client that never reads: the server's write waits at most
    ``write_timeout``, its close at most the linger, so the connection ends while the client holds it."""
    big = Plan(200, SSE, (Send(b"x" * (4 * 1024 * 1024 - 10)),))
    with (
        FaultServer(faults=[PlanFault("big", big)], write_timeout=0.5) as running,
        socket.create_connection(("127.0.0.1", running.port), timeout=10) as idle,
    ):
        idle.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        idle.sendall(_stream(running.port, "big"))
        assert _wait(lambda: running.counts["responses"] == 1)
        assert running.wait_idle(timeout=10)
        assert running.counts["closed"] == 1
