"""Reading a learner's answer: every equivalent form of one answer becomes one normal form.

A question's stored digest is SHA-256 of ``f"{kind}:{normal}"``, so two answers are the same answer exactly
when they read to the same normal form. What each kind accepts:

* ``int``: ``3``, ``"3"``, ``" 3 "``, ``3.0``, ``"three"``, ``"三"`` read as ``"3"`` (English number words
  to twenty, Chinese ones from 零 to 九十九, 两 for 2); ``"none"``, ``"no"``, ``"没有"`` and ``"无"`` as
  ``"0"`` (a count); ``"once"``, ``"twice"``, ``"thrice"`` where the question counts times ("How many
  times ...?", "几次"), and an ``"exactly"`` (恰好) before any of these. A number followed by the unit
  the question counts in (``"9 splits"``, ``"nine two-piece splits"`` for "How many two-piece splits
  ...?"; ``"9 种"``, ``"九种"`` for "有多少种……？", see :func:`count_units`) reads as the number; a
  number followed by any other words is refused, since other words could change what it means.
  ``True``, ``3.5`` and ``"3.5"`` are refused (they are not whole numbers), never rounded into one.
* ``ints``: ``[2, 4]``, ``(4, 2)``, ``{2, 4}``, ``"2, 4"``, ``"2 4"``, ``"[2, 4]"``, ``"2、4"``, ``"二和四"``
  read as ``"2,4"``; a single whole number ``4`` as ``"4"``.
* ``choice``: ``"B"``, ``"b"``, ``"(B)"``, ``"B)"``, ``["B"]``, the option as printed
  (``"B) character"``, ``"(B) character"``, ``"B. character"``, and a letter, a space and the
  words: ``"B character"``, ``"B 字符"``; its letter and words must agree, else it is refused as
  fitting both), or the words of one option (its text, the text without its parenthesis, the
  parenthesis alone, a quoted value exactly as quoted, or an alias the question gives),
  case-insensitive, with ``_`` read as a space, without a leading article ("the empty string") or
  a final full stop, and without a module or class path (``asyncio.CancelledError``,
  ``Outcome.COMPLETED``). Words that fit several options are refused with
  :class:`AmbiguousAnswer`, never guessed. A question's options may be read from two prompts (its
  Chinese one and its English one: :class:`Options`), each option's words from both.
* ``choices``: a list of such items, or one string of them separated by commas, semicolons, ``/``, ``&``,
  ``and``, ``和``, ``、`` or spaces (``"B,C"``, ``"B, C"``, ``"B and C"``, ``"B、C"``, ``"NEL, U+2028"``), or
  letters run together (``"BC"``) when every character is an option letter and the string is not an
  option's words. Read as ``"B,C"``.
* ``bool``: ``True``/``False``, and ``"true"``, ``"false"``, ``"yes"``, ``"no"`` in any case; ``"对"``,
  ``"是"``, ``"正确"``, ``"对的"``, ``"是的"`` and ``"错"``, ``"否"``, ``"错误"``, ``"错的"``, ``"不对"``.
* ``word``: case-insensitive, runs of whitespace read as one space, quotes around the answer dropped. An
  exception class or instance reads as its class name, an enum member as its value; a qualified name as
  the name (``lesson_lib.core.errors.TruncatedCharacterError``, ``builtins.UnicodeDecodeError``,
  ``Outcome.TRUNCATED``); the glossary's Chinese term for an outcome (被截断, 未完成, 已完成 ...), the
  lessons' 回答不完整, and 不完整 and 截断, as the outcome's value (:data:`OUTCOME_TERMS`), in both
  languages. No hint of a question whose answer such a term is says the term, not even inside another
  word (截断原因): the leak test reads every piece of every hint.
* ``literal``: for what must match byte for byte on the wire (``[DONE]``, an event type, a pending line).
  Compared exactly as typed: case, spaces around or inside it, line endings and the width of its
  characters all count, so ``" [DONE] "``, ``"[DONE]\\n"``, ``"data: 你好\\r"`` and a full-width
  ``"［DONE］"`` are wrong (:func:`lesson_lib.exercises.check` tells the learner which: full-width
  characters, naming the first one and its code point, ``［ U+FF3B``; a line ending after the right text,
  naming it; other whitespace; the case: on the wire those are other bytes). One thing is read as not
  being the learner's text: one pair of matching quotes around the *whole* answer, ``"'data: 你好'"``,
  ``"“data: 你好”"``, ``"「[DONE]」"`` (:data:`QUOTE_PAIRS`: ASCII, full-width ASCII, ``“ ”``, ``‘ ’``,
  ``「 」``, ``『 』``; the same pairs in every kind). Those are string syntax, which a learner copies
  from a repr such as ``pending_text`` shows or types around a value by habit (a Chinese input method
  types ``“ ”``); they are not bytes on the wire, and no literal answer of this course starts with an
  opening quote and ends with its closing one. Whitespace outside such quotes is not
  dropped (``" '[DONE]' "`` is wrong: those would be bytes). Where a question names the SSE field its
  answer is the value of (``field="event"``), the whole field line (``"event: message_stop"``) reads as
  the value.

A value and its gloss in parentheses, either order, ASCII or full-width parentheses
(``"未完成（incomplete）"``, the glossary's own form; ``"incomplete (未完成)"``; ``"completed（已完成）"``
for an option; ``"10 (ten)"``; ``"对（True）"``), reads as the value when both parts read as the
same answer of the question's kind (:func:`glossed`); when both read and differ it is refused
(:class:`DisagreeingAnswer`, or for a choice :class:`AmbiguousAnswer` naming both options),
never read as one of them. A ``literal`` is not read this way: its parentheses would be bytes.

Every string answer of the other kinds is first put in Unicode NFKC form, except its whitespace
(:func:`nfkc`): a full-width ``Ｂ``, ``３`` or ``ｔｒｕｎｃａｔｅｄ``, what a Chinese input method types,
reads as ``B``, ``3`` and ``truncated`` (the learner had the right idea in the wrong keyboard mode),
while an ideographic or no-break space stays a different character. A ``literal`` answer is not: on the
wire ``［`` (U+FF3B, bytes EF BC BB) is not ``[`` (5B), and a client comparing ``[DONE]`` byte for
byte does not see it.

An answer whose form does not fit raises :class:`UnreadableAnswer` with what the question wants, so that
the learner is told the form, not that the answer is wrong.
"""

