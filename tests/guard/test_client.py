"""lesson_lib.guard's clients beyond the cuts: connections on every path (a long-lived client whose pool
holds one connection), a ``break``, a dropped connection, requests that are not judged, the report, the
exception's wording, the arguments, and the sans-IO watch (compressed bodies)."""

from __future__ import annotations

import asyncio
import gzip
import json
import zlib

import anthropic
import httpx2
import openai
import pytest

from lesson_lib import IncompleteStreamError, Outcome, Unit
from lesson_lib.captures import load
from lesson_lib.core.chunking import fixed_size_chunks
from lesson_lib.guard import (
    PATH_CONTRACTS,
    AsyncClient,
    Client,
    GuardReport,
    UnprovenStreamError,
    contract_for_path,
)
from lesson_lib.guard.watch import Watch
from lesson_lib.net.replay import ReplayServer

from .sdks import MESSAGES, aread, read

ONE = httpx2.Limits(max_connections=1, max_keepalive_connections=1)
POOL = httpx2.Timeout(10, pool=1.0)  # a leaked connection makes the next request fail within a second


def test_a_long_lived_client_keeps_its_one_connection_usable_on_every_path():
    """Whole, cut (raised), whole again, an in-band error (raised), a break: with a pool of one
    connection, each next request would time out in the pool if the last had leaked its connection."""
    bodies = {
        "ok": load("openai-chat/completed").body,
        "cut": load("openai-chat/truncated_clean_boundary").body,
        "error": load("openai-chat/service_error").body,
    }
    with (
        ReplayServer(bodies["ok"], max_requests=5) as ok,
        ReplayServer(bodies["cut"], max_requests=2) as cut,
        ReplayServer(bodies["error"], max_requests=2) as error,
    ):
        reports: list[GuardReport] = []
        guard = Client(limits=ONE, timeout=POOL, on_report=reports.append)
        with openai.OpenAI(api_key="k", base_url=ok.url, max_retries=0, http_client=guard) as sdk:
            for server, raises in [(ok, False), (cut, True), (ok, False), (error, True)]:
                stream = sdk.with_options(base_url=server.url).chat.completions.create(
                    model="m", messages=MESSAGES, stream=True
                )
                if raises:
                    with pytest.raises(UnprovenStreamError):
                        for _ in stream:
                            pass
                else:
                    for _ in stream:
                        pass
            stream = sdk.chat.completions.create(model="m", messages=MESSAGES, stream=True)
            with stream:
                for _ in stream:
                    break  # the reader leaves early: no exception, the connection released
        assert ok.wait_idle(3.0) and cut.wait_idle(3.0) and error.wait_idle(3.0)
    assert [r.ended for r in reports] == ["closed", "eof", "closed", "decided", "closed"]
    assert [r.raised for r in reports] == [False, True, False, True, False]
    assert guard.last_report is reports[-1]  # (its outcome: what the bytes read before the break prove)


def test_an_async_long_lived_client_keeps_its_one_connection_usable():
    cut = load("anthropic-messages/truncated_mid_event")
    whole = load("anthropic-messages/completed")

    async def main(cut_url: str, whole_url: str) -> list[str]:
        guard = AsyncClient(limits=ONE, timeout=POOL)
        seen = []
        async with anthropic.AsyncAnthropic(
            api_key="k", base_url=whole_url, max_retries=0, http_client=guard
        ) as sdk:
            for url in (cut_url, whole_url, cut_url, whole_url):
                stream = await sdk.with_options(base_url=url).messages.create(
                    model="m", max_tokens=9, messages=MESSAGES, stream=True
                )
                try:
                    async with stream:
                        async for _ in stream:
                            pass
                except UnprovenStreamError as exc:
                    seen.append(str(exc.truncated_at))
                else:
                    seen.append("whole")
            stream = await sdk.messages.create(model="m", max_tokens=9, messages=MESSAGES, stream=True)
            async with stream:
                async for _ in stream:
                    break
        return seen

    with ReplayServer(cut.body, max_requests=3) as c, ReplayServer(whole.body, max_requests=4) as w:
        assert asyncio.run(main(c.url, w.url)) == ["event", "whole", "event", "whole"]
        assert c.wait_idle(3.0) and w.wait_idle(3.0)


