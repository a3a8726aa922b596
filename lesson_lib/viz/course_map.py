"""The course map: the six boundaries on one picture, ASCII only, the same with any fonts."""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from .common import DPI, SANS

#: The six boundaries: name, what arrives there, and the state a reader carries between reads (the chunk
#: carries none: a read is whatever the transport delivered).
BOUNDARIES = (
    ("chunk", "a network read:\nsome bytes", "nothing\n(the transport decides)"),
    ("character", "UTF-8 text", "0-3 held bytes of an\nunfinished character"),
    ("line", "text up to\nCR, LF or CRLF", "the unfinished line,\na CR that may pair with LF"),
    ("event", "an SSE event,\nan NDJSON value", "the event's fields so far"),
    ("value", "a tool call's\narguments, closed", "each open call's\ntext so far"),
    ("completion", "the service's own\n\"done\"", "the last confirmed\nbusiness stage"),
)


def draw_boundaries() -> Figure:
    """The course on one picture: the six boundaries left to right, what arrives at each and the state
    each carries between reads. ASCII only, so it looks the same with any fonts."""
    fig = Figure(figsize=(13, 3.2), dpi=DPI)
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
