"""Pictures of the boundaries: the bytes of a stream as a strip of cells, and every layer's state per read.

Everything here draws on a :class:`matplotlib.figure.Figure` created explicitly (never ``pyplot``, so
nothing leaks into a notebook's implicit figure state), with explicit sizes in inches and a fixed
:data:`DPI`; :func:`figure_png` turns a figure into PNG bytes that are the same on every run on the
same machine (no timestamp, no software tag).

Glyphs
------
A picture shows a character's glyph only where an installed *outline* font covers it, and its code point
(``U+4F60``) otherwise, so drawing never triggers matplotlib's "Glyph ... missing from font(s)" warning
and never shows a tofu box. :func:`glyph_label` makes that choice, deterministically for a machine's
fonts:

* control characters and the space get short names (``LF``, ``CR``, ``TAB``, ``NUL``, ``SP``, ...):
  they are what the line and event lessons are about, and they have no visible glyph;
* other invisible or context-dependent characters (format characters such as U+FEFF or U+200D,
  combining marks, separators, private use, lone surrogates) are always ``U+XXXX``;
* emoji and the other supplementary pictographs (U+1F000 and above, categories So/Sk) are always
  ``U+XXXX``. matplotlib's Agg renderer draws outline glyphs only; Debian's emoji font, Noto Color
  Emoji, is a colour *bitmap* font (CBDT tables) that FreeType-through-Agg cannot paint, so the only
  way to draw one would be a monochrome fallback font that may or may not be installed, which would
  make the same notebook show a glyph on one machine and a box on another. The code point is also the
  fact the lesson is about (U+1F642 is the four bytes F0 9F 99 82);
* anything else (Latin, Greek, Cyrillic, CJK, ...) is drawn as its glyph when a scalable, non-colour
  font in matplotlib's font list covers it (DejaVu Sans first, then Noto Sans CJK SC/JP/TC/KR/HK when
  fonts-noto-cjk is installed, then every other family by name), and as ``U+XXXX`` when none does.
  matplotlib's own "Last Resort" font, which maps every code point to a placeholder box, does not
  count, nor do its TeX fonts (cmr10, ...), whose charmaps are not Unicode.

matplotlib builds its font list when it is first imported on a machine and caches it; a font installed
later is seen after that cache is rebuilt (and :func:`_reset_font_caches` here).

The pictures draw each label in the font that was found to cover it, with DejaVu first, so a label
never needs a glyph that is missing.
"""

from __future__ import annotations

import functools
import io
import math
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib import font_manager, ft2font
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from .chunking import split_at
from .decoding import IncrementalUTF8Decoder, char_spans
from .errors import BoundaryError
from .lines import LineSplitter
from .sse import SSEParser

#: Every PNG is rendered at this resolution (dots per inch); figure sizes are given in inches.
DPI = 100

#: The font tried first for glyphs, and the monospaced font of the tables.
SANS = "DejaVu Sans"
MONO = "DejaVu Sans Mono"

#: Short names for the control characters (and the space) that the lessons meet.
CONTROL_NAMES = {
    "\x00": "NUL",
    "\t": "TAB",
    "\n": "LF",
    "\x0b": "VT",
    "\x0c": "FF",
    "\r": "CR",
    "\x1b": "ESC",
    " ": "SP",
    "\x7f": "DEL",
    "\x85": "NEL",
}

_NEVER_GLYPH_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp", "Mn", "Mc", "Me"}


# -- fonts and glyph labels ----------------------------------------------------------------------------
#: Families tried right after DejaVu Sans, in this order, when installed (the lessons' text is Chinese).
PREFERRED_FAMILIES = (
    "Noto Sans CJK SC",
    "Noto Sans CJK JP",
    "Noto Sans CJK TC",
    "Noto Sans CJK KR",
    "Noto Sans CJK HK",
)


def _unicode_family(name: str) -> bool:
    """False for matplotlib's TeX fonts (cmr10, cmsy10, ...; STIXSize*, STIXNonUnicode): their
    charmaps put symbols at the code points of ordinary letters, so "covers U+0041" means nothing."""
    if name.startswith("Last Resort") or name.startswith("STIXSize") or name == "STIXNonUnicode":
        return False
    return not (name.startswith("cm") and name.endswith("10"))


@functools.cache
def _candidate_families() -> tuple[str, ...]:
    """Font families to try for a glyph: DejaVu Sans, the preferred CJK faces, the rest by name."""
    # Only families with a regular face: drawing asks for normal weight and style, and a family without
    # one would make findfont log a substitution at draw time.
    names = {
        entry.name
        for entry in font_manager.fontManager.ttflist
        if entry.style == "normal"
        and entry.weight in (400, "normal", "regular", "book")
        and _unicode_family(entry.name)
    }
    first = [name for name in (SANS, *PREFERRED_FAMILIES) if name in names]
    return (*first, *sorted(names - set(first)))


