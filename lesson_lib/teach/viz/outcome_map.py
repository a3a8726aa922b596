"""What a stream proves, cut-off by cut-off: the cut-offs as coloured ranges, one colour per outcome.

A range is a run of consecutive cut-offs with the same outcome label. Real captures have ranges of one or
two cut-offs (the byte that ends an event, a CR before its LF) beside ranges of thousands, so a bar drawn
to scale hides the small ones in sub-pixel slivers. Here every range gets at least
:data:`MIN_RANGE_PX` pixels, and the rest of the bar is shared in proportion to the cut-offs (the axis is
therefore not to scale, and the picture says so). When the ranges need more room than one bar, the bar
wraps onto further rows, like text, each row labelled with the cut-offs it starts and ends at. Every label
on the map is in the legend with its number of cut-offs and ranges, and no text is drawn outside the
picture: the cut-off marker's label turns left in the right half of a row.

:func:`outcome_map_layout` computes where everything goes (tests check it); :class:`OutcomeMapPicture`
draws it, the static part once and the cut-off marker on every move.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from matplotlib.axes import Axes
from matplotlib.collections import PatchCollection
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ...i18n import catalogue, get_language
from ...i18n import text as _t
from .common import SANS
from .glyphs import drawable
from .png import _LayeredPicture, _whole_pixels

#: Colours of :func:`draw_outcome_map`, by outcome label (``truncated`` split by where it was cut).
OUTCOME_COLOURS = {
    "completed": "#2f9e44",
    "completed, end not verifiable": "#94d82d",
    "incomplete": "#f59f00",
    "incomplete, end not verifiable": "#ffd43b",
    "truncated at completion": "#ffc9c9",
    "truncated at event": "#ffa8a8",
    "truncated at line": "#ff8787",
    "truncated at character": "#e03131",
    "truncated": "#fa5252",
    "service_error": "#7048e8",
    "decode_error": "#495057",
    "limit_exceeded": "#868e96",
    "cancelled": "#adb5bd",
    "timed_out": "#d9480f",
}
FALLBACK_COLOUR = "#ced4da"

#: The narrowest a range is drawn, in pixels of the PNG.
MIN_RANGE_PX = 6.0
WIDTH_PX = 940  #: the picture's width
MARGIN_PX = 10.0  #: left and right of the bars
ROW_PX = WIDTH_PX - 2 * MARGIN_PX  #: the length of one bar row
_TITLE_H, _MARK_H, _BAR_H, _TICK_H, _ROW_GAP = 22.0, 16.0, 22.0, 13.0, 6.0
_ROW_PITCH = _MARK_H + _BAR_H + _TICK_H + _ROW_GAP
_LEGEND_PITCH, _LEGEND_COLUMNS = 17.0, 2
_MIN_SHARE = 0.5  # the minimum widths take at most this share of the rows; the rest is proportional


def outcome_label(result) -> str:
    """A short label for a :class:`~lesson_lib.core.completion.StreamResult`: outcome, and where it was
    cut."""
    outcome = str(result.outcome)
    if outcome == "truncated" and result.truncated_at:
        return f"truncated at {result.truncated_at}"
    if outcome in ("completed", "incomplete") and not getattr(result, "end_verified", True):
        return f"{outcome}, end not verifiable"  # the terminal signal came on an event more events followed
    return outcome


def outcome_text(label: str) -> str:
    """How the pictures and explorers show an outcome label of :func:`outcome_label`, in the current
    language (the label itself stays the same in every language: it is what the colours and the code
    use). A label that is not an outcome label (drawn from a caller's own list) is shown as it is."""
    key = label.replace(", end not verifiable", "_unverified").replace(" at ", "_at_")
    if f"viz.outcome.{key}" not in catalogue(get_language()):
        return label
    return _t(f"viz.outcome.{key}")


def outcome_ranges(labels: Sequence[str]) -> list[tuple[int, int, str]]:
    """The runs of equal labels as ``(first cut-off, last cut-off + 1, label)``, in order."""
    runs: list[tuple[int, int, str]] = []
    for index, label in enumerate(labels):
        if runs and runs[-1][2] == label:
            runs[-1] = (runs[-1][0], index + 1, label)
        else:
            runs.append((index, index + 1, label))
    return runs


_outcome_runs = outcome_ranges  # the name used before


@dataclass(frozen=True)
class Piece:
    """The part of range ``index`` drawn in bar row ``row``, from ``x0`` to ``x1`` (pixels), covering the
    cut-offs ``start`` to ``end - 1``."""

    index: int
    row: int
    x0: float
    x1: float
    start: int
    end: int
    label: str


@dataclass(frozen=True)
class OutcomeMapLayout:
    ranges: list[tuple[int, int, str]]
    pieces: list[Piece]
    rows: int
    legend: list[tuple[str, int, int]]  # (label, cut-offs, ranges), in order of first appearance
    size_px: tuple[int, int]

    def bar_top(self, row: int) -> float:
        return _TITLE_H + row * _ROW_PITCH + _MARK_H

    def legend_top(self) -> float:
        return _TITLE_H + self.rows * _ROW_PITCH + 4.0

    def range_width(self, index: int) -> float:
        """The drawn width of range ``index``, all its pieces together."""
        return sum(p.x1 - p.x0 for p in self.pieces if p.index == index)

    def position(self, cutoff: int) -> tuple[int, float]:
        """``(row, x)`` of cut-off ``cutoff``: the middle of its share of its range's piece."""
        for piece in self.pieces:
            if piece.start <= cutoff < piece.end:
                share = (piece.x1 - piece.x0) / (piece.end - piece.start)
                return piece.row, piece.x0 + (cutoff - piece.start + 0.5) * share
        raise ValueError(f"cut-off {cutoff} is not on the map")


def outcome_map_layout(labels: Sequence[str]) -> OutcomeMapLayout:
    """Where every range goes. Guarantees: the pieces cover every cut-off once, in order, row after row
    from ``MARGIN_PX`` to ``MARGIN_PX + ROW_PX``; every range is at least :data:`MIN_RANGE_PX` wide, and
    each piece of a range split across rows too; every label is in the legend."""
    if not labels:
        raise ValueError("at least one cut-off is needed")
    ranges = outcome_ranges(labels)
    total = len(labels)
    rows = max(1, math.ceil(len(ranges) * MIN_RANGE_PX / (_MIN_SHARE * ROW_PX)))
    length = rows * (ROW_PX - MIN_RANGE_PX)  # a row may end up to MIN_RANGE_PX short of full: room for it
    spare = length - len(ranges) * MIN_RANGE_PX
    widths = [MIN_RANGE_PX + spare * (end - start) / total for start, end, _ in ranges]

    # Fill rows like lines of text. A range that does not fit the room left in a row is split (a whole
    # number of its cut-offs on each side, every piece at least MIN_RANGE_PX) or moves to the next row.
    rows_of: list[list[tuple[int, float, int, int]]] = [[]]  # per row: (range, width, first, end)
    used = 0.0
    for index, ((start, end, _label), width) in enumerate(zip(ranges, widths, strict=True)):
        left, first = width, start
        while left > 0:
            room = ROW_PX - used
            unsplittable = end - first < 2  # one cut-off: it overflows the row a little, or starts one
            if left <= room + 1e-6 or (unsplittable and (used == 0 or left - room <= MIN_RANGE_PX)):
                here, last = left, end
            elif room >= MIN_RANGE_PX and end - first >= 2 and left - MIN_RANGE_PX >= MIN_RANGE_PX:
                here = min(room, left - MIN_RANGE_PX)
                last = first + max(1, min(end - first - 1, round((end - first) * here / left)))
            else:
                rows_of.append([])
                used = 0.0
                continue
            rows_of[-1].append((index, here, first, last))
            used += here
            left, first = left - here, last
            if last == end:
                left = 0
    # Justify every row to the full row length (scaling only what is above the minimum, so every piece
    # stays at least MIN_RANGE_PX), except a last row less than half full, which ends where it ends.
    pieces: list[Piece] = []
    rows_of = [r for r in rows_of if r]
    for number, items in enumerate(rows_of):
        held = sum(w for _, w, _, _ in items)
        small = MIN_RANGE_PX * len(items)
        last_and_short = number == len(rows_of) - 1 and held < ROW_PX / 2
        target = held if last_and_short else ROW_PX
        keep_minimum = held > small and target >= small
        scale = (target - small) / (held - small) if keep_minimum else 1.0
        x = MARGIN_PX
        for index, w, first, last in items:
            w = MIN_RANGE_PX + (w - MIN_RANGE_PX) * scale if keep_minimum else target / len(items)
            pieces.append(Piece(index, number, x, x + w, first, last, ranges[index][2]))
            x += w
    legend: dict[str, list[int]] = {}
    for start, end, label in ranges:
        entry = legend.setdefault(label, [0, 0])
        entry[0] += end - start
        entry[1] += 1
    rows = len(rows_of)
    legend_rows = math.ceil(len(legend) / _LEGEND_COLUMNS) + 1  # and the note on the axis
    height = _TITLE_H + rows * _ROW_PITCH + 8 + legend_rows * _LEGEND_PITCH
    return OutcomeMapLayout(
        ranges, pieces, rows, [(k, v[0], v[1]) for k, v in legend.items()], (WIDTH_PX, math.ceil(height))
    )


def legend_text(label: str, cutoffs: int, ranges: int) -> str:
    """The legend's line for one label: how many cut-offs it has, in how many ranges (current language)."""
    return _t(
        "viz.outcome_map.legend",
        label=outcome_text(label),
        cutoffs=_t(f"viz.count.cutoff.{'one' if cutoffs == 1 else 'other'}", n=cutoffs),
        ranges=_t(f"viz.count.range.{'one' if ranges == 1 else 'other'}", n=ranges),
    )


def _text(ax: Axes, x: float, y: float, text: str, **kwargs) -> None:
    shown, families = drawable(text, SANS)
    # Text properties of mixed types: matplotlib types ``Axes.text(**kwargs)`` as ``Any``.
    options: dict[str, Any] = {
        "ha": "left",
        "va": "center",
        "fontsize": 7.5,
        "family": families,
        "parse_math": False,
    }
    options["zorder"] = 3
    options.update(kwargs)
    ax.text(x, y, shown, **options)


def _draw_map_base(ax: Axes, layout: OutcomeMapLayout, title: str) -> None:
    bars, colours = [], []
    for piece in layout.pieces:
        top = layout.bar_top(piece.row)
        bars.append(Rectangle((piece.x0, top), piece.x1 - piece.x0, _BAR_H))
        colours.append(OUTCOME_COLOURS.get(piece.label, FALLBACK_COLOUR))
    # a white edge between ranges, so that two neighbours of similar colour stay apart
    ax.add_collection(
        PatchCollection(bars, facecolor=colours, edgecolor="white", linewidth=0.6, zorder=2, gid="outcomes")
    )
    _text(ax, MARGIN_PX, _TITLE_H / 2, title, fontsize=8.5)
    for row in range(layout.rows):
        pieces = [p for p in layout.pieces if p.row == row]
        y = layout.bar_top(row) + _BAR_H + _TICK_H / 2 + 1
        _text(ax, MARGIN_PX, y, _t("viz.outcome_map.row_start", cutoff=pieces[0].start), fontsize=6.5,
              color="#495057")
        _text(ax, MARGIN_PX + ROW_PX, y, f"{pieces[-1].end - 1}", fontsize=6.5, color="#495057", ha="right")
    top = layout.legend_top()
    column_w = ROW_PX / _LEGEND_COLUMNS
    for number, (label, cutoffs, ranges) in enumerate(layout.legend):
        row, column = divmod(number, _LEGEND_COLUMNS)
        x, y = MARGIN_PX + column * column_w, top + row * _LEGEND_PITCH + _LEGEND_PITCH / 2
        ax.add_patch(
            Rectangle((x, y - 5), 14, 10, facecolor=OUTCOME_COLOURS.get(label, FALLBACK_COLOUR), linewidth=0)
        )
        _text(ax, x + 19, y, legend_text(label, cutoffs, ranges))
    note_y = top + math.ceil(len(layout.legend) / _LEGEND_COLUMNS) * _LEGEND_PITCH + _LEGEND_PITCH / 2
    _text(
        ax,
        MARGIN_PX,
        note_y,
        _t("viz.outcome_map.not_to_scale", px=f"{MIN_RANGE_PX:g}"),
        fontsize=6.5,
        color="#495057",
    )


def _draw_map_cutoff(ax: Axes, layout: OutcomeMapLayout, labels: Sequence[str], cutoff: int | None) -> None:
    if cutoff is None:
        return
    row, x = layout.position(cutoff)
    top = layout.bar_top(row)
    # the range holding the cut-off is outlined (its colour stays visible, however narrow it is), and a
    # pointer above the bar marks the cut-off itself
    piece = next(p for p in layout.pieces if p.start <= cutoff < p.end)
    ax.add_patch(
        Rectangle(
            (piece.x0 - 1.5, top - 2.5),
            piece.x1 - piece.x0 + 3,
            _BAR_H + 5,
            fill=False,
            edgecolor="#1c7ed6",
            linewidth=1.6,
            zorder=11,
        )
    )
    ax.plot([x], [top - 5], marker="v", markersize=6, color="#1c7ed6", linestyle="none", zorder=12)
    right_half = x > WIDTH_PX / 2
    _text(
        ax,
        x + (-4 if right_half else 4),
        top - _MARK_H / 2 - 2,
        _t("viz.outcome_map.marker", cutoff=cutoff, label=outcome_text(labels[cutoff])),
        ha="right" if right_half else "left",
        fontsize=7.5,
        color="#1c7ed6",
        zorder=12,
    )


class OutcomeMapPicture:
    """:func:`draw_outcome_map` for fixed labels, redrawn quickly as the cut-off marker moves."""

    def __init__(self, labels: Sequence[str], title: str = "") -> None:
        if not labels:
            raise ValueError("at least one cut-off is needed")
        self.labels = list(labels)
        self.layout = outcome_map_layout(self.labels)
        width, height = self.layout.size_px
        size = _whole_pixels(width / 100, height / 100)
        self._picture: _LayeredPicture[int | None] = _LayeredPicture(
            size,
            ((0.0, float(width)), (float(height), 0.0)),
            lambda ax: _draw_map_base(ax, self.layout, title),
            lambda ax, cutoff: _draw_map_cutoff(ax, self.layout, self.labels, cutoff),
        )

    def png(self, cutoff: int | None = None) -> bytes:
        return self._picture.png(cutoff)

    def figure(self, cutoff: int | None = None) -> Figure:
        return self._picture.figure(cutoff)


def draw_outcome_map(labels: Sequence[str], cutoff: int | None = None, *, title: str = "") -> Figure:
    """What the stream proves if the body stops after each byte: the cut-offs as coloured ranges.

    ``labels[c]`` is :func:`outcome_label` of the stream cut off after ``c`` bytes (``c`` from 0 to the
    whole body). Runs of the same label are one range, drawn at least :data:`MIN_RANGE_PX` wide (see
    :func:`outcome_map_layout`); ``cutoff`` adds a marker.
    """
    return OutcomeMapPicture(labels, title).figure(cutoff)
