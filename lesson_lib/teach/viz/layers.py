"""Every layer, read by read: each parser's own inspection state after each read, and the grid that
draws it (one row per read, one column per layer)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Unpack

from matplotlib.axes import Axes
from matplotlib.collections import PatchCollection
from matplotlib.figure import Figure, SubFigure
from matplotlib.patches import Rectangle

from ...core.chunking import split_at
from ...core.decoding import IncrementalUTF8Decoder
from ...core.errors import BoundaryError
from ...core.lines import LineSplitter
from ...core.sse import SSEParser, SSEParserOptions
from ...i18n import text as _t
from .common import CUT_COLOUR, MONO, _as_bytes
from .glyphs import _families_for, _fit, chunk_text, drawable, visible_text
from .png import _LayeredPicture, _whole_pixels


def sse_layer_rows(
    data: bytes | str, cuts: Iterable[int] = (), **parser_options: Unpack[SSEParserOptions]
) -> list[dict]:
    """Feed ``data`` cut at ``cuts`` to one :class:`~lesson_lib.core.sse.SSEParser`; the state after each
    read.

    One dict per read: ``read`` (1-based), ``start``/``end`` (byte offsets), ``chunk`` (the bytes),
    every key of :meth:`SSEParser.snapshot` (``held_bytes``, ``pending_line``, ``after_cr``,
    ``pending_data``, ``pending_event_type``, ``pending_id``, ``has_pending_event``, ``events`` (count),
    ...), ``dispatched`` (the events this read completed) and ``error`` (the message if this read made
    the parser fail, else ``None``; no read is fed after a failure).
    """
    data = _as_bytes(data)
    parser = SSEParser(**parser_options)
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


def sse_close_state(
    data: bytes | str, cuts: Iterable[int] = (), **parser_options: Unpack[SSEParserOptions]
) -> dict:
    """What ``close()`` says after all the reads: ``ended_mid`` and ``error`` (``None`` when clean)."""
    parser = SSEParser(**parser_options)
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
    # The id buffer outlives every dispatch (it becomes the last event ID string); only an id that arrived
    # for the event being built, and so differs from that string, belongs to this event.
    if row.get("pending_id", "") != row.get("last_event_id", ""):
        parts.append(f"id={row['pending_id']!r}")
    if not parts:
        return _t("viz.layers.fields_pending") if row.get("has_pending_event") else "—"
    return " ".join(parts)


def _last_id_summary(row: dict) -> str:
    """The last event ID string (what a reconnection would send), apart from the event being built."""
    last = row.get("last_event_id", "")
    return _t("viz.layers.last_event_id", last=repr(last)) if last else ""


def _dispatched_summary(row: dict) -> str:
    events = row.get("dispatched") or []
    if not events:
        return "—"
    return "; ".join(
        f"{getattr(e, 'type', 'comment')}: {getattr(e, 'data', getattr(e, 'text', ''))!r}" for e in events
    )


#: Columns of :func:`draw_layers`: key -> (width in inches, text of a row, is the cell "active"); the
#: header, in the current language, is :func:`column_header`.
LAYER_COLUMNS: dict[str, tuple[float, Callable[[dict], str], Callable[[dict], bool]]] = {
    "read": (
        2.7,
        lambda r: f"#{r['read']} [{r['start']}:{r['end']}] {chunk_text(r['chunk'])}",
        lambda r: False,
    ),
    "character": (
        1.25,
        lambda r: r["held_bytes"].hex(" ") if r["held_bytes"] else "—",
        lambda r: bool(r["held_bytes"]),
    ),
    "line": (
        2.5,
        lambda r: (
            (repr(r["pending_line"]) if r["pending_line"] else "—") + ("  +CR" if r["after_cr"] else "")
        ),
        lambda r: bool(r["pending_line"]) or r["after_cr"],
    ),
    "lines": (
        2.5,
        lambda r: ", ".join(repr(line) for line in r["completed_lines"]) or "—",
        lambda r: bool(r["completed_lines"]),
    ),
    "event": (2.7, _event_summary, lambda r: bool(r.get("has_pending_event"))),
    "dispatched": (
        2.7,
        _dispatched_summary,
        lambda r: bool(r.get("dispatched")),
    ),
}


def column_header(key: str) -> str:
    """The header of the column ``key`` of :data:`LAYER_COLUMNS`, in the current language."""
    if key not in LAYER_COLUMNS:
        raise ValueError(f"unknown column {key!r}; known: {list(LAYER_COLUMNS)}")
    return _t(f"viz.layers.column.{key}")


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
    title, families = drawable(_t("viz.layers.title", reads=len(rows)))
    ax.text(
        0,
        _LAYER_TITLE_H / 2,
        title,
        ha="left",
        va="center",
        fontsize=9,
        family=families,
        parse_math=False,
        zorder=3,
    )
    cells, colours = [], []
    x = 0.0
    for key, width in zip(columns, layout.widths, strict=True):
        _, text_of, active = LAYER_COLUMNS[key]
        header, families = drawable(column_header(key))
        cells.append(Rectangle((x, _LAYER_TITLE_H), width, _LAYER_HEAD_H))
        colours.append("#dee2e6")
        ax.text(
            x + 0.06,
            _LAYER_TITLE_H + _LAYER_HEAD_H / 2,
            header,
            ha="left",
            va="center",
            fontsize=8.5,
            family=families,
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
        self.layout = _LayerLayout(len(self.rows), tuple(LAYER_COLUMNS[c][0] for c in self.columns))
        self._picture: _LayeredPicture[int | None] = _LayeredPicture(
            self.layout.size,
            self.layout.limits,
            lambda ax: _draw_layers_base(ax, self.rows, self.columns, self.layout),
            lambda ax, step: _draw_layers_step(ax, self.rows, self.layout, step),
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
) -> Figure | SubFigure:
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
    return ax.figure  # the figure (or subfigure) that holds ``ax``
