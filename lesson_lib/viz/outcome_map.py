"""What a stream proves, cut-off by cut-off: one bar along the byte axis, coloured by outcome."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.axes import Axes
from matplotlib.collections import PatchCollection
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from .common import SANS
from .png import _LayeredPicture, _whole_pixels

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
    "timed_out": "#d9480f",
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
