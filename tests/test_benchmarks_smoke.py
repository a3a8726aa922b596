"""Smoke test of the benchmarks (issues 2 and 7): the streams are real SSE, the harness works, the naive
loop splits lines as lesson_lib does, every peer parser finds lesson_lib's events, every section runs,
renders and plots. Tiny sizes, a few seconds, and no timing assertions."""

from __future__ import annotations

import json
import random
from functools import partial

import pytest

from benchmarks import harness, linear_cost, peers, workloads
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


def test_interleaved_rounds_run_every_work_once_each_in_a_new_seeded_order() -> None:
    calls: list[str] = []
    works = {name: (lambda name=name: calls.append(name)) for name in "abcdef"}
    timings = harness.measure_interleaved(works, repeats=4)
    assert all(len(t.runs) == 4 for t in timings.values())
    rounds = [calls[i : i + 6] for i in range(0, 24, 6)]
    assert all(sorted(r) == list("abcdef") for r in rounds)  # every work once per round
    assert len({tuple(r) for r in rounds}) > 1  # not one fixed order
    again: list[str] = []
    harness.measure_interleaved({name: (lambda name=name: again.append(name)) for name in "abcdef"}, 4)
    assert again == calls  # the same orders on every run (seeded)


def test_bracketed_rounds_run_the_base_around_every_work_and_take_each_ratio_to_its_neighbours(
    monkeypatch,
) -> None:
    now = [0.0]
    monkeypatch.setattr(harness, "CLOCK", lambda: now[0])
    calls: list[str] = []
    base_costs = iter([2.0, 4.0, 6.0, 8.0])  # the machine slows down during the round

    def base() -> None:
        calls.append("base")
        now[0] += next(base_costs)

    def work(name: str, cost: float) -> None:
        calls.append(name)
        now[0] += cost

    works = {"a": partial(work, "a", 3.0), "b": partial(work, "b", 10.0), "c": partial(work, "c", 7.0)}
    order = random.Random(harness.ORDER_SEED)
    result = harness.measure_bracketed(base, works, order)
    assert calls[0::2] == ["base"] * 4 and sorted(calls[1::2]) == ["a", "b", "c"]
    assert result.base_runs == (2.0, 4.0, 6.0, 8.0)
    assert result.times == {"a": 3.0, "b": 10.0, "c": 7.0}
    for position, name in enumerate(calls[1::2]):
        around = (result.base_runs[position] + result.base_runs[position + 1]) / 2
        assert result.ratios[name] == pytest.approx(result.times[name] / around)
    again: list[str] = []

    def steady_base() -> None:
        now[0] += 1.0

    harness.measure_bracketed(steady_base, {n: partial(again.append, n) for n in "abc"}, random.Random(13))
    assert again == calls[1::2]  # the same order from the same seed


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


# -- issues 7 and 13: the peer parsers, the lines-only baseline, the pipeline against the openai SDK --
PEER_READ_SIZES = [1, 7, 64, 4096]


@pytest.mark.parametrize("stream_name", list(workloads.STREAMS))
def test_every_stream_is_deterministic_and_carries_the_expected_events(stream_name: str) -> None:
    stream, expected = workloads.STREAMS[stream_name]
    data = b"".join(stream(TINY))
    assert data == b"".join(stream(TINY))
    count, _, size = expected(TINY)
    assert len(data) == size >= TINY
    events = parse_sse([data])
    assert len(events) == count
    assert {len(char.encode()) for char in data.decode()} == {1, 2, 3, 4}  # the character mix, on the wire


def test_anthropic_stream_is_shaped_as_the_messages_api() -> None:
    events = parse_sse(workloads.reads(workloads.anthropic_stream(TINY), 5))
    kinds = [event.type for event in events]
    assert kinds[:3] == ["message_start", "content_block_start", "ping"]
    assert kinds[-3:] == ["content_block_stop", "message_delta", "message_stop"]
    assert set(kinds[3:-3]) == {"content_block_delta"}
    text = "".join(json.loads(event.data)["delta"]["text"] for event in events[3:-3])
    assert text == workloads.expected_anthropic(TINY)[1]
    assert json.loads(events[-2].data)["usage"]["output_tokens"] == len(events) - 6


@pytest.mark.parametrize("read_size", PEER_READ_SIZES)
@pytest.mark.parametrize("stream_name", list(workloads.STREAMS))
def test_every_peer_finds_lesson_libs_events(stream_name: str, read_size: int) -> None:
    data, expected_events = peers._stream(stream_name, TINY)
    reference = peers.lesson_lib_events(workloads.reads(data, read_size))
    assert len(reference) == expected_events
    for name, parser in peers.PARSERS.items():
        if peers.skipped(name, stream_name, read_size):
            continue
        if parser.events is not None:
            assert parser.events(workloads.reads(data, read_size)) == reference, name
        expected = data.count(b"\n") if name == peers.BASELINE else expected_events
        assert parser.count(workloads.reads(data, read_size)) == expected, name


