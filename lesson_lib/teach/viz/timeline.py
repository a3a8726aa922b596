"""A timeline of one stream's three clocks: bytes, complete events (heartbeats included) and business
progress, each on its own lane, with the limit of the clock that ran out and the moment it did."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ...i18n import text as _t
from .glyphs import drawable
from .png import _whole_pixels

#: The lanes, top to bottom: the clock, its colour, and the timeout that watches it (the lane's label, in
#: the current language, is the string ``viz.timeline.lane.<clock>``).
LANES = (
    ("byte", "#74c0fc", "idle_timeout"),
    ("event", "#b197fc", None),
    ("progress", "#2f9e44", "progress_timeout"),
)
FIRED_COLOUR = "#e03131"
_W, _LANE_H = 9.0, 0.55


def expiry(marks: Sequence[tuple[float, str]], clock: str, limit: float) -> tuple[float, float]:
    """``(since, until)``: when the clock ``clock`` (a timeout name) last moved, and when it ran out."""
    if clock == "deadline":
        return 0.0, limit
    lane = {"idle_timeout": "byte", "progress_timeout": "progress"}[clock]
    since = max((t for t, name in marks if name == lane), default=0.0)
    return since, since + limit


def draw_clock_timeline(
    marks: Sequence[tuple[float, str]],
    limits: Mapping[str, float | None],
    fired: str | None = None,
    *,
    title: str = "",
) -> Figure:
    """The three clocks' moves (``marks`` from :class:`lesson_lib.core.activity.ActivityLog`) on one time
    axis.

    ``limits`` maps ``idle_timeout``, ``progress_timeout`` and ``deadline`` to seconds (or ``None``);
    ``fired`` names the clock that ran out (``error.kind`` of a ``timed_out`` result), drawn as its limit
    span, from the clock's last move to the moment it ran out, and a red line there. Times are those of
    an injected clock (a fake clock in lessons), so the picture is the same on every run.
    """
    end = max((t for t, _ in marks), default=0.0)
    limit = None if fired is None else limits.get(fired)
    span = None if fired is None or limit is None else expiry(marks, fired, float(limit))
    if span is not None:
        end = max(end, span[1])
    end = end * 1.08 or 1.0
    width, height = _whole_pixels(_W + 2.2, 0.55 + _LANE_H * len(LANES) + 0.55)
    fig = Figure(figsize=(width, height))
    ax = fig.add_axes((2.0 / width, 0.45 / height, _W / width, (_LANE_H * len(LANES) + 0.25) / height))
    ax.set_xlim(0, end)
    ax.set_ylim(-0.5, len(LANES) - 0.25)
    ax.set_yticks([])
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    ax.tick_params(axis="x", labelsize=8)
    xlabel, families = drawable(_t("viz.timeline.xlabel"))
    ax.set_xlabel(xlabel, fontsize=8.5, family=families)
    for row, (name, colour, watcher) in enumerate(LANES):
        y = len(LANES) - 1 - row
        label, families = drawable(_t(f"viz.timeline.lane.{name}"))
        fig.text(
            1.9 / width,
            ax.transData.transform((0, y))[1] / (height * 100),
            label,
            ha="right",
            va="center",
            fontsize=9,
            family=families,
        )
        ax.axhline(y, color="#dee2e6", linewidth=0.8, zorder=1)
        times = [t for t, lane in marks if lane == name]
        ax.scatter(
            times, [y] * len(times), s=26, color=colour, edgecolors="#343a40", linewidths=0.5, zorder=3
        )
        if span is not None and watcher == fired:
            ax.add_patch(
                Rectangle(
                    (span[0], y - 0.3),
                    span[1] - span[0],
                    0.6,
                    facecolor="#ffe3e3",
                    edgecolor=FIRED_COLOUR,
                    linewidth=0.8,
                    zorder=2,
                )
            )
    if span is not None:
        ax.axvline(span[1], color=FIRED_COLOUR, linewidth=1.6, zorder=4)
        ran_out, families = drawable(_t("viz.timeline.ran_out", clock=fired, limit=f"{limit:g}"))
        ax.text(
            span[1],
            len(LANES) - 0.35,
            ran_out,
            color=FIRED_COLOUR,
            fontsize=9,
            family=families,
            ha="left" if span[1] < end * 0.7 else "right",
            va="center",
        )
    if title:
        shown, families = drawable(title)
        fig.text(0.1 / width, 1 - 0.22 / height, shown, fontsize=10, family=families, ha="left", va="center")
    return fig
