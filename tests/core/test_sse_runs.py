"""Runs of whole events (``lesson_lib.core.sse_runs``): found only when they are exactly what they claim.

``find_event_run`` is a speed path: it must either return ``None`` or describe the text exactly. The
near-miss texts below are the ones its split cannot see and its check for a line ending inside a value
has to catch (a fault between two events of the run: no run; a fault before the first or after the last:
a run of the events between, the fault left to the field loop); heartbeats stay in a run only when asked
for. The properties check, for texts made mostly of runs with random faults and heartbeats in them, that
a run always rebuilds the text it came from, in the shapes it claims, and that the parser with the path
forced on gives the whole-input reference's events in every chunking.
"""

from __future__ import annotations

import re
from unittest.mock import patch

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from lesson_lib import Comment, Event, SSEParser
from lesson_lib.core import sse_fast as sse
from lesson_lib.core.sse_runs import EventRun, find_event_run
from tests.core.spec_oracle import reference_parse
from tests.strategies import partitions


def rebuild(run: EventRun) -> str:
    """The text a run says it was found in."""
    count = len(run.datas)
    assert (run.types is not None, run.ids is not None) == ("event: " in run.fields, "id: " in run.fields)
    values = {"event: ": run.types or [], "id: ": run.ids or []}
    gaps = run.gaps or [""] * count
    events = "".join(
        "".join(f"{field}{values[field][number]}\n" for field in run.fields)
        + f"data: {data}\n\n"
        + "".join(f"{comment}\n\n" for comment in heartbeats_of(gap))
        for number, (gap, data) in enumerate(zip(gaps, run.datas, strict=True))
    )
    return "\n".join(run.lines_before) + "\n" + events + run.after


def heartbeats_of(gap: str) -> list[str]:
    """The comment lines of the heartbeats a run says follow one of its events."""
    assert gap == "" or gap.startswith("\n\n:")
    return gap.split("\n\n")[1:]


def lines_of(run: EventRun) -> int:
    """How many lines the run's events and heartbeats are made of, counted from what it holds."""
    per_event = 2 + (run.types is not None) + (run.ids is not None)
    return per_event * len(run.datas) + 2 * sum(len(heartbeats_of(gap)) for gap in run.gaps or ())


def assert_exact(run: EventRun, text: str) -> None:
    """What a run found must be exactly the text, in the shapes it claims (see find_event_run)."""
    assert rebuild(run) == text
    assert run.lines_in_run == lines_of(run)
    assert all("\n" not in value for value in (*run.datas, *(run.types or ()), *(run.ids or ())))
    assert "" not in (run.types or ["message"]) and "\x00" not in "".join(run.ids or ())
    comments = [line for gap in run.gaps or () for line in heartbeats_of(gap)]
    assert all(line.startswith(":") and "\n" not in line for line in comments)
    assert run.lines_before[-1] == ""


def test_a_run_of_data_events_in_mixed_scripts():
    text = "rt of a line\n\ndata: 你好\n\ndata: café 🙂\n\ndata:  two spaces\n\ndata: unfin"
    run = find_event_run(text)
    assert run is not None
    assert run.lines_before == ["rt of a line", ""]
    assert run.types is None
    assert list(run.datas) == ["你好", "café 🙂", " two spaces"]
    assert run.lines_in_run == 6
    assert run.after == "data: unfin"
    assert rebuild(run) == text


def test_a_run_of_typed_events():
    text = 'data: {"a": 1}\n\nevent: delta\ndata: 完成\n\nevent: ping\ndata: {}\n\nevent: st'
    run = find_event_run(text)
    assert run is not None
    assert run.lines_before == ['data: {"a": 1}', ""]
    assert list(run.types) == ["delta", "ping"]
    assert list(run.datas) == ["完成", "{}"]
    assert run.lines_in_run == 6
    assert run.after == "event: st"
    assert rebuild(run) == text


def test_a_run_of_events_with_ids():
    text = "rt\n\nid: 41\ndata: 你好\n\nid: 42\ndata: é🙂\n\nid:\n"
    run = find_event_run(text)
    assert run is not None
    assert run.types is None and list(run.ids) == ["41", "42"] and list(run.datas) == ["你好", "é🙂"]
    assert run.lines_in_run == 6 and run.after == "id:\n"
    assert rebuild(run) == text


