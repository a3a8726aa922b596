"""A response on the wire: the HTTP/1.1 bytes the fault server writes for a :class:`~.plan.Plan`, and how a
raw client reads them back to compare them with the plan.

The server's half (:func:`response_head`, :func:`chunk`, :data:`LAST_CHUNK`) writes exactly what a plan
says: the status line, the plan's headers in order, then ``Transfer-Encoding: chunked`` or
``Content-Length``, then ``Connection: close``. The client's half (:func:`parse_response`,
:func:`differences`, :func:`fetch`) is for tests and the load benchmark: it reads a whole response as bytes,
keeps each chunk apart, and says where it departs from its plan. Standard library only.
"""

from __future__ import annotations

import asyncio
import contextlib
import http
from dataclasses import dataclass

from .plan import Plan

__all__ = [
    "LAST_CHUNK",
    "Received",
    "chunk",
    "differences",
    "encode_request",
    "fetch",
    "parse_response",
    "response_head",
]

#: The zero-length chunk and the empty trailer that end a chunked body.
LAST_CHUNK = b"0\r\n\r\n"


def _reason(status: int) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


def response_head(plan: Plan) -> bytes:
    """The status line and headers for ``plan``, ending with the blank line: the plan's headers as given, in
    order, then the framing header (``Transfer-Encoding: chunked``, or ``Content-Length``: the plan's
    ``declared_length`` or the body's length), then ``Connection: close``."""
    lines = [f"HTTP/1.1 {plan.status} {_reason(plan.status)}"]
    lines += [f"{name}: {value}" for name, value in plan.headers]
    if plan.framing == "chunked":
        lines.append("Transfer-Encoding: chunked")
    else:
        length = len(plan.body) if plan.declared_length is None else plan.declared_length
        lines.append(f"Content-Length: {length}")
    lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8")


def chunk(data: bytes) -> bytes:
    """``data`` as one chunk of the chunked transfer encoding (``data`` not empty: that is the last chunk)."""
    return b"%x\r\n%s\r\n" % (len(data), data)


