"""The splitter's cost meter (lesson_lib/exercises/checkers_meter.py): metered pieces change no result, the
linear splitters stay under the bound for every chunking, and a re-splitting buffer's count grows with the
square of the line (deterministic: counts, never a clock)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib.core.chunking import split_at
from lesson_lib.core.lines import LineSplitter
from lesson_lib.exercises.checkers_build import COST_PER_CHARACTER
from lesson_lib.exercises.checkers_meter import Meter, MeteredStr, metered

from .wrong_solutions.build_it import GoodSplitter, SplitterResplittingItsBuffer, SplitterWithAStartIndex

TEXT = st.text(alphabet=st.sampled_from(list("aé你🙂 \r\n")), max_size=300)


def _lines(cls, pieces):
    splitter, out = cls(), []
    for piece in pieces:
        out += splitter.feed(piece)
    return out


@settings(max_examples=150, deadline=None)
@given(TEXT, st.lists(st.integers(min_value=1, max_value=299), max_size=40))
def test_metered_pieces_give_the_same_lines_and_linear_splitters_stay_under_the_bound(text, cuts):
    pieces = split_at(text, sorted({c for c in cuts if c < len(text)}))
    for cls in (LineSplitter, GoodSplitter, SplitterWithAStartIndex):
        meter = Meter()
        metered_pieces = [metered(piece, meter) for piece in pieces]
        assert _lines(cls, metered_pieces) == _lines(cls, pieces)
        assert meter.touched <= COST_PER_CHARACTER * len(text) + 8


def test_a_re_splitting_buffer_costs_four_times_as_much_for_a_line_twice_as_long():
    def touched(n):
        meter = Meter()
        _lines(SplitterResplittingItsBuffer, [metered(c, meter) for c in "你" * n + "\n"])
        return meter.touched

    assert 3.5 < touched(2000) / touched(1000) < 4.5
    assert touched(1000) > COST_PER_CHARACTER * 1001


def test_metered_operations_count_what_they_touch_and_stay_metered():
    meter = Meter()
    text = metered("data: 你好\r\n", meter)
    joined = "abc" + text  # plain + metered: the subclass's __radd__ runs first
    assert isinstance(joined, MeteredStr) and meter.touched == 3 + len(text)
    before = meter.touched
    head, _, _tail = joined.partition("\r")
    assert isinstance(head, MeteredStr) and meter.touched == before + len(joined)
    assert joined.find("\n", 10) == joined.index("\n")  # a search from index 10 touches the rest only
    assert meter.touched == before + len(joined) + (len(joined) - 10) + len(joined)
    assert joined == "abcdata: 你好\r\n" and str.__str__(joined) == "abcdata: 你好\r\n"
