"""Three clocks on a stream: idle_timeout (no bytes), progress_timeout (no business progress), deadline.

Fake clocks prove the rules exactly (sync reads judged between reads); real clocks on a real socket
(ReplayServer with small fixed delays, tenths of a second, and ScriptedServer for late or dribbled headers)
prove that the monotonic clock is what drives them, sync and async side by side. The real-socket tests
assert outcomes (or the exception raised) and which clock fired; those about when a clock fires also assert
the elapsed time, within generous bounds (the tolerance lesson_lib.net.http states, plus SLACK), never a
speed.
"""

from __future__ import annotations

import asyncio
import math
import socket
import threading
import time

import httpx
import pytest

from lesson_lib import Outcome, StreamResult, aconsume, consume
from lesson_lib.core.activity import CallClock, StreamTimeouts
from lesson_lib.net.http import (
    astream_http,
    astream_http_updates,
    open_reads,
    stream_http,
    stream_http_updates,
)
from lesson_lib.net.replay import ReplayServer
from tests.core.test_completion import TEXT, anthropic, chat


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class TimedSource:
    """Reads that each take ``seconds`` on a fake clock: ``[(seconds, chunk), ...]``; counts close()."""

    def __init__(self, clock: FakeClock, reads: list[tuple[float, bytes]]) -> None:
        self.clock, self.reads, self.closes = clock, list(reads), 0

    def __iter__(self):
        for seconds, chunk in self.reads:
            self.clock.now += seconds
            yield chunk

    def close(self) -> None:
        self.closes += 1


def events(body: bytes) -> list[bytes]:
    """The body cut after every blank line: one event per read."""
    pieces = body.split(b"\n\n")
    return [piece + b"\n\n" for piece in pieces[:-1]]


PING = b'event: ping\ndata: {"type": "ping"}\n\n'
ANSWER = anthropic(*TEXT)
START = events(ANSWER)[:3]  # message_start, content_block_start, the first text delta


# --- the rules, on a fake clock ------------------------------------------------------------------------


def test_heartbeats_keep_idle_quiet_but_trip_progress():
    clock = FakeClock()
    reads = [(0.1, piece) for piece in START] + [(0.1, PING)] * 10
    source = TimedSource(clock, reads)
    result = consume(source, "anthropic-messages", idle_timeout=0.5, progress_timeout=0.35, clock=clock)
    assert result.outcome is Outcome.TIMED_OUT and result.error.kind == "progress_timeout"
    assert result.text == TEXT[0] and source.closes == 1
    assert result.final_text is None and result.stats.heartbeats >= 3
    # With an idle timeout alone, the same pings keep the stream "alive" to its (truncated) end.
    alone = consume(TimedSource(FakeClock(), reads), "anthropic-messages", idle_timeout=0.5, clock=clock)
    assert alone.outcome is Outcome.TRUNCATED


def test_bytes_that_never_complete_an_event_trip_progress_not_idle():
    """The watchdog's event clock has no live option: a trickle inside one line is caught by the progress
    clock (lesson 05 says so)."""
    clock = FakeClock()
    trickle = [(0.1, b"x")] * 20  # one byte a tenth of a second, inside one endless data line
    reads = [(0.1, piece) for piece in START] + [(0.1, b"data: {")] + trickle
    source = TimedSource(clock, reads)
    result = consume(source, "anthropic-messages", idle_timeout=0.5, progress_timeout=0.75, clock=clock)
    assert result.outcome is Outcome.TIMED_OUT and result.error.kind == "progress_timeout"
    assert result.text == TEXT[0] and source.closes == 1


def test_silence_trips_idle_before_progress():
    clock = FakeClock()
    source = TimedSource(clock, [(0.1, piece) for piece in START] + [(2.0, PING)])
    result = consume(source, "anthropic-messages", idle_timeout=0.5, progress_timeout=0.8, clock=clock)
    assert result.error.kind == "idle_timeout" and result.outcome is Outcome.TIMED_OUT
    assert result.stats.bytes == sum(map(len, START))  # the late read was not used


