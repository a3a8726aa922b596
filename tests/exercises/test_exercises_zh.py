"""The self-checks in Chinese: the questions and check()'s messages come from the zh-CN catalogue, and a
Chinese learner's own ways of writing an answer (number words, measure words, the options' Chinese words,
对/错) read as the same answer. The answers and their digests are the same in both languages.

The English forms keep being read in Chinese; the Chinese forms of options and the Chinese aliases are read
in Chinese only, so that the English edition's behaviour (and its notebooks' outputs) is unchanged.
"""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson_lib import i18n
from lesson_lib.exercises import QUESTIONS, _load_all, check, question
from lesson_lib.exercises.answers import chinese_number, count_units, parse_options
from lesson_lib.i18n import get_language, set_language

from .test_exercises import ANSWERS


def _all_questions():
    _load_all()
    return sorted(QUESTIONS)


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


# -- the catalogues hold every question's prose, and nothing else --------------------------------------------


@pytest.mark.parametrize("code", i18n.LANGUAGES)
def test_every_question_has_its_prose_and_every_prose_key_its_question(code):
    """The code asks for ``questions.{key}...`` with an f-string, which tests/test_i18n.py cannot check key by
    key: here each question's keys must exist, and each ``questions.*`` key must belong to a question."""
    strings = i18n.catalogue(code)
    wanted = set()
    for key in _all_questions():
        q = question(key)
        parts = ["prompt", "hint", "explanation", *(f"hints.{name}" for name in q.hint_names.values())]
        wanted |= {f"questions.{key}.{part}" for part in parts}
    have = {k for k in strings if k.startswith("questions.")}
    assert sorted(wanted - have) == [], "missing"
    assert sorted(have - wanted) == [], "no question asks for these"
    assert all(not _fields(strings[k]) for k in have), "question prose has no fields"


@pytest.mark.parametrize("key", _all_questions())
def test_the_chinese_prompt_has_the_english_options(key):
    english = parse_options(i18n.catalogue("en")[f"questions.{key}.prompt"])
    chinese = parse_options(i18n.catalogue("zh-CN")[f"questions.{key}.prompt"])
    assert list(chinese) == list(english)
    assert all(chinese.values()), chinese


@pytest.mark.parametrize("key", [k for k in _all_questions() if question(k).kind in ("choice", "choices")])
def test_each_chinese_option_names_its_own_letter(key, zh):
    """In Chinese an option's words come from both prompts: no Chinese option may read as another letter."""
    q = question(key)
    for letter, text in q.options.texts.items():
        if not text.startswith(("'", '"')):
            assert q.options.letter(text) == letter, (letter, text)


@pytest.mark.parametrize("key", [k for k in _all_questions() if question(k).local_aliases.get("zh-CN")])
def test_each_chinese_alias_names_its_own_letter(key, zh):
    """A Chinese alias (``zh_aliases``) reads as the option it was written for, not as two options nor as
    another one: an alias that collides with another option's words or aliases would be refused."""
    q = question(key)
    for letter, forms in q.local_aliases["zh-CN"].items():
        for form in forms:
            assert q.options.letter(form) == letter, (letter, form)


@pytest.mark.parametrize("key", [k for k in _all_questions() if question(k).kind == "int"])
def test_each_chinese_count_question_has_a_unit(key):
    """A Chinese count asks with 多少 or 几, so that "3 个" and "三个" can be read."""
    assert "个" in count_units(i18n.catalogue("zh-CN")[f"questions.{key}.prompt"])


def test_a_chinese_question_and_its_messages_are_chinese(zh):
    assert repr(question("01.bytes")) == "问题 01.bytes：'你好🙂' 用 UTF-8 编码占多少字节？"
    assert repr(check("01.bytes", 10)).startswith("01.bytes ✓ 正确：3 + 3 + 4 = 10 个字节")
    assert repr(check("01.bytes", 3)) == "01.bytes ✗ 还不对：3 是字符的个数。网络上计数的单位是字节。"
    unanswered = check("01.bytes", ...).message
    assert unanswered.startswith("把 ... 换成你的答案") and unanswered.endswith("占多少字节？")


