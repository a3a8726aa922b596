"""lesson_lib over real sockets: the reads as they arrived, the right outcome, the response released on every
path (proved by the replay server's connection counts), and what reconnection can and cannot repair."""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import json
import threading
import zlib

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import Event, Outcome, SSEParser, StreamResult, consume, parse_sse
from lesson_lib.captures import load, manifest
from lesson_lib.core.chunking import random_cuts
from lesson_lib.core.contracts import TextDelta
from lesson_lib.core.decoding import naive_decode
from lesson_lib.net.http import (
    ContentEncodingError,
    HTTPReads,
    astream_http,
    open_reads,
    read_events,
    resume_sse,
    stream_http,
    stream_http_updates,
)
from lesson_lib.net.replay import ReplayServer, encode_events
from tests.strategies import partitions, sse_streams

CONTENT_TYPES = {"sse": "text/event-stream; charset=utf-8", "ndjson": "application/x-ndjson"}


def chat(*pieces: str, done: bool = True) -> bytes:
    def event(payload: object) -> str:
        return f"data: {json.dumps(payload, ensure_ascii=False)}\n\n"

    deltas = [{"choices": [{"index": 0, "delta": {"content": p}, "finish_reason": None}]} for p in pieces]
    events = [event(d) for d in deltas]
    events.append(event({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}))
    if done:
        events.append("data: [DONE]\n\n")
    return "".join(events).encode()


SMALL = chat("你好", "，Ångström", " café 🙂", "完成")
SMALL_ERROR = SMALL.replace(b"data: [DONE]", b'data: {"error": {"message": "boom", "type": "server_error"}}')
SMALL_ERROR += chat("after the error")  # the client must stop reading before the end of the body


def released(server: ReplayServer) -> bool:
    return server.wait_idle(3.0) and server.open_connections == 0


def content_type(name: str) -> str:
    return CONTENT_TYPES["ndjson"] if name.startswith("ollama") else CONTENT_TYPES["sse"]


# --- outcomes over a real socket -------------------------------------------------------------------------

CAPTURES = [e["file"].rsplit(".", 1)[0] for e in manifest()]


@pytest.mark.parametrize("name", CAPTURES)
def test_every_capture_has_its_outcome_over_http(name):
    capture = load(name)
    cuts = random_cuts(len(capture.body), seed=len(name), max_cuts=30)
    with ReplayServer(capture.body, cuts=cuts, content_type=content_type(name)) as server:
        result = stream_http(server.url + "/v1/stream", capture.contract, json={"stream": True})
        assert released(server)
    assert str(result.outcome) == capture.outcome
    assert result.truncated_at == capture.truncated_at
    assert result.text == capture.text


def test_reads_are_recorded_as_they_arrived():
    body = SMALL
    cut = body.index("你".encode()) + 1  # inside 你
    with ReplayServer(body, cuts=[cut, cut + 1], delay=0.01) as server:
        reads = open_reads(server.url)
        chunks = list(reads)
        reads.close()
        assert released(server)
    assert sum(reads.sizes) == len(body) and reads.sizes == [len(c) for c in chunks]
    result = consume(chunks, "openai-chat")
    assert result.outcome is Outcome.COMPLETED and result.text == "你好，Ångström café 🙂完成"
    assert result.stats.reads == len(chunks) >= 3
    assert result.stats.reads_ending_mid_character >= 2
    assert "\ufffd" in naive_decode(chunks) and "\ufffd" not in result.text


def test_the_stats_count_every_read():
    with ReplayServer(SMALL, cuts=range(5, len(SMALL), 5)) as server:
        result = stream_http(server.url, "openai-chat")
    assert (
        result.stats.reads >= len(SMALL) // 5 and sum(result.stats.read_sizes.values()) == result.stats.reads
    )


def test_a_drop_is_a_truncation_with_the_transport_error():
    capture = load("anthropic-messages/completed")
    with ReplayServer(capture.body, drop_after=700) as server:
        result = stream_http(server.url, "anthropic-messages")
        assert released(server)
    assert result.outcome is Outcome.TRUNCATED and result.truncated_at is not None
    assert result.error.kind == "RemoteProtocolError" and result.error.offset == 700
    assert capture.text.startswith(result.text)


