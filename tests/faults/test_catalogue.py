"""The catalogue of faults (issue 26): its entries, and that lesson_lib reaches each declared verdict.

For every entry, lesson_lib's ``consume`` on the pieces of the plan that answers a proper request gives the
expected outcome and text; where the verdict is about the bytes it is the same in every chunking of them
(hypothesis partitions). Where it is about time (stalls, heartbeats, a trickle) the bytes alone give the
expected verdict, and the plan's pauses on a fake clock with the course's 1 s clocks give the ``also`` one.
The resumable entries are resumed by lesson_lib's own resume plans (lesson_lib.net.resumption, sans-IO).
"""

from __future__ import annotations

import itertools
import json
import re
import urllib.parse
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lesson_lib import Outcome, consume
from lesson_lib.core.sse import SSEParser
from lesson_lib.faults import (
    CATALOGUE,
    Expected,
    Fault,
    Pause,
    Request,
    catalogue_json,
    check_plan,
    get_fault,
)
from lesson_lib.faults.plan import MAX_PLAN_SECONDS
from lesson_lib.faults.recipes import HEARTBEAT_INTERVAL, IDLE_TIMEOUT, STALL_SECONDS
from lesson_lib.faults.services import SERVICES
from lesson_lib.net.resumption import EventReader, LastEventIDPlan, StartingAfterPlan
from tests.faults.catalogue_support import (
    MCP_HEADERS,
    MCP_ID,
    TransportError,
    body_of,
    consume_options,
    judge,
    judge_in_time,
    proper,
    reads,
)
from tests.strategies import partitions

BY_NAME = {fault.name: fault for fault in CATALOGUE}
IDS = [fault.name for fault in CATALOGUE]

# --- the entries ------------------------------------------------------------------------------------------


def test_at_least_forty_entries_with_unique_url_safe_names():
    assert len(CATALOGUE) >= 40
    assert len(BY_NAME) == len(CATALOGUE)
    for fault in CATALOGUE:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", fault.name), fault.name
        assert urllib.parse.quote(fault.name, safe="") == fault.name


