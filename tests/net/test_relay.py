"""lesson_lib.net.relay: the gateway between an upstream stream and a browser, correct and faulty.

Over every chunking the pipelines run without a socket (:func:`relay_bytes`, the same code the server runs
per request); whole, one-byte and cut-inside-a-character bodies, the headers, the failures and the
client's disconnect go through real sockets: a ReplayServer upstream, the uvicorn relay, an httpx client.
"""

from __future__ import annotations

import http.server
import json
import socket
import threading
import time

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import consume, one_byte_chunks, split_at, two_piece_splits
from lesson_lib.captures import load
from lesson_lib.core.sse import SSEParser
from lesson_lib.net.relay import RelayReply, RelayServer, read_relay
from lesson_lib.net.relay_variants import ESCAPE_PREFIX, OUTCOME_EVENT, VARIANTS, Plan, relay_bytes
from lesson_lib.net.replay import ReplayServer
from tests.strategies import partitions

MODEL = "gpt-4o-mini"
REWRITE = (MODEL, "gateway-model")


def chat_body(*pieces: str, done: bool = True, finish: str | None = "stop") -> bytes:
    """A short Chat Completions stream: one delta per piece, a finish reason, ``[DONE]``."""
    lines = [
        f'{{"model":"{MODEL}","choices":[{{"index":0,"delta":{{"content":"{piece}"}},"finish_reason":null}}]}}'
        for piece in pieces
    ]
    if finish is not None:
        lines.append(f'{{"model":"{MODEL}","choices":[{{"index":0,"delta":{{}},"finish_reason":"{finish}"}}]}}')
    if done:
        lines.append("[DONE]")
    return "".join(f"data: {line}\n\n" for line in lines).encode("utf-8")


SHORT = chat_body("你好", "é🙂")
SHORT_TEXT = "你好é🙂"


def relayed(variant: str, chunks: list[bytes], contract: str = "openai-chat", **plan: object):
    """(the relayed events, the outcome summary or None) for these upstream reads, without a socket."""
    parser = SSEParser(errors="replace")
    events = [e for write in relay_bytes(variant, chunks, Plan(contract, **plan)) for e in parser.feed(write)]
    parser.close()
    # As read_relay reads it: the outcome is the relay's last event (upstream ones are escaped).
    outcome = json.loads(events.pop().data) if events and events[-1].type == OUTCOME_EVENT else None
    return events, outcome


def inside_character(body: bytes, cut: int) -> bool:
    return (body[cut] & 0xC0) == 0x80


# --- the correct relay: the same events and outcome for every chunking ------------------------------------


def test_correct_relay_is_the_same_for_every_two_piece_split_and_one_byte_reads() -> None:
    expected = relayed("correct", [SHORT])
    events, outcome = expected
    assert [e.data for e in events][-1] == "[DONE]" and len(events) == 4
    assert outcome == {"outcome": "completed", "truncated_at": None, "finish_reason": "stop", "error": None}
    for _, chunks in two_piece_splits(SHORT):
        assert relayed("correct", chunks) == expected
    assert relayed("correct", one_byte_chunks(SHORT)) == expected


@pytest.mark.parametrize(
    "name", ["gemini/truncated_mid_character", "anthropic-messages/thinking_truncated_mid_character",
             "ollama/tools_truncated_mid_line"]
)
def test_every_two_piece_split_of_a_short_capture_gives_the_same_events_and_outcome(name: str) -> None:
    capture = load(name)
    expected = relayed("correct", [capture.body], capture.contract)
    assert expected[1]["outcome"] == capture.outcome and expected[1]["truncated_at"] == capture.truncated_at
    for _, chunks in two_piece_splits(capture.body):
        assert relayed("correct", chunks, capture.contract) == expected
    assert relayed("correct", one_byte_chunks(capture.body), capture.contract) == expected


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_correct_relay_is_the_same_for_any_chunking_of_every_chat_capture(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(["openai-chat/completed", "openai-chat/truncated_mid_character",
                                      "anthropic-messages/completed", "ollama/completed"]))
    capture = load(name)
    chunks = data.draw(partitions(capture.body))
    events, outcome = relayed("correct", chunks, capture.contract)
    assert (events, outcome) == relayed("correct", [capture.body], capture.contract)
    assert outcome["outcome"] == capture.outcome and outcome["truncated_at"] == capture.truncated_at
    # A client that knows the contract reads the relayed events as the upstream itself.
    reply = RelayReply(events, outcome, b"", [], "end of body")
    if capture.outcome == "completed":
        assert reply.result(capture.contract).final_text == capture.text