@pytest.mark.parametrize("read_size", [1, 2, 3, 4096])
def test_lines_only_splits_as_lesson_lib_with_cr_crlf_and_cut_characters(read_size: int) -> None:
    text = "data: 你好\r\ndata: é🙂\rid: 1\n\r\n: x\r\r\ndata: last\n"
    data = text.encode() + chat_bytes(3000)
    reads = list(workloads.reads(data, read_size))
    found = [line for lines in peers.split_lines(reads) for line in lines]
    assert found == lesson_lib_lines(reads)
    assert peers.lines_only(reads) == len(found)


def test_peer_sections_run_render_and_plot_on_tiny_sizes(tmp_path) -> None:
    config = peers.Config(
        stream_size=16_000,
        read_sizes=(7, 4096),
        repeats=1,
        fast_repeats=1,
        agreement_size=8_000,
        long_event_sizes=(2_000, 8_000),
        pipeline_size=8_000,
        pipeline_read_sizes=(64, 4096),
    )
    sections = [run(config) for run in peers.SECTIONS.values()]
    assert [s.name for s in sections] == list(peers.SECTIONS)
    agreement = sections[0]
    assert agreement.ok and agreement.data["failures"] == []  # a correctness check, not a timing
    checked = sections[1].data["targets"]  # each says whether it held; whether it did is not asserted
    assert len(checked) == 2 * len(workloads.STREAMS)  # two targets per stream (no 64 KiB reads here)
    assert all(isinstance(target.holds, bool) for target in checked)
    report = peers.render(sections, harness.environment(), quick=True)
    for name in ("httpx-sse", "openai", "sseclient-py", "lines-only baseline", "Targets", "SDK / consume"):
        assert name in report
    for package in peers.PACKAGES:
        assert package in report  # the versions measured
    png = tmp_path / "peers.png"
    peers.plot(sections[1:3], str(png), quick=True)  # a partial run plots too
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_edge_cases_show_what_the_peers_do_differently() -> None:
    outcomes = {
        case: {
            name: peers._outcome(parser.events, body, read_size)
            for name, parser in peers.PARSERS.items()
            if parser.events is not None
        }
        for case, (body, read_size) in peers.EDGE_CASES.items()
    }
    lesson = {case: found[peers.LESSON] for case, found in outcomes.items()}
    # lesson_lib follows the spec in every case...
    assert lesson["a BOM before the first field"] == "['a', 'b']"
    assert lesson["the stream ends before the blank line"] == "['a']"
    assert lesson["invalid UTF-8 in the second event"] == "raises `StreamDecodeError` at byte 15"
    # ...and the differences the README and lesson 07 describe are real.
    assert outcomes["the stream ends before the blank line"]["sseclient-py"] == "['a', 'b']"
    assert outcomes["invalid UTF-8 in the second event"]["httpx-sse"] == "['a', '\ufffd']"
    assert outcomes["a BOM before the first field"]["openai"] == "['b']"
    assert outcomes["`id:` alone, then an event"]["httpx-sse"] == "['', 'a']"
    assert outcomes["an LF line, then a CRLF blank line"]["sseclient-py"] == "['a\\nb']"
    cut = outcomes["characters cut by 1-byte reads"]
    assert cut == dict.fromkeys(cut, lesson["characters cut by 1-byte reads"])  # all decode incrementally


def test_pipeline_and_the_openai_sdk_agree_and_differ_where_the_report_says() -> None:
    data = b"".join(workloads.chat_stream(TINY))
    sdk = peers.OpenAISDK()
    text, finish_reason, outcome = peers.consume_chat(workloads.reads(data, 7))
    assert (text, finish_reason, outcome) == (workloads.expected_chat(TINY)[1], "stop", "completed")
    assert sdk(workloads.reads(data, 7))[:2] == (text, finish_reason)
    cut = data[: data.rindex(b"data: {")]  # before the finish chunk and [DONE]
    assert peers.consume_chat([cut])[2] == "truncated"
    assert sdk([cut])[2] == "ended without error"


def test_every_suite_is_registered_with_distinct_section_names() -> None:
    from benchmarks.__main__ import SUITES

    assert set(SUITES) == {"linear_cost", "memory_bound", "peers", "diagnose_scale", "faults_load"}
    names = [name for suite in SUITES.values() for name in suite.SECTIONS]
    assert len(names) == len(set(names))


def test_the_issue_13_streams_have_the_shapes_they_are_named_for() -> None:
    def body(name: str) -> bytes:
        return b"".join(workloads.STREAMS[name][0](TINY))

    heartbeats = body("heartbeats")
    pings = heartbeats.count(b": ping\n\n")
    assert pings and len(parse_sse([heartbeats])) == workloads.expected_heartbeat(TINY)[0]
    assert len(parse_sse([heartbeats], comments=True)) == workloads.expected_heartbeat(TINY)[0] + pings
    events = parse_sse(workloads.reads(body("id on every event"), 7))
    assert [event.last_event_id for event in events] == [str(n) for n in range(1, len(events) + 1)]
    gemini = body("Gemini CRLF")
    assert gemini.count(b"\r\n") == 2 * gemini.count(b"\r\n\r\n") == gemini.count(b"\n")
    chunks = [json.loads(event.data)["candidates"][0] for event in parse_sse([gemini])]
    text = "".join(part["text"] for chunk in chunks for part in chunk["content"]["parts"])
    assert text == workloads.expected_gemini(TINY)[1]
    long = parse_sse(workloads.reads(body("200 KiB tool calls"), 4096))
    calls = [e for e in long if "tool_calls" in e.data]
    assert calls and all(len(e.data.encode()) > workloads.LONG_EVENT_BYTES for e in calls)
    call = json.loads(calls[0].data)["choices"][0]["delta"]["tool_calls"][0]
    arguments = json.loads(call["function"]["arguments"])
    assert len(arguments["content"].encode()) >= workloads.LONG_EVENT_BYTES


