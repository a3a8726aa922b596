"""The replay server: loopback only, bounded, exact bytes in the pieces asked for, heartbeats only where
they are harmless, abrupt drops, Last-Event-ID resumption, and honest connection counts."""

from __future__ import annotations

import contextlib
import socket
import time

import httpx
import pytest
from hypothesis import given, settings

from lesson_lib import Comment, Event, parse_sse
from lesson_lib.captures import load, names
from lesson_lib.net.replay import HEARTBEAT, ReplayServer, encode_events
from tests.strategies import sse_streams

BODY = "data: 你好\n\ndata: Ångström\ndata: café 🙂\n\nid: 3\ndata: 完成\n\n".encode()


def fetch(url: str, method: str = "GET", headers: dict | None = None) -> tuple[httpx.Response, list[bytes]]:
    with httpx.Client(trust_env=False) as client, client.stream(method, url, headers=headers) as response:
        return response, list(response.iter_raw())


def boundaries(reads: list[bytes]) -> set[int]:
    ends, position = set(), 0
    for read in reads:
        position += len(read)
        ends.add(position)
    return ends


@pytest.mark.parametrize(
    "host", ["0.0.0.0", "192.168.1.10", "10.0.0.1", "localhost", "::1", "example.com", ""]
)
def test_refuses_anything_but_a_loopback_address(host):
    with pytest.raises(ValueError, match="loopback"):
        ReplayServer(BODY, host=host)


def test_serves_on_loopback_at_a_free_port():
    with ReplayServer(BODY) as first, ReplayServer(BODY) as second:
        assert first.url.startswith("http://127.0.0.1:") and first.port != second.port
        assert fetch(first.url)[1] and fetch(second.url)[1]


@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "BREW"])
def test_any_method_and_path_gets_the_body(method):
    with ReplayServer(BODY) as server:
        response, reads = fetch(server.url + "/v1/chat/completions?x=1", method)
        assert response.status_code == 200
        assert response.headers["content-type"] == "text/event-stream; charset=utf-8"
        assert response.headers["transfer-encoding"] == "chunked"
        assert b"".join(reads) == BODY
        assert server.requests[0].method == method and server.requests[0].path == "/v1/chat/completions?x=1"


def test_head_gets_headers_only():
    with ReplayServer(BODY) as server, httpx.Client(trust_env=False) as client:
        response = client.head(server.url)
        assert response.status_code == 200 and response.content == b""


def test_each_piece_is_flushed_on_its_own():
    cuts = [7, 8, 20, 40]  # 7 and 8 are inside 你
    with ReplayServer(BODY, cuts=cuts, delay=0.01) as server:
        reads = fetch(server.url)[1]
    assert b"".join(reads) == BODY
    assert set(cuts) <= boundaries(reads)  # a read can end at every cut; none spans one


def test_content_type_is_as_given():
    with ReplayServer(b'{"done": true}\n', content_type="application/x-ndjson") as server:
        response, reads = fetch(server.url)
        assert response.headers["content-type"] == "application/x-ndjson" and reads == [b'{"done": true}\n']


def test_heartbeats_only_at_event_boundaries():
    body = BODY
    event_ends = [body.index(b"\n\n", start) + 2 for start in (0, 14)]
    cuts = [3, event_ends[0], event_ends[0] + 5, event_ends[1] - 1, event_ends[1]]
    with ReplayServer(body, cuts=cuts, heartbeat_every=1) as server:
        received = b"".join(fetch(server.url)[1])
    assert server.heartbeats_sent == 2  # after the two cuts at event ends; never inside an event
    assert received.replace(HEARTBEAT, b"") == body
    assert parse_sse([received]) == parse_sse([body])
    assert [i for i in parse_sse([received], comments=True) if isinstance(i, Comment)] == [
        Comment("ping")
    ] * 2


def test_heartbeat_every_counts_pieces():
    body = b"".join(f"data: {i}\n\n".encode() for i in range(6))
    with ReplayServer(body, cuts=range(9, len(body), 9), heartbeat_every=2) as server:
        received = b"".join(fetch(server.url)[1])
    assert server.heartbeats_sent == 2 and received.count(HEARTBEAT) == 2  # after pieces 2 and 4
    assert parse_sse([received]) == parse_sse([body])


def test_why_heartbeats_wait_for_an_event_boundary():
    inside = b"data: a\n" + HEARTBEAT + b"data: b\n\n"  # what a blind injection would do
    assert [e.data for e in parse_sse([inside])] == ["a", "b"]  # one event became two


def test_heartbeats_need_an_event_stream():
    with pytest.raises(ValueError, match="event-stream"):
        ReplayServer(b"{}\n", heartbeat_every=1, content_type="application/x-ndjson")


