"""Explorers for the notebooks: ipywidgets 8 views built on the layers and on :mod:`lesson_lib.teach.viz`.

Every explorer is an :class:`ipywidgets.VBox`, so it displays itself and composes with other widgets. Its
whole state lives in widget values (an :class:`ipywidgets.Image` holding PNG bytes, :class:`ipywidgets.HTML`
holding the texts), never in printed output, so a notebook saved with its widget state shows the initial
picture (with one notice that its controls come alive once its cell has run, in place of ipywidgets' red
"disconnected" mark on every control), and a static reader (GitHub, nbviewer) that cannot run widgets still
gets the ``text/plain`` description: every explorer's ``repr`` says what it shows, without memory
addresses, and ``_repr_mimebundle_`` returns that repr in full next to the widget view.

No layer is re-implemented here: the decoding comes from :mod:`lesson_lib.core.decoding`, the states from the
parsers' own inspection properties (:func:`lesson_lib.teach.viz.sse_layer_rows`,
:func:`lesson_lib.teach.viz.line_layer_rows`), and outcomes from :func:`lesson_lib.core.completion.consume`.
"""

from __future__ import annotations

import html
import itertools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

import ipywidgets as W

from .. import captures
from ..core.chunking import split_at
from ..core.decoding import decode_each_chunk, incremental_decode
from ..core.options import check_int
from ..i18n import text as _t
from . import viz

__all__ = [
    "CompletionExplorer",
    "CutExplorer",
    "EventExplorer",
    "LayerInspector",
    "LineExplorer",
    "ValueExplorer",
    "format_cuts",
    "naive_parse",
    "parse_cuts",
    "value_timeline",
]


# -- cuts as code ----------------------------------------------------------------------------------------
def format_cuts(cuts: Iterable[int]) -> str:
    """The cuts as a keyword argument a learner can paste into an explorer's call as written:
    ``cuts=[3, 7]``, ``cuts=[4]`` or ``cuts=[]`` (``CutExplorer(text, cuts=[3, 7])`` replays them)."""
    return "cuts=[" + ", ".join(map(str, sorted(set(cuts)))) + "]"


_CUTS_CODE = re.compile(r"^\s*(?:cuts\s*=\s*)?[\(\[]?\s*((?:\d+\s*[,\s]\s*)*\d*)\s*,?\s*[\)\]]?\s*$")


def parse_cuts(code: str) -> list[int]:
    """Read cuts back from :func:`format_cuts` output or a list: ``"cuts=[3, 7]"``, ``"3,7"``, ``"3 7"``."""
    match = _CUTS_CODE.match(code)
    if not match:
        raise ValueError(f"not a list of cuts: {code!r} (write e.g. cuts=[3, 7])")
    return sorted({int(n) for n in re.findall(r"\d+", match.group(1))})


# -- text helpers ----------------------------------------------------------------------------------------
def _plain(text: str, quoted: bool = False) -> str:
    """Text for a plain-text repr: controls and U+FFFD escaped, everything else as itself.

    ``quoted``: the text goes between single quotes, so quotes and backslashes are escaped too.
    """
    out = []
    for ch in text:
        if ch == "\ufffd":
            out.append("\\ufffd")
        elif ch in "\r\n\t":
            out.append({"\r": "\\r", "\n": "\\n", "\t": "\\t"}[ch])
        elif quoted and ch in "\\'":
            out.append("\\" + ch)
        elif "\udc80" <= ch <= "\udcff":
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        elif unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs"):
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def _excerpt(text: str, focus: int | None = None, width: int = 36) -> str:
    """A quoted excerpt of ``text`` for a repr, around ``focus`` when the start would not show it."""
    if len(text) <= width:
        return f"'{_plain(text, True)}'"
    start = 0 if focus is None or focus < width - 8 else focus - 8
    piece = text[start : start + width]
    return ("'..." if start else "'") + _plain(piece, True) + ("...'" if start + width < len(text) else "'")


def _count(n: int, noun: str) -> str:
    """``n`` and its noun in the current language (``"1 byte"``, ``"2 bytes"``, ``"2 字节"``)."""
    return _t(f"widgets.count.{noun}.{'one' if n == 1 else 'other'}", n=n)


def _html_text(text: str, mark: int | None = None) -> str:
    """Text as HTML: escaped, U+FFFD in red, controls shown as escapes, character ``mark`` in <mark>."""
    out = []
    for index, ch in enumerate(text):
        if ch == "\ufffd":
            piece = '<span style="color:#e03131;font-weight:bold">\ufffd</span>'
        elif ch in "\r\n\t":
            piece = '<span style="color:#868e96">' + {"\r": "\\r", "\n": "\\n", "\t": "\\t"}[ch] + "</span>"
        elif unicodedata.category(ch) in ("Cc", "Cs"):
            piece = f'<span style="color:#868e96">{html.escape(_plain(ch))}</span>'
        else:
            piece = html.escape(ch)
        out.append(f"<mark>{piece}</mark>" if index == mark else piece)
    return "".join(out)


def _first_difference(a: str, b: str) -> int | None:
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return index
    return None if len(a) == len(b) else min(len(a), len(b))


def _as_bytes(data: bytes | str) -> bytes:
    if isinstance(data, str):
        return data.encode("utf-8")
    return bytes(data)


_MIME_VIEW = "application/vnd.jupyter.widget-view+json"


# A view restored from a notebook's saved widget state has no kernel behind it: ipywidgets gives every such
# view the class ``jupyter-widgets-disconnected``, whose ``::before`` draws a red broken-link icon, on each
# control (sixteen in lesson 01's CutExplorer). Inside an explorer these rules draw none of those icons, let
# the stored controls take no input (and dim them), and show one notice instead, which a live explorer (its
# cell run) hides.
# Every selector starts at the explorer's own class: nothing else on the page changes.
_EXPLORER_CLASS = "bl-explorer"
_NOTICE_CLASS = "bl-stored-notice"
_STORED_VIEW_CSS = (
    "<style>"
    f".{_EXPLORER_CLASS}.jupyter-widgets-disconnected::before,"
    f".{_EXPLORER_CLASS} .jupyter-widgets-disconnected::before{{content:none;display:none}}"
    f".{_EXPLORER_CLASS}:not(.jupyter-widgets-disconnected)>.{_NOTICE_CLASS}{{display:none}}"
    f".{_EXPLORER_CLASS}.jupyter-widgets-disconnected>:not(.{_NOTICE_CLASS}){{pointer-events:none}}"
    f".{_EXPLORER_CLASS}.jupyter-widgets-disconnected :is(.widget-slider,.widget-button,.widget-text,"
    ".widget-dropdown,.widget-toggle-buttons){opacity:.6}"
    f".{_NOTICE_CLASS} .bl-stored-text{{border-left:3px solid var(--jp-brand-color1,#1976d2);"
    "background:var(--jp-layout-color2,#eee);padding:0 8px;line-height:1.6}"
    "</style>"
)


