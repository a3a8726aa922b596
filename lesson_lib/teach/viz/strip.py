"""The byte strip: the bytes of a stream as cells coloured by character, cut into reads."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypedDict

from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.figure import Figure, SubFigure
from matplotlib.patches import Rectangle

from ...core.decoding import char_spans
from ...core.options import check_int
from ...i18n import text as _t
from .common import (
    ASCII_COLOUR,
    CORRUPTING_COLOUR,
    CUT_COLOUR,
    INVALID_COLOUR,
    MONO,
    PALETTE,
    SANS,
    WARNING_COLOUR,
    _as_bytes,
)
from .glyphs import drawable, glyph_font, glyph_label
from .png import _LayeredPicture, _whole_pixels

CELL_W = 0.36  #: inches per byte cell
_ROW_H = 0.94  # inches per strip row: glyph zone, cells, marks and read bands
_TOP = 0.34  # header line
_BOTTOM = 0.46  # two legend lines
_MIN_COLUMNS = 17  # narrower strips would cut the legend
_PAD = 0.4  # cells of margin left and right
_GLYPH_Y, _CELL_Y0, _CELL_Y1, _MARK_Y, _BAND_Y0, _BAND_Y1 = 0.15, 0.30, 0.62, 0.665, 0.71, 0.76


class _Edge(TypedDict):
    """The cells' edge, as keywords of ``PatchCollection``."""

    edgecolor: str
    linewidth: float
    zorder: float


def _lighter(colour: str, amount: float = 0.55) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    r, g, b = (round(c + (255 - c) * amount) for c in (r, g, b))
    return f"#{r:02x}{g:02x}{b:02x}"