from __future__ import annotations

import enum
import operator
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from .. import i18n

KINDS = ("int", "ints", "choice", "choices", "bool", "word", "literal")

_NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
_NUMBERS += " sixteen seventeen eighteen nineteen twenty"
NUMBER_WORDS = {word: value for value, word in enumerate(_NUMBERS.split())}
#: Chinese digits (零 and 〇 are 0; 两 is 2 standing alone).
CHINESE_DIGITS = {ch: value for value, ch in enumerate("零一二三四五六七八九")} | {"〇": 0}
#: Words that answer "how many times?" with a number (read only where a question counts times).
MULTIPLES = {"once": 1, "twice": 2, "thrice": 3}
#: The units of a question that counts times ("How many times ...?", "几次").
_TIMES = frozenset({"times", "time", "次"})
#: Words that answer "how many?" with 0.
NO_COUNT_WORDS = frozenset({"none", "no", "没有", "无"})

_HOW_MANY = re.compile(r"\bhow many\s+([^?.,;:]*)", re.IGNORECASE)
_VERBS = frozenset({"does", "do", "did", "is", "are", "was", "were", "can", "could", "will", "would", "has"})
#: "多少 X" or "几 X" up to punctuation: X is the unit a Chinese count may carry.
_DUOSHAO = re.compile(r"(?:多少|几)\s*([^？?，,。.；;：:（(）)、！!]*)")
#: Measure words that may stand for the whole unit ("3 个" for "多少个事件").
_MEASURE_WORDS = "个次种处条段块行项"
_ZH_COUNT = re.compile(r"([+-]?\d+|[零〇一二两三四五六七八九十]+)\s*(\S.*)", re.DOTALL)