@pytest.mark.parametrize(
    ("key", "unreadable", "phrase"),
    [
        ("01.bytes", "很多", "这道题要的是一个整数（int）。"),
        ("01.corrupting_cuts", "一些", "这道题要的是一个整数列表"),
        ("03.framing", "Z", "这道题要的是一个选项，A 到 C（写字母或选项的文字都可以）。"),
        ("02.splitlines", ["Z"], "这道题要的是若干选项，从 A 到 D 中选"),
        ("07.proof", "也许", "这道题要的是布尔值 True 或 False"),
    ],
)
def test_what_a_question_wants_reads_as_chinese(key, unreadable, phrase, zh):
    message = check(key, unreadable).message
    assert phrase in message, message
    assert question(key).hint in message


def test_the_other_messages_read_as_chinese(zh):
    ambiguous = check("04.done_owner", "OpenAI")
    assert not ambiguous and "'OpenAI' 同时符合多个选项（A、B）" in ambiguous.message
    case = check("00.openai_done", "[done]")
    assert not case and "大小写不对" in case.message and "客户端比较的是字节" in case.message
    general = check("01.final", "ValueError")
    assert not general
    assert general.message.startswith("方向对了，但还不够具体：ValueError 没错，只是太宽泛了。")


def test_switching_back_to_english_gives_the_english_message_again(zh):
    assert check("01.bytes", 3).message == "3 是字符的个数。网络上计数的单位是字节。"
    set_language("en")
    assert check("01.bytes", 3).message == "3 is the number of characters. The network counts bytes."
    assert repr(check("01.bytes", 10)).startswith("01.bytes ✓ correct: 3 + 3 + 4 = 10 bytes")


# -- Chinese number words ------------------------------------------------------------------------------------

_DIGITS = "零一二三四五六七八九"


def _written(n: int) -> str:
    """n (0-99) as a Chinese number word, written independently of the code under test."""
    if n < 10:
        return _DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else _DIGITS[tens]) + "十" + (_DIGITS[ones] if ones else "")


@settings(deadline=None)
@given(st.integers(0, 99))
def test_chinese_number_words_read_as_their_number(n):
    assert chinese_number(_written(n)) == n


def test_chinese_number_words_by_example():
    assert [chinese_number(w) for w in ("三", "十", "十二", "二十", "二十一", "九十九", "两", "〇")] == [
        3,
        10,
        12,
        20,
        21,
        99,
        2,
        0,
    ]


@pytest.mark.parametrize(
    "word", ["二二", "十十", "一十二", "零十", "十零", "两十", "百", "三百", "", "三个", "3"]
)
def test_what_is_not_a_chinese_number_word_is_not_read_as_one(word):
    assert chinese_number(word) is None


@pytest.mark.parametrize("key", [k for k in sorted(ANSWERS) if question(k).kind == "int"])
def test_a_count_in_chinese_words_is_read_in_both_languages(key):
    """The number words are read whatever the language (as "three" is): the answer is the same answer."""
    answer = ANSWERS[key]
    assert check(key, _written(answer)).correct
    assert not check(key, _written(answer + 1)).correct


# -- counts with a Chinese unit, and what is not one ---------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("01.bytes", "10 字节"),
        ("01.bytes", "十个字节"),
        ("01.bytes", "10 个"),
        ("01.bytes", "10 bytes"),  # the English unit is read in Chinese too
        ("02.lines", "4 行"),
        ("02.lines", "四个完整的行"),
        ("02.cr_lf_across", "一个"),
        ("02.cr_lf_across", "1 个行结束符"),
        ("03.events", "两个事件"),
        ("05.closes", "一次"),
        ("05.closes", "1 次"),
        ("06.replace_count", "三个 U+FFFD 字符"),
        ("07.splits", "九种"),
        ("07.splits", "9 种两段切分"),
        ("09.naive_fragments", "没有"),
        ("09.naive_fragments", "0 个"),
        ("09.naive_fragments", "零个"),
        ("10.header_hop", "1 次"),
    ],
)
def test_a_chinese_count_reads_its_number_and_unit(key, answer, zh):
    assert check(key, answer).correct, check(key, answer)


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("07.splits", "9 个字节"),  # not the unit the question counts in
        ("07.splits", "九或十种"),
        ("07.splits", "不是九种"),
        ("01.bytes", "10 个字符"),
        ("09.naive_fragments", "没有吗"),
    ],
)
def test_a_chinese_number_with_other_words_is_not_read(key, answer, zh):
    result = check(key, answer)
    assert not result.correct and "这道题要的是一个整数（int）" in result.message, result


