"""The self-checks: every question accepts its true answer, rejects wrong ones, and never leaks the answer.

The answers here are computed with lesson_lib wherever the library can compute them, so a question whose
stored answer disagrees with the library fails.
"""

from __future__ import annotations

import pytest

from lesson_lib import LineSplitter, Outcome, SSEParser, consume, parse_sse, stream_updates
from lesson_lib.activity import Watchdog
from lesson_lib.captures import load
from lesson_lib.chunking import two_piece_splits
from lesson_lib.decoding import IncrementalUTF8Decoder, naive_decode
from lesson_lib.exercises import QUESTIONS, _load_all, check, question, questions
from lesson_lib.lines import _ANY_ENDING


def _close_error_name(data: bytes) -> str:
    decoder = IncrementalUTF8Decoder()
    decoder.feed(data)
    try:
        decoder.close()
    except Exception as error:  # we want the class name, whatever it is
        return type(error).__name__
    return "none"


def _last_event_id(body: bytes) -> str:
    parser = SSEParser()
    parser.feed(body)
    return parser.last_event_id


def _gemini_cut_between_events_passes() -> bool:
    capture = load("gemini/completed_stop_every_chunk")
    boundary = capture.body.rindex(b"\r\n\r\n", 0, len(capture.body) - 4) + 4  # before the last event
    return consume([capture.body[:boundary]], "gemini").outcome is Outcome.COMPLETED


def _first_idle_limit_with_a_byte_per_second() -> str:
    now = [0.0]
    dog = Watchdog(byte_idle=30, event_idle=60, progress_idle=120, clock=lambda: now[0])
    while dog.check() is None:
        now[0] += 1
        dog.on_bytes(1)
    return dog.check().limit


def _ping_moves_progress() -> bool:
    now = [0.0]
    dog = Watchdog(clock=lambda: now[0])
    now[0] = 5.0
    dog.on_heartbeat(16)
    return dog.last_progress == 5.0


def _closes_after_early_break() -> int:
    class Source:
        closes = 0

        def __iter__(self):
            yield from [b"data: {}\n\n"] * 3

        def close(self):
            Source.closes += 1

    updates = stream_updates(Source(), "openai-chat")
    next(updates)
    updates.close()
    return Source.closes


def _pending_after(*pieces: str) -> str:
    splitter = LineSplitter()
    for piece in pieces:
        splitter.feed(piece)
    return splitter.pending_text


ANSWERS = {
    "01.bytes": len("你好🙂".encode()),
    "01.corrupting_cuts": [c for c, p in two_piece_splits("café".encode()) if naive_decode(p) != "café"],
    "01.held_max": 3,
    "01.final": _close_error_name("🙂".encode()[:3]),
    "01.replace": "B",
    "02.lines": len(_ANY_ENDING.split("a\r\nb\rc\n\nd")) - 1,
    "02.cr_lf_across": 1,
    "02.splitlines": [
        letter
        for letter, ch in zip("ABCD", "\n\x85\u2028\r", strict=True)
        if len(f"x{ch}y".splitlines()) == 2 and len(_ANY_ENDING.split(f"x{ch}y")) == 1
    ],
    "02.pending": _pending_after("data: 你", "好"),
    "03.events": len(parse_sse([b"data: a\n\ndata\n\n: ping\n\nevent: x\n\n"])),
    "03.space": {"x": "A", " x": "B", "  x": "C"}[parse_sse([b"data:  x\n\n"])[0].data],
    "03.id": {"7": "A", "": "B"}[_last_event_id(b"id: 7\ndata: a\n\nid\ndata: b\n\n")],
    "03.json_when": "C",
    "03.framing": "B",
    "00.held_layer": "B",
    "00.closed_socket": consume([load("openai-chat/truncated_clean_boundary").body], "openai-chat").outcome
    is Outcome.COMPLETED,
    "00.openai_done": parse_sse([load("openai-chat/completed").body])[-1].data,
    "04.done_owner": {"openai-chat": "A", "openai-responses": "B", "anthropic-messages": "C", "gemini": "D"}[
        next(
            c
            for c in ("openai-chat", "openai-responses", "anthropic-messages", "gemini")
            if b"[DONE]" in load(f"{c}/completed").body
        )
    ],
    "04.clean_eof": str(
        consume([load("anthropic-messages/truncated_clean_boundary").body], "anthropic-messages").outcome
    ),
    "04.length": str(consume([load("openai-chat/incomplete").body], "openai-chat").outcome),
    "04.anthropic_terminal": parse_sse([load("anthropic-messages/completed").body])[-1].type,
    "04.gemini_cut": not _gemini_cut_between_events_passes(),
    "05.ping_progress": _ping_moves_progress(),
    "05.which_clock": {"byte_idle": "A", "event_idle": "B", "progress_idle": "C"}[
        _first_idle_limit_with_a_byte_per_second()
    ],
    "05.limit": "C"
    if consume([load("openai-chat/completed").body], "openai-chat", max_line_chars=10).outcome
    is Outcome.LIMIT_EXCEEDED
    else "A",
    "05.closes": _closes_after_early_break(),
    "07.splits": len(list(two_piece_splits(b"0123456789"))),
    "07.every_boundary": "C",
    "07.reference": "A",
    "07.proof": False,
    "06.replace_count": naive_decode(dict(two_piece_splits("data: 你好".encode()))[7]).count("\ufffd"),
    "06.sdk_truncated": "B",
    "06.heartbeat_inside": len(parse_sse([b"data: a\n: ping\n\ndata: b\n\n"])),
    "06.resume_without_ids": "A"
    if any(e.last_event_id for e in parse_sse([load("openai-chat/completed").body]))
    else "B",
}


def test_every_question_has_an_answer_here():
    _load_all()
    assert set(QUESTIONS) >= set(ANSWERS)
    missing = set(QUESTIONS) - set(ANSWERS)
    assert not missing, f"questions without an answer in the test: {missing}"


@pytest.mark.parametrize("key", sorted(ANSWERS))
def test_the_true_answer_is_accepted(key):
    result = check(key, ANSWERS[key])
    assert result.correct, result
    assert repr(result).startswith(f"{key} ✓ correct")


@pytest.mark.parametrize("key", sorted(ANSWERS))
def test_wrong_answers_get_a_hint_not_the_answer(key):
    q = question(key)
    wrong = {"int": 999, "word": "no idea", "choice": "Z", "choices": ["Z"], "ints": [999], "bool": "maybe"}
    if q.kind == "bool":
        assert not check(key, "maybe").correct  # not a yes/no answer: told so, never taken as False
        wrong["bool"] = not ANSWERS[key]
    for answer in (wrong[q.kind], *q.hints):
        if q.kind in {"ints", "choices"} and isinstance(answer, str):
            answer = answer.split(",") if answer else []
        result = check(key, answer)
        assert not result.correct
        assert str(ANSWERS[key]) not in result.message or str(ANSWERS[key]) in q.prompt


def test_an_unanswered_question_says_what_to_do():
    result = check("01.bytes", ...)
    assert not result and "write your answer" in result.message


def test_lessons_have_three_to_five_questions():
    _load_all()
    lessons = {key.split(".")[0] for key in QUESTIONS}
    assert lessons >= {"00", "01", "02", "03", "04", "05", "07"}
    for lesson in lessons:
        assert 3 <= len(questions(lesson)) <= 5


def test_unknown_question():
    with pytest.raises(KeyError):
        check("99.nothing", 1)