#: The pairs of quotes that are string syntax around a whole answer: ASCII, the full-width ASCII ones (a
#: literal answer is not NFKC-normalised), the Chinese curly quotes and corner brackets.
QUOTE_PAIRS = {
    "'": "'",
    '"': '"',
    "`": "`",
    "＇": "＇",
    "＂": "＂",
    "“": "”",
    "‘": "’",
    "「": "」",
    "『": "』",
}
_OPTION = re.compile(r"(?:^|(?<=[\s?:.;？：。；，]))([A-Z])\) (.+?)(?=;\s+[A-Z]\) |；\s*[A-Z]\) |$)", re.S)
_LETTER = re.compile(r"\s*[(（]?\s*([A-Za-z])\s*[)）]?\s*[.)．。）]?\s*")
_SEPARATORS = re.compile(r"\s*(?:[,;/&，；、]|\band\b|和)\s*", re.IGNORECASE)
_PARENTHESES = r"\(([^)]*)\)|（([^）]*)）"
#: An option as printed, letter and words: "B) character", "(B) character", "B. character", "b) character",
#: and a letter, a space and the words: "B character", "B 字符", "b 字符" (an English article "a" before
#: words is read as an article first, see :func:`_option_words`).
_PRINTED = re.compile(r"\s*(?:\(?([A-Z])\s*[).:]|([a-z])\)|([A-Za-z])(?=\s))\s*(\S.*?)\s*", re.S)
#: A value and its gloss in parentheses, "未完成（incomplete）", "truncated (被截断)" (see :func:`glossed`).
_GLOSSED = re.compile(r"\s*([^()（）]*?[^()（）\s])\s*[(（]([^()（）]*[^()（）\s][^()（）]*)[)）]\s*", re.S)
#: A module or class path before a name (see :func:`unqualified`).
_QUALIFIER = re.compile(
    r"^(?:lesson_lib(?:\.[A-Za-z_]\w*)*|builtins|asyncio|exceptions|Outcome)\.(?=[A-Za-z_]\w*$)"
)
#: The glossary's Chinese terms for consume()'s outcomes (docs/glossary.md), and other Chinese words a
#: learner writes for them, read as the outcome's value where a question asks for a word.
OUTCOME_TERMS = {
    "已完成": "completed",
    "未完成": "incomplete",
    "不完整": "incomplete",
    "回答不完整": "incomplete",  # the lessons' name for it (lesson 04)
    "被截断": "truncated",
    "已截断": "truncated",
    "截断": "truncated",
    "服务端错误": "service_error",
    "服务错误": "service_error",
    "解码错误": "decode_error",
    "超出上限": "limit_exceeded",
    "已取消": "cancelled",
    "超时": "timed_out",
}


class UnreadableAnswer(ValueError):
    """The answer is not in a form this kind of question can read; the message says what it wants."""


class DisagreeingAnswer(ValueError):
    """The answer is a value and a gloss in parentheses that read as two different answers."""

    def __init__(self, shown: str) -> None:
        super().__init__(f"{shown!r} gives two answers that disagree")
        self.shown = shown


class AmbiguousAnswer(ValueError):
    """The answer's words fit more than one option: ``letters`` are the options they fit."""

    def __init__(self, shown: str, letters: list[str]) -> None:
        super().__init__(f"{shown!r} fits options {', '.join(letters)}")
        self.shown = shown
        self.letters = letters


def as_text(answer: Any, compatible: bool = True) -> str:
    """An answer as text: an exception class or instance as its class name, an enum member as its value, a
    string in its NFKC form except for its whitespace (:func:`nfkc`), or as it is if not ``compatible``
    (what a ``literal`` answer is: bytes on the wire)."""
    if isinstance(answer, type) and issubclass(answer, BaseException):
        return answer.__name__
    if isinstance(answer, BaseException):
        return type(answer).__name__
    if isinstance(answer, enum.Enum):
        return str(answer.value)
    text = answer if isinstance(answer, str) else str(answer)
    return nfkc(text) if compatible else text