@functools.cache
def _family_charmap(family: str) -> frozenset[int]:
    """Code points of the face matplotlib would use for ``family``; empty if it cannot draw them.

    The face checked is the one :func:`matplotlib.font_manager.findfont` resolves for the family at
    normal weight and style, i.e. exactly the file the pictures will draw with. Colour or bitmap-only
    faces (Noto Color Emoji) are excluded: Agg cannot paint them.
    """
    prop = font_manager.FontProperties(family=family, style="normal", weight="normal")
    try:
        path = font_manager.findfont(prop, fallback_to_default=False)
        font = ft2font.FT2Font(str(path), face_index=getattr(path, "face_index", 0))
    except (ValueError, OSError, RuntimeError):
        return frozenset()
    flags = font.face_flags
    if ft2font.FaceFlags.COLOR in flags or ft2font.FaceFlags.SCALABLE not in flags:
        return frozenset()
    if font.family_name.startswith("Last Resort"):
        return frozenset()
    return frozenset(font.get_charmap())


def _is_pictograph(ch: str) -> bool:
    return ord(ch) >= 0x1F000 and unicodedata.category(ch) in ("So", "Sk")


@functools.cache
def glyph_font(ch: str) -> str | None:
    """The font family that draws ``ch`` as a glyph in the pictures, or ``None`` (see the module notes)."""
    if len(ch) != 1:
        raise ValueError(f"one character expected, got {ch!r}")
    if ch in CONTROL_NAMES or unicodedata.category(ch) in _NEVER_GLYPH_CATEGORIES or _is_pictograph(ch):
        return None
    code = ord(ch)
    for family in _candidate_families():
        if code in _family_charmap(family):
            return family
    return None


def glyph_label(ch: str) -> str:
    """What a picture writes for one character: its glyph, a control name (``LF``), or ``U+XXXX``.

    The glyph when an installed outline font covers it (CJK with fonts-noto-cjk, for instance);
    ``U+XXXX`` otherwise, and always for emoji (see the module notes for why). Deterministic for a
    given machine's fonts.
    """
    if ch in CONTROL_NAMES:
        return CONTROL_NAMES[ch]
    if glyph_font(ch) is not None:
        return ch
    return f"U+{ord(ch):04X}"


def _reset_font_caches() -> None:
    """Forget what was learnt about the fonts (after installing one, or in tests)."""
    _candidate_families.cache_clear()
    _family_charmap.cache_clear()
    glyph_font.cache_clear()


def _families_for(text: str, first: str) -> list[str]:
    """The font list for drawing ``text``: ``first``, then the families covering its other characters."""
    families = [first]
    first_map = _family_charmap(first)
    for ch in set(text):
        if ord(ch) in first_map:
            continue
        family = glyph_font(ch)
        if family is not None and family not in families:
            families.append(family)
    return [families[0], *sorted(families[1:])]


def visible_text(text: str) -> str:
    """``text`` made safe to draw: controls escaped (``\\r``), undrawable characters as ``<U+XXXX>``.

    Characters a covering font can draw are kept (see :func:`glyph_font`); U+FFFD stays visible as
    itself when a font has it.
    """
    out = []
    for ch in text:
        if ch in "\r\n\t":
            out.append({"\r": "\\r", "\n": "\\n", "\t": "\\t"}[ch])
        elif ch == " ":
            out.append(" ")
        elif "\udc80" <= ch <= "\udcff":
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        elif glyph_font(ch) is not None:
            out.append(ch)
        elif unicodedata.category(ch) == "Cc":
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"<U+{ord(ch):04X}>")
        else:
            out.append(f"<U+{ord(ch):04X}>")
    return "".join(out)


def chunk_text(chunk: bytes) -> str:
    """A read's bytes as readable text: valid UTF-8 as characters, controls and the rest as escapes.

    ``data: \\xe4\\xbd`` for a read that ends two bytes into 你; ``\\r``, ``\\n`` for line endings.
    """
    out = []
    for ch in chunk.decode("utf-8", "surrogateescape"):
        if ch in "\r\n\t":
            out.append({"\r": "\\r", "\n": "\\n", "\t": "\\t"}[ch])
        elif "\udc80" <= ch <= "\udcff":
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        elif unicodedata.category(ch) == "Cc":
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return "".join(out)


def _fit(text: str, width_chars: int) -> str:
    """Shorten ``text`` to about ``width_chars`` columns (wide characters count two) with an ellipsis."""
    columns, out = 0, []
    for ch in text:
        w = 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
        if columns + w > width_chars - 1:
            out.append("…")
            return "".join(out)
        out.append(ch)
        columns += w
    return "".join(out)