def test_the_rewrite_of_the_correct_relay_reaches_every_event_whatever_the_cuts() -> None:
    for _, chunks in two_piece_splits(SHORT):
        events, _ = relayed("correct", chunks, rewrite=REWRITE)
        assert not any(MODEL in e.data for e in events)
        assert sum("gateway-model" in e.data for e in events) == 3


# --- each faulty variant fails in the way it is named for ---------------------------------------------------


def test_per_chunk_decode_makes_replacement_characters_exactly_when_a_read_ends_inside_a_character() -> None:
    seen = set()
    for cut, chunks in two_piece_splits(SHORT):
        events, outcome = relayed("per-chunk-decode", chunks)
        broken = any("\ufffd" in e.data for e in events)
        assert broken == inside_character(SHORT, cut), cut
        assert outcome["outcome"] == "completed"  # and the gateway says all went well
        seen.add(broken)
    assert seen == {True, False}


def test_regex_split_breaks_events_cut_across_reads_and_hides_with_a_whole_body() -> None:
    good, _ = relayed("correct", [SHORT])
    assert relayed("regex-split", [SHORT])[0] == good  # one read per body: the bug is invisible
    starts = [i for i in range(len(SHORT)) if SHORT.startswith(b"data: ", i)]
    for start in starts:
        cut = start + len("data: {")  # inside an event's data line
        events, _ = relayed("regex-split", split_at(SHORT, [cut]))
        assert events != good, cut
    for start in starts[1:]:  # at an event boundary the pieces are whole events
        assert relayed("regex-split", split_at(SHORT, [start]))[0] == good


def test_raw_rewrite_misses_the_matches_cut_across_reads_and_forwards_the_upstream_cuts() -> None:
    occurrences = [i for i in range(len(SHORT)) if SHORT.startswith(MODEL.encode(), i)]
    for cut, chunks in two_piece_splits(SHORT):
        writes = relay_bytes("raw-rewrite", chunks, Plan("openai-chat", rewrite=REWRITE))
        missed = b"".join(writes).count(MODEL.encode())
        assert missed == sum(start < cut < start + len(MODEL) for start in occurrences), cut
        assert writes[0] == chunks[0].replace(MODEL.encode(), b"gateway-model")  # the read, as it came


def test_drop_terminal_leaves_the_client_with_a_clean_end_it_cannot_judge() -> None:
    events, outcome = relayed("drop-terminal", [SHORT])
    assert outcome is None and "[DONE]" not in [e.data for e in events]
    body = "".join(f"data: {e.data}\n\n" for e in events).encode()
    result = consume([body], "openai-chat")
    assert (result.outcome, result.truncated_at) == ("truncated", "completion")
    good, _ = relayed("correct", [SHORT])
    good_body = "".join(f"data: {e.data}\n\n" for e in good).encode()
    assert consume([good_body], "openai-chat").outcome == "completed"


def test_invent_finish_reports_a_truncated_upstream_as_finished() -> None:
    cut_short = chat_body("你好", "é🙂", done=False, finish=None)
    _, correct = relayed("correct", [cut_short])
    assert correct["outcome"] == "truncated"
    events, outcome = relayed("invent-finish", [cut_short])
    assert outcome["outcome"] == "completed" and outcome["finish_reason"] == "stop"
    body = "".join(f"data: {e.data}\n\n" for e in events).encode()
    result = consume([body], "openai-chat")
    assert (result.outcome, result.finish_reason, result.text) == ("completed", "stop", SHORT_TEXT)
    # On a whole upstream it changes nothing: only cut answers get the invented end.
    assert relayed("invent-finish", [SHORT]) == relayed("correct", [SHORT])