def nfkc(text: str) -> str:
    """``text`` in Unicode normalisation form NFKC, its whitespace characters left as they are.

    A full-width ``Ｂ`` or ``［DONE］`` (what a Chinese input method types) reads as ``B`` and ``[DONE]``;
    an ideographic space or a no-break space stays itself, so that a literal answer is still compared byte
    for byte where whitespace is concerned (it is another byte on the wire).
    """
    if text.isascii():
        return text
    return "".join(ch if ch.isspace() else unicodedata.normalize("NFKC", ch) for ch in text)


def unquote(text: str) -> str:
    """``text`` without one pair of matching quotes around it (nothing else is removed): ``'x'``, ``"x"``,
    ``“x”``, ``‘x’``, ``「x」``, ``『x』`` (:data:`QUOTE_PAIRS`); ``“x」`` or ``”x“`` are not a pair."""
    if len(text) >= 2 and QUOTE_PAIRS.get(text[0]) == text[-1]:
        return text[1:-1]
    return text


def glossed(text: str) -> tuple[str, str] | None:
    """The two parts of a value and its gloss in parentheses, ``"未完成（incomplete）"`` as ``("未完成",
    "incomplete")``, either order, ASCII or full-width parentheses; None if ``text`` is not one (each part
    must be non-empty and without parentheses of its own). A caller reads each part and takes the answer
    only where the two agree."""
    match = _GLOSSED.fullmatch(text)
    return (match.group(1), match.group(2).strip()) if match else None


def _agreeing(text: str, read: Any) -> Any:
    """What ``read`` gives for both parts of ``text`` if it is a value with its gloss and both parts read
    as the same answer; None if it is not one or a part does not read. Raises :class:`DisagreeingAnswer`
    when both parts read and differ."""
    parts = glossed(text)
    if parts is None:
        return None
    try:
        value, gloss = read(parts[0]), read(parts[1])
    except ValueError:
        return None
    if value != gloss:
        raise DisagreeingAnswer(text.strip())
    return value


def words(text: str) -> str:
    """The case-insensitive form of some words: runs of whitespace as one space, casefolded."""
    return " ".join(text.split()).casefold()


def _unspaced(text: str) -> str:
    return "".join(text.split()).casefold()


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
        text = unquote(nfkc(answer).strip()).strip()
        if re.fullmatch(r"[+-]?\d+", text):
            return int(text)
        if text.casefold() in NUMBER_WORDS:
            return NUMBER_WORDS[text.casefold()]
        chinese = chinese_number(text)
        if chinese is not None:
            return chinese
        try:
            value = float(text)
        except ValueError:
            raise UnreadableAnswer(f"{answer!r} is not a whole number") from None
        return whole_number(value)
    try:
        return operator.index(answer)
    except TypeError:
        raise UnreadableAnswer(f"{answer!r} is not a whole number") from None


def chinese_number(text: str) -> int | None:
    """``text`` as a number if it is a Chinese number word from 零 to 九十九 (两 alone is 2), else None.

    Only well-formed words are read: 十二, 二十, 二十一, 十 and 〇; not 二二, 十十 or 一十二.
    """
    if text == "两":
        return 2
    if len(text) == 1 and text in CHINESE_DIGITS:
        return CHINESE_DIGITS[text]
    tens, ten, ones = text.partition("十")
    if not ten or len(tens) > 1 or len(ones) > 1:
        return None
    if tens and (tens not in CHINESE_DIGITS or CHINESE_DIGITS[tens] < 2):
        return None
    if ones and (ones not in CHINESE_DIGITS or CHINESE_DIGITS[ones] == 0):
        return None
    return CHINESE_DIGITS.get(tens, 1) * 10 + CHINESE_DIGITS.get(ones, 0)


