"""Issue 27: a client slower than the upstream, through lesson_lib's relay, over real sockets.

The upstream (:class:`benchmarks.relay_backpressure.CountingUpstream`, or a ReplayServer) writes as fast as
TCP lets it; the client is a raw socket with a small ``SO_RCVBUF`` reading 64 bytes every 50 ms. The relay
must wait for its client (its pipeline takes the next upstream read only once the last one's events were
sent), so the upstream is paused by TCP flow control: what it has sent beyond what the client has read is
bounded by the socket buffers between them plus the relay's own bound, and a client that does not read for
``client_stall_timeout`` makes the relay give up and close the upstream.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks.relay_backpressure import CountingUpstream, RelayProcess, SlowReader, measure
from lesson_lib.net.relay import CLIENT_TOO_SLOW, RelayServer, read_relay
from lesson_lib.net.replay import ReplayServer

KiB, MiB = 1024, 1024 * 1024
EVENT = 1024  # bytes per upstream event (an openai-chat chunk, re-encoded by the relay byte for byte)
#: What the relay's pipeline may hold that no send took: one upstream read (httpcore reads at most 64 KiB)
#: and the unfinished event after it.
RELAY_BOUND = 64 * KiB + EVENT
UPSTREAM_SNDBUF = 64 * KiB
CLIENT_RCVBUF = 4 * KiB


def _max_buffer(name: str) -> int:
    """The most the kernel lets one socket's buffer grow to by autotuning (``tcp_rmem`` / ``tcp_wmem``)."""
    return int(Path(f"/proc/sys/net/ipv4/{name}").read_text().split()[2])


def _kernel_bound() -> int:
    """The socket buffers between the upstream and the client: the upstream's fixed send buffer (doubled by
    the kernel), the relay's receive buffer from the upstream and send buffer to the client (autotuned, at
    most tcp_rmem / tcp_wmem's maximum), the client's receive buffer (doubled)."""
    return 2 * UPSTREAM_SNDBUF + _max_buffer("tcp_rmem") + _max_buffer("tcp_wmem") + 2 * CLIENT_RCVBUF


def _relay(url: str, **options: object) -> RelayServer:
    return RelayServer(url, "openai-chat", upstream_method="GET", **options)  # type: ignore[arg-type]


def test_a_slow_reader_paces_the_upstream_and_the_relay_holds_at_most_one_read() -> None:
    # The body is larger than every buffer on the way: a relay that read ahead would let it all through.
    size = _kernel_bound() + 8 * MiB
    with (
        CountingUpstream(size, event_size=EVENT, sndbuf=UPSTREAM_SNDBUF) as upstream,
        _relay(upstream.url) as relay,
    ):
        samples = measure(
            relay.stream_url(),
            lambda: upstream.sent,
            read_size=64,
            interval=0.05,
            duration=2.0,
            sample_every=0.25,
            rcvbuf=CLIENT_RCVBUF,
        )
        relay_read, relay_sent, held = relay.upstream_bytes, relay.client_bytes, relay.max_held
        finished = upstream.finished
    read = samples[-1].client_read
    assert 1500 < read < 4 * KiB  # the client really was slow: ~64 bytes per 50 ms for 2 s
    assert finished == 0 and samples[-1].upstream_sent < upstream.body_size  # the upstream was paused
    assert max(sample.lead for sample in samples) <= _kernel_bound() + RELAY_BOUND
    # What the relay took from the upstream is what it sent (into its socket) plus at most its bound...
    assert 0 <= relay_read - relay_sent <= RELAY_BOUND and held <= RELAY_BOUND
    # ...and what it sent the client has not read is in the socket buffers between them.
    assert relay_sent - read <= _max_buffer("tcp_wmem") + 2 * CLIENT_RCVBUF


def test_a_fast_reader_still_gets_the_whole_stream_byte_for_byte() -> None:
    with CountingUpstream(2 * MiB, event_size=EVENT) as upstream, _relay(upstream.url) as relay:
        reply = read_relay(relay.stream_url())
        assert upstream.finished == 1
    assert len(reply.events) == upstream.events
    assert all(event.data.encode() == upstream.event[len(b"data: ") : -2] for event in reply.events)
    assert reply.outcome is not None and reply.outcome["outcome"] == "truncated"  # no [DONE]: it is cut
    assert relay.gave_up == 0 and relay.last_outcome is None
    assert relay.upstream_bytes == upstream.body_size and relay.client_bytes == len(reply.body)


def _chat_events(count: int) -> bytes:
    event = b'data: {"choices":[{"index":0,"delta":{"content":"' + b"x" * 960 + b'"}}]}\n\n'
    return event * count


def _stalled_client(url: str) -> socket.socket:
    reader = SlowReader(url, rcvbuf=CLIENT_RCVBUF)
    return reader.sock


