"""What the upstream does in each column of the proxy matrix: the ``ReplayServer`` each one is.

Every upstream plays the ``openai-chat/completed`` capture (or, for ``slow_reader``, a large body made of
its kind of chunks) and is built so that the matrix's classes are separated by a wide margin, not by a
clock: the upstream pauses for :data:`PAUSE` seconds (or stalls longer) at a known body offset,
:attr:`Plan.pause_at`. A client that has answer text while the upstream has sent no more than that offset
got it *streamed*; one whose first text came after it got it *at once* (see
:mod:`lesson_lib.teach.proxy_matrix`). Nothing here is timed or stored as a time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..captures import load
from ..core.completion import consume
from ..net.replay import ReplayServer

__all__ = ["PAUSE", "SLOW_BODY_BYTES", "STALL", "UPSTREAMS", "Plan", "plan", "text_of"]

CONTRACT = "openai-chat"
#: The pause before the upstream's last piece (or before its drop), in seconds: wide against a loaded
#: machine's hiccups, short for the test budget.
PAUSE = 1.0
#: The stall of ``stall`` and ``heartbeats``, in seconds (longer than nginx's ``read_timeout_1s``).
STALL = 3.0
#: The size of ``slow_reader``'s body: larger than the loopback socket buffers a paused stream can fill.
SLOW_BODY_BYTES = 16 * 1024 * 1024
_PIECE = 400  # bytes per piece of the capture

#: What the upstream does, by name (the matrix's upstream column).
UPSTREAMS: dict[str, str] = {
    "whole": f"the capture in {_PIECE}-byte pieces 20 ms apart, a {PAUSE:g} s pause before the last piece "
    "(which carries the finish chunk and data: [DONE])",
    "cut_in_character": "the capture cut inside each of its multi-byte characters, "
    f"20 ms apart, a {PAUSE:g} s pause before the last piece",
    "drop": f"the capture in {_PIECE}-byte pieces, a {PAUSE:g} s pause, then a part of one more piece and "
    "the connection is shut down: no terminating chunk, no finish chunk, no [DONE]",
    "stall": f"the capture in {_PIECE}-byte pieces, {STALL:g} s of silence after the first half, "
    "then the rest",
    "heartbeats": f"the capture cut at event boundaries, an SSE comment (: ping) after each piece and every "
    f"0.25 s through a {STALL:g} s stall after the first half",
    "client_leaves": "the capture in 40-byte pieces 50 ms apart (about 6 s); the client leaves after about "
    "1 s. Is the upstream connection closed within 2 s of that?",
    "slow_reader": f"a {SLOW_BODY_BYTES // (1024 * 1024)} MiB body of 1 KiB chat chunks sent as fast as the "
    "connection takes it; the client handles one chunk per 100 ms for 3 s, then leaves. Is the upstream "
    "paused (flow control) or does the proxy take the body in (buffering)?",
}


@dataclass(frozen=True)
class Plan:
    """One upstream: the body, the ``ReplayServer`` options, and ``pause_at``: the body bytes sent when the
    upstream goes silent for at least :data:`PAUSE` seconds before its last piece (or its stall)."""

    name: str
    body: bytes
    options: dict[str, Any] = field(default_factory=dict)
    pause_at: int = 0

    def server(self, x_accel_buffering: str | None) -> ReplayServer:
        """A new (not started) ReplayServer playing this upstream, sending ``X-Accel-Buffering`` as given
        (``None``: no such header)."""
        return ReplayServer(self.body, x_accel_buffering=x_accel_buffering, max_lifetime=120, **self.options)


def text_of(body: bytes) -> str:
    """The answer text of the complete events in ``body`` (a prefix of the capture), as lesson_lib reads
    it: what a client that lost nothing keeps when the upstream stopped there."""
    return consume([body], CONTRACT).text if body else ""


def _every(body: bytes, step: int) -> list[int]:
    return list(range(step, len(body), step))


def _whole(body: bytes) -> Plan:
    cuts = _every(body, _PIECE)
    return Plan(
        "whole", body, {"cuts": cuts, "delay": 0.02, "stall_after": len(cuts), "stall_for": PAUSE}, cuts[-1]
    )


def _cut_in_character(body: bytes) -> Plan:
    cuts = [i for i in range(1, len(body)) if 0x80 <= body[i] < 0xC0 and not 0x80 <= body[i - 1] < 0xC0]
    last = _every(body, _PIECE)[-1]
    cuts = [c for c in cuts if c < last] + [last]
    return Plan(
        "cut_in_character",
        body,
        {"cuts": cuts, "delay": 0.02, "stall_after": len(cuts), "stall_for": PAUSE},
        last,
    )


def _drop(body: bytes) -> Plan:
    cuts = _every(body, _PIECE)
    k = len(cuts) * 6 // 10
    drop = cuts[k] + _PIECE // 3  # inside the piece after cuts[k], inside an event
    return Plan(
        "drop",
        body,
        {"cuts": cuts, "delay": 0.02, "stall_after": k + 1, "stall_for": PAUSE, "drop_after": drop},
        cuts[k],
    )


def _stall(body: bytes) -> Plan:
    cuts = _every(body, _PIECE)
    k = len(cuts) // 2
    return Plan(
        "stall", body, {"cuts": cuts, "delay": 0.02, "stall_after": k, "stall_for": STALL}, cuts[k - 1]
    )


def _boundaries(body: bytes) -> list[int]:
    found, at = [], body.find(b"\n\n")
    while at != -1:
        found.append(at + 2)
        at = body.find(b"\n\n", at + 2)
    return [b for b in found if b < len(body)]


def _heartbeats(body: bytes) -> Plan:
    cuts = _boundaries(body)[::3]
    k = len(cuts) // 2
    options = {"cuts": cuts, "delay": 0.25, "heartbeat_every": 1, "stall_after": k, "stall_for": STALL}
    return Plan("heartbeats", body, options, cuts[k - 1])


def _client_leaves(body: bytes) -> Plan:
    return Plan("client_leaves", body, {"cuts": _every(body, 40), "delay": 0.05}, len(body) - 1)


def slow_body() -> bytes:
    """``slow_reader``'s body: :data:`SLOW_BODY_BYTES` of Chat Completions chunks of 1 KiB of text each,
    then a finish chunk and ``data: [DONE]``."""
    chunk = b'data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"%s"}}]}\n\n'
    one = chunk % (b"x" * (1024 - len(chunk) + 2))
    end = (
        b'data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}'
        b"\n\ndata: [DONE]\n\n"
    )
    return one * (SLOW_BODY_BYTES // len(one)) + end


def _slow_reader(_body: bytes) -> Plan:
    body = slow_body()
    return Plan("slow_reader", body, {"cuts": _every(body, 64 * 1024)}, len(body) - 1)


_BUILDERS = {
    "whole": _whole,
    "cut_in_character": _cut_in_character,
    "drop": _drop,
    "stall": _stall,
    "heartbeats": _heartbeats,
    "client_leaves": _client_leaves,
    "slow_reader": _slow_reader,
}


def plan(upstream: str) -> Plan:
    """The :class:`Plan` of ``upstream`` (a key of :data:`UPSTREAMS`); ``ValueError`` naming it otherwise."""
    if not isinstance(upstream, str) or upstream not in _BUILDERS:
        raise ValueError(f"upstream must be one of {', '.join(UPSTREAMS)}, not {upstream!r}")
    return _BUILDERS[upstream](load("openai-chat/completed").body)