def test_deadline_trips_on_a_slow_but_progressing_stream():
    clock = FakeClock()
    pieces = events(ANSWER)
    source = TimedSource(clock, [(0.1, piece) for piece in pieces])
    result = consume(source, "anthropic-messages", idle_timeout=0.5, deadline=0.45, clock=clock)
    assert result.outcome is Outcome.TIMED_OUT and result.error.kind == "deadline"
    assert result.error.offset == sum(map(len, pieces[:4])) == result.stats.bytes
    fast = consume(TimedSource(FakeClock(), [(0.01, p) for p in pieces]), "anthropic-messages", deadline=0.45)
    assert fast.outcome is Outcome.COMPLETED


def test_a_clock_running_out_after_the_terminal_keeps_the_verdict():
    clock = FakeClock()
    source = TimedSource(clock, [(0.0, ANSWER), (5.0, b"")])
    result = consume(source, "anthropic-messages", idle_timeout=1.0, clock=clock)
    assert result.outcome is Outcome.COMPLETED and result.error.kind == "idle_timeout"


def test_stream_timeouts_judge_in_order_and_report_the_nearest():
    clock = FakeClock()
    clocks = StreamTimeouts(idle_timeout=1.0, progress_timeout=2.0, deadline=3.0, clock=clock)
    assert clocks.budget() == (1.0, "idle_timeout") and clocks.expired() is None
    clock.now = 0.9
    clocks.on_bytes(10)  # a heartbeat's bytes: the byte clock moves, progress does not
    clocks.on_event()
    assert clocks.budget() == pytest.approx((1.0, "idle_timeout"))
    clock.now = 1.5
    clocks.on_bytes(10)
    assert clocks.budget() == pytest.approx((0.5, "progress_timeout"))
    clock.now = 2.0
    assert clocks.expired() == "progress_timeout"
    clock.now = 5.0
    assert clocks.expired() == "idle_timeout"  # the most basic failure first
    assert StreamTimeouts().budget() is None and not StreamTimeouts().active


@pytest.mark.parametrize("name", ["idle_timeout", "progress_timeout", "deadline"])
@pytest.mark.parametrize("bad", [0, -1, math.nan, math.inf, True, "1", 1e9])
def test_a_bad_timeout_is_a_value_error_naming_it_before_any_io(name, bad):
    source = TimedSource(FakeClock(), [(0.0, chat("你好"))])
    with pytest.raises(ValueError, match=rf"^{name} must be a number > 0 and <= 86400 seconds, or None"):
        consume(source, "openai-chat", **{name: bad})
    assert source.closes == 1
    with ReplayServer(chat("你好")) as server:
        with pytest.raises(ValueError, match=name):
            stream_http(server.url, "openai-chat", **{name: bad})
        with pytest.raises(ValueError, match=name):
            asyncio.run(astream_http(server.url, "openai-chat", **{name: bad}))
        with pytest.raises(ValueError, match=name):
            astream_http_updates(server.url, "openai-chat", **{name: bad})  # at the call, not at first use
        assert server.connections_opened == 0  # nothing was sent


# --- real clocks on a real socket, sync and async -----------------------------------------------------------


def cuts_at_events(body: bytes) -> list[int]:
    offsets, total = [], 0
    for piece in events(body)[:-1]:
        total += len(piece)
        offsets.append(total)
    return offsets


def hanging_server(heartbeats: bool) -> ReplayServer:
    """A generation that hangs after its first text delta: behind pings (heartbeats), or in silence."""
    return ReplayServer(
        ANSWER,
        cuts_at_events(ANSWER),
        delay=0.1,
        heartbeat_every=1 if heartbeats else None,
        stall_after=3,
        stall_for=10.0,
    )


def both_ways(url: str, **options):
    sync = stream_http(url, "anthropic-messages", **options)
    async_ = asyncio.run(astream_http(url, "anthropic-messages", **options))
    return sync, async_


def test_a_server_sending_only_heartbeats_trips_progress_not_idle():
    with hanging_server(heartbeats=True) as server:
        for result in both_ways(server.url, idle_timeout=0.5, progress_timeout=0.8):
            assert result.outcome is Outcome.TIMED_OUT and result.error.kind == "progress_timeout"
            assert result.text == TEXT[0] and result.stats.heartbeats >= 1
        assert server.heartbeats_sent >= 2
        assert server.wait_idle(3.0)


