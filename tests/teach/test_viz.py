"""The pictures: glyph choice, no missing-glyph warnings, deterministic PNGs, the layer rows."""

from __future__ import annotations

import io
import logging
import warnings

import numpy as np
import pytest
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from PIL import Image

from lesson_lib.core.chunking import split_at
from lesson_lib.core.sse import SSEParser
from lesson_lib.teach import viz
from lesson_lib.teach.viz import glyphs

MIXED = "café 你好🙂 第二行 👩‍💻 ok"
STREAM = "data: 你好🙂\r\n\r\ndata: 第二行\n\n".encode()




def _missing_glyph_warnings(records) -> list[str]:
    return [str(w.message) for w in records if "missing from font" in str(w.message)]


# -- glyph labels ------------------------------------------------------------------------------------------
def test_glyph_label_uses_the_glyph_when_dejavu_covers_it():
    assert viz.glyph_label("é") == "é"
    assert viz.glyph_label("A") == "A"
    assert viz.glyph_font("é") == "DejaVu Sans"


def test_glyph_label_names_controls_and_space():
    assert [viz.glyph_label(c) for c in "\r\n\t \x00\x85"] == ["CR", "LF", "TAB", "SP", "NUL", "NEL"]


def test_glyph_label_falls_back_to_the_code_point_when_no_font_covers_it(dejavu_only):
    assert viz.glyph_label("你") == "U+4F60"
    assert viz.glyph_label("第") == "U+7B2C"
    assert viz.glyph_font("你") is None


def test_glyph_label_uses_a_covering_font_other_than_dejavu(monkeypatch):
    viz._reset_font_caches()
    monkeypatch.setattr(glyphs, "_candidate_families", lambda: (viz.SANS, "Some CJK Sans"))
    real = glyphs._family_charmap
    monkeypatch.setattr(
        glyphs,
        "_family_charmap",
        lambda family: frozenset({0x4F60}) if family == "Some CJK Sans" else real(family),
    )
    try:
        assert viz.glyph_label("你") == "你"
        assert viz.glyph_font("你") == "Some CJK Sans"
        assert viz.glyph_label("好") == "U+597D"
    finally:
        monkeypatch.undo()
        viz._reset_font_caches()


def test_a_glyph_from_a_fallback_font_is_drawn_without_warnings():
    """The CJK path end to end, with a font matplotlib always ships: U+210A is not in DejaVu Sans."""
    ch = "\u210a"  # SCRIPT SMALL G, in DejaVu Math TeX Gyre and STIXGeneral
    assert viz.glyph_font(ch) not in (None, viz.SANS)
    assert viz.glyph_label(ch) == ch
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        viz.figure_png(viz.draw_byte_strip(f"a{ch}你🙂", [2]))
        viz.figure_png(viz.draw_layers(viz.sse_layer_rows(f"data: {ch}\n\n".encode())))
    assert _missing_glyph_warnings(records) == []
    plain = Figure(figsize=(1, 1))
    plain.text(0.5, 0.5, ch, family=viz.SANS)
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        viz.figure_png(plain)
    assert _missing_glyph_warnings(records)  # DejaVu Sans alone would have needed the fallback


def test_emoji_and_invisible_characters_are_always_code_points(monkeypatch):
    # even if some font claimed to cover them
    viz._reset_font_caches()
    monkeypatch.setattr(glyphs, "_family_charmap", lambda family: frozenset(range(0x110000)))
    try:
        assert viz.glyph_label("🙂") == "U+1F642"
        assert viz.glyph_label("🚀") == "U+1F680"
        assert viz.glyph_label("\u200d") == "U+200D"  # zero width joiner
        assert viz.glyph_label("\ufeff") == "U+FEFF"
        assert viz.glyph_label("\u0301") == "U+0301"  # combining acute
        assert viz.glyph_label("\u2028") == "U+2028"
    finally:
        monkeypatch.undo()
        viz._reset_font_caches()


def test_glyph_choice_matches_the_installed_fonts():
    """Independently of the implementation: a glyph is chosen iff some outline font file covers it."""
    from matplotlib import font_manager, ft2font

    def covered(code: int) -> bool:
        for entry in font_manager.fontManager.ttflist:
            if entry.name.startswith("Last Resort"):
                continue
            try:
                font = ft2font.FT2Font(entry.fname, face_index=entry.index)
            except (OSError, RuntimeError, ValueError):
                continue
            if ft2font.FaceFlags.COLOR in font.face_flags:
                continue
            if code in font.get_charmap():
                return True
        return False

    for ch in "你é":
        label = viz.glyph_label(ch)
        assert label in (ch, f"U+{ord(ch):04X}")
        if label == ch:
            assert covered(ord(ch))
        # a regular face may lack a glyph a bold face has, so only one direction is exact
    if not covered(ord("你")):
        assert viz.glyph_label("你") == "U+4F60"


