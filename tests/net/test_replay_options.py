"""ReplayServer's upstream options (issue 27): the X-Accel-Buffering header, gzip with a flushing or a
buffering compressor, a body that ends without the chunked terminator, and the bytes-sent counters."""

from __future__ import annotations

import socket

import httpx
import pytest

from lesson_lib.captures import load
from lesson_lib.net import stream_http
from lesson_lib.net.replay import ReplayServer

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


@pytest.mark.parametrize("value", ["", "No", "off", True, 0, b"no"])
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
