"""The explorers, headless: construct them, set values as a learner would, check what they show."""

from __future__ import annotations

import json
import re
from pathlib import Path

import ipywidgets as W
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib.core.chunking import split_at
from lesson_lib.core.sse import SSEParser
from lesson_lib.teach.widgets import (
    CutExplorer,
    EventExplorer,
    LayerInspector,
    LineExplorer,
    format_cuts,
    parse_cuts,
)

TEXT = "café 你好🙂"  # c a f é(2) SP 你(3) 好(3) 🙂(4): 16 bytes
STREAM = "data: 你好🙂\r\n\r\ndata: 第二行\n\n".encode()
DATA_DIR = Path(__file__).resolve().parents[2] / "data"
VIEW = "application/vnd.jupyter.widget-view+json"


def inside_character_offsets(text: str) -> set[int]:
    """Byte offsets strictly inside a multi-byte character, from the UTF-8 lengths alone."""
    offsets, position = set(), 0
    for ch in text:
        n = len(ch.encode("utf-8"))
        offsets.update(range(position + 1, position + n))
        position += n
    return offsets


def boundaries(text: str) -> list[int]:
    out, position = [], 0
    for ch in text[:-1]:
        position += len(ch.encode("utf-8"))
        out.append(position)
    return out


def descendants(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from descendants(child)


# -- CutExplorer -------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def explorer():
    return CutExplorer(TEXT, cuts=[4])


def test_cut_inside_e_acute_corrupts_only_the_per_read_decode():
    ex = CutExplorer(TEXT, cuts=[4])
    assert ex.cuts == [4]
    assert "\ufffd" in ex.replace_text
    assert ex.replace_text == "caf\ufffd\ufffd 你好🙂"
    assert ex.incremental_text == TEXT
    assert ex.first_difference == 3
    assert ex.replacement_count == 2


def test_cuts_at_character_boundaries_remove_the_difference():
    ex = CutExplorer(TEXT, cuts=[4])
    ex.cuts = boundaries(TEXT)
    assert ex.first_difference is None
    assert ex.replacement_count == 0
    assert ex.replace_text == ex.incremental_text == TEXT


def test_first_difference_and_count_for_several_cuts():
    ex = CutExplorer(TEXT, cuts=[7, 13])  # inside 你 (bytes 6-8) and inside 🙂 (bytes 12-15)
    assert ex.first_difference == 5
    assert ex.replacement_count == ex.replace_text.count("\ufffd") >= 2
    assert ex.incremental_text == TEXT


@pytest.mark.parametrize("text", [TEXT, "aé你🙂b", "ascii only", "第二行\u2028👩‍💻"])
def test_sweep_finds_exactly_the_cuts_inside_multibyte_characters(text):
    ex = CutExplorer(text)
    found = ex.sweep()
    assert found == sorted(inside_character_offsets(text))
    assert ex.corrupting == found
    assert f"{len(found)} single cut positions" in repr(ex)


def test_sweep_is_shown_in_the_picture():
    ex = CutExplorer(TEXT, cuts=[4])
    before = ex.png
    ex.sweep()
    assert ex.png != before
    assert "single cut positions corrupt" in ex.sweep_result.value


def test_code_round_trips():
    ex = CutExplorer(TEXT, cuts=[7, 3])
    assert ex.code == "cuts=[3, 7]"
    assert parse_cuts(ex.code) == [3, 7]
    other = CutExplorer(TEXT, cuts=ex.code)
    assert other.cuts == [3, 7]
    for cuts in ([], [4], [1, 2, 15]):
        assert parse_cuts(format_cuts(cuts)) == cuts
    assert format_cuts([4]) == "cuts=[4]"
    assert format_cuts([]) == "cuts=[]"
    assert parse_cuts("[3, 7]") == parse_cuts("3 7") == parse_cuts("cuts=3,7") == [3, 7]
    with pytest.raises(ValueError):
        parse_cuts("cuts=three")


@settings(max_examples=60, deadline=None)
@given(cuts=st.sets(st.integers(1, len(TEXT.encode()) - 1), max_size=6))
def test_code_pastes_into_a_call_as_written(cuts):
    """The code line, pasted as the last argument of the explorer's own call, replays the same cuts:
    ``cuts=4,`` or ``cuts=3,7`` would not (an int, a syntax error)."""
    ex = CutExplorer(TEXT, cuts=sorted(cuts))
    # what the learner sees: the line under the comparison and the code box
    assert f"code: <code>{ex.code}</code>" in ex.comparison.value
    assert ex.controls.code_text.value == ex.code
    namespace = {"CutExplorer": CutExplorer, "LineExplorer": LineExplorer, "TEXT": TEXT}
    again = eval(f"CutExplorer(TEXT, {ex.code})", namespace)  # the learner pastes it
    assert again.cuts == ex.cuts == sorted(cuts)
    lines = eval(f"LineExplorer(TEXT, {ex.code})", namespace)
    assert lines.cuts == sorted(cuts) and lines.code == ex.code
    # the keyword alone is a statement that binds a list of ints
    scope: dict = {}
    exec(ex.code, {}, scope)
    assert scope == {"cuts": sorted(cuts)} and isinstance(scope["cuts"], list)


def test_code_box_sets_the_cuts_and_rejects_nonsense():
    ex = CutExplorer(TEXT, cuts=[4])
    ex.controls.code_text.value = "cuts=3,7"
    assert ex.cuts == [3, 7]
    ex.controls.code_text.value = "cuts=99"
    assert ex.cuts == [3, 7]
    assert "cut 99 must be an int &gt;= 1 and &lt;= 15" in ex.controls.message.value


def test_repr_is_stable_and_informative():
    ex = CutExplorer(TEXT, cuts=[4])
    text = repr(ex)
    assert text == (
        "CutExplorer: 'café 你好🙂' (16 bytes) cut at 4 -> replace decode 'caf\\ufffd\\ufffd 你好🙂' "
        "(2 x U+FFFD, first difference at character 3); incremental decode 'café 你好🙂'"
    )
    assert repr(CutExplorer(TEXT, cuts=[4])) == text
    assert not re.search(r"0x[0-9a-f]{6,}", text)


def test_mimebundle_keeps_the_whole_repr_next_to_the_widget_view():
    ex = CutExplorer(
        "a much longer text, 你好🙂, so that the description is longer than 110 chars", cuts=[22]
    )
    bundle = ex._repr_mimebundle_()
    assert bundle["text/plain"] == repr(ex)
    assert len(bundle["text/plain"]) > 110  # ipywidgets' own bundle would cut it at 110
    assert bundle[VIEW]["model_id"] == ex.model_id


def test_initial_state_is_drawn_into_widget_values_not_printed():
    ex = CutExplorer(TEXT, cuts=[4])
    assert bytes(ex.image.value).startswith(b"\x89PNG\r\n\x1a\n")
    assert "<mark>" in ex.comparison.value and "2 × U+FFFD" in ex.comparison.value
    assert not any(isinstance(w, W.Output) for w in descendants(ex))


def test_image_is_png_and_changes_with_the_cuts():
    ex = CutExplorer(TEXT, cuts=[4])
    first = ex.png
    ex.cuts = [3]
    assert ex.png.startswith(b"\x89PNG") and ex.png != first
    ex.cuts = [4]
    assert ex.png == first  # deterministic


def test_dragging_adding_and_removing_cuts():
    ex = CutExplorer(TEXT, cuts=[4])
    ex.controls.sliders[0].value = 6  # drag
    assert ex.cuts == [6] and ex.first_difference is None
    ex.controls.add_button.click()
    assert len(ex.cuts) == 2 and ex.code == format_cuts(ex.cuts)
    remove_button = ex.controls._rows.children[0].children[1]
    remove_button.click()
    assert len(ex.cuts) == 1
    with pytest.raises(ValueError, match=r"^cut 16 must be an int >= 1 and <= 15; got 16$"):
        ex.cuts = [16]
    with pytest.raises(ValueError, match=r"^cut 2\.5 must be an int"):
        ex.cuts = [2.5]


# -- LayerInspector ----------------------------------------------------------------------------------------
def test_layer_inspector_rows_match_the_parser_states():
    cuts = [14, 17]  # inside 🙂; between CR and LF
    li = LayerInspector(STREAM, cuts=cuts)
    parser = SSEParser()
    assert len(li.rows) == 3
    for row, chunk in zip(li.rows, split_at(STREAM, cuts), strict=True):
        events = parser.feed(chunk)
        assert row["dispatched"] == events
        assert row["held_bytes"] == parser.held_bytes
        assert row["pending_line"] == parser.pending_line
        assert row["after_cr"] == parser.after_cr
        assert row["pending_data"] == parser.pending_data
        assert row["pending_event_type"] == parser.pending_event_type
        assert row["pending_id"] == parser.pending_id
        assert row["has_pending_event"] == parser.has_pending_event
    first, second, third = li.rows
    assert first["held_bytes"] == b"\xf0\x9f" and first["pending_line"] == "data: 你好"
    assert second["held_bytes"] == b"" and second["after_cr"] and second["pending_data"] == ["你好🙂"]
    assert [e.data for e in third["dispatched"]] == ["你好🙂", "第二行"]
    assert li.closing == {"ended_mid": None, "error": None, "failed_before_close": False}


def test_layer_inspector_steps_through_reads():
    li = LayerInspector(STREAM, cuts=[14, 17])
    assert li.step == 3  # everything shown at first
    last = li.png
    li.step = 1
    assert li.png != last and li.current is li.rows[0]
    assert repr(li) == (
        "LayerInspector: 37 bytes cut at 14,17 -> 3 reads, 2 events dispatched; after read 1 of 3: "
        "held f0 9f, pending line 'data: 你好', event so far —, dispatched in this read —"
    )
    li.step_slider.value = 2
    assert "pending line '' + CR, event so far data=['你好🙂']" in repr(li)
    assert "font-weight:bold" in li.table.value
    with pytest.raises(ValueError):
        li.step = 4
    li.cuts = [17]
    assert len(li.rows) == 2 and li.step == 2
    assert li._repr_mimebundle_()["text/plain"] == repr(li)


def test_layer_inspector_shows_a_decoding_error():
    li = LayerInspector(b"data: a\xff\n\n", cuts=[3])
    assert li.rows[-1]["error"] and "error" in repr(li)
    assert "not reached" in li.table.value


# -- LineExplorer and EventExplorer ------------------------------------------------------------------------
def test_line_explorer_shows_after_cr_across_reads():
    le = LineExplorer(b"one\r\ntwo\rthree\n", cuts=[4])
    assert le.rows[0]["after_cr"] and le.rows[0]["completed_lines"] == ["one"]
    assert le.lines == ["one", "two", "three"]
    le.step = 1
    assert "after CR yes" in repr(le)
    le.cuts = [3]  # CR and LF together in the second read
    assert le.lines == ["one", "two", "three"] and not le.rows[0]["after_cr"]


def test_event_explorer_dispatches_on_the_blank_line():
    ev = EventExplorer("event: greet\nid: 7\ndata: a\ndata: b\n\ndata: c\n")
    assert [r["chunk"] for r in ev.rows][:5] == [
        b"event: greet\n",
        b"id: 7\n",
        b"data: a\n",
        b"data: b\n",
        b"\n",
    ]
    assert [len(r["dispatched"]) for r in ev.rows] == [0, 0, 0, 0, 1, 0]
    (event,) = ev.events
    assert (event.type, event.data, event.last_event_id) == ("greet", "a\nb", "7")
    ev.step = 4
    assert "event so far event='greet' data=['a', 'b'] id='7'" in repr(ev)
    assert "middle of an event; what was pending is discarded" in ev.table.value
    ev.step = 6  # after the dispatch the id is remembered as the last event ID, not pending in an event
    assert "event so far data=['c']," in repr(ev) and "last event ID '7'" in repr(ev)


def test_the_remembered_id_is_not_shown_as_a_pending_event():
    ev = EventExplorer("id: 7\ndata: 你好\n\nid: 8\n", cuts=[6, 19, 20])
    ev.step = 3
    assert "event so far —" in repr(ev) and repr(ev).endswith("last event ID '7'")
    ev.step = 4  # a new id arrived for the next event: that one is pending
    assert "event so far id='8'" in repr(ev) and "last event ID '7'" in repr(ev)


# -- CompletionExplorer ------------------------------------------------------------------------------------
def test_completion_explorer_follows_the_cutoff():
    from lesson_lib.teach.widgets import CompletionExplorer

    manifest = json.loads((DATA_DIR / "manifest.json").read_text(encoding="utf-8"))
    entry = next(e for e in manifest["captures"] if e["outcome"] == "completed")
    ce = CompletionExplorer(entry["file"])
    assert ce.cutoff == len(ce.body)
    assert str(ce.result.outcome) == "completed"
    assert "outcome 'completed'" in repr(ce)
    ce.cutoff = len(ce.body) // 2
    assert str(ce.result.outcome) == "truncated" and ce.result.truncated_at is not None
    assert f"truncated_at {ce.result.truncated_at!r}" in repr(ce)
    assert "truncated" in ce.summary.value


def test_completion_explorer_maps_every_cutoff():
    from lesson_lib.teach.widgets import CompletionExplorer

    manifest = json.loads((DATA_DIR / "manifest.json").read_text(encoding="utf-8"))
    entry = min(manifest["captures"], key=lambda e: (DATA_DIR / e["file"]).stat().st_size)
    ce = CompletionExplorer(entry["file"])  # the file name with its extension works too
    assert ce.capture == entry["file"].rsplit(".", 1)[0] and ce.outcome_map is None and ce.png == b""
    labels = ce.map_outcomes()
    assert len(labels) == len(ce.body) + 1
    expected = entry["outcome"] + (f" at {entry['truncated_at']}" if entry["truncated_at"] else "")
    assert labels[-1] == expected
    assert ce.png.startswith(b"\x89PNG")
    before = ce.png
    ce.cutoff = 0
    assert ce.png != before and "over every cut-off" in repr(ce)
    other = next(e["file"] for e in manifest["captures"] if e["file"] != entry["file"]).rsplit(".", 1)[0]
    ce.picker.value = other
    assert ce.capture == other and ce.outcome_map is None and ce.cutoff == len(ce.body)
    with pytest.raises(ValueError, match="unknown capture"):
        CompletionExplorer("no/such/capture")


# -- ValueExplorer -----------------------------------------------------------------------------------------
def test_value_explorer_shows_the_call_open_until_the_service_closes_it():
    from lesson_lib.captures import load
    from lesson_lib.core.completion import consume
    from lesson_lib.teach.widgets import ValueExplorer, naive_parse, value_timeline

    name = "openai-chat/tools_parallel"
    ve = ValueExplorer(name)
    assert ve.cutoff == len(ve.body) and ve.tool_call is not None and ve.tool_call.complete
    assert "closed by the service" in repr(ve) and "display only" in repr(ve)
    tracks, fragments = value_timeline(ve.body, "openai-chat")
    closed = tracks[0].closed
    assert closed is not None and closed > max(tracks[0].pieces)
    for cutoff in (closed - 1, closed):  # the close arrives with [DONE], after every fragment
        ve.cutoff = cutoff
        assert ve.tool_call.complete == (cutoff == closed)
        assert ve.tool_call.arguments_text == "".join(fragments[0])
        assert (ve.tool_call.arguments is not None) == (cutoff == closed)
        assert ve.result == consume([ve.body[:cutoff]], "openai-chat")
    assert all(naive_parse(f).startswith("fails") for f in fragments[0])  # no fragment is JSON alone
    assert naive_parse('{"a": 1}') == 'ok: {"a": 1}'
    ve.call = 1
    ve.cutoff = tracks[1].pieces[2]
    assert len(ve.arrived_fragments) == 3 and ve.provisional is not None
    assert "\\ud83d" in ve.tool_call.arguments_text and ve.tool_call.arguments is None
    assert ve.png.startswith(b"\x89PNG")
    with pytest.raises(ValueError, match="call"):
        ve.call = 2
    with pytest.raises(ValueError, match="unknown capture"):
        ValueExplorer("openai-chat/completed")  # no tool call, no reasoning: not in its list
    reasoning = ValueExplorer("openai-chat/reasoning_deepseek")
    assert "not started" in repr(reasoning) or "no tool call" in repr(reasoning)
    assert reasoning.result.reasoning_text == load("openai-chat/reasoning_deepseek").reasoning_text


def test_completion_explorer_reaches_every_range_of_the_map():
    """After mapping, "next range" steps through every range in order, one-cut-off ranges included, and
    the range list moves the cut-off into the range chosen; the outcome there is the range's label."""
    from lesson_lib.teach.viz import outcome_label
    from lesson_lib.teach.widgets import CompletionExplorer

    ce = CompletionExplorer("gemini/completed_stop_every_chunk", cutoff=0)
    assert ce.range_controls.layout.display == "none" and ce.step_range(1) is None
    labels = ce.map_outcomes()
    assert ce.range_controls.layout.display is None
    assert [label for _, _, label in ce.ranges] == [
        label for i, label in enumerate(labels) if i == 0 or labels[i - 1] != label
    ]
    assert len(ce.range_picker.options) == len(ce.ranges)
    assert any(end - start == 1 for start, end, _ in ce.ranges)
    seen = [ce.range_index]
    assert ce.previous_button.disabled and not ce.next_button.disabled
    while not ce.next_button.disabled:
        ce.next_button.click()
        seen.append(ce.range_index)
        start, end, label = ce.ranges[ce.range_index]
        assert ce.cutoff == start and outcome_label(ce.result) == label
        assert ce.range_picker.value == ce.range_index
    assert seen == list(range(len(ce.ranges)))
    ce.previous_button.click()
    assert ce.range_index == len(ce.ranges) - 2
    for number in (3, 0, len(ce.ranges) - 1):
        ce.range_picker.value = number
        start, end, label = ce.ranges[number]
        assert start <= ce.cutoff < end and outcome_label(ce.result) == label
        assert ce.range_picker.label.startswith(f"{number + 1} of {len(ce.ranges)}: cut-off")
    ce.cutoff = ce.ranges[5][0] + (ce.ranges[5][1] - ce.ranges[5][0]) // 2  # the slider moves the list
    assert ce.range_picker.value == 5


def test_completion_explorer_buttons_are_as_wide_as_their_labels():
    from lesson_lib.teach.widgets import CompletionExplorer

    ce = CompletionExplorer("ollama/completed")
    for button in (ce.map_button, ce.previous_button, ce.next_button):
        assert button.layout.width == "auto", button.description


def test_the_completion_explorer_never_calls_a_cut_text_final_without_saying_so():
    """Gemini with STOP on every chunk: a cut after a later chunk is completed but not verifiable; a cut
    right after the first chunk is final to consume, and the explorer, which knows the capture goes on,
    says so."""
    from lesson_lib.teach.widgets import CompletionExplorer

    explorer = CompletionExplorer("gemini/completed_stop_every_chunk", cutoff=1369)
    assert explorer.result.outcome == "completed" and not explorer.result.end_verified
    assert "end_verified False" in repr(explorer) and "cannot be verified" in explorer.summary.value
    assert "is final" not in explorer.summary.value
    explorer.cutoff = 671  # the first chunk, whole: the bytes of a one-chunk answer
    assert explorer.result.final_text is not None
    assert "this capture goes on for 4095 more bytes (42 more characters of text)" in repr(explorer)
    assert "this capture goes on" in explorer.summary.value.lower()
    explorer.cutoff = len(explorer.body)
    assert explorer.hidden_end_note() == ""
    labels = set(explorer.map_outcomes())
    assert "completed, end not verifiable" in labels and "completed" in labels


def test_naive_parse_says_jsons_error_in_the_current_language(restore_language):
    from lesson_lib import set_language
    from lesson_lib.teach.widgets import naive_parse

    fragments = ['{"ci', "x", "1 2", '"\\u00', "{1", '{"a" 1', "[1 2", '"a\nb"', '"\\q"', '{"a": 1}']
    english = [naive_parse(f) for f in fragments]
    assert english[:3] == [
        "fails: Unterminated string starting at (char 1)",
        "fails: Expecting value (char 0)",
        "fails: Extra data (char 2)",
    ]
    set_language("zh-CN")
    chinese = [naive_parse(f) for f in fragments]
    assert chinese[-1] == '成功：{"a": 1}'
    assert all(
        c.startswith("失败：") and not any(w in c for w in ("Expecting", "Invalid", "Extra", "Unterminated"))
        for c in chinese[:-1]
    )
    assert chinese[0] == "失败：从这里开始的字符串没有结束（字符位置 1）"