def count_units(prompt: str) -> frozenset[str]:
    """The words that may follow the number in an answer to ``prompt``'s "How many X ...?", casefolded.

    X is the words after "how many" up to the first verb (does, is, can ...) or punctuation, at most four;
    the units are X and every ending of it, each also with its last word in the singular ("two-piece
    splits", "splits", "two-piece split", "split"), and every beginning of it ("U+FFFD" for "U+FFFD
    characters"). "How many of them ..." gives "of them" alone
    ("none of them"). None when the prompt asks no "how many".

    A Chinese prompt's "多少 X" or "几 X" (X up to punctuation, at most 12 characters) gives X and 个; where X
    starts with a measure word (个, 次, 种 ...), also the measure word alone and X without it, else 个X; where
    X has 的, also what follows the last 的 ("多少个完整的行": 个完整的行, 个, 完整的行, 行; "多少字节": 字节,
    个, 个字节). Chinese units are written without spaces ("3 个 U+FFFD" is read as "3" and "个U+FFFD").
    """
    match = _HOW_MANY.search(prompt)
    if not match:
        return _chinese_count_units(prompt)
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
    units.update(" ".join(phrase[:end]) for end in range(1, len(phrase)))  # "3 U+FFFD" as well
    return frozenset(units)


def _chinese_count_units(prompt: str) -> frozenset[str]:
    match = _DUOSHAO.search(prompt)
    unit = _unspaced(match.group(1)) if match else ""
    if not unit or len(unit) > 12:
        return frozenset()
    units = {unit, "个"}
    if unit[0] in _MEASURE_WORDS:
        units |= {unit[0], unit[1:]}
    else:
        units.add(f"个{unit}")  # "10 个字节" for "多少字节"
    if "的" in unit:
        units.add(unit.rpartition("的")[2])
    return frozenset(u for u in units if u)


def count(answer: Any, units: frozenset[str] = frozenset()) -> int:
    """``answer`` as a count: any form :func:`whole_number` reads, ``"none"``/``"no"`` as 0, and either of
    those followed by one of ``units`` (see :func:`count_units`), after an optional "exactly" (恰好).
    Where the question counts times (its units hold "times" or 次), ``"once"``, ``"twice"`` and
    ``"thrice"`` read as 1, 2 and 3. Other words after a number are refused."""
    if not isinstance(answer, str):
        return whole_number(answer)
    agreed = _agreeing(nfkc(answer), lambda part: count(part, units))  # "10 (ten)"
    if agreed is not None:
        return agreed
    text = unquote(nfkc(answer).strip()).strip()
    text = re.sub(r"^(?:exactly\s+|恰好\s*)", "", text, flags=re.IGNORECASE)  # "exactly once", "恰好一次"
    if units & _TIMES and text.casefold() in MULTIPLES:
        return MULTIPLES[text.casefold()]  # "once" where the question asks how many times
    number, _, rest = text.partition(" ")
    chinese = _ZH_COUNT.fullmatch(text)
    if rest and words(rest) in units:
        text = number
    elif chinese and _unspaced(chinese.group(2)) in units:
        text = chinese.group(1)  # "3 个", "三个", "十个字节"
    if text.casefold() in NO_COUNT_WORDS:
        return 0
    try:
        return whole_number(text)
    except UnreadableAnswer:
        raise UnreadableAnswer(f"{answer!r} is not a whole number") from None


def whole_numbers(answer: Any) -> list[int]:
    """``answer`` as a list of ints: a list (tuple, set) of numbers, one number, or numbers in a string."""
    if isinstance(answer, str):
        text = unquote(nfkc(answer).strip())  # "“2, 4”", "［4］"
        parts = [p for p in re.split(r"[\s,;\[\]()，；、（）【】]+|\band\b|和", text) if p]
        return [whole_number(p) for p in parts]
    if isinstance(answer, Iterable):
        return [whole_number(x) for x in answer]
    return [whole_number(answer)]


# -- options -------------------------------------------------------------------------------------------