#: The issue's list of faults, each to the entries that cover it.
REQUIRED = {
    "cut inside a 2-byte character": [
        "openai-chat-cut-in-2-byte-character",
        "anthropic-cut-inside-characters",
    ],
    "cut inside a 3-byte character": [
        "openai-chat-cut-in-3-byte-character",
        "anthropic-cut-inside-characters",
    ],
    "cut inside a 4-byte character": [
        "openai-chat-cut-in-4-byte-character",
        "anthropic-cut-inside-characters",
        "openai-responses-cut-in-4-byte-character",
        "gemini-cut-in-4-byte-character",
        "gemini-json-array-cut-in-4-byte-character",
        "ollama-cut-in-4-byte-character",
        "mcp-cut-in-4-byte-character",
    ],
    "CR and LF in different reads": [
        "openai-chat-cr-and-lf-in-different-reads",
        "anthropic-cr-and-lf-in-different-reads",
        "gemini-cr-and-lf-in-different-reads",
    ],
    "CR-only line endings": ["openai-chat-cr-only-line-endings"],
    "a BOM": ["openai-chat-bom"],
    "an event cut mid-line": [
        "openai-chat-eof-mid-line",
        "openai-chat-reads-cut-mid-line-and-event",
        "openai-responses-eof-mid-line",
        "gemini-eof-mid-line",
        "ollama-eof-mid-line",
        "gemini-json-array-eof-mid-element",
        "anthropic-reads-cut-mid-line-and-event",
    ],
    "an event cut mid-event": [
        "openai-chat-eof-mid-event",
        "anthropic-eof-mid-event",
        "mcp-eof-mid-response",
    ],
    "a clean EOF before the terminal signal": [
        "openai-chat-eof-between-events",
        "openai-responses-eof-before-completed",
        "anthropic-eof-before-message-stop",
        "gemini-eof-before-finish-reason",
        "ollama-eof-before-done",
        "gemini-json-array-eof-before-bracket",
    ],
    "after the finish reason, before [DONE]": ["openai-chat-eof-after-finish-reason"],
    "a usage chunk between the finish and [DONE]": ["openai-chat-usage-before-done"],
    "a duplicated terminal": [
        "openai-chat-duplicated-done",
        "anthropic-duplicated-message-stop",
        "openai-responses-duplicated-completed",
    ],
    "events after the terminal": [
        "openai-chat-events-after-done",
        "anthropic-events-after-message-stop",
        "openai-responses-events-after-completed",
        "ollama-events-after-done",
    ],
    "heartbeats only (bounded by a cap)": [
        "openai-chat-heartbeats-only",
        "anthropic-pings-only",
        "openai-responses-keepalive-only",
        "mcp-keepalive-only",
    ],
    "heartbeats while the answer stalls": [
        "openai-chat-heartbeats-while-stalled",
        "anthropic-pings-while-stalled",
    ],
    "a trickle of one byte per interval": ["openai-chat-trickle"],
    "a stall longer than a typical idle timeout": ["openai-chat-stall", "anthropic-stall"],
    "Anthropic overloaded_error after 200 OK": ["anthropic-overloaded-error"],
    "OpenAI error chunk after 200 OK": ["openai-chat-error-chunk"],
    "Responses response.failed after 200 OK": ["openai-responses-failed"],
    "in-band errors of the other services": [
        "openai-responses-error-event",
        "gemini-error-chunk",
        "gemini-json-array-error-element",
        "ollama-error-line",
        "mcp-json-rpc-error",
        "mcp-tool-error",
    ],
    "an error status with a JSON body": [
        "openai-chat-error-status",
        "anthropic-error-status",
        "openai-responses-error-status",
        "gemini-error-status",
        "ollama-error-status",
    ],
    "invalid UTF-8": [
        "openai-chat-invalid-utf8",
        "anthropic-invalid-utf8",
        "gemini-invalid-utf8",
        "ollama-invalid-utf8",
    ],
    "U+FFFD already sent by the upstream": ["openai-chat-upstream-replacement-character"],
    "a missing charset": ["openai-chat-no-charset"],
    "a gzip-encoded stream": ["openai-chat-gzip", "anthropic-gzip"],
    "a connection reset mid-body": ["openai-chat-reset-mid-event", "anthropic-reset-mid-event"],
    "a chunked body without its terminator": [
        "openai-chat-no-terminator",
        "openai-responses-no-terminator",
        "openai-chat-no-terminator-after-done",
    ],
    "tool-call arguments cut mid-fragment": [
        "openai-chat-tool-arguments-cut-mid-fragment",
        "anthropic-tool-input-cut-mid-fragment",
        "openai-responses-tool-arguments-cut-mid-fragment",
    ],
    "tool-call arguments cut between fragments": [
        "openai-chat-tool-arguments-cut-between-fragments",
        "anthropic-tool-input-cut-between-fragments",
    ],
    "reasoning without text": [
        "openai-chat-reasoning-without-text",
        "anthropic-thinking-without-text",
        "openai-responses-reasoning-without-text",
        "gemini-thought-without-text",
        "ollama-thinking-without-text",
    ],
    "finish_reason length": [
        "openai-chat-finish-reason-length",
        "anthropic-max-tokens",
        "openai-responses-incomplete",
        "gemini-max-tokens",
        "ollama-done-reason-length",
    ],
    "resumable: MCP Last-Event-ID": [
        "mcp-resumable-close-before-response",
        "mcp-resumable-reset-mid-response",
    ],
    "resumable: Responses starting_after": ["openai-responses-resumable-drop"],
    "a control per contract": [
        f"{c}-control"
        for c in (
            "openai-chat",
            "anthropic",
            "openai-responses",
            "gemini",
            "gemini-json-array",
            "ollama",
            "mcp",
        )
    ],
}


@pytest.mark.parametrize("kind", sorted(REQUIRED))
def test_every_kind_of_the_issue_has_its_entries(kind):
    for name in REQUIRED[kind]:
        assert name in BY_NAME, f"{kind}: no entry {name!r}"