@pytest.mark.parametrize("asynchronous", [False, True])
def test_a_dropped_connection_is_unproven_and_its_error_the_cause(asynchronous):
    capture = load("anthropic-messages/completed")
    with ReplayServer(capture.body, drop_after=700, max_requests=2) as server:
        if asynchronous:
            text, raised = asyncio.run(aread(capture.contract, server.url, AsyncClient()))
        else:
            text, raised = read(capture.contract, server.url, Client())
        assert server.wait_idle(3.0)
    assert isinstance(raised, UnprovenStreamError) and raised.outcome is Outcome.TRUNCATED
    assert isinstance(raised.__cause__, httpx2.RemoteProtocolError)
    assert raised.error_kind == "RemoteProtocolError" and raised.offset == 700
    assert raised.report.ended == "error" and capture.text.startswith(text)


def test_a_connection_dropped_after_the_whole_answer_does_not_raise():
    """Every byte of the answer arrived, then the socket closed without the last chunk: alone, anthropic
    raises the transport error; guarded, the answer is proven whole and the body simply ends."""
    capture = load("anthropic-messages/completed")
    with ReplayServer(capture.body, drop_after=len(capture.body), max_requests=3) as server:
        _, alone = read(capture.contract, server.url)
        reports: list[GuardReport] = []
        text, guarded = read(capture.contract, server.url, Client(on_report=reports.append))
        assert server.wait_idle(3.0)
    assert type(alone).__name__ == "RemoteProtocolError"
    assert guarded is None and text == capture.text
    assert (
        reports[0].ended == "error" and reports[0].is_final and reports[0].error_kind == "RemoteProtocolError"
    )


def test_a_request_that_does_not_stream_passes_through_untouched():
    body = json.dumps(
        {
            "id": "x",
            "object": "chat.completion",
            "created": 0,
            "model": "m",
            "choices": [
                {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "你好"}}
            ],
        }
    ).encode()
    reports: list[GuardReport] = []
    with ReplayServer(body, content_type="application/json", max_requests=3) as server:
        guard = Client(on_report=reports.append)
        with openai.OpenAI(api_key="k", base_url=server.url, max_retries=0, http_client=guard) as sdk:
            answer = sdk.chat.completions.create(model="m", messages=MESSAGES)
            raw = guard.post(server.url + "/chat/completions", json={"stream": False})
            stream = guard.stream("POST", server.url + "/chat/completions", json={})
            with stream as response:
                assert type(response.stream).__name__ != "GuardedStream"  # not judged: no stream asked
                assert response.read() == body
        assert server.wait_idle(3.0)
    assert answer.choices[0].message.content == "你好"
    assert raw.content == body and not reports and guard.last_report is None


def test_a_path_with_no_contract_is_not_judged_and_an_error_status_neither():
    capture = load("openai-chat/truncated_clean_boundary")
    with ReplayServer(capture.body, max_requests=3) as server, Client() as guard:
        response = guard.post(server.url + "/somewhere/else", json={"stream": True})
        assert response.content == capture.body and guard.last_report is None
        with pytest.raises(UnprovenStreamError):  # httpx's own read of a judged path raises too
            guard.post(server.url + "/v1/chat/completions", json={"stream": True})
        assert guard.last_report.path == "/v1/chat/completions"


def test_the_report_counts_and_times_and_says_nothing_of_the_content():
    capture = load("openai-responses/completed")
    with ReplayServer(capture.body, range(50, len(capture.body), 50), delay=0.002, max_requests=2) as server:
        guard = Client()
        text, raised = read(capture.contract, server.url, guard)
    report = guard.last_report
    assert raised is None and report is not None
    assert (report.method, report.path, report.contract, report.status) == (
        "POST",
        "/responses",
        "openai-responses",
        200,
    )
    assert report.ended == "eof" and report.is_final and not report.raised
    assert report.bytes == len(capture.body) and report.reads >= len(capture.body) // 50
    assert report.events == consume_events(capture) and report.last_event_index == report.events - 1
    assert (
        0
        <= report.time_to_headers
        <= report.time_to_first_byte
        <= report.time_to_first_text
        <= report.duration
    )
    assert report.max_gap is not None and report.max_gap > 0
    for value in report.as_dict().values():
        assert not isinstance(value, str) or not any(word in value for word in text.split() if len(word) > 2)


