"""Reading a learner's answer: every equivalent form of one answer becomes one normal form.

A question's stored digest is SHA-256 of ``f"{kind}:{normal}"``, so two answers are the same answer exactly
when they read to the same normal form. What each kind accepts:

* ``int``: ``3``, ``"3"``, ``" 3 "``, ``3.0``, ``"three"`` read as ``"3"``; ``"none"`` and ``"no"`` as ``"0"``
  (a count). A number followed by the unit the question counts in (``"9 splits"``, ``"nine two-piece
  splits"`` for "How many two-piece splits ...?", see :func:`count_units`) reads as the number; a number
  followed by any other words is refused, since other words could change what it means. ``True``, ``3.5``
  and ``"3.5"`` are refused (they are not whole numbers), never rounded into one.
* ``ints``: ``[2, 4]``, ``(4, 2)``, ``{2, 4}``, ``"2, 4"``, ``"2 4"``, ``"[2, 4]"`` read as ``"2,4"``; a
  single whole number ``4`` as ``"4"``.
* ``choice``: ``"B"``, ``"b"``, ``"(B)"``, ``"B)"``, ``["B"]``, or the words of one option (its text, the text
  without its parenthesis, the parenthesis alone, a quoted value exactly as quoted, or an alias the question
  gives), case-insensitive, with ``_`` read as a space. Words that fit several options are refused with
  :class:`AmbiguousAnswer`, never guessed.
* ``choices``: a list of such items, or one string of them separated by commas, semicolons, ``/``, ``&``,
  ``and`` or spaces (``"B,C"``, ``"B, C"``, ``"B and C"``, ``"NEL, U+2028"``), or letters run together
  (``"BC"``) when every character is an option letter and the string is not an option's words. Read as
  ``"B,C"``.
* ``bool``: ``True``/``False``, and ``"true"``, ``"false"``, ``"yes"``, ``"no"`` in any case.
* ``word``: case-insensitive, runs of whitespace read as one space, quotes around the answer dropped. An
  exception class or instance reads as its class name, an enum member as its value.
* ``literal``: case-sensitive and exact inside; only whitespace and one pair of matching quotes around it are
  dropped. For what must match byte for byte on the wire (``[DONE]``, an event type, a pending line).

An answer whose form does not fit raises :class:`UnreadableAnswer` with what the question wants, so that
the learner is told the form, not that the answer is wrong.
"""

from __future__ import annotations

import enum
import operator
import re
from collections.abc import Iterable, Mapping
from typing import Any

KINDS = ("int", "ints", "choice", "choices", "bool", "word", "literal")

#: What each kind of question wants, as a learner reads it ("this question wants ...").
KIND_PHRASES = {
    "int": "a whole number (an int)",
    "ints": "a list of whole numbers (a list of ints)",
    "choice": "one option, {options} (its letter, or its words)",
    "choices": "a list of options from {options} (letters in a list or separated by commas, or their words)",
    "bool": "True or False",
    "word": "a word (a string)",
    "literal": "an exact string, written as it is sent",
}

_NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
_NUMBERS += " sixteen seventeen eighteen nineteen twenty"
NUMBER_WORDS = {word: value for value, word in enumerate(_NUMBERS.split())}
#: Words that answer "how many?" with 0.
NO_COUNT_WORDS = frozenset({"none", "no"})

_HOW_MANY = re.compile(r"\bhow many\s+([^?.,;:]*)", re.IGNORECASE)
_VERBS = frozenset({"does", "do", "did", "is", "are", "was", "were", "can", "could", "will", "would", "has"})

_QUOTES = "'\"`"
_OPTION = re.compile(r"(?:^|(?<=[\s?:.;]))([A-Z])\) (.+?)(?=;\s+[A-Z]\) |$)", re.DOTALL)
_LETTER = re.compile(r"\s*\(?\s*([A-Za-z])\s*\)?\s*[.)]?\s*")
_SEPARATORS = re.compile(r"\s*(?:[,;/&]|\band\b)\s*", re.IGNORECASE)


class UnreadableAnswer(ValueError):
    """The answer is not in a form this kind of question can read; the message says what it wants."""


class AmbiguousAnswer(ValueError):
    """The answer's words fit more than one option: ``letters`` are the options they fit."""

    def __init__(self, shown: str, letters: list[str]) -> None:
        super().__init__(f"{shown!r} fits options {', '.join(letters)}")
        self.shown = shown
        self.letters = letters


def as_text(answer: Any) -> str:
    """An answer as text: an exception class or instance as its class name, an enum member as its value."""
    if isinstance(answer, type) and issubclass(answer, BaseException):
        return answer.__name__
    if isinstance(answer, BaseException):
        return type(answer).__name__
    if isinstance(answer, enum.Enum):
        return str(answer.value)
    return answer if isinstance(answer, str) else str(answer)


