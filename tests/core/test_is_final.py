"""``StreamResult.is_final``: the one predicate for "this answer is final and safe to store".

It must be ``outcome is completed and end_verified``, agree with ``final_text``, not depend on the chunking,
and never be ``True`` for a cut stream whose bytes differ from a finished one. Checked over every capture in
``data/``, every prefix and any chunking (hypothesis), and on the two cases lesson 04 shows where ``outcome``
alone says ``completed`` but the end is not proven.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import Outcome, StreamResult, aconsume, consume, parse_sse
from lesson_lib.captures import load, names
from tests.strategies import partitions

CAPTURES = names()


def agrees(result: StreamResult) -> bool:
    expected = result.outcome is Outcome.COMPLETED and result.end_verified
    return result.is_final is expected and (result.final_text is not None) is expected


@pytest.mark.parametrize("name", CAPTURES)
def test_is_final_on_each_whole_capture(name):
    """Whole captures: final exactly when the capture completed and its last event carried the signal."""
    capture = load(name)
    result = consume([capture.body], capture.contract)
    assert agrees(result)
    expected = capture.outcome == "completed" and name != "gemini/completed_stop_every_chunk"
    assert result.is_final is expected
    if result.is_final:
        assert result.final_text == capture.text


@settings(deadline=None, max_examples=400)
@given(st.sampled_from(CAPTURES), st.data())
def test_is_final_does_not_depend_on_the_chunking_and_never_accepts_a_different_cut(name, data):
    """Any prefix of any capture, read in any chunking: the same ``is_final`` as read whole, agreeing with
    ``final_text``; a prefix called final carries the same text as the whole capture, except the one cut the
    Gemini SSE format cannot reveal (lesson 04, section 7: right after the first of several STOP chunks)."""
    capture = load(name)
    end = data.draw(st.integers(0, len(capture.body)), label="end")
    body = capture.body[:end]
    whole = consume([body], capture.contract)
    chunked = consume(data.draw(partitions(body), label="chunks"), capture.contract)
    assert agrees(whole) and agrees(chunked)
    assert chunked.is_final is whole.is_final
    if whole.is_final and end < len(capture.body):
        if name == "gemini/completed_stop_every_chunk":
            assert len(parse_sse([body])) == 1  # the bytes of a complete one-chunk answer
        else:
            assert whole.text == capture.text


@pytest.mark.parametrize("name", [n for n in CAPTURES if load(n).outcome == "completed"])
def test_every_strict_prefix_but_the_explained_ones_is_not_final(name):
    """Every strict prefix of every completed capture: ``is_final`` only where lesson 04's cell explains it
    (the missing LF of a last CRLF, or Gemini's first STOP chunk)."""
    capture = load(name)
    body = capture.body
    for end in range(len(body)):
        result = consume([body[:end]], capture.contract)
        if result.is_final:
            lf_only = body[end:] == b"\n" and body[end - 1 : end] == b"\r"
            first_stop = name == "gemini/completed_stop_every_chunk" and len(parse_sse([body[:end]])) == 1
            assert lf_only or first_stop, (name, end)


def test_completed_but_not_final_when_gemini_is_cut_before_its_last_event():
    """Lesson 04: branching on ``outcome`` accepts this cut answer; ``is_final`` does not."""
    capture = load("gemini/completed_stop_every_chunk")
    cut = capture.body.rindex(b"\r\n\r\n", 0, len(capture.body) - 4) + 4
    result = consume([capture.body[:cut]], "gemini")
    assert result.outcome is Outcome.COMPLETED
    assert not result.end_verified and not result.is_final and result.text != capture.text


def test_completed_but_not_final_when_events_follow_done():
    """Lesson 04: ``[DONE]`` followed by more events (here a further text delta) keeps ``completed`` but
    is not final: a stream that says it ended and then goes on proves nothing about where it ends."""
    capture = load("openai-chat/completed")
    delta = {"index": 0, "delta": {"content": "再见 🙂"}}
    extra = {"id": "x", "object": "chat.completion.chunk", "choices": [delta]}
    body = capture.body + f"data: {json.dumps(extra, ensure_ascii=False)}\n\n".encode()
    result = consume([body], "openai-chat")
    assert result.outcome is Outcome.COMPLETED and result.stats.events_after_terminal == 1
    assert not result.end_verified and not result.is_final and result.final_text is None


def test_incomplete_is_never_final():
    """A whole stream with a cut answer (length, max tokens, safety) is not safe to store as the answer."""
    for name in CAPTURES:
        capture = load(name)
        result = consume([capture.body], capture.contract)
        if result.outcome is Outcome.INCOMPLETE:
            assert result.end_verified and not result.is_final, name


@pytest.mark.parametrize("name", ["openai-chat/completed", "gemini/completed_stop_every_chunk"])
def test_is_final_is_the_same_over_async_reads(name):
    import asyncio

    capture = load(name)

    async def reads():
        for i in range(0, len(capture.body), 7):
            yield capture.body[i : i + 7]

    result = asyncio.run(aconsume(reads(), capture.contract))
    assert result.is_final is consume([capture.body], capture.contract).is_final