def test_the_issue_24_streams_carry_an_event_an_id_and_a_data_line_in_every_event() -> None:
    for name, ending in (("event, id and data", b"\n"), ("Gemini CRLF, event and id", b"\r\n")):
        body = b"".join(workloads.STREAMS[name][0](TINY))
        events = parse_sse(workloads.reads(body, 7))
        assert len(events) == workloads.STREAMS[name][1](TINY)[0]
        assert body.count(b"event: message" + ending) == body.count(b"data: ") == len(events)
        assert [event.last_event_id for event in events] == [str(n) for n in range(1, len(events) + 1)]
        assert {event.type for event in events} == {"message"}
        assert body.count(b"\n") == body.count(ending)  # CRLF throughout, or LF throughout
        assert (b"\r" in body) == (ending == b"\r\n")
    assert "Gemini CRLF, event and id" in workloads.CRLF_STREAMS


def test_the_reference_parser_is_timed_and_agrees() -> None:
    data = b"".join(workloads.chat_stream(TINY))
    assert peers.reference_count(workloads.reads(data, 7)) == workloads.expected_chat(TINY)[0]
    assert peers.reference_events(workloads.reads(data, 7)) == peers.lesson_lib_events([data])
    assert not peers.PARSERS[peers.REFERENCE].peer  # never counted as a peer in the targets


def test_memory_suite_runs_renders_and_plots_on_tiny_limits(tmp_path) -> None:
    """Issue 23: every memory section runs (each cell a fresh process), renders and plots; the lesson_lib
    rows stop at the limit their input crosses and are checked against the documented bound."""
    from benchmarks import memory

    config = memory.Config(
        max_line_chars=4096,
        max_event_chars=16384,
        max_element_chars=4096,
        small_read_line_chars=512,
        many_events_bytes=TINY,
        peers=False,
    )
    sections = [section(config) for section in memory.SECTIONS.values()]
    assert all(section.ok for section in sections)
    report = memory.render(sections, harness.environment(), quick=True)
    assert "max_event_chars at byte" in report and "max_line_chars at byte" in report
    assert "max_element_chars at byte" in report and "**NO**" not in report
    memory.plot(sections, str(tmp_path / "memory.png"), quick=True)
    assert (tmp_path / "memory.png").stat().st_size > 0


def test_diagnose_scale_runs_renders_and_plots_on_tiny_sizes(tmp_path) -> None:
    """Issue 25: the diagnose section runs on tiny inputs (each written lazily to a file), every input is
    diagnosed as completed, and the report and the plot are made."""
    from benchmarks import diagnose_scale

    config = diagnose_scale.Config(sizes=(64 * 1024, 128 * 1024))
    (section,) = [run(config) for run in diagnose_scale.SECTIONS.values()]
    results = section.data["results"]
    assert set(results) == set(diagnose_scale.INPUTS)
    assert all(row["outcome"] == "completed" and row["peak"] > 0 for rows in results.values() for row in rows)
    assert results["chat, raw"][-1]["text_chars"] > results["chat, raw"][0]["text_chars"] > 0
    report = diagnose_scale.render([section], harness.environment(), quick=True)
    assert "| input | size | MB/s | tracemalloc peak |" in report and "stages, curl-trace" in report
    diagnose_scale.plot([section], str(tmp_path / "diagnose.png"), quick=True)
    assert (tmp_path / "diagnose.png").read_bytes().startswith(b"\x89PNG")


def test_faults_load_runs_renders_and_plots_on_tiny_sizes(tmp_path) -> None:
    """Issue 26: the load section starts the server in a subprocess, runs two small rounds whose every
    response equals its plan, stops the server with Ctrl-C, and makes the report and the plot."""
    from benchmarks import faults_load

    config = faults_load.Config(concurrency=20, rounds=2, sample_every=0.05)
    (section,) = [run(config) for run in faults_load.SECTIONS.values()]
    assert section.ok, section.lines
    assert [sum(r["statuses"].values()) for r in section.data["rounds"]] == [20, 20]
    assert all(r["errors"] == {} and r["mismatches"] == {} for r in section.data["rounds"])
    assert section.data["samples"] and all(rss > 0 for _, _, rss in section.data["samples"])
    report = faults_load.render([section], harness.environment(), quick=True)
    assert "| round | streams |" in report and "exit status 130" in report
    faults_load.plot([section], str(tmp_path / "faults.png"), quick=True)
    assert (tmp_path / "faults.png").read_bytes().startswith(b"\x89PNG")