def _stored_view_notice() -> W.HTML:
    """The explorer's first child: the notice a stored (not yet live) view shows, and the rules above."""
    notice = W.HTML(f'{_STORED_VIEW_CSS}<div class="bl-stored-text">{_t("widgets.stored_view.notice")}</div>')
    notice.add_class(_NOTICE_CLASS)
    return notice


class _Explorer(W.VBox):
    """Shared plumbing: the full repr as ``text/plain`` next to the widget view, and, as the first child,
    the notice that a view restored from the notebook's stored state shows instead of ipywidgets' red
    "disconnected" marks (hidden while the explorer is live)."""

    def __init__(self, children: Sequence[W.Widget] = (), **kwargs: Any) -> None:
        super().__init__(children=[_stored_view_notice(), *children], **kwargs)
        self.add_class(_EXPLORER_CLASS)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        # ipywidgets' own version cuts text/plain at 110 characters; a static reader needs all of it.
        bundle: dict[str, Any] = {"text/plain": repr(self)}
        if self._view_name is not None and self.comm is not None:
            bundle[_MIME_VIEW] = {"version_major": 2, "version_minor": 0, "model_id": self._model_id}
        return bundle


# -- cut controls ----------------------------------------------------------------------------------------
class CutControls(W.VBox):
    """A slider per cut (drag to move it), a remove button per cut, "add cut", and the cuts as code.

    ``on_change()`` is called once after every change, whichever control made it.
    """

    def __init__(self, length: int, cuts: Iterable[int] = (), on_change=None) -> None:
        self.length = length
        self._on_change = on_change
        self._quiet = False
        self.sliders: list[W.IntSlider] = []
        self._rows = W.VBox()
        self.add_button = W.Button(
            description=_t("widgets.cut_controls.add"),
            icon="plus",
            tooltip=_t("widgets.cut_controls.add_tooltip"),
        )
        self.add_button.on_click(lambda _: self.add_cut())
        self.code_text = W.Text(
            description=_t("widgets.cut_controls.code"),
            continuous_update=False,
            layout=W.Layout(width="22em"),
            tooltip=_t("widgets.cut_controls.code_tooltip"),
        )
        self.code_text.observe(self._on_code, names="value")
        self.message = W.HTML()
        super().__init__(children=[self._rows, W.HBox([self.add_button, self.code_text, self.message])])
        self._set(cuts, notify=False)

    @property
    def cuts(self) -> list[int]:
        return sorted({s.value for s in self.sliders})

    @cuts.setter
    def cuts(self, cuts: Iterable[int] | str) -> None:
        self._set(cuts)

    def _set(self, cuts: Iterable[int] | str, notify: bool = True) -> None:
        cuts = parse_cuts(cuts) if isinstance(cuts, str) else list(cuts)
        for cut in cuts:
            check_int(f"cut {cut!r}", cut, minimum=1, maximum=self.length - 1)
        cuts = sorted(set(cuts))
        self._quiet = True
        try:
            if len(cuts) != len(self.sliders):
                self.sliders = [self._slider(cut) for cut in cuts]
                self._rows.children = [self._row(slider) for slider in self.sliders]
            else:
                for slider, cut in zip(self.sliders, cuts, strict=True):
                    slider.value = cut
            self._sync_code()
        finally:
            self._quiet = False
        if notify:
            self._notify()

    def _slider(self, cut: int) -> W.IntSlider:
        slider = W.IntSlider(
            value=cut,
            min=1,
            max=max(1, self.length - 1),
            description=_t("widgets.cut_controls.slider"),
            continuous_update=True,
            style={"description_width": "initial"},
            layout=W.Layout(width="32em"),
        )
        slider.observe(self._on_slider, names="value")
        return slider

    def _row(self, slider: W.IntSlider) -> W.HBox:
        remove = W.Button(
            description=_t("widgets.cut_controls.remove"), icon="times", layout=W.Layout(width="auto")
        )
        remove.on_click(lambda _: self.remove_cut(slider))
        return W.HBox([slider, remove])

    def add_cut(self) -> int | None:
        """Cut the longest read in two at its middle; return the new cut (``None`` if none is left)."""
        cuts = self.cuts
        bounds = [0, *cuts, self.length]
        start, end = max(itertools.pairwise(bounds), key=lambda p: (p[1] - p[0], -p[0]))
        if end - start < 2:
            return None
        new = (start + end) // 2
        self._set([*cuts, new])
        return new

    def remove_cut(self, slider: W.IntSlider) -> None:
        remaining = [s.value for s in self.sliders if s is not slider]
        self._set(remaining)

    def _on_slider(self, change) -> None:
        if not self._quiet:
            self._sync_code()
            self._notify()

    def _on_code(self, change) -> None:
        if self._quiet:
            return
        try:
            self._set(change["new"])
        except ValueError as exc:
            self.message.value = f'<span style="color:#e03131">{html.escape(str(exc))}</span>'
        else:
            self.message.value = ""

    def _sync_code(self) -> None:
        quiet, self._quiet = self._quiet, True
        try:
            self.code_text.value = format_cuts(self.cuts)
            self.add_button.disabled = self.length < 2 or len(self.cuts) >= self.length - 1
        finally:
            self._quiet = quiet

    def _notify(self) -> None:
        if self._on_change is not None:
            self._on_change()


def _image(png: bytes) -> W.Image:
    return W.Image(value=png, format="png", layout=W.Layout(max_width="100%", height="auto"))


