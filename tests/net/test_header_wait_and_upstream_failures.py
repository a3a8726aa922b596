"""What bounds the wait for the headers, and what the relay reports when no stream comes (lessons 05, 08, 10).

Against real loopback servers: httpx's ``timeout`` bounds each read of the header wait, not the whole wait
(headers dribbled a few bytes at a time get past it, in both drivers); the relay's ``upstream_failed``
covers every failure before a stream (refused, closed unanswered, no headers within ``timeout``, an error
status), a ``deadline`` before the headers is ``timed_out``, a ``200`` that is not the service's events is
judged by its bytes; and with the relay's clocks off (the default), ``max_lifetime`` ends a hung upstream's
relay without an outcome event.
"""

from __future__ import annotations

import socket
import threading

import pytest

from lesson_lib import Outcome, StreamResult, consume, split_at
from lesson_lib.captures import load
from lesson_lib.net import RelayServer, ReplayServer, read_relay, stream_http
from tests.net.test_timeouts import BOTH, DONE_BODY, ScriptedServer, _no_watchdog_left

# 8 header lines, one every 0.2 s: 1.6 s of headers, no read of them longer than 0.2 s.
TRICKLED = (
    [(0.0, b"HTTP/1.1 200 OK\r\n")]
    + [(0.2, b"X-Trickle-%d: 1\r\n" % n) for n in range(8)]
    + [(0.0, b"Content-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n" + DONE_BODY)]
)


@BOTH
def test_httpx_timeout_bounds_each_header_read_not_the_whole_wait(run) -> None:
    with ScriptedServer(TRICKLED) as server:
        result, elapsed = run(server.url, timeout=0.5)
    assert isinstance(result, StreamResult), f"raised {result!r}"
    assert result.outcome is Outcome.COMPLETED and result.text == "你é🙂"
    assert elapsed >= 1.5  # three times the timeout, and no ReadTimeout
    _no_watchdog_left()


class ClosingServer:
    """Accepts each connection, reads the request, and closes it without a byte of answer."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.1)
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/"

    def __enter__(self) -> ClosingServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join(5)
        self.sock.close()

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            with conn:
                conn.recv(65536)


def test_upstream_failed_covers_a_close_without_answer_and_no_headers_in_time() -> None:
    with ClosingServer() as up, RelayServer(up.url, "openai-chat") as relay:
        outcome = read_relay(relay.stream_url()).outcome
    assert outcome["outcome"] == "upstream_failed" and outcome["error"]["kind"] == "RemoteProtocolError"
    with ScriptedServer([(5.0, b"")]) as up, RelayServer(up.url, "openai-chat", timeout=0.5) as relay:
        outcome = read_relay(relay.stream_url()).outcome
    assert outcome["outcome"] == "upstream_failed" and outcome["error"]["kind"] == "ReadTimeout"


def test_a_deadline_before_the_headers_is_timed_out_not_upstream_failed() -> None:
    with ScriptedServer([(5.0, b"")]) as up, RelayServer(up.url, "openai-chat", deadline=0.5) as relay:
        outcome = read_relay(relay.stream_url()).outcome
    assert outcome["outcome"] == "timed_out" and outcome["error"]["kind"] == "deadline"


def test_a_200_that_is_not_the_services_events_is_judged_by_its_bytes() -> None:
    body = b'{"error": {"message": "\xe6\xa8\xa1\xe5\x9e\x8b overloaded", "type": "overloaded"}}\n'
    json_reply = ReplayServer(body, content_type="application/json")
    with json_reply as up, RelayServer(up.url, "openai-chat") as relay:
        outcome = read_relay(relay.stream_url()).outcome
    assert outcome["outcome"] == "truncated"


def test_with_the_relays_clocks_off_max_lifetime_ends_a_hung_upstream_without_an_outcome() -> None:
    capture = load("openai-chat/completed")
    hung = ReplayServer(capture.body, [40], stall_after=1, stall_for=30, heartbeat_every=1, delay=0.2)
    with hung as up, RelayServer(up.url, "openai-chat", max_lifetime=1.5) as relay:
        reply = read_relay(relay.stream_url())
    assert reply.outcome is None


def test_a_partial_line_after_done_is_truncated_at_line_with_the_reason_kept() -> None:
    body = load("openai-chat/completed").body + b'data: {"choi'
    for chunks in ([body], split_at(body, [len(body) - 5])):
        result = consume(chunks, "openai-chat")
        seen = (result.outcome, result.truncated_at, result.finish_reason)
        assert seen == (Outcome.TRUNCATED, "line", "stop")


@pytest.mark.parametrize("clock", ["idle_timeout", "deadline"])
def test_a_clock_after_the_terminal_signal_leaves_a_final_completed_result(clock) -> None:
    body = load("openai-chat/completed").body
    # the whole answer, then a server that holds the connection open in silence
    with ScriptedServer([(0.0, b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                                b"Content-Length: %d\r\n\r\n" % (len(body) + 10) + body)]) as server:
        result = stream_http(server.url, "openai-chat", timeout=5, **{clock: 0.5})
    assert result.outcome is Outcome.COMPLETED and result.is_final
    assert result.error is not None and result.error.kind == clock


@pytest.mark.parametrize(
    ("name", "reason", "without"),
    [
        ("openai-chat/completed", b'"finish_reason":"stop"', b'"finish_reason":null'),
        ("anthropic-messages/completed", b'"stop_reason":"end_turn"', b'"stop_reason":null'),
        ("ollama/completed", b'"done_reason":"stop",', b""),
    ],
)
def test_a_terminal_without_a_reason_or_with_an_unknown_one_is_incomplete(name, reason, without) -> None:
    body = load(name).body
    assert body.count(reason) == 1
    for changed in (body.replace(reason, without), body.replace(reason, reason.replace(b"stop", b"banana")
                                                               .replace(b"end_turn", b"banana"))):
        result = consume([changed], load(name).contract)
        assert result.outcome is Outcome.INCOMPLETE and not result.is_final