def test_every_streaming_contract_has_entries_and_a_control():
    contracts = {fault.contract for fault in CATALOGUE}
    assert (
        contracts
        == set(SERVICES)
        == {
            "openai-chat",
            "openai-responses",
            "anthropic-messages",
            "gemini",
            "gemini-json-array",
            "ollama",
            "mcp",
        }
    )
    controls = [fault for fault in CATALOGUE if fault.name.endswith("-control")]
    assert sorted(fault.contract for fault in controls) == sorted(contracts)
    assert all(fault.expected.outcome == "completed" and not fault.expected.also for fault in controls)


def test_the_sdk_pointable_contracts_come_first():
    order = [fault.contract for fault in CATALOGUE]
    first_other = min(order.index(c) for c in ("gemini", "gemini-json-array", "ollama", "mcp"))
    assert set(order[:first_other]) == {"openai-chat", "anthropic-messages", "openai-responses"}


@pytest.mark.parametrize("fault", CATALOGUE, ids=IDS)
def test_each_entry_is_described(fault):
    assert fault.lesson in {f"{n:02d}" for n in range(12)}
    assert fault.description and "\n" not in fault.description and len(fault.description) <= 120
    assert fault.service_path == SERVICES[fault.contract].path
    listed = fault.as_json()
    assert listed["name"] == fault.name and listed["contract"] == fault.contract
    assert listed["expected"] == {
        "outcome": fault.expected.outcome,
        "text": fault.expected.text,
        "also": [{"outcome": o, "text": t} for o, t in fault.expected.also],
    }
    json.dumps(listed)  # JSON as it is


def test_catalogue_json_and_get_fault():
    listed = catalogue_json()
    assert [entry["name"] for entry in listed] == IDS
    assert get_fault("openai-chat-control") is BY_NAME["openai-chat-control"]
    with pytest.raises(KeyError):
        get_fault("no-such-fault")


def test_the_answers_carry_2_3_and_4_byte_characters():
    text = get_fault("openai-chat-control").expected.text
    assert {len(c.encode()) for c in text} >= {1, 2, 3, 4}


# --- each entry's plan ----------------------------------------------------------------------------------


@pytest.mark.parametrize("fault", CATALOGUE, ids=IDS)
def test_a_proper_request_gets_a_bounded_plan(fault):
    plan = fault.respond(proper(fault))
    assert check_plan(plan) is plan
    if plan.status < 400:
        content_type = dict(plan.headers)["Content-Type"]
        assert content_type.split(";")[0] == SERVICES[fault.contract].content_type.split(";")[0]
        assert plan.framing == "chunked"
    else:
        assert plan.framing == "length" and dict(plan.headers)["Content-Type"] == "application/json"
    assert plan.seconds <= (3.0 if fault.timed else 1.0), "a normal fault is paced in tens of milliseconds"
    # Each step is what a read may see: two sends in a row would be joined by the socket.
    kinds = [type(step).__name__ for step in plan.steps]
    assert "SendSend" not in "".join(kinds)


def test_the_whole_catalogue_runs_in_well_under_a_minute():
    total = sum(fault.respond(proper(fault)).seconds for fault in CATALOGUE)
    assert total < 45.0
    assert max(fault.respond(proper(fault)).seconds for fault in CATALOGUE) < MAX_PLAN_SECONDS


@pytest.mark.parametrize("fault", CATALOGUE, ids=IDS)
def test_lesson_lib_reaches_the_expected_verdict(fault):
    plan = fault.respond(proper(fault))
    verdict = judge(fault, plan)
    if fault.resumable:  # the first connection alone: what a client that does not resume concludes
        assert verdict == fault.expected.also[0] and verdict[0] == "truncated"
    else:
        assert verdict == (fault.expected.outcome, fault.expected.text)
    assert fault.expected.accepts(*verdict)


def _bytes_entries() -> list[Fault]:
    """Every entry whose verdict is about the bytes (all but the resumables' second connection)."""
    return [fault for fault in CATALOGUE if fault.respond(proper(fault)).status < 400]


@pytest.mark.parametrize("fault", _bytes_entries(), ids=lambda f: f.name)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_verdict_is_the_same_in_every_chunking(fault, data):
    plan = fault.respond(proper(fault))
    pieces = data.draw(partitions(b"".join(reads(plan))))
    assert judge(fault, plan, pieces) == judge(fault, plan)