# -- the character boundary ------------------------------------------------------------------------------
class CutExplorer(_Explorer):
    """Cut a text's bytes into reads and compare decoding each read alone with one incremental decoder.

    Shows the byte strip (:func:`lesson_lib.teach.viz.draw_byte_strip`) with the cuts, a slider per cut, and
    side
    by side the per-read ``errors="replace"`` decode (:func:`~lesson_lib.core.decoding.decode_each_chunk`) and
    the incremental decode, the first differing character marked and the U+FFFD counted. "Try every cut"
    (:meth:`sweep`) marks in the picture every single cut position that corrupts the per-read decode.

    Attributes for code and tests: :attr:`cuts` (settable; setting redraws), :attr:`code`,
    :attr:`replace_text`, :attr:`incremental_text`, :attr:`first_difference`, :attr:`replacement_count`,
    :attr:`png`, :meth:`sweep`.
    """

    def __init__(
        self, text_or_bytes: bytes | str, cuts: Iterable[int] | str = (), *, bytes_per_row: int = 24
    ):
        self.data = _as_bytes(text_or_bytes)
        self.source_text = self.data.decode("utf-8", "replace")
        self._picture = viz.ByteStripPicture(self.data, bytes_per_row)
        self._corrupting: list[int] | None = None
        self.title = W.HTML(_t("widgets.cut_explorer.title"))
        self.image = _image(b"")
        self.controls = CutControls(len(self.data), (), on_change=self._update)
        self.comparison = W.HTML()
        self.sweep_button = W.Button(
            description=_t("widgets.cut_explorer.sweep"),
            icon="search",
            tooltip=_t("widgets.cut_explorer.sweep_tooltip"),
        )
        self.sweep_button.on_click(lambda _: self.sweep())
        self.sweep_result = W.HTML()
        super().__init__(
            children=[
                self.title,
                self.image,
                self.controls,
                self.comparison,
                W.HBox([self.sweep_button, self.sweep_result]),
            ]
        )
        self._updating = False
        self.controls._set(cuts, notify=False)
        self._update()

    # -- state -----------------------------------------------------------------------------------------
    @property
    def cuts(self) -> list[int]:
        return self.controls.cuts

    @cuts.setter
    def cuts(self, cuts: Iterable[int] | str) -> None:
        self.controls.cuts = cuts

    @property
    def code(self) -> str:
        """The cuts as a keyword argument to paste into a call: ``cuts=[3, 7]``."""
        return format_cuts(self.cuts)

    @property
    def chunks(self) -> list[bytes]:
        return split_at(self.data, self.cuts)

    @property
    def png(self) -> bytes:
        """The picture shown, as PNG bytes."""
        return bytes(self.image.value)

    @property
    def corrupting(self) -> list[int] | None:
        """The result of the last :meth:`sweep`, or ``None`` before one."""
        return None if self._corrupting is None else list(self._corrupting)

    def _update(self) -> None:
        chunks = self.chunks
        self.replace_pieces = decode_each_chunk(chunks, "replace")
        self.replace_text = "".join(self.replace_pieces)
        self.incremental_text = incremental_decode(chunks, "replace")
        self.first_difference = _first_difference(self.replace_text, self.incremental_text)
        self.replacement_count = self.replace_text.count("\ufffd")
        self.image.value = self._picture.png(self.cuts)
        self.comparison.value = self._comparison_html()

    def _comparison_html(self) -> str:
        mark = self.first_difference
        cell = 'style="border:1px solid #dee2e6;padding:4px 8px;vertical-align:top;font-family:monospace"'
        head = 'style="border:1px solid #dee2e6;padding:4px 8px;background:#f1f3f5;text-align:left"'
        incremental_bad = self.incremental_text.count("\ufffd")
        pieces = ", ".join(f"'{_html_text(p)}'" for p in self.replace_pieces)
        verdict = (
            _t("widgets.cut_explorer.identical")
            if mark is None
            else _t("widgets.cut_explorer.differs", index=mark)
        )
        return (
            '<table style="border-collapse:collapse;margin:4px 0">'
            f"<tr><th {head}>{_t('widgets.cut_explorer.head_replace')}</th>"
            f"<th {head}>{_t('widgets.cut_explorer.head_incremental')}</th></tr>"
            f"<tr><td {cell}>{_html_text(self.replace_text, mark)}</td>"
            f"<td {cell}>{_html_text(self.incremental_text, mark)}</td></tr>"
            f"<tr><td {cell}>{_t('widgets.cut_explorer.replacements', n=self.replacement_count)}</td>"
            f"<td {cell}>{_t('widgets.cut_explorer.replacements', n=incremental_bad)}</td></tr>"
            "</table>"
            "<div>"
            + _t("widgets.cut_explorer.reads", verdict=verdict, reads=len(self.replace_pieces), pieces=pieces)
            + "</div>"
            f"<div>{_t('widgets.code', code=html.escape(self.code))}</div>"
        )

    # -- the sweep -------------------------------------------------------------------------------------
    def sweep(self) -> list[int]:
        """Try every single cut position; return (and mark in the picture) those that corrupt the decode.

        A position corrupts when decoding the two reads separately (``errors="replace"``) gives other text
        than the incremental decoder. For valid UTF-8 that is exactly the positions inside a multi-byte
        character.
        """
        corrupting = [
            cut
            for cut in range(1, len(self.data))
            if "".join(decode_each_chunk(split_at(self.data, [cut])))
            != incremental_decode(split_at(self.data, [cut]), "replace")
        ]
        self._corrupting = corrupting
        self._picture.corrupting = corrupting
        self.image.value = self._picture.png(self.cuts)
        total = max(len(self.data) - 1, 0)
        shown = ", ".join(map(str, corrupting[:40])) + (", ..." if len(corrupting) > 40 else "")
        self.sweep_result.value = (
            _t("widgets.cut_explorer.sweep_marked", corrupting=len(corrupting), total=total, shown=shown)
            if corrupting
            else _t("widgets.cut_explorer.sweep_none", corrupting=len(corrupting), total=total)
        )
        return list(corrupting)

    def __repr__(self) -> str:
        if self.first_difference is None:
            diff = _t("widgets.cut_explorer.repr_identical", n=self.replacement_count)
        else:
            diff = _t(
                "widgets.cut_explorer.repr_differs", n=self.replacement_count, index=self.first_difference
            )
        text = _t(
            "widgets.cut_explorer.repr",
            source=_excerpt(self.source_text),
            size=_count(len(self.data), "byte"),
            where=_where(self.cuts),
            replaced=_excerpt(self.replace_text, self.first_difference),
            diff=diff,
            incremental=_excerpt(self.incremental_text, self.first_difference),
        )
        if self._corrupting is not None:
            text += _t("widgets.cut_explorer.repr_sweep", corrupting=len(self._corrupting))
        return text


