"""The outcome map of every capture: every range can be seen (and chosen), no text is cut off.

A drawn-to-scale bar made ranges of one or two cut-offs sub-pixel slivers (0.2 px for a 5 KB capture) and
cut the cut-off marker's label at the right edge; these tests fail on that picture.
"""

from __future__ import annotations

import io
import itertools
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_rgb
from PIL import Image

from lesson_lib import captures
from lesson_lib.core.completion import consume
from lesson_lib.teach import viz
from lesson_lib.teach.viz.outcome_map import (
    MARGIN_PX,
    MIN_RANGE_PX,
    ROW_PX,
    outcome_map_layout,
    outcome_ranges,
)

NAMES = captures.names()


@cache
def labels_of(name: str) -> tuple[str, ...]:
    """The outcome label of every cut-off of a capture, straight from consume()."""
    entry = captures.load(name)
    body = entry.body
    return tuple(
        viz.outcome_label(consume([body[:cutoff]] if cutoff else [], entry.contract))
        for cutoff in range(len(body) + 1)
    )


def check_layout(labels) -> None:
    layout = outcome_map_layout(labels)
    ranges = outcome_ranges(labels)
    assert layout.ranges == ranges
    # the pieces cover every cut-off once, in order, each range's pieces in consecutive order
    covered = [cutoff for piece in layout.pieces for cutoff in range(piece.start, piece.end)]
    assert covered == list(range(len(labels)))
    for piece in layout.pieces:
        assert ranges[piece.index][0] <= piece.start < piece.end <= ranges[piece.index][1]
        assert piece.label == ranges[piece.index][2]
        # every piece is wide enough to see and to hit, and inside the bar
        assert piece.x1 - piece.x0 >= MIN_RANGE_PX - 1e-6, piece
        assert MARGIN_PX - 1e-6 <= piece.x0 < piece.x1 <= MARGIN_PX + ROW_PX + 1e-6, piece
    # within a row the pieces follow each other without gap or overlap
    for row in range(layout.rows):
        pieces = [p for p in layout.pieces if p.row == row]
        assert pieces and abs(pieces[0].x0 - MARGIN_PX) < 1e-6
        for a, b in itertools.pairwise(pieces):
            assert abs(a.x1 - b.x0) < 1e-6
    # the legend names every label with its true counts
    expected = {}
    for start, end, label in ranges:
        cutoffs, count = expected.get(label, (0, 0))
        expected[label] = (cutoffs + end - start, count + 1)
    assert {label: (c, r) for label, c, r in layout.legend} == expected
    # the widest ranges still get more room than the narrowest: the bar keeps a sense of proportion
    widths = [layout.range_width(i) for i in range(len(ranges))]
    sizes = [end - start for start, end, _ in ranges]
    if max(sizes) >= 10 * min(sizes):
        assert widths[sizes.index(max(sizes))] > 2 * widths[sizes.index(min(sizes))]


@pytest.mark.parametrize("name", NAMES)
def test_every_range_of_every_capture_is_at_least_min_px_wide_and_in_the_legend(name):
    check_layout(labels_of(name))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["completed", "truncated at line", "truncated at event"]), st.integers(1, 400)
        ),
        min_size=1,
        max_size=400,
    )
)
def test_the_layout_holds_for_any_sequence_of_ranges(runs):
    labels = [label for label, count in runs for _ in range(count)]
    check_layout(labels)


def _rgb(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


@pytest.mark.parametrize(
    "name",
    ["openai-responses/completed", "gemini/completed_stop_every_chunk", "anthropic-messages/completed"],
)
def test_every_range_shows_its_colour_in_the_picture(name):
    """In the PNG itself: the middle of each range's widest piece has the range's colour, and so do
    at least MIN_RANGE_PX - 2 pixel columns of it (the white edges between ranges take the rest)."""
    labels = labels_of(name)
    picture = viz.OutcomeMapPicture(labels, name)
    pixels = _rgb(picture.png())
    layout = picture.layout
    assert pixels.shape[:2] == (layout.size_px[1], layout.size_px[0])
    for index, (_start, _end, label) in enumerate(layout.ranges):
        piece = max((p for p in layout.pieces if p.index == index), key=lambda p: p.x1 - p.x0)
        y = int(layout.bar_top(piece.row) + 11)
        colour = np.array([round(c * 255) for c in to_rgb(viz.OUTCOME_COLOURS[label])])
        row = pixels[y, int(piece.x0) : int(np.ceil(piece.x1)) + 1]
        matching = int((np.abs(row - colour).max(axis=1) <= 12).sum())
        assert matching >= MIN_RANGE_PX - 2, (index, label, piece, matching)


def _text_boxes_inside(fig) -> list[str]:
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    outside = []
    for text in fig.axes[0].texts:
        box = text.get_window_extent(renderer)
        if box.x0 < 0 or box.y0 < 0 or box.x1 > width or box.y1 > height:
            outside.append(f"{text.get_text()!r} at {box}")
    return outside


@pytest.mark.parametrize("name", ["openai-responses/completed", "gemini/completed_stop_every_chunk"])
def test_no_text_is_cut_off_wherever_the_cutoff_is(name):
    """The title, row ends, legend and the marker's label stay inside the picture, the marker at the
    first and last cut-off of every row (the extremes) included."""
    labels = labels_of(name)
    picture = viz.OutcomeMapPicture(labels, name)
    cutoffs = {0, len(labels) - 1}
    for row in range(picture.layout.rows):
        pieces = [p for p in picture.layout.pieces if p.row == row]
        cutoffs |= {pieces[0].start, pieces[-1].end - 1}
    for cutoff in sorted(cutoffs):
        assert _text_boxes_inside(picture.figure(cutoff)) == [], cutoff


def test_the_marker_outlines_the_range_of_the_cutoff():
    labels = labels_of("gemini/completed_stop_every_chunk")
    picture = viz.OutcomeMapPicture(labels)
    first_completed = labels.index("completed")
    piece = next(p for p in picture.layout.pieces if p.start <= first_completed < p.end)
    y = int(picture.layout.bar_top(piece.row) + 11)
    before, after = _rgb(picture.png()), _rgb(picture.png(first_completed))
    middle = int((piece.x0 + piece.x1) / 2)
    # the range keeps its colour under the marker (it is outlined, not covered)
    assert (before[y, middle] == after[y, middle]).all()
    assert (before != after).any()
    with pytest.raises(ValueError, match="at least one"):
        outcome_map_layout([])
