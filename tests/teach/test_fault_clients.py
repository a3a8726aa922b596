"""Each client adapter of lesson_lib.teach.fault_clients over real sockets: what its user really concludes.

The streams come from ReplayServer (the course's captures, and the skeleton catalogue's plans with their
pieces as the cuts) and from AnswerServer (an error status with a JSON body, a reset mid-body), each on
127.0.0.1 at a free port, started and stopped here. An entry is built exactly as the fault server lists it
(``base_url`` = server URL + ``/faults/<name>``, then the service's ``path``), so the same adapters run on the
real fault server unchanged. What is asserted is what was measured (lesson 06's point, per client): the
SDKs, httpx-sse and requests end silently with a short answer on a clean EOF before the terminal signal,
lesson_lib says ``truncated``, the guarded SDKs raise ``UnprovenStreamError`` naming it; so an upgrade that
changes a client's behaviour fails here and says which.
"""

from __future__ import annotations

import gzip
import json
from concurrent.futures import ThreadPoolExecutor

import httpx
import httpx2
import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from urllib3.exceptions import ReadTimeoutError

from lesson_lib import consume
from lesson_lib.captures import load
from lesson_lib.faults import Expected
from lesson_lib.net import ReplayServer
from lesson_lib.teach.fault_clients import (
    CLIENTS,
    IDLE_SECONDS,
    UNTIMED_SECONDS,
    Adapter,
    EntryError,
    client_named,
    request_json,
    stream_url,
)
from lesson_lib.teach.fault_scores import judge
from lesson_lib.teach.fault_verdicts import Verdict, outcome_of

from .answer_server import AnswerServer
from .fault_streams import PATHS, SSE, WHOLE, entry, listed, plan_server

CONTENT_TYPES = {"ollama": "application/x-ndjson"}
SDKS = ("openai", "openai-async", "anthropic", "anthropic-async")
GUARDED = ("guard+openai", "guard+anthropic")
OWN = ("lesson_lib", "lesson_lib-async")
HAND_WRITTEN = ("httpx-sse", "requests")


def pairs(contracts=tuple(PATHS)) -> list[tuple[str, str]]:
    """(client, contract) for every client and every contract of ``contracts`` it speaks."""
    return [
        (adapter.name, contract)
        for adapter in CLIENTS
        for contract in contracts
        if adapter.speaks({"contract": contract})
    ]


def replay(name: str, client: str, size: int | None = 7, **server_options) -> tuple[Verdict | None, str]:
    """The client's verdict on capture ``name`` served in reads of ``size`` bytes (None: whole), and the
    text of the capture's complete events (what consume() keeps)."""
    capture = load(name)
    cuts = () if size is None else range(size, len(capture.body), size)
    content_type = CONTENT_TYPES.get(capture.contract, SSE)
    with ReplayServer(capture.body, cuts, content_type=content_type, **server_options) as server:
        verdict = client_named(client).verdict(entry(server.url, capture.contract))
    return verdict, consume([capture.body], capture.contract).text


# -- a whole stream ----------------------------------------------------------------------------------------

CAPTURED = ("openai-chat", "openai-responses", "anthropic-messages", "gemini", "ollama")


@pytest.mark.parametrize("size", [7, None])
@pytest.mark.parametrize(("client", "contract"), pairs(CAPTURED))
def test_a_whole_stream_is_completed_with_its_text(client, contract, size):
    verdict, text = replay(f"{contract}/completed", client, size)
    assert verdict is not None and verdict.outcome == "completed" and verdict.raised is None
    if (client, contract) == ("requests", "gemini"):
        # measured: the blog posts' chunk["candidates"][0]["content"]["parts"][0] keeps one part per event
        assert verdict.text != text and len(verdict.text) < len(text)
    else:
        assert verdict.text == text == load(f"{contract}/completed").text


@pytest.mark.parametrize("fault", WHOLE, ids=lambda fault: fault.name)
def test_the_catalogue_s_whole_answers_are_right_for_every_client_that_speaks_them(fault):
    with plan_server(fault) as server:
        item = listed(fault, server.url)
        assert stream_url(item) == f"{server.url}/faults/{fault.name}{fault.service_path}"
        for adapter in CLIENTS:
            score = judge(adapter, item)
            assert score.cls == ("right" if adapter.speaks(item) else "not scored"), (adapter.name, score)