# --- the verdict is the relay's, nothing follows it, ids pass through ---------------------------------------

#: A truncated upstream that sends its own "outcome" events, one of them already escaped-looking.
FORGED = (
    chat_body("你好", finish=None, done=False)
    + b'event: outcome\ndata: {"outcome": "completed", "truncated_at": null, "finish_reason": "stop", '
    b'"error": null}\n\n'
    + b"event: upstream:outcome\ndata: {\"choices\":[]}\n\n"
    + b'data: {"choices":[{"index":0,"delta":{"content":"\xc3\xa9'  # cut inside the next event
)

#: An in-band error, then more events: the error decides the outcome.
ERROR_THEN_MORE = (
    chat_body("é🙂", finish=None, done=False)
    + b": keep-alive\n\n"
    + b'data: {"error":{"message":"overloaded \xe4\xbd\xa0","type":"server_error"}}\n\n'
    + b": after\n\n"
    + chat_body("more", finish="stop", done=True)
)

#: Ids set, reset to the empty string, and kept empty.
ID_RESETS = (
    b'id: 1\ndata: {"choices":[{"index":0,"delta":{"content":"a"}}]}\n\n'
    b'id\ndata: {"choices":[{"index":0,"delta":{"content":"\xe4\xbd\xa0"}}]}\n\n'
    b'data: {"choices":[{"index":0,"delta":{"content":"\xf0\x9f\x99\x82"},"finish_reason":"stop"}]}\n\n'
    b"id: 7\ndata: [DONE]\n\n"
)


def _every_chunking(body: bytes) -> list[list[bytes]]:
    return [[body]] + [chunks for _, chunks in two_piece_splits(body)] + [one_byte_chunks(body)]


def test_an_upstream_outcome_event_is_escaped_and_cannot_forge_the_verdict_in_any_chunking() -> None:
    for chunks in _every_chunking(FORGED):
        events, outcome = relayed("correct", chunks)
        assert outcome["outcome"] == "truncated" and outcome["truncated_at"] == "line"
        escaped = [ESCAPE_PREFIX + "outcome", ESCAPE_PREFIX + "upstream:outcome"]
        assert [e.type for e in events][-2:] == escaped
        writes = b"".join(relay_bytes("correct", chunks, Plan("openai-chat")))
        assert writes.count(b"event: outcome\n") == 1 and writes.rindex(b"event: outcome\n") > writes.rindex(
            b"upstream:outcome"
        )


def test_nothing_is_forwarded_after_an_in_band_error_decided_the_outcome_in_any_chunking() -> None:
    expected = None
    for chunks in _every_chunking(ERROR_THEN_MORE):
        events, outcome = relayed("correct", chunks)
        assert outcome["outcome"] == "service_error" and outcome["error"]["event_index"] == 1
        assert '"error"' in events[-1].data  # the error event is the last thing forwarded
        assert not any("more" in e.data or e.data == "[DONE]" for e in events)
        # Everything but the summary's read-end offset is the same whatever the cuts.
        assert expected in (None, (events, {k: v for k, v in outcome.items() if k != "error"}))
        expected = (events, {k: v for k, v in outcome.items() if k != "error"})
        assert outcome["error"]["offset_exact"] is False


@pytest.mark.parametrize("bad_event", [b"data: {not json\n\n", b"data: [1,\n\n"])
def test_an_event_the_contract_cannot_read_is_not_forwarded_nor_anything_after(bad_event: bytes) -> None:
    body = chat_body("你好", finish=None, done=False) + b": c\n\n" + bad_event + chat_body("x")
    for chunks in _every_chunking(body):
        events, outcome = relayed("correct", chunks)
        assert outcome["outcome"] == "decode_error"
        assert [e.data for e in events] == [e.data for e in SSEParser().feed(chat_body("你好", finish=None,
                                                                                      done=False))]