def test_drop_after_cuts_the_body_without_a_terminating_chunk():
    with ReplayServer(BODY, cuts=[5], drop_after=8) as server, httpx.Client(trust_env=False) as client:
        got = []
        with pytest.raises(httpx.RemoteProtocolError), client.stream("GET", server.url) as response:
            got.extend(response.iter_raw())
        assert b"".join(got) == BODY[:8]


def test_drop_count_limits_the_drops_to_the_first_responses():
    with ReplayServer(BODY, drop_after=10, drop_count=1) as server:
        with pytest.raises(httpx.RemoteProtocolError):
            fetch(server.url)
        assert b"".join(fetch(server.url)[1]) == BODY


def test_last_event_id_resumes_after_that_event():
    events = [Event("message", f"第{i}段 café", str(i)) for i in range(5)]
    body = encode_events(events)
    with ReplayServer(body, cuts=[10, 50]) as server:
        rest = b"".join(fetch(server.url, headers={"Last-Event-ID": "2"})[1])
        whole = b"".join(fetch(server.url, headers={"Last-Event-ID": "nonexistent"})[1])
        starts = [r.start for r in server.requests]
    assert parse_sse([rest]) == events[3:]
    assert whole == body and starts == [len(encode_events(events[:3])), 0]


def test_resumption_after_a_crlf_event_keeps_the_lf_with_its_cr():
    body = b"id: a\r\ndata: 1\r\n\r\nid: b\r\ndata: 2\r\n\r\n"
    with ReplayServer(body) as server:
        rest = b"".join(fetch(server.url, headers={"Last-Event-ID": "a"})[1])
    assert rest == b"id: b\r\ndata: 2\r\n\r\n"


def test_non_ascii_last_event_id():
    events = [Event("message", "x", "第一"), Event("message", "y", "第二")]
    with ReplayServer(encode_events(events)) as server:
        rest = b"".join(fetch(server.url, headers={"Last-Event-ID": "第一".encode()})[1])
    assert parse_sse([rest]) == events[1:]


def test_counts_connections_until_the_client_closes_them():
    with ReplayServer(BODY) as server:
        client = httpx.Client(trust_env=False)
        with client.stream("GET", server.url) as response:
            response.read()
        time.sleep(0.05)
        assert server.open_connections == 1  # back in the client's pool: still open, by design
        client.close()
        assert server.wait_idle(2.0)
        assert (server.connections_opened, server.connections_closed, server.open_connections) == (1, 1, 0)


def test_an_idle_connection_is_closed_by_the_server():
    with ReplayServer(BODY, idle_timeout=0.2) as server, httpx.Client(trust_env=False) as client:
        client.get(server.url)
        assert server.wait_idle(3.0)


def test_stops_by_itself_after_max_lifetime():
    server = ReplayServer(BODY, max_lifetime=0.3).start()
    url = server.url
    deadline = time.monotonic() + 3
    while server.running and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not server.running
    with pytest.raises(httpx.ConnectError):
        fetch(url)
    server.stop()  # still fine to call


def test_stop_cuts_a_slow_stream_and_returns_promptly():
    body = b"".join(f"data: {i}\n\n".encode() for i in range(50))
    server = ReplayServer(body, cuts=range(10, len(body), 10), delay=0.2).start()
    client = httpx.Client(trust_env=False)
    with client.stream("GET", server.url) as response:
        reads = response.iter_raw()
        next(reads)
        started = time.monotonic()
        server.stop()
        assert time.monotonic() - started < 2
        with pytest.raises(httpx.RemoteProtocolError):
            list(reads)
    client.close()
    assert server.open_connections == 0


def test_a_bounded_number_of_requests():
    with ReplayServer(BODY, max_requests=2) as server:
        fetch(server.url)
        fetch(server.url)
        with contextlib.suppress(httpx.TransportError):  # or the server had already stopped
            assert fetch(server.url)[0].status_code == 503
        deadline = time.monotonic() + 3
        while server.running and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not server.running and len(server.requests) == 2


def test_bounds_are_checked():
    for options in ({"max_lifetime": 0}, {"max_lifetime": 10**6}, {"max_requests": 0}, {"delay": -1}):
        with pytest.raises(ValueError):
            ReplayServer(BODY, **options)
    with pytest.raises(ValueError):
        ReplayServer(BODY, cuts=[len(BODY)])


def test_tcp_nodelay_is_set():
    with ReplayServer(BODY) as server:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=2)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        sock.recv(65536)
        with server._lock:
            (accepted,) = server._sockets
            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        sock.close()
        assert server.wait_idle()


@pytest.mark.parametrize("name", [n for n in names() if load(n).body.startswith((b"data", b"event", b":"))])
def test_encode_events_writes_the_same_events_back(name):
    events = parse_sse([load(name).body], errors="replace")
    assert parse_sse([encode_events(events)]) == events