def consume_events(capture) -> int:
    from lesson_lib import consume

    return consume([capture.body], capture.contract).stats.events


def test_the_exception_names_outcome_layer_offset_and_event_without_content():
    capture = load("openai-chat/truncated_mid_event")
    with ReplayServer(capture.body, max_requests=2) as server:
        text, raised = read(capture.contract, server.url, Client())
    assert isinstance(raised, UnprovenStreamError) and isinstance(raised, IncompleteStreamError)
    assert raised.truncated_at is Unit.EVENT and raised.unit == "event"
    message = str(raised)
    assert "openai-chat" in message and "truncated at the event layer" in message
    assert f"at byte offset {len(capture.body)}" in message and f"event {raised.event_index}" in message
    assert text and text not in message and capture.text[-5:] not in message


def test_arguments_are_checked_before_any_io():
    with pytest.raises(ValueError, match="nope"):
        Client(contract="nope")
    with pytest.raises(ValueError, match="nope"):
        AsyncClient(contract={"/chat/completions": "nope"})
    with pytest.raises(ValueError, match="path endings"):
        Client(contract={"chat": "openai-chat"})
    with pytest.raises(TypeError, match="contract"):
        Client(contract=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="on_report"):
        Client(on_report="print")  # type: ignore[arg-type]


def test_the_path_registry_and_its_override():
    assert PATH_CONTRACTS == {
        "/chat/completions": "openai-chat",
        "/responses": "openai-responses",
        "/messages": "anthropic-messages",
    }
    assert contract_for_path("/v1/chat/completions") == "openai-chat"
    assert contract_for_path("/openai/deployments/d/chat/completions/") == "openai-chat"
    assert contract_for_path("/v1/messages") == "anthropic-messages"
    assert contract_for_path("/v1/embeddings") is None
    assert contract_for_path("/anything", "ollama") == "ollama"
    assert contract_for_path("/api/chat", {"/api/chat": "ollama"}) == "ollama"
    assert (
        contract_for_path("/v1/messages", {"/api/chat": "ollama"}) is None
    )  # the mapping replaces the registry


def test_a_contract_override_judges_another_service_through_the_same_client():
    capture = load("ollama/truncated_clean_boundary")
    with (
        ReplayServer(capture.body, content_type="application/x-ndjson", max_requests=2) as server,
        Client(contract={"/api/chat": "ollama"}) as guard,
        pytest.raises(UnprovenStreamError) as raised,
        guard.stream("POST", server.url + "/api/chat", json={"model": "m"}) as response,
    ):
        for _ in response.iter_lines():
            pass
    assert raised.value.outcome is Outcome.TRUNCATED and raised.value.contract == "ollama"


# --- the sans-IO watch: compressed bodies ----------------------------------------------------------------


def watched(body: bytes, encoding: str, size: int) -> tuple[list[GuardReport], BaseException | None]:
    reports: list[GuardReport] = []
    watch = Watch(
        "openai-chat",
        method="POST",
        path="/chat/completions",
        status=200,
        content_encoding=encoding,
        started=0.0,
        on_report=reports.append,
    )
    try:
        for chunk in fixed_size_chunks(body, size):
            watch.read(chunk)
        watch.eof()
    except UnprovenStreamError as exc:
        return reports, exc
    return reports, None


@pytest.mark.parametrize("size", [1, 5, 4096])
def test_gzip_and_deflate_bodies_are_judged_on_their_inflated_bytes(size):
    whole = load("openai-chat/completed").body
    cut = load("openai-chat/truncated_before_done").body
    deflate = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    raw_deflate = deflate.compress(whole) + deflate.flush()
    for encoded, encoding in [
        (gzip.compress(whole), "gzip"),
        (zlib.compress(whole), "deflate"),
        (raw_deflate, "deflate"),
    ]:
        reports, raised = watched(encoded, encoding, size)
        assert raised is None and reports[0].is_final and reports[0].bytes == len(encoded)
    reports, raised = watched(gzip.compress(cut), "gzip", size)
    assert isinstance(raised, UnprovenStreamError) and raised.truncated_at is Unit.COMPLETION
    reports, raised = watched(gzip.compress(whole)[:-30], "gzip", size)  # the compressed body cut short
    assert isinstance(raised, UnprovenStreamError)


