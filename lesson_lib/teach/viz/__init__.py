"""Pictures of the boundaries: the bytes of a stream as a strip of cells, and every layer's state per read.

Everything here draws on a :class:`matplotlib.figure.Figure` created explicitly (never ``pyplot``, so
nothing leaks into a notebook's implicit figure state), with explicit sizes in inches and a fixed
:data:`DPI`; :func:`figure_png` turns a figure into PNG bytes that are the same on every run on the
same machine (no timestamp, no software tag).

One module per concern: :mod:`.glyphs` (which characters are drawn as glyphs, in which font),
:mod:`.png` (PNG output, cached rasters), :mod:`.strip` (the byte strip), :mod:`.layers` (every layer,
read by read), :mod:`.outcome_map` (what a stream proves per cut-off), :mod:`.course_map` (the five
boundaries), :mod:`.timeline` (the three clocks of one stream); :mod:`.common` holds what they share.
"""

from __future__ import annotations

# Every name is imported for re-export. Those not in ``__all__`` (the colours and font names, the course
# map, and the private helpers that widgets.py and the tests use) stay out of ``import *``, as before.
from .common import (
    ASCII_COLOUR,
    CORRUPTING_COLOUR,
    CUT_COLOUR,
    DPI,
    INVALID_COLOUR,
    MONO,
    PALETTE,
    SANS,
    WARNING_COLOUR,
)
from .course_map import BOUNDARIES, boundary_texts, draw_boundaries
from .glyphs import (
    CONTROL_NAMES,
    PREFERRED_FAMILIES,
    _reset_font_caches,
    chunk_text,
    display_width,
    drawable,
    glyph_font,
    glyph_label,
    pad,
    visible_text,
)
from .layers import (
    LAYER_COLUMNS,
    LayersPicture,
    _dispatched_summary,
    _event_summary,
    _last_id_summary,
    column_header,
    default_columns,
    draw_layers,
    line_layer_rows,
    sse_close_state,
    sse_layer_rows,
)
from .outcome_map import (
    MIN_RANGE_PX,
    OUTCOME_COLOURS,
    OutcomeMapPicture,
    draw_outcome_map,
    outcome_label,
    outcome_map_layout,
    outcome_ranges,
    outcome_text,
)
from .png import figure_png, show
from .strip import CELL_W, ByteStripPicture, _lighter, draw_byte_strip, strip_figsize
from .timeline import draw_clock_timeline
from .values_map import Track, draw_value_timeline

__all__ = [
    "CELL_W",
    "CONTROL_NAMES",
    "DPI",
    "LAYER_COLUMNS",
    "MIN_RANGE_PX",
    "OUTCOME_COLOURS",
    "ByteStripPicture",
    "LayersPicture",
    "OutcomeMapPicture",
    "Track",
    "chunk_text",
    "column_header",
    "default_columns",
    "display_width",
    "draw_byte_strip",
    "draw_clock_timeline",
    "draw_layers",
    "draw_outcome_map",
    "draw_value_timeline",
    "drawable",
    "figure_png",
    "glyph_font",
    "glyph_label",
    "line_layer_rows",
    "outcome_label",
    "outcome_map_layout",
    "outcome_ranges",
    "outcome_text",
    "pad",
    "show",
    "sse_close_state",
    "sse_layer_rows",
    "strip_figsize",
    "visible_text",
]