@settings(max_examples=200, deadline=None)
@given(sse_streams())
def test_encode_events_round_trip(body):
    events = parse_sse([body], errors="replace")
    assert parse_sse([encode_events(events)]) == events


def test_stop_shuts_an_idle_pooled_connection_at_once():
    # The client keeps its HTTP/1.1 connection in its pool; the handler thread waits for a next request.
    # stop() must shut that socket, not wait for idle_timeout (5 s) to end the handler.
    server = ReplayServer(BODY, idle_timeout=5.0).start()
    with httpx.Client(trust_env=False) as client:
        assert client.get(server.url).content == BODY
        assert server.open_connections == 1  # idle in the client's pool
        started = time.monotonic()
        server.stop()
        assert time.monotonic() - started < 2
        assert server.open_connections == 0 and not server.running


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"delay": float("inf")}, r"^delay must be a number >= 0 and <= 60 seconds; got inf$"),
        ({"delay": float("nan")}, r"^delay must be a number >= 0 and <= 60 seconds; got nan$"),
        ({"delay": 1e10}, r"^delay must be a number >= 0 and <= 60 seconds; got 10000000000\.0$"),
        ({"delay": True}, r"^delay must be a number"),
        ({"delay": "0.1"}, r"^delay must be a number"),
        ({"drop_count": -1}, r"^drop_count must be an int >= 0, or None; got -1$"),
        ({"drop_after": 1.5}, r"^drop_after must be an int >= 0, or None; got 1\.5$"),
        ({"heartbeat_every": 0}, r"^heartbeat_every must be an int >= 1, or None; got 0$"),
        ({"stall_after": -1}, r"^stall_after must be an int >= 0, or None; got -1$"),
        ({"stall_for": float("inf")}, r"^stall_for must be a number >= 0 and <= 60 seconds; got inf$"),
        ({"max_lifetime": float("inf")}, r"^max_lifetime must be a number > 0 and <= 3600 seconds"),
        ({"idle_timeout": 0}, r"^idle_timeout must be a number > 0 and <= 600 seconds; got 0$"),
        ({"max_requests": 2.0}, r"^max_requests must be an int >= 1; got 2\.0$"),
        ({"cuts": [1.5]}, r"^cut 1\.5 must be an int >= 1 and <= \d+; got 1\.5$"),
        ({"cuts": [2.0]}, r"^cut 2\.0 must be an int"),
        ({"cuts": ["3"]}, r"^cut '3' must be an int"),
        ({"cuts": [3, "3"]}, r"^cut '3' must be an int"),
        ({"cuts": [True]}, r"^cut True must be an int"),
    ],
)
def test_every_numeric_option_is_checked_by_name(options, message):
    with pytest.raises(ValueError, match=message):
        ReplayServer(BODY, **options)


def test_a_stall_sends_heartbeats_only_at_an_event_boundary_and_notices_a_client_that_leaves():
    import httpx

    body = b"data: a\n\ndata: b\n\n"
    # After piece 1 ("data: a\n\n", an event boundary): pings while stalling. After piece 1 of a cut
    # inside the event: silence, since a ping there would dispatch half an event.
    with ReplayServer(body, [9], delay=0.05, heartbeat_every=1, stall_after=1, stall_for=0.3) as server:
        assert httpx.get(server.url).content == b"data: a\n\n" + b": ping\n\n" * server.heartbeats_sent + (
            b"data: b\n\n"
        )
        assert server.heartbeats_sent >= 2
    with ReplayServer(body, [7], delay=0.05, heartbeat_every=1, stall_after=1, stall_for=0.3) as server:
        assert httpx.get(server.url).content == body and server.heartbeats_sent == 0
    with ReplayServer(body, [9], stall_after=1, stall_for=30.0) as server:
        with httpx.Client() as client, client.stream("GET", server.url) as response:
            assert next(response.iter_raw()) == b"data: a\n\n"
        assert server.wait_idle(2.0)  # the silent stall ended when the client closed, not after 30 s


def test_a_request_over_max_requests_gets_its_503_before_the_server_stops():
    """The refusal is answered before the stop begins (it once cut the 503 off: RemoteProtocolError)."""
    import http.client

    for _ in range(25):
        with ReplayServer("data: 你好 🙂\n\n".encode(), max_requests=1) as server:
            host, port = server.url.split("//")[1].split("/")[0].split(":")
            first = http.client.HTTPConnection(host, int(port), timeout=10)
            first.request("GET", "/")
            assert first.getresponse().read() == "data: 你好 🙂\n\n".encode()
            first.close()
            refused = http.client.HTTPConnection(host, int(port), timeout=10)
            refused.request("GET", "/")
            response = refused.getresponse()
            assert (response.status, response.read()) == (503, b"")
            refused.close()
