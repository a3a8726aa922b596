"""lesson_lib over real sockets: the reads as they arrived, the right outcome, the response released on every
path (proved by the replay server's connection counts), and what reconnection can and cannot repair."""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import itertools
import json
import threading
import zlib
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import Event, Outcome, SSEParser, StreamResult, aconsume, consume, parse_sse
from lesson_lib.captures import load, manifest
from lesson_lib.core.chunking import random_cuts, split_at
from lesson_lib.core.contracts import TextDelta
from lesson_lib.core.decoding import naive_decode
from lesson_lib.core.errors import InflateError
from lesson_lib.core.inflate import Inflater
from lesson_lib.faults import get_fault
from lesson_lib.net.http import (
    ContentEncodingError,
    HTTPReads,
    Resumed,
    aresume_responses,
    aresume_sse,
    astream_http,
    open_areads,
    open_reads,
    read_events,
    resume_responses,
    resume_sse,
    stream_http,
    stream_http_updates,
)
from lesson_lib.net.replay import ReplayServer, encode_events
from tests.faults.catalogue_support import proper
from tests.net.test_resume_protocols import RESPONSES_BODY
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


def wire_pieces(
    body: bytes,
    wbits: int,
    *,
    members: bool = False,
    cut_after: int | None = None,
    corrupt_at: int | None = None,
) -> list[bytes]:
    """``body`` in 50-byte pieces, each compressed and flushed (Z_SYNC_FLUSH) on its own, as a streaming
    server sends it: the chunks of a compressed body. ``members``: each piece its own gzip member.
    ``cut_after``: only the pieces that start before that offset of ``body``, and no final flush (the member
    never ends). ``corrupt_at``: that byte of the compressed body flipped."""
    plain = [body[start : start + 50] for start in range(0, len(body), 50)]
    if cut_after is not None:
        plain = plain[: -(-cut_after // 50)]
    if members:
        pieces = [zlib.compress(piece, wbits=wbits) for piece in plain]
    else:
        packer = zlib.compressobj(wbits=wbits)
        pieces = [packer.compress(piece) + packer.flush(zlib.Z_SYNC_FLUSH) for piece in plain]
        if cut_after is None:
            pieces.append(packer.flush())
    if corrupt_at is not None:
        joined = bytearray(b"".join(pieces))
        joined[corrupt_at] ^= 0x01
        pieces = split_at(bytes(joined), itertools.accumulate(len(p) for p in pieces[:-1]))
    return [piece for piece in pieces if piece]


class _CompressingServer(http.server.ThreadingHTTPServer):
    """A loopback server that sends its SSE body chunked with ``Content-Encoding: <encoding>``: when asked
    (``force=False``: the request's Accept-Encoding names it), or always; with ``status``, its status (a
    refusal: ``503``). Otherwise the body goes as it is.

    The compressed chunks are :attr:`pieces`: ``pieces`` if given (a fault's plan), else
    :func:`wire_pieces` of ``body`` (``wbits``: 31 for a gzip ``encoding``, else 15; ``-15`` is raw deflate)
    with ``members``, ``cut_after`` and ``corrupt_at``. The chunked body always ends with its last chunk: a
    cut is inside the compressed member, not in the transfer encoding. A ``br`` or ``zstd`` label sends
    gzip bytes (a client that refuses the coding never reads them).
    """

    daemon_threads = True

    def __init__(
        self,
        body: bytes,
        encoding: str,
        force: bool,
        status: int = 200,
        *,
        wbits: int | None = None,
        pieces: list[bytes] | None = None,
        **wire: Any,
    ) -> None:
        self.body, self.encoding, self.force, self.status = body, encoding, force, status
        if wbits is None:
            wbits = 31 if "gzip" in encoding.lower() or encoding in ("br", "zstd") else 15
        self.pieces = pieces if pieces is not None else wire_pieces(body, wbits, **wire)
        self.accept_encodings: list[str | None] = []
        super().__init__(("127.0.0.1", 0), _CompressingHandler)
        threading.Thread(target=self.serve_forever, args=(0.05,), daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"

    @property
    def compressed(self) -> bytes:
        return b"".join(self.pieces)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Quiet: a client that refuses the coding closes without reading the body (a broken pipe here)."""

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
        plain = [server.body[start : start + 50] for start in range(0, len(server.body), 50)]
        pieces = server.pieces if compress else plain
        for piece in pieces:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")


SMALL_TEXT = "你好，Ångström café 🙂完成"


@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
def test_identity_is_asked_for_so_a_server_that_honours_it_sends_the_body_as_is(encoding):
    with _CompressingServer(SMALL, encoding, force=False) as server:
        result = stream_http(server.url, "openai-chat")
        # httpx alone asks for compression, and its raw reads are then compressed bytes:
        with httpx.Client(trust_env=False) as client, client.stream("POST", server.url) as response:
            assert response.headers["Content-Encoding"] == encoding
            assert b"".join(response.iter_raw()) != SMALL
    assert server.accept_encodings[0] == "identity"
    assert result.outcome is Outcome.COMPLETED and result.text == SMALL_TEXT
    assert result.stats.bytes == len(SMALL)  # the raw body, every read its wire size


def read(asynchronous: bool, url: str, contract: str = "openai-chat", **options: Any) -> StreamResult:
    """``stream_http`` or ``astream_http``: the same call, sync or async."""
    if asynchronous:
        return asyncio.run(astream_http(url, contract, **options))
    return stream_http(url, contract, **options)


SYNC_ASYNC = pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
#: (the Content-Encoding sent, zlib's wbits): gzip in any case and as x-gzip, deflate zlib-wrapped and raw.
CODINGS = [("gzip", 31), ("x-gzip", 31), ("GZIP", 31), ("deflate", 15), ("Deflate", -15)]


@SYNC_ASYNC
@pytest.mark.parametrize("encoding, wbits", CODINGS)
def test_a_gzip_or_deflate_body_sent_anyway_is_read_as_browsers_read_it(asynchronous, encoding, wbits):
    with _CompressingServer(SMALL, encoding, force=True, wbits=wbits) as server:
        result = read(asynchronous, server.url)
    assert server.accept_encodings == ["identity"]  # still asked for: the course wants the reads as sent
    assert result.outcome is Outcome.COMPLETED and result.is_final and result.text == SMALL_TEXT
    assert result.error is None
    assert result.stats.bytes == len(SMALL)  # consume counts the inflated bytes


def test_the_reads_are_the_raw_reads_inflated_one_for_one_and_sizes_the_wire_sizes():
    with _CompressingServer(SMALL, "gzip", force=True) as server, open_reads(server.url) as reads:
        assert reads.content_coding == "gzip"
        pieces = list(reads)
        sizes = list(reads.sizes)
    assert b"".join(pieces) == SMALL and all(pieces)  # a read that inflates to nothing is left out
    assert sum(sizes) == len(server.compressed)  # the raw reads, as they crossed the wire
    # the last raw read is the final flush and the trailer: it inflates to nothing, and is not handed on
    assert len(pieces) < len(sizes)
    assert consume(pieces, "openai-chat").stats.reads == len(pieces)


@SYNC_ASYNC
def test_a_caller_that_asks_for_gzip_gets_it_read(asynchronous):
    with _CompressingServer(SMALL, "gzip", force=False) as server:
        result = read(asynchronous, server.url, headers={"Accept-Encoding": "gzip"})
    assert server.accept_encodings == ["gzip"]
    assert result.outcome is Outcome.COMPLETED and result.text == SMALL_TEXT


@SYNC_ASYNC
def test_several_gzip_members_in_a_row_are_one_body(asynchronous):
    with _CompressingServer(SMALL, "gzip", force=True, members=True) as server:
        result = read(asynchronous, server.url)
    assert len(server.pieces) > 2 and all(piece[:2] == b"\x1f\x8b" for piece in server.pieces)
    assert result.outcome is Outcome.COMPLETED and result.text == SMALL_TEXT


#: Where the body is cut: before the final chunk (no finish reason yet), and inside the second event.
BEFORE_FINISH = SMALL.index(b'data: {"choices": [{"index": 0, "delta": {}')


@SYNC_ASYNC
@pytest.mark.parametrize("encoding, wbits", [("gzip", 31), ("deflate", 15), ("deflate", -15)])
@pytest.mark.parametrize("cut", [BEFORE_FINISH, 120])
def test_a_body_cut_inside_its_member_is_truncated_though_the_transport_ended_cleanly(
    asynchronous, encoding, wbits, cut
):
    with _CompressingServer(SMALL, encoding, force=True, wbits=wbits, cut_after=cut) as server:
        result = read(asynchronous, server.url)
    sent = SMALL[: -(-cut // 50) * 50]  # the 50-byte pieces sent whole
    same_bytes = consume([sent], "openai-chat")  # the same bytes, uncompressed, as one read
    assert result.outcome is Outcome.TRUNCATED and result.error is not None
    assert result.error.kind == "CompressedBodyCutError"  # the cut is named: the transport's path
    assert f"after {len(server.compressed)} compressed bytes" in result.error.message
    assert (result.text, result.truncated_at) == (same_bytes.text, same_bytes.truncated_at)


@SYNC_ASYNC
def test_a_member_cut_after_the_terminal_at_a_clean_boundary_leaves_the_answer_completed(asynchronous):
    # As for any transport error after the terminal: every byte up to a clean boundary after [DONE] came.
    # The member's end was not needed to prove the answer; its absence is kept in error.
    with _CompressingServer(SMALL, "gzip", force=True, cut_after=len(SMALL)) as server:
        result = read(asynchronous, server.url)
    assert result.outcome is Outcome.COMPLETED and result.text == SMALL_TEXT
    assert result.error is not None and result.error.kind == "CompressedBodyCutError"


@SYNC_ASYNC
def test_corrupt_compressed_data_is_a_decode_error_at_its_compressed_offset(asynchronous):
    total = len(wire_pieces(SMALL, 31))
    corrupt_at = len(b"".join(wire_pieces(SMALL, 31))) - 8  # the first byte of the gzip trailer's CRC-32
    with _CompressingServer(SMALL, "gzip", force=True, corrupt_at=corrupt_at) as server:
        result = read(asynchronous, server.url)
    assert len(server.pieces) == total
    expected = Inflater("gzip")
    with pytest.raises(InflateError) as info:
        expected.feed(server.compressed)
    assert result.outcome is Outcome.DECODE_ERROR and result.error is not None
    assert result.error.kind == "InflateError" and result.error.offset == info.value.offset
    assert corrupt_at <= result.error.offset < corrupt_at + 4
    assert f"at compressed byte offset {info.value.offset}" in result.error.message
    assert result.text == SMALL_TEXT  # every event arrived, but the CRC-32 says they are not the bytes sent


@SYNC_ASYNC
def test_a_decompression_bomb_is_a_limit_at_an_offset_in_the_compressed_body(asynchronous):
    bomb = chat("0" * 200_000)
    with _CompressingServer(bomb, "gzip", force=True, pieces=[zlib.compress(bomb, wbits=31)]) as server:
        if asynchronous:

            async def run() -> StreamResult:
                return await aconsume(await open_areads(server.url, max_inflated_read=10_000), "openai-chat")

            result = asyncio.run(run())
        else:
            result = consume(open_reads(server.url, max_inflated_read=10_000), "openai-chat")
    assert result.outcome is Outcome.LIMIT_EXCEEDED and result.error is not None
    assert result.error.kind == "LimitExceededError" and result.error.limit == "max_inflated_read"
    assert result.error.maximum == 10_000 and 0 < result.error.offset < len(server.compressed)
    assert "compressed body" in result.error.message and result.text == ""


@pytest.mark.parametrize("encoding", ["br", "zstd", "compress", "gzip, br", "gzip, gzip", "x-compress"])
def test_a_coding_lesson_lib_does_not_read_is_named_before_the_body_is_read(encoding):
    with _CompressingServer(SMALL, encoding, force=True) as server:
        with pytest.raises(ContentEncodingError, match=f"Content-Encoding: {encoding};") as info:
            stream_http(server.url, "openai-chat")
        assert info.value.content_encoding == encoding
        with pytest.raises(ContentEncodingError):  # the caller asking for it is no different
            open_reads(server.url, headers={"accept-encoding": encoding})
        assert server.accept_encodings[1] == encoding
        with pytest.raises(ContentEncodingError):
            list(stream_http_updates(server.url, "openai-chat"))
        with pytest.raises(ContentEncodingError):
            asyncio.run(astream_http(server.url, "openai-chat"))
        resumed = resume_sse(server.url, "openai-chat", max_attempts=3, sleep=lambda _: None)
    assert resumed.stopped == "ContentEncodingError: a new connection cannot repair it"
    assert len(resumed.attempts) == 1 and resumed.events == []


def test_a_refused_coding_does_not_leak_a_connection_of_the_callers_client():
    # A client with ONE connection: if the refused response were left open, the next request could not get
    # a connection (PoolTimeout); it is closed before ContentEncodingError is raised, sync and async.
    limits = httpx.Limits(max_connections=1)
    pool_timeout = httpx.Timeout(5.0, pool=0.5)
    with _CompressingServer(SMALL, "br", force=True) as server:
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


def test_a_cut_compressed_body_releases_the_callers_connection():
    limits = httpx.Limits(max_connections=1)
    timeout = httpx.Timeout(5.0, pool=0.5)
    with (
        _CompressingServer(SMALL, "gzip", force=True, cut_after=120) as server,
        httpx.Client(limits=limits, timeout=timeout, trust_env=False) as client,
    ):
        for _ in range(3):
            result = stream_http(server.url, "openai-chat", client=client)
            assert result.error is not None and result.error.kind == "CompressedBodyCutError"


# --- the resume functions over a compressed body -----------------------------------------------------------


def resume(asynchronous: bool, url: str, **options: Any) -> Resumed:
    if asynchronous:

        async def sleep(_seconds: float) -> None:
            return None

        return asyncio.run(aresume_sse(url, sleep=sleep, **options))
    return resume_sse(url, sleep=lambda _: None, **options)


@SYNC_ASYNC
def test_resume_reads_a_gzip_stream_and_retries_one_cut_inside_its_member(asynchronous):
    body, events = numbered("openai-chat/completed")
    with _CompressingServer(body, "gzip", force=True) as server:
        whole = resume(asynchronous, server.url, contract="openai-chat")
    assert whole.stopped == "completed" and whole.events == events and whole.result is not None
    assert whole.result.outcome is Outcome.COMPLETED
    cut_at_an_event = body.index(b"\n\n", len(body) // 2) + 2  # the bytes before end at an event boundary
    with _CompressingServer(body[:cut_at_an_event], "gzip", force=True, cut_after=cut_at_an_event) as server:
        cut = resume(asynchronous, server.url, max_attempts=2)
    # Without the member's end this would be a clean end of body at an event boundary: done, no retry.
    assert [a.ended for a in cut.attempts] == ["CompressedBodyCutError"] * 2
    assert [a.sent_id for a in cut.attempts][1] == cut.attempts[0].last_event_id != ""
    assert cut.stopped == "max_attempts"


@SYNC_ASYNC
def test_resume_stops_at_corrupt_compressed_data(asynchronous):
    corrupt_at = len(b"".join(wire_pieces(SMALL, 31))) - 8
    with _CompressingServer(SMALL, "gzip", force=True, corrupt_at=corrupt_at) as server:
        resumed = resume(asynchronous, server.url, contract="openai-chat", max_attempts=3)
        assert len(server.accept_encodings) == 1
    assert resumed.stopped == "InflateError: a new connection cannot repair it"


@SYNC_ASYNC
def test_resume_responses_reads_a_gzip_stream(asynchronous):
    with _CompressingServer(RESPONSES_BODY, "gzip", force=True) as server:
        if asynchronous:
            resumed = asyncio.run(aresume_responses(server.url, json={}))
        else:
            resumed = resume_responses(server.url, json={})
    assert resumed.result is not None and resumed.result.outcome is Outcome.COMPLETED
    assert resumed.result.text == consume([RESPONSES_BODY], "openai-responses").text
    assert len(resumed.attempts) == 1


# --- the fault catalogue's gzip entries, over a socket ------------------------------------------------------


@SYNC_ASYNC
@pytest.mark.parametrize("name", ["openai-chat-gzip", "anthropic-gzip"])
def test_the_fault_catalogues_gzip_entries_reach_their_expected_verdict(asynchronous, name):
    fault = get_fault(name)
    plan = fault.respond(proper(fault))
    assert dict(plan.headers)["Content-Encoding"] == "gzip"
    with _CompressingServer(b"", "gzip", force=True, pieces=plan.pieces) as server:
        result = read(asynchronous, server.url, fault.contract)
    assert (str(result.outcome), result.text) == (fault.expected.outcome, fault.expected.text)
    assert result.outcome is Outcome.COMPLETED and result.text


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
