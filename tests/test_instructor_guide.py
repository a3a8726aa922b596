"""The instructor guide's timed plans (docs/instructor.md, docs/instructor.zh-CN.md) against the lessons.

Each plan is a `##` section of the guide with a table whose columns are start, notebook and what happens.
A row gives a lesson one of three treatments, read from its text:

- *shown*: the row starts with "Demo" (Chinese: "演示" or "只做演示"); learners do not run it;
- *run in part*: the row names the sections learners run ("Learners run sections 1-4", Chinese
  "学员运行第 1-4 节", or in the notebook column: "`03`, sections 1-4"); a section named for a demo
  does not count;
- *run in full*: any other row for a lesson.

Each numbered lesson of notebooks/ appears in a plan. A plan gives a lesson at most the upper end of the
estimate its opening cell states ("**Time.** 30 to 40 minutes"), counting all its rows, and a lesson run in
full at least the lower end. Each row lasts until the next row's start, and the last row is the end, at
1:30 for a 90-minute plan and at 3:00 for a 3-hour one. The two editions have the same plans, row for row.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDES = {"en": ROOT / "docs" / "instructor.md", "zh-CN": ROOT / "docs" / "instructor.zh-CN.md"}
HEADER = {"en": "| start | notebook | what happens |", "zh-CN": "| 开始 | notebook | 内容 |"}
END = {"en": "end", "zh-CN": "结束"}
LENGTH = {"en": re.compile(r"(\d+)-minute|(\d+)-hour"), "zh-CN": re.compile(r"(\d+) 分钟|(\d+) 小时")}
SHOWN = {"en": re.compile(r"Demo\b"), "zh-CN": re.compile(r"(只做)?演示")}
SECTIONS = {"en": re.compile(r"\brun sections? \d|^`\d\d`, sections? \d"),
            "zh-CN": re.compile(r"运行第 \d[\d、\- ]*节|^`\d\d` 第 \d[\d、\- ]*节")}
LESSON = re.compile(r"`(\d\d)(?:_\w+)?`")
# "bugs 1-3, half 4-6; ...", "Bug 7: ...", "bug 8，另一半做 bug 9；": the numbers up to the first ; : or (
BUGS = re.compile(r"\bbugs? ([^;；:：(（]*)", re.I)


@dataclass(frozen=True)
class Row:
    start: int  # minutes from the beginning
    notebook: str
    text: str


@dataclass(frozen=True)
class Plan:
    heading: str
    length: int  # minutes the heading announces
    rows: tuple[Row, ...]


def clock(value: str) -> int:
    """'2:05' as 125 minutes; a malformed start fails naming it."""
    found = re.fullmatch(r"(\d+):(\d\d)", value.strip())
    assert found, f"a start time that is not H:MM: {value!r}"
    return int(found.group(1)) * 60 + int(found.group(2))


def plans(text: str, lang: str) -> list[Plan]:
    """The guide's timed plans, in order: each `##` section holding a table with the plan header."""
    found = []
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        heading, _, body = section.partition("\n")
        if HEADER[lang] not in body:
            continue
        length = LENGTH[lang].search(heading)
        assert length, f"a plan whose heading gives no length: {heading!r}"
        minutes = int(length.group(1)) if length.group(1) else int(length.group(2)) * 60
        table = body[body.index(HEADER[lang]):].split("\n\n")[0].splitlines()[2:]
        rows = []
        for line in table:
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            assert len(cells) == 3, f"{heading}: a row without three cells: {line!r}"
            rows.append(Row(clock(cells[0]), cells[1], cells[2]))
        found.append(Plan(heading, minutes, tuple(rows)))
    return found


