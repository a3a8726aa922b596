"""``curl --trace`` files: real ones, recorded with /usr/bin/curl against ReplayServer (with and without
``--trace-time``, chunked, cut mid-stream), and written ones for the property: the naive view follows the
REAL reads, and de-chunking gives the body back in every chunking."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lesson_lib import consume
from lesson_lib.captures import load
from lesson_lib.diagnose import ChunkedDecoder, diagnose, open_input
from tests.strategies import partitions as partitions_of

from .helpers import CURL, assert_private, chunked, record_trace, run, write_trace

COMPLETED = load("openai-chat/completed")
BODY = COMPLETED.body
needs_curl = pytest.mark.skipif(not CURL.exists(), reason="needs /usr/bin/curl (.ci/run installs it)")


def character_cuts(body: bytes, count: int) -> list[int]:
    """Offsets inside multi-byte characters (a lead byte's next offset), the first ``count``."""
    return [i + 1 for i in range(len(body)) if body[i] >= 0xC2][:count]


def naive_replacements(reads: list[bytes]) -> int:
    return sum(r.decode("utf-8", "replace").count("\ufffd") - r.count(b"\xef\xbf\xbd") for r in reads)


@needs_curl
def test_a_real_trace_of_a_whole_stream_with_times(tmp_path: Path) -> None:
    cuts = character_cuts(BODY, 3)
    path = tmp_path / "whole.trace"
    assert record_trace(path, BODY, cuts, delay=0.05) == 0
    result = run(str(path), "--json")
    report = result.json
    assert result.status == 0 and report["format"] == "curl-trace" and report["is_final"]
    pieces = [BODY[a:b] for a, b in zip([0, *cuts], [*cuts, len(BODY)], strict=True)]
    assert report["reads"]["count"] == len(pieces)  # 50 ms apart: each piece is one read
    assert report["naive"]["replacement_chars"] == naive_replacements(pieces) > 0
    assert report["naive"]["finished"] is True and report["naive"]["agrees"] is False
    http = report["http"]
    assert (http["status"], http["chunked"], http["chunked_terminator"], http["curl_exit"]) == (
        200,
        True,
        True,
        0,
    )
    assert http["charset"] == "utf-8" and http["url"].endswith("/v1/chat/completions")
    timing = report["timing"]
    assert timing["known"] and timing["largest_gap"] >= 0.04 and timing["all_at_once"] is False
    assert 0 <= timing["time_to_first_byte"] <= timing["time_to_first_text"]
    assert all(row["time"] is not None for row in report["events"]["table"])
    assert_private(run(str(path)), COMPLETED.text)


@needs_curl
def test_a_real_trace_without_times(tmp_path: Path) -> None:
    path = tmp_path / "untimed.trace"
    assert record_trace(path, BODY, [100, 2000], timed=False) == 0
    report = run(str(path), "--json").json
    assert report["is_final"] and report["timing"]["known"] is False
    assert report["timing"]["time_to_first_byte"] is None and report["reads"]["count"] >= 1


@needs_curl
def test_a_real_trace_cut_mid_stream_curl_exit_18(tmp_path: Path) -> None:
    at = BODY.index("第".encode()) + 2
    path = tmp_path / "cut.trace"
    assert record_trace(path, BODY, [at - 5], drop_after=at, delay=0.05) == 18
    result = run(str(path), "--json")
    report = result.json
    assert result.status == 1 and (report["outcome"], report["truncated_at"]) == ("truncated", "character")
    assert report["stopped"]["offset"] == at == report["bytes"]["read"]
    assert report["http"]["curl_exit"] == 18 and report["http"]["chunked_terminator"] is False
    assert report["naive"]["finished"] is False
    assert report["naive"]["replacement_chars"] == naive_replacements([BODY[: at - 5], BODY[at - 5 : at]])
    text = run(str(path)).out
    assert "curl exit status 18" in text and "terminating chunk arrived no" in text


@needs_curl
def test_a_real_trace_of_ndjson(tmp_path: Path) -> None:
    capture = load("ollama/truncated_mid_character")
    path = tmp_path / "ollama.trace"
    assert (
        record_trace(path, capture.body, [50], url_path="/api/chat", content_type="application/x-ndjson") == 0
    )
    report = run(str(path), "--json").json
    assert (report["contract"], report["outcome"], report["truncated_at"]) == (
        "ollama",
        "truncated",
        "character",
    )
    assert any("URL" in line for line in report["evidence"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.data(),
    name=st.sampled_from(
        [
            "openai-chat/completed",
            "openai-chat/truncated_mid_event",
            "anthropic-messages/service_error",
            "gemini-json-array/completed",
        ]
    ),
)
def test_the_naive_view_follows_the_real_reads(tmp_path: Path, data: st.DataObject, name: str) -> None:
    body = load(name).body
    reads = [read for read in data.draw(partitions_of(body)) if read]
    timed = data.draw(st.booleans())
    use_chunks = data.draw(st.booleans())
    wire = chunked(reads) if use_chunks else reads
    if use_chunks:  # the chunk framing cut anywhere too: reads of the wire, not of the body
        wire = [w for w in data.draw(partitions_of(b"".join(wire))) if w]
    path = tmp_path / "t.trace"
    write_trace(path, wire, timed=timed, chunked_body=use_chunks)
    report = diagnose(open_input(str(path))).as_json()
    expected = consume(reads, load(name).contract)
    assert report["outcome"] == str(expected.outcome)
    assert report["bytes"]["read"] + report["bytes"]["not_read"] == len(body)
    if use_chunks:
        assert report["http"]["chunked_terminator"] is True
    else:
        assert report["reads"]["count"] == expected.stats.reads
        assert report["naive"]["replacement_chars"] == naive_replacements(reads)
        assert report["reads"]["ending_mid_character"] == expected.stats.reads_ending_mid_character
    assert report["timing"]["known"] is timed


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_de_chunking_gives_the_body_back_in_every_chunking(data: st.DataObject) -> None:
    body = BODY[: data.draw(st.integers(1, 600))]
    pieces = [p for p in data.draw(partitions_of(body)) if p]
    wire = b"".join(chunked(pieces, terminator=data.draw(st.booleans())))
    decoder = ChunkedDecoder()
    out = b"".join(decoder.feed(read) for read in data.draw(partitions_of(wire)))
    assert out == body and decoder.error is None
    assert decoder.terminated is wire.endswith(b"0\r\n\r\n")


def test_a_malformed_chunk_size_stops_the_body_and_says_so() -> None:
    decoder = ChunkedDecoder()
    assert decoder.feed(b"5\r\nhello\r\nzz\r\nmore") == b"hello"
    assert decoder.error is not None and "chunk-size" in decoder.error


def test_a_gzip_body_in_a_trace_is_decoded_read_by_read(tmp_path: Path) -> None:
    import zlib

    packer = zlib.compressobj(wbits=31)
    wire = [packer.compress(BODY[:2000]) + packer.flush(zlib.Z_SYNC_FLUSH), packer.compress(BODY[2000:])]
    wire.append(packer.flush())
    path = tmp_path / "gzip.trace"
    headers = ("Content-Type: text/event-stream", "Content-Encoding: gzip")
    write_trace(path, wire, headers=headers)
    report = run(str(path), "--json").json
    assert report["is_final"] and report["bytes"]["read"] == len(BODY)
    assert report["http"]["content_encoding"] == "gzip" and report["http"]["charset"] is None


def test_a_brotli_body_in_a_trace_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "br.trace"
    write_trace(path, [b"\x0b\x02\x80"], headers=("Content-Type: text/event-stream", "Content-Encoding: br"))
    result = run(str(path))
    assert result.status == 2 and "br-encoded" in result.err and result.err.count("\n") == 1