# -- explorers that step through reads -------------------------------------------------------------------
class _ReadsExplorer(_Explorer):
    """Cut controls, a slider over reads, the layers picture and the same state as an HTML table."""

    columns: tuple[str, ...] = ()

    def __init__(self, data: bytes | str, cuts: Iterable[int] | str = (), *, step: int | None = None) -> None:
        self.data = _as_bytes(data)
        self.title = W.HTML(self._intro())
        self.controls = CutControls(len(self.data), (), on_change=self._recompute)
        self.step_slider = W.IntSlider(
            value=1,
            min=1,
            max=1,
            description=_t("widgets.reads.step"),
            continuous_update=True,
            style={"description_width": "initial"},
            layout=W.Layout(width="32em"),
        )
        self.step_slider.observe(self._on_step, names="value")
        self.image = _image(b"")
        self.table = W.HTML()
        super().__init__(children=[self.title, self.controls, self.step_slider, self.image, self.table])
        self.controls._set(cuts, notify=False)
        self._recompute(step)

    # subclasses: the introduction, the rows (one per read) and what close() says
    def _intro(self) -> str:
        return ""

    def _compute_rows(self, cuts: Sequence[int]) -> list[dict]:
        raise NotImplementedError

    def _compute_closing(self, cuts: Sequence[int]) -> dict | None:
        return None

    @property
    def cuts(self) -> list[int]:
        return self.controls.cuts

    @cuts.setter
    def cuts(self, cuts: Iterable[int] | str) -> None:
        self.controls.cuts = cuts

    @property
    def code(self) -> str:
        return format_cuts(self.cuts)

    @property
    def step(self) -> int:
        """The read whose state is shown, 1-based: the state after ``step`` reads."""
        return self.step_slider.value

    @step.setter
    def step(self, value: int) -> None:
        check_int("step", value, minimum=1, maximum=len(self.rows))
        self.step_slider.value = value

    @property
    def current(self) -> dict:
        """The row of the read shown."""
        return self.rows[self.step - 1]

    @property
    def png(self) -> bytes:
        """The picture shown, as PNG bytes."""
        return bytes(self.image.value)

    def _recompute(self, step: int | None = None) -> None:
        cuts = self.cuts
        self.rows = self._compute_rows(cuts)
        self.closing = self._compute_closing(cuts)
        self._picture = viz.LayersPicture(self.rows, self.columns)
        if step is None:
            step = min(self.step_slider.value, len(self.rows)) if hasattr(self, "_shown") else len(self.rows)
        check_int("step", step, minimum=1, maximum=len(self.rows))
        self._shown = True
        self._moving = True  # one redraw below, not one more from the slider's own notification
        try:
            with self.step_slider.hold_trait_notifications():
                self.step_slider.max = max(len(self.rows), 1)
                self.step_slider.value = step
        finally:
            self._moving = False
        self._draw()

    def _on_step(self, change) -> None:
        if hasattr(self, "rows") and not getattr(self, "_moving", False):
            self._draw()

    def _draw(self) -> None:
        self.image.value = self._picture.png(self.step)
        self.table.value = self._table_html()

    def _cell(self, key: str, row: dict) -> str:
        text_of = viz.LAYER_COLUMNS[key][1]
        if key == "dispatched" and row.get("error"):
            return row["error"]
        return text_of(row)

    def _table_html(self) -> str:
        style = "border:1px solid #dee2e6;padding:3px 6px;font-family:monospace;text-align:left"
        heads = "".join(
            f'<th style="{style};background:#f1f3f5">{html.escape(viz.column_header(k))}</th>'
            for k in self.columns
        )
        body = []
        for row in self.rows:
            if row["read"] == self.step:
                row_style = "background:#e7f5ff;font-weight:bold"
            elif row["read"] > self.step:
                row_style = "color:#adb5bd"
            else:
                row_style = ""
            cells = "".join(
                f'<td style="{style}">{_html_text(self._cell(k, row))}</td>' for k in self.columns
            )
            body.append(f'<tr style="{row_style}">{cells}</tr>')
        closing = ""
        if self.closing is not None:
            closing = f"<div>{_t('widgets.reads.then_close', what=html.escape(self._closing_text()))}</div>"
        return (
            f'<table style="border-collapse:collapse;margin:4px 0"><tr>{heads}</tr>{"".join(body)}</table>'
            f"{closing}<div>{_t('widgets.code', code=html.escape(self.code))}</div>"
        )

    def _closing_text(self) -> str:
        closing = self.closing or {}
        if closing.get("failed_before_close"):
            return _t("widgets.reads.close.not_reached")
        if closing.get("error"):
            return _t("widgets.reads.close.raises", error=closing["error"])
        if closing.get("ended_mid"):
            return _t(f"widgets.reads.close.ended_mid.{closing['ended_mid']}")
        return _t("widgets.reads.close.clean")

    def _where(self) -> str:
        return _where(self.cuts)

    def _step_text(self) -> str:
        return _t("widgets.reads.step_text", step=self.step, reads=len(self.rows))


def _where(cuts: Sequence[int]) -> str:
    """Where the bytes are cut, in words: ``cut at 3,7`` or ``not cut``."""
    return _t("widgets.where.cut", cuts=",".join(map(str, cuts))) if cuts else _t("widgets.where.uncut")


def _error(row: dict) -> str:
    """``, error <message>`` for a row whose read failed (the message stays English), else empty."""
    return _t("widgets.reads.error", error=row["error"]) if row["error"] else ""


def _held(row: dict) -> str:
    return row["held_bytes"].hex(" ") if row["held_bytes"] else _t("widgets.none")


class LayerInspector(_ReadsExplorer):
    """For one chunking of an SSE stream, the state of every layer after each read, as a table and a picture.

    The states are :class:`~lesson_lib.core.sse.SSEParser`'s own inspection properties (``held_bytes``,
    ``pending_line``, ``after_cr``, ``pending_data``, ...; see :func:`lesson_lib.teach.viz.sse_layer_rows`).
    ``step`` (1-based) chooses the read; ``rows`` holds one dict per read.
    """

    columns = ("read", "character", "line", "event", "dispatched")

    def _intro(self) -> str:
        return _t("widgets.layer_inspector.intro")

    def __init__(
        self,
        data: bytes | str,
        cuts: Iterable[int] | str = (),
        *,
        step: int | None = None,
        errors: str = "strict",
    ) -> None:
        self.errors = errors
        super().__init__(data, cuts, step=step)

    def _compute_rows(self, cuts: Sequence[int]) -> list[dict]:
        return viz.sse_layer_rows(self.data, cuts, errors=self.errors)

    def _compute_closing(self, cuts: Sequence[int]) -> dict | None:
        return viz.sse_close_state(self.data, cuts, errors=self.errors)

    def __repr__(self) -> str:
        row = self.current
        events = sum(len(r["dispatched"]) for r in self.rows)
        state = _t(
            "widgets.layer_inspector.state",
            held=_held(row),
            line=_excerpt(row["pending_line"]),
            cr=" + CR" if row["after_cr"] else "",
            event=_plain(viz._event_summary(row)),
            dispatched=_plain(viz._dispatched_summary(row)),
            last_id=_plain(viz._last_id_summary(row)),
        )
        return _t(
            "widgets.layer_inspector.repr",
            bytes=len(self.data),
            where=self._where(),
            reads=_count(len(self.rows), "read"),
            events=_count(events, "event"),
            step=self._step_text(),
            state=state + _error(row),
        )


def _line_end_cuts(data: bytes) -> list[int]:
    """A cut after every line ending (CRLF counted once): one read per line."""
    cuts, index = [], 0
    while index < len(data):
        byte = data[index]
        if byte == 0x0D and index + 1 < len(data) and data[index + 1] == 0x0A:
            index += 1
        if byte in (0x0A, 0x0D):
            cuts.append(index + 1)
        index += 1
    return [cut for cut in cuts if 0 < cut < len(data)]


class EventExplorer(_ReadsExplorer):
    """Fields arriving line by line and the event dispatched on the blank line.

    By default the stream is cut after every line ending, so each read brings one line; ``cuts`` chooses
    another chunking. Uses the :class:`~lesson_lib.core.sse.SSEParser` event-layer properties
    (``pending_data``, ``pending_event_type``, ``pending_id``, ``has_pending_event``).
    """

    columns = ("read", "line", "event", "dispatched")

    def _intro(self) -> str:
        return _t("widgets.event_explorer.intro")

    def __init__(
        self,
        data: bytes | str,
        cuts: Iterable[int] | str | None = None,
        *,
        step: int | None = None,
        errors: str = "strict",
    ) -> None:
        self.errors = errors
        raw = _as_bytes(data)
        super().__init__(raw, _line_end_cuts(raw) if cuts is None else cuts, step=step)

    def _compute_rows(self, cuts: Sequence[int]) -> list[dict]:
        return viz.sse_layer_rows(self.data, cuts, errors=self.errors)

    def _compute_closing(self, cuts: Sequence[int]) -> dict | None:
        return viz.sse_close_state(self.data, cuts, errors=self.errors)

    @property
    def events(self) -> list:
        """Every event dispatched, in order."""
        return [event for row in self.rows for event in row["dispatched"]]

    def __repr__(self) -> str:
        row = self.current
        return _t(
            "widgets.event_explorer.repr",
            bytes=len(self.data),
            where=self._where(),
            reads=_count(len(self.rows), "read"),
            events=_count(len(self.events), "event"),
            step=self._step_text(),
            event=_plain(viz._event_summary(row)),
            dispatched=_plain(viz._dispatched_summary(row)),
            last_id=_plain(viz._last_id_summary(row)),
        ) + _error(row)


