"""Tool calls along the byte axis: when each call opened, where each arguments fragment completed, and
the byte after which the service closed it. One row per call, plus one for reasoning and one for text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from matplotlib.figure import Figure

from ...i18n import text as _t
from .common import CUT_COLOUR, SANS
from .glyphs import drawable
from .png import _whole_pixels

OPEN_COLOUR = "#ffd8a8"  #: a call that has started and is not closed: its text is unfinished
CLOSED_COLOUR = "#b2f2bb"  #: a call the service closed: its text is whole
FRAGMENT_COLOUR = "#e8590c"
REASONING_COLOUR = "#d0bfff"
TEXT_COLOUR = "#a5d8ff"
_W = 9.0


@dataclass
class Track:
    """One row: a label, where it starts, the byte offsets of its pieces, and where it was closed."""

    label: str
    start: int
    pieces: list[int] = field(default_factory=list)
    closed: int | None = None
    kind: str = "call"  # "call", "reasoning" or "text"


def draw_value_timeline(
    length: int, tracks: Sequence[Track], cutoff: int | None = None, *, title: str = ""
) -> Figure:
    """The tracks along a body of ``length`` bytes. A piece at offset ``o`` completed when ``o`` bytes had
    arrived; a call row is orange while open and green from the byte its close arrived; ``cutoff`` is marked
    in blue, and everything right of it has not arrived."""
    rows = max(len(tracks), 1)
    width, height = _whole_pixels(_W + 2.6, 0.75 + 0.42 * rows)
    fig = Figure(figsize=(width, height))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(-2.3, _W + 0.3)
    ax.set_ylim(height, 0)
    ax.axis("off")
    scale = _W / max(length, 1)
    shown, families = drawable(title, SANS)
    ax.text(-2.2, 0.22, shown, ha="left", va="center", fontsize=8.5, family=families, parse_math=False)
    for row, track in enumerate(tracks):
        y = 0.55 + 0.42 * row
        shown, families = drawable(track.label, SANS)
        ax.text(-2.2, y, shown, ha="left", va="center", fontsize=7.5, family=families, parse_math=False)
        ax.add_patch(_bar(0, length * scale, y, "#f1f3f5"))
        if track.kind == "call":
            end = track.closed if track.closed is not None else length
            ax.add_patch(_bar(track.start * scale, (end - track.start) * scale, y, OPEN_COLOUR))
            if track.closed is not None:
                ax.add_patch(_bar(track.closed * scale, (length - track.closed) * scale, y, CLOSED_COLOUR))
                ax.plot([track.closed * scale] * 2, [y - 0.15, y + 0.15], color="#2b8a3e", linewidth=2)
        colour = {"call": FRAGMENT_COLOUR, "reasoning": "#6741d9", "text": "#1971c2"}[track.kind]
        for offset in track.pieces:
            ax.plot([offset * scale] * 2, [y - 0.11, y + 0.11], color=colour, linewidth=1)
    if cutoff is not None:
        x = cutoff * scale
        bottom = 0.55 + 0.42 * (rows - 1) + 0.2
        ax.add_patch(
            _bar(x, max(length * scale - x, 0), (0.55 + bottom) / 2, "#ffffff", 0.45 + 0.42 * (rows - 1), 0.6)
        )
        ax.plot([x, x], [0.35, bottom], color=CUT_COLOUR, linewidth=2)
        shown, families = drawable(_t("viz.values_map.cutoff", cutoff=cutoff), SANS)
        ax.text(
            x,
            bottom + 0.05,
            shown,
            ha="center",
            va="top",
            fontsize=7,
            family=families,
            color=CUT_COLOUR,
        )
    return fig


def _bar(x: float, w: float, y: float, colour: str, h: float = 0.26, alpha: float = 1.0):
    from matplotlib.patches import Rectangle

    return Rectangle((x, y - h / 2), w, h, facecolor=colour, linewidth=0, alpha=alpha)