@dataclass(frozen=True)
class Received:
    """One response as a raw client read it: ``headers`` as sent, in order; ``chunks`` each chunk's data (a
    chunked body) or ``None`` (a ``Content-Length`` body, or none); ``body`` the bytes of the body;
    ``terminated`` whether the body ended as its framing says (the zero chunk came, or all of
    ``Content-Length``); ``reset`` whether the read ended with a connection reset; ``extra`` any bytes after
    the body's end."""

    status: int
    reason: str
    headers: tuple[tuple[str, str], ...]
    chunks: tuple[bytes, ...] | None
    body: bytes
    terminated: bool
    reset: bool
    extra: bytes = b""

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (any case), or ``None``."""
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None


def parse_response(raw: bytes, *, reset: bool = False) -> Received:
    """Read one whole response, as received (``reset``: the connection was reset after these bytes).

    A chunked body is split into its chunks; one cut inside a chunk keeps the part that came as its last
    chunk, with ``terminated`` false. ``ValueError`` for bytes that are not an HTTP/1.1 response head."""
    head_end = raw.find(b"\r\n\r\n")
    if head_end < 0:
        raise ValueError(f"no end of the response head in {len(raw)} bytes")
    status_line, *header_lines = raw[:head_end].decode("utf-8").split("\r\n")
    version, _, rest = status_line.partition(" ")
    code, _, reason = rest.partition(" ")
    if not version.startswith("HTTP/1.") or not code.isdigit():
        raise ValueError(f"not an HTTP/1.x status line: {status_line[:60]!r}")
    headers = []
    for line in header_lines:
        name, sep, value = line.partition(":")
        if not sep:
            raise ValueError(f"a header line without a colon: {line[:60]!r}")
        headers.append((name, value.strip()))
    body = raw[head_end + 4 :]
    found = Received(int(code), reason, tuple(headers), None, b"", False, reset)
    if (found.header("transfer-encoding") or "").lower() == "chunked":
        chunks, terminated, extra = _dechunk(body)
        return Received(
            found.status, reason, found.headers, tuple(chunks), b"".join(chunks), terminated, reset, extra
        )
    length = found.header("content-length")
    if length is None:
        return Received(found.status, reason, found.headers, None, body, not reset, reset)
    declared = int(length)
    return Received(
        found.status, reason, found.headers, None, body[:declared], len(body) >= declared, reset,
        body[declared:],
    )


def _dechunk(body: bytes) -> tuple[list[bytes], bool, bytes]:
    chunks: list[bytes] = []
    at = 0
    while True:
        line_end = body.find(b"\r\n", at)
        if line_end < 0:
            return chunks, False, b""
        size = int(body[at:line_end].split(b";", 1)[0], 16)
        start = line_end + 2
        if size == 0:
            end = body.find(b"\r\n", start)  # no trailers: the empty line follows at once
            if end != start:
                return chunks, False, b""
            return chunks, True, body[start + 2 :]
        data = body[start : start + size]
        if len(data) < size:
            if data:
                chunks.append(data)
            return chunks, False, b""
        chunks.append(data)
        if body[start + size : start + size + 2] != b"\r\n":
            return chunks, False, b""
        at = start + size + 2


def differences(plan: Plan, received: Received) -> list[str]:
    """How ``received`` departs from what the server must send for ``plan`` (empty: not at all): the status,
    the headers in order, each chunk (a chunked body: one chunk per ``Send``), the body, and the end (the
    zero chunk only for ``"clean"``; all of a ``Content-Length`` unless the plan declares more than its
    body; a reset only for ``"reset"``)."""
    found: list[str] = []
    if received.status != plan.status:
        found.append(f"status {received.status}, planned {plan.status}")
    framing = (
        ("Transfer-Encoding", "chunked")
        if plan.framing == "chunked"
        else ("Content-Length", str(len(plan.body) if plan.declared_length is None else plan.declared_length))
    )
    planned_headers = (*plan.headers, framing, ("Connection", "close"))
    if received.headers != planned_headers:
        found.append(f"headers {received.headers!r}, planned {planned_headers!r}")
    if plan.framing == "chunked" and received.chunks != tuple(plan.pieces):
        count = "none" if received.chunks is None else len(received.chunks)
        found.append(f"{count} chunks, planned {len(plan.pieces)} (one per Send)")
    if received.body != plan.body:
        found.append(f"body of {len(received.body)} bytes differs from the plan's {len(plan.body)}")
    if plan.framing == "chunked":
        terminated = plan.end == "clean"  # the zero chunk is sent only at a clean end
    else:  # a Content-Length body is whole when all its declared bytes came, however it ended
        terminated = plan.declared_length is None or plan.declared_length == len(plan.body)
    if received.terminated != terminated:
        found.append(f"terminated={received.terminated} for end={plan.end!r}")
    if received.reset != (plan.end == "reset"):
        found.append(f"reset={received.reset} for end={plan.end!r}")
    if received.extra:
        found.append(f"{len(received.extra)} bytes after the body's end")
    return found


def encode_request(
    method: str, target: str, host: str, headers: tuple[tuple[str, str], ...] = (), body: bytes = b""
) -> bytes:
    """One HTTP/1.1 request as bytes, with ``Host``, and ``Content-Length`` when there is a body."""
    lines = [f"{method} {target} HTTP/1.1", f"Host: {host}"]
    lines += [f"{name}: {value}" for name, value in headers]
    if body or method in ("POST", "PUT", "PATCH"):
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8") + body


async def fetch(host: str, port: int, request: bytes, *, read_size: int = 65536) -> tuple[bytes, bool]:
    """Send ``request`` on a new connection and read until the server ends it: the bytes and whether the
    connection was reset. (No timeout here: the caller bounds it, e.g. with ``asyncio.timeout``.)"""
    reader, writer = await asyncio.open_connection(host, port)
    data = bytearray()
    reset = False
    try:
        writer.write(request)
        await writer.drain()
        while piece := await reader.read(read_size):
            data += piece
    except ConnectionResetError:
        reset = True
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    return bytes(data), reset