class LineExplorer(_ReadsExplorer):
    """Line endings split across reads: CR, LF, CRLF, and a CR at the end of one read before an LF.

    The rows come from an :class:`~lesson_lib.core.decoding.IncrementalUTF8Decoder` feeding a
    :class:`~lesson_lib.core.lines.LineSplitter` (see :func:`lesson_lib.teach.viz.line_layer_rows`): the line
    pending
    after each read, ``after_cr`` (a CR seen, its LF may come next) and the lines each read completed.
    """

    columns = ("read", "character", "line", "lines")

    def _intro(self) -> str:
        return _t("widgets.line_explorer.intro")

    def __init__(
        self,
        data: bytes | str,
        cuts: Iterable[int] | str = (),
        *,
        step: int | None = None,
        endings: str = "any",
    ) -> None:
        self.endings = endings
        super().__init__(data, cuts, step=step)

    def _compute_rows(self, cuts: Sequence[int]) -> list[dict]:
        return viz.line_layer_rows(self.data, cuts, endings=self.endings)

    @property
    def lines(self) -> list[str]:
        """Every line completed, in order."""
        return [line for row in self.rows for line in row["completed_lines"]]

    def __repr__(self) -> str:
        row = self.current
        done = ", ".join(_excerpt(line, width=20) for line in row["completed_lines"]) or _t("widgets.none")
        return _t(
            "widgets.line_explorer.repr",
            text=_excerpt(self.data.decode("utf-8", "replace")),
            size=_count(len(self.data), "byte"),
            where=self._where(),
            reads=_count(len(self.rows), "read"),
            lines=_count(len(self.lines), "line"),
            step=self._step_text(),
            line=_excerpt(row["pending_line"]),
            after_cr=_t("widgets.yes") if row["after_cr"] else _t("widgets.no"),
            done=done,
        ) + _error(row)


# -- the completion boundary -----------------------------------------------------------------------------

def _cutoffs(start: int, end: int) -> str:
    """The cut-offs ``start`` to ``end - 1`` in words: ``cut-off 7`` or ``cut-offs 7-9``."""
    if end - start == 1:
        return _t("widgets.cutoffs.one", start=start)
    return _t("widgets.cutoffs.range", start=start, last=end - 1)