def unquote(text: str) -> str:
    """``text`` without one pair of matching quotes around it (nothing else is removed)."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in _QUOTES:
        return text[1:-1]
    return text


def words(text: str) -> str:
    """The case-insensitive form of some words: runs of whitespace as one space, casefolded."""
    return " ".join(text.split()).casefold()


# -- numbers -------------------------------------------------------------------------------------------


def whole_number(answer: Any) -> int:
    """``answer`` as an int, if it is one whole number in any of the forms the ``int`` kind accepts."""
    if isinstance(answer, bool):
        raise UnreadableAnswer("True and False are not numbers")
    if isinstance(answer, float):
        if answer.is_integer():
            return int(answer)
        raise UnreadableAnswer(f"{answer} is not a whole number")
    if isinstance(answer, str):
        text = unquote(answer.strip()).strip()
        if re.fullmatch(r"[+-]?\d+", text):
            return int(text)
        if text.casefold() in NUMBER_WORDS:
            return NUMBER_WORDS[text.casefold()]
        try:
            value = float(text)
        except ValueError:
            raise UnreadableAnswer(f"{answer!r} is not a whole number") from None
        return whole_number(value)
    try:
        return operator.index(answer)
    except TypeError:
        raise UnreadableAnswer(f"{answer!r} is not a whole number") from None


def count_units(prompt: str) -> frozenset[str]:
    """The words that may follow the number in an answer to ``prompt``'s "How many X ...?", casefolded.

    X is the words after "how many" up to the first verb (does, is, can ...) or punctuation, at most four;
    the units are X and every ending of it, each also with its last word in the singular ("two-piece
    splits", "splits", "two-piece split", "split"). "How many of them ..." gives "of them" alone
    ("none of them"). None when the prompt asks no "how many".
    """
    match = _HOW_MANY.search(prompt)
    if not match:
        return frozenset()
    phrase: list[str] = []
    for word in match.group(1).split():
        if word.casefold() in _VERBS:
            break
        phrase.append(word.casefold())
    if not phrase or len(phrase) > 4:
        return frozenset()
    if phrase[0] == "of":
        return frozenset({" ".join(phrase)})
    units = set()
    for start in range(len(phrase)):
        tail = phrase[start:]
        units.add(" ".join(tail))
        if len(tail[-1]) > 2 and tail[-1].endswith("s"):
            units.add(" ".join([*tail[:-1], tail[-1][:-1]]))
    return frozenset(units)


def count(answer: Any, units: frozenset[str] = frozenset()) -> int:
    """``answer`` as a count: any form :func:`whole_number` reads, ``"none"``/``"no"`` as 0, and either of
    those followed by one of ``units`` (see :func:`count_units`). Other words after a number are refused."""
    if not isinstance(answer, str):
        return whole_number(answer)
    text = unquote(answer.strip()).strip()
    number, _, rest = text.partition(" ")
    if rest and words(rest) in units:
        text = number
    if text.casefold() in NO_COUNT_WORDS:
        return 0
    try:
        return whole_number(text)
    except UnreadableAnswer:
        raise UnreadableAnswer(f"{answer!r} is not a whole number") from None


def whole_numbers(answer: Any) -> list[int]:
    """``answer`` as a list of ints: a list (tuple, set) of numbers, one number, or numbers in a string."""
    if isinstance(answer, str):
        parts = [p for p in re.split(r"[\s,;\[\]()]+|\band\b", answer.strip()) if p]
        return [whole_number(p) for p in parts]
    if isinstance(answer, Iterable):
        return [whole_number(x) for x in answer]
    return [whole_number(answer)]


# -- options -------------------------------------------------------------------------------------------


def parse_options(prompt: str) -> dict[str, str]:
    """The options of a multiple-choice prompt, ``"... A) x; B) y; C) z"``, as ``{"A": "x", ...}``.

    The last option ends at the end of the prompt or at a sentence that follows it (``". Give a list"``).
    """
    options = {}
    for match in _OPTION.finditer(prompt):
        text = re.split(r"\.\s+(?=[A-Z])", match.group(2).strip())[0]
        options[match.group(1)] = text.strip()
    return options


def option_forms(text: str, aliases: Iterable[str] = ()) -> tuple[set[str], set[str]]:
    """The word forms (compared case-insensitively) and exact forms (quoted values) of one option."""
    exact: set[str] = set()
    quoted = re.match(r"""(['"])(.*?)\1""", text)
    if quoted:
        exact.add(quoted.group(2))
    bare = re.sub(r"\s*\([^)]*\)", "", text).strip()
    forms = {text, bare, *re.findall(r"\(([^)]*)\)", text), *aliases}
    folded = {_option_words(f) for f in forms if not re.fullmatch(r"""\s*(['"]).*\1\s*""", f)}
    return {f for f in folded if f}, exact


def _option_words(text: str) -> str:
    return words(text.replace("_", " "))


class Options:
    """The options of one choice question, and how a learner's item (a letter or words) maps to one."""

    def __init__(self, prompt: str, aliases: Mapping[str, Iterable[str]] | None = None) -> None:
        self.texts = parse_options(prompt)
        aliases = aliases or {}
        unknown = set(aliases) - set(self.texts)
        if unknown:
            raise ValueError(f"aliases for options the prompt does not have: {sorted(unknown)}")
        self.forms = {x: option_forms(text, aliases.get(x, ())) for x, text in self.texts.items()}

    @property
    def letters(self) -> str:
        return "".join(self.texts)

    def describe(self) -> str:
        letters = self.letters
        return f"{letters[0]} to {letters[-1]}" if len(letters) > 2 else " or ".join(letters)

    def letter(self, item: Any) -> str | None:
        """The option ``item`` names, or None if it names none. Raises :class:`AmbiguousAnswer`."""
        if item is None:
            item = "None"
        raw = as_text(item)
        match = _LETTER.fullmatch(raw)
        if match and (not self.texts or match.group(1).upper() in self.texts):
            return match.group(1).upper()
        exact = [x for x, (_, values) in self.forms.items() if raw in values or unquote(raw) in values]
        if len(exact) == 1:
            return exact[0]
        folded = _option_words(unquote(raw.strip()))
        fits = [x for x, (forms, _) in self.forms.items() if folded and folded in forms]
        if len(fits) > 1:
            raise AmbiguousAnswer(raw.strip(), fits)
        return fits[0] if fits else None

    def choice(self, answer: Any) -> str:
        if isinstance(answer, list | tuple | set | frozenset):
            if len(answer) != 1:
                raise UnreadableAnswer("this question wants one option, not several")
            (answer,) = answer
        letter = self.letter(answer)
        if letter is None:
            raise UnreadableAnswer(f"{as_text(answer)!r} is not one of the options {self.describe()}")
        return letter

    def choices(self, answer: Any) -> str:
        if isinstance(answer, str) or answer is None or not isinstance(answer, Iterable):
            items = self._items(as_text(answer) if answer is not None else "None")
        else:
            items = [self._one(item) for item in answer]
        return ",".join(sorted(set(items)))

    def _one(self, item: Any) -> str:
        letter = self.letter(item)
        if letter is None:
            raise UnreadableAnswer(f"{as_text(item)!r} is not one of the options {self.describe()}")
        return letter

    def _items(self, text: str) -> list[str]:
        if not text.strip():
            return []
        whole = self.letter(text)
        if whole is not None:
            return [whole]
        letters = []
        for part in (p for p in _SEPARATORS.split(text.strip().strip("[]")) if p):
            letter = self.letter(part)
            if letter is not None:
                letters.append(letter)
            elif len(part.split()) > 1:
                letters.extend(self._items_of(part.split()))
            elif self.texts and all(ch.upper() in self.texts for ch in unquote(part)):
                letters.extend(ch.upper() for ch in unquote(part))  # "BC": every character is a letter
            else:
                letters.append(self._one(part))
        return letters

    def _items_of(self, parts: list[str]) -> list[str]:
        return [self._one(part) for part in parts]


# -- the normal form -----------------------------------------------------------------------------------


def _bool(answer: Any) -> str:
    if isinstance(answer, bool):
        return str(answer)
    word = unquote(str(answer).strip()).strip().casefold()
    if word in {"true", "yes"}:
        return "True"
    if word in {"false", "no"}:
        return "False"
    raise UnreadableAnswer(f"not a yes/no answer: {answer!r}")


def normal_form(
    kind: str, answer: Any, options: Options | None = None, units: frozenset[str] = frozenset()
) -> str:
    """The normal form of ``answer`` for a question of ``kind`` (see the module docstring). ``units`` are
    the words an ``int`` answer may carry after its number (:func:`count_units` of the prompt).

    Raises :class:`UnreadableAnswer` (or :class:`AmbiguousAnswer`) when the form does not fit.
    """
    if kind == "int":
        return str(count(answer, units))
    if kind == "ints":
        return ",".join(str(x) for x in sorted(set(whole_numbers(answer))))
    if kind in ("choice", "choices"):
        options = options or Options("")
        if not options.texts:  # a prompt without "A) ...": letters only
            letters = answer if kind == "choices" and not isinstance(answer, str) else [answer]
            return ",".join(sorted({as_text(x).strip().upper() for x in letters}))
        return options.choice(answer) if kind == "choice" else options.choices(answer)
    if kind == "bool":
        return _bool(answer)
    if kind == "word":
        return words(unquote(as_text(answer).strip()))
    if kind == "literal":
        return unquote(as_text(answer).strip())
    raise ValueError(f"unknown question kind {kind!r}")
