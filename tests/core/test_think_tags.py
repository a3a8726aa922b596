"""Reasoning inside the answer text (``lesson_lib.core.think_tags``): the same split in every cutting.

The oracle is the text as a whole, split with ``str.find`` by the module's rules; the splitter is given the
same text cut into deltas anywhere (every two-piece cut, random partitions, one character at a time) and
must give the same answer and reasoning, hold back no more than a tag's beginning, and lose nothing. Then
``consume(..., think_tags=True)`` on a GLM-Z1-shaped capture: the same verdict, text and reasoning in
every chunking of the bytes, and a tag cut between two service deltas.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import ReasoningDelta, TextDelta, ThinkTagSplitter, consume, stream_updates
from lesson_lib.core.chunking import one_byte_chunks
from lesson_lib.core.think_tags import CLOSE_TAG, OPEN_TAG


def whole_split(text: str) -> tuple[str, str]:
    """(answer, reasoning) of the whole text at once, by the module's rules."""
    answer, reasoning, inside, start = [], [], False, 0
    while True:
        tag = CLOSE_TAG if inside else OPEN_TAG
        found = text.find(tag, start)
        if found < 0:
            (reasoning if inside else answer).append(text[start:])
            return "".join(answer), "".join(reasoning)
        (reasoning if inside else answer).append(text[start:found])
        inside, start = not inside, found + len(tag)


def run_splitter(pieces: list[str]) -> tuple[str, str, list[TextDelta | ReasoningDelta]]:
    splitter = ThinkTagSplitter()
    out: list[TextDelta | ReasoningDelta] = []
    for piece in pieces:
        out += splitter.feed(piece)
        assert len(splitter.held) < len(CLOSE_TAG)
    out += splitter.close()
    assert splitter.held == ""
    answer = "".join(s.text for s in out if isinstance(s, TextDelta))
    reasoning = "".join(s.text for s in out if isinstance(s, ReasoningDelta))
    return answer, reasoning, out


GLM_TEXT = "<think>用户问：1+1=? 先想一想 🙂</think>答案是 2。Ångström, café."


def test_reasoning_and_answer_of_a_glm_z1_style_text_in_every_two_piece_cut():
    expected = ("答案是 2。Ångström, café.", "用户问：1+1=? 先想一想 🙂")
    assert whole_split(GLM_TEXT) == expected
    for cut in range(len(GLM_TEXT) + 1):
        answer, reasoning, out = run_splitter([GLM_TEXT[:cut], GLM_TEXT[cut:]])
        assert (answer, reasoning) == expected, cut
        assert all(s.text for s in out)  # never an empty piece
        assert not any("<think>" in s.text or "</think>" in s.text for s in out)


def test_one_character_at_a_time():
    assert run_splitter(list(GLM_TEXT))[:2] == whole_split(GLM_TEXT)


def test_a_delta_that_ends_inside_the_tag_is_held_back_until_the_next_decides():
    splitter = ThinkTagSplitter()
    assert splitter.feed("<thi") == [] and splitter.held == "<thi"
    assert splitter.feed("nk>想") == [ReasoningDelta("想")] and splitter.inside
    assert splitter.feed("</th") == [] and splitter.held == "</th"
    assert splitter.feed("ink>好") == [TextDelta("好")] and not splitter.inside
    assert splitter.tags_seen == 2
    # A beginning that turns out not to be a tag is text, and comes out then.
    assert splitter.feed("a <") == [TextDelta("a ")] and splitter.held == "<"
    assert splitter.feed("b> c") == [TextDelta("<b> c")]
    assert splitter.feed("x <b") == [TextDelta("x <b")]  # "<b" cannot begin <think>: nothing held


def test_a_tag_never_finished_is_text_of_the_kind_it_was_in():
    splitter = ThinkTagSplitter()
    assert splitter.feed("<think>still thinking </thin") == [ReasoningDelta("still thinking ")]
    assert splitter.close() == [ReasoningDelta("</thin")]
    assert splitter.close() == []


def test_tags_do_not_nest_and_a_closing_tag_outside_is_text():
    assert whole_split("a</think>b<think>c<think>d</think>e") == ("a</think>be", "c<think>d")
    assert run_splitter(list("a</think>b<think>c<think>d</think>e"))[:2] == ("a</think>be", "c<think>d")


_FRAGMENTS = ["<think>", "</think>", "<", "</", "<th", "think>", ">", "想", "é", "🙂", "a", " ", "<thin"]


