"""Every outcome, on the course's captures and cuts of them: the verdict is consume's, the offsets are right.

The bodies are diagnosed as raw files (read boundaries unknown). Each check compares with what
``consume`` says for the same bytes and with offsets computed here from the bytes themselves.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import consume
from lesson_lib.captures import load, manifest, names
from lesson_lib.diagnose import diagnose, open_input

from .helpers import run

COMPLETED = load("openai-chat/completed").body
DONE = COMPLETED.rindex(b"data: [DONE]")
FIRST = COMPLETED[: COMPLETED.index(b"\n\n") + 2]  # the first event


def write(tmp_path: Path, body: bytes, name: str = "body.sse") -> str:
    path = tmp_path / name
    path.write_bytes(body)
    return str(path)


def events_before(body: bytes) -> tuple[int, int]:
    """(complete SSE events, where the last one ended) in an LF-only body."""
    end = body.rfind(b"\n\n")
    return body.count(b"\n\n"), (end + 2 if end >= 0 else 0)


@pytest.mark.parametrize("name", names())
def test_every_capture_gets_consumes_verdict_and_its_exit_status(tmp_path: Path, name: str) -> None:
    capture = load(name)
    entry = next(e for e in manifest() if e["file"].startswith(name + "."))
    result = run(write(tmp_path, capture.body), "--json")
    report = result.json
    expected = consume([capture.body], capture.contract)
    assert report["contract"] == capture.contract == expected.contract
    assert report["outcome"] == capture.outcome == str(expected.outcome)
    assert report["truncated_at"] == capture.truncated_at
    assert report["end_verified"] is entry["end_verified"] is expected.end_verified
    assert report["finish_reason"] == capture.finish_reason
    assert result.status == (0 if expected.is_final else 1) == report["exit_status"]
    assert report["bytes"]["read"] + report["bytes"]["not_read"] == len(capture.body)
    assert report["reads"] is None and report["naive"] is None  # a raw body: never invented
    assert report["events"]["count"] == expected.stats.events
    if capture.error_type is not None:
        assert report["stopped"]["error_type"] == capture.error_type


def test_a_capture_cut_inside_a_character(tmp_path: Path) -> None:
    cut = COMPLETED.index("第".encode()) + 2
    report = run(write(tmp_path, COMPLETED[:cut]), "--json").json
    events, last_end = events_before(COMPLETED[:cut])
    assert (report["outcome"], report["truncated_at"]) == ("truncated", "character")
    assert report["stopped"] == {
        **report["stopped"],
        "layer": "character",
        "offset": cut,
        "event_index": events,
    }
    assert report["last_clean_offset"] == last_end
    assert report["characters"]["cut_character"] == {"offset": cut - 2, "bytes": 2, "of": 3}
    assert report["hexdump"]["runs"][-1] == {"class": "character", "offset": cut - 2, "bytes": 2, "of": 3}
    assert report["hexdump"]["cut"] == cut == report["hexdump"]["end"]


def test_a_capture_cut_mid_line(tmp_path: Path) -> None:
    line = COMPLETED.index(b"data: ", 1000)
    cut = line + 10
    report = run(write(tmp_path, COMPLETED[:cut]), "--json").json
    assert (report["truncated_at"], report["stopped"]["layer"], report["stopped"]["offset"]) == (
        "line",
        "line",
        cut,
    )
    assert report["last_clean_offset"] == line
    assert report["lines"]["ended_mid_line"] is True


def test_a_capture_cut_at_an_event_boundary_before_the_terminal(tmp_path: Path) -> None:
    result = run(write(tmp_path, COMPLETED[:DONE]), "--json")
    report = result.json
    assert (report["outcome"], report["truncated_at"], report["finish_reason"]) == (
        "truncated",
        "completion",
        "stop",
    )
    assert report["last_clean_offset"] == DONE == report["stopped"]["offset"]
    assert report["stopped"]["event_index"] == COMPLETED[:DONE].count(b"\n\n")
    assert result.status == 1


def test_a_capture_cut_after_the_terminal_line_but_before_its_blank_line(tmp_path: Path) -> None:
    report = run(write(tmp_path, COMPLETED[:-1]), "--json").json
    assert (report["outcome"], report["truncated_at"]) == ("truncated", "event")
    assert report["last_clean_offset"] == DONE


def test_a_capture_whole_and_with_a_heartbeat_after_the_terminal(tmp_path: Path) -> None:
    result = run(write(tmp_path, COMPLETED + b": ping\n\n"), "--json")
    assert result.status == 0 and result.json["is_final"] and result.json["end_verified"]
    assert result.json["events"]["heartbeats"] == 1
    assert result.json["last_clean_offset"] == len(COMPLETED) + 7  # a comment is whole at its line's end


def test_an_in_band_service_error_stops_at_its_event(tmp_path: Path) -> None:
    capture = load("openai-chat/service_error")
    report = run(write(tmp_path, capture.body), "--json").json
    assert report["outcome"] == "service_error"
    assert report["stopped"]["layer"] == "completion" and report["stopped"]["error_kind"] == "ServiceError"
    index = report["stopped"]["event_index"]
    ends = [i + 2 for i in range(len(capture.body)) if capture.body.startswith(b"\n\n", i)]
    assert report["last_clean_offset"] == ends[index]
    assert all(row["index"] <= index for row in report["events"]["table"])


def test_invalid_utf8_is_a_decode_error_at_its_exact_byte(tmp_path: Path) -> None:
    at = COMPLETED.index("你".encode())  # its lead byte becomes one that is never in UTF-8
    body = COMPLETED[:at] + b"\xff" + COMPLETED[at + 1 :]
    result = run(write(tmp_path, body), "--json")
    report = result.json
    assert report["outcome"] == "decode_error" and result.status == 1
    assert report["stopped"] == {
        **report["stopped"],
        "layer": "character",
        "offset": at,
        "offset_exact": True,
    }
    assert report["characters"]["invalid_utf8_offset"] == at
    assert any(run_["class"] == "invalid" and run_["offset"] == at for run_ in report["hexdump"]["runs"])
    assert report["bytes"]["read"] + report["bytes"]["not_read"] == len(body)


def test_u_fffd_on_the_wire_is_the_upstreams_not_ours(tmp_path: Path) -> None:
    body = COMPLETED.replace("你".encode(), "\ufffd".encode(), 1)
    report = run(write(tmp_path, body), "--json").json
    assert report["outcome"] == "completed"
    assert report["characters"]["upstream_replacement_chars"] == 1
    assert report["characters"]["first_upstream_replacement_offset"] == body.index(b"\xef\xbf\xbd")


def test_a_limit_reached_is_limit_exceeded(tmp_path: Path) -> None:
    body = b"data: " + b"a" * (2 * 1024 * 1024) + b"\n\n"  # 1 MiB without progress comes first
    report = run(write(tmp_path, body), "--contract", "openai-chat", "--json").json
    assert report["outcome"] == "limit_exceeded"
    assert report["stopped"]["layer"] == report["stopped"]["limit"] == "max_bytes_without_progress"


def test_incomplete_is_exit_1_with_a_verified_end(tmp_path: Path) -> None:
    result = run(write(tmp_path, load("anthropic-messages/incomplete").body), "--json")
    assert result.json["outcome"] == "incomplete" and result.json["end_verified"] and result.status == 1


def test_the_events_table_is_bounded_first_and_last_rows(tmp_path: Path) -> None:
    body = b"".join(b"event: e%d\nid: %d\ndata: {}\n\n" % (i, i) for i in range(500))
    report = run(write(tmp_path, body), "--contract", "anthropic-messages", "--json").json
    table = report["events"]["table"]
    assert [row["index"] for row in table] == [*range(10), *range(490, 500)]
    assert report["events"]["table_omitted"] == 480
    assert table[3] == {**table[3], "type": "e3", "id": "3", "size": len(b"event: e3\nid: 3\ndata: {}\n\n")}
    assert table[-1]["end"] == len(body)


BODIES = [
    COMPLETED,
    COMPLETED[: COMPLETED.index("第".encode()) + 1],
    COMPLETED[:DONE],
    load("openai-chat/service_error").body,
    load("ollama/truncated_mid_character").body,
    load("gemini-json-array/truncated_mid_event").body,
    COMPLETED.replace(b"Caf", b"Caf\xc3", 1),
    load("openai-chat/heartbeats").body,
    load("anthropic-messages/heartbeats").body.replace(b"\n", b"\r\n"),
    load("gemini/truncated_mid_event").body.replace(b"\n", b"\r"),
    b": one\n: two\n\n" + FIRST + b":three\n\n" + COMPLETED[len(FIRST) : len(FIRST) + 300],
]
STABLE = ("outcome", "truncated_at", "end_verified", "contract", "last_clean_offset", "events", "characters")


def test_the_events_table_ends_are_where_one_byte_reads_put_them(tmp_path: Path) -> None:
    """The table's end offsets, read in 64 KiB pieces, are those of 1-byte reads (exact by construction)."""
    for body in BODIES:
        path = tmp_path / "b"
        path.write_bytes(body)
        whole = diagnose(open_input(str(path)), rows=1000)
        ones = diagnose(open_input(str(path), piece=1), whole.contract, rows=1000)
        assert whole.events == ones.events and whole.last_clean_offset == ones.last_clean_offset


@settings(max_examples=40, deadline=None)
@given(body=st.sampled_from(BODIES), piece=st.integers(1, 700))
def test_the_verdict_and_offsets_do_not_depend_on_the_piece_size(
    tmp_path_factory, body: bytes, piece: int
) -> None:
    path = tmp_path_factory.mktemp("pieces") / "body"
    path.write_bytes(body)
    whole = diagnose(open_input(str(path))).as_json()
    pieces = diagnose(open_input(str(path), piece=piece)).as_json()
    for key in STABLE:
        assert pieces[key] == whole[key], key
    assert pieces["bytes"]["read"] + pieces["bytes"]["not_read"] == len(body)  # every piece counted once
    if whole["stopped"]["offset_exact"]:
        assert pieces["stopped"] == whole["stopped"]
        assert pieces["hexdump"] == whole["hexdump"]


def test_json_output_is_one_object_on_one_line(tmp_path: Path) -> None:
    result = run(write(tmp_path, COMPLETED), "--json")
    assert result.out.count("\n") == 1 and json.loads(result.out)["schema"] == "boundary-lab-diagnose/1"
