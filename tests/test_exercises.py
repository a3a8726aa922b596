"""The self-checks: every question accepts its true answer, rejects wrong ones, and never leaks the answer.

The answers here are computed with lesson_lib wherever the library can compute them, so a question whose
stored answer disagrees with the library fails.
"""

from __future__ import annotations

import pytest

from lesson_lib import LineSplitter, SSEParser, parse_sse
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
    for lesson in ("01", "02", "03"):
        assert 3 <= len(questions(lesson)) <= 5


def test_unknown_question():
    with pytest.raises(KeyError):
        check("99.nothing", 1)