def test_count_units_from_a_chinese_prompt():
    assert count_units("一个 10 字节的 body 有多少种两段切分？") == {"种两段切分", "种", "两段切分", "个"}
    assert count_units("'a' 中有多少个完整的行（d 后面还没有）？") == {"个完整的行", "个", "完整的行", "行"}
    assert count_units("它占多少字节？") == {"字节", "个", "个字节"}
    assert count_units("这是什么？") == frozenset()


# -- options, aliases, lists and yes/no in Chinese -----------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("00.held_layer", "字符"),
        ("00.held_layer", "字符层"),
        ("00.held_layer", "character"),  # the English words are still read
        ("02.splitlines", "B、C"),
        ("02.splitlines", "B 和 C"),
        ("02.splitlines", "NEL、U+2028"),
        ("02.splitlines", "下一行符，行分隔符"),
        ("02.splitlines", ["下一行符", "U+2028"]),
        ("03.id", "空字符串"),
        ("03.id", ""),
        ("03.space", " x"),
        ("03.space", "一个空格"),
        ("03.framing", "ndjson"),
        ("05.which_clock", "事件时钟"),
        ("05.which_clock", "event clock"),
        ("07.every_boundary", "逐字节读取"),
        ("07.every_boundary", "单字节读取"),
        ("08.heartbeat_clock", "进度时钟"),
        ("08.heartbeat_clock", "进展时钟"),
        ("08.heartbeat_clock", "进展"),
        ("09.reasoning_where", "reasoning_text"),
        ("10.cancel", "（D）"),
        ("01.corrupting_cuts", "四"),
        ("08.resumable", "A，D"),
        ("07.proof", "错"),
        ("10.caddy_drop", "（D）"),
        ("00.closed_socket", "正确"),
    ],
)
def test_chinese_forms_of_the_answer_pass(key, answer, zh):
    assert check(key, answer).correct, check(key, answer)


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("00.held_layer", "字符层"),  # an alias of the Chinese edition
        ("00.held_layer", "字符"),  # the Chinese option's own words
        ("05.which_clock", "事件时钟"),
    ],
)
def test_the_chinese_option_words_are_read_in_chinese_only(key, answer):
    assert get_language() == "en"
    result = check(key, answer)
    assert not result.correct and "this question wants one option" in result.message


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("02.splitlines", "B"),
        ("02.splitlines", "A、B、C"),
        ("03.id", "空"),
        ("05.which_clock", "字节时钟"),
        ("07.proof", "对"),
    ],
)
def test_near_but_wrong_chinese_forms_fail(key, answer, zh):
    assert not check(key, answer).correct


@pytest.mark.parametrize("answer", ["进展", "进展时钟", "业务进展", "进度时钟"])
def test_the_chinese_words_of_a_wrong_option_get_its_hint(answer, zh):
    """The catalogue says 进展时钟 (progress clock): a learner answering in its words gets option C's hint."""
    result = check("05.which_clock", answer)
    assert not result.correct and result.message == question("05.which_clock").hints["C"], result


def test_the_digests_do_not_depend_on_the_language(zh):
    """Every true answer passes in Chinese with the digests registered once for both languages."""
    for key, answer in ANSWERS.items():
        assert check(key, answer).correct, key
    assert all(re.fullmatch(r"[0-9a-f]{64}", q.answer_digest) for q in QUESTIONS.values())
