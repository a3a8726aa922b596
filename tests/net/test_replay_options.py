"""ReplayServer's upstream options (issue 27): the X-Accel-Buffering header, gzip with a flushing or a
buffering compressor, a body that ends without the chunked terminator, and the bytes-sent counters."""

from __future__ import annotations

import socket

import httpx
import pytest

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