def _wait_until(condition: Callable[[], bool], deadline: float, step: float = 0.05) -> None:
    """Poll ``condition`` every ``step`` seconds until it holds or ``time.monotonic()`` passes ``deadline``;
    the caller asserts what it waited for."""
    while not condition() and time.monotonic() < deadline:
        time.sleep(step)


def _read_all(sock: socket.socket) -> bytes:
    sock.settimeout(10)
    data = bytearray()
    while chunk := sock.recv(1 << 20):
        data += chunk
    return bytes(data)


def test_a_client_that_stops_reading_makes_the_relay_give_up_and_close_the_upstream() -> None:
    body = _chat_events(48 * 1024)  # 48 MiB: more than the socket buffers hold
    with (
        ReplayServer(body, max_lifetime=30) as upstream,
        _relay(upstream.url, client_stall_timeout=0.5) as relay,
    ):
        sock = _stalled_client(relay.stream_url())
        deadline = time.monotonic() + 10
        _wait_until(lambda: relay.gave_up > 0, deadline)
        assert relay.gave_up == 1 and relay.last_outcome == CLIENT_TOO_SLOW
        _wait_until(lambda: not upstream.open_connections, deadline)
        assert upstream.connections_opened == 1 and upstream.connections_closed == 1
        # The client did not read the outcome within another 0.5 s either: the relay closed the connection,
        # so the client gets what was buffered and no end of the chunked body.
        time.sleep(1.0)
        data = _read_all(sock)
        sock.close()
    assert CLIENT_TOO_SLOW.encode() not in data and not data.endswith(b"0\r\n\r\n")


def test_a_stalled_client_that_reads_again_gets_the_client_too_slow_outcome_last() -> None:
    body = _chat_events(48 * 1024)
    with (
        ReplayServer(body, max_lifetime=30) as upstream,
        _relay(upstream.url, client_stall_timeout=1.0) as relay,
    ):
        sock = _stalled_client(relay.stream_url())
        deadline = time.monotonic() + 10
        _wait_until(lambda: relay.gave_up > 0, deadline, step=0.02)
        assert relay.gave_up == 1
        data = _read_all(sock)  # within the second the relay waits for the outcome's send
        sock.close()
        assert upstream.wait_idle(2.0) and upstream.connections_closed == 1
    assert data.endswith(b"\r\n0\r\n\r\n")  # the chunked body ended properly
    last = data.rsplit(b"event: outcome\ndata: ", 1)[1].split(b"\n", 1)[0]
    assert json.loads(last)["outcome"] == CLIENT_TOO_SLOW
    assert data.count(b"event: outcome") == 1


def test_a_client_that_reads_too_slowly_for_one_send_to_finish_in_time_is_given_up_too() -> None:
    # The timeout is per send: 64 bytes per 50 ms does not free the buffers before a send within 1 s.
    with (
        CountingUpstream(16 * MiB, sndbuf=UPSTREAM_SNDBUF) as upstream,
        _relay(upstream.url, client_stall_timeout=1.0) as relay,
    ):
        samples = measure(
            relay.stream_url(),
            lambda: upstream.sent,
            read_size=64,
            interval=0.05,
            duration=2.5,
            rcvbuf=CLIENT_RCVBUF,
        )
        assert samples[-1].client_read > 2 * KiB  # it did read, all along
        assert relay.gave_up == 1 and relay.last_outcome == CLIENT_TOO_SLOW
        _wait_until(lambda: upstream.closed >= 1, time.monotonic() + 5)
        assert upstream.closed == 1 and upstream.finished == 0


@pytest.mark.parametrize("bad", [0, -1, "5", None, 10**9])
def test_a_bad_client_stall_timeout_fails_at_creation_naming_it(bad: object) -> None:
    with pytest.raises(ValueError, match="client_stall_timeout"):
        _relay("http://127.0.0.1:9/", client_stall_timeout=bad)


def test_a_fast_readers_long_answer_does_not_grow_the_relays_memory() -> None:
    # The relay keeps no answer text (its verdict has no content): a 16 MiB answer read as fast as it
    # comes raises the relay process's RSS by far less than the answer (keeping the text: about twice it).
    with CountingUpstream(16 * MiB, event_size=EVENT) as upstream:
        relay = RelayProcess(upstream.url)
        try:
            warm = SlowReader(relay.stream_url, rcvbuf=256 * KiB)  # first use: imports, the HTTP client
            while warm.received < MiB:
                warm.read(64 * KiB)
            warm.close()
            before, peak = relay.rss(), 0
            reader = SlowReader(relay.stream_url, rcvbuf=1 << 20)
            while not reader.eof:
                reader.read(1 << 20)
                peak = max(peak, relay.rss())
        finally:
            relay.stop()
    assert reader.received > upstream.body_size
    assert peak - before < 8 * MiB, (before, peak)