def test_an_http_error_status_raises_and_releases():
    with ReplayServer(SMALL, max_requests=1) as server:
        stream_http(server.url, "openai-chat")
        with pytest.raises(httpx.HTTPError):  # 503, or refused if the server already stopped
            stream_http(server.url, "openai-chat")
        assert released(server)


def test_updates_arrive_live_and_the_result_last():
    with ReplayServer(SMALL, cuts=[40, 80]) as server:
        updates = list(stream_http_updates(server.url, "openai-chat"))
    assert isinstance(updates[-1], StreamResult) and updates[-1].outcome is Outcome.COMPLETED
    assert "".join(u.text for u in updates if isinstance(u, TextDelta)) == updates[-1].text


def test_an_updates_generator_never_started_sends_nothing():
    with ReplayServer(SMALL) as server:
        updates = stream_http_updates(server.url, "openai-chat")
        updates.close()
        assert server.requests == [] and server.connections_opened == 0


def test_a_given_client_is_reused_and_left_open():
    with ReplayServer(SMALL) as server:
        with httpx.Client(trust_env=False) as client:
            for _ in range(5):
                assert stream_http(server.url, "openai-chat", client=client).outcome is Outcome.COMPLETED
            assert server.connections_opened == 1  # one keep-alive connection, back in the pool each time
            result = stream_http(server.url, "openai-chat", client=client, cancel=lambda: True)
            assert result.outcome is Outcome.CANCELLED and not client.is_closed
        assert released(server)


def test_http_reads_close_is_idempotent_and_closes_its_own_client():
    with ReplayServer(SMALL) as server:
        reads = open_reads(server.url)
        assert isinstance(reads, HTTPReads) and server.wait_idle(0.2) is False  # held open: not released
        reads.close()
        reads.close()
        assert reads.closed and reads._own_client.is_closed and released(server)


# --- no leaked connections, 100 runs of every path -------------------------------------------------------


def run_completed(url: str) -> StreamResult:
    return stream_http(url, "openai-chat")


def run_break(url: str) -> None:
    with contextlib.closing(stream_http_updates(url, "openai-chat")) as updates:
        for update in updates:
            assert isinstance(update, TextDelta)
            break


def run_cancel(url: str) -> StreamResult:
    checks = iter(range(10))
    return stream_http(url, "openai-chat", cancel=lambda: next(checks) == 1)  # after the first read


PATHS = {
    "completed": ({}, run_completed, Outcome.COMPLETED),
    "truncated": ({"drop_after": 150}, run_completed, Outcome.TRUNCATED),
    "service error": ({"cuts": [len(SMALL) - 5]}, run_completed, Outcome.SERVICE_ERROR),
    "caller break": ({"cuts": [100]}, run_break, None),
    "cancel": ({"cuts": [100]}, run_cancel, Outcome.CANCELLED),
}


@pytest.mark.parametrize("path", PATHS)
def test_no_leaked_connections_in_100_runs(path):
    options, run, outcome = PATHS[path]
    body = SMALL_ERROR if path == "service error" else SMALL
    with ReplayServer(body, max_requests=100, **options) as server:
        for _ in range(100):
            result = run(server.url)
            assert result is None or result.outcome is outcome
        assert released(server)
        assert server.connections_opened == server.connections_closed == 100


def test_a_leak_would_show():
    with ReplayServer(SMALL) as server:
        client = httpx.Client(trust_env=False)
        response = client.send(client.build_request("GET", server.url), stream=True)
        reads = response.iter_raw()  # kept: a dropped iter_raw() generator would close the response
        next(reads)
        assert not server.wait_idle(0.2) and server.open_connections == 1
        response.close()
        client.close()
        assert released(server)


def test_cancel_from_another_thread():
    body = chat(*(f"片段{i} " for i in range(30)))
    stop = threading.Event()
    with ReplayServer(body, cuts=range(50, len(body), 50), delay=0.02) as server:
        timer = threading.Timer(0.1, stop.set)
        timer.start()
        result = stream_http(server.url, "openai-chat", cancel=stop)
        timer.join()
        assert result.outcome is Outcome.CANCELLED and released(server)


# --- reconnecting ----------------------------------------------------------------------------------------


def numbered(capture: str, retry: int = 1) -> tuple[bytes, list[Event]]:
    """A capture with an id on every event (as a server that supports resumption sends it)."""
    events = [Event(e.type, e.data, str(i)) for i, e in enumerate(parse_sse([load(capture).body]))]
    return f"retry: {retry}\n\n".encode() + encode_events(events), events