def test_id_resets_reach_the_client_in_any_chunking() -> None:
    for chunks in _every_chunking(ID_RESETS):
        events, outcome = relayed("correct", chunks)
        assert [e.last_event_id for e in events] == ["1", "", "", "7"]
        assert outcome["outcome"] == "completed"


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_forged_outcomes_errors_and_id_resets_relay_the_same_for_any_chunking(data: st.DataObject) -> None:
    body = data.draw(st.sampled_from([FORGED, ERROR_THEN_MORE, ID_RESETS, FORGED + ERROR_THEN_MORE]))
    events, outcome = relayed("correct", data.draw(partitions(body)))
    whole_events, whole_outcome = relayed("correct", [body])
    assert events == whole_events
    assert {k: v for k, v in outcome.items() if k != "error"} == {
        k: v for k, v in whole_outcome.items() if k != "error"
    }
    upstream_ids = [e.last_event_id for e in SSEParser().feed(body)]
    assert [e.last_event_id for e in events] == upstream_ids[: len(events)]


def test_over_sockets_the_client_reads_the_relays_own_outcome_ids_and_nothing_after_the_error() -> None:
    for cuts in ([], list(range(1, len(FORGED)))):
        with ReplayServer(FORGED, cuts) as up, RelayServer(up.url, "openai-chat") as relay:
            reply = read_relay(relay.stream_url())
            assert reply.outcome["outcome"] == "truncated" and reply.ended == "end of body"
            assert [e.type for e in reply.events][-2:] == ["outcome", "upstream:outcome"]  # unescaped
            assert reply.body.count(b"event: outcome\n") == 1
    for cuts in ([], list(range(1, len(ERROR_THEN_MORE)))):
        with ReplayServer(ERROR_THEN_MORE, cuts) as up, RelayServer(up.url, "openai-chat") as relay:
            reply = read_relay(relay.stream_url())
            assert reply.outcome["outcome"] == "service_error"
            assert '"error"' in reply.events[-1].data and b"[DONE]" not in reply.body
    with ReplayServer(ID_RESETS, list(range(1, len(ID_RESETS)))) as up, RelayServer(
        up.url, "openai-chat"
    ) as relay:
        reply = read_relay(relay.stream_url())
        assert [e.last_event_id for e in reply.events] == ["1", "", "", "7"]


# --- real sockets: uvicorn, a ReplayServer upstream ---------------------------------------------------------


def test_relay_over_sockets_whole_one_byte_and_cut_inside_a_character() -> None:
    expected_events, expected_outcome = relayed("correct", [SHORT])
    cut = SHORT.index("你".encode()) + 1
    for cuts in ([], list(range(1, len(SHORT))), [cut]):
        with ReplayServer(SHORT, cuts) as up, RelayServer(up.url, "openai-chat") as relay:
            reply = read_relay(relay.stream_url())
            assert [e.data for e in reply.events] == [e.data for e in expected_events]
            assert reply.outcome == expected_outcome and reply.ended == "end of body"
            assert reply.result("openai-chat").final_text == SHORT_TEXT
            assert up.wait_idle(2)


def test_stream_headers_and_no_compression_even_when_asked() -> None:
    with ReplayServer(SHORT) as up, RelayServer(up.url, "openai-chat") as relay:
        response = httpx.get(relay.stream_url(), headers={"Accept-Encoding": "gzip, br"}, timeout=5)
        assert response.headers["content-type"] == "text/event-stream; charset=utf-8"
        assert response.headers["cache-control"] == "no-cache"
        assert response.headers["x-accel-buffering"] == "no"
        assert "content-encoding" not in response.headers
        assert response.content.endswith(b"\n\n") and b"event: outcome" in response.content
        page = httpx.get(relay.url + "/", timeout=5)
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        info = httpx.get(relay.url + "/info", timeout=5).json()
        assert info["contract"] == "openai-chat" and info["variants"] == list(VARIANTS)
        assert httpx.get(relay.url + "/stream?variant=nope", timeout=5).status_code == 400


