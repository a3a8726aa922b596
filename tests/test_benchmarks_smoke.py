"""Smoke test of the benchmarks (issue 2): the streams are real SSE, the harness works, the naive loop
splits lines as lesson_lib does. Tiny sizes, a few seconds, and no timing assertions."""

from __future__ import annotations

import json

import pytest

from benchmarks import harness, linear_cost, workloads
from lesson_lib import IncrementalUTF8Decoder, LineSplitter, SSEParser, parse_sse

TINY = 20_000


def chat_bytes(size: int = TINY, seed: int = workloads.SEED) -> bytes:
    return b"".join(workloads.chat_stream(size, seed))


def test_chat_stream_is_deterministic_and_seeded() -> None:
    assert chat_bytes() == chat_bytes()
    assert chat_bytes(seed=1) != chat_bytes(seed=2)
    events, _, size = workloads.expected_chat(TINY)
    data = chat_bytes()
    assert len(data) == size >= TINY
    assert data.count(b"\n\n") == events


@pytest.mark.parametrize("read_size", [1, 7, 4096, 64 * 1024])
def test_chat_stream_parses_into_the_expected_events_and_content(read_size: int) -> None:
    expected_events, expected_content, _ = workloads.expected_chat(TINY)
    events = parse_sse(workloads.reads(workloads.chat_stream(TINY), read_size))
    assert len(events) == expected_events
    assert linear_cost.lesson_lib_sse(workloads.reads(chat_bytes(), read_size)) == expected_events
    assert events[-1].data == "[DONE]"
    chunks = [json.loads(event.data) for event in events[:-1]]
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"
    content = "".join(chunk["choices"][0]["delta"].get("content", "") for chunk in chunks)
    assert content == expected_content
    # The mix the benchmark promises: 1-, 2-, 3- and 4-byte UTF-8 characters, all on the wire.
    widths = {len(char.encode()) for char in content}
    assert widths == {1, 2, 3, 4}


def test_reads_cuts_bytes_and_lazy_streams_into_exact_reads() -> None:
    data = chat_bytes(3000)
    for size in (1, 5, 1000, 10_000):
        from_bytes = list(workloads.reads(data, size))
        from_lazy = list(workloads.reads(workloads.chat_stream(3000), size))
        assert from_bytes == from_lazy
        assert b"".join(from_bytes) == data
        assert all(len(read) == size for read in from_bytes[:-1])
    with pytest.raises(ValueError):
        list(workloads.reads(data, 0))


def test_long_line_and_short_lines_carry_the_same_text() -> None:
    long = workloads.long_line_stream(TINY)
    (event,) = parse_sse(workloads.reads(long, 1), max_line_chars=None)
    assert "\n" not in event.data and len(event.data.encode()) >= TINY
    short = parse_sse(workloads.reads(workloads.short_lines_stream(TINY), 3))
    assert len(short) > 100
    assert "".join(e.data for e in short) == event.data


def lesson_lib_lines(reads: list[bytes]) -> list[str]:
    decoder, splitter = IncrementalUTF8Decoder(), LineSplitter("any", None)
    lines = [line for read in reads for line in splitter.feed(decoder.feed(read))]
    assert decoder.close() == ""
    return lines + splitter.close()


@pytest.mark.parametrize("read_size", [1, 2, 5, 4096])
def test_naive_loop_gives_the_same_lines_as_lesson_lib_on_ascii(read_size: int) -> None:
    chat = chat_bytes(5000).decode().encode("ascii", "backslashreplace")
    long_line = workloads.long_line_stream(3000).decode().encode("ascii", "replace")
    ascii_stream = chat + long_line
    assert ascii_stream.isascii() and ascii_stream.endswith(b"\n")
    reads = list(workloads.reads(ascii_stream, read_size))
    naive = list(linear_cost.naive_lines(reads))
    assert naive == lesson_lib_lines(reads)
    assert linear_cost.naive_line_count(reads) == len(naive) == ascii_stream.count(b"\n")


def test_harness_measures_fits_and_describes_the_machine() -> None:
    calls = []
    timing = harness.measure(lambda: calls.append(1), repeats=3, warmup=2)
    assert len(timing.runs) == 3 and len(calls) == 5 and timing.median >= 0
    both = harness.measure_interleaved({"a": lambda: None, "b": lambda: None}, repeats=2)
    assert set(both) == {"a", "b"} and all(len(t.runs) == 2 for t in both.values())
    assert harness.fit_exponent([1, 2, 4, 8], [3, 12, 48, 192]) == pytest.approx(2.0)
    assert harness.fit_exponent([10, 100], [5, 50]) == pytest.approx(1.0)
    assert harness.ns_per_byte(1.0, 1_000_000_000) == pytest.approx(1.0)
    assert harness.human_bytes(64 * 1024) == "64 KiB" and harness.human_bytes(16 * 1024 * 1024) == "16 MiB"
    assert {"Python", "Platform", "CPU"} <= set(harness.environment())


def test_every_section_runs_renders_and_plots_on_tiny_sizes(tmp_path) -> None:
    config = linear_cost.Config(
        sizes=(8_000, 16_000),
        read_sizes=(1, 4096),
        repeats=1,
        fast_repeats=1,
        long_line_size=16_000,
        naive_sizes=(2_000, 4_000),
        memory_sizes=(20_000, 80_000),
    )
    sections = [run(config) for run in linear_cost.SECTIONS.values()]
    assert [s.name for s in sections] == list(linear_cost.SECTIONS)
    report = linear_cost.render(sections, harness.environment(), quick=True)
    assert "Python" in report and "CPU" in report and "| stream |" in report and "naive loop k" in report
    png = tmp_path / "linear_cost.png"
    linear_cost.plot(sections[:2], str(png), quick=True)  # a partial run plots too
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_parser_under_test_is_strict_lesson_lib() -> None:
    # The benchmark measures the default, strict parser: a bad byte must still raise.
    with pytest.raises(UnicodeDecodeError):
        linear_cost.lesson_lib_sse([b"data: \xff\n\n"])
    assert SSEParser().errors == "strict"