@pytest.mark.parametrize("size", [1, 7, 4096])
def test_the_guard_inflates_with_the_cores_inflater_in_every_cut(size):
    """Several gzip members, x-gzip in any case; corrupt data and a cut inside a member, as the core's
    Inflater and lesson_lib.net judge them (one decoder for the project)."""
    whole = load("openai-chat/completed").body
    half = len(whole) // 2
    members = gzip.compress(whole[:half]) + gzip.compress(whole[half:])
    reports, raised = watched(members, "X-GZIP", size)
    assert raised is None and reports[0].is_final and reports[0].bytes == len(members)
    compressed = gzip.compress(whole)
    corrupt = compressed[:-8] + bytes([compressed[-8] ^ 1]) + compressed[-7:]  # the CRC-32
    reports, raised = watched(corrupt, "gzip", size)
    assert isinstance(raised, UnprovenStreamError) and raised.error_kind == "InflateError"
    assert raised.outcome is Outcome.DECODE_ERROR and len(corrupt) - 8 <= raised.offset < len(corrupt) - 4
    assert reports[0].ended == "decided"
    # cut inside the member but after [DONE] at a clean boundary (the trailer lost): the answer was whole
    reports, raised = watched(compressed[:-8], "gzip", size)
    assert raised is None and reports[0].is_final and reports[0].error_kind == "IncompleteStreamError"
    reports, raised = watched(compressed[: len(compressed) // 2], "gzip", size)
    assert isinstance(raised, UnprovenStreamError) and raised.outcome is Outcome.TRUNCATED
    assert raised.error_kind == "IncompleteStreamError" and reports[0].ended == "error"


def test_an_encoding_the_guard_cannot_undo_is_unproven_not_passed():
    _reports, raised = watched(b"\x00\x01", "br", 1)
    assert isinstance(raised, UnprovenStreamError) and raised.error_kind == "UnjudgedEncodingError"
    assert "Content-Encoding 'br' is not one the guard reads" in str(raised)
    assert "terminal signal" not in str(raised)  # the guard read nothing: it says why, not a layer


def test_a_reader_that_never_closes_still_gets_its_connection_back_after_the_exception():
    """Plain httpx2 use: iterate, catch, forget to close. The guard closes the transport's stream before it
    raises, also when a read decided it before the body's end (here [DONE] after a cut reason, the body's
    last chunk still to come), so a pool of one connection serves the next request."""
    capture = load("openai-chat/incomplete")
    pieces = range(40, len(capture.body), 40)
    with (
        ReplayServer(capture.body, pieces, max_requests=4) as server,
        Client(limits=ONE, timeout=POOL) as guard,
    ):
        for _ in range(3):
            request = guard.build_request("POST", server.url + "/chat/completions", json={"stream": True})
            response = guard.send(request, stream=True)
            with pytest.raises(UnprovenStreamError):
                for _ in response.iter_bytes():
                    pass
            # no response.close()


def test_an_async_reader_that_never_closes_still_gets_its_connection_back():
    capture = load("openai-responses/service_error")

    async def main(url: str) -> None:
        async with AsyncClient(limits=ONE, timeout=POOL) as guard:
            for _ in range(3):
                request = guard.build_request("POST", url + "/responses", json={"stream": True})
                response = await guard.send(request, stream=True)
                with pytest.raises(UnprovenStreamError):
                    async for _ in response.aiter_bytes():
                        pass

    with ReplayServer(capture.body, range(40, len(capture.body), 40), max_requests=4) as server:
        asyncio.run(main(server.url))


def test_the_stream_helpers_raise_too():
    """anthropic's messages.stream().get_final_message() alone returns the partial message unmarked
    (tests/net/test_sdks.py); guarded, it raises."""
    capture = load("anthropic-messages/truncated_clean_boundary")
    with ReplayServer(capture.body, max_requests=2) as server:
        with (
            anthropic.Anthropic(api_key="k", base_url=server.url, max_retries=0, http_client=Client()) as sdk,
            sdk.messages.stream(model="m", max_tokens=9, messages=MESSAGES) as stream,
            pytest.raises(UnprovenStreamError, match="completion layer"),
        ):
            stream.get_final_message()
        assert server.wait_idle(3.0)
