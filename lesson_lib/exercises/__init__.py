"""Self-checks for the lessons: a learner answers in a cell, ``check()`` says right or gives a hint.

A wrong answer gets a hint, never the answer. Answers are stored as SHA-256 digests of their normal
form, which keeps an answer out of sight, not out of reach: a learner scrolling through this package
does not read the answers, but anyone who hashes the few candidates of a question (its letters, a
few numbers, the words in its prompt) with :func:`digest` recovers them in a short loop. The digests
are a courtesy to the learner who wants to try first, not a secret; a course that grades for marks
would keep its answers on a server. Every equivalent form of an answer passes ("B,C", "B, C", "BC",
["B", "C"], "B) character" as the option is printed, "B 字符", an option's words, a value with its
gloss "未完成（incomplete）", "three" for 3, "once" where times are counted, full-width ``Ｂ``, “curly
quotes” around it, a qualified ``lesson_lib.core.errors.X``, any case where case is not the point); the
forms are in :mod:`.answers`. Where the exact text is the point (what is on the wire), a question is
``literal``: it is compared as typed (not NFKC-normalised), and the right text in full-width
characters, followed by a line ending, with other whitespace, or in the wrong case, is told which of
these it got wrong. A true but too general answer (a base class of the exception asked for) is told
"right family, be more specific". No hint contains an answer its question accepts:
``tests/exercises/test_exercises.py`` looks for every form in every hint.

Each lesson's questions live in their own module (``lesson_01`` ...) and register here when imported, with
what is the same in every language (kind, digest, aliases ...). What a learner reads (the prompt, hints,
explanation, and every message of :func:`check`) comes from the current language's catalogue
(:mod:`lesson_lib.i18n`: ``questions.*`` and ``exercises.*``), looked up when it is shown. The answers are the
same in every language; in Chinese, the options' Chinese words, Chinese aliases, Chinese number words (三,
十二) and 对/错 are read too (:mod:`.answers`), and the English forms still are.

>>> from lesson_lib.exercises import check
>>> check("01.bytes", 10)
"""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..i18n import LANGUAGES, catalogue, get_language, text
from . import progress
from .answers import (
    KINDS,
    AmbiguousAnswer,
    DisagreeingAnswer,
    Options,
    UnreadableAnswer,
    as_text,
    count_units,
    nfkc,
    normal_form,
    unquote,
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

    What is registered is the same in every language; the prose is looked up in the current language's
    catalogue when it is read (:attr:`prompt`, :attr:`hint`, :attr:`hints`, :attr:`explanation`).
    ``hint_names`` maps the normal form of a likely wrong answer to the name of its targeted hint
    (``questions.<key>.hints.<name>``); any other wrong answer gets :attr:`hint`. ``aliases`` gives more
    words for a choice's options (``{"B": ("event",)}``), beyond the option's own text; ``local_aliases``
    gives more, by language (``{"zh-CN": {"B": ("事件",)}}``), read in that language only. ``broader`` lists
    answers (in normal form) that are true but too general, e.g. a base class of the exception asked for:
    they are told "right family, be more specific". For a ``literal`` question, ``folded_digest`` is the
    digest of the answer as a ``word`` (case-insensitive), so that the right letters in the wrong case are
    told that case matters here. ``field`` names the SSE field a ``literal`` answer is the value of
    (``"event"``): the field line, ``"event: message_stop"``, reads as the value.
    """

    key: str
    kind: str
    answer_digest: str
    hint_names: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    local_aliases: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    broader: tuple[str, ...] = ()
    folded_digest: str | None = None
    field: str | None = None

    def __repr__(self) -> str:
        return text("exercises.question", key=self.key, prompt=self.prompt)

    @property
    def prompt(self) -> str:
        """The question, in the current language."""
        return text(f"questions.{self.key}.prompt")

    @property
    def hint(self) -> str:
        """The hint for a wrong answer that has no targeted hint, in the current language."""
        return text(f"questions.{self.key}.hint")

    @property
    def hints(self) -> dict[str, str]:
        """The targeted hints, by the normal form of the wrong answer each is for, in the current language."""
        return {form: text(f"questions.{self.key}.hints.{name}") for form, name in self.hint_names.items()}

    @property
    def explanation(self) -> str:
        """What a right answer is told, in the current language."""
        return text(f"questions.{self.key}.explanation")

    @property
    def options(self) -> Options:
        """The lettered options of the prompt (none for a question that is not a choice).

        Their texts are the current language's; the English options' words and aliases are read in every
        language, and a language's own aliases in that language.
        """
        return _options(self.key, get_language())

    @property
    def units(self) -> frozenset[str]:
        """The words an ``int`` answer may carry after its number ("9 splits", "九种"): see
        :func:`.count_units`, of the English prompt and of the current language's."""
        if self.kind != "int":
            return frozenset()
        return count_units(_english(f"questions.{self.key}.prompt")) | count_units(self.prompt)

    def wants(self) -> str:
        """What form of answer this question wants, in words."""
        if self.kind in ("choice", "choices"):
            options = self.options
            described = options.describe() if options.texts else text("exercises.options.unlisted")
            return text(f"exercises.kinds.{self.kind}", options=described)
        return text(f"exercises.kinds.{self.kind}")


def _english(key: str) -> str:
    """The English string ``key`` (a string without fields) whatever the current language: the English
    options and units are read in every language."""
    return _string(LANGUAGES[0], key)


def _string(language: str, key: str) -> str:
    template = catalogue(language)[key]
    return template.format() if "{" in template else template


@cache
def _options(key: str, language: str) -> Options:
    """The options of question ``key`` as read in ``language``: that language's option texts, with the
    English ones' words and aliases, and the language's own aliases, as more forms of the same letters."""
    question = QUESTIONS[key]
    english = _english(f"questions.{key}.prompt")
    if language == LANGUAGES[0]:
        return Options(english, question.aliases)
    local = question.local_aliases.get(language, {})
    aliases = {x: (*question.aliases.get(x, ()), *local.get(x, ())) for x in {*question.aliases, *local}}
    return Options(_string(language, f"questions.{key}.prompt"), aliases, also=(english,))


@dataclass(frozen=True)
class Result:
    """What ``check()`` returns; its repr is what the learner reads under the cell."""

    key: str
    correct: bool
    message: str

    def __bool__(self) -> bool:
        return self.correct

    def __repr__(self) -> str:
        verdict = "correct" if self.correct else "not_yet"
        return text(f"exercises.result.{verdict}", key=self.key, message=self.message)


QUESTIONS: dict[str, Question] = {}


def register(
    key: str,
    kind: str,
    answer_digest: str,
    hints: Mapping[str, str] | Iterable[str] = (),
    *,
    aliases: Mapping[str, Iterable[str]] | None = None,
    zh_aliases: Mapping[str, Iterable[str]] | None = None,
    broader: Iterable[str] = (),
    folded_digest: str | None = None,
    field: str | None = None,
) -> Question:
    """Register question ``key``; its prose is ``questions.<key>.*`` in every language's catalogue.

    ``hints`` names the wrong answers (normal forms) that have a targeted hint: a mapping from the normal
    form to the hint's name (``{"data: [DONE]": "data_line"}``), or the normal forms alone when each is
    its own name (``("3", "5")``). ``zh_aliases`` are Chinese words for options, read in Chinese only.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown question kind {kind!r}")
    if key in QUESTIONS:
        raise ValueError(f"question {key!r} registered twice")
    if (folded_digest is not None or field is not None) and kind != "literal":
        raise ValueError("folded_digest and field are for literal questions only")
    names = dict(hints) if isinstance(hints, Mapping) else {form: form for form in hints}
    bad = [name for name in names.values() if not re.fullmatch(r"\w+", name, re.ASCII)]
    if bad:
        raise ValueError(f"hint names must be letters, digits and _: {bad}")
    local = {"zh-CN": {letter: tuple(forms) for letter, forms in (zh_aliases or {}).items()}}
    question = Question(
        key,
        kind,
        answer_digest,
        names,
        {letter: tuple(forms) for letter, forms in (aliases or {}).items()},
        {language: by_letter for language, by_letter in local.items() if by_letter},
        tuple(words(b) for b in broader),
        folded_digest,
        field,
    )
    Options(_english(f"questions.{key}.prompt"), question.aliases)  # refuses aliases for options it lacks
    QUESTIONS[key] = question
    return question


@cache
def _load_all() -> None:
    """Import every lesson's questions, once (a lesson module registers its questions when imported)."""
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


def _only_whitespace_differs(q: Question, normal: str) -> bool:
    """Whether the literal answer ``normal`` is the right text with whitespace or line endings added,
    removed inside, or changed (spaces around it, a CR or LF after it, two spaces for one)."""
    variants = {normal.strip(), " ".join(normal.split()), unquote(normal.strip())}
    variants |= {" ".join(v.split()) for v in set(variants)}
    return any(_sha(q.kind, v) == q.answer_digest for v in variants - {normal})


def _trailing_line_ending(q: Question, normal: str) -> str | None:
    """The line ending (CR, LF or both) after the right text in the literal answer ``normal``, if that is
    all that differs ("message_stop\\n", "'data: 你好'\\n"); else None."""
    head = normal.rstrip("\r\n")
    if head == normal:
        return None
    right = any(_sha(q.kind, v) == q.answer_digest for v in {head, unquote(head)})
    return normal[len(head) :] if right else None


def _first_compatibility_character(text: str) -> str | None:
    """The first character of ``text`` that NFKC reads as another (a full-width ``［``), or None."""
    return next((ch for ch in text if not ch.isspace() and nfkc(ch) != ch), None)


def _literal_near_miss(q: Question, answer: Any, normal: str) -> str | None:
    """What a wrong literal answer is told when it is the right text but for its bytes: full-width or
    other compatibility characters (told first: fixing them may leave only case or whitespace), a line
    ending after it, other whitespace, or the case. None when it is wrong in another way."""
    if isinstance(answer, str):
        compatible = normal_form(q.kind, nfkc(answer), field=q.field)
        shown = _first_compatibility_character(answer)
        if shown is not None and (
            _sha(q.kind, compatible) == q.answer_digest
            or _only_whitespace_differs(q, compatible)
            or (q.folded_digest and _sha("word", words(compatible)) == q.folded_digest)
        ):
            wide = unicodedata.decomposition(shown).startswith("<wide>")
            named = f"{shown} U+{ord(shown):04X}"
            if wide:
                return text("exercises.wrong_width", shown=named)
            return text("exercises.wrong_compatibility", shown=named)
    ending = _trailing_line_ending(q, normal)
    if ending is not None:
        return text("exercises.wrong_line_ending", ending=repr(ending))
    if _only_whitespace_differs(q, normal):
        return text("exercises.wrong_whitespace")
    if q.folded_digest and _sha("word", words(normal)) == q.folded_digest:
        return text("exercises.wrong_case")
    return None


def _as_typed(answer: Any, shown: str) -> str:
    """``shown`` (what a message quotes of the answer, read in NFKC form) as the learner typed it, when it
    is the whole answer: "completed（被截断）", not "completed(被截断)"."""
    if isinstance(answer, str) and nfkc(answer.strip()) == shown:
        return answer.strip()
    return shown


def check(key: str, answer: Any) -> Result:
    """Check ``answer`` to question ``key``. Never reveals the answer: a wrong one gets a hint.

    Every equivalent form of the right answer passes (:mod:`.answers`); a form the question cannot read is
    told what the question wants; a true but too general answer is told to be more specific. When the
    learner turned progress records on (:mod:`.progress`, off by default), the outcome is recorded, never
    the answer.
    """
    result, outcome = _judge(key, answer)
    progress.note(key, outcome)  # the opt-in progress record: writes nothing unless it was turned on
    return result


def _judge(key: str, answer: Any) -> tuple[Result, str]:
    """What :func:`check` returns, and its outcome as :mod:`.progress` records it (one of
    ``progress.OUTCOMES``)."""
    q = question(key)
    if answer is ...:
        return Result(key, False, text("exercises.unanswered", prompt=q.prompt)), "unanswered"
    try:
        normal = normal_form(q.kind, answer, q.options, q.units, q.field)
    except AmbiguousAnswer as exc:
        letters = text("exercises.letters_joiner").join(exc.letters)
        shown = repr(_as_typed(answer, exc.shown))
        return Result(key, False, text("exercises.ambiguous", shown=shown, letters=letters)), "unreadable"
    except DisagreeingAnswer as exc:
        shown = repr(_as_typed(answer, exc.shown))
        return Result(key, False, text("exercises.disagree", shown=shown)), "unreadable"
    except (UnreadableAnswer, TypeError, ValueError):
        if answer is None:
            return Result(key, False, text("exercises.unanswered", prompt=q.prompt)), "unanswered"
        return Result(key, False, text("exercises.unreadable", wants=q.wants(), hint=q.hint)), "unreadable"
    if _sha(q.kind, normal) == q.answer_digest:
        return Result(key, True, q.explanation), "right"
    near_miss = _literal_near_miss(q, answer, normal) if q.kind == "literal" else None
    if near_miss is not None:
        return Result(key, False, near_miss), "wrong"
    if q.kind in ("word", "literal") and words(normal) in q.broader:
        shown = as_text(answer).strip()
        return Result(key, False, text("exercises.too_general", shown=shown, hint=q.hint)), "right_family"
    name = q.hint_names.get(normal)
    hint = q.hint if name is None else text(f"questions.{key}.hints.{name}")
    return Result(key, False, hint), "wrong"


# The checkers (code exercises) are public under this package's name, loaded on first use: they import the
# network layer (the relay checker, lesson 10's proxy cases) and the pictures, which a question-only import
# does not need.
_CHECKERS = {
    "CHALLENGES": "checkers",
    "FakeResponse": "checkers",
    "challenge_body": "checkers",
    "check_bug": "checkers",
    "check_cuts": "checkers",
    "check_event_assembler": "checkers",
    "check_line_splitter": "checkers",
    "check_pipeline": "checkers",
    "show_challenge": "checkers",
    "FakeAsyncResponse": "checkers_async",
    "check_which_setting": "checkers_proxy",
    "CULPRITS": "proxy_cases",
    "OBSERVED": "proxy_cases",
    "class_label": "proxy_cases",
    "measure_proxy_case": "proxy_cases",
    "exercise_cases": "proxy_cases",
}


def __getattr__(name: str) -> Any:
    module = _CHECKERS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