def test_events_with_ids_resume_exactly():
    body, events = numbered("openai-responses/completed")
    waits = []
    with ReplayServer(body, drop_after=1500) as server:
        resumed = resume_sse(server.url, "openai-responses", max_attempts=10, sleep=waits.append)
        requests = server.requests
        assert released(server)
    assert resumed.events == events and resumed.stopped == "completed"
    assert resumed.result.outcome is Outcome.COMPLETED
    assert resumed.result.text == load("openai-responses/completed").text
    assert [r.last_event_id for r in requests][:2] == [None, resumed.attempts[1].sent_id]
    assert all(a.ended == "RemoteProtocolError" for a in resumed.attempts[:-1])
    assert resumed.attempts[-1].ended == "end of body" and waits == [0.001] * (len(resumed.attempts) - 1)


def test_retry_is_honoured_and_bounded():
    body, _ = numbered("openai-responses/completed", retry=60_000)
    waits = []
    with ReplayServer(body, drop_after=2000, drop_count=1) as server:
        resume_sse(server.url, "openai-responses", max_wait=0.5, sleep=waits.append)
    assert waits == [0.5]


def test_max_attempts_bounds_the_reconnections():
    body, _ = numbered("openai-responses/completed")
    with ReplayServer(body, drop_after=1500) as server:
        resumed = resume_sse(server.url, "openai-responses", max_attempts=3, sleep=lambda _: None)
        assert len(server.requests) == 3 and released(server)
    assert resumed.stopped == "max_attempts" and resumed.result.outcome is Outcome.TRUNCATED


def test_without_ids_there_is_nothing_to_resume_from():
    capture = load("openai-chat/completed")
    with ReplayServer(capture.body, drop_after=2000) as server:
        resumed = resume_sse(server.url, "openai-chat", method="POST", json={}, sleep=lambda _: None)
        assert len(server.requests) == 1
    assert resumed.stopped == "no event ID to resume from"
    assert resumed.result.outcome is Outcome.TRUNCATED and capture.text.startswith(resumed.result.text)


def test_re_sending_without_ids_keeps_the_new_answer_alone():
    capture = load("openai-chat/completed")
    with ReplayServer(capture.body, drop_after=2000, drop_count=1) as server:
        resumed = resume_sse(
            server.url, "openai-chat", method="POST", json={}, resend_without_id=True, sleep=lambda _: None
        )
        assert [r.method for r in server.requests] == ["POST", "POST"]  # the service ran twice
        assert [r.last_event_id for r in server.requests] == [None, None]
    first = resumed.attempts[0].events
    assert first > 0 and resumed.discarded_events == first  # the first answer's events: dropped, and said
    assert resumed.events == parse_sse([capture.body])  # the second answer, alone
    assert resumed.result.outcome is Outcome.COMPLETED
    assert resumed.result.text == capture.text  # not the start of the answer twice


def test_a_refused_resend_keeps_what_the_first_attempt_had():
    capture = load("openai-chat/completed")
    with ReplayServer(capture.body, drop_after=2000, max_requests=1) as server:
        resumed = resume_sse(
            server.url, "openai-chat", method="POST", resend_without_id=True, sleep=lambda _: None
        )
    assert resumed.discarded_events == 0 and len(resumed.events) == resumed.attempts[0].events > 0
    assert resumed.result.outcome is Outcome.TRUNCATED and capture.text.startswith(resumed.result.text)


def test_resumed_attempts_with_ids_discard_nothing():
    body, events = numbered("openai-responses/completed")
    with ReplayServer(body, drop_after=1500) as server:
        resumed = resume_sse(server.url, "openai-responses", max_attempts=10, sleep=lambda _: None)
    assert resumed.discarded_events == 0 and resumed.events == events and len(resumed.attempts) > 1


def test_without_a_contract_a_clean_end_stops():
    body = encode_events([Event("message", "你好", "1"), Event("message", "café", "2")])
    with ReplayServer(body, drop_after=25, drop_count=1) as server:
        resumed = resume_sse(server.url, sleep=lambda _: None)
    assert resumed.stopped == "end of body" and resumed.result is None
    assert [e.data for e in resumed.events] == ["你好", "café"] and resumed.last_event_id == "2"
    assert resumed.attempts[0].cut_inside in {"line", "event", "character"}


