"""Every plausible wrong solution of the corpus (tests/exercises/wrong_solutions/) is rejected with the hint
that names its mistake, and every right variant passes; no checker answers a learner's wrong type with a
traceback."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from lesson_lib.exercises.checkers import (
    BUGS,
    CHALLENGES,
    check_bug,
    check_cuts,
    check_event_assembler,
    check_line_splitter,
    check_pipeline,
)
from lesson_lib.i18n import catalogue

from .wrong_solutions import adversarial_cuts, bug_hunt, build_it, run

MODULES = (bug_hunt, build_it, adversarial_cuts)
WRONG = [
    (checker, name, solution, keys, module.PHRASES.get(name, []))
    for module in MODULES
    for checker, name, solution, keys in module.WRONG
]
RIGHT = [entry for module in MODULES for entry in module.RIGHT]

#: Words that would give a fix away; no answer may contain them.
ANSWER_WORDS = ("final=True", "finally", "try:", "getincrementaldecoder", "after_cr", "aclosing(", "join(")


pytestmark = pytest.mark.usefixtures("english")  # tests/exercises/conftest.py


def fragments(key: str) -> list[str]:
    """The literal parts of a catalogue entry (between its {fields}), those long enough to be specific."""
    return [part.strip() for part in re.split(r"\{[^}]*\}", catalogue("en")[key]) if len(part.strip()) >= 8]


@pytest.mark.parametrize(("checker", "name", "solution", "keys", "phrases"), WRONG, ids=[w[1] for w in WRONG])
def test_every_wrong_solution_is_rejected_with_the_hint_for_its_mistake(
    checker, name, solution, keys, phrases
):
    result = run(checker, solution)
    assert not result.correct, result
    assert "not attempted" not in result.message, result
    assert keys or phrases, "an entry must say which hint names its mistake"
    for key in keys:
        for part in fragments(key):
            assert part in result.message, (key, part, result.message)
    for phrase in phrases:
        assert phrase in result.message, (phrase, result.message)
    for word in ANSWER_WORDS:
        assert word not in result.message, (word, result.message)


@pytest.mark.parametrize(("checker", "name", "solution"), RIGHT, ids=[r[1] for r in RIGHT])
def test_every_right_variant_passes(checker, name, solution):
    result = run(checker, solution)
    assert result.correct, result


def test_the_corpus_has_at_least_three_wrong_solutions_per_checker():
    counts = Counter(checker for checker, *_ in WRONG)
    expected = {f"bug:{name}" for name in BUGS} | {f"cuts:{name}" for name in CHALLENGES}
    expected |= {"splitter", "assembler", "pipeline"}
    assert set(counts) == expected
    assert min(counts.values()) >= 3, counts


def test_reports_are_deterministic():
    for checker, _, solution, _, _ in WRONG[::5]:
        assert run(checker, solution).message == run(checker, solution).message


def test_hints_are_in_both_catalogues():
    assert set(catalogue("en")) == set(catalogue("zh-CN"))


# -- a learner's wrong type: a hint, never a traceback ------------------------------------------------------


def _none(*args, **kwargs):
    return None


def _returns_text(*args, **kwargs):
    return "6.0"


def _no_arguments():
    return []


class _Raises:
    def __init__(self, *args):
        raise RuntimeError("broken on purpose")


class _BrokenRepr:
    def __repr__(self):
        raise RuntimeError("no repr")

    def __eq__(self, other):
        raise RuntimeError("no eq")


def _broken(*args, **kwargs):
    return [_BrokenRepr()]


async def _async_broken(*args, **kwargs):
    return _BrokenRepr()


def _cancel_out(*args, **kwargs):
    import asyncio

    raise asyncio.CancelledError


ODD = [
    _none,
    _returns_text,
    _no_arguments,
    _Raises,
    _broken,
    _async_broken,
    _cancel_out,
    "stalled_at",
    None,
    5.0,
]


@pytest.mark.filterwarnings("ignore:coroutine '_async_broken' was never awaited")
@pytest.mark.parametrize("bug", sorted(BUGS))
@pytest.mark.parametrize("odd", ODD, ids=lambda odd: getattr(odd, "__name__", repr(odd)))
def test_check_bug_answers_a_wrong_type_with_a_hint(bug, odd):
    result = check_bug(bug, odd)
    assert not result.correct
    assert "Traceback" not in result.message and result.message


@pytest.mark.parametrize("odd", [None, "abc", 3.5, {1: 2}, [None], [1.5], [True], [[1]], _BrokenRepr()])
@pytest.mark.parametrize("name", sorted(CHALLENGES))
def test_check_cuts_answers_a_wrong_type_with_a_hint(name, odd):
    result = check_cuts(name, odd)
    assert not result.correct and result.message


class _FeedReturnsNone:
    def feed(self, text):
        return None

    def close(self):
        return None


class _FeedTakesNothing:
    def feed(self):
        return []

    def close(self):
        return []


class _CloseRaisesTypeError:
    def feed(self, text):
        return []

    def close(self, extra):
        return []


@pytest.mark.parametrize(
    "odd",
    [
        _Raises,
        _FeedReturnsNone,
        _FeedTakesNothing,
        _CloseRaisesTypeError,
        _BrokenRepr,
        None,
        "MyLineSplitter",
    ],
)
def test_build_it_answers_a_wrong_type_with_a_hint(odd):
    for result in (check_line_splitter(odd), check_event_assembler(odd), check_pipeline(odd, odd)):
        assert not result.correct and result.message