def test_one_byte_reads_and_every_two_piece_split_of_a_few_entries():
    for name in (
        "openai-chat-cut-in-4-byte-character",
        "anthropic-eof-mid-event",
        "gemini-json-array-control",
        "ollama-invalid-utf8",
        "mcp-cut-in-4-byte-character",
        "openai-chat-reset-mid-event",
    ):
        fault = get_fault(name)
        plan = fault.respond(proper(fault))
        body = b"".join(reads(plan))
        want = judge(fault, plan)
        assert judge(fault, plan, [body[i : i + 1] for i in range(len(body))]) == want
        for cut in range(1, len(body), 3):
            assert judge(fault, plan, [body[:cut], body[cut:]]) == want, (name, cut)


# --- the ending: a reset, a body without its last chunk ---------------------------------------------------


@pytest.mark.parametrize(
    "fault", [f for f in CATALOGUE if f.respond(proper(f)).end != "clean"], ids=lambda f: f.name
)
def test_a_transport_failure_is_truncated_unless_the_answer_had_ended(fault):
    plan = fault.respond(proper(fault))
    result = consume(_raising(reads(plan)), fault.contract, **consume_options(fault))
    assert result.error is not None and result.error.kind == "TransportError"  # the transport's, recorded
    if fault.name == "openai-chat-no-terminator-after-done":
        assert result.is_final  # every byte of the answer and its [DONE] came: what failed came after
    elif fault.resumable:  # the first connection: truncated, until the client resumes
        assert (str(result.outcome), result.text) == fault.expected.also[0]
    else:
        assert result.outcome is Outcome.TRUNCATED and fault.expected.outcome == "truncated"


def _raising(pieces):
    yield from pieces
    raise TransportError("the peer went away")


# --- time: stalls, heartbeats, a trickle --------------------------------------------------------------------

TIMED = [fault for fault in CATALOGUE if fault.timed]


def test_the_timed_entries():
    assert {f.name for f in TIMED} == {
        "openai-chat-heartbeats-only",
        "openai-chat-heartbeats-while-stalled",
        "openai-chat-trickle",
        "openai-chat-stall",
        "anthropic-pings-only",
        "anthropic-pings-while-stalled",
        "anthropic-stall",
        "openai-responses-keepalive-only",
        "mcp-keepalive-only",
    }
    for fault in TIMED:
        assert [outcome for outcome, _ in fault.expected.also] == ["timed_out"]


@pytest.mark.parametrize("fault", TIMED, ids=lambda f: f.name)
def test_without_a_clock_the_bytes_give_the_expected_verdict(fault):
    result = judge_in_time(fault, fault.respond(proper(fault)))
    assert (str(result.outcome), result.text) == (fault.expected.outcome, fault.expected.text)


@pytest.mark.parametrize("fault", TIMED, ids=lambda f: f.name)
def test_the_course_clocks_give_the_also_verdict(fault):
    plan = fault.respond(proper(fault))
    result = judge_in_time(fault, plan, idle_timeout=IDLE_TIMEOUT, progress_timeout=IDLE_TIMEOUT)
    assert (str(result.outcome), result.text) == fault.expected.also[0]
    assert fault.expected.accepts(str(result.outcome), result.text)
    # Which clock: a stall is silence (the idle clock); heartbeats and a trickle keep bytes coming.
    stall = "stall" in fault.name and "heartbeats" not in fault.name and "pings" not in fault.name
    assert result.error.kind == ("idle_timeout" if stall else "progress_timeout")


@pytest.mark.parametrize("fault", TIMED, ids=lambda f: f.name)
def test_an_idle_timeout_alone_fires_only_on_silence(fault):
    result = judge_in_time(fault, fault.respond(proper(fault)), idle_timeout=IDLE_TIMEOUT)
    if fault.name.endswith("-stall"):
        assert (str(result.outcome), result.text) == fault.expected.also[0]
    else:  # heartbeats and a trickle: bytes every 0.2 s or less
        assert (str(result.outcome), result.text) == (fault.expected.outcome, fault.expected.text)


def test_the_trickle_sends_one_byte_per_read():
    plan = get_fault("openai-chat-trickle").respond(proper(get_fault("openai-chat-trickle")))
    ones = [piece for piece in plan.pieces if len(piece) == 1]
    assert len(ones) > 200 and any(b >= 0xF0 for b in b"".join(ones))  # a 4-byte character among them


