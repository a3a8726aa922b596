"""PNG output: the same bytes on every run on the same machine (no timestamp, no software tag), and
pictures whose static part is rendered once and reused pixel for pixel."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from typing import Generic, TypeVar

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .common import DPI


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

    def draw(self, renderer: RendererBase) -> None:
        gc = renderer.new_gc()
        renderer.draw_image(gc, 0, 0, self._flipped)
        gc.restore()


#: What an overlay is drawn for: a step, a set of cuts, a cut-off...
State = TypeVar("State")


class _LayeredPicture(Generic[State]):
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
        draw_overlay: Callable[[Axes, State], None],
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

    def png(self, state: State) -> bytes:
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

    def figure(self, state: State) -> Figure:
        """Base and overlay drawn as vectors on one new figure (what :meth:`png` reproduces)."""
        fig, ax = self._new_figure()
        self._draw_base(ax)
        self._draw_overlay(ax, state)
        return fig
