"""ReplayServer's upstream options (issue 27): the X-Accel-Buffering header, gzip with a flushing or a
buffering compressor, a body that ends without the chunked terminator, and the bytes-sent counters."""

from __future__ import annotations

import gzip
import socket
import zlib

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import split_at
from lesson_lib.captures import load, names
from lesson_lib.net import stream_http
from lesson_lib.net.replay import HEARTBEAT, ReplayServer
from tests.net.test_sdks import openai_chat_text

BODY = "data: 你好\n\ndata: Ångström\ndata: café 🙂\n\nid: 3\ndata: 完成\n\n".encode()


def raw_get(port: int, timeout: float = 5.0) -> tuple[bytes, bytes]:
    """A raw-socket GET with ``Connection: close``: the response head and everything after it."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    return head, rest


def header_lines(head: bytes) -> dict[str, str]:
    lines = head.decode("latin-1").split("\r\n")[1:]
    return {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}


@pytest.mark.parametrize("value", ["yes", "no", None])
def test_x_accel_buffering_header_as_asked(value):
    with ReplayServer(BODY, x_accel_buffering=value) as server:
        with httpx.Client(trust_env=False) as client:
            response = client.get(server.url)
        assert response.content == BODY
        assert response.headers.get("x-accel-buffering") == value
        head, _ = raw_get(server.port)
        assert header_lines(head).get("x-accel-buffering") == value


def test_x_accel_buffering_defaults_to_no():
    with ReplayServer(BODY) as server:
        assert header_lines(raw_get(server.port)[0])["x-accel-buffering"] == "no"


@pytest.mark.parametrize("value", ["", "No", "off", True, 0, b"no", ["no"]])
def test_bad_x_accel_buffering_is_named_before_any_socket(value, monkeypatch):
    def no_socket(*args, **kwargs):
        raise AssertionError("a socket was opened")

    monkeypatch.setattr(socket, "socket", no_socket)
    with pytest.raises(ValueError, match="x_accel_buffering"):
        ReplayServer(BODY, x_accel_buffering=value)


# -- chunked_terminator ---------------------------------------------------------------------------------
def test_without_the_terminator_every_byte_arrives_then_a_clean_fin():
    with ReplayServer(BODY, cuts=[7, 30], chunked_terminator=False) as server:
        head, rest = raw_get(server.port)  # recv() returned b"": an orderly FIN (a reset would raise)
        assert head.startswith(b"HTTP/1.1 200")
        assert rest == b"7\r\n" + BODY[:7] + b"\r\n17\r\n" + BODY[7:30] + b"\r\n" + (
            b"%x\r\n" % (len(BODY) - 30)) + BODY[30:] + b"\r\n"  # no "0\r\n\r\n"
    with ReplayServer(BODY, cuts=[7, 30]) as server:
        assert raw_get(server.port)[1].endswith(BODY[30:] + b"\r\n0\r\n\r\n")


def test_without_the_terminator_httpx_gets_every_byte_then_raises():
    with ReplayServer(BODY, cuts=[7], chunked_terminator=False) as server:
        got = b""
        with (
            httpx.Client(trust_env=False) as client,
            client.stream("GET", server.url) as response,
            pytest.raises(httpx.RemoteProtocolError),
        ):
            for read in response.iter_raw():
                got += read
        assert got == BODY


def test_chunked_terminator_must_be_a_bool():
    with pytest.raises(TypeError, match="chunked_terminator"):
        ReplayServer(BODY, chunked_terminator=1)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # the in-band terminal signal ([DONE], message_stop, done: true) arrived: judged on it, error kept
        ("openai-chat/completed", "completed"),
        ("anthropic-messages/completed", "completed"),
        ("ollama/completed", "completed"),
        ("openai-chat/incomplete", "incomplete"),
        # Gemini's stream has no terminal event: only a finished body ends it, so a cut framing is a cut
        ("gemini/completed", "truncated"),
    ],
)
def test_without_the_terminator_lesson_lib_judges_the_terminal_signal(name, expected):
    capture = load(name)
    with ReplayServer(capture.body, cuts=[len(capture.body) // 2], chunked_terminator=False) as server:
        result = stream_http(server.url, capture.contract)
    assert result.outcome.value == expected
    assert result.error is not None and result.error.kind == "RemoteProtocolError"
    assert result.is_final == (expected == "completed")


# -- gzip -----------------------------------------------------------------------------------------------
def chunks_as_they_arrive(port: int, count: int, timeout: float = 5.0) -> tuple[bytes, list[bytes]]:
    """The response head and, read with a chunked decoder on a raw socket, the data of each chunk."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    with sock, sock.makefile("rb") as reader:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        head = b""
        while (line := reader.readline()) not in (b"\r\n", b""):
            head += line
        got = []
        while len(got) < count and (size := int(reader.readline().strip() or b"0", 16)):
            got.append(reader.read(size))
            reader.readline()
        return head, got


def inflate_prefix(data: bytes) -> bytes:
    return zlib.decompressobj(wbits=31).decompress(data)


def test_gzip_piece_flush_lets_each_piece_inflate_as_it_arrives():
    cuts = [7, 30, 50]
    pieces = split_at(BODY, cuts)
    # delay: the server writes piece k+1 only later, so "what has arrived after piece k" is one chunk more
    with ReplayServer(BODY, cuts, content_encoding="gzip", delay=0.05) as server:
        head, chunks = chunks_as_they_arrive(server.port, len(pieces) + 1)
    assert b"content-encoding: gzip" in head.lower()
    assert len(chunks) == len(pieces) + 1  # one chunk per piece, then the member's end
    for k in range(1, len(pieces) + 1):
        assert inflate_prefix(b"".join(chunks[:k])) == b"".join(pieces[:k])
    assert gzip.decompress(b"".join(chunks)) == BODY