def test_invalid_utf8_is_not_retried():
    with ReplayServer(b"id: 1\ndata: \xff\n\n") as server:
        resumed = resume_sse(server.url, max_attempts=5, sleep=lambda _: None)
        assert len(server.requests) == 1
    assert resumed.stopped.startswith("StreamDecodeError")


def test_resume_body_is_the_events_written_back():
    body, events = numbered("anthropic-messages/completed")
    with ReplayServer(body) as server:
        resumed = resume_sse(server.url, "anthropic-messages")
    assert parse_sse([resumed.body]) == events and resumed.retry == 1


# --- hardening: compression, arguments before I/O, what a read completed before an error ------------------


class _CompressingServer(http.server.ThreadingHTTPServer):
    """A loopback server that gzips or deflates its chunked SSE body: when asked (``force=None``), or always;
    with ``status``, its status (a refusal: ``503``).

    Each piece is compressed and flushed (Z_SYNC_FLUSH) on its own, as a streaming server does.
    """

    daemon_threads = True

    def __init__(self, body: bytes, encoding: str, force: bool, status: int = 200) -> None:
        self.body, self.encoding, self.force, self.status = body, encoding, force, status
        self.accept_encodings: list[str | None] = []
        super().__init__(("127.0.0.1", 0), _CompressingHandler)
        threading.Thread(target=self.serve_forever, args=(0.05,), daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"

    def __enter__(self) -> _CompressingServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.shutdown()
        self.server_close()


class _CompressingHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _CompressingServer

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        server = self.server
        asked = self.headers.get("Accept-Encoding")
        server.accept_encodings.append(asked)
        compress = server.force or server.encoding in (asked or "")
        self.send_response(server.status)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Transfer-Encoding", "chunked")
        if compress:
            self.send_header("Content-Encoding", server.encoding)
        self.end_headers()
        packer = zlib.compressobj(wbits=31 if server.encoding == "gzip" else 15)
        for start in range(0, len(server.body), 50):
            piece = server.body[start : start + 50]
            if compress:
                piece = packer.compress(piece) + packer.flush(zlib.Z_SYNC_FLUSH)
            self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
        if compress:
            tail = packer.flush()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(tail), tail))
        self.wfile.write(b"0\r\n\r\n")


@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
def test_identity_is_asked_for_so_a_server_that_honours_it_sends_the_body_as_is(encoding):
    with _CompressingServer(SMALL, encoding, force=False) as server:
        result = stream_http(server.url, "openai-chat")
        # httpx alone asks for compression, and its raw reads are then compressed bytes:
        with httpx.Client(trust_env=False) as client, client.stream("POST", server.url) as response:
            assert response.headers["Content-Encoding"] == encoding
            assert b"".join(response.iter_raw()) != SMALL
    assert server.accept_encodings[0] == "identity"
    assert result.outcome is Outcome.COMPLETED and result.text == "你好，Ångström café 🙂完成"
    assert result.stats.bytes == len(SMALL)  # the raw body, every read its wire size


@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
def test_a_server_that_compresses_anyway_is_named_before_the_body_is_read(encoding):
    with _CompressingServer(SMALL, encoding, force=True) as server:
        with pytest.raises(ContentEncodingError, match=f"Content-Encoding: {encoding}") as info:
            stream_http(server.url, "openai-chat")
        assert info.value.content_encoding == encoding
        with pytest.raises(ContentEncodingError):  # the caller asking for gzip is no different
            open_reads(server.url, headers={"accept-encoding": "gzip"})
        assert server.accept_encodings[1] == "gzip"
        with pytest.raises(ContentEncodingError):
            list(stream_http_updates(server.url, "openai-chat"))
        resumed = resume_sse(server.url, "openai-chat", max_attempts=3, sleep=lambda _: None)
    assert resumed.stopped == "ContentEncodingError: a new connection cannot repair it"
    assert len(resumed.attempts) == 1 and resumed.events == []


