"""Self-checks for the lessons: a learner answers in a cell, ``check()`` says right or gives a hint.

A wrong answer gets a hint, never the answer. Answers are stored as SHA-256 digests of their normal form,
so reading this package's source does not give them away either (it only makes them checkable). Every
equivalent form of an answer passes ("B,C", "B, C", "BC", ["B", "C"], an option's words, "three" for 3,
any case where case is not the point); the forms are in :mod:`.answers`. Where case is the point (what is
on the wire), a question is ``literal`` and the right text in the wrong case is told so. A true but too
general answer (a base class of the exception asked for) is told "right family, be more specific". No hint
contains an answer its question accepts: ``tests/test_exercises.py`` looks for every form in every hint.

Each lesson's questions live in their own module (``lesson_01`` ...) and register here when imported.

>>> from lesson_lib.exercises import check
>>> check("01.bytes", 10)
"""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .answers import (
    KIND_PHRASES,
    KINDS,
    AmbiguousAnswer,
    Options,
    UnreadableAnswer,
    as_text,
    count_units,
    normal_form,
    words,
)


def digest(kind: str, answer: Any) -> str:
    """The stored form of an answer: SHA-256 of its normal form (what a question author writes down).

    For ``choice`` and ``choices``, write the letters.
    """
    return _sha(kind, normal_form(kind, answer))


def _sha(kind: str, normal: str) -> str:
    return hashlib.sha256(f"{kind}:{normal}".encode()).hexdigest()


@dataclass(frozen=True)
class Question:
    """One check-your-understanding question.

    ``hints`` maps the normal form of a likely wrong answer to a targeted hint; ``hint`` is for any other
    wrong answer. ``explanation`` is shown once the answer is right. ``aliases`` gives more words for a
    choice's options (``{"B": ("event",)}``), beyond the option's own text. ``broader`` lists answers (in
    normal form) that are true but too general, e.g. a base class of the exception asked for: they are told
    "right family, be more specific". For a ``literal`` question, ``folded_digest`` is the digest of the
    answer as a ``word`` (case-insensitive), so that the right letters in the wrong case are told that case
    matters here.
    """

    key: str
    prompt: str
    kind: str
    answer_digest: str
    hint: str
    explanation: str
    hints: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    broader: tuple[str, ...] = ()
    folded_digest: str | None = None

    def __repr__(self) -> str:
        return f"Question {self.key}: {self.prompt}"

    @property
    def options(self) -> Options:
        """The lettered options of the prompt (none for a question that is not a choice)."""
        return Options(self.prompt, self.aliases)

    @property
    def units(self) -> frozenset[str]:
        """The words an ``int`` answer may carry after its number ("9 splits"): see :func:`.count_units`."""
        return count_units(self.prompt) if self.kind == "int" else frozenset()

    def wants(self) -> str:
        """What form of answer this question wants, in words."""
        if self.kind in ("choice", "choices"):
            options = self.options
            described = options.describe() if options.texts else "the letters in the question"
            return KIND_PHRASES[self.kind].format(options=described)
        return KIND_PHRASES[self.kind]


@dataclass(frozen=True)
class Result:
    """What ``check()`` returns; its repr is what the learner reads under the cell."""

    key: str
    correct: bool
    message: str

    def __bool__(self) -> bool:
        return self.correct

    def __repr__(self) -> str:
        mark = "✓ correct" if self.correct else "✗ not yet"
        return f"{self.key} {mark}: {self.message}"


QUESTIONS: dict[str, Question] = {}


def register(
    key: str,
    prompt: str,
    kind: str,
    answer_digest: str,
    hint: str,
    explanation: str,
    hints: dict[str, str] | None = None,
    *,
    aliases: Mapping[str, Iterable[str]] | None = None,
    broader: Iterable[str] = (),
    folded_digest: str | None = None,
) -> Question:
    if kind not in KINDS:
        raise ValueError(f"unknown question kind {kind!r}")
    if key in QUESTIONS:
        raise ValueError(f"question {key!r} registered twice")
    if folded_digest is not None and kind != "literal":
        raise ValueError("folded_digest is for literal questions only")
    question = Question(
        key,
        prompt,
        kind,
        answer_digest,
        hint,
        explanation,
        dict(hints or {}),
        {letter: tuple(forms) for letter, forms in (aliases or {}).items()},
        tuple(words(b) for b in broader),
        folded_digest,
    )
    question.options  # noqa: B018 - refuses aliases for options the prompt does not have
    QUESTIONS[key] = question
    return question


def _load_all() -> None:
    for module in pkgutil.iter_modules(__path__):
        if module.name.startswith("lesson_"):
            importlib.import_module(f"{__name__}.{module.name}")


def question(key: str) -> Question:
    """The question called ``key`` (e.g. ``"01.bytes"``)."""
    _load_all()
    try:
        return QUESTIONS[key]
    except KeyError:
        raise KeyError(f"no question {key!r}") from None


def questions(lesson: str) -> list[Question]:
    """The questions of one lesson (``"01"``), in the order they were written."""
    _load_all()
    return [q for k, q in QUESTIONS.items() if k.split(".")[0] == lesson]


def check(key: str, answer: Any) -> Result:
    """Check ``answer`` to question ``key``. Never reveals the answer: a wrong one gets a hint.

    Every equivalent form of the right answer passes (:mod:`.answers`); a form the question cannot read is
    told what the question wants; a true but too general answer is told to be more specific.
    """
    q = question(key)
    if answer is ...:
        return Result(key, False, f"write your answer in place of ... and run the cell again. {q.prompt}")
    try:
        normal = normal_form(q.kind, answer, q.options, q.units)
    except AmbiguousAnswer as exc:
        letters = " and ".join(exc.letters)
        fits = f"{exc.shown!r} fits more than one option ({letters})"
        return Result(key, False, f"{fits}: be more specific, or give a letter.")
    except (UnreadableAnswer, TypeError, ValueError):
        if answer is None:
            return Result(key, False, f"write your answer in place of ... and run the cell again. {q.prompt}")
        return Result(key, False, f"this question wants {q.wants()}. {q.hint}")
    if _sha(q.kind, normal) == q.answer_digest:
        return Result(key, True, q.explanation)
    if q.kind == "literal" and q.folded_digest and _sha("word", words(normal)) == q.folded_digest:
        return Result(
            key,
            False,
            "the right text in the wrong case: this is compared exactly as it is sent, and on the wire case "
            "matters (a client compares the bytes).",
        )
    if q.kind in ("word", "literal") and words(normal) in q.broader:
        shown = as_text(answer).strip()
        message = f"right family, be more specific: {shown} is true, but too general. {q.hint}"
        return Result(key, False, message)
    return Result(key, False, q.hints.get(normal, q.hint))
