"""The exercise checkers speak the notebook's language: with ``set_language("zh-CN")`` every verdict, hint
and cut description is Chinese, the language is read when a check runs (not when lesson_lib is imported),
and the checkers' decisions never depend on English words (a mismatch is recognised by its tag).

The same wrong answers as ``tests/exercises/test_exercise_checkers.py`` are used, so the Chinese reports
are checked on the cases the English ones are.
"""

from __future__ import annotations

import contextlib
import io
import re

import pytest

import lesson_lib
from lesson_lib import i18n
from lesson_lib.exercises.checkers import (
    check_bug,
    check_cuts,
    check_event_assembler,
    check_line_splitter,
    check_pipeline,
    show_challenge,
)
from tests.exercises.test_exercise_checkers import (
    ANSWER_WORDS,
    WRONG_ASSEMBLERS,
    WRONG_CUTS,
    WRONG_FIXES,
    WRONG_SPLITTERS,
    GoodAssembler,
    GoodSplitter,
    SplitterCollectingEverything,
    decode_holding_across_one_read_only,
    namespace,
)

FIXES = {fix.__name__: fix for _, fix, _ in WRONG_FIXES}
CJK = re.compile(r"[\u4e00-\u9fff]")
ENGLISH_PROSE = ("Hint:", "not attempted", "passed ", "your function", "your code", "the truth", " with ")