def parse_options(prompt: str) -> dict[str, str]:
    """The options of a multiple-choice prompt, ``"... A) x; B) y; C) z"``, as ``{"A": "x", ...}``.

    The last option ends at the end of the prompt or at a sentence that follows it (``". Give a list"``).
    A Chinese prompt separates its options with a full-width semicolon (``"A) 分块；B) 字符"``), and a
    sentence after the last one starts after a full stop ``。``.
    """
    options = {}
    for match in _OPTION.finditer(prompt):
        text = re.split(r"\.\s+(?=[A-Z])|。", match.group(2).strip())[0]
        options[match.group(1)] = text.strip()
    return options


def option_forms(text: str, aliases: Iterable[str] = ()) -> tuple[set[str], set[str]]:
    """The word forms (compared case-insensitively) and exact forms (quoted values) of one option."""
    exact: set[str] = set()
    quoted = re.match(r"""(['"])(.*?)\1""", text)
    if quoted:
        exact.add(quoted.group(2))
    bare = re.sub(r"\s*(?:\([^)]*\)|（[^）]*）)", "", text).strip()
    inside = [a or b for a, b in re.findall(_PARENTHESES, text)]
    forms = {text, bare, *inside, *aliases}
    folded = {_option_words(f) for f in forms if not re.fullmatch(r"""\s*(['"]).*\1\s*""", f)}
    return {f for f in folded if f}, {nfkc(value) for value in exact}


def _option_words(text: str) -> str:
    """The words of an option or of a learner's item, compared: NFKC, casefolded, ``_`` as a space, without
    a leading article ("the empty string") or a full stop at the end ("character."). An article is one
    only before English words: in "A 字符" the A is a letter (see :data:`_PRINTED`)."""
    folded = words(nfkc(text).replace("_", " ")).rstrip(".。")
    return re.sub(r"^(?:the|an|a) (?=[\x21-\x7e])", "", folded)


def unqualified(text: str) -> str:
    """``text`` without the module or class path a learner may put before a name:
    ``lesson_lib.core.errors.TruncatedCharacterError``, ``builtins.UnicodeDecodeError``,
    ``asyncio.CancelledError`` and ``Outcome.TRUNCATED`` read as the name alone."""
    return _QUALIFIER.sub("", text.strip(), count=1)