# -- PNG output and the cached-raster trick ------------------------------------------------------------
def figure_png(fig: Figure) -> bytes:
    """The figure as PNG bytes at :data:`DPI`, without metadata that changes between runs."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None}, pil_kwargs={"compress_level": 3})
    return buffer.getvalue()


def _whole_pixels(width: float, height: float) -> tuple[float, float]:
    """A figure size (inches) that is a whole number of pixels at :data:`DPI`.

    Agg truncates the pixel size, so ``6.41 * 100`` computed as ``640.999...`` would lose a column;
    the size is nudged up by the smallest step that makes the truncation exact.
    """

    def exact(inches: float) -> float:
        pixels = round(inches * DPI)
        value = pixels / DPI
        while int(value * DPI) < pixels:
            value = math.nextafter(value, math.inf)
        return value

    return exact(width), exact(height)


def show(fig: Figure):
    """Display a figure in a notebook as the PNG of :func:`figure_png` (no pyplot involved).

    A bare :class:`~matplotlib.figure.Figure` made without pyplot has no rich display of its own; this
    returns an :class:`IPython.display.Image` that does, with the same deterministic bytes.
    """
    from IPython.display import Image

    return Image(data=figure_png(fig), format="png")


class _Raster(Artist):
    """Paints a pre-rendered RGBA array at the figure's origin, pixel for pixel (no resampling)."""

    def __init__(self, rgba: np.ndarray) -> None:
        super().__init__()
        self._flipped = np.ascontiguousarray(rgba[::-1])
        self.set_zorder(-10)

    def draw(self, renderer) -> None:  # type: ignore[override]
        gc = renderer.new_gc()
        renderer.draw_image(gc, 0, 0, self._flipped)
        gc.restore()


class _LayeredPicture:
    """A picture whose static part is rendered once and whose overlay is redrawn on every change.

    ``draw_base(ax)`` draws what does not change; ``draw_overlay(ax, state)`` what does. :meth:`png`
    paints the cached base pixels, draws the overlay on top and saves with :func:`figure_png`. The
    result is pixel-identical to drawing base and overlay on one figure (the overlay's artists sit above
    the base's in both), and costs only the overlay and the PNG encoding, not hundreds of text labels.
    """

    def __init__(
        self,
        size: tuple[float, float],
        limits: tuple[tuple[float, float], tuple[float, float]],
        draw_base: Callable[[Axes], None],
        draw_overlay: Callable[[Axes, object], None],
    ) -> None:
        self._size, self._limits = size, limits
        self._draw_base, self._draw_overlay = draw_base, draw_overlay
        self._rgba: np.ndarray | None = None
        self._overlay: tuple[Figure, Axes, list[Artist]] | None = None

    def _new_figure(self) -> tuple[Figure, Axes]:
        fig = Figure(figsize=self._size, dpi=DPI, facecolor="white")
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_axis_off()
        ax.set_xlim(*self._limits[0])
        ax.set_ylim(*self._limits[1])
        return fig, ax

    def base_rgba(self) -> np.ndarray:
        if self._rgba is None:
            fig, ax = self._new_figure()
            self._draw_base(ax)
            canvas = FigureCanvasAgg(fig)
            canvas.draw()
            self._rgba = np.asarray(canvas.buffer_rgba()).copy()
        return self._rgba

    def invalidate(self) -> None:
        self._rgba = None
        self._overlay = None

    def png(self, state: object) -> bytes:
        # One overlay figure is kept and reused: only the overlay's own artists are replaced, which
        # saves building a new Figure and Axes (and a new Agg buffer) for every redraw.
        if self._overlay is None:
            fig, ax = self._new_figure()
            fig.add_artist(_Raster(self.base_rgba()))
            self._overlay = (fig, ax, [])
        fig, ax, previous = self._overlay
        for artist in previous:
            artist.remove()
        before = set(ax.get_children())
        self._draw_overlay(ax, state)
        previous[:] = [a for a in ax.get_children() if a not in before]
        return figure_png(fig)

    def figure(self, state: object) -> Figure:
        """Base and overlay drawn as vectors on one new figure (what :meth:`png` reproduces)."""
        fig, ax = self._new_figure()
        self._draw_base(ax)
        self._draw_overlay(ax, state)
        return fig


# -- the byte strip ------------------------------------------------------------------------------------
CELL_W = 0.36  #: inches per byte cell
_ROW_H = 0.94  # inches per strip row: glyph zone, cells, marks and read bands
_TOP = 0.34  # header line
_BOTTOM = 0.46  # two legend lines
_MIN_COLUMNS = 17  # narrower strips would cut the legend
_PAD = 0.4  # cells of margin left and right
_GLYPH_Y, _CELL_Y0, _CELL_Y1, _MARK_Y, _BAND_Y0, _BAND_Y1 = 0.15, 0.30, 0.62, 0.665, 0.71, 0.76

ASCII_COLOUR = "#e9ecef"  #: one-byte characters, so that the multi-byte ones stand out
PALETTE = (
    "#74c0fc",
    "#8ce99a",
    "#ffd43b",
    "#b197fc",
    "#66d9e8",
    "#faa2c1",
)  #: one colour per multi-byte character
INVALID_COLOUR = "#ff6b6b"
CUT_COLOUR = "#1c7ed6"  #: a cut at a character boundary
WARNING_COLOUR = "#f76707"  #: a cut inside a multi-byte character
CORRUPTING_COLOUR = "#e03131"  #: sweep marks