def estimates() -> dict[str, tuple[int, int]]:
    """Each lesson's stated time, (low, high) minutes, from the opening cell of its English edition."""
    found = {}
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        first = "".join(json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"])
        stated = re.search(r"\*\*Time\.\*\* (\d+) to (\d+) minutes", first)
        assert stated, f"{path.name}: no '**Time.** N to M minutes' in its first cell"
        found[path.name[:2]] = (int(stated.group(1)), int(stated.group(2)))
    return found


def treatment(row: Row, lang: str) -> str:
    """'shown', 'part' or 'full' for a lesson's row, as the module docstring defines them."""
    if SHOWN[lang].match(row.text):
        return "shown"
    if SECTIONS[lang].search(row.notebook) or SECTIONS[lang].search(row.text):
        return "part"
    return "full"


def problems(text: str, lang: str) -> list[str]:
    """What is wrong with the guide's plans: times that do not add up, a lesson run in full in fewer minutes
    than its lower estimate. An empty list means the plans hold."""
    found = []
    lessons = estimates()
    for plan in plans(text, lang):
        given: dict[str, int] = {}
        rows = plan.rows
        if not rows or rows[0].start != 0:
            found.append(f"{plan.heading}: the first row does not start at 0:00")
        last = rows[-1] if rows else None
        if last is None or last.notebook != END[lang] or last.start != plan.length:
            hours, minutes = divmod(plan.length, 60)
            found.append(f"{plan.heading}: the last row is not '{END[lang]}' at {hours}:{minutes:02d}")
        for row, following in itertools.pairwise(rows):
            minutes = following.start - row.start
            if minutes <= 0:
                found.append(f"{plan.heading}: {row.notebook} at {row.start} min lasts {minutes} min")
            lesson = LESSON.match(row.notebook)
            if lesson:
                given[lesson.group(1)] = given.get(lesson.group(1), 0) + minutes
            if lesson and treatment(row, lang) == "full":
                low = lessons[lesson.group(1)][0]
                if minutes < low:
                    found.append(f"{plan.heading}: {row.notebook} is run in full in {minutes} min, "
                                 f"its lesson says {low} at least")
        for number, minutes in sorted(given.items()):
            high = lessons[number][1]
            if minutes > high:
                found.append(f"{plan.heading}: `{number}` gets {minutes} min, its lesson says {high} at most")
    return found


def missing_lessons(text: str, lang: str) -> list[str]:
    """The numbered lessons of notebooks/ that no plan of the guide names, in order."""
    named = set().union(*(covered(plan)[0] for plan in plans(text, lang)))
    return sorted(set(estimates()) - named)


def lesson_of(row: Row) -> str | None:
    """The two-digit lesson a row names, or None for a break, an exercise or the end."""
    found = LESSON.match(row.notebook)
    return found.group(1) if found else None


def covered(plan: Plan) -> tuple[set[str], set[int]]:
    """The lessons a plan's rows name and the bug_hunt bugs they give learners."""
    lessons = {found.group(1) for row in plan.rows if (found := LESSON.match(row.notebook))}
    bugs: set[int] = set()
    for row in plan.rows:
        if "bug_hunt" in row.notebook:
            for named in BUGS.findall(row.text):
                for low, high in re.findall(r"(\d+)(?:-(\d+))?", named):
                    bugs.update(range(int(low), int(high or low) + 1))
    return lessons, bugs


@pytest.mark.parametrize("lang", GUIDES)
def test_the_plans_add_up_and_match_the_lessons_estimates(lang):
    text = GUIDES[lang].read_text(encoding="utf-8")
    assert len(plans(text, lang)) == 4
    assert problems(text, lang) == []


@pytest.mark.parametrize("lang", GUIDES)
def test_every_lesson_is_in_a_plan(lang):
    assert len(estimates()) >= 13  # 00 to 12 at least: the notebooks were found
    assert missing_lessons(GUIDES[lang].read_text(encoding="utf-8"), lang) == []


@pytest.mark.parametrize("lang", GUIDES)
def test_the_tracks_cover_the_lessons_and_the_bugs(lang):
    short, first, second, own = plans(GUIDES[lang].read_text(encoding="utf-8"), lang)
    assert (short.length, first.length, second.length, own.length) == (90, 180, 180, 90)
    assert covered(first) == ({f"{n:02d}" for n in range(8)}, set(range(1, 7)))
    assert covered(second) == ({f"{n:02d}" for n in range(6, 11)}, set(range(7, 11)))
    assert covered(own) == ({"11", "12"}, set())


def test_the_editions_have_the_same_plans():
    english, chinese = (plans(GUIDES[lang].read_text(encoding="utf-8"), lang) for lang in GUIDES)
    assert len(english) == len(chinese)
    for en, zh in zip(english, chinese, strict=True):
        assert en.length == zh.length
        starts = [(r.start, lesson_of(r)) for r in en.rows]
        assert starts == [(r.start, lesson_of(r)) for r in zh.rows], en.heading
        for a, b in zip(en.rows, zh.rows, strict=True):
            if LESSON.match(a.notebook):
                assert treatment(a, "en") == treatment(b, "zh-CN"), (en.heading, a.notebook)
        assert covered(en)[1] == covered(zh)[1], en.heading


@pytest.mark.parametrize("lang", GUIDES)
def test_the_checks_can_fail(lang):
    """A lesson run in full in too few minutes, a start before the previous one and a plan that overruns
    are each found."""
    text = GUIDES[lang].read_text(encoding="utf-8")
    row = {"en": "| 0:55 | `03` | Learners run sections 1-5;",
           "zh-CN": "| 0:55 | `03` | 学员运行第 1-5 节；"}[lang]
    assert row in text
    line = next(line for line in text.splitlines() if line.startswith(row))
    whole = {"en": "| 0:55 | `03` | Learners run it. |", "zh-CN": "| 0:55 | `03` | 学员运行本课。 |"}[lang]
    full = text.replace(line, whole)
    assert any("`03` is run in full in 25 min" in p for p in problems(full, lang))
    overrun = text.replace(f"| 3:00 | {END[lang]} |", f"| 3:05 | {END[lang]} |", 1)
    assert any("the last row" in p for p in problems(overrun, lang))
    backwards = text.replace(row, row.replace("0:55", "0:35"))
    assert any("lasts -5 min" in p for p in problems(backwards, lang))
    longer = text.replace("| 0:40 | `02` |", "| 0:55 | `02` |", 1)  # 01 from 0:10 to 0:55: 45 min of 30-40
    assert longer != text and any("`01` gets 45 min, its lesson says 40 at most" in p
                                  for p in problems(longer, lang))


@pytest.mark.parametrize("lang", GUIDES)
def test_a_lesson_left_out_of_every_plan_is_found(lang):
    text = GUIDES[lang].read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if re.match(r"\| \d:\d\d \| `12`", line)]
    assert len(rows) == 1, rows
    without = text.replace(rows[0] + "\n", "")
    assert missing_lessons(without, lang) == ["12"]
    assert missing_lessons(text, lang) == []
