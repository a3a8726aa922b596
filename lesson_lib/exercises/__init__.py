"""Self-checks for the lessons: a learner answers in a cell, ``check()`` says right or gives a hint.

A wrong answer gets a hint, never the answer. Answers are stored as SHA-256 digests of their normal form,
so reading this package's source does not give them away either (it only makes them checkable).

Each lesson's questions live in their own module (``lesson_01`` ...) and register here when imported.

>>> from lesson_lib.exercises import check
>>> check("01.bytes", 10)
"""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


def _bool(answer: Any) -> str:
    if isinstance(answer, bool):
        return str(answer)
    word = str(answer).strip().casefold()
    if word in {"true", "yes"}:
        return "True"
    if word in {"false", "no"}:
        return "False"
    raise ValueError(f"not a yes/no answer: {answer!r}")


#: How an answer is put in normal form before it is compared, by question kind. A form that does not fit
#: raises ``ValueError`` and the learner is told what kind of answer the question wants.
NORMALISE: dict[str, Callable[[Any], str]] = {
    "int": lambda a: str(int(a)),
    "word": lambda a: " ".join(str(a).split()).casefold(),
    "choice": lambda a: str(a).strip().upper(),
    "choices": lambda a: ",".join(sorted({str(x).strip().upper() for x in a})),
    "ints": lambda a: ",".join(str(x) for x in sorted({int(x) for x in a})),
    "bool": _bool,
}


def digest(kind: str, answer: Any) -> str:
    """The stored form of an answer: SHA-256 of its normal form (what a question author writes down)."""
    return hashlib.sha256(f"{kind}:{NORMALISE[kind](answer)}".encode()).hexdigest()


@dataclass(frozen=True)
class Question:
    """One check-your-understanding question.

    ``hints`` maps the normal form of a likely wrong answer to a targeted hint; ``hint`` is for any other
    wrong answer. ``explanation`` is shown once the answer is right.
    """

    key: str
    prompt: str
    kind: str
    answer_digest: str
    hint: str
    explanation: str
    hints: dict[str, str] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"Question {self.key}: {self.prompt}"


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
) -> Question:
    if kind not in NORMALISE:
        raise ValueError(f"unknown question kind {kind!r}")
    if key in QUESTIONS:
        raise ValueError(f"question {key!r} registered twice")
    question = Question(key, prompt, kind, answer_digest, hint, explanation, dict(hints or {}))
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
    """Check ``answer`` to question ``key``. Never reveals the answer: a wrong one gets a hint."""
    q = question(key)
    if answer is ... or answer is None:
        return Result(key, False, f"write your answer in place of ... and run the cell again. {q.prompt}")
    try:
        normal = NORMALISE[q.kind](answer)
    except (TypeError, ValueError):
        return Result(key, False, f"this question wants a {q.kind} answer. {q.hint}")
    if hashlib.sha256(f"{q.kind}:{normal}".encode()).hexdigest() == q.answer_digest:
        return Result(key, True, q.explanation)
    return Result(key, False, q.hints.get(normal, q.hint))