def test_a_silent_server_trips_idle():
    with hanging_server(heartbeats=False) as server:
        # timeout=30: the request's own read timeout is far away, so only the clocks can end the read.
        sync, async_ = both_ways(server.url, idle_timeout=0.3, progress_timeout=0.8, timeout=30)
        for result in (sync, async_):
            assert result.outcome is Outcome.TIMED_OUT and result.error.kind == "idle_timeout"
            assert result.text == TEXT[0]
        # Sync: the blocking read was ended by the watchdog (reported as ReadTimeout), not by the server.
        assert "the read was ended by ReadTimeout" in sync.error.message
        assert server.wait_idle(3.0)


def test_the_deadline_trips_on_a_slow_but_progressing_stream():
    with ReplayServer(ANSWER, cuts_at_events(ANSWER), delay=0.1) as server:
        for result in both_ways(server.url, idle_timeout=0.5, progress_timeout=0.5, deadline=0.35):
            assert result.outcome is Outcome.TIMED_OUT and result.error.kind == "deadline"
            assert result.text and result.text != "".join(TEXT)
        for result in both_ways(server.url, idle_timeout=0.5, progress_timeout=0.5, deadline=5.0):
            assert result.outcome is Outcome.COMPLETED  # the same stream, within its deadline
        assert server.wait_idle(3.0)


def test_async_idle_timeout_fires_inside_a_read():
    # An async read is bounded by the nearest clock: the silent stall is interrupted, not waited out.
    async def main():
        with hanging_server(heartbeats=False) as server:
            result = await aconsume_http(server.url)
            return result, server.wait_idle(3.0)

    async def aconsume_http(url):
        return await astream_http(url, "anthropic-messages", idle_timeout=0.3)

    result, idle = asyncio.run(main())
    assert result.outcome is Outcome.TIMED_OUT and result.error.kind == "idle_timeout" and idle


def test_aconsume_accepts_the_same_timeouts():
    async def slow():
        for piece in START:
            yield piece
        await asyncio.sleep(5)
        yield PING

    result = asyncio.run(aconsume(slow(), "anthropic-messages", idle_timeout=0.2))
    assert result.outcome is Outcome.TIMED_OUT and result.error.kind == "idle_timeout"


# --- the deadline bounds the whole call: connect, headers, body (real loopback sockets, generous bounds) ----
#
# Tolerance stated in lesson_lib.net.http: a clock fires within about 0.1 s on an idle machine. These tests
# allow 0.7 s past the deadline (a loaded two-core machine) and each is built so that the old behaviour
# (clocks started at the body; one fixed read timeout) ends at least a second past the deadline.

SLACK = 0.7


class ScriptedServer:
    """A one-purpose HTTP server on 127.0.0.1: each connection gets ``script`` ``[(delay, bytes), ...]``
    (sleep, then send), then the connection is held open, silent, until the server stops."""

    def __init__(self, script: list[tuple[float, bytes]]) -> None:
        self.script = script
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.1)  # accept() wakes to see the stop
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/"

    def __enter__(self) -> ScriptedServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.sock.close()
        self.thread.join(5)

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            conn.settimeout(None)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        with conn:
            request = b""
            while b"\r\n\r\n" not in request:
                piece = conn.recv(4096)
                if not piece:
                    return
                request += piece
            try:
                for delay, data in self.script:
                    if self.stopped.wait(delay):
                        return
                    conn.sendall(data)
                self.stopped.wait(30)
            except OSError:
                return