# --- resuming ---------------------------------------------------------------------------------------------

BASE = "http://127.0.0.1:9/faults/"


def _request(fault: Fault, method: str, url: str, json_body, headers) -> Request:
    """A faults Request for what a resume plan asks (the URL after /faults/<name>)."""
    parts = urllib.parse.urlsplit(url)
    prefix = f"/faults/{fault.name}"
    assert parts.path.startswith(prefix)
    lower = tuple((k.lower(), v.decode("latin-1") if isinstance(v, bytes) else v) for k, v in headers.items())
    body = b"" if json_body is None else json.dumps(json_body).encode()
    return Request(method, parts.path[len(prefix) :], parts.query, lower, body)


def _drive(fault: Fault, plan) -> object:
    """Run a lesson_lib resume plan against the fault without sockets: each request answered by
    ``fault.respond``, its reads fed to an EventReader, a reset or missing terminator as a transport cut."""
    while (asked := plan.next_request()) is not None:
        answer = fault.respond(_request(fault, asked.method, asked.url, asked.json, asked.headers))
        reader = EventReader.for_request(asked)
        if answer.status >= 400:
            plan.record(reader.refused(asked, f"HTTP {answer.status}"), [], False)
            continue
        for piece in answer.pieces:
            reader.feed(piece)
        if answer.end != "clean":
            reader.cut(TransportError(answer.end))
        reader.close()
        plan.record(reader.attempt(asked, len(answer.body)), reader.events, True)
    return plan.result()


def test_responses_resumed_from_starting_after_completes():
    fault = get_fault("openai-responses-resumable-drop")
    plan = StartingAfterPlan(BASE + fault.name + "/v1/responses", json=body_of(fault.contract))
    resumed = _drive(fault, plan)
    assert [a.ended for a in resumed.attempts] == ["TransportError", "end of body"]
    assert resumed.result.is_final and resumed.result.text == fault.expected.text
    assert fault.expected.outcome == "completed"
    # The second request asked for the events after the last whole one.
    first = SSEParser().feed(b"".join(fault.respond(proper(fault)).pieces))
    assert resumed.attempts[1].events == len(plan.events) - len(first)


def test_responses_without_background_cannot_be_resumed():
    fault = get_fault("openai-responses-resumable-drop")
    body = body_of(fault.contract, background=False)
    resumed = _drive(fault, StartingAfterPlan(BASE + fault.name + "/v1/responses", json=body))
    assert [a.ended for a in resumed.attempts] == ["TransportError", "HTTP 404"]
    verdict = (str(resumed.result.outcome), resumed.result.text)
    assert verdict == fault.expected.also[0] and verdict[0] == "truncated"


@pytest.mark.parametrize("name", ["mcp-resumable-close-before-response", "mcp-resumable-reset-mid-response"])
def test_mcp_resumed_with_last_event_id_completes(name):
    fault = get_fault(name)
    plan = LastEventIDPlan(
        BASE + name + "/mcp",
        "mcp",
        method="POST",
        json=body_of("mcp"),
        headers=dict(MCP_HEADERS),
        request_id=MCP_ID,
        resume_method="GET",
        max_wait=0,
    )
    resumed = _drive(fault, plan)
    assert len(resumed.attempts) == 2 and resumed.attempts[1].sent_id is not None
    assert resumed.result.is_final and resumed.result.text == fault.expected.text
    assert resumed.retry == 50  # the priming event's retry: what the client waited


def test_a_fault_that_is_not_resumable_refuses_the_resuming_request():
    mcp = get_fault("mcp-eof-mid-response")
    last = ("last-event-id", "0/7")
    asked = Request("GET", "/mcp", "", (*MCP_HEADERS, last), b"")
    assert mcp.respond(asked).status == 405
    responses = get_fault("openai-responses-no-terminator")
    from lesson_lib.faults.services import responses_id

    path = "/v1/responses/" + responses_id(responses.name, True)
    assert responses.respond(Request("GET", path, "stream=true", (), b"")).status == 404