@settings(deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=14).map("".join), st.data())
def test_the_split_is_the_same_in_every_cutting(text, data):
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=8)))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    splitter = ThinkTagSplitter()
    out = [piece for chunk in pieces for piece in splitter.feed(chunk)] + splitter.close()
    answer = "".join(s.text for s in out if isinstance(s, TextDelta))
    reasoning = "".join(s.text for s in out if isinstance(s, ReasoningDelta))
    assert (answer, reasoning) == whole_split(text)
    # Nothing lost or added: the pieces and the tags taken out are the text's characters, every one.
    tags = sum(len(CLOSE_TAG if n % 2 else OPEN_TAG) for n in range(splitter.tags_seen))
    assert len(answer) + len(reasoning) + tags == len(text)


def _glm_z1_body(deltas: list[str]) -> bytes:
    """A GLM-Z1-shaped stream (Zhipu's OpenAI-style chunks, reasoning inside ``content``), fictional text."""
    events = []
    for delta in deltas:
        chunk = {
            "id": "glm-z1-1",
            "created": 1767225600,
            "model": "glm-z1-air",
            "choices": [{"index": 0, "delta": {"role": "assistant", "content": delta}}],
        }
        events.append(f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n")
    last = {
        "id": "glm-z1-1",
        "created": 1767225600,
        "model": "glm-z1-air",
        "choices": [{"index": 0, "finish_reason": "stop", "delta": {"role": "assistant", "content": ""}}],
    }
    events.append(f"data: {json.dumps(last)}\n\ndata: [DONE]\n\n")
    return "".join(events).encode()


def test_consume_with_think_tags_in_every_chunking_of_the_bytes():
    deltas = ["<thi", "nk>用户问 1+1", "。🙂</", "think>", "答案是 2", "。"]  # both tags cut between deltas
    body = _glm_z1_body(deltas)
    plain = consume([body], "openai-chat")
    assert plain.text == "".join(deltas) and plain.reasoning_text == ""
    whole = consume([body], "openai-chat", think_tags=True)
    expected = ("completed", "答案是 2。", "用户问 1+1。🙂")
    assert (whole.outcome.value, whole.text, whole.reasoning_text) == expected
    assert whole.final_text == "答案是 2。"
    for cut in range(len(body) + 1):
        result = consume([body[:cut], body[cut:]], "openai-chat", think_tags=True)
        assert (result.outcome, result.text, result.reasoning_text) == (
            whole.outcome,
            whole.text,
            whole.reasoning_text,
        ), cut
    result = consume(one_byte_chunks(body), "openai-chat", think_tags=True)
    assert (result.text, result.reasoning_text) == (whole.text, whole.reasoning_text)


def test_updates_carry_reasoning_apart_and_the_held_text_comes_out_before_the_terminal():
    from lesson_lib.core.contracts import Terminal

    body = _glm_z1_body(["<think>想</think>好 <", "b>, <"])  # "<" held back twice: text after all
    updates = list(stream_updates([body], "openai-chat", think_tags=True))
    pieces = [u for u in updates if isinstance(u, (TextDelta, ReasoningDelta))]
    assert pieces == [ReasoningDelta("想"), TextDelta("好 "), TextDelta("<b>, "), TextDelta("<")]
    terminal = next(n for n, u in enumerate(updates) if isinstance(u, Terminal))
    assert updates.index(TextDelta("<")) < terminal
    assert updates[-1].text == "好 <b>, <" and updates[-1].outcome.value == "completed"


def test_a_stream_cut_inside_a_tag_keeps_the_beginning_as_text():
    body = _glm_z1_body(["<think>想</think>好</thi"])
    cut = body.index(b"data: [DONE]")
    body = body[: body.rindex(b"data: ", 0, cut)]  # drop the finish chunk and [DONE]: truncated
    result = consume([body], "openai-chat", think_tags=True)
    assert result.outcome.value == "truncated"
    assert (result.text, result.reasoning_text) == ("好</thi", "想")


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_think_tags_must_be_a_bool(value):
    with pytest.raises(TypeError, match="think_tags"):
        consume([b""], "openai-chat", think_tags=value)


def test_a_think_tag_never_closed_keeps_the_rest_as_reasoning():
    body = _glm_z1_body(["<think>想了很久，", "还没想完 🙂 café"])
    result = consume([body], "openai-chat", think_tags=True)
    assert (result.outcome.value, result.text) == ("completed", "")
    assert result.reasoning_text == "想了很久，还没想完 🙂 café"


def test_text_before_an_unclosed_think_tag_is_the_answer_and_an_unfinished_close_is_reasoning():
    splitter = ThinkTagSplitter()
    out = splitter.feed("前言 <think>想") + splitter.feed("还在想 </thi") + splitter.close()
    reasoning = [ReasoningDelta("想"), ReasoningDelta("还在想 "), ReasoningDelta("</thi")]
    assert out == [TextDelta("前言 "), *reasoning]