# -- a clean EOF before the service's terminal signal --------------------------------------------------------

#: What each kind of client concludes of a body that ends at an event boundary before the terminal signal.
CLEAN_EOF = {
    **dict.fromkeys(SDKS + HAND_WRITTEN, ("completed", None)),
    **dict.fromkeys(OWN, ("truncated", None)),
    **dict.fromkeys(GUARDED, ("truncated", "UnprovenStreamError")),
}


@pytest.mark.parametrize("size", [7, None])
@pytest.mark.parametrize(
    ("client", "name"),
    [(c, f"{k}/truncated_clean_boundary") for c, k in pairs(CAPTURED)]
    + [(c, "openai-chat/truncated_before_done") for c, _ in pairs(("openai-chat",))],
)
def test_a_clean_eof_before_the_terminal_is_what_each_client_really_says(client, name, size):
    verdict, text = replay(name, client, size)
    assert verdict is not None
    assert (verdict.outcome, verdict.raised) == CLEAN_EOF[client]  # the SDKs: silent, a short answer
    if (client, name) != ("requests", "gemini/truncated_clean_boundary"):  # parts[0] only, as above
        assert verdict.text == text


# -- what each client makes of the course's other cuts (measured) --------------------------------------------

#: (outcome, exception) by capture kind and client; a client missing from a kind raises (KeyError: the
#: naive code indexing an error object); the guard's and lesson_lib's verdicts are consume()'s.
MEASURED = {
    "truncated_mid_character": {
        **dict.fromkeys(SDKS, ("decode_error", "UnicodeDecodeError")),  # a bare UnicodeDecodeError
        "requests": ("decode_error", "UnicodeDecodeError"),  # line.decode("utf-8") of the half line
        "httpx-sse": ("completed", None),  # iter_text() replaces, and the half event is never dispatched
        **dict.fromkeys(OWN, ("truncated", None)),
        **dict.fromkeys(GUARDED, ("truncated", "UnprovenStreamError")),
    },
    "service_error": {
        "openai": ("service_error", "APIError"),
        "openai-async": ("service_error", "APIError"),
        "anthropic": ("service_error", "APIStatusError"),
        "anthropic-async": ("service_error", "APIStatusError"),
        "httpx-sse": ("completed", None),  # its user's careful code finds no text in an error and goes on
        **dict.fromkeys(OWN, ("service_error", None)),
        **dict.fromkeys(GUARDED, ("service_error", "UnprovenStreamError")),
    },
    "incomplete": {
        **dict.fromkeys(SDKS + HAND_WRITTEN, ("completed", None)),  # no one's documented loop looks
        **dict.fromkeys(OWN, ("incomplete", None)),
        **dict.fromkeys(GUARDED, ("incomplete", "UnprovenStreamError")),
    },
}
#: Where a capture's contract changes a client's verdict: the Responses flat error event is just an event
#: to the openai SDK, and requests' naive loop raises only where it indexes the error object.
MEASURED_EXCEPTIONS = {
    ("openai", "openai-responses/service_error"): ("completed", None),
    ("openai-async", "openai-responses/service_error"): ("completed", None),
    ("requests", "openai-responses/service_error"): ("completed", None),
    ("requests", "anthropic-messages/service_error"): ("completed", None),
}


@pytest.mark.parametrize(
    ("client", "name"),
    [(c, f"{k}/{kind}") for kind in MEASURED for c, k in pairs(CAPTURED)],
)
def test_the_course_s_cuts_per_client(client, name):
    kind = name.split("/", 1)[1]
    expected = MEASURED_EXCEPTIONS.get((client, name), MEASURED[kind].get(client))
    if expected is None:
        with pytest.raises(KeyError):
            replay(name, client)
        return
    verdict, text = replay(name, client)
    assert verdict is not None and (verdict.outcome, verdict.raised) == expected
    naive_gemini = (client, name.split("/")[0]) == ("requests", "gemini")
    if (client in OWN + GUARDED or verdict.raised is None) and not naive_gemini:
        assert verdict.text == text  # what arrived whole: the complete events' text