def test_heartbeats_stay_in_a_run_only_when_asked_for():
    text = "rt\n\n: open\n\ndata: 你好\n\n: ping\n\ndata: é🙂\n\n:\n\ndata: x\n\n: tail\n\nda"
    assert find_event_run(text) is None
    run = find_event_run(text, heartbeats=True)
    assert run is not None
    assert run.lines_before == ["rt", "", ": open", ""]  # before the first event: the field loop's
    assert list(run.datas) == ["你好", "é🙂", "x"]
    assert run.gaps == ["\n\n: ping", "\n\n:", ""]
    assert run.lines_in_run == 10 and run.after == ": tail\n\nda"
    assert_exact(run, text)
    with_ids = "\n\nid: 1\ndata: a\n\n: ping\n\nid: 2\ndata: b\n\n: 好\n\nid: 3\ndata: c"
    run = find_event_run(with_ids, heartbeats=True)
    assert run is not None and run.ids == ["1", "2"] and run.gaps == ["\n\n: ping", "\n\n: 好"]
    assert run.after == "id: 3\ndata: c"  # the text ends inside the third event: its heartbeat is in the run
    assert_exact(run, with_ids)
    typed = "\n\n:\n\nevent: a\ndata: 1\n\n:\n\n: two in a row\n\nevent: b\ndata: 2\n\n"
    run = find_event_run(typed, heartbeats=True)
    assert run is not None and run.types == ["a", "b"] and run.gaps == ["\n\n:\n\n: two in a row", ""]
    assert run.lines_in_run == 10
    assert_exact(run, typed)
    same = "\n\ndata: a\n\n: ping\n\ndata: b\n\n: ping\n\ndata: c\n\n"  # one heartbeat text, twice
    run = find_event_run(same, heartbeats=True)
    assert run is not None and run.gaps == ["\n\n: ping", "\n\n: ping", ""] and run.lines_in_run == 10


@pytest.mark.parametrize(
    "gap",
    [
        "\n\n: ping\n: and a second comment line before the blank one",
        "\n\n: ping\n\n\n\n",
        "\n\nretry: 5",
        "\n\n: ping\n\nid: 3",
        "\n: ping",
    ],
)
def test_heartbeats_between_two_events_are_only_comment_lines_each_ended_by_a_blank_line(gap):
    text = f"\n\ndata: a{gap}\n\ndata: b\n\ndata: c\n\n"
    assert find_event_run(text, heartbeats=True) is None


def test_the_text_after_a_run_may_start_an_event_of_the_same_shape():
    # The last blank line is followed by "data: ", so the split also cuts there.
    text = "\n\ndata: é\n\ndata: 🙂\n\ndata: unfinished"
    run = find_event_run(text)
    assert run is not None and list(run.datas) == ["é", "🙂"] and run.after == "data: unfinished"
    typed = "\n\nevent: a\ndata: é\n\nevent: b\ndata: x"
    run = find_event_run(typed)
    assert run is not None and list(run.datas) == ["é"] and run.after == "event: b\ndata: x"


NEAR_MISSES = {
    "no blank line": "data: a\ndata: b",
    "one blank line only": "data: a\n\ndata: b\n",
    "two data lines in one event": "x\n\ndata: a\ndata: b\n\n",
    "an id with U+0000": "x\n\nid: 7\x00\ndata: a\n\n",
    "id, two data lines": "x\n\nid: 7\ndata: a\ndata: b\n\n",
    "a comment": "x\n\ndata: a\n: ping\n\n",
    "data without the space": "x\n\ndata:a\n\n",
    "an empty event type": "x\n\nevent: \ndata: a\n\n",
    "an unknown field": "x\n\nretry: 10\n\n",
}


@pytest.mark.parametrize("name", NEAR_MISSES)
@pytest.mark.parametrize("heartbeats", [False, True])
def test_near_misses_are_left_to_the_field_loop(name, heartbeats):
    assert find_event_run(NEAR_MISSES[name], heartbeats) is None


#: Something that is not an event of the run's shape, then an event of it: inside a run, so no run.
FAULTS_INSIDE = {
    "an id line in a data run": "x\n\ndata: a\n\nid: 7\ndata: b\n\ndata: c\n\n",
    "an id run, then a data event": "x\n\nid: 7\ndata: a\n\ndata: b\n\nid: 8\ndata: c\n\n",
    "an id line without data": "x\n\nid: 6\ndata: a\n\nid: 7\n\nid: 8\ndata: b\n\n",
    "an id run with a typed event": "x\n\nid: 7\ndata: a\n\nevent: t\ndata: b\n\nid: 8\ndata: c\n\n",
    "two blank lines between events": "x\n\ndata: a\n\n\ndata: b\n\n",
    "a second event of the other shape": "x\n\ndata: a\n\nevent: t\ndata: b\n\ndata: c\n\n",
    "typed, then data only": "x\n\nevent: t\ndata: a\n\ndata: b\n\nevent: u\ndata: c\n\n",
    "an event line without data": "x\n\nevent: s\ndata: a\n\nevent: t\n\nevent: u\ndata: b\n\n",
    "typed, two data lines, then a lone event line": "x\n\nevent: T\ndata: X\ndata: Y\n\nevent: U\n\n",
    "typed, data before the type": "x\n\ndata: X\nevent: T\n\ndata: Y\n\n",
    "an empty type inside": "x\n\nevent: s\ndata: a\n\nevent: \ndata: b\n\nevent: u\ndata: c\n\n",
    "an id with U+0000 inside": "x\n\nid: 6\ndata: a\n\nid: 7\x00\ndata: b\n\nid: 8\ndata: c\n\n",
    "two comment lines": "x\n\ndata: a\n\n: one\n: two\n\ndata: b\n\n",
    "a comment without its blank line": "x\n\ndata: a\n\n: one\ndata: b\n\ndata: c\n\n",
}
#: Heartbeats between two events: a fault only when they are not looked for.
HEARTBEATS_INSIDE = {
    "a blank line, then a comment": "x\n\ndata: a\n\n: one\n\ndata: b\n\n",
    "a blank line, then a comment, twice": "x\n\ndata: a\n\n: one\n\n: two\n\ndata: b\n\n",
}


