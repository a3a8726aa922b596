"""What the fault server's tests share: a catalogue entry that serves a given plan, raw-socket exchanges,
and the first request each catalogue entry is sent."""

from __future__ import annotations

import socket
from collections.abc import Callable
from dataclasses import dataclass, field

from lesson_lib.faults import CATALOGUE, Expected, Plan, Request
from lesson_lib.faults.examples import example_request
from lesson_lib.faults.http1 import Received, encode_request, parse_response


@dataclass(frozen=True)
class PlanFault:
    """A catalogue entry of the tests' own: ``respond`` answers every request with ``plan`` (or calls
    ``respond_with``), so the server can be made to carry out any plan, or to meet a failing entry."""

    name: str
    plan: Plan | None = None
    respond_with: Callable[[Request], Plan] | None = field(default=None, compare=False)
    contract: str = "openai-chat"
    lesson: str = "00"
    expected: Expected = field(default_factory=lambda: Expected("completed", ""))
    seen: list[Request] = field(default_factory=list, compare=False)

    def respond(self, request: Request) -> Plan:
        self.seen.append(request)
        if self.respond_with is not None:
            return self.respond_with(request)
        assert self.plan is not None
        return self.plan

    def as_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "contract": self.contract,
            "lesson": self.lesson,
            "description": "a test's own plan",
            "path": "/stream",
            "expected": {"outcome": self.expected.outcome, "text": self.expected.text, "also": []},
        }


@dataclass(frozen=True)
class Exchange:
    """What a raw client got: every read in order, whether the connection was reset, and the parse."""

    reads: tuple[bytes, ...]
    reset: bool

    @property
    def raw(self) -> bytes:
        return b"".join(self.reads)

    @property
    def response(self) -> Received:
        return parse_response(self.raw, reset=self.reset)


def exchange(
    port: int, request: bytes, *, timeout: float = 20.0, then: Callable[[socket.socket], None] | None = None
) -> Exchange:
    """Send ``request`` on a new connection to 127.0.0.1:``port`` and read until the server ends it."""
    reads: list[bytes] = []
    reset = False
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        if request:
            sock.sendall(request)
        if then is not None:
            then(sock)
        try:
            while piece := sock.recv(65536):
                reads.append(piece)
        except ConnectionResetError:
            reset = True
    return Exchange(tuple(reads), reset)


def get(port: int, target: str, headers: tuple[tuple[str, str], ...] = ()) -> Received:
    return exchange(port, encode_request("GET", target, f"127.0.0.1:{port}", headers)).response


def post(port: int, target: str, body: bytes, headers: tuple[tuple[str, str], ...] = ()) -> Received:
    return exchange(port, encode_request("POST", target, f"127.0.0.1:{port}", headers, body)).response


def first_request(fault: object, port: int) -> tuple[bytes, Request]:
    """The example request for a catalogue entry, as bytes to send and as the ``Request`` its ``respond``
    gets (path after ``/faults/<name>``, query, lower-case header names, body)."""
    ex = example_request(fault.contract, fault.service_path)  # type: ignore[attr-defined]
    host = f"127.0.0.1:{port}"
    return ex.encode(f"/faults/{fault.name}", host), ex.as_fault_request(host)  # type: ignore[attr-defined]


def catalogue_names() -> list[str]:
    return [fault.name for fault in CATALOGUE]