def test_glyph_label_is_deterministic():
    first = [viz.glyph_label(c) for c in MIXED]
    viz._reset_font_caches()
    assert [viz.glyph_label(c) for c in MIXED] == first


# -- no missing-glyph warnings -----------------------------------------------------------------------------
def test_the_warning_check_can_see_a_missing_glyph():
    fig = Figure(figsize=(2, 1))
    fig.text(0.1, 0.5, "你", family="DejaVu Sans")
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        viz.figure_png(fig)
    assert _missing_glyph_warnings(records)


@pytest.mark.parametrize("fonts", ["installed", "dejavu_only"])
def test_drawing_chinese_and_emoji_emits_no_missing_glyph_warning(fonts, request, caplog):
    if fonts == "dejavu_only":
        request.getfixturevalue("dejavu_only")
    data = (MIXED + "\r\n").encode() + b"\xff\xe4\xbd"
    rows = viz.sse_layer_rows(STREAM, [14, 17], errors="strict")
    with (
        caplog.at_level(logging.WARNING, logger="matplotlib"),
        warnings.catch_warnings(record=True) as records,
    ):
        warnings.simplefilter("always")
        viz.figure_png(viz.draw_byte_strip(data, [4, 9], corrupting=[4, 7]))
        viz.figure_png(viz.draw_layers(rows, step=2))
        viz.ByteStripPicture(MIXED).png([3])
    assert _missing_glyph_warnings(records) == []
    assert [r for r in caplog.records if "font" in r.getMessage().lower()] == []


# -- the byte strip ----------------------------------------------------------------------------------------
def _png_array(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)))


def test_strip_is_a_png_of_the_declared_size_and_deterministic():
    data = MIXED.encode()
    fig = viz.draw_byte_strip(data, [4])
    assert tuple(fig.get_size_inches()) == pytest.approx(viz.strip_figsize(len(data)))
    png = viz.figure_png(fig)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert png == viz.figure_png(viz.draw_byte_strip(data, [4]))
    width, height = viz.strip_figsize(len(data))
    assert _png_array(png).shape[:2] == (round(height * viz.DPI), round(width * viz.DPI))


def test_cached_strip_is_pixel_identical_to_the_direct_drawing():
    data = MIXED.encode()
    picture = viz.ByteStripPicture(data, corrupting=[4])
    for cuts in ([4], [3, 9, 24], []):
        direct = viz.figure_png(viz.draw_byte_strip(data, cuts, corrupting=[4]))
        assert np.array_equal(_png_array(picture.png(cuts)), _png_array(direct))


def test_strip_changes_with_the_cuts():
    picture = viz.ByteStripPicture("café")
    assert picture.png([3]) != picture.png([4])


def test_cut_inside_a_character_is_drawn_in_the_warning_colour():
    fig = viz.draw_byte_strip("café", [3, 4])  # 3: before é, 4: inside é
    ax = fig.axes[0]
    (lines,) = [c for c in ax.collections if c.get_gid() == "cuts"]
    assert [to_hex(c) for c in lines.get_colors()] == [viz.CUT_COLOUR, viz.WARNING_COLOUR]


def test_bytes_are_coloured_by_role():
    """Invalid bytes red; a continuation byte a lighter shade of its character's lead byte."""
    fig = viz.draw_byte_strip(b"a\xff\xc3\xa9", [])
    by_gid = {c.get_gid(): c for c in fig.axes[0].collections if c.get_gid()}
    assert len(by_gid["invalid"].get_paths()) == 1
    assert to_hex(by_gid["invalid"].get_facecolor()[0]) == viz.INVALID_COLOUR
    lead_colours = [to_hex(c) for c in by_gid["lead"].get_facecolor()]
    assert lead_colours == [viz.ASCII_COLOUR, viz.PALETTE[0]]  # "a", then the lead byte of é
    (continuation,) = [to_hex(c) for c in by_gid["continuation"].get_facecolor()]
    assert continuation == viz._lighter(viz.PALETTE[0], 0.65) != lead_colours[1]
    assert "incomplete" not in by_gid
    truncated = viz.draw_byte_strip("é".encode()[:1], [])
    assert any(c.get_gid() == "incomplete" for c in truncated.axes[0].collections)


def test_strip_draws_into_a_given_axes_and_checks_cuts():
    fig = Figure(figsize=viz.strip_figsize(5))
    ax = fig.add_subplot()
    assert viz.draw_byte_strip("héllo"[:4], [2], ax=ax) is fig
    with pytest.raises(ValueError, match="cut 9"):
        viz.draw_byte_strip("abc", [9])