# -- transport failures, timeouts and error statuses: every client, over real sockets -----------------------


def _each_client_once(server_url: str) -> dict[str, Verdict | None]:
    """Every client on one stream of a contract it speaks, in parallel threads (each one's own server)."""
    first = {adapter.name: next(c for c in PATHS if adapter.speaks({"contract": c})) for adapter in CLIENTS}
    with ThreadPoolExecutor(len(CLIENTS)) as pool:
        futures = {
            name: pool.submit(client_named(name).verdict, entry(server_url, contract))
            for name, contract in first.items()
        }
        return {name: future.result() for name, future in futures.items()}


def test_an_error_status_with_a_json_body_is_a_service_error_for_every_client():
    body = json.dumps({"error": {"message": "Overloaded", "type": "overloaded_error"}}).encode()
    with AnswerServer(status=503, body=body) as server:
        verdicts = _each_client_once(server.url)
    for name, verdict in verdicts.items():
        assert verdict is not None and verdict.outcome == "service_error", name
        assert verdict.text == "" and verdict.raised is not None


@pytest.mark.parametrize(("client", "contract"), pairs(CAPTURED))
def test_a_reset_mid_body_is_truncated_for_every_client_with_the_text_before(client, contract):
    capture = load(f"{contract}/completed")
    half = capture.body[: len(capture.body) // 2]
    with AnswerServer(reset_after=half) as server:
        verdict = client_named(client).verdict(entry(server.url, contract))
    assert verdict is not None and verdict.outcome == "truncated"
    assert (verdict.raised is None) == (client in OWN)  # lesson_lib's result says it; the others raise
    if (client, contract) != ("requests", "gemini"):
        assert verdict.text == consume([half], contract).text


@pytest.mark.parametrize(("client", "contract"), pairs(CAPTURED[:3]))
def test_an_event_stream_without_a_charset_is_read_as_utf8_by_every_client(client, contract):
    capture = load(f"{contract}/completed")
    cuts = range(7, len(capture.body), 7)
    with ReplayServer(capture.body, cuts, content_type="text/event-stream") as server:
        verdict = client_named(client).verdict(entry(server.url, contract))
    assert verdict == Verdict("completed", capture.text)


@pytest.mark.parametrize(("client", "contract"), pairs(("openai-chat", "anthropic-messages", "ollama")))
def test_a_gzip_body_is_inflated_by_every_client(client, contract):
    """Measured: httpx2, httpx and requests inflate ``Content-Encoding: gzip`` (the guard inflates a copy for
    its judge); lesson_lib's client asks for ``identity``, and inflates a gzip body sent anyway
    (``lesson_lib.core.inflate``), so every client gets the whole text."""
    capture = load(f"{contract}/completed")
    gzipped = {"content_type": CONTENT_TYPES.get(contract, SSE), "headers": (("Content-Encoding", "gzip"),)}
    with AnswerServer(body=gzip.compress(capture.body), **gzipped) as server:
        verdict = client_named(client).verdict(entry(server.url, contract))
    assert verdict == Verdict("completed", capture.text)


@pytest.mark.parametrize(("client", "contract"), pairs(("openai-chat", "anthropic-messages", "ollama")))
def test_a_chunked_body_without_its_terminator_is_truncated(client, contract):
    capture = load(f"{contract}/completed")
    verdict, _ = replay(f"{contract}/completed", client, 40, drop_after=len(capture.body) // 2)
    assert verdict is not None and verdict.outcome == "truncated"
    assert (verdict.raised is None) == (client in OWN)
    assert verdict.text == consume([capture.body[: len(capture.body) // 2]], contract).text


def test_a_stall_longer_than_the_read_timeout_ends_every_client():
    """Measured: every client's own read timeout is ``timed_out``; the guard reads the SDK's transport
    timeout as a truncated body (``UnprovenStreamError``, outcome ``truncated``, error_kind ReadTimeout)."""
    contracts = {a.name: next(c for c in CAPTURED if a.speaks({"contract": c})) for a in CLIENTS}
    servers = {
        name: ReplayServer(load(f"{contract}/completed").body, [40], stall_after=1, stall_for=2.5)
        for name, contract in contracts.items()
    }
    try:
        for server in servers.values():
            server.start()
        with ThreadPoolExecutor(len(CLIENTS)) as pool:
            # a stall is a timed fault: read with the catalogue's 1 s read timeout
            timed = {name: {**entry(servers[name].url, c), "timed": True} for name, c in contracts.items()}
            futures = {name: pool.submit(client_named(name).verdict, timed[name]) for name in contracts}
            verdicts = {name: future.result() for name, future in futures.items()}
    finally:
        for server in servers.values():
            server.stop()
    for name, verdict in verdicts.items():
        assert verdict is not None, name
        expected = ("truncated", "UnprovenStreamError") if name in GUARDED else "timed_out"
        got = (verdict.outcome, verdict.raised) if name in GUARDED else verdict.outcome
        assert got == expected, (name, verdict)


# -- what the adapters refuse, and the exceptions read as outcomes -------------------------------------------


@pytest.mark.parametrize("adapter", CLIENTS, ids=lambda a: a.name)
def test_a_contract_a_client_does_not_speak_is_not_scored(adapter):
    unspoken = [c for c in (*PATHS, "gemini-json-array") if not adapter.speaks({"contract": c})]
    assert unspoken or adapter.name in OWN
    for contract in unspoken:
        listed = {"name": "x", "contract": contract, "path": "/x", "base_url": "http://127.0.0.1:9/faults/x"}
        assert adapter(listed) is None and adapter.verdict(listed) is None  # and nothing was requested


def test_a_path_an_sdk_cannot_be_pointed_at_is_refused_naming_it():
    listed = {"name": "odd", "contract": "openai-chat", "path": "/v1/other", "base_url": "http://127.0.0.1:9"}
    with pytest.raises(EntryError, match=r"'odd'.*'/v1/other'.*'/chat/completions'"):
        client_named("openai").verdict(listed)
    with pytest.raises(EntryError):  # not scored as the client's crash: the table would hide the mismatch
        odd = {**listed, "contract": "anthropic-messages"}
        judge(client_named("anthropic"), odd, Expected("completed", ""))
    with pytest.raises(KeyError, match="no client 'curl'"):
        client_named("curl")
    with pytest.raises(KeyError, match="no request body for contract 'smtp'"):
        request_json("smtp")


def test_an_adapter_returns_the_verdict_as_the_score_runner_takes_it():
    capture = load("openai-chat/completed")
    with ReplayServer(capture.body) as server:
        given_back = client_named("lesson_lib")(entry(server.url, "openai-chat"))
    assert given_back == {"outcome": "completed", "text": capture.text}


def _raise(exc: BaseException) -> BaseException:
    try:
        raise exc
    except BaseException as caught:
        return caught


def test_exceptions_are_read_as_the_outcome_they_mean():
    request = httpx.Request("POST", "http://127.0.0.1:9/")
    response = httpx.Response(503, request=request)
    assert outcome_of(httpx.HTTPStatusError("503", request=request, response=response)) == "service_error"
    assert outcome_of(httpx.ReadTimeout("slow")) == "timed_out"
    assert outcome_of(httpx2.ReadTimeout("slow")) == "timed_out"
    assert outcome_of(httpx.RemoteProtocolError("cut")) == "truncated"
    assert outcome_of(httpx2.ReadError("reset")) == "truncated"
    assert outcome_of(httpx.DecodingError("gzip")) == "decode_error"
    assert outcome_of(UnicodeDecodeError("utf-8", b"\xe4", 0, 1, "unexpected end")) == "decode_error"
    assert outcome_of(_raise(json.JSONDecodeError("Expecting value", "{", 1))) == "decode_error"
    mid_body_timeout = requests.exceptions.ConnectionError(ReadTimeoutError(None, "/", "Read timed out."))
    assert outcome_of(mid_body_timeout) == "timed_out"
    assert outcome_of(requests.exceptions.ConnectionError("refused")) == "truncated"
    assert outcome_of(requests.exceptions.ChunkedEncodingError("cut")) == "truncated"
    assert outcome_of(requests.exceptions.ReadTimeout("slow")) == "timed_out"
    assert outcome_of(requests.exceptions.HTTPError("503")) == "service_error"
    assert outcome_of(requests.exceptions.ContentDecodingError("gzip")) == "decode_error"
    from httpx_sse import SSEError

    assert outcome_of(SSEError("Expected response header Content-Type")) is None  # not a transport failure
    for crash in (KeyError("choices"), IndexError("list index out of range"), TypeError("x"), RuntimeError()):
        assert outcome_of(crash) is None


def test_sdk_errors_are_read_from_their_type_and_body():
    import anthropic
    import openai

    request = httpx2.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
    in_band = openai.APIError("Overloaded", request, body={"message": "Overloaded"})
    assert outcome_of(in_band) == "service_error"
    assert outcome_of(openai.APIError("no body", request, body=None)) is None
    assert outcome_of(openai.APITimeoutError(request)) == "timed_out"
    assert outcome_of(openai.APIConnectionError(request=request)) == "truncated"
    assert outcome_of(anthropic.APITimeoutError(request)) == "timed_out"
    assert outcome_of(anthropic.APIConnectionError(request=request)) == "truncated"
    status = anthropic.APIStatusError("529", response=httpx2.Response(529, request=request), body=None)
    assert outcome_of(status) == "service_error"


# -- every chunking ------------------------------------------------------------------------------------------


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    client=st.sampled_from([c for c, _ in pairs(CAPTURED)]),
    kind=st.sampled_from(["completed", "truncated_clean_boundary"]),
)
def test_in_every_chunking_a_client_s_verdict_is_the_same(data, client, kind):
    """Whatever the read boundaries: a whole answer is completed with its text for every client, and a
    clean EOF before the terminal is what CLEAN_EOF says (the verdicts are about the bytes, not the cuts)."""
    contract = data.draw(st.sampled_from([k for c, k in pairs(CAPTURED) if c == client]))
    capture = load(f"{contract}/{kind}")
    cuts = data.draw(st.lists(st.integers(1, len(capture.body) - 1), max_size=25))
    with ReplayServer(capture.body, cuts, content_type=CONTENT_TYPES.get(contract, SSE)) as server:
        verdict = client_named(client).verdict(entry(server.url, contract))
    assert verdict is not None
    wanted = ("completed", None) if kind == "completed" else CLEAN_EOF[client]
    assert (verdict.outcome, verdict.raised) == wanted
    if (client, contract) != ("requests", "gemini"):
        assert verdict.text == consume([capture.body], contract).text


def test_the_read_timeout_is_the_catalogue_s_on_a_timed_entry_only():
    """A timed entry (a stall, heartbeats, a trickle) is read with the 1 s the faults are scaled to; any
    other with UNTIMED_SECONDS, so a busy machine's pause cannot turn a whole answer into timed_out."""
    given: list[float] = []
    adapter = Adapter("records", frozenset({"openai-chat"}), lambda entry, parts, idle: given.append(idle))
    adapter.verdict({"name": "x", "contract": "openai-chat", "timed": True})
    adapter.verdict({"name": "x", "contract": "openai-chat", "timed": False})
    adapter.verdict({"name": "x", "contract": "openai-chat"})
    assert given == [IDLE_SECONDS, UNTIMED_SECONDS, UNTIMED_SECONDS] and IDLE_SECONDS < 2 < UNTIMED_SECONDS


def test_a_made_up_adapter_s_crash_propagates_and_its_outcome_is_kept():
    def crashes(entry, parts, idle):
        parts.append("partial")
        raise KeyError("choices")

    def times_out(entry, parts, idle):
        parts.append("partial")
        raise httpx.ReadTimeout("slow")

    listed = {"name": "x", "contract": "openai-chat"}
    with pytest.raises(KeyError):
        Adapter("crashes", frozenset({"openai-chat"}), crashes).verdict(listed)
    kept = Adapter("slow", frozenset({"openai-chat"}), times_out).verdict(listed)
    assert kept == Verdict("timed_out", "partial", "ReadTimeout")