class Options:
    """The options of one choice question, and how a learner's item (a letter or words) maps to one.

    ``texts`` are the options of ``prompt`` (what the learner reads). Each prompt in ``also`` (the same
    question in another language) must have the same letters; its options' words are more forms of the
    same letters, so that a Chinese learner may answer with the English words too.
    """

    def __init__(
        self, prompt: str, aliases: Mapping[str, Iterable[str]] | None = None, also: Iterable[str] = ()
    ) -> None:
        self.texts = parse_options(prompt)
        aliases = aliases or {}
        unknown = set(aliases) - set(self.texts)
        if unknown:
            raise ValueError(f"aliases for options the prompt does not have: {sorted(unknown)}")
        self.forms = {x: option_forms(text, aliases.get(x, ())) for x, text in self.texts.items()}
        for other in also:
            texts = parse_options(other)
            if list(texts) != list(self.texts):
                raise ValueError(f"the prompts' options differ: {self.letters} and {''.join(texts)}")
            for x, text in texts.items():
                forms, exact = option_forms(text)
                self.forms[x][0].update(forms)
                self.forms[x][1].update(exact)

    @property
    def letters(self) -> str:
        return "".join(self.texts)

    def describe(self) -> str:
        """The option letters as the learner reads them: "A to D", "A or B" (in the current language)."""
        letters = self.letters
        if len(letters) > 2:
            return i18n.text("exercises.options.range", first=letters[0], last=letters[-1])
        if len(letters) == 2:
            return i18n.text("exercises.options.pair", first=letters[0], second=letters[1])
        return letters

    def letter(self, item: Any) -> str | None:
        """The option ``item`` names, or None if it names none. Raises :class:`AmbiguousAnswer`."""
        if item is None:
            item = "None"
        raw = as_text(item)
        match = _LETTER.fullmatch(unquote(raw.strip()))  # "B", "'B'", "“B”"
        if match and (not self.texts or match.group(1).upper() in self.texts):
            return match.group(1).upper()
        named = self._named_or_glossed(raw)
        if named is not None or not self.texts:
            return named
        printed = _PRINTED.fullmatch(raw)
        shown = None if printed is None else printed.group(1) or printed.group(2) or printed.group(3)
        if printed and shown and shown.upper() in self.texts:  # a match has one of the three letters
            # the option as printed, "B) character" or "B 字符": its letter and its words must agree
            letter = shown.upper()
            try:
                by_words = self._named_or_glossed(printed.group(4))
            except AmbiguousAnswer as exc:
                if letter in exc.letters:
                    return letter
                raise AmbiguousAnswer(raw.strip(), sorted({letter, *exc.letters})) from None
            if by_words == letter:
                return letter
            if by_words is not None:
                raise AmbiguousAnswer(raw.strip(), sorted({letter, by_words}))
        return None

    def _named_or_glossed(self, raw: str) -> str | None:
        """The option ``raw``'s words name, or that a value and its gloss both name ("completed（已完成）",
        "B (character)"), or None. Raises :class:`AmbiguousAnswer`, also where the two parts of a glossed
        answer name two options."""
        named = self._named(raw)
        if named is not None:
            return named
        try:
            return _agreeing(raw, self._part)
        except DisagreeingAnswer:
            value, gloss = glossed(raw) or ("", "")
            raise AmbiguousAnswer(raw.strip(), sorted({self._part(value), self._part(gloss)})) from None

    def _part(self, text: str) -> str:
        """The option one part of a glossed answer names: a letter, or an option's words."""
        match = _LETTER.fullmatch(text)
        if match and match.group(1).upper() in self.texts:
            return match.group(1).upper()
        named = self._named(text)
        if named is None:
            raise UnreadableAnswer(f"{text!r} names no option")
        return named

    def _named(self, raw: str) -> str | None:
        """The option whose words ``raw`` is, or None. Raises :class:`AmbiguousAnswer`."""
        exact = [x for x, (_, values) in self.forms.items() if raw in values or unquote(raw) in values]
        if len(exact) == 1:
            return exact[0]
        text = unquote(raw.strip())
        fits: list[str] = []
        event_line = re.sub(r"^event: ?", "", text)  # "event: content_block_stop", the line of an event type
        for candidate in dict.fromkeys((text, unqualified(text), event_line)):
            folded = _option_words(candidate)
            fits = [x for x, (forms, _) in self.forms.items() if folded and folded in forms]
            if fits:
                break
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
            items = self._items(unquote(as_text(answer).strip()) if answer is not None else "None")
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
    agreed = _agreeing(as_text(answer), _bool)  # "对（True）"
    if agreed is not None:
        return agreed
    word = unquote(as_text(answer).strip()).strip().casefold()
    if word in {"true", "yes", "对", "是", "正确", "对的", "是的"}:
        return "True"
    if word in {"false", "no", "错", "否", "错误", "错的", "不对"}:
        return "False"
    raise UnreadableAnswer(f"not a yes/no answer: {answer!r}")


def _word(text: str) -> str:
    word = words(unqualified(unquote(text.strip())))
    return OUTCOME_TERMS.get(word, word)


def normal_form(
    kind: str,
    answer: Any,
    options: Options | None = None,
    units: frozenset[str] = frozenset(),
    field: str | None = None,
) -> str:
    """The normal form of ``answer`` for a question of ``kind`` (see the module docstring). ``units`` are
    the words an ``int`` answer may carry after its number (:func:`count_units` of the prompt). ``field``
    is the SSE field a ``literal`` answer is the value of (``"event"``): the whole field line
    (``"event: message_stop"``, ``"event:message_stop"``) reads as its value.

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
        text = as_text(answer)
        agreed = _agreeing(text, _word)  # "未完成（incomplete）", "truncated (被截断)"
        return agreed if agreed is not None else _word(text)
    if kind == "literal":
        text = unquote(as_text(answer, compatible=False))
        line = re.fullmatch(rf"{re.escape(field)}: ?(.*)", text, re.S) if field else None
        return line.group(1) if line else text
    raise ValueError(f"unknown question kind {kind!r}")