def test_long_strips_wrap_into_rows():
    data = bytes(range(0x41, 0x41 + 26)) * 4
    w1, h1 = viz.strip_figsize(len(data), 24)
    w2, h2 = viz.strip_figsize(len(data), 52)
    assert h1 > h2 and w1 < w2
    assert viz.ByteStripPicture(data).png([24, 48]).startswith(b"\x89PNG")


# -- layer rows and the layers picture ---------------------------------------------------------------------
def test_sse_layer_rows_are_the_parser_states_after_each_read():
    cuts = [14, 17, 19]  # inside 🙂, between the first CR and LF, between the second CR and LF
    rows = viz.sse_layer_rows(STREAM, cuts)
    parser = SSEParser()
    for row, chunk in zip(rows, split_at(STREAM, cuts), strict=True):
        dispatched = parser.feed(chunk)
        assert row["chunk"] == chunk
        assert row["dispatched"] == dispatched
        assert {k: row[k] for k in parser.snapshot()} == parser.snapshot()
    assert rows[0]["held_bytes"] == "🙂".encode()[:2]
    assert rows[1]["after_cr"] and rows[1]["pending_data"] == ["你好🙂"]
    assert [e.data for e in rows[2]["dispatched"]] == ["你好🙂"] and rows[2]["after_cr"]
    assert [e.data for e in rows[3]["dispatched"]] == ["第二行"]


def test_sse_layer_rows_stop_at_a_failing_read():
    rows = viz.sse_layer_rows(b"data: a\xff\n\n", [3])
    assert len(rows) == 2 and rows[-1]["error"] and "byte offset 7" in rows[-1]["error"]
    assert viz.sse_close_state(b"data: a\xff\n\n", [3])["failed_before_close"]
    closing = viz.sse_close_state(STREAM[:14], [])
    assert closing["ended_mid"] == "character" and closing["error"]


def test_line_layer_rows_keep_a_split_crlf_as_one_ending():
    rows = viz.line_layer_rows(b"one\r\ntwo\n", [4])
    assert rows[0]["completed_lines"] == ["one"] and rows[0]["after_cr"]
    assert rows[1]["completed_lines"] == ["two"] and not rows[1]["after_cr"]


def test_layers_picture_is_deterministic_and_the_cached_steps_match():
    rows = viz.sse_layer_rows(STREAM, [14, 17])
    picture = viz.LayersPicture(rows)
    assert picture.columns == ("read", "character", "line", "event", "dispatched")
    for step in (1, 3):
        direct = viz.figure_png(viz.draw_layers(rows, step=step))
        assert np.array_equal(_png_array(picture.png(step)), _png_array(direct))
    assert picture.png(1) != picture.png(2)
    with pytest.raises(ValueError, match="unknown columns"):
        viz.LayersPicture(rows, ["nope"])


def test_visible_text_escapes_what_cannot_be_drawn(dejavu_only):
    assert viz.visible_text("a\r\n你🙂") == "a\\r\\n<U+4F60><U+1F642>"
    assert viz.chunk_text(b"data: \xe4\xbd\r") == "data: \\xe4\\xbd\\r"


def test_the_course_map_shows_the_five_boundaries_deterministically():
    from lesson_lib.teach.viz import BOUNDARIES, boundary_texts, draw_boundaries

    fig = draw_boundaries()
    texts = {t.get_text() for t in fig.axes[0].texts}
    assert {name for name, _, _ in boundary_texts()} <= texts
    assert list(BOUNDARIES) == ["chunk", "character", "line", "event", "value", "completion"]
    assert [name for name, _, _ in boundary_texts()] == list(BOUNDARIES)  # English: named as in the code
    assert viz.figure_png(fig) == viz.figure_png(draw_boundaries())


def test_pad_lines_up_chinese_and_english_by_display_columns():
    assert viz.display_width("没有代理") == 8 and viz.display_width("nginx") == 5
    assert viz.display_width("e\u0301") == 1  # a combining mark takes no column
    assert viz.display_width("：") == 2  # full-width punctuation
    assert viz.pad("没有代理", 12) == "没有代理    " and viz.pad("nginx", 12) == "nginx       "
    padded = [viz.pad("没有代理", 32), viz.pad("nginx defaults", 32)]
    assert [viz.display_width(text) for text in padded] == [32, 32]
    assert viz.pad("too wide already", 4) == "too wide already"
    assert viz.pad("没有代理", 10, right=True) == "  没有代理" and viz.pad("1.25", 6, right=True) == "  1.25"
    assert viz.pad("too wide already", 4, right=True) == "too wide already"