def test_a_compressed_body_does_not_leak_a_connection_of_the_callers_client():
    # A client with ONE connection: if the refused response were left open, the next request could not get
    # a connection (PoolTimeout); it is closed before ContentEncodingError is raised, sync and async.
    limits = httpx.Limits(max_connections=1)
    pool_timeout = httpx.Timeout(5.0, pool=0.5)
    with _CompressingServer(SMALL, "gzip", force=True) as server:
        with httpx.Client(limits=limits, timeout=pool_timeout, trust_env=False) as client:
            for _ in range(3):
                with pytest.raises(ContentEncodingError):
                    open_reads(server.url, client=client)
                with pytest.raises(ContentEncodingError):
                    stream_http(server.url, "openai-chat", client=client, deadline=5)

        async def run() -> None:
            async with httpx.AsyncClient(limits=limits, timeout=pool_timeout, trust_env=False) as client:
                for _ in range(3):
                    with pytest.raises(ContentEncodingError):
                        await astream_http(server.url, "openai-chat", client=client)

        asyncio.run(run())


BAD_CALLS = {
    "unknown contract": lambda url: stream_http(url, "openai"),
    "unknown contract, updates": lambda url: stream_http_updates(url, "openai"),
    "max_events=0": lambda url: stream_http(url, "openai-chat", max_events=0),
    "no progress -1": lambda url: stream_http(url, "openai-chat", max_bytes_without_progress=-1),
    "an unknown option": lambda url: stream_http(url, "openai-chat", max_event=5),
    "updates, bad limit": lambda url: stream_http_updates(url, "openai-chat", max_line_chars=True),
    "timeout nan": lambda url: stream_http(url, "openai-chat", timeout=float("nan")),
    "timeout 0": lambda url: open_reads(url, timeout=0),
    "method": lambda url: open_reads(url, method=""),
    "headers": lambda url: open_reads(url, headers=[("a", "b")]),
    "resume, unknown contract": lambda url: resume_sse(url, "anthropic"),
    "resume, max_attempts 0": lambda url: resume_sse(url, max_attempts=0),
    "resume, max_attempts 1.5": lambda url: resume_sse(url, max_attempts=1.5),
    "resume, retry_ms -1": lambda url: resume_sse(url, retry_ms=-1),
    "resume, max_wait inf": lambda url: resume_sse(url, max_wait=float("inf")),
    "resume, resend 'yes'": lambda url: resume_sse(url, resend_without_id="yes"),
    "resume, timeout -1": lambda url: resume_sse(url, timeout=-1),
}


@pytest.mark.parametrize("name", BAD_CALLS)
def test_every_argument_is_checked_before_any_request(name):
    with ReplayServer(SMALL) as server:
        with pytest.raises((ValueError, TypeError)):
            BAD_CALLS[name](server.url)
        assert server.requests == [] and server.connections_opened == 0


def test_http_reads_close_closes_the_response_of_a_callers_client():
    with ReplayServer(SMALL, cuts=[20, 40], delay=0.05) as server, httpx.Client(trust_env=False) as client:
        reads = open_reads(server.url, client=client)
        next(iter(reads))
        reads.close()
        assert reads.response.is_closed and not client.is_closed  # the client stays the caller's
        assert released(server)  # the half-read response's connection was discarded, not pooled


CUT_BY_AN_ERROR = b"id: 1\ndata: ok\n\ndata: \xff\n\n"


def test_resume_keeps_the_events_a_read_completed_before_an_error():
    for cuts in ([], range(1, len(CUT_BY_AN_ERROR))):  # one read, and one byte per read
        with ReplayServer(CUT_BY_AN_ERROR, cuts=cuts) as server:
            resumed = resume_sse(server.url, max_attempts=3, sleep=lambda _: None)
        assert [e.data for e in resumed.events] == ["ok"], cuts
        assert resumed.stopped.startswith("StreamDecodeError") and resumed.last_event_id == "1"


@settings(max_examples=150, deadline=None)
@given(st.data(), sse_streams(), st.sampled_from([b"\xff", b"\xc3(", b"\xed\xa0\x80", b""]))
def test_read_events_gives_the_same_events_for_every_chunking(data, body, bad):
    at = data.draw(st.integers(0, len(body)))
    body = body[:at] + bad + body[at:]
    reference, reference_end = [], read_events([body], SSEParser(), [])
    read_events([body], SSEParser(), reference)
    events: list[Event] = []
    ended = read_events(data.draw(partitions(body)), SSEParser(), events)
    assert events == reference and ended == reference_end