def test_gzip_end_flush_holds_a_small_body_until_the_end():
    cuts = [7, 30, 50]
    with ReplayServer(BODY, cuts, content_encoding="gzip", compress_flush="end") as server:
        _, chunks = chunks_as_they_arrive(server.port, 99)
    assert inflate_prefix(b"".join(chunks[:-1])) == b""  # nothing inflatable before the last write
    assert gzip.decompress(b"".join(chunks)) == BODY


def test_gzip_heartbeats_go_through_the_compressor():
    body = b"data: a\n\ndata: b\n\ndata: c\n\n"
    with ReplayServer(body, [9, 18], heartbeat_every=1, content_encoding="gzip") as server:
        _, chunks = chunks_as_they_arrive(server.port, 99)
        assert server.heartbeats_sent == 2
    expected = HEARTBEAT.join([b"data: a\n\n", b"data: b\n\n", b"data: c\n\n"])
    assert gzip.decompress(b"".join(chunks)) == expected


@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_gzip_whole_body_inflates_exactly_for_any_body_and_cuts(data):
    body = data.draw(st.binary(min_size=1, max_size=300))
    cuts = data.draw(st.lists(st.integers(1, max(1, len(body) - 1)), max_size=5)) if len(body) > 1 else []
    flush = data.draw(st.sampled_from(["piece", "end"]))
    server = ReplayServer(body, cuts, content_encoding="gzip", compress_flush=flush)
    with server, httpx.Client(trust_env=False) as client:
        response = client.get(server.url)
    assert response.content == body  # httpx inflates
    if flush == "piece":
        with ReplayServer(body, cuts, content_encoding="gzip") as server:
            _, chunks = chunks_as_they_arrive(server.port, 999)
        ends = [*sorted(set(cuts)), len(body)]
        for k, end in enumerate(ends, 1):
            assert inflate_prefix(b"".join(chunks[:k])) == body[:end]


def test_gzip_with_a_drop_is_truncated_like_the_plain_drop():
    # The chunked framing is cut too, so httpx's RemoteProtocolError comes first: lesson_lib's
    # CompressedBodyCutError is for a framing that ends cleanly inside a member, which a drop never does.
    capture = load("openai-chat/completed")
    drop, cuts = len(capture.body) * 2 // 3, list(range(40, len(capture.body), 40))
    with ReplayServer(capture.body, cuts, drop_after=drop) as plain:
        want = stream_http(plain.url, capture.contract)
    with ReplayServer(capture.body, cuts, drop_after=drop, content_encoding="gzip") as server:
        got = stream_http(server.url, capture.contract, headers={"Accept-Encoding": "gzip"})
    assert got.outcome.value == want.outcome.value == "truncated"
    assert got.text == want.text != ""  # under "piece", every byte before the drop was flushed
    assert got.error is not None and got.error.kind == "RemoteProtocolError"


@pytest.mark.parametrize("flush", ["piece", "end"])
def test_lesson_lib_reads_each_gzip_capture_as_the_plain_one(flush):
    for name in [n for n in names() if n.startswith("openai-chat/")]:
        capture = load(name)
        cuts = list(range(37, len(capture.body), 37))
        with ReplayServer(capture.body, cuts) as plain:
            want = stream_http(plain.url, capture.contract)
        with ReplayServer(capture.body, cuts, content_encoding="gzip", compress_flush=flush) as server:
            got = stream_http(server.url, capture.contract, headers={"Accept-Encoding": "gzip"})
        seen = (got.outcome, got.text, got.finish_reason)
        assert seen == (want.outcome, want.text, want.finish_reason), name


@pytest.mark.parametrize(
    ("options", "argument"),
    [
        ({"content_encoding": "br"}, "content_encoding"),
        ({"content_encoding": "GZIP"}, "content_encoding"),
        ({"compress_flush": "piece"}, "compress_flush"),
        ({"content_encoding": "gzip", "compress_flush": "always"}, "compress_flush"),
    ],
)
def test_bad_compression_options_are_named_before_any_socket(options, argument, monkeypatch):
    monkeypatch.setattr(socket, "socket", lambda *a, **k: (_ for _ in ()).throw(AssertionError("socket")))
    with pytest.raises(ValueError, match=argument):
        ReplayServer(BODY, **options)


# -- bytes_sent -----------------------------------------------------------------------------------------
def test_bytes_sent_counts_body_bytes_as_sent_without_framing():
    with ReplayServer(BODY, [7, 30]) as server:
        _, rest = raw_get(server.port)
        assert server.bytes_sent == server.body_bytes_sent == len(BODY) < len(rest)
        raw_get(server.port)
        assert server.bytes_sent == server.body_bytes_sent == 2 * len(BODY)
    with ReplayServer(BODY, [7, 30], content_encoding="gzip") as server:
        _, chunks = chunks_as_they_arrive(server.port, 99)
        assert server.bytes_sent == len(b"".join(chunks)) and server.body_bytes_sent == len(BODY)
    with ReplayServer(BODY, [7, 30], drop_after=20) as server:
        raw_get(server.port)
        assert server.bytes_sent == server.body_bytes_sent == 20


@pytest.mark.parametrize("flush", ["piece", "end"])
def test_the_openai_sdk_reads_the_gzip_stream_to_the_same_text(flush):
    capture = load("openai-chat/completed")
    cuts = list(range(37, len(capture.body), 37))
    with ReplayServer(capture.body, cuts) as plain:
        want = openai_chat_text(plain.url)
    with ReplayServer(capture.body, cuts, content_encoding="gzip", compress_flush=flush) as server:
        got = openai_chat_text(server.url)
        assert server.requests and server.bytes_sent > 0
    assert got == want != ""