class CompletionExplorer(_Explorer):
    """Pick a capture from ``data/manifest.json`` and a cut-off byte; see what the stream proves.

    The body is fed only up to the cut-off (what a dropped connection delivers) and handed to
    :func:`lesson_lib.core.completion.consume` with the capture's contract; the outcome and ``truncated_at``
    change as the cut-off moves. "Map every cut-off" (:meth:`map_outcomes`) runs the same for every
    cut-off and draws the result as ranges of cut-offs (:func:`lesson_lib.teach.viz.draw_outcome_map`, every
    range visible however short); then "previous range" / "next range" and the range list move the
    cut-off to any range, the narrowest included.
    Attributes: :attr:`capture`, :attr:`cutoff` (settable), :attr:`result`, :attr:`outcome_map`,
    :attr:`ranges`, :attr:`range_index`, :meth:`step_range`.
    """

    def __init__(self, capture_name: str, cutoff: int | None = None, *, map_outcomes: bool = False):
        self.captures = captures.names()
        self.title = W.HTML(_t("widgets.completion_explorer.title"))
        self.picker = W.Dropdown(
            options=self.captures, description=_t("widgets.capture"), layout=W.Layout(width="32em")
        )
        self.cutoff_slider = W.IntSlider(
            min=0,
            max=1,
            description=_t("widgets.cutoff_slider"),
            continuous_update=True,
            style={"description_width": "initial"},
            layout=W.Layout(width="40em"),
        )
        self.summary = W.HTML()
        self.tail = W.HTML()
        # "auto" width: a button is as wide as its label (the default width cut "map every cut-off")
        self.map_button = W.Button(
            description=_t("widgets.completion_explorer.map"),
            icon="map",
            tooltip=_t("widgets.completion_explorer.map_tooltip"),
            layout=W.Layout(width="auto", align_self="flex-start"),  # not stretched across the box
        )
        self.map_button.on_click(lambda _: self.map_outcomes())
        self.image = _image(b"")
        # Every range of the map, to choose from or step through: the narrowest is one cut-off.
        self.range_picker = W.Dropdown(
            description=_t("widgets.completion_explorer.range"),
            layout=W.Layout(width="auto", max_width="100%"),
        )
        self.range_picker.observe(self._on_range, names="value")
        self.previous_button = W.Button(
            description=_t("widgets.completion_explorer.previous"),
            icon="arrow-left",
            layout=W.Layout(width="auto"),
        )
        self.previous_button.on_click(lambda _: self.step_range(-1))
        self.next_button = W.Button(
            description=_t("widgets.completion_explorer.next"),
            icon="arrow-right",
            layout=W.Layout(width="auto"),
        )
        self.next_button.on_click(lambda _: self.step_range(1))
        self.range_controls = W.HBox(
            [self.previous_button, self.next_button, self.range_picker],
            layout=W.Layout(flex_flow="row wrap", align_items="center"),
        )
        for hidden in (self.image, self.range_controls):
            hidden.layout.display = "none"  # until a map is drawn
        super().__init__(
            children=[
                self.title,
                self.picker,
                self.cutoff_slider,
                self.summary,
                self.map_button,
                self.image,
                self.range_controls,
                self.tail,
            ],
            layout=W.Layout(max_width="100%"),
        )
        self._quiet = False
        self.ranges: list[tuple[int, int, str]] = []
        self.outcome_map: list[str] | None = None
        self._map_picture: viz.OutcomeMapPicture | None = None
        self._load(self._resolve(capture_name), cutoff)
        if map_outcomes:
            self.map_outcomes()
        self.picker.observe(lambda change: self._load(change["new"], None), names="value")
        self.cutoff_slider.observe(lambda change: None if self._quiet else self._update(), names="value")

    def _resolve(self, name: str) -> str:
        """A capture name (``"openai-chat/completed"``); a file name with its extension works too."""
        for candidate in (name, name.rsplit(".", 1)[0]):
            if candidate in self.captures:
                return candidate
        raise ValueError(f"unknown capture {name!r}; known: {', '.join(self.captures)}")

    def _load(self, name: str, cutoff: int | None) -> None:
        self.outcome_map, self._map_picture, self.ranges = None, None, []
        self.image.layout.display = "none"
        self.range_controls.layout.display = "none"
        self.capture = name
        self.entry = captures.load(name)
        self.body = self.entry.body
        cutoff = len(self.body) if cutoff is None else cutoff
        check_int("cutoff", cutoff, minimum=0, maximum=len(self.body))
        self._quiet = True
        try:
            self.picker.value = name
            with self.cutoff_slider.hold_trait_notifications():
                self.cutoff_slider.max = len(self.body)
                self.cutoff_slider.value = cutoff
        finally:
            self._quiet = False
        self._update()

    @property
    def contract(self) -> str:
        return self.entry.contract

    @property
    def cutoff(self) -> int:
        return self.cutoff_slider.value

    @cutoff.setter
    def cutoff(self, value: int) -> None:
        check_int("cutoff", value, minimum=0, maximum=len(self.body))
        self.cutoff_slider.value = value

    @staticmethod
    def outcome_at(body: bytes, cutoff: int, contract: str) -> Any:
        from ..core.completion import consume  # the top layer is imported only when used

        return consume([body[:cutoff]] if cutoff else [], contract)

    def _update(self) -> None:
        self.result = self.outcome_at(self.body, self.cutoff, self.contract)
        self.summary.value = self._summary_html()
        self.tail.value = self._tail_html()
        if self._map_picture is not None:
            self.image.value = self._map_picture.png(self.cutoff)
            self._show_range()

    def map_outcomes(self) -> list[str]:
        """The outcome label (:func:`lesson_lib.teach.viz.outcome_label`) for every cut-off from 0 to the
        whole body, drawn along the byte axis with the current cut-off marked. About 0.2 ms per cut-off."""
        labels = [
            viz.outcome_label(self.outcome_at(self.body, c, self.contract)) for c in range(len(self.body) + 1)
        ]
        self.outcome_map = labels
        self._map_picture = viz.OutcomeMapPicture(
            labels, _t("widgets.completion_explorer.map_title", capture=self.capture)
        )
        self.image.value = self._map_picture.png(self.cutoff)
        self.image.layout.display = None
        self.ranges = viz.outcome_ranges(labels)
        self._quiet = True
        try:
            self.range_picker.options = [
                (
                    _t(
                        "widgets.completion_explorer.range_option",
                        number=number + 1,
                        ranges=len(self.ranges),
                        cutoffs=_cutoffs(start, end),
                        label=viz.outcome_text(label),
                    ),
                    number,
                )
                for number, (start, end, label) in enumerate(self.ranges)
            ]
        finally:
            self._quiet = False
        self._show_range()
        self.range_controls.layout.display = None
        return list(labels)

    @property
    def range_index(self) -> int | None:
        """The index in :attr:`ranges` of the range holding the cut-off (``None`` before a map)."""
        for number, (start, end, _label) in enumerate(self.ranges):
            if start <= self.cutoff < end:
                return number
        return None

    def step_range(self, step: int) -> int | None:
        """Move the cut-off to the first cut-off of the range ``step`` ranges on (``-1``: the previous
        one; the first and the last range stay put); return the new range's index."""
        number = self.range_index
        if number is None:
            return None
        target = min(max(number + step, 0), len(self.ranges) - 1)
        self.cutoff = self.ranges[target][0]
        return target

    def _on_range(self, change) -> None:
        if self._quiet or change["new"] is None or not self.ranges:
            return
        start, end, _label = self.ranges[change["new"]]
        if not start <= self.cutoff < end:
            self.cutoff = start

    def _show_range(self) -> None:
        number = self.range_index
        quiet, self._quiet = self._quiet, True
        try:
            self.range_picker.value = number
        finally:
            self._quiet = quiet
        self.previous_button.disabled = not number
        self.next_button.disabled = number is None or number == len(self.ranges) - 1

    @property
    def png(self) -> bytes:
        """The outcome map shown (empty before :meth:`map_outcomes`)."""
        return bytes(self.image.value)

    def hidden_end_note(self) -> str:
        """What this explorer knows and ``consume`` cannot: the prefix is called final, yet the capture goes
        on. Empty unless that is so (lesson 04, section 7: the bytes alone cannot reveal such a cut)."""
        r = self.result
        rest = len(self.body) - self.cutoff
        if r.final_text is None or rest <= 0:
            return ""
        whole = self.outcome_at(self.body, len(self.body), self.contract)
        more = len(whole.text) - len(r.text)
        added = (
            _t("widgets.completion_explorer.more_text", characters=_count(more, "more_character"))
            if more
            else _t("widgets.completion_explorer.no_more_text")
        )
        return _t("widgets.completion_explorer.hidden_end", rest=_count(rest, "more_byte"), added=added)

    def _summary_html(self) -> str:
        r = self.result
        colour = {"completed": "#2b8a3e", "incomplete": "#e67700"}.get(str(r.outcome), "#c92a2a")
        note = self.hidden_end_note()
        summary = _t(
            "widgets.completion_explorer.summary",
            colour=colour,
            outcome=html.escape(str(r.outcome)),
            end_verified=repr(r.end_verified),
            truncated_at=html.escape(repr(r.truncated_at)),
            finish_reason=html.escape(repr(r.finish_reason)),
            cutoff=self.cutoff,
            total=len(self.body),
            capture=html.escape(self.capture),
            contract=html.escape(self.contract),
        )
        sentence = _t("widgets.completion_explorer.note_sentence", note=note[:1].upper() + note[1:])
        return (
            f"<div>{summary}</div>"
            f'<div style="margin-top:4px">{html.escape(r.describe())}</div>'
            + (f'<div style="margin-top:4px;color:#c92a2a">{html.escape(sentence)}</div>' if note else "")
            + '<div style="margin-top:4px">'
            + _t("widgets.completion_explorer.text_so_far", text=_html_text(r.text))
            + "</div>"
        )

    def _tail_html(self) -> str:
        before = self.body[max(0, self.cutoff - 120) : self.cutoff]
        after = self.body[self.cutoff : self.cutoff + 60]
        shown_before = html.escape(before.decode("utf-8", "backslashreplace")).replace("\n", "\\n\n")
        shown_after = html.escape(after.decode("utf-8", "backslashreplace")).replace("\n", "\\n\n")
        return (
            '<pre style="white-space:pre-wrap;font-size:85%;margin:4px 0">'
            f'{shown_before}<span style="color:#e03131;font-weight:bold">|cut|</span>'
            f'<span style="color:#adb5bd">{shown_after}</span></pre>'
        )

    def __repr__(self) -> str:
        r = self.result
        note = self.hidden_end_note()
        return (
            _t(
                "widgets.completion_explorer.repr",
                capture=self.capture,
                contract=self.contract,
                bytes=len(self.body),
                cutoff=self.cutoff,
                outcome=repr(str(r.outcome)),
                end_verified=repr(r.end_verified),
                truncated_at=repr(r.truncated_at),
                finish_reason=repr(r.finish_reason),
                text=_excerpt(r.text),
            )
            + (_t("widgets.completion_explorer.repr_note", note=note) if note else "")
            + (self._map_summary() if self.outcome_map is not None else "")
        )

    def _map_summary(self) -> str:
        counts: dict[str, int] = {}
        for label in self.outcome_map or ():
            counts[label] = counts.get(label, 0) + 1
        return _t(
            "widgets.completion_explorer.repr_map",
            counts=_t("widgets.list_separator").join(
                _t("widgets.completion_explorer.map_count", label=viz.outcome_text(label), n=n)
                for label, n in counts.items()
            ),
        )


