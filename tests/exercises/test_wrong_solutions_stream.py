"""The timing check of the streaming bug-hunt exercises (1, 2, 3, 6), for every chunking.

For any chunking of each hidden corpus, lesson_lib's incremental readers used read by read are never late,
and a function that joins every read and processes the whole once is late exactly when some unit was whole
before the last read; a returned list is named as such; the truth of each corpus has one due read per unit.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lesson_lib.core.ndjson import parse_ndjson
from lesson_lib.exercises.checkers_bugs import EVENTS, LINES, RECORDS, TEXT, _truth_lines, _truth_values
from lesson_lib.exercises.checkers_stream import (
    Upstream,
    characters_due,
    events_due,
    first_late,
    lines_due,
    records_due,
    run_timed,
)
from tests.strategies import partitions

from .wrong_solutions import bug_hunt

#: bug -> (corpus, due, truth units, keywords of the call, right variants, join-everything wrong ones)
CASES = {
    "decode": (
        TEXT,
        characters_due,
        lambda pieces: list(TEXT.decode("utf-8")),
        {},
        [bug_hunt.decode_yielding_pieces, bug_hunt.decode_with_codecs_generator],
        [bug_hunt.decode_joining_every_read, bug_hunt.decode_returning_the_text],
    ),
    "splitlines": (
        LINES,
        lines_due,
        _truth_lines,
        {},
        [bug_hunt.lines_as_a_generator],
        [bug_hunt.lines_of_the_joined_stream, bug_hunt.lines_collected_in_a_list],
    ),
    "blank_line": (
        EVENTS,
        events_due,
        _truth_values,
        {},
        [bug_hunt.events_with_sse_parser],
        [bug_hunt.events_of_the_joined_stream, bug_hunt.events_with_parse_sse],
    ),
    "bound": (
        RECORDS,
        records_due,
        lambda pieces: list(parse_ndjson(pieces)),
        {"max_line_bytes": 64},
        [bug_hunt.records_as_a_generator],
        [bug_hunt.records_of_the_joined_stream, bug_hunt.records_in_a_list],
    ),
}

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


pytestmark = pytest.mark.usefixtures("english")  # tests/exercises/conftest.py


def late(bug, function, pieces):
    """What the checker's timing says about ``function`` on ``pieces`` (None when nothing is late)."""
    _, due, _, keywords, _, _ = CASES[bug]
    timed = run_timed(function, pieces, **keywords)
    units, taken = timed.items, timed.taken
    if bug == "decode":
        taken = [out for item, out in zip(units, taken, strict=True) for _ in item]
        units = [char for item in units for char in item]
    return first_late(bug, "f", units, taken, due(pieces), timed.returned)


@pytest.mark.parametrize("bug", sorted(CASES))
@SETTINGS
@given(data=st.data())
def test_each_unit_has_one_due_read_no_later_than_the_stream(bug, data):
    corpus, due, truth, *_ = CASES[bug]
    pieces = data.draw(partitions(corpus))
    times = due(pieces)
    assert len(times) == len(truth(pieces))
    assert times == sorted(times) and all(1 <= t <= len(pieces) for t in times)


@pytest.mark.parametrize("bug", sorted(CASES))
@SETTINGS
@given(data=st.data())
def test_incremental_readers_used_read_by_read_are_never_late(bug, data):
    corpus, *_, rights, _ = CASES[bug]
    pieces = data.draw(partitions(corpus))
    for right in rights:
        assert late(bug, right, pieces) is None, right.__name__


@pytest.mark.parametrize("bug", sorted(CASES))
@SETTINGS
@given(data=st.data())
def test_joining_every_read_is_late_exactly_when_a_unit_was_whole_before_the_last_read(bug, data):
    corpus, due, *_, wrongs = CASES[bug]
    pieces = data.draw(partitions(corpus))
    early = min(due(pieces)) < len(pieces)
    for wrong in wrongs:
        assert (late(bug, wrong, pieces) is not None) == early, wrong.__name__


def test_run_timed_records_the_reads_taken_at_each_output():
    def one_read_behind(reads):
        held = None
        for read in reads:
            if held is not None:
                yield held
            held = read.decode()
        yield held

    timed = run_timed(one_read_behind, [b"a", b"b", b"c"])
    assert timed.items == ["a", "b", "c"] and timed.taken == [2, 3, 3] and timed.returned is None
    listed = run_timed(lambda reads: [read.decode() for read in reads], [b"a", b"b"])
    assert listed.taken == [2, 2] and listed.returned == "list"
    assert run_timed(lambda reads: b"".join(reads), [b"a"]).raw == b"a"


def test_a_late_unit_is_named_with_its_reads_and_a_finished_list_by_its_kind():
    assert "came out after 2 reads" in first_late("splitlines", "f", ["x"], [2], [1], None)
    assert "f returned a finished list" in first_late("bound", "f", [1], [2], [1], "list")
    assert first_late("blank_line", "f", [json.loads("1")], [1], [1], None) is None


def test_the_upstream_counts_only_the_reads_taken():
    upstream = Upstream([b"a", b"b"])
    assert next(upstream) == b"a" and upstream.taken == 1
