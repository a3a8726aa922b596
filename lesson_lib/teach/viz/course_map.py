"""The course map: the six boundaries on one picture, in the current language (see :mod:`lesson_lib.i18n`)."""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ...i18n import text
from .common import DPI
from .glyphs import drawable

#: The six boundaries, left to right (the chunk carries no state: a read is whatever the transport
#: delivered). What each is called, what arrives there and what it carries are :func:`boundary_texts`.
BOUNDARIES = ("chunk", "character", "line", "event", "value", "completion")


def boundary_texts() -> list[tuple[str, str, str]]:
    """For each boundary of :data:`BOUNDARIES`, in the current language: its name, what arrives there,
    and the state a reader carries between reads."""
    return [
        (
            text(f"viz.course_map.{name}.name"),
            text(f"viz.course_map.{name}.arrives"),
            text(f"viz.course_map.{name}.state"),
        )
        for name in BOUNDARIES
    ]


def _label(ax, x: float, y: float, label: str, **options) -> None:
    shown, families = drawable(label)
    ax.text(x, y, shown, family=families, **options)


def draw_boundaries() -> Figure:
    """The course on one picture: the six boundaries left to right, what arrives at each and the state
    each carries between reads. The English map is ASCII only, so it looks the same with any fonts; the
    Chinese one draws with Noto Sans CJK (see :func:`lesson_lib.teach.viz.glyphs.drawable`)."""
    fig = Figure(figsize=(13, 3.2), dpi=DPI)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, len(BOUNDARIES) * 2.2)
    ax.set_ylim(0, 3.2)
    ax.axis("off")
    for number, (name, arrives, state) in enumerate(boundary_texts()):
        x = 0.15 + number * 2.2
        ax.add_patch(Rectangle((x, 1.55), 1.9, 1.2, facecolor="#e7f0fa", edgecolor="#1c5d99", linewidth=1.4))
        _label(ax, x + 0.95, 2.5, name, ha="center", va="center", fontsize=13, weight="bold")
        _label(ax, x + 0.95, 1.95, arrives, ha="center", va="center", fontsize=9.5)
        ax.add_patch(Rectangle((x, 0.25), 1.9, 1.0, facecolor="#fff4e0", edgecolor="#b36b00", linewidth=1))
        _label(ax, x + 0.95, 0.75, state, ha="center", va="center", fontsize=9, color="#5c3700")
        if number:
            ax.annotate("", xy=(x - 0.02, 2.15), xytext=(x - 0.28, 2.15),
                        arrowprops={"arrowstyle": "-|>", "color": "#1c5d99", "lw": 1.6})
    _label(ax, 0.15, 3.0, text("viz.course_map.what_arrives"), fontsize=9, color="#1c5d99")
    _label(ax, 0.15, 1.33, text("viz.course_map.state_carried"), fontsize=9, color="#b36b00")
    return fig