# -- the value boundary ----------------------------------------------------------------------------------
def naive_parse(fragment: str) -> str:
    """What ``json.loads(fragment)`` does with ONE fragment alone: the naive client's per-event parse.

    Returns, in the current language, ``"ok: <value>"`` or ``"fails: <error> (char n)"`` (English; in Chinese
    ``"成功：<value>"`` or ``"失败：<error>（字符位置 n）"``, the error translated), never raises (the message
    has no content).
    """
    return _naive_text(fragment)


def _naive(fragment: str) -> tuple[bool, str, int]:
    """``json.loads`` on one fragment alone: ``(True, the value as JSON, 0)`` or ``(False, the error, its
    character position)``. The error is Python's own message in the current language (:func:`_json_error`)."""
    import json

    try:
        return True, json.dumps(json.loads(fragment), ensure_ascii=False), 0
    except json.JSONDecodeError as exc:
        return False, _json_error(exc.msg), exc.pos


def _json_error(message: str) -> str:
    """Python's ``json`` error message (``JSONDecodeError.msg``, English) in the current language: each
    message CPython's C scanner writes has a key (the English template is Python's message itself); one
    it does not know (the pure-Python decoder's, which name the character) is returned unchanged."""
    if message == "Expecting value":
        return _t("widgets.json_error.expecting_value")
    if message == "Extra data":
        return _t("widgets.json_error.extra_data")
    if message == "Unterminated string starting at":
        return _t("widgets.json_error.unterminated_string")
    if message == "Invalid \\uXXXX escape":
        return _t("widgets.json_error.invalid_unicode_escape")
    if message == "Expecting property name enclosed in double quotes":
        return _t("widgets.json_error.expecting_property_name")
    if message == "Expecting ':' delimiter":
        return _t("widgets.json_error.expecting_colon")
    if message == "Expecting ',' delimiter":
        return _t("widgets.json_error.expecting_comma")
    if message == "Invalid control character at":
        return _t("widgets.json_error.control_character")
    if message == "Invalid \\escape":
        return _t("widgets.json_error.invalid_escape")
    return message


def _naive_text(fragment: str) -> str:
    """What the explorer shows for ``json.loads`` on one fragment alone, in the current language."""
    ok, value, position = _naive(fragment)
    if ok:
        return _t("widgets.value_explorer.naive_ok", value=value)
    return _t("widgets.value_explorer.naive_fails", error=value, position=position)


def value_timeline(body: bytes, contract: str) -> tuple[list[viz.Track], list[list[str]]]:
    """Where each tool call, its fragments, the reasoning and the text completed in ``body``.

    The body is fed one byte at a time through :func:`lesson_lib.core.completion.stream_updates`, so each
    offset is the number of bytes after which the event carrying that piece was complete. Returns the
    tracks (one per call in start order, then reasoning and text if any) and each call's fragments.
    """
    from ..core.completion import stream_updates
    from ..core.contracts import (
        ReasoningDelta,
        TextDelta,
        ToolCallDelta,
        ToolCallEnd,
        ToolCallStart,
        ToolCallWhole,
    )

    taken = [0]

    def reads() -> Iterable[bytes]:
        for index in range(len(body)):
            taken[0] = index + 1
            yield body[index : index + 1]

    calls: list[viz.Track] = []
    fragments: list[list[str]] = []
    by_key: dict[str, int] = {}
    reasoning = viz.Track(_t("widgets.value_explorer.track_reasoning"), 0, kind="reasoning")
    text = viz.Track(_t("widgets.value_explorer.track_text"), 0, kind="text")
    for update in stream_updates(reads(), contract, max_bytes_without_progress=None):
        offset = taken[0]
        if isinstance(update, (ToolCallStart, ToolCallWhole)):
            name = update.name
            by_key[update.key if isinstance(update, ToolCallStart) else f"whole{len(calls)}"] = len(calls)
            label = _t("widgets.value_explorer.track_call", number=len(calls), name=name)
            calls.append(viz.Track(label, offset))
            fragments.append([])
            if isinstance(update, ToolCallWhole):
                calls[-1].pieces.append(offset)
                fragments[-1].append(update.arguments_text)
                calls[-1].closed = offset
        elif isinstance(update, ToolCallDelta) and update.key in by_key:
            calls[by_key[update.key]].pieces.append(offset)
            fragments[by_key[update.key]].append(update.fragment)
        elif isinstance(update, ToolCallEnd) and update.key in by_key:
            track = calls[by_key[update.key]]
            track.closed = offset if track.closed is None else track.closed
        elif isinstance(update, ReasoningDelta):
            reasoning.pieces.append(offset)
        elif isinstance(update, TextDelta):
            text.pieces.append(offset)
    extra = [t for t in (reasoning, text) if t.pieces]
    return calls + extra, fragments