# --- Expected ---------------------------------------------------------------------------------------------


def test_expected_accepts_the_outcome_and_the_text():
    expected = Expected("completed", "全部", (("truncated", "全"),))
    assert expected.accepts("completed", "全部") and expected.accepts("truncated", "全")
    assert expected.accepts("completed", None) and expected.accepts("truncated", None)
    assert not expected.accepts("completed", "全") and not expected.accepts("truncated", "全部")
    assert not expected.accepts("timed_out", None) and not expected.accepts("Completed", "全部")
    assert expected.verdicts == (("completed", "全部"), ("truncated", "全"))


def test_expected_refuses_an_unknown_outcome():
    with pytest.raises(ValueError, match="unknown outcome 'done'"):
        Expected("done", "")
    with pytest.raises(ValueError, match="unknown outcome"):
        Expected("completed", "", (("finished", ""),))


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "Bad_Name", "URL-safe"),
        ("contract", "openai", "unknown contract"),
        ("lesson", "12", "lesson"),
    ],
)
def test_a_fault_refuses_a_bad_field(field, value, message):
    fault = get_fault("openai-chat-control")
    fields = {"name": fault.name, "contract": fault.contract, "lesson": fault.lesson, field: value}
    with pytest.raises(ValueError, match=message):
        Fault(
            fields["name"],
            fields["contract"],
            fields["lesson"],
            "d",
            fault.expected,
            fault.service_path,
            fault.plan,
        )


# --- each plan does what its name says ---------------------------------------------------------------


def _plan(name: str):
    fault = get_fault(name)
    return fault.respond(proper(fault))


def _ends_inside(piece: bytes, width: int) -> bool:
    """Whether ``piece`` ends inside a ``width``-byte UTF-8 character (its lead byte among the last ones)."""
    for back in range(1, width):
        if (
            len(piece) >= back
            and {2: 0xC0, 3: 0xE0, 4: 0xF0}[width] <= piece[-back] < {2: 0xE0, 3: 0xF0, 4: 0xF8}[width]
        ):
            return True
    return False


@pytest.mark.parametrize(
    ("name", "widths"),
    [
        ("openai-chat-cut-in-2-byte-character", {2}),
        ("openai-chat-cut-in-3-byte-character", {3}),
        ("openai-chat-cut-in-4-byte-character", {4}),
        ("anthropic-cut-inside-characters", {2, 3, 4}),
        ("openai-responses-cut-in-4-byte-character", {4}),
        ("gemini-cut-in-4-byte-character", {4}),
        ("gemini-json-array-cut-in-4-byte-character", {4}),
        ("ollama-cut-in-4-byte-character", {4}),
        ("mcp-cut-in-4-byte-character", {4}),
    ],
)
def test_the_reads_end_inside_characters(name, widths):
    pieces = _plan(name).pieces
    for width in widths:
        assert any(_ends_inside(piece, width) for piece in pieces[:-1]), (name, width)


def test_the_line_ending_faults():
    for name in (
        "openai-chat-cr-and-lf-in-different-reads",
        "anthropic-cr-and-lf-in-different-reads",
        "gemini-cr-and-lf-in-different-reads",
    ):
        pieces = _plan(name).pieces
        splits = sum(a.endswith(b"\r") and b.startswith(b"\n") for a, b in itertools.pairwise(pieces))
        assert splits >= 10, name
        assert b"\n" not in b"".join(pieces).replace(b"\r\n", b""), "every line ends with CRLF"
    body = _plan("openai-chat-cr-only-line-endings").body
    assert b"\n" not in body and body.count(b"\r\r") >= 10
    pieces = _plan("openai-chat-bom").pieces
    assert pieces[0] == b"\xef\xbb" and pieces[1].startswith(b"\xbf")
    body = _plan("openai-chat-u2028-in-data").body
    assert "\u2028".encode() in body and b"\\u2028" not in body


def test_the_reads_cut_mid_line_and_mid_event():
    for name in ("openai-chat-reads-cut-mid-line-and-event", "anthropic-reads-cut-mid-line-and-event"):
        pieces = _plan(name).pieces
        mid_line = [p for p in pieces if not p.endswith(b"\n")]
        mid_event = [
            a
            for a, b in itertools.pairwise(pieces)
            if a.endswith(b"\n") and not a.endswith(b"\n\n") and b == b"\n"
        ]
        assert len(mid_line) >= 10 and len(mid_event) >= 10, name