DRIBBLED_HEADERS = [(0.0, b"HTTP/1.1 200 OK\r\n")] + [(0.5, b"X-Slow-%d: 1\r\n" % n) for n in range(10)] + [
    (0.0, b"Content-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
]


def _chunk(data: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(data), data)


HEADERS = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
DELTA = b'data: {"choices":[{"index":0,"delta":{"content":"\xe4\xbd\xa0\xc3\xa9\xf0\x9f\x99\x82"}}]}\n\n'


def _sync(url: str, **options):
    started = time.monotonic()
    result = stream_http(url, "openai-chat", timeout=2, **options)
    return result, time.monotonic() - started


def _async(url: str, **options):
    async def run():
        started = time.monotonic()
        result = await astream_http(url, "openai-chat", timeout=2, **options)
        return result, time.monotonic() - started

    return asyncio.run(run())


@pytest.mark.parametrize("run", [_sync, _async], ids=["sync", "async"])
def test_the_deadline_bounds_headers_dribbled_one_line_every_half_second(run):
    # 5 s of headers, each line well inside the 2 s read timeout: only the deadline can end it (was 5.0 s).
    with ScriptedServer([*DRIBBLED_HEADERS, (0.0, _chunk(DELTA))]) as server:
        result, elapsed = run(server.url, deadline=1.0)
    assert result.outcome is Outcome.TIMED_OUT and result.error.kind == "deadline"
    assert result.stats.bytes == 0 and result.text == ""
    assert 0.95 <= elapsed < 1.0 + SLACK
    _no_watchdog_left()


def _no_watchdog_left() -> None:
    """The sync watchdog threads end with their call (each is stopped when its response is released)."""
    for thread in threading.enumerate():
        if thread.name == "lesson_lib-http-watchdog":
            thread.join(2)
    assert not [t for t in threading.enumerate() if t.name == "lesson_lib-http-watchdog"]


@pytest.mark.parametrize("run", [_sync, _async], ids=["sync", "async"])
def test_the_deadline_counts_from_the_call_on_a_silent_body(run):
    # Headers after 1.2 s, then silence: the deadline of 2 s ends it at 2 s from the call (was 3.2 s).
    with ScriptedServer([(1.2, HEADERS)]) as server:
        result, elapsed = run(server.url, deadline=2.0)
    assert result.outcome is Outcome.TIMED_OUT and result.error.kind == "deadline"
    assert 1.95 <= elapsed < 2.0 + SLACK


@pytest.mark.parametrize("run", [_sync, _async], ids=["sync", "async"])
def test_each_read_waits_only_the_time_left_on_the_deadline(run):
    # An event every 1.5 s, deadline 2 s: the second read may wait 0.5 s, not 2 s (sync was 3.0 s).
    with ScriptedServer([(0.0, HEADERS)] + [(1.5, _chunk(DELTA))] * 4) as server:
        result, elapsed = run(server.url, deadline=2.0)
    assert result.outcome is Outcome.TIMED_OUT and result.error.kind == "deadline"
    assert result.text == "你é🙂"  # the first event arrived and counts
    assert 1.95 <= elapsed < 2.0 + SLACK
    _no_watchdog_left()


@pytest.mark.parametrize("run", [_sync, _async], ids=["sync", "async"])
def test_each_read_waits_only_the_time_left_on_the_progress_clock(run):
    # A heartbeat every 1.2 s keeps the socket alive; progress_timeout 1.3 s after one delta at 0 s: the
    # read after the first heartbeat may wait 0.1 s, not 1.3 s (sync was 2.4 s).
    beats = [(1.2, _chunk(b": ping\n\n"))] * 4
    with ScriptedServer([(0.0, HEADERS + _chunk(DELTA)), *beats]) as server:
        result, elapsed = run(server.url, progress_timeout=1.3)
    assert result.outcome is Outcome.TIMED_OUT and result.error.kind == "progress_timeout"
    assert 1.25 <= elapsed < 1.3 + SLACK


def test_stream_http_updates_starts_the_deadline_when_the_request_is_sent():
    with ScriptedServer(DRIBBLED_HEADERS) as server:
        updates = stream_http_updates(server.url, "openai-chat", timeout=2, deadline=1.0)
        time.sleep(0.3)  # not started: no request, no clock
        started = time.monotonic()
        result = list(updates)[-1]
        elapsed = time.monotonic() - started
    assert result.outcome is Outcome.TIMED_OUT and result.error.kind == "deadline"
    assert 0.95 <= elapsed < 1.0 + SLACK


def test_a_call_clock_makes_the_deadline_count_from_the_call_on_a_fake_clock():
    clock = FakeClock()
    call = CallClock(clock)
    clock.now = 3.0  # connecting and the headers took 3 s
    timeouts = StreamTimeouts(idle_timeout=2.0, deadline=4.0, clock=call)
    assert call.timeouts is timeouts and timeouts.budget() == (1.0, "deadline")
    clock.now = 3.9
    assert timeouts.expired() is None
    clock.now = 4.0
    assert timeouts.expired() == "deadline"  # 4 s from the call, not from the body (idle: 1 s of 2)
    plain = StreamTimeouts(deadline=4.0, clock=clock)
    assert plain.budget() == (4.0, "deadline")  # without a CallClock: from construction


# --- the wait for the headers: bounded by httpx's timeout and the deadline, not by idle or progress ------
#
# One server answers 1.2 s after the request (headers, then a whole answer, or headers then silence). The
# two drivers run side by side on it and must agree: idle_timeout and progress_timeout count from the start
# of the body, so they never end the wait for the headers; the deadline ends it as the outcome timed_out
# (deadline); the caller's own httpx timeout ends it by raising httpx.ReadTimeout (a failure before any
# response: no stream to have an outcome), in both. Before the fix the sync driver set the headers' read
# timeout to the smallest clock and raised ReadTimeout after 0.5 s where async waited.

LATE = 1.2  # seconds before the server sends its status line and headers
DONE_BODY = (
    _chunk(DELTA)
    + _chunk(b'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n')
    + _chunk(b"data: [DONE]\n\n")
    + b"0\r\n\r\n"
)


def _timed(call):
    started = time.monotonic()
    try:
        return call(), time.monotonic() - started
    except httpx.HTTPError as exc:
        return exc, time.monotonic() - started


def _sync_any(url: str, **options):
    return _timed(lambda: stream_http(url, "openai-chat", **options))


def _async_any(url: str, **options):
    return _timed(lambda: asyncio.run(astream_http(url, "openai-chat", **options)))


BOTH = pytest.mark.parametrize("run", [_sync_any, _async_any], ids=["sync", "async"])


@BOTH
@pytest.mark.parametrize("clock", ["idle_timeout", "progress_timeout"])
def test_idle_and_progress_do_not_bound_the_wait_for_headers(run, clock):
    # A 0.5 s clock, headers after 1.2 s, then the whole answer at once: completed, after the headers.
    with ScriptedServer([(LATE, HEADERS + DONE_BODY)]) as server:
        result, elapsed = run(server.url, timeout=5, **{clock: 0.5})
    assert isinstance(result, StreamResult), f"raised {result!r}"
    assert result.outcome is Outcome.COMPLETED and result.text == "你é🙂"
    assert LATE - 0.05 <= elapsed < LATE + SLACK
    _no_watchdog_left()


@BOTH
@pytest.mark.parametrize("clock", ["idle_timeout", "progress_timeout"])
def test_idle_and_progress_count_from_the_start_of_the_body(run, clock):
    # Headers after 1.2 s, then silence: the 0.5 s clock runs out 0.5 s after the headers (1.7 s).
    with ScriptedServer([(LATE, HEADERS)]) as server:
        result, elapsed = run(server.url, timeout=5, **{clock: 0.5})
    assert isinstance(result, StreamResult), f"raised {result!r}"
    assert result.outcome is Outcome.TIMED_OUT and result.error.kind == clock
    assert result.stats.bytes == 0
    assert LATE + 0.45 <= elapsed < LATE + 0.5 + SLACK


@BOTH
@pytest.mark.parametrize("idle", [None, 0.3], ids=["deadline", "deadline+idle"])
def test_the_deadline_ends_the_wait_for_headers_as_timed_out(run, idle):
    with ScriptedServer([(LATE, HEADERS + DONE_BODY)]) as server:
        result, elapsed = run(server.url, timeout=5, deadline=0.7, idle_timeout=idle)
    assert isinstance(result, StreamResult), f"raised {result!r}"
    assert result.outcome is Outcome.TIMED_OUT and result.error.kind == "deadline"
    assert result.stats.bytes == 0 and result.text == ""
    assert 0.65 <= elapsed < 0.7 + SLACK
    _no_watchdog_left()


@BOTH
@pytest.mark.parametrize(
    "clocks",
    [{}, {"idle_timeout": 0.3}, {"progress_timeout": 0.3, "deadline": 3.0}],
    ids=["no-clock", "idle", "progress+deadline"],
)
def test_the_callers_httpx_timeout_before_the_headers_raises_read_timeout(run, clocks):
    # httpx's timeout=0.6 runs out before the headers (and before the deadline): httpx.ReadTimeout, raised
    # as httpx raises it, at 0.6 s (not at the 0.3 s clock).
    with ScriptedServer([(LATE, HEADERS + DONE_BODY)]) as server:
        result, elapsed = run(server.url, timeout=0.6, **clocks)
    assert type(result) is httpx.ReadTimeout, f"got {result!r}"
    assert 0.55 <= elapsed < 0.6 + SLACK
    _no_watchdog_left()


@BOTH
def test_the_callers_httpx_timeout_inside_the_body_is_truncated(run):
    # Once the headers are in, httpx's timeout is stream content: the outcome truncated (ReadTimeout), with
    # the event that arrived, in both drivers; a 3 s idle clock is not what ends it.
    with ScriptedServer([(0.0, HEADERS + _chunk(DELTA))]) as server:
        result, elapsed = run(server.url, timeout=0.6, idle_timeout=3.0)
    assert isinstance(result, StreamResult), f"raised {result!r}"
    assert result.outcome is Outcome.TRUNCATED and result.error.kind == "ReadTimeout"
    assert result.text == "你é🙂"
    assert 0.55 <= elapsed < 0.6 + SLACK
    _no_watchdog_left()


def _sync_client(url: str, **options):
    with httpx.Client(timeout=0.6, trust_env=False) as client:
        return _timed(lambda: stream_http(url, "openai-chat", client=client, **options))


def _async_client(url: str, **options):
    async def run():
        async with httpx.AsyncClient(timeout=0.6, trust_env=False) as client:
            return await astream_http(url, "openai-chat", client=client, **options)

    return _timed(lambda: asyncio.run(run()))


@pytest.mark.parametrize("run", [_sync_client, _async_client], ids=["sync", "async"])
@pytest.mark.parametrize(
    "clocks", [{}, {"idle_timeout": 0.3}, {"deadline": 3.0}], ids=["no-clock", "idle", "deadline"]
)
def test_a_callers_client_keeps_its_own_timeout_before_the_headers(run, clocks):
    # The caller's client has timeout=0.6: that is the request's httpx timeout (the timeout argument is for
    # the client a call makes), with or without a stream clock: httpx.ReadTimeout at 0.6 s in both drivers.
    with ScriptedServer([(LATE, HEADERS + DONE_BODY)]) as server:
        result, elapsed = run(server.url, timeout=5, **clocks)
    assert type(result) is httpx.ReadTimeout, f"got {result!r}"
    assert 0.55 <= elapsed < 0.6 + SLACK
    _no_watchdog_left()


@pytest.mark.parametrize("run", [_sync_client, _async_client], ids=["sync", "async"])
def test_a_deadline_sooner_than_a_callers_client_timeout_is_timed_out(run):
    with ScriptedServer([(LATE, HEADERS + DONE_BODY)]) as server:
        result, elapsed = run(server.url, deadline=0.4)
    assert isinstance(result, StreamResult), f"raised {result!r}"
    assert result.outcome is Outcome.TIMED_OUT and result.error.kind == "deadline"
    assert 0.35 <= elapsed < 0.4 + SLACK
    _no_watchdog_left()


def test_open_reads_read_timeout_bounds_the_headers_reads_too():
    # As its docstring says: httpx takes one read timeout per request, so read_timeout=0.4 ends the wait for
    # headers sent after 1.2 s (timeout=5 alone would wait for them).
    with ScriptedServer([(LATE, HEADERS + DONE_BODY)]) as server:
        result, elapsed = _timed(lambda: open_reads(server.url, timeout=5, read_timeout=0.4))
        assert type(result) is httpx.ReadTimeout, f"got {result!r}"
        assert 0.35 <= elapsed < 0.4 + SLACK
        with open_reads(server.url, timeout=5) as reads:
            assert b"[DONE]" in b"".join(reads)