class ValueExplorer(_Explorer):
    """Drag the cut-off through a stream with tool calls: watch one call's arguments text grow.

    For each cut-off the body is consumed up to there (:func:`lesson_lib.core.completion.consume`) and the
    chosen call is shown as the stream left it: its ``arguments_text``, whether the service has closed it
    (``complete``), its ``arguments`` (only once closed and parsed), and the provisional parse
    (:func:`lesson_lib.provisional`, display only). Beside it, what a naive client gets from
    ``json.loads`` on each fragment alone, and the reasoning beside the answer text. The picture
    (:func:`lesson_lib.teach.viz.draw_value_timeline`) puts every call, fragment and close on the byte axis.
    Attributes: :attr:`capture`, :attr:`cutoff` (settable), :attr:`call` (settable), :attr:`result`.
    """

    def __init__(self, capture_name: str, cutoff: int | None = None, *, call: int = 0):
        self.captures = [
            name
            for name in captures.names()
            if captures.load(name).tool_calls or captures.load(name).reasoning_text
        ]
        self.title = W.HTML(_t("widgets.value_explorer.title"))
        self.picker = W.Dropdown(
            options=self.captures, description=_t("widgets.capture"), layout=W.Layout(width="36em")
        )
        self.call_picker = W.Dropdown(
            options=[("-", 0)], description=_t("widgets.value_explorer.call"), layout=W.Layout(width="22em")
        )
        self.cutoff_slider = W.IntSlider(
            min=0,
            max=1,
            description=_t("widgets.cutoff_slider"),
            continuous_update=True,
            style={"description_width": "initial"},
            layout=W.Layout(width="40em"),
        )
        self.image = _image(b"")
        self.summary = W.HTML()
        self.naive = W.HTML()
        self.beside = W.HTML()
        super().__init__(
            children=[
                self.title,
                W.HBox([self.picker, self.call_picker]),
                self.cutoff_slider,
                self.image,
                self.summary,
                self.naive,
                self.beside,
            ]
        )
        self._quiet = False
        if capture_name not in self.captures:
            raise ValueError(f"unknown capture {capture_name!r}; known: {', '.join(self.captures)}")
        self._load(capture_name, cutoff, call)
        self.picker.observe(lambda change: self._load(change["new"], None, 0), names="value")
        self.call_picker.observe(lambda change: None if self._quiet else self._update(), names="value")
        self.cutoff_slider.observe(lambda change: None if self._quiet else self._update(), names="value")

    def _load(self, name: str, cutoff: int | None, call: int) -> None:
        self.capture = name
        self.entry = captures.load(name)
        self.body = self.entry.body
        self.tracks, self.fragments = value_timeline(self.body, self.entry.contract)
        cutoff = len(self.body) if cutoff is None else cutoff
        check_int("cutoff", cutoff, minimum=0, maximum=len(self.body))
        names = [t.label for t in self.tracks if t.kind == "call"] or [_t("widgets.value_explorer.no_call")]
        check_int("call", call, minimum=0, maximum=len(names) - 1)
        self._quiet = True
        try:
            self.picker.value = name
            self.call_picker.options = [(label, i) for i, label in enumerate(names)]
            self.call_picker.value = call
            with self.cutoff_slider.hold_trait_notifications():
                self.cutoff_slider.max = len(self.body)
                self.cutoff_slider.value = cutoff
        finally:
            self._quiet = False
        self._update()

    @property
    def contract(self) -> str:
        return self.entry.contract

    @property
    def cutoff(self) -> int:
        return self.cutoff_slider.value

    @cutoff.setter
    def cutoff(self, value: int) -> None:
        check_int("cutoff", value, minimum=0, maximum=len(self.body))
        self.cutoff_slider.value = value

    @property
    def call(self) -> int:
        return self.call_picker.value

    @call.setter
    def call(self, value: int) -> None:
        check_int("call", value, minimum=0, maximum=len(self.call_picker.options) - 1)
        self.call_picker.value = value

    @property
    def png(self) -> bytes:
        return bytes(self.image.value)

    def _update(self) -> None:
        from ..core.completion import consume
        from .provisional import provisional

        self.result = consume([self.body[: self.cutoff]] if self.cutoff else [], self.contract)
        calls = [t for t in self.tracks if t.kind == "call"]
        self.track = calls[self.call] if calls else None
        arrived = [o for o in self.track.pieces if o <= self.cutoff] if self.track else []
        self.arrived_fragments = self.fragments[self.call][: len(arrived)] if calls else []
        found = self.result.tool_calls
        self.tool_call = found[self.call] if self.call < len(found) else None
        self.provisional = provisional(self.tool_call.arguments_text) if self.tool_call else None
        self.naive_results = [naive_parse(f) for f in self.arrived_fragments]
        figure = viz.draw_value_timeline(
            len(self.body),
            self.tracks,
            self.cutoff,
            title=_t("widgets.value_explorer.picture_title", capture=self.capture),
        )
        self.image.value = viz.figure_png(figure)
        self.summary.value = self._summary_html()
        self.naive.value = self._naive_html()
        self.beside.value = self._beside_html()

    def status(self) -> str:
        """The chosen call's state at the cut-off, in words."""
        call = self.tool_call
        if call is None:
            return _t("widgets.value_explorer.status.not_started")
        if not call.complete:
            return _t("widgets.value_explorer.status.open")
        if call.error is not None:
            return _t("widgets.value_explorer.status.not_json", error=call.error)
        return _t("widgets.value_explorer.status.closed")

    def _summary_html(self) -> str:
        r, call = self.result, self.tool_call
        head = _t(
            "widgets.value_explorer.summary",
            outcome=html.escape(str(r.outcome)),
            truncated_at=repr(r.truncated_at),
            cutoff=self.cutoff,
            total=len(self.body),
            capture=html.escape(self.capture),
        )
        if call is None:
            status = _t("widgets.value_explorer.call_status", number=self.call, status=self.status())
            return f"<div>{head}</div><div>{status}</div>"
        colour = "#2b8a3e" if call.complete and call.error is None else "#e8590c"
        shown = "" if self.provisional is None or self.provisional.value is None else self.provisional.value
        call_line = _t(
            "widgets.value_explorer.call_line",
            number=self.call,
            name=html.escape(call.name),
            colour=colour,
            status=html.escape(self.status()),
        )
        arguments_text = _t(
            "widgets.value_explorer.arguments_text",
            chars=len(call.arguments_text),
            text=_html_text(call.arguments_text),
        )
        arguments = _t("widgets.value_explorer.arguments", arguments=html.escape(repr(call.arguments)))
        guess = _t("widgets.value_explorer.provisional", shown=html.escape(repr(shown)))
        return (
            f"<div>{head}</div><div>{call_line}</div><div>{arguments_text}</div><div>{arguments}</div>"
            f'<div style="color:#868e96">{guess}</div>'
        )

    def _naive_html(self) -> str:
        rows = "".join(
            f"<tr><td><code>{_html_text(f)}</code></td><td>{html.escape(_naive_text(f))}</td></tr>"
            for f in self.arrived_fragments
        )
        empty = f"<tr><td>{_t('widgets.value_explorer.no_fragment')}</td></tr>"
        return (
            f"<div>{_t('widgets.value_explorer.naive_head')}</div>"
            f'<table style="font-size:85%">{rows or empty}</table>'
        )

    def _beside_html(self) -> str:
        r = self.result
        return (
            f'<div style="display:flex;gap:2em"><div>{_t("widgets.value_explorer.reasoning_head")}<br>'
            f'<span style="color:#6741d9">{_html_text(r.reasoning_text) or "—"}</span></div>'
            f"<div>{_t('widgets.value_explorer.text_head')}<br>{_html_text(r.text) or '—'}</div></div>"
        )

    def __repr__(self) -> str:
        r, call = self.result, self.tool_call
        parts = [
            _t(
                "widgets.value_explorer.repr",
                capture=self.capture,
                contract=self.contract,
                bytes=len(self.body),
                cutoff=self.cutoff,
                outcome=repr(str(r.outcome)),
                truncated_at=repr(r.truncated_at),
            )
        ]
        total = len(self.fragments[self.call]) if self.fragments else 0
        if call is None:
            parts.append(_t("widgets.value_explorer.call_status", number=self.call, status=self.status()))
        else:
            parts.append(
                _t(
                    "widgets.value_explorer.repr_call",
                    number=self.call,
                    name=call.name,
                    arrived=len(self.arrived_fragments),
                    total=total,
                    text=_excerpt(call.arguments_text, width=60),
                    status=self.status(),
                    arguments=repr(call.arguments),
                )
            )
            parts.append(repr(self.provisional))
        failed = sum(n.startswith("fails") for n in self.naive_results)
        parts.append(_t("widgets.value_explorer.repr_naive", failed=failed, total=len(self.naive_results)))
        parts.append(
            _t(
                "widgets.value_explorer.repr_reasoning",
                reasoning=_excerpt(r.reasoning_text, width=30),
                reasoning_chars=len(r.reasoning_text),
                text=_excerpt(r.text, width=30),
                text_chars=len(r.text),
            )
        )
        return _t("widgets.part_separator").join(parts)