@pytest.mark.parametrize("name", FAULTS_INSIDE)
@pytest.mark.parametrize("heartbeats", [False, True])
def test_a_fault_between_two_events_of_the_shape_means_no_run(name, heartbeats):
    assert find_event_run(FAULTS_INSIDE[name], heartbeats) is None


@pytest.mark.parametrize("name", HEARTBEATS_INSIDE)
def test_heartbeats_between_two_events_break_a_run_unless_looked_for(name):
    text = HEARTBEATS_INSIDE[name]
    assert find_event_run(text) is None
    run = find_event_run(text, heartbeats=True)
    assert run is not None and run.datas == ["a", "b"]
    assert_exact(run, text)


def test_events_with_a_type_and_an_id_are_one_run_in_either_order():
    for first, second in (("event: t", "id: 7"), ("id: 7", "event: t")):
        text = f"x\n\n{first}\n{second}\ndata: a\n\n{first}\n{second}\ndata: b\n\n{first}\n"
        run = find_event_run(text)
        assert run is not None and run.datas == ["a", "b"] and run.after == f"{first}\n"
        assert (run.types, run.ids) == (["t", "t"], ["7", "7"])
        assert run.lines_in_run == 8
        assert_exact(run, text)
    # The other order inside a run, or a field line missing: not an event of the run's shape.
    swapped = "x\n\nevent: t\nid: 7\ndata: a\n\nid: 8\nevent: t\ndata: b\n\n"
    run = find_event_run(swapped)
    assert run is not None and run.datas == ["a"] and run.after == "id: 8\nevent: t\ndata: b\n\n"
    assert find_event_run(swapped + "event: t\nid: 9\ndata: c\n\n") is None
    missing = "x\n\nevent: t\nid: 7\ndata: a\n\nevent: t\ndata: b\n\nevent: t\nid: 9\ndata: c\n\n"
    assert find_event_run(missing) is None


#: A fault before the first event of the shape, or after the last whole one: the run is the events
#: between; the fault goes to the field loop with ``lines_before`` or ``after``.
FAULTS_OUTSIDE = {
    "an id line without data, first": ("x\n\nid: 7\n\nid: 8\ndata: a\n\n", ["x", "", "id: 7", ""], ""),
    "a data event after an id run": ("x\n\nid: 7\ndata: a\n\ndata: b\n\n", ["x", ""], "data: b\n\n"),
    "an id line after a data run": ("x\n\ndata: a\n\nid: 7\ndata: b\n\n", ["x", ""], "id: 7\ndata: b\n\n"),
    "a typed event after a data run": ("x\n\ndata: a\n\nevent: t\ndata: b", ["x", ""], "event: t\ndata: b"),
    "an empty type first": (
        "x\n\nevent: \ndata: a\n\nevent: t\ndata: b\n\n",
        ["x", "", "event: ", "data: a", ""],
        "",
    ),
    "the last event has two data lines": (
        "\n\ndata: a\n\ndata: b\ndata: c\n\n",
        ["", ""],
        "data: b\ndata: c\n\n",
    ),
}


@pytest.mark.parametrize("name", FAULTS_OUTSIDE)
def test_a_fault_outside_the_events_of_the_shape_is_left_to_the_field_loop(name):
    text, before, after = FAULTS_OUTSIDE[name]
    run = find_event_run(text)
    assert run is not None and len(run.datas) == 1
    assert (run.lines_before, run.after) == (before, after)
    assert_exact(run, text)


