"""The Chinese edition does not use the terms its glossary retired (issue 29, "The edition's words").

A native reader of the edition found three renderings that mislead a Chinese engineer:

- 线上格式 for "wire format" reads as "the production format": the glossary's term is 传输格式 (or 报文格式);
- 干净地 / 干净结束 for a "clean" end of a body: the edition says 正常结束, or 恰好在事件边界处结束;
- 未完成 for the outcome ``incomplete``: it is hard to tell from 被截断, so the outcome is 不完整. 未完成
  stays where it means "not yet finished" (an unfinished line, the held bytes of a character still
  arriving), so only the uses that name the outcome are found: glossed with ``incomplete``, listed with
  the other outcomes, or called a verdict or a result.

Read here: every markdown cell and every code comment of the Chinese notebooks (lessons and exercises,
learner copies and solutions), ``README.zh-CN.md``, ``docs/instructor.zh-CN.md`` and the glossary.
What the library prints comes from its catalogue (``lesson_lib/i18n``), which has its own tests.
"""

from __future__ import annotations

import io
import json
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ZH = ROOT / "notebooks" / "zh-CN"
DOCUMENTS = [ROOT / "README.zh-CN.md", ROOT / "docs" / "instructor.zh-CN.md", ROOT / "docs" / "glossary.md"]

#: Lessons whose words another change is fixing (issue 29): the check on them is expected to fail until it
#: lands, and ``strict`` makes it fail loudly once it passes, so the entry is removed then.
#: Notebooks whose retired terms are known and not yet fixed (strict: the mark must go when they are).
PENDING: dict[str, str] = {}

#: A retired term, what the edition says instead, and the pattern that finds it.
RETIRED: list[tuple[str, str, re.Pattern[str]]] = [
    ("线上格式", "传输格式 (or 报文格式)", re.compile("线上格式")),
    (
        "干净 (a clean end)",
        "正常结束, or 恰好在事件边界处结束",
        re.compile(r"干净(?:地|的?结束|的? ?EOF|的?切断|的?关闭)"),
    ),
    (
        "未完成 for the outcome incomplete",
        "不完整",
        re.compile(
            r"未完成\s*[（(]\s*`?incomplete"  # 未完成（incomplete）
            r"|`?incomplete`?\s*[（(]\s*未完成"  # incomplete（未完成）
            r"|已完成\s*[、，,和与/]\s*未完成|未完成\s*[、，,和与/]\s*(?:被截断|已完成)"  # a list of outcomes
            r"|(?:判定结果|判定为|判为|判成|结果是|结果为)\s*[“\"「]?未完成"  # named as the verdict
            r"|未完成的(?:结果|判定)"
        ),
    ),
]


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _source(cell: dict) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else source


def _comments(code: str) -> str:
    """The comments of a code cell, one a line (IPython's ``%`` and ``!`` lines are left out)."""
    lines = [line for line in code.splitlines() if not line.lstrip().startswith(("%", "!"))]
    tokens = tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n").readline)
    return "\n".join(token.string for token in tokens if token.type == tokenize.COMMENT)


def texts_of_notebook(path: Path) -> list[tuple[str, str]]:
    """``(where, text)`` for each markdown cell and each code cell's comments, ``where`` naming the cell."""
    out = []
    for number, cell in enumerate(_cells(path)):
        text = _source(cell) if cell["cell_type"] == "markdown" else _comments(_source(cell))
        if text:
            out.append((f"{path.relative_to(ROOT)} cell {number}", text))
    return out


def retired_uses(where: str, text: str) -> list[str]:
    """One line for each retired term in ``text``: where it is, the words around it, what to say instead."""
    found = []
    for name, instead, pattern in RETIRED:
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            around = text[max(0, match.start() - 15) : match.end() + 15].replace("\n", " ")
            found.append(f"{where}, line {line}: {name} in '{around}' (say {instead})")
    return found


def chinese_notebooks() -> list[Path]:
    return sorted(p for p in ZH.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def _param(path: Path) -> object:
    reason = PENDING.get(path.name)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(path, id=str(path.relative_to(ZH)), marks=marks)


def test_the_notebooks_are_found() -> None:
    """The checks below read the edition: lessons 00-12 and the exercises (learner copies and solutions)."""
    names = {str(p.relative_to(ZH)) for p in chinese_notebooks()}
    assert {
        "00_start_here.ipynb",
        "04_events_are_not_completion.ipynb",
        "exercises/interview_prep.ipynb",
    } <= names
    assert "exercises/solutions/interview_prep.ipynb" in names
    assert len(names) >= 20
    assert set(PENDING) <= {p.name for p in chinese_notebooks()}


@pytest.mark.parametrize("path", [_param(p) for p in chinese_notebooks()])
def test_a_notebook_has_no_retired_term(path: Path) -> None:
    found = [use for where, text in texts_of_notebook(path) for use in retired_uses(where, text)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_document_has_no_retired_term(path: Path) -> None:
    found = retired_uses(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"))
    assert not found, "\n".join(found)


#: Sentences the check must find (each names a retired term), and sentences it must leave alone.
FOUND = [
    "内容是虚构的，线上格式却与 OpenAI 的一致",
    "连接可能在两个事件之间干净地关闭",
    "响应体干净结束",
    "判定结果：已完成（`completed`）、未完成（`incomplete`）、被截断（`truncated`）",
    "已完成、未完成、被截断",
    "incomplete（未完成）",
    "这条流判为未完成",
    "作为未完成的结果",
]
LEFT = [
    "内容是虚构的，传输格式却与 OpenAI 的一致",
    "连接可能恰好在两个事件之间正常关闭",
    "分行器保留未完成的行，只返回完整的行",
    "在两次读取之间暂存未完成字符的 0-3 个字节",
    "判定结果：已完成（`completed`）、不完整（`incomplete`）、被截断（`truncated`）",
    "尚未完成的部分被丢弃",
]


@pytest.mark.parametrize("text", FOUND)
def test_the_check_finds_a_retired_term(text: str) -> None:
    assert retired_uses("example", text)


@pytest.mark.parametrize("text", LEFT)
def test_the_check_leaves_the_edition_s_words_alone(text: str) -> None:
    assert retired_uses("example", text) == []


def test_comments_are_read_and_strings_are_not() -> None:
    """A code cell's comment is checked; a string in it is output, which the catalogue's tests cover."""
    code = 'print("干净")  # 在一个完整事件之后干净结束\n%time x = 1\n'
    assert _comments(code) == "# 在一个完整事件之后干净结束"