def test_events_are_flushed_as_they_complete_not_at_the_end() -> None:
    first_end = SHORT.index(b"\n\n") + 2
    with ReplayServer(SHORT, [first_end], stall_after=1, stall_for=3) as up, RelayServer(
        up.url, "openai-chat"
    ) as relay, httpx.stream("GET", relay.stream_url(), timeout=5) as response:
        started = time.monotonic()
        parser = SSEParser()
        events = []
        for chunk in response.iter_raw():
            events += parser.feed(chunk)
            if events:
                break
        assert time.monotonic() - started < 2  # the upstream still stalls: the first event came alone
        assert "你好" in events[0].data


def _free_closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_an_upstream_that_fails_reaches_the_client_as_an_outcome_event() -> None:
    refused = f"http://127.0.0.1:{_free_closed_port()}"
    with RelayServer(refused, "openai-chat") as relay:
        outcome = read_relay(relay.stream_url()).outcome
        assert outcome["outcome"] == "upstream_failed" and outcome["error"]["kind"] == "ConnectError"
    with ReplayServer(SHORT, max_requests=1) as up:
        httpx.get(up.url, timeout=5)  # the only request it answers: the next gets 503
        with RelayServer(up.url, "openai-chat") as relay:
            outcome = read_relay(relay.stream_url()).outcome
            assert outcome["error"] == {"kind": "HTTPStatusError", "offset": None, "offset_exact": None,
                                        "event_index": None, "status": 503}
    with ReplayServer(SHORT, drop_after=40) as up, RelayServer(up.url, "openai-chat") as relay:
        outcome = read_relay(relay.stream_url()).outcome
        assert (outcome["outcome"], outcome["truncated_at"]) == ("truncated", "line")
        assert outcome["error"]["offset"] == 40
    with ReplayServer(SHORT, [10], stall_after=1, stall_for=5) as up, RelayServer(
        up.url, "openai-chat", idle_timeout=0.3
    ) as relay:
        outcome = read_relay(relay.stream_url()).outcome
        assert outcome["outcome"] == "timed_out" and outcome["error"]["kind"] == "idle_timeout"


class _CodedUpstream(http.server.BaseHTTPRequestHandler):
    """An upstream answering 200 with an SSE body labelled in a coding lesson_lib does not undo."""

    coding = "br"

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Encoding", self.coding)
        self.send_header("Content-Length", str(len(SHORT)))
        self.end_headers()
        self.wfile.write(SHORT)

    do_POST = do_GET

    def log_message(self, *args: object) -> None:
        pass


@pytest.mark.parametrize("coding", ["br", "zstd"])
def test_a_body_in_a_coding_lesson_lib_does_not_undo_is_upstream_failed(coding: str) -> None:
    handler = type("Handler", (_CodedUpstream,), {"coding": coding})
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as upstream:
        thread = threading.Thread(target=upstream.serve_forever, daemon=True)
        thread.start()
        try:
            url = f"http://127.0.0.1:{upstream.server_address[1]}"
            with RelayServer(url, "openai-chat") as relay:
                reply = read_relay(relay.stream_url())
        finally:
            upstream.shutdown()
    assert reply.outcome["outcome"] == "upstream_failed", reply.outcome
    assert reply.outcome["error"]["kind"] == "ContentEncodingError", reply.outcome
    assert reply.events == []  # nothing of the undecoded body was passed on


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        (("ftp://127.0.0.1/x", "openai-chat"), "upstream_url"),
        (("not a url", "openai-chat"), "upstream_url"),
        ((b"http://127.0.0.1", "openai-chat"), "upstream_url"),
        (("http://127.0.0.1:9", "no-such-service"), "contract"),
        (("http://127.0.0.1:9", 3), "contract"),
    ],
)
def test_a_bad_upstream_url_or_contract_fails_at_creation_naming_it(arguments, named) -> None:
    with pytest.raises(ValueError, match=named):
        RelayServer(*arguments)