# -- properties ---------------------------------------------------------------------------------------
_FRAGMENTS = ["a", " ", ":", "é", "Å", "你", "好", "🙂", "\u2028", "\x85", "{}", '"', "data: ", "event: "]
values = st.lists(st.sampled_from(_FRAGMENTS), max_size=5).map("".join)
#: Lines that break a run when they turn up inside it.
faults = st.sampled_from(
    ["", "id: 7", ": ping", "data: second", "event: x", "event:", "data:x", "retry: 5", "id: a\x00", "id:"]
)


@st.composite
def run_texts(draw: st.DrawFn) -> str:
    """LF-only text cut anywhere, made of runs of one-shape events; now and then a line that breaks one."""
    lines: list[str] = []
    fields = draw(st.sampled_from([(), ("event: ",), ("id: ",), ("event: ", "id: "), ("id: ", "event: ")]))
    for _ in range(draw(st.integers(0, 8))):
        if fields and draw(st.integers(0, 3)):  # mostly one shape, now and then the plain data one
            for field in fields[: draw(st.integers(1, 5))]:  # now and then its first field line only
                lines.append(field + draw(values))
        lines.append("data: " + draw(values))
        lines.append("")
        if draw(st.integers(0, 4)) == 0:  # a heartbeat: a comment line, then a blank line
            lines += [draw(st.sampled_from([": ping", ":", ": 你好 🙂", ":data: x"])), ""]
        if draw(st.integers(0, 5)) == 0:
            lines.insert(draw(st.integers(0, len(lines))), draw(faults))
    head = draw(st.lists(st.sampled_from(["", "data: 你", "event: é", "🙂", ": x"]), max_size=3))
    tail = draw(st.sampled_from(["", "data: 好", "event: a", "da"]))
    return "\n".join(head + lines) + ("\n" if head or lines else "") + tail


@settings(deadline=None)
@given(run_texts(), st.booleans())
def test_a_run_found_rebuilds_its_text_exactly(text, heartbeats):
    run = find_event_run(text, heartbeats)
    if run is not None:
        assert_exact(run, text)
        assert heartbeats or run.gaps is None


@settings(deadline=None)
@given(
    st.lists(values, min_size=1, max_size=6),
    st.sampled_from(["event: t\n", "id: 7\n", "", "event: t\nid: 7\n", "id: 7\nevent: message\n"]),
)
def test_text_of_one_shape_is_always_found(datas, first):
    event = first + "data: {}\n\n"
    text = "x\n\n" + "".join(event.format(data) for data in datas) + "y"
    run = find_event_run(text)
    assert run is not None
    assert list(run.datas) == datas


@settings(deadline=None)
@given(st.data(), run_texts(), st.booleans(), st.booleans())
def test_the_parser_with_runs_forced_on_matches_the_reference(data, text, crlf, comments):
    # The first read is a comment, so that heartbeats are looked for from the second one on.
    body = b": first read\n" + (text.replace("\n", "\r\n") if crlf else text).encode()
    pieces = [body[:14], *data.draw(partitions(body[14:]))]
    with patch.object(sse, "_RUN_MIN_CHARS", 0):
        parser = SSEParser(comments=comments)
        out = [e for piece in pieces for e in parser.feed(piece)] + parser.close()
    events = [e for e in out if isinstance(e, Event)]
    assert (events, parser.last_event_id, parser.retry) == reference_parse(body)
    if comments:  # every complete comment line, in order, among the events
        lines = re.split(r"\r\n|\r|\n", body.decode())[:-1]
        assert [c.text for c in out if isinstance(c, Comment)] == [
            line[1:].removeprefix(" ") for line in lines if line.startswith(":")
        ]


@settings(deadline=None)
@given(run_texts())
def test_a_run_leaves_the_parser_state_as_the_field_loop_does(text):
    assume("\n\n" in text)
    body = text.encode()
    states = []
    for gate in (0, 1 << 62):
        with patch.object(sse, "_RUN_MIN_CHARS", gate):
            parser = SSEParser(last_event_id="41")
            events = parser.feed(b"id: 9\n") + parser.feed(body)  # the second read may take the path
            states.append((events, parser.snapshot(), parser.lines_in, parser.events_out))
    assert states[0] == states[1]


def test_large_reads_take_the_run_path_and_give_the_reference_events():
    event = 'event: content_block_delta\ndata: {{"text": "{}"}}\n\n'
    body = "".join(event.format(word) for word in ["你好", "café", "🙂", "Ångström"] * 3000).encode()
    found = []

    def spy(text: str, heartbeats: bool = False) -> EventRun | None:
        run = find_event_run(text, heartbeats)
        found.append(run is not None)
        return run

    with patch.object(sse, "find_event_run", spy):
        parser = SSEParser()
        reads = [body[i : i + 65536] for i in range(0, len(body), 65536)]
        events = [e for read in reads for e in parser.feed(read)] + parser.close()
    assert found and all(found)
    assert (events, parser.last_event_id, parser.retry) == reference_parse(body)