def test_the_bytes_faults():
    for name in (
        "openai-chat-invalid-utf8",
        "anthropic-invalid-utf8",
        "gemini-invalid-utf8",
        "ollama-invalid-utf8",
    ):
        body = _plan(name).body
        with pytest.raises(UnicodeDecodeError):
            body.decode("utf-8")
        assert body.count(b"\xff") == 1
    body = _plan("openai-chat-upstream-replacement-character").body
    assert b"\xef\xbf\xbd" in body and body.decode("utf-8")
    headers = dict(_plan("openai-chat-no-charset").headers)
    assert headers["Content-Type"] == "text/event-stream"
    assert "charset" in dict(_plan("openai-chat-control").headers)["Content-Type"]
    assert (
        "Å".encode() == b"\xc3\x85" and b"\xc3\x85" in _plan("openai-chat-no-charset").body
    )  # NEL in Latin-1


@pytest.mark.parametrize("name", ["openai-chat-gzip", "anthropic-gzip"])
def test_gzip_compresses_each_read_with_a_sync_flush(name):
    plan = _plan(name)
    assert dict(plan.headers)["Content-Encoding"] == "gzip" and plan.body[:2] == b"\x1f\x8b"
    decompressor = zlib.decompressobj(wbits=31)
    control = get_fault(name.replace("-gzip", "-control"))
    assert [decompressor.decompress(p) for p in plan.pieces] == control.respond(proper(control)).pieces


def test_the_endings():
    ends = {fault.name: fault.respond(proper(fault)).end for fault in CATALOGUE}
    assert {name for name, end in ends.items() if end == "reset"} == {
        "openai-chat-reset-mid-event",
        "anthropic-reset-mid-event",
        "openai-responses-resumable-drop",
        "mcp-resumable-reset-mid-response",
    }
    assert {name for name, end in ends.items() if end == "no_terminator"} == {
        "openai-chat-no-terminator",
        "openai-responses-no-terminator",
        "openai-chat-no-terminator-after-done",
    }
    assert _plan("openai-chat-no-terminator-after-done").body.endswith(b"data: [DONE]\n\n")
    assert not _plan("openai-chat-no-terminator").body.endswith(b"\n")  # the socket closes mid-line


def test_the_time_faults():
    for name in ("openai-chat-stall", "anthropic-stall"):
        assert max(step.seconds for step in _plan(name).steps if isinstance(step, Pause)) == STALL_SECONDS > 1
    for name in (
        "openai-chat-heartbeats-only",
        "anthropic-pings-only",
        "openai-responses-keepalive-only",
        "mcp-keepalive-only",
        "openai-chat-heartbeats-while-stalled",
        "anthropic-pings-while-stalled",
    ):
        plan = _plan(name)
        assert plan.seconds > 1.5 * IDLE_TIMEOUT  # heartbeats for longer than a progress timeout
        assert max(step.seconds for step in plan.steps if isinstance(step, Pause)) <= HEARTBEAT_INTERVAL
    assert _plan("openai-chat-heartbeats-only").body == b": keep-alive\n\n" * 11


def test_an_untimed_fault_pauses_nowhere_near_the_read_timeout():
    """What lets the score read an untimed fault with a long read timeout (UNTIMED_SECONDS): its verdict
    cannot depend on the clock, because no pause in it, nor all of them together, comes near 1 s."""
    untimed = [fault for fault in CATALOGUE if not fault.timed]
    assert untimed and len(untimed) < len(CATALOGUE)
    for fault in untimed:
        plan = fault.respond(proper(fault))
        pauses = [step.seconds for step in plan.steps if isinstance(step, Pause)]
        assert max(pauses, default=0) <= 0.25 * IDLE_TIMEOUT, fault.name
    for fault in CATALOGUE:
        if fault.timed:
            steps = fault.respond(proper(fault)).steps
            assert sum(step.seconds for step in steps if isinstance(step, Pause)) > IDLE_TIMEOUT, fault.name