def test_bad_options_fail_at_creation_before_any_request() -> None:
    with ReplayServer(SHORT) as up:
        for options, named in [
            ({"variant": "lossy"}, "variant"),
            ({"idle_timeout": 0}, "idle_timeout"),
            ({"timeout": float("nan")}, "timeout"),
            ({"rewrite": ("", "x")}, "rewrite"),
            ({"host": "0.0.0.0"}, "127.0.0.1"),
        ]:
            with pytest.raises(ValueError, match=named):
                RelayServer(up.url, "openai-chat", **options)
        with pytest.raises(ValueError, match="invent-finish"):
            RelayServer(up.url, "gemini", variant="invent-finish")
        assert up.requests == []


# --- the client leaves ----------------------------------------------------------------------------------


def _leave_after_first_event(url: str) -> None:
    with httpx.stream("GET", url, timeout=5) as response:
        for chunk in response.iter_raw():
            if b"\n\n" in chunk:
                break


SLOW = chat_body(*["你好"] * 20)
SLOW_CUTS = [i for i in range(1, len(SLOW)) if SLOW.startswith(b"data: ", i)]


def test_a_client_that_leaves_cancels_the_upstream_within_a_second() -> None:
    with ReplayServer(SLOW, SLOW_CUTS, delay=0.3) as up, RelayServer(up.url, "openai-chat") as relay:
        _leave_after_first_event(relay.stream_url())
        left = time.monotonic()
        assert up.wait_idle(1.0), "the upstream connection outlived the client by a second"
        assert time.monotonic() - left < 1.0
        assert up.connections_opened == 1 and relay.client_disconnects == 1
        assert len(up.requests) == 1


def test_no_disconnect_keeps_the_upstream_running_after_the_client_left() -> None:
    with ReplayServer(SLOW, SLOW_CUTS, delay=0.3) as up, RelayServer(
        up.url, "openai-chat", variant="no-disconnect"
    ) as relay:
        _leave_after_first_event(relay.stream_url())
        assert not up.wait_idle(1.5)  # still generating, still billed
        assert up.open_connections == 1 and relay.client_disconnects == 0


def test_the_relay_leaves_no_thread_or_socket_behind() -> None:
    before = threading.active_count()
    with ReplayServer(SHORT) as up:
        relay = RelayServer(up.url, "openai-chat", max_lifetime=30)
        with relay:
            url = relay.url
            assert relay.running
            read_relay(relay.stream_url())
        assert not relay.running
        with pytest.raises(httpx.ConnectError):
            httpx.get(url, timeout=2)
    deadline = time.monotonic() + 3
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert threading.active_count() <= before


def test_a_relay_stops_by_itself_after_its_lifetime() -> None:
    with ReplayServer(SHORT) as up:
        relay = RelayServer(up.url, "openai-chat", max_lifetime=0.5).start()
        time.sleep(1.5)
        assert not relay.running
        relay.stop()


def test_the_relays_deadline_counts_from_its_upstream_request_headers_included() -> None:
    # An upstream that dribbles its headers for 5 s: the relay's deadline of 1 s ends it, in-band.
    from tests.net.test_timeouts import DRIBBLED_HEADERS, ScriptedServer

    with ScriptedServer(DRIBBLED_HEADERS) as up, RelayServer(up.url, "openai-chat", deadline=1.0) as relay:
        started = time.monotonic()
        reply = read_relay(relay.stream_url())
        elapsed = time.monotonic() - started
    assert reply.outcome["outcome"] == "timed_out" and reply.outcome["error"]["kind"] == "deadline"
    assert reply.events == [] and reply.ended == "end of body"
    assert 0.95 <= elapsed < 1.7  # was the 5 s of headers, then the deadline


def test_the_variants_are_described_in_the_current_language(restore_language):
    from lesson_lib import set_language

    names = list(VARIANTS)
    english = dict(VARIANTS)
    assert names[0] == "correct" and len(names) == 7 and all(english.values())
    set_language("zh-CN")
    assert list(VARIANTS) == names  # the names a relay takes are fixed
    chinese = dict(VARIANTS)
    assert all(chinese[n] != english[n] and any("\u4e00" <= c <= "\u9fff" for c in chinese[n]) for n in names)
    with pytest.raises(KeyError):
        VARIANTS["nope"]