@dataclass(frozen=True)
class _StripLayout:
    length: int
    per_row: int

    @property
    def rows(self) -> int:
        return max(1, -(-self.length // self.per_row))

    @property
    def columns(self) -> int:
        return max(1, min(self.length, self.per_row), min(_MIN_COLUMNS, self.per_row))

    @property
    def size(self) -> tuple[float, float]:
        return _whole_pixels((self.columns + 2 * _PAD) * CELL_W, _TOP + self.rows * _ROW_H + _BOTTOM)

    @property
    def limits(self) -> tuple[tuple[float, float], tuple[float, float]]:
        return (-_PAD, self.columns + _PAD), (self.size[1], 0.0)

    def xy(self, offset: int) -> tuple[int, float]:
        """Column and row-top (inches) of the cell holding byte ``offset``."""
        row, column = divmod(offset, self.per_row)
        return column, _TOP + row * _ROW_H

    def boundary_positions(self, offset: int) -> list[tuple[int, float]]:
        """Where a boundary before byte ``offset`` is drawn: one place, or two when it wraps a row."""
        column, top = self.xy(offset)
        places = []
        if offset < self.length:
            places.append((column, top))
        if column == 0 and offset > 0:
            places.append((self.per_row, top - _ROW_H))
        return places

    def segments(self, start: int, end: int) -> list[tuple[float, float, float]]:
        """The horizontal pieces ``(x0, x1, row_top)`` of the byte range ``[start, end)``, one per row."""
        pieces: list[tuple[float, float, float]] = []
        while start < end:
            column, top = self.xy(start)
            stop = min(end, start - column + self.per_row)
            pieces.append((column, column + stop - start, top))
            start = stop
        return pieces


def strip_figsize(length: int, bytes_per_row: int = 24) -> tuple[float, float]:
    """The size in inches of the byte-strip figure for ``length`` bytes."""
    return _StripLayout(length, bytes_per_row).size


def _span_kind(data: bytes, start: int, end: int) -> str:
    """``valid``, ``invalid`` (one bad byte) or ``incomplete`` (a character cut off by the end)."""
    piece = data[start:end]
    if end - start == 1 and piece[0] >= 0x80:
        if end == len(data) and 0xC2 <= piece[0] <= 0xF4:
            return "incomplete"
        return "invalid"
    try:
        piece.decode("utf-8")
    except UnicodeDecodeError:
        return "incomplete"
    return "valid"


def _draw_strip_base(ax: Axes, data: bytes, layout: _StripLayout, corrupting: Sequence[int] | None) -> None:
    plain, hatched, invalid, incomplete = [], [], [], []
    plain_colours, hatched_colours = [], []
    multibyte = 0
    for start, end in char_spans(data):
        kind = _span_kind(data, start, end)
        if kind == "invalid" or (end - start == 1 and data[start] < 0x80):
            colour = ASCII_COLOUR
        else:
            colour = PALETTE[multibyte % len(PALETTE)]
            multibyte += 1
        for offset in range(start, end):
            column, top = layout.xy(offset)
            cell = Rectangle((column, top + _CELL_Y0), 1, _CELL_Y1 - _CELL_Y0)
            if kind == "invalid":
                invalid.append(cell)
            elif offset == start:
                plain.append(cell)
                plain_colours.append(colour)
            else:
                hatched.append(cell)
                hatched_colours.append(_lighter(colour, 0.65))
            if kind == "incomplete":
                incomplete.append(Rectangle((column, top + _CELL_Y0), 1, _CELL_Y1 - _CELL_Y0))
            ax.text(
                column + 0.5,
                top + (_CELL_Y0 + _CELL_Y1) / 2,
                f"{data[offset]:02X}",
                ha="center",
                va="center",
                fontsize=8,
                family=MONO,
                parse_math=False,
                zorder=3,
                color="white" if kind == "invalid" else "#212529",
            )
        # the character above its span (on the row where it starts)
        x0, x1, top = layout.segments(start, end)[0]
        if kind == "invalid":
            label, families, colour_text = "✗", [SANS], INVALID_COLOUR
        elif kind == "incomplete":
            label, families, colour_text = "…", [SANS], WARNING_COLOUR
        else:
            ch = data[start:end].decode("utf-8")
            label, colour_text = glyph_label(ch), "#212529"
            family = glyph_font(ch)
            families = [SANS] if family in (None, SANS) else [SANS, family]
        size = 12 if len(label) == 1 else (8 if len(label) <= 3 else 6.5)
        ax.text(
            (x0 + x1) / 2,
            top + _GLYPH_Y,
            label,
            ha="center",
            va="center",
            fontsize=size,
            family=families,
            color=colour_text,
            parse_math=False,
            zorder=3,
        )
    edge: _Edge = {"edgecolor": "#868e96", "linewidth": 0.5, "zorder": 2}
    if plain:
        ax.add_collection(PatchCollection(plain, facecolor=plain_colours, gid="lead", **edge))
    if hatched:
        # Continuation bytes: the character's colour, much lighter (hatching would look as clear but
        # make the PNG four times larger and slower to encode).
        ax.add_collection(PatchCollection(hatched, facecolor=hatched_colours, gid="continuation", **edge))
    if invalid:
        ax.add_collection(
            PatchCollection(invalid, facecolor=INVALID_COLOUR, hatch="xx", gid="invalid", **edge)
        )
    # a thick edge where each character starts, so the characters read as blocks
    starts = []
    for start, _ in char_spans(data):
        for column, top in layout.boundary_positions(start):
            starts.append([(column, top + _CELL_Y0), (column, top + _CELL_Y1)])
    for column, top in layout.boundary_positions(len(data)):
        starts.append([(column, top + _CELL_Y0), (column, top + _CELL_Y1)])
    ax.add_collection(LineCollection(starts, colors="#343a40", linewidths=1.6, zorder=2.4, gid="characters"))
    if incomplete:
        ax.add_collection(
            PatchCollection(
                incomplete,
                facecolor="none",
                edgecolor=WARNING_COLOUR,
                linewidth=1.5,
                linestyle="--",
                zorder=2.5,
                gid="incomplete",
            )
        )
    legend = [_t("viz.strip.legend.cells"), _t("viz.strip.legend.cuts")]
    if corrupting is not None:
        xs, ys = [], []
        for cut in corrupting:
            for column, top in layout.boundary_positions(cut):
                xs.append(column)
                ys.append(top + _MARK_Y)
        if xs:
            ax.scatter(xs, ys, marker="^", s=22, color=CORRUPTING_COLOUR, zorder=4, linewidths=0, gid="sweep")
        legend[1] = _t("viz.strip.legend.cuts_and_sweep", cuts=legend[1], corrupting=len(corrupting))
    for number, line in enumerate(legend):
        line, families = drawable(line)
        ax.text(
            0,
            layout.size[1] - _BOTTOM + 0.14 + 0.17 * number,
            line,
            ha="left",
            va="center",
            fontsize=7,
            family=families,
            color="#495057",
            parse_math=False,
            zorder=3,
        )


def _draw_strip_cuts(ax: Axes, data: bytes, layout: _StripLayout, cuts: Sequence[int]) -> None:
    cuts = sorted(set(cuts))
    starts = {start for start, _ in char_spans(data)}
    segments, colours, texts = [], [], []
    for cut in cuts:
        colour = CUT_COLOUR if cut in starts else WARNING_COLOUR
        for column, top in layout.boundary_positions(cut):
            segments.append([(column, top + _CELL_Y0 - 0.05), (column, top + _BAND_Y1 + 0.02)])
            colours.append(colour)
        column, top = layout.boundary_positions(cut)[0]
        texts.append((column, top + _BAND_Y1 + 0.03, str(cut), colour))
    bands, band_colours = [], []
    for number, (start, end) in enumerate(zip([0, *cuts], [*cuts, len(data)], strict=True)):
        for x0, x1, top in layout.segments(start, end):
            bands.append(Rectangle((x0 + 0.06, top + _BAND_Y0), x1 - x0 - 0.12, _BAND_Y1 - _BAND_Y0))
            band_colours.append("#868e96" if number % 2 == 0 else "#ced4da")
    if bands:
        ax.add_collection(PatchCollection(bands, facecolor=band_colours, linewidth=0, zorder=10))
    if segments:
        ax.add_collection(LineCollection(segments, colors=colours, linewidths=2.6, zorder=11, gid="cuts"))
    for x, y, text, colour in texts:
        ax.text(
            x,
            y,
            text,
            ha="center",
            va="top",
            fontsize=6.5,
            family=SANS,
            color=colour,
            fontweight="bold",
            parse_math=False,
            zorder=12,
        )
    inside = sum(1 for cut in cuts if cut not in starts)
    if cuts:
        header = _t(
            "viz.strip.header.cut",
            bytes=len(data),
            cuts=",".join(map(str, cuts)),
            reads=len(cuts) + 1,
            inside=inside,
        )
    else:
        header = _t("viz.strip.header.uncut", bytes=len(data))
    header, families = drawable(header)
    ax.text(
        0,
        _TOP / 2,
        header,
        ha="left",
        va="center",
        fontsize=8.5,
        family=families,
        color=WARNING_COLOUR if inside else "#212529",
        parse_math=False,
        zorder=12,
    )


def draw_byte_strip(
    data: bytes | str,
    cuts: Iterable[int] = (),
    ax: Axes | None = None,
    *,
    corrupting: Sequence[int] | None = None,
    bytes_per_row: int = 24,
) -> Figure | SubFigure:
    """Draw ``data`` as a strip of byte cells, cut into reads at ``cuts``; return the figure.

    Each cell shows the byte in hex and is coloured by the character it belongs to (from
    :func:`lesson_lib.core.decoding.char_spans`): the first byte of a character plain, continuation bytes
    lighter and hatched, invalid bytes red, a character cut off by the end of the data outlined in
    orange. The character (see :func:`glyph_label`) is written above its span. A cut is a vertical
    line before the byte at its offset, blue at a character boundary and orange inside a character;
    grey bars under the cells show the reads. ``corrupting`` (from a sweep) marks with a red triangle
    every single-cut position that corrupts a per-read decode.

    With ``ax=None`` a new :class:`~matplotlib.figure.Figure` of :func:`strip_figsize` is created;
    a given ``ax`` is drawn into as is (its limits are set; its size is the caller's).
    """
    data = _as_bytes(data)
    cuts = list(cuts)
    for cut in cuts:
        check_int(f"cut {cut!r}", cut, minimum=1, maximum=len(data) - 1)
    cuts = sorted(set(cuts))
    layout = _StripLayout(len(data), bytes_per_row)
    if ax is None:
        return ByteStripPicture(data, bytes_per_row, corrupting).figure(cuts)
    ax.set_axis_off()
    ax.set_xlim(*layout.limits[0])
    ax.set_ylim(*layout.limits[1])
    _draw_strip_base(ax, data, layout, corrupting)
    _draw_strip_cuts(ax, data, layout, cuts)
    return ax.figure  # the figure (or subfigure) that holds ``ax``


class ByteStripPicture:
    """The byte strip of one byte string, redrawn quickly for different cuts (what the widgets use).

    The cells, labels and sweep marks are rendered once; :meth:`png` draws only the cut lines and read
    bars over them. ``png(cuts)`` is pixel-identical to ``figure_png(draw_byte_strip(data, cuts))``.
    """

    def __init__(
        self, data: bytes | str, bytes_per_row: int = 24, corrupting: Sequence[int] | None = None
    ) -> None:
        self.data = _as_bytes(data)
        self.layout = _StripLayout(len(self.data), bytes_per_row)
        self._corrupting = None if corrupting is None else sorted(set(corrupting))
        self._picture: _LayeredPicture[Sequence[int]] = _LayeredPicture(
            self.layout.size,
            self.layout.limits,
            lambda ax: _draw_strip_base(ax, self.data, self.layout, self._corrupting),
            lambda ax, cuts: _draw_strip_cuts(ax, self.data, self.layout, cuts),
        )

    @property
    def corrupting(self) -> list[int] | None:
        return self._corrupting

    @corrupting.setter
    def corrupting(self, positions: Iterable[int] | None) -> None:
        self._corrupting = None if positions is None else sorted(set(positions))
        self._picture.invalidate()

    def png(self, cuts: Iterable[int] = ()) -> bytes:
        return self._picture.png(sorted(set(cuts)))

    def figure(self, cuts: Iterable[int] = ()) -> Figure:
        return self._picture.figure(sorted(set(cuts)))