def _as_bytes(data: bytes | str) -> bytes:
    if isinstance(data, str):
        return data.encode("utf-8")
    return bytes(data)


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
        pieces = []
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
    edge = {"edgecolor": "#868e96", "linewidth": 0.5, "zorder": 2}
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
    legend = [
        "dark cell: first byte of a character · light cell: continuation byte · red: invalid byte",
        "blue cut: between characters · orange cut: inside a character",
    ]
    if corrupting is not None:
        xs, ys = [], []
        for cut in corrupting:
            for column, top in layout.boundary_positions(cut):
                xs.append(column)
                ys.append(top + _MARK_Y)
        if xs:
            ax.scatter(xs, ys, marker="^", s=22, color=CORRUPTING_COLOUR, zorder=4, linewidths=0, gid="sweep")
        legend[1] += f" · ▲ {len(corrupting)} single cuts corrupt decode-each-read"
    for number, line in enumerate(legend):
        ax.text(
            0,
            layout.size[1] - _BOTTOM + 0.14 + 0.17 * number,
            line,
            ha="left",
            va="center",
            fontsize=7,
            family=SANS,
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
        header = (
            f"cuts at {','.join(map(str, cuts))} -> {len(cuts) + 1} reads (grey bars); "
            f"{inside} inside a character"
        )
    else:
        header = "no cuts: the whole stream arrives in one read"
    ax.text(
        0,
        _TOP / 2,
        f"{len(data)} bytes · {header}",
        ha="left",
        va="center",
        fontsize=8.5,
        family=SANS,
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
) -> Figure:
    """Draw ``data`` as a strip of byte cells, cut into reads at ``cuts``; return the figure.

    Each cell shows the byte in hex and is coloured by the character it belongs to (from
    :func:`lesson_lib.decoding.char_spans`): the first byte of a character plain, continuation bytes
    lighter and hatched, invalid bytes red, a character cut off by the end of the data outlined in
    orange. The character (see :func:`glyph_label`) is written above its span. A cut is a vertical
    line before the byte at its offset, blue at a character boundary and orange inside a character;
    grey bars under the cells show the reads. ``corrupting`` (from a sweep) marks with a red triangle
    every single-cut position that corrupts a per-read decode.

    With ``ax=None`` a new :class:`~matplotlib.figure.Figure` of :func:`strip_figsize` is created;
    a given ``ax`` is drawn into as is (its limits are set; its size is the caller's).
    """
    data = _as_bytes(data)
    cuts = sorted(set(cuts))
    for cut in cuts:
        if not 0 < cut < len(data):
            raise ValueError(f"cut {cut} is outside 0 < cut < {len(data)}")
    layout = _StripLayout(len(data), bytes_per_row)
    if ax is None:
        return ByteStripPicture(data, bytes_per_row, corrupting).figure(cuts)
    ax.set_axis_off()
    ax.set_xlim(*layout.limits[0])
    ax.set_ylim(*layout.limits[1])
    _draw_strip_base(ax, data, layout, corrupting)
    _draw_strip_cuts(ax, data, layout, cuts)
    return ax.figure  # type: ignore[return-value]


class ByteStripPicture:
    """The byte strip of one byte string, redrawn quickly for different cuts (what the widgets use).

    The cells, labels and sweep marks are rendered once; :meth:`png` draws only the cut lines and read
    bars over them. ``png(cuts)`` is pixel-identical to ``figure_png(draw_byte_strip(data, cuts))``.
    """

    def __init__(self, data: bytes | str, bytes_per_row: int = 24, corrupting: Sequence[int] | None = None):
        self.data = _as_bytes(data)
        self.layout = _StripLayout(len(self.data), bytes_per_row)
        self._corrupting = None if corrupting is None else sorted(set(corrupting))
        self._picture = _LayeredPicture(
            self.layout.size,
            self.layout.limits,
            lambda ax: _draw_strip_base(ax, self.data, self.layout, self._corrupting),
            lambda ax, cuts: _draw_strip_cuts(ax, self.data, self.layout, cuts),  # type: ignore[arg-type]
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


# -- every layer, read by read -------------------------------------------------------------------------
def sse_layer_rows(data: bytes | str, cuts: Iterable[int] = (), **parser_options: object) -> list[dict]:
    """Feed ``data`` cut at ``cuts`` to one :class:`~lesson_lib.sse.SSEParser`; the state after each read.

    One dict per read: ``read`` (1-based), ``start``/``end`` (byte offsets), ``chunk`` (the bytes),
    every key of :meth:`SSEParser.snapshot` (``held_bytes``, ``pending_line``, ``after_cr``,
    ``pending_data``, ``pending_event_type``, ``pending_id``, ``has_pending_event``, ``events`` (count),
    ...), ``dispatched`` (the events this read completed) and ``error`` (the message if this read made
    the parser fail, else ``None``; no read is fed after a failure).
    """
    data = _as_bytes(data)
    parser = SSEParser(**parser_options)  # type: ignore[arg-type]
    rows, position = [], 0
    for number, chunk in enumerate(split_at(data, cuts), start=1):
        error, dispatched = None, []
        try:
            dispatched = parser.feed(chunk)
        except BoundaryError as exc:
            error = str(exc)
        row = {"read": number, "start": position, "end": position + len(chunk), "chunk": chunk}
        row.update(parser.snapshot())
        row["dispatched"] = dispatched
        row["error"] = error
        rows.append(row)
        position += len(chunk)
        if error:
            break
    return rows


def sse_close_state(data: bytes | str, cuts: Iterable[int] = (), **parser_options: object) -> dict:
    """What ``close()`` says after all the reads: ``ended_mid`` and ``error`` (``None`` when clean)."""
    parser = SSEParser(**parser_options)  # type: ignore[arg-type]
    try:
        for chunk in split_at(_as_bytes(data), cuts):
            parser.feed(chunk)
    except BoundaryError as exc:
        return {"ended_mid": None, "error": str(exc), "failed_before_close": True}
    try:
        parser.close()
    except BoundaryError as exc:
        return {"ended_mid": parser.ended_mid, "error": str(exc), "failed_before_close": False}
    return {"ended_mid": parser.ended_mid, "error": None, "failed_before_close": False}


def line_layer_rows(
    data: bytes | str, cuts: Iterable[int] = (), *, endings: str = "any", errors: str = "strict"
) -> list[dict]:
    """The character and line layers alone, read by read: an IncrementalUTF8Decoder feeding a LineSplitter.

    One dict per read: ``read``, ``start``, ``end``, ``chunk``, ``text`` (what the decoder released),
    ``held_bytes``, ``pending_line``, ``after_cr``, ``completed_lines`` (lines this read finished),
    ``lines_total`` and ``error``.
    """
    data = _as_bytes(data)
    decoder = IncrementalUTF8Decoder(errors)
    splitter = LineSplitter(endings, None)
    rows, position = [], 0
    for number, chunk in enumerate(split_at(data, cuts), start=1):
        error, text, lines = None, "", []
        try:
            text = decoder.feed(chunk)
            lines = splitter.feed(text)
        except BoundaryError as exc:
            error = str(exc)
        rows.append(
            {
                "read": number,
                "start": position,
                "end": position + len(chunk),
                "chunk": chunk,
                "text": text,
                "held_bytes": decoder.held_bytes,
                "pending_line": splitter.pending_text,
                "after_cr": splitter.after_cr,
                "completed_lines": lines,
                "lines_total": splitter.lines_out,
                "error": error,
            }
        )
        position += len(chunk)
        if error:
            break
    return rows


def _event_summary(row: dict) -> str:
    parts = []
    if row.get("pending_event_type"):
        parts.append(f"event={row['pending_event_type']!r}")
    if row.get("pending_data"):
        parts.append("data=[" + ", ".join(repr(v) for v in row["pending_data"]) + "]")
    if row.get("pending_id"):
        parts.append(f"id={row['pending_id']!r}")
    if not parts:
        return "fields pending (no data)" if row.get("has_pending_event") else "—"
    return " ".join(parts)


def _dispatched_summary(row: dict) -> str:
    events = row.get("dispatched") or []
    if not events:
        return "—"
    return "; ".join(
        f"{getattr(e, 'type', 'comment')}: {getattr(e, 'data', getattr(e, 'text', ''))!r}" for e in events
    )


#: Columns of :func:`draw_layers`: key -> (header, width in inches, text of a row, is the cell "active").
LAYER_COLUMNS: dict[str, tuple[str, float, Callable[[dict], str], Callable[[dict], bool]]] = {
    "read": (
        "read (bytes)",
        2.7,
        lambda r: f"#{r['read']} [{r['start']}:{r['end']}] {chunk_text(r['chunk'])}",
        lambda r: False,
    ),
    "character": (
        "held bytes",
        1.25,
        lambda r: r["held_bytes"].hex(" ") if r["held_bytes"] else "—",
        lambda r: bool(r["held_bytes"]),
    ),
    "line": (
        "pending line",
        2.5,
        lambda r: (
            (repr(r["pending_line"]) if r["pending_line"] else "—") + ("  +CR" if r["after_cr"] else "")
        ),
        lambda r: bool(r["pending_line"]) or r["after_cr"],
    ),
    "lines": (
        "lines completed",
        2.5,
        lambda r: ", ".join(repr(line) for line in r["completed_lines"]) or "—",
        lambda r: bool(r["completed_lines"]),
    ),
    "event": ("event so far", 2.7, _event_summary, lambda r: bool(r.get("has_pending_event"))),
    "dispatched": (
        "dispatched",
        2.7,
        _dispatched_summary,
        lambda r: bool(r.get("dispatched")),
    ),
}
_ACTIVE = {
    "character": "#ffe8cc",
    "line": "#fff3bf",
    "lines": "#d3f9d8",
    "event": "#e7f5ff",
    "dispatched": "#d3f9d8",
}
_LAYER_ROW_H, _LAYER_HEAD_H, _LAYER_TITLE_H = 0.34, 0.36, 0.34


def default_columns(rows: Sequence[dict]) -> tuple[str, ...]:
    """The columns that fit the rows: SSE rows get every layer, line rows the character and line layers."""
    if rows and "completed_lines" in rows[0]:
        return ("read", "character", "line", "lines")
    return ("read", "character", "line", "event", "dispatched")


@dataclass(frozen=True)
class _LayerLayout:
    rows: int
    widths: tuple[float, ...]

    @property
    def size(self) -> tuple[float, float]:
        height = _LAYER_TITLE_H + _LAYER_HEAD_H + max(self.rows, 1) * _LAYER_ROW_H + 0.1
        return _whole_pixels(sum(self.widths) + 0.2, height)

    @property
    def limits(self) -> tuple[tuple[float, float], tuple[float, float]]:
        w, h = self.size
        return (-0.1, w - 0.1), (h, 0.0)

    def row_top(self, index: int) -> float:
        return _LAYER_TITLE_H + _LAYER_HEAD_H + index * _LAYER_ROW_H


def _draw_layers_base(ax: Axes, rows: Sequence[dict], columns: Sequence[str], layout: _LayerLayout) -> None:
    ax.text(
        0,
        _LAYER_TITLE_H / 2,
        f"the state of every layer after each read ({len(rows)} reads)",
        ha="left",
        va="center",
        fontsize=9,
        family=SANS,
        parse_math=False,
        zorder=3,
    )
    cells, colours = [], []
    x = 0.0
    for key, width in zip(columns, layout.widths, strict=True):
        header, _, text_of, active = LAYER_COLUMNS[key]
        cells.append(Rectangle((x, _LAYER_TITLE_H), width, _LAYER_HEAD_H))
        colours.append("#dee2e6")
        ax.text(
            x + 0.06,
            _LAYER_TITLE_H + _LAYER_HEAD_H / 2,
            header,
            ha="left",
            va="center",
            fontsize=8.5,
            family=SANS,
            fontweight="bold",
            parse_math=False,
            zorder=3,
        )
        for index, row in enumerate(rows):
            top = layout.row_top(index)
            cells.append(Rectangle((x, top), width, _LAYER_ROW_H))
            if row.get("error") and key == "read":
                colours.append("#ffc9c9")
            else:
                colours.append(_ACTIVE.get(key, "#f8f9fa") if active(row) else "white")
            text = row["error"] if (row.get("error") and key == "dispatched") else text_of(row)
            text = _fit(visible_text(text), int(width * 72 / (7.5 * 0.62)))
            ax.text(
                x + 0.06,
                top + _LAYER_ROW_H / 2,
                text,
                ha="left",
                va="center",
                fontsize=7.5,
                family=_families_for(text, MONO),
                parse_math=False,
                zorder=3,
            )
        x += width
    ax.add_collection(PatchCollection(cells, facecolor=colours, edgecolor="#adb5bd", linewidth=0.6, zorder=2))


def _draw_layers_step(ax: Axes, rows: Sequence[dict], layout: _LayerLayout, step: int | None) -> None:
    if step is None or not rows:
        return
    width = sum(layout.widths)
    index = min(max(step, 1), len(rows)) - 1
    if index + 1 < len(rows):
        top = layout.row_top(index + 1)
        ax.add_patch(
            Rectangle(
                (0, top),
                width,
                layout.row_top(len(rows)) - top,
                facecolor="white",
                alpha=0.72,
                linewidth=0,
                zorder=10,
            )
        )
    ax.add_patch(
        Rectangle(
            (0, layout.row_top(index)),
            width,
            _LAYER_ROW_H,
            facecolor="none",
            edgecolor=CUT_COLOUR,
            linewidth=2.2,
            zorder=11,
        )
    )


class LayersPicture:
    """:func:`draw_layers` for a fixed set of rows, redrawn quickly as the highlighted step moves."""

    def __init__(self, rows: Sequence[dict], columns: Sequence[str] | None = None) -> None:
        self.rows = list(rows)
        self.columns = tuple(columns or default_columns(self.rows))
        unknown = [c for c in self.columns if c not in LAYER_COLUMNS]
        if unknown:
            raise ValueError(f"unknown columns {unknown}; known: {list(LAYER_COLUMNS)}")
        self.layout = _LayerLayout(len(self.rows), tuple(LAYER_COLUMNS[c][1] for c in self.columns))
        self._picture = _LayeredPicture(
            self.layout.size,
            self.layout.limits,
            lambda ax: _draw_layers_base(ax, self.rows, self.columns, self.layout),
            lambda ax, step: _draw_layers_step(ax, self.rows, self.layout, step),  # type: ignore[arg-type]
        )

    def png(self, step: int | None = None) -> bytes:
        return self._picture.png(step)

    def figure(self, step: int | None = None) -> Figure:
        return self._picture.figure(step)


def draw_layers(
    snapshots: Sequence[dict],
    columns: Sequence[str] | None = None,
    *,
    step: int | None = None,
    ax: Axes | None = None,
) -> Figure:
    """The course's central picture: one row per read, one column per layer, each cell that layer's state.

    ``snapshots`` are the rows of :func:`sse_layer_rows` (or :func:`line_layer_rows`): the parser's own
    inspection state after each read. Columns (see :data:`LAYER_COLUMNS`): ``read`` (the bytes of the
    read), ``character`` (held bytes of an unfinished character), ``line`` (the unfinished line, ``+CR``
    when a CR may pair with the next LF), ``lines`` (lines completed), ``event`` (the fields of the event
    so far) and ``dispatched`` (events completed by this read). A cell is tinted when its layer holds
    something. ``step`` (1-based) outlines that read and fades the later ones.
    """
    picture = LayersPicture(snapshots, columns)
    if ax is None:
        return picture.figure(step)
    ax.set_axis_off()
    ax.set_xlim(*picture.layout.limits[0])
    ax.set_ylim(*picture.layout.limits[1])
    _draw_layers_base(ax, picture.rows, picture.columns, picture.layout)
    _draw_layers_step(ax, picture.rows, picture.layout, step)
    return ax.figure  # type: ignore[return-value]


# -- what a stream proves, cut-off by cut-off ----------------------------------------------------------------
#: Colours of :func:`draw_outcome_map`, by outcome label (``truncated`` split by where it was cut).
OUTCOME_COLOURS = {
    "completed": "#2f9e44",
    "incomplete": "#f59f00",
    "truncated at completion": "#ffc9c9",
    "truncated at event": "#ffa8a8",
    "truncated at line": "#ff8787",
    "truncated at character": "#e03131",
    "truncated": "#fa5252",
    "service_error": "#7048e8",
    "decode_error": "#495057",
    "limit_exceeded": "#868e96",
    "cancelled": "#adb5bd",
}
_MAP_W, _MAP_BAR_Y0, _MAP_BAR_Y1 = 9.0, 0.42, 0.78


def outcome_label(result) -> str:
    """A short label for a :class:`~lesson_lib.completion.StreamResult`: outcome, and where it was cut."""
    outcome = str(result.outcome)
    if outcome == "truncated" and result.truncated_at:
        return f"truncated at {result.truncated_at}"
    return outcome


def _outcome_runs(labels: Sequence[str]) -> list[tuple[int, int, str]]:
    runs: list[tuple[int, int, str]] = []
    for index, label in enumerate(labels):
        if runs and runs[-1][2] == label:
            runs[-1] = (runs[-1][0], index + 1, label)
        else:
            runs.append((index, index + 1, label))
    return runs


def _map_size(labels: Sequence[str]) -> tuple[float, float]:
    kinds = len(dict.fromkeys(labels))
    return _whole_pixels(_MAP_W + 0.4, 1.25 + 0.17 * ((kinds + 2) // 3))


def _draw_map_base(ax: Axes, labels: Sequence[str], title: str) -> None:
    n = max(len(labels) - 1, 1)
    scale = _MAP_W / n
    bars, colours = [], []
    for start, end, label in _outcome_runs(labels):
        # cut-off c covers [c, c+1) on the byte axis; the last cut-off (the whole body) gets a sliver
        x0, x1 = start * scale, min(end, n + 1) * scale
        bars.append(Rectangle((x0, _MAP_BAR_Y0), max(x1 - x0, 0.02), _MAP_BAR_Y1 - _MAP_BAR_Y0))
        colours.append(OUTCOME_COLOURS.get(label, "#ced4da"))
    ax.add_collection(PatchCollection(bars, facecolor=colours, linewidth=0, zorder=2, gid="outcomes"))
    ax.text(0, 0.17, title, ha="left", va="center", fontsize=8.5, family=SANS, parse_math=False, zorder=3)
    for tick in (0, n // 4, n // 2, 3 * n // 4, n):
        ax.text(
            tick * scale,
            _MAP_BAR_Y1 + 0.1,
            str(tick),
            ha="center",
            va="center",
            fontsize=6.5,
            family=SANS,
            color="#495057",
            parse_math=False,
            zorder=3,
        )
    for number, label in enumerate(dict.fromkeys(labels)):
        row, column = divmod(number, 3)
        x, y = column * 3.0, _MAP_BAR_Y1 + 0.32 + 0.17 * row
        ax.add_patch(
            Rectangle(
                (x, y - 0.05),
                0.14,
                0.1,
                facecolor=OUTCOME_COLOURS.get(label, "#ced4da"),
                linewidth=0,
                zorder=2,
            )
        )
        ax.text(
            x + 0.2, y, label, ha="left", va="center", fontsize=7, family=SANS, parse_math=False, zorder=3
        )


def _draw_map_cutoff(ax: Axes, labels: Sequence[str], cutoff: int | None) -> None:
    if cutoff is None:
        return
    n = max(len(labels) - 1, 1)
    x = cutoff * _MAP_W / n
    ax.plot([x, x], [_MAP_BAR_Y0 - 0.08, _MAP_BAR_Y1 + 0.03], color="#1c7ed6", linewidth=2.2, zorder=11)
    ax.text(
        x,
        _MAP_BAR_Y0 - 0.1,
        f"cut-off {cutoff}: {labels[cutoff]}",
        ha="center",
        va="bottom",
        fontsize=7.5,
        family=SANS,
        color="#1c7ed6",
        parse_math=False,
        zorder=12,
    )


class OutcomeMapPicture:
    """:func:`draw_outcome_map` for fixed labels, redrawn quickly as the cut-off marker moves."""

    def __init__(self, labels: Sequence[str], title: str = "") -> None:
        if not labels:
            raise ValueError("at least one cut-off is needed")
        self.labels = list(labels)
        size = _map_size(self.labels)
        self._picture = _LayeredPicture(
            size,
            ((-0.2, size[0] - 0.2), (size[1], 0.0)),
            lambda ax: _draw_map_base(ax, self.labels, title),
            lambda ax, cutoff: _draw_map_cutoff(ax, self.labels, cutoff),  # type: ignore[arg-type]
        )

    def png(self, cutoff: int | None = None) -> bytes:
        return self._picture.png(cutoff)

    def figure(self, cutoff: int | None = None) -> Figure:
        return self._picture.figure(cutoff)


def draw_outcome_map(labels: Sequence[str], cutoff: int | None = None, *, title: str = "") -> Figure:
    """What the stream proves if the body stops after each byte: one coloured bar along the byte axis.

    ``labels[c]`` is :func:`outcome_label` of the stream cut off after ``c`` bytes (``c`` from 0 to the
    whole body). Runs of the same label are drawn as one bar; ``cutoff`` adds a marker.
    """
    return OutcomeMapPicture(labels, title).figure(cutoff)


__all__ = [
    "CELL_W",
    "CONTROL_NAMES",
    "DPI",
    "LAYER_COLUMNS",
    "OUTCOME_COLOURS",
    "ByteStripPicture",
    "LayersPicture",
    "OutcomeMapPicture",
    "chunk_text",
    "default_columns",
    "draw_byte_strip",
    "draw_layers",
    "draw_outcome_map",
    "figure_png",
    "glyph_font",
    "glyph_label",
    "line_layer_rows",
    "outcome_label",
    "show",
    "sse_close_state",
    "sse_layer_rows",
    "strip_figsize",
    "visible_text",
]


# -- the course map -------------------------------------------------------------------------------------
#: The five boundaries: name, what arrives there, and the state a reader carries between reads.
BOUNDARIES = (
    ("chunk", "a network read:\nsome bytes", "nothing\n(the transport decides)"),
    ("character", "UTF-8 text", "0-3 held bytes of an\nunfinished character"),
    ("line", "text up to\nCR, LF or CRLF", "the unfinished line,\na CR that may pair with LF"),
    ("event", "an SSE event,\nan NDJSON value", "the event's fields so far"),
    ("completion", "the service's own\n\"done\"", "the last confirmed\nbusiness stage"),
)


def draw_boundaries() -> Figure:
    """The course on one picture: the five boundaries left to right, what arrives at each and the state
    each carries between reads. ASCII only, so it looks the same with any fonts."""
    fig = Figure(figsize=(11, 3.2), dpi=DPI)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, len(BOUNDARIES) * 2.2)
    ax.set_ylim(0, 3.2)
    ax.axis("off")
    for number, (name, arrives, state) in enumerate(BOUNDARIES):
        x = 0.15 + number * 2.2
        ax.add_patch(Rectangle((x, 1.55), 1.9, 1.2, facecolor="#e7f0fa", edgecolor="#1c5d99", linewidth=1.4))
        ax.text(x + 0.95, 2.5, name, ha="center", va="center", fontsize=13, weight="bold", family=SANS)
        ax.text(x + 0.95, 1.95, arrives, ha="center", va="center", fontsize=9.5, family=SANS)
        ax.add_patch(Rectangle((x, 0.25), 1.9, 1.0, facecolor="#fff4e0", edgecolor="#b36b00", linewidth=1))
        ax.text(x + 0.95, 0.75, state, ha="center", va="center", fontsize=9, family=SANS, color="#5c3700")
        if number:
            ax.annotate("", xy=(x - 0.02, 2.15), xytext=(x - 0.28, 2.15),
                        arrowprops={"arrowstyle": "-|>", "color": "#1c5d99", "lw": 1.6})
    ax.text(0.15, 3.0, "what arrives", fontsize=9, family=SANS, color="#1c5d99")
    ax.text(0.15, 1.33, "state carried from one read to the next", fontsize=9, family=SANS, color="#b36b00")
    return fig
