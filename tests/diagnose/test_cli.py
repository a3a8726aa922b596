"""The command: every exit status, every kind of bad input (one line, never a traceback), the HAR shapes,
the JSON schema, privacy, and ``python -m lesson_lib`` as a subprocess."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lesson_lib.captures import load
from lesson_lib.cli import PRIVACY, build_parser
from lesson_lib.diagnose import InputError, detect_contract

from .helpers import FIXTURES, assert_private, run, run_process, validate, write_trace

COMPLETED = load("openai-chat/completed")
ANSWER = "你好，旅人！Crème brûlée à Zoë 🦊 再见。"  # the HAR fixtures' answer (fixtures/make_fixtures.py)


def one_line_error(result, *words: str) -> None:
    assert result.status == 2, result
    assert result.out == ""
    assert result.err.count("\n") == 1 and "Traceback" not in result.err, result.err
    for word in words:
        assert word in result.err, result.err


# -- exit status 2: input that is not a stream -------------------------------------------------------------


def test_a_missing_file(tmp_path: Path) -> None:
    one_line_error(run(str(tmp_path / "nope.sse")), "no such file")


def test_a_directory(tmp_path: Path) -> None:
    one_line_error(run(str(tmp_path)), "is a directory")


def test_an_empty_file(tmp_path: Path) -> None:
    (tmp_path / "empty").write_bytes(b"")
    one_line_error(run(str(tmp_path / "empty")), "is empty")


def test_a_binary_file_is_an_unknown_format(tmp_path: Path) -> None:
    (tmp_path / "x.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    one_line_error(run(str(tmp_path / "x.png")), "unknown format")


def test_a_gzip_file_says_to_decompress_it(tmp_path: Path) -> None:
    import gzip

    (tmp_path / "b.gz").write_bytes(gzip.compress(COMPLETED.body))
    one_line_error(run(str(tmp_path / "b.gz")), "gunzip")


def test_a_truncated_har(tmp_path: Path) -> None:
    text = (FIXTURES / "chromium_completed_base64.har").read_bytes()
    (tmp_path / "cut.har").write_bytes(text[: len(text) // 2])
    one_line_error(run(str(tmp_path / "cut.har")), "not valid HAR JSON")


def test_a_har_entry_without_a_body_says_what_to_capture_instead() -> None:
    result = run(str(FIXTURES / "chromium_failure.har"))
    one_line_error(result, "has no body", "net::ERR_INCOMPLETE_CHUNKED_ENCODING", "--trace")


def test_a_bad_entry() -> None:
    one_line_error(
        run(str(FIXTURES / "chromium_completed_base64.har"), "--entry", "7"), "--entry 7", "2 entries"
    )
    one_line_error(run(str(FIXTURES / "chromium_completed_base64.har"), "--entry", "-1"), "--entry")
    one_line_error(run(str(FIXTURES / "chromium_completed_base64.har"), "--entry", "x"), "--entry")


def test_entry_on_a_raw_body(tmp_path: Path) -> None:
    (tmp_path / "b.sse").write_bytes(COMPLETED.body)
    one_line_error(run(str(tmp_path / "b.sse"), "--entry", "0"), "--entry is for a HAR")


def test_a_har_entry_that_is_not_a_stream_cannot_be_told() -> None:
    one_line_error(
        run(str(FIXTURES / "chromium_completed_base64.har"), "--entry", "0"), "cannot tell the contract"
    )


def test_an_undetectable_contract_names_the_candidates(tmp_path: Path) -> None:
    (tmp_path / "b.sse").write_bytes(b'data: {"hello": 1}\n\ndata: {"hello": 2}\n\n')
    result = run(str(tmp_path / "b.sse"))
    one_line_error(result, "cannot tell the contract", "openai-chat", "anthropic-messages", "--contract")


def test_a_stream_cut_before_its_first_event_without_a_url(tmp_path: Path) -> None:
    (tmp_path / "b.sse").write_bytes(COMPLETED.body[:40])
    one_line_error(run(str(tmp_path / "b.sse")), "no complete event", "sse, ndjson, json-array")


def test_an_unknown_contract_name(tmp_path: Path) -> None:
    (tmp_path / "b.sse").write_bytes(COMPLETED.body)
    one_line_error(run(str(tmp_path / "b.sse"), "--contract", "nope"), "unknown contract 'nope'")


def test_a_bad_format_and_a_forced_wrong_format(tmp_path: Path) -> None:
    (tmp_path / "b.sse").write_bytes(COMPLETED.body)
    one_line_error(run(str(tmp_path / "b.sse"), "--format", "xml"), "--format")
    one_line_error(run(str(tmp_path / "b.sse"), "--format", "har"), "not valid HAR JSON")
    one_line_error(run(str(tmp_path / "b.sse"), "--format", "curl-trace"), "not a curl --trace file")


def test_a_trace_cut_mid_line_is_read_up_to_its_cut(tmp_path: Path) -> None:
    path = tmp_path / "t.trace"
    write_trace(path, [COMPLETED.body[:1000], COMPLETED.body[1000:]])
    text = path.read_text()
    path.write_text(text[: text.rindex("0020: ") + 17])  # in the middle of a hex line of the last read
    result = run(str(path), "--json")
    assert result.status == 1
    report = result.json
    assert report["outcome"] == "truncated" and report["http"]["curl_exit"] is None
    assert any("cut" in note for note in report["notes"])


def test_a_trace_ascii_dump_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.trace").write_text("== Info: Connected\n=> Send header, 10 bytes (0xa)\nPOST / HTTP/1.1\n")
    one_line_error(run(str(tmp_path / "a.trace")), "--trace-ascii")


def test_a_trace_without_a_body(tmp_path: Path) -> None:
    write_trace(tmp_path / "t.trace", [])
    one_line_error(run(str(tmp_path / "t.trace")), "no response body", "status 200")


def test_an_unexpected_line_in_a_trace(tmp_path: Path) -> None:
    path = tmp_path / "t.trace"
    write_trace(path, [COMPLETED.body])
    path.write_text(path.read_text() + "this is not curl\n")
    one_line_error(run(str(path)), "not a curl --trace file")


def test_no_subcommand_and_a_bad_option_are_one_line() -> None:
    from .helpers import Run, main  # noqa: F401

    result = run("--what")
    assert result.status == 2 and "Traceback" not in result.err and result.err.count("\n") == 1


# -- exit statuses 0 and 1, the HAR shapes ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fixture", "status", "outcome"),
    [
        ("chromium_completed_base64.har", 0, "completed"),
        ("firefox_completed_text.har", 0, "completed"),
        ("firefox_truncated_text.har", 1, "truncated"),
    ],
)
def test_har_exports_of_chromium_and_firefox(fixture: str, status: int, outcome: str) -> None:
    result = run(str(FIXTURES / fixture), "--json")
    report = result.json
    assert (result.status, report["outcome"], report["format"]) == (status, outcome, "har")
    assert report["contract"] == "openai-chat" and report["reads"] is None and report["naive"] is None
    assert report["http"]["status"] == 200 and "text/event-stream" in report["http"]["content_type"]
    assert report["http"]["url"] == "https://api.example.invalid/v1/chat/completions"


def test_the_chromium_har_picks_the_streaming_entry_and_its_timing() -> None:
    report = run(str(FIXTURES / "chromium_completed_base64.har"), "--json").json
    assert "HAR entry 1 of 2" in report["notes"]
    assert report["timing"]["time_to_first_byte"] == pytest.approx(0.3514)
    assert report["http"]["x_accel_buffering"] == "no"
    text = run(str(FIXTURES / "chromium_completed_base64.har"), "--show-text", "--json").json["text"]
    assert text == ANSWER


def test_standard_input(tmp_path: Path) -> None:
    result = run("-", "--json", stdin=COMPLETED.body)
    assert result.status == 0 and result.json["outcome"] == "completed"


def test_contract_overrides_detection(tmp_path: Path) -> None:
    (tmp_path / "b.sse").write_bytes(COMPLETED.body)
    report = run(str(tmp_path / "b.sse"), "--contract", "openai-responses", "--json").json
    assert report["contract"] == "openai-responses" and report["evidence"] == ["--contract openai-responses"]
    assert report["outcome"] != "completed"


def test_an_error_only_stream_is_a_tie_that_the_url_decides(tmp_path: Path) -> None:
    body = b'data: {"error": {"message": "overloaded", "type": "server_error"}}\n\n'
    with pytest.raises(InputError, match="gemini, openai-chat fit it equally"):
        detect_contract(body)
    found = detect_contract(body, "https://g.invalid/v1beta/models/m:streamGenerateContent?alt=sse&key=k")
    assert found.contract == "gemini" and "a tie, decided by the URL: gemini" in found.evidence
    assert detect_contract(body, "http://127.0.0.1:9/v1/chat/completions").contract == "openai-chat"
    (tmp_path / "b.sse").write_bytes(body)
    one_line_error(run(str(tmp_path / "b.sse")), "fit it equally", "--contract")


def test_the_url_decides_a_tie_and_a_cut_before_the_first_event() -> None:
    sample = COMPLETED.body[:40]
    assert detect_contract(sample, "http://x/v1/chat/completions").contract == "openai-chat"
    with pytest.raises(InputError, match="candidates considered"):
        detect_contract(b'data: {"hello": 1}\n\n')
    found = detect_contract(COMPLETED.body, "http://x/v1/messages")
    assert found.contract == "openai-chat" and any("the events decide" in line for line in found.evidence)


# -- the outputs: schema, privacy, help --------------------------------------------------------------------


PRIVATE_INPUTS = ["chromium_completed_base64.har", "firefox_completed_text.har", "firefox_truncated_text.har"]


@pytest.mark.parametrize("fixture", PRIVATE_INPUTS)
@pytest.mark.parametrize("as_json", [False, True])
def test_no_content_is_printed_without_show_text(fixture: str, as_json: bool) -> None:
    result = run(str(FIXTURES / fixture), *(["--json"] if as_json else []))
    assert_private(result, ANSWER)
    shown = run(str(FIXTURES / fixture), "--show-text", *(["--json"] if as_json else []))
    with pytest.raises(AssertionError):
        assert_private(shown, ANSWER)  # the check can fail: with --show-text the text is there


@pytest.mark.parametrize(
    "name",
    [
        "openai-chat/truncated_mid_character",
        "anthropic-messages/service_error",
        "ollama/truncated_mid_line",
        "gemini-json-array/incomplete",
    ],
)
def test_no_capture_text_is_printed_without_show_text(tmp_path: Path, name: str) -> None:
    capture = load(name)
    (tmp_path / "b").write_bytes(capture.body)
    for options in ([], ["--json"]):
        assert_private(run(str(tmp_path / "b"), *options), capture.text)


def test_the_url_loses_its_query_values() -> None:
    from lesson_lib.diagnose.report import _url

    assert _url("https://u:p@g.invalid:8443/v1beta/models/m:streamGenerateContent?alt=sse&key=SECRET") == (
        "https://g.invalid:8443/v1beta/models/m:streamGenerateContent?alt=...&key=..."
    )


def test_every_json_output_validates_against_the_schema(tmp_path: Path) -> None:
    from lesson_lib.captures import names

    for name in names():
        (tmp_path / "b").write_bytes(load(name).body)
        for options in ([], ["--show-text"]):
            result = run(str(tmp_path / "b"), "--json", *options)
            validate(json.loads(result.out))
    for fixture in PRIVATE_INPUTS:
        validate(json.loads(run(str(FIXTURES / fixture), "--json", "--show-text").out))


def test_help_says_no_content_is_printed(capsys) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["diagnose", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "No stream content is printed, logged or stored by default" in shown
    assert PRIVACY.split(":")[0] in shown
    assert "auto,raw,curl-trace,har" in shown.replace(" ", "") or "{auto,raw,curl-trace,har}" in shown


def test_the_text_report_names_every_layer(tmp_path: Path) -> None:
    (tmp_path / "b").write_bytes(load("openai-chat/truncated_mid_character").body)
    out = run(str(tmp_path / "b")).out
    for word in (
        "bytes",
        "characters",
        "lines",
        "events",
        "values",
        "completion",
        "where it stopped",
        "read boundaries unknown",
        "char(2/3) |cut|",
    ):
        assert word in out, word


# -- the console script as a subprocess --------------------------------------------------------------------


def test_python_m_lesson_lib_diagnose_runs_and_exits_with_the_verdict(tmp_path: Path) -> None:
    (tmp_path / "whole.sse").write_bytes(COMPLETED.body)
    (tmp_path / "cut.sse").write_bytes(COMPLETED.body[:-30])
    whole, cut = run_process(str(tmp_path / "whole.sse")), run_process(str(tmp_path / "cut.sse"), "--json")
    assert whole.status == 0 and "FINAL" in whole.out
    assert cut.status == 1 and json.loads(cut.out)["outcome"] == "truncated"
    missing = run_process(str(tmp_path / "missing"))
    one_line_error(missing, "no such file")
    piped = run_process("-", "--json", stdin=COMPLETED.body)
    assert piped.status == 0 and json.loads(piped.out)["is_final"] is True


_TRACE = b"".join(
    line + b"\n"
    for line in [
        b"01:00:00.000000 <= Recv header, 17 bytes (0x11)",
        b"0000: 48 54 54 50 2f 31 2e 31 20 32 30 30 20 4f 4b 0d HTTP/1.1 200 OK.",
        b"0010: 0a                                              .",
        b"01:00:00.100000 <= Recv data, 40 bytes (0x28)",
        b"0000: 64 61 74 61 3a 20 7b 7d 0a 0a 64 61 74 61 3a 20 data: {}..data: ",
    ]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    prefix=st.sampled_from([b"", b"data: ", b'{"log": {"entries": [', _TRACE, COMPLETED.body[:500], b"[{"]),
    noise=st.binary(max_size=300),
    cut=st.integers(0, 400),
)
def test_no_input_makes_a_traceback(tmp_path: Path, prefix: bytes, noise: bytes, cut: int) -> None:
    (tmp_path / "in").write_bytes((prefix + noise)[: cut or None])
    result = run(str(tmp_path / "in"))
    assert result.status in (0, 1, 2) and "Traceback" not in result.err
    assert "internal error" not in result.err, result.err
    assert (result.status == 2) == (result.out == "") and result.err.count("\n") <= 1


@pytest.mark.parametrize(
    ("name", "inside_a_line"),
    [
        ("openai-chat/truncated_mid_character", True),  # the cut character's bytes end an unfinished line
        ("openai-chat/truncated_mid_line", True),
        ("openai-chat/truncated_mid_event", False),  # between two lines of one event
        ("openai-chat/truncated_clean_boundary", False),
    ],
)
def test_the_lines_layer_says_whether_the_body_ended_inside_a_line(
    tmp_path: Path, name: str, inside_a_line: bool
) -> None:
    (tmp_path / "b").write_bytes(load(name).body)
    assert run(str(tmp_path / "b"), "--json").json["lines"]["ended_mid_line"] is inside_a_line
    text = run(str(tmp_path / "b")).out
    said = "the body ended inside a line" if inside_a_line else "no unfinished line at the stop"
    assert f"  lines       {said}" in text


def test_counts_are_said_in_the_singular_and_the_plural(tmp_path: Path) -> None:
    body = load("openai-chat/completed").body
    first = body.index(b"\n\n") + 2
    (tmp_path / "one").write_bytes(body[:first])
    out = run(str(tmp_path / "one")).out
    assert "  events      1 event, 0 heartbeats," in out and "1 complete unit in the first" in out
    assert "1 events" not in out and "1 units" not in out
