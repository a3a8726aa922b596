"""The line boundary: CR, LF, CRLF in every chunking, and nothing else is a line break."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib.core.errors import IncompleteStreamError, LimitExceededError, ParserStateError
from lesson_lib.core.lines import LineSplitter
from tests.strategies import line_ending, line_text


def split_all(pieces, endings="any", **options):
    splitter = LineSplitter(endings, **options)
    lines = []
    for piece in pieces:
        lines.extend(splitter.feed(piece))
    return lines, splitter


def reference_lines(text: str, endings: str = "any") -> list[str]:
    """Whole-input reference: complete lines only (what follows the last ending is unfinished)."""
    if endings == "any":
        return re.split(r"\r\n|\r|\n", text)[:-1]
    return [line.removesuffix("\r") for line in text.split("\n")[:-1]]


def test_crlf_split_across_two_reads_is_one_ending():
    lines, splitter = split_all(["data: 你好\r", "\ndata: 第二行\r\n"])
    assert lines == ["data: 你好", "data: 第二行"]
    assert not splitter.after_cr


def test_line_is_returned_as_soon_as_its_cr_arrives():
    splitter = LineSplitter()
    assert splitter.feed("完成\r") == ["完成"]
    assert splitter.after_cr
    assert splitter.feed("\n") == []  # the LF belongs to the CR's ending
    assert splitter.feed("\n") == [""]  # a second LF is a blank line


def test_characters_splitlines_would_break_on_are_data():
    text = "a\x0bb\x0cc\x1cd\x85e\u2028f\u2029g\n"
    assert text.splitlines() != ["a\x0bb\x0cc\x1cd\x85e\u2028f\u2029g"]  # the trap
    assert split_all([text])[0] == ["a\x0bb\x0cc\x1cd\x85e\u2028f\u2029g"]


def test_lf_mode_treats_a_lone_cr_as_data_and_strips_cr_before_lf():
    lines, _ = split_all(['{"a":"x\r', '"}\r', "\n", "{}\n"], endings="lf")
    assert lines == ['{"a":"x\r"}', "{}"]


def test_pending_state_and_close():
    splitter = LineSplitter()
    splitter.feed("data: caf")
    splitter.feed("é")
    assert splitter.pending_text == "data: café"
    assert splitter.pending_chars == 10
    with pytest.raises(IncompleteStreamError) as info:
        splitter.close()
    assert info.value.unit == "line"
    assert info.value.char_index == 0
    with pytest.raises(ParserStateError):
        splitter.feed("x")


def test_close_after_complete_lines_is_clean():
    splitter = LineSplitter()
    splitter.feed("a\r")
    assert splitter.close() == []


def test_line_limit_raises_at_the_first_character_past_it_and_stops():
    splitter = LineSplitter(max_line_chars=4)
    splitter.feed("ok\n你好")
    with pytest.raises(LimitExceededError) as info:
        splitter.feed("🙂🙂🙂")
    error = info.value
    assert (error.limit, error.maximum, error.char_index, error.line_index) == ("max_line_chars", 4, 7, 1)
    with pytest.raises(ParserStateError):
        splitter.feed("\n")


def test_line_limit_on_a_complete_line_inside_one_read():
    splitter = LineSplitter(max_line_chars=3)
    with pytest.raises(LimitExceededError) as info:
        splitter.feed("abc\r\nabcd\n")
    assert (info.value.char_index, info.value.line_index) == (8, 1)


def test_a_line_exactly_at_the_limit_passes():
    assert split_all(["abc", "\n"], max_line_chars=3)[0] == ["abc"]


def test_bad_options_are_refused():
    with pytest.raises(ValueError):
        LineSplitter("cr")
    with pytest.raises(ValueError):
        LineSplitter(max_line_chars=0)


@st.composite
def texts_and_cuts(draw, endings):
    lines = draw(st.lists(line_text, max_size=12))
    ends = endings if endings is not None else line_ending
    text = "".join(line + draw(ends) for line in lines) + draw(line_text)
    cuts = sorted(set(draw(st.lists(st.integers(0, len(text)), max_size=12))))
    bounds = [0, *cuts, len(text)]
    return text, [text[a:b] for a, b in itertools.pairwise(bounds)]


@settings(deadline=None)
@given(texts_and_cuts(None))
def test_any_endings_match_the_whole_input_reference_for_every_chunking(case):
    text, pieces = case
    assert split_all(pieces)[0] == reference_lines(text)


@settings(deadline=None)
@given(texts_and_cuts(st.sampled_from(["\n", "\r\n"])))
def test_lf_endings_match_the_whole_input_reference_for_every_chunking(case):
    text, pieces = case
    assert split_all(pieces, endings="lf")[0] == reference_lines(text, "lf")


def test_lf_mode_strips_one_cr_before_lf_and_keeps_the_others():
    # Only the CR of a CRLF ending goes: a CR before it is data (it survived a mutant that stripped all).
    text = '{"a": "你\r"}\r\r\n{"b": "é"}\r\n'
    for pieces in ([text], list(text), [text[:12], text[12:13], text[13:]]):
        assert split_all(pieces, endings="lf")[0] == ['{"a": "你\r"}\r', '{"b": "é"}']


@settings(deadline=None)
@given(st.data(), st.lists(st.text(alphabet="a你🙂\r", max_size=6), max_size=6))
def test_lf_mode_with_carriage_returns_inside_lines_matches_the_reference(data, lines):
    text = "".join(line + data.draw(st.sampled_from(["\n", "\r\n"])) for line in lines)
    cuts = sorted(set(data.draw(st.lists(st.integers(0, len(text)), max_size=8))))
    pieces = [text[a:b] for a, b in itertools.pairwise([0, *cuts, len(text)])]
    assert split_all(pieces, endings="lf")[0] == reference_lines(text, "lf")


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "8"])
def test_numeric_options_name_the_option_and_the_range(bad):
    with pytest.raises(ValueError, match=r"max_line_chars must be an int >= 1, or None; got"):
        LineSplitter(max_line_chars=bad)


def test_feed_takes_str_and_says_so_every_time():
    splitter = LineSplitter()
    for _ in range(2):
        with pytest.raises(TypeError, match="feed\\(\\) takes str, got bytes"):
            splitter.feed(b"data\n")
    assert splitter.feed("data: 你好\n") == ["data: 你好"]


# -- getstate / setstate: the state a caller that splits lines itself hands back (lesson_lib.core.sse_fast)
# ------
def _continue(splitter: LineSplitter, pieces: list[str]) -> tuple:
    """Feed the rest and close; everything observable: lines, error and where, the final state."""
    lines, error = [], None
    try:
        for piece in pieces:
            lines.extend(splitter.feed(piece))
        state = splitter.getstate()
        splitter.close()
    except (LimitExceededError, IncompleteStreamError) as exc:
        lines.extend(getattr(exc, "outputs", []) or [])
        error, state = (type(exc).__name__, exc.char_index, exc.line_index), None
    return lines, error, state


@settings(deadline=None)
@given(
    st.lists(st.one_of(line_text, line_ending), max_size=12).map("".join),
    st.data(),
    st.sampled_from(["any", "lf"]),
    st.sampled_from([None, 3, 8]),
)
def test_setstate_of_getstate_continues_exactly_as_the_original(text, data, endings, limit):
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=6)))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    handover = data.draw(st.integers(0, len(pieces)))
    original = LineSplitter(endings, max_line_chars=limit)
    try:
        for piece in pieces[:handover]:
            original.feed(piece)
    except LimitExceededError:
        return  # a failed splitter hands over nothing
    copy = LineSplitter(endings, max_line_chars=limit)
    copy.setstate(original.getstate())
    views = ("pending_text", "after_cr", "chars_in", "lines_out", "pending_chars")
    assert [getattr(copy, view) for view in views] == [getattr(original, view) for view in views]
    assert _continue(copy, pieces[handover:]) == _continue(original, pieces[handover:])


@settings(deadline=None)
@given(
    st.lists(st.one_of(line_text, line_ending), max_size=12).map("".join),
    st.data(),
    st.sampled_from(["any", "lf"]),
)
def test_a_state_computed_from_the_text_so_far_continues_to_the_whole_texts_lines(text, data, endings):
    """What the fast SSE parser does: split a prefix itself, hand the state over, let the splitter go on."""
    cut = data.draw(st.integers(0, len(text)))
    prefix = text[:cut]
    done = reference_lines(prefix, endings)
    after_cr = endings == "any" and prefix.endswith("\r")
    ending = re.compile(r"\r\n|\r|\n" if endings == "any" else r"\n")
    pending = ending.split(prefix)[-1]
    splitter = LineSplitter(endings, max_line_chars=None)
    splitter.setstate((pending, after_cr, len(prefix), len(done)))
    rest = splitter.feed(text[cut:])
    assert done + rest == reference_lines(text, endings)
    assert splitter.lines_out == len(reference_lines(text, endings))
    assert splitter.chars_in == len(text)


@pytest.mark.parametrize(("endings", "state", "message"), [
    ("any", ("a\nb", False, 3, 0), "line ending"),
    ("any", ("a\r", False, 2, 0), "line ending"),
    ("lf", ("a\n", False, 2, 0), "line ending"),
    ("any", ("你好", True, 3, 0), "after_cr"),
    ("lf", ("", True, 1, 0), "after_cr"),
    ("any", ("", 1, 1, 0), "after_cr"),
    ("any", ("é🙂", False, 1, 0), "chars_in"),
    ("any", ("", True, 0, 0), "chars_in"),
    ("any", ("", False, 0, -1), "lines_out"),
    ("any", ("", False, 2.0, 0), "chars_in"),
    ("any", ("x" * 9, False, 9, 0), "max_line_chars"),
])
def test_setstate_refuses_a_state_no_text_leads_to_and_changes_nothing(endings, state, message):
    splitter = LineSplitter(endings, max_line_chars=8)
    splitter.feed("你好\nca")
    before = splitter.getstate()
    with pytest.raises(ValueError, match=message):
        splitter.setstate(state)
    assert splitter.getstate() == before == ("ca", False, 5, 1)


def test_lf_mode_accepts_a_pending_cr_one_past_the_limit_as_feed_does():
    splitter = LineSplitter("lf", max_line_chars=3)
    splitter.feed("abc\r")  # the CR may be the first half of a CRLF: not part of the line
    copy = LineSplitter("lf", max_line_chars=3)
    copy.setstate(splitter.getstate())
    assert copy.feed("\n") == splitter.feed("\n") == ["abc"]


def test_a_closed_splitter_refuses_setstate():
    splitter = LineSplitter()
    splitter.close()
    with pytest.raises(ParserStateError):
        splitter.setstate(("", False, 0, 0))