def english_runs(message: str) -> list[str]:
    """Runs of four or more English words in ``message``, outside quoted values (reprs) and outside the
    text of an exception the learner's code raised (Python's own messages stay English)."""
    prose = re.sub(r"b?'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "…", message)
    prose = re.sub(r"抛出了 \w+(?:Error|Exception)\b[^。，]*", "抛出了 …", prose)
    return re.findall(r"[A-Za-z']+(?: [A-Za-z']+){3,}", prose)


def assert_chinese(message: str) -> None:
    """A Chinese report: Chinese prose, no English sentence, no internal tag, no answer."""
    assert CJK.search(message), message
    assert english_runs(message) == [], message
    for words in (*ENGLISH_PROSE, "TIMING", "CLOSES", "OPEN:"):
        assert words not in message, (words, message)
    for word in ANSWER_WORDS:
        assert word not in message, (word, message)


def assert_rejected_in_chinese(result, *phrases: str) -> None:
    assert not result.correct, result
    assert "还没有作答" not in result.message, result
    assert_chinese(result.message)
    for phrase in phrases:
        assert phrase in result.message, (phrase, result.message)


# -- every checker, in Chinese ---------------------------------------------------------------------------


@pytest.mark.parametrize(("bug", "name"), [(bug, fix.__name__) for bug, fix, _ in WRONG_FIXES])
def test_every_wrong_fix_is_told_in_chinese(zh, bug, name):
    assert_rejected_in_chinese(check_bug(bug, FIXES[name]))


@pytest.mark.parametrize(("name", "cuts"), [(n, c) for n, c, _ in WRONG_CUTS])
def test_every_wrong_cut_is_told_in_chinese(zh, name, cuts):
    assert_rejected_in_chinese(check_cuts(name, cuts))


@pytest.mark.parametrize("make", [m for m, _ in WRONG_SPLITTERS + WRONG_ASSEMBLERS])
def test_every_wrong_class_is_told_in_chinese(zh, make):
    cls = make()
    check = check_line_splitter if issubclass(cls, GoodSplitter) else check_event_assembler
    assert_rejected_in_chinese(check(cls))


def test_right_answers_and_stubs_in_chinese(zh):
    solved, stubs = namespace("bug_hunt.ipynb"), namespace("bug_hunt.ipynb", solution=False)
    result = check_bug("decode", solved["decode_reads"])
    assert result.correct
    assert result.message.startswith("通过了一次读完整个流、")
    assert "种两段切分、单字节读取、20 种固定种子的随机划分" in result.message
    assert check_bug("decode", stubs["decode_reads"]).message == (
        "还没有作答：decode_reads() 仍然抛出 NotImplementedError。"
        "用你的代码替换掉那行 raise，再运行这个单元格。"
    )
    not_a_function = "请传入函数本身 decode_reads，而不是 'decode_reads'。"
    assert check_bug("decode", "decode_reads").message == not_a_function
    cut = check_cuts("event", namespace("adversarial_cuts.ipynb")["event_cuts"])
    assert cut.correct and "（位于同一事件的两行之间）时，这个朴素的客户端给出 '你好，🙂'" in cut.message
    stub = "还没有作答：把 ... 替换成你的切点偏移（恰好切 1 刀）。"
    assert check_cuts("character", ...).message == stub
    assert check_pipeline(GoodSplitter, GoodAssembler).message.startswith(
        "把你的分行器和组装器接在 lesson_lib 的解码器后面"
    )


def test_cut_descriptions_in_chinese(zh):
    message = check_bug("decode", decode_holding_across_one_read_only).message
    assert message.startswith("每次只读 1 个字节时；只保留其中 2 个切点（字节偏移 ")
    assert "仍然失败，切点位于多字节 UTF-8 字符内部：" in message
    line = check_cuts("line", [47]).message
    assert line.startswith("切点为 [47]（位于一个 CR 与其后的 LF 之间）时")
    assert line.endswith("换一个 CRLF 试试。")
    assert check_cuts("event", [27]).message == "切点 27 没有紧跟在 LF 之后：偏移 26 处的字节是 b'}'。"
    assert check_cuts("event", [29, 62, 85]).message.endswith("你给了 3 个不同的切点。")


def test_show_challenge_in_chinese(zh):
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        show_challenge("character")
    lines = shown.getvalue().splitlines()
    assert lines[0] == "让逐块解码的解码器把文本弄坏。规则：恰好切 1 刀。"
    assert lines[1] == "在偏移 n 处切一刀，第一次读取就到偏移 n - 1 处的字节为止。"
    assert "  字节 11-11  ' '    20" in lines
    assert "  字节 12-14  '日'    e6 97 a5" in lines


# -- the language is read when a check runs ----------------------------------------------------------------


def test_the_language_is_read_when_the_check_runs(restore_language):
    fix = WRONG_FIXES[0][1]
    english = check_bug("decode", fix).message
    lesson_lib.set_language("zh-CN")
    chinese = check_bug("decode", fix).message
    lesson_lib.set_language("en")
    assert check_bug("decode", fix).message == english
    assert english != chinese and "Hint:" in english and "提示：" in chinese




# -- decisions that once read English words now read tags: the same hint in both languages --------------


def collect_closing_once_more(response):
    """The reference fix, then one more close on the success path: closed twice on every chunking."""
    result = namespace("bug_hunt.ipynb")["collect"](response)
    response.close()
    return result


FIXES["collect_closing_once_more"] = collect_closing_once_more
CLOSING_CASES = [
    ("en", "cleanup", "collect_closing_once_more", ["closed 2 times", "Hint: close the response in one"]),
    ("zh-CN", "cleanup", "collect_closing_once_more", ["被关闭了 2 次", "提示：只在一个地方关闭 response，"]),
    ("en", "aclosing", "first_words_closing_twice", ["closed 2 times", "Hint: close the response in one"]),
    ("zh-CN", "aclosing", "first_words_closing_twice", ["关闭了 2 次", "提示：只在一个地方关闭 response。"]),
    ("en", "aclosing", "first_words_returning_inside_the_loop", ["still open", "Hint: you left the async"]),
    ("zh-CN", "aclosing", "first_words_returning_inside_the_loop", ["仍然没有关闭", "提示：你提前跳出了"]),
]


@pytest.mark.parametrize(("code", "bug", "name", "phrases"), CLOSING_CASES)
def test_the_hint_about_closing_is_chosen_in_every_language(restore_language, code, bug, name, phrases):
    lesson_lib.set_language(code)
    message = check_bug(bug, FIXES[name]).message
    for phrase in phrases:
        assert phrase in message, (phrase, message)
    assert "CLOSES" not in message and "OPEN:" not in message


def test_the_heartbeat_timeline_at_the_limit_gets_its_own_hint_in_chinese(zh):
    message = check_bug("heartbeat_clock", FIXES["stalled_at_strictly_after_the_limit"]).message
    assert message.startswith("对于有一个 delta 恰好在上限时刻到达的流，你的函数返回了 None，")
    assert "但正确结果是在 3 秒时超时。" in message
    assert message.endswith("提示：这个 delta 恰好在达到上限的那一刻到达。那时上限还在计时吗？")


def test_the_timing_tag_and_not_streaming_in_chinese(zh):
    holding = dict((m.__name__, m) for m, _ in WRONG_SPLITTERS)["splitter_holding_a_cr_back"]()
    message = check_line_splitter(holding).message
    assert "是从对 close() 的调用里出来的，而不是从第 1 次 feed() 调用里。" in message
    assert "。提示：每一行都必须从让它的行结束符完整到达的那次 feed() 里出来。" in message
    collecting = check_line_splitter(SplitterCollectingEverything).message
    assert collecting.startswith("不是流式处理：每次只读 1 个字符时，")


# -- the Chinese catalogue of the checkers is written as Chinese prose -------------------------------------


def test_chinese_checker_strings_use_full_width_punctuation_and_spaces_around_latin():
    chinese = {k: v for k, v in i18n.catalogue("zh-CN").items() if k.startswith("checkers.")}
    assert chinese
    problems = []
    for key, value in chinese.items():
        prose = re.sub(r"\{[^}]*\}", "", value)  # a field is filled with text of its own
        if re.search(r"[\u4e00-\u9fff][,.;:?!(]|[,;:?!)][\u4e00-\u9fff]", prose):
            problems.append((key, "half-width punctuation in Chinese prose"))
        if re.search(r"[\u4e00-\u9fff][A-Za-z0-9]|[A-Za-z0-9][\u4e00-\u9fff]", prose):
            problems.append((key, "no space between Chinese and Latin"))
        if "Hint" in value or "提示:" in value:
            problems.append((key, "an English hint marker"))
    assert problems == []


@pytest.mark.parametrize("name", ["character", "line", "event", "completion"])
def test_every_single_cut_of_every_challenge_is_reported_in_chinese(zh, name):
    body = namespace("adversarial_cuts.ipynb")["challenge_body"](name)
    for cut in range(1, len(body)):
        assert_chinese(check_cuts(name, [cut]).message)
